"""Bad input answered in one line (exit 2), faults survived, files readable by collaborators."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

import bct.evaluate as ev
import bct.train as tr
from bct.config import CONF
from bct.data import write_atomic
from bct.errors import UserError
from bct.generate import generate

ROOT = Path(__file__).resolve().parent.parent


def cli(module, *args, env=None):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=300)


def one_line(r, says):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], (r.returncode, r.stderr[-2000:])


def cfg(name, *overrides):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        return compose(name, overrides=list(overrides))


@pytest.mark.parametrize("module, args, says", [
    ("bct.generate", ["num_games=abc"], "num_games=abc: must be a whole number"),
    ("bct.generate", ["num_games=2.5"], "num_games=2.5: must be a whole number"),
    ("bct.train", ["+game=twc", "modules=maybe"], "modules=maybe: must be true or false"),
    ("bct.train", ["+game=twc", "epochs=0"], "epochs=0: must be at least 1"),
    ("bct.train", ["+game=twc", "epochs=-1"], "epochs=-1: must be at least 1"),
    ("bct.train", ["+game=twc", "num_games=0"], "num_games=0: must be at least 1"),
    ("bct.train", ["+game=twc", "batch_size=0"], "batch_size=0: must be at least 1"),
    ("bct.evaluate", ["agent=random", "+game=twc", "batch_size=-3"], "batch_size=-3: must be at least 1"),
    ("bct.evaluate", ["agent=random", "+game=twc", "step_limit=0"], "step_limit=0: must be at least 1"),
    ("bct.evaluate", ["agent=random", "+game=twc", "repeat_limit=0"], "repeat_limit=0: must be at least 2"),
    ("bct.compare", ["/nonexistent/results"], "no results folder at /nonexistent/results"),
    ("bct.compare", ["--fold", "nosuch"], "invalid choice: 'nosuch'"),
    ("bct.report", ["--fold", "nosuch"], "invalid choice: 'nosuch'"),
])
def test_bad_values_are_one_line(tmp_path, module, args, says):
    extra = ["progress=false"] if module in ("bct.train", "bct.evaluate", "bct.generate") else []
    extra += [f"out_dir={tmp_path}"] if module == "bct.generate" else []
    one_line(cli(module, *args, *extra), says)


def test_generate_refuses_an_unwritable_out_dir_before_playing_and_a_corrupt_manifest(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    one_line(cli("bct.generate", f"out_dir={a_file}", "progress=false"), f"out_dir={a_file} cannot be written")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "manifest.json").write_text('{"files": ')
    one_line(cli("bct.generate", f"out_dir={tmp_path / 'd'}", "progress=false"), "manifest.json is not a readable data manifest")


@pytest.mark.parametrize("damage, says", [
    (lambda p: p.write_text(""), "holds no examples"),
    (lambda p: p.write_text(p.read_text().replace('"target"', '"tar"', 1)), "line 1, lacks target"),
    (lambda p: p.write_text("{not json\n" + p.read_text()), "line 1, is not JSON"),
])
def test_training_on_damaged_data_names_the_file_and_line(tmp_path, damage, says):
    overrides = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2", f"data_dir={tmp_path}",
                 f"checkpoint_dir={tmp_path / 'ck'}", "progress=false"]
    generate(["twc"], ["modules"], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    damage(tmp_path / "twc" / "modules" / "train.jsonl")
    with pytest.raises(UserError, match=says):
        tr.train(cfg("train", *overrides))
    (tmp_path / "manifest.json").write_text("[1, 2")
    with pytest.raises(UserError, match="not a readable data manifest"):
        tr.train(cfg("train", *overrides))


def test_a_refused_start_leaves_nothing_that_blocks_the_corrected_command(tmp_path, monkeypatch):
    overrides = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2", f"data_dir={tmp_path / 'data'}",
                 f"checkpoint_dir={tmp_path / 'ck'}", "progress=false", "run_name=mine"]

    def fail(*a, **k):
        raise RuntimeError("the trainer could not start")

    monkeypatch.setattr(tr, "trainer_overrides", fail)  # fails after the run folder is written
    with pytest.raises(RuntimeError):
        tr.train(cfg("train", *overrides, "lr=0.01"))
    monkeypatch.undo()
    run = tr.train(cfg("train", *overrides))  # another lr, same folder: not refused, nothing was trained there
    assert json.loads((run / "bct_config.json").read_text())["status"] == "done"


def test_resume_skips_a_checkpoint_cut_off_while_saving(tmp_path):
    from transformers import TrainerCallback

    class Interrupt(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step == 3:
                raise KeyboardInterrupt

    overrides = ["+game=sorting", "model=t5-tiny-scratch", "epochs=2", "num_games=2", "save_strategy=steps",
                 "save_steps=2", "batch_size=8", f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}",
                 "progress=false", "run_name=cut"]
    with pytest.raises(KeyboardInterrupt):
        tr.train(cfg("train", *overrides), callbacks=[Interrupt()])
    trainer_dir = tmp_path / "ck" / "cut" / "trainer"
    (trainer_dir / "checkpoint-4").mkdir()  # a later checkpoint that a kill cut short: only its config
    (trainer_dir / "checkpoint-4" / "config.json").write_text("{}")
    run = tr.train(cfg("train", *overrides))
    assert json.loads((run / "train_metrics.json").read_text())["resumed_from"].endswith("checkpoint-2")


def test_ctrl_c_in_training_says_how_to_resume(tmp_path):
    import signal
    import time

    p = subprocess.Popen([sys.executable, "-m", "bct.train", "+game=twc", "model=t5-tiny-scratch", "epochs=1000",
                          "num_games=2", "progress=false", f"data_dir={tmp_path / 'data'}", "run_name=long",
                          f"checkpoint_dir={tmp_path / 'ck'}", f"hydra.run.dir={tmp_path / 'out'}"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    trainer = tmp_path / "ck" / "long" / "trainer"
    deadline = time.time() + 120
    while not any(trainer.glob("checkpoint-*")) and time.time() < deadline and p.poll() is None:
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)  # in the training loop: an epoch is saved, a thousand to go
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and "Traceback" not in err, err[-2000:]
    from bct.train import last_complete_checkpoint

    saved = json.loads((Path(last_complete_checkpoint(trainer)) / "trainer_state.json").read_text())
    assert 0 < saved["global_step"] < 1000 * 3  # stopped where it was, with a checkpoint there
    assert json.loads((tmp_path / "ck" / "long" / "bct_config.json").read_text())["status"] == "training"
    assert "interrupted; run the same command again to resume" in err


def test_evaluation_survives_damaged_results_and_histories(tmp_path):
    c = cfg("evaluate", "agent=random", "+game=sorting", "num_variations=4", "batch_size=2", "progress=false",
            f"results_dir={tmp_path}")
    out = ev.evaluate(c)
    lines = (out / "histories.jsonl").read_text().splitlines()
    broken = json.loads(lines[1])
    del broken["history"]
    (out / "histories.jsonl").write_text("\n".join([lines[0], "{garbage", json.dumps(broken), *lines[2:]]) + "\n")
    out = ev.evaluate(c)  # the damaged lines are dropped and their variations played again
    res = json.loads((out / "results.json").read_text())
    assert res["complete"] and sorted(v["seed"] for v in res["per_variation"]) == list(range(10000, 10004))
    assert len((out / "histories.jsonl").read_text().splitlines()) == 4
    (out / "results.json").write_text('{"game": "sorting", "settin')  # cut off
    out = ev.evaluate(c)  # set aside, evaluated afresh
    assert json.loads((out / "results.json").read_text())["complete"]
    assert (out.parent / "dev.replaced-unreadable" / "histories.jsonl").exists()


def test_report_compare_and_tune_skip_or_name_damaged_files(tmp_path, capsys):
    from bct.report import collect
    from bct.tune import read_jobs

    ev.evaluate(cfg("evaluate", "agent=random", "+game=twc", "num_variations=2", "batch_size=2", "progress=false",
                    f"results_dir={tmp_path / 'r'}"))
    bad = tmp_path / "r" / "other" / "dev" / "results.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{oops")
    rows = collect(tmp_path / "r")
    assert len(rows) == 1 and "skipped" in capsys.readouterr().err
    r = cli("bct.compare", str(tmp_path / "r"))
    assert r.returncode == 0 and "Random+mod" in r.stdout and "skipped" in r.stderr
    sweep = tmp_path / "sweep" / "0"
    sweep.mkdir(parents=True)
    (sweep / "job.json").write_text("{broken")
    jobs, problems = read_jobs(tmp_path / "sweep")
    assert jobs == [] and "job.json is damaged" in problems[0]


def test_written_files_honour_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "x.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.json").stat().st_mode) == 0o644


def test_env_step_needs_a_reset_and_a_string(envs):
    from bct.env import ModularEnv
    from bct.games import get_game

    fresh = ModularEnv.__new__(ModularEnv)
    fresh.last, fresh.modules = None, []
    with pytest.raises(RuntimeError, match="call it before step"):
        ModularEnv.step(fresh, "look around")
    env = envs("twc")
    env.reset(10000, "dev")
    with pytest.raises(TypeError, match="an action is a string"):
        env.step(3)
    assert get_game("twc").name == "twc"


def test_a_local_openai_compatible_server_needs_no_key(monkeypatch):
    from bct.agents.llm import OpenAIBackend

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    backend = OpenAIBackend("local-model", "http://127.0.0.1:9/v1")
    assert backend.client.api_key  # some placeholder: the server ignores it
    with pytest.raises(UserError, match="no API key"):
        OpenAIBackend("gpt-4o", None)


def test_show_prints_examples_in_either_representation(tmp_path):
    generate(["twc"], ["modules"], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    r = cli("bct.show", "twc", "--data-dir", str(tmp_path), "-n", "2", "--entities", "placeholders")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("seed 0 step") == 2 and "target" in r.stdout and "<e1>" in r.stdout
    one_line(cli("bct.show", "arithmetic", "--data-dir", str(tmp_path)), "no data at")
