"""`python -m bct.show`: look at a few generated examples, the prompt laid out by part, and the target.

python -m bct.show twc                                    # data/twc/modules/train.jsonl, first 3 examples
python -m bct.show mapreader --no-modules --fold dev -n 5 --seed 10003
python -m bct.show data/sorting/modules/train.jsonl --entities placeholders   # what a scratch model reads
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from bct.data import check_examples, data_path
from bct.errors import ArgumentParser, UserError, exits_cleanly
from bct.games import FOLDS, get_game, modules_label
from bct.representation import REPRESENTATIONS, get_representation

PARTS = ("TASK", "OBS", "INV", "LOOK", "", "PACT", "POBS")


def layout(source: str) -> Table:
    """The Markov prompt's parts, one row each (the <extra_id_0> slot is left out)."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    pieces = source.split(" </s> ")
    for i, piece in enumerate(pieces):
        label = PARTS[i] if i < len(PARTS) else ""
        text = piece.strip().removesuffix("</s>").strip()
        if label == "" and text == "<extra_id_0>":
            continue
        for prefix in ("OBS ", "INV ", "LOOK ", "PACT ", "POBS "):
            if text.startswith(prefix) or text == prefix.strip():
                text = text[len(prefix) :] if text.startswith(prefix) else ""
        table.add_row(label, text)
    return table


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog="python -m bct.show", description=__doc__.splitlines()[0])
    ap.add_argument("what", help="a game (e.g. twc) or a .jsonl file written by bct.generate")
    ap.add_argument("--no-modules", action="store_true", help="the data without modules (plain gold paths)")
    ap.add_argument("--fold", default="train", choices=FOLDS)
    ap.add_argument("--data-dir", default="data")
    ap.add_argument("-n", type=int, default=3, help="examples to show")
    ap.add_argument("--seed", type=int, default=None, help="only this game (TWX seed)")
    ap.add_argument(
        "--entities", default="text", choices=list(REPRESENTATIONS), help="the representation a model reads"
    )
    args = ap.parse_args(argv)
    if args.n < 1:
        raise UserError(f"-n {args.n}: show at least one example")
    path = Path(args.what)
    if path.suffix != ".jsonl":
        game = get_game(args.what).name
        path = data_path(args.data_dir, game, not args.no_modules, args.fold)
        if not path.exists():
            raise UserError(
                f"no data at {path}; generate it: python -m bct.generate games=[{game}] "
                f"modules=[{str(not args.no_modules).lower()}] folds=[{args.fold}]"
            )
    elif not path.exists():
        raise UserError(f"no file at {path}")
    check_examples(path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    if args.seed is not None:
        rows = [r for r in rows if r["seed"] == args.seed]
        if not rows:
            raise UserError(f"no game with seed {args.seed} in {path}")
    console = Console()
    for row in rows[: args.n]:
        m = get_representation(args.entities).map(row["source"], row["valid_actions"])
        body = Table.grid(padding=(0, 0))
        body.add_row(layout(m.source))
        body.add_row(f"[bold green]target[/] {m.rewrite(row['target'])}")
        body.add_row(
            f"[dim]{len(row['valid_actions'])} valid actions: {', '.join(m.actions[:12])}"
            f"{', ...' if len(m.actions) > 12 else ''}[/]"
        )
        console.print(
            Panel(
                body,
                title=f"{row['game']} {modules_label(row['modules'])} {row['fold']} seed {row['seed']} step {row['step']}"
                + (" (final state)" if row.get("final") else ""),
                title_align="left",
            )
        )
    console.print(f"[dim]{min(args.n, len(rows))} of {len(rows)} examples in {path}[/]")


if __name__ == "__main__":
    main()
