"""TextWorld's generated games as a world of bct (the interface: bct/worlds/base.py)."""

from __future__ import annotations

from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.textworld import games, gold, report, text
from bct.worlds.textworld.env import TextWorldEnv
from bct.worlds.textworld.modules.cookbook import Cookbook
from bct.worlds.textworld.modules.progress import Progress

WORLD = World.of(
    "textworld",
    games,
    gold,
    text,
    TextWorldEnv,
    version=lambda: {"textworld_version": version("textworld")},
    modules={"cookbook": Cookbook, "progress": Progress},
    limits_count_game_actions=True,
    speaks=text.speaks,
    # a walkthrough's steps that change nothing (a door opened twice): dropped where the path still wins
    idle_answers=(r"That's already open\.", r"You can't go that way\.", r"You already have that\."),
    jvm_gb=0.2,  # no JVM: a game in this process, ~0.1 GB
    title="TextWorld",
    reports=report.REPORTS,
)
