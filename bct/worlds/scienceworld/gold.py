"""ScienceWorld's gold paths: the simulator's own action sequence for a variation, replayed as it is (its
actions are commands its parser takes, not always strings of its valid-action list); or, where a task has a
search and the game sets `search=1`, a path that finds by playing what the simulator's path knows.

With the working memory (bct/worlds/scienceworld/modules/memory.py), `recall progress` is asked after every
RECALL_EVERY game actions: so every prompt holds the memory's answer, as its observation or as the
previous one (with the one action since in view), and the agent reads what was done and seen so far at
each decision. The answers are facts; the next action is the gold path's.

Where a task has a search (`game.params.search=1`) or an answer (`answer=1`), its demonstration comes from
bct/worlds/scienceworld/searches.py (and the files it names: paints.py, plants.py, measures.py).
"""

from __future__ import annotations

import re
from collections.abc import Generator

from bct.core.game import Game
from bct.worlds.scienceworld import (
    searches,  # the module, so the data's fingerprint follows it (core/source.py)
    text,
)
from bct.worlds.scienceworld.measures import settled_reading
from bct.worlds.scienceworld.paints import POUR_PRIMARY, made_paint, poured_as_named
from bct.worlds.scienceworld.plants import answered

RECALL = "recall progress"
RECALL_EVERY = 2


def gold_modules(game: Game, modules: bool | str) -> set[str]:
    return ({game.memory_module} if game.memory else set()) | ({game.module} if modules and game.module else set())


_BOX = re.compile(r"\bthe ([a-z]+ box)\b")  # a box a task names (the `compare` call comes before the first)


def gold_path(env, modules: bool | str) -> Generator[str, object, None]:
    """Every action of the gold path of the episode `env` has just reset, with the memory's recalls; with
    the `threshold` module (a task that sorts by a threshold, modules=true) the latest reading compared with the
    threshold just before the first action that names one of the task's boxes (after every reading where the search
    stops at the one that settles the answer, `settled_reading`); with the `notes` module (a task
    that shows what it needs in a text read) the text asked back before every game action after the reading; with
    `slides` both planes' slides before the focus; with `circuit` the connections so far after each connection; with
    `colours` (the tertiary paints) the colour wheel's mixes of the paint to make before each pour of a primary, the
    simulator's two first pours in the order the answer names them.
    Each step is sent back (read by a search)."""
    params = env.game.param_values
    search = searches.SEARCHES.get(env.game.world_game) if params.get("search") else None
    search = answered if params.get("answer") else search
    colours = "colours" in gold_modules(env.game, modules)  # asked before each pour of a primary
    made = made_paint(env.last.task) if colours else None
    gold = env.gold_actions() if not search else None
    actions = search(env) if search else iter(poured_as_named(gold, made) if made else gold)
    since = 0  # game actions since the latest recall
    task = env.last.task
    threshold = text.threshold(task, as_written=True) if "threshold" in gold_modules(env.game, modules) else None
    each_reading = threshold is not None and search is settled_reading  # compared after every reading, not once
    boxes, read = set(_BOX.findall(task)), False  # read: a thermometer reading was taken (the module keeps it)
    notes = "notes" in gold_modules(env.game, modules)
    slides = "slides" in gold_modules(env.game, modules)  # asked once, just before the focus
    circuit = "circuit" in gold_modules(env.game, modules)  # asked after each connection
    noted, shown = False, False  # a text was read (the `notes` module keeps it); the latest step shows it
    action = next(actions, None)
    while action is not None:
        if env.game.memory and since >= RECALL_EVERY:
            yield RECALL
            since = 0
        if threshold and read and not each_reading and any(b in action for b in boxes):
            yield f"compare reading {threshold}"  # the module's latest reading: in view or not
            threshold = None  # once, at the decision
        if noted and not shown:  # the text read, back in view
            yield "notes"
        if slides and action.startswith("focus on"):
            yield "slides"  # both planes' slides, the first long out of view
            slides = False
        if made and POUR_PRIMARY.match(action):
            yield f"colours {made}"  # what mixes into it, beside the cups in the look: which is still to pour
        step = yield action
        if circuit and "is now connected to" in step.observation:
            # the connections so far, after each: the fifth needs the second's wire, out of view, and after the sixth
            # "no free end" says the circuit is whole (asked before each connection instead, the agent asked and
            # connected again and again once it was)
            yield "circuit"
        if each_reading and action.startswith("use thermometer") and text.temperature(step.observation) is not None:
            yield f"compare reading {threshold}"  # the search stops at the reading that settles the answer
        read = read or text.temperature(step.observation) is not None
        shown = notes and text.recipe(step.observation) is not None
        noted = noted or shown
        since += 1
        try:
            action = actions.send(step) if search else next(actions)
        except StopIteration:
            action = None
