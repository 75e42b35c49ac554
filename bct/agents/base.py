"""What an agent is: it sees a batch of episodes' current steps and returns one decision each."""

from __future__ import annotations

from dataclasses import dataclass, field

from bct.agents.settings import AgentSettings
from bct.core.errors import UserError
from bct.core.game import Game
from bct.modules.stack import Step
from bct.worlds.registry import modules_label, world_of


@dataclass
class Observation:
    """One episode at one step, as an agent sees it."""

    game: Game
    fold: str
    seed: int
    modules: bool
    step: Step  # the latest step record: observation, look, inventory, valid actions, score
    prompt: str  # the paper's Markov prompt for this step (bct.data.prompt)
    actions: list[str]  # actions taken so far in this episode

    @property
    def episode(self) -> tuple[str, str, int]:
        """Which episode this is of, as `Agent.start` heard of it (`episode_key`)."""
        return episode_key(self.game, self.fold, self.seed)


def episode_key(game: Game, fold: str, seed: int) -> tuple[str, str, int]:
    """An episode's name for an agent's per-episode state: variations are numbered per game, and one batch can
    hold episodes of several games (an evaluation of a checkpoint trained on many)."""
    return game.name, fold, seed


@dataclass
class Decision:
    action: str
    candidates: list[str] = field(default_factory=list)  # what the agent considered, best first
    info: dict = field(default_factory=dict)  # agent-specific record for the play log (scores, raw replies)
    error: str | None = None  # this episode cannot go on (e.g. its request was refused); the others can


class EpisodeFailed(Exception):
    """One episode cannot go on, for a reason that concerns it alone (its request was refused, its JVM
    died or hung). `retry`: worth playing again in this run (a fresh JVM), unlike a refused request."""

    def __init__(self, reason: str, retry: bool = False):
        super().__init__(reason)
        self.retry = retry


class Agent:
    """An agent is built whole from its config (conf/agent/<name>.yaml, `bct.agents.make_agent`) and
    knows what it plays (`game`, `modules`), the name of its results folder (`run_name`) and the
    settings that define its play (`settings`, recorded in results.json; a results folder holds one set).

    `config`: the agent's own settings (`agent.*`), of its class `Settings` (bct/agents/settings.py), recorded
    with its results."""

    name = ""
    trained: dict | None = None  # what a trained agent learned from (results.json), None for others
    # whether one call decides for many episodes at once more cheaply than one by one (a model's forward
    # pass); an agent that decides per episode gains nothing from more games at once than cores
    batched = False
    # whether it reads the valid-action list (a world may skip listing where nobody reads it: ScienceWorld's
    # is most of a step's time)
    reads_valid_actions = True
    Settings: type[AgentSettings] = AgentSettings  # its own settings (agent.*): none unless it says

    def __init__(
        self, game: Game | None, modules: bool | None = None, *, settings: AgentSettings | None = None, **knobs
    ) -> None:
        """`settings`: the agent's own, or their keywords (`seed=3`)."""
        config = settings if settings is not None else self.Settings.of(knobs, self.name)
        if game is None:
            raise UserError(f"agent={self.name} needs a game: python -m bct.evaluate agent={self.name} +game=twc")
        self.game, self.modules, self.config = game, True if modules is None else modules, config

    @property
    def run_name(self) -> str:
        return f"{self.name}-{self.game.name}-{modules_label(self.modules)}"

    def settings(self) -> dict:
        """What defines this agent's play beyond the evaluation's own settings (fold, limits)."""
        return {"agent_config": self.config.record()}

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        """A new episode begins (called before its first `act`)."""

    def act(self, batch: list[Observation]) -> list[Decision]:
        raise NotImplementedError

    @classmethod
    def act_together(cls, parts: list[tuple[Agent, list[Observation]]]) -> list[list[Decision]]:
        """Several agents of this class (a pool of games, `ByGame`), each deciding for its own episodes. A class
        whose agents can share one call (the local LLM's one generation) answers them together."""
        return [agent.act(batch) for agent, batch in parts]

    def close(self) -> None:
        """Release what the agent holds (environments, servers)."""

    def stats(self) -> dict:
        """Counters for results.json (calls, tokens, invalid replies, ...)."""
        return {}

    def played_with(self) -> dict:
        """How this agent ran, for results.json (the T5 agent: its device and the weights' dtype)."""
        return {}


class ByGame(Agent):
    """The agents of several games as one, for a pool of their episodes (bct.jobs.evaluation.play_together): each
    episode started and decided by its own game's agent (its state, its counters in its game's results), one
    call to each agent a step for its episodes (`Agent.act_together`: one for all where their class can). The
    agents are alike (one config; a checkpoint's share a model)."""

    def __init__(self, agents: dict[str, Agent]):
        first = next(iter(agents.values()))
        self.agents, self.game, self.modules, self.config = agents, first.game, first.modules, first.config
        self.batched, self.reads_valid_actions = first.batched, first.reads_valid_actions

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self.agents[game.name].start(game, fold, seed, modules)

    def act(self, batch: list[Observation]) -> list[Decision]:
        out: list[Decision | None] = [None] * len(batch)
        games: dict[str, list[int]] = {}
        for i, ob in enumerate(batch):
            games.setdefault(ob.game.name, []).append(i)
        kinds: dict[type, list[str]] = {}
        for name in games:
            kinds.setdefault(type(self.agents[name]), []).append(name)
        for kind, names in kinds.items():
            parts = [(self.agents[n], [batch[i] for i in games[n]]) for n in names]
            for name, decisions in zip(names, kind.act_together(parts)):
                for i, d in zip(games[name], decisions):
                    out[i] = d
        return out


def writes_actions(game: Game | None, writes: bool) -> bool:
    """Whether an agent that writes its actions (`writes`) plays `game` without reading a valid-action list: in a
    world whose parser takes commands beyond its list (ScienceWorld), the written command goes as it is."""
    return writes and game is not None and world_of(game).free_actions


def closest_valid(text: str, valid: list[str], skip: list[str] = ()) -> str:
    """The valid action sharing most words with `text`, avoiding `skip` where possible; ties go to the first."""
    words = set(text.lower().split())
    pool = [a for a in valid if a not in skip] or valid
    return max(pool, key=lambda a: len(words & set(a.lower().split())))
