"""Choosing among ScienceWorld's many actions: writing one (greedy generation, sent as written) against
ranking the valid-action list (600-9,000 strings a step, each scored by the model), same checkpoint, same
test variations, same process.

    python bench/sw_choice.py --checkpoint checkpoints/scienceworld-memory [--games a,b] [--variations 2]
        [--step-limit 30]

Prints per game and way: the mean final score, game steps, and seconds per game step (listing the valid
actions included: the ranked agent needs the list, the writing one does not ask for it); then the ratio
of seconds per step (rank / generate) as the last line.
"""

from __future__ import annotations

import argparse
import time

from bct.agents import T5Agent
from bct.agents.rollout import rollout
from bct.core.threads import set_threads
from bct.worlds.registry import fold_seeds, get_game

GAMES = "scienceworld-find-living-thing,scienceworld-lifespan-longest-lived,scienceworld-use-thermometer"


def play(checkpoint: str, game_name: str, decoding: str, variations: int, step_limit: int) -> tuple[float, int, float]:
    """(mean score, game steps, seconds) of one way of choosing on a game's first test variations."""
    game = get_game(game_name)
    agent = T5Agent.from_checkpoint(checkpoint, game, decoding=decoding, num_beams=1)
    seeds = fold_seeds(game, "test", variations)
    start = time.perf_counter()
    results = rollout(agent, agent.game, "test", seeds, agent.modules, batch_size=len(seeds), step_limit=step_limit)
    seconds = time.perf_counter() - start
    return sum(r.score for r in results) / len(results), sum(r.env_steps for r in results), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--games", default=GAMES)
    ap.add_argument("--variations", type=int, default=2)
    ap.add_argument("--step-limit", type=int, default=30)
    args = ap.parse_args()
    set_threads("auto")
    per_step = {"generate": [0.0, 0], "rank": [0.0, 0]}
    for game in args.games.split(","):
        for decoding in ("generate", "rank"):
            score, steps, seconds = play(args.checkpoint, game, decoding, args.variations, args.step_limit)
            per_step[decoding][0] += seconds
            per_step[decoding][1] += steps
            print(f"{game} {decoding}: score {score:.2f}, {steps} game steps, {seconds / max(steps, 1):.3f} s per step")
    gen, rank = (per_step[d][0] / max(per_step[d][1], 1) for d in ("generate", "rank"))
    print(f"seconds per game step: generate {gen:.3f}, rank {rank:.3f}")
    print(f"ratio rank/generate: {rank / gen:.1f}")


if __name__ == "__main__":
    main()
