"""The rollout engine: many episodes advance together; each step is one batched agent call.

Every episode slot owns a TWX environment (one JVM each, started in parallel and reused for the
next seed): measured here, a JVM costs ~80 MB and ~0.3 s to start, while restoring an episode
into a shared env by replaying its actions costs ~1 ms per action at every step.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, TimeoutError
from dataclasses import dataclass, field, fields, replace

from bct.agents.base import Agent, Observation
from bct.core.errors import UserError
from bct.core.game import Game
from bct.core.threads import available_cores
from bct.data.prompt import prompt_at
from bct.modules.stack import ModularEnv, Step
from bct.worlds.registry import modules_of, open_game, world_of

log = logging.getLogger(__name__)


@dataclass
class EpisodeResult:
    seed: int
    score: float  # final normalised score, negatives clipped to 0
    steps: int  # actions taken, module calls included
    env_steps: int
    module_steps: int
    success: bool
    stop: str  # done | step_limit | repeats | failed
    history: list[dict] = field(default_factory=list)
    error: str | None = None  # why a failed episode could not go on
    restarts: int = 0  # TALES's loop: the game restarted after a loss, inside the same budget
    final_score: float | None = None  # TALES's loop: the score at the last step (`score` is the best reached)
    won: list[Step] = field(default_factory=list, repr=False)  # a win: its life's steps, reset first (else none)

    def summary(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("history", "won")}


class Episode:
    """One variation played to its end. bct's loop (`tales=False`) ends it at a win, a loss, the step limit or a
    repeated action. TALES's (`tales=True`, its benchmark.py's rules): every game command counts against the
    step limit, module calls do not (they pass no time in the game; twice the limit in all still stops a loop of
    them); a loss restarts the game inside the same budget, with the prompt and the modules begun afresh (they
    follow the game) while the agent keeps what it remembers; only a win ends it early; the score is the best
    reached at any step."""

    def __init__(self, env: ModularEnv, game: Game, fold: str, seed: int, modules: bool, tales: bool = False):
        self.env, self.game, self.fold, self.seed, self.modules, self.tales = env, game, fold, seed, modules, tales
        self.steps: list[Step] = []  # begin() resets the game
        self.actions: list[str] = []
        self.history: list[dict] = []
        self.stop: str | None = None
        self.start = 0  # where the prompt's record begins: the latest reset (TALES's loop restarts after a loss)
        self.best = 0.0
        self.restarts = 0

    def begin(self) -> None:
        self.steps.append(self.env.reset(self.seed, self.fold, gold=False))

    def observation(self) -> Observation:
        return Observation(
            self.game,
            self.fold,
            self.seed,
            self.modules,
            self.steps[-1],
            prompt_at(self.steps[self.start :], len(self.steps) - 1 - self.start),
            self.actions[self.start :],
        )

    def apply(self, ob: Observation, decision, step_limit: int, repeat_limit: int | None) -> None:
        step = self.env.step(decision.action)
        self.steps.append(step)
        self.actions.append(decision.action)
        self.history.append(
            {
                "step": len(self.history),
                "prompt": ob.prompt,
                "candidates": decision.candidates,
                "action": decision.action,
                "observation": step.observation,
                "score": step.score,
                "from_module": step.from_module,
                **({"module": self.env.answered_by} if step.from_module else {}),
                **decision.info,
            }
        )
        if self.tales:
            return self._tales_rules(step, step_limit)
        counted, total_limit = self.actions, step_limit
        if world_of(self.game).limits_count_game_actions:  # module calls pass no time (ScienceWorld's memory)
            counted = [a for a, s in zip(self.actions, self.steps[1:]) if not s.from_module]
            total_limit = 2 * step_limit  # but an agent asking its modules in a loop still stops
        if step.done:
            self.stop = "done"
        elif len(counted) >= step_limit or len(self.actions) >= total_limit:
            self.stop = "step_limit"
        elif repeat_limit and any(
            len(acts) >= repeat_limit and len(set(acts[-repeat_limit:])) == 1 for acts in (counted, self.actions)
        ):
            self.stop = "repeats"

    def _tales_rules(self, step: Step, step_limit: int) -> None:
        self.best = max(self.best, step.score)
        game_commands = sum(not h["from_module"] for h in self.history)
        if step.done and step.success:
            self.stop = "done"
        elif game_commands >= step_limit or len(self.history) >= 2 * step_limit:
            self.stop = "step_limit"
        elif step.done:  # a loss: the same variation again, inside the same budget
            self.history[-1]["restarted"] = True
            self.restarts += 1
            self.steps.append(self.env.reset(self.seed, self.fold, gold=False))
            self.actions.append("")  # keeps actions[k] beside steps[k + 1]; the prompt starts at the reset
            self.start = len(self.actions)

    def result(self) -> EpisodeResult:
        played = [s for s in self.steps[1:] if s.action is not None]  # a restart's reset took no action
        module_steps = sum(s.from_module for s in played)
        last = self.steps[-1] if self.steps else None  # none: it failed at reset
        final = max(0.0, last.score) if last else 0.0
        return EpisodeResult(
            self.seed,
            max(self.best, final) if self.tales else final,
            len(played),
            len(played) - module_steps,
            module_steps,
            bool(last and last.success),
            self.stop or "",
            self.history,
            restarts=self.restarts,
            final_score=final if self.tales else None,
            # the life that won, from its reset: what a gold path of the same variation would be (bct.data.wins)
            won=self.steps[self.start :] if last and last.success else [],
        )


def env_slots(agent: Agent, batch_size: int, todo: int) -> int:
    """How many games to play at once: `batch_size` (at most the episodes to play) for an agent that
    batches its decisions across episodes (a model); for one that decides per episode (random, oracle,
    planner) no more than the cores this process may use, less the one the interpreter drives them from.
    More games only start and warm up more JVMs, which then share the cores: measured on an idle 2-core
    machine (bench/scaling.py), the random agent on 96 twc games took 1.1 s one at a time, 1.5 s two at a
    time and 7.3 s sixteen at a time. Never more than the memory now available holds at the agent's world's
    size of a JVM (`World.jvm_gb`): 20 ScienceWorld JVMs at their default heap ran a 23 GB machine out of
    memory, and the kernel killed games mid-episode."""
    import psutil

    n = min(batch_size, todo)
    if not agent.batched:
        n = min(n, available_cores()[0] - 1)
    if agent.game is not None:
        held = int(psutil.virtual_memory().available / 2**30 / world_of(agent.game).jvm_gb)
        if held < n:
            log.warning("%d games at once, not %d: the memory available holds that many of its JVMs", max(1, held), n)
            n = held
    return max(1, n)


def start_envs(
    game: Game, modules: bool, n: int, list_actions: bool = True, tales_fold: str | None = None
) -> list[ModularEnv]:
    """`n` environments (one JVM each), started in parallel; `list_actions=False` where the agent reads no
    valid-action list; `tales_fold`: tale-suite's environments of that fold (TALES's loop), not bct's."""
    with ThreadPoolExecutor(max(1, n)) as pool:
        return list(
            pool.map(lambda _: open_game(game, modules, list_actions=list_actions, tales_fold=tales_fold), range(n))
        )


@dataclass
class EpisodeRequest:
    """One episode to play: a variation of a game, its limits, and who hears of its end."""

    game: Game
    seed: int
    step_limit: int = 50
    repeat_limit: int | None = 4
    on_done: Callable[[EpisodeResult], None] | None = None
    tales: bool = False  # played by TALES's rules (`Episode`) in tale-suite's environment


def rollout(
    agent: Agent,
    game: Game,
    fold: str,
    seeds: Iterable[int],
    modules: bool,
    batch_size: int = 32,
    step_limit: int = 50,
    repeat_limit: int | None = 4,
    on_done: Callable[[EpisodeResult], None] | None = None,
    envs: list[ModularEnv] | None = None,
    env_timeout: float = 120.0,
) -> list[EpisodeResult]:
    """Play every seed of `game`; `on_done` is called with each finished episode as soon as it ends (`play`)."""
    jobs = [EpisodeRequest(game, seed, step_limit, repeat_limit, on_done) for seed in seeds]
    return play(agent, jobs, fold, modules, batch_size, envs, env_timeout)


class Slots:
    """The environments a `play` call plays in (`envs`; `free`: those no episode holds): a free one for a game is
    one playing it, else one that can switch to it (ScienceWorld's), else, where the call owns them (`own`: it
    may close them), a new one in place of a free one of a game no longer needed."""

    def __init__(self, envs: list[ModularEnv], own: bool, modules: bool, agent: Agent, tales_fold: str | None = None):
        self.envs, self.free, self.own, self.modules, self.agent = envs, list(envs), own, modules, agent
        self.tales_fold = tales_fold

    def renew(self, old: ModularEnv, game: Game) -> ModularEnv:
        """A fresh JVM for `game` in `old`'s slot (`old` is left to the caller: closed, or killed if it hangs)."""
        fresh = open_game(game, self.modules, list_actions=self.agent.reads_valid_actions, tales_fold=self.tales_fold)
        self.envs[self.envs.index(old)] = fresh
        return fresh

    def take(self, game: Game) -> ModularEnv:
        env = next((e for e in self.free if e.game == game), None)
        env = env or next((e for e in self.free if e.switch(game, modules_of(game, self.modules))), None)
        if env is None:
            env = self.free[0]
            if not self.own:
                raise ValueError(f"the environments given play {env.game.name}, not {game.name}")
            env.close()
            env = self.free[0] = self.renew(env, game)
        self.free.remove(env)
        return env

    def close(self) -> None:
        if self.own:
            for env in self.envs:
                env.close()


def play(
    agent: Agent,
    jobs: Iterable[EpisodeRequest],
    fold: str,
    modules: bool,
    batch_size: int = 32,
    envs: list[ModularEnv] | None = None,
    env_timeout: float = 120.0,
    own: bool | None = None,
) -> list[EpisodeResult]:
    """Play every job, of one game or of several (an evaluation of a checkpoint trained on many: the batch stays
    full to the last episode of the last game, and the games' JVMs are started once); each job's `on_done` is
    called with its episode as soon as it ends.

    Episodes are isolated: one whose JVM dies or does not answer within `env_timeout` seconds gets a
    fresh JVM and is played again once; one the agent cannot go on with (a refused request) ends as
    `failed` with its reason; the others go on either way.

    `envs`: environments to play in (started here where None); `own`: whether this call may close them, and
    replace one with a JVM of another game (by default where it started them).
    """
    queue = deque(jobs)
    if not queue:
        return []
    tales_fold = fold if queue[0].tales else None
    if envs is None:
        slots = env_slots(agent, batch_size, len(queue))
        started = start_envs(queue[0].game, modules, slots, agent.reads_valid_actions, tales_fold)
        places = Slots(started, True, modules, agent, tales_fold)
    else:
        places = Slots(envs, bool(own), modules, agent, tales_fold)
    envs, free = places.envs, places.free
    active, results, retried = [], [], set()

    def finish(job: EpisodeRequest, result: EpisodeResult) -> None:
        results.append(result)
        if job.on_done:
            job.on_done(result)

    def fail(ep: Episode, job: EpisodeRequest, reason: str, retry: bool, broken_env: bool) -> None:
        active.remove(ep)
        if broken_env:  # a fresh JVM in its place
            fresh = places.renew(ep.env, ep.game)
            ep.env.kill()
            ep.env = fresh
        free.append(ep.env)
        if retry and (ep.game.name, ep.seed) not in retried:
            retried.add((ep.game.name, ep.seed))
            log.warning("%s seed %d: %s; playing it again", ep.game.name, ep.seed, reason)
            queue.appendleft(job)
        else:
            log.warning("%s seed %d failed: %s", ep.game.name, ep.seed, reason)
            finish(job, replace(ep.result(), stop="failed", error=reason, success=False, score=0.0, won=[]))

    playing: dict[int, EpisodeRequest] = {}  # id(episode) -> its job
    try:
        with ThreadPoolExecutor(len(envs)) as pool:
            while queue or active:
                while queue and free:
                    job = queue.popleft()
                    agent.start(job.game, fold, job.seed, modules)
                    ep = Episode(places.take(job.game), job.game, fold, job.seed, modules, job.tales)
                    active.append(ep)
                    playing[id(ep)] = job
                    try:
                        ep.begin()
                    except UserError:
                        raise  # a game its world refuses to make: not this episode's fault
                    except Exception as e:  # the JVM failed at reset: a fresh one, and this seed again once
                        fail(ep, job, f"{world_of(job.game).name} failed at reset: {type(e).__name__}", True, True)
                obs = [ep.observation() for ep in active]
                decisions = agent.act(obs)
                stepping = []
                for ep, ob, d in list(zip(active, obs, decisions)):
                    job = playing[id(ep)]
                    if d.error:
                        fail(ep, job, d.error, retry=False, broken_env=False)
                    else:
                        stepping.append((ep, pool.submit(ep.apply, ob, d, job.step_limit, job.repeat_limit)))
                for ep, future in stepping:
                    try:
                        future.result(timeout=env_timeout)
                    except TimeoutError:
                        why = f"{world_of(ep.game).name} did not answer within {env_timeout:.0f} s"
                        fail(ep, playing[id(ep)], why, True, True)
                    except Exception as e:  # the JVM died (Py4J) or the game broke: this episode only
                        why = f"{world_of(ep.game).name} failed: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
                        fail(ep, playing[id(ep)], why, True, True)
                for ep in [ep for ep in active if ep.stop]:
                    active.remove(ep)
                    free.append(ep.env)
                    finish(playing.pop(id(ep)), ep.result())
    finally:
        places.close()
    return results
