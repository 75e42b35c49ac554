"""ScienceWorld's demonstrations for living things, registered in bct/worlds/scienceworld/searches.py (the growing
tasks, the life stages, find-plant, the unknown plant's cross) and the known plant's answer.

Waits watched. The growing tasks (grow-plant, grow-fruit, the known plant's experiment) water their pots, wait five times and
look around, then water again. Every prompt shows the look, and the pot goes dry at one of those waits: the waits
after it and the look around read the same as the one before the watering, with another action to take, which a Markov agent
cannot tell apart (the grow-plant agent waited until its step limit with a dry pot in sight). `watched_waits`
replays the simulator's path but ends a run of waits at the first one after which a pot the look showed wet is dry,
and drops the look around after a run: what the path does next then follows the prompt that shows why. Its pots are
filled in the order the look lists them (`pots_in_order`): the simulator's paths fill pots 1-3 in any order ("flower pot
3", "2", "1"), and an agent that must pick the next one by its number puts two seeds in one pot. Where the look shows the pots all holding the same (soil, or nothing), a path
that renames them so is the same path: the next pot is the first the look lists that holds no seed.

Life stages by the names the look writes. The life-stage tasks' simulator paths name what they focus on by referents
of the simulator's own: "focus on egg turtle in outside" where the look lists "a turtle egg", "focus on apple tree
in the adult stage in self watering flower pot 6" where it lists "a apple tree in the adult stage" in that pot; a
small model composing those garbles them ("focus on self watering flower pot 1 in the seedling stage in self
watering flower pot 3", refused). `focus_as_seen` focuses by the look's own words where they name one thing, so
the command is a copy of what is in view.

A pot by its name. find-plant's simulator paths carry the plant's flower pot to a box and move it there by a referent
listing what the pot holds ("move flower pot 9 containing banana tree and soil in inventory to yellow box"); a cloned
agent writes it with a plant or a pot it does not hold, and the parser refuses it. The search moves the pot by its own
name ("move flower pot 9 to yellow box"), which the parser takes.

A plant carried by its name. The pot to pick up is the one whose plant was focused: a number the agent must copy from
the look, beside the plant's name, and a cloned agent picks up another pot.
`plant_carried` focuses on the plant by the look's own name ("pea plant" for "a pea plant in the adult stage with a
tall height"), picks that plant up and moves it to the box by the same name: the parser takes all three, and the plant
carried out of its pot still scores 100. Where the look shows two plants of that name, the pot is carried and moved
by its own name, as before.

The known plant answered. mendelian-genetics-known-plant asks whether one of the pea plant's traits is dominant, and the
answer is Mendel's in every variation (games.KNOWN_ANSWERS); the one goal the task requires is the focus on the right
box, the experiment's steps are optional credit. With `answer=1` (not a search: nothing is tried) `answered` replays the
simulator's path to its first look in the greenhouse and focuses on the box that path ends on: 121-133 actions become a
few, and the trait's answer is learned from the train variations that show it.

The cross watched. mendelian-genetics-unknown-plant asks whether one trait of a plant the train data never show the
same way twice (drawn per variation: seed colour or shape, leaf shape or size, flower colour or size, plant height) is
dominant. The seed jar holds two parents that differ in it, each pure: every child of their cross shows the dominant
trait. The simulator's path crosses them, gathers the seeds, grows four children and focuses on the box only then:
114-234 actions, past the 100 an evaluation plays. `crossed` keeps the experiment and cuts it to its evidence: the
bee hive opened at once, ten ticks a wait, and the focus at the first look that answers, where a seed trait shows on
the cross's first seeds and any other on one child grown alone while its unwatered parents die (so the look shows
the child's trait and no parent's). The decision is then a reading the prompt holds: the trait's words in the look or
not (32-56 actions).
"""

from __future__ import annotations

import re
from collections.abc import Generator

from bct.worlds.scienceworld import text

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


_PLANTED = re.compile(r"^move (.+ seed) in seed jar to (flower pot \d+)$")
_POT_LINE = re.compile(r"a (flower pot \d+) \((containing [^\n]*?)\)\s*$", re.M)  # a pot and all it holds
_BOXES = re.compile(
    r"If the trait is dominant, focus on the ([a-z]+ box)\. If the trait is recessive, focus on the "
    r"([a-z]+ box)\."
)
CROSS_WAIT = "wait"  # ten ticks in one action: a watered pot stays wet, and a cycle is five actions, not nine


def pots_held(look: str) -> dict[str, str]:
    """Each flower pot the look lists, with what it holds ("containing soil, a unknown E plant in the ... stage")."""
    return {pot: held for pot, held in _POT_LINE.findall(look)}


def _living(held: str) -> bool:
    return " stage" in held and "dead" not in held


def shows(held: str, kind: str) -> bool:
    """Whether a living plant's description shows a trait of `kind`: its leaves from the adult stage, its height as
    ScienceWorld writes it, its flower once it flowers; a seed trait shows on the seeds (a pot's plant bears them)."""
    if not _living(held):
        return False
    if kind.startswith("seed"):
        return bears_seeds(held)
    if kind.startswith("leaf"):
        return "leaves" in held
    if kind == "plant height":
        return "height" in held or "tall" in held or "short" in held
    return "flower" in held.split("stage", 1)[-1]


def bears_seeds(held: str) -> bool:
    """Whether a pot's living plant bears seeds (they follow its stage: "... On the unknown E plant you see: a round
    blue unknown E seed")."""
    return _living(held) and " seed" in held.split("stage", 1)[-1]


def crossed(env) -> Generator[str, object, None]:
    """mendelian-genetics-unknown-plant's experiment cut to what answers it (module docstring, "The cross watched").
    The two parents are planted as the simulator's path plants them, the bee hive opened at once (its doors shut),
    the pots watered and the time passed by ten ticks a wait. A seed trait is answered where the first seeds show on
    the parents: every seed then is a child of the cross. Any other trait needs a child grown: one seed into a free
    pot, watered alone while the parents, unwatered, die, and the focus where the child shows the trait with no parent
    alive, so the look holds the child's trait and no other. The box is the one the simulator's path ends on; the look
    at the focus must agree with it (the trait's words in view where it is dominant, absent where recessive)."""
    gold = env.gold_actions()
    focus = [a for a in gold if a.startswith("focus on")][-1]
    step = None
    planted = [i for i, a in enumerate(gold) if _PLANTED.match(a)]
    if len(planted) < 2:
        raise ValueError("the simulator's path plants no two parents")
    for action in gold[: planted[1] + 1]:
        step = yield action
    if step.observation.startswith("Ambiguous request"):
        step = yield "0"
    seed, parents = _PLANTED.match(gold[planted[0]]).group(1), [_PLANTED.match(gold[i]).group(2) for i in planted[:2]]
    trait = text.TASK_TRAIT.search(step.task)
    if trait is None:
        raise ValueError(f"no trait read in the task: {step.task!r}")
    value, kind = trait.groups()
    for door in ("outside", "hallway"):
        if f"A door to the {door} (that is open)" in step.look:
            step = yield f"close door to {door}"
    step = yield "open bee hive"
    growing, child = list(parents), None

    def cycle():
        nonlocal step
        step = yield "activate sink"
        for pot in growing:
            step = yield "move jug to sink"
            step = yield f"pour jug into {pot}"
        step = yield "deactivate sink"
        step = yield CROSS_WAIT

    for _ in range(12):
        yield from cycle()
        held = pots_held(step.look)
        if any(bears_seeds(held.get(p, "")) for p in parents):
            break
    else:
        raise ValueError("no seed on the parents after 12 waits")
    if not kind.startswith("seed"):
        free = [pot for pot, held in pots_held(step.look).items() if held == "containing soil"]
        child = free[0]
        step = yield f"move {seed} in {seed.removesuffix(' seed')} plant to {child}"
        if step.observation.startswith("Ambiguous request"):
            step = yield "0"
        growing = [child]
        for _ in range(12):
            yield from cycle()
            held = pots_held(step.look)
            if shows(held.get(child, ""), kind) and not any(_living(held.get(p, "")) for p in parents):
                break
        else:
            raise ValueError(f"the child in {child} showed no {kind} with its parents dead after 12 waits")
    dominant, recessive = _BOXES.search(step.task).groups()
    held = pots_held(step.look)
    in_view = [held[p] for p in ([child] if child else parents) if p in held]
    seen = any(re.search(rf"\b{re.escape(value)}\b", h) for h in in_view)
    if focus != f"focus on {dominant if seen else recessive}":
        raise ValueError(f"the look ({'shows' if seen else 'lacks'} {value}) disagrees with the path's {focus!r}")
    yield focus
