"""Gold-data generation speed against bare TWX gold-path replay, in the same process.

    python bench/generate.py [--episodes 200]

For each game: trajectories per second of the generator (gold path with module calls injected,
then packed into training examples) and of replaying the bare TWX gold path straight on the
TWX environment underneath (the same JVM). Both are warmed up and run over the same seeds,
interleaved. The last line is the
ratio of the generator's total rate to the baseline's (1.0 = no overhead).
"""

from __future__ import annotations

import argparse
import time

from textworld_express import TextWorldExpressEnv

from bct.data.datasets import examples
from bct.modules.stack import ModularEnv
from bct.worlds.gold import play_gold
from bct.worlds.registry import get_game, open_game
from bct.worlds.twx.games import PAPER_GAMES


def bare_replay(twx: TextWorldExpressEnv, seeds: list[int]) -> None:
    for seed in seeds:
        twx.reset(seed=seed, gameFold="train", generateGoldPath=True)
        for action in twx.getGoldActionSequence():
            twx.step(action)


def generator(env: ModularEnv, seeds: list[int]) -> None:
    for seed in seeds:
        traj = play_gold(env, seed, "train", modules=True)
        assert traj.ok, traj.error
        examples(traj, "modules")


def timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=200, help="episodes per game and side")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; each side keeps its best")
    args = ap.parse_args()
    totals = {"generator": 0.0, "bare": 0.0}
    for name in PAPER_GAMES:
        game = get_game(name)
        env = open_game(game, [game.module])
        twx = env.env.twx  # the same JVM for both sides, so JIT warm-up and GC treat them alike
        seeds = list(range(args.episodes))
        generator(env, seeds[:50]), bare_replay(twx, seeds[:50])  # warm up both JVMs
        best = {"generator": float("inf"), "bare": float("inf")}
        for _ in range(args.rounds):
            best["generator"] = min(best["generator"], timed(generator, env, seeds))
            best["bare"] = min(best["bare"], timed(bare_replay, twx, seeds))
        env.close()
        for k in totals:
            totals[k] += best[k]
        g, b = args.episodes / best["generator"], args.episodes / best["bare"]
        print(f"{name:12s} generator {g:7.1f} traj/s   bare replay {b:7.1f} traj/s   ratio {g / b:.2f}")
    print(f"ratio (all games, generator / bare replay): {totals['bare'] / totals['generator']:.2f}")


if __name__ == "__main__":
    main()
