"""ScienceWorld's gold paths: the simulator's own action sequence for a variation, replayed as it is (its
actions are commands its parser takes, not always strings of its valid-action list).

With the working memory (bct/modules/memory_scienceworld.py), `recall progress` is asked after every
RECALL_EVERY game actions: so every prompt holds the memory's answer, as its observation or as the
previous one (with the one action since in view), and the agent reads what was done and seen so far at
each decision. The answers are facts; the next action is the gold path's.
"""

from __future__ import annotations

from collections.abc import Generator

from bct.worlds.base import Game

RECALL = "recall progress"
RECALL_EVERY = 2


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return {game.memory_module} if game.memory else set()


def gold_path(env, modules: bool | str) -> Generator[str, object, None]:
    """Every action of the gold path of the episode `env` has just reset, with the memory's recalls; sent
    each step (unread)."""
    since = 0  # game actions since the latest recall
    for action in env.gold_actions():
        if env.game.memory and since >= RECALL_EVERY:
            yield RECALL
            since = 0
        yield action
        since += 1
