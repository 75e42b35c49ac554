"""`python -m bct.report`: a table of every evaluation under a results folder, and its HTML page.

python -m bct.report [results_dir] [--fold dev]
python -m bct.report results --html report.html   # one self-contained page: table, chart, every episode
"""

from bct.reports.tables import main

if __name__ == "__main__":
    main()
