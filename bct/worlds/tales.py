"""TALES's benchmark, game side: tale-suite's own gym environments (`tales/<Name>-v0`) behind bct's `GameEnv`, so that
`protocol=tales` plays every game command through TALES's code, not a copy of it.

A world that TALES covers gives `World.tales`, a module of its folder with `tales_name(game)` (TALES's environment of
a bct game, or None), `fold_list(game, fold)` (the fold's variations in TALES's order), `FOLDS` (the folds its TALES
environment can play) and `TalesEnv` (a `TalesGameEnv` with the keys its info uses). The loop's own rules (100 commands, a loss restarts inside the budget, the best
score counts) are the rollout's (`bct.agents.rollout.Episode`); the variations TALES's seeds pick are `tales_seeds`.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import replace

from bct.core.errors import UserError
from bct.core.game import Game, GameState
from bct.core.java import kill_gateway

TALE_SUITE = "tale-suite==1.0.0rc2"
INSTALL = f"pip install --no-deps --ignore-requires-python {TALE_SUITE} gymnasium termcolor"
ONE_ACTION = "The game only allows one action per step."  # TALES's answer to a multi-line command (not sent)
STEPS = 100  # TALES's budget: every command sent to the game counts
SEEDS = 5  # TALES plays each game with game seeds 1-5


def make(name: str):
    """tale-suite's environment `tales/<name>-v0`, made as its benchmark makes it."""
    try:
        import gymnasium as gym

        with warnings.catch_warnings():  # its frameworks bct does not play (ALFWorld, Jericho) warn at import
            warnings.simplefilter("ignore")
            import tales  # noqa: F401  (registers its environments)
    except ImportError:
        raise UserError(
            f"protocol=tales needs tale-suite: .venv/bin/{INSTALL} (runscripts/setup.sh installs it)"
        ) from None
    return gym.make(f"tales/{name}-v0", disable_env_checker=True)


class TalesGameEnv:
    """One game in tale-suite's environment. bct's seed is the world's variation (seed) itself; TALES's `reset(seed=s)`
    plays the `s % n`-th of its fold's list, so the variation is asked for by its place there. A reset to the variation
    already playing is TALES's restart, `reset()` without a seed, as its benchmark restarts after a loss."""

    fold_list_attr = "variations"  # the TALES environment's list of its fold's variations (or seeds)
    task_key, inventory_key = "taskDesc", "inv"  # where its info holds the task and the inventory

    def __init__(self, game: Game, name: str, fold: str, list_actions: bool = True):
        self.game, self.fold, self.list_actions = game, fold, list_actions
        self.gym = make(name)
        self.tale = self.gym.unwrapped
        self.use_fold(fold)
        self.playing: int | None = None
        self.walkthrough: list[str] = []
        self.last: GameState | None = None

    def use_fold(self, fold: str) -> None:
        """Play `fold`'s variations (the TALES environment loads the test fold)."""

    def reset(self, seed: int, fold: str, gold: bool = False) -> GameState:
        if fold != self.fold:
            raise ValueError(f"this TALES environment plays the {self.fold} fold, not {fold}")
        if seed == self.playing:
            obs, info = self.gym.reset()
        else:
            listed = list(getattr(self.tale, self.fold_list_attr))
            if seed not in listed:
                raise UserError(f"{self.game.name}: variation {seed} is not in TALES's {fold} list")
            obs, info = self.gym.reset(seed=listed.index(seed))
            self.playing = seed
        self.walkthrough = list(info.get("extra.walkthrough") or [])
        self.last = self.state(obs, info, False, first=True)
        return self.last

    def step(self, action: str) -> GameState:
        if "\n" in action.strip():  # TALES counts it and sends nothing
            self.last = replace(self.last, observation=ONE_ACTION)
            return self.last
        obs, _, done, info = self.gym.step(action)
        self.last = self.state(obs, info, done)
        return self.last

    def state(self, obs: str, info: dict, done: bool, first: bool = False) -> GameState:
        """TALES's info as bct's state: its score is 0-100 in every framework, `won` and `lost` its ends; the task and
        inventory keys are the world's own (`task_key`, `inventory_key`)."""
        task = str(info[self.task_key])
        return GameState(
            task=task,
            observation=after_task(str(obs), task) if first else str(obs),
            look=str(info["look"]),
            inventory=str(info[self.inventory_key]),
            valid_actions=list(info["admissible_commands"] or []) if self.list_actions else [],
            score=max(0.0, int(info["score"]) / 100),
            done=bool(done or info["won"] or info["lost"]),
            success=bool(info["won"]),
        )

    def gold_actions(self) -> list[str]:
        """TALES's walkthrough of the variation playing (its info's `extra.walkthrough`)."""
        return list(self.walkthrough)

    def kill(self) -> None:
        """End the JVM of the world's environment inside TALES's, without waiting for it to answer."""
        kill_gateway(getattr(getattr(self.tale, "env", None), "_gateway", None))

    def close(self) -> None:
        try:
            self.gym.close()
            self.tale.env._gateway.java_process.wait(timeout=10)  # the JVM gone before another starts in its place
        except Exception:
            pass


def after_task(obs: str, task: str) -> str:
    """A first observation without the task TALES puts before it (`task + "\\n\\n" + obs`): bct's prompt holds the task
    in its own part."""
    return obs.removeprefix(task + "\n\n") if task else obs


def tales_runs(fold_list: list[int], n: int) -> dict[int, int]:
    """The variations TALES's game seeds 1..n play (the `s % len`-th of the fold's list), each with its number of runs:
    a fold of fewer than n variations plays some twice, and the agent is deterministic, so each is played once and
    weighs as many runs as TALES gives it."""
    return dict(Counter(fold_list[s % len(fold_list)] for s in range(1, n + 1)))
