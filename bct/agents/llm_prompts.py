"""What the zero-shot LLM agent is told: role, per-game rules, the per-step query, and TWC extras."""

from __future__ import annotations

ROLE = ("You are a robot playing a text game. Each turn you are shown what you observe, what you carry, your "
        "score and the actions you may take now, some of which ask a helper tool. Your task: {task}")

ANSWER = "Answer with exactly one action from the list, written as it is listed, and nothing else."
THINK = ("First think in one or two sentences about what to do next, then give the action on its own last line "
         "as 'Action: <one action from the list>'.")

# Constraint rules per game family (seed 000, Table 2), in our words.
RULES = {
    "arithmetic": ["Take the math problem and read it before anything else.",
                   "Then compute the answer with one of the add, sub, mul or div actions.",
                   "Take the item whose quantity equals the answer, then put it in the box."],
    "mapreader": ["Read the map first.",
                  "Then, before every move, ask 'next step to <room>' for the room you are heading to, and move "
                  "in the direction of the room it names.",
                  "Take the coin, then go back the same way to the box and put the coin in it."],
    "sorting": ["Before every take, ask 'sort ascending' to see the items ordered by quantity.",
                "Take the smallest item not yet in the box, put it in the box, and repeat.",
                "Quantities have units: 50mg is less than 10g."],
    "twc": ["Take an object before you try to put it somewhere.",
            "After taking an object, query it to learn where it belongs, then put it there (open containers first).",
            "Putting an object in its right place earns points; a wrong place does not."],
}

QUERY = ("Observation: {observation}\n{inventory}\nScore: {score}\n"
         "Valid actions: {actions}\n{instruction}")

FEEDBACK_RIGHT = "Right position: the score went up."
FEEDBACK_WRONG = "That does not seem to be where it belongs; try the other location the query named, or another one."


def system_prompt(family: str, task: str, constraints: bool, think: bool, example: str | None) -> str:
    parts = [ROLE.format(task=task.strip())]
    if constraints and family in RULES:
        parts.append("Rules:\n" + "\n".join(f"- {r}" for r in RULES[family]))
    if example:
        parts.append("An example of a game played well (a different game of the same kind):\n" + example)
    parts.append(THINK if think else ANSWER)
    return "\n\n".join(parts)


def step_prompt(observation: str, inventory: str, score: float, actions: list[str], think: bool) -> str:
    return QUERY.format(observation=observation.strip(), inventory=inventory.strip(), score=round(score, 3),
                        actions=", ".join(actions), instruction=THINK if think else ANSWER)


def walkthrough(steps) -> str:
    """A gold trajectory as a transcript: '> action' then what came back."""
    lines = [steps[0].observation.strip()]
    for s in steps[1:]:
        lines += [f"> {s.action}", s.observation.strip()]
    return "\n".join(lines)
