"""slides: how far the block slid down each inclined plane, in the time the stopwatch read, kept after it is out of view.

ScienceWorld's inclined-plane tasks ask which of two planes has the most (or least) friction, or the steepest (or
shallowest) angle: the block is timed on one plane, then moved to the other and timed again, and the choice is made
after both. A Markov agent sees one step back, so at the choice the first plane's measurement is long out of view.
`slides` answers with every plane's latest measurement, the fastest slide first ("The block slid fastest down the
inclined plane B: 61% down in 13 ticks; then the inclined plane C: 56% down in 13 ticks."): facts the game showed and
their order by speed (distance over time), never which plane the task wants.
"""

from __future__ import annotations

import re

from bct.modules.base import Module, quote

# "an inclined plane with a paper surface, with: a wood block approximately 11% down the plane" (or "... a brick at the
# bottom of the plane"); the plane as the look names it
_ON_PLANE = re.compile(
    r"\b(inclined plane [^,]*?), with: an? [a-z ]+? (?:approximately (\d+)% down|(at the bottom of)) the plane"
)
_TIME = re.compile(r"\btime reads (\d+) ticks?\b")


class Slides(Module):
    name = "slides"
    verbs = ("slides",)
    usage = "slides: how far the block slid down each inclined plane you looked at, and in how long, fastest first."

    def reset(self) -> None:
        self.slid: dict[str, list[int | None]] = {}  # plane -> [percent down, ticks read after that look, or None]
        self.latest: str | None = None  # the plane looked at last: the next time read is its slide's

    def observe(self, observation: str, look: str, inventory: str) -> None:
        seen = _ON_PLANE.search(observation)
        if seen:
            plane, percent, bottom = seen.groups()
            self.latest = plane
            self.slid[plane] = [100 if bottom else int(percent), None]
            return
        time = _TIME.search(observation)
        if time and self.latest is not None and self.slid[self.latest][1] is None:
            self.slid[self.latest][1] = int(time.group(1))

    def commands(self) -> list[str]:
        """`slides`, once a block was seen on a plane."""
        return ["slides"] if self.slid else []

    def run(self, action: str) -> str:
        if action.strip().lower() != "slides":
            return self.bad_usage(f"'slides' takes no arguments, got '{quote(action)}'.")
        if not self.slid:
            return "I have not seen a block on an inclined plane yet; move one onto a plane and look at the plane."
        # speed: percent per tick where the time was read, else the distance alone (then said so)
        order = sorted(self.slid.items(), key=lambda kv: -(kv[1][0] / kv[1][1] if kv[1][1] else kv[1][0]))
        said = [f"the {plane}: {self._slide(*measured)}" for plane, measured in order]
        if len(said) == 1:
            return f"The block slid down {said[0]}; no other plane measured yet."
        return f"The block slid fastest down {said[0]}; then {'; then '.join(said[1:])}."

    @staticmethod
    def _slide(percent: int, ticks: int | None) -> str:
        where = "to the bottom" if percent == 100 else f"{percent}% down"
        return f"{where} in {ticks} ticks" if ticks else f"{where}, time not read"
