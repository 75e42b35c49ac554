"""progress: the steps an objective spells ("First, go north. Then, go east..."), and the moves made so far.

The objective names every move, but in prose drawn from a grammar ("make an effort to take a trip south"), and a
Markov agent cannot tell how many it has made: rooms look alike and the prompt holds one step. `recall progress`
answers the objective's steps as commands (the task's own words, read once) and the game commands sent that the game
took, in order and counted: what the task says and what was done, never which step comes next.
"""

from __future__ import annotations

from bct.modules.base import Module
from bct.worlds.textworld import text

REFUSED = ("You can't go that way", "That's not a verb I recognise", "You can't see any such thing")


class Progress(Module):
    name = "progress"
    verbs = ("recall progress",)
    usage = "recall progress"

    def reset(self) -> None:
        self.taken: list[str] = []
        self.pending: str | None = None
        self.steps: list[str] = []

    def given(self, task: str) -> None:
        self.steps = text.steps(task)

    def acted(self, action: str) -> None:
        self.pending = None if action.strip().lower().startswith("recall ") else action.strip()

    def observe(self, observation: str, look: str, inventory: str) -> None:
        if self.pending and not observation.startswith(REFUSED):
            self.taken.append(self.pending)
        self.pending = None

    def heard(self, action: str, answer: str) -> None:
        self.pending = None  # another module answered: the game took nothing

    def commands(self) -> list[str]:
        return ["recall progress"]

    def run(self, action: str) -> str:
        if action.strip().lower() != "recall progress":
            return self.bad_usage("The progress module takes no arguments.")
        said = f"The objective's steps: {', '.join(self.steps)}. " if self.steps else ""
        if not self.taken:
            return f"{said}No move has been made yet."
        return f"{said}{len(self.taken)} done so far: {', '.join(self.taken)}."
