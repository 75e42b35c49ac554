"""`python -m bct.share CHECKPOINT OUT_DIR [--push REPO_ID]`: a trained agent as a hub-ready folder.

The command's code and its options: bct/reports/share.py."""

from bct.reports.share import main

if __name__ == "__main__":
    main()
