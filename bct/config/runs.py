"""Run folders: a training run's checkpoint folder and an evaluation's results folder.

Each folder holds one set of settings, written in its record (`bct_config.json`, `results.json`),
so that rerunning a command resumes it. A folder that holds other settings is refused in one line
naming every setting that differs; what is set aside is renamed, never deleted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from pathlib import Path

from bct.core.errors import UserError
from bct.core.files import read_json, read_record
from bct.core.resume import last_complete_checkpoint
from bct.data.datasets import mixture
from bct.data.representation import get_representation
from bct.data.wins import wins_identity
from bct.worlds.registry import modules_label, modules_of, played_with

log = logging.getLogger(__name__)

RUN_RECORD = "bct_config.json"  # in a checkpoint folder: status, settings, config, metrics

# The settings that make a training run what it is: a checkpoint folder holds one of each.
TRAIN_SETTINGS = (
    "game",
    "modules",
    "model",
    "entities",
    "epochs",
    "num_games",
    "final_example",
    "lr",
    "warmup",
    "batch_size",
    "grad_accum",
    "max_source_length",
    "max_target_length",
    "seed",
    "trainer",
)


def digest(settings: dict) -> str:
    return hashlib.sha1(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:6]


def differing(before: dict, after: dict) -> list[str]:
    """The settings whose values differ (a missing setting reads as null)."""
    return [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]


def check_same(folder: Path, before: dict, after: dict, what: str, fix: str) -> None:
    """Refuse, in one line naming what differs, a folder whose settings are not these."""
    diff = differing(before, after)
    if diff:
        raise UserError(f"{folder} holds {what} (differs in: {', '.join(diff)}); {fix}")


def set_aside(folder: Path, tag: str) -> Path:
    """Rename `folder` to `<name>.replaced-<tag>` (or a numbered name beside it): nothing is deleted."""
    target = folder.with_name(f"{folder.name}.replaced-{tag}")
    n = 1
    while target.exists():
        n += 1
        target = folder.with_name(f"{folder.name}.replaced-{tag}-{n}")
    folder.rename(target)
    return target


def model_identity(model: dict) -> dict:
    """A model preset as it defines a run: without its per-game tables (`epochs_by_game`, ...), whose entry
    for the game is recorded as the resolved setting (`epochs`, ...), so that editing another game's
    entry changes no run's identity."""
    return {k: v for k, v in model.items() if not k.endswith("_by_game")}


def train_settings(cfg) -> dict:
    """What defines a training run (the checkpoint folder's identity), from bct.config.settings.TrainSettings."""
    games = cfg.trained()
    if cfg.game is not None:
        played = games[0].record()
    else:  # several games: each one's record, and how much of each the run trains on
        played = {"games": [g.record() for g in games], "memory": games[0].memory, "mix": mixture(cfg, games)}
    values = {
        **played,
        "modules": cfg.modules,
        "model": model_identity(cfg.model.model_dump(exclude_unset=True)),
        "trainer": cfg.trainer or {},
    }
    values.update({k: getattr(cfg, k) for k in TRAIN_SETTINGS if k not in values and k != "game"})
    # the modules each game is played with: a game given a module (a task's `circuit`) is trained from other data
    by_game = {g.name: modules_of(g, cfg.modules) for g in games if modules_of(g, cfg.modules) != modules_of(g, False)}
    if by_game:
        values["played_with"] = by_game
    values.update(get_representation(cfg.entities, cfg.entity_rule).record())
    if cfg.select != "none":  # a constant learning rate: another model than a run without selection
        values.update(select=cfg.select, select_every=cfg.select_every)
    if cfg.epochs is None:  # a budget in steps; recorded where used, so that older runs keep their folders
        values["max_steps"] = cfg.max_steps
    if cfg.distinct:  # recorded where used, so that runs from before the setting keep their folders
        values["distinct"] = True
    if cfg.recent:  # recorded where used, so that runs from before the setting keep their folders
        values["recent"] = cfg.recent
    if cfg.shuffle_ids:  # recorded where used, so that runs from before the setting keep their folders
        values["shuffle_ids"] = cfg.shuffle_ids
    if cfg.refused:  # recorded where used, so that runs from before the setting keep their folders
        values["refused"] = cfg.refused
    if cfg.wins:  # the won episodes by their contents: more wins in the same folder is another run
        values["wins"] = wins_identity(cfg.wins)
    return values


def training_length(settings: dict) -> str:
    """How long a run trained, as its folder and the comparison name it: `ep4`, or `st2500` for a step budget."""
    return f"ep{settings['epochs']}" if settings.get("epochs") else f"st{settings.get('max_steps')}"


def train_run_dir(cfg, settings: dict) -> Path:
    """`checkpoint_dir/run_name`, or `checkpoint_dir/<game>-<modules|nomodules>-<model>-ep<epochs>-<digest of every
    defining setting>` (`-st<max_steps>-` for a run measured in steps): runs that differ in anything (seed,
    lr, data, ...) never share a folder."""
    game = settings.get("game") or f"{len(settings['games'])}games"
    name = cfg.run_name or (
        f"{game}-{modules_label(settings['modules'])}-{settings['model']['name']}-{training_length(settings)}"
        f"-{digest(settings)}"
    )
    return Path(cfg.checkpoint_dir) / str(name)


def read_run(run_dir: Path) -> dict | None:
    """A checkpoint folder's run record, None if there is none; a damaged one is named in one line."""
    path = run_dir / RUN_RECORD
    return read_json(path, "run record", f"delete {run_dir} to train afresh") if path.exists() else None


def previous_settings(results_file: Path) -> dict | None:
    """The settings an evaluation's results.json was written with; None where they cannot be read."""
    record = read_record(results_file, ["settings"])
    return record["settings"] if record and isinstance(record["settings"], dict) else None


def claim_run_dir(settings: dict, target: Path, overwrite: bool) -> Path | None:
    """Where this run trains: `target`, or beside it (`<target>.retraining`) when `overwrite=true` retrains
    a finished run, which is then replaced only once the new one is complete; None: already trained."""

    def same_run(folder: Path, record: dict) -> None:
        before = dict(record.get("settings", {}))
        if isinstance(before.get("model"), dict):  # runs recorded before model_identity kept the tables
            before["model"] = model_identity(before["model"])
        if isinstance(before.get("played_with"), dict):  # runs recorded before a module's rename (memory-twx)
            before["played_with"] = played_with(before)
        check_same(
            folder,
            before,
            settings,
            "a run with another config",
            "choose another checkpoint_dir or run_name, or delete that folder",
        )

    run_dir, previous = target, read_run(target)
    if previous and previous.get("status") == "done":
        same_run(target, previous)
        if not overwrite:
            return None
        run_dir = target.with_name(target.name + ".retraining")
        previous = read_run(run_dir)
    if previous and previous.get("settings") != settings and not last_complete_checkpoint(run_dir / "trainer"):
        # a run of ours that stopped before its first checkpoint (a refused or failed start): nothing to keep
        log.info("%s held an unstarted run with another config; starting afresh", run_dir)
        shutil.rmtree(run_dir)
        previous = None
    if previous:
        same_run(run_dir, previous)
    return run_dir


KEPT = "kept"  # in a run with select=dev: one loadable checkpoint per kept epoch count, <run>-ep<k>


def claim_results_dir(out: Path, results_file: Path, settings: dict) -> None:
    """An evaluation's folder, ready to write into: results of these settings are resumed; an unreadable
    results.json, or results of earlier weights of the same checkpoint, are set aside (nothing deleted) and
    the evaluation starts afresh; results of other settings are refused in one line."""
    if results_file.exists():
        previous = previous_settings(results_file)
        reason = None
        if previous is None:
            reason, tag = "an unreadable results.json", "unreadable"
        elif differing(previous, settings) == ["fingerprint"]:
            reason, tag = (
                "results of earlier weights of this checkpoint",
                (previous.get("fingerprint") or "unknown")[:8],
            )
        if reason:
            stale = set_aside(out, tag)
            log.warning("%s held %s; moved to %s, evaluating afresh", out, reason, stale)
        else:
            check_same(
                out,
                previous,
                settings,
                "an evaluation with other settings",
                "choose another results_dir or delete that folder",
            )
    out.mkdir(parents=True, exist_ok=True)


def kept_checkpoints(run_dir: Path) -> list[Path]:
    """The finished kept checkpoints of a select=dev run, fewest epochs first."""
    found = [p for p in (run_dir / KEPT).glob(f"{run_dir.name}-ep*") if (read_run(p) or {}).get("status") == "done"]
    return sorted(found, key=lambda p: int(p.name.rsplit("-ep", 1)[1]))
