"""An agent's own won episodes as training data (learning from its successful play, then training again).

`python -m bct.evaluate checkpoint=C fold=train keep_wins=true` writes each won episode's examples to `wins.jsonl`
in its results folder, as bct.generate writes a gold path's (the life that won, from its reset);
`python -m bct.train ... wins=[FOLDER, ...]` trains on them beside the gold paths."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from bct.core.errors import UserError
from bct.core.game import Game
from bct.data.datasets import examples, load_examples
from bct.worlds.gold import Trajectory
from bct.worlds.registry import world_of

log = logging.getLogger(__name__)

WINS = "wins.jsonl"


def won_rows(game: Game, fold: str, seed: int, modules, won: list) -> list[dict]:
    """The examples of a won life (`EpisodeResult.won`: its steps from the reset), none for an episode not won;
    in a world whose parser takes free commands without its valid-action list, as its gold rows are (ScienceWorld's
    list runs to thousands of commands a step), so that the two map alike in training."""
    rows = examples(Trajectory(game.name, fold, seed, modules, steps=won), modules) if won else []
    if world_of(game).free_actions:
        rows = [r | {"valid_actions": []} for r in rows]
    return rows


def append_rows(path: Path, rows: list[dict]) -> None:
    """One episode's rows at the end of `path`, in one write (an interrupted run leaves whole episodes)."""
    with path.open("a") as f:
        f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def wins_files(folders: list[str]) -> list[Path]:
    """Every wins.jsonl under the folders, in a stable order; a folder without one is an error."""
    files = []
    for folder in folders:
        found = sorted(Path(folder).rglob(WINS))
        if not found:
            raise UserError(
                f"wins: no {WINS} under {folder}; play train variations first: "
                f"python -m bct.evaluate checkpoint=<run> fold=train keep_wins=true results_dir={folder}"
            )
        files += found
    return files


def wins_identity(folders: list[str]) -> list[dict]:
    """What the won episodes are, for a training run's identity: each file's path and a digest of its contents."""
    return [{"file": str(f), "sha1": hashlib.sha1(f.read_bytes()).hexdigest()[:16]} for f in wins_files(folders)]


def wins_for(folders: list[str], game: Game):
    """The won episodes' rows of `game` under the folders (a `datasets.Dataset`, or None where it has none); a
    variation won more than once (by several agents, or a run resumed after its win was written) counts once: its
    shortest win, the last of equals, so that playing train variations with more agents teaches the tighter route."""
    from datasets import concatenate_datasets

    parts, best = [], {}  # best: seed -> (steps, part, first row, end row)
    for path in wins_files(folders):
        data = load_examples(path)
        if "game" not in data.column_names:
            continue
        mine = [i for i, g in enumerate(data["game"]) if g == game.name]
        if not mine:
            continue
        data = data.select(mine)
        not_train = sorted({f for f in data["fold"] if f != "train"})
        if not_train:
            raise UserError(
                f"{path} holds won episodes of the {not_train[0]} fold; train only on the train fold's "
                f"(bct.evaluate fold=train keep_wins=true)"
            )
        seeds = data["seed"]
        starts = [i for i, step in enumerate(data["step"]) if step == 0] + [len(data)]
        for first, end in zip(starts, starts[1:]):
            seed = seeds[first]
            if seed not in best or end - first <= best[seed][0]:
                best[seed] = (end - first, len(parts), first, end)
        parts.append(data)
    if not parts:
        return None
    chosen = sorted(best.values(), key=lambda b: b[1:3])  # in the order they were played
    won = concatenate_datasets([parts[p].select(range(a, b)) for _, p, a, b in chosen])
    log.info(
        "%s: %d examples of the agent's own won episodes, %d variations (%s)",
        game.name,
        len(won),
        len(chosen),
        ", ".join(folders),
    )
    return won
