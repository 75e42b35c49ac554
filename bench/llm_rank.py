"""agent.choice=rank on a local causal LM: the prompt read once and its cache shared by every offered action
(LocalBackend.rank) against the baseline that reads prompt and action together once per action. Same
model, same prompts (the LLM agent's, on the gold path's observations, dev fold), same process.

    python bench/llm_rank.py [--model DIR] [--game sorting] [--steps 8]

Without --model, uses the Gemma 3 270M folder that tests/test_llm_server.py prepares
(~/.cache/bct-tests/gemma3-270m-hf) if it is there, else (or with --model tiny) a tiny Gemma 3 built
from a config, whose sliding-window layers see fewer tokens than the prompt has. Prints
ms per step of each, the prompt length and number of actions, the largest score difference, and the
ratio (baseline / shared) as the last line.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch
from rank import Recorder  # bench/rank.py: the oracle, keeping what it saw

from bct.agents.llm import LLMAgent
from bct.agents.llm_backends import LocalBackend
from bct.agents.rollout import rollout
from bct.core.threads import set_threads
from bct.worlds.registry import get_game

GEMMA = Path.home() / ".cache" / "bct-tests" / "gemma3-270m-hf"


def baseline(b: LocalBackend, messages: list[dict], actions: list[str], batch: int = 8) -> list[float]:
    """The previous implementation: prompt and action through the whole model, once per action."""
    prompt = b.encode(messages)["input_ids"][0].tolist()
    space = "" if b.tokenizer.chat_template else " "
    scores = []
    for i in range(0, len(actions), batch):
        tails = [b.tokenizer(space + a, add_special_tokens=False)["input_ids"] for a in actions[i : i + batch]]
        width = len(prompt) + max(len(t) for t in tails)
        ids = torch.full((len(tails), width), b.tokenizer.pad_token_id or 0, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for j, t in enumerate(tails):
            ids[j, : len(prompt) + len(t)] = torch.tensor(prompt + t)
            mask[j, : len(prompt) + len(t)] = 1
        keep = width - len(prompt) + 1
        logp = b.lm(input_ids=ids, attention_mask=mask, logits_to_keep=keep).logits.float().log_softmax(-1)
        for j, t in enumerate(tails):
            scores.append(logp[j, torch.arange(len(t)), torch.tensor(t)].mean().item())
    return scores


def tiny_gemma(folder: Path) -> str:
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    from bct.seq2seq.tokenizer import train_tokenizer

    tok = train_tokenizer(["You are in the kitchen. You see a box and a red apple. Action: take apple"] * 3, 500)
    config = Gemma3TextConfig(
        vocab_size=len(tok),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=4,
        num_attention_heads=4,
        num_key_value_heads=1,
        head_dim=16,
        sliding_window=64,
        pad_token_id=tok.pad_token_id,
    )
    torch.manual_seed(0)
    Gemma3ForCausalLM(config).save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


def arguments(description: str, game: str, steps: str) -> argparse.ArgumentParser:
    """The local-LLM benches' shared options: the model, the game, how many steps, the threads."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--model")
    ap.add_argument("--game", default=game)
    ap.add_argument("--steps", type=int, default=8, help=steps)
    ap.add_argument("--threads", default="auto")
    return ap


def local_model(name: str | None, tmp: str) -> tuple[LocalBackend, str]:
    """The model named (--model), else the tests' Gemma 3 270M where it is prepared, else a tiny Gemma 3 built in
    `tmp`; and its label."""
    model = name or (str(GEMMA) if GEMMA.is_dir() else "tiny")
    label = "a tiny Gemma 3" if model == "tiny" else Path(model).name
    model = tiny_gemma(Path(tmp)) if model == "tiny" else model
    return LocalBackend(model, device="cpu"), label


def main() -> None:
    args = arguments(__doc__.splitlines()[0], "sorting", "steps to score").parse_args()
    set_threads(int(args.threads) if args.threads.isdigit() else args.threads)
    game = get_game(args.game)
    with tempfile.TemporaryDirectory() as tmp:
        b, label = local_model(args.model, tmp)
        agent = LLMAgent(game, modules=True, client=b, choice="rank", cache_dir=None)
        recorder = Recorder(game)
        rollout(recorder, game, "dev", range(10000, 10002), True, batch_size=2)
        requests = []
        for ob in recorder.observations[: args.steps]:
            agent.start(game, "dev", ob.seed, True)  # each step's prompt as the agent's first turn
            requests.append((agent._messages(ob), ob.step.valid_actions))
        shared = lambda m, a: b.rank(m, a)["scores"]  # noqa: E731
        per_action = lambda m, a: baseline(b, m, a)  # noqa: E731
        times, scores = {}, {}
        with torch.inference_mode():
            shared(*requests[0]), per_action(*requests[0])  # warm-up
            for name, fn in (("per-action baseline", per_action), ("shared prompt", shared)):
                start = time.perf_counter()
                scores[name] = [fn(m, a) for m, a in requests]
                times[name] = 1000 * (time.perf_counter() - start) / len(requests)
    tokens = sum(len(b.encode(m)["input_ids"][0]) for m, _ in requests) / len(requests)
    actions = sum(len(a) for _, a in requests) / len(requests)
    diff = max(abs(x - y) for s, p in zip(scores["shared prompt"], scores["per-action baseline"]) for x, y in zip(s, p))
    for name, ms in times.items():
        print(f"{name:20s}: {ms:9.1f} ms per step ({len(requests)} steps of {game.name}, {label})")
    print(f"prompt {tokens:.0f} tokens, {actions:.1f} offered actions a step")
    print(f"largest score difference: {diff:.2e}")
    print(f"ratio (baseline / shared): {times['per-action baseline'] / times['shared prompt']:.2f}")


if __name__ == "__main__":
    main()
