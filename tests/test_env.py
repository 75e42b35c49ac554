"""The module interface over TWX: answers, observation, registry, and misuse named."""

import pytest

from bct.core.errors import UserError
from bct.modules.stack import ModularEnv
from bct.worlds.registry import GAMES, get_game


def test_module_answers_replace_the_observation_but_not_look_or_inventory(envs):
    env = envs("twc")
    first = env.reset(seed=0, fold="train")
    take = next(a for a in first.valid_actions if a.startswith("take "))
    taken = env.step(take)
    assert not taken.from_module
    query = f"query {take[5:]}"
    assert query in taken.valid_actions  # module commands join the valid actions
    answer = env.step(query)
    assert answer.from_module and answer.action == query
    assert answer.observation.startswith(f"{take[5:]} is expected to be located at")
    assert (answer.look, answer.inventory, answer.score) == (taken.look, taken.inventory, taken.score)
    back = env.step("look around")  # the game answers again
    assert not back.from_module and back.observation.startswith("You are in")


def test_every_module_sees_every_game_observation(envs):
    env = envs("arithmetic")
    env.reset(seed=3, fold="train")
    for action in ["take math problem", "read math problem"]:
        step = env.step(action)
    calc = env.module("calc")
    assert calc.problems, step.observation
    assert any(c.startswith(calc.problems[-1][0]) for c in step.valid_actions)


def test_registry_names_aliases_and_presets():
    assert get_game("mapreader-random") is GAMES["mapreader"]
    assert get_game("twc-easy") is GAMES["twc"]
    assert "numItemsToPutAway=3" in get_game("twc-medium").params and "numLocations=1" in get_game("twc-medium").params
    assert "numItemsToPutAway=4" in get_game("twc-hard").params and "numLocations=2" in get_game("twc-hard").params
    with pytest.raises(
        UserError,
        match="unknown game 'chess'; valid choices: arithmetic, arithmetic-tales, coin, coin-tales, cookingworld",
    ):
        get_game("chess")


def test_unknown_fold_is_a_user_error(envs):
    with pytest.raises(UserError, match="valid choices: dev, test, train"):
        envs("sorting").reset(seed=0, fold="valid")


def test_env_step_needs_a_reset_and_a_string(envs):
    from bct.worlds.registry import get_game

    fresh = ModularEnv.__new__(ModularEnv)
    fresh.last, fresh.modules = None, []
    with pytest.raises(RuntimeError, match="call it before step"):
        ModularEnv.step(fresh, "look around")
    env = envs("twc")
    env.reset(10000, "dev")
    with pytest.raises(TypeError, match="an action is a string"):
        env.step(3)
    assert get_game("twc").name == "twc"
