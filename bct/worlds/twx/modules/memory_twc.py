"""memory-twc: the working memory with the rules of TextWorld Commonsense (twc), where objects lying
about are to be put where they usually belong.

On top of the memory's map (rooms, exits, what was seen where), it remembers what the knowledge base
answered (`belongs(blue cap, hat rack)`), which objects were seen lying loose where (`loose(blue cap,
bathroom)`, from each room's latest description), and what each put did to the score the agent sees:
`placed(blue cap, hat rack)` when it rose, `misplaced(blue cap, dressing table, bathroom)` when it
fell. `recall objects` answers, for each object held, where the knowledge base said it belongs (or that
it was not asked), whether each such place was seen (here, open or closed; or how far away) and which
places were tried wrong; then the objects not in their place here and elsewhere. `recall tried` lists the
puts and what each did to the score. Which action follows is the agent's choice (agent=planner has
one rule for it). Nothing here reads hidden game state.
"""

from __future__ import annotations

from bct.core.language import sentences
from bct.worlds.twx import text
from bct.worlds.twx.modules.kb_twc import read_objects
from bct.worlds.twx.modules.memory import TWXMemory
from bct.worlds.twx.objects import knowledge


class TidyMemory(TWXMemory):
    name = "memory-twc"

    def reset(self) -> None:
        super().reset()
        self.score = 0.0  # the score the agent saw last
        self.pending: tuple[str, str] | None = None  # a put whose effect on the score is not yet seen
        self.loose: dict[str, list[str]] = {}  # room -> the objects its latest description shows lying about
        self.holding: list[str] = []  # the objects the latest inventory lists
        self.misplaced_in: dict[str, str] = {}  # object -> the room where it was put in a wrong place
        self.written: dict[str, str] = {}  # a name as the game writes it ('T-shirt'), by its lower case

    def forms(self) -> tuple[str, ...]:
        return ("recall objects", "recall tried", *super().forms())

    def commands(self) -> list[str]:
        return (["recall objects"] if self.here is not None else []) + super().commands()

    def run(self, action: str) -> str:
        form = " ".join(action.lower().split())
        if form == "recall objects":
            return self.recall_objects()
        if form == "recall tried":
            return self.recall_tried()
        return super().run(action)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        super().observe(observation, look, inventory)
        held = [o for s in sentences(inventory) for o in read_objects(s)]
        self.written.update((o.lower(), o) for o in held)
        self.holding = [o.lower() for o in held]
        done = text.put(observation)
        self.pending = (done[0].lower(), done[1].lower()) if done else None
        for obj in self.holding:  # taken again: no longer lying in a wrong place
            self.misplaced_in.pop(obj, None)

    def map(self, room_text: str) -> None:
        super().map(room_text)
        if self.here is not None and "You are in the" in room_text:
            seen = [f[1].removeprefix("open ").removeprefix("An open ") for f in text.facts(room_text) if f[0] == "see"]
            self.written.update((o.lower(), o) for o in seen)
            self.loose[self.here] = [o.lower() for o in seen if o.lower() in knowledge()]

    def heard(self, action: str, answer: str) -> None:
        for obj, place in text.belongs(answer):
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
        wrong = [o for o, r in self.misplaced_in.items() if r == room and o not in self.holding]  # the latest first
        return wrong + [
            o for o in self.loose.get(room, []) if o not in placed and o not in self.holding and o not in wrong
        ]

    def place_status(self, place: str) -> str:
        """Where a place the knowledge base named was seen: here (open or closed), how far, or not seen."""
        rooms = [r for r in self.routes() if place in self.furniture(r)]
        if not rooms:
            return "not seen yet"
        if rooms[0] == self.here:
            return f"here, {'closed' if place in self.closed.get(self.here, set()) else 'open'}"
        return f"in the {rooms[0]}, {self.whereabouts(rooms[0])}"

    def recall_objects(self) -> str:
        if self.here is None:
            return "I remember no room yet; look around first."
        held = []
        for obj in self.holding:
            if not self.ground("belongs", obj):
                held.append(f"{self.as_written(obj)} (the knowledge base was not asked)")
                continue
            said = [f"{self.as_written(p)}: {self.place_status(p)}" for p in self.places(obj)]
            wrong = [self.as_written(f.args[1]) for f in self.ground("misplaced", obj)]
            said += [f"tried wrong: {', '.join(wrong)}"] if wrong else []
            held.append(f"{self.as_written(obj)} (belongs in {'; '.join(said) or 'no place left untried'})")
        here = [self.as_written(o) for o in self.astray(self.here)]
        away = [
            f"{', '.join(self.as_written(o) for o in self.astray(room))} in the {room} ({self.whereabouts(room)})"
            for room in self.routes()
            if room != self.here and self.astray(room)
        ]
        return " ".join(
            [
                f"Held: {'; '.join(held)}." if held else "Held: nothing.",
                f"Not in its place here: {', '.join(here)}." if here else "Nothing here is out of its place.",
                f"Not in its place elsewhere: {'; '.join(away)}."
                if away
                else "Nothing elsewhere I remember is out of its place.",
            ]
        )

    def recall_tried(self) -> str:
        tried = [
            f"the {self.as_written(f.args[0])} in the {self.as_written(f.args[1])}: the score rose"
            for f in self.ground("placed")
        ]
        tried += [
            f"the {self.as_written(f.args[0])} in the {self.as_written(f.args[1])}: the score fell"
            for f in self.ground("misplaced")
        ]
        return f"Tried: {'; '.join(tried)}." if tried else "No object has been put anywhere yet."
