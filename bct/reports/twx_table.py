"""`python -m bct.twx_table [results_dir]`: all eight TextWorldExpress games, with and without memory, beside TALES's
figures, on the test fold; the one agent beside the specialists where the results hold one. The table is TWX's own
(bct/worlds/twx/report.py); this command writes it alone, `python -m bct.report` beside every other world's."""

from __future__ import annotations

from pathlib import Path

from bct.core.errors import ArgumentParser, UserError, exits_cleanly
from bct.core.files import write_atomic
from bct.core.results import collect
from bct.worlds.registry import WORLDS


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog="python -m bct.twx_table", description=__doc__.splitlines()[0])
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument("--out", default=None, help="Markdown file (default: <results_dir>/twx-table.md)")
    args = ap.parse_args(argv)
    (report,) = (r for r in WORLDS["twx"].reports if r.file == "twx-table")
    text = report.table(collect(args.results_dir, "test"))
    if not text:
        raise UserError(f"no TextWorldExpress test results under {args.results_dir}; evaluate with fold=test first")
    out = Path(args.out or Path(args.results_dir) / "twx-table.md")
    write_atomic(out, text)
    print(text)
    print(f"wrote {out}")
