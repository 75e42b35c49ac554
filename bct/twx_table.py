"""`python -m bct.twx_table [results_dir]`: all eight TextWorldExpress games, with and without memory.

The command's code and its options: bct/reports/twx_table.py."""

from bct.reports.twx_table import main

if __name__ == "__main__":
    main()
