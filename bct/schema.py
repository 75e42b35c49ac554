"""The types and ranges of every command's settings (pydantic models); their defaults live in conf/*.yaml.

`validate(cfg, Schema)` checks a composed Hydra config: a value of the wrong type (`num_games=abc`,
`num_games=2.5`, `modules=maybe`), out of range (`epochs=0`) or not among the choices, or an unknown
key, is a UserError in one line that names the key, the value and what is allowed.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import InterpolationKeyError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bct.errors import UserError
from bct.representation import REPRESENTATIONS

AtLeast1 = Annotated[int, Field(ge=1)]
NumVariations = Annotated[int, Field(ge=1, le=1000, description="a fold has 1000 games")]
Decoding = Optional[Literal["generate", "rank"]]
# a folder's name inside checkpoint_dir, never a path out of it
PLAIN_NAME = r"^[\w-][\w.-]*$"
PlainName = Annotated[str, Field(pattern=PLAIN_NAME)]
PATTERNS = {PLAIN_NAME: "a plain folder name (letters, digits, '.', '-', '_'), not a path"}


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class WandbSchema(Strict):
    mode: Literal["online", "offline", "disabled"]
    project: str
    entity: Optional[str]


class PlaySchema(Strict):
    """How an evaluation plays (conf/eval/default.yaml): evaluate's settings and train's `eval.*`."""

    num_variations: NumVariations
    step_limit: AtLeast1
    repeat_limit: Annotated[int, Field(ge=2)]
    batch_size: AtLeast1
    model_batch: Optional[AtLeast1]
    decoding: Decoding
    num_beams: AtLeast1
    beam_groups: AtLeast1
    diversity_penalty: Annotated[float, Field(ge=0)]
    fallback_skip: Annotated[int, Field(ge=0)]
    device: Optional[str]


class TrainSchema(Strict):
    model: Any
    game: Any = None  # +game=NAME
    trainer: dict[str, Any]
    epochs: Optional[AtLeast1]
    max_steps: Optional[AtLeast1]
    modules: bool
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
    threads: Any  # auto or a number, checked where it is applied (bct.threads)
    select: Literal["none", "dev"]
    select_every: AtLeast1
    evaluate_after: Literal["auto", "dev", "test", "none"]
    eval: PlaySchema
    wandb: WandbSchema


class EvaluateSchema(PlaySchema):
    agent: Any
    game: Any = None  # +game=NAME
    checkpoint: Optional[str]
    fold: Literal["train", "dev", "test"]
    modules: bool
    results_dir: str
    progress: bool
    threads: Any


class GenerateSchema(Strict):
    game: Any = None  # +game=NAME [game.params.*]: that game alone, instead of `games`
    games: Any
    variants: Any
    folds: Any
    num_games: NumVariations
    out_dir: str
    overwrite: bool
    progress: bool


_EXPECTED = {"int": "a whole number", "float": "a number", "bool": "true or false", "string": "a string"}


def _message(schema: type[BaseModel], error: dict, values: dict) -> str:
    key = ".".join(str(p) for p in error["loc"])
    kind, ctx = error["type"], error.get("ctx", {})
    if kind == "extra_forbidden":
        return f"unknown setting '{key}'; see 'python -m bct.<command> --cfg job' for the settings"
    if kind == "missing":
        return f"{key} is not set; give it on the command line ({key}=...) or in the config"
    shown = OmegaConf.to_yaml({"v": error.get("input")}).strip()[3:]  # as written on a command line
    if kind == "string_pattern_mismatch":
        return f"{key}={shown}: must be {PATTERNS.get(ctx.get('pattern'), 'a name of another form')}"
    if kind == "literal_error":
        return f"{key}={shown}: choose one of {ctx['expected'].replace(chr(39), '').replace(' or ', ', ')}"
    for bound, words in (("ge", "at least"), ("gt", "above"), ("le", "at most"), ("lt", "below")):
        if bound in ctx:
            limit = ctx[bound]
            limit = int(limit) if isinstance(limit, float) and limit.is_integer() else limit
            why = _description(schema, error["loc"])
            return f"{key}={shown}: must be {words} {limit}" + (f" ({why})" if why and bound == "le" else "")
    base = kind.split("_")[0]
    return f"{key}={shown}: must be {_EXPECTED.get(base, 'another value')}"


def _description(schema: type[BaseModel], loc: tuple) -> str | None:
    field = None
    for part in loc:
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)) or part not in schema.model_fields:
            return None
        field = schema.model_fields[part]
        schema = field.annotation
    return field.description if field else None


def validate(cfg: DictConfig, schema: type[BaseModel]) -> DictConfig:
    """`cfg` checked against `schema` (resolved), or a one-line UserError naming the first bad key."""
    try:
        values = OmegaConf.to_container(cfg, resolve=True)
    except InterpolationKeyError as e:  # e.g. a model preset of one's own without a key train.yaml reads from it
        raise UserError(
            f"{e.full_key} reads a key that is not set ({str(e).splitlines()[0]}); a model preset of one's own needs every key "
            f"that bct/conf/model/t5-base.yaml has"
        ) from None
    try:
        schema.model_validate(values)
    except ValidationError as e:
        raise UserError(_message(schema, e.errors()[0], values)) from None
    checked = OmegaConf.create(values)
    OmegaConf.set_struct(checked, True)  # a setting that does not exist is an error, not None
    return checked
