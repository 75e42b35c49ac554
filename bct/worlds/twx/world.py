"""TextWorldExpress as a world of bct (the interface: bct/worlds/base.py)."""

from __future__ import annotations

from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.twx import games, gold, llm_hints, policy, report, tales, text
from bct.worlds.twx.env import TWXEnv
from bct.worlds.twx.modules.kb_twc import KnowledgeBaseTWC
from bct.worlds.twx.modules.memory import TWXMemory
from bct.worlds.twx.modules.memory_mapreader import GoalMemory
from bct.worlds.twx.modules.memory_twc import TidyMemory
from bct.worlds.twx.modules.navigation import Navigation
from bct.worlds.twx.modules.navigation_directions import NavigationDirections

WORLD = World.of(
    "twx",
    games,
    gold,
    text,
    TWXEnv,
    policy=policy,
    tales=tales,
    version=lambda: {"twx_version": version("textworld-express")},
    modules={
        "navigation": Navigation,
        "navigation-directions": NavigationDirections,
        "kb-twc": KnowledgeBaseTWC,
        "memory-twx": TWXMemory,
        "memory-twc": TidyMemory,
        "memory-mapreader": GoalMemory,
    },
    # modules=all (the one TWX agent): every module offered in every game, beside the game's own and its memory
    all_modules=("calc", "navigation", "sortquantity", "kb-twc"),
    llm_rules=llm_hints.RULES,
    llm_guidance=llm_hints.GUIDANCE,
    llm_feedback=llm_hints.feedback,
    title="TextWorldExpress",
    reports=report.REPORTS,
    comparisons=report.COMPARISONS,
)
