"""TALES's benchmark loop (`protocol=tales`): the game side is tale-suite's own environments, the rules its
benchmark's (100 game commands, module calls free, a loss restarts inside the budget, the best score counts), the
variations its game seeds 1..N pick; and bct's second draw of a fold."""

import json

import pytest

from bct.agents.base import Agent, Decision
from bct.agents.rollout import EpisodeRequest, play
from bct.config.settings import EvaluateSettings
from bct.core.errors import UserError
from bct.worlds.registry import fold_seeds, get_game, modules_of, open_game, protocol_seeds, tales_runs
from bct.worlds.scienceworld.games import VARIATIONS
from bct.worlds.scienceworld.tales import fold_list

tales = pytest.importorskip("tales", reason="tale-suite is installed by runscripts/setup.sh")


class Scripted(Agent):
    """Sends its plan's commands in turn from every (re)start of the prompt; `fixed`: the same command always."""

    name = "scripted"
    reads_valid_actions = False

    def __init__(self, game, plan=(), fixed=None):
        super().__init__(game, False)
        self.plan, self.fixed, self.seen = list(plan), fixed, []

    def act(self, batch):
        self.seen += [ob.prompt for ob in batch]
        out = []
        for ob in batch:
            t = len(ob.actions)
            out.append(Decision(self.fixed or (self.plan[t] if t < len(self.plan) else "look around")))
        return out


def test_tales_seeds_are_its_game_seeds_1_to_n_of_the_folds_list():
    boil = get_game("scienceworld-boil")  # 14/7/9 variations: test is 21..29
    assert protocol_seeds(boil, "test", 5, "tales") == [22, 23, 24, 25, 26]
    assert protocol_seeds(boil, "test", 9, "tales") == [22, 23, 24, 25, 26, 27, 28, 29, 21]  # s % 9 wraps to the first
    assert protocol_seeds(boil, "dev", 2, "tales") == [15, 16]
    stages = get_game("scienceworld-identify-life-stages-2")  # 4 test variations, 6-9: seeds 1-5 pick 7 twice
    assert tales_runs(stages, "test", 5) == {7: 2, 8: 1, 9: 1, 6: 1}
    assert protocol_seeds(get_game("twc"), "test", 3, "tales") == [20001, 20002, 20003]


def test_a_second_draw_is_as_many_other_variations_of_the_fold_the_same_every_run():
    plant = get_game("scienceworld-find-plant")
    first, second = fold_seeds(plant, "test", 10), protocol_seeds(plant, "test", 10, draw=2)
    assert len(second) == 10 and not set(first) & set(second) and second == protocol_seeds(plant, "test", 10, draw=2)
    assert protocol_seeds(plant, "test", 10) == first
    searched = get_game("scienceworld-find-plant").with_params({"search": 1})  # a variant draws as its task does
    assert protocol_seeds(searched, "test", 10, draw=2) == second
    boil = get_game("scienceworld-boil")
    assert VARIATIONS["boil"][2] < 20
    with pytest.raises(UserError, match="fewer than two draws"):
        protocol_seeds(boil, "test", 10, draw=2)


def test_tales_refuses_what_its_loop_does_not_do_in_one_line():
    with pytest.raises(Exception, match="drop repeat_limit and draw"):
        EvaluateSettings(agent={"_target_": "bct.agents.baselines.RandomAgent"}, protocol="tales", repeat_limit=4)
    with pytest.raises(UserError, match="play test, not dev"):
        protocol_seeds(get_game("twc"), "dev", 5, "tales")  # TALES's TWX environment always resets the test fold
    with pytest.raises(UserError, match="TALES has no environment for mapreader"):
        protocol_seeds(get_game("mapreader"), "test", 5, "tales")


def test_every_tales_twx_setting_is_a_bct_game_and_its_parameters_agree_where_both_name_them():
    from tales.textworld_express.twx_data import TASKS

    from bct.worlds.twx.tales import NAMES, tales_name

    assert sorted(NAMES.values()) == sorted(f"TWX{name}" for name, _, _ in TASKS)
    params = {f"TWX{name}": (game, p) for name, game, p in TASKS}
    differ = []
    for ours, theirs in NAMES.items():
        game = get_game(ours)
        assert tales_name(game) == theirs
        twx_game, p = params[theirs]
        assert game.world_game == twx_game
        given = dict(kv.strip().split("=") for kv in p.split(",") if kv.strip())
        differ += [(ours, k) for k, v in given.items() if k in game.param_values and int(v) != game.param_values[k]]
    assert differ == []


@pytest.mark.slow
def test_the_scienceworld_states_through_tales_are_bct_s_own_on_the_same_variation():
    game = get_game("scienceworld-find-plant")
    ours, theirs = (
        open_game(game, False, list_actions=False),
        open_game(game, False, list_actions=False, tales_fold="dev"),
    )
    try:
        seed = protocol_seeds(game, "dev", 1, "tales")[0]
        a, b = ours.reset(seed, "dev", gold=False), theirs.reset(seed, "dev", gold=False)
        assert (a.task, a.observation, a.look, a.inventory) == (b.task, b.observation, b.look, b.inventory)
        for action in ["open door to hallway", "go to hallway", "look around"]:
            a, b = ours.step(action), theirs.step(action)
            assert (a.observation, a.look, a.inventory, a.score) == (b.observation, b.look, b.inventory, b.score)
    finally:
        ours.close(), theirs.close()


@pytest.mark.slow
def test_one_tales_environment_plays_several_tasks_in_turn_as_each_task_s_own_would():
    plant, animal = get_game("scienceworld-find-plant"), get_game("scienceworld-find-animal")
    with open_game(plant, False, list_actions=False, tales_fold="test") as env:
        env.reset(protocol_seeds(plant, "test", 1, "tales")[0], "test")
        assert env.switch(animal, modules_of(animal, False))
        first = env.reset(protocol_seeds(animal, "test", 1, "tales")[0], "test")
        assert "animal" in first.task and env.env.tale.task_name == "find-animal"
        assert env.env.tale.variations == fold_list(animal, "test")  # the new task's list, not the old one's


@pytest.mark.slow
def test_tales_loop_scores_the_walkthrough_one_and_a_policy_that_fails_at_once_zero_after_restarting():
    game = get_game("scienceworld-find-plant")
    seed = protocol_seeds(game, "test", 1, "tales")[0]
    with open_game(game, False, list_actions=False, tales_fold="test") as env:
        env.reset(seed, "test")
        walkthrough = env.gold_actions()  # TALES's own (its info's extra.walkthrough)
    gold = Scripted(game, walkthrough)
    [won] = play(gold, [EpisodeRequest(game, seed, 100, None, tales=True)], "test", False)
    assert (won.score, won.success, won.stop, won.restarts) == (1.0, True, "done", 0)
    assert won.env_steps == len(walkthrough) <= 100

    # the task fails at the first command (a focus on the air, not a plant): TALES restarts the game at each loss
    # until the budget is spent (12 commands here: each restart reloads the world, 100 would take a minute)
    wrong = Scripted(game, fixed="focus on air")
    [lost] = play(wrong, [EpisodeRequest(game, seed, 12, None, tales=True)], "test", False)
    assert (lost.score, lost.success, lost.stop, lost.env_steps) == (0.0, False, "step_limit", 12)
    assert lost.restarts == 11  # the 12th loss ends the budget
    assert sum(h.get("restarted", False) for h in lost.history) == 11
    # each restart begins the prompt afresh: no previous action, as at the first step
    assert wrong.seen[1] == wrong.seen[0] and "PACT  </s>" in wrong.seen[1]


@pytest.mark.slow
def test_module_calls_are_not_game_commands_in_tales_budget_and_a_loop_of_them_still_stops():
    game = get_game("scienceworld-find-plant").with_memory(True)
    seed = protocol_seeds(game, "test", 1, "tales")[0]
    agent = Scripted(game, fixed="recall progress")  # the working memory's command: never sent to the game
    agent.modules = True
    [ep] = play(agent, [EpisodeRequest(game, seed, 10, None, tales=True)], "test", True)
    assert ep.env_steps == 0 and ep.module_steps == 20 and ep.stop == "step_limit"


@pytest.mark.slow
def test_the_oracle_through_tales_on_twc_scores_one_and_its_results_say_tales(tmp_path, cli):
    r = cli(
        "bct.evaluate", "agent=oracle", "+game=twc", "fold=test", "num_variations=3", "protocol=tales",
        f"results_dir={tmp_path}", "progress=false",
    )  # fmt: skip
    assert r.returncode == 0 and "score 1.000" in r.stdout, r.stderr[-2000:]
    [results] = tmp_path.glob("oracle-twc-*/test-*/results.json")
    r = json.loads(results.read_text())
    assert r["protocol"] == "tales" and r["settings"]["step_limit"] == 100 and r["settings"]["repeat_limit"] is None
    assert [v["seed"] for v in r["per_variation"]] == [20001, 20002, 20003]
    assert all(v["restarts"] == 0 and v["final_score"] == 1.0 for v in r["per_variation"])


def test_a_variation_tales_seeds_pick_twice_weighs_as_two_runs():
    from bct.jobs.evaluation import summarize

    game = get_game("scienceworld-identify-life-stages-2")
    settings = {**game.record(), "fold": "test", "step_limit": 100, "protocol": "tales"}
    played = [{"seed": s, "score": score, "steps": 1, "env_steps": 1, "module_steps": 0, "success": score == 1.0,
               "restarts": 0, "final_score": score} for s, score in [(6, 0.0), (7, 1.0), (8, 0.0), (9, 0.0)]]  # fmt: skip
    r = summarize(settings, played, 5, {})
    assert r["avg_score"] == 0.4 and r["complete"]  # seeds 1 and 5 both play variation 7: (1 + 1) / 5
