"""Shared fixtures: TWX environments, composed configs, the command line, and bct's one-line errors."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bct.config.settings import EvaluateSettings, GenerateSettings, TrainSettings
from bct.worlds.play import ModularEnv
from bct.worlds.registry import get_game, open_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def envs():
    """One TWX environment (one JVM) per (game, with modules), shared by the whole test session."""
    cache = {}

    def get(game, modules: bool = True) -> ModularEnv:  # a game's name, or a Game (a variant)
        game = get_game(game) if isinstance(game, str) else game
        key = (game.name, modules)
        if key not in cache:
            cache[key] = open_game(game, modules)
        return cache[key]

    yield get
    for env in cache.values():
        env.close()


SETTINGS = {"train": TrainSettings, "evaluate": EvaluateSettings, "generate": GenerateSettings}


@pytest.fixture(scope="session")
def compose():
    """compose("train" | "evaluate" | "generate", *overrides): a command's settings as its command line makes them."""

    def make(name: str, *overrides: str):
        return SETTINGS[name].from_overrides(list(overrides))

    return make


@pytest.fixture
def train_config(compose, tmp_path):
    """A training config whose data and checkpoints go under the test's tmp_path."""
    return lambda *overrides: compose(
        "train", f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}", "progress=false", *overrides
    )


@pytest.fixture
def eval_config(compose, tmp_path):
    """An evaluation config whose results go under the test's tmp_path."""
    return lambda *overrides: compose("evaluate", f"results_dir={tmp_path / 'results'}", "progress=false", *overrides)


@pytest.fixture(scope="session")
def cli():
    """cli("bct.train", *args, env={...}): run a bct command as a user would, from the repository root."""

    def run(module: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", module, *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            timeout=600,
        )

    return run


@pytest.fixture(scope="session")
def one_line():
    """one_line(result, says): the command failed with exit code 2 and one line of error that says so."""

    def check(r: subprocess.CompletedProcess, says: str) -> str:
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and says in lines[0], (r.returncode, r.stderr[-2000:])
        return lines[0]

    return check


class FakeState:
    """accelerate's PartialState as one of `n` processes, recording main_process_first's order."""

    def __init__(self, main: bool, n: int = 2):
        self.is_main_process, self.num_processes, self.order = main, n, []

    def main_process_first(self):
        state = self

        class Ctx:
            def __enter__(self):
                state.order.append("enter")

            def __exit__(self, *exc):
                state.order.append("exit")

        return Ctx()


@pytest.fixture
def fake_state():
    return FakeState
