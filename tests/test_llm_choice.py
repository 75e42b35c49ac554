"""agent.choice=rank|constrained on the local backend: every offered action scored by the model's own
likelihood, or greedy decoding restricted to the offered actions' tokens."""

import pytest
import torch
from transformers import Gemma3ForCausalLM, Gemma3TextConfig, LlamaConfig, LlamaForCausalLM

from bct.agents.llm import LLMAgent
from bct.agents.llm_backends import LocalBackend
from bct.core.errors import UserError
from bct.seq2seq.tokenizer import train_tokenizer
from bct.worlds.registry import get_game

ACTIONS = ["look", "take apple", "put apple in fridge", "query apple", "move north", "look around", "open fridge door"]
MESSAGES = [
    {"role": "system", "content": "You are a robot in a text game. Your task: put the apple away."},
    {"role": "user", "content": "You are in the kitchen. You see an apple and a closed fridge."},
]


@pytest.fixture(scope="module", params=["llama", "gemma3-sliding-window"])
def local_model(request, tmp_path_factory):
    """A tiny causal LM built from a config, with a tokenizer trained here, saved as a local folder: a
    Llama, and a Gemma 3 whose sliding-window layers see fewer tokens than the prompt has (as Gemma 3
    270M's 512-token window does on a long game prompt)."""
    folder = tmp_path_factory.mktemp("tiny-lm")
    texts = [m["content"] for m in MESSAGES] + ACTIONS + ["System: User: Assistant:"]
    tok = train_tokenizer(texts * 3, vocab_size=200)
    torch.manual_seed(0)
    sizes = dict(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=512,
        pad_token_id=tok.pad_token_id,
    )
    if request.param == "llama":
        LlamaForCausalLM(LlamaConfig(**sizes)).save_pretrained(folder)
    else:
        config = Gemma3TextConfig(
            **sizes, head_dim=8, sliding_window=8, layer_types=["sliding_attention", "full_attention"]
        )
        Gemma3ForCausalLM(config).save_pretrained(folder)
    tok.save_pretrained(folder)
    backend = LocalBackend(str(folder), device="cpu")
    if request.param != "llama":
        assert len(backend.encode(MESSAGES)["input_ids"][0]) > 2 * config.sliding_window
    return backend


def test_rank_scores_are_the_models_own_mean_log_likelihood(local_model):
    """Batched and padded, each score equals minus the loss of `model(input_ids, labels=...)` on that
    action after the prompt, whatever the batch size; the choice is the best of them."""
    b = local_model
    ranked = b.rank(MESSAGES, ACTIONS, batch=4)
    prompt = b.encode(MESSAGES)["input_ids"][0].tolist()
    for action, score in zip(ACTIONS, ranked["scores"]):
        tail = b.tokenizer(" " + action, add_special_tokens=False)["input_ids"]
        ids = torch.tensor([prompt + tail])
        labels = torch.tensor([[-100] * len(prompt) + tail])
        with torch.no_grad():
            loss = b.lm(input_ids=ids, labels=labels).loss.item()
        assert abs(score + loss) < 1e-4, (action, score, -loss)
    assert ranked["scores"] == pytest.approx(b.rank(MESSAGES, ACTIONS, batch=1)["scores"], abs=1e-5)
    assert ranked["text"] == ACTIONS[max(range(len(ACTIONS)), key=lambda i: ranked["scores"][i])]
    assert ranked["completion_tokens"] == 0 and ranked["prompt_tokens"] == len(prompt)


def test_constrained_decoding_writes_an_offered_action_greedily_token_by_token(local_model):
    """Whatever the prompt, the reply is one offered action; its first token is the model's most likely
    among the actions' first tokens."""
    import json

    b = local_model
    actions = [*ACTIONS, "take apple from fridge"]  # 'take apple' is a prefix of it: the end token tells them apart
    for k in range(12):
        messages = [MESSAGES[0], {"role": "user", "content": MESSAGES[1]["content"] + " apple" * k}]
        reply = b.constrained(messages, actions, 64)
        action = json.loads(reply["text"])["action"]
        assert action in actions and reply["completion_tokens"] >= 2  # the action's tokens, then the end
        prompt = b.encode(messages)["input_ids"]
        with torch.no_grad():
            logits = b.lm(input_ids=prompt).logits[0, -1]
        firsts = {b.tokenizer(" " + a, add_special_tokens=False)["input_ids"][0] for a in actions}
        best = max(firsts, key=lambda t: logits[t].item())
        assert b.tokenizer(" " + action, add_special_tokens=False)["input_ids"][0] == best


def test_rank_and_constrained_need_a_backend_that_can():
    class ChatOnly:
        model = "chat-only"

        def chat(self, messages, max_tokens):
            return {"text": "look around", "prompt_tokens": 1, "completion_tokens": 1}

    with pytest.raises(UserError, match="agent.choice=rank .* does not give; use agent.backend=local"):
        LLMAgent(get_game("twc"), client=ChatOnly(), choice="rank")
    with pytest.raises(UserError, match="agent.choice=constrained .* ChatOnly does not; use agent.backend=openai"):
        LLMAgent(get_game("twc"), client=ChatOnly(), choice="constrained")
    with pytest.raises(UserError, match="agent.choice"):
        LLMAgent(get_game("twc"), client=ChatOnly(), choice="best")


@pytest.mark.slow
@pytest.mark.parametrize("choice", ["rank", "constrained"])
def test_a_choosing_agent_only_ever_names_offered_actions(choice, local_model, tmp_path):
    from bct.agents.rollout import rollout

    agent = LLMAgent(get_game("twc"), client=local_model, choice=choice, cache_dir=tmp_path / "cache", history_turns=2)
    assert agent.run_name.endswith("-" + choice)
    results = rollout(agent, get_game("twc"), "dev", [10000, 10001], True, batch_size=2, step_limit=5)
    steps = sum(r.steps for r in results)
    assert steps >= 2 and agent.stats()["invalid_replies"] == 0
    assert all(h["valid_reply"] for r in results for h in r.history)
    assert agent.settings()["agent_config"]["choice"] == choice
