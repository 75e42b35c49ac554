"""memory-mapreader: the working memory with mapreader's goal: which room to head for.

The task names two rooms (the coin's and the box's); the memory keeps them as facts (`goal(coin,
kitchen)`, `goal(box, pantry)`) when the task is given, and whether the coin is held from the latest
inventory. `recall task` answers both rooms, whether the coin is held and where the agent is: the room
names come back into the latest observation, where the agent reads them best (on big maps the task is
otherwise far back). Which room to head for is the agent's choice.
"""

from __future__ import annotations

from bct.worlds.twx import text
from bct.worlds.twx.modules.memory import TWXMemory


class GoalMemory(TWXMemory):
    name = "memory-mapreader"

    def given(self, task: str) -> None:
        try:
            coin, box = text.task_rooms(task)
        except IndexError:  # not a mapreader task: nothing to remember
            return
        self.add("goal", ("coin", coin), f"The coin is in the {coin}.")
        self.add("goal", ("box", box), f"The box is in the {box}.")

    def forms(self) -> tuple[str, ...]:
        return ("recall task", *super().forms())

    def commands(self) -> list[str]:
        return (["recall task"] if self.ground("goal") else []) + super().commands()

    def run(self, action: str) -> str:
        if " ".join(action.lower().split()) == "recall task":
            return self.recall_task()
        return super().run(action)

    def recall_task(self) -> str:
        goals = {f.args[0]: f.args[1] for f in self.ground("goal")}
        if not goals:
            return "I remember no task naming rooms."
        where = f" You are in the {self.here}." if self.here else ""
        held = "held" if self.held("coin") else "not held"
        return f"The coin is in the {goals['coin']}; the box is in the {goals['box']}. The coin is {held}.{where}"
