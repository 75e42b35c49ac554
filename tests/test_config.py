"""Configs: one-line errors for bad values, the paper presets, one source of games, configs in the package."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch
from omegaconf import OmegaConf

import bct.seq2seq.training as tr
from bct.config.settings import CONF
from bct.core.errors import UserError
from bct.worlds.registry import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game, epochs", [("arithmetic", 4), ("mapreader", 4), ("sorting", 12), ("twc", 14)])
def test_paper_experiments(game, epochs, compose):
    cfg = compose("train", f"+experiment=paper-{game}")
    assert (cfg.game.name, cfg.epochs, cfg.model.name, cfg.batch_size, cfg.entities, cfg.final_example) == (
        game,
        epochs,
        "t5-base",
        4,
        "text",
        True,
    )


@pytest.mark.parametrize(
    "game, modules, epochs, distinct",
    [("twc", True, 30, True), ("mapreader", True, 2, True), ("twc-hard", True, 2, True), ("sorting", False, 4, False)],
)
def test_the_cpu_preset_trains_each_game_as_long_as_it_needs_and_the_baseline_no_less(
    game, modules, epochs, distinct, compose
):
    cfg = compose("train", f"+game={game}", "model=t5-cpu-scratch", f"modules={modules}")
    assert (cfg.epochs, cfg.distinct) == (epochs, distinct)
    assert compose("train", f"+game={game}", "model=t5-cpu-scratch", "epochs=7").epochs == 7  # the command line wins


# The CPU preset's tables as its yaml held them before they moved to TWX's games (bct/worlds/twx/games.py): every
# game's resolved training games and epochs must stay what they were.
BEFORE_NUM_GAMES = {"coin": 500, "cookingworld": 300, "simonsays-memory-tales": 100, "twc-medium": 300, "twc-hard": 300}
BEFORE_EPOCHS = {
    **{"arithmetic": 2, "mapreader": 2, "sorting": 1, "twc": 30, "twc-medium": 2, "twc-hard": 2},
    **{"coin": 2, "cookingworld": 1, "cookingworld-tales": 1},
}


@pytest.mark.parametrize("modules", [True, False])
def test_the_cpu_presets_defaults_by_game_come_from_twx_as_they_were(modules, compose):
    from bct.config.runs import mixture
    from bct.worlds.registry import ALIASES, WORLDS

    twx = [*WORLDS["twx"].games, *(a for a, name in ALIASES.items() if name in WORLDS["twx"].games)]
    for name in twx:  # an alias reads its game's entry
        game = get_game(name).name
        cfg = compose("train", f"+game={name}", "model=t5-cpu-scratch", f"modules={modules}")
        expected = (BEFORE_NUM_GAMES.get(game, 1000), BEFORE_EPOCHS.get(game, 4) if modules else 4)
        assert (cfg.num_games, cfg.epochs) == expected, name
    several = compose("train", "games=all", "model=t5-cpu-scratch", f"modules={modules}")
    assert (several.num_games, several.epochs) == (1000, 4)
    shares = mixture(several, several.trained())  # a run of several games: each its own, as alone
    assert {g: s["num_games"] for g, s in shares.items()} == {g: BEFORE_NUM_GAMES.get(g, 1000) for g in shares}
    raw = OmegaConf.to_container(OmegaConf.load(CONF / "model" / "t5-cpu-scratch.yaml"))  # unresolved
    assert not any(isinstance(v, dict) and set(v) & set(GAMES) for v in raw.values())  # the preset names no game


@pytest.mark.slow
def test_configs_ship_inside_the_package(tmp_path):

    src = tmp_path / "src"  # a copy, so that the build leaves nothing in the work tree
    shutil.copytree(ROOT / "bct", src / "bct", ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / f, src / f)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    names = zipfile.ZipFile(next(tmp_path.glob("bct-*.whl"))).namelist()
    for conf in [
        "bct/conf/train.yaml",
        "bct/conf/evaluate.yaml",
        "bct/conf/generate.yaml",
        "bct/conf/model/t5-base.yaml",
        "bct/conf/hydra/launcher/slurm.yaml",
        "bct/conf/experiment/paper-twc.yaml",
        "bct/conf/agent/llm.yaml",
    ]:
        assert conf in names, conf
    assert CONF == Path(tr.__file__).parents[1] / "conf"


def test_game_presets_have_one_source(compose):
    from bct.config.settings import choices
    from bct.worlds.registry import ALIASES

    assert choices("game") == sorted([*GAMES, *ALIASES]) and not (CONF / "game").exists()
    assert compose("train", "+game=twc-easy").game.name == "twc"  # an alias names its game


def test_auto_threads_follow_the_cores_this_process_may_use(monkeypatch):
    import bct.core.threads as th

    monkeypatch.setattr(th.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("SLURM_CPUS_PER_TASK", raising=False)
    monkeypatch.setattr(th, "busy_cores", lambda: 0.2)
    assert th.auto_threads()[0] == 4
    monkeypatch.setenv("SLURM_CPUS_PER_TASK", "3")
    assert th.auto_threads() == (3, "SLURM_CPUS_PER_TASK")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    assert th.auto_threads()[0] == 2
    monkeypatch.setattr(th, "busy_cores", lambda: 1.9)  # another job computes on one of them: one thread
    assert th.auto_threads()[0] == 1
    assert th.set_threads(3) == 3 and torch.get_num_threads() == 3
    with pytest.raises(UserError, match="positive number of CPU threads"):
        th.set_threads(0)
    torch.set_num_threads(1)


@pytest.mark.parametrize(
    "module, args, says",
    [
        ("bct.generate", ["num_games=abc"], "num_games=abc: must be a whole number"),
        ("bct.generate", ["num_games=2.5"], "num_games=2.5: must be a whole number"),
        ("bct.train", ["+game=twc", "modules=maybe"], "modules=maybe: choose true or false or all"),
        ("bct.train", ["+game=twc", "epochs=0"], "epochs=0: must be at least 1"),
        ("bct.train", ["+game=twc", "epochs=-1"], "epochs=-1: must be at least 1"),
        ("bct.train", ["+game=twc", "num_games=0"], "num_games=0: must be at least 1"),
        ("bct.train", ["+game=twc", "batch_size=0"], "batch_size=0: must be at least 1"),
        ("bct.train", ["+game=twc", "eval.step_limit=0"], "eval.step_limit=0: must be at least 1"),
        ("bct.train", ["+game=twc", "entities=words"], "entities=words: choose one of text, placeholders"),
        ("bct.train", ["+game=twc", "+no_such_key=1"], "unknown setting 'no_such_key'"),
        ("bct.train", ["games=[twc,coin]", "mix.twc.bogus=2"], "unknown setting 'mix.twc.bogus'"),
        ("bct.train", ["+game=chess"], "error: unknown game 'chess'; valid choices: arithmetic"),
        (
            "bct.generate",
            ["num_gmes=3"],
            "num_gmes: python -m bct.generate has no such setting (did you mean num_games?)",
        ),
        ("bct.evaluate", ["checkpoint=x", "epochs=3"], "epochs: python -m bct.evaluate has no such setting; it has"),
        ("bct.train", ["+game=twc", "model=gpt-9"], "error: unknown model preset 'gpt-9'; valid choices: t5-base"),
        ("bct.train", ["epochs=2"], "error: choose a game: python -m bct.train +game=sorting epochs=8"),
        ("bct.evaluate", ["agent=random", "+game=twc", "batch_size=-3"], "batch_size=-3: must be at least 1"),
        ("bct.evaluate", ["agent=random", "+game=twc", "step_limit=0"], "step_limit=0: must be at least 1"),
        ("bct.evaluate", ["agent=random", "+game=twc", "repeat_limit=0"], "repeat_limit=0: must be at least 2"),
        ("bct.evaluate", ["agent=random", "+game=twc", "fold=valid"], "fold=valid: choose one of train, dev, test"),
        (
            "bct.evaluate",
            ["agent=random", "+game=twc", "num_variations=5000"],
            "num_variations=5000: must be at most 1000 (a fold has 1000 games)",
        ),
        ("bct.evaluate", ["checkpoint=/nonexistent/run"], "checkpoint /nonexistent/run does not exist"),
        ("bct.evaluate", ["checkpoint=conf"], "is not a bct checkpoint"),
        ("bct.evaluate", ["agent=random"], "agent=random needs a game"),
        ("bct.evaluate", ["agent=random", "+game=chess"], "unknown game 'chess'"),
        ("bct.evaluate", ["agent=oracle", "+game=twc", "+agent.num_beams=4"], "agent.num_beams does not apply"),
        ("bct.evaluate", ["agent=random", "+game=twc", "agent.seed=abc"], "agent.seed=abc: must be a whole number"),
        ("bct.evaluate", ["agent=random", "+game=twc", "checkpoint=conf"], "checkpoint does not apply to agent=random"),
    ],
)
def test_bad_values_are_one_line(tmp_path, cli_here, one_line, module, args, says):
    where = {
        "bct.generate": [f"out_dir={tmp_path}"],
        "bct.train": [f"data_dir={tmp_path}", f"checkpoint_dir={tmp_path}"],
        "bct.evaluate": [f"results_dir={tmp_path}"],
    }[module]
    run = [*args, *where, "progress=false", f"hydra.run.dir={tmp_path / 'hydra'}"]
    one_line(cli_here(module, *run, env={"HF_HUB_OFFLINE": "1"}), says)


@pytest.mark.slow
@pytest.mark.parametrize(
    "module, args, says",
    [
        ("bct.generate", ["num_games=abc"], "num_games=abc: must be a whole number"),
        ("bct.train", ["+game=twc", "epochs=0"], "epochs=0: must be at least 1"),
        ("bct.evaluate", ["agent=random", "+game=twc", "step_limit=0"], "step_limit=0: must be at least 1"),
    ],
)
def test_a_bad_value_is_one_line_from_a_fresh_interpreter(tmp_path, cli, one_line, module, args, says):
    """As above, in the process a user starts: nothing printed on the way (a warning, a log line) adds a line."""
    one_line(cli(module, *args, f"hydra.run.dir={tmp_path / 'hydra'}", "progress=false"), says)


def test_the_evaluator_settings_have_one_source(compose):
    """bct.evaluate's settings and bct.train's eval.* come from one file, conf/eval/default.yaml."""
    evaluate, train = compose("evaluate"), compose("train", "+game=twc")
    shared = OmegaConf.load(CONF / "eval" / "default.yaml")
    assert {k: getattr(evaluate, k) for k in shared} == dict(shared) == train.eval.model_dump(exclude={"agent"})
    assert evaluate.agent == train.eval.agent == dict(OmegaConf.load(CONF / "agent" / "t5.yaml"))
    changed = compose("train", "+game=twc", "eval.step_limit=7", "eval.agent.decoding=rank").eval
    assert (changed.step_limit, changed.agent["decoding"]) == (7, "rank")


@pytest.mark.parametrize(
    "args, says",
    [
        (["+trainer.hub_token=hf_PLANTED"], "secrets from the environment only"),
        (["+agent.api_key=sk-PLANTED"], "secrets from the environment only"),
        (["agent.base_url=https://me:sk-PLANTED@example.com/v1"], "the URL carries credentials"),
        (["agent.api_key_env=sk-PLANTED"], "must name an environment variable"),
    ],
)
@pytest.mark.slow
def test_secrets_on_the_command_line_are_refused_before_anything_is_saved(tmp_path, cli, one_line, args, says):
    module = "bct.train" if "trainer" in args[0] else "bct.evaluate"
    game = ["+game=twc"] if module == "bct.train" else ["agent=llm", "+game=twc"]
    r = cli(
        module,
        *game,
        *args,
        f"hydra.run.dir={tmp_path / 'out'}",
        f"checkpoint_dir={tmp_path / 'ck'}" if module == "bct.train" else f"results_dir={tmp_path / 'r'}",
    )
    line = one_line(r, says)
    assert "PLANTED" not in line
    saved = [p for p in tmp_path.rglob("*") if p.is_file() and "PLANTED" in p.read_text(errors="replace")]
    assert saved == []


@pytest.mark.parametrize(
    "command, overrides, says",
    [
        ("train", ["+game=twc", "modules=maybe"], "modules=maybe: choose true or false or all"),
        ("train", ["+game=twc", "epochs=0"], "epochs=0: must be at least 1"),
        ("train", ["+game=twc", "eval.step_limit=0"], "eval.step_limit=0: must be at least 1"),
        ("train", ["+game=twc", "entities=words"], "entities=words: choose one of text, placeholders"),
        ("train", ["+game=twc", "+no_such_key=1"], "unknown setting 'no_such_key'"),
        ("train", ["+game=twc", "run_name=../up"], "run_name=../up: must be a plain folder name"),
        ("evaluate", ["num_variations=5000"], "num_variations=5000: must be at most 1000 (a fold has 1000 games)"),
        ("evaluate", ["fold=valid"], "fold=valid: choose one of train, dev, test"),
        ("generate", ["num_games=2.5"], "num_games=2.5: must be a whole number"),
        ("evaluate", ["agent=gpt"], "unknown agent 'gpt'"),
        # rules across settings: their own sentence, not a traceback
        ("evaluate", ["protocol=tales", "draw=2"], "protocol=tales plays TALES's seeds 1..num_variations"),
        ("evaluate", ["fold=dev", "keep_wins=true"], "keep_wins=true keeps won episodes as training data"),
    ],
)
def test_settings_name_the_bad_value_in_one_line(command, overrides, says, compose):
    with pytest.raises(UserError) as e:
        compose(command, *overrides)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_settings_from_python_keywords_equal_the_command_lines(compose):
    from bct.config.settings import EvaluateSettings, TrainSettings

    made = TrainSettings(game="twc", model="t5-cpu-scratch", epochs=3, eval={"step_limit": 20})
    said = compose("train", "+game=twc", "model=t5-cpu-scratch", "epochs=3", "eval.step_limit=20")
    assert made == said and made.epochs == 3 and made.model.name == "t5-cpu-scratch"
    assert made.entities == "placeholders" and made.eval.step_limit == 20 and made.eval.num_variations == 100
    variant = EvaluateSettings(game={"name": "mapreader", "params": {"numLocations": 30}}, agent={"decoding": "rank"})
    assert variant.game.build().name == "mapreader-numLocations30"
    assert variant.agent["name"] == "t5" and variant.agent["decoding"] == "rank" and variant.agent["num_beams"] == 16
    assert EvaluateSettings(agent="oracle").agent == {"_target_": "bct.agents.baselines.OracleAgent", "name": "oracle"}
    with pytest.raises(ValueError, match="num_variations"):
        EvaluateSettings(num_variations=0)
    with pytest.raises(UserError, match="unknown agent 'gpt'"):
        EvaluateSettings(agent="gpt")


def test_a_setting_that_does_not_apply_to_the_agent_is_named(compose):
    from bct.agents import OracleAgent, RandomAgent, make_agent

    twc = get_game("twc")
    with pytest.raises(UserError, match=r"agent.num_beams does not apply to agent=oracle; it takes no settings"):
        make_agent({**compose("evaluate", "agent=oracle").agent, "num_beams": 4}, twc)
    with pytest.raises(UserError, match=r"agent.decoding does not apply to agent=random; it takes agent.seed"):
        make_agent({**compose("evaluate", "agent=random").agent, "decoding": "rank"}, twc)
    with pytest.raises(UserError, match="checkpoint does not apply to agent=oracle"):
        make_agent(compose("evaluate", "agent=oracle").agent, twc, checkpoint="checkpoints/x")
    with pytest.raises(UserError, match=r"agent=oracle needs a game: .* \+game=twc"):
        make_agent(compose("evaluate", "agent=oracle").agent)
    random = make_agent(compose("evaluate", "agent=random", "agent.seed=5").agent, twc, modules=False)
    assert isinstance(random, RandomAgent) and (random.seed, random.game, random.modules) == (5, twc, False)
    assert isinstance(make_agent(compose("evaluate", "agent=oracle").agent, twc), OracleAgent)


def test_generate_takes_an_experiment_as_bct_train_reads_it(compose):
    """`python -m bct.generate +experiment=scienceworld`: the recipe's games, modules, memory, num_games and mix (from
    the experiment written for bct.train, whose training keys generate leaves out), and its model preset."""
    cfg = compose("generate", "+experiment=scienceworld")
    recipe = OmegaConf.load(CONF / "experiment" / "scienceworld.yaml")
    assert (cfg.games, cfg.modules, cfg.memory, cfg.num_games) == (["scienceworld-search"], True, False, 20)
    assert {g: e.model_dump(exclude_none=True) for g, e in cfg.mix.items()} == OmegaConf.to_container(recipe.mix)
    assert cfg.model.name == "t5-cpu-scratch" and cfg.folds == ["train", "dev", "test"]
    plain = compose("generate")  # without one, as before: t5-base's 100 games
    assert (plain.num_games, plain.modules, plain.model.name) == (100, [True, False], "t5-base")


@pytest.mark.parametrize(
    "overrides, same",
    [
        (["+experiment=scienceworld"], True),
        (["+experiment=scienceworld", "games=[scienceworld-boil,scienceworld-find-animal]", "~mix", "+mix={}"], True),
        # one game: the run's num_games, as train reads it
        (["+experiment=scienceworld", "games=[scienceworld-find-animal]", "~mix", "+mix={}", "num_games=7"], True),
        (["+experiment=generalist"], True),  # the CPU preset's games by game, modules=all with the memory
        (["+experiment=textworld", "+game=textworld-coin"], True),
        (["+experiment=textworld-cooking"], True),  # ten levels, the one-room ones from more games (its mix)
        (["+experiment=paper-twc"], False),  # generate's modules=[true,false]: the baseline's data too
    ],
)
def test_generate_plans_the_files_bct_train_reads_for_an_experiment(overrides, same, compose, tmp_path, monkeypatch):
    """No game played: the files (and games in each) generate writes for an experiment are those bct.train's data
    loader reads for it, each game's file generated where missing (bct.seq2seq.trainset.game_rows)."""
    import bct.data.generation as generation
    import bct.seq2seq.trainset as trainset

    planned = generation.planned_files(compose("generate", *overrides, f"out_dir={tmp_path}", "folds=[train]"))
    train = compose("train", *overrides, f"data_dir={tmp_path}")
    asked, read = [], []

    class Rows:  # what load_examples returns, as far as game_rows reads it
        def __getitem__(self, column):
            return [0]

        def filter(self, *args, **kwargs):
            return self

        def add_column(self, name, column):  # the recipe's `recent` record of actions
            return self

    class Read(Exception):
        pass

    class Representation:
        def fit(self, rows):
            raise Read  # every game's rows asked for: the loader's reading is done

    monkeypatch.setattr(generation, "generate", lambda games, modules, folds, num_games, **kw: asked.append(num_games))
    monkeypatch.setattr(trainset, "load_examples", lambda path: read.append(Path(path).as_posix()) or Rows())
    with pytest.raises(Read):
        trainset.mixed_data(train, train.trained(), Representation())
    reads = dict(zip(read, asked, strict=True))
    assert reads == planned if same else reads.items() < planned.items()
