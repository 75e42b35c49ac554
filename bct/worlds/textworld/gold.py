"""TextWorld's gold paths: its games' own walkthroughs, with the module asked before each game command where the
decision needs what the prompt no longer shows (the recipe once read; the moves made along a spelled-out path).

In the cooking levels of many rooms the walkthrough crosses a house it knows from the start; a Markov agent cannot
follow it. There, with modules, the gold path is the teacher's plan over what the cookbook module remembers (as in
TextWorldExpress's CookingWorld): explore by exits not yet taken until the cookbook is read, take each ingredient
where it was seen (opening containers, exploring further for one never seen), then the walkthrough's own cooking,
cutting and meal, walking where an appliance or the kitchen is. Before each game command it asks what the choice
rests on (`recall recipe` once read, `recall map` where it walks), so the learner sees the facts and the choice.
"""

from __future__ import annotations

from collections.abc import Generator

from bct.core.game import Game
from bct.modules.stack import ModularEnv, Step
from bct.worlds.textworld.games import COOKING_LEVELS, level
from bct.worlds.textworld.modules.cookbook import Cookbook

ASK = {"cookbook": "recall recipe", "progress": "recall progress"}
KITCHEN_VERBS = ("cook", "slice", "dice", "chop", "prepare", "eat")
MAX_COMMANDS = 200  # a plan that has not won by then stops; the path is checked to win (bct/worlds/gold.py)


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return {game.module} if modules and game.module else set()


def gold_path(env: ModularEnv, modules: bool) -> Generator[str, Step, None]:
    """The walkthrough of the game `env` has just reset; with modules, its module asked before each game command
    (the cookbook's from the moment the recipe was read), and in the cooking levels of many rooms the plan above."""
    if modules and env.game.world_game == "tw-cooking" and COOKING_LEVELS[level(env.game)][2] > 1:
        yield from _explored(env)
        return
    ask = ASK.get(env.game.module) if modules else None
    for action in env.gold_actions():
        # the walkthrough is planned from the first state, one ingredient at a time, and opens the fridge again
        # where it already stands open: a step the game does not list is passed over (the path must still win)
        if action not in env.last.valid_actions:
            continue
        if ask and ask in env.last.valid_actions:
            yield ask
        yield action


def _explored(env: ModularEnv) -> Generator[str, Step, None]:
    book: Cookbook = env.module("cookbook")
    cooking = [
        a
        for a in env.gold_actions()
        if a.split()[0] in KITCHEN_VERBS or a.split()[:2] in (["take", "knife"], ["drop", "knife"])
    ]
    for _ in range(MAX_COMMANDS):
        if env.last.done:
            return
        valid = env.last.valid_actions
        action, reads = _choose(book, valid, cooking)
        if action is None:
            return
        for read in reads:
            if read in env.last.valid_actions:
                yield read
        yield action


def _choose(book: Cookbook, valid: list[str], cooking: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The next game command and the recall forms it rests on."""
    if book.recipe is None:
        if "examine cookbook" in valid:
            return "examine cookbook", ()
        return _explore(book), ("recall map",)
    reads = ("recall recipe",)
    carried = book.inventory.lower()
    missing = [] if "prepare meal" in book.done else [i for i in book.recipe[0] if i.lower() not in carried]
    for item in missing:
        take = next((a for a in valid if a.startswith(f"take {item}")), None)
        if take:
            return take, reads
    if missing:
        room = next((r for r in (book.where(i) for i in missing) if r and r != book.here), None)
        if room:
            return _towards(book, room), reads
        doors = {d[0] for d in book.exits.get(book.here, {}).values() if d}
        shut = next((a for a in valid if a.startswith("open ") and a[5:] not in doors), None)
        if shut:
            return shut, reads
        return _explore(book), (*reads, "recall map")
    while cooking:
        action = cooking[0]
        if action in valid:
            cooking.pop(0)
            return action, reads
        # where it can be done: the kitchen, the appliance it cooks with, the knife (the walkthrough cuts where it lies)
        thing = (
            "kitchen"
            if action == "prepare meal"
            else action.split(" with ")[-1]
            if action.startswith("cook ")
            else ("knife" if "knife" in action and "knife" not in carried else None)
        )
        if thing:
            where = "kitchen" if thing == "kitchen" and "kitchen" in book.routes() else book.where(thing)
            if where and where != book.here:
                return _towards(book, where), reads
            move = None if where else _explore(book)  # never seen (the BBQ stands outside): explore
            if move:
                return move, (*reads, "recall map")
        take = action.startswith("take knife") and next((a for a in valid if a.startswith("take knife")), None)
        cooking.pop(0)
        if take:
            return take, reads
    return None, ()


def _towards(book: Cookbook, room: str) -> str:
    """The first move of the shortest walked way to `room`, its door opened first."""
    return book.first_move(book.routes()[room][0])


def _explore(book: Cookbook) -> str | None:
    """The first exit not yet taken here (its door opened first); else the first move to the nearest room with one."""
    for direction in book.exits.get(book.here, {}):
        if direction not in book.links.get(book.here, {}):
            return book.first_move(direction)
    nearest = book.nearest_untaken()
    return _towards(book, nearest) if nearest else None
