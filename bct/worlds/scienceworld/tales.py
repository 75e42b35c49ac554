"""ScienceWorld in TALES's benchmark (`protocol=tales`): tale-suite's `tales/ScienceWorld<Task>-v0` environments, which
load a variation as bct's do (no simplifications, the gold path generated) with ScienceWorld's own step limit off."""

from __future__ import annotations

from bct.core.game import Game
from bct.core.java import check_java
from bct.worlds.scienceworld.env import cap_heap
from bct.worlds.scienceworld.games import FOLD_INDEX, VARIATIONS, simplifications
from bct.worlds.tales import TalesGameEnv

# dev through TALES's own loader of the fold ("valid"); its environment is made for test
FOLDS = ("dev", "test")
SPLITS = {"dev": "valid", "test": "test"}


def tales_name(game: Game) -> str | None:
    """`ScienceWorldBoil` for boil (None for a game TALES does not play: one with simplifications)."""
    if simplifications(game):
        return None
    return "ScienceWorld" + game.world_game.title().replace("-", "")


def fold_list(game: Game, fold: str) -> list[int]:
    """The fold's variations in ScienceWorld's order (train, then dev, then test), as TALES lists them."""
    sizes = VARIATIONS[game.world_game]
    start = sum(sizes[: FOLD_INDEX[fold]])
    return list(range(start, start + sizes[FOLD_INDEX[fold]]))


class TalesEnv(TalesGameEnv):
    def __init__(self, game: Game, fold: str, list_actions: bool = True):
        check_java()
        cap_heap()
        super().__init__(game, tales_name(game), fold, list_actions)
        if not list_actions:  # its valid-action list is most of a step's time and nobody reads it; the game is the same
            self.tale.env.get_valid_action_object_combinations = lambda: []

    def switch(self, game: Game) -> bool:
        """Play another task from the next reset in this JVM, as TALES's environment of that task would (its task name
        and its fold's list, read by tale-suite's own loader), instead of starting one more JVM."""
        if game.world != self.game.world or tales_name(game) is None:
            return False
        from tales.scienceworld import scienceworld_data

        # the loader lists the variations of the task loaded in the JVM: load it first, as TALES's constructor does
        self.tale.env.load(game.world_game, 0, "", generateGoldPath=False)
        self.tale.task_name = game.world_game
        self.tale.variations = scienceworld_data.get_variations(game.world_game, SPLITS[self.fold], env=self.tale.env)
        self.tale.variation = self.tale.variations[0]
        self.game, self.playing = game, None
        return True

    def use_fold(self, fold: str) -> None:
        if fold != "test":
            from tales.scienceworld import scienceworld_data

            self.tale.variations = scienceworld_data.get_variations(
                self.tale.task_name, SPLITS[fold], env=self.tale.env
            )
