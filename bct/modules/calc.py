"""calc: the four arithmetic operations over numbers the agent has observed."""

from __future__ import annotations

import functools
import itertools

from bct.core import language
from bct.modules.base import Module, quote

NUM = {"LIKE_NUM": True}

# How each problem phrase maps to an operation and the order of its operands.
PROBLEMS = {
    "add": ([{"LOWER": "add"}, NUM, {"LOWER": "and"}, NUM], (1, 3)),
    "sub": ([{"LOWER": "subtract"}, NUM, {"LOWER": "from"}, NUM], (3, 1)),  # "subtract 23 from 26" = 26 - 23
    "mul": ([{"LOWER": "multiply"}, NUM, {"LOWER": "and"}, NUM], (1, 3)),
    "div": ([{"LOWER": "divide"}, NUM, {"LOWER": "by"}, NUM], (1, 3)),
}

PROBLEM_WORDS = tuple(pattern[0]["LOWER"] for pattern, _ in PROBLEMS.values())

VERBS = {
    "add": "adding {a} and {b}",
    "sub": "subtracting {b} from {a}",
    "mul": "multiplying {a} and {b}",
    "div": "dividing {a} by {b}",
}


@functools.lru_cache(maxsize=1 << 16)
def read_numbers(sentence: str) -> tuple[int | float, ...]:
    return tuple(n for tok in language.doc(sentence) if tok.like_num and (n := language.number(tok.text)) is not None)


class Calc(Module):
    name = "calc"
    verbs = tuple(VERBS)
    usage = "add|sub|mul|div A B, with numbers you have observed (e.g. 'div 22 11' gives 22 / 11)."

    def __init__(self) -> None:
        self._matcher = language.matcher({op: [pattern] for op, (pattern, _) in PROBLEMS.items()})
        super().__init__()

    def reset(self) -> None:
        self._seen: list[str] = []  # every text observed this episode, read for numbers when asked
        self.problems: list[tuple[str, int | float, int | float]] = []  # (op, a, b) in reading order

    @property
    def numbers(self) -> set[int | float]:
        return {n for t in self._seen for sentence in language.sentences(t) for n in read_numbers(sentence)}

    def observe(self, observation: str, look: str, inventory: str) -> None:
        for t in (observation, look, inventory):
            if t in self._seen:
                continue
            self._seen.append(t)
            problem = " ".join(language.sentences(t.lower(), PROBLEM_WORDS))
            if not problem:
                continue
            d = language.doc(problem)
            for match_id, start, _ in sorted(self._matcher(d), key=lambda m: m[1]):
                op = language.nlp().vocab.strings[match_id]
                i, j = PROBLEMS[op][1]
                problem = (op, language.number(d[start + i].text), language.number(d[start + j].text))
                if None not in problem and problem not in self.problems:
                    self.problems.append(problem)

    def command_for(self, problem: tuple[str, int | float, int | float]) -> str:
        op, a, b = problem
        return f"{op} {language.fmt(a)} {language.fmt(b)}"

    def commands(self) -> list[str]:
        out = []
        for _, a, b in self.problems:
            for op, (x, y) in itertools.product(VERBS, ((a, b), (b, a))):
                cmd = self.command_for((op, x, y))
                if cmd not in out:
                    out.append(cmd)
        return out

    def run(self, action: str) -> str:
        op, *args = action.strip().lower().split()
        if len(args) != 2:
            return self.bad_usage(f"'{quote(op)}' takes two numbers, got {len(args)}.")
        values = [language.number(a) for a in args]
        if None in values:
            return self.bad_usage(f"'{quote(' '.join(args))}' are not both numbers.")
        seen = self.numbers
        unseen = [a for a, v in zip(args, values) if v not in seen]
        if unseen:
            return f"I have not observed the number {quote(unseen[0])}; I only compute with numbers you have seen."
        a, b = values
        if op == "div" and b == 0:
            return "I cannot divide by zero."
        result = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else 0}[op]
        return f"The result of {VERBS[op].format(a=language.fmt(a), b=language.fmt(b))} is {language.fmt(result)}."
