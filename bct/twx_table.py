"""`python -m bct.twx_table [results_dir]`: all eight TextWorldExpress games, with and without memory.

Columns: the paper's four games and TWX's other four at TWX's defaults, then the settings TALES
(2025) published zero-shot LLM figures on. Rows: the T5 agent with modules and memory, with modules
only (no memory: for TWX's other four, which have no module of their own, the Markov agent), without
modules; the hand-written planner over the memory's facts (agent=planner: rules, not learned, a row of
its own); random; oracle; LLM agents found in the results; then TALES's published numbers, marked as
such. Cells: `score (environment steps)` on the test fold.

bct scores an episode by its final state; TALES by the best score reached during play (a score that
rises and then falls counts at its peak there): ours is the stricter measure.
"""

from bct.reports.twx_table import main

if __name__ == "__main__":
    main()
