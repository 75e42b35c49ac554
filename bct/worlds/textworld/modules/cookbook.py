"""cookbook: the recipe read once in the kitchen, which of its directions the agent was seen to carry out, and the
rooms it walked.

The cookbook is read once ("examine cookbook"); a Markov agent sees one step back, so by the time it holds the
ingredients and stands at the stove the recipe is out of view. `recall recipe` answers the ingredients, those not
carried, and the directions still to do in the recipe's order (each with what does it: the knife, the appliance its
verb cooks with, the kitchen; one is done where the game said so, "You slice the carrot.", or the inventory shows
it, "a sliced carrot"), every thing named with where it is: carried, here, in another room with the first move of
the shortest remembered way there, or not seen yet. In the levels of many rooms,
`recall map` answers the room the agent is in, its exits not yet taken, the nearest room that still has some, and
the way to the kitchen. A room's exits are read from its description; where each leads is learnt by walking it.
Facts it saw, rules of the game, and routes computed from them: never which direction to do next.
"""

from __future__ import annotations

from collections import deque

from bct.modules.base import Module
from bct.worlds.textworld import text

# what each cooking verb cooks with (TextWorld's rules), spelt as the game's commands spell it
APPLIANCES = {"fry": "stove", "roast": "oven", "grill": "BBQ"}
CUTS = ("slice", "dice", "chop")


def appliance(direction: str) -> str | None:
    return APPLIANCES.get(direction.split()[0])


def cuts(direction: str) -> bool:
    return direction.split()[0] in CUTS


def tool(direction: str) -> str | None:
    """What carries a direction out: the knife for a cut, the appliance for a cooking, the kitchen for the meal."""
    if cuts(direction):
        return "knife"
    return appliance(direction) or ("kitchen" if direction == "prepare meal" else None)


class Cookbook(Module):
    name = "cookbook"
    verbs = ("recall recipe", "recall map")
    usage = "recall recipe | recall map"

    def reset(self) -> None:
        self.recipe: tuple[list[str], list[str]] | None = None
        self.done: set[str] = set()
        self.inventory = ""
        self.here: str | None = None
        self.links: dict[str, dict[str, str]] = {}  # room -> direction -> the room that way, as walked
        self.exits: dict[str, dict[str, tuple[str, bool] | None]] = {}  # room -> its exits, as last described
        self.seen: dict[str, str] = {}  # room -> what was last seen there (its description, what opening showed)
        self.move: tuple[str, str] | None = None  # (room, direction) of a move sent, until the game answers

    def acted(self, action: str) -> None:
        words = action.strip().lower().split()
        self.move = (self.here, words[1]) if len(words) == 2 and words[0] == "go" and self.here else None

    def observe(self, observation: str, look: str, inventory: str) -> None:
        self.recipe = text.recipe(observation) or self.recipe
        self.done.update(text.done(observation))
        if self.recipe:  # what the inventory shows done already counts as done: seen, not assumed
            self.done.update(text.prepared(inventory, self.recipe[1]))
        self.inventory = inventory
        rooms = text.rooms(look)
        if not rooms:
            return
        room = rooms[0]
        if self.move and room != self.move[0]:  # the move went through: remember the way, both ways
            came, direction = self.move
            self.links.setdefault(came, {})[direction] = room
            self.links.setdefault(room, {}).setdefault(text.OPPOSITE[direction], came)
        self.move = None
        if room != self.here:
            self.seen[room] = ""
        self.here = room
        self.exits[room] = text.exits(look)
        self.seen[room] = f"{look} {observation if observation != look else ''}".lower()

    def commands(self) -> list[str]:
        return (["recall recipe"] if self.recipe else []) + (["recall map"] if self.exits.get(self.here) else [])

    def run(self, action: str) -> str:
        form = " ".join(action.lower().split())
        if form == "recall map":
            return self.recall_map()
        if form != "recall recipe":
            return self.bad_usage(f"The cookbook module has no command '{form}'.")
        if self.recipe is None:
            return "No recipe has been read yet."
        ingredients, directions = self.recipe
        missing = self.missing()
        to_do = [d for d in directions if d not in self.done]
        said = [f"The recipe needs {', '.join(ingredients)}."]
        # each thing with where it is, beside it: a small model reads one item, not a sentence further on
        listed = ", ".join(f"{i} ({self.whereabouts(i)})" for i in missing)
        said.append(f"Not carried: {listed}." if missing else "Every ingredient is carried.")
        # the directions not yet seen done, in the recipe's order, each with what does it (TextWorld's rules)
        listed = "; ".join(self.listed(d) for d in to_do)
        said.append(f"To do: {listed}." if to_do else "Every direction is done.")
        said.append(self.inventory)
        return " ".join(said)

    def listed(self, direction: str) -> str:
        """A direction as `recall recipe` lists it: "grill the carrot (with the BBQ, in the backyard, go north, 1
        move)", "slice the carrot (with the knife, carried)", "prepare meal (in the kitchen, here)"."""
        thing = tool(direction)
        if thing is None:
            return direction
        if thing == "kitchen":
            return f"{direction} (in the kitchen, {self.whereabouts('kitchen').removeprefix('in the kitchen, ')})"
        return f"{direction} (with the {thing}, {self.whereabouts(thing)})"

    def whereabouts(self, thing: str) -> str:
        """Where a thing is: carried, here, in a walked room with the first move of the way there, or not seen yet
        (the room of that name for the kitchen)."""
        if thing == "knife" and "knife" in self.inventory.lower():
            return "carried"
        room = "kitchen" if thing == "kitchen" and "kitchen" in self.routes() else self.where(thing)
        if room is None:
            return "not seen yet"
        return "here" if room == self.here else f"in the {room}, {self.way(room)}"

    def missing(self) -> list[str]:
        """The recipe's ingredients the inventory does not show (none once the meal is prepared)."""
        if self.recipe is None or "prepare meal" in self.done:
            return []
        return [i for i in self.recipe[0] if i.lower() not in self.inventory.lower()]

    def recall_map(self) -> str:
        if self.here is None:
            return "No room has been seen yet."
        said = [f"You are in the {self.here}."]
        open_here = self.untaken(self.here)
        said.append(f"Exits not yet taken here: {', '.join(open_here)}." if open_here else "Every exit here was taken.")
        routes = self.routes()
        nearest = self.nearest_untaken()
        if not open_here:
            said.append(
                f"Nearest room with exits not yet taken: the {nearest} ({self.way(nearest)})."
                if nearest
                else "No room seen has exits not yet taken."
            )
        if "kitchen" in routes and self.here != "kitchen":
            said.append(f"The kitchen: {self.way('kitchen')}.")
        return " ".join(said)

    # --- what the walked map computes ------------------------------------------------------------------------
    def where(self, thing: str) -> str | None:
        """The room where `thing` was last seen, nearest first."""
        return next((room for room in self.routes() if thing.lower() in self.seen.get(room, "")), None)

    def untaken(self, room: str) -> list[str]:
        """The exits of `room` not yet walked, each with its door where one is closed."""
        out = []
        for direction, door in self.exits.get(room, {}).items():
            if direction not in self.links.get(room, {}):
                out.append(f"{direction} (the {door[0]} is closed)" if door and door[1] else direction)
        return out

    def nearest_untaken(self) -> str | None:
        """The nearest other room with exits not yet walked."""
        return next((r for r in self.routes() if r != self.here and self.untaken(r)), None)

    def first_move(self, direction: str) -> str:
        """The game command that starts a move `direction` from here: its door opened first where it is closed."""
        door = self.exits.get(self.here, {}).get(direction)
        return f"open {door[0]}" if door and door[1] else f"go {direction}"

    def routes(self) -> dict[str, tuple[str, int]]:
        """Every room reachable from here by walked ways, nearest first: the first direction of a shortest way
        there ("" for here) and its number of moves."""
        if self.here is None:
            return {}
        first = {self.here: ("", 0)}
        queue = deque([self.here])
        while queue:
            room = queue.popleft()
            for direction, nxt in self.links.get(room, {}).items():
                if nxt not in first:
                    first[nxt] = (first[room][0] or direction, first[room][1] + 1)
                    queue.append(nxt)
        return first

    def way(self, room: str) -> str:
        """How a remembered room is reached from here: its first move (and the door to open first) and its length."""
        direction, moves = self.routes()[room]
        door = self.exits.get(self.here, {}).get(direction)
        shut = f", the {door[0]} is closed" if door and door[1] else ""
        return f"go {direction}{shut}, {moves} move{'s' if moves > 1 else ''}"
