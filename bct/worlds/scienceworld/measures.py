"""ScienceWorld's demonstrations for the tasks that measure, registered in bct/worlds/scienceworld/searches.py: the
inclined planes timed alike, the power circuits wired in the look's order, the unknown substance read until a reading
settles its answer.

Equal times on the inclined planes. Their simulator paths time the block on each plane by looking at the plane once a
tick until the block is at the bottom, then read the stopwatch: 47-368 actions on 36 train variations, so that the
simulator's own path scores 0.27-0.40 on the friction tasks within TALES's 100 actions, and at the choice, made after
both, a Markov prompt shows the second plane's time alone. `equal_times` waits once (10 ticks) and looks once on each
plane: the block's place after the same time on both ("55% down" against "9% down"; 16-24 actions, each of those 36
variations reaching 100), and the `slides` module (bct/worlds/scienceworld/modules/slides.py) keeps both measurements for the choice.

Wires in the look's order. The power circuits' simulator paths connect the source's anode and cathode to any two of
the three wires in sight, in any order ("connect battery anode to orange wire terminal 1" where the look lists a black,
a blue and an orange wire); which wire comes next is then a colour nothing in the prompt points to, and a cloned agent wires a terminal in use or
a wire not in the room (the experiment log, docs/experiments/). `wires_in_order`
renames the wires the path connects to the first the look lists, in its order (any wire serves: the same path): the
anode takes the first wire listed, the cathode the second.

A reading that settles the answer. The unknown substance's simulator paths heat it on the stove (or cool a liquid in
the freezer), reading it every other action, for up to 96 actions whatever the readings say, so a cloned agent follows them to
the step limit, past readings that already decide. Each prompt shows one reading, and only the number of readings (which a Markov prompt cannot
count) said when the path would stop. `settled_reading` stops at the first reading that settles the answer, a solid
still solid above the threshold (its melting point is higher) or a liquid still liquid below it (lower), and focuses
on that box: the box the simulator's path ends on, or the path goes on. Every reading is then compared with the
threshold (the `threshold` module, gold.py), so the prompt at each decision shows the comparison and, in the look, the
substance's state (what it did when trained: the experiment log, docs/experiments/).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Generator

from bct.worlds.scienceworld import text


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
    name, limit, boxes = _MEASURED.search(task).group(1), text.threshold(task), text.sides(task)
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
