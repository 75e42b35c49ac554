"""Decoding for seq2seq models: diverse (group) beam search, as the original evaluation decoded, and the
scoring of given actions (rank decoding).

The original called `generate(num_beams=16, num_beam_groups=16, diversity_penalty=0.9,
num_return_sequences=16)`; transformers 5 no longer ships group beam search. This is that algorithm:
the beams are split into groups that advance one after another at each step; a group's scores are
lowered by `diversity_penalty` times the number of times each token was just chosen by the groups
before it (Hamming diversity), and the penalised scores accumulate into the hypotheses' scores.
Within a group it is plain beam search (length penalty 1, no early stopping), so one group of all
the beams is ordinary beam search.
"""

from __future__ import annotations

import torch


@torch.inference_mode()
def group_beam_search(
    model,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    num_beams: int = 16,
    num_groups: int = 16,
    diversity_penalty: float = 0.9,
    max_new_tokens: int = 50,
    length_penalty: float = 1.0,
    hidden: torch.Tensor | None = None,
) -> list[list[tuple[list[int], float]]]:
    """Per input, `num_beams` finished hypotheses as (token ids without the start token, score), best first.
    `hidden`: the encoder's output for `input_ids`, where the caller has it already (it is not computed again)."""
    from transformers.cache_utils import DynamicCache, EncoderDecoderCache

    if num_beams % num_groups:
        raise ValueError(f"num_beams ({num_beams}) must be a multiple of num_groups ({num_groups})")
    cfg = model.config
    start, eos = cfg.decoder_start_token_id, cfg.eos_token_id
    pad = cfg.pad_token_id if cfg.pad_token_id is not None else eos
    n_in, n, k_per = input_ids.shape[0], num_beams, num_beams // num_groups
    dev = input_ids.device
    if hidden is None:
        hidden = model.get_encoder()(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    hidden = hidden.repeat_interleave(n, 0)
    mask = attention_mask.repeat_interleave(n, 0)
    seqs = torch.full((n_in * n, 1), start, dtype=torch.long, device=dev)
    beam_scores = torch.zeros(n_in, n, device=dev)
    for g in range(num_groups):  # at the start only one beam per group is alive (all beams are equal)
        beam_scores[:, g * k_per + 1 : (g + 1) * k_per] = -1e9
    cache = EncoderDecoderCache(DynamicCache(), DynamicCache())
    finished: list[list[list[tuple[float, list[int]]]]] = [[[] for _ in range(num_groups)] for _ in range(n_in)]
    done = [[False] * num_groups for _ in range(n_in)]

    for t in range(max_new_tokens):
        out = model(
            encoder_outputs=(hidden,),
            attention_mask=mask,
            decoder_input_ids=seqs[:, -1:],
            past_key_values=cache,
            use_cache=True,
        )
        cache = out.past_key_values
        logp = torch.log_softmax(out.logits[:, -1].float(), -1)
        vocab = logp.shape[-1]
        logp = logp.view(n_in, n, vocab)
        new_tokens = torch.full((n_in, n), pad, dtype=torch.long, device=dev)
        source = torch.arange(n_in * n, device=dev).view(n_in, n).clone()
        new_scores = beam_scores.clone()
        chosen = torch.zeros(n_in, vocab, device=dev)  # tokens the earlier groups chose at this step
        for g in range(num_groups):
            lo, hi = g * k_per, (g + 1) * k_per
            scores = beam_scores[:, lo:hi, None] + logp[:, lo:hi] - diversity_penalty * chosen[:, None, :]
            top, idx = scores.view(n_in, -1).topk(2 * k_per, dim=-1)
            top, beam, token = top.tolist(), (idx // vocab).tolist(), (idx % vocab).tolist()
            for b in range(n_in):
                if done[b][g]:
                    continue
                kept = 0
                for rank, (s, k, v) in enumerate(zip(top[b], beam[b], token[b])):
                    row = b * n + lo + k
                    if v == eos:
                        if rank < k_per:  # a finished hypothesis counts only among the group's best
                            hyps = finished[b][g]
                            hyps.append((s / (t + 1) ** length_penalty, seqs[row, 1:].tolist() + [eos]))
                            hyps.sort(key=lambda h: -h[0])
                            del hyps[k_per:]
                        continue
                    new_tokens[b, lo + kept], source[b, lo + kept], new_scores[b, lo + kept] = v, row, s
                    kept += 1
                    if kept == k_per:
                        break
                hyps = finished[b][g]
                best_running = max(new_scores[b, lo:hi].tolist())
                if len(hyps) == k_per and hyps[-1][0] >= best_running / (t + 1) ** length_penalty:
                    done[b][g] = True
                chosen[b].index_add_(0, new_tokens[b, lo:hi], torch.ones(k_per, device=dev))
        if all(all(d) for d in done):
            break
        order = source.view(-1)
        cache.reorder_cache(order)
        seqs = torch.cat([seqs[order], new_tokens.view(-1, 1)], dim=1)
        beam_scores = new_scores
    results = []
    for b in range(n_in):
        hyps = []
        for g in range(num_groups):
            group = list(finished[b][g])
            if not done[b][g]:  # out of steps: the running beams count as they are
                lo = g * k_per
                for j in range(k_per):
                    s = beam_scores[b, lo + j].item()
                    if s > -1e8:
                        group.append((s / (seqs.shape[1] - 1) ** length_penalty, seqs[b * n + lo + j, 1:].tolist()))
                group = sorted(group, key=lambda h: -h[0])[:k_per]
            hyps += group
        hyps.sort(key=lambda h: -h[0])
        results.append([(tokens, score) for score, tokens in hyps[:num_beams]])
    return results


@torch.inference_mode()
def score_actions(
    model, tokenizer, hidden: torch.Tensor, mask: torch.Tensor, actions: list[list[str]], max_length: int = 64
) -> list[list[float]]:
    """Length-normalised log-likelihood of each episode's actions, given its encoder output (rank decoding).

    One decoder pass for all candidates of all episodes. Each decoder layer's cross-attention keys
    and values are computed once per episode and shared by all its candidates: the candidates'
    queries are laid side by side along the target axis (cross-attention treats every query
    position alike and T5 gives it no position bias), while self-attention runs per candidate.
    """
    dec, device = model.get_decoder(), hidden.device
    n_eps, n_max = len(actions), max(len(a) for a in actions)
    flat = [a for acts in actions for a in acts]
    ids = tokenizer(flat, padding=True, truncation=True, max_length=max_length, return_tensors="pt").input_ids.to(
        device
    )
    length = ids.shape[1]
    labels = torch.full((n_eps, n_max, length), tokenizer.pad_token_id, dtype=ids.dtype, device=device)
    rows = torch.tensor([(e, j) for e, acts in enumerate(actions) for j in range(len(acts))], device=device)
    labels[rows[:, 0], rows[:, 1]] = ids
    dec_in = model._shift_right(labels.view(n_eps * n_max, length))

    dtype = hidden.dtype
    low = torch.finfo(dtype).min
    causal = torch.full((length, length), low, dtype=dtype, device=device).triu(1)[None, None]
    cross_mask = (1.0 - mask[:, None, None, :].to(dtype)) * low
    x = dec.embed_tokens(dec_in)
    position_bias = None
    for block in dec.block:
        x, position_bias, _ = block.layer[0](x, attention_mask=causal, position_bias=position_bias)
        y, _, _ = block.layer[1](x.view(n_eps, n_max * length, -1), key_value_states=hidden, attention_mask=cross_mask)
        x = block.layer[-1](y.view(n_eps * n_max, length, -1))
    x = dec.final_layer_norm(x)
    if getattr(model.config, "scale_decoder_outputs", model.config.tie_word_embeddings):
        x = x * (model.model_dim**-0.5)
    logp = torch.log_softmax(model.lm_head(x).float(), -1)
    target = labels.view(n_eps * n_max, length)
    real = target != tokenizer.pad_token_id
    token_logp = logp.gather(-1, target.unsqueeze(-1)).squeeze(-1) * real
    mean = (token_logp.sum(-1) / real.sum(-1).clamp(min=1)).view(n_eps, n_max)
    return [mean[e, : len(acts)].tolist() for e, acts in enumerate(actions)]
