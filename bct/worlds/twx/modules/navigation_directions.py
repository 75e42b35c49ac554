"""navigation-directions: the navigator that also says which way to move (beyond the paper).

The paper's navigator names the next room; the agent must then find, in what it sees, the direction
that leads there ("To the North you see the pantry"). A small model trained from scratch does not
learn that lookup (bct's CPU preset: 0.15 on mapreader test). This navigator adds the direction, so
the agent only has to copy it: `mapreader-directions` plays mapreader with it. It removes a step the
paper's agents had to learn, so its scores are reported apart from the paper's game.
"""

from __future__ import annotations

from bct.worlds.twx.modules.navigation import Navigation


class NavigationDirections(Navigation):
    name = "navigation-directions"

    def hint(self, room: str) -> str:
        direction = self.exits.get(room)
        return f" To go there, move {direction}." if direction else ""
