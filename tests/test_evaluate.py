"""Evaluation: oracle 1.0, results that agree with the play logs, batching, resume, bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

import bct.evaluate as ev
from bct.agents import OracleAgent, RandomAgent, T5Agent
from bct.data import load_examples
from bct.games import get_game
from bct.generate import generate
from bct.model import load_checkpoint
from bct.rollout import rollout
from bct.config import CONF
from bct.entities import ENTITY_RULE, REPRESENTATIONS
from bct.errors import UserError
from bct.prompt import training_pair
from bct.train import train

ROOT = Path(__file__).resolve().parent.parent
DEV = list(range(10000, 10005))


def eval_config(tmp_path, *overrides):
    with initialize_config_dir(str(CONF), version_base="1.3"):
        return compose("evaluate", overrides=[f"results_dir={tmp_path / 'results'}", "progress=false", *overrides])


@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiny")
    with initialize_config_dir(str(CONF), version_base="1.3"):
        cfg = compose("train", overrides=["+game=twc", "model=t5-tiny-scratch", "epochs=2", "num_games=4",
                                          f"data_dir={tmp / 'data'}", f"checkpoint_dir={tmp / 'ck'}", "progress=false"])
    return train(cfg)


@pytest.mark.parametrize("modules", [True, False])
@pytest.mark.parametrize("game", ["arithmetic", "mapreader", "sorting", "twc"])
def test_oracle_scores_one_through_the_evaluator(game, modules):
    results = rollout(OracleAgent(), get_game(game), "dev", DEV[:4], modules, batch_size=2)
    assert sorted(r.seed for r in results) == DEV[:4]
    assert all(r.score == 1.0 and r.success and r.stop == "done" for r in results)
    assert all((r.module_steps > 0) == modules for r in results)


class Recorder(OracleAgent):
    """Plays the gold path and records what a T5 agent with each representation would feed its model."""

    def __init__(self):
        super().__init__()
        self.seen = {e: {} for e in REPRESENTATIONS}

    def act(self, batch):
        for entities in REPRESENTATIONS:
            agent = T5Agent.__new__(T5Agent)
            agent.entities = entities
            for ob, m in zip(batch, agent.model_inputs(batch)):
                self.seen[entities].setdefault(ob.seed, []).append(m.source)
        return super().act(batch)


@pytest.mark.parametrize("modules", [True, False])
def test_evaluator_prompts_equal_the_training_data_byte_for_byte(tmp_path, modules):
    variant = "modules" if modules else "nomodules"
    games = ["arithmetic", "mapreader", "sorting", "twc", "twc-hard"]
    generate(games, [variant], ["dev"], num_games=3, out_dir=tmp_path, progress=False)
    for game in games:
        data = load_examples(tmp_path / game / variant / "dev.jsonl")
        agent = Recorder()
        played = rollout(agent, get_game(game), "dev", DEV[:3], modules, batch_size=3)
        for r in played:
            rows = [row for row in data if row["seed"] == r.seed and not row["final"]]
            assert [h["prompt"] for h in r.history] == [row["source"] for row in rows]
            for entities in REPRESENTATIONS:
                assert agent.seen[entities][r.seed] == [training_pair(row, entities)[0] for row in rows]
            assert agent.seen["placeholders"][r.seed] != agent.seen["text"][r.seed]


def test_random_agent_results_agree_with_histories(tmp_path):
    r = subprocess.run([sys.executable, "-m", "bct.evaluate", "agent=random", "+game=twc", "num_variations=6",
                        "batch_size=3", "progress=false", f"results_dir={tmp_path}"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    out = tmp_path / "random-twc-modules" / "dev"
    res = json.loads((out / "results.json").read_text())
    for key in ["game", "variant", "fold", "agent", "checkpoint", "num_variations", "avg_score", "avg_steps",
                "avg_env_steps", "avg_module_steps", "per_variation"]:
        assert key in res
    assert (res["game"], res["variant"], res["fold"], res["agent"], res["num_variations"]) == ("twc", "modules", "dev", "random", 6)
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
    for make in (OracleAgent, lambda: RandomAgent(7)):
        one = rollout(make(), game, "dev", DEV, True, batch_size=1)
        many = rollout(make(), game, "dev", DEV, True, batch_size=5)
        assert sorted((r.seed, r.score, r.steps, r.module_steps) for r in one) == \
               sorted((r.seed, r.score, r.steps, r.module_steps) for r in many)
    model, tokenizer, _ = load_checkpoint(tiny_checkpoint)
    agent = T5Agent(model, tokenizer, num_beams=4, max_target_length=16, entities="placeholders")
    one = {r.seed: [h["action"] for h in r.history] for r in rollout(agent, game, "dev", DEV, True, batch_size=1)}
    many = {r.seed: [h["action"] for h in r.history] for r in rollout(agent, game, "dev", DEV, True, batch_size=5)}
    pairs = [(a, b) for s in DEV for a, b in zip(one[s], many[s])]
    assert sum(a == b for a, b in pairs) >= 0.8 * len(pairs)


@pytest.mark.parametrize("decoding", ["generate", "rank"])
def test_a_tiny_checkpoint_evaluates_end_to_end(tmp_path, tiny_checkpoint, decoding):
    out = ev.evaluate(eval_config(tmp_path, f"checkpoint={tiny_checkpoint}", "num_variations=3", "batch_size=3",
                                  "num_beams=4", f"decoding={decoding}"))
    res = json.loads((out / "results.json").read_text())
    assert res["agent"] == "t5" and res["game"] == "twc" and res["variant"] == "modules" and res["complete"]
    assert out.parent.name == tiny_checkpoint.name + ("-rank" if decoding == "rank" else "")
    hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    assert hist[0]["candidates"] and hist[0]["action"]
    assert ("scores" in hist[0]) if decoding == "rank" else ("fallback" in hist[0])
    if decoding == "rank":  # ranking only ever picks a valid action, which is its top candidate
        assert all(h["action"] == h["candidates"][0] for h in hist)


def test_a_checkpoint_numbered_by_an_older_entity_rule_is_refused(tmp_path, tiny_checkpoint):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(tiny_checkpoint, old)
    run = json.loads((old / "bct_config.json").read_text())
    assert run["settings"]["entity_rule"] == ENTITY_RULE
    del run["settings"]["entity_rule"]  # as written before the rule was recorded
    (old / "bct_config.json").write_text(json.dumps(run))
    with pytest.raises(UserError, match="numbered by an older rule"):
        ev.evaluate(eval_config(tmp_path, f"checkpoint={old}", "num_variations=1"))


def test_an_interrupted_evaluation_resumes_without_losing_or_repeating(tmp_path, monkeypatch):
    real = ev.rollout

    def interrupted(*args, **kwargs):
        done = kwargs.get("on_done") or args[8]
        count = []

        def stop_after_two(result):
            done(result)
            count.append(1)
            if len(count) == 2:
                raise KeyboardInterrupt

        args = list(args)
        args[8] = stop_after_two
        return real(*args)

    cfg = eval_config(tmp_path, "agent=random", "+game=sorting", "num_variations=6", "batch_size=2")
    monkeypatch.setattr(ev, "rollout", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ev.evaluate(cfg)
    monkeypatch.setattr(ev, "rollout", real)
    out = tmp_path / "results" / "random-sorting-modules" / "dev"
    assert len((out / "histories.jsonl").read_text().splitlines()) == 2
    with (out / "histories.jsonl").open("a") as f:
        f.write('{"seed": 10005, "score": 0.5, "hist')  # a line cut short by the interruption
    ev.evaluate(cfg)
    seeds = [json.loads(line)["seed"] for line in (out / "histories.jsonl").read_text().splitlines()]
    assert sorted(seeds) == list(range(10000, 10006))
    res = json.loads((out / "results.json").read_text())
    assert res["num_variations"] == 6 and res["complete"]


@pytest.mark.parametrize("args, says", [
    (["checkpoint=/nonexistent/run"], "checkpoint /nonexistent/run does not exist"),
    (["checkpoint=conf"], "is not a bct checkpoint"),
    (["agent=random", "+game=twc", "fold=valid"], "fold=valid: choose one of train, dev, test"),
    (["agent=random", "+game=twc", "num_variations=5000"], "num_variations=5000: must be at most 1000 (a fold has 1000 games)"),
    (["agent=random"], "agent=random needs a game"),
    (["agent=random", "+game=chess"], "unknown game 'chess'"),
])
def test_bad_input_is_one_line(tmp_path, args, says):
    r = subprocess.run([sys.executable, "-m", "bct.evaluate", *args, f"results_dir={tmp_path}"], capture_output=True,
                       text=True, cwd=ROOT)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr[-2000:]
