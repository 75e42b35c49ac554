"""`python -m bct.report A --against B`: two passes of the same weights on the same episodes, compared episode by
episode, for a choice made on dev (an agent setting, a lever).

Episodes are matched by the weights that played them (checkpoint, and an ensemble's members), the game, the fold, its
draw, the loop and the variation; a pass's score is the mean over its games of each game's mean, and the trainings'
mean is the figure a recipe reports. The interval is a paired bootstrap over episodes (each game's variations drawn
again with replacement, the same ones on both sides; the trainings held fixed): a lever that moves a handful of
runs, some up and some down, gets an interval across zero, however its mean came out.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from statistics import mean

import numpy as np

from bct.core.errors import UserError
from bct.core.results import collect, tales_loop, training
from bct.worlds.registry import from_record, tales_runs

RESAMPLES = 2000


def evaluation_key(r: dict) -> tuple:
    """What must be the same for two evaluations to be the same episodes: weights, game, fold, draw and loop."""
    draw = r.get("settings", {}).get("draw", 1)
    return training(r), r["game"], r["fold"], draw, "tales" if tales_loop(r) else "bct"


def per_episode(results_dir: str | Path, fold: str | None = None) -> dict[tuple, dict[int, list[float]]]:
    """{evaluation key: {variation: its runs' scores}} for every evaluation under a folder (one run a variation, but
    in TALES's loop where its seeds pick a variation twice); a key met twice is an error."""
    found: dict[tuple, dict[int, list[float]]] = {}
    for r in collect(results_dir, fold):
        key = evaluation_key(r)
        if key in found:
            raise UserError(
                f"{results_dir} holds two evaluations of {key[1]} ({key[2]}) by the same weights; point --against "
                f"and the folder at one pass each (e.g. results/x/seed42)"
            )
        played = json.loads((Path(r["path"]) / "results.json").read_text()).get("per_variation", [])
        # TALES's loop: a variation its game seeds pick twice (a fold of fewer) is two runs, as in the pass's mean
        runs = tales_runs(from_record(r["settings"]), r["fold"], r["num_variations"]) if tales_loop(r) else {}
        found[key] = {v["seed"]: [v["score"]] * runs.get(v["seed"], 1) for v in played}
    return found


def compare(a: dict[tuple, dict[int, list[float]]], b: dict[tuple, dict[int, list[float]]], seed: int = 0) -> dict:
    """The paired comparison of two passes (`per_episode` of each): per set of weights, the two pass scores (mean of
    per-game means over the games both played), their difference and the runs that changed; over the weights,
    the mean difference and its 95% paired-bootstrap interval; and the games where any episode changed."""
    by_weights: dict[tuple, dict[str, tuple[np.ndarray, np.ndarray]]] = defaultdict(dict)
    for key in sorted(set(a) & set(b)):
        both = sorted(set(a[key]) & set(b[key]))
        if both:
            runs = [(x, y) for s in both for x, y in zip(a[key][s], b[key][s])]
            by_weights[key[0]][key[1:]] = (np.array([x for x, _ in runs]), np.array([y for _, y in runs]))
    rows, games = [], []  # per set of weights; (weights, game key, A, B) where any run changed
    for weights, played in by_weights.items():
        changed = [(x != y).sum() for x, y in played.values()]
        up = sum(int((x > y).sum()) for x, y in played.values())
        pa, pb = mean(x.mean() for x, _ in played.values()), mean(y.mean() for _, y in played.values())
        rows.append(
            {
                "weights": weights,
                "games": len(played),
                "runs": sum(len(x) for x, _ in played.values()),
                "a": pa,
                "b": pb,
                "diff": pa - pb,
                "changed": int(sum(changed)),
                "up": up,
                "down": int(sum(changed)) - up,
            }
        )
        games += [(weights, game, x.mean(), y.mean()) for game, (x, y) in played.items() if (x != y).any()]
    rng = np.random.default_rng(seed)
    draws = np.zeros(RESAMPLES)
    for played in by_weights.values():  # each training's difference of means, resampled; then their mean
        per_game = []
        for x, y in played.values():
            pick = rng.integers(0, len(x), size=(RESAMPLES, len(x)))
            per_game.append((x[pick] - y[pick]).mean(axis=1))
        draws += np.mean(per_game, axis=0)
    draws /= max(1, len(by_weights))
    low, high = np.percentile(draws, [2.5, 97.5]) if by_weights else (0.0, 0.0)
    return {
        "trainings": rows,
        "diff": mean(r["diff"] for r in rows) if rows else 0.0,
        "interval": (float(low), float(high)),
        "games": games,
        "only_a": len(set(a) - set(b)),
        "only_b": len(set(b) - set(a)),
    }


def table(result: dict, name_a: str, name_b: str) -> str:
    """The comparison as Markdown: one row per set of weights, the mean with its interval, the games that moved."""
    lines = [
        f"Paired: {name_a} (A) against {name_b} (B), the same episodes",
        "",
        "| weights | games | runs | A | B | A - B | runs changed (up / down) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in result["trainings"]:
        lines.append(
            f"| {short(r['weights'])} | {r['games']} | {r['runs']} | {r['a']:.3f} | {r['b']:.3f} | "
            f"{r['diff']:+.3f} | {r['changed']} ({r['up']} / {r['down']}) |"
        )
    low, high = result["interval"]
    lines += [
        "",
        f"Mean A - B over {len(result['trainings'])} training(s): {result['diff']:+.3f} "
        f"(95% paired bootstrap over episodes: {low:+.3f} to {high:+.3f})",
    ]
    if result["games"]:
        lines += ["", "Games where an episode changed (A, B):"]
        lines += [f"- {short(w)}, {g[0]}: {x:.3f}, {y:.3f} ({x - y:+.3f})" for w, g, x, y in result["games"]]
    if result["only_a"] or result["only_b"]:
        lines += ["", f"Unmatched evaluations, left out: {result['only_a']} in A, {result['only_b']} in B"]
    return "\n".join(lines)


def short(weights: tuple) -> str:
    """A set of weights by its checkpoint's folder name (an ensemble's: "+N" more)."""
    return Path(weights[0]).name + (f" +{len(weights) - 1}" if len(weights) > 1 else "")
