"""ScienceWorld's results tables: `python -m bct.report DIR` writes them where DIR holds ScienceWorld results, and its
HTML page shows them.

The per-task table (`DIR/scienceworld-table.md`): the 30 tasks, one row each, every agent evaluated on them (the
learned ones, oracle, random), beside the published figures.

Three scores per agent: bct's (the final score of each episode, negatives as 0), the best score reached
during play, and TALES's protocol: the best score within the first TALES_STEPS game actions (read from the
play logs: module calls are not game steps). ScienceWorld's score can fall (and a task fails at -100), so
the best in play is never below the final score. Published: SwiftSage (Swift, flan-t5-large cloned from ScienceWorld's
oracle paths with recent actions, plus GPT-4) 84.7 over the 30 tasks' test variations; TALES's best LLMs,
zero-shot, best score in play on one test variation per seed: claude-opus-4.5 0.940, o3 (medium) 0.930,
claude-opus-4.6 0.920, gpt-5.1 0.902.

The recipes table (`DIR/recipes.md`): a recipe reported as a measurement, each of its trainings scored on each measure
(a fold, a draw of it, a loop), then the mean and the spread (min-max) over the trainings, never the best draw. Every
results folder under DIR is one training's play of one task, named by its checkpoint (an ensemble's by all of its
members). A training's score on a measure is the mean over the tasks it was played on; its per-task score is TALES's
measure: the best score reached within 100 game commands (TALES's own loop: its result; bct's loop: read from the play
log).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from statistics import mean

from bct.core.results import agent_name, best_in_play, tales_loop, training, usual
from bct.worlds.base import Report
from bct.worlds.scienceworld.games import GROUPS
from bct.worlds.tales import STEPS

PUBLISHED = [
    ("SwiftSage (flan-t5-large 770M + GPT-4), mean over 30 tasks, test", 0.847),
    ("TALES: claude-opus-4.5, zero-shot, best score in play", 0.940),
    ("TALES: o3 (medium)", 0.930),
    ("TALES: claude-opus-4.6", 0.920),
    ("TALES: gpt-5.1", 0.902),
]
TASKS = GROUPS["scienceworld"]
TALES_STEPS = STEPS  # TALES plays each game for 100 steps


def task_of(game: str) -> str:
    """The task a game plays, whatever its memory setting, gold path and train worlds
    (`scienceworld-boil-moved1-search1-nomemory`: scienceworld-boil)."""
    return max((t for t in TASKS if game == t or game.startswith(t + "-")), key=len, default=game)


def columns(rows: list[dict]):
    """A row's column: its agent, then its fold, then its training where one agent name has several checkpoints."""
    trainings: dict[str, set] = {}
    for r in rows:
        trainings.setdefault(agent_name(r), set()).add(r.get("settings", {}).get("checkpoint"))

    def column(r: dict) -> str:
        checkpoint = r.get("settings", {}).get("checkpoint")
        which = f" [{Path(checkpoint).parent.name}]" if len(trainings[agent_name(r)]) > 1 and checkpoint else ""
        return f"{agent_name(r)}{which}" + (f" ({r['fold']})" if r.get("fold") else "")

    return column


def scienceworld_table(rows: list[dict]) -> str:
    """Markdown: a row per task played (all 30 after the full run; only those played after a subset), a column
    per agent and fold (final score, best in play; TALES; steps), a mean row, then the published means. bct's loop
    on the usual draw only (TALES's loop and the second draw: the recipes table); trainings of one run name are
    told apart by their checkpoint's folder (seed42, ...)."""
    rows = [r for r in rows if task_of(r["game"]) in TASKS and usual(r)]
    if not rows:
        return ""
    column = columns(rows)
    agents = list(dict.fromkeys(column(r) for r in sorted(rows, key=lambda r: r["agent"] != "t5")))
    cell = {(column(r), task_of(r["game"])): r for r in rows}
    head = "| task | " + " | ".join(f"{a}: final (best in play; TALES), steps" for a in agents) + " |"
    lines = [head, "|" + "---|" * (len(agents) + 1)]
    sums = {a: [0.0, 0.0, 0.0, 0] for a in agents}
    played = {task_of(r["game"]) for r in rows}
    for task in (t for t in TASKS if t in played):
        cells = []
        for a in agents:
            r = cell.get((a, task))
            if r is None:
                cells.append("")
                continue
            best, tales = best_in_play(r), best_in_play(r, TALES_STEPS)
            best = r["avg_score"] if best is None else best
            tales = r["avg_score"] if tales is None else tales
            for i, value in enumerate((r["avg_score"], best, tales, 1)):
                sums[a][i] += value
            cells.append(f"{r['avg_score']:.2f} ({best:.2f}; {tales:.2f}), {r['avg_steps']:.0f}")
        lines.append(f"| {task.removeprefix('scienceworld-')} | " + " | ".join(cells) + " |")
    means = [
        f"**{s[0] / s[3]:.3f} ({s[1] / s[3]:.3f}; {s[2] / s[3]:.3f})**, {s[3]:.0f} tasks" if s[3] else ""
        for s in sums.values()
    ]
    lines.append("| mean | " + " | ".join(means) + " |")
    lines += [
        "",
        "Published, not the same test: SwiftSage acts from a history of recent actions with GPT-4 as planner; "
        "TALES's LLMs play zero-shot, one test variation per seed, for 100 steps, and count the best score "
        "reached (TALES, above: the same measure over each episode's first 100 game actions); bct's agents are "
        "scored by the final state of the variations shown, at each task's step limit.",
        "",
    ]
    lines += [f"- {name}: {score:.3f}" for name, score in PUBLISHED]
    return "\n".join(lines) + "\n"


MEASURES = ["dev", "dev (TALES's loop)", "test", "test, second draw", "test (TALES's loop)"]


def measure(r: dict) -> str:
    """Which measure a results row is: its fold, its draw of it, and whose loop played it."""
    s = r.get("settings", {})
    name = r["fold"] + (", second draw" if s.get("draw", 1) == 2 else "")
    return name + (" (TALES's loop)" if s.get("protocol") == "tales" else "")


def tales_score(r: dict) -> float:
    """TALES's measure of a row: its own score in TALES's loop; else the best in its first 100 game commands."""
    if tales_loop(r):
        return r["avg_score"]
    best = best_in_play(r, TALES_STEPS)
    return r["avg_score"] if best is None else best


def spread(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.3f} (1 training)"
    return f"{mean(values):.3f} ({min(values):.3f}-{max(values):.3f}, {len(values)} trainings)"


def scores(rows: list[dict]) -> dict:
    """{(recipe, measure): {training: {task: score}}} over ScienceWorld's rows."""
    found: dict = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        task = task_of(r["game"])
        if task in TASKS and measure(r) in MEASURES:
            found[agent_name(r), measure(r)][training(r)][task] = tales_score(r)
    return found


def recipes_table(rows: list[dict]) -> str:
    """Markdown: a row per recipe (its run, as evaluated), a column per measure, each cell the mean over the tasks of
    each training, then their mean and min-max; then, for each recipe, the per-task table of the same."""
    found = scores(rows)
    if not found:
        return ""
    recipes = list(dict.fromkeys(recipe for recipe, _ in found))
    shown = [m for m in MEASURES if any((rec, m) in found for rec in recipes)]
    lines = [
        "| recipe | " + " | ".join(shown) + " |",
        "|" + "---|" * (len(shown) + 1),
    ]
    for rec in recipes:
        cells = []
        for m in shown:
            per = found.get((rec, m), {})
            cells.append(spread([mean(t.values()) for t in per.values()]) + tasks_note(per) if per else "")
        lines.append(f"| {rec} | " + " | ".join(cells) + " |")
    lines += ["", "Published, each under its own protocol: " + "; ".join(f"{n} {s:.3f}" for n, s in PUBLISHED)]
    for rec in recipes:
        lines += [
            "",
            f"#### {rec}, per task",
            "",
            "| task | " + " | ".join(shown) + " |",
            "|" + "---|" * (len(shown) + 1),
        ]
        for task in TASKS:
            cells = []
            for m in shown:
                values = [t[task] for t in found.get((rec, m), {}).values() if task in t]
                cells.append(f"{mean(values):.2f} ({min(values):.2f}-{max(values):.2f})" if values else "")
            if any(cells):
                lines.append(f"| {task.removeprefix('scienceworld-')} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def tasks_note(per: dict) -> str:
    """How many tasks a measure's trainings were played on, where not all 30."""
    counts = sorted({len(t) for t in per.values()})
    return "" if counts == [len(TASKS)] else f", {'/'.join(map(str, counts))} tasks"


REPORTS = (
    Report("ScienceWorld's 30 tasks", "scienceworld-table", scienceworld_table),
    Report("Each recipe's trainings: mean and spread on each fold, draw and loop", "recipes", recipes_table),
)
