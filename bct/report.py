"""Reading evaluation results back: every results.json under a folder, as rows and a table.

python -m bct.report [results_dir] [--fold dev]
python -m bct.report results --html report.html   # one self-contained page: table, chart, every episode
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bct.errors import ArgumentParser, UserError, exits_cleanly
from bct.games import FOLDS, modules_label


def collect(results_dir: str | Path, fold: str | None = None) -> list[dict]:
    """One row per results.json under `results_dir` (its summary fields, not the per-variation list).
    A damaged file is skipped with a warning; a folder that does not exist is a UserError."""
    if not Path(results_dir).is_dir():
        raise UserError(
            f"no results folder at {results_dir}; evaluate first: python -m bct.evaluate ... results_dir={results_dir}"
        )
    rows = []
    for path in sorted(Path(results_dir).rglob("results.json")):
        if ".replaced-" in path.parent.name:  # set aside: results of earlier weights, or unreadable
            continue
        try:
            r = json.loads(path.read_text())
            if not all(k in r for k in ("game", "modules", "fold", "agent", "avg_score", "avg_steps", "avg_env_steps")):
                raise KeyError("summary fields")
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as e:
            print(f"warning: skipped {path}: not a readable results file ({type(e).__name__})", file=sys.stderr)
            continue
        if fold and r.get("fold") != fold:
            continue
        rows.append(
            {
                **{k: v for k, v in r.items() if k != "per_variation"},
                "run": path.parent.parent.name,
                "path": str(path.parent),
            }
        )
    return rows


def episodes(row: dict) -> list[dict]:
    """The played episodes of one evaluation (its histories.jsonl, beside results.json), in seed order;
    [] where the evaluation wrote none. A damaged line is skipped with a warning."""
    path = Path(row["path"]) / "histories.jsonl"
    found = []
    if path.exists():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"warning: skipped line {n} of {path}: not JSON (cut off mid-write?)", file=sys.stderr)
    return sorted(found, key=lambda e: e["seed"])


def solved(episode: dict) -> bool:
    """Whether an episode ended in the game's success (its score reached 1 on games that report no success)."""
    return bool(episode.get("success")) or episode.get("score", 0) >= 1.0


def invalid_share(row: dict) -> float | None:
    """For an LLM row: the share of its replies that named no valid action (the closest valid action
    was then played for it); None for other agents."""
    if row.get("agent") != "llm":
        return None
    replies = (row.get("avg_steps") or 0) * row.get("num_variations", 0)
    return row.get("agent_stats", {}).get("invalid_replies", 0) / replies if replies else 0.0


def table(rows: list[dict], title: str = "Evaluation results") -> Table:
    t = Table(title=title)
    numbers = ("n", "score", "steps", "env", "module", "invalid")
    for col in ("run", "agent", "game", "modules", "fold", *numbers):
        t.add_column(col, justify="right" if col in numbers else "left")
    for r in rows:
        share = invalid_share(r)  # LLM rows: replies that named no valid action; * when most did
        t.add_row(
            r["run"],
            r["agent"],
            r["game"],
            modules_label(r["modules"]),
            r["fold"],
            str(r["num_variations"]),
            f"{r['avg_score']:.3f}",
            f"{r['avg_steps']:.1f}",
            f"{r['avg_env_steps']:.1f}",
            f"{r['avg_module_steps']:.1f}",
            "" if share is None else f"{share:.0%}" + (" *" if share > 0.5 else ""),
        )
    if any((invalid_share(r) or 0) > 0.5 for r in rows):
        t.caption = "* most actions came from the closest-valid-action fallback, not from the model's replies"
    return t


@exits_cleanly
def main() -> None:
    ap = ArgumentParser(
        prog="python -m bct.report", description="Print a table of every evaluation under a results folder."
    )
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument("--fold", default=None, choices=FOLDS)
    ap.add_argument("--html", default=None, metavar="FILE", help="also write one self-contained HTML page")
    args = ap.parse_args()
    rows = collect(args.results_dir, args.fold)
    if not rows:
        raise UserError(f"no results.json under {args.results_dir}; run 'python -m bct.evaluate' first")
    Console(width=None if sys.stdout.isatty() else 200).print(table(rows))
    if args.html:
        from bct.report_html import write_html

        print(f"wrote {write_html(args.results_dir, args.html, rows)}")


if __name__ == "__main__":
    main()
