"""The game registry: our game names, their TextWorldExpress settings and their module."""

from __future__ import annotations

from dataclasses import dataclass

from bct.errors import UserError, unknown

FOLDS = ("train", "dev", "test")
FOLD_SEEDS = {"train": 0, "dev": 10000, "test": 20000}  # TWX: each fold's seeds start here, 1000 in a row
FOLD_SIZE = 1000
VARIANTS = ("modules", "nomodules")

_TWC_PARAMS = "numLocations={rooms},numItemsToPutAway={items},includeDoors=0,limitInventorySize=0"


@dataclass(frozen=True)
class Game:
    name: str  # our name
    twx_name: str  # TextWorldExpress gameName
    params: str  # TextWorldExpress gameParams
    module: str  # the symbolic module this game is played with
    family: str  # which gold-path injection rule applies (twc-medium plays like twc)


GAMES: dict[str, Game] = {
    g.name: g
    for g in [
        Game("arithmetic", "arithmetic", "", "calc", "arithmetic"),
        Game("mapreader", "mapreader", "", "navigation", "mapreader"),
        # beyond the paper: the navigator also says which way to move (bct/modules/navigation_directions.py)
        Game("mapreader-directions", "mapreader", "", "navigation-directions", "mapreader"),
        Game("sorting", "sorting", "", "sortquantity", "sorting"),
        Game("twc", "twc", _TWC_PARAMS.format(rooms=1, items=1), "kb-twc", "twc"),
        # TextWorld Commonsense levels after seed 003; TWX allows at most 4 items to put away.
        Game("twc-medium", "twc", _TWC_PARAMS.format(rooms=1, items=3), "kb-twc", "twc"),
        Game("twc-hard", "twc", _TWC_PARAMS.format(rooms=2, items=4), "kb-twc", "twc"),
    ]
}

# The paper's names for our defaults.
ALIASES = {"mapreader-random": "mapreader", "twc-easy": "twc"}

# The four games of the paper, in its order.
PAPER_GAMES = ("arithmetic", "mapreader", "sorting", "twc")


def register_configs() -> None:
    """The registry is the one place games are defined: Hydra's `game` group (`+game=NAME`) is made
    from it, one config per name and alias."""
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    for name in [*GAMES, *ALIASES]:
        cs.store(group="game", name=name, node={"name": ALIASES.get(name, name)})  # an alias names its game


register_configs()


def get_game(name: str) -> Game:
    key = ALIASES.get(name, name)
    if key not in GAMES:
        raise unknown("game", name, [*GAMES, *ALIASES])
    return GAMES[key]


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


def variant_name(modules: bool) -> str:
    """The data and run folders' name for playing with the game's module or without."""
    return VARIANTS[0] if modules else VARIANTS[1]


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise unknown("variant", variant, VARIANTS)
    return variant


def check_choices(kind: str, values, check) -> list[str]:
    """Validate a list-valued config entry (e.g. `games=[sorting,twc]`)."""
    if isinstance(values, str):
        values = [values]
    values = list(values)
    if not values:
        raise UserError(f"no {kind} selected; name at least one")
    for v in values:
        check(v)
    return values
