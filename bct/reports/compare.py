"""`python -m bct.compare [results_dir]`: every agent side by side with the published numbers.

A world names the papers' tables its agents are set beside (`World.comparisons`; TWX's: Table 4 of "Large Language
Models Are Neurosymbolic Reasoners", bct/worlds/twx/report.py). Rows are agents (with `+mod` where they play with the
game's symbolic module), columns the paper's games and their average, cells `score (steps)`. Steps are environment
steps on both sides: the published numbers count the actions sent to the game, not module calls, so ours are
`avg_env_steps`. Published rows are marked as such. Writes the table as Markdown and a bar chart (PNG) next to the
results.
"""

from __future__ import annotations

from pathlib import Path

from bct.config.runs import training_length
from bct.core.errors import ArgumentParser, exits_cleanly
from bct.core.files import write_atomic
from bct.core.results import collect, invalid_share, usual
from bct.worlds.base import Comparison
from bct.worlds.registry import GROUPS, WORLDS, modules_label


def comparisons() -> dict[str, Comparison]:
    """Every world's comparisons, by their group's name (`paper`)."""
    return {c.group: c for world in WORLDS.values() for c in world.comparisons}


def label(row: dict) -> str:
    """'BCT t5-cpu-scratch-ep4 placeholders rank+mod', 'LLM gpt-4o+mod', 'Random', ... from a results row."""
    prefix = f"{row['game']}-{modules_label(row['modules'])}-"
    run = row["run"]
    if row["agent"] == "t5" and "trained" in row:  # what the model is, whatever its folder is called
        t = row["trained"]
        name = f"BCT {t['model']}-{training_length(t)}" + (f" {t['entities']}" if t["entities"] != "text" else "")
        name += f" {row['settings']['decoding']}" if row["settings"].get("decoding") != "generate" else ""
        name += " beam" if row["settings"].get("beam_groups") == 1 else ""
    elif row["agent"] == "t5":
        name = "BCT " + (run[len(prefix) :] if run.startswith(prefix) else run)
    elif row["agent"] == "llm":
        name = "LLM " + run[len("llm-") :].replace(f"-{row['game']}-{modules_label(row['modules'])}", "")
    elif row["agent"] == "planner":  # rules over the memory's facts: a baseline, never the learned agent
        name = "Planner (hand-written rules)"
    else:
        name = row["agent"].capitalize()
    name += "+mod" if row["modules"] else ""
    share = invalid_share(row)
    if share is not None:  # an LLM row says how many of its actions the model named, not the fallback
        name += f" [{share:.0%} invalid replies" + ("; mostly the fallback's actions]" if share > 0.5 else "]")
    return name


def agent_rows(
    results_dir: str | Path, fold: str, against: Comparison
) -> tuple[list[str], dict[str, dict[str, tuple[float, float]]]]:
    games = GROUPS[against.group]
    ours: dict[str, dict[str, tuple[float, float]]] = {}
    placed = []  # (row label, column, row)
    for row in filter(usual, collect(results_dir, fold)):  # bct's loop: TALES's has a table of its own
        params = row.get("game_params")
        if params:  # a variant set from the command line: its preset's column, its parameters on the row
            game = row["settings"].get("game_preset", row["game"])
            name = " [" + " ".join(f"{k}={v}" for k, v in params.items()) + "]"
        else:
            game, name = against.variants.get(row["game"], (row["game"], ""))
        if game in games and row.get("avg_score") is not None:
            placed.append((label(row) + name, game, row))
    runs: dict[tuple[str, str], set] = {}
    for name, game, row in placed:
        runs.setdefault((name, game), set()).add(row["path"])
    for name, game, row in placed:  # two runs that would share a cell (e.g. differing in lr or seed) keep apart
        if len(runs[(name, game)]) > 1:
            name += f" ({row['run']})"
        ours.setdefault(name, {})[game] = (row["avg_score"], row["avg_env_steps"])
    return sorted(ours), ours


def cell(value: tuple[float, float] | None) -> str:
    return f"{value[0]:.2f} ({value[1]:.0f})" if value else ""


def average(cells: dict[str, tuple[float, float]], games: list[str]) -> tuple[float, float] | None:
    """The published average where there is one, else the mean over the games (blank if one is missing)."""
    if "average" in cells:
        return cells["average"]
    if not all(g in cells for g in games):
        return None
    return sum(cells[g][0] for g in games) / len(games), sum(cells[g][1] for g in games) / len(games)


def markdown(rows: dict[str, dict], against: Comparison, fold: str) -> str:
    games, published = GROUPS[against.group], against.published
    head = ["agent", *games, "average"]
    lines = [
        f"Score (environment steps; module calls not counted) on {fold}, ours, beside the published "
        f"test-set numbers (100 variations).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name, cells in rows.items():
        lines.append(
            "| " + " | ".join([name, *(cell(cells.get(g)) for g in games), cell(average(cells, games))]) + " |"
        )
    for name, cells in published.items():
        said = [f"{name} (published)", *(cell(cells.get(g)) for g in games), cell(average(cells, games))]
        lines.append("| " + " | ".join(said) + " |")
    return "\n".join(lines) + "\n"


def legend_share(fig, legend) -> float:
    """The share of the figure's area that its legend takes (drawn as saved)."""
    fig.canvas.draw()
    box = legend.get_window_extent()
    w, h = fig.get_size_inches() * fig.dpi
    return (box.width * box.height) / (w * h)


def chart(rows: dict[str, dict], against: Comparison, path: Path, fold: str) -> float:
    """A grouped bar chart sized for one column of a paper (3.5 in wide), as PNG (300 dpi) and PDF beside
    it. The legend sits below the axes, and the figure grows taller until it takes under 18% of the
    area; published rows are hatched. Values go on the bars where there is room (up to 6 series).
    Returns the legend's share of the figure's area."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games, published = GROUPS[against.group], against.published
    series = [(n, c, False) for n, c in rows.items()] + [(f"{n} (published)", c, True) for n, c in published.items()]
    groups = [*games, "average"]
    width = 0.84 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(3.5, 2.2), layout="constrained")
    colors = plt.get_cmap("tab20").colors
    for i, (name, cells, pub) in enumerate(series):
        found = [cells.get(g) for g in games] + [average(cells, games)]
        xs = [x - 0.42 + (i + 0.5) * width for x, v in zip(range(len(groups)), found) if v is not None]
        values = [v[0] for v in found if v is not None]  # a missing result: no bar; a 0 shows as a sliver
        bars = ax.bar(
            xs,
            [max(v, 0.008) for v in values],
            width,
            label=name if len(name) <= 48 else name[:47] + "…",
            color=colors[i % len(colors)],
            hatch="////" if pub else None,
            edgecolor="white" if pub else None,
            linewidth=0,
        )
        if len(series) <= 6:
            ax.bar_label(bars, labels=[f"{v:.2f}" for v in values], fontsize=4.5, rotation=90, padding=1)
    ax.set_xticks(range(len(groups)), groups, fontsize=7)
    ax.tick_params(axis="y", labelsize=6)
    ax.set_ylabel("score", fontsize=7)
    ax.set_ylim(0, 1.12 if len(series) <= 6 else 1.0)
    ax.set_title(f"Score on {fold}; hatched: published (test)", fontsize=7)
    legend = fig.legend(
        handles=ax.get_legend_handles_labels()[0],
        loc="outside lower center",
        ncol=2,
        fontsize=5,
        frameon=False,
        handlelength=1.2,
    )
    share = legend_share(fig, legend)
    while series and share > 0.18:  # many series: a taller figure, the same legend
        w, h = fig.get_size_inches()
        fig.set_size_inches(w, h * 1.2)
        share = legend_share(fig, legend)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=300)
    fig.savefig(path.with_suffix(".pdf"))
    plt.close(fig)
    return share


@exits_cleanly
def main() -> None:
    ap = ArgumentParser(prog=f"python -m {__spec__.name}", description=__doc__.splitlines()[0])
    ap.add_argument("results_dir", nargs="?", default="results")
    ap.add_argument(
        "--fold", default=None, choices=["dev", "test"], help="test (default when there are test results) or dev"
    )
    papers = comparisons()
    ap.add_argument("--group", default=next(iter(papers)), choices=sorted(papers), help="the paper's games (a group)")
    args = ap.parse_args()
    fold = args.fold or ("test" if collect(args.results_dir, "test") else "dev")
    against = papers[args.group]
    _, rows = agent_rows(args.results_dir, fold, against)
    md = markdown(rows, against, fold)
    print(md)
    out = Path(args.results_dir)
    write_atomic(out / f"comparison-{fold}.md", md)
    chart(rows, against, out / f"comparison-{fold}.png", fold)
    print(f"wrote {out / f'comparison-{fold}.md'} and the chart {out / f'comparison-{fold}.png'} (and .pdf)")
