"""What one run of several games costs against its games trained one at a time, in the same process:
the mixture (default: +experiment=generalist) and then each of its games alone train for the same number
of optimizer steps on the same model preset; the seconds per step are compared.

    python bench/mix.py [--steps 200] [key=value ...]

Extra key=value arguments are bct.train overrides for the mixture (e.g. games=[twc,coin] modules=all).
Prints per game its share of the mixture's examples and its seconds per step alone; then the mixture's
seconds per step, the ratio of the mixture's to its games' weighted by their share (1.0: mixing costs
nothing per step), and the minutes the mixture's whole budget takes at that rate.
"""

from __future__ import annotations

import argparse
import tempfile

from bct.config.runs import mixture, read_run
from bct.config.settings import TrainSettings
from bct.seq2seq.training import train


def seconds_per_step(overrides: list[str], steps: int, tmp: str) -> tuple[float, int]:
    """(seconds per optimizer step, examples of the run) of a run of `steps` steps."""
    cfg = TrainSettings.from_overrides(
        [
            *overrides,
            "epochs=null",
            f"max_steps={steps}",
            f"checkpoint_dir={tmp}",
            "run_name=null",
            "progress=false",
            "save_strategy=no",
            "logging_steps=100000",
        ]
    )
    record = read_run(train(cfg))
    return record["metrics"]["train_runtime"] / steps, record["num_examples"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200, help="optimizer steps per run")
    ap.add_argument("overrides", nargs="*", default=["+experiment=generalist"])
    args = ap.parse_args()
    cfg = TrainSettings.from_overrides(args.overrides)
    games = cfg.trained()
    mix = mixture(cfg, games)
    same = [f"model={cfg.model.name}", f"data_dir={cfg.data_dir}", f"threads={cfg.threads}"]
    with tempfile.TemporaryDirectory() as tmp:
        alone = {}
        for g in games:
            share = mix[g.name]
            game = [f"+game={g.preset or g.name}", f"modules={str(cfg.modules).lower()}", *same]
            game += [f"memory={str(g.memory).lower()}", f"num_games={share['num_games']}"]
            per_step, examples = seconds_per_step(game, args.steps, f"{tmp}/{g.name}")
            alone[g.name] = (per_step, examples * share["passes"])
            print(f"{g.name:36s} {examples * share['passes']:7d} examples in the mix  {per_step:.4f} s/step alone")
        mixed, examples = seconds_per_step(args.overrides, args.steps, f"{tmp}/mix")
    total = sum(n for _, n in alone.values())
    weighted = sum(s * n for s, n in alone.values()) / total
    budget = -(-examples // (cfg.batch_size * cfg.grad_accum)) * (cfg.epochs or 1)
    print(f"mixture: {examples} examples, {mixed:.4f} s/step; its games alone, weighted: {weighted:.4f} s/step")
    print(
        f"ratio mixture / games alone: {mixed / weighted:.2f}; the whole budget ({budget} steps) at this rate: "
        f"{budget * mixed / 60:.1f} minutes"
    )


if __name__ == "__main__":
    main()
