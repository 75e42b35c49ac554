"""memory-mapreader: the working memory with mapreader's goal: which room to head for.

The task names two rooms (the coin's and the box's); the memory keeps them as facts (`goal(coin,
kitchen)`, `goal(box, pantry)`) when the task is given, and whether the coin is held from the latest
inventory. `recall next` grounds the rule: the coin's room until the coin is held, then the box's; and
once there, the action that finishes that part. The answer puts the room's name in the latest
observation, where the agent reads it best (on big maps the task's rooms are otherwise far back).
"""

from __future__ import annotations

from bct import text
from bct.modules.memory import Memory


class GoalMemory(Memory):
    name = "memory-mapreader"

    def given(self, task: str) -> None:
        try:
            coin, box = text.task_rooms(task)
        except IndexError:  # not a mapreader task: nothing to remember
            return
        self.add("goal", ("coin", coin), f"The coin is in the {coin}.")
        self.add("goal", ("box", box), f"The box is in the {box}.")

    def next_step(self) -> str:
        goals = {f.args[0]: f.args[1] for f in self.ground("goal")}
        if not goals:
            return "I remember no task naming rooms; nothing to recall."
        thing = "box" if self.held("coin") else "coin"
        room = goals[thing]
        if self.here == room:
            return "Next: put coin in box (you are at the box)." if thing == "box" else "Next: take coin (it is here)."
        return f"Next: next step to {room} (the {thing} is there)."
