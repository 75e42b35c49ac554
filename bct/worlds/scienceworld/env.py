"""ScienceWorld's environment behind bct's world interface (`GameEnv`: reset, step, gold actions).

ScienceWorld's score is 0-100 and can fall (to -100 where the task fails, e.g. focusing on the wrong
thing); bct's is normalised to 1.0, and a failed task ends the episode at 0. Its list of valid actions
(`get_valid_action_object_combinations`, 600-9,000 strings a step) is most of a step's time and does
not hold every command its parser takes (gold paths use others): data generation asks for none.
"""

from __future__ import annotations

import logging
import os
import random

from bct.core.errors import UserError
from bct.core.game import Game, GameState, check_fold
from bct.core.java import check_java, java_options, kill_gateway
from bct.worlds.scienceworld.games import SUBSTANCE, fold_of, simplifications

JVM_OPTIONS = "-Xmx1g -XX:+UseSerialGC"
# every identity hash code the same: the simulator walks its hash sets of things in one order, so a load of a
# variation gives the same gold path and look in any JVM at any point of its history (docs/scienceworld.md)
REPRODUCIBLE = "-XX:+UnlockExperimentalVMOptions -XX:hashCode=2"
CARRY_TO = ("art studio", "workshop")  # `moved=1`: the rooms off the hallway with a table, where a test metal lies
logging.getLogger("scienceworld").setLevel(logging.WARNING)  # a line per task loaded is not for users


def carried(name: str, into_pot: str) -> str | None:
    """What is carried of a change of state's substance `name`, by the simulator's action that puts it into the pot:
    the substance where it is moved itself, its cup where it is poured from one; None where neither."""
    return {
        f"move {name} to metal pot": name,
        f"pour cup containing {name} into metal pot": f"cup containing {name}",
    }.get(into_pot)


def cap_heap() -> None:
    """ScienceWorld's JVM takes up to a quarter of the machine's memory by default (1-2 GB resident each while
    playing): a capped heap and the serial collector keep it near 0.4 GB, so that an evaluation's games fit side by
    side. A heap the user set in JAVA_TOOL_OPTIONS stays; bct's own option there (no perf data, bct.core.java) is
    kept beside the cap."""
    options = os.environ.get("JAVA_TOOL_OPTIONS", "")
    if "-Xmx" not in options:
        os.environ["JAVA_TOOL_OPTIONS"] = f"{options} {JVM_OPTIONS}".strip()


class ScienceWorldEnv:
    """One ScienceWorld task in its own JVM; a seed is a variation number of the task. `reproducible`: a load gives
    the same world, gold path and look whatever the JVM did before (REPRODUCIBLE), for data; play keeps the default
    JVM, in which the order of a room's things varies from load to load, as TALES and others play it."""

    def __init__(self, game: Game, step_limit: int = 1000, list_actions: bool = True, reproducible: bool = False):
        from scienceworld import ScienceWorldEnv as Env

        check_java()
        cap_heap()
        self.game = game
        self.list_actions = list_actions
        with java_options(REPRODUCIBLE if reproducible else ""):
            self.sw = Env("", envStepLimit=step_limit)
        self.simplifications = simplifications(game)

    def switch(self, game: Game) -> bool:
        """Play `game` from the next reset in this same JVM (ScienceWorld loads any task by name): an evaluation
        of many tasks starts its JVMs once. False for a game of another world."""
        if game.world != self.game.world:
            return False
        self.game, self.simplifications = game, simplifications(game)
        return True

    def reset(self, seed: int, fold: str = "train", gold: bool = True) -> GameState:
        check_fold(fold)
        if fold_of(self.game, seed) != fold:
            raise UserError(f"{self.game.name}: variation {seed} is not in its {fold} fold")
        # always with the gold path generated: making it changes the variation's world (a replay of its own gold
        # path in a world loaded without it can fall short: power-component-renewable, boil), so agents play worlds
        # made as the oracle's and the data's; nothing of it reaches an agent. No server reset after the load: it
        # loads it all again, and in the default JVM two loads of a variation differ anyway in the gold path's picks
        # and a look's order (its hash codes: docs/experiments/2026-12-06-one-load.md; `reproducible` fixes them)
        self.sw.load(self.game.world_game, seed, self.simplifications, generateGoldPath=True)
        self.sw.lastStepScore = 0
        self.task = str(self.sw.server.freeActionTaskDesc())  # fixed for the episode: asked once, not every step
        self.moved_to = self._carry_substance(seed) if self.game.param_values.get("moved") and fold == "train" else None
        return self._state(self.sw.server.step("look around"))

    def step(self, action: str) -> GameState:
        return self._state(self.sw.server.step(action))

    def _carry_substance(self, seed: int) -> str | None:
        """`moved=1` on a change of state (games.CHANGES_OF_STATE): where the simulator's path puts the task's
        substance into the pot itself (a solid: chocolate, marshmallow; not the freezer's ice, which would melt on
        the tour) or pours it from a cup (the juices), carry it, or its cup, before play from the kitchen to the
        table of the art studio or the workshop (drawn by the variation), shut what was opened on the way, and
        leave the agent in the kitchen. Returns the room (None where nothing is carried: water from the sink).
        Unseen by agents and data: play starts at the kitchen's look."""
        named = SUBSTANCE.search(self.task)
        gold = self.gold_actions()
        name = named.group(1) if named else None
        focus = gold.index(f"focus on {name}") if f"focus on {name}" in gold else None
        thing = carried(name, gold[focus + 1] if focus is not None and focus + 1 < len(gold) else "")
        if thing is None:
            return None
        arrived = gold.index("look around")  # the simulator's walk to the kitchen
        walk, opened = gold[:arrived], [a for a in gold[arrived:focus] if a.startswith("open ") and " door " not in a]
        if opened[-1:] == ["open freezer"]:  # ice: it would melt on the way
            return None
        room = random.Random(f"moved {self.game.world_game} {seed}").choice(CARRY_TO)
        carry = [*walk, *opened, f"pick up {thing}", *(f"close {a.removeprefix('open ')}" for a in reversed(opened))]
        carry += ["open door to hallway", "go to hallway", f"open door to {room}", f"go to {room}"]
        carry += [f"move {thing} to table", "go to hallway", f"close door to {room}", "go to kitchen"]
        if "open door to hallway" not in walk:
            carry.append("close door to hallway")
        for action in carry:
            said = str(self.sw.server.step(action))
            if not said.startswith(("You move", "The ")) or "already" in said and action.startswith("close"):
                raise RuntimeError(
                    f"{self.game.name} variation {seed}: carrying {name} to the {room}, '{action}' got '{said}'"
                )
        return room

    def _state(self, observation: str) -> GameState:
        raw = int(round(100 * self.sw.server.getScore()))
        failed = raw < 0
        return GameState(
            task=self.task,
            observation=str(observation),
            look=str(self.sw.server.freeActionLook()),
            inventory=str(self.sw.server.freeActionInventory()),
            valid_actions=list(self.sw.get_valid_action_object_combinations()) if self.list_actions else [],
            score=max(0.0, raw / 100),
            done=bool(self.sw.server.getCompleted()) or failed or raw >= 100,
            success=raw >= 100,
        )

    def gold_actions(self) -> list[str]:
        return list(self.sw.server.getGoldActionSequence())

    def kill(self) -> None:
        """End a JVM that died or hangs, without waiting for it to answer."""
        kill_gateway(self.sw._gateway)

    def close(self) -> None:
        try:
            self.sw.close()
            self.sw._gateway.java_process.wait(timeout=10)
        except Exception:
            pass
