"""TextWorld's results table (`python -m bct.report DIR` writes it to `DIR/textworld-table.md` where DIR holds TextWorld
results, and its HTML page shows it): a row per agent, a column per game played (a level other than the game's
default is a column of its own), each cell `score (game commands)`, on the test fold where the results hold TextWorld
test results, else dev. bct's loop on the usual draw only, as every one-row-a-cell table."""

from __future__ import annotations

from bct.core.results import agent_name, usual
from bct.worlds.base import Report
from bct.worlds.textworld.games import GAMES


def game_of(game: str) -> str | None:
    """The TextWorld game a played game is, or a variant of (`textworld-cooking-level3`); None for another world's."""
    return next((g for g in GAMES if game == g or game.startswith(g + "-")), None)


def row_name(r: dict) -> str:
    """A learned agent by its run, a baseline by its kind; a baseline played without modules says so, as the same
    kind with modules is another row."""
    return agent_name(r) + ("" if r["agent"] == "t5" or r["modules"] else " (no modules)")


def textworld_table(rows: list[dict]) -> str:
    """Markdown: a row per agent, a column per game, the registered games first, then a mean over the games an agent
    played; "" where the rows hold no TextWorld game."""
    played = [r for r in rows if game_of(r["game"]) and usual(r)]
    if not played:
        return ""
    fold = "test" if any(r["fold"] == "test" for r in played) else "dev"
    played = [r for r in played if r["fold"] == fold]
    order = list(GAMES)
    games = sorted({r["game"] for r in played}, key=lambda g: (order.index(game_of(g)), g != game_of(g), g))
    cells: dict[str, dict[str, dict]] = {}
    for r in sorted(played, key=lambda r: r["agent"] != "t5"):  # learned agents first
        cells.setdefault(row_name(r), {})[r["game"]] = r
    lines = [
        f"Score (game commands; module calls not counted), {fold} fold, mean over the variations played.",
        "",
        "| agent | " + " | ".join(g.removeprefix("textworld-") for g in games) + " | mean |",
        "|" + "---|" * (len(games) + 2),
    ]
    for name, by_game in cells.items():
        row = [
            f"{by_game[g]['avg_score']:.2f} ({by_game[g]['avg_env_steps']:.1f})" if g in by_game else "" for g in games
        ]
        scores = [r["avg_score"] for r in by_game.values()]
        mean = f"{sum(scores) / len(scores):.2f}" + (
            "" if len(scores) == len(games) else f" ({len(scores)} of {len(games)} games)"
        )
        lines.append(f"| {name} | " + " | ".join(row) + f" | {mean} |")
    return "\n".join(lines) + "\n"


REPORTS = (Report("TextWorld's games", "textworld-table", textworld_table),)
