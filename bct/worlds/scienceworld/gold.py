"""ScienceWorld's gold paths: the simulator's own action sequence for a variation, replayed as it is. Its
actions are commands its parser takes, not always strings of its valid-action list."""

from __future__ import annotations

from collections.abc import Generator

from bct.worlds.base import Game


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return set()


def gold_path(env, modules: bool | str) -> Generator[str, object, None]:
    """Every action of the gold path of the episode `env` has just reset; sent each step (unread)."""
    for action in env.gold_actions():  # noqa: UP028 (yield from a list cannot be sent the steps)
        yield action
