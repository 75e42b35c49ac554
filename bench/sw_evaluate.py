"""A checkpoint trained on many ScienceWorld tasks, evaluated task by task (each task its own JVMs, its batch
draining to its last episode: bct.evaluate before it pooled) against all the tasks in one pool of episodes
(bct.evaluate now), same checkpoint, settings and variations, in the same process.

    python bench/sw_evaluate.py --checkpoint checkpoints/<run> [--tasks 6] [--variations 5] [--batch 10]

The tasks are the checkpoint's first `--tasks`, played as runscripts/scienceworld.sh plays them (8 beams,
untried, 100 steps). Prints minutes of each way, the ratio (task by task / pooled) and the episodes whose
score differs (padding a batch of other prompts may move a beam's float by a hair).
"""

from __future__ import annotations

import argparse
import tempfile
import time

from bct.config.settings import EvaluateSettings, GameSettings
from bct.jobs.evaluation import checkpoint_games, evaluate, evaluate_games, read_histories


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--tasks", type=int, default=6)
    ap.add_argument("--variations", type=int, default=5)
    ap.add_argument("--batch", type=int, default=10, help="episodes at once (bct.evaluate's batch_size)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:

        def settings(results: str) -> EvaluateSettings:
            return EvaluateSettings(
                checkpoint=args.checkpoint,
                fold="test",
                num_variations=args.variations,
                step_limit=100,
                batch_size=args.batch,
                agent={"num_beams": 8, "untried": True},
                results_dir=f"{tmp}/{results}",
                progress=False,
            )

        games = checkpoint_games(settings("x"))[: args.tasks]
        start = time.perf_counter()
        alone = []
        for g in games:
            one = settings("alone").model_copy(
                update={"game": GameSettings(name=g.preset or g.name, params=dict(g.overrides))}
            )
            alone.append(evaluate(one))
        t_alone = time.perf_counter() - start
        start = time.perf_counter()
        pooled = evaluate_games(settings("pooled"), games)
        t_pooled = time.perf_counter() - start
        differ = []
        for a, p in zip(alone, pooled):
            sa = {e["seed"]: e["score"] for e in read_histories(a / "histories.jsonl")}
            sp = {e["seed"]: e["score"] for e in read_histories(p / "histories.jsonl")}
            differ += [f"{a.parent.name} {s}: {sa[s]} / {sp.get(s)}" for s in sa if sa[s] != sp.get(s)]
        n = len(games) * args.variations
        print(f"{len(games)} tasks x {args.variations} test variations ({n} episodes), batch {args.batch}")
        print(f"task by task: {t_alone / 60:.1f} min; pooled: {t_pooled / 60:.1f} min")
        print(f"episodes whose score differs: {len(differ)} of {n}" + "".join(f"\n  {d}" for d in differ))
        print(f"ratio (task by task / pooled): {t_alone / t_pooled:.2f}")


if __name__ == "__main__":
    main()
