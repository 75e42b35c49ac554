"""`python -m bct.generalize`: play trained checkpoints on game variants; a Markdown table and a PNG.

    python -m bct.generalize --checkpoints checkpoints/mapreader-... \\
        --games mapreader "mapreader maxDistanceApart=6" "mapreader numLocations=30 maxDistanceApart=8 step_limit=80"
    python -m bct.generalize --checkpoints checkpoints/twc-... checkpoints/twc-hard-... --games twc twc-medium twc-hard

Rows: what each checkpoint was trained on; columns: what it played (a preset, then `NAME=VALUE`
TWX parameters, and `step_limit=N` where a bigger map needs more steps); cells: score (environment
steps). Each cell is an ordinary evaluation under `--results-dir` (resumed when run again); a
variant that TWX cannot make is marked as such.
"""

from bct.jobs.generalize import main

if __name__ == "__main__":
    main()
