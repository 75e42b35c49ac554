"""A TextWorldExpress game behind the symbolic-module interface, yielding one step record a step."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bct.errors import UserError
from bct.games import ALL_MODULES, Game, check_fold
from bct.modules import MODULES, Module, make_module

logging.getLogger("py4j").setLevel(logging.CRITICAL)  # its gateway start/stop chatter is not for users

# py4j reads the gateway's port from the JVM's first line of output; a JVM that first warns there (its
# perf-data file locked by another process, seen here: "[warning][perf,memops] Cannot use file
# /tmp/hsperfdata_root/...") fails to start. Without perf data there is no such file and no such warning.
if "-XX:-UsePerfData" not in os.environ.get("JAVA_TOOL_OPTIONS", ""):
    os.environ["JAVA_TOOL_OPTIONS"] = (os.environ.get("JAVA_TOOL_OPTIONS", "") + " -XX:-UsePerfData").strip()

JAVA_HELP = (
    "TextWorldExpress needs Java 11 or newer on PATH; install it with "
    "'sudo apt-get install -y openjdk-17-jre-headless' (Debian/Ubuntu) or 'brew install openjdk@17' (macOS)."
)


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


def modules_of(game: Game, modules: bool | str) -> list[str]:
    """The modules `game` is played with: its own (modules=True), then with modules=all every module of
    ALL_MODULES that speaks no verb of one already there (mapreader-directions keeps its own navigator),
    and the working memory where `game.memory`."""
    names = [game.module] if modules and game.module else []
    if modules == "all":
        for name in ALL_MODULES:
            if not any(set(MODULES[name].verbs) & set(MODULES[n].verbs) for n in names):
                names.append(name)
    return names + ([game.memory_module] if game.memory else [])


def check_java() -> None:
    java = shutil.which("java")
    if java is None:
        raise UserError(f"Java was not found. {JAVA_HELP}")
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if m:
        major = int(m.group(1)) if m.group(1) != "1" else int(m.group(2) or 0)
        if major < 11:
            raise UserError(f"Java {major} was found. {JAVA_HELP}")


class ModuleStack:
    """Symbolic modules in front of one game, and the order in which they hear of it: the task at reset,
    every game step's observation, look, inventory and score, every action taken, and each module's
    answer (heard by the others). `ModularEnv` drives it from the game; an agent that keeps modules of
    its own (agent=planner) drives it from what it observes, so both hear the same things."""

    def __init__(self, modules: Sequence[str | Module] = ()):
        self.modules = [make_module(m) if isinstance(m, str) else m for m in modules]

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
    """One game of one registry entry, with zero or more symbolic modules in front of it.

    An action a module owns goes to the module, whose answer becomes the observation (look and
    inventory keep the game's values); anything else goes to the game. Every module sees every
    observation, look and inventory the game produces.
    """

    def __init__(self, game: Game, modules: Sequence[str | Module] = (), step_limit: int = 1000):
        from textworld_express import TextWorldExpressEnv

        check_java()
        self.game = game
        self.stack = ModuleStack(modules)
        self.modules = self.stack.modules
        self.twx = TextWorldExpressEnv(envStepLimit=step_limit)
        self.twx.load(game.twx_name, game.params)
        self.last: Step | None = None
        self.answered_by: str | None = None  # the module that answered the latest action (None: the game)

    @classmethod
    def of(cls, game: Game, modules: bool | str) -> ModularEnv:
        """`game` played with its own module (modules=True) or without, and with the working memory where
        the game says so (`game.memory`)."""
        return cls(game, modules_of(game, modules))

    def module(self, name: str) -> Module:
        return self.stack.module(name)

    def reset(self, seed: int, fold: str = "train", gold: bool = True) -> Step:
        check_fold(fold)
        try:
            obs, infos = self.twx.reset(seed=seed, gameFold=fold, generateGoldPath=gold)
        except Exception as e:  # TWX refuses some parameter pairs per game (15 rooms cannot lie 8 apart)
            try:
                text = str(e)
            except Exception:  # py4j could not read the Java exception back
                text = ""
            # its generator's own refusal ("ERROR: ...") or a crash while making the game (50-room maps)
            found = re.search(r"ERROR: ([^\n]+)", text) or re.search(r"generateNewGameJSON\.\s*:\s*([^\n]+)", text)
            if not found:
                raise
            raise UserError(
                f"TextWorldExpress cannot make {self.game.name} ({self.game.params or 'defaults'}), "
                f"{fold} seed {seed}: {found.group(1).strip()}; choose other game.params"
            ) from None
        self.stack.start(infos["taskDescription"])
        return self._from_game(obs, infos, action=None)

    def gold_actions(self) -> list[str]:
        return list(self.twx.getGoldActionSequence())

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
        obs, _, _, infos = self.twx.step(action)
        return self._from_game(obs, infos, action)

    def _from_game(self, obs: str, infos: dict, action: str | None) -> Step:
        self.stack.saw(obs, infos["look"], infos["inventory"], float(infos["score"]))
        env_actions = list(infos["validActions"])
        self._n_env = len(env_actions)
        self.last = Step(
            task=infos["taskDescription"],
            observation=obs,
            look=infos["look"],
            inventory=infos["inventory"],
            valid_actions=self._valid(env_actions),
            score=float(infos["score"]),
            done=bool(infos["tasksuccess"] or infos["taskfailure"] or infos["score"] >= 1.0),
            success=bool(infos["tasksuccess"] or infos["score"] >= 1.0),
            action=action,
            from_module=False,
        )
        return self.last

    def _valid(self, env_actions: list[str]) -> list[str]:
        return env_actions + self.stack.commands()

    def kill(self) -> None:
        """End a JVM that died or hangs, without waiting for it to answer."""
        try:
            self.twx._gateway.java_process.kill()
        except Exception:
            pass
        try:
            self.twx._gateway.shutdown()
        except Exception:
            pass

    def close(self) -> None:
        self.twx.close()
        try:  # let the JVM exit, so that TWX's own clean-up at garbage collection finds nothing to do
            self.twx._gateway.java_process.wait(timeout=10)
        except Exception:
            pass

    def __enter__(self) -> ModularEnv:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
