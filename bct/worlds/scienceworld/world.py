"""ScienceWorld as a world of bct (the interface: bct/worlds/base.py). Its parser takes commands beyond
its valid-action list (free_actions)."""

from __future__ import annotations

import re
from importlib.metadata import version

from bct.worlds.base import World
from bct.worlds.scienceworld import check, games, gold, report, tales, text
from bct.worlds.scienceworld.env import REPRODUCIBLE, ScienceWorldEnv
from bct.worlds.scienceworld.modules.circuit import Circuit
from bct.worlds.scienceworld.modules.memory import ScienceWorldMemory
from bct.worlds.scienceworld.modules.slides import Slides

REFUSALS = ("No known action matches that input", "Unknown action")
WORLD = World.of(
    "scienceworld",
    games,
    gold,
    text,
    ScienceWorldEnv,
    # data made in a JVM without the fixed hash codes is another draw of gold paths: made again, not reused
    version=lambda: {"scienceworld_version": version("scienceworld"), "jvm": REPRODUCIBLE},
    free_actions=True,
    limits_count_game_actions=True,
    action_forms=text.ACTION_FORMS,
    speaks=text.speaks,
    task_things=text.task_things,
    read_things=text.read_things,
    stage_things=text.stage_things,
    knows=check.knows,
    decisive=("focus on",),  # a focus on the wrong thing ends the task at 0
    neutral="look around",
    # a wait is sent at one prompt up to 8 times: the longest run of one prompt's waits in its gold data (20 train
    # variations of each task: identify-life-stages-1, waiting for a stage; 3 at most elsewhere)
    waits=("wait", "wait1"),
    patience=8,
    refusals=REFUSALS,
    asks=r"Ambiguous request",
    # in the simulator's gold paths (20 train variations a task): 'open door to kitchen' where it stands open (181
    # steps in 10 variations of each task), 'pour metal pot into metal pot' (the changes of state, chemistry-mix, the
    # tertiary paints), a '0' where no choice was asked; a broken stove's answer is news, not idle
    idle_answers=(
        *(re.escape(r) + r"\b.*" for r in REFUSALS),
        r"You can't move something into itself\.",
        r"The [a-z ]+ is already (open|closed|activated|deactivated)\.",
        # a walk through a closed door (none in the gold paths): the room stays the same until the door is opened
        r"The door is not open\.",
        # the connect action's refusals (ActionConnectElectrical in the simulator): a terminal in use, a thing to
        # itself, a component's contact not named; and a pick-up of what is held
        r".+ is already connected, and must be disconnected before it can be connected to something else\.?",
        r"Something can't be connected to itself\.",
        r"It's not clear how to connect .+",
        r"Connections must specify specific points of contact .+",
        r"That object already appears to be in the inventory\.",
        # a mix of fewer than two things (Chemistry in the simulator)
        r"There is only one thing \(.+\)\.?",
        r"That container is empty, so there are no items to mix\.",
    ),
    tales=tales,
    modules={"memory-scienceworld": ScienceWorldMemory, "slides": Slides, "circuit": Circuit},
    jvm_gb=1.2,  # its heap capped at 1 GB (bct.worlds.scienceworld.env): ~0.4 GB resident while playing
    title="ScienceWorld",
    reports=report.REPORTS,
)
