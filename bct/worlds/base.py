"""What bct needs from a game family (a world): the one interface a family implements.

A world (TextWorldExpress: bct/worlds/twx/) gives
- its games (`Game`: our name, the world's own game and parameters, the module it is played with) and
  the parameters each of its games accepts, with their ranges;
- its folds: the seeds (variations) of train, dev and test;
- an environment (`GameEnv`): reset to a seed (variation) of a fold, step with an action, each answered with a
  `GameState` (observation, look, inventory, valid actions, score, done); the gold action sequence;
- gold paths with module calls injected, played through the modules in front of its environment;
- the reader of its fixed sentences, which names the rooms, objects and places the entity placeholders
  number;
- optionally a policy: a hand-written one over the working memory's facts (a baseline agent);
- its results tables (`Report`), drawn from results rows by its folder's report.py, and the published figures its
  games are compared with (`Comparison`: `python -m bct.compare`, the HTML page's chart).

Everything else (modules, prompt packing, data, training, agents, rollout, reports) is the same for
every world. `bct/worlds/registry.py` lists the worlds, one line each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType

from bct.core.game import Game, GameEnv
from bct.modules.base import Module


@dataclass(frozen=True)
class Report:
    """One of a world's results tables: `python -m bct.report DIR` writes it to DIR/<file>.md and the HTML page shows it
    under its title, each only where the results hold the world's games."""

    title: str
    file: str
    # results rows (bct.core.results.collect, any folds and worlds) -> Markdown; "" where they hold none of its games
    table: Callable[[list[dict]], str]


@dataclass(frozen=True)
class Comparison:
    """A paper's table to set agents beside: its games (a group of the world's, the columns) and the rows it published,
    `python -m bct.compare DIR --group NAME` and the HTML page's chart."""

    title: str
    group: str  # the world's group whose games are the columns, in the paper's order
    published: Mapping[str, Mapping[str, tuple[float, float]]]  # row -> game or "average" -> (score, steps)
    variants: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # a preset -> (the game's column, a mark)


@dataclass(frozen=True)
class World:
    """A game family, as the rest of bct uses it (see the module's docstring)."""

    name: str
    games: Mapping[str, Game]  # registry names -> games
    aliases: Mapping[str, str]  # other names (the papers', a benchmark's) -> registry names
    fold_seeds: Callable[[Game, str, int], list[int]]  # (game, fold, n) -> n seeds of the fold, the same every run
    fold_size: Callable[[Game, str], int]  # how many variations a game's fold has
    # (game, step limit, list_actions, reproducible) -> an environment; list_actions=False where no valid-action list
    # is read; reproducible=True (data) where a reset must give the same episode in any process at any point of it
    open: Callable[..., GameEnv]
    # (a ModularEnv just reset, modules) -> the gold actions, module calls injected, each sent its Step
    gold_path: Callable[..., Generator[str, object, None]]
    gold_modules: Callable[[Game, bool | str], set[str]]  # the modules its gold paths call
    names: Callable[[str], list[str]]  # every room, object and place its fixed sentences name in a text
    version: Callable[[], dict[str, str]]  # its release, as data manifests record it ({"twx_version": "1.1.0"})
    # its own modules, by the name a game and a command line give them (those that read its sentences or hold its
    # knowledge; the shared ones are bct.modules.MODULES)
    modules: Mapping[str, type[Module]] = field(default_factory=dict)
    # modules=all: the modules offered in each of its games beside the game's own (the paper's every-module setting)
    all_modules: tuple[str, ...] = ()
    # what the zero-shot LLM agent is told of a game, by its rules: (about a module?, rule) lines, and the module advice
    # that agent.guidance adds
    llm_rules: Mapping[str, Sequence[tuple[bool, str]]] = field(default_factory=dict)
    llm_guidance: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # agent.feedback (the LLM paper's seed 003): (the action just taken, score before, score after) -> a sentence told
    # after its observation, "" where the world has none for that action
    llm_feedback: Callable[[str, float, float], str] | None = None
    policy: ModuleType | None = None  # has_rules, PLAYS, Shadow(game, modules), actions(view): agent=planner
    # tale-suite's environments of its games (protocol=tales): FOLDS, tales_name(game), fold_list(game, fold), TalesEnv
    tales: ModuleType | None = None
    groups: Mapping[str, list[str]] = field(default_factory=dict)  # a name for several games (`scienceworld`)
    comparisons: tuple[Comparison, ...] = ()  # papers' tables its agents are set beside (bct.compare)
    # whether its parser takes commands beyond its valid-action list (the list is then a hint, and gold
    # paths are not checked against it)
    free_actions: bool = False
    # whether an episode's step and repeat limits count its game actions only (module calls pass no time in
    # the game, and a loop of game actions stays a loop with memory calls between them)
    limits_count_game_actions: bool = False
    # whether a text is this world's (its sentences have marks no other world writes); None: a world whose
    # reader reads any text no other world claims
    speaks: Callable[[str], bool] | None = None
    # the command forms its parser takes, told to an agent that writes its actions (the LLM agent, free_actions)
    action_forms: tuple[str, ...] = ()
    # (a written command, the step's text: task, observation, look, inventory) -> whether every thing the
    # command names is mentioned there (commands of no form of its own, a module's, pass): how an agent that writes its actions
    # prefers, among its candidates, one that names nothing absent. None: the valid-action list is the check
    knows: Callable[[str, str], bool] | None = None
    # what a task description names that its variations change, its own thing first ("boil lead", "the melting point
    # of tin"), then its boxes and rooms: `entities=common-task` numbers them first, even where the world shows them
    # often, so that each is named one way in every variation
    # (with `made`: what it asks to create too, chemistry-mix's 'salt water', "violet paint"; with `compared`: the
    # things it compares, the inclined planes)
    task_things: Callable[[str, bool, bool], list[str]] | None = None
    # what a text the agent read names that its task needs (chemistry-mix's recipe: the ingredients), wherever a
    # prompt shows it: `entities=common-task` numbers them after the task's things, their words beside
    read_things: Callable[[str], list[str]] | None = None
    # what a task follows through stages the look names by longer names ("a giant tortoise egg", "a hatchling giant
    # tortoise"): `entities=common-task` numbers it first and reads it inside any longer name ("<e1> egg"); with
    # `grown`, the fruit a growing task asks for ("<e1> seed", "grown <e1>"); with `crossed`, the plant a genetics task
    # crosses ("spherical <e1> seed"); with `trait`, the value of the trait it asks of ("a wilting large <e2> flower")
    stage_things: Callable[[str, bool, bool, bool], list[str]] | None = None
    # the first words of the commands that make a choice the game does not forgive (ScienceWorld's `focus on`:
    # the wrong thing ends the task): `decisive_passes` trains on their examples more often
    decisive: tuple[str, ...] = ()
    # a command that changes nothing in the game and shows where the agent is (ScienceWorld's `look around`): what
    # an agent that writes sends where its only candidate is a decisive command it already sent; None: none
    neutral: str | None = None
    # the commands that pass time in its game (ScienceWorld's `wait1`): an agent that passes over a command already
    # sent at the same prompt (`agent.untried`) sends one of them there up to `patience` times, as its gold paths do
    waits: tuple[str, ...] = ()
    patience: int = 0
    # how its parser's answer begins where it took no command (nothing happened in the game): an agent that writes
    # its actions sends its next candidate of the same step (`agent.retry_refused`)
    refusals: tuple[str, ...] = ()
    # how its parser's answer begins where it asks which of several things a command meant and waits for a number
    # (ScienceWorld's "Ambiguous request"): `agent.answer_questions` answers it first; None: it never asks
    asks: str | None = None
    # its game's answers (regular expressions, matched whole) to an action that changed nothing: refused ('No known
    # action matches that input'), or asked of a state already reached ('The door is already open'). A gold path's
    # steps answered so are dropped where the path without them still reaches the score (bct.worlds.gold): a cloned
    # agent that learns to open an open door loops there
    idle_answers: tuple[str, ...] = ()
    # the memory one of its games takes (a JVM, GB, with headroom): no more games start at once than fit
    jvm_gb: float = 0.5
    # the offline model presets' defaults for its games (setting -> game -> value: {"num_games": {"coin": 500}, "epochs":
    # {...}}): a preset asks through the registry (`training_defaults`), so that it names no world's games
    training_defaults: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    title: str = ""  # its name in the reports' headings ("TextWorldExpress"); "" is its registry name
    reports: tuple[Report, ...] = ()  # its results tables (its folder's report.py)

    def idle(self, step) -> bool:
        """Whether the game answered `step`'s action as changing nothing (`idle_answers`; a module's answer never)."""
        answer = step.observation.strip()
        return not step.from_module and any(re.fullmatch(a, answer, re.DOTALL) for a in self.idle_answers)

    @classmethod
    def of(cls, name: str, games: ModuleType, gold: ModuleType, text: ModuleType, env, **more) -> World:
        """A world from its folder's modules: games.py (GAMES, ALIASES, GROUPS, TRAINING_DEFAULTS, fold_seeds, fold_size), gold.py
        (gold_path, gold_modules), text.py (names) and its environment class."""
        return cls(
            name=name,
            games=games.GAMES,
            aliases=games.ALIASES,
            groups=getattr(games, "GROUPS", {}),
            training_defaults=getattr(games, "TRAINING_DEFAULTS", {}),
            fold_seeds=games.fold_seeds,
            fold_size=games.fold_size,
            open=env,
            gold_path=gold.gold_path,
            gold_modules=gold.gold_modules,
            names=text.names,
            **more,
        )
