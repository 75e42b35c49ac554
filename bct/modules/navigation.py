"""navigation: shortest paths over the map the agent has read and the exits it has seen."""

from __future__ import annotations

import functools
from collections import deque

from bct.modules import text
from bct.modules.base import Module, quote

DIRECTIONS = ["north", "south", "east", "west"]
ALPHA = {"IS_ALPHA": True}


KEYS = ("connects to", "You are in", "To the ")


@functools.cache
def _matcher():
    return text.matcher({
        "edge": [[{"LOWER": "the"}, {**ALPHA, "OP": "+"}, {"LOWER": "connects"}, {"LOWER": "to"}]],
        "here": [[{"LOWER": "you"}, {"LOWER": "are"}, {"LOWER": "in"}]],
        "exit": [[{"LOWER": "to"}, {"LOWER": "the"}, {"LOWER": {"IN": DIRECTIONS}}, {"LOWER": "you"}, {"LOWER": "see"}]],
    })


@functools.lru_cache(maxsize=1 << 16)
def read_sentence(sentence: str) -> tuple:
    """Facts in one sentence: ('edge', room, (neighbours...)), ('here', room) or ('exit', direction, room)."""
    d = text.doc(sentence)
    facts = []
    for match_id, start, end in sorted(_matcher()(d), key=lambda m: m[1]):
        label = text.nlp().vocab.strings[match_id]
        if label == "edge":
            facts.append(("edge", d[start + 1:end - 2].text, tuple(_split_list(d, end))))
        elif label == "here":
            facts.append(("here", text.strip_article(text.phrase_until_punct(d, end))))
        else:
            facts.append(("exit", d[start + 2].lower_, text.strip_article(text.phrase_until_punct(d, end))))
    return tuple(facts)


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
            for sentence in text.sentences(t, KEYS):
                for kind, *fact in read_sentence(sentence):
                    if kind == "edge":
                        for room in fact[1]:
                            self._link(fact[0], room)
                    elif kind == "here":
                        self.here = fact[0]
                        self.graph.setdefault(self.here, [])
                    else:
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
        goal = action.strip()[len("next step to"):].strip().lower()
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
        return (f"The next location to go to is the {path[1]}. "
                f"The full path from the {self.here} to the {goal} is: {', '.join(path)}.") + self.hint(path[1])

    def hint(self, room: str) -> str:
        """Extra words after the answer (none: the paper's navigator; see navigation_directions)."""
        return ""


def _split_list(d, start: int) -> list[str]:
    """Rooms listed from `start` to the sentence's end: 'the A, B and C' -> [A, B, C]."""
    names, current = [], []
    for tok in d[start:]:
        if tok.text == ".":
            break
        if tok.is_space:
            continue
        if tok.text == "," or tok.lower_ == "and":
            names.append(current)
            current = []
        elif not (not current and tok.lower_ == "the"):
            current.append(tok.text)
    names.append(current)
    return [" ".join(n) for n in names if n]
