"""Reading evaluation results back: every results.json under a folder, as rows and a table.

    python -m bct.report [results_dir] [--fold dev]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table


def collect(results_dir: str | Path, fold: str | None = None) -> list[dict]:
    """One row per results.json under `results_dir` (its summary fields, not the per-variation list)."""
    rows = []
    for path in sorted(Path(results_dir).rglob("results.json")):
        r = json.loads(path.read_text())
        if fold and r.get("fold") != fold:
            continue
        rows.append({**{k: v for k, v in r.items() if k != "per_variation"}, "run": path.parent.parent.name,
                     "path": str(path.parent)})
    return rows


def table(rows: list[dict], title: str = "Evaluation results") -> Table:
    t = Table(title=title)
    for col in ("run", "agent", "game", "variant", "fold", "n", "score", "steps", "env", "module"):
        t.add_column(col, justify="right" if col in ("n", "score", "steps", "env", "module") else "left")
    for r in rows:
        t.add_row(r["run"], r["agent"], r["game"], r["variant"], r["fold"], str(r["num_variations"]),
                  f"{r['avg_score']:.3f}", f"{r['avg_steps']:.1f}", f"{r['avg_env_steps']:.1f}",
                  f"{r['avg_module_steps']:.1f}")
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description="Print a table of every evaluation under a results folder.")
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument("--fold", default=None)
    args = ap.parse_args()
    rows = collect(args.results_dir, args.fold)
    if not rows:
        raise SystemExit(f"error: no results.json under {args.results_dir}; run 'python -m bct.evaluate' first")
    Console(width=None if sys.stdout.isatty() else 200).print(table(rows))


if __name__ == "__main__":
    main()
