"""TextWorld's gold paths: its games' own walkthroughs, with the module asked before each game command where the
decision needs what the prompt no longer shows (the recipe once read; the moves made along a spelled-out path).

In the cooking levels the walkthrough crosses a house it knows from the start and cooks in an order of its own; a
Markov agent can follow neither. There, with modules, the gold path is the teacher's plan over what the cookbook
module remembers (as in TextWorldExpress's CookingWorld): explore by exits not yet taken until the cookbook is read,
take each ingredient where it was seen (opening containers, exploring further for one never seen), then the first
direction still to do in the recipe's order (the knife taken for a cut, walking where its appliance or the kitchen
is), and eat. Before each game command it asks what the choice rests on (`recall recipe` once read, `recall map`
where it walks), so the learner sees the facts and the choice.
"""

from __future__ import annotations

from collections.abc import Generator

from bct.core.game import Game
from bct.modules.stack import ModularEnv, Step
from bct.worlds.textworld.modules.cookbook import Cookbook, tool

ASK = {"cookbook": "recall recipe", "progress": "recall progress"}
MAX_COMMANDS = 200  # a plan that has not won by then stops; the path is checked to win (bct/worlds/gold.py)


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return {game.module} if modules and game.module else set()


def gold_path(env: ModularEnv, modules: bool) -> Generator[str, Step, None]:
    """The walkthrough of the game `env` has just reset; with modules, its module asked before each game command
    (the cookbook's from the moment the recipe was read), and in the cooking levels the plan above."""
    if modules and env.game.world_game == "tw-cooking":
        yield from _planned(env)
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


def _planned(env: ModularEnv) -> Generator[str, Step, None]:
    book: Cookbook = env.module("cookbook")
    for _ in range(MAX_COMMANDS):
        if env.last.done:
            return
        action, reads = _choose(book, env.last.valid_actions)
        if action is None:
            return
        for read in reads:
            if read in env.last.valid_actions:
                yield read
        yield action


def _choose(book: Cookbook, valid: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The next game command and the recall forms it rests on: read the cookbook, fetch what is not carried, then
    the first direction still to do, in the recipe's order (one rule the learner can read off the answer)."""
    if book.recipe is None:
        if "examine cookbook" in valid:
            return "examine cookbook", ()
        return _explore(book), ("recall map",)
    reads = ("recall recipe",)
    missing = book.missing()
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
    to_do = [d for d in book.recipe[1] if d not in book.done]
    if not to_do:
        return next((a for a in valid if a.startswith("eat ")), None), reads
    direction = to_do[0]
    verb, _, thing = direction.partition(" the ")
    with_ = tool(direction)
    if with_ == "knife" and "knife" not in book.inventory.lower():
        take = next((a for a in valid if a.startswith("take knife")), None)
        return (take, reads) if take else _go(book, "knife", reads)
    if with_ == "knife":
        command, where = f"{verb} {thing} with knife", None
    elif with_ and with_ != "kitchen":
        command, where = f"cook {thing} with {with_}", with_
    else:
        command, where = direction, "kitchen"
    if command in valid:
        return command, reads
    return _go(book, where, reads) if where else (None, ())


def _go(book: Cookbook, thing: str, reads: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """A step towards where `thing` was seen (the kitchen by name); exploring where it never was (the BBQ stands
    outside)."""
    where = "kitchen" if thing == "kitchen" and "kitchen" in book.routes() else book.where(thing)
    if where and where != book.here:
        return _towards(book, where), reads
    return _explore(book), (*reads, "recall map")


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
