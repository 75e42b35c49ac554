"""What an agent is: it sees a batch of episodes' current steps and returns one decision each."""

from __future__ import annotations

from dataclasses import dataclass, field

from bct.env import Step
from bct.games import Game


@dataclass
class Observation:
    """One episode at one step, as an agent sees it."""

    game: Game
    fold: str
    seed: int
    modules: bool
    step: Step  # the latest step record: observation, look, inventory, valid actions, score
    prompt: str  # the paper's Markov prompt for this step (bct.prompt)
    actions: list[str]  # actions taken so far in this episode


@dataclass
class Decision:
    action: str
    candidates: list[str] = field(default_factory=list)  # what the agent considered, best first
    info: dict = field(default_factory=dict)  # agent-specific record for the play log (scores, raw replies)


class Agent:
    name = ""

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        """A new episode begins (called before its first `act`)."""

    def act(self, batch: list[Observation]) -> list[Decision]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the agent holds (environments, servers)."""

    def stats(self) -> dict:
        """Counters for results.json (calls, tokens, invalid replies, ...)."""
        return {}


def closest_valid(text: str, valid: list[str], skip: list[str] = ()) -> str:
    """The valid action sharing most words with `text`, avoiding `skip` where possible; ties go to the first."""
    words = set(text.lower().split())
    pool = [a for a in valid if a not in skip] or valid
    return max(pool, key=lambda a: len(words & set(a.lower().split())))
