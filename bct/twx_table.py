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

from __future__ import annotations

from pathlib import Path

from bct.errors import ArgumentParser, exits_cleanly
from bct.files import write_atomic
from bct.games import PAPER_GAMES
from bct.results import collect

TWX_GAMES = (*PAPER_GAMES, "simonsays", "simonsays-memory", "peckingorder", "coin", "cookingworld")
TALES_GAMES = ("cookingworld-tales", "simonsays-memory-tales", "coin-tales")
# TALES (2025), test fold, score = best reached during play: the figures it published for these games.
PUBLISHED = {
    "TALES o3-medium (published)": {"cookingworld-tales": 0.768, "simonsays-memory-tales": 0.514},
    "TALES gpt-4o (published)": {
        "cookingworld-tales": 0.392,
        "simonsays-memory-tales": 1.0,
        "twc": 0.5,
        "arithmetic": 0.0,
        "sorting": 0.0,
    },
}


def row_name(r: dict) -> str:
    """What kind of agent a results row is: the T5 agent by its modules and memory setting, else its name."""
    if r["agent"] != "t5":
        return NAMES.get(r["agent"], r.get("run", r["agent"]))
    memory = r.get("memory")
    if r["modules"]:
        return "T5 offline + modules" + (" + memory" if memory else " (no memory)")
    return "T5 offline, no modules" + (" + memory" if memory else "")


def column(r: dict) -> str | None:
    """A row's column: its preset (a game with the memory switched from its default counts as the preset);
    None for a variant with changed parameters, which the table leaves out."""
    return None if r.get("game_params") else r.get("game_preset") or r["game"]


NAMES = {"planner": "planner (hand-written rules, not learned)", "random": "random", "oracle": "oracle"}
ORDER = (
    "T5 offline + modules + memory",
    "T5 offline + modules (no memory)",
    "T5 offline, no modules + memory",
    "T5 offline, no modules",
    NAMES["planner"],
    "random",
    "oracle",
)


def table(rows: list[dict]) -> str:
    games = [*TWX_GAMES, *TALES_GAMES]
    cells: dict[str, dict[str, str]] = {}
    for r in rows:
        col = column(r)
        if col not in games:
            continue
        cells.setdefault(row_name(r), {})[col] = f"{r['avg_score']:.2f} ({r['avg_env_steps']:.1f})"
    for name, scores in PUBLISHED.items():
        cells[name] = {g: f"{s:.2f}" for g, s in scores.items()}
    names = sorted(cells, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))
    head = ["agent", *games]
    lines = [
        "Score (environment steps), test fold. Columns after the eight TWX games at TWX's defaults: the settings "
        "TALES published on. TALES counts the best score reached in play; bct the final score (stricter).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name in names:
        lines.append("| " + " | ".join([name, *(cells[name].get(g, "") for g in games)]) + " |")
    return "\n".join(lines) + "\n"


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog="python -m bct.twx_table", description=__doc__.splitlines()[0])
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument("--out", default=None, help="Markdown file (default: <results_dir>/twx-table.md)")
    args = ap.parse_args(argv)
    text = table(collect(args.results_dir, "test"))
    out = Path(args.out or Path(args.results_dir) / "twx-table.md")
    write_atomic(out, text)
    print(text)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
