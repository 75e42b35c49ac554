"""TextWorldExpress in TALES's benchmark (`protocol=tales`): tale-suite's sixteen `tales/TWX<Setting>-v0` environments,
each TALES's own game parameters (which may differ from bct's game of that setting where TALES names a parameter bct
leaves at TWX's default: its coin sets limitInventorySize=0)."""

from __future__ import annotations

from bct.core.game import Game
from bct.core.java import check_java
from bct.worlds.tales import TalesGameEnv
from bct.worlds.twx.games import ALIASES, FOLD_SEEDS, FOLD_SIZE, TALES_ENVS

FOLDS = ("test",)  # its environment resets TWX's test fold whatever seeds it lists

# bct's game of each of TALES's settings -> TALES's environment (the games' own table, read the other way)
NAMES = {game: env for env, game in TALES_ENVS.items()}


def tales_name(game: Game) -> str | None:
    """TALES's environment of the setting `game` is (with its working memory or without); None for another."""
    if game.overrides:
        return None
    name = game.preset or game.name
    return NAMES.get(name) or next((env for alias, env in NAMES.items() if ALIASES.get(alias) == name), None)


def fold_list(game: Game, fold: str) -> list[int]:
    """TWX's seeds of the fold, in order, as TALES lists them."""
    return list(range(FOLD_SEEDS[fold], FOLD_SEEDS[fold] + FOLD_SIZE))


class TalesEnv(TalesGameEnv):
    fold_list_attr = "seeds"
    task_key, inventory_key = "taskDescription", "inventory"

    def __init__(self, game: Game, fold: str, list_actions: bool = True):
        check_java()
        super().__init__(game, tales_name(game), fold, list_actions)
