"""The one reader of TextWorldExpress's fixed sentences.

Every sentence TWX writes in a fixed form is parsed here, and nowhere else: the room facts ("You are in
the X.", "To the North you see the Y.", "The X connects to the A, B and C.", the task's rooms, ...), the
recipe and Simon's sequence, what an action did ("You take the X.", "You slice the X.", "You put the X
on the Y."), closed doors and containers, and the knowledge base's "X is expected to be located at Y.".
The entity placeholders, the gold-path rules, the planner and the modules all read through it.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from bct.core.language import doc, nlp, sentences

if TYPE_CHECKING:
    from spacy.matcher import Matcher
    from spacy.tokens import Doc

# The room and task sentences: kind -> (trigger patterns, what may end the name, whether it may hold commas).
# A name runs from its trigger to the first of its endings; a full stop (or a comma, where commas
# are not allowed) before that means the sentence is not this fact after all.
DIRECTIONS = ("north", "south", "east", "west")


def _words(*words: str) -> list[dict]:
    return [{"LOWER": w} for w in words]


_ARTICLE = {"LOWER": {"IN": ["a", "an", "the"]}}
_FACTS = {
    "here": ([_words("you", "are", "in", "the")], ["."], False),
    "exit": ([[*_words("to", "the"), {"LOWER": {"IN": list(DIRECTIONS)}}, *_words("you", "see", "the")]], ["."], False),
    "in": ([[{"LOWER": {"IN": ["located", "found"]}}, *_words("in", "the")]], [".", ","], False),
    "take": ([_words("take", "the")], ["that is located in"], False),
    "put_into": ([_words("put", "it", "into", "the")], ["found in"], False),
    "belongs": ([_words("is", "expected", "to", "be", "located", "at")], ["."], True),
    "see": (
        [[*_words(*w), _ARTICLE] for w in (("you", "see"), ("there", "is", "also"), ("you", "also", "see"))],
        [",", "that", "."],
        False,
    ),
    "edge": ([[{"ORTH": "The"}, {"IS_ALPHA": True, "OP": "+"}, *_words("connects", "to", "the")]], ["."], True),
}


@functools.cache
def _fact_matcher() -> Matcher:
    from spacy.matcher import Matcher

    m = Matcher(nlp().vocab)
    for kind, (patterns, _, _) in _FACTS.items():
        m.add(kind, patterns, greedy="LONGEST" if kind == "edge" else None)
    return m


def _name(d: Doc, start: int, endings: list[str], commas: bool) -> str | None:
    """The words from token `start` to the first of `endings`, or None if the sentence ends first."""
    endings = [e.split() for e in endings]
    for end in range(start, len(d)):
        if end > start and any([t.lower_ for t in d[end : end + len(e)]] == e for e in endings):
            return d[start:end].text
        if d[end].text == "." or (d[end].text == "," and not commas):
            return None
    return None


@functools.lru_cache(maxsize=1 << 16)
def read_sentence(sentence: str) -> tuple[tuple, ...]:
    """The facts of one sentence, in reading order: ('here', room) for "You are in the X.",
    ('exit', direction, room) for "To the North you see the X.", ('edge', room, (neighbours, ...))
    for "The X connects to the A, B and C.", a task's ('take', object) and ('put_into', container),
    ('in', room) for "located in / found in the X", the knowledge base's ('belongs', place), and
    ('see', thing) for "you see a X", "there is also a X", "you also see a X"."""
    d = doc(sentence)
    found = []
    for match_id, start, end in sorted(_fact_matcher()(d), key=lambda m: (m[1], m[2])):
        kind = nlp().vocab.strings[match_id]
        _, endings, commas = _FACTS[kind]
        name = _name(d, end, endings, commas)
        if name is None:
            continue
        if kind == "exit":
            found.append(("exit", d[start + 2].lower_, name))
        elif kind == "edge":
            found.append(
                ("edge", d[start + 1 : end - 3].text, tuple(r for r in re.split(r",\s*|\s+and\s+", name) if r))
            )
        else:
            found.append((kind, name))
    return tuple(found)


def facts(text: str) -> list[tuple]:
    """Every fact of TWX's fixed sentences in `text`, sentence by sentence (see `read_sentence`)."""
    return [f for s in sentences(text) for f in read_sentence(s)]


def names(text: str) -> list[str]:
    """Every room, object and place the fixed sentences of `text` name."""
    out = []
    for f in facts(text):
        out += [*f[1:-1], *f[-1]] if f[0] == "edge" else [f[-1]]
    return out


def task_rooms(task: str) -> tuple[str, str]:
    """mapreader's task: the room to take the coin from, and the room of the box to put it into."""
    rooms = [f[1] for f in facts(task) if f[0] == "in"]
    return rooms[0], rooms[1]


# Sentences read whole, each by one pattern.
_SEQUENCE = re.compile(r"take these actions in order:\s*(.+?)\.?\s*$", re.I | re.S)
_COOKBOOK = re.compile(r"Ingredients:\s*(.+?)\s*Directions:\s*(.+?)\s*$", re.I | re.S)
_TAKEN = re.compile(r"^You take the (.+?)\.", re.I)
# what a cooking action says when done: "You slice the red apple.", "You roast the red apple with the oven."
_COOKED = re.compile(r"^You (slice|dice|chop|roast|grill|fry) the (.+?)(?: with the .+?)?\.", re.I)
_PUT = re.compile(r"^You put the (.+?) (?:in|on) the (.+?)\.", re.I)
_CLOSED_DOOR = re.compile(r"to the (north|south|east|west) you see a closed ([a-z -]+?door)\.", re.I)
_CLOSED_CONTAINER = re.compile(r"\b(?:a|an) ([a-z -]+?) that is closed", re.I)
_BELONGS = re.compile(r"(.+?) is expected to be located at (.+?)\.(?:\s|$)", re.I)


def simon_sequence(observation: str) -> list[str]:
    """Simon Says shown once: "Simon says, take these actions in order: A, B, C." -> [A, B, C]."""
    m = _SEQUENCE.search(observation)
    if not m or "simon says" not in observation.lower():
        return []
    return [a.strip() for a in m.group(1).split(",")]


def cookbook(observation: str) -> tuple[list[str], list[str]] | None:
    """The cookbook as read: (ingredients, directions), one per line, or None."""
    m = _COOKBOOK.search(observation)
    if not m:
        return None
    lines = [[line.strip() for line in g.splitlines() if line.strip()] for g in m.groups()]
    return lines[0], lines[1]


def taken(observation: str) -> str | None:
    """ "You take the X." -> X."""
    m = _TAKEN.match(observation.strip())
    return m.group(1) if m else None


def cooked(observation: str) -> tuple[str, str] | None:
    """ "You slice the red apple." -> ('slice', 'red apple'); roasting with the oven likewise."""
    m = _COOKED.match(observation.strip())
    return (m.group(1).lower(), m.group(2)) if m else None


def put(observation: str) -> tuple[str, str] | None:
    """ "You put the X on the Y." (or in) -> (X, Y)."""
    m = _PUT.match(observation.strip())
    return (m.group(1), m.group(2)) if m else None


def closed_doors(room_text: str) -> list[tuple[str, str]]:
    """ "To the West you see a closed wood door." -> [('west', 'wood door')]."""
    return [(d.lower(), door) for d, door in _CLOSED_DOOR.findall(room_text)]


def closed_containers(room_text: str) -> list[str]:
    """The containers a room's description shows closed ("a fridge that is closed")."""
    return _CLOSED_CONTAINER.findall(room_text)


def belongs(answer: str) -> list[tuple[str, str]]:
    """The knowledge base's "X is expected to be located at Y." sentences -> [(X, Y), ...]."""
    return _BELONGS.findall(answer)
