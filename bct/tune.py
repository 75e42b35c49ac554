"""`python -m bct.tune <sweep_dir | run_dir>`: the paper's epoch tuning, from the jobs of a `bct.train -m` sweep, or from the kept checkpoints of one `select=dev` run (its selection.json).

The command's code and its options: bct/jobs/tuning.py."""

from bct.jobs.tuning import main

if __name__ == "__main__":
    main()
