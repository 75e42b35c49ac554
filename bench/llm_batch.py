"""agent.choice=generate on a local causal LM: a step's episodes answered in one batched generation
(LocalBackend.chat_batch, prompts padded on the left) against the baseline that answers them one at a time
(LocalBackend.chat, as the agent did before). Same model, same prompts (the LLM agent's, on the gold path's
observations, dev fold), same process.

    python bench/llm_batch.py [--model DIR] [--game scienceworld-boil] [--steps 8] [--max-tokens 32]

Without --model, uses the Gemma 3 270M folder that tests/test_llm_server.py prepares if it is there, else (or
with --model tiny) a tiny Gemma 3 built from a config. Prints ms per reply of each, the prompt length, how many
replies agree, and the ratio (one at a time / batched) as the last line.
"""

from __future__ import annotations

import tempfile
import time

from llm_rank import arguments, local_model  # bench/llm_rank.py: the local-LLM benches' options and model
from rank import Recorder  # bench/rank.py: the oracle, keeping what it saw

from bct.agents.llm import LLMAgent
from bct.agents.rollout import rollout
from bct.core.threads import set_threads
from bct.worlds.registry import fold_seeds, get_game


def main() -> None:
    ap = arguments(__doc__.splitlines()[0], "scienceworld-boil", "replies, all in one batch")
    ap.add_argument("--max-tokens", type=int, default=32, help="the agent's default for an action")
    args = ap.parse_args()
    set_threads(int(args.threads) if args.threads.isdigit() else args.threads)
    game = get_game(args.game)
    with tempfile.TemporaryDirectory() as tmp:
        b, label = local_model(args.model, tmp)
        agent = LLMAgent(game, modules=True, client=b, cache_dir=None)
        recorder = Recorder(game)
        seeds = fold_seeds(game, "dev", 2)
        rollout(recorder, game, "dev", seeds, True, batch_size=2, step_limit=max(1, args.steps // 2))
        talks = []
        for ob in recorder.observations[: args.steps]:
            agent.start(game, "dev", ob.seed, True)  # each step's prompt as the agent's first turn
            talks.append(agent._messages(ob))
        b.chat(talks[0], 2)  # warm-up
        start = time.perf_counter()
        alone = [b.chat(m, args.max_tokens) for m in talks]
        one_at_a_time = 1000 * (time.perf_counter() - start) / len(talks)
        start = time.perf_counter()
        together = b.chat_batch(talks, args.max_tokens)
        batched = 1000 * (time.perf_counter() - start) / len(talks)
    tokens = sum(r["prompt_tokens"] for r in alone) / len(alone)
    same = sum(x == y for x, y in zip(alone, together))
    print(f"one at a time: {one_at_a_time:9.1f} ms per reply ({len(talks)} prompts of {game.name}, {label})")
    print(f"batched      : {batched:9.1f} ms per reply (one generation of {len(talks)})")
    print(f"prompt {tokens:.0f} tokens, at most {args.max_tokens} new; {same} of {len(talks)} replies the same")
    print(f"ratio (one at a time / batched): {one_at_a_time / batched:.2f}")


if __name__ == "__main__":
    main()
