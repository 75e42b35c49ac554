"""A recipe reported as a measurement: each of its trainings scored on each measure (a fold, a draw of it, a loop),
then the mean and the spread (min-max) over the trainings, never the best draw. `python -m bct.report DIR` writes it
(`DIR/recipes.md`) where DIR holds ScienceWorld results: every results folder under DIR is one training's play of one
task, named by its checkpoint (an ensemble's by all of its members).

A training's score on a measure is the mean over the tasks it was played on; its per-task score is TALES's measure:
the best score reached within 100 game commands (TALES's own loop: its result; bct's loop: read from the play log).
"""

from __future__ import annotations

from collections import defaultdict
from statistics import mean

from bct.reports.results import best_in_play, tales_loop
from bct.reports.scienceworld import PUBLISHED, TALES_STEPS, TASKS, agent_name, task_of

MEASURES = ["dev", "dev (TALES's loop)", "test", "test, second draw", "test (TALES's loop)"]


def measure(r: dict) -> str:
    """Which measure a results row is: its fold, its draw of it, and whose loop played it."""
    s = r.get("settings", {})
    name = r["fold"] + (", second draw" if s.get("draw", 1) == 2 else "")
    return name + (" (TALES's loop)" if s.get("protocol") == "tales" else "")


def training(r: dict) -> tuple[str, ...]:
    """The weights that played a row: its checkpoint, with an ensemble's other members."""
    s = r.get("settings", {})
    return (s.get("checkpoint") or r["agent"], *(m["checkpoint"] for m in s.get("ensemble", [])))


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
            f"### {rec}, per task",
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
