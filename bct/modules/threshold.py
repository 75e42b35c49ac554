"""threshold: which side of one observed number another lies (its command: `compare A B`), as a thermometer's reading against the threshold a
task names ("If the melting point of tin is above 150.0 degrees celsius, focus on the green box").

A small model trained from scratch reads "233" and "150.0" as tokens, not as quantities: cloned from 20 train
variations it learned which box each substance goes to, not the comparison, and sent tin (232 degrees) to the
box for "below" in 6 of 7 test variations. The module computes the comparison; which box that means, and
whether to focus on it now, is the agent's to choose.

`compare reading B` compares the latest reading (the number of the latest observation that held exactly one, as
"the thermometer measures a temperature of 368 degrees celsius") with B: the module remembers the reading, so the
agent need not copy a number its prompt may no longer show (the gold paths compare when they choose the box, often
after walking back to it), only the threshold the task names.
"""

from __future__ import annotations

from bct.core import language
from bct.modules.base import Module, quote
from bct.modules.calc import read_numbers as numbers_in  # spaCy's reading: "-10.0" is one number, -10

# "compare A B" and the same with a word between the numbers, as an agent may write it
_JOINS = ("with", "to", "and")
READING = "reading"  # stands for the latest reading, as A


def side(a: float, b: float) -> str:
    return "above" if a > b else "below" if a < b else "equal to"


class Threshold(Module):
    name = "threshold"
    verbs = ("compare",)
    usage = (
        "compare A B, with two numbers you have observed (e.g. 'compare 233 150' says whether 233 is above 150); "
        "'compare reading B' compares the latest reading."
    )

    def reset(self) -> None:
        self.task_numbers: tuple[int | float, ...] = ()
        self.seen: set[int | float] = set()  # every number of the task and of each observation
        self.latest: tuple[int | float, ...] = ()  # the numbers of the latest game observation
        self.reading: int | float | None = None  # the number of the latest observation that held exactly one

    def given(self, task: str) -> None:
        self.task_numbers = tuple(dict.fromkeys(numbers_in(task)))
        self.seen.update(self.task_numbers)

    def observe(self, observation: str, look: str, inventory: str) -> None:
        self.latest = numbers_in(observation)
        self.seen.update(self.latest)
        if len(self.latest) == 1:
            self.reading = self.latest[0]

    def commands(self) -> list[str]:
        """The latest observation's numbers (a reading) against each number the task names, and the latest reading."""
        pairs = [
            f"compare {language.fmt(a)} {language.fmt(b)}" for a in self.latest for b in self.task_numbers if a != b
        ]
        read = [f"compare {READING} {language.fmt(b)}" for b in self.task_numbers] if self.reading is not None else []
        return pairs + read

    def run(self, action: str) -> str:
        words = [w for w in action.lower().split()[1:] if w not in _JOINS]
        if len(words) != 2:
            return self.bad_usage(f"'compare' takes two numbers, got {len(words)}.")
        if words[0] == READING:
            if self.reading is None:
                return "I have not observed a reading yet; read one (e.g. look at the thermometer) first."
            words[0] = language.fmt(self.reading)
        values = [language.number(w) for w in words]
        if None in values:
            return self.bad_usage(f"'{quote(' '.join(words))}' are not both numbers.")
        unseen = [w for w, v in zip(words, values) if v not in self.seen]
        if unseen:
            return f"I have not observed the number {quote(unseen[0])}; I only compare numbers you have seen."
        a, b = values
        return f"{language.fmt(a)} is {side(a, b)} {language.fmt(b)}."
