"""Gold trajectories: TWX's gold path, with each game's rule for injecting module calls.

A rule is a generator over one TWX gold action: it yields the actions to take in its place
(module calls and the game action), and is sent the step record each yielded action produced,
so it can read module answers. Without modules, gold paths use `plain`, which yields the action as is.

The games that need memory, played with it (Simon Says shown once, Coin, CookingWorld, twc with its
knowledge base), take their gold path from agent=planner instead (bct/agents/planner.py): TWX's own
path walks by the hidden map and the containers' hidden contents, the planner by what was observed,
asking the memory's recall forms before each decision. The data holds those recall calls, their
factual answers and the decisions; nothing in it names the next action before it is taken.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator

from bct.core.game import Game
from bct.modules.stack import ModularEnv, Step
from bct.worlds.twx import policy, text

Rule = Callable[[str, ModularEnv], Generator[str, Step, None]]


def plain(action: str, env: ModularEnv):
    yield action


def arithmetic(action: str, env: ModularEnv):
    """The calculation right after the math problem is read."""
    yield action
    if action == "read math problem":
        calc = env.module(env.game.module)
        yield calc.command_for(calc.problems[-1])


def mapreader(action: str, env: ModularEnv):
    """Ask the navigator before each move and go where it says: the data never contradicts it.

    Towards the coin's room until the coin is held, then back to the box's room. Where several
    routes are equally short, TWX's gold route and the navigator's may differ; both have the
    same length, so the module's route replaces TWX's move for move.
    """
    if not action.startswith("move "):
        yield action
        return
    coin_room, box_room = text.task_rooms(env.last.task)
    goal = box_room if "coin" in env.last.inventory else coin_room
    nav = env.module(env.game.module)
    if env.game.memory:  # the task's rooms, from the memory: in the latest observation, where they are read
        yield "recall task"
    yield f"next step to {goal}"
    yield f"move {nav.exits[nav.last_path[1]]}"


def sorting(action: str, env: ModularEnv):
    """Sort before every take."""
    if action.startswith("take "):
        yield "sort ascending"
    yield action


_PUT = re.compile(r"^put (.+?) (?:in|on) (.+)$")
_LEAD_UP = ("open ", "move ", "close ")  # what a gold path does on the way to putting an object away


def twc_plan(gold: list[str]) -> list[str]:
    """Ask where an object belongs just before the actions that lead to putting it away (opening its
    container, walking to its room), and once more right before the put when more than one action
    comes between, so that the answer is in the Markov prompt (this observation and the one before)
    whenever a decision needs it.

    The paper asks right after each take; with one object (twc-easy) that is the same path. With
    three or four, its answers have left the prompt by the time the objects are put away, and an
    agent trained on such paths can only guess (twc-medium: 0.47 on test)."""
    out: list[str] = []
    for action in gold:
        put = _PUT.match(action)
        if put:
            lead = 0
            while lead < len(out) and out[len(out) - 1 - lead].startswith(_LEAD_UP):
                lead += 1
            out.insert(len(out) - lead, f"query {put.group(1)}")
            if lead >= 2:
                out.append(f"query {put.group(1)}")
        out.append(action)
    return out


RULES: dict[str, Rule] = {
    "arithmetic": arithmetic,
    "mapreader": mapreader,
    "sorting": sorting,
    "twc": plain,
    # TWX's other four games have no module of their own (with memory, the planner's path: bct/worlds/twx/policy.py)
    "simonsays": plain,
    "peckingorder": plain,
    "coin": plain,
    "cookingworld": plain,
}
# Rules that rewrite the whole gold path first (they need to look ahead), before the per-action rules.
PLANS: dict[str, Callable[[list[str]], list[str]]] = {"twc": twc_plan}


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    """The modules the gold paths of `game` call: its own, and its working memory where the planner's path
    (or mapreader's rule) recalls. With modules=all, a call to any other module is one the game never needs."""
    if not modules:
        return set()
    used = {game.module} if game.module else set()
    if game.memory and (policy.plays(game, modules) or game.rules == "mapreader"):
        used.add(game.memory_module)
    return used


def gold_path(env: ModularEnv, modules: bool) -> Generator[str, Step, None]:
    """Every action of the gold trajectory of the episode `env` has just reset, one at a time; sent the
    step record each action produced."""
    if policy.plays(env.game, modules):
        yield from policy.actions(env)
        return
    rule = RULES[env.game.rules] if modules else plain
    gold = env.gold_actions()
    if modules and env.game.rules in PLANS:
        gold = PLANS[env.game.rules](gold)
    for gold_action in gold:
        yield from rule(gold_action, env)
