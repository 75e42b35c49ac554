"""TextWorld's gold paths: its games' own walkthroughs, with the module asked before each game command where the
decision needs what the prompt no longer shows (the recipe once read; the moves made along a spelled-out path)."""

from __future__ import annotations

from collections.abc import Generator

from bct.core.game import Game
from bct.modules.stack import ModularEnv, Step

ASK = {"cookbook": "recall recipe", "progress": "recall progress"}


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return {game.module} if modules and game.module else set()


def gold_path(env: ModularEnv, modules: bool) -> Generator[str, Step, None]:
    """The walkthrough of the game `env` has just reset; with modules, its module asked before each game command
    (the cookbook's from the moment the recipe was read). A walkthrough step the game does not list is passed over:
    the walkthrough is planned from the first state, one ingredient at a time, and opens the fridge again where it
    already stands open; the path must still win (bct/worlds/gold.py checks)."""
    ask = ASK.get(env.game.module) if modules else None
    for action in env.gold_actions():
        if action not in env.last.valid_actions:
            continue
        if ask and ask in env.last.valid_actions:
            yield ask
        yield action
