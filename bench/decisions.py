"""Where a trained agent's decisions part from the gold path's, teacher-forced: on a fold's gold
trajectories the checkpoint chooses at every step (as it plays: rank or generate) and each choice is
compared with the gold action. Prints, by what the step read last (the answer of a `recall` form, or
anything else), the share of decisions that differ, and a few examples of each.

    python bench/decisions.py checkpoints/<run> [--games 20] [--fold test] [--examples 3] [--param NAME=VALUE ...]

--param plays a variant of the checkpoint's game (e.g. --param numLocations=30 --param maxDistanceApart=8).

With the fact-only memory this is the share of decisions after a recall that the model gets wrong:
where the learned agent's score falls short of the planner's, it says which facts it misreads.
"""

from __future__ import annotations

import argparse
from collections import Counter

from bct.agents.base import Observation
from bct.agents.t5_checkpoint import load_agent
from bct.data.prompt import prompt_at
from bct.worlds.gold import play_gold
from bct.worlds.registry import fold_seeds, open_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--fold", default="test")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--param", action="append", default=[], help="a game parameter NAME=VALUE (repeatable)")
    args = ap.parse_args()
    agent = load_agent(args.checkpoint)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    game, modules = agent.game.with_params(params), agent.modules
    with open_game(game, modules) as env:
        trajs = [play_gold(env, seed, args.fold, modules) for seed in fold_seeds(game, args.fold, args.games)]
    seen, wrong, examples = Counter(), Counter(), {}
    for t in trajs:
        obs = [
            Observation(game, args.fold, t.seed, modules, t.steps[i], prompt_at(t.steps, i), t.actions[:i])
            for i in range(len(t.actions))
        ]
        for i, decision in enumerate(agent.act(obs)):
            read = t.steps[i].action or ""
            kind = f"after {read}" if read.startswith("recall ") else "after anything else"
            seen[kind] += 1
            if decision.action != t.actions[i]:
                wrong[kind] += 1
                examples.setdefault(kind, []).append((t.steps[i].observation, t.actions[i], decision.action))
    print(f"{args.checkpoint}: {game.name}, {len(trajs)} {args.fold} gold trajectories, teacher-forced")
    for kind in sorted(seen):
        print(f"  {kind}: {wrong[kind]} of {seen[kind]} decisions differ ({wrong[kind] / seen[kind]:.1%})")
        for observation, gold, chosen in examples.get(kind, [])[: args.examples]:
            print(f"    read: {observation[:300]!r}\n    gold: {gold!r}, chosen: {chosen!r}")
    total = sum(wrong.values()) / max(1, sum(seen.values()))
    print(f"all decisions: {total:.1%} differ")


if __name__ == "__main__":
    main()
