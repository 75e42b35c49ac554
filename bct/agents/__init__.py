"""Agents that play through the rollout engine. Each is a class with `start` and a batched `act`, built
whole from its config (conf/agent/<name>.yaml) by `make_agent`, its own settings typed in bct/agents/settings.py."""

from __future__ import annotations

import importlib
import inspect

from bct.agents.base import Agent, Decision, Observation, closest_valid
from bct.agents.baselines import OracleAgent, RandomAgent
from bct.agents.planner import PlannerAgent
from bct.agents.settings import AgentSettings, LLMSettings, RandomSettings, T5Settings
from bct.core.errors import UserError
from bct.core.game import Game

# The agents whose modules import PyTorch or an LLM client load when first named (a command that stops at a
# bad setting answers in a second, not after importing PyTorch).
_LAZY = {"T5Agent": "bct.agents.t5", "LLMAgent": "bct.agents.llm"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name == "AGENTS":  # each agent's class by its config name (conf/agent/<name>.yaml)
        return {n: __getattr__(c) if c in _LAZY else globals()[c] for n, c in _AGENT_CLASSES.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_AGENT_CLASSES = {
    "t5": "T5Agent",
    "oracle": "OracleAgent",
    "random": "RandomAgent",
    "planner": "PlannerAgent",
    "llm": "LLMAgent",
}


def make_agent(
    agent: dict,
    game: Game | None = None,
    modules: bool | None = None,
    checkpoint: str | None = None,
    memory: bool | None = None,
):
    """The agent `agent` (conf/agent/<name>.yaml: `_target_`, `name` and its own settings) describes, playing `game`
    with its modules unless `modules` is false. Its settings are checked by its class `Settings`
    (bct/agents/settings.py) before anything loads: one it does not take (beams for the oracle), or a bad value, is
    a one-line UserError naming it; so is a checkpoint for an agent that plays none."""
    from hydra.utils import get_object

    factory = get_object(agent["_target_"])
    knobs = {k: v for k, v in agent.items() if k not in ("_target_", "name")}
    settings = getattr(factory, "Settings", AgentSettings).of(knobs, agent.get("name", "?"))
    accepted = inspect.signature(factory).parameters
    given = {"game": game, "modules": modules}
    if checkpoint is not None:
        if "checkpoint" not in accepted:
            raise UserError(
                f"checkpoint does not apply to agent={agent.get('name', '?')}; a checkpoint is played by agent=t5"
            )
        given["checkpoint"] = checkpoint
    if "memory" in accepted:  # a checkpoint's agent checks the memory it was trained with; others play `game`'s
        given["memory"] = memory
    return factory(**given, settings=settings)


__all__ = [
    "AGENTS",
    "Agent",
    "AgentSettings",
    "Decision",
    "LLMAgent",
    "LLMSettings",
    "Observation",
    "OracleAgent",
    "PlannerAgent",
    "RandomAgent",
    "RandomSettings",
    "T5Agent",
    "T5Settings",
    "closest_valid",
    "make_agent",
]
