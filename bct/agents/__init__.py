"""Agents that play through the rollout engine. Each is a class with `start` and a batched `act`."""

from bct.agents.base import Agent, Decision, Observation, closest_valid
from bct.agents.baselines import OracleAgent, RandomAgent
from bct.agents.llm import LLMAgent
from bct.agents.t5 import T5Agent

AGENTS = {"t5": T5Agent, "oracle": OracleAgent, "random": RandomAgent, "llm": LLMAgent}

__all__ = [
    "AGENTS",
    "Agent",
    "Decision",
    "LLMAgent",
    "Observation",
    "OracleAgent",
    "RandomAgent",
    "T5Agent",
    "closest_valid",
]
