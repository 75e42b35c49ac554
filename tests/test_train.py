"""Training: the CLI writes a loadable checkpoint, loss falls, runs resume, faults and bad input are named."""

import json
import logging
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from transformers import TrainerCallback

import bct.seq2seq.training as tr
import bct.seq2seq.trainset as ts
from bct.core.errors import UserError
from bct.data.generation import generate
from bct.data.representation import get_representation
from bct.seq2seq.model import build_from_config, load_checkpoint, load_pretrained
from bct.seq2seq.tokenizer import train_tokenizer
from bct.seq2seq.training import train
from bct.worlds.registry import get_game

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses

TINY = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"]

ROOT = Path(__file__).resolve().parent.parent


def test_cli_trains_a_tiny_model_and_writes_a_loadable_checkpoint(tmp_path, cli):
    r = cli(
        "bct.train",
        "+game=arithmetic",
        "epochs=1",
        "model=t5-tiny-scratch",
        "num_games=10",
        "progress=false",
        f"data_dir={tmp_path / 'data'}",
        f"checkpoint_dir={tmp_path / 'ck'}",
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "no training data for arithmetic/modules" in r.stdout + r.stderr  # generated on the fly, and said so
    (run,) = (tmp_path / "ck").glob("arithmetic-modules-t5-tiny-scratch-ep1-*")
    assert f"checkpoint: {run.resolve()}" in r.stdout
    model, tokenizer, cfg = load_checkpoint(run)
    assert cfg["settings"]["game"] == "arithmetic" and cfg["settings"]["modules"] is True
    assert cfg["settings"]["epochs"] == 1 and cfg["settings"]["seed"] == 42 and cfg["num_examples"] == 60
    assert json.loads((run / "train_metrics.json").read_text())["train_loss"] > 0
    assert not (run / "trainer").exists()  # resumable states are dropped once the run is done


def test_loss_falls_and_the_checkpoint_generates_an_action(tmp_path, train_config):
    cfg = train_config(
        "+game=twc",
        "model=t5-tiny-scratch",
        "epochs=10",
        "num_games=4",
        "logging_steps=1",
        "batch_size=4",
        "lr=3e-3",
        "model.config.d_model=64",
        "model.config.d_ff=128",
    )
    run = train(cfg)
    metrics = json.loads((run / "train_metrics.json").read_text())
    assert metrics["final_logged_loss"] < 0.6 * metrics["first_logged_loss"]
    model, tokenizer, _ = load_checkpoint(run)
    source = json.loads((tmp_path / "data/twc/modules/train.jsonl").read_text().splitlines()[0])["source"]
    out = model.generate(**tokenizer(source, return_tensors="pt"), max_new_tokens=12, num_beams=2)
    action = tokenizer.decode(out[0], skip_special_tokens=True)
    assert action.strip() and action.split()[0].isalpha()


def test_a_finished_run_trains_on_from_its_weights_and_tokenizer(train_config):
    """model.pretrained=<a run folder>: more epochs from where a run ended (a fresh schedule), not from scratch."""
    base = ["+game=twc", "model=t5-tiny-scratch", "num_games=4", "logging_steps=1", "batch_size=4", "lr=3e-3"]
    first = train(train_config(*base, "epochs=6", "run_name=first"))
    more = train(train_config(*base, "epochs=1", f"model.pretrained={first}", "run_name=more"))
    before, after = (json.loads((r / "train_metrics.json").read_text()) for r in (first, more))
    # it starts near where the first run ended, not where a new model starts
    assert after["first_logged_loss"] < (before["first_logged_loss"] + before["final_logged_loss"]) / 2
    assert (more / "tokenizer.json").read_text() == (first / "tokenizer.json").read_text()


def test_a_run_trained_on_keeps_the_names_its_checkpoint_learned(train_config):
    """model.pretrained=<a run folder> with entities=common: the names the first run learned stay words, as the
    weights learned them, though the new run's own rows would have fitted another list."""
    base = ["+game=twc", "model=t5-tiny-scratch", "entities=common", "batch_size=4", "epochs=1"]
    first = train(train_config(*base, "num_games=2", "run_name=first"))
    alone = train(train_config(*base, "num_games=6", "run_name=alone"))
    more = train(train_config(*base, "num_games=6", f"model.pretrained={first}", "run_name=more"))
    names = {r.name: load_checkpoint(r)[2]["common_names"] for r in (first, alone, more)}
    assert names["alone"] != names["first"]  # six games' rows fit another list
    assert names["more"] == names["first"]
    with pytest.raises(
        UserError,
        match=f"model.pretrained={re.escape(str(first))} was trained on entities=common entity_rule=\\d+; train on from it",
    ):
        train(train_config(*base[:2], "entities=placeholders", f"model.pretrained={first}", "run_name=other"))


def test_a_checkpoint_folder_from_another_config_is_refused(tmp_path, train_config):
    base = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"]
    first = train(train_config(*base, "run_name=mine"))
    with pytest.raises(UserError, match="another config \\(differs in: lr\\)"):
        train(train_config(*base, "lr=0.5", "run_name=mine"))
    assert train(train_config(*base, "run_name=mine")) == first  # finished: kept as is
    assert train(train_config(*base, "lr=0.5")).name.startswith("twc-modules-t5-tiny-scratch-ep1-")  # its own folder


def test_tokenizer_round_trips_and_splits_numbers():
    texts = ["Your task is to sort. </s> OBS You see 25g of oak. </s> <extra_id_0> </s> PACT  </s> POBS  </s>"] * 5
    tok = train_tokenizer(texts, vocab_size=300)
    source = "take 1024 zanzibar quokkas </s> <extra_id_0> ok"
    ids = tok(source).input_ids
    assert tok.decode(ids, skip_special_tokens=False) == source + "</s>"
    pieces = tok.convert_ids_to_tokens(ids)
    assert {"1", "0", "2", "4"} <= set(pieces) and not any(
        p.strip("▁").isdigit() and len(p.strip("▁")) > 1 for p in pieces
    )
    assert "</s>" in pieces and "<extra_id_0>" in pieces and "<unk>" not in pieces
    assert (tok.pad_token_id, tok.eos_token_id) == (0, 1)


def test_loading_by_local_path_is_the_hub_code_path(tmp_path):

    tok = train_tokenizer(["take the apple"] * 3, vocab_size=100)
    build_from_config({"d_model": 16, "d_ff": 32, "d_kv": 8, "num_heads": 2, "num_layers": 1}, tok).save_pretrained(
        tmp_path
    )
    tok.save_pretrained(tmp_path)
    model, tokenizer = load_pretrained(str(tmp_path))
    assert model.config.d_model == 16 and tokenizer("take").input_ids == tok("take").input_ids


def test_local_heads_start_by_attending_near_themselves():
    import torch

    from bct.core.errors import UserError

    tok = train_tokenizer(["to the north you see the hall"] * 3, vocab_size=100)
    sizes = {"d_model": 16, "d_ff": 32, "d_kv": 8, "num_heads": 2, "num_layers": 1}
    model = build_from_config(sizes, tok, locality=[1.0, 0.0])
    att = model.encoder.block[0].layer[0].SelfAttention
    bias = att.compute_bias(12, 12)[0]  # (heads, query, key)
    assert bias[0, 5, 5] == 0 and bias[0, 5, 4] == bias[0, 5, 6] == -1 and bias[0, 5, 0] == -5  # head 0: local
    assert torch.all(bias[1] == 0)  # slope 0: no preference
    with pytest.raises(UserError, match="2 attention heads"):
        build_from_config(sizes, tok, locality=[1.0])


def test_wandb_offline_needs_no_account_or_network(tmp_path, monkeypatch, train_config):
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    # training sets these in the process for wandb; set here first, they are undone after the test, not left to
    # the later tests of this worker and the commands they start
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_PROJECT", "bct")
    train(train_config("+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2", "wandb.mode=offline"))
    runs = list((tmp_path / "wandb").glob("offline-run-*"))
    assert len(runs) == 1 and any(runs[0].rglob("*.wandb"))


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda p: p.write_text(""), "holds no examples"),
        (lambda p: p.write_text(p.read_text().replace('"target"', '"tar"', 1)), "line 1, lacks target"),
        (lambda p: p.write_text("{not json\n" + p.read_text()), "line 1, is not JSON"),
    ],
)
def test_training_on_damaged_data_names_the_file_and_line(tmp_path, damage, says, compose):
    overrides = [
        "+game=twc",
        "model=t5-tiny-scratch",
        "epochs=1",
        "num_games=2",
        f"data_dir={tmp_path}",
        f"checkpoint_dir={tmp_path / 'ck'}",
        "progress=false",
    ]
    generate(["twc"], [True], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    damage(tmp_path / "twc" / "modules" / "train.jsonl")
    with pytest.raises(UserError, match=says):
        tr.train(compose("train", *overrides))
    (tmp_path / "manifest.json").write_text("[1, 2")
    with pytest.raises(UserError, match="not a readable data manifest"):
        tr.train(compose("train", *overrides))


def test_a_refused_start_leaves_nothing_that_blocks_the_corrected_command(tmp_path, monkeypatch, compose):
    overrides = [
        "+game=twc",
        "model=t5-tiny-scratch",
        "epochs=1",
        "num_games=2",
        f"data_dir={tmp_path / 'data'}",
        f"checkpoint_dir={tmp_path / 'ck'}",
        "progress=false",
        "run_name=mine",
    ]

    def fail(*a, **k):
        raise RuntimeError("the trainer could not start")

    monkeypatch.setattr(tr, "trainer_overrides", fail)  # fails after the run folder is written
    with pytest.raises(RuntimeError):
        tr.train(compose("train", *overrides, "lr=0.01"))
    monkeypatch.undo()
    run = tr.train(compose("train", *overrides))  # another lr, same folder: not refused, nothing was trained there
    assert json.loads((run / "bct_config.json").read_text())["status"] == "done"


def test_an_interrupted_run_resumes_from_its_last_whole_checkpoint(train_config, tmp_path):
    """A run stopped at step 3 resumes from checkpoint-2, skipping a checkpoint-4 that a kill cut short
    while saving, and trains two epochs in all, not two more."""

    class Interrupt(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step == 3:
                raise KeyboardInterrupt

    overrides = [
        "+game=sorting",
        "model=t5-tiny-scratch",
        "epochs=2",
        "num_games=2",
        "save_strategy=steps",
        "save_steps=2",
        "batch_size=8",
        "run_name=cut",
    ]
    with pytest.raises(KeyboardInterrupt):
        tr.train(train_config(*overrides), callbacks=[Interrupt()])
    trainer_dir = tmp_path / "ck" / "cut" / "trainer"
    (trainer_dir / "checkpoint-4").mkdir()  # a later checkpoint that a kill cut short: only its config
    (trainer_dir / "checkpoint-4" / "config.json").write_text("{}")
    run = tr.train(train_config(*overrides))
    metrics = json.loads((run / "train_metrics.json").read_text())
    assert metrics["resumed_from"].endswith("checkpoint-2")
    n = json.loads((run / "bct_config.json").read_text())["num_examples"]
    assert metrics["global_step"] == 2 * -(-n // 8)


def test_ctrl_c_in_training_says_how_to_resume(tmp_path):
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bct.train",
            "+game=twc",
            "model=t5-tiny-scratch",
            "epochs=1000",
            "num_games=2",
            "progress=false",
            f"data_dir={tmp_path / 'data'}",
            "run_name=long",
            f"checkpoint_dir={tmp_path / 'ck'}",
            f"hydra.run.dir={tmp_path / 'out'}",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    trainer = tmp_path / "ck" / "long" / "trainer"
    deadline = time.time() + 120
    while not any(trainer.glob("checkpoint-*")) and time.time() < deadline and p.poll() is None:
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)  # in the training loop: an epoch is saved, a thousand to go
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and "Traceback" not in err, err[-2000:]
    from bct.core.resume import last_complete_checkpoint

    saved = json.loads((Path(last_complete_checkpoint(trainer)) / "trainer_state.json").read_text())
    assert 0 < saved["global_step"] < 1000 * 3  # stopped where it was, with a checkpoint there
    assert json.loads((tmp_path / "ck" / "long" / "bct_config.json").read_text())["status"] == "training"
    assert "interrupted; run the same command again to resume" in err


@pytest.mark.parametrize(
    "cuda, bf16, major, expected",
    [
        (False, False, 0, {}),  # CPU: fp32
        (True, True, 9, {"bf16": True}),  # H100, A100
        (True, False, 7, {}),  # V100: fp32, never fp16 (T5 overflows and the trainer writes NaN weights)
        (True, False, 8, {"tf32": True}),  # an Ampere card without bf16 support reported: fp32 with TF32 matmuls
    ],
)
def test_precision_never_fp16(monkeypatch, cuda, bf16, major, expected):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: bf16)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda *a: (major, 0))
    assert tr.precision() == expected


def test_data_and_tokenizer_are_made_under_main_process_first(tmp_path, monkeypatch, train_config, fake_state):
    state = fake_state(True, 2)
    monkeypatch.setattr(tr, "process_state", lambda: state)
    seen = []
    real = ts.game_rows
    monkeypatch.setattr(ts, "game_rows", lambda *a: seen.append(list(state.order)) or real(*a))
    run = tr.train(train_config(*TINY))
    assert seen == [["enter"]] and state.order == ["enter", "exit"]
    record = json.loads((run / "bct_config.json").read_text())
    assert record["num_processes"] == 2 and record["effective_batch_size"] == 2 * record["settings"]["batch_size"]


def test_trainer_settings_pass_through_and_unknown_ones_are_named(tmp_path, train_config):
    run = tr.train(train_config(*TINY, "+trainer.adam_beta2=0.99", "+trainer.max_grad_norm=0.5"))
    settings = json.loads((run / "bct_config.json").read_text())["settings"]
    assert settings["trainer"] == {"adam_beta2": 0.99, "max_grad_norm": 0.5}
    with pytest.raises(UserError, match="trainer.no_such_flag is not a Seq2SeqTrainingArguments setting"):
        tr.train(train_config(*TINY, "+trainer.no_such_flag=1"))


def test_placeholders_take_the_space_before_them_and_decoding_gives_it_back():
    tokens = [f"<e{i}>" for i in range(1, 6)] + ["<n1>"]
    tok = train_tokenizer(["You are in the   <e1>. You see <n1>g of <e2> </s> PACT take <e3>"] * 5, 300, tokens)
    source = "take <n1>g of <e2>   in the <e1>"
    pieces = tok.convert_ids_to_tokens(tok(source).input_ids)
    assert "▁" not in pieces  # no token for the space before a placeholder, nor for a run of spaces
    assert "<n1>" in pieces and "<e2>" in pieces
    assert tok.decode(tok("take <n1>g of <e2>").input_ids, skip_special_tokens=True) == "take <n1>g of <e2>"


def test_data_made_by_another_version_of_its_world_is_trained_on_with_a_line_that_says_so(train_config, caplog):
    cfg = train_config("+game=twc", "model=t5-tiny-scratch", "num_games=1")
    rows = len(ts.game_rows(cfg, get_game("twc"), True))
    manifest = Path(cfg.data_dir) / "manifest.json"
    made = json.loads(manifest.read_text())
    for entry in made["files"].values():
        entry["settings"]["twx_version"] = "0.9"
    manifest.write_text(json.dumps(made))
    with caplog.at_level(logging.WARNING, logger="bct.seq2seq.trainset"):
        assert len(ts.game_rows(cfg, get_game("twc"), True)) == rows  # kept, not made again
    assert "another version of its world ({'twx_version': '0.9'}" in caplog.text and "overwrite=true" in caplog.text


def test_distinct_drops_repeated_examples_and_keeps_every_distinct_one(train_config):
    game = train_config("+game=twc", "model=t5-tiny-scratch", "num_games=20")
    rep = get_representation(game.entities)
    every = ts.training_data(
        train_config("+game=twc", "model=t5-tiny-scratch", "num_games=20", "distinct=false"),
        get_game("twc"),
        True,
        rep,
    )
    once = ts.training_data(game, get_game("twc"), True, rep)
    pairs = list(zip(once["source"], once["target"]))
    assert len(pairs) == len(set(pairs)) == len(set(zip(every["source"], every["target"]))) < len(every)


def test_decisive_passes_repeat_only_a_world_s_unforgiving_choices(train_config):
    from datasets import Dataset

    rows = Dataset.from_dict({"source": ["a", "b", "c"], "target": ["go to kitchen", "focus on <e1>", "pick up <e2>"]})
    cfg = train_config("+game=twc", "model=t5-tiny-scratch", "decisive_passes=3")
    again = ts.decisive_again(cfg, rows, get_game("scienceworld-boil"))
    assert sorted(again["target"]) == ["focus on <e1>"] * 3 + ["go to kitchen", "pick up <e2>"]
    assert len(ts.decisive_again(cfg, rows, get_game("twc"))) == 3  # TWX forgives every choice: nothing repeated
    once = train_config("+game=twc", "model=t5-tiny-scratch")
    assert once.decisive_passes == 1 and len(ts.decisive_again(once, rows, get_game("scienceworld-boil"))) == 3


def test_a_step_budget_trains_that_many_steps_and_names_the_run_by_it(train_config):
    run = tr.train(train_config(*TINY, "epochs=null", "max_steps=3"))
    assert "-st3-" in run.name
    assert json.loads((run / "train_metrics.json").read_text())["global_step"] == 3
    with pytest.raises(UserError, match="epochs and max_steps are both null"):
        tr.train(train_config(*TINY, "epochs=null", "max_steps=null"))


def test_a_time_limit_stops_training_early_and_saves_the_model_as_it_is(train_config):
    """max_minutes (a job's time limit): past it, training stops at the step's end; the model is saved, the
    run's metrics say it stopped there and at which step of how many."""
    run = tr.train(train_config(*TINY, "epochs=null", "max_steps=50", "max_minutes=0.0001"))
    metrics = json.loads((run / "train_metrics.json").read_text())
    assert metrics["global_step"] == 1 and metrics["stopped_at_max_minutes"] == 0.0001
    assert (run / "model.safetensors").exists()


def test_a_diverged_training_stops_in_one_line_and_saves_no_nan_model(train_config):
    """A learning rate far too high: the gradient norm turns NaN; training stops there in one line that
    says so and what to change, and no model is saved as finished (evaluation would play NaN weights), nor
    a trainer checkpoint of NaN weights for a resume to load."""
    from safetensors.torch import load_file

    cfg = train_config(*TINY, "epochs=null", "max_steps=30", "lr=1e30", "logging_steps=1")
    with pytest.raises(UserError, match=r"diverged at step \d+ .*lower learning rate") as error:
        tr.train(cfg)
    assert "\n" not in str(error.value)
    assert not list(Path(cfg.checkpoint_dir).glob("*/model.safetensors"))
    for kept in Path(cfg.checkpoint_dir).glob("*/trainer/checkpoint-*/model.safetensors"):  # what a resume loads
        assert all(w.isfinite().all() for w in load_file(kept).values()), kept


def test_a_checkpoint_with_nan_weights_is_refused_in_one_line(train_config):
    """Weights that are NaN (a training diverged elsewhere, or before bct guarded against it) are not played."""
    from safetensors.torch import load_file, save_file

    run = tr.train(train_config(*TINY, "epochs=null", "max_steps=1"))
    weights = load_file(run / "model.safetensors")
    save_file({k: torch.full_like(v, float("nan")) for k, v in weights.items()}, run / "model.safetensors")
    with pytest.raises(UserError, match="NaN or infinite weights: its training diverged"):
        load_checkpoint(run)


def test_final_examples_train_only_when_asked(tmp_path, train_config):
    plain = json.loads((tr.train(train_config(*TINY)) / "bct_config.json").read_text())
    final = json.loads((tr.train(train_config(*TINY, "final_example=true")) / "bct_config.json").read_text())
    assert final["num_examples"] == plain["num_examples"] + 2  # one 'completed' example per training game
    # the record says which gold data it trained on: other rows, another digest; the same rows read another way
    # (another seed, the recent actions in the prompt), the same one
    again = json.loads((tr.train(train_config(*TINY, "seed=43", "recent=2")) / "bct_config.json").read_text())
    assert final["data_digest"] != plain["data_digest"] == again["data_digest"]


def test_the_hub_check_goes_through_huggingface_hub(monkeypatch):
    from huggingface_hub import constants

    import bct.seq2seq.model as m

    asked = []

    class Session:
        def head(self, url, timeout):
            asked.append(url)
            raise ConnectionError("no network")

    monkeypatch.setattr("huggingface_hub.get_session", lambda: Session())
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    assert m.hub_reachable() is False and asked == [constants.ENDPOINT]
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    assert m.hub_reachable() is False and len(asked) == 1  # offline mode: not even asked


def test_a_hub_model_that_cannot_be_fetched_names_the_offline_presets(tmp_path, cli, one_line):
    r = cli(
        "bct.train",
        "+game=twc",
        "model=t5-small",
        f"data_dir={tmp_path}",
        f"checkpoint_dir={tmp_path}",
        env={"HF_HUB_OFFLINE": "1"},
    )
    line = one_line(r, "could not be fetched from the Hugging Face hub")
    assert "model=t5-cpu-scratch" in line and "model=t5-tiny-scratch" in line


def test_overwrite_retrains_beside_the_old_run_and_keeps_it_when_retraining_fails(train_config, tmp_path):
    run = train(train_config(*TINY, "run_name=kept"))
    before = json.loads((run / "bct_config.json").read_text())["fingerprint"]
    broken = tmp_path / "a-file"
    broken.write_text("")
    with pytest.raises(UserError, match="cannot be written"):  # data cannot be generated there
        train(train_config(*TINY, "run_name=kept", "overwrite=true", f"data_dir={broken}"))
    assert json.loads((run / "bct_config.json").read_text())["status"] == "done"
    assert json.loads((run / "bct_config.json").read_text())["fingerprint"] == before
    load_checkpoint(run)  # still whole
    assert train(train_config(*TINY, "run_name=kept", "overwrite=true", "seed=42")) == run  # retrained in place
    assert not list(tmp_path.glob("ck/kept.*")) and (run / "bct_config.json").exists()


def test_a_run_folder_in_use_is_refused_naming_the_job_that_holds_it(train_config, tmp_path):
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bct.train",
            *TINY[:-2],
            "epochs=1000",
            "num_games=2",
            "progress=false",
            f"data_dir={tmp_path / 'data'}",
            "run_name=busy",
            "threads=1",
            f"checkpoint_dir={tmp_path / 'ck'}",
            f"hydra.run.dir={tmp_path / 'out'}",
        ],
        cwd=ROOT,
    )
    try:
        deadline = time.time() + 120
        while not (tmp_path / "ck" / "busy" / "bct_config.json").exists() and time.time() < deadline:
            time.sleep(0.1)
        with pytest.raises(UserError, match=rf"is in use by a training run \(pid {p.pid} on"):
            train(train_config(*TINY[:-2], "epochs=1000", "num_games=2", "run_name=busy"))
        assert p.poll() is None  # the first job trains on, its folder untouched
    finally:
        p.kill()
        p.wait()


def test_the_offline_gpu_preset_trains_saves_and_plays_without_the_hub(tmp_path, monkeypatch, train_config):
    """Reduced: one optimizer step of `t5-gpu-scratch` on a CPU, with the hub unreachable; the saved checkpoint
    has the preset's shape, loads and plays."""
    from bct.config.settings import EvaluateSettings
    from bct.jobs.evaluation import evaluate

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    cfg = train_config("+game=twc", "model=t5-gpu-scratch", "epochs=null", "max_steps=1", "num_games=2", "batch_size=4")
    cfg.save_strategy = "no"
    run = train(cfg)
    model, tokenizer, record = load_checkpoint(run)
    assert 20e6 < record["num_parameters"] < 30e6 and model.config.num_layers == 6 and model.config.d_model == 384
    assert record["settings"]["entities"] == "placeholders" and len(tokenizer) <= 2000
    out = evaluate(
        EvaluateSettings(checkpoint=str(run), num_variations=1, results_dir=str(tmp_path / "r"), progress=False)
    )
    assert (out / "results.json").exists()


def test_the_paper_sized_offline_preset_has_t5_base_s_shape(train_config):
    """`t5-base-scratch` builds t5-base's shape (12 + 12 layers, 768 wide, ~220M parameters) from its config; it
    trains, saves and plays by the same code as the preset above."""
    from bct.data.representation import get_representation
    from bct.seq2seq.model import build_from_config
    from bct.seq2seq.tokenizer import train_tokenizer

    cfg = train_config("+game=twc", "model=t5-base-scratch")
    assert cfg.model.pretrained is None
    tokenizer = train_tokenizer(
        ["go north", "take the key"], cfg.model.vocab_size, get_representation("placeholders").tokens
    )
    model = build_from_config(cfg.model.config, tokenizer, cfg.model.locality)
    assert 150e6 < model.num_parameters() < 250e6
    assert model.config.num_layers == model.config.num_decoder_layers == 12 and model.config.d_model == 768


def test_cached_examples_are_keyed_by_the_worlds_readers_of_names():
    """The mapped examples are cached under a fingerprint of the code that maps them. A world's reader of the names
    a prompt holds (ScienceWorld's `things`) renumbers every prompt when it changes: it is part of that code, so a
    changed reader maps the examples again instead of training on those numbered by the old one."""
    import inspect

    from bct.seq2seq.trainset import MAPPING_CODE
    from bct.worlds.scienceworld import text as sw_text
    from bct.worlds.twx import text as twx_text

    assert inspect.getsource(sw_text) in MAPPING_CODE and inspect.getsource(twx_text) in MAPPING_CODE
