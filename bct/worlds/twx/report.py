"""TextWorldExpress's results table: all eight games, with and without memory, beside TALES's figures; and the one
agent (a generalist) beside the specialists where the results hold one. `python -m bct.report DIR --only twx-table`
writes it alone (`DIR/twx-table.md`), `python -m bct.report DIR` beside the other worlds' and on its HTML page; from
the test fold where DIR holds TWX test results, else dev.

Columns: the paper's four games and TWX's other four at TWX's defaults, then the settings TALES
(2025) published zero-shot LLM figures on. Rows: the T5 agent with modules and memory, with modules
only (no memory: for TWX's other four, which have no module of their own, the Markov agent), without
modules; the hand-written planner over the memory's facts (agent=planner: rules, not learned, a row of
its own); random; oracle; LLM agents found in the results; then TALES's published numbers, marked as
such. Cells: `score (environment steps)`.

bct scores an episode by its final state; TALES by the best score reached during play (a score that
rises and then falls counts at its peak there): ours is the stricter measure.
"""

from __future__ import annotations

from bct.core.results import best_in_play, tales_loop, usual
from bct.worlds.base import Comparison, Report
from bct.worlds.twx.games import ALIASES, GAMES, GROUPS, TALES_ENVS

TWX_GAMES = tuple(GROUPS["twx"])  # the eight games at their defaults

TALES_GAMES = ("cookingworld-tales", "simonsays-memory-tales", "coin-tales")
# TALES (2025), test fold, score = best reached during play: the figures it published for these games.
PUBLISHED = {
    "TALES o3-medium (published)": {"cookingworld-tales": 0.768, "simonsays-memory-tales": 0.514},
    "TALES gpt-4o (published)": {
        "cookingworld-tales": 0.392,
        "simonsays-memory-tales": 1.0,
        "twc": 0.5,
        "arithmetic": 0.0,
        "sorting": 0.0,
    },
}


GENERALIST = "T5 generalist (one model, every game, modules=all)"


def row_name(r: dict) -> str:
    """What kind of agent a results row is: the T5 agent by its modules and memory setting (one model of
    several games: the generalist), else its name."""
    if r["agent"] != "t5":
        return NAMES.get(r["agent"], r.get("run", r["agent"]))
    if len((r.get("trained") or {}).get("games", [])) > 1:
        return GENERALIST
    memory = r.get("memory")
    if r["modules"]:
        return "T5 offline + modules" + (" + memory" if memory else " (no memory)")
    return "T5 offline, no modules" + (" + memory" if memory else "")


def column(r: dict) -> str | None:
    """A row's column: its preset (a game with the memory switched from its default counts as the preset);
    None for a variant with changed parameters, which the table leaves out."""
    return None if r.get("game_params") else r.get("game_preset") or r["game"]


NAMES = {"planner": "planner (hand-written rules, not learned)", "random": "random", "oracle": "oracle"}
ORDER = (
    GENERALIST,
    "T5 offline + modules + memory",
    "T5 offline + modules (no memory)",
    "T5 offline, no modules + memory",
    "T5 offline, no modules",
    NAMES["planner"],
    "random",
    "oracle",
)


def preset(name: str) -> str:
    """The registered game a column names (TALES's setting that is TWX's default: the default's name)."""
    return ALIASES.get(name, name)


def placed(r: dict) -> bool:
    """Whether a row has a cell here: bct's loop on the usual draw, or the one agent through TALES's loop."""
    return usual(r) or (tales_loop(r) and r.get("settings", {}).get("draw", 1) == 1)


def eight_games_table(rows: list[dict], fold: str = "test") -> str:
    games = [*TWX_GAMES, *TALES_GAMES]
    cells: dict[str, dict[str, str]] = {}
    for r in (r for r in rows if usual(r)):  # TALES's loop: the generalist table's column
        col = column(r)
        if col not in games:
            continue
        cells.setdefault(row_name(r), {})[col] = f"{r['avg_score']:.2f} ({r['avg_env_steps']:.1f})"
    # only the games some agent here played: a results folder of one game is not a row of empty cells
    games = [g for g in games if any(g in c for c in cells.values())]
    for name, scores in PUBLISHED.items():
        if any(g in scores for g in games):
            cells[name] = {g: f"{s:.2f}" for g, s in scores.items()}
    names = sorted(cells, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))
    head = ["agent", *games]
    lines = [
        f"Score (environment steps), {fold} fold. Columns after the eight TWX games at TWX's defaults: the settings "
        "TALES published on. TALES counts the best score reached in play; bct the final score (stricter).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for name in names:
        lines.append("| " + " | ".join([name, *(cells[name].get(g, "") for g in games)]) + " |")
    return "\n".join(lines) + "\n"


# TALES (2025): its TWX aggregate (the mean over its sixteen TWX environments), as published.
TALES_AGGREGATE = {"claude-3.7-sonnet": 0.958, "gpt-4.1": 0.925, "gpt-4o": 0.806, "Llama-3.1-8B": 0.503}
# Its best published score per environment where it gave one (read off its chart; top models only).
TALES_BEST = {
    "TWXCookingWorld": "0.77 (o3-medium)",
    "TWXTextWorldCommonsense": "1.00 (o3)",
    "TWXArithmetic": "1.00",
    "TWXSorting": "1.00",
    "TWXMapReader": "about 1.00",
    "TWXCoinCollector": "about 1.00",
    "TWXPeckingOrder": "about 1.00",
    **{f"TWXSimonSays{n}": "about 1.00" for n in (10, 50, 100)},
    "TWXSimonSaysWithMemory100": "1.00 (gpt-4o); 0.51 (o3-medium)",
}
SPECIALISTS = ("T5 offline + modules + memory", "T5 offline + modules (no memory)")


def generalist_table(rows: list[dict], fold: str = "test") -> str:
    """The one agent beside the specialists (the T5 agent trained on that game alone, with its modules and
    memory), the planner and random, per game at TWX's defaults and at TALES's sixteen settings, with the
    aggregate computed as TALES computes it (the mean over its environments)."""
    by: dict[str, dict[str, dict]] = {}
    # baselines offered every module, as the one agent is, before those played with the game's own
    in_tales: dict[str, dict] = {}  # the one agent through TALES's own loop and environments (protocol=tales)
    for r in sorted(filter(placed, rows), key=lambda r: r.get("modules") != "all"):
        col = column(r)
        if col is not None and tales_loop(r):
            if row_name(r) == GENERALIST:
                in_tales.setdefault(preset(col), r)
        elif col is not None:
            by.setdefault(preset(col), {}).setdefault(row_name(r), r)

    def cell(game: str, agent: str) -> str:
        r = by.get(preset(game), {}).get(agent)
        return f"{r['avg_score']:.2f} ({r['avg_env_steps']:.1f})" if r else ""

    def specialist(game: str) -> str:
        return next((cell(game, a) for a in SPECIALISTS if cell(game, a)), "")

    head = "| {} | one agent | specialist | planner | random |"
    loop = bool(in_tales)
    lines = [
        f"Score (environment steps), {fold} fold: the one agent (one model trained on every game's gold data, every "
        "module offered in every game) beside the T5 agent trained on that game alone (the specialist).",
        "",
        head.format("game (TWX defaults)"),
        "|---|---|---|---|---|",
    ]
    for game in TWX_GAMES:
        lines.append(
            f"| {game} | {cell(game, GENERALIST)} | {specialist(game)} | {cell(game, NAMES['planner'])} | "
            f"{cell(game, 'random')} |"
        )
    lines += [
        "",
        head.format("TALES environment (its setting)")
        + (" one agent, TALES's loop |" if loop else "")
        + " TALES best published |",
        "|---|---|---|---|---|---|" + ("---|" if loop else ""),
    ]
    finals, bests, looped = [], [], []
    for env, env_game in TALES_ENVS.items():
        r = by.get(preset(env_game), {}).get(GENERALIST)
        if r:
            finals.append(r["avg_score"])
            best = best_in_play(r)
            bests.append(best if best is not None else r["avg_score"])
        t = in_tales.get(preset(env_game))
        looped += [t["avg_score"]] if t else []
        through = (f" {t['avg_score']:.2f} ({t['num_variations']} runs) |" if t else " |") if loop else ""
        lines.append(
            f"| {env} ({env_game}) | {cell(env_game, GENERALIST)} | {specialist(env_game)} | "
            f"{cell(env_game, NAMES['planner'])} | {cell(env_game, 'random')} |{through} {TALES_BEST.get(env, '')} |"
        )
    n = len(TALES_ENVS)
    over = lambda k: "" if k == n else f" (over {k} of {n} environments)"  # noqa: E731
    if finals:
        done = over(len(finals))
        lines += [
            "",
            f"Aggregate over TALES's {n} TWX environments{done}, the one agent: {sum(finals) / len(finals):.3f} by the "
            f"final score (bct's measure), {sum(bests) / len(bests):.3f} by the best score reached during play "
            f"(TALES's). TALES published: "
            + ", ".join(f"{name} {v:.3f}" for name, v in TALES_AGGREGATE.items())
            + ". TALES's LLMs play 100 game steps with no list of valid actions and no modules; the one agent "
            "chooses among the valid actions and module commands, and its step limits count module calls.",
        ]
    if looped:
        lines += [
            "",
            f"Through TALES's own loop and environments (protocol=tales: tale-suite's TWX environments, game seeds "
            f"1-5, 100 game commands, module calls free, the best score), the one agent{over(len(looped))}: "
            f"{sum(looped) / len(looped):.3f}.",
        ]
    return "\n".join(lines) + "\n"


def twx_table(rows: list[dict]) -> str:
    """The eight-game table, then the one agent's where the rows hold a generalist's, on the test fold where the rows
    hold TWX test results, else dev; "" where they hold no TWX game's."""
    ours = [r for r in rows if placed(r) and preset(column(r)) in GAMES]
    if not ours:
        return ""
    fold = "test" if any(r["fold"] == "test" for r in ours) else "dev"
    rows = [r for r in rows if r["fold"] == fold]
    text = eight_games_table(rows, fold)
    if any(row_name(r) == GENERALIST for r in rows):
        text += "\n" + generalist_table(rows, fold)
    return text


REPORTS = (Report("The eight games beside TALES's figures", "twx-table", twx_table),)

# "Large Language Models Are Neurosymbolic Reasoners" (the LLM paper), Table 4: its four games, as `python -m bct.compare`
# and the HTML page's chart set agents beside them.
# its test set, 100 variations: game -> (score, steps), as published (seed 000, Table 4).
PAPER_PUBLISHED = {
    "DRRN": {
        "arithmetic": (0.17, 10),
        "mapreader": (0.02, 50),
        "sorting": (0.03, 21),
        "twc": (0.57, 27),
        "average": (0.20, 27),
    },
    "DRRN+mod": {
        "arithmetic": (0.14, 7),
        "mapreader": (0.02, 50),
        "sorting": (0.03, 18),
        "twc": (0.37, 34),
        "average": (0.14, 27),
    },
    "BCT t5-base": {
        "arithmetic": (0.56, 5),
        "mapreader": (0.71, 27),
        "sorting": (0.72, 7),
        "twc": (0.90, 6),
        "average": (0.72, 11),
    },
    "BCT t5-base+mod": {
        "arithmetic": (1.00, 5),
        "mapreader": (1.00, 10),
        "sorting": (0.98, 8),
        "twc": (0.97, 3),
        "average": (0.99, 7),
    },
    "LLM GPT-3.5+mod": {
        "arithmetic": (1.00, 4),
        "mapreader": (0.86, 15),
        "sorting": (0.71, 7),
        "twc": (0.94, 4),
        "average": (0.88, 7),
    },
    "LLM GPT-4+mod": {
        "arithmetic": (1.00, 4),
        "mapreader": (0.99, 7),
        "sorting": (0.93, 8),
        "twc": (0.71, 16),
        "average": (0.91, 8),
    },
}


# Presets that change a paper game, shown in that game's column with a mark on the row.
PAPER_VARIANTS = {"mapreader-directions": ("mapreader", " [navigator says the direction]")}
COMPARISONS = (Comparison("The paper's four games", "paper", PAPER_PUBLISHED, PAPER_VARIANTS),)
