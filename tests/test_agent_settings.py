"""Agent settings typed once (bct/agents/settings.py): each agent's yaml and its class agree, a bad setting is one
line, and the record results.json keeps of them is the one older results folders were named by."""

from pathlib import Path

import pytest
import torch
import yaml

from bct.agents import AGENTS, AgentSettings, LLMSettings, RandomSettings, T5Agent, T5Settings, make_agent
from bct.config.cli import CONF
from bct.core.errors import UserError
from bct.worlds.registry import get_game

ROOT = Path(__file__).resolve().parent.parent
RELEASED = ROOT / "checkpoints" / "bct-scienceworld"
IDENTITY = ("_target_", "name")  # what chooses the agent; every other key of its yaml is one of its settings


def agent_yaml(name: str) -> dict:
    return yaml.safe_load((CONF / "agent" / f"{name}.yaml").read_text())


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_each_agents_yaml_is_its_settings_class_in_order_with_the_same_defaults(name):
    from hydra.utils import get_object

    conf = agent_yaml(name)
    factory = get_object(conf["_target_"])
    settings = getattr(factory, "Settings", None)
    assert settings is AGENTS[name].Settings, f"{conf['_target_']} reads the settings of its agent's class"
    given = {k: v for k, v in conf.items() if k not in IDENTITY}
    assert list(given) == list(settings.model_fields)  # every key a setting, every setting in the yaml, in order
    assert given == {k: f.get_default(call_default_factory=True) for k, f in settings.model_fields.items()}
    assert settings.of(given, name) == settings()  # the yaml's values pass their own checks


@pytest.mark.parametrize(
    "name, setting, says",
    [
        ("oracle", {"num_beams": 4}, "agent.num_beams does not apply to agent=oracle; it takes no settings of its own"),
        ("random", {"seed": "abc"}, "agent.seed=abc: must be a whole number"),
        ("random", {"decoding": "rank"}, "agent.decoding does not apply to agent=random; it takes agent.seed"),
        ("t5", {"num_beams": "many"}, "agent.num_beams=many: must be a whole number"),
        ("t5", {"num_beams": 0}, "agent.num_beams=0: must be at least 1"),
        ("t5", {"decoding": "beam"}, "agent.decoding=beam: choose one of generate, rank"),
        ("t5", {"untried": "maybe"}, "agent.untried=maybe: choose false, true (the same prompt) or state"),
        ("t5", {"dtype": "fp16"}, "agent.dtype=fp16: choose one of auto, bf16, fp32"),
        ("t5", {"num_beams": 6, "beam_groups": 4}, "agent.num_beams=6 must be a multiple of agent.beam_groups=4"),
        ("t5", {"seed": 3}, "agent.seed does not apply to agent=t5; it takes agent.decoding, agent.num_beams"),
        ("llm", {"choice": "best"}, "agent.choice=best: choose one of generate, rank, constrained"),
        ("llm", {"timeout": "soon"}, "agent.timeout=soon: must be a number"),
        ("llm", {"num_beams": 3}, "agent.num_beams does not apply to agent=llm; it takes agent.backend"),
    ],
)
def test_a_bad_agent_setting_is_one_line_before_anything_loads(name, setting, says):
    # the checkpoint is never read: the settings are refused first
    checkpoint = "/nonexistent/run" if name == "t5" else None
    with pytest.raises(UserError) as e:
        make_agent({**agent_yaml(name), **setting}, get_game("twc"), checkpoint=checkpoint)
    assert len(str(e.value).splitlines()) == 1 and str(e.value).startswith(says), str(e.value)


def test_an_agent_takes_its_settings_as_keywords_or_as_its_class():
    twc = get_game("twc")
    random = AGENTS["random"](twc, seed=3)
    assert random.config == RandomSettings(seed=3) and random.seed == 3
    assert AGENTS["random"](twc, settings=RandomSettings(seed=3)).settings() == random.settings()
    assert AGENTS["oracle"](twc).config == AgentSettings()
    with pytest.raises(UserError, match="agent.seed does not apply to agent=oracle"):
        AGENTS["oracle"](twc, seed=1)


def test_the_record_keeps_the_fields_older_results_were_named_by():
    assert T5Settings(decoding="generate").record() == {
        "decoding": "generate",
        "num_beams": 16,
        "beam_groups": 16,
        "diversity_penalty": 0.9,
        "fallback_skip": 4,
        "model_batch": None,
        "device": None,
    }  # the settings added later (untried, ..., dtype) are recorded only where set
    rank = T5Settings(decoding="rank", untried=True, dtype="bf16", diversity_penalty=1).record()
    shown = (rank["beam_groups"], rank["diversity_penalty"], rank["untried"], rank["dtype"])
    assert shown == (None, None, True, "bf16")  # beam search's own null under rank; untried=prompt as `true`
    assert "rerank" not in T5Settings(rerank=True, ensemble="other").record()  # an ensemble always reranks
    assert T5Settings(diversity_penalty=1).record()["diversity_penalty"] == 1  # as given: `1`, not `1.0`
    llm = LLMSettings(timeout=5, concurrency=2).record()
    assert list(llm)[:3] == ["backend", "model", "gguf_file"] and not {"timeout", "concurrency", "cache_dir"} & set(llm)


def test_a_checkpoints_agent_is_recorded_as_before():
    """The released agent as its row was measured: the settings its results folder was named by."""
    settings = {"num_beams": 8, "untried": True, "skip_idle": True, "rerank": True, "device": "cpu"}
    agent = make_agent({**agent_yaml("t5"), **settings}, get_game("scienceworld-find-plant"), checkpoint=str(RELEASED))
    record = agent.settings()
    config = {
        "decoding": "generate",
        "num_beams": 8,
        "beam_groups": 16,
        "diversity_penalty": 0.9,
        "fallback_skip": 4,
        "model_batch": None,
        "device": "cpu",
        "untried": True,
        "skip_idle": True,
        "rerank": True,
    }
    assert record.pop("fingerprint") and record == {
        "checkpoint": str(RELEASED.resolve()),
        **{k: config[k] for k in ("decoding", "num_beams", "beam_groups", "diversity_penalty", "fallback_skip")},
        **{k: config[k] for k in ("untried", "skip_idle", "rerank")},
        "agent_config": config,
    }
    assert list(record["agent_config"]) == list(config)  # results.json in the same order
    assert (agent.num_beams, agent.beam_groups, agent.untried, agent.rerank) == (8, 8, "prompt", True)
    assert agent.run_name == "bct-scienceworld-rerank-on-scienceworld-find-plant-nomemory"


def test_a_t5_agent_built_from_its_class_decides_as_from_keywords():
    from bct.agents.base import Observation
    from bct.modules.stack import Step
    from bct.seq2seq.model import build_from_config
    from bct.seq2seq.tokenizer import train_tokenizer

    texts = ["you see a fridge and a door", "open fridge", "take apple", "look around"]
    tokenizer = train_tokenizer(texts, vocab_size=200)
    torch.manual_seed(0)
    sizes = {"d_model": 32, "d_ff": 64, "d_kv": 16, "num_heads": 2, "num_layers": 1, "num_decoder_layers": 1}
    model = build_from_config({**sizes, "dropout_rate": 0.0}, tokenizer).eval()
    twc = get_game("twc")
    step = Step("task", texts[0], texts[0], "", texts[1:], 0.0, False)
    ob = Observation(twc, "dev", 1, True, step, texts[0], [])
    decided = []
    for agent in (
        T5Agent(model, tokenizer, decoding="generate", num_beams=4, beam_groups=2, device="cpu", max_target_length=8),
        T5Agent(
            model,
            tokenizer,
            settings=T5Settings(decoding="generate", num_beams=4, beam_groups=2, device="cpu"),
            max_target_length=8,
        ),
    ):
        agent.start(twc, "dev", 1, True)
        [d] = agent.act([ob])
        decided.append((d.action, d.candidates, agent.settings()))
    assert decided[0] == decided[1] and decided[0][0] in texts[1:]
