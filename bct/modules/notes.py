"""notes: what the agent read, kept after it is out of view.

A Markov agent sees one step back. ScienceWorld's chemistry-mix shows its recipe once ("The recipe reads: To make
sugar water, you need to mix sugar, water."), at `read recipe`; the ingredients are gathered over the next dozen
actions, by which time the prompt holds only the task's product. The test variations make products no train
variation makes (rust, sugar water, red paper), so an agent cloned without the recipe in view gathers the train
products' ingredients. `notes` answers with the latest text read, word for word: a fact the game showed, never
which ingredient to fetch next.
"""

from __future__ import annotations

import re

from bct.modules.base import Module, quote

# what a thing read says, as the game writes it ("The recipe reads: ..."); a refusal ("No known action matches that
# input.") or a thing with nothing written on it is not kept
_WRITTEN = re.compile(r"\breads:\s*\S")


class Notes(Module):
    name = "notes"
    verbs = ("notes",)
    usage = "notes: what you last read (e.g. a recipe), word for word."

    def reset(self) -> None:
        self.read: str | None = None  # the latest text read, as the game wrote it

    def observe(self, observation: str, look: str, inventory: str) -> None:
        if _WRITTEN.search(observation):
            self.read = " ".join(observation.split())

    def commands(self) -> list[str]:
        """`notes`, once something was read (an agent that reads the offered commands learns of it then)."""
        return ["notes"] if self.read else []

    def run(self, action: str) -> str:
        if action.strip().lower() != "notes":
            return self.bad_usage(f"'notes' takes no arguments, got '{quote(action)}'.")
        return self.read if self.read else "You have read nothing yet; read something first."
