"""memory-twx: TextWorldExpress's symbolic working memory (after seed 004) that remembers what the agent has observed.

Facts are kept twice: as a predicate with arguments (`sequence(2, smell apple)`, `ingredient(red apple)`,
`direction(1, slice the red apple)`, `done(7, slice red apple)`, `visited(kitchen)`,
`exit(kitchen, south, backyard)`, `door(kitchen, west)`, `seen(coin, pantry)`) and as a sentence. They are
written only from what the agent saw (observations, look, inventory) and the actions it took, never from
hidden game state. The agent reads them with `recall` forms, answered by grounding: a form names
predicates with some arguments bound, the facts that match are found, and what the rules of the game
derive from those facts alone is stated with them (which of Simon's actions were done in order, which
recipe steps are done, how far a remembered room is by remembered exits and which way the route starts).

The memory remembers and computes; it never decides. No answer names an action as the one to take next
or ranks the actions: choosing is the agent's (a learned model, or `agent=planner`, the hand-written
policy of bct/agents/planner.py). Where no fact matches, the answer says that nothing is known.

The memory holds at most MAX_FACTS facts; past that the oldest `done` facts are forgotten first.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from bct.modules.base import Module, quote
from bct.worlds.twx import text

MAX_FACTS = 500
FORMS = ("recall sequence", "recall recipe", "recall map", "recall where THING", "recall facts")
SHOWN_AHEAD = 3  # `recall sequence`: the actions not yet done that an answer lists (a long sequence is abridged)

KNIFE_VERBS = ("slice", "dice", "chop")
APPLIANCES = {"fry": ("stove",), "roast": ("oven",), "grill": ("toaster", "barbeque")}  # what cooks how


@dataclass(frozen=True)
class Fact:
    predicate: str
    args: tuple[str, ...]
    text: str  # the same fact in natural language


class TWXMemory(Module):
    name = "memory-twx"
    verbs = ("recall",)
    usage = "recall sequence | recall recipe | recall map | recall where THING | recall facts."

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
        for i, action in enumerate(text.simon_sequence(observation)):
            self.add("sequence", (str(i + 1), action), f"Simon's action {i + 1} is: {action}.")
        recipe = text.cookbook(observation)
        if recipe:
            for item in recipe[0]:
                self.add("ingredient", (item,), f"The recipe needs the {item}.")
            for i, step in enumerate(recipe[1]):
                self.add("direction", (str(i + 1), step), f"Recipe step {i + 1}: {step}.")
        item = text.taken(observation)
        if item:
            self.add("taken", (item,), f"You took the {item}.")
        done = text.cooked(observation)
        if done:
            verb, item = done
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
        self.closed[here.lower()] = {c.lower() for c in text.closed_containers(room_text)}
        wanted = [f.args[0] for f in self.ground("ingredient")] + [
            "knife",
            *(a for v in APPLIANCES.values() for a in v),
        ]
        for name in wanted:  # where the things a recipe needs were seen (in the open or in an opened container)
            if re.search(rf"\b{re.escape(name)}\b", room_text, re.I):
                self.add("seen", (name, here), f"You saw the {name} in the {here}.")
        for direction, door in text.closed_doors(room_text):
            self.add("door", (here, direction), f"A {door} leads {direction} from the {here}.")

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

    def remembered(self, done_shown: int = 10) -> list[str]:
        """Every fact kept but the actions done, then the latest `done_shown` actions."""
        done = [f.text for f in self.facts if f.predicate == "done"][-done_shown:]
        return [f.text for f in self.facts if f.predicate != "done"] + done

    def commands(self) -> list[str]:
        """The forms that have facts to answer with now."""
        offered = []
        if self.ground("sequence"):
            offered.append("recall sequence")
        if self.ground("direction"):
            offered.append("recall recipe")
        if self.here is not None:
            offered.append("recall map")
        return offered

    def run(self, action: str) -> str:
        form = " ".join(action.lower().split())
        if form == "recall sequence":
            return self.recall_sequence()
        if form == "recall recipe":
            return self.recall_recipe()
        if form == "recall map":
            return self.recall_map()
        if form.startswith("recall where ") and form != "recall where ":
            return self.recall_where(
                re.sub(r"^(?:(?:is|are|was|were|the|a|an|my)\s+)+", "", form[len("recall where ") :])
            )
        if form == "recall facts":
            recent = self.facts[-12:]
            return " ".join(f.text for f in recent) if recent else "I remember nothing yet."
        return f"I don't know '{quote(action)}'. Recall forms: {', '.join(self.forms())}."

    def forms(self) -> tuple[str, ...]:
        return FORMS

    # --- grounded facts (read by the recall forms and by agent=planner) -----------------------------
    def sequence(self) -> tuple[list[str], int]:
        """Simon's sequence as shown, and how many of its actions were done in order (an action that is
        not the next one of the sequence does not count)."""
        sequence = [f.args[1] for f in sorted(self.ground("sequence"), key=lambda f: int(f.args[0]))]
        k = 0
        for f in sorted(self.ground("done"), key=lambda f: int(f.args[0])):
            if k < len(sequence) and f.args[1] == sequence[k]:
                k += 1
        return sequence, k

    def held(self, item: str) -> bool:
        return re.search(rf"\b{re.escape(item)}\b", self.inventory) is not None

    def directions(self) -> list[tuple[str, str, bool]]:
        """The recipe's directions in order: (verb, item, done), e.g. ('slice', 'red apple', False)."""
        out = []
        for f in sorted(self.ground("direction"), key=lambda f: int(f.args[0])):
            verb, _, item = f.args[1].partition(" ")
            item = item.removeprefix("the ")
            done = (
                bool(self.ground("done", None, "prepare meal"))
                if verb == "prepare"
                else bool(self.ground("cooked", verb, item))
            )
            out.append((verb, item, done))
        return out

    def routes(self) -> dict[str, tuple[str | None, int]]:
        """Every remembered room reachable from here by remembered exits, nearest first: the first move of
        a shortest way there (None for here) and its number of moves."""
        exits: dict[str, dict[str, str]] = {}
        for f in self.ground("exit"):
            exits.setdefault(f.args[0], {})[f.args[1]] = f.args[2]
        if self.here is None:
            return {}
        first: dict[str, tuple[str | None, int]] = {self.here: (None, 0)}
        queue = deque([self.here])
        while queue:
            room = queue.popleft()
            for direction in text.DIRECTIONS:
                nb = exits.get(room, {}).get(direction)
                if nb and nb not in first:
                    move, n = first[room]
                    first[nb] = (move or f"move {direction}", n + 1)
                    queue.append(nb)
        return first

    def unexplored(self, room: str) -> dict[str, list]:
        """What a remembered room still hides: its closed doors not yet opened (directions), its exits to
        rooms not yet visited ((direction, room)) and its containers its latest description showed closed."""
        visited = {f.args[0] for f in self.ground("visited")}
        exits = {f.args[1]: f.args[2] for f in self.ground("exit", room)}
        return {
            "doors": [f.args[1] for f in self.ground("door", room) if f.args[1] not in exits],
            "exits": [(d, exits[d]) for d in text.DIRECTIONS if d in exits and exits[d] not in visited],
            "containers": sorted(self.closed.get(room, ())),
        }

    def whereabouts(self, room: str) -> str:
        """A remembered room as seen from here: 'here', or how many moves away and the route's first move."""
        move, n = self.routes().get(room, (None, -1))
        if room == self.here:
            return "here"
        if n < 0:
            return "no remembered way there"
        return f"{n} move{'s' if n > 1 else ''} away, first {move}"

    def nearest_seen(self, thing: str) -> str | None:
        """The remembered room where `thing` was seen that is nearest by remembered exits (else the latest)."""
        rooms = [f.args[1] for f in self.ground("seen", thing)]
        if not rooms:
            return None
        routes = self.routes()
        reachable = [r for r in routes if r in rooms]
        return reachable[0] if reachable else rooms[-1]

    def location(self, thing: str) -> str:
        """Where a thing is, as far as the memory knows: held, seen in a room (and how far), or not seen."""
        if self.held(thing):
            return "held"
        room = self.nearest_seen(thing)
        if room is None:
            return "not seen yet"
        return f"seen in the {room}, {self.whereabouts(room)}"

    # --- the recall forms: facts, and what the rules derive from them --------------------------------
    def recall_sequence(self) -> str:
        """Simon's sequence as shown, with how many of its actions were done in order, then those not yet
        done, in order (a long sequence abridged to the first SHOWN_AHEAD of them and a count of the rest)."""
        sequence, k = self.sequence()
        if not sequence:
            return "I remember no sequence; Simon has shown none."
        n = len(sequence)
        if k == n:
            return f"Simon's sequence has {n} actions, all {n} done in order."
        ahead = [f"{i + 1}: {sequence[i]}" for i in range(k, min(n, k + SHOWN_AHEAD))]
        rest = n - k - len(ahead)
        return (
            f"Simon's sequence has {n} actions, {k} done in order. Not yet done: "
            + "; ".join(ahead)
            + (f"; and {rest} more." if rest else ".")
        )

    def recall_recipe(self) -> str:
        """The recipe's ingredients grouped by what is known of them (held; seen, where and how far; not seen
        yet), the knife where a step cuts, then its directions: those done, and those not yet done in the
        recipe's order, each with where the appliance that cooks that way, or the kitchen, is."""
        steps = self.directions()
        if not steps:
            return "I remember no recipe; read the cookbook first."
        held, seen, unseen = [], [], []
        for item in [f.args[0] for f in self.ground("ingredient")]:
            where = self.location(item)
            if where == "held":
                held.append(item)
            elif where.startswith("seen"):
                seen.append(f"{item} ({where.removeprefix('seen ')})")
            else:
                unseen.append(item)
        parts = [
            f"Ingredients held: {', '.join(held) or 'none'}.",
            *([f"Ingredients seen: {'; '.join(seen)}."] if seen else []),
            *([f"Ingredients not seen yet: {', '.join(unseen)}."] if unseen else []),
        ]
        if any(v in KNIFE_VERBS for v, _, _ in steps):
            parts.append(f"Knife: {self.location('knife')}.")
        done, ahead = [], []
        for verb, item, finished in steps:
            step = "prepare meal" if verb == "prepare" else f"{verb} the {item}"
            if finished:
                done.append(step)
            elif verb in APPLIANCES:
                ahead.append(f"{step} ({'; '.join(f'{a}: {self.location(a)}' for a in APPLIANCES[verb])})")
            elif verb == "prepare":
                ahead.append(f"{step} (in the kitchen: {self.whereabouts('kitchen')})")
            else:
                ahead.append(step)
        parts.append(f"Directions done: {', '.join(done) or 'none'}.")
        parts.append(f"Not yet done: {'; '.join(ahead)}." if ahead else "Every direction is done.")
        return " ".join(parts)

    def recall_map(self, elsewhere: int = 3) -> str:
        """The rooms visited, what is not yet explored here, and the nearest `elsewhere` remembered rooms
        with something not yet explored (how far, and the route's first move)."""
        if self.here is None:
            return "I remember no room yet; look around first."
        visited = [f.args[0] for f in self.ground("visited")]
        parts = [f"You are in the {self.here}. Visited: {', '.join(visited)}."]
        here = self.describe_unexplored(self.here)
        parts.append(f"Not yet explored here: {here}." if here else "Nothing here is left unexplored.")
        others = []
        for room in self.routes():
            described = self.describe_unexplored(room) if room != self.here else ""
            if described:
                others.append(f"the {room} ({self.whereabouts(room)}): {described}")
            if len(others) == elsewhere:
                break
        parts.append(
            f"Not yet explored elsewhere: {'; '.join(others)}."
            if others
            else "No other remembered room is left unexplored."
        )
        return " ".join(parts)

    def describe_unexplored(self, room: str) -> str:
        u = self.unexplored(room)
        said = [f"a closed door to the {d}" for d in u["doors"]]
        said += [f"the exit {d} to the {r} (not visited)" for d, r in u["exits"]]
        if u["containers"]:
            said.append(f"closed {', '.join(u['containers'])}")
        return ", ".join(said)

    def recall_where(self, thing: str) -> str:
        if self.held(thing):
            return f"The {thing}: held."
        rooms = list(dict.fromkeys(f.args[1] for f in reversed(self.ground("seen", thing))))
        if not rooms:
            return f"I have not seen the {quote(thing)}."
        return f"The {thing} was seen in: " + "; ".join(f"the {r} ({self.whereabouts(r)})" for r in rooms) + "."
