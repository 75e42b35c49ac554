"""The Markov prompt in the paper's exact format."""

from bct.data.prompt import pack, pack_history, unpack, with_recent
from bct.modules.stack import Step


def step(obs, action=None):
    return Step(
        task="Your task is to sort.",
        observation=obs,
        look="You are in the\tkitchen.\n",
        inventory="Inventory:\n  empty\n",
        valid_actions=[],
        score=0.0,
        done=False,
        action=action,
    )


def test_pack_matches_the_paper_format():
    s = step("You take the 5g of oak.", action="take 5g of oak")
    assert pack(s, "take 5g of oak", "You see 5g of oak.") == (
        "Your task is to sort. </s> OBS You take the 5g of oak. </s> INV Inventory:   empty  </s> "
        "LOOK You are in the kitchen.  </s> <extra_id_0> </s> PACT take 5g of oak </s> POBS You see 5g of oak. </s>"
    )


def test_history_uses_the_previous_action_and_observation():
    steps = [step("start"), step("first answer", "look around"), step("second answer", "sort ascending")]
    sources = pack_history(steps)
    assert sources[0].endswith("</s> PACT  </s> POBS  </s>")  # nothing before the first step
    assert sources[2] == pack(steps[2], "sort ascending", "first answer")


def test_recent_actions_follow_the_task_and_unpack_by_label():
    source = pack(step("You see a door.", "look around"), "look around", "start")
    assert with_recent(source, ["open door", "go to kitchen", "look around"], 0) == source  # the paper's
    added = with_recent(source, ["open door", "go to kitchen", "look around"], 2)
    assert added.startswith("Your task is to sort. </s> RECENT go to kitchen ; look around </s> OBS You see a door.")
    assert with_recent(source, [], 2).startswith("Your task is to sort. </s> RECENT  </s> OBS")  # the first step
    parts = unpack(added)
    assert parts["recent"] == "go to kitchen ; look around" and parts["obs"] == "You see a door."
    assert parts["pact"] == "look around" and parts["pobs"] == "start"
    assert {k: v for k, v in parts.items() if k != "recent"} == unpack(source)


def test_each_row_gets_the_actions_its_episode_took_before_it():
    from datasets import Dataset

    from bct.seq2seq.trainset import actions_before

    rows = Dataset.from_dict({"seed": [1, 1, 1, 2, 2], "step": [0, 1, 2, 0, 1], "target": ["a", "b", "c", "d", "e"]})
    assert actions_before(rows, 2) == [[], ["a"], ["a", "b"], [], ["d"]]
    assert actions_before(rows, 1) == [[], ["a"], ["b"], [], ["d"]]
