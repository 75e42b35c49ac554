"""navigation: shortest paths over the map the agent has read and the exits it has seen."""

from __future__ import annotations

from collections import deque

from bct.modules.base import Module, quote
from bct.worlds.twx import text


class Navigation(Module):
    name = "navigation"
    verbs = ("next step to",)
    usage = "next step to ROOM, for a room on the map you have read (e.g. 'next step to kitchen')."

    def reset(self) -> None:
        self.graph: dict[str, list[str]] = {}  # room -> neighbours, in the order first read
        self.here: str | None = None
        self.exits: dict[str, str] = {}  # neighbour room -> direction, from the current room
        self.last_path: list[str] = []

    def _link(self, a: str, b: str) -> None:
        for x, y in ((a, b), (b, a)):
            if y not in self.graph.setdefault(x, []):
                self.graph[x].append(y)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        for t in dict.fromkeys((observation, look)):
            exits = {}
            for kind, *fact in text.facts(t):
                if kind == "edge":
                    for room in fact[1]:
                        self._link(fact[0], room)
                elif kind == "here":
                    self.here = fact[0]
                    self.graph.setdefault(self.here, [])
                elif kind == "exit":
                    exits[fact[1]] = fact[0]
            if exits:
                self.exits = exits
                for room in exits:
                    self._link(self.here, room)

    def commands(self) -> list[str]:
        return [f"next step to {room}" for room in sorted(self.graph) if room != self.here]

    def path(self, goal: str) -> list[str] | None:
        """Breadth-first shortest path from the current room; ties go to the map's order."""
        prev = {self.here: None}
        queue = deque([self.here])
        while queue:
            room = queue.popleft()
            if room == goal:
                out = []
                while room is not None:
                    out.append(room)
                    room = prev[room]
                return out[::-1]
            for nxt in self.graph.get(room, []):
                if nxt not in prev:
                    prev[nxt] = room
                    queue.append(nxt)
        return None

    def run(self, action: str) -> str:
        goal = action.strip()[len("next step to") :].strip().lower()
        goal = goal[4:] if goal.startswith("the ") else goal
        if not goal:
            return self.bad_usage("Which room?")
        if goal not in self.graph:
            known = ", ".join(sorted(self.graph)) or "none yet"
            return f"I don't know a room called '{quote(goal)}'. Rooms I know: {known}."
        if self.here is None:
            return "I don't know where you are yet; look around first."
        if goal == self.here:
            return f"You are already in the {goal}."
        path = self.path(goal)
        if path is None:
            return f"I don't know a way from the {self.here} to the {goal} yet; read the map first."
        self.last_path = path
        return (
            f"The next location to go to is the {path[1]}. "
            f"The full path from the {self.here} to the {goal} is: {', '.join(path)}."
        ) + self.hint(path[1])

    def hint(self, room: str) -> str:
        """Extra words after the answer (none: the paper's navigator; see navigation_directions)."""
        return ""
