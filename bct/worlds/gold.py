"""Gold trajectories of any world: its gold path, module calls injected by the world's rules
(TextWorldExpress: bct/worlds/twx/gold.py), played through the modules and checked to end at score 1."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from bct.core.game import Game
from bct.modules.stack import ModularEnv, Step
from bct.worlds.registry import world_of


@dataclass
class Trajectory:
    game: str
    fold: str
    seed: int
    modules: bool
    steps: list[Step] = field(default_factory=list)  # steps[0] is the reset; steps[i].action led to steps[i]
    error: str | None = None
    dropped: int = 0  # steps of idle answers left out (the path played again without them reached the score)
    idle_kept: int = 0  # steps of idle answers kept: the path without them fell short

    @property
    def actions(self) -> list[str]:
        return [s.action for s in self.steps[1:]]

    @property
    def score(self) -> float:
        return self.steps[-1].score if self.steps else 0.0

    @property
    def ok(self) -> bool:
        return self.error is None and self.score >= 1.0


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    """The modules the gold paths of `game` call. With modules=all, a call to any other module is one the
    game never needs."""
    return world_of(game).gold_modules(game, modules)


def play_gold(env: ModularEnv, seed: int, fold: str, modules: bool) -> Trajectory:
    """Play one gold trajectory. Its `error` says why it failed (an invalid action or a score below 1). Where the
    world names idle answers (`World.idle_answers`: an action that changed nothing) and the path has steps so
    answered, the path without them (and a module call left twice in a row by it) is played again from the reset and
    kept where it reaches the score too (`dropped` counts them); else the path as it was (`idle_kept`)."""
    world = world_of(env.game)
    traj = _play(env, seed, fold, modules, world.gold_path(env, modules))
    idle = [i for i, step in enumerate(traj.steps[1:]) if world.idle(step)] if traj.ok else []
    if not idle:
        return traj
    left = set(idle)
    steps = [(a, s.from_module) for i, (a, s) in enumerate(zip(traj.actions, traj.steps[1:])) if i not in left]
    # a module call the same call now follows at once goes too (`notes`, asked before every game action, was asked
    # before the idle step and again after it); calls made after a step (`circuit`) or every few (`recall`) stay
    kept = [a for (a, call), after in zip(steps, [*steps[1:], None]) if not (call and after == (a, True))]
    again = _play(env, seed, fold, modules, (a for a in kept))
    if again.ok:
        again.dropped = len(idle)
        return again
    traj.idle_kept = len(idle)
    return traj


def _play(env: ModularEnv, seed: int, fold: str, modules: bool, actions: Generator[str, object, None]) -> Trajectory:
    traj = Trajectory(env.game.name, fold, seed, modules, [env.reset(seed, fold)])
    free = world_of(env.game).free_actions  # its parser takes commands its valid-action list lacks: the score decides
    try:
        action = next(actions, None)
        while action is not None:
            if not free and action not in traj.steps[-1].valid_actions:
                raise ValueError(f"step {len(traj.steps) - 1}: '{action}' is not a valid action")
            traj.steps.append(env.step(action))
            if traj.steps[-1].done:  # the game is over: TWX's path may hold more, the evaluator stops here
                break
            try:
                action = actions.send(traj.steps[-1])
            except StopIteration:
                action = None
    except Exception as e:  # a rule that cannot apply: report the episode, keep going
        traj.error = f"{type(e).__name__}: {e}"
    if traj.error is None and traj.score < 1.0:
        traj.error = f"ended at score {traj.score:.2f}"
    return traj
