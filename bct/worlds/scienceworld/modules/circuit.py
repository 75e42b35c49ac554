"""circuit: the connections made so far, the wire ends still free and the wires not used, kept after they are out of view.

ScienceWorld's conductivity tasks build a circuit of six connections: the battery's two terminals to two wires, those
wires and a third to a light bulb or buzzer, and the thing tested between them ("connect battery anode to orange wire
terminal 1", ..., "connect aluminum foil terminal 2 to red wire terminal 1"). Which wires play which part changes with
the variation, and the look never shows what is connected: a Markov agent sees the last two connections, while the
fifth needs the wire of the second. The power circuits (power-component and the renewable task) build four
connections, and a half-built circuit shows no free wire end in the look at all. `circuit` answers with every connection the game reported, in the words a
`connect` command uses ("battery cathode - green wire terminal 1"), then the ends of the wires in sight that are still
free and the wires not connected at all: facts the game showed and what follows from them, never which to connect.
"""

from __future__ import annotations

import re

from bct.modules.base import Module, quote

# "anode on battery is now connected to terminal 1 on black wire" (the game's report of a connection)
_CONNECTED = re.compile(r"\b([a-z0-9 ]+?) on ([a-z ]+?) is now connected to ([a-z0-9 ]+?) on ([a-z ]+?)(?:\.|$)")
# "battery has been disconnected" (`disconnect battery`: the game disconnects whole things, never one terminal)
_DISCONNECTED = re.compile(r"^([a-z0-9 ]+?) has been disconnected\b")
_WIRE = re.compile(r"\b(?:an?|the) ([a-z]+ wire)\b")  # "a black wire" as a look lists it
ENDS = ("terminal 1", "terminal 2")


class Circuit(Module):
    name = "circuit"
    verbs = ("circuit",)
    usage = "circuit: the connections made so far, the free ends of the wires in sight, and the wires not used."

    def reset(self) -> None:
        self.links: list[tuple[str, str]] = []  # (end, end), each as a command names it: "battery anode"
        self.wires: list[str] = []  # the wires the latest look showed, in its order

    def observe(self, observation: str, look: str, inventory: str) -> None:
        text = " ".join(observation.lower().split())
        made = _CONNECTED.search(text)
        if made:
            part, thing, other_part, other = made.groups()
            self.links.append((f"{thing} {part}", f"{other} {other_part}"))
        gone = _DISCONNECTED.search(text)
        if gone:
            thing = f"{gone.group(1)} "
            self.links = [(a, b) for a, b in self.links if not (a.startswith(thing) or b.startswith(thing))]
        seen = _WIRE.findall(look.lower())
        if seen:
            self.wires = list(dict.fromkeys(seen))

    def commands(self) -> list[str]:
        """`circuit`, once a connection was made."""
        return ["circuit"] if self.links else []

    def run(self, action: str) -> str:
        if action.strip().lower() != "circuit":
            return self.bad_usage(f"'circuit' takes no arguments, got '{quote(action)}'.")
        if not self.links:
            return "Nothing is connected yet; connect two terminals first."
        ends = {end for link in self.links for end in link}
        free = [f"{w} {e}" for w in self.wires if any(f"{w} {x}" in ends for x in ENDS) for e in ENDS]
        free = [end for end in free if end not in ends]
        unused = [w for w in self.wires if not any(f"{w} {x}" in ends for x in ENDS)]
        said = f"Connected: {'; '.join(f'{a} - {b}' for a, b in self.links)}."
        said += f" Free wire ends: {', '.join(free)}." if free else " No wire end in use is free."
        return said + (
            f" Wires not connected: {', '.join(unused)}." if unused else " Every wire in sight is connected."
        )
