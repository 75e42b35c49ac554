"""kb-twc: where household objects usually belong, from the object data that TextWorldExpress ships
(read in bct/worlds/twx/objects.py)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from bct.core import language
from bct.modules.base import Module, quote
from bct.worlds.twx.objects import knowledge

if TYPE_CHECKING:
    from spacy.matcher import PhraseMatcher


@functools.cache
def _object_matcher() -> PhraseMatcher:
    from spacy.matcher import PhraseMatcher

    m = PhraseMatcher(language.nlp().vocab, attr="LOWER")
    m.add("object", [language.doc(name) for name in knowledge()])
    return m


@functools.lru_cache(maxsize=1 << 16)
def read_objects(sentence: str) -> tuple[str, ...]:
    """Known objects mentioned in one sentence, longest names first where they overlap."""
    d = language.doc(sentence)
    return tuple(span.text for span in language.filter_spans([d[s:e] for _, s, e in _object_matcher()(d)]))


class KnowledgeBaseTWC(Module):
    name = "kb-twc"
    verbs = ("query",)
    usage = "query OBJECT, for an object you see or hold (e.g. 'query black blanket')."

    def reset(self) -> None:
        self.in_view: list[str] = []
        self.seen: set[str] = set()  # every object seen or held this episode (lower case)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        seen = [obj for t in (look, inventory) for sentence in language.sentences(t) for obj in read_objects(sentence)]
        self.in_view = list(dict.fromkeys(seen))
        self.seen |= {obj.lower() for obj in seen}

    def commands(self) -> list[str]:
        return [f"query {name}" for name in self.in_view]

    def run(self, action: str) -> str:
        obj = action.strip()[len("query") :].strip()
        if not obj:
            return self.bad_usage("Which object?")
        if obj.lower() not in self.seen:  # only what the agent has seen: no peeking at the whole object list
            return f"You have not seen '{quote(obj)}'; query an object you see or hold."
        locations = knowledge().get(obj.lower())
        if not locations:
            return f"I don't know where '{quote(obj)}' belongs."
        return " ".join(f"{obj} is expected to be located at {place}." for place in locations)
