"""colours: the painter's colour wheel, which two paints mix into a colour (its command: `colours NAME`).

Knowledge from a public source, not from any game: the traditional red-yellow-blue (RYB) wheel that painters mix
by (Wikipedia, "RYB color model" and "Tertiary color"): three primaries, which are not mixed; a secondary is two
primaries mixed (orange: red and yellow; green: yellow and blue; violet, or purple: blue and red); a tertiary is a
primary mixed with a secondary beside it on the wheel, named by the two ("red-orange", "blue-violet", in either
order). A small model cloned from the colours its training makes mixes those for any colour it is asked (a game's
folds may split the wheel); the module answers which paints make the colour named, and, for a tertiary, which make
its secondary. Which cup to pour, and when, is the agent's to choose.
"""

from __future__ import annotations

import re

from bct.modules.base import Module, quote

PRIMARIES = ("red", "yellow", "blue")  # the wheel's order: each secondary lies between the two it is mixed from
SECONDARIES = {"orange": ("red", "yellow"), "green": ("yellow", "blue"), "violet": ("red", "blue")}
SYNONYMS = {"purple": "violet"}
_NAME = re.compile(r"[a-z]+(?:[- ][a-z]+)?")


def _neighbours(primary: str, secondary: str) -> bool:
    """Whether a primary lies beside a secondary on the wheel (it is one of the two the secondary is mixed from)."""
    return primary in SECONDARIES[secondary]


def mixed_from(name: str) -> list[tuple[str, tuple[str, str]]]:
    """The mixes that make the colour `name`, last step first: [("violet-red", ("violet", "red")), ("violet",
    ("red", "blue"))]; [] for a primary; ValueError naming the wheel's colours for a name the wheel does not hold."""
    words = [SYNONYMS.get(w, w) for w in re.split(r"[- ]", name)]
    if len(words) == 1 and words[0] in PRIMARIES:
        return []
    if len(words) == 1 and words[0] in SECONDARIES:
        return [(name, SECONDARIES[words[0]])]
    if len(words) == 2:
        primary = next((w for w in words if w in PRIMARIES), None)
        secondary = next((w for w in words if w in SECONDARIES), None)
        if primary and secondary and _neighbours(primary, secondary):
            # the two as the name orders them, so an answer reads like the name it was asked ("violet-red": violet, red)
            return [(name, tuple(words)), (secondary, SECONDARIES[secondary])]
    raise ValueError(name)


class Colours(Module):
    name = "colours"
    verbs = ("colours",)
    usage = (
        "colours NAME: which two paints mix into the colour NAME on the painter's colour wheel (e.g. 'colours "
        "green' says blue and yellow; 'colours red-orange' says red and orange, and what makes orange)."
    )

    def reset(self) -> None:
        self.asked: list[str] = []  # the colours a task names, offered as commands

    def given(self, task: str) -> None:
        found = []
        for match in re.finditer(r"\b([a-z]+(?:-[a-z]+)?) paint\b", task.lower()):
            try:
                if mixed_from(match.group(1)):
                    found.append(match.group(1))
            except ValueError:
                pass
        self.asked = list(dict.fromkeys(found))

    def commands(self) -> list[str]:
        return [f"colours {c}" for c in self.asked]

    def run(self, action: str) -> str:
        name = action.strip().lower().removeprefix("colours").strip().removesuffix("paint").strip()
        if not name or not _NAME.fullmatch(name):
            return self.bad_usage(f"'colours' takes one colour's name, got '{quote(action)}'.")
        try:
            mixes = mixed_from(name)
        except ValueError:
            wheel = ", ".join([*PRIMARIES, *SECONDARIES, "and a primary with a secondary beside it"])
            return f"'{quote(name)}' is not on the painter's colour wheel ({wheel}, as red-orange)."
        if not mixes:
            return f"{name} is a primary colour: no two paints mix into it."
        said = [f"{made} paint is {a} paint and {b} paint mixed" for made, (a, b) in mixes]
        return "; ".join(said) + "."
