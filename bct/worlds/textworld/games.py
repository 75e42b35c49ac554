"""TextWorld's games in bct: its three challenges, each at a level, with train, dev and test as disjoint seeds.

The cooking levels are those of TALES's TWCookingLevel1-10 (GATA's rl.0.2 difficulty levels: `tw-make tw-cooking`
with these options, food split `train`, the game file picked from the level's test games); coin collector's level
is its path's length (101-200: dead ends beside the path), treasure hunter's 1-10 easy, 11-20 doors and
containers, 21-30 locks and keys (TextWorld's own challenge definitions).
"""

from __future__ import annotations

from bct.core.game import Game

# Each fold's generation seeds start here, FOLD_SIZE in a row: a game of one fold is never made from another's seed
FOLD_SEEDS = {"train": 1, "dev": 1_000_001, "test": 2_000_001}
FOLD_SIZE = 10_000

# tw-cooking's options per TALES level: (recipe, take, go, cook, cut); every level opens containers
COOKING_LEVELS: dict[int, tuple[int, int, int, bool, bool]] = {
    1: (1, 1, 1, False, False),
    2: (1, 1, 1, True, False),
    3: (1, 1, 1, False, True),
    4: (1, 1, 6, False, False),
    5: (1, 1, 9, False, False),
    6: (1, 1, 12, False, False),
    7: (1, 1, 1, True, True),
    8: (3, 3, 6, False, False),
    9: (3, 3, 6, True, True),
    10: (3, 3, 12, True, True),
}


def entry(name: str, challenge: str, level: int, levels: tuple[int, int], module: str, rules: str, **kw) -> Game:
    return Game(
        name,
        "textworld",
        challenge,
        f"level={level}",
        module,
        rules,
        accepts={"level": levels},
        # module calls pass no time in its games: limits count game commands, as TALES's do
        step_limit=100,
        repeat_limit=None,  # "go north" twice in a row is how a path runs
        **kw,
    )


GAMES: dict[str, Game] = {
    g.name: g
    for g in [
        # the recipe is read once, in the kitchen; the cookbook module keeps it and what was done of it
        entry("textworld-cooking", "tw-cooking", 1, (1, 10), "cookbook", "cooking"),
        # the objective spells every move: the progress module keeps the moves made
        entry("textworld-coin", "tw-coin_collector", 5, (1, 200), "progress", "instructions"),
        entry("textworld-treasure", "tw-treasure_hunter", 5, (1, 30), "progress", "instructions"),
    ]
}
ALIASES: dict[str, str] = {}
GROUPS = {"textworld": list(GAMES)}


def level(game: Game) -> int:
    return game.param_values["level"]


def fold_seeds(game: Game, fold: str, n: int) -> list[int]:
    """The first `n` generation seeds of a fold."""
    return list(range(FOLD_SEEDS[fold], FOLD_SEEDS[fold] + n))


def fold_size(game: Game, fold: str) -> int:
    return FOLD_SIZE
