"""Symbolic modules that know no world: a calculator, a comparison, notes of what was read, a sorter by quantity,
the painter's colour wheel.

A world's own modules (those that read its sentences or hold its knowledge) live in its folder
(bct/worlds/<world>/modules/) and reach the registry through `World.modules`. Adding a shared one: a file with a
`Module` subclass, and one line in MODULES."""

from __future__ import annotations

from bct.modules.base import Module
from bct.modules.calc import Calc
from bct.modules.colours import Colours
from bct.modules.notes import Notes
from bct.modules.sortquantity import SortQuantity
from bct.modules.threshold import Threshold

MODULES: dict[str, type[Module]] = {
    "calc": Calc,
    "threshold": Threshold,
    "sortquantity": SortQuantity,
    "notes": Notes,
    "colours": Colours,
}

__all__ = ["MODULES", "Module"]
