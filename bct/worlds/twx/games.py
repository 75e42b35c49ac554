"""TextWorldExpress's games in bct: our names, their TWX gameName and gameParams, their module and rules."""

from __future__ import annotations

from bct.core.game import Game

FOLD_SEEDS = {"train": 0, "dev": 10000, "test": 20000}  # TWX: each fold's seeds start here, 1000 in a row
FOLD_SIZE = 1000

_TWC_PARAMS = "numLocations={rooms},numItemsToPutAway={items},includeDoors=0,limitInventorySize=0"
_TALES_COOKING = "numLocations=1,numIngredients=2,numDistractorItems=5,includeDoors=0,limitInventorySize=0"
_TALES_SIMON = "gameLength={length},numDistractors=4,memorization={memory},verbose={verbose}"


# The parameters each TWX game accepts, with the range its generator allows (`game.params.NAME=VALUE`
# sets one on top of a preset). Some pairs are refused per game: 15 rooms cannot lie 8 apart.
PARAMS: dict[str, dict[str, tuple[int, int]]] = {
    "mapreader": {
        "numLocations": (2, 50),
        "maxDistanceApart": (1, 8),
        "maxDistractorItemsPerLocation": (0, 3),
        "includeDoors": (0, 1),
        "limitInventorySize": (0, 1),
    },
    "twc": {"numLocations": (1, 3), "numItemsToPutAway": (1, 4), "includeDoors": (0, 1), "limitInventorySize": (0, 1)},
    "arithmetic": {},
    "sorting": {},
    "simonsays": {"gameLength": (1, 1000), "numDistractors": (0, 5), "memorization": (0, 1), "verbose": (0, 1)},
    "peckingorder": {},
    "coin": {
        "numLocations": (1, 11),
        "numDistractorItems": (0, 10),
        "includeDoors": (0, 1),
        "limitInventorySize": (0, 1),
    },
    "cookingworld": {
        "numLocations": (1, 11),
        "numIngredients": (1, 5),
        "numDistractorItems": (0, 10),
        "includeDoors": (0, 1),
        "limitInventorySize": (0, 1),
    },
}


def entry(name: str, game: str, params: str, module: str, rules: str, **kw) -> Game:
    """A registry entry: our name, TWX's gameName and gameParams, its module, whose rules it plays by."""
    return Game(name, "twx", game, params, module, rules, accepts=PARAMS[game], **{"memory_module": "memory-twx", **kw})


TWC_MEMORY = {"memory": True, "memory_default": True, "memory_module": "memory-twc"}

GAMES: dict[str, Game] = {
    g.name: g
    for g in [
        entry("arithmetic", "arithmetic", "", "calc", "arithmetic"),
        entry("mapreader", "mapreader", "", "navigation", "mapreader", memory_module="memory-mapreader"),
        # beyond the paper: the navigator also says which way to move (bct/worlds/twx/modules/navigation_directions.py)
        entry(
            "mapreader-directions",
            "mapreader",
            "",
            "navigation-directions",
            "mapreader",
            memory_module="memory-mapreader",
        ),
        entry("sorting", "sorting", "", "sortquantity", "sorting"),
        entry("twc", "twc", _TWC_PARAMS.format(rooms=1, items=1), "kb-twc", "twc", memory_module="memory-twc"),
        # TextWorld Commonsense levels after seed 003; TWX allows at most 4 items to put away. Played with
        # the working memory (what the knowledge base said, which places were tried wrong, the rooms).
        *(
            entry(name, "twc", _TWC_PARAMS.format(rooms=rooms, items=items), "kb-twc", "twc", **TWC_MEMORY)
            for name, rooms, items in [("twc-medium", 1, 3), ("twc-hard", 2, 4)]
        ),
        # TWX's other four games, at its defaults, played with the working memory
        *(
            entry(name, twx_game, params, "", rules, memory=True, memory_default=True, step_limit=limit)
            # step limits: gold paths with memory calls are at most 10 (Simon Says), 55 (coin), 114
            # (CookingWorld), 28 (its TALES setting) and 200 (Simon Says of length 100) actions long
            for name, twx_game, params, rules, limit in [
                ("simonsays", "simonsays", "", "simonsays", 50),
                ("simonsays-memory", "simonsays", "memorization=1", "simonsays", 50),  # the sequence is shown once
                ("peckingorder", "peckingorder", "", "peckingorder", 50),
                ("coin", "coin", "", "coin", 120),
                ("cookingworld", "cookingworld", "", "cookingworld", 250),
                # the settings TALES (2025) published zero-shot LLM figures on
                ("cookingworld-tales", "cookingworld", _TALES_COOKING, "cookingworld", 80),
                ("coin-tales", "coin", "numLocations=1,numDistractorItems=5", "coin", 50),
                (
                    "simonsays-memory-tales",
                    "simonsays",
                    "gameLength=100,numDistractors=4,memorization=1",
                    "simonsays",
                    250,
                ),
                # TALES's other Simon Says: lengths 10, 50 and 100, one instruction at a time (plain), the
                # sequence shown once (memory), and shown once with verbose observations
                *(
                    (
                        name.format(n=n),
                        "simonsays",
                        _TALES_SIMON.format(length=n, memory=m, verbose=v),
                        "simonsays",
                        2 * n + 50,
                    )
                    for name, m, v in [
                        ("simonsays-tales-{n}", 0, 0),
                        ("simonsays-memory-tales-{n}", 1, 0),
                        ("simonsays-memory-verbose-tales-{n}", 1, 1),
                    ]
                    for n in (10, 50, 100)
                    if (n, m, v) != (100, 1, 0)  # simonsays-memory-tales
                ),
            ]
        ),
        entry(
            "mapreader-tales",
            "mapreader",
            "numLocations=2,maxDistanceApart=1,maxDistractorItemsPerLocation=2",
            "navigation",
            "mapreader",
            memory_module="memory-mapreader",
        ),
    ]
}

# The paper's names for our defaults, and TALES's settings that are TWX's defaults (twc: the easy level).
ALIASES = {
    "mapreader-random": "mapreader",
    "twc-easy": "twc",
    "twc-tales": "twc",
    "arithmetic-tales": "arithmetic",
    "sorting-tales": "sorting",
    "peckingorder-tales": "peckingorder",
    "simonsays-memory-tales-100": "simonsays-memory-tales",
}

# TextWorldExpress's eight games at their defaults (Simon Says both ways: one instruction at a time,
# and the sequence shown once).
TWX_GAMES = (
    "arithmetic",
    "mapreader",
    "sorting",
    "twc",
    "simonsays",
    "simonsays-memory",
    "peckingorder",
    "coin",
    "cookingworld",
)

# TALES (2025)'s TextWorldExpress environments, each with the preset of its settings: its TWX aggregate is
# the mean over these sixteen.
TALES_ENVS = {
    "TWXCookingWorld": "cookingworld-tales",
    "TWXTextWorldCommonsense": "twc-tales",
    "TWXCoinCollector": "coin-tales",
    "TWXMapReader": "mapreader-tales",
    "TWXArithmetic": "arithmetic-tales",
    "TWXSorting": "sorting-tales",
    "TWXPeckingOrder": "peckingorder-tales",
    **{f"TWXSimonSays{n}": f"simonsays-tales-{n}" for n in (10, 50, 100)},
    **{f"TWXSimonSaysWithMemory{n}": f"simonsays-memory-tales-{n}" for n in (10, 50, 100)},
    **{f"TWXSimonSaysWithMemory{n}Verbose": f"simonsays-memory-verbose-tales-{n}" for n in (10, 50, 100)},
}

# The four games of the paper, in its order.
PAPER_GAMES = ("arithmetic", "mapreader", "sorting", "twc")
# names for several games (`games=[paper]`), read by the reports through the registry too
GROUPS = {"twx": list(TWX_GAMES), "paper": list(PAPER_GAMES)}


# The offline presets' training defaults by game (conf/model/t5-cpu-scratch.yaml and the scratch presets that share
# its data and epochs read them through the registry); any other game or variant: 1000 games, 4 epochs.
# Games with long episodes learn from fewer: CookingWorld's gold paths with memory are ~95 actions (300 games,
# 1 epoch: ~7 minutes on 2 cores), coin's ~25 (500 games, 2 epochs: ~6 minutes), Simon Says of length 100 ~200
# (100 games: 1.000), twc-hard's ~32 (300 games, 2 epochs: 1.000); at 1000 games their data alone takes long.
# (Their variants without memory keep the defaults: 1000 games, 4 epochs.)
NUM_GAMES = {"coin": 500, "cookingworld": 300, "simonsays-memory-tales": 100, "twc-medium": 300, "twc-hard": 300}
# With modules, each distinct example once per epoch, for the epochs each game needs: the fewest that played
# 0.99-1.00 on test (an epoch of twc is 107 examples, of mapreader 5,750). Without modules the presets keep 4.
EPOCHS = {
    "arithmetic": 2,
    "mapreader": 2,
    "sorting": 1,
    "twc": 30,
    "twc-medium": 2,
    "twc-hard": 2,
    "coin": 2,
    "cookingworld": 1,
    "cookingworld-tales": 1,
}
TRAINING_DEFAULTS = {"num_games": NUM_GAMES, "epochs": EPOCHS}


def fold_seeds(game: Game, fold: str, n: int) -> list[int]:
    """The first `n` seeds of a fold: TWX numbers each fold's games from its own start."""
    return list(range(FOLD_SEEDS[fold], FOLD_SEEDS[fold] + n))


def fold_size(game: Game, fold: str) -> int:
    return FOLD_SIZE
