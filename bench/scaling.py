"""Evaluation scaling without a model: the same variations played by an agent that decides per episode
(random by default) with more games at once against one at a time, in the same process, each timed as a
user waits (JVMs started, episodes played, JVMs closed), and where the time went.

    python bench/scaling.py [--game twc] [--agent random] [--variations 96] [--at-once 1 4 16] [--uncapped]

The rollout plays an agent that decides per episode on at most as many games at once as the process has
cores (bct.agents.rollout.env_slots); `--uncapped` starts as many as asked, to show what the cap saves. Per
setting: seconds, episodes/s, and the seconds spent starting JVMs, in game steps (the JVM's answer), in the
modules (reading each observation), in the agent's decisions and in prompt packing, summed over threads.
The last line: the ratio of the most games at once to one at a time (above 1: faster).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from contextlib import contextmanager

import bct.agents.rollout as ro
from bct.agents import make_agent
from bct.config.settings import EvaluateSettings
from bct.modules.stack import ModuleStack
from bct.worlds.registry import fold_seeds, open_game


@contextmanager
def timed(spent: dict):
    """Add the seconds spent in each part of playing to `spent` while inside."""
    patched = []

    def wrap(owner, name: str, part: str):
        original = getattr(owner, name)

        def timing(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spent[part] += time.perf_counter() - start

        setattr(owner, name, timing)
        patched.append((owner, name, original))

    from textworld_express import TextWorldExpressEnv

    wrap(TextWorldExpressEnv, "step", "game steps")
    wrap(TextWorldExpressEnv, "reset", "game resets")
    wrap(ModuleStack, "saw", "modules")
    wrap(ro, "prompt_at", "prompt packing")
    wrap(ro, "start_envs", "JVM start")
    try:
        yield
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="twc")
    ap.add_argument("--agent", default="random", choices=["random", "oracle", "planner"])
    ap.add_argument("--variations", type=int, default=96)
    ap.add_argument("--at-once", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--uncapped", action="store_true", help="as many games at once as asked, cores or not")
    args = ap.parse_args()
    cfg = EvaluateSettings(agent=args.agent, game=args.game)
    game = cfg.played()
    seeds = fold_seeds(game, "dev", args.variations)
    agent = make_agent(cfg.agent, game, True)
    if args.uncapped:
        agent.batched = True  # the rollout then starts as many games as asked
    with open_game(game, True):  # the first JVM of the process pays class loading: before the clock
        pass
    rates = {}
    for n in args.at_once:
        spent: dict[str, float] = defaultdict(float)
        agent_act = agent.act

        def act(batch, spent=spent, agent_act=agent_act):
            start = time.perf_counter()
            try:
                return agent_act(batch)
            finally:
                spent["decisions"] += time.perf_counter() - start

        agent.act = act
        with timed(spent):
            start = time.perf_counter()
            results = ro.rollout(agent, game, "dev", seeds, True, batch_size=n, step_limit=game.step_limit)
            seconds = time.perf_counter() - start
        agent.act = agent_act
        rates[n] = len(results) / seconds
        steps = sum(r.steps for r in results)
        parts = ", ".join(f"{k} {v:.2f} s" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))
        print(
            f"{n:3d} at once ({ro.env_slots(agent, n, len(seeds))} games started): {seconds:6.2f} s, "
            f"{rates[n]:6.2f} episodes/s, {steps} steps; {parts}"
        )
    most, one = max(args.at_once), min(args.at_once)
    print(f"ratio ({most} at once / {one} at a time): {rates[most] / rates[one]:.2f}")


if __name__ == "__main__":
    main()
