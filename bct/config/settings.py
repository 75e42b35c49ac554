"""Every command's settings, typed: the one place that reads conf/*.yaml.

A command's settings are one pydantic object, filled by Hydra on the command line and made the same
way from Python with keyword arguments; the defaults are those of conf/ in both cases:

    from bct.config.settings import EvaluateSettings
    from bct.jobs.evaluation import evaluate
    out = evaluate(EvaluateSettings(agent="oracle", game="twc", num_variations=5, fold="test"))

A keyword naming a config group (`game`, `agent`, `model`) takes an option's name, or a dict of
values on top of it (`game={"name": "mapreader", "params": {"numLocations": 30}}`,
`agent={"name": "t5", "decoding": "rank"}`); any other keyword replaces that setting.

A value of the wrong type (`num_games=abc`, `modules=maybe`), out of range (`epochs=0`) or not among
the choices, or an unknown key, is a UserError in one line that names the key, the value and what is
allowed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import InterpolationKeyError
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bct.config.validation import PLAIN_NAME, validate
from bct.core.errors import UserError, exits_cleanly, unknown
from bct.data.representation import REPRESENTATIONS
from bct.worlds.base import Game
from bct.worlds.registry import expand_games, get_game

CONF = Path(__file__).resolve().parents[1] / "conf"  # shipped inside the package; ./conf links here

# ${if:COND,A,B} in a config: A where COND is true, else B (e.g. a preset's default that depends on
# `modules`: entities: ${if:${modules},placeholders,names}).
OmegaConf.register_new_resolver("if", lambda cond, a, b: a if cond else b, replace=True)

AtLeast1 = Annotated[int, Field(ge=1)]
NumVariations = Annotated[int, Field(ge=1, le=1000, description="a fold has 1000 games")]
PlainName = Annotated[str, Field(pattern=PLAIN_NAME)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", protected_namespaces=())


class GameSettings(Strict):
    """`+game=NAME` and `game.params.*`: a registry game with TWX parameters on top (null: the preset's)."""

    name: str
    params: dict[str, Optional[int]] = {}

    def build(self, memory: bool | None = None) -> Game:
        """The registry game with these parameters, with the working memory on or off (None: its default)."""
        return get_game(self.name).with_params(self.params).with_memory(memory)


class WandbSettings(Strict):
    mode: Literal["online", "offline", "disabled"]
    project: str
    entity: Optional[str]


class ModelSettings(Strict):
    """A model preset (conf/model/*.yaml): the hub presets name `pretrained`, the offline ones `config`."""

    name: str
    pretrained: Optional[str] = None
    vocab_size: Optional[AtLeast1] = None
    config: Optional[dict[str, Any]] = None
    locality: Optional[list[float]] = None
    lr: float
    warmup: float
    batch_size: AtLeast1
    entities: str
    decoding: Literal["generate", "rank"]
    num_games: AtLeast1
    epochs: Optional[Any] = None
    epochs_by_game: Optional[dict[str, int]] = None
    num_games_by_game: Optional[dict[str, int]] = None
    max_steps: Optional[Any] = None
    distinct: Any
    final_example: bool


class PlaySettings(Strict):
    """How an evaluation plays (conf/eval/default.yaml): bct.evaluate's settings, and bct.train's `eval.*`."""

    num_variations: NumVariations
    step_limit: Optional[AtLeast1]  # None: the game's own (Game.step_limit)
    repeat_limit: Optional[Annotated[int, Field(ge=2)]]  # None: the game's own (Game.repeat_limit)
    batch_size: AtLeast1


class EvalSettings(PlaySettings):
    """bct.train's `eval.*`: how the trained checkpoint is played when training ends (`eval.agent.*`: the
    T5 agent's decoding, conf/agent/t5.yaml)."""

    agent: dict[str, Any]


class Command(Strict):
    """A command's settings: `Settings(**keywords)` fills the rest from conf/<command>.yaml."""

    command: ClassVar[str]
    groups: ClassVar[tuple[str, ...]]

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any, info: ValidationInfo) -> Any:
        if (info.context or {}).get("complete") or not isinstance(data, Mapping):
            return data
        return resolved(compose(cls.command, data, cls.groups))

    @classmethod
    def from_config(cls, cfg: DictConfig):
        """The settings of a config Hydra composed (the command line), checked."""
        return validate(resolved(cfg), cls)

    @classmethod
    def from_overrides(cls, overrides: list[str]):
        """The settings a command line's `key=value` arguments make (Hydra's override syntax)."""
        return cls.from_config(compose(cls.command, overrides=check_overrides(overrides)))

    def dump(self) -> dict:
        return self.model_dump(exclude_unset=True)

    def played(self) -> Game | None:
        """The game `+game=NAME`, `game.params.*` and `memory` name (None where no game is given)."""
        return self.game.build(memory_of(getattr(self, "modules", None), self.memory)) if self.game else None


Modules = Union[bool, Literal["all"]]  # the game's modules, none, or every module in every game


def memory_of(modules, memory: bool | None) -> bool | None:
    """The working memory setting: with modules=all the memory is one of the modules offered, unless
    memory=false says otherwise; else `memory` (None: the game's default)."""
    return True if memory is None and modules == "all" else memory


class MixEntry(Strict):
    """`mix.GAME.*` in a run of several games: how much of that game's gold data the run trains on."""

    num_games: Optional[NumVariations] = None  # its first training games (null: the preset's, as for +game=GAME)
    passes: Optional[AtLeast1] = None  # copies of its distinct examples in each epoch (null: 1)


class TrainSettings(Command):
    command: ClassVar[str] = "train"
    groups: ClassVar[tuple[str, ...]] = ("game", "model")

    model: ModelSettings
    game: Optional[GameSettings] = None  # +game=NAME
    games: Any = None  # several games in one run (a list, or all), instead of +game=NAME
    mix: dict[str, MixEntry] = {}
    trainer: dict[str, Any]
    epochs: Optional[AtLeast1]
    max_steps: Optional[AtLeast1]
    modules: Modules
    memory: Optional[bool]  # the working memory (bct/modules/memory.py); null: the game's default
    entities: Literal[tuple(REPRESENTATIONS)]
    final_example: bool
    distinct: bool
    shuffle_ids: Annotated[float, Field(ge=0, le=1)]
    num_games: NumVariations
    lr: Annotated[float, Field(gt=0)]
    warmup: Annotated[float, Field(ge=0)]
    batch_size: AtLeast1
    grad_accum: AtLeast1
    max_source_length: Annotated[int, Field(ge=16)]
    max_target_length: Annotated[int, Field(ge=4)]
    seed: int
    data_dir: str
    checkpoint_dir: str
    run_name: Optional[PlainName]
    save_strategy: Literal["epoch", "steps", "no"]
    save_steps: AtLeast1
    logging_steps: AtLeast1
    overwrite: bool
    progress: bool
    threads: Any  # auto or a number, checked where it is applied (bct.core.threads)
    select: Literal["none", "dev"]
    select_every: AtLeast1
    evaluate_after: Literal["auto", "dev", "test", "none"]
    eval: EvalSettings
    wandb: WandbSettings

    def trained(self) -> list[Game]:
        """The games a run trains on: `+game=NAME`, or each of `games` with the memory setting."""
        if self.game is not None:
            if self.games:
                raise UserError("+game and games are both set; name one game (+game=NAME) or several (games=[a,b])")
            return [self.played()]
        memory = memory_of(self.modules, self.memory)
        return [get_game(name).with_memory(memory) for name in expand_games(self.games)] if self.games else []


class EvaluateSettings(Command, PlaySettings):
    command: ClassVar[str] = "evaluate"
    groups: ClassVar[tuple[str, ...]] = ("game", "agent")

    agent: dict[str, Any]  # conf/agent/<name>.yaml: built whole by hydra.utils.instantiate (bct.agents.make_agent)
    game: Optional[GameSettings] = None  # +game=NAME
    checkpoint: Optional[str]
    fold: Literal["train", "dev", "test"]
    modules: Optional[Modules]  # null: the checkpoint's (t5), else true
    memory: Optional[bool]  # null: the checkpoint's (t5), else the game's default
    results_dir: str
    progress: bool
    threads: Any


class GenerateSettings(Command):
    command: ClassVar[str] = "generate"
    groups: ClassVar[tuple[str, ...]] = ("game",)

    game: Optional[GameSettings] = None  # +game=NAME [game.params.*]: that game alone, instead of `games`
    games: Any  # a list, or one name
    modules: Any  # a list of true (with the game's modules) and/or false
    memory: Optional[bool]  # the working memory; null: each game's default
    folds: Any
    num_games: NumVariations
    out_dir: str
    overwrite: bool
    progress: bool
    workers: AtLeast1 = 1  # processes playing games side by side (one game and module setting each)


def choices(group: str) -> list[str]:
    """The options of a config group (bct/conf/<group>/*.yaml; games come from the registry)."""
    if group == "game":
        from bct.worlds.registry import ALIASES, GAMES

        return sorted([*GAMES, *ALIASES])
    return sorted(p.stem for p in (CONF / group).glob("*.yaml"))


def compose(command: str, values: Mapping[str, Any] = {}, groups: tuple[str, ...] = (), overrides=()) -> DictConfig:
    """conf/<command>.yaml with `values` on top (group keys choose an option, see the module's doc) and
    Hydra `overrides` (command-line syntax)."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    chosen, rest = list(overrides), {}
    for key, value in values.items():
        if isinstance(value, BaseModel):
            value = value.model_dump(exclude_unset=True)
        if key in groups and isinstance(value, (str, Mapping)):
            option = value if isinstance(value, str) else value.get("name")
            if option is not None:
                if option not in choices(key):
                    raise unknown({"model": "model preset"}.get(key, key), option, choices(key))
                chosen.append(f"{'+' if key == 'game' else ''}{key}={option}")
            if isinstance(value, Mapping) and set(value) - {"name"}:
                rest[key] = {k: v for k, v in value.items() if k != "name"}
        else:
            rest[key] = value
    if GlobalHydra.instance().is_initialized():  # inside a Hydra app (bct.train evaluating): its config dir is ours
        cfg = hydra_compose(command, overrides=chosen)
    else:
        with initialize_config_dir(str(CONF), version_base="1.3"):
            cfg = hydra_compose(command, overrides=chosen)
    OmegaConf.set_struct(cfg, False)  # an unknown key is named by the schema, in one line
    if "game" in rest and not cfg.get("game"):
        raise UserError(f"game={rest['game']!r}: name a game, e.g. game='twc' (games: {', '.join(choices('game'))})")
    return OmegaConf.merge(cfg, rest)


def resolved(cfg: DictConfig) -> dict:
    try:
        return OmegaConf.to_container(cfg, resolve=True)
    except InterpolationKeyError as e:  # e.g. a model preset of one's own without a key train.yaml reads from it
        raise UserError(
            f"{e.full_key} reads a key that is not set ({str(e).splitlines()[0]}); a model preset of one's own needs every key "
            f"that bct/conf/model/t5-base.yaml has"
        ) from None


SECRET_KEY = re.compile(r"(token|api_?key|secret|password|passwd)$", re.I)


def check_secrets(argv: list[str]) -> None:
    """Refuse a secret on the command line before Hydra saves the overrides into its output folder:
    tokens and keys come from the environment only, and URLs carry no credentials."""
    for arg in argv:
        key, eq, value = arg.lstrip("+~").partition("=")
        if not eq:
            continue
        leaf = key.rsplit(".", 1)[-1]
        if SECRET_KEY.search(leaf):
            raise UserError(
                f"{key}: bct takes secrets from the environment only, never from the command line "
                f"(it would be saved with the run): export HF_TOKEN=... for the hub, or set the key in a "
                f"variable named by agent.api_key_env"
            )
        if leaf == "api_key_env" and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise UserError(
                "agent.api_key_env must name an environment variable (e.g. OPENAI_API_KEY) that holds "
                "the key, not the key itself"
            )
        if re.search(r"://[^/@\s]+@", value):
            raise UserError(
                f"{key}: the URL carries credentials; give the key through the environment "
                f"(agent.api_key_env) and the URL without them"
            )


def checkpoint_game(argv: list[str]) -> list[str]:
    """`game.params.NAME=V` without `+game=`: the game of the checkpoint named (`checkpoint=X`), with its
    own parameters under those given; a UserError in one line where no single game is named."""
    if any(re.match(r"^\+{0,2}game=", a) for a in argv):
        return argv
    given = [a for a in argv if re.match(r"^\+{0,2}game\.params\.\w+=", a)]
    if not given:
        return argv
    first = given[0].lstrip("+")
    checkpoint = next((a.split("=", 1)[1] for a in argv if a.startswith("checkpoint=")), None)
    if not checkpoint or checkpoint == "null":
        raise UserError(f"{first}: name the game it applies to, e.g. +game=mapreader {first}")
    from bct.core.files import read_record
    from bct.worlds.registry import trained_games

    run = read_record(Path(checkpoint) / "bct_config.json", ["settings"])  # bct.config.runs.RUN_RECORD
    if run is None or not isinstance(run.get("settings"), dict):
        return argv  # the agent names a missing or unfinished checkpoint in its own line
    games = trained_games(run["settings"])
    if len(games) > 1:
        names = ", ".join(g.preset or g.name for g in games)
        raise UserError(
            f"{first}: {checkpoint} was trained on {len(games)} games ({names}); name the one it applies to, "
            f"e.g. +game={games[0].preset or games[0].name} {first}"
        )
    game = games[0]
    keys = {a.lstrip("+").split("=", 1)[0].rsplit(".", 1)[1] for a in given}
    own = [f"game.params.{k}={v}" for k, v in game.overrides if k not in keys]
    return [*argv, f"+game={game.preset or game.name}", *own]


def check_overrides(argv: list[str]) -> list[str]:
    """Name unknown games, model presets and agents in one line, before Hydra's longer message; return
    the overrides to run (a checkpoint's game added where only its parameters were given)."""
    check_secrets(argv)
    argv = checkpoint_game(list(argv))
    # a per-game map entry as the docs write it (mix.twc.passes=2): added where the map lacks it, else set
    argv = [re.sub(r"^\+?(?=mix\.[\w-]+\.\w+=)", "++", a) for a in argv]
    names = {"game": "game", "model": "model preset", "agent": "agent"}
    for arg in argv:
        m = re.match(r"^\+{0,2}(game|model|agent)=(.*)$", arg)
        if m and "(" not in m.group(2):
            for value in m.group(2).split(","):
                if value not in choices(m.group(1)):
                    raise unknown(names[m.group(1)], value, choices(m.group(1)))
    games = [m.group(1) for a in argv if (m := re.match(r"^\+{0,2}game=([\w-]+)$", a))]
    for arg in argv:  # game.params.NAME=...: a parameter the game's TWX generator takes
        m = re.match(r"^\+{0,2}game\.params\.(\w+)=", arg)
        if m and games:
            game = get_game(games[0])
            if m.group(1) not in game.accepts:
                accepted = ", ".join(f"{k} ({lo}-{hi})" for k, (lo, hi) in game.accepts.items())
                raise UserError(
                    f"game.params.{m.group(1)}: {game.name} has no such parameter; it accepts {accepted or 'none'}"
                )
    return argv


def entry(hydra_main: Callable[[], None]) -> Callable[[], None]:
    """A console entry point: check the overrides' choices, then run the Hydra app."""

    @exits_cleanly
    def main() -> None:
        sys.argv[1:] = check_overrides(sys.argv[1:])
        hydra_main()

    return main
