"""`python -m bct.compare [results_dir]`: every agent side by side with the published numbers.

Rows are agents (with `+mod` where they play with the game's symbolic module), columns the four
games of the paper and their average, cells `score (steps)`, as in Table 4 of "Large Language
Models Are Neurosymbolic Reasoners". Steps are environment steps on both sides: the published
numbers count the actions sent to the game, not module calls, so ours are `avg_env_steps`. Published rows are marked as such. Writes the table as
Markdown and a bar chart (PNG) next to the results.
"""

from bct.reports.compare import main

if __name__ == "__main__":
    main()
