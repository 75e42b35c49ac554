"""progress: the moves made so far, where an objective spells a path of moves ("First, go north. Then, go east...").

The objective names every move, but a Markov agent cannot tell how many it has made: rooms look alike and the
prompt holds one step. `recall progress` answers the game commands sent that the game took, in order and counted:
what was done, never what to do next.
"""

from __future__ import annotations

from bct.modules.base import Module

REFUSED = ("You can't go that way", "That's not a verb I recognise", "You can't see any such thing")


class Progress(Module):
    name = "progress"
    verbs = ("recall progress",)
    usage = "recall progress"

    def reset(self) -> None:
        self.taken: list[str] = []
        self.pending: str | None = None

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
        if not self.taken:
            return "No move has been made yet."
        return f"{len(self.taken)} done so far: {', '.join(self.taken)}."
