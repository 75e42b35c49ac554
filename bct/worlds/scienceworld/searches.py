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
melting-point tasks show too (back in the kitchen, "a substance called <e1>" held), where they use the thermometer; 21
of `sw-slide8`'s 30 failed test episodes of the four tasks never focused on the metal they had brought back (12 ran the
water routine there instead, 9 measured it or walked on).

Waits watched. The growing tasks (grow-plant, grow-fruit, the genetics plants) water their pots, wait five times and
look around, then water again. Every prompt shows the look, and the pot goes dry at one of those waits: the waits
after it and the look around read the same as the one before the watering, with another action to take, which a Markov agent
cannot tell apart (the grow-plant agent waited until its step limit with a dry pot in sight). `watched_waits`
replays the simulator's path but ends a run of waits at the first one after which a pot the look showed wet is dry,
and drops the look around after a run: what the path does next then follows the prompt that shows why. Its pots are
filled in the order the look lists them (`pots_in_order`): the simulator's paths fill pots 1-3 in any order ("flower pot
3", "2", "1"), and an agent that must pick the next one by its number put two or more seeds in one pot in 7 of
grow-fruit's 10 test episodes (`sw-grow8`). Where the look shows the pots all holding the same (soil, or nothing), a path
that renames them so is the same path: the next pot is the first the look lists that holds no seed.

Life stages by the names the look writes. The life-stage tasks' simulator paths name what they focus on by referents
of the simulator's own: "focus on egg turtle in outside" where the look lists "a turtle egg", "focus on apple tree
in the adult stage in self watering flower pot 6" where it lists "a apple tree in the adult stage" in that pot; a
small model composing those garbles them ("focus on self watering flower pot 1 in the seedling stage in self
watering flower pot 3", refused). `focus_as_seen` focuses by the look's own words where they name one thing, so
the command is a copy of what is in view.

A pot by its name. find-plant's simulator paths carry the plant's flower pot to a box and move it there by a referent
listing what the pot holds ("move flower pot 9 containing banana tree and soil in inventory to yellow box"); all 7
test episodes of `sw-read8` that stopped at 0.75 (focused and carried, not delivered) wrote it with a plant or a pot
the inventory did not hold, and the parser refused it. The search moved the pot by its own name ("move flower pot 9
to yellow box"), which the parser takes. It did not deliver more: read again (`sw-stage8`), the carried pot held
another plant or nothing in all 7 episodes at 0.75 (6 of them focused on "adult pea plant" and carried a pot whose
number is not the pea's); the refused long move had hidden that.

A plant carried by its name. The pot to pick up is the one whose plant was focused: a number the agent must copy from
the look, beside the plant's name. Of `sw-title8`'s 7 failed find-plant test episodes, the 4 whose focus was taken
(on "adult pea plant") picked up a pot that held nothing, a peach or a banana tree; the other 3 wrote a focus the
parser refused: "adult apple tree" where the look showed none (the simulator's referent for a plant in the adult
stage), "living thing in flower pot 2" where that pot held nothing.
`plant_carried` focuses on the plant by the look's own name ("pea plant" for "a pea plant in the adult stage with a
tall height"), picks that plant up and moves it to the box by the same name: the parser takes all three, and the plant
carried out of its pot still scores 100. Where the look shows two plants of that name, the pot is carried and moved
by its own name, as before.

Equal times on the inclined planes. Their simulator paths time the block on each plane by looking at the plane once a
tick until the block is at the bottom, then read the stopwatch: 47-368 actions on 36 train variations, so that the
simulator's own path scores 0.27-0.40 on the friction tasks within TALES's 100 actions, and at the choice, made after
both, a Markov prompt shows the second plane's time alone. `equal_times` waits once (10 ticks) and looks once on each
plane: the block's place after the same time on both ("55% down" against "9% down"; 16-24 actions, each of those 36
variations reaching 100), and the `slides` module (bct/modules/slides.py) keeps both measurements for the choice.

Wires in the look's order. The power circuits' simulator paths connect the source's anode and cathode to any two of
the three wires in sight, in any order ("connect battery anode to orange wire terminal 1" where the look lists a black,
a blue and an orange wire); which wire comes next is then a colour nothing in the prompt points to. Of `sw-plant8`'s
10 test episodes of the two tasks, the 9 that failed each wrote a connection to a terminal already in use or to a wire
not in the room (5 connected the cathode to the anode's wire), and waited until the repeat limit. `wires_in_order`
renames the wires the path connects to the first the look lists, in its order (any wire serves: the same path): the
anode takes the first wire listed, the cathode the second.

A reading that settles the answer. The unknown substance's simulator paths heat it on the stove (or cool a liquid in
the freezer), reading it every other action, for up to 96 actions whatever the readings say: 7 of `sw-plant8`'s 10 test
episodes followed them to the 100th action at 0.79, heating a substance still solid at 249 degrees against a threshold
of -10, 10, 50 or 150. Each prompt shows one reading, and only the number of readings (which a Markov prompt cannot
count) said when the path would stop. `settled_reading` stops at the first reading that settles the answer, a solid
still solid above the threshold (its melting point is higher) or a liquid still liquid below it (lower), and focuses
on that box: the box the simulator's path ends on, or the path goes on. Every reading is then compared with the
threshold (the `compare` module, gold.py), so the prompt at each decision shows the comparison and, in the look, the
substance's state. Trained on the 30 with it, 8 of 10 test episodes are solved (2 before), but 6 of them stop at 202
degrees, where the train paths of threshold 200 settle, not at their own threshold: the agent learned where the paths
stop more than the comparison (docs/scienceworld.md, "A reading that settles the answer").

The known plant answered. mendelian-genetics-known-plant asks whether one of the pea plant's traits is dominant, and the
answer is Mendel's in every variation (games.KNOWN_ANSWERS); the one goal the task requires is the focus on the right
box, the experiment's steps are optional credit. With `answer=1` (not a search: nothing is tried) `answered` replays the
simulator's path to its first look in the greenhouse and focuses on the box that path ends on: 121-133 actions become a
few, and the trait's answer is learned from the train variations that show it.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Generator, Iterator

from bct.worlds.scienceworld import text
from bct.worlds.scienceworld.env import carried
from bct.worlds.scienceworld.games import (
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
from bct.worlds.scienceworld.paints import paint_search

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


WAITS = ("wait1", "wait")
_POT = re.compile(r"(flower pot \d+) \(([^)]*)\)")  # a pot and what it holds, as the look lists it


def watered(look: str) -> set[str]:
    """The flower pots the look shows holding water."""
    return {pot for pot, held in _POT.findall(look) if "water" in held}


_POT_NAME = re.compile(r"(?<!watering )flower pot \d+\b")


def pots_in_order(gold: list[str], look: str) -> dict[str, str]:
    """The pots a path names, renamed so that it fills them in the order the look lists them (by number): {} where
    the look does not show them all holding the same (then which pot is which matters, and the path is kept)."""
    named = list(dict.fromkeys(_POT_NAME.findall(" ".join(gold))))
    held = dict(_POT.findall(look))
    if len(named) < 2 or any(p not in held for p in named) or len({held[p] for p in named}) > 1:
        return {}
    return dict(zip(named, sorted(named, key=lambda p: int(p.split()[-1]))))


def _renamed(action: str, order: dict[str, str] | None) -> str:
    return _POT_NAME.sub(lambda m: order.get(m.group(), m.group()), action) if order else action


def watched_waits(env) -> Generator[str, object, None]:
    """The simulator's path with its waits watched (module docstring): a run of waits ends at the first wait after
    which a flower pot that held water holds none, and a look around right after a run is not sent (every prompt
    shows the look); its pots filled in the order the look lists them (`pots_in_order`)."""
    gold = env.gold_actions()
    step, i, order = None, 0, None
    while i < len(gold):
        if gold[i] not in WAITS or step is None:
            if order is None and _POT_NAME.search(gold[i]):  # the first pot named: the order is set where it is seen
                order = pots_in_order(gold, step.look if step else "")
            step = yield _renamed(gold[i], order)
            i += 1
            continue
        before, end = watered(step.look), i
        while end < len(gold) and gold[end] in WAITS:
            end += 1
        for action in gold[i:end]:
            step = yield action
            if before - watered(step.look):
                break
        i = end + (end < len(gold) and gold[end] == "look around")


_WHERE = re.compile(r" in (?:self watering flower pot \d+|outside)$")  # where the simulator's referent says it is


def as_seen(referent: str) -> str:
    """A life stage as the look writes it: "egg turtle in outside" -> "turtle egg", "apple seed in the seed stage in
    self watering flower pot 4" -> "apple seed", "apple tree in the adult stage in ..." -> "apple tree in the adult
    stage"."""
    name = _WHERE.sub("", referent)
    name = re.sub(r"^egg (.+)$", r"\1 egg", name)
    return re.sub(r"^(.+ seed) in the seed stage$", r"\1", name)


def focus_as_seen(env) -> Generator[str, object, None]:
    """The simulator's path with each focus on a life stage by the name the look writes, where the look writes it once
    (module docstring); else by the simulator's referent."""
    step = None
    for action in env.gold_actions():
        if action.startswith("focus on ") and step is not None:
            seen = as_seen(action.removeprefix("focus on "))
            if step.look.count(seen) == 1:
                action = f"focus on {seen}"
        step = yield action


_POT_CARRIED = re.compile(r"^move (flower pot \d+) containing .+ in inventory to (.+)$")


_POT_PICKED = re.compile(r"^pick up (flower pot \d+)$")


def plant_carried(env) -> Generator[str, object, None]:
    """The simulator's path with the plant it focuses on named as the look writes it, picked up and moved to the box
    by that name, not in its pot (module docstring); where the look names two plants so, the pot carried and moved by
    its own name ("move flower pot 3 to red box"), not by the simulator's referent that lists what it holds."""
    gold = env.gold_actions()
    pot = next((m.group(1) for m in map(_POT_PICKED.match, gold) if m), None)
    step, plant = None, None
    for action in gold:
        if action.startswith("focus on ") and step is not None and pot is not None:
            held = re.search(rf"\b{pot} \(containing an? (.+?) in the [a-z]+ stage", step.look)
            if held and step.look.count(f" {held.group(1)} in the ") == 1:
                plant = held.group(1)
                action = f"focus on {plant}"
        elif plant is not None and action == f"pick up {pot}":
            action = f"pick up {plant}"
        elif plant is not None:
            action = _POT_CARRIED.sub(rf"move {plant} to \2", action)
        else:
            action = _POT_CARRIED.sub(r"move \1 to \2", action)
        step = yield action


def equal_times(env) -> Generator[str, object, None]:
    """The simulator's path with each run of looks at a plane while the block slides (a look a tick, up to 282 in a
    row, until it is at the bottom) made one wait and one look: each plane's slide is then measured over the same
    time, the block's place after it (module docstring)."""
    for action, run in itertools.groupby(env.gold_actions()):
        if action.startswith("look at inclined plane"):
            yield "wait"
            yield action
            continue
        for same in run:  # noqa: UP028 (not `yield from`: a group of groupby takes no sent step)
            yield same


_LISTED_WIRE = re.compile(r"\ban? ([a-z]+ wire)\b")  # "a black wire" as a look lists it
_WIRE = re.compile(r"\b[a-z]+ wire\b")  # "black wire" as a command names it


def _wires_renamed(action: str, order: dict[str, str] | None) -> str:
    return _WIRE.sub(lambda m: order.get(m.group(), m.group()), action) if order else action


def wires_in_order(env) -> Generator[str, object, None]:
    """The simulator's path with the wires it connects renamed to the first the look lists, in its order (module
    docstring): any wire serves, so the path is the same one; kept where the look does not list them all."""
    gold = env.gold_actions()
    used = list(dict.fromkeys(w for a in gold if a.startswith("connect ") for w in _WIRE.findall(a)))
    step, order = None, None
    for action in gold:
        if order is None and step is not None and any(w in action for w in used):  # the first wire named: as seen
            listed = list(dict.fromkeys(_LISTED_WIRE.findall(step.look)))
            order = dict(zip(used, listed)) if set(used) <= set(listed) else {}
        step = yield _wires_renamed(action, order)


_MEASURED = re.compile(r"measure the melting point of (?:solid |liquid |gas )?(.+?), which")
_SIDE = re.compile(r"is (above|below) -?[\d.]+ degrees celsius, focus on the ([a-z]+ box)")


def state_of(name: str, step) -> str | None:
    """The state the look (or the inventory) writes a substance in ("solid", "liquid"): "a metal pot (containing solid
    unknown substance Z)"; None where neither shows it."""
    m = re.search(rf"\b(solid|liquid|gas) {re.escape(name)}\b", f"{step.look} {step.inventory}", re.I)
    return m.group(1).lower() if m else None


def settles(state: str | None, reading: float, limit: float) -> str:
    """Which side of `limit` a melting point lies that one reading settles: "above" for a solid still solid above it,
    "below" for a liquid still liquid below it; "" where the reading leaves it open."""
    if state == "solid" and reading > limit:
        return "above"
    return "below" if state == "liquid" and reading < limit else ""


def settled_reading(env) -> Generator[str, object, None]:
    """The simulator's path to the first reading that settles the answer, then the focus on the box it settles (module
    docstring): still solid above the threshold, still liquid below it; the whole path where none does."""
    gold, task = env.gold_actions(), env.last.task
    name, limit, boxes = _MEASURED.search(task).group(1), text.threshold(task), dict(_SIDE.findall(task))
    answer = [a for a in gold if a.startswith("focus on")][-1]
    for action in gold:
        step = yield action
        reading = text.temperature(step.observation) if action.startswith("use thermometer") else None
        if reading is None:
            continue
        side = settles(state_of(name, step), reading, limit)
        if boxes.get(side) and answer == f"focus on {boxes[side]}":
            yield answer
            return


def answered(env) -> Generator[str, object, None]:
    """mendelian-genetics-known-plant answered as its train data hold it (games.KNOWN_ANSWERS): the simulator's path
    as far as its first look in the greenhouse, where the boxes are, then the focus its path ends on."""
    gold = env.gold_actions()
    focus = [a for a in gold if a.startswith("focus on")][-1]
    for action in gold:
        step = yield action
        if action == "look around" and text.room(step.look) == "greenhouse":
            break
    yield focus


# the search of each task that has one (`game.params.search=1`; games.SEARCHABLE offers the parameter), by
# ScienceWorld's name
SEARCHES: dict[str, Callable[[object], Iterator[str]]] = {
    **dict.fromkeys(PAINTS, paint_search),
    **dict.fromkeys(("boil", "melt", "freeze", "change-the-state-of-matter-of"), substance_search),
    **dict.fromkeys(WATCHED, watched_waits),
    **dict.fromkeys(LIFE_STAGES, focus_as_seen),
    **dict.fromkeys(PLANTS_CARRIED, plant_carried),
    **dict.fromkeys(INCLINED_PLANES, equal_times),
    **dict.fromkeys(WIRES_IN_ORDER, wires_in_order),
    **dict.fromkeys(READ_UNTIL_SETTLED, settled_reading),
}
assert set(SEARCHES) == set(SEARCHABLE), "a search for each task that offers one, and none other"
