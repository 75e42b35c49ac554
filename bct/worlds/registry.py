"""The worlds bct plays, one line each, and the game registry over all of them.

A game is named once across worlds (`get_game`); `games=all` is every registered game; a game's world
opens its environment (`open_game`, with the modules in front), folds its seeds and writes its gold paths.
Adding a world: a folder implementing `bct.worlds.base.World` (its world.py sets WORLD), and its name in FOLDERS.
"""

from __future__ import annotations

import logging
import random
import re
from dataclasses import replace
from importlib import import_module

from bct.core.errors import UserError, unknown
from bct.core.game import FOLDS, Game, check_fold
from bct.modules import MODULES as SHARED_MODULES
from bct.modules import Module
from bct.modules.stack import ModularEnv
from bct.worlds.base import World

log = logging.getLogger(__name__)

# The worlds, by their folders' names: each folder's world.py sets WORLD (bct/worlds/base.py, `World`).
FOLDERS = ("twx", "scienceworld", "textworld")
WORLDS: dict[str, World] = {w.name: w for w in (import_module(f"bct.worlds.{f}.world").WORLD for f in FOLDERS)}

GAMES: dict[str, Game] = {name: g for w in WORLDS.values() for name, g in w.games.items()}
ALIASES: dict[str, str] = {alias: name for w in WORLDS.values() for alias, name in w.aliases.items()}
GROUPS: dict[str, list[str]] = {group: names for w in WORLDS.values() for group, names in w.groups.items()}
# every module by its name: the shared ones (bct/modules/) and each world's own (its folder's modules/)
MODULES: dict[str, type[Module]] = {**SHARED_MODULES, **{n: m for w in WORLDS.values() for n, m in w.modules.items()}}
# folder and run names: with the game's modules, without, and with every module offered in every game
MODULES_LABELS = {True: "modules", False: "nomodules", "all": "allmodules"}

__all__ = ["FOLDS", "GAMES", "ALIASES", "MODULES", "Game", "World", "check_fold", "get_game", "world_of", "open_game"]


def world_of(game: Game) -> World:
    return WORLDS[game.world]


def training_defaults(setting: str) -> dict[str, int]:
    """Each game's own `setting` (num_games, epochs) for the offline model presets, where its world sets one
    (`World.training_defaults`); a preset reads it through a resolver (bct.config.settings)."""
    return {game: n for w in WORLDS.values() for game, n in w.training_defaults.get(setting, {}).items()}


def register_configs() -> None:
    """The registry is the one place games are defined: Hydra's `game` group (`+game=NAME`) is made
    from it, one config per name and alias."""
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    for name in [*GAMES, *ALIASES]:
        game = GAMES[ALIASES.get(name, name)]  # an alias names its game
        params = {k: game.param_values.get(k) for k in game.accepts}  # null: the world's default
        cs.store(group="game", name=name, node={"name": game.name, "params": params})


register_configs()


def get_game(name: str) -> Game:
    """A registered game, an alias, or a variant by the name `Game.with_params` gives it (`mapreader-numLocations30`,
    `scienceworld-chemistry-mix-paint-secondary-color-search1`), so that a list of games can hold variants."""
    key = ALIASES.get(name, name)
    if key in GAMES:
        return GAMES[key]
    variant = _variant(key)
    if variant is None:
        raise unknown("game", name, [*GAMES, *ALIASES])
    return variant


_PARAM = re.compile(r"([A-Za-z]+)(\d+)")


def _variant(name: str) -> Game | None:
    """The variant a name spells: the longest registered game it starts with, then `-<parameter><value>` for each
    parameter that game accepts (None where the name is no such thing)."""
    for preset in sorted((p for p in GAMES if name.startswith(p + "-")), key=len, reverse=True):
        params = [_PARAM.fullmatch(part) for part in name[len(preset) + 1 :].split("-")]
        if all(m and m.group(1) in GAMES[preset].accepts for m in params):
            return GAMES[preset].with_params({m.group(1): int(m.group(2)) for m in params})
    return None


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


def fold_seeds(game: Game, fold: str, n: int, what: str = "variations", key: str = "num_variations") -> list[int]:
    """`n` variations (seeds) of a fold of `game` as its world picks them (TWX: the first n; ScienceWorld: drawn
    from the fold, the same every run), or all of them where the fold has fewer (some ScienceWorld tasks have 2
    to 9 a fold: a run over many games takes what each has)."""
    check_fold(fold)
    size = world_of(game).fold_size(game, fold)
    if n < 1:
        raise UserError(f"{key}={n}: choose 1 to {size} (the {fold} fold of {game.name} has {size} {what})")
    if n > size:
        log.info("%s: its %s fold has %d %s; taking all of them (%s=%d)", game.name, fold, size, what, key, n)
    return world_of(game).fold_seeds(game, fold, min(n, size))


def make_module(name: str) -> Module:
    if name not in MODULES:
        raise unknown("module", name, MODULES)
    return MODULES[name]()


def make_modules(names) -> list[Module]:
    return [make_module(n) for n in names]


def modules_of(game: Game, modules: bool | str) -> list[str]:
    """The modules `game` is played with: its own (modules=True), then with modules=all each module its world offers
    in every game (`World.all_modules`) that speaks no verb of one already there (mapreader-directions keeps its own
    navigator), and the working memory where `game.memory`."""
    names = [game.module] if modules and game.module else []
    if modules == "all":
        for name in world_of(game).all_modules:
            if not any(set(MODULES[name].verbs) & set(MODULES[n].verbs) for n in names):
                names.append(name)
    return names + ([game.memory_module] if game.memory else [])


# modules a run recorded under an earlier name (TWX's working memory; the threshold module by its verb)
RENAMED_MODULES = {"memory": "memory-twx", "compare": "threshold"}


def played_with(record: dict) -> dict[str, list[str]] | None:
    """A run's modules by game as it recorded them (`played_with`: only the games whose modules are not those of no
    module), under today's module names; None for a run that recorded none (before `played_with`, or no game of
    it had a module of its own then)."""
    played = record.get("played_with")
    if not isinstance(played, dict):
        return None
    return {g: [RENAMED_MODULES.get(m, m) for m in ms] for g, ms in played.items()}


def as_trained(game: Game, record: dict) -> Game:
    """`game` with the module a run's settings say it was trained with (`played_with`): a game given a module after
    the run was trained (a ScienceWorld task's new module) is played by that run as it learned it, without it. The
    game is the run's of the same name, else of the same registry entry (a task trained from its search's gold
    paths, played as the task; not mapreader-directions, an entry of its own). A game the run did not train on, a
    run with `modules=all` (the world's modules, not a game's own) and a run that recorded no `played_with` keep
    the game's own."""
    played, modules = played_with(record), record.get("modules")
    if modules is not True or played is None:
        return game
    games = trained_games(record)
    trained = next((g for g in games if g.name == game.name), None)
    trained = trained or next((g for g in games if (g.preset or g.name) == (game.preset or game.name)), None)
    if trained is None:
        return game
    recorded = played.get(trained.name, modules_of(trained, False))
    if modules_of(game, modules) == recorded:
        return game
    module = next((m for m in recorded if m != game.memory_module), "")
    return replace(game, module=module)


def data_modules(game: Game, modules: bool | str) -> bool | str:
    """The module setting whose gold data `game` is played from under `modules`: False where `modules` puts no
    module in front of it that `modules=false` does not (a ScienceWorld task of no module of its own plays
    the same with modules and without: one data file serves both)."""
    return modules if modules_of(game, modules) != modules_of(game, False) else False


def memory_of(modules, memory: bool | None) -> bool | None:
    """The working memory setting: with modules=all the memory is one of the modules offered, unless
    memory=false says otherwise; else `memory` (None: the game's default)."""
    return True if memory is None and modules == "all" else memory


def open_game(
    game: Game,
    modules: bool | str | list = True,
    step_limit: int = 1000,
    list_actions: bool = True,
    tales_fold: str | None = None,
    reproducible: bool = False,
) -> ModularEnv:
    """`game` in its world's environment with modules in front: its own (modules=True), none (False),
    every module (all), each with the working memory where `game.memory`; or the modules named in a list.
    `list_actions=False`: a world may leave its valid-action list empty where nobody reads it (gold paths).
    `tales_fold`: in tale-suite's environment of the game, playing that fold (`protocol=tales`), not its world's.
    `reproducible`: a reset gives the same episode whatever the process did before (data; `World.open`)."""
    names = modules if isinstance(modules, list) else modules_of(game, modules)
    if tales_fold is not None:
        return ModularEnv(game, tales_env(game, tales_fold, list_actions), make_modules(names))
    env = world_of(game).open(game, step_limit, list_actions, reproducible=reproducible)
    return ModularEnv(game, env, make_modules(names))


def tales_of(game: Game, fold: str):
    """The game's world's TALES module (`World.tales`), refused in one line where TALES does not play the game or
    the fold."""
    tales = world_of(game).tales
    if tales is None or tales.tales_name(game) is None:
        raise UserError(f"protocol=tales: TALES has no environment for {game.name}; play it with protocol=bct")
    if fold not in tales.FOLDS:
        raise UserError(
            f"protocol=tales: TALES's {world_of(game).name} environments play {' and '.join(tales.FOLDS)}, not {fold}"
        )
    return tales


def tales_env(game: Game, fold: str, list_actions: bool = True):
    """tale-suite's own environment of `game`, playing `fold` (bct.worlds.tales)."""
    return tales_of(game, fold).TalesEnv(game, fold, list_actions)


def tales_runs(game: Game, fold: str, n: int) -> dict[int, int]:
    """The variations TALES's game seeds 1..n play of `game`'s fold, each with its number of runs."""
    from bct.worlds.tales import tales_runs as runs

    return runs(tales_of(game, fold).fold_list(game, fold), n)


def protocol_seeds(game: Game, fold: str, n: int, protocol: str = "bct", draw: int = 1) -> list[int]:
    """The variations an evaluation plays: bct's (`fold_seeds`; `draw=2`: `n` others of the same fold, disjoint from
    the first draw, where the fold holds them), or those TALES's game seeds 1..n pick from the fold's list."""
    if protocol == "tales":
        return list(tales_runs(game, fold, n))
    first = fold_seeds(game, fold, n)
    if draw == 1:
        return first
    size = world_of(game).fold_size(game, fold)
    if size < 2 * n:
        raise UserError(f"draw={draw}: {game.name}'s {fold} fold has {size} variations, fewer than two draws of {n}")
    rest = sorted(set(fold_seeds(game, fold, size)) - set(first))
    # keyed as the first draw is (the world's game and the fold), so that a game's variants draw alike
    return sorted(random.Random(f"{game.world_game} {fold} draw {draw}").sample(rest, n))


def names(text: str) -> list[str]:
    """Every room, object and place the fixed sentences of `text`'s world name: read by the worlds that
    recognise the text as theirs (`World.speaks`), else by those that read any text (TWX's)."""
    return [n for w in _speaking(text) or [w for w in WORLDS.values() if w.speaks is None] for n in w.names(text)]


def _speaking(text: str) -> list[World]:
    """The worlds that recognise `text` (a task description) as theirs (`World.speaks`)."""
    return [w for w in WORLDS.values() if w.speaks is not None and w.speaks(text)]


def task_things(text: str, made: bool = True, compared: bool = True) -> list[str]:
    """What the task description of `text` names that its variations change (its thing, then its boxes and rooms),
    read by the worlds that recognise the text as theirs; `made`: with what it asks to create; `compared`: with the
    things it compares (the inclined planes)."""
    return [n for w in _speaking(text) if w.task_things for n in w.task_things(text, made, compared)]


def read_things(task: str, text: str) -> list[str]:
    """What a text read in `text` (a prompt) names that the task needs, read by the worlds that recognise the task
    as theirs (`World.read_things`)."""
    return [n for w in _speaking(task) if w.read_things for n in w.read_things(text)]


def stage_things(task: str, grown: bool = True, crossed: bool = True, trait: bool = True) -> list[str]:
    """What a task follows through the stages its world names by longer names (`World.stage_things`); `grown`: with
    the fruit a growing task asks for; `crossed`: with the plant a genetics task crosses; `trait`: with the value of
    the trait it asks of."""
    return [n for w in _speaking(task) if w.stage_things for n in w.stage_things(task, grown, crossed, trait)]


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
    list (or one name) checked against the registry, where a group's name (`scienceworld`) stands for its games."""
    if games == "all" or games == ["all"]:
        return list(GAMES)
    given = list(games) if isinstance(games, (list, tuple)) else [games]
    names = [n for g in given for n in GROUPS.get(g, [g])]  # a group (`scienceworld`) names its games
    names = check_choices("games", names, get_game)
    return list(dict.fromkeys(get_game(n).name for n in names))


def check_choices(kind: str, values, check) -> list[str]:
    """Validate a list-valued config entry (e.g. `games=[sorting,twc]`)."""
    values = list(values) if isinstance(values, (list, tuple)) else [values]
    if not values:
        raise UserError(f"no {kind} selected; name at least one")
    for v in values:
        check(v)
    return values
