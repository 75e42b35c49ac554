"""ScienceWorld as a world of bct (the interface: bct/worlds/base.py)."""

from __future__ import annotations

from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.scienceworld import games, gold, text
from bct.worlds.scienceworld.env import ScienceWorldEnv

SCIENCEWORLD = World(
    name="scienceworld",
    games=games.GAMES,
    aliases=games.ALIASES,
    groups=games.GROUPS,
    fold_seeds=games.fold_seeds,
    fold_size=games.fold_size,
    open=ScienceWorldEnv,
    gold_path=gold.gold_path,
    gold_modules=gold.gold_modules,
    names=text.names,
    version=lambda: {"scienceworld_version": version("scienceworld")},
    free_actions=True,
)
