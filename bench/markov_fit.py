"""Whether a Markov agent can clone a gold path: the share of examples whose prompt the data also pairs with another
action. An agent that reads one prompt writes one action for it; where the same prompt (as the model reads it: with
--checkpoint, the run's representation, placeholders and all) is followed by different actions in the data, at best
it takes the commonest, and the rest are lost. A gold path whose steps look alike (five waits, then a look, then
watering) shows it as lost examples; a gold path that says why it acts (it waters when the look shows a dry pot)
loses none.

    python bench/markov_fit.py data/scienceworld-grow-plant*/nomodules/train.jsonl [--checkpoint checkpoints/RUN]

Prints per game: examples, the share lost (examples whose prompt the data pairs more often, or as often, with
another action), and the prompt lost the most with its actions and counts.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--checkpoint", default=None, help="a run whose representation to read the prompts with")
    args = ap.parse_args()
    rep = None
    if args.checkpoint:
        from bct.data.representation import of_checkpoint

        rep = of_checkpoint(json.loads((Path(args.checkpoint) / "bct_config.json").read_text()), args.checkpoint)
    seen: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for f in args.files:
        for line in Path(f).read_text().splitlines():
            ex = json.loads(line)
            source, target = ex["source"], ex["target"]
            if rep is not None:
                view = rep.map(source, ex["valid_actions"])
                source, target = view.source, view.rewrite(target)
            seen[ex["game"]][source][target] += 1
    print(f"{'game':60} {'examples':>8} {'lost':>6}  the prompt lost most: its actions")
    total = lost_all = 0
    for game, prompts in sorted(seen.items()):
        n = sum(sum(c.values()) for c in prompts.values())
        lost = {p: sum(c.values()) - max(c.values()) for p, c in prompts.items()}
        worst = max(lost, key=lost.get)
        shown = dict(prompts[worst].most_common(3)) if lost[worst] else ""
        print(f"{game:60} {n:>8} {sum(lost.values()) / n:>6.3f}  {shown}")
        total, lost_all = total + n, lost_all + sum(lost.values())
    print(f"{'all':60} {total:>8} {lost_all / total:>6.3f}")


if __name__ == "__main__":
    main()
