"""Reading game text with spaCy (a blank English pipeline and rule matchers, no model download).

The general helpers (`doc`, `sentences`, `matcher`, `number`) serve the modules' own readers; `facts`
is the one reader of TextWorldExpress's fixed sentences ("You are in the X.", "To the North you see
the Y.", "The X connects to the A, B and C.", the task's rooms, ...), used by the entity
placeholders, the gold-path rules and the navigator alike.
"""

from __future__ import annotations

import functools
import re

import spacy
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span
from spacy.util import compile_suffix_regex


@functools.cache
def nlp() -> spacy.language.Language:
    """A blank English tokenizer that also splits quantities such as '12ml' and '43l'."""
    pipeline = spacy.blank("en")
    suffixes = [*pipeline.Defaults.suffixes, r"(?<=[0-9])(?:ml|l|mm|cm|m|mg|g|kg)"]
    pipeline.tokenizer.suffix_search = compile_suffix_regex(suffixes).search
    return pipeline


def doc(text: str) -> Doc:
    return nlp().make_doc(text)


_SENTENCE_END = re.compile(r"(?<=[.:])\s+|\n")


def sentences(text: str, keys: tuple[str, ...] = ()) -> list[str]:
    """The sentences (and lines) of `text`; with `keys`, only those that contain one of them.

    Modules read observations a sentence at a time, through a cache: game texts are made of a
    small set of recurring sentences, so spaCy reads each one once.
    """
    if keys and not any(k in text for k in keys):
        return []
    return [s for s in _SENTENCE_END.split(text) if s.strip() and (not keys or any(k in s for k in keys))]


def matcher(patterns: dict[str, list[list[dict]]]) -> Matcher:
    m = Matcher(nlp().vocab)
    for label, pats in patterns.items():
        m.add(label, pats, greedy="LONGEST")
    return m


def extend_words(span: Span) -> Span:
    """Extend a match over the content words that follow it ('25g of red oak on it' -> '25g of red oak')."""
    end = span.end
    while end < len(span.doc) and span.doc[end].is_alpha and not span.doc[end].is_stop:
        end += 1
    return span.doc[span.start : end]


_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def number(text: str) -> int | float | None:
    """An integer or decimal written with ASCII digits as the games write them ('12', '0.5'), else None:
    no other spellings of a number ('١٢', '６', '1_0', '1e1', '+6')."""
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return int(value) if value.is_integer() else value


def fmt(value: float) -> str:
    """Write a number the way the games do: integers without a decimal point."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}".rstrip("0").rstrip(".")


# TWX's fixed sentences: kind -> (trigger patterns, what may end the name, whether it may hold commas).
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
