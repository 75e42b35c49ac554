"""Refused commands as training examples (`refused=SHARE`): a gold step's twin in which a command was sent first and
the game refused it. A refusal changes nothing, so the gold action still stands at the twin's prompt, which says
what the agent sees after its own refused command: the refusal as the observation, the command as the previous
action (and the last of the recent ones). Gold paths never show a refusal; an agent meets them at every slip, and
a prompt it has never seen is where it starts to wander."""

from __future__ import annotations

import random

from bct.core.errors import UserError
from bct.core.game import Game
from bct.data.prompt import clean, unpack
from bct.worlds.registry import world_of


def after_refusal(source: str, command: str, answer: str) -> str:
    """The packed prompt after `command` was sent at the prompt `source` (as `pack` wrote it) and refused with
    `answer`: the look and inventory as they were, to the character; the observation before it now the previous one."""
    head, sep, rest = source.partition(" </s> OBS ")
    observation, inv, rest = rest.partition(" </s> INV ")
    middle, pact, _ = rest.partition(" </s> <extra_id_0> </s> PACT ")
    if not (sep and inv and pact):
        raise ValueError(f"not a packed prompt: {source[:80]}...")
    return f"{head}{sep}{clean(answer)}{inv}{middle}{pact}{clean(command)} </s> POBS {observation} </s>"


def refused_twins(data, game: Game, share: float, recent: int, seed: int):
    """Twins of about `share` of `data`'s rows (a `datasets.Dataset` of generated rows; with `before` where `recent`),
    each after a command taken from the game's gold steps that names a thing this step does not show (`World.knows`),
    refused as the world's parser refuses. Drawn by `seed`; the same rows every time."""
    world = world_of(game)
    if not (world.refusals and world.knows):
        raise UserError(
            f"refused={share}: {game.name}'s parser refuses no command (its agent picks from a list of valid "
            f"actions); use it with a world whose parser takes free commands (ScienceWorld), or refused=0"
        )
    answer = f"{world.refusals[0]}."
    verbs = {form.split()[0] for form in world.action_forms}
    commands = sorted({t for t in data["target"] if t.split()[:1] and t.split()[0] in verbs})
    rng = random.Random(f"{seed}-{game.name}-refused")
    twins = []
    for i, row in enumerate(data):
        # drawn for every row, so that the twins stay the same; a game's last step is never played after it
        if rng.random() >= share or row["final"] or not commands:
            continue
        parts = unpack(row["source"])
        text = " ".join((parts.get("obs", ""), parts.get("look", ""), parts.get("inv", "")))
        # one that names a thing the step does not show, as the parser refuses (not a look around, not a move here)
        command = next(
            (c for c in rng.sample(commands, min(8, len(commands))) if c != row["target"] and not world.knows(c, text)),
            None,
        )
        if command is None:
            continue
        twin = dict(row, source=after_refusal(row["source"], command, answer), step=-1 - i)
        if recent:
            twin["before"] = [*row["before"], command][-recent:]
        twins.append(twin)
    return twins
