"""What the zero-shot LLM agent is told: role, its world's rules for the game (`World.llm_rules`), the per-step query,
and TWC extras."""

from __future__ import annotations

ROLE = (
    "You are a robot in a text game, and you must finish the task step by step by choosing actions from "
    "the valid action set. Your task: {task}"
)
ROLE_MODULES = (
    "Some valid actions call a helper tool rather than act in the game (its answer is your next "
    "observation); use it where it helps, and take no needless actions."
)

MEMORY = (
    "You have a working memory: the facts you have observed are listed under 'What you remember' before "
    "each observation, and the 'recall' actions ask it for what those facts amount to (Simon's sequence and "
    "how much of it you did, the recipe and where its ingredients were seen, the rooms and what is left to "
    "explore in them). It never tells you what to do: deciding the next action is yours."
)

ANSWER = (
    "Choose one action from the valid action set to go on with the task. Write only that action, as it is "
    "listed: no other text, and you may not refuse to act."
)
THINK = (
    "First think in one or two sentences about what to do next, then give the action on its own last line "
    "as 'Action: <one action from the list>'."
)


def rules(hints, modules: bool, guidance: bool = False) -> list[str]:
    """The rules a run is told: its world's for its game (`World.llm_rules`: seed 000's Table 3 for TWX's, less the
    module rules without modules), and with `guidance` the world's module advice (`World.llm_guidance`)."""
    table, advice = hints
    out = [text for about_module, text in table if modules or not about_module]
    return out + (list(advice) if guidance and modules else [])


# The action query of seed 000's Table 2, in our words.
QUERY = (
    "{observation}\n{inventory}\nYour current score is: {score}\n"
    "The valid action set contains: {actions}.\n{instruction}"
)

FREE_QUERY = (
    "{observation}\n{inventory}\nYour current score is: {score}\n"
    "Commands take these forms (OBJ and LOC: things and places you see): {forms}.{modules}\n{instruction}"
)
FREE_ANSWER = (
    "Write one command to go on with the task, in those forms, naming things as the game names them: no other "
    "text, and you may not refuse to act."
)


def system_prompt(
    hints: tuple,
    task: str,
    constraints: bool,
    think: bool,
    example: str | None,
    modules: bool = True,
    guidance: bool = False,
    memory: bool = False,
) -> str:
    parts = [ROLE.format(task=task.strip())] + ([ROLE_MODULES] if modules else []) + ([MEMORY] if memory else [])
    told = rules(hints, modules, guidance) if constraints else []
    if told:
        parts.append(
            "There are some rules for choosing actions:\n" + "\n".join(f"{i}) {r}" for i, r in enumerate(told, 1))
        )
    if example:
        parts.append("An example of a game played well (a different game of the same kind):\n" + example)
    parts.append(THINK if think else ANSWER)
    return "\n\n".join(parts)


def step_prompt(
    observation: str, inventory: str, score: float, actions: list[str], think: bool, forms: tuple[str, ...] = ()
) -> str:
    """The query of one step; in a free-action world (`forms`: the command forms its parser takes) the agent
    writes a command in those forms, the module commands offered beside them."""
    if forms:
        return FREE_QUERY.format(
            observation=observation.strip(),
            inventory=inventory.strip(),
            score=round(score, 3),
            forms=", ".join(forms),
            modules=(" Helper commands: " + ", ".join(actions) + ".") if actions else "",
            instruction=THINK if think else FREE_ANSWER,
        )
    return QUERY.format(
        observation=observation.strip(),
        inventory=inventory.strip(),
        score=round(score, 3),
        actions=", ".join(actions),
        instruction=THINK if think else ANSWER,
    )


def memory_prompt(shown: list[str]) -> str:
    """The working memory's facts in natural language (seed 004 puts them into the prompt): everything
    observed that the memory keeps, and the latest actions taken (`Module.remembered`)."""
    return "What you remember:\n" + ("\n".join(f"- {t}" for t in shown) if shown else "- nothing yet") + "\n\n"


def walkthrough(steps) -> str:
    """A gold trajectory as a transcript: '> action' then what came back."""
    lines = [steps[0].observation.strip()]
    for s in steps[1:]:
        lines += [f"> {s.action}", s.observation.strip()]
    return "\n".join(lines)
