"""Reading text with spaCy (a blank English pipeline and rule matchers, no model download).

The general helpers every world's reader and every module use: a tokenizer that splits quantities
('12ml'), sentences, rule matchers, and numbers as the games write them. What a world's fixed
sentences say is read in that world's folder (TextWorldExpress: bct/worlds/twx/text.py).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # spaCy is imported where text is first read: training and reports never load it
    from spacy.language import Language
    from spacy.matcher import Matcher
    from spacy.tokens import Doc, Span


@functools.cache
def nlp() -> Language:
    """A blank English tokenizer that also splits quantities such as '12ml' and '43l'."""
    import spacy
    from spacy.util import compile_suffix_regex

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
    from spacy.matcher import Matcher

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


def filter_spans(spans: list[Span]) -> list[Span]:
    """The longest of overlapping spans (spaCy's filter_spans)."""
    from spacy.util import filter_spans as longest

    return longest(spans)
