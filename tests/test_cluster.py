"""What only shows on a GPU cluster, checked as decisions: precision, several processes, out-of-memory,
results that follow the weights, configs that ship with the package, the hub check, trainer settings."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_dir

import bct.evaluate as ev
import bct.train as tr
from bct.agents import T5Agent
from bct.agents.base import Decision
from bct.config import CONF
from bct.errors import UserError

ROOT = Path(__file__).resolve().parent.parent


def train_config(tmp_path, *overrides):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        return compose("train", overrides=["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2",
                                           f"data_dir={tmp_path / 'data'}", f"checkpoint_dir={tmp_path / 'ck'}",
                                           "progress=false", *overrides])


@pytest.mark.parametrize("cuda, bf16, major, expected", [
    (False, False, 0, {}),  # CPU: fp32
    (True, True, 9, {"bf16": True}),  # H100, A100
    (True, False, 7, {}),  # V100: fp32, never fp16 (T5 overflows and the trainer writes NaN weights)
    (True, False, 8, {"tf32": True}),  # an Ampere card without bf16 support reported: fp32 with TF32 matmuls
])
def test_precision_never_fp16(monkeypatch, cuda, bf16, major, expected):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: bf16)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda *a: (major, 0))
    assert tr.precision() == expected


class FakeState:
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


def test_under_accelerate_only_the_main_process_evaluates_and_writes_job_json(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(tr, "train", lambda cfg: tmp_path)
    monkeypatch.setattr(ev, "evaluate", lambda cfg: calls.append(cfg) or tmp_path)
    (tmp_path / "bct_config.json").write_text("{}")
    for main, evaluations in ((False, 0), (True, 1)):
        monkeypatch.setattr(tr, "process_state", lambda main=main: FakeState(main))
        job = tmp_path / f"job-{main}"
        job.mkdir()
        tr.run_job(train_config(tmp_path, "evaluate_after=dev"), job, multirun=True)
        assert len(calls) == evaluations and (job / "job.json").exists() == main


def test_data_and_tokenizer_are_made_under_main_process_first(tmp_path, monkeypatch):
    state = FakeState(True, 2)
    monkeypatch.setattr(tr, "process_state", lambda: state)
    seen = []
    real = tr.training_data
    monkeypatch.setattr(tr, "training_data", lambda *a: seen.append(list(state.order)) or real(*a))
    run = tr.train(train_config(tmp_path))
    assert seen == [["enter"]] and state.order == ["enter", "exit"]
    record = json.loads((run / "bct_config.json").read_text())
    assert record["num_processes"] == 2 and record["effective_batch_size"] == 2 * record["settings"]["batch_size"]


def test_out_of_memory_halves_the_model_batch_and_goes_on():
    agent = T5Agent.__new__(T5Agent)
    agent.model_batch, agent.device, agent.entities, agent.decoding = 8, "cpu", "text", "rank"
    agent.model_inputs = lambda batch: [type("M", (), {"source": str(i)})() for i in range(len(batch))]
    sizes = []

    def rank(batch, maps):
        sizes.append(len(batch))
        if len(batch) > 2:
            raise torch.OutOfMemoryError("CUDA out of memory")
        return [Decision("look around") for _ in batch]

    agent._rank = rank
    decisions = T5Agent.act(agent, [None] * 7)
    assert len(decisions) == 7 and agent.model_batch == 2
    assert sizes[:3] == [7, 4, 2] and sum(s for s in sizes if s <= 2) == 7


def test_results_follow_the_weights_not_the_folder(tmp_path):
    run = tr.train(train_config(tmp_path, "run_name=mine"))
    first = json.loads((run / "bct_config.json").read_text())["fingerprint"]
    cfg = lambda: ev_config(tmp_path, f"checkpoint={run}")  # noqa: E731
    out = ev.evaluate(cfg())
    assert json.loads((out / "results.json").read_text())["settings"]["fingerprint"] == first
    # retrain the same run on data that changed (one example fewer): same folder, same settings, other weights
    import shutil

    shutil.copytree(tmp_path / "data", tmp_path / "data2")
    train_file = tmp_path / "data2" / "twc" / "modules" / "train.jsonl"
    train_file.write_text("".join(train_file.read_text().splitlines(keepends=True)[1:]))
    tr.train(train_config(tmp_path, "run_name=mine", "overwrite=true", f"data_dir={tmp_path / 'data2'}"))
    second = json.loads((run / "bct_config.json").read_text())["fingerprint"]
    assert second != first
    out = ev.evaluate(cfg())  # the old results were of other weights: set aside, evaluated afresh
    assert json.loads((out / "results.json").read_text())["settings"]["fingerprint"] == second
    assert (out.parent / f"dev.replaced-{first[:8]}" / "results.json").exists()


def ev_config(tmp_path, *overrides):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        return compose("evaluate", overrides=[f"results_dir={tmp_path / 'results'}", "progress=false", "num_variations=2",
                                              "batch_size=2", *overrides])


def test_trainer_settings_pass_through_and_unknown_ones_are_named(tmp_path):
    run = tr.train(train_config(tmp_path, "+trainer.adam_beta2=0.99", "+trainer.max_grad_norm=0.5"))
    settings = json.loads((run / "bct_config.json").read_text())["settings"]
    assert settings["trainer"] == {"adam_beta2": 0.99, "max_grad_norm": 0.5}
    with pytest.raises(UserError, match="trainer.no_such_flag is not a Seq2SeqTrainingArguments setting"):
        tr.train(train_config(tmp_path, "+trainer.no_such_flag=1"))


@pytest.mark.parametrize("game, epochs", [("arithmetic", 4), ("mapreader", 4), ("sorting", 12), ("twc", 14)])
def test_paper_experiments(game, epochs):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        cfg = compose("train", overrides=[f"+experiment=paper-{game}"])
    assert (cfg.game.name, cfg.epochs, cfg.model.name, cfg.batch_size, cfg.entities, cfg.final_example) == \
           (game, epochs, "t5-base", 4, "text", True)


def test_configs_ship_inside_the_package(tmp_path):
    import shutil

    src = tmp_path / "src"  # a copy, so that the build leaves nothing in the work tree
    shutil.copytree(ROOT / "bct", src / "bct", ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / f, src / f)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                        str(tmp_path), str(src)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    names = zipfile.ZipFile(next(tmp_path.glob("bct-*.whl"))).namelist()
    for conf in ["bct/conf/train.yaml", "bct/conf/evaluate.yaml", "bct/conf/generate.yaml", "bct/conf/model/t5-base.yaml",
                 "bct/conf/hydra/launcher/slurm.yaml", "bct/conf/experiment/paper-twc.yaml", "bct/conf/agent/llm.yaml"]:
        assert conf in names, conf
    assert CONF == Path(tr.__file__).parent / "conf"


def test_the_hub_check_goes_through_huggingface_hub(monkeypatch):
    from huggingface_hub import constants

    import bct.model as m

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


def test_group_beam_search_is_beam_search_in_one_group_and_diverse_in_many():
    from bct.decoding import group_beam_search
    from bct.model import build_from_config
    from bct.tokenizer import train_tokenizer

    tok = train_tokenizer(["take the red apple and put it in the box </s> look around"] * 4, vocab_size=120)
    torch.manual_seed(0)
    model = build_from_config({"d_model": 32, "d_ff": 64, "d_kv": 8, "num_heads": 4, "num_layers": 1}, tok).eval()
    enc = tok(["take the red apple", "look around the box"], return_tensors="pt", padding=True)
    ours = group_beam_search(model, enc.input_ids, enc.attention_mask, num_beams=4, num_groups=1, diversity_penalty=0.0,
                             max_new_tokens=6)
    ref = model.generate(**enc, num_beams=4, num_return_sequences=4, max_new_tokens=6, do_sample=False,
                         output_scores=True, return_dict_in_generate=True)
    assert [tok.decode(t, skip_special_tokens=True) for per in ours for t, _ in per] == \
           tok.batch_decode(ref.sequences, skip_special_tokens=True)
    assert [s for per in ours for _, s in per] == pytest.approx(ref.sequences_scores.tolist(), abs=1e-4)
    diverse = group_beam_search(model, enc.input_ids, enc.attention_mask, num_beams=8, num_groups=8,
                                diversity_penalty=0.9, max_new_tokens=6)
    plain = group_beam_search(model, enc.input_ids, enc.attention_mask, num_beams=8, num_groups=8,
                              diversity_penalty=0.0, max_new_tokens=6)
    first_tokens = lambda hyps: {tuple(t[:1]) for t, _ in hyps}  # noqa: E731
    assert all(len(first_tokens(d)) > len(first_tokens(p)) for d, p in zip(diverse, plain))
    assert all(len(per) == 8 for per in diverse)


def test_paper_decoding_defaults_and_evaluation_precision(monkeypatch):
    from bct.agents.t5 import eval_dtype

    with initialize_config_dir(str(CONF), version_base="1.3"):
        cfg = compose("evaluate")
    assert (cfg.num_beams, cfg.beam_groups, cfg.diversity_penalty, cfg.fallback_skip) == (16, 16, 0.9, 4)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert eval_dtype("cuda") == torch.bfloat16 and eval_dtype("cpu") == torch.float32
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    assert eval_dtype("cuda") == torch.float32


def test_game_presets_have_one_source():
    from bct.config import choices
    from bct.games import ALIASES, GAMES

    assert choices("game") == sorted([*GAMES, *ALIASES]) and not (CONF / "game").exists()
    with initialize_config_dir(str(CONF), version_base="1.3"):
        assert compose("train", overrides=["+game=twc-easy"]).game.name == "twc"  # an alias names its game


def test_final_examples_train_only_when_asked(tmp_path):
    plain = json.loads((tr.train(train_config(tmp_path)) / "bct_config.json").read_text())
    final = json.loads((tr.train(train_config(tmp_path, "final_example=true")) / "bct_config.json").read_text())
    assert final["num_examples"] == plain["num_examples"] + 2  # one 'completed' example per training game


def test_auto_threads_follow_the_cores_this_process_may_use(monkeypatch):
    import bct.threads as th

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
