"""Training: the CLI writes a loadable checkpoint, loss falls, runs resume, bad input is named."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from transformers import TrainerCallback

from bct.errors import UserError
from bct.model import load_checkpoint, load_pretrained
from bct.tokenizer import train_tokenizer
from bct.config import CONF
from bct.train import train

ROOT = Path(__file__).resolve().parent.parent


def config(tmp_path, *overrides):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        return compose("train", overrides=[f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}",
                                           "progress=false", *overrides])


def cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "bct.train", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=300)


def test_cli_trains_a_tiny_model_and_writes_a_loadable_checkpoint(tmp_path):
    r = cli("+game=arithmetic", "epochs=1", "model=t5-tiny-scratch", "num_games=10", "progress=false",
            f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "no training data for arithmetic/modules" in r.stdout + r.stderr  # generated on the fly, and said so
    (run,) = (tmp_path / "ck").glob("arithmetic-modules-t5-tiny-scratch-ep1-*")
    assert f"checkpoint: {run.resolve()}" in r.stdout
    model, tokenizer, cfg = load_checkpoint(run)
    assert cfg["settings"]["game"] == "arithmetic" and cfg["settings"]["variant"] == "modules"
    assert cfg["settings"]["epochs"] == 1 and cfg["settings"]["seed"] == 42 and cfg["num_examples"] == 60
    assert json.loads((run / "train_metrics.json").read_text())["train_loss"] > 0
    assert not (run / "trainer").exists()  # resumable states are dropped once the run is done


def test_loss_falls_and_the_checkpoint_generates_an_action(tmp_path):
    cfg = config(tmp_path, "+game=twc", "model=t5-tiny-scratch", "epochs=10", "num_games=4", "logging_steps=1",
                 "batch_size=4", "lr=3e-3",
                 "model.config.d_model=64", "model.config.d_ff=128")
    run = train(cfg)
    metrics = json.loads((run / "train_metrics.json").read_text())
    assert metrics["final_logged_loss"] < 0.6 * metrics["first_logged_loss"]
    model, tokenizer, _ = load_checkpoint(run)
    source = json.loads((tmp_path / "data/twc/modules/train.jsonl").read_text().splitlines()[0])["source"]
    out = model.generate(**tokenizer(source, return_tensors="pt"), max_new_tokens=12, num_beams=2)
    action = tokenizer.decode(out[0], skip_special_tokens=True)
    assert action.strip() and action.split()[0].isalpha()


def test_an_interrupted_run_resumes_from_its_last_checkpoint(tmp_path):
    class Interrupt(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step == 3:
                raise KeyboardInterrupt

    overrides = ["+game=sorting", "model=t5-tiny-scratch", "epochs=2", "num_games=2", "save_strategy=steps",
                 "save_steps=2", "batch_size=8"]
    with pytest.raises(KeyboardInterrupt):
        train(config(tmp_path, *overrides), callbacks=[Interrupt()])
    run = train(config(tmp_path, *overrides))
    metrics = json.loads((run / "train_metrics.json").read_text())
    assert metrics["resumed_from"].endswith("checkpoint-2")
    n = json.loads((run / "bct_config.json").read_text())["num_examples"]
    assert metrics["global_step"] == 2 * -(-n // 8)  # two epochs in all, not two more


def test_a_checkpoint_folder_from_another_config_is_refused(tmp_path):
    base = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"]
    first = train(config(tmp_path, *base, "run_name=mine"))
    with pytest.raises(UserError, match="another config \\(differs in: lr\\)"):
        train(config(tmp_path, *base, "lr=0.5", "run_name=mine"))
    assert train(config(tmp_path, *base, "run_name=mine")) == first  # finished: kept as is
    assert train(config(tmp_path, *base, "lr=0.5")).name.startswith("twc-modules-t5-tiny-scratch-ep1-")  # its own folder


def test_tokenizer_round_trips_and_splits_numbers():
    texts = ["Your task is to sort. </s> OBS You see 25g of oak. </s> <extra_id_0> </s> PACT  </s> POBS  </s>"] * 5
    tok = train_tokenizer(texts, vocab_size=300)
    source = "take 1024 zanzibar quokkas </s> <extra_id_0> ok"
    ids = tok(source).input_ids
    assert tok.decode(ids, skip_special_tokens=False) == source + "</s>"
    pieces = tok.convert_ids_to_tokens(ids)
    assert {"1", "0", "2", "4"} <= set(pieces) and not any(p.strip("▁").isdigit() and len(p.strip("▁")) > 1 for p in pieces)
    assert "</s>" in pieces and "<extra_id_0>" in pieces and "<unk>" not in pieces
    assert (tok.pad_token_id, tok.eos_token_id) == (0, 1)


def test_loading_by_local_path_is_the_hub_code_path(tmp_path):
    from bct.model import build_from_config

    tok = train_tokenizer(["take the apple"] * 3, vocab_size=100)
    build_from_config({"d_model": 16, "d_ff": 32, "d_kv": 8, "num_heads": 2, "num_layers": 1}, tok).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    model, tokenizer = load_pretrained(str(tmp_path))
    assert model.config.d_model == 16 and tokenizer("take").input_ids == tok("take").input_ids


def test_local_heads_start_by_attending_near_themselves():
    import torch

    from bct.errors import UserError
    from bct.model import build_from_config

    tok = train_tokenizer(["to the north you see the hall"] * 3, vocab_size=100)
    sizes = {"d_model": 16, "d_ff": 32, "d_kv": 8, "num_heads": 2, "num_layers": 1}
    model = build_from_config(sizes, tok, locality=[1.0, 0.0])
    att = model.encoder.block[0].layer[0].SelfAttention
    bias = att.compute_bias(12, 12)[0]  # (heads, query, key)
    assert bias[0, 5, 5] == 0 and bias[0, 5, 4] == bias[0, 5, 6] == -1 and bias[0, 5, 0] == -5  # head 0: local
    assert torch.all(bias[1] == 0)  # slope 0: no preference
    with pytest.raises(UserError, match="2 attention heads"):
        build_from_config(sizes, tok, locality=[1.0])


@pytest.mark.parametrize("args, says", [
    (["+game=chess"], "error: unknown game 'chess'; valid choices: arithmetic"),
    (["+game=twc", "model=gpt-9"], "error: unknown model preset 'gpt-9'; valid choices: t5-base"),
    (["epochs=2"], "error: choose a game: python -m bct.train +game=sorting epochs=8"),
    (["+game=twc", "model=t5-small"], "could not be fetched from the Hugging Face hub"),
])
def test_bad_input_is_one_line(tmp_path, args, says):
    r = cli(*args, f"data_dir={tmp_path}", f"checkpoint_dir={tmp_path}", env={"HF_HUB_OFFLINE": "1"})
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr[-2000:]
    if "hub" in says:
        assert "model=t5-cpu-scratch" in lines[0] and "model=t5-tiny-scratch" in lines[0]


def test_wandb_offline_needs_no_account_or_network(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDB_DIR", str(tmp_path))
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    train(config(tmp_path, "+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2", "wandb.mode=offline"))
    runs = list((tmp_path / "wandb").glob("offline-run-*"))
    assert len(runs) == 1 and any(runs[0].rglob("*.wandb"))
