"""`python -m bct.show`: look at played episodes step by step, or at generated training examples.

python -m bct.show results                       # every evaluation under results/: 3 episodes each
python -m bct.show results --failed --agent t5   # unsolved episodes first, runs whose name has 't5'
python -m bct.show results/twc-.../test-1a2b3c/results.json --episode 20007
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

from bct.core.errors import ArgumentParser, UserError, exits_cleanly
from bct.core.results import collect, episodes, solved
from bct.data.datasets import check_examples, data_path
from bct.data.prompt import unpack
from bct.data.representation import REPRESENTATIONS, get_representation
from bct.worlds.registry import FOLDS, data_modules, get_game, modules_label


def layout(source: str) -> Table:
    """The Markov prompt's parts, one row each."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for name, text in unpack(source).items():
        table.add_row("" if name == "task" else name.upper(), text)
    return table


def shorten(text: str, width: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def episode_panel(row: dict, ep: dict) -> Panel:
    """One played episode, step by step: the action (a module command set apart with its answer), what
    the game or module answered, the score change, and the agent's top candidates."""
    steps = Table(box=None, padding=(0, 1), expand=True)
    steps.add_column("#", justify="right", style="dim", no_wrap=True)
    steps.add_column("action", style="bold", ratio=2)
    steps.add_column("observation", ratio=5)
    steps.add_column("score", justify="right", no_wrap=True)
    steps.add_column("considered", style="dim", ratio=3)
    history = ep.get("history", [])
    if history:
        first = unpack(history[0]["prompt"])
        steps.add_row("", "[dim]start[/]", shorten(first.get("obs", "")), "", "")
    before = 0.0
    for h in history:
        gain = h["score"] - before
        before = h["score"]
        module = h.get("from_module")
        action = f"[magenta]{h['action']}[/]" if module else h["action"]
        said = shorten(h["observation"])
        said = f"[magenta]{said}[/]" if module else said
        if h.get("valid_reply") is False:  # an LLM reply that named no valid action: the fallback played
            said = f"[red]replied {shorten(h.get('reply', ''), 60)!r}: no valid action[/] " + said
        if h.get("fallback"):
            said = "[red]no valid candidate: the closest valid action played[/] " + said
        scores = h.get("scores") or []
        considered = ", ".join(
            f"{c} ({scores[i]:.2f})" if i < len(scores) else c for i, c in enumerate(h.get("candidates", [])[:3])
        )
        change = f"[green]+{gain:.2f}[/]" if gain > 0 else f"[red]{gain:.2f}[/]" if gain < 0 else ""
        steps.add_row(str(h["step"] + 1), action, said, change, considered)
    result = "[green]solved[/]" if solved(ep) else "[red]unsolved[/]"
    title = (
        f"{row['run']} · {row['game']} {modules_label(row['modules'])} · {row['fold']} seed {ep['seed']} · "
        f"{result} score {ep['score']:.2f} in {ep['steps']} steps ({ep['stop']})"
    )
    task = unpack(history[0]["prompt"]).get("task", "") if history else ""
    body = Table.grid()
    if task:
        body.add_row(f"[cyan]{shorten(task, 300)}[/]")
    body.add_row(steps)
    if ep.get("error"):
        body.add_row(f"[red]{ep['error']}[/]")
    return Panel(body, title=title, title_align="left")


def show_results(args, console: Console) -> None:
    """Played episodes of every evaluation under a folder (or of one results.json / histories.jsonl)."""
    path = Path(args.what)
    folder = path.parent if path.is_file() else path
    rows = [r for r in collect(folder) if not args.agent or args.agent in r["run"] or args.agent == r["agent"]]
    if not rows:
        raise UserError(f"no results.json under {folder}{f' for --agent {args.agent}' if args.agent else ''}")
    shown = 0
    for row in rows:
        eps = episodes(row)
        if args.episode is not None:
            eps = [e for e in eps if e["seed"] == args.episode]
        if args.failed:
            eps = sorted(eps, key=solved)  # unsolved first, in seed order (a stable sort)
        for ep in eps[: args.n]:
            console.print(episode_panel(row, ep))
            shown += 1
    if not shown:
        raise UserError(
            f"no played episode {'with seed ' + str(args.episode) + ' ' if args.episode is not None else ''}"
            f"under {folder} (histories.jsonl beside results.json)"
        )
    console.print(f"[dim]{shown} episodes from {len(rows)} evaluations under {folder}[/]")


def is_results(path: Path) -> bool:
    return path.name in ("results.json", "histories.jsonl") or (path.is_dir() and any(path.rglob("results.json")))


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog="python -m bct.show", description=__doc__.splitlines()[0])
    ap.add_argument(
        "what", help="a results folder, results.json or histories.jsonl; or a game (e.g. twc) or generated .jsonl"
    )
    ap.add_argument("-n", type=int, default=3, help="episodes per evaluation, or examples, to show")
    ap.add_argument("--failed", action="store_true", help="results: unsolved episodes first")
    ap.add_argument("--episode", type=int, default=None, help="results: only the episode of this seed")
    ap.add_argument("--agent", default=None, help="results: only runs of this agent, or whose name has this")
    ap.add_argument("--no-modules", action="store_true", help="data: without modules (plain gold paths)")
    ap.add_argument("--fold", default="train", choices=FOLDS, help="data: the fold")
    ap.add_argument("--data-dir", default="data")
    ap.add_argument("--seed", type=int, default=None, help="data: only this game (TWX seed)")
    ap.add_argument(
        "--entities", default="text", choices=list(REPRESENTATIONS), help="data: the representation a model reads"
    )
    args = ap.parse_args(argv)
    if args.n < 1:
        raise UserError(f"-n {args.n}: show at least one")
    path = Path(args.what)
    if is_results(path):
        return show_results(args, Console())
    path = Path(args.what)
    if path.suffix != ".jsonl":
        played = get_game(args.what)
        game = played.name
        path = data_path(args.data_dir, game, data_modules(played, not args.no_modules), args.fold)
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
