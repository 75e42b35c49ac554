"""memory-scienceworld: ScienceWorld's working memory, what a Markov agent forgets between steps.

A cloned agent sees one step back (its last action and two observations); ScienceWorld's tasks run to
dozens of actions whose stage is no longer in view (the pot was moved to the stove ten actions ago; the
water was focused on at the start). This memory keeps what the agent did and saw, and answers:

- `recall progress`: what was focused on, the thermometer's readings of each thing (and, where the task
  compares a temperature with a threshold, on which side each reading lies), a recipe read, and the game
  actions done so far (the latest RECENT of them, runs of the same action counted once with their number);
- `recall map`: the rooms visited and the doors seen from each (open or closed);
- `recall route ROOM`: the rooms between here and ROOM over the doors seen (a navigator over what was seen);
- `recall where THING`: the rooms whose latest look showed THING.

It remembers and computes (a comparison with the task's threshold, a shortest route); it never decides:
no answer names the action to take next.
"""

from __future__ import annotations

from collections import deque

from bct.modules.base import Module, quote
from bct.worlds.scienceworld import text

RECENT = 12  # `recall progress` lists at most this many of the latest entries (a run counts once)


def runs(actions: list[str]) -> list[str]:
    """The actions with each run of one action, or of one pair in turn (examine, measure, examine, measure),
    written once with its count: "examine pot; use thermometer on pot (x6)"."""
    out, i = [], 0
    while i < len(actions):
        for size in (1, 2):
            block, times = actions[i : i + size], 1
            while len(block) == size and actions[i + times * size : i + (times + 1) * size] == block:
                times += 1
            if times > 1 or size == 2 or i + 1 == len(actions):
                break
        if times == 1:
            block = actions[i : i + 1]
        out.append("; ".join(block) + (f" (x{times})" if times > 1 else ""))
        i += len(block) * times
    return out


class ScienceWorldMemory(Module):
    name = "memory-scienceworld"
    verbs = ("recall",)
    usage = "recall progress | recall map | recall route ROOM | recall where THING."

    def reset(self) -> None:
        self.task = ""
        self.done: list[str] = []  # the game actions taken, in order
        self.focused: list[str] = []
        self.readings: dict[str, list[float]] = {}  # thing measured -> its readings, oldest first
        self.recipe: str | None = None
        self.here: str | None = None
        self.doors: dict[str, dict[str, bool]] = {}  # room -> {room its door leads to: open}
        self.looks: dict[str, str] = {}  # room -> its latest description
        self.pending: str | None = None  # the game action whose observation comes next

    def given(self, task: str) -> None:
        self.task = task

    # --- writing: what the agent did and saw -------------------------------------------------------
    def acted(self, action: str) -> None:
        action = " ".join(action.split()).lower()
        if self.owns(action) or not action:
            self.pending = None
            return
        self.pending = action
        self.done.append(action)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        room = text.room(look)
        if room:
            self.here = room
            self.looks[room] = look.lower()
            self.doors[room] = dict(text.doors(look))
            for other, is_open in self.doors[room].items():
                self.doors.setdefault(other, {})[room] = is_open
        thing = text.focus(observation)
        if thing:
            self.focused.append(thing)
        reading = text.temperature(observation)
        if reading is not None:
            measured = self.pending.split(" on ", 1)[1] if self.pending and " on " in self.pending else "something"
            self.readings.setdefault(measured, []).append(reading)
        recipe = text.recipe(observation)
        if recipe:
            self.recipe = recipe

    # --- reading ---------------------------------------------------------------------------------
    def commands(self) -> list[str]:
        return ["recall progress", "recall map"]

    def remembered(self) -> list[str]:
        """The progress answer's facts, a line each, for an agent that reads them before each step."""
        return [line if line.endswith(".") else line + "." for line in self.progress().split(". ") if line]

    def run(self, action: str) -> str:
        words = " ".join(action.split()).lower().removeprefix("recall").strip()
        if words == "progress":
            return self.progress()
        if words == "map":
            return self.map()
        if words.startswith("route"):
            room = words.removeprefix("route").strip().removeprefix("to ").strip()
            return self.route(room) if room else self.bad_usage("Which room?")
        if words.startswith("where"):
            thing = words.removeprefix("where").strip()
            return self.where(thing) if thing else self.bad_usage("Where is what?")
        return self.bad_usage(f"Unknown recall form '{quote(words)}'.")

    def progress(self) -> str:
        parts = [f"Focused on: {', '.join(self.focused)}." if self.focused else "Focused on: nothing yet."]
        limit = text.threshold(self.task)
        for thing, values in self.readings.items():
            shown = ", ".join(f"{v:g}" for v in values[-6:])
            side = ""
            if limit is not None:
                side = f" (latest {'above' if values[-1] > limit else 'below'} {limit:g})"
            parts.append(f"Readings of {thing}: {shown} C{side}.")
        if self.recipe:
            parts.append(f"Recipe: {self.recipe}.")
        latest = runs(self.done)[-RECENT:]
        parts.append(f"Done {len(self.done)} actions" + (f", the latest: {'; '.join(latest)}." if latest else "."))
        return " ".join(parts)

    def map(self) -> str:
        if not self.doors:
            return "No room seen yet."
        rooms = [
            f"{room}: doors to "
            + ", ".join(f"{other} ({'open' if is_open else 'closed'})" for other, is_open in d.items())
            for room, d in self.doors.items()
            if room in self.looks
        ]
        return f"You are in the {self.here}. Rooms seen: " + "; ".join(rooms) + "."

    def route(self, goal: str) -> str:
        """The rooms from here to `goal` over the doors seen (breadth first: fewest doors)."""
        if self.here is None:
            return "No room seen yet."
        if goal == self.here:
            return f"You are in the {goal}."
        if goal not in self.doors:
            return f"No door to the {quote(goal)} seen yet."
        back = {self.here: None}
        queue = deque([self.here])
        while queue:
            room = queue.popleft()
            for other in self.doors.get(room, {}):
                if other not in back:
                    back[other] = room
                    queue.append(other)
        if goal not in back:
            return f"No route to the {goal} over the doors seen."
        path = [goal]
        while back[path[-1]] is not None:
            path.append(back[path[-1]])
        return f"Route to the {goal}: " + " -> ".join(reversed(path)) + "."

    def where(self, thing: str) -> str:
        rooms = [r for r, look in self.looks.items() if thing in look]
        if not rooms:
            return f"No {quote(thing)} seen yet."
        return f"The {quote(thing)} was seen in: {', '.join(rooms)}."
