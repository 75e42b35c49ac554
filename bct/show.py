"""`python -m bct.show`: look at played episodes step by step, or at generated training examples.

The command's code and its options: bct/reports/show.py."""

from bct.reports.show import main

if __name__ == "__main__":
    main()
