"""memory-twc: the working memory with the rules of TextWorld Commonsense (twc), where objects lying
about are to be put where they usually belong.

On top of the memory's map (rooms, exits, what was seen where), it remembers what the knowledge base
answered (`belongs(blue cap, hat rack)`), which objects were seen lying loose where (`loose(blue cap,
bathroom)`, from each room's latest description), and what each put did to the score the agent sees:
`placed(blue cap, hat rack)` when it rose, `misplaced(blue cap, dressing table, bathroom)` when it
fell. `recall next` grounds the rule: put a held object into a place the knowledge base gave that is
here and was not tried wrong (opening it first if closed); take a loose or misplaced object here; ask
the knowledge base about a held object it has not answered for; walk to the nearest remembered room
with such a place or object; explore rooms not yet visited. Nothing here reads hidden game state.
"""

from __future__ import annotations

import re

from bct import text
from bct.modules.kb_twc import knowledge, read_objects
from bct.modules.memory import Memory

_BELONGS = re.compile(r"(.+?) is expected to be located at (.+?)\.(?:\s|$)", re.I)
_PUT = re.compile(r"^You put the (.+?) (?:in|on) the (.+?)\.", re.I)


class TidyMemory(Memory):
    name = "memory-twc"

    def reset(self) -> None:
        super().reset()
        self.score = 0.0  # the score the agent saw last
        self.pending: tuple[str, str] | None = None  # a put whose effect on the score is not yet seen
        self.loose: dict[str, list[str]] = {}  # room -> the objects its latest description shows lying about
        self.held: list[str] = []  # the objects the latest inventory lists
        self.misplaced_in: dict[str, str] = {}  # object -> the room where it was put in a wrong place
        self.written: dict[str, str] = {}  # a name as the game writes it ('T-shirt'), by its lower case

    def observe(self, observation: str, look: str, inventory: str) -> None:
        super().observe(observation, look, inventory)
        held = [o for s in text.sentences(inventory) for o in read_objects(s)]
        self.written.update((o.lower(), o) for o in held)
        self.held = [o.lower() for o in held]
        m = _PUT.match(observation.strip())
        self.pending = (m.group(1).lower(), m.group(2).lower()) if m else None
        for obj in self.held:  # taken again: no longer lying in a wrong place
            self.misplaced_in.pop(obj, None)

    def map(self, room_text: str) -> None:
        super().map(room_text)
        if self.here is not None and "You are in the" in room_text:
            seen = [f[1].removeprefix("open ").removeprefix("An open ") for f in text.facts(room_text) if f[0] == "see"]
            self.written.update((o.lower(), o) for o in seen)
            self.loose[self.here] = [o.lower() for o in seen if o.lower() in knowledge()]

    def heard(self, action: str, answer: str) -> None:
        for obj, place in _BELONGS.findall(answer):
            self.add("belongs", (obj, place), f"The {obj} belongs in the {place}.")

    def scored(self, score: float) -> None:
        if self.pending:  # the put just observed: the score says whether the place was right
            obj, place = self.pending
            if score > self.score:
                self.add("placed", (obj, place), f"The {obj} is in its place, the {place}.")
            elif self.here:
                self.add("misplaced", (obj, place, self.here), f"The {obj} does not belong in the {place}.")
                self.misplaced_in[obj] = self.here
            self.pending = None
        self.score = score

    def as_written(self, name: str) -> str:
        return self.written.get(name, name)

    def furniture(self, room: str) -> set[str]:
        """The places seen in a room (an open container is named without 'open')."""
        return {f.args[0].removeprefix("open ") for f in self.ground("seen") if f.args[1] == room}

    def places(self, obj: str) -> list[str]:
        """Where the knowledge base says `obj` belongs, less the places tried wrong."""
        wrong = {f.args[1] for f in self.ground("misplaced", obj)}
        return [f.args[1] for f in self.ground("belongs", obj) if f.args[1] not in wrong]

    def astray(self, room: str) -> list[str]:
        """Objects to take in `room`: put there in a place tried wrong and not taken since, then those lying loose."""
        placed = {f.args[0] for f in self.ground("placed")}
        wrong = [o for o, r in self.misplaced_in.items() if r == room and o not in self.held]  # the latest first
        return wrong + [
            o for o in self.loose.get(room, []) if o not in placed and o not in self.held and o not in wrong
        ]

    def towards(self, goal: str, where) -> str:
        """The first move to the nearest remembered room that `where` accepts; else explore."""
        for room, move in self.routes().items():
            if where(room) and move:
                return f"Next: {move} (on the way to the {room}, for {goal})."
        return self.explore()

    def next_step(self) -> str:
        if self.here is None:
            return "I remember no room yet; look around first."
        here = self.furniture(self.here)
        for obj in self.held:
            if not self.ground("belongs", obj):
                return f"Next: query {self.as_written(obj)} (where does it belong?)."
            for place in self.places(obj):
                if place in here:
                    if place in self.closed.get(self.here, set()):
                        return f"Next: open {self.as_written(place)} (the {self.as_written(obj)} belongs there)."
                    return f"Next: put {self.as_written(obj)} in {self.as_written(place)} (where it belongs)."
        for obj in self.astray(self.here):
            return f"Next: take {self.as_written(obj)} (it is not in its place)."
        for obj in self.held:
            wanted = set(self.places(obj))
            if wanted:
                return self.towards(f"the {obj}'s place", lambda room, w=wanted: bool(w & self.furniture(room)))
        if any(self.astray(room) for room in self.loose):
            return self.towards("an object not in its place", lambda room: bool(self.astray(room)))
        return self.explore()
