"""The game registry: our game names, their TextWorldExpress settings and their module."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from bct.errors import UserError, unknown

FOLDS = ("train", "dev", "test")
FOLD_SEEDS = {"train": 0, "dev": 10000, "test": 20000}  # TWX: each fold's seeds start here, 1000 in a row
FOLD_SIZE = 1000
# folder and run names: with the game's modules, without, and with every module offered in every game
MODULES_LABELS = {True: "modules", False: "nomodules", "all": "allmodules"}
# modules=all: every module is offered in every game, beside the game's own and its working memory; the
# agent chooses which to use (a game's gold path calls its own module only)
ALL_MODULES = ("calc", "navigation", "sortquantity", "kb-twc")

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


@dataclass(frozen=True)
class Game:
    name: str  # our name (a variant's: its preset's, then each parameter it changes, e.g. mapreader-numLocations30)
    twx_name: str  # TextWorldExpress gameName
    params: str  # TextWorldExpress gameParams
    module: str  # the symbolic module this game is played with ("": none of its own)
    family: str  # which gold-path injection rule applies (twc-medium plays like twc)
    preset: str = ""  # a variant's registry entry ("" for an entry itself)
    overrides: tuple[tuple[str, int], ...] = ()  # what a variant sets on top of its preset
    memory: bool = False  # played with the working memory (bct/modules/memory.py) beside its module
    memory_default: bool = False  # the preset's own setting: on for the games that need to remember
    memory_module: str = "memory"  # which working memory (bct/modules/): its facts and rules fit the game
    step_limit: int = (
        50  # an evaluation's default actions per episode (module calls included): room for the longest gold path
    )

    @property
    def param_values(self) -> dict[str, int]:
        return {k: int(v) for k, v in (p.split("=") for p in self.params.split(",") if p)}

    def with_params(self, params: Mapping[str, int | None]) -> Game:
        """This game with TWX parameters set on top (None: as the preset has it). Every parameter that
        differs is part of the variant's name, so that a variant never shares a folder with another."""
        accepted = PARAMS[self.twx_name]
        given = {k: v for k, v in params.items() if v is not None}
        for k, v in given.items():
            if k not in accepted:
                raise UserError(
                    f"game.params.{k}: {self.name} has no such parameter; it accepts {', '.join(accepted) or 'none'}"
                )
            lo, hi = accepted[k]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise UserError(f"game.params.{k}={v}: {self.twx_name} accepts a whole number from {lo} to {hi}")
        base = self.param_values
        changed = {k: v for k, v in sorted(given.items()) if base.get(k) != v}
        if not changed:
            return self
        merged = {**base, **changed}
        return replace(
            self,
            name=self.name + "".join(f"-{k}{v}" for k, v in changed.items()),
            params=",".join(f"{k}={v}" for k, v in merged.items()),
            preset=self.preset or self.name,
            overrides=tuple({**dict(self.overrides), **changed}.items()),
        )

    def with_memory(self, memory: bool | None) -> Game:
        """This game with the working memory on or off (None: the preset's default). A setting other than
        the preset's default is part of the name (`twc-memory`, `coin-nomemory`), like any variant's."""
        if memory is None or memory == self.memory:
            return self
        base = self.name
        if self.memory != self.memory_default:
            base = base.removesuffix("-memory" if self.memory else "-nomemory")
        name = base if memory == self.memory_default else base + ("-memory" if memory else "-nomemory")
        # a preset's own memory setting, with no parameter changed, is the preset itself
        preset = self.preset or base if (self.overrides or memory != self.memory_default) else ""
        return replace(self, name=name, memory=memory, preset=preset)

    def record(self) -> dict:
        """What settings, manifests and results say of the game: its name and, for a variant, its preset
        and parameters (read back by `from_record`)."""
        return {
            "game": self.name,
            **({"game_preset": self.preset, "game_params": dict(self.overrides)} if self.preset else {}),
            "memory": self.memory,
        }


TWC_MEMORY = {"memory": True, "memory_default": True, "memory_module": "memory-twc"}

GAMES: dict[str, Game] = {
    g.name: g
    for g in [
        Game("arithmetic", "arithmetic", "", "calc", "arithmetic"),
        Game("mapreader", "mapreader", "", "navigation", "mapreader", memory_module="memory-mapreader"),
        # beyond the paper: the navigator also says which way to move (bct/modules/navigation_directions.py)
        Game(
            "mapreader-directions",
            "mapreader",
            "",
            "navigation-directions",
            "mapreader",
            memory_module="memory-mapreader",
        ),
        Game("sorting", "sorting", "", "sortquantity", "sorting"),
        Game("twc", "twc", _TWC_PARAMS.format(rooms=1, items=1), "kb-twc", "twc", memory_module="memory-twc"),
        # TextWorld Commonsense levels after seed 003; TWX allows at most 4 items to put away. Played with
        # the working memory (what the knowledge base said, which places were tried wrong, the rooms).
        *(
            Game(name, "twc", _TWC_PARAMS.format(rooms=rooms, items=items), "kb-twc", "twc", **TWC_MEMORY)
            for name, rooms, items in [("twc-medium", 1, 3), ("twc-hard", 2, 4)]
        ),
        # TWX's other four games, at its defaults, played with the working memory
        *(
            Game(name, twx, params, "", family, memory=True, memory_default=True, step_limit=limit)
            # step limits: gold paths with memory calls are at most 10 (Simon Says), 55 (coin), 114
            # (CookingWorld), 28 (its TALES setting) and 200 (Simon Says of length 100) actions long
            for name, twx, params, family, limit in [
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
        Game(
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


def register_configs() -> None:
    """The registry is the one place games are defined: Hydra's `game` group (`+game=NAME`) is made
    from it, one config per name and alias."""
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    for name in [*GAMES, *ALIASES]:
        game = GAMES[ALIASES.get(name, name)]  # an alias names its game
        params = {k: game.param_values.get(k) for k in PARAMS[game.twx_name]}  # null: TWX's default
        cs.store(group="game", name=name, node={"name": game.name, "params": params})


register_configs()


def get_game(name: str) -> Game:
    key = ALIASES.get(name, name)
    if key not in GAMES:
        raise unknown("game", name, [*GAMES, *ALIASES])
    return GAMES[key]


def as_game(game: str | Game) -> Game:
    return game if isinstance(game, Game) else get_game(game)


def from_record(record: dict) -> Game:
    """The game that `Game.record()` wrote into settings, a manifest or results."""
    if record.get("game_preset"):
        game = get_game(record["game_preset"]).with_params(record.get("game_params", {}))
    else:
        game = get_game(record["game"])
    return game.with_memory(record.get("memory"))


def trained_games(record: dict) -> list[Game]:
    """The games a run's settings say it trained on: one (`game`), or several (`games`)."""
    return [from_record(r) for r in record["games"]] if record.get("games") else [from_record(record)]


def check_fold(fold: str) -> str:
    if fold not in FOLDS:
        raise unknown("fold", fold, FOLDS)
    return fold


def fold_seeds(fold: str, n: int, what: str = "variations", key: str = "num_variations") -> list[int]:
    """The first `n` games (TWX seeds) of a fold."""
    check_fold(fold)
    if not 1 <= n <= FOLD_SIZE:
        raise UserError(f"{key}={n}: the {fold} fold has {FOLD_SIZE} {what}; choose 1 to {FOLD_SIZE}")
    return list(range(FOLD_SEEDS[fold], FOLD_SEEDS[fold] + n))


def modules_label(modules: bool | str) -> str:
    """The data and run folders' name for playing with the game's modules (`modules`), without
    (`nomodules`), or with every module (`allmodules`, modules=all)."""
    return MODULES_LABELS[modules if modules == "all" else bool(modules)]


def check_modules(modules) -> bool | str:
    if modules not in MODULES_LABELS or not isinstance(modules, (bool, str)):
        raise UserError(f"modules: {modules!r} is not true, false or all; e.g. modules=[true,false]")
    return modules


def expand_games(games) -> list[str]:
    """A `games` setting as registry names: `all` is every registered game (aliases left out), else a
    list (or one name) checked against the registry."""
    if games == "all" or games == ["all"]:
        return list(GAMES)
    names = check_choices("games", games, get_game)
    return list(dict.fromkeys(get_game(n).name for n in names))


def check_choices(kind: str, values, check) -> list[str]:
    """Validate a list-valued config entry (e.g. `games=[sorting,twc]`)."""
    values = list(values) if isinstance(values, (list, tuple)) else [values]
    if not values:
        raise UserError(f"no {kind} selected; name at least one")
    for v in values:
        check(v)
    return values
