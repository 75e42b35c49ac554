"""ScienceWorld's 30 tasks, one row each: every agent evaluated on them (the learned ones, oracle, random),
beside the published figures. `python -m bct.report DIR` writes it (`DIR/scienceworld-table.md`) where DIR
holds ScienceWorld results.

Three scores per agent: bct's (the final score of each episode, negatives as 0), the best score reached
during play, and TALES's protocol: the best score within the first TALES_STEPS game actions (read from the
play logs: module calls are not game steps). ScienceWorld's score can fall (and a task fails at -100), so
the best in play is never below the final score. Published: SwiftSage (Swift, flan-t5-large cloned from ScienceWorld's
oracle paths with recent actions, plus GPT-4) 84.7 over the 30 tasks' test variations; TALES's best LLMs,
zero-shot, best score in play on one test variation per seed: claude-opus-4.5 0.940, o3 (medium) 0.930,
claude-opus-4.6 0.920, gpt-5.1 0.902.
"""

from __future__ import annotations

from pathlib import Path

from bct.reports.results import best_in_play, usual
from bct.worlds.registry import GROUPS
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


def agent_name(r: dict) -> str:
    """A column per agent: a learned one by its run, a baseline by its kind."""
    return r["run"].split("-on-")[0] if r["agent"] == "t5" else r["agent"]


def scienceworld_table(rows: list[dict]) -> str:
    """Markdown: a row per task played (all 30 after the full run; only those played after a subset), a column
    per agent and fold (final score, best in play; TALES; steps), a mean row, then the published means. bct's loop
    on the usual draw only (TALES's loop and the second draw: bct.reports.trainings); trainings of one run name are
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
