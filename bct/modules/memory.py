"""memory: a symbolic working memory (after seed 004) that remembers what the agent has observed.

Facts are kept twice: as a predicate with arguments (`sequence(2, smell apple)`, `ingredient(red apple)`,
`direction(1, slice the red apple)`, `done(7, slice red apple)`, `visited(kitchen)`,
`exit(kitchen, south, backyard)`, `door(kitchen, west)`, `seen(coin, pantry)`) and as a sentence. They are written only
from what the agent saw (observations, look, inventory) and the actions it took, never from hidden
game state. The agent reads them with `recall` commands, answered by grounding: a form names a
predicate with some arguments bound, the facts that match are found, and rules over them (the next
step of Simon's sequence or of the recipe not yet done, the nearest closed door or unvisited room of
the remembered map and the way there) are applied to those facts alone. Where no
fact matches, the answer says that nothing is known.

The memory holds at most MAX_FACTS facts; past that the oldest `done` facts are forgotten first.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from bct import text
from bct.modules.base import Module, quote

MAX_FACTS = 500
FORMS = ("recall next", "recall recipe", "recall facts")

_SEQUENCE = re.compile(r"take these actions in order:\s*(.+?)\.?\s*$", re.I | re.S)
_COOKBOOK = re.compile(r"Ingredients:\s*(.+?)\s*Directions:\s*(.+?)\s*$", re.I | re.S)
_TAKEN = re.compile(r"^You take the (.+?)\.", re.I)
# what a cooking action says when done: "You slice the red apple.", "You roast the red apple with the oven."
_CLOSED_DOOR = re.compile(r"to the (north|south|east|west) you see a closed ([a-z -]+?door)\.", re.I)
_CLOSED_CONTAINER = re.compile(r"\b(?:a|an) ([a-z -]+?) that is closed", re.I)
_KNIFE_VERBS = ("slice", "dice", "chop")
APPLIANCES = {"fry": ("stove",), "roast": ("oven",), "grill": ("toaster", "barbeque")}  # what cooks how
_COOKED = re.compile(r"^You (slice|dice|chop|roast|grill|fry) the (.+?)(?: with the .+?)?\.", re.I)


@dataclass(frozen=True)
class Fact:
    predicate: str
    args: tuple[str, ...]
    text: str  # the same fact in natural language


class Memory(Module):
    name = "memory"
    verbs = ("recall",)
    usage = "recall next | recall recipe | recall facts."

    def reset(self) -> None:
        self.facts: list[Fact] = []
        self.actions = 0  # actions taken this episode: `done(N, action)` says which came when
        self.here: str | None = None  # the room the latest look describes
        self.inventory = ""  # what the latest inventory listed
        self.closed: dict[str, set[str]] = {}  # room -> its containers that its latest description showed closed

    # --- writing: only what the agent observed or did ---------------------------------------------
    def add(self, predicate: str, args: tuple[str, ...], text: str) -> None:
        fact = Fact(predicate, tuple(a.strip().lower() for a in args), text)
        if fact in self.facts:
            return
        self.facts.append(fact)
        while len(self.facts) > MAX_FACTS:  # bounded: forget the oldest record of an action first
            oldest = next((f for f in self.facts if f.predicate == "done"), self.facts[0])
            self.facts.remove(oldest)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        self.map(look if "You are in the" in look else observation)
        self.inventory = inventory.lower()
        m = _SEQUENCE.search(observation)
        if m and "simon says" in observation.lower():
            for i, action in enumerate(a.strip() for a in m.group(1).split(",")):
                self.add("sequence", (str(i + 1), action), f"Simon's action {i + 1} is: {action}.")
        m = _COOKBOOK.search(observation)
        if m:
            for item in (line.strip() for line in m.group(1).splitlines() if line.strip()):
                self.add("ingredient", (item,), f"The recipe needs the {item}.")
            for i, step in enumerate(line.strip() for line in m.group(2).splitlines() if line.strip()):
                self.add("direction", (str(i + 1), step), f"Recipe step {i + 1}: {step}.")
        m = _TAKEN.match(observation.strip())
        if m:
            self.add("taken", (m.group(1),), f"You took the {m.group(1)}.")
        m = _COOKED.match(observation.strip())
        if m:
            verb, item = m.group(1).lower(), m.group(2)
            self.add("cooked", (verb, item), f"You did: {verb} the {item}.")

    def map(self, room_text: str) -> None:
        """Rooms, exits and closed doors, and the things seen where, from a room's description."""
        facts = text.facts(room_text)
        here = next((f[1] for f in facts if f[0] == "here"), None)
        if here is None:
            return
        self.here = here.lower()
        self.add("visited", (here,), f"You have been in the {here}.")
        for f in facts:
            if f[0] == "exit":
                self.add("exit", (here, f[1], f[2]), f"To the {f[1]} of the {here} is the {f[2]}.")
            elif f[0] == "see" and not f[1].endswith("door"):
                self.add("seen", (f[1], here), f"You saw the {f[1]} in the {here}.")
        self.closed[here.lower()] = {c.lower() for c in _CLOSED_CONTAINER.findall(room_text)}
        wanted = [f.args[0] for f in self.ground("ingredient")] + [
            "knife",
            *(a for v in APPLIANCES.values() for a in v),
        ]
        for name in wanted:  # where the things a recipe needs were seen (in the open or in an opened container)
            if re.search(rf"\b{re.escape(name)}\b", room_text, re.I):
                self.add("seen", (name, here), f"You saw the {name} in the {here}.")
        for direction, door in _CLOSED_DOOR.findall(room_text):
            self.add("door", (here, direction.lower()), f"A {door} leads {direction.lower()} from the {here}.")

    def acted(self, action: str) -> None:
        if not self.owns(action):
            self.actions += 1
            self.add("done", (str(self.actions), action), f"Action {self.actions}: {action}.")

    # --- reading: grounding a form against the facts ------------------------------------------------
    def ground(self, predicate: str, *args: str | None) -> list[Fact]:
        """The facts of `predicate` whose arguments equal the bound ones (None: any value)."""
        return [
            f
            for f in self.facts
            if f.predicate == predicate
            and len(f.args) >= len(args)
            and all(a is None or f.args[i] == a.lower() for i, a in enumerate(args))
        ]

    def commands(self) -> list[str]:
        offered = ["recall next"]
        if self.ground("direction"):
            offered.append("recall recipe")
        return offered

    def run(self, action: str) -> str:
        form = " ".join(action.lower().split())
        if form == "recall next":
            return self.next_step()
        if form == "recall recipe":
            return self.recipe()
        if form == "recall facts":
            recent = self.facts[-12:]
            return " ".join(f.text for f in recent) if recent else "I remember nothing yet."
        return f"I don't know '{quote(action)}'. Recall forms: {', '.join(FORMS)}."

    def recipe(self) -> str:
        items, steps = self.ground("ingredient"), self.ground("direction")
        if not steps:
            return "I remember no recipe; read the cookbook first."
        return (
            f"Ingredients: {', '.join(f.args[0] for f in items)}. "
            f"Directions: {'; '.join(f.args[1] for f in sorted(steps, key=lambda f: int(f.args[0])))}."
        )

    def next_step(self) -> str:
        """The rules: Simon's first action not yet done in order; else the recipe's next step (`cook`);
        else the map's (`explore`); else nothing is known."""
        sequence = sorted(self.ground("sequence"), key=lambda f: int(f.args[0]))
        if sequence:
            done = [f.args[1] for f in sorted(self.ground("done"), key=lambda f: int(f.args[0]))]
            k = 0
            for action in done:  # the actions taken, in order, that followed the sequence
                if k < len(sequence) and action == sequence[k].args[1]:
                    k += 1
            if k == len(sequence):
                return "You have done all of Simon's actions."
            return f"Simon's next action ({k + 1} of {len(sequence)}) is: {sequence[k].args[1]}."
        if self.ground("direction"):
            return self.cook()
        if self.here is None:
            return "I remember no sequence, no recipe and no room yet; nothing to recall."
        return self.explore()

    def held(self, item: str) -> bool:
        return re.search(rf"\b{re.escape(item)}\b", self.inventory) is not None

    def cook(self) -> str:
        """The rule for a recipe, over what was observed: fetch each ingredient not held (and a knife, if a
        step cuts) from where it was seen, searching closed containers and unexplored rooms for what was
        not seen yet; then each direction in order, at a room where its appliance was seen; then prepare
        the meal in the kitchen and eat it."""
        if self.ground("done", None, "prepare meal"):
            return "Next: eat meal (the meal is ready)."
        steps = [f.args[1] for f in sorted(self.ground("direction"), key=lambda f: int(f.args[0]))]
        parsed = [(s.split()[0], s.split(" ", 1)[1].removeprefix("the ")) for s in steps if " " in s]
        cuts = any(v in _KNIFE_VERBS and not self.ground("cooked", v, item) for v, item in parsed)
        needed = [f.args[0] for f in self.ground("ingredient")] + (["knife"] if cuts else [])
        missing = [item for item in needed if not self.held(item)]
        for item in missing:
            if self.ground("seen", item, self.here):
                return f"Next: take {item} (the recipe needs it)."
        seen = {f.args[1] for item in missing for f in self.ground("seen", item)}
        if seen:
            return self.way("the recipe's next ingredient", lambda room: room in seen)
        if missing:
            return self.explore(search=True)
        for verb, item in parsed:
            if verb == "prepare":
                break
            if self.ground("cooked", verb, item):
                continue
            if verb in _KNIFE_VERBS:
                return f"Next: {verb} {item} (recipe step: {verb} the {item})."
            appliances = APPLIANCES.get(verb, ())
            here = [a for a in appliances if self.ground("seen", a, self.here)]
            if here:
                return f"Next: cook {item} in {here[0]} (recipe step: {verb} the {item})."
            return self.way(
                f"a {' or '.join(appliances)}",
                lambda r, kinds=appliances: any(self.ground("seen", a, r) for a in kinds),
            )
        if self.here == "kitchen":
            return "Next: prepare meal (everything is ready)."
        return self.way("the kitchen", lambda room: room == "kitchen")

    def routes(self) -> dict[str, str | None]:
        """Every remembered room reachable from here by remembered exits, nearest first, with the first
        move of the shortest way there (None for here)."""
        exits: dict[str, dict[str, str]] = {}
        for f in self.ground("exit"):
            exits.setdefault(f.args[0], {})[f.args[1]] = f.args[2]
        first: dict[str, str | None] = {self.here: None}
        queue = deque([self.here])
        while queue:
            room = queue.popleft()
            for direction in text.DIRECTIONS:
                nb = exits.get(room, {}).get(direction)
                if nb and nb not in first:
                    first[nb] = first[room] or f"move {direction}"
                    queue.append(nb)
        return first

    def way(self, goal: str, where) -> str:
        """The first move towards the nearest remembered room that `where` accepts."""
        for room, move in self.routes().items():
            if where(room) and move:
                return f"Next: {move} (on the way to the {room}, for {goal})."
        return self.explore(search=True)

    def explore(self, search: bool = False) -> str:
        """The rule for a map: the nearest remembered room (this one first) that has a closed door not yet
        opened or an exit to a room not yet visited (with `search`, or a closed container), and the
        first action on the way there."""
        if self.here is None:
            return "I remember no room yet; look around first."
        visited = {f.args[0] for f in self.ground("visited")}
        exits = {(f.args[0], f.args[1]): f.args[2] for f in self.ground("exit")}

        def todo(room: str) -> str | None:
            if search and self.closed.get(room):
                return f"open {sorted(self.closed[room])[0]}"
            for f in self.ground("door", room):
                if (room, f.args[1]) not in exits:
                    return f"open door to {f.args[1]}"
            for direction in text.DIRECTIONS:
                if exits.get((room, direction), room) not in visited:
                    return f"move {direction}"
            return None

        for room, move in self.routes().items():
            action = todo(room)
            if action:
                if move is None:
                    return f"Next: {action} (the nearest way not yet explored)."
                return f"Next: {move} (on the way to the {room}, not yet fully explored)."
        return "Every room I remember is explored: no closed door and no unvisited room is left."
