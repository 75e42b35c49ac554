"""Choosing among ScienceWorld's many actions, three ways, same checkpoint, same test variations, same process:
writing one (greedy generation, sent as written: `write-1`), writing 8 beam candidates and sending the best
that names only things in sight (`write-8`, ScienceWorld's `World.knows`), and ranking the valid-action list
(600-9,000 strings a step, each scored by the model: `rank`); with `--ensemble` another checkpoint trained alike,
the two writing 8 each as one agent (`ensemble-8`, agent.ensemble).

    python bench/sw_choice.py --checkpoint checkpoints/scienceworld-nomemory [--games a,b] [--variations 2]
        [--step-limit 30] [--ways write-1,write-8,rank] [--ensemble checkpoints/b/scienceworld-nomemory]

Prints per game and way: the mean final score, game steps, and seconds per game step (listing the valid
actions included: the ranked agent needs the list, the writing ones do not ask for it); then each way's
seconds per step against `write-1`'s (the baseline) as ratios.
"""

from __future__ import annotations

import argparse
import time

from bct.agents.rollout import rollout
from bct.agents.t5_checkpoint import load_agent
from bct.core.threads import set_threads
from bct.worlds.registry import fold_seeds, get_game

GAMES = "scienceworld-find-living-thing,scienceworld-lifespan-longest-lived,scienceworld-use-thermometer"
# decoding, beams
WAYS = {"write-1": ("generate", 1), "write-8": ("generate", 8), "rank": ("rank", 1), "ensemble-8": ("generate", 8)}


def play(
    checkpoint: str, game_name: str, way: str, variations: int, step_limit: int, ensemble: str | None = None
) -> tuple[float, int, float]:
    """(mean score, game steps, seconds) of one way of choosing on a game's first test variations."""
    game = get_game(game_name)
    decoding, beams = WAYS[way]
    members = [ensemble] if way == "ensemble-8" else []
    agent = load_agent(checkpoint, game, decoding=decoding, num_beams=beams, beam_groups=beams, ensemble=members)
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
    ap.add_argument("--ensemble", help="another checkpoint trained alike: adds the way ensemble-8")
    ap.add_argument("--ways", help=f"of {', '.join(WAYS)}; the first is the baseline (default: all that apply)")
    args = ap.parse_args()
    ways = args.ways.split(",") if args.ways else [w for w in WAYS if args.ensemble or w != "ensemble-8"]
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        raise SystemExit(f"--ways: unknown {', '.join(unknown)}; choose from {', '.join(WAYS)}")
    if "ensemble-8" in ways and not args.ensemble:
        raise SystemExit("--ways ensemble-8 needs --ensemble CHECKPOINT (another checkpoint trained alike)")
    set_threads("auto")
    per_step = {w: [0.0, 0] for w in ways}
    scores = {w: [] for w in ways}
    for game in args.games.split(","):
        for way in ways:
            score, steps, seconds = play(args.checkpoint, game, way, args.variations, args.step_limit, args.ensemble)
            per_step[way][0] += seconds
            per_step[way][1] += steps
            scores[way].append(score)
            print(f"{game} {way}: score {score:.2f}, {steps} game steps, {seconds / max(steps, 1):.3f} s per step")
    rate = {w: per_step[w][0] / max(per_step[w][1], 1) for w in ways}
    for w in ways:
        print(f"{w}: mean score {sum(scores[w]) / len(scores[w]):.3f}, {rate[w]:.3f} s per game step")
    print(
        "ratios of seconds per game step: "
        + ", ".join(f"{w}/{ways[0]} {rate[w] / rate[ways[0]]:.1f}" for w in ways[1:])
    )


if __name__ == "__main__":
    main()
