"""Evaluation: oracle 1.0, results that agree with the play logs, batching, decoding, resume, faults."""

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

import bct.jobs.evaluation as ev
import bct.seq2seq.training as tr
from bct.agents import OracleAgent, RandomAgent, T5Agent
from bct.agents.base import Decision, Observation
from bct.agents.rollout import rollout
from bct.agents.t5_checkpoint import load_agent
from bct.core.errors import UserError
from bct.data.datasets import load_examples
from bct.data.generation import generate
from bct.data.prompt import training_pair
from bct.data.representation import REPRESENTATIONS, get_representation
from bct.seq2seq.model import build_from_config, load_checkpoint
from bct.seq2seq.tokenizer import train_tokenizer
from bct.seq2seq.training import train
from bct.seq2seq.trainset import actions_before
from bct.worlds.registry import get_game

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses

TINY = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"]

ROOT = Path(__file__).resolve().parent.parent


DEV = list(range(10000, 10005))


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory, compose):
    tmp = tmp_path_factory.mktemp("tiny")
    cfg = compose(
        "train",
        "+game=twc",
        "model=t5-tiny-scratch",
        "epochs=2",
        "num_games=4",
        f"data_dir={tmp / 'data'}",
        f"checkpoint_dir={tmp / 'ck'}",
        "progress=false",
    )
    return train(cfg)


@pytest.mark.parametrize("modules", [True, False])
@pytest.mark.parametrize("game", ["arithmetic", "mapreader", "sorting", "twc"])
def test_oracle_scores_one_through_the_evaluator(game, modules):
    results = rollout(OracleAgent(get_game(game)), get_game(game), "dev", DEV[:4], modules, batch_size=2)
    assert sorted(r.seed for r in results) == DEV[:4]
    assert all(r.score == 1.0 and r.success and r.stop == "done" for r in results)
    assert all((r.module_steps > 0) == modules for r in results)


VIEWS = [(e, 0) for e in REPRESENTATIONS] + [("names", 3)]  # (entities, recent) a model may read prompts by


class Recorder(OracleAgent):
    """Plays the gold path and records what a T5 agent with each representation (and `recent`) would feed its
    model."""

    def __init__(self, game):
        super().__init__(game)
        self.seen = {view: {} for view in VIEWS}

    def act(self, batch):
        for entities, recent in VIEWS:
            agent = T5Agent.__new__(T5Agent)
            agent.representation, agent.recent = get_representation(entities), recent
            for ob, m in zip(batch, agent.model_inputs(batch)):
                self.seen[entities, recent].setdefault(ob.seed, []).append(m.source)
        return super().act(batch)


@pytest.mark.parametrize("modules", [True, False])
def test_evaluator_prompts_equal_the_training_data_byte_for_byte(tmp_path, modules):
    variant = "modules" if modules else "nomodules"
    games = ["arithmetic", "mapreader", "sorting", "twc", "twc-hard"]
    generate(games, [modules], ["dev"], num_games=3, out_dir=tmp_path, progress=False)
    for game in games:
        data = load_examples(tmp_path / game / variant / "dev.jsonl")
        agent = Recorder(get_game(game))
        played = rollout(agent, get_game(game), "dev", DEV[:3], modules, batch_size=3)
        before = dict(zip(zip(data["seed"], data["step"]), actions_before(data, 3)))
        for r in played:
            rows = [row for row in data if row["seed"] == r.seed and not row["final"]]
            assert [h["prompt"] for h in r.history] == [row["source"] for row in rows]
            for entities, recent in VIEWS:
                assert agent.seen[entities, recent][r.seed] == [
                    training_pair({**row, "before": before[r.seed, row["step"]]}, get_representation(entities), recent)[
                        0
                    ]
                    for row in rows
                ]
            assert agent.seen["placeholders", 0][r.seed] != agent.seen["text", 0][r.seed]
            assert "RECENT" in agent.seen["names", 3][r.seed][-1]


def test_random_agent_results_agree_with_histories(tmp_path):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bct.evaluate",
            "agent=random",
            "+game=twc",
            "num_variations=6",
            "batch_size=3",
            "progress=false",
            f"results_dir={tmp_path}",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    out = next((tmp_path / "random-twc-modules").glob("dev-*"))
    res = json.loads((out / "results.json").read_text())
    for key in [
        "game",
        "modules",
        "fold",
        "agent",
        "checkpoint",
        "num_variations",
        "avg_score",
        "avg_steps",
        "avg_env_steps",
        "avg_module_steps",
        "per_variation",
    ]:
        assert key in res
    assert (res["game"], res["modules"], res["fold"], res["agent"], res["num_variations"]) == (
        "twc",
        True,
        "dev",
        "random",
        6,
    )
    episodes = [json.loads(line) for line in (out / "histories.jsonl").read_text().splitlines()]
    assert sorted(e["seed"] for e in episodes) == [v["seed"] for v in res["per_variation"]] == list(range(10000, 10006))
    by_seed = {e["seed"]: e for e in episodes}
    for v in res["per_variation"]:
        hist = by_seed[v["seed"]]["history"]
        assert v["steps"] == len(hist) == v["env_steps"] + v["module_steps"]
        assert v["module_steps"] == sum(h["from_module"] for h in hist)
        assert v["score"] == max(0.0, hist[-1]["score"])
        assert {"prompt", "candidates", "action", "observation", "score"} <= set(hist[0])
    assert res["avg_score"] == pytest.approx(sum(v["score"] for v in res["per_variation"]) / 6, abs=1e-4)
    assert res["avg_score"] < 1.0


def test_batched_and_one_at_a_time_agree(tiny_checkpoint):
    game = get_game("twc")
    for make in (lambda: OracleAgent(game), lambda: RandomAgent(game, seed=7)):
        one = rollout(make(), game, "dev", DEV, True, batch_size=1)
        many = rollout(make(), game, "dev", DEV, True, batch_size=5)
        assert sorted((r.seed, r.score, r.steps, r.module_steps) for r in one) == sorted(
            (r.seed, r.score, r.steps, r.module_steps) for r in many
        )
    model, tokenizer, _ = load_checkpoint(tiny_checkpoint)
    for decoding in ("generate", "rank"):  # padding in a batch changes no decision: every action is the same
        agent = T5Agent(model, tokenizer, decoding=decoding, num_beams=4, max_target_length=16, entities="placeholders")
        one = {r.seed: [h["action"] for h in r.history] for r in rollout(agent, game, "dev", DEV, True, batch_size=1)}
        many = {r.seed: [h["action"] for h in r.history] for r in rollout(agent, game, "dev", DEV, True, batch_size=5)}
        assert one == many and sum(map(len, one.values())) > len(DEV)


def test_a_checkpoint_plays_with_the_modules_it_was_trained_with(tiny_checkpoint, eval_config):
    with pytest.raises(UserError, match=r"modules=false does not apply to .*: it was trained with modules"):
        ev.evaluate(eval_config(f"checkpoint={tiny_checkpoint}", "modules=false", "num_variations=1"))
    with pytest.raises(UserError, match=r"agent.seed does not apply to agent=t5"):
        ev.evaluate(eval_config(f"checkpoint={tiny_checkpoint}", "+agent.seed=3", "num_variations=1"))


@pytest.mark.parametrize("decoding", ["generate", "rank"])
def test_a_tiny_checkpoint_evaluates_end_to_end(tmp_path, tiny_checkpoint, decoding, eval_config):
    out = ev.evaluate(
        eval_config(
            f"checkpoint={tiny_checkpoint}",
            "num_variations=3",
            "batch_size=3",
            "agent.num_beams=4",
            f"agent.decoding={decoding}",
        )
    )
    res = json.loads((out / "results.json").read_text())
    assert res["agent"] == "t5" and res["game"] == "twc" and res["modules"] is True and res["complete"]
    assert out.parent.name == tiny_checkpoint.name + ("-rank" if decoding == "rank" else "")
    hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    assert hist[0]["candidates"] and hist[0]["action"]
    assert ("scores" in hist[0]) if decoding == "rank" else ("fallback" in hist[0])
    if decoding == "rank":  # ranking only ever picks a valid action, which is its top candidate
        assert all(h["action"] == h["candidates"][0] for h in hist)  # as played: names, not placeholders


def tiny_twc(compose, tmp_path, *settings):
    """A tiny checkpoint of twc (2 games, 1 epoch) trained with `settings`."""
    return train(
        compose(
            "train",
            *TINY,
            *settings,
            f"data_dir={tmp_path / 'data'}",
            f"checkpoint_dir={tmp_path / 'ck'}",
            "progress=false",
        )
    )


def test_a_checkpoint_trained_with_recent_actions_reads_them_when_it_plays(tmp_path, compose, eval_config):
    checkpoint = tiny_twc(compose, tmp_path, "recent=2")
    out = ev.evaluate(eval_config(f"checkpoint={checkpoint}", "num_variations=1", "agent.num_beams=2"))
    assert json.loads((out / "results.json").read_text())["trained"]["recent"] == 2
    hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    assert " </s> RECENT  </s> OBS " in hist[0]["model_input"]  # nothing done yet
    assert all(" </s> RECENT  </s> " not in h["model_input"] for h in hist[1:])  # the actions taken since


def test_a_checkpoint_trained_with_common_names_keeps_them_and_plays_by_them(tmp_path, compose, eval_config):
    checkpoint = tiny_twc(compose, tmp_path, "entities=common")
    _, _, run = load_checkpoint(checkpoint)
    common = set(run["common_names"])  # what both training episodes name (twc's rooms, its inventory's words)
    assert common and all(not n.startswith("<e") for n in common)
    # a training variation: its bedroom and furniture are words, the things only it shows are placeholders
    out = ev.evaluate(eval_config(f"checkpoint={checkpoint}", "fold=train", "num_variations=1", "agent.num_beams=2"))
    assert json.loads((out / "results.json").read_text())["trained"]["entities"] == "common"
    played = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    agent = load_agent(str(checkpoint))
    assert agent.representation.known == common
    first = played[0]["model_input"]
    assert "<e1>" in first and any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", first, re.I) for n in common)


def test_show_lays_out_played_episodes_step_by_step(tmp_path, tiny_checkpoint, eval_config, capsys):
    from bct.reports.show import main as show

    out = ev.evaluate(eval_config(f"checkpoint={tiny_checkpoint}", "num_variations=2", "agent.decoding=rank"))
    played = [json.loads(line) for line in (out / "histories.jsonl").read_text().splitlines()]
    capsys.readouterr()
    show([str(tmp_path / "results"), "--episode", str(played[1]["seed"]), "-n", "1"])
    shown = capsys.readouterr().out
    assert f"seed {played[1]['seed']}" in shown and f"seed {played[0]['seed']}" not in shown
    assert "1 episodes from 1 evaluations" in shown
    words = " ".join(shown.split())  # rich wraps long cells: compare words
    for h in played[1]["history"]:
        assert f"{h['step'] + 1} " in shown and h["action"].split()[0] in words
    with pytest.raises(SystemExit):  # an unknown seed: one line, exit 2
        show([str(out / "results.json"), "--episode", "99"])
    assert "no played episode with seed 99" in capsys.readouterr().err


def test_a_shared_agent_plays_as_the_original_and_its_card_carries_the_measured_score(
    tmp_path, tiny_checkpoint, eval_config, monkeypatch
):
    import huggingface_hub

    from bct.reports.share import main as share_main

    first = ev.evaluate(eval_config(f"checkpoint={tiny_checkpoint}", "num_variations=3", "fold=test"))
    measured = json.loads((first / "results.json").read_text())
    out = tmp_path / "shared" / "tiny-twc"
    calls = []

    class Hub:  # the hub's API as huggingface_hub offers it, recording instead of uploading
        def __init__(self, token=None):
            calls.append(("token", token))

        def create_repo(self, repo_id, **kw):
            calls.append(("create", repo_id))
            return f"https://huggingface.co/{repo_id}"

        def upload_folder(self, folder_path, repo_id, **kw):
            calls.append(("upload", sorted(p.name for p in Path(folder_path).iterdir())))

    monkeypatch.setattr(huggingface_hub, "HfApi", Hub)
    monkeypatch.setenv("HF_TOKEN", "hf_secret_token_123")
    share_main([str(tiny_checkpoint), str(out), "--results", str(tmp_path / "results"), "--push", "me/tiny-twc"])
    card = (out / "README.md").read_text()
    meta = card.split("---")[1]
    assert f"value: {round(measured['avg_score'], 4)}" in meta and "split: test" in meta and "config: twc" in meta
    assert f"| twc | modules | off | test | bct | 3 | {measured['avg_score']:.3f} |" in card
    # the mean of each way it was played, and the command that plays it so (agent settings off their defaults)
    assert f"| test | bct | 1 | 1 | {measured['avg_score']:.3f} | -" in card and "TextWorldExpress's twc" in card
    assert f"python -m bct.evaluate checkpoint={out} fold=test num_variations=100\n" in card
    record = json.loads((tiny_checkpoint / "bct_config.json").read_text())
    assert f"{record['num_examples']} examples, digest `{record['data_digest']}`" in card  # what it trained on
    assert calls[0] == ("token", "hf_secret_token_123") and calls[1] == ("create", "me/tiny-twc")
    assert {"README.md", "model.safetensors", "bct_config.json", "tokenizer.json"} <= set(calls[2][1])
    assert not any("hf_secret" in p.read_text(errors="ignore") for p in out.iterdir())  # the token: nowhere

    again = ev.evaluate(eval_config(f"checkpoint={out}", "num_variations=3", "fold=test"))
    replay = json.loads((again / "results.json").read_text())
    assert again != first and replay["settings"]["fingerprint"] == measured["settings"]["fingerprint"]
    assert [(v["seed"], v["score"], v["steps"]) for v in replay["per_variation"]] == [
        (v["seed"], v["score"], v["steps"]) for v in measured["per_variation"]
    ]
    with pytest.raises(UserError, match="exists and is not empty"):
        from bct.reports.share import share

        share(tiny_checkpoint, out)


def test_a_checkpoint_numbered_by_an_older_entity_rule_is_refused(tmp_path, tiny_checkpoint, eval_config):

    old = tmp_path / "old"
    shutil.copytree(tiny_checkpoint, old)
    run = json.loads((old / "bct_config.json").read_text())
    assert run["settings"]["entity_rule"] == get_representation("placeholders").rule
    del run["settings"]["entity_rule"]  # as written before the rule was recorded
    (old / "bct_config.json").write_text(json.dumps(run))
    with pytest.raises(UserError, match="numbered by an older rule"):
        ev.evaluate(eval_config(f"checkpoint={old}", "num_variations=1"))


def test_an_interrupted_evaluation_resumes_without_losing_or_repeating(tmp_path, monkeypatch, eval_config):
    from dataclasses import replace

    real = ev.play

    def interrupted(agent, jobs, *args, **kwargs):
        count = []

        def stopping(job):
            def done(result):
                job.on_done(result)
                count.append(1)
                if len(count) == 2:
                    raise KeyboardInterrupt

            return replace(job, on_done=done)

        return real(agent, [stopping(j) for j in jobs], *args, **kwargs)

    cfg = eval_config("agent=random", "+game=sorting", "num_variations=6", "batch_size=2")
    monkeypatch.setattr(ev, "play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ev.evaluate(cfg)
    monkeypatch.setattr(ev, "play", real)
    out = next((tmp_path / "results" / "random-sorting-modules").glob("dev-*"))
    assert len((out / "histories.jsonl").read_text().splitlines()) == 2
    with (out / "histories.jsonl").open("a") as f:
        f.write('{"seed": 10005, "score": 0.5, "hist')  # a line cut short by the interruption
    ev.evaluate(cfg)
    seeds = [json.loads(line)["seed"] for line in (out / "histories.jsonl").read_text().splitlines()]
    assert sorted(seeds) == list(range(10000, 10006))
    res = json.loads((out / "results.json").read_text())
    assert res["num_variations"] == 6 and res["complete"]


def test_out_of_memory_halves_the_model_batch_and_goes_on():
    agent = T5Agent.__new__(T5Agent)
    agent.model_batch, agent.device, agent.decoding = 8, "cpu", "rank"
    agent.model_inputs = lambda batch: [type("M", (), {"source": ob.prompt})() for ob in batch]
    sizes = []

    def rank(batch, maps):
        sizes.append(len(batch))
        if len(batch) > 2:
            raise torch.OutOfMemoryError("CUDA out of memory")
        return [Decision("look around") for _ in batch]

    agent._rank = rank
    decisions = T5Agent.act(agent, [type("Ob", (), {"prompt": str(i)})() for i in range(7)])
    assert len(decisions) == 7 and agent.model_batch == 2
    assert sizes[:3] == [7, 4, 2] and sum(s for s in sizes if s <= 2) == 7


def test_results_follow_the_weights_not_the_folder(tmp_path, train_config, eval_config):
    run = tr.train(train_config(*TINY, "run_name=mine"))
    first = json.loads((run / "bct_config.json").read_text())["fingerprint"]
    cfg = lambda: eval_config("num_variations=2", "batch_size=2", f"checkpoint={run}")  # noqa: E731
    out = ev.evaluate(cfg())
    assert json.loads((out / "results.json").read_text())["settings"]["fingerprint"] == first
    # retrain the same run on data that changed (one example fewer): same folder, same settings, other weights

    shutil.copytree(tmp_path / "data", tmp_path / "data2")
    train_file = tmp_path / "data2" / "twc" / "modules" / "train.jsonl"
    train_file.write_text("".join(train_file.read_text().splitlines(keepends=True)[1:]))
    tr.train(train_config(*TINY, "run_name=mine", "overwrite=true", f"data_dir={tmp_path / 'data2'}"))
    second = json.loads((run / "bct_config.json").read_text())["fingerprint"]
    assert second != first
    out = ev.evaluate(cfg())  # the old results were of other weights: set aside, evaluated afresh
    assert json.loads((out / "results.json").read_text())["settings"]["fingerprint"] == second
    assert (out.parent / f"{out.name}.replaced-{first[:8]}" / "results.json").exists()


def test_group_beam_search_is_beam_search_in_one_group_and_diverse_in_many():
    from bct.seq2seq.decoding import group_beam_search

    tok = train_tokenizer(["take the red apple and put it in the box </s> look around"] * 4, vocab_size=120)
    torch.manual_seed(0)
    model = build_from_config({"d_model": 32, "d_ff": 64, "d_kv": 8, "num_heads": 4, "num_layers": 1}, tok).eval()
    enc = tok(["take the red apple", "look around the box"], return_tensors="pt", padding=True)
    ours = group_beam_search(
        model, enc.input_ids, enc.attention_mask, num_beams=4, num_groups=1, diversity_penalty=0.0, max_new_tokens=6
    )
    ref = model.generate(
        **enc,
        num_beams=4,
        num_return_sequences=4,
        max_new_tokens=6,
        do_sample=False,
        output_scores=True,
        return_dict_in_generate=True,
    )
    assert [tok.decode(t, skip_special_tokens=True) for per in ours for t, _ in per] == tok.batch_decode(
        ref.sequences, skip_special_tokens=True
    )
    assert [s for per in ours for _, s in per] == pytest.approx(ref.sequences_scores.tolist(), abs=1e-4)
    diverse = group_beam_search(
        model, enc.input_ids, enc.attention_mask, num_beams=8, num_groups=8, diversity_penalty=0.9, max_new_tokens=6
    )
    plain = group_beam_search(
        model, enc.input_ids, enc.attention_mask, num_beams=8, num_groups=8, diversity_penalty=0.0, max_new_tokens=6
    )
    first_tokens = lambda hyps: {tuple(t[:1]) for t, _ in hyps}  # noqa: E731
    assert all(len(first_tokens(d)) > len(first_tokens(p)) for d, p in zip(diverse, plain))
    assert all(len(per) == 8 for per in diverse)


def test_paper_decoding_defaults_and_evaluation_precision(monkeypatch, compose):
    from bct.agents.t5 import eval_dtype

    t5 = compose("evaluate").agent
    assert (t5["num_beams"], t5["beam_groups"], t5["diversity_penalty"], t5["fallback_skip"]) == (16, 16, 0.9, 4)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert eval_dtype("cuda") == torch.bfloat16 and eval_dtype("cpu") == torch.float32
    assert eval_dtype("cuda", "fp32") == torch.float32 and eval_dtype("cpu", "bf16") == torch.bfloat16  # as set
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)
    assert eval_dtype("cuda") == torch.float32
    with pytest.raises(UserError, match="unknown agent.dtype 'fp16'"):
        eval_dtype("cuda", "fp16")


def test_the_weights_dtype_as_played_is_recorded_and_names_a_run_that_differs_from_training(
    tmp_path, tiny_checkpoint, eval_config
):
    assert json.loads((tiny_checkpoint / "bct_config.json").read_text())["precision"] == "fp32"  # trained on a CPU
    plain = ev.evaluate(eval_config(f"checkpoint={tiny_checkpoint}", "num_variations=2", "agent.decoding=rank"))
    half = ev.evaluate(
        eval_config(f"checkpoint={tiny_checkpoint}", "num_variations=2", "agent.decoding=rank", "agent.dtype=bf16")
    )
    r, h = (json.loads((o / "results.json").read_text()) for o in (plain, half))
    assert (r["dtype"], r["device"], h["dtype"]) == ("fp32", "cpu", "bf16")
    assert h["settings"]["dtype"] == "bf16" and "dtype" not in r["settings"]  # bf16 is part of the identity
    assert (
        plain.parent.name == tiny_checkpoint.name + "-rank" and half.parent.name == tiny_checkpoint.name + "-rank-bf16"
    )


def test_evaluation_survives_damaged_results_and_histories(tmp_path, compose):
    c = compose(
        "evaluate",
        "agent=random",
        "+game=sorting",
        "num_variations=4",
        "batch_size=2",
        "progress=false",
        f"results_dir={tmp_path}",
    )
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
    assert (out.parent / f"{out.name}.replaced-unreadable" / "histories.jsonl").exists()


def test_concurrent_evaluations_never_mix_their_episodes(tmp_path):
    """Two at once with different step limits: two folders. Two with the same settings: the second is
    refused in one line while the first holds the folder."""
    base = [
        sys.executable,
        "-m",
        "bct.evaluate",
        "agent=random",
        "+game=sorting",
        "num_variations=12",
        "batch_size=2",
        "progress=false",
        "threads=1",
        f"results_dir={tmp_path}",
    ]
    runs = [subprocess.Popen([*base, f"step_limit={n}"], cwd=ROOT, stderr=subprocess.PIPE, text=True) for n in (10, 50)]
    assert all(p.wait(timeout=300) == 0 for p in runs)
    folders = sorted((tmp_path / "random-sorting-modules").glob("dev-*"))
    assert len(folders) == 2
    for folder in folders:
        results = json.loads((folder / "results.json").read_text())
        seeds = [json.loads(line)["seed"] for line in (folder / "histories.jsonl").read_text().splitlines()]
        assert sorted(seeds) == list(range(10000, 10012)) and results["complete"]
        assert max(v["steps"] for v in results["per_variation"]) <= results["step_limit"]

    again = [*base, "num_variations=200", "repeat_limit=6"]  # a new folder, long enough to overlap
    first = subprocess.Popen(again, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not list(tmp_path.glob("random-sorting-modules/.dev-*.lock")) and time.time() < deadline:
        time.sleep(0.05)
    second = subprocess.run(again, cwd=ROOT, capture_output=True, text=True)
    first.kill()  # no need to play it to the end
    first.wait()
    assert second.returncode == 2 and "is in use by an evaluation (pid" in second.stderr.strip().splitlines()[-1]


class Killer(RandomAgent):
    """A random agent that kills the JVM of the first environment mid-episode (at its third call)."""

    calls, started = 0, []

    def act(self, batch):
        Killer.calls += 1
        if Killer.calls == 3:
            Killer.started[0].env.twx._gateway.java_process.kill()
            Killer.started[0].env.twx._gateway.java_process.wait()
        return super().act(batch)


def test_a_jvm_killed_mid_evaluation_replays_that_episode(eval_config, monkeypatch):
    real_start = ev.start_envs
    monkeypatch.setattr(ev, "start_envs", lambda *a: Killer.started.extend(real_start(*a)) or Killer.started)
    cfg = eval_config("agent=random", "+game=sorting", "num_variations=4", "batch_size=2")
    cfg.agent["_target_"] = f"{__name__}.Killer"  # built like any agent, from its _target_
    out = ev.evaluate(cfg)
    results = json.loads((out / "results.json").read_text())
    assert results["complete"] and results["num_failed"] == 0
    assert sorted(v["seed"] for v in results["per_variation"]) == list(range(10000, 10004))


def test_results_follow_the_weights_loaded_not_the_run_record(train_config, eval_config):
    run = train(train_config(*TINY, "run_name=mine"))
    out = ev.evaluate(eval_config(f"checkpoint={run}", "num_variations=2", "batch_size=2"))
    model, tokenizer, _ = load_checkpoint(run)
    with torch.no_grad():  # weights changed in place, by other means than bct.train: the record still says the old
        next(model.parameters()).add_(0.5)
    model.save_pretrained(run)
    again = ev.evaluate(eval_config(f"checkpoint={run}", "num_variations=2", "batch_size=2"))
    assert again == out and list(out.parent.glob(f"{out.name}.replaced-*"))  # old results set aside, played afresh


def test_a_damaged_run_record_is_named_in_one_line(tmp_path, cli, one_line):
    (tmp_path / "ck").mkdir()
    (tmp_path / "ck" / "bct_config.json").write_text('{"status": "do')
    one_line(
        cli("bct.evaluate", f"checkpoint={tmp_path / 'ck'}", f"results_dir={tmp_path}"), "is not a readable run record"
    )


@pytest.mark.slow
def test_the_readmes_python_example_runs(tmp_path, monkeypatch):
    """The README's evaluation from Python, with the settings object, run as written (in a fresh folder)."""
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    code = re.search(r"```python\n(from bct\.jobs\.evaluation import evaluate\n.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(code, "README.md", "exec"), namespace)
    oracle = json.loads((namespace["out"] / "results.json").read_text())
    assert (oracle["agent"], oracle["game"], oracle["fold"], oracle["num_variations"]) == ("oracle", "twc", "test", 5)
    assert oracle["avg_score"] == 1.0
    played = [json.loads(p.read_text()) for p in (tmp_path / "results").glob("twc-*/*/results.json")]
    assert [r["settings"]["decoding"] for r in played] == ["rank"] and played[0]["num_variations"] == 5


def test_games_played_side_by_side_give_what_one_at_a_time_gives_seed_by_seed():
    """The parallel game side: several JVMs stepped from threads play each seed exactly as one JVM alone."""
    from bct.agents import make_agent
    from bct.agents.rollout import env_slots
    from bct.config.settings import EvaluateSettings

    cfg = EvaluateSettings(agent="random", game="twc")
    game = cfg.played()
    agent = make_agent(cfg.agent, game, True)
    assert env_slots(agent, 16, 96) == max(1, len(__import__("os").sched_getaffinity(0)) - 1)  # a core each
    assert env_slots(agent, 16, 1) == 1
    seeds = list(range(10000, 10012))
    one = rollout(agent, game, "dev", seeds, True, batch_size=1)
    agent.batched = True  # as many games as asked, whatever the cores
    many = rollout(agent, game, "dev", seeds, True, batch_size=6)
    assert env_slots(agent, 16, 96) == 16
    played = lambda results: {r.seed: [(h["action"], h["observation"]) for h in r.history] for r in results}  # noqa: E731
    assert played(one) == played(many)


def test_no_more_games_start_at_once_than_the_memory_available_holds(monkeypatch):
    """Each game is a JVM: an evaluation asked for 16 at once on a machine with 1.5 GB free starts 3 TWX games
    (0.5 GB each) or 1 ScienceWorld game (1.2 GB), rather than games the kernel kills mid-episode."""
    import types

    import psutil

    from bct.agents import make_agent
    from bct.agents.rollout import env_slots
    from bct.config.settings import EvaluateSettings

    monkeypatch.setattr(psutil, "virtual_memory", lambda: types.SimpleNamespace(available=1.5 * 2**30))
    for game, slots in (("twc", 3), ("scienceworld-boil", 1)):
        cfg = EvaluateSettings(agent="random", game=game)
        agent = make_agent(cfg.agent, cfg.played(), False)
        agent.batched = True
        assert env_slots(agent, 16, 96) == slots


def test_episodes_of_several_games_play_in_one_pool_each_reported_to_its_own_game(monkeypatch):
    """`play` with jobs of two games (an evaluation of a checkpoint trained on both): each episode reaches the
    oracle's 1.0 in its own game and is handed to its own job's `on_done`; a TWX JVM cannot switch games, so a free
    one is replaced by one of the game next needed, never more JVMs than slots."""
    import bct.agents.rollout as ro

    opened = []
    real = ro.open_game
    monkeypatch.setattr(ro, "open_game", lambda game, *a, **k: opened.append(game.name) or real(game, *a, **k))
    games = [get_game("twc"), get_game("arithmetic")]
    heard: dict[str, list[int]] = {g.name: [] for g in games}
    jobs = [
        ro.EpisodeRequest(g, seed, g.step_limit, g.repeat_limit, lambda r, g=g: heard[g.name].append(r.seed))
        for seed in DEV[:3]
        for g in games
    ]
    agent = OracleAgent(games[0])
    try:
        results = ro.play(agent, jobs, "dev", True, batch_size=2)
    finally:
        agent.close()
    assert len(results) == 6 and all(r.score == 1.0 and r.success for r in results)
    assert heard == {"twc": DEV[:3], "arithmetic": DEV[:3]}
    assert opened[:1] == ["twc"] and set(opened) == {"twc", "arithmetic"}


def test_games_listed_are_played_in_one_pool_a_results_folder_each(eval_config):
    """`bct.evaluate agent=oracle games=[twc,arithmetic]`: each game scores the oracle's 1.0 in its own folder,
    as `+game=` would file it; naming both `+game` and `games` is one line."""
    outs = ev.evaluate_all(eval_config("agent=oracle", "games=[twc,arithmetic]", "num_variations=3", "batch_size=2"))
    results = [json.loads((out / "results.json").read_text()) for out in outs]
    assert [r["game"] for r in results] == ["twc", "arithmetic"]
    assert all(r["num_variations"] == 3 and r["avg_score"] == 1.0 and r["complete"] for r in results)
    assert [out.parent.name for out in outs] == ["oracle-twc-modules", "oracle-arithmetic-modules"]
    with pytest.raises(UserError, match=r"\+game and games are both set"):
        ev.evaluate_all(eval_config("agent=oracle", "games=[twc]", "+game=twc"))


def test_a_pool_of_games_asks_each_game_s_own_agent_for_its_episodes(eval_config):
    """Games played together: every episode is started and decided by its own game's agent, so each game's
    results count that agent's calls alone; one call to each agent a step."""
    from bct.agents.base import ByGame

    class Counting(RandomAgent):
        def __init__(self, game):
            super().__init__(game, True)
            self.started, self.calls = [], []

        def start(self, game, fold, seed, modules):
            self.started.append((game.name, seed))
            super().start(game, fold, seed, modules)

        def act(self, batch):
            self.calls.append(sorted(ob.game.name for ob in batch))
            return super().act(batch)

    twc, arithmetic = get_game("twc"), get_game("arithmetic")
    agents = {g.name: Counting(g) for g in (twc, arithmetic)}
    both = ByGame(agents)
    for g in (twc, arithmetic, twc):
        both.start(g, "dev", 10000, True)
    step = type("S", (), {"valid_actions": ["look around"]})()
    batch = [Observation(g, "dev", 10000, True, step, "", []) for g in (twc, arithmetic, twc)]
    assert [d.action for d in both.act(batch)] == ["look around"] * 3
    assert agents["twc"].started == [("twc", 10000)] * 2 and agents["arithmetic"].started == [("arithmetic", 10000)]
    assert agents["twc"].calls == [["twc", "twc"]] and agents["arithmetic"].calls == [["arithmetic"]]


def test_plain_beam_search_from_the_encoders_output_writes_what_generate_writes_from_the_prompt(tiny_checkpoint):
    agent = load_agent(str(tiny_checkpoint), num_beams=4, beam_groups=1)
    sources = ["Your task is to put the apple in the fridge. </s> OBS You are in the kitchen.", "OBS You see a fridge."]
    enc = agent._encode(sources)
    out = agent.model.generate(**enc, num_beams=4, num_return_sequences=4, max_new_tokens=agent.max_target_length)
    texts = [t.strip() for t in agent.tokenizer.batch_decode(out, skip_special_tokens=True)]
    assert agent._beams(agent.model, agent.tokenizer, agent._read(agent.model, agent.tokenizer, sources)) == [
        texts[:4],
        texts[4:],
    ]


def test_rerank_orders_one_models_own_candidates_by_its_likelihood(tiny_checkpoint, eval_config):
    """agent.rerank: the same candidates as the diverse beam search wrote, ordered by the model's own plain
    likelihood; its results go apart (`-rerank`), each step logs the scores; with rank decoding it is refused."""
    plain, rerank = (
        load_agent(str(tiny_checkpoint), num_beams=4),
        load_agent(str(tiny_checkpoint), decoding="generate", num_beams=4, rerank=True),
    )
    source = "Your task is to put the apple in the fridge. </s> OBS You are in the kitchen. You see a fridge."
    beams = list(
        dict.fromkeys(
            plain._beams(plain.model, plain.tokenizer, plain._read(plain.model, plain.tokenizer, [source]))[0]
        )
    )
    pools = [list(beams)]
    scores = rerank._pool([source], pools, rerank._read(rerank.model, rerank.tokenizer, [source]))[0]
    assert set(pools[0]) == set(beams) and scores == sorted(scores, reverse=True)
    own = dict(zip(beams, plain._mean_likelihood([source], [beams])[0]))
    assert scores == pytest.approx([own[c] for c in pools[0]], abs=1e-5)
    out = ev.evaluate(
        eval_config(
            f"checkpoint={tiny_checkpoint}",
            "num_variations=2",
            "agent.num_beams=4",
            "agent.decoding=generate",
            "agent.rerank=true",
        )
    )
    res = json.loads((out / "results.json").read_text())
    assert out.parent.name == tiny_checkpoint.name + "-rerank" and res["complete"] and res["settings"]["rerank"]
    hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    assert all(h["scores"] == sorted(h["scores"], reverse=True) for h in hist if not h.get("from_module"))
    with pytest.raises(UserError, match=r"agent.rerank .* applies to agent.decoding=generate"):
        load_agent(str(tiny_checkpoint), decoding="rank", rerank=True)


def test_an_ensemble_pools_its_models_candidates_ranked_by_their_mean_likelihood(
    tmp_path, compose, tiny_checkpoint, eval_config
):
    other = tiny_twc(compose, tmp_path, "seed=7")  # the same game and representation, other weights
    ensemble = load_agent(str(tiny_checkpoint), num_beams=4, ensemble=[str(other)])
    one, two = load_agent(str(tiny_checkpoint), num_beams=4), load_agent(str(other), num_beams=4)
    source = "Your task is to put the apple in the fridge. </s> OBS You are in the kitchen. You see a fridge."

    def beams(agent):
        return agent._beams(agent.model, agent.tokenizer, agent._read(agent.model, agent.tokenizer, [source]))[0]

    pools = [list(dict.fromkeys(beams(one)))]
    scores = ensemble._pool([source], pools, ensemble._read(ensemble.model, ensemble.tokenizer, [source]))[0]
    assert set(pools[0]) == set(beams(one) + beams(two)) and len(pools[0]) == len(scores) > 4  # both's, once each
    assert scores == sorted(scores, reverse=True)
    mean = [
        (a + b) / 2 for a, b in zip(one._mean_likelihood([source], pools)[0], two._mean_likelihood([source], pools)[0])
    ]
    assert scores == pytest.approx(mean, abs=1e-5)
    # a step reads the prompt once with each model's encoder: its beam search and its scoring share that reading
    reads = []
    for model in (ensemble.model, *(m for m, _ in ensemble.members)):
        model.get_encoder().register_forward_hook(lambda *_, m=model: reads.append(m))
    step = type("S", (), {"valid_actions": pools[0], "observation": "", "look": "", "inventory": ""})()
    ensemble.act([Observation(get_game("twc"), "dev", 10000, True, step, source, [])])
    assert len(reads) == 2 and reads[0] is not reads[1]
    # played end to end, both decodings: its own results folder, the members' weights recorded, mean scores logged
    for decoding in ("generate", "rank"):
        out = ev.evaluate(
            eval_config(
                f"checkpoint={tiny_checkpoint}",
                "num_variations=2",
                "agent.num_beams=4",
                f"agent.decoding={decoding}",
                f"agent.ensemble=[{other}]",
            )
        )
        res = json.loads((out / "results.json").read_text())
        suffix = "-ensemble2" + ("-rank" if decoding == "rank" else "")
        assert out.parent.name == tiny_checkpoint.name + suffix and res["complete"]
        (member,) = res["settings"]["ensemble"]
        assert member["checkpoint"] == str(other.resolve()) and member["fingerprint"]
        hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
        assert all(h["scores"] == sorted(h["scores"], reverse=True) for h in hist)
        assert all(len(h["scores"]) == len(h["candidates"]) for h in hist)
    # a member that reads or writes otherwise is refused in one line
    apart = tiny_twc(compose, tmp_path / "apart", "modules=false")
    with pytest.raises(UserError, match=r"agent.ensemble: .* was trained with other modules than .*: train it on"):
        load_agent(str(tiny_checkpoint), ensemble=[str(apart)])
    with pytest.raises(UserError, match=r"names a checkpoint twice"):
        load_agent(str(tiny_checkpoint), ensemble=[str(tiny_checkpoint)])
