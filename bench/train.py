"""Time to score: the offline preset's defaults against the previous defaults (every gold step of
1000 games, repeats included, 4 epochs at 3e-4), same game, in the same process: each is trained,
then played on the same dev variations.

    python bench/train.py [--game twc] [--variations 100] [--fold dev] [key=value ...]

Extra key=value arguments are bct.train overrides applied to both. Prints per setting: training
examples, example passes, training seconds, examples/s, score and environment steps; the last line
is the ratio of training times (previous / now) with both scores.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bct.config.runs import read_run
from bct.config.settings import TrainSettings
from bct.core.files import read_json
from bct.jobs.evaluation import evaluate
from bct.jobs.job import settings_to_evaluate
from bct.seq2seq.training import train

PREVIOUS = ["distinct=false", "num_games=1000", "epochs=4", "lr=3e-4", "warmup=0.1", "batch_size=4"]


def time_to_score(overrides: list[str], fold: str, variations: int, tmp: str) -> dict:
    cfg = TrainSettings.from_overrides(
        [*overrides, f"checkpoint_dir={tmp}/checkpoints", "progress=false", "logging_steps=100000"]
    )
    run_dir = train(cfg)
    run = read_run(run_dir)
    cfg.eval.num_variations = variations
    out = evaluate(settings_to_evaluate(cfg, run_dir, fold, Path(tmp) / "results"))
    results = read_json(out / "results.json", "results file", "run the bench again")
    seconds = run["metrics"]["train_runtime"]
    passes = run["num_examples"] * cfg.epochs
    return {
        "examples": run["num_examples"],
        "passes": passes,
        "seconds": seconds,
        "rate": passes / seconds,
        "score": results["avg_score"],
        "steps": results["avg_env_steps"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="twc")
    ap.add_argument("--model", default="t5-cpu-scratch")
    ap.add_argument("--variations", type=int, default=100)
    ap.add_argument("--fold", default="dev")
    args, extra = ap.parse_known_args()
    base = [f"+game={args.game}", f"model={args.model}", *extra]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, overrides in (("previous", [*base, *PREVIOUS]), ("now", base)):
            rows[name] = time_to_score(overrides, args.fold, args.variations, tmp)
    print(f"{args.game}, {args.model}, {args.variations} {args.fold} variations")
    print(f"{'defaults':<9} {'examples':>8} {'passes':>7} {'train s':>8} {'ex/s':>6} {'score':>6} {'steps':>6}")
    for name, r in rows.items():
        print(
            f"{name:<9} {r['examples']:>8} {r['passes']:>7} {r['seconds']:>8.0f} {r['rate']:>6.1f} "
            f"{r['score']:>6.2f} {r['steps']:>6.1f}"
        )
    prev, now = rows["previous"], rows["now"]
    print(
        f"training time ratio (previous / now): {prev['seconds'] / now['seconds']:.1f}x, "
        f"score {prev['score']:.2f} -> {now['score']:.2f}"
    )


if __name__ == "__main__":
    main()
