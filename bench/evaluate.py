"""Rollout speed: the batched engine against one episode at a time, same checkpoint, decoding and
variations, in the same process.

    python bench/evaluate.py [--checkpoint checkpoints/<run>] [--variations 32] [--batch 32] [--decoding generate]

Without --checkpoint, trains the CPU-sized offline preset on twc for 2 epochs first (about a minute).
Prints episodes per second of each and the ratio (batched / one at a time) as the last line.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from bct.agents import T5Agent
from bct.agents.rollout import rollout
from bct.config.settings import TrainSettings
from bct.seq2seq.model import load_checkpoint
from bct.seq2seq.training import train
from bct.worlds.registry import get_game, open_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint")
    ap.add_argument("--variations", type=int, default=32)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--decoding", default="generate", choices=["generate", "rank"])
    ap.add_argument("--num-beams", type=int, default=16)
    ap.add_argument("--model-batch", type=int, default=None, help="episodes per model call (default: the agent's)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = args.checkpoint
        if checkpoint is None:
            cfg = TrainSettings(
                game="twc", model="t5-cpu-scratch", epochs=2, num_games=100, progress=False, checkpoint_dir=tmp
            )
            checkpoint = train(cfg)
        model, tokenizer, run = load_checkpoint(checkpoint)
        s = run["settings"]
        agent = T5Agent(
            model,
            tokenizer,
            decoding=args.decoding,
            num_beams=args.num_beams,
            max_source_length=s["max_source_length"],
            max_target_length=run.get("longest_target_tokens", s["max_target_length"]) + 4,
            model_batch=args.model_batch,
            entities=s.get("entities", "text"),
        )
        game, modules = get_game(s["game"]), s["modules"]
        seeds = list(range(10000, 10000 + args.variations))
        # JVMs start before the clock: both sides time the same thing, the model calls and env steps.
        with ThreadPoolExecutor(args.batch) as pool:
            envs = list(pool.map(lambda _: open_game(game, modules), range(args.batch)))
        rollout(agent, game, "train", range(args.batch), modules, batch_size=args.batch, envs=envs)  # warm-up
        rates = {}
        for name, batch in (("batched", args.batch), ("one at a time", 1)):
            start = time.perf_counter()
            results = rollout(agent, game, "dev", seeds, modules, batch_size=batch, envs=envs[:batch])
            rates[name] = len(results) / (time.perf_counter() - start)
            steps = sum(r.steps for r in results)
            print(
                f"{name:14s} batch {batch:3d}: {rates[name]:6.2f} episodes/s ({steps} steps, "
                f"score {sum(r.score for r in results) / len(results):.3f})"
            )
        print(f"ratio (batched / one at a time): {rates['batched'] / rates['one at a time']:.2f}")
        for env in envs:
            env.close()


if __name__ == "__main__":
    main()
