"""ScienceWorld's demonstrations that find by playing what the simulator's gold path knows (`game.params.search=1`),
or answer what the train variations show (`answer=1`): each a generator of actions, sent each step, that
bct/worlds/scienceworld/gold.py plays in place of the simulator's path.

Searches. The paints' search (trying pairs of primaries) is bct/worlds/scienceworld/paints.py.

The changes of state (boil, melt, freeze, change-the-state-of-matter-of) keep every train substance in the
kitchen and every test substance (a metal) in the workshop: the simulator's test paths tour the house to find
it, and no train path ever shows a tour. Their search (`substance_search`) makes the simulator's tour (door,
room, look around, the substance in none of them) where the substance is shut in a kitchen container, then
opens the containers as the simulator does: what an agent must do when the task's substance is not in sight.
Where the train world had its substance carried out of the kitchen before play (`moved=1`, env.py), the tour
meets it (`found_elsewhere`): focused on and picked up where it lies, and brought back, as the simulator's test paths
do with the workshop's metal; the two rooms off the hallway come in an order drawn per variation. The focus comes where
the substance is first seen: focused on after the walk back, as the simulator's paths do, it came at a prompt the
melting-point tasks show too (back in the kitchen, "a substance called <e1>" held), where they use the thermometer, so
the agent did that instead of focusing (the experiment log, docs/experiments/).

The searches for living things and the known plant's answer are in bct/worlds/scienceworld/plants.py; those of the
tasks that measure (the inclined planes, the power circuits, the unknown substance's melting point) in
bct/worlds/scienceworld/measures.py. SEARCHES below names each task's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Generator, Iterator

from bct.worlds.scienceworld.env import carried
from bct.worlds.scienceworld.games import (
    CROSSED,
    INCLINED_PLANES,
    LIFE_STAGES,
    PAINTS,
    PLANTS_CARRIED,
    READ_UNTIL_SETTLED,
    SEARCHABLE,
    SUBSTANCE,
    WATCHED,
    WIRES_IN_ORDER,
)
from bct.worlds.scienceworld.measures import equal_times, settled_reading, wires_in_order
from bct.worlds.scienceworld.paints import paint_search
from bct.worlds.scienceworld.plants import crossed, focus_as_seen, plant_carried, watched_waits

HALLWAY_ROOMS = ("art studio", "workshop")


def tour(env) -> tuple[str, ...]:
    first, second = random.Random(f"tour {env.game.world_game} {env.seed}").sample(HALLWAY_ROOMS, 2)
    return ("bathroom", "kitchen", "hallway", first, "hallway", second, "hallway", "kitchen")


def visit(room: str) -> Generator[str, object, object]:
    """Into a room of the tour and a look there; returns the step the look made."""
    yield f"open door to {room}"
    yield f"go to {room}"
    return (yield "look around")


def substance_search(env) -> Generator[str, object, None]:
    """The changes of state found by touring the house while the substance is out of sight (module docstring)."""
    gold = env.gold_actions()
    if getattr(env.env, "moved_to", None):  # `moved=1`: the substance was carried away before play
        yield from found_elsewhere(env, gold)
        return
    looks = [i for i, a in enumerate(gold) if a == "look around"]
    arrived = looks[1] + 1 if len(looks) > 1 else 0  # the walk to the kitchen, its tools, and its second look
    step = None
    for action in gold[:arrived]:
        step = yield action
    named = SUBSTANCE.search(step.task) if step is not None else None
    seen = re.compile(rf"\b{re.escape(named.group(1))}\b") if named else None
    focus = next((i for i, a in enumerate(gold) if a.startswith("focus on")), len(gold))
    # where the simulator's path tours before it focuses (the substance is elsewhere), it is replayed as it is
    kitchen = not any(a.startswith("go to") for a in gold[arrived:focus])
    named_there = seen is not None and focus < len(gold) and seen.search(gold[focus])
    if kitchen and named_there and "called the kitchen" in step.look and not seen.search(step.look):  # shut away
        for room in tour(env):
            step = yield from visit(room)
            if room != "kitchen" and seen.search(step.look):
                raise ValueError(f"the tour met {named.group(1)} in the {room}, not in the kitchen's containers")
    for action in gold[arrived:]:
        yield action


def found_elsewhere(env, gold: list[str]) -> Generator[str, object, None]:
    """A change of state whose substance was carried out of the kitchen before play (`moved=1`, env.py), played as
    the simulator plays a test variation, where the metal lies on the workshop's table: the kitchen's tools, the tour
    (as for a substance shut away) until the substance is in sight, focused on and picked up there, and brought back
    to the kitchen, where the simulator's path goes on after its focus."""
    name = SUBSTANCE.search(env.env.task).group(1)
    seen = re.compile(rf"\b{re.escape(name)}\b")
    focus = gold.index(f"focus on {name}")
    looks = [i for i, a in enumerate(gold) if a == "look around"]
    for action in gold[looks[0] : looks[1] + 1]:  # play starts in the kitchen: its look, tools, and look again
        yield action
    for room in tour(env):
        step = yield from visit(room)
        if room != "kitchen" and seen.search(step.look):
            break
    else:
        raise ValueError(f"the tour did not meet {name} (carried to the {env.env.moved_to})")
    yield gold[focus]  # where it is seen, not after the walk back (module docstring)
    yield f"pick up {carried(name, gold[focus + 1])}"
    for action in (
        "open door to hallway",
        "go to hallway",
        "open door to kitchen",
        "go to kitchen",
        *gold[focus + 1 :],
    ):
        yield action


# the search of each task that has one (`game.params.search=1`; games.SEARCHABLE offers the parameter), by
# ScienceWorld's name
SEARCHES: dict[str, Callable[[object], Iterator[str]]] = {
    **dict.fromkeys(PAINTS, paint_search),
    **dict.fromkeys(("boil", "melt", "freeze", "change-the-state-of-matter-of"), substance_search),
    **dict.fromkeys(WATCHED, watched_waits),
    **dict.fromkeys(CROSSED, crossed),
    **dict.fromkeys(LIFE_STAGES, focus_as_seen),
    **dict.fromkeys(PLANTS_CARRIED, plant_carried),
    **dict.fromkeys(INCLINED_PLANES, equal_times),
    **dict.fromkeys(WIRES_IN_ORDER, wires_in_order),
    **dict.fromkeys(READ_UNTIL_SETTLED, settled_reading),
}
assert set(SEARCHES) == set(SEARCHABLE), "a search for each task that offers one, and none other"
