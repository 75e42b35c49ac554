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

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import InterpolationKeyError
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bct.config.cli import CONF, check_overrides, choices
from bct.config.validation import PLAIN_NAME, validate
from bct.core.errors import UserError, unknown
from bct.core.game import Game
from bct.data.representation import REPRESENTATIONS
from bct.worlds.registry import expand_games, get_game, memory_of, training_defaults

# ${if:COND,A,B} in a config: A where COND is true, else B (e.g. a preset's default that depends on
# `modules`: entities: ${if:${modules},placeholders,names}).
OmegaConf.register_new_resolver("if", lambda cond, a, b: a if cond else b, replace=True)
OmegaConf.register_new_resolver("eq", lambda a, b: a == b, replace=True)
# A model preset's defaults by game come from the worlds that define the games (bct/worlds/twx/games.py), so that a
# preset names none: ${training_default:epochs,GAME,4} is one game's (4 where its world sets none),
# ${training_defaults:num_games} the whole table (a run of several games reads each game's: mixture).
OmegaConf.register_new_resolver(
    "training_default", lambda setting, game, default: training_defaults(setting).get(game, default), replace=True
)
OmegaConf.register_new_resolver("training_defaults", training_defaults, replace=True)

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
    protocol: Literal["bct", "tales"] = "bct"  # bct's loop, or TALES's in tale-suite's environments
    draw: Literal[1, 2] = 1  # bct's usual variations of the fold, or as many others (a second draw)

    @model_validator(mode="after")
    def _tales_rules(self):
        if self.protocol == "tales" and (self.repeat_limit is not None or self.draw != 1):
            raise ValueError(
                "protocol=tales plays TALES's seeds 1..num_variations and stops only at a win or the budget: "
                "drop repeat_limit and draw"
            )
        return self


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
    max_minutes: Optional[Annotated[float, Field(gt=0)]] = None
    modules: Modules
    memory: Optional[bool]  # the working memory (bct/worlds/<world>/modules/memory.py); null: the game's default
    entities: Literal[tuple(REPRESENTATIONS)]
    entity_rule: Optional[int] = None  # the rule `entities` numbers by (bct.data.representation); null: its latest
    recent: Annotated[int, Field(ge=0)]  # the episode's last actions in the prompt (bct.data.prompt.with_recent)
    final_example: bool
    distinct: bool
    shuffle_ids: Annotated[float, Field(ge=0, le=1)]
    refused: Annotated[float, Field(ge=0, le=1)] = 0.0
    decisive_passes: AtLeast1 = 1
    num_games: NumVariations
    lr: Annotated[float, Field(gt=0)]
    warmup: Annotated[float, Field(ge=0)]
    batch_size: AtLeast1
    grad_accum: AtLeast1
    max_source_length: Annotated[int, Field(ge=16)]
    max_target_length: Annotated[int, Field(ge=4)]
    seed: int
    data_dir: str
    wins: list[str] = []  # results folders of won train episodes (bct.data.wins), trained on beside the gold paths
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
    games: Any = None  # several games (a list, or a group: scienceworld) played in one pool, a results folder each
    checkpoint: Optional[str]
    fold: Literal["train", "dev", "test"]
    modules: Optional[Modules]  # null: the checkpoint's (t5), else true
    memory: Optional[bool]  # null: the checkpoint's (t5), else the game's default
    results_dir: str
    keep_wins: bool = False  # fold=train: each won episode's examples to wins.jsonl too (bct.data.wins)
    progress: bool
    threads: Any

    @model_validator(mode="after")
    def _wins_from_train(self):
        if self.keep_wins and self.fold != "train":
            raise ValueError(
                "keep_wins=true keeps won episodes as training data: play the train fold (fold=train), never dev or test"
            )
        return self


class GenerateSettings(Command):
    command: ClassVar[str] = "generate"
    groups: ClassVar[tuple[str, ...]] = ("game", "model")

    model: ModelSettings  # the preset whose runs the data are for: its num_games, by game too (num_games_by_game)
    game: Optional[GameSettings] = None  # +game=NAME [game.params.*]: that game alone, instead of `games`
    games: Any  # a list, or one name
    modules: Any  # a list of true (with the game's modules) and/or false
    memory: Optional[bool]  # the working memory; null: each game's default
    folds: Any
    num_games: NumVariations
    mix: dict[str, MixEntry] = {}  # mix.GAME.num_games: that game's number instead (as bct.train's mix; passes unused)
    out_dir: str
    overwrite: bool
    progress: bool
    workers: AtLeast1 = 1  # processes playing games side by side (one game and module setting each)

    @classmethod
    def from_config(cls, cfg: DictConfig):
        """As any command's, less the keys bct.train reads and generate does not: an experiment (+experiment=NAME) is
        written for bct.train, and generate writes its data (an unknown key on the command line is still named)."""
        training = set(TrainSettings.model_fields) - set(cls.model_fields)
        return super().from_config(OmegaConf.masked_copy(cfg, [k for k in cfg if k not in training]))


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
