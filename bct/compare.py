"""`python -m bct.compare [results_dir]`: every agent side by side with the published numbers.

The command's code and its options: bct/reports/compare.py."""

from bct.reports.compare import main

if __name__ == "__main__":
    main()
