"""cookbook: the recipe read once in the kitchen, and which of its directions the agent was seen to carry out.

The cookbook is read once ("examine cookbook"); a Markov agent sees one step back, so by the time it holds the
ingredients and stands at the stove the recipe is out of view. `recall recipe` answers the ingredients and the
directions as they were read, each direction marked done where the game said so ("You slice the carrot."), and what
the agent carries: facts it saw, never which direction to do next.
"""

from __future__ import annotations

from bct.modules.base import Module
from bct.worlds.textworld import text


class Cookbook(Module):
    name = "cookbook"
    verbs = ("recall recipe",)
    usage = "recall recipe"

    def reset(self) -> None:
        self.recipe: tuple[list[str], list[str]] | None = None
        self.done: set[str] = set()
        self.inventory = ""

    def observe(self, observation: str, look: str, inventory: str) -> None:
        self.recipe = text.recipe(observation) or self.recipe
        self.done.update(text.done(observation))
        self.inventory = inventory

    def commands(self) -> list[str]:
        return ["recall recipe"] if self.recipe else []

    def run(self, action: str) -> str:
        if action.strip().lower() != "recall recipe":
            return self.bad_usage("The cookbook module takes no arguments.")
        if self.recipe is None:
            return "No recipe has been read yet."
        ingredients, directions = self.recipe
        steps = [f"{d} (done)" if d in self.done else d for d in directions]
        return f"The recipe needs {', '.join(ingredients)}. Directions: {'; '.join(steps)}. {self.inventory}"
