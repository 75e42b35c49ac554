"""The behavior-cloned T5 policy, with the paper's beam-search decoding or ranking of valid actions."""

from __future__ import annotations

import torch

from bct.agents.base import Agent, Decision, Observation, closest_valid

DECODINGS = ("generate", "rank")


class T5Agent(Agent):
    """`decoding="generate"` (the paper): beam search returns `num_beams` candidates; the first valid
    one wins, else the valid action sharing most words with the top candidate, avoiding the last
    `fallback_skip` actions. `decoding="rank"`: every valid action is scored by its length-normalised
    log-likelihood given the prompt, in one batched decoder pass over the shared encoder output.
    """

    name = "t5"

    def __init__(self, model, tokenizer, decoding: str = "generate", num_beams: int = 16,
                 max_source_length: int = 1024, max_target_length: int = 64, fallback_skip: int = 3,
                 device: str | None = None, rank_chunk: int = 512, model_batch: int | None = None) -> None:
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device).eval()
        self.tokenizer = tokenizer
        self.decoding, self.num_beams = decoding, num_beams
        self.max_source_length, self.max_target_length = max_source_length, max_target_length
        self.fallback_skip, self.rank_chunk = fallback_skip, rank_chunk
        # Episodes per model call. A GPU wants them all at once; on a CPU, beam search over a big batch
        # moves more cache memory than it saves (measured: 32 at once ran 3.5x slower than one by one).
        self.model_batch = model_batch or (64 if self.device.startswith("cuda") else 4)

    def _encode(self, batch: list[Observation]):
        return self.tokenizer([ob.prompt for ob in batch], padding=True, truncation=True,
                              max_length=self.max_source_length, return_tensors="pt").to(self.device)

    @torch.inference_mode()
    def act(self, batch: list[Observation]) -> list[Decision]:
        """Model calls over groups of `model_batch` episodes with prompts of similar length (little padding)."""
        order = sorted(range(len(batch)), key=lambda i: len(batch[i].prompt))
        decide = self._rank if self.decoding == "rank" else self._generate
        decisions: list[Decision | None] = [None] * len(batch)
        for start in range(0, len(order), self.model_batch):
            group = order[start:start + self.model_batch]
            for i, d in zip(group, decide([batch[i] for i in group])):
                decisions[i] = d
        return decisions

    def _generate(self, batch: list[Observation]) -> list[Decision]:
        out = self.model.generate(**self._encode(batch), num_beams=self.num_beams, num_return_sequences=self.num_beams,
                                  max_new_tokens=self.max_target_length, do_sample=False)
        texts = [t.strip() for t in self.tokenizer.batch_decode(out, skip_special_tokens=True)]
        decisions = []
        for i, ob in enumerate(batch):
            cands = list(dict.fromkeys(texts[i * self.num_beams:(i + 1) * self.num_beams]))
            valid = ob.step.valid_actions
            action = next((c for c in cands if c in valid), None)
            fallback = action is None
            if fallback:
                recent = ob.actions[-self.fallback_skip:] if self.fallback_skip else []
                action = closest_valid(cands[0] if cands else "", valid, recent)
            decisions.append(Decision(action, cands, {"fallback": fallback}))
        return decisions

    def _rank(self, batch: list[Observation]) -> list[Decision]:
        enc = self._encode(batch)
        hidden = self.model.get_encoder()(**enc).last_hidden_state
        pairs = [(i, a) for i, ob in enumerate(batch) for a in ob.step.valid_actions]
        scores = []
        for start in range(0, len(pairs), self.rank_chunk):
            chunk = pairs[start:start + self.rank_chunk]
            idx = torch.tensor([i for i, _ in chunk], device=self.device)
            labels = self.tokenizer([a for _, a in chunk], padding=True, truncation=True,
                                    max_length=self.max_target_length, return_tensors="pt").input_ids.to(self.device)
            labels[labels == self.tokenizer.pad_token_id] = -100
            logits = self.model(encoder_outputs=(hidden[idx],), attention_mask=enc.attention_mask[idx],
                                labels=labels).logits
            mask = labels != -100
            logp = torch.log_softmax(logits.float(), -1).gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            scores += ((logp * mask).sum(-1) / mask.sum(-1)).tolist()
        decisions, k = [], 0
        for ob in batch:
            n = len(ob.step.valid_actions)
            ranked = sorted(zip(scores[k:k + n], ob.step.valid_actions), key=lambda x: -x[0])
            k += n
            decisions.append(Decision(ranked[0][1], [a for _, a in ranked[:self.num_beams]],
                                      {"scores": [round(s, 4) for s, _ in ranked[:self.num_beams]]}))
        return decisions
