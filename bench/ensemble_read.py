"""An ensemble's step, its prompts read by each encoder once (the agent's way) or twice (once for its beam search,
again for the scoring that orders the pool: the way before), same checkpoints, same prompts, same process.

    python bench/ensemble_read.py --checkpoint checkpoints/scienceworld-nomemory \
        --ensemble checkpoints/s43/scienceworld-nomemory [--game G] [--data data] [--prompts 32] [--repeats 3]

The prompts are training sources of the checkpoint's data (every task's, of all lengths), in groups of the agent's
`model_batch`. Prints seconds per prompt each way, repeats interleaved, and the once-read's time against the
twice-read's (the baseline) as a ratio; also the largest difference of a pooled candidate's score between the two
(the same candidates, the same scores: the reading is shared, not changed) and the share of a step its encoders take.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch

from bct.agents.t5_checkpoint import load_agent
from bct.core.threads import set_threads
from bct.worlds.registry import get_game


def prompts(data: Path, n: int) -> list[str]:
    """`n` training sources drawn from every data file under `data`, sorted by length (the agent groups them so)."""
    files = sorted(data.glob("*/*/train.jsonl"))
    if not files:
        raise SystemExit(f"--data {data}: no */*/train.jsonl under it; run bct.generate first")
    rows = [json.loads(line)["source"] for f in files for line in f.open()]
    return sorted(random.Random(0).sample(rows, min(n, len(rows))), key=len)


def step(agent, sources: list[str], once: bool) -> dict[str, float]:
    """One ensemble step of decisions (`T5Agent._generate`'s model work) for `sources`: each source's pooled
    candidates and their mean scores."""
    read = agent._read(agent.model, agent.tokenizer, sources)
    pools = [list(dict.fromkeys(c)) for c in agent._beams(agent.model, agent.tokenizer, read)]
    if once:
        means = agent._pool(sources, pools, read)
        return {f"{i} {c}": x for i, (pool, mean) in enumerate(zip(pools, means)) for c, x in zip(pool, mean)}
    for model, tokenizer in agent.members:  # each member's beams from its own reading, then all read again
        for pool, more in zip(pools, agent._beams(model, tokenizer, agent._read(model, tokenizer, sources))):
            pool.extend(c for c in more if c not in pool)
    means = agent._mean_likelihood(sources, pools)
    return {f"{i} {c}": x for i, (pool, mean) in enumerate(zip(pools, means)) for c, x in zip(pool, mean)}


@torch.inference_mode()
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--ensemble", required=True, help="another checkpoint trained alike (agent.ensemble)")
    ap.add_argument("--game", default="scienceworld-use-thermometer", help="one game the checkpoints trained on")
    ap.add_argument("--data", default="data")
    ap.add_argument("--prompts", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    set_threads("auto")
    game = get_game(args.game)
    agent = load_agent(args.checkpoint, game, num_beams=8, beam_groups=8, ensemble=[args.ensemble])
    sources = prompts(Path(args.data), args.prompts)
    groups = [sources[i : i + agent.model_batch] for i in range(0, len(sources), agent.model_batch)]
    seconds = {"twice": 0.0, "once": 0.0}
    encoding, scores = 0.0, {}
    for _ in range(args.repeats):
        for way in seconds:
            start = time.perf_counter()
            scores[way] = {
                f"{n} {k}": x for n, g in enumerate(groups) for k, x in step(agent, g, way == "once").items()
            }
            seconds[way] += time.perf_counter() - start
        start = time.perf_counter()
        for g in groups:
            for model, tokenizer in [(agent.model, agent.tokenizer), *agent.members]:
                agent._read(model, tokenizer, g)
        encoding += time.perf_counter() - start
    n = len(sources) * args.repeats
    for way, s in seconds.items():
        print(f"read {way:5s}: {s / n:.3f} s a prompt ({len(agent.members) + 1} models, {len(sources)} prompts)")
    if scores["once"].keys() != scores["twice"].keys():
        raise SystemExit("the two ways pooled other candidates: the shared reading changed what the models wrote")
    diff = max(abs(x - scores["twice"][k]) for k, x in scores["once"].items())
    print(f"largest score difference: {diff:.2e}")
    print(f"once / twice: {seconds['once'] / seconds['twice']:.2f}x the time")
    print(f"the encoders' share of a once-read step: {encoding / seconds['once']:.0%}")


if __name__ == "__main__":
    main()
