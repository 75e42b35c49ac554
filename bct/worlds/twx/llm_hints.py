"""What the zero-shot LLM agent is told of TWX's games (bct/agents/llm_prompts.py asks `World.llm_rules`)."""

from __future__ import annotations

# The constraint rules of seed 000's Table 3, per game (in our words), each marked True where it is
# about a module: a run without modules is not told about commands it does not have.
RULES = {
    "arithmetic": [
        (False, "If you do not see the items you need, choose 'look around'."),
        (False, "To put something in the box, first take it, then put it in the box."),
        (False, "For example, to put 20 apples in the box, choose 'take 20 apples', then 'put 20 apples in box'."),
        (False, "After 'take math problem' comes 'read math problem'."),
        (False, "Never choose 'put math problem in box'."),
    ],
    "mapreader": [
        (False, "Begin with 'read map' to learn the layout around you."),
        (True, "Then, when you do not know how to reach a place, choose 'next step to PLACE' for the way there."),
        (False, "The action 'task' reminds you of your task."),
        (False, "Do not go anywhere the task does not need."),
    ],
    "sorting": [
        (True, "Choose 'sort ascending' or 'sort descending' to learn which item goes next."),
        (False, "Take the items one at a time."),
        (False, "Put each item in the box."),
    ],
    "twc": [
        (False, "Taking an item gives you a positive score."),
        (False, "Putting it in its right place gives a higher score; anywhere else gives 0."),
        (False, "Get as much score as you can."),
    ],
}

# bct's own guidance beyond Table 3 (agent.guidance=true): how to use each module well.
GUIDANCE = {
    "arithmetic": [
        "Take the math problem and read it before anything else.",
        "Then compute the answer with one of the add, sub, mul or div actions.",
        "Take the item whose quantity equals the answer, then put it in the box.",
    ],
    "mapreader": [
        "Then, before every move, ask 'next step to <room>' for the room you are heading to, and move "
        "in the direction of the room it names.",
        "Take the coin, then go back the same way to the box and put the coin in it.",
    ],
    "sorting": [
        "Before every take, ask 'sort ascending' to see the items ordered by quantity.",
        "Take the smallest item not yet in the box, put it in the box, and repeat.",
        "Quantities have units: 50mg is less than 10g.",
    ],
    "twc": ["After taking an object, query it to learn where it belongs, then put it there (open containers first)."],
}


# agent.feedback (seed 003): after each `put`, whether the score went up (twc: the object is where it belongs)
FEEDBACK_RIGHT = "Right position: the score went up."
FEEDBACK_WRONG = "That does not seem to be where it belongs; try the other location the query named, or another one."


def feedback(action: str, before: float, after: float) -> str:
    """The sentence told after a `put` (the LLM paper's feedback); "" after any other action."""
    if not action.startswith("put "):
        return ""
    return FEEDBACK_RIGHT if after > before else FEEDBACK_WRONG
