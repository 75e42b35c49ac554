"""Basics every layer uses: one-line user errors, atomic files, thread counts, resuming a stopped run."""
