"""`python -m bct.generalize`: play trained checkpoints on game variants; a Markdown table and a PNG.

The command's code and its options: bct/jobs/generalize.py."""

from bct.jobs.generalize import main

if __name__ == "__main__":
    main()
