"""Rank decoding: shared cross-attention (T5Agent.score_actions) against the per-action baseline, which
runs the whole decoder, cross-attention keys and values included, once per (episode, valid action)
pair. Same checkpoint, same prompts, same process.

    python bench/rank.py [--checkpoint checkpoints/<run>] [--game mapreader] [--steps 64] [--model-batch 4]

Without --checkpoint, times an untrained model of the CPU preset's shape (the speed does not depend
on the weights). Prompts are the gold path's, dev fold. Prints ms per episode-step of each, the
largest score difference, and the ratio (baseline / shared) as the last line.
"""

from __future__ import annotations

import argparse
import time

import torch

from bct.agents import OracleAgent, T5Agent
from bct.agents.rollout import rollout
from bct.core.threads import set_threads
from bct.seq2seq.model import build_from_config, load_checkpoint
from bct.worlds.registry import get_game


class Recorder(OracleAgent):
    def __init__(self, game):
        super().__init__(game)
        self.observations = []

    def act(self, batch):
        self.observations += batch
        return super().act(batch)


def baseline_scores(agent: T5Agent, hidden, mask, actions, chunk: int = 512) -> list[list[float]]:
    """The previous implementation: every (episode, action) pair through the full decoder."""
    pairs = [(i, a) for i, acts in enumerate(actions) for a in acts]
    scores = []
    for start in range(0, len(pairs), chunk):
        part = pairs[start : start + chunk]
        idx = torch.tensor([i for i, _ in part])
        labels = agent.tokenizer([a for _, a in part], padding=True, return_tensors="pt").input_ids
        labels[labels == agent.tokenizer.pad_token_id] = -100
        logits = agent.model(encoder_outputs=(hidden[idx],), attention_mask=mask[idx], labels=labels).logits
        real = labels != -100
        logp = torch.log_softmax(logits.float(), -1).gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        scores += ((logp * real).sum(-1) / real.sum(-1)).tolist()
    out, k = [], 0
    for acts in actions:
        out.append(scores[k : k + len(acts)])
        k += len(acts)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint")
    ap.add_argument("--game", default="mapreader")
    ap.add_argument("--steps", type=int, default=64, help="episode-steps to score")
    ap.add_argument("--model-batch", type=int, default=4)
    ap.add_argument("--threads", default="auto")
    args = ap.parse_args()
    set_threads(int(args.threads) if args.threads.isdigit() else args.threads)
    if args.checkpoint:
        model, tokenizer, run = load_checkpoint(args.checkpoint)
        game, entities = get_game(run["settings"]["game"]), run["settings"].get("entities", "text")
    else:
        from bct.config.settings import TrainSettings
        from bct.data.entities import PLACEHOLDERS
        from bct.seq2seq.tokenizer import train_tokenizer

        preset = TrainSettings(game=args.game, model="t5-cpu-scratch").model
        game, entities = get_game(args.game), "placeholders"
        tokenizer = train_tokenizer(
            ["You are in the kitchen. To the North you see the pantry."] * 3 + PLACEHOLDERS,
            preset.vocab_size,
            PLACEHOLDERS,
        )
        torch.manual_seed(0)
        model = build_from_config(preset.config, tokenizer)
    agent = T5Agent(model, tokenizer, decoding="rank", entities=entities, model_batch=args.model_batch, device="cpu")
    recorder = Recorder(game)
    rollout(recorder, game, "dev", range(10000, 10000 + 16), True, batch_size=8)
    obs = (recorder.observations * (1 + args.steps // max(1, len(recorder.observations))))[: args.steps]
    groups = [obs[i : i + args.model_batch] for i in range(0, len(obs), args.model_batch)]

    def run(score):
        results = []
        with torch.inference_mode():
            for group in groups:
                maps = agent.model_inputs(group)
                enc = agent._encode([m.source for m in maps])
                hidden = agent.model.get_encoder()(**enc).last_hidden_state
                results += score(hidden, enc.attention_mask, [m.actions for m in maps])
        return results

    shared = lambda h, m, a: agent.score_actions(h, m, a)  # noqa: E731
    per_pair = lambda h, m, a: baseline_scores(agent, h, m, a)  # noqa: E731
    run(shared), run(per_pair)  # warm-up
    times, scores = {}, {}
    for name, fn in (("per-action baseline", per_pair), ("shared", shared)) * 2:  # interleaved, best of two
        start = time.perf_counter()
        scores[name] = run(fn)
        ms = 1000 * (time.perf_counter() - start) / len(obs)
        times[name] = min(ms, times.get(name, ms))
    actions = sum(len(o.step.valid_actions) for o in obs) / len(obs)
    diff = max(abs(x - y) for a, b in zip(scores["shared"], scores["per-action baseline"]) for x, y in zip(a, b))
    for name, ms in times.items():
        print(
            f"{name:20s}: {ms:7.2f} ms per episode-step ({len(obs)} steps of {game.name}, {actions:.1f} valid actions each)"
        )
    print(f"largest score difference: {diff:.2e}")
    print(f"ratio (baseline / shared): {times['per-action baseline'] / times['shared']:.2f}")


if __name__ == "__main__":
    main()
