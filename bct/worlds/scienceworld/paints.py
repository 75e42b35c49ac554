"""ScienceWorld's paint search, a demonstration of bct/worlds/scienceworld/searches.py.

The simulator's path for chemistry-mix-paint-secondary-color pours the two right primaries at
once: the colour wheel is knowledge the game never shows, and the folds split it (train makes green and
orange, dev orange and violet, test violet alone), so an agent cloned from it mixes green whatever the task
asks. Its search (`paint_search`) tries pairs of primaries, one pair at a time in an order drawn per
variation, reads what each mix produced, and focuses on the mix when it is the colour the task names: what
an agent can do for a colour it never saw made. The art studio keeps two cups of each primary (the table's and
the large cupboard's; a paint cupboard or closet there holds empty cups), enough for all three pairs; a variation played in the workshop (one cup
each) replays the simulator's path. chemistry-mix-paint-tertiary-color's folds split the wheel too (train: green-blue,
yellow-green, red-orange; test: blue-violet, violet-red), and its search finds the secondary colour of the name (the
colour that is no primary) the same way, focuses on it, then pours in the primary the name holds. That last pour needs a
cup of it left: an order that tries it in a wrong pair before the right one leaves none (`_enough`, from the right pair
the simulator's path pours), so the order is drawn among those that leave one. What that shows of the answer is nothing
an unseen colour can use: a pair tried first that holds the named primary is always the right one (in a random order,
half the time).
"""

from __future__ import annotations

import random
import re
from collections.abc import Generator

from bct.modules.colours import mixed_from

PRIMARIES = ("red", "blue", "yellow")
_TARGET = re.compile(r"create ([a-z-]+ paint)")
_MADE = re.compile(r"mix to produce ([a-z-]+ paint)")
_MIXED = re.compile(r"\(containing ([a-z-]+ paint), ([a-z-]+ paint)\)")
_POURED = re.compile(r"pour cup containing ([a-z]+) paint")
POUR_PRIMARY = re.compile(rf"pour cup containing ({'|'.join(PRIMARIES)}) paint\b")


def made_paint(task: str) -> str | None:
    """The colour a paint task asks to create ("violet-red"), None for a task that makes no paint."""
    found = _TARGET.search(task)
    return found.group(1).removesuffix(" paint") if found else None


def poured_as_named(gold: list[str], colour: str) -> list[str]:
    """The simulator's path with its two pours of primaries before the first mix (into one container) in the order
    the colour wheel names them (bct/modules/colours.py): the answer read before each pour says which comes next. A
    path that pours into a cup, named by what it holds, keeps its order."""
    wanted = mixed_from(colour)[-1][1]  # the secondary's two primaries, in the wheel's order
    mixed = next((i for i, a in enumerate(gold) if a.startswith("mix ")), len(gold))
    at = [i for i, a in enumerate(gold[:mixed]) if POUR_PRIMARY.match(a)]
    out = list(gold)
    into_cup = any(" in cup containing " in gold[i] for i in at)  # the second pour's cup is named by the first's paint
    if len(at) == 2 and not into_cup and POUR_PRIMARY.match(gold[at[0]]).group(1) == wanted[1]:
        out[at[0]], out[at[1]] = gold[at[1]], gold[at[0]]
    return out


def paint_search(env) -> Generator[str, object, None]:
    """The paints found by trying pairs of primaries (module docstring): the secondary colour a task asks for, or a
    tertiary's secondary ("violet-red": the colour of its name that is no primary), then the primary its name holds
    poured into it."""
    gold = env.gold_actions()
    arrived = gold.index("look around") + 1  # the simulator's path to the paints and its look there
    step = None
    for action in gold[:arrived]:
        step = yield action
    target = _TARGET.search(step.task).group(1)
    colours = target.removesuffix(" paint").split("-")
    primary = next((c for c in colours if c in PRIMARIES), None) if len(colours) > 1 else None  # a tertiary's
    secondary = target if primary is None else f"{next(c for c in colours if c != primary)} paint"
    # the order the pairs are tried in, drawn per variation among those the cups last (`_enough`); none in the
    # workshop, where each primary has one cup
    studio = "called the art studio" in step.look and "large cupboard" in step.look
    orders = (_order(env.seed, k) for k in range(12)) if studio else ()
    pairs = next((o for o in orders if _enough(gold, o, primary)), None)
    if pairs is None:
        for action in gold[arrived:]:  # not `yield from`: a list's iterator takes no sent step
            yield action
        return
    poured = dict.fromkeys(PRIMARIES, 0)  # cups of each colour used: the table's first, then the large cupboard's
    where = ("art studio", "cupboard")
    for n, pair in enumerate(pairs):
        first, second = random.Random(f"paint-search {env.seed} {n}").sample(pair, 2)
        if n == 1:
            step = yield "open large cupboard"
        into = f"cup containing {second} paint in {where[poured[second]]}"
        step = yield f"pour cup containing {first} paint in {where[poured[first]]} into {into}"
        poured[first] += 1
        poured[second] += 1
        both = _MIXED.search(step.look)
        step = yield f"mix cup containing {both.group(1)} and {both.group(2)}"
        made = _MADE.search(step.observation)
        if made and made.group(1) == secondary:
            yield "look around"
            yield f"focus on {secondary}"
            if primary is None:
                return
            if n == 0:
                yield "open large cupboard"
            step = yield f"pour cup containing {primary} paint in {where[poured[primary]]} into cup containing {secondary}"
            both = _MIXED.search(step.look)
            yield f"mix cup containing {both.group(1)} and {both.group(2)}"
            yield "look around"
            yield f"focus on {target}"
            return
    raise ValueError(f"no pair of primaries made {secondary}")  # the game's colour wheel changed: a gold path fails


def _order(seed: int, k: int) -> list[tuple[str, str]]:
    """The `k`-th order drawn for a variation in which to try the three pairs of primaries."""
    pairs = [(a, b) for i, a in enumerate(PRIMARIES) for b in PRIMARIES[i + 1 :]]
    random.Random(f"paint-search {seed}{f' order {k}' if k else ''}").shuffle(pairs)
    return pairs


def _enough(gold: list[str], pairs: list[tuple[str, str]], primary: str | None) -> bool:
    """Whether the art studio's two cups of each primary (the table's, the large cupboard's) last a search in the
    order `pairs`: a secondary's always (each colour is in two of the three pairs); a tertiary's where the pairs tried
    up to the right one (the simulator's, its first two pours) leave a cup of the primary its name holds, to pour in."""
    if primary is None:
        return True
    right = tuple(sorted(_POURED.findall(" ".join(gold))[:2], key=PRIMARIES.index))
    return sum(primary in pair for pair in pairs[: pairs.index(right) + 1]) < 2


# the simulator's own tour of the house when a substance is in none of the kitchen's containers, back to the kitchen;
# the two rooms off the hallway in an order drawn per variation, so that which one comes next is read from the
# doors (the one still shut), not learned as a fixed sequence
