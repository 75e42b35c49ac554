"""Decoding: the rank decoder's batched scores are the model's own likelihood of each action."""

import pytest
import torch

from bct.agents import T5Agent
from bct.seq2seq.model import build_from_config
from bct.seq2seq.tokenizer import train_tokenizer

# Episodes with different numbers of candidates, of different lengths (one of a single token).
PROMPTS = [
    "You are in the kitchen. To the North you see the pantry. In one part of the room you see a fridge.",
    "Your task is to put the dirty sock in its place.",
    "read math problem",
]
ACTIONS = [
    ["move north", "take apple from fridge", "look around", "open fridge door now please"],
    ["look"],
    ["inventory", "put dirty sock in laundry basket", "take dirty sock"],
]
SIZES = {
    # the tiny offline preset's sizes
    "tiny": {"d_model": 32, "d_ff": 64, "d_kv": 16, "num_heads": 2, "num_layers": 1, "num_decoder_layers": 1},
    # t5-base's sizes (220M parameters; here with our small vocabulary)
    "t5-base": {"d_model": 768, "d_ff": 3072, "d_kv": 64, "num_heads": 12, "num_layers": 12, "num_decoder_layers": 12},
}


@pytest.fixture(scope="module")
def tokenizer():
    return train_tokenizer(PROMPTS + [a for acts in ACTIONS for a in acts], vocab_size=300)


@pytest.mark.parametrize("size", SIZES)
def test_rank_scores_are_the_models_own_length_normalised_likelihood(size, tokenizer):
    torch.manual_seed(0)
    model = build_from_config({**SIZES[size], "dropout_rate": 0.0}, tokenizer).eval()
    for p in model.parameters():  # weights away from their tiny initial values, so that scores differ clearly
        p.data.normal_(0, 0.5 if size == "tiny" else 0.1)
    agent = T5Agent(model, tokenizer, decoding="rank", device="cpu")
    enc = tokenizer(PROMPTS, padding=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = model.get_encoder()(**enc).last_hidden_state
        scores = agent.score_actions(hidden, enc.attention_mask, ACTIONS)
        expected = []
        for prompt, actions in zip(PROMPTS, ACTIONS):
            one = tokenizer(prompt, return_tensors="pt")
            row = []
            for action in actions:
                labels = tokenizer(action, return_tensors="pt").input_ids  # with </s>, as the scores count it
                row.append(-model(**one, labels=labels).loss.item())  # mean token NLL over the action
            expected.append(row)
    assert [len(s) for s in scores] == [len(a) for a in ACTIONS]
    for got, want in zip(scores, expected):
        assert got == pytest.approx(want, abs=1e-4)
    spread = max(abs(a - b) for row in expected for a in row for b in row)
    assert spread > 10 * 1e-4  # the comparison means something: the candidates differ by far more than the tolerance
