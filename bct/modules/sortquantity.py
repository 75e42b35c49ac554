"""sortquantity: the items the agent sees, ordered by quantity with units compared through pint."""

from __future__ import annotations

import functools

import pint

from bct.core import language
from bct.modules.base import Module, quote

WORD = {"IS_ALPHA": True, "IS_STOP": False}


@functools.cache
def units() -> pint.UnitRegistry:
    return pint.UnitRegistry()


@functools.lru_cache(maxsize=4096)
def quantity(amount: float, unit: str | None) -> pint.Quantity | None:
    """`amount unit` as a pint quantity; a plain count ('40 oranges') is dimensionless."""
    try:
        return units().Quantity(amount, unit or "dimensionless").to_base_units()
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, AttributeError, ValueError):
        return None


@functools.cache
def _matcher():
    return language.matcher(
        {
            # "25g of oak", "4 m of cedar"
            "measure": [[{"LIKE_NUM": True}, {"IS_ALPHA": True}, {"LOWER": "of"}, WORD]],
            # "40 oranges", "1 apple"
            "count": [[{"LIKE_NUM": True}, WORD]],
        }
    )


@functools.lru_cache(maxsize=1 << 16)
def read_quantities(sentence: str) -> tuple[tuple[str, tuple[str, float]], ...]:
    """(item as written, (kind, amount in base units)) for each quantity in one sentence.

    '25g of oak' -> ('25g of oak', ('[mass]', 0.025)); '40 oranges' -> ('40 oranges', ('', 40)).
    """
    d = language.doc(sentence)
    found = []
    for span in language.filter_spans([language.extend_words(d[s:e]) for _, s, e in _matcher()(d)]):
        amount = language.number(span[0].text)
        unit = span[1].text if span[2:3] and span[2].lower_ == "of" else None
        q = quantity(amount, unit) if amount is not None else None
        if q is not None:
            found.append((span.text, (str(q.dimensionality), q.magnitude)))
    return tuple(found)


class SortQuantity(Module):
    name = "sortquantity"
    verbs = ("sort",)
    usage = "sort ascending|descending"

    def reset(self) -> None:
        self._view: tuple[str, ...] = ()

    def observe(self, observation: str, look: str, inventory: str) -> None:
        self._view = (look, inventory)  # read when asked: the commands do not depend on it

    @property
    def items(self) -> dict[str, tuple[str, float]]:
        """Item as written -> (kind, amount in base units), for the items in view now (look and inventory)."""
        return {
            item: q for t in self._view for sentence in language.sentences(t) for item, q in read_quantities(sentence)
        }

    def commands(self) -> list[str]:
        return ["sort ascending", "sort descending"]

    def run(self, action: str) -> str:
        words = action.strip().lower().split()
        if len(words) != 2 or words[1] not in ("ascending", "descending"):
            return self.bad_usage(f"I can't '{quote(action)}'.")
        items = self.items
        if not items:
            return "I have not observed any items with quantities yet."
        descending = words[1] == "descending"
        # Quantities of different kinds (mass, length, counts) are ordered within their kind.
        ranked = sorted(items, key=items.get, reverse=descending)
        order = "largest to smallest" if descending else "smallest to largest"
        return f"The observed items, ordered by quantity from {order}, are: {', '.join(ranked)}."
