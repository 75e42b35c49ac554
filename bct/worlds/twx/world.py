"""TextWorldExpress as a world of bct (the interface: bct/worlds/base.py)."""

from __future__ import annotations

from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.twx import games, gold, planner, text
from bct.worlds.twx.env import TWXEnv

TWX = World(
    name="twx",
    games=games.GAMES,
    aliases=games.ALIASES,
    fold_seeds=games.fold_seeds,
    fold_size=games.fold_size,
    open=TWXEnv,
    gold_path=gold.gold_path,
    gold_modules=gold.gold_modules,
    names=text.names,
    version=lambda: {"twx_version": version("textworld-express")},
    planner=planner,
)
