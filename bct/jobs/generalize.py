"""`python -m bct.generalize`: play trained checkpoints on game variants; a Markdown table and a PNG.

    python -m bct.generalize --checkpoints checkpoints/mapreader-... \\
        --games mapreader "mapreader maxDistanceApart=6" "mapreader numLocations=30 maxDistanceApart=8 step_limit=80"
    python -m bct.generalize --checkpoints checkpoints/twc-... checkpoints/twc-hard-... --games twc twc-medium twc-hard

Rows: what each checkpoint was trained on; columns: what it played (a preset, then `NAME=VALUE`
TWX parameters, and `step_limit=N` where a bigger map needs more steps); cells: score (environment
steps). Each cell is an ordinary evaluation under `--results-dir` (resumed when run again); a
variant that its world cannot make (`CannotMake`) is marked as such.
"""

from __future__ import annotations

import json
from pathlib import Path

from bct.config.runs import read_run
from bct.core.errors import ArgumentParser, CannotMake, UserError, exits_cleanly
from bct.core.files import write_atomic
from bct.worlds.registry import from_record, get_game, modules_label


def parse_game(spec: str, step_limit: int) -> tuple[list[str], str, int]:
    """'mapreader numLocations=30 step_limit=80' -> (evaluate overrides, column label, step limit)."""
    preset, *pairs = spec.split()
    game = get_game(preset)
    params, limit = {}, step_limit
    for pair in pairs:
        key, _, value = pair.partition("=")
        if not value.lstrip("-").isdigit():
            raise UserError(f"--games '{spec}': '{pair}' is not NAME=WHOLE_NUMBER")
        if key == "step_limit":
            limit = int(value)
        else:
            params[key] = int(value)
    variant = game.with_params(params)  # an unknown parameter or a value out of range: one line now
    overrides = [f"+game={preset}", *(f"game.params.{k}={v}" for k, v in params.items()), f"step_limit={limit}"]
    return overrides, variant.name, limit


def trained_on(checkpoint: str) -> str:
    run = read_run(Path(checkpoint))
    if run is None:
        raise UserError(f"checkpoint {checkpoint} is not a bct checkpoint; train one with python -m bct.train")
    settings = run["settings"]
    return f"{from_record(settings).name} ({modules_label(settings['modules'])})"


def markdown(rows: dict, columns: list[tuple[str, int]], fold: str, n: int) -> str:
    head = ["trained on \\ played", *(f"{c} (limit {lim})" for c, lim in columns)]
    lines = [
        f"Score (environment steps) on {n} {fold} variations of each game; `limit`: the step limit.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name, cells in rows.items():
        lines.append("| " + " | ".join([name, *(cells.get(c, "") for c, _ in columns)]) + " |")
    return "\n".join(lines) + "\n"


def chart(scores: dict, columns: list[str], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = list(scores)
    grid = np.array([[(scores[r].get(c) or (np.nan, np.nan))[0] for c in columns] for r in names], dtype=float)
    fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(columns), 1.2 + 0.6 * len(names)))
    ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn", aspect="auto")
    for i, r in enumerate(names):
        for j, c in enumerate(columns):
            value = scores[r].get(c)
            ax.text(
                j,
                i,
                "refused" if value is None else f"{value[0]:.2f}\n({value[1]:.0f})",
                ha="center",
                va="center",
                fontsize=8,
            )
    ax.set_xticks(range(len(columns)), columns, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_xlabel("played")
    ax.set_ylabel("trained on")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog=f"python -m {__spec__.name}", description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoints", nargs="+", required=True, help="checkpoint folders written by bct.train")
    ap.add_argument("--games", nargs="+", required=True, help="'PRESET [NAME=VALUE ...] [step_limit=N]', one a column")
    ap.add_argument("--fold", default="test", choices=["dev", "test"])
    ap.add_argument("--num-variations", type=int, default=100)
    ap.add_argument("--step-limit", type=int, default=50, help="the step limit where a column sets none")
    ap.add_argument("--results-dir", default="results/generalization")
    ap.add_argument("--name", default="generalization", help="the table's file name (without .md / .png)")
    ap.add_argument("--threads", default="auto")
    args = ap.parse_args(argv)
    columns = [parse_game(spec, args.step_limit) for spec in args.games]
    labels = [trained_on(ck) for ck in args.checkpoints]
    # two checkpoints trained on the same game (another seed, shuffle_ids, ...): each row also names its folder
    rows = {
        label if labels.count(label) == 1 else f"{label} {Path(ck).name}": ck
        for label, ck in zip(labels, args.checkpoints)
    }

    from bct.config.settings import EvaluateSettings
    from bct.jobs.evaluation import evaluate

    scores: dict[str, dict[str, tuple[float, float] | None]] = {}
    for name, checkpoint in rows.items():
        scores[name] = {}
        for overrides, column, _ in columns:
            cfg = EvaluateSettings.from_overrides(
                [
                    f"checkpoint={checkpoint}",
                    f"fold={args.fold}",
                    f"num_variations={args.num_variations}",
                    *overrides,
                    f"results_dir={args.results_dir}",
                    f"threads={args.threads}",
                    "progress=false",
                ]
            )
            try:
                r = json.loads((evaluate(cfg) / "results.json").read_text())
            except CannotMake as e:
                print(f"{name} on {column}: refused by its world ({e})")
                scores[name][column] = None
                continue
            scores[name][column] = (r["avg_score"], r["avg_env_steps"])
            print(f"{name} on {column}: score {r['avg_score']:.3f} ({r['avg_env_steps']:.1f} env steps)")
    cells = {
        r: {c: "not made (its world refused)" if v is None else f"{v[0]:.2f} ({v[1]:.1f})" for c, v in s.items()}
        for r, s in scores.items()
    }
    md = markdown(cells, [(c, lim) for _, c, lim in columns], args.fold, args.num_variations)
    out = Path(args.results_dir)
    write_atomic(out / f"{args.name}.md", md)
    chart(scores, [c for _, c, _ in columns], out / f"{args.name}.png")
    print(md)
    print(f"wrote {out / (args.name + '.md')} and {out / (args.name + '.png')}")
