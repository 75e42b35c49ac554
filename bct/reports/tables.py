"""`python -m bct.report`: a table of every evaluation under a results folder, and its HTML page.

python -m bct.report [results_dir] [--fold dev]
python -m bct.report results --html report.html   # one self-contained page: table, chart, every episode
python -m bct.report results/lever --against results/base   # two passes, run by run (bct/reports/paired.py)

Beside the table of every evaluation, each world's own tables (`World.reports`: TWX's eight games, ScienceWorld's
tasks and recipes, TextWorld's games), each written to DIR/<its file>.md where the results hold that world's games.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bct.core.errors import ArgumentParser, UserError, exits_cleanly
from bct.core.files import write_atomic
from bct.core.results import collect, invalid_share
from bct.worlds.registry import FOLDS, WORLDS, modules_label


def console_table(rows: list[dict], title: str = "Evaluation results") -> Table:
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
def main(argv: list[str] | None = None) -> None:
    reports = {report.file: report for world in WORLDS.values() for report in world.reports}
    ap = ArgumentParser(
        prog="python -m bct.report", description="Print a table of every evaluation under a results folder."
    )
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument("--fold", default=None, choices=FOLDS)
    ap.add_argument("--html", default=None, metavar="FILE", help="also write one self-contained HTML page")
    ap.add_argument("--only", default=None, choices=sorted(reports), help="write and print one world's table alone")
    ap.add_argument(
        "--against",
        default=None,
        metavar="DIR",
        help="compare with another pass of the same weights, run by run",
    )
    args = ap.parse_args(argv)
    if args.only and args.html:
        ap.error("--only writes one table; drop --html (or --only for the page)")
    if args.against:
        if args.only or args.html:
            ap.error("--against prints the paired comparison alone; drop --only and --html")
        from bct.reports import paired

        a, b = paired.per_episode(args.results_dir, args.fold), paired.per_episode(args.against, args.fold)
        result = paired.compare(a, b)
        if not result["trainings"]:
            raise UserError(
                f"no episode of {args.results_dir} was played by the same weights on the same game, fold, draw and "
                f"loop in {args.against}; --against compares two passes of the same checkpoints"
            )
        print(paired.table(result, args.results_dir, args.against))
        return
    rows = collect(args.results_dir, args.fold)
    if not rows:
        raise UserError(f"no results.json under {args.results_dir}; run 'python -m bct.evaluate' first")
    if not args.only:
        Console(width=None if sys.stdout.isatty() else 200).print(console_table(rows))
    # each world's own tables (its folder's report.py), where the rows hold its games; with --only that one alone
    for report in [reports[args.only]] if args.only else reports.values():
        md = report.table(rows)
        if not md and args.only:
            raise UserError(f"no results under {args.results_dir} for {args.only}; evaluate one of its games first")
        if md:
            out = Path(args.results_dir) / f"{report.file}.md"
            write_atomic(out, md)
            print(f"{md}\nwrote {out}")
    if args.html:
        from bct.reports.html import write_html

        print(f"wrote {write_html(args.results_dir, args.html, rows)}")
