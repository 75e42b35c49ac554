"""An agent's own won train episodes as training data (bct.data.wins): written as gold paths are, trained on beside
them, never from dev or test."""

import json
from dataclasses import replace

import pytest

import bct.seq2seq.trainset as ts
from bct.config.runs import train_settings
from bct.core.errors import UserError
from bct.data.datasets import load_examples
from bct.data.generation import generate
from bct.data.wins import WINS, append_rows, wins_for, won_rows
from bct.jobs.evaluation import evaluate
from bct.modules.stack import Step
from bct.worlds.registry import get_game

TINY = ["+game=twc", "model=t5-tiny-scratch", "epochs=1"]


def test_won_episodes_are_kept_only_from_the_train_fold(compose):
    with pytest.raises(UserError, match="fold=train"):
        compose("evaluate", "agent=oracle", "+game=twc", "fold=dev", "keep_wins=true")
    assert compose("evaluate", "agent=oracle", "+game=twc", "fold=train", "keep_wins=true").keep_wins


def test_a_won_life_is_rows_as_its_world_s_gold_rows_are():
    reset = Step("the task", "You are in the kitchen.", "a kitchen", "nothing", ["open door", "look"], 0.0, False)
    win = replace(reset, observation="Done.", score=1.0, done=True, success=True, action="open door")
    twc = won_rows(get_game("twc"), "train", 3, True, [reset, win])
    assert [(r["target"], r["step"], r["seed"]) for r in twc] == [("open door", 0, 3), ("completed", 1, 3)]
    assert twc[0]["valid_actions"] == ["open door", "look"]
    # ScienceWorld's gold rows go without its valid-action list (thousands a step): its won rows too
    sw = won_rows(get_game("scienceworld-boil"), "train", 3, True, [reset, win])
    assert [r["source"] for r in sw] == [r["source"] for r in twc] and all(r["valid_actions"] == [] for r in sw)
    assert won_rows(get_game("twc"), "train", 3, True, []) == []  # not won: nothing


def test_a_variation_won_by_several_agents_is_learned_from_its_shortest_win(tmp_path):
    twc = get_game("twc")
    reset = Step("the task", "You are in the kitchen.", "a kitchen", "nothing", ["open door", "look"], 0.0, False)
    detour = replace(reset, observation="You look.", action="look")
    win = replace(reset, observation="Done.", score=1.0, done=True, success=True, action="open door")
    for folder, episodes in {"a": [(3, [reset, detour, win]), (4, [reset, win])], "b": [(3, [reset, win])]}.items():
        (tmp_path / folder).mkdir()
        for seed, steps in episodes:
            append_rows(tmp_path / folder / WINS, won_rows(twc, "train", seed, True, steps))
    both = wins_for([str(tmp_path / "a"), str(tmp_path / "b")], twc)
    assert sorted(zip(both["seed"], both["target"])) == [
        (3, "completed"),
        (3, "open door"),
        (4, "completed"),
        (4, "open door"),
    ]
    assert len(wins_for([str(tmp_path / "a")], twc).filter(lambda r: r["seed"] == 3)) == 3  # alone, its detour stays


@pytest.mark.slow
def test_an_oracle_s_won_episodes_are_its_gold_paths_example_for_example(tmp_path, eval_config):
    out = evaluate(eval_config("agent=oracle", "+game=twc", "fold=train", "num_variations=3", "keep_wins=true"))
    won = load_examples(out / "wins.jsonl")
    generate([get_game("twc")], [True], ["train"], num_games=3, out_dir=tmp_path / "data", progress=False)
    gold = load_examples(tmp_path / "data/twc/modules/train.jsonl")
    keys = ("source", "target", "valid_actions", "final", "seed", "step", "fold")
    assert [tuple(r[k] for k in keys) for r in won] == [tuple(r[k] for k in keys) for r in gold]
    assert json.loads((out / "results.json").read_text())["settings"]["keep_wins"] is True


@pytest.mark.slow
def test_training_adds_the_won_episodes_to_the_gold_paths_and_names_them_in_the_run(
    tmp_path, eval_config, train_config
):
    wins = tmp_path / "wins"
    out = evaluate(
        eval_config(
            "agent=oracle", "+game=twc", "fold=train", "num_variations=4", "keep_wins=true", f"results_dir={wins}"
        )
    )
    plain = train_config(*TINY, "num_games=2")
    with_wins = train_config(*TINY, "num_games=2", f"wins=[{wins}]")
    gold = ts.game_rows(plain, get_game("twc"), True)
    both = ts.game_rows(with_wins, get_game("twc"), True)
    assert sorted(set(gold["seed"])) == [0, 1]
    assert sorted(set(both["seed"])) == [0, 1, 2, 3]  # the won variations beyond the gold paths' two
    assert len(both) == len(gold) + sum(not r["final"] for r in load_examples(out / "wins.jsonl"))
    assert "wins" not in train_settings(plain)
    (entry,) = train_settings(with_wins)["wins"]
    assert entry["file"] == str(out / "wins.jsonl")
    # more wins in the same folder: another run
    with (out / "wins.jsonl").open("a") as f:
        f.write((out / "wins.jsonl").read_text().splitlines()[0] + "\n")
    assert train_settings(with_wins)["wins"] != [entry]


@pytest.mark.slow
def test_a_variation_won_twice_in_one_file_counts_once_and_dev_wins_are_refused(tmp_path, eval_config, train_config):
    wins = tmp_path / "wins"
    out = evaluate(
        eval_config(
            "agent=oracle", "+game=twc", "fold=train", "num_variations=1", "keep_wins=true", f"results_dir={wins}"
        )
    )
    once = (out / "wins.jsonl").read_text()
    (out / "wins.jsonl").write_text(once + once)  # a run cut after the win was written, before its history
    cfg = train_config(*TINY, "num_games=1", f"wins=[{wins}]")
    gold = ts.game_rows(train_config(*TINY, "num_games=1"), get_game("twc"), True)
    assert len(ts.game_rows(cfg, get_game("twc"), True)) == 2 * len(gold)
    rows = [json.loads(line) | {"fold": "dev"} for line in once.splitlines()]
    (out / "wins.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(UserError, match="dev fold"):
        ts.game_rows(cfg, get_game("twc"), True)
    with pytest.raises(UserError, match="keep_wins=true"):
        ts.game_rows(train_config(*TINY, f"wins=[{tmp_path / 'none'}]"), get_game("twc"), True)
