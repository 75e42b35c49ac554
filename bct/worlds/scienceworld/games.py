"""ScienceWorld's 30 tasks as games of bct: `scienceworld-<task>`, its own train/dev/test variations.

Variations are numbered per task with train first, then dev, then test (checked against the package by
tests/test_scienceworld.py); a game's seeds are its variation numbers. Simplifications are parameters
(0/1, default 0 as TALES plays): `game.params.easy=1`, or each of ScienceWorld's own by name.
"""

from __future__ import annotations

import random
import re

from bct.core.game import Game

# task -> (train, dev, test) variations, as ScienceWorld 1.2.3 splits them
VARIATIONS: dict[str, tuple[int, int, int]] = {
    "boil": (14, 7, 9),
    "melt": (14, 7, 9),
    "freeze": (14, 7, 9),
    "change-the-state-of-matter-of": (14, 7, 9),
    "use-thermometer": (270, 135, 135),
    "measure-melting-point-known-substance": (218, 109, 109),
    "measure-melting-point-unknown-substance": (150, 75, 75),
    "power-component": (10, 5, 5),
    "power-component-renewable-vs-nonrenewable-energy": (10, 5, 5),
    "test-conductivity": (450, 225, 225),
    "test-conductivity-of-unknown-substances": (300, 150, 150),
    "find-living-thing": (150, 75, 75),
    "find-non-living-thing": (150, 75, 75),
    "find-plant": (150, 75, 75),
    "find-animal": (150, 75, 75),
    "grow-plant": (62, 31, 33),
    "grow-fruit": (62, 31, 33),
    "chemistry-mix": (16, 8, 8),
    "chemistry-mix-paint-secondary-color": (18, 9, 9),
    "chemistry-mix-paint-tertiary-color": (18, 9, 9),
    "lifespan-longest-lived": (62, 31, 32),
    "lifespan-shortest-lived": (62, 31, 32),
    "lifespan-longest-lived-then-shortest-lived": (62, 31, 32),
    "identify-life-stages-1": (6, 3, 5),
    "identify-life-stages-2": (4, 2, 4),
    "inclined-plane-determine-angle": (84, 42, 42),
    "inclined-plane-friction-named-surfaces": (692, 346, 348),
    "inclined-plane-friction-unnamed-surfaces": (80, 40, 42),
    "mendelian-genetics-known-plant": (60, 30, 30),
    "mendelian-genetics-unknown-plant": (240, 120, 120),
}
FOLD_INDEX = {"train": 0, "dev": 1, "test": 2}

# ScienceWorld's simplifications, each a 0/1 parameter; `easy` is all of them (noElectricalAction only where
# the task has no circuit)
SIMPLIFICATIONS = ("teleportAction", "selfWateringFlowerPots", "openContainers", "openDoors", "noElectricalAction")
ELECTRICAL = ("power-component", "conductivity")
# tasks whose simulator's paths water their pots, wait a fixed count and look before they water again: with `search=1`
# their waits are watched (plants.py, `watched_waits`)
WATCHED = ("grow-plant", "grow-fruit", "mendelian-genetics-known-plant")
# mendelian-genetics-unknown-plant: the simulator's experiment (two parents crossed, four children grown from the
# gathered seeds) takes 114-234 actions, past the 100 an evaluation plays; with `search=1` it is cut to what answers it
# (plants.py, `crossed`): the cross's first seeds for a seed trait, one child grown for any other, 32-56 actions
CROSSED = ("mendelian-genetics-unknown-plant",)
# tasks whose simulator's paths focus on a life stage by a referent of the simulator's own ("egg turtle in outside",
# "apple tree in the adult stage in self watering flower pot 6"): with `search=1` by the name the look writes
# (plants.py, `focus_as_seen`)
LIFE_STAGES = ("identify-life-stages-1", "identify-life-stages-2")
# tasks whose simulator's paths move a carried flower pot by its contents ("move flower pot 3 containing pea plant and
# soil in inventory to red box"): with `search=1` the plant is focused on, picked up and moved by the look's name for
# it, out of its pot (plants.py, `plant_carried`)
PLANTS_CARRIED = ("find-plant",)
# tasks whose simulator's paths time the block on each plane by looking at it until it reaches the bottom (up to 282
# looks in a row): with `search=1` by its place after one equal wait on each plane (measures.py, `equal_times`)
INCLINED_PLANES = tuple(t for t in VARIATIONS if t.startswith("inclined-plane"))
# tasks whose simulator's paths wire a circuit with any two of the three wires in sight, in any order ("connect battery
# anode to orange wire terminal 1" where the look lists a black, a blue and an orange wire): with `search=1` the first
# two wires the look lists, in its order (measures.py, `wires_in_order`)
WIRES_IN_ORDER = ("power-component", "power-component-renewable-vs-nonrenewable-energy")
# the melting points: the simulator's paths heat (or cool) for up to 96 actions, past a reading that settles the answer
# (still solid above the threshold, still liquid below it); with `search=1` the path stops at the first such reading
# and focuses on its box, the reading compared after each one (measures.py, `settled_reading`). The known substance's
# train ones (gallium, lead, chocolate, mercury) are heated until they melt, so an agent cloned from them heats a
# metal past every deciding reading; settled, the first reading decides (the experiment log, docs/experiments/)
READ_UNTIL_SETTLED = ("measure-melting-point-known-substance", "measure-melting-point-unknown-substance")
# mendelian-genetics-known-plant asks of the pea plant's own traits, dominant or recessive as Mendel found them in every
# variation of every fold (round seeds and tall plants dominant, wrinkly and short recessive; its train variations ask
# of seed shape and plant height, its test ones of seed shape). The simulator's paths run the experiment (121-133
# actions, past the 100 an evaluation plays, where the score stands at 0.33-0.40 before the focus on the box); with
# `game.params.answer=1` they go to the greenhouse, look, and focus on the box the simulator's path ends on (plants.py,
# `answered`): the answer the train data hold, learned as which animal lives longest is. The unknown plant's traits
# are drawn per variation, and only the experiment answers them.
KNOWN_ANSWERS = ("mendelian-genetics-known-plant",)
# the paints, whose folds split the colour wheel (the secondary's train variations make green and orange, its test ones
# violet; the tertiary's train ones green-blue, yellow-green and red-orange, its test ones blue-violet and violet-red):
# with `search=1` found by trying pairs of primaries (searches.py, `paint_search`)
PAINTS = ("chemistry-mix-paint-secondary-color", "chemistry-mix-paint-tertiary-color")
# tasks whose gold path can be a search (`game.params.search=1`; the searches: bct/worlds/scienceworld/searches.py)
SEARCHABLE = (
    *PAINTS,
    "boil",
    "melt",
    "freeze",
    "change-the-state-of-matter-of",
    *WATCHED,
    *CROSSED,
    *LIFE_STAGES,
    *PLANTS_CARRIED,
    *INCLINED_PLANES,
    *WIRES_IN_ORDER,
    *READ_UNTIL_SETTLED,
)
# The changes of state: every train substance is in the kitchen, every test one (a metal) on the workshop's table.
# `game.params.moved=1` carries a train variation's substance (chocolate, marshmallow; a juice in its cup) to the
# table of the art studio or the workshop before play (bct/worlds/scienceworld/env.py), so that a train world shows
# the test's scene; dev and test variations are played as they are.
CHANGES_OF_STATE = ("boil", "melt", "freeze", "change-the-state-of-matter-of")
SUBSTANCE = re.compile(r"Your task is to (?:boil|melt|freeze|change the state of matter of) ([a-z ]+?)\.")

# An evaluation's default step limit leaves room for the longest gold path of each task: on the first 10 dev
# and test variations, boil's reach 184 actions, melt's 159, freeze's 145 (train variation 0 of
# inclined-plane-friction-unnamed-surfaces: 178, of the genetics tasks 130-144); every other task measured
# stays under 100.
LONG = {t: 250 for t in ("boil", "melt", "freeze", "change-the-state-of-matter-of")}
LONG |= {t: 300 for t in VARIATIONS if t.startswith(("mendelian-genetics", "inclined-plane-friction-unnamed"))}
LONG |= {"grow-fruit": 200}
# The inclined planes are timed by looking again: their gold paths (10 train variations each) run to 154, 229
# and 318 actions, up to 282 of them the same 'look at inclined plane ...' in a row; test variations 1105 and 1137
# of inclined-plane-friction-named-surfaces need 758 (the oracle stopped there at a limit of 400).
LONG |= {t: 800 for t in VARIATIONS if t.startswith("inclined-plane")}
STEP_LIMIT = 150
# Waiting and looking again pass time, so a run of identical actions is no loop by itself: an episode stops
# after REPEATS in a row (the longest such run in those gold paths: 10, identify-life-stages-1), never on the
# inclined planes.
REPEATS = 20


def accepts(task: str) -> dict[str, tuple[int, int]]:
    """A task's parameters: ScienceWorld's simplifications, `search` where its gold path can be a search
    (bct/worlds/scienceworld/searches.py: the world is the same, its demonstrations find what the simulator's know),
    `moved` on the changes of state (their train substance carried out of the kitchen), and `answer` where the train
    data hold a task's answer (KNOWN_ANSWERS)."""
    electrical = any(e in task for e in ELECTRICAL)
    return {
        "easy": (0, 1),
        **{s: (0, 1) for s in SIMPLIFICATIONS if not (electrical and s == "noElectricalAction")},
        **({"search": (0, 1)} if task in SEARCHABLE else {}),
        **({"moved": (0, 1)} if task in CHANGES_OF_STATE else {}),
        **({"answer": (0, 1)} if task in KNOWN_ANSWERS else {}),
    }


OURS = ("search", "moved", "answer")  # parameters of bct's, not the simulator's
# The tasks that sort what they measure by a threshold the task names ("If the melting point of tin is above 150.0
# degrees celsius, focus on the green box"): played with the `compare` module (bct/modules/threshold.py) where
# modules=true, its call just before the box is chosen in their gold paths
THRESHOLD_TASKS = (
    "use-thermometer",
    "measure-melting-point-known-substance",
    "measure-melting-point-unknown-substance",
)

# The tasks that show what they need once, in a text read (chemistry-mix's recipe): played with the `notes` module
# (bct/modules/notes.py) where modules=true, asked before every game action after the reading in their gold paths
READING_TASKS = ("chemistry-mix",)
# each task's module where modules=true: the threshold tasks' `compare`, the reading tasks' `notes`, the inclined
# planes' `slides` (bct/worlds/scienceworld/modules/slides.py: each plane's measured slide, kept for the choice made after both), asked
# just before the focus in their gold paths
TASK_MODULES = dict.fromkeys(THRESHOLD_TASKS, "threshold") | dict.fromkeys(READING_TASKS, "notes")
TASK_MODULES |= dict.fromkeys(INCLINED_PLANES, "slides")
# the conductivity tasks build a circuit of six connections whose fifth needs a wire out of view: the `circuit` module
# (bct/worlds/scienceworld/modules/circuit.py: the connections reported, the free wire ends), asked after each connection; the power
# circuits' four connections too (a half-built circuit shows no free end in the look)
CIRCUIT_TASKS = ("test-conductivity", "test-conductivity-of-unknown-substances", *WIRES_IN_ORDER)
TASK_MODULES |= dict.fromkeys(CIRCUIT_TASKS, "circuit")
# the tertiary paints: which primaries make their secondary is the colour wheel's knowledge, and the folds split the
# wheel (test's violet is made in no train variation): the `colours` module (bct/modules/colours.py, a public wheel)
# answers it, asked before each pour of a primary in their gold paths
TASK_MODULES["chemistry-mix-paint-tertiary-color"] = "colours"


def simplifications(game: Game) -> str:
    """ScienceWorld's simplification string for a game's parameters ("" for none)."""
    on = [k for k, v in game.param_values.items() if v and k not in OURS]
    if "easy" in on and any(e in game.world_game for e in ELECTRICAL):  # `easy` would refuse a circuit task
        on = [s for s in SIMPLIFICATIONS if s != "noElectricalAction"] + [k for k in on if k != "easy"]
    return ",".join(dict.fromkeys(on))


GAMES: dict[str, Game] = {
    f"scienceworld-{task}": Game(
        f"scienceworld-{task}",
        "scienceworld",
        task,
        "",
        TASK_MODULES.get(task, ""),
        "scienceworld",
        memory=True,  # played with its working memory unless `memory=false` (`scienceworld-boil-nomemory`)
        memory_default=True,
        memory_module="memory-scienceworld",
        step_limit=LONG.get(task, STEP_LIMIT),
        repeat_limit=None if task.startswith("inclined-plane") else REPEATS,
        accepts=accepts(task),
    )
    for task in VARIATIONS
}
ALIASES: dict[str, str] = {}


# searchable tasks `scienceworld-search` plays from the simulator's paths: the tertiary paints' search finds their
# secondary by pairs that hold yellow in most train variations (green and orange both need it), which taught the
# secondary's agent yellow pairs for violet; the power circuits' wires in order gained nothing alone (both measured:
# the experiment log, docs/experiments/)
SEARCH_LEFT_OUT = ("chemistry-mix-paint-tertiary-color", *WIRES_IN_ORDER)


def searched(task: str) -> str:
    """The game of `task` that learns from its search: the changes of state with their train substances also
    carried out of the kitchen (`moved1`; their dev and test worlds are ScienceWorld's); the known plant from its
    answer (`answer1`: its demonstrations run no experiment, so none to search); not those of `SEARCH_LEFT_OUT`."""
    if task in KNOWN_ANSWERS:
        return f"scienceworld-{task}-answer1"
    if task not in SEARCHABLE or task in SEARCH_LEFT_OUT:
        return f"scienceworld-{task}"
    return f"scienceworld-{task}-{'moved1-' if task in CHANGES_OF_STATE else ''}search1"


# names that stand for several games wherever a list of games is accepted; `scienceworld-search`: the 30 with the
# searches' demonstrations where a task has one (`search` changes the gold path, not the game; `moved` the train
# worlds of the changes of state only), the known plant's from its answer
GROUPS = {"scienceworld": list(GAMES), "scienceworld-search": [searched(task) for task in VARIATIONS]}


def fold_size(game: Game, fold: str) -> int:
    return VARIATIONS[game.world_game][FOLD_INDEX[fold]]


def fold_seeds(game: Game, fold: str, n: int) -> list[int]:
    """`n` variations drawn at random from a fold, the same ones every run (all of it where `n` is its size;
    ScienceWorld numbers train first, then dev, then test), as TALES picks test variations by seed. A task
    numbers its variations by its parameters in turn, so its first n show a corner of the fold:
    test-conductivity's first 20 train variations all test aluminum foil (drawn: 10 things) and its first 10
    test variations all sodium chloride; every 7th of find-animal's 150 is the red box in the kitchen."""
    sizes = VARIATIONS[game.world_game]
    start, size = sum(sizes[: FOLD_INDEX[fold]]), sizes[FOLD_INDEX[fold]]
    return sorted(start + i for i in random.Random(f"{game.world_game} {fold}").sample(range(size), n))


def fold_of(game: Game, seed: int) -> str | None:
    sizes, start = VARIATIONS[game.world_game], 0
    for fold, i in FOLD_INDEX.items():
        if start <= seed < start + sizes[i]:
            return fold
        start += sizes[i]
    return None
