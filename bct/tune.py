"""`python -m bct.tune <sweep_dir | run_dir>`: the paper's epoch tuning, from the jobs of a `bct.train -m`
sweep, or from the kept checkpoints of one `select=dev` run (its selection.json).

Reads every job's dev results, prints and writes a table of dev score and steps by epochs (per game
and module setting, `tuning-results.txt`), plots score against epochs (`tuning-scores.png`), picks the best
epochs (ties go to fewer epochs) and evaluates that checkpoint on test, or prints the command
(`--dry-run`). Failed or unfinished jobs are reported, not fatal.
"""

from bct.jobs.tuning import main

if __name__ == "__main__":
    main()
