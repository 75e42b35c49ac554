"""`refused=SHARE`: gold steps trained again after a command the game refused (bct.data.refused)."""

from __future__ import annotations

import pytest
from datasets import Dataset

from bct.config.runs import train_settings
from bct.core.errors import UserError
from bct.data.prompt import pack, with_recent
from bct.data.refused import after_refusal, refused_twins
from bct.modules.stack import Step
from bct.worlds.registry import get_game, world_of

REFUSAL = "No known action matches that input."


def step(obs: str) -> Step:
    inventory = "In your inventory, you see:  an orange  "
    return Step("Your task is to boil water.", obs, "This room is called the kitchen.  ", inventory, [], 0, False)


def rows() -> Dataset:
    actions = ["open door to kitchen", "go to kitchen", "pick up thermometer", "focus on water"]
    answers = ["The door is now open.", "You move to the kitchen.", "You move the thermometer to the inventory."]
    sources = [pack(step("You are outside."))] + [
        pack(step(answers[i]), actions[i], "You are outside." if i == 0 else answers[i - 1]) for i in range(3)
    ]
    return Dataset.from_list(
        [
            {"source": s, "target": a, "valid_actions": [], "final": False, "seed": 7, "step": i, "before": actions[:i]}
            for i, (s, a) in enumerate(zip(sources, actions))
        ]
    )


def test_the_prompt_after_a_refusal_is_the_one_an_agent_sees_after_its_own():
    before = pack(step("You move to the kitchen."), "go to kitchen", "The door is now open.")
    after = after_refusal(before, "pick up go to hallway", REFUSAL)
    # what evaluation packs after the game refused the command: the look and inventory unchanged, to the character
    assert after == pack(step(REFUSAL), "pick up go to hallway", "You move to the kitchen.")


def test_twins_keep_the_gold_action_and_read_the_refused_command_as_the_latest_one():
    data = rows()
    twins = refused_twins(data, get_game("scienceworld-boil"), share=1.0, recent=5, seed=1)
    # never the kitchen it stands in; the door to it, the water and a thermometer not shown are refused
    assert {t["before"][-1] for t in twins} == {"open door to kitchen", "focus on water", "pick up thermometer"}
    by_step = {r["step"]: r for r in data}
    for twin in twins:
        gold = by_step[-1 - twin["step"]]
        command = twin["before"][-1]
        assert twin["target"] == gold["target"] != command  # the gold action stands; never its own as the refused
        assert command in data["target"]  # a command from the game's gold steps, naming what this step does not show
        shown = gold["source"].split(" </s> <extra_id_0> ")[0]
        assert not world_of(get_game("scienceworld-boil")).knows(command, shown.partition(" </s> OBS ")[2])
        assert twin["before"] == [*gold["before"], command][-5:]
        assert twin["source"] == after_refusal(gold["source"], command, REFUSAL)
        assert f"RECENT {' ; '.join(twin['before'])} </s> OBS {REFUSAL}" in with_recent(
            twin["source"], twin["before"], 5
        )
    # the same twins every time, none where the share is 0
    assert twins == refused_twins(data, get_game("scienceworld-boil"), share=1.0, recent=5, seed=1)
    assert refused_twins(data, get_game("scienceworld-boil"), share=0.0, recent=5, seed=1) == []
    # a final step (kept where final_example=true) is never played after a refusal: no twin of it, the others the same
    last = data.map(lambda r: {"final": r["step"] == 3})
    assert refused_twins(last, get_game("scienceworld-boil"), share=1.0, recent=5, seed=1) == [
        t for t in twins if t["step"] != -4
    ]


def test_a_world_that_refuses_nothing_is_told_in_one_line():
    with pytest.raises(UserError, match="refused=0.5: twc's parser refuses no command"):
        refused_twins(rows(), get_game("twc"), share=0.5, recent=0, seed=1)


def test_the_share_is_part_of_the_run_it_defines(compose):
    assert train_settings(compose("train", "+experiment=scienceworld", "refused=0.1"))["refused"] == 0.1
    assert "refused" not in train_settings(
        compose("train", "+experiment=scienceworld")
    )  # older runs keep their folders
