"""Symbolic modules. Adding one: a file with a `Module` subclass, and one line in MODULES."""

from __future__ import annotations

from bct.core.errors import unknown
from bct.modules.base import Module
from bct.modules.calc import Calc
from bct.modules.circuit import Circuit
from bct.modules.compare import Compare
from bct.modules.kb_twc import KnowledgeBaseTWC
from bct.modules.memory import Memory
from bct.modules.memory_mapreader import GoalMemory
from bct.modules.memory_scienceworld import ScienceWorldMemory
from bct.modules.memory_twc import TidyMemory
from bct.modules.navigation import Navigation
from bct.modules.navigation_directions import NavigationDirections
from bct.modules.notes import Notes
from bct.modules.slides import Slides
from bct.modules.sortquantity import SortQuantity

MODULES: dict[str, type[Module]] = {
    "calc": Calc,
    "compare": Compare,
    "navigation": Navigation,
    "navigation-directions": NavigationDirections,
    "sortquantity": SortQuantity,
    "kb-twc": KnowledgeBaseTWC,
    "memory": Memory,
    "memory-twc": TidyMemory,
    "memory-mapreader": GoalMemory,
    "memory-scienceworld": ScienceWorldMemory,
    "notes": Notes,
    "slides": Slides,
    "circuit": Circuit,
}

# modules=all: every module is offered in every game, beside the game's own and its working memory; the
# agent chooses which to use (a game's gold path calls its own module only)
ALL_MODULES = ("calc", "navigation", "sortquantity", "kb-twc")


def make_module(name: str) -> Module:
    if name not in MODULES:
        raise unknown("module", name, MODULES)
    return MODULES[name]()


__all__ = ["ALL_MODULES", "MODULES", "Module", "make_module"]
