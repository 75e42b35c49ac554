"""Generated data on disk: JSON-lines examples, the manifest, atomic writes and `datasets` loading."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Iterable

from bct.errors import UserError
from bct.gold import Trajectory
from bct.prompt import pack_history

MANIFEST = "manifest.json"
DATA_FORMAT = 3  # 2: examples carry their valid actions; 3: and each episode's final state; older files are regenerated
COMPLETED = "completed"  # the target of an episode's final state (the original's data has it)


def examples(traj: Trajectory, variant: str) -> list[dict]:
    """One seq2seq example per action of a trajectory: the packed prompt, the action to take and the
    valid actions it was chosen from (what `bct.prompt.represent` needs to rewrite names); then the
    final state with target `completed`, marked `final` (training uses it with `final_example=true`)."""
    sources = pack_history(traj.steps)
    return [
        {"source": sources[i], "target": traj.steps[i + 1].action if i + 1 < len(traj.steps) else COMPLETED,
         "valid_actions": traj.steps[i].valid_actions, "final": i + 1 == len(traj.steps),
         "game": traj.game, "variant": variant, "fold": traj.fold, "seed": traj.seed, "step": i}
        for i in range(len(traj.steps))
    ]


def data_path(out_dir: str | Path, game: str, variant: str, fold: str) -> Path:
    return Path(out_dir) / game / variant / f"{fold}.jsonl"


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file so that readers see the old version or the new one, never a partial one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_jsonl(path: str | Path, rows: Iterable[dict]) -> None:
    write_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def read_manifest(out_dir: str | Path) -> dict:
    path = Path(out_dir) / MANIFEST
    return json.loads(path.read_text()) if path.exists() else {"files": {}}


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
    return datasets.load_dataset("json", data_files=files, split=split)
