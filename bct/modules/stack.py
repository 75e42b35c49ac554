"""A game of any world with symbolic modules in front of it: the module interface.

An action a module owns goes to the module, whose answer becomes the observation (look and inventory
keep the game's values); anything else goes to the game. Every module hears every observation, look and
inventory the game produces. It knows no world and no module by name: `bct.worlds.registry.open_game(game,
modules)` makes the modules a game is played with (its world's and the shared ones) and opens one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bct.core.game import Game, GameEnv, GameState
from bct.modules.base import Module


@dataclass
class Step:
    """What the agent sees after an action (or after reset, where `action` is None)."""

    task: str
    observation: str  # the game's answer, or the module's answer when `from_module`
    look: str  # as the game last gave it
    inventory: str  # as the game last gave it
    valid_actions: list[str]
    score: float
    done: bool
    success: bool = False
    action: str | None = None
    from_module: bool = False


class ModuleStack:
    """Symbolic modules in front of one game, and the order in which they hear of it: the task at reset,
    every game step's observation, look, inventory and score, every action taken, and each module's
    answer (heard by the others). `ModularEnv` drives it from the game; an agent that keeps modules of
    its own (agent=planner) drives it from what it observes, so both hear the same things."""

    def __init__(self, modules: Sequence[Module] = ()):
        self.modules = list(modules)

    def module(self, name: str) -> Module:
        return next(m for m in self.modules if m.name == name)

    def start(self, task: str) -> None:
        for m in self.modules:
            m.reset()
            m.given(task)

    def saw(self, observation: str, look: str, inventory: str, score: float) -> None:
        for m in self.modules:
            m.observe(observation, look, inventory)
            m.scored(score)

    def owner(self, action: str) -> Module | None:
        """Tell every module of `action`; the module that owns it (None: the game's)."""
        for m in self.modules:
            m.acted(action)
        return next((m for m in self.modules if m.owns(action)), None)

    def answered(self, owner: Module, action: str, answer: str) -> None:
        for other in self.modules:
            if other is not owner:
                other.heard(action, answer)

    def commands(self) -> list[str]:
        return [c for m in self.modules for c in m.commands()]


class ModularEnv:
    """One game with zero or more symbolic modules in front of its world's environment."""

    def __init__(self, game: Game, env: GameEnv, modules: Sequence[Module] = ()):
        self.game = game
        self.env = env
        self.stack = ModuleStack(modules)
        self.modules = self.stack.modules
        self.last: Step | None = None
        self.answered_by: str | None = None  # the module that answered the latest action (None: the game)

    def module(self, name: str) -> Module:
        return self.stack.module(name)

    def switch(self, game: Game, modules: Sequence[str]) -> bool:
        """Whether this environment plays `game` from its next reset: its own game, or another its world's
        environment loads in the same process (`switch`: ScienceWorld loads any task by name) with the same
        modules in front, named by `modules` (they start afresh at each reset)."""
        if game == self.game:
            return True
        switch = getattr(self.env, "switch", None)
        if switch is None or [m.name for m in self.modules] != list(modules) or not switch(game):
            return False
        self.game = game
        return True

    def reset(self, seed: int, fold: str = "train", gold: bool = True) -> Step:
        state = self.env.reset(seed, fold, gold)
        self.seed = seed  # the variation playing (a gold path that draws its own choices draws them by it)
        self.stack.start(state.task)
        return self._from_game(state, action=None)

    def gold_actions(self) -> list[str]:
        return self.env.gold_actions()

    def step(self, action: str) -> Step:
        if not isinstance(action, str):
            raise TypeError(f"an action is a string (one of the valid actions), not {type(action).__name__}")
        if self.last is None:
            raise RuntimeError("reset(seed=..., fold=...) starts an episode; call it before step()")
        owner = self.stack.owner(action)
        self.answered_by = owner.name if owner is not None else None
        if owner is not None:
            answer = owner.run(action)
            self.stack.answered(owner, action, answer)
            self.last = replace(
                self.last,
                observation=answer,
                action=action,
                from_module=True,
                valid_actions=self._valid(self.last.valid_actions[: self._n_env]),
            )
            return self.last
        return self._from_game(self.env.step(action), action)

    def _from_game(self, state: GameState, action: str | None) -> Step:
        self.stack.saw(state.observation, state.look, state.inventory, state.score)
        self._n_env = len(state.valid_actions)
        self.last = Step(
            task=state.task,
            observation=state.observation,
            look=state.look,
            inventory=state.inventory,
            valid_actions=self._valid(list(state.valid_actions)),
            score=state.score,
            done=state.done,
            success=state.success,
            action=action,
            from_module=False,
        )
        return self.last

    def _valid(self, env_actions: list[str]) -> list[str]:
        return env_actions + self.stack.commands()

    def kill(self) -> None:
        """End a game process that died or hangs, without waiting for it to answer."""
        self.env.kill()

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> ModularEnv:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
