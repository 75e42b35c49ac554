"""`python -m bct.report`: a table of every evaluation under a results folder, and its HTML page.

The command's code and its options: bct/reports/tables.py."""

from bct.reports.tables import main

if __name__ == "__main__":
    main()
