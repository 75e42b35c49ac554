"""Evaluation results read back: every results.json under a folder as a row, and its played episodes; what every
world's tables (bct/worlds/<folder>/report.py) and the reports read of a row."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bct.core.errors import UserError


def collect(results_dir: str | Path, fold: str | None = None) -> list[dict]:
    """One row per results.json under `results_dir` (its summary fields, not the per-variation list).
    A damaged file is skipped with a warning; a folder that does not exist is a UserError."""
    if not Path(results_dir).is_dir():
        raise UserError(
            f"no results folder at {results_dir}; evaluate first: python -m bct.evaluate ... results_dir={results_dir}"
        )
    rows = []
    for path in sorted(Path(results_dir).rglob("results.json")):
        if ".replaced-" in path.parent.name:  # set aside: results of earlier weights, or unreadable
            continue
        try:
            r = json.loads(path.read_text())
            if not all(k in r for k in ("game", "modules", "fold", "agent", "avg_score", "avg_steps", "avg_env_steps")):
                raise KeyError("summary fields")
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as e:
            print(f"warning: skipped {path}: not a readable results file ({type(e).__name__})", file=sys.stderr)
            continue
        if fold and r.get("fold") != fold:
            continue
        rows.append(
            {
                **{k: v for k, v in r.items() if k != "per_variation"},
                "run": path.parent.parent.name,
                "path": str(path.parent),
            }
        )
    return rows


def tales_loop(row: dict) -> bool:
    """Whether a results row was played through TALES's own loop (protocol=tales), not bct's."""
    return row.get("settings", {}).get("protocol", row.get("protocol", "bct")) == "tales"


def usual(row: dict) -> bool:
    """Whether a results row is bct's loop on the usual draw of its fold: not TALES's loop (protocol=tales), not a
    second draw (draw=2). Tables that place one row a cell keep to these; ScienceWorld's recipes table reads them all."""
    return not tales_loop(row) and row.get("settings", {}).get("draw", 1) == 1


def agent_name(r: dict) -> str:
    """An agent as a table names it: a learned one by its run (a run that played several games, without the game), a
    baseline by its kind."""
    return r["run"].split("-on-")[0] if r["agent"] == "t5" else r["agent"]


def training(r: dict) -> tuple[str, ...]:
    """The weights that played a row: its checkpoint, with an ensemble's other members."""
    s = r.get("settings", {})
    return (s.get("checkpoint") or r["agent"], *(m["checkpoint"] for m in s.get("ensemble", [])))


def episodes(row: dict) -> list[dict]:
    """The played episodes of one evaluation (its histories.jsonl, beside results.json), in seed order;
    [] where the evaluation wrote none. A damaged line is skipped with a warning."""
    path = Path(row["path"]) / "histories.jsonl"
    found = []
    if path.exists():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"warning: skipped line {n} of {path}: not JSON (cut off mid-write?)", file=sys.stderr)
    return sorted(found, key=lambda e: e["seed"])


def solved(episode: dict) -> bool:
    """Whether an episode ended in the game's success (its score reached 1 on games that report no success)."""
    return bool(episode.get("success")) or episode.get("score", 0) >= 1.0


def invalid_share(row: dict) -> float | None:
    """For an LLM row: the share of its replies that named no valid action (the closest valid action
    was then played for it); None for other agents."""
    if row.get("agent") != "llm":
        return None
    replies = (row.get("avg_steps") or 0) * row.get("num_variations", 0)
    return row.get("agent_stats", {}).get("invalid_replies", 0) / replies if replies else 0.0


def best_in_play(r: dict, game_steps: int | None = None) -> float | None:
    """The mean over a row's episodes of the best score reached during play (TALES's measure), from its
    play logs; None where it has none. With `game_steps`, within an episode's first that many game actions
    (module calls not counted): what a run stopped there would have reached, as the agents and games are
    deterministic."""
    played = episodes(r)
    if not played:
        return None
    return sum(best_score(e["history"], game_steps) for e in played) / len(played)


def best_score(history: list[dict], game_steps: int | None = None) -> float:
    best, taken = 0.0, 0
    for h in history:
        taken += not h.get("from_module", False)
        if game_steps is not None and taken > game_steps:
            break
        best = max(best, h["score"])
    return best
