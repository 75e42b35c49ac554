"""Reference agents: the oracle follows the gold path (with module calls); random picks any valid action."""

from __future__ import annotations

import random

from bct.agents.base import Agent, Decision, Observation, episode_key
from bct.agents.settings import RandomSettings
from bct.core.game import Game
from bct.modules.stack import ModularEnv
from bct.worlds.gold import play_gold
from bct.worlds.registry import modules_of, open_game


class OracleAgent(Agent):
    """Plays the gold trajectory that bct.generate writes as training data."""

    name = "oracle"
    reads_valid_actions = False  # it plays the gold path

    def __init__(self, game: Game | None, modules: bool | None = None, **settings) -> None:
        super().__init__(game, modules, **settings)
        self._envs: dict[tuple[str, bool], ModularEnv] = {}
        self._plans: dict[tuple, list[str]] = {}  # per episode (episode_key)

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        key = (game.name, modules)
        if key not in self._envs:  # one of another game that can switch to this one (ScienceWorld's), else a new one
            other = next(
                (k for k, e in self._envs.items() if k[1] == modules and e.switch(game, modules_of(game, modules))),
                None,
            )
            self._envs[key] = self._envs.pop(other) if other else open_game(game, modules, list_actions=False)
        self._plans[episode_key(game, fold, seed)] = play_gold(self._envs[key], seed, fold, modules).actions

    def act(self, batch: list[Observation]) -> list[Decision]:
        out = []
        for ob in batch:
            plan = self._plans[ob.episode]
            t = len(ob.actions)
            out.append(Decision(plan[t] if t < len(plan) else "look around"))
        return out

    def close(self) -> None:
        for env in self._envs.values():
            env.close()


class RandomAgent(Agent):
    """A uniformly random valid action; each episode has its own generator, so batching changes nothing."""

    name = "random"
    Settings = RandomSettings

    def __init__(self, game: Game | None, modules: bool | None = None, **settings) -> None:
        super().__init__(game, modules, **settings)
        self.seed = self.config.seed
        self._rngs: dict[tuple, random.Random] = {}

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self._rngs[episode_key(game, fold, seed)] = random.Random(f"{self.seed}-{game.name}-{fold}-{seed}")

    def act(self, batch: list[Observation]) -> list[Decision]:
        return [Decision(self._rngs[ob.episode].choice(ob.step.valid_actions)) for ob in batch]
