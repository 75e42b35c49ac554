"""The typed, range-checked schema of every command's config (OmegaConf structured configs).

`validate(cfg, Schema)` merges a composed Hydra config into its dataclass: a value of the wrong type
(`num_games=abc`, `num_games=2.5`, `modules=maybe`), one out of range (`epochs=0`, `batch_size=-1`)
or not among the choices is a UserError that names the key, the value and what is allowed.
Ranges and choices live beside each field, in its metadata.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import Any, Dict, Optional

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import ConfigKeyError, OmegaConfBaseException

from bct.errors import UserError

NUM_VARIATIONS = {"min": 1, "max": 1000, "why": "a fold has 1000 games"}


def at_least(n: float) -> dict:
    return {"min": n}


def one_of(*values: str) -> dict:
    return {"choices": values}


@dataclass
class WandbSchema:
    mode: str = field(default="disabled", metadata=one_of("online", "offline", "disabled"))
    project: str = "bct"
    entity: Optional[str] = None


@dataclass
class EvalAfterSchema:  # bct.train's evaluator settings for evaluate_after
    num_variations: int = field(default=100, metadata=NUM_VARIATIONS)
    decoding: Optional[str] = field(default=None, metadata=one_of("generate", "rank"))
    num_beams: int = field(default=16, metadata=at_least(1))
    beam_groups: int = field(default=16, metadata=at_least(1))
    diversity_penalty: float = field(default=0.9, metadata=at_least(0))
    batch_size: int = field(default=32, metadata=at_least(1))
    step_limit: int = field(default=50, metadata=at_least(1))


@dataclass
class TrainSchema:
    model: Any = None
    game: Any = None
    trainer: Dict[str, Any] = field(default_factory=dict)
    epochs: int = field(default=8, metadata=at_least(1))
    modules: bool = True
    entities: str = field(default="text", metadata=one_of("text", "placeholders"))
    final_example: bool = False
    num_games: int = field(default=100, metadata=NUM_VARIATIONS)
    lr: float = field(default=5e-5, metadata={"min": 0, "exclusive": True})
    warmup: float = field(default=0, metadata=at_least(0))
    batch_size: int = field(default=8, metadata=at_least(1))
    grad_accum: int = field(default=1, metadata=at_least(1))
    max_source_length: int = field(default=1024, metadata=at_least(16))
    max_target_length: int = field(default=64, metadata=at_least(4))
    seed: int = 42
    data_dir: str = "data"
    checkpoint_dir: str = "checkpoints"
    run_name: Optional[str] = None
    save_strategy: str = field(default="epoch", metadata=one_of("epoch", "steps", "no"))
    save_steps: int = field(default=500, metadata=at_least(1))
    logging_steps: int = field(default=10, metadata=at_least(1))
    overwrite: bool = False
    progress: bool = True
    threads: Any = "auto"
    evaluate_after: str = field(default="auto", metadata=one_of("auto", "dev", "test", "none"))
    eval: EvalAfterSchema = field(default_factory=EvalAfterSchema)
    wandb: WandbSchema = field(default_factory=WandbSchema)


@dataclass
class EvaluateSchema:
    agent: Any = None
    game: Any = None
    checkpoint: Optional[str] = None
    fold: str = field(default="dev", metadata=one_of("train", "dev", "test"))
    num_variations: int = field(default=100, metadata=NUM_VARIATIONS)
    modules: bool = True
    step_limit: int = field(default=50, metadata=at_least(1))
    repeat_limit: int = field(default=4, metadata=at_least(2))
    batch_size: int = field(default=32, metadata=at_least(1))
    model_batch: Optional[int] = field(default=None, metadata=at_least(1))
    decoding: Optional[str] = field(default=None, metadata=one_of("generate", "rank"))
    num_beams: int = field(default=16, metadata=at_least(1))
    beam_groups: int = field(default=16, metadata=at_least(1))
    diversity_penalty: float = field(default=0.9, metadata=at_least(0))
    fallback_skip: int = field(default=4, metadata=at_least(0))
    device: Optional[str] = None
    results_dir: str = "results"
    progress: bool = True
    threads: Any = "auto"


@dataclass
class GenerateSchema:
    games: Any = None
    variants: Any = None
    folds: Any = None
    num_games: int = field(default=100, metadata=NUM_VARIATIONS)
    out_dir: str = "data"
    overwrite: bool = False
    progress: bool = True


def _expected(node_type) -> str:
    name = getattr(node_type, "__name__", str(node_type))
    return {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "a string"}.get(name, name)


def _check(schema, cfg: DictConfig, prefix: str = "") -> None:
    for f in fields(schema):
        value = cfg.get(f.name)
        key = f"{prefix}{f.name}"
        nested = f.default_factory() if f.default_factory is not MISSING else None
        if is_dataclass(nested):
            _check(type(nested), value, f"{key}.")
            continue
        meta = f.metadata
        if value is None or not meta:
            continue
        if "choices" in meta and value not in meta["choices"]:
            raise UserError(f"{key}={value}: choose one of {', '.join(meta['choices'])}")
        if "min" in meta and (value <= meta["min"] if meta.get("exclusive") else value < meta["min"]):
            raise UserError(f"{key}={value}: must be {'above' if meta.get('exclusive') else 'at least'} {meta['min']}")
        if "max" in meta and value > meta["max"]:
            why = f" ({meta['why']})" if "why" in meta else ""
            raise UserError(f"{key}={value}: must be at most {meta['max']}{why}")


def validate(cfg: DictConfig, schema) -> DictConfig:
    """`cfg` merged into `schema` (typed, resolved), or a one-line UserError naming the bad key."""
    try:
        merged = OmegaConf.merge(OmegaConf.structured(schema), cfg)
        OmegaConf.to_container(merged, resolve=True)  # type-check interpolated values too
    except ConfigKeyError as e:
        raise UserError(f"unknown setting '{e.full_key}'; see 'python -m bct.<command> --cfg job' for the settings") from None
    except OmegaConfBaseException as e:
        key = e.full_key or "?"
        value = getattr(e, "value", None)
        parent, _, leaf = key.rpartition(".")
        node = OmegaConf.structured(schema)
        try:
            expected = _expected(OmegaConf.get_type(OmegaConf.select(node, parent) if parent else node, leaf))
        except Exception:
            expected = "another value"
        shown = value if value is not None else OmegaConf.select(cfg, key, throw_on_missing=False)
        raise UserError(f"{key}={shown}: must be {expected}") from None
    _check(schema, merged)  # `threads` is checked where it is applied (bct.threads.set_threads)
    return merged
