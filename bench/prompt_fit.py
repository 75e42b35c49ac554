"""Whether the agent can name what it must do: the share of gold actions whose words all appear in the
packed Markov prompt (beyond the words of the world's action templates: "pick up", "move ... to") (task, observation, inventory, look, previous action and observation), as written and,
with a run's tokenizer, within the first max_source_length tokens the model reads, and under the run's entity
representation, the share whose placeholders ("move <e4> seed ...") all stand in the prompt as the model reads it
(a placeholder the prompt never shows is a name the agent can only guess), and the share whose placeholders all stand
in the step's observation, inventory or look (`in sight`: a T5 agent that writes its actions passes over a candidate
naming a placeholder the task alone shows, so a gold action out of sight is one it will not send). Per game, on generated data; module calls
(`recall progress`) are left out: their words are the module's grammar.

    python bench/prompt_fit.py data/scienceworld-*/nomodules/train.jsonl [--checkpoint checkpoints/RUN]

Prints per game: examples, the share whose action words (template words aside) are all in the prompt, the share within the
tokens the model reads, the share whose placeholders are all in the prompt and all in sight (with --checkpoint), and the prompt's
median and largest length in tokens.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

from bct.worlds.registry import MODULES
from bct.worlds.scienceworld.text import COMMAND_WORDS

WORD = re.compile(r"[a-z0-9]+")
PLACEHOLDER = re.compile(r"<[en]\d+>")


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def module_call(action: str) -> bool:
    """A command a module owns (`recall progress`): its words are the module's grammar, not things named."""
    return any(module().owns(action) for module in MODULES.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--checkpoint", default=None, help="a run whose tokenizer and max_source_length to apply")
    args = ap.parse_args()
    tok, limit, rep = None, None, None
    if args.checkpoint:
        from transformers import AutoTokenizer

        from bct.data.representation import of_checkpoint

        tok = AutoTokenizer.from_pretrained(args.checkpoint)
        run = json.loads((Path(args.checkpoint) / "bct_config.json").read_text())
        limit, rep = run["settings"]["max_source_length"], of_checkpoint(run, args.checkpoint)
    per = defaultdict(lambda: {"n": 0, "seen": 0, "read": 0, "numbered": 0, "sight": 0, "lengths": []})
    for f in args.files:
        for line in Path(f).read_text().splitlines():
            ex = json.loads(line)
            if module_call(ex["target"]):
                continue
            g = per[ex["game"]]
            g["n"] += 1
            target = words(ex["target"]) - COMMAND_WORDS
            g["seen"] += target <= words(ex["source"])
            if tok is not None:
                ids = tok(ex["source"]).input_ids
                g["lengths"].append(len(ids))
                read = tok.decode(ids[:limit], skip_special_tokens=True)
                g["read"] += target <= words(read)
                mapped = rep.map(ex["source"], ex["valid_actions"])
                abstract = mapped.rewrite(ex["target"])
                g["numbered"] += set(PLACEHOLDER.findall(abstract)) <= set(PLACEHOLDER.findall(mapped.source))
                g["sight"] += mapped.in_sight(abstract)
    head = f"{'game':55} {'examples':>8} {'in prompt':>10} {'read':>8} {'numbered':>9} {'in sight':>9}"
    print(f"{head} {'tokens (median, max)':>22}")
    for game, g in sorted(per.items()):
        read, numbered, sight = (
            f"{g[k] / g['n']:.3f}" if tok is not None else "" for k in ("read", "numbered", "sight")
        )
        size = f"{statistics.median(g['lengths']):.0f}, {max(g['lengths'])}" if g["lengths"] else ""
        print(f"{game:55} {g['n']:>8} {g['seen'] / g['n']:>10.3f} {read:>8} {numbered:>9} {sight:>9} {size:>22}")
    n = sum(g["n"] for g in per.values())
    print(f"{'all':55} {n:>8} {sum(g['seen'] for g in per.values()) / n:>10.3f}")


if __name__ == "__main__":
    main()
