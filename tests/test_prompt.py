"""The Markov prompt in the paper's exact format."""

from bct.data.prompt import pack, pack_history
from bct.worlds.play import Step


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
