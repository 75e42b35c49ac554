"""Generated data on disk: JSON-lines examples, the manifest and `datasets` loading."""

from __future__ import annotations

import json
from pathlib import Path

from bct.core.errors import UserError
from bct.core.files import read_json
from bct.data.prompt import pack_history
from bct.worlds.gold import Trajectory
from bct.worlds.registry import modules_label

MANIFEST = "manifest.json"
# 2: examples carry their valid actions; 3: and each episode's final state; 4: episodes end when the game does;
# 5: twc asks the knowledge base just before putting an object away (bct.worlds.twx.gold.twc_plan)
# 6: the module setting is `modules` (true/false) in rows and the manifest
# 7: the working memory answers facts (recall sequence|recipe|map|objects|task), the planner decides
DATA_FORMAT = 7
COMPLETED = "completed"  # the target of an episode's final state (the original's data has it)


def examples(traj: Trajectory, modules: bool) -> list[dict]:
    """One seq2seq example per action of a trajectory: the packed prompt, the action to take and the
    valid actions it was chosen from (what `bct.data.prompt.represent` needs to rewrite names); then the
    final state with target `completed`, marked `final` (training uses it with `final_example=true`)."""
    sources = pack_history(traj.steps)
    return [
        {
            "source": sources[i],
            "target": traj.steps[i + 1].action if i + 1 < len(traj.steps) else COMPLETED,
            "valid_actions": traj.steps[i].valid_actions,
            "final": i + 1 == len(traj.steps),
            "game": traj.game,
            "modules": modules,
            "fold": traj.fold,
            "seed": traj.seed,
            "step": i,
        }
        for i in range(len(traj.steps))
    ]


def data_path(out_dir: str | Path, game: str, modules: bool, fold: str) -> Path:
    return Path(out_dir) / game / modules_label(modules) / f"{fold}.jsonl"


def read_manifest(out_dir: str | Path) -> dict:
    path = Path(out_dir) / MANIFEST
    if not path.exists():
        return {"files": {}}
    manifest = read_json(path, "data manifest", f"delete it and run 'python -m bct.generate out_dir={out_dir}' again")
    if not isinstance(manifest.get("files"), dict):
        raise UserError(
            f"{path} has no 'files' table; delete it and run 'python -m bct.generate out_dir={out_dir}' again"
        )
    return manifest


FIELDS = ("source", "target", "valid_actions", "final", "seed")


def check_examples(path: Path) -> None:
    """Every line a JSON example with the fields training needs; else a UserError naming the line."""
    lines = path.read_text().splitlines()
    if not any(line.strip() for line in lines):
        raise UserError(f"{path} holds no examples; regenerate it: python -m bct.generate overwrite=true")
    for n, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise UserError(
                f"{path}, line {n}, is not JSON; regenerate the file: python -m bct.generate overwrite=true"
            ) from None
        missing = [k for k in FIELDS if not isinstance(row, dict) or k not in row]
        if missing:
            raise UserError(
                f"{path}, line {n}, lacks {', '.join(missing)} (written by an older bct?); regenerate it: "
                f"python -m bct.generate overwrite=true"
            )


def load_examples(path: str | Path, split: str = "train"):
    """Load a generated .jsonl file, or every .jsonl file under a folder, as a `datasets.Dataset`."""
    import datasets

    path = Path(path)
    if path.is_dir():
        files = sorted(str(p) for p in path.rglob("*.jsonl"))
    elif path.exists():
        files = [str(path)]
    else:
        raise UserError(f"no generated data at {path}; run 'python -m bct.generate' first")
    if not files:
        raise UserError(f"no .jsonl files under {path}; run 'python -m bct.generate' first")
    for f in files:
        check_examples(Path(f))
    return datasets.load_dataset("json", data_files=files, split=split)


def mix_entries(mix: dict, games: list) -> dict:
    """Each game's `mix.GAME` entry (None where the mix names it not), by its name or its preset's (a variant's
    memory setting reads its preset's entry); a key that names no game of the run is an error."""
    unknown_keys = sorted(set(mix) - {k for g in games for k in (g.name, g.preset)})
    if unknown_keys:
        raise UserError(
            f"mix.{unknown_keys[0]}: not a game of this run ({', '.join(g.name for g in games)}); "
            f"name a game of `games`"
        )
    return {g: mix.get(g.name) or mix.get(g.preset or g.name) for g in games}


def mixture(cfg, games: list) -> dict[str, dict]:
    """Per game of a run (bct.config.settings.TrainSettings, or GenerateSettings: the data it trains on), how much of
    its gold data it trains on: its first `num_games` training games (`mix.GAME.num_games`, else the model preset's
    for that game, as a run of that game alone would have) and `passes` copies of their distinct examples per epoch
    (`mix.GAME.passes`, else 1). A cap and a weight per game, so that a game with long episodes does not drown the
    others."""
    by_preset = cfg.model.num_games_by_game or {}
    out = {}
    for g, given in mix_entries(cfg.mix, games).items():
        key = g.preset or g.name  # a variant's memory setting: its preset's entry
        num_games = given.num_games if given and given.num_games else by_preset.get(key, cfg.num_games)
        out[g.name] = {"num_games": num_games, "passes": given.passes if given and given.passes else 1}
    return out
