"""TextWorldExpress as a world of bct (the interface: bct/worlds/base.py)."""

from __future__ import annotations

from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.twx import games, gold, planner, tales, text
from bct.worlds.twx.env import TWXEnv

TWX = World.of(
    "twx",
    games,
    gold,
    text,
    TWXEnv,
    planner=planner,
    tales=tales,
    version=lambda: {"twx_version": version("textworld-express")},
)
