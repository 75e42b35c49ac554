"""Agents that play through the rollout engine. Each is a class with `start` and a batched `act`, built
whole from its config (conf/agent/<name>.yaml) by `make_agent`."""

from __future__ import annotations

import importlib
import inspect

from bct.agents.base import Agent, Decision, Observation, closest_valid
from bct.agents.baselines import OracleAgent, RandomAgent
from bct.agents.planner import PlannerAgent
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
    """The agent `agent` (conf/agent/<name>.yaml: `_target_`, `name` and its own settings) describes,
    built by hydra.utils.instantiate, playing `game` with its modules unless `modules` is false. A
    setting the agent does not take (beams for the oracle, a checkpoint for the random agent) is a
    one-line UserError naming it."""
    from hydra.utils import get_object, instantiate

    knobs = {k: v for k, v in agent.items() if k not in ("_target_", "name")}
    name = agent.get("name", "?")
    factory = get_object(agent["_target_"])
    accepted = [p for p in inspect.signature(factory).parameters if p not in ("self", "cls", "client")]
    for key in knobs:
        if key not in accepted:
            takes = [f"agent.{p}" for p in accepted if p not in ("game", "modules", "checkpoint")]
            raise UserError(
                f"agent.{key} does not apply to agent={name}; it takes {', '.join(takes) or 'no settings of its own'}"
            )
    given = {"game": game, "modules": modules}
    if checkpoint is not None:
        if "checkpoint" not in accepted:
            raise UserError(f"checkpoint does not apply to agent={name}; a checkpoint is played by agent=t5")
        given["checkpoint"] = checkpoint
    if "memory" in accepted:  # a checkpoint's agent checks the memory it was trained with; others play `game`'s
        given["memory"] = memory
    try:
        # the agent's own settings through Hydra; what it plays (a Game, not a config value) added after
        build = instantiate({"_target_": agent["_target_"], "_partial_": True, **knobs}, _convert_="all")
        return build(**given)
    except Exception as e:  # hydra wraps what the agent raised; a UserError is the agent's one line
        cause = e
        while cause is not None and not isinstance(cause, UserError):
            cause = cause.__cause__ or cause.__context__
        if cause is None:
            raise
        raise cause from None


__all__ = [
    "AGENTS",
    "Agent",
    "Decision",
    "LLMAgent",
    "Observation",
    "OracleAgent",
    "PlannerAgent",
    "RandomAgent",
    "T5Agent",
    "closest_valid",
    "make_agent",
]
