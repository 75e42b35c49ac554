"""agent=planner: a world's hand-written policy (TextWorldExpress: bct/worlds/twx/policy.py), played through the
rollout like any agent, with its own copies of the game's modules fed by what it observes."""

from __future__ import annotations

from collections.abc import Generator

from bct.agents.base import Agent, Decision, Observation, episode_key
from bct.core.errors import UserError
from bct.core.game import Game
from bct.modules.stack import Step
from bct.worlds.registry import make_modules, modules_of, world_of


class PlannerAgent(Agent):
    """Decides by the planner's rules over what it observed; a row of its own beside random and oracle."""

    name = "planner"

    def __init__(self, game: Game | None, modules: bool | None = None, **settings) -> None:
        super().__init__(game, modules, **settings)
        self.rules = world_of(game).policy
        if self.rules is None or not self.rules.has_rules(game):
            plays = f"; it plays {self.rules.PLAYS}" if self.rules else f"; its world ({game.world}) has no rules"
            raise UserError(f"agent=planner has no rules for {game.name}{plays}")
        if game.module and not self.modules:
            raise UserError(f"agent=planner plays {game.name} with its module ({game.module}); drop modules=false")
        self._episodes: dict[tuple, tuple[object, Generator[str, Step, None]]] = {}

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        names = modules_of(game, modules)  # its own memory beside them, fed what the agent sees
        shadow = self.rules.Shadow(
            game, make_modules(names if game.memory_module in names else [*names, game.memory_module])
        )
        self._episodes[episode_key(game, fold, seed)] = (shadow, self.rules.actions(shadow))

    def act(self, batch: list[Observation]) -> list[Decision]:
        out = []
        for ob in batch:
            shadow, plan = self._episodes[ob.episode]
            shadow.feed(ob.step)
            action = next(plan, None)
            if action is None:  # no rule applies: a harmless action, until the step limit
                valid = ob.step.valid_actions
                action = "look around" if "look around" in valid else valid[0]
            out.append(Decision(action))
        return out
