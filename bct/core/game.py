"""What every layer says of a game: its folds, its identity (`Game`), what its environment answers (`GameState`) and
the environment itself (`GameEnv`). A world (bct/worlds/) makes them; modules, data, agents and reports read them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from bct.core.errors import UserError, unknown

FOLDS = ("train", "dev", "test")


def check_fold(fold: str) -> str:
    if fold not in FOLDS:
        raise unknown("fold", fold, FOLDS)
    return fold


@dataclass(frozen=True)
class Game:
    name: str  # our name (a variant's: its preset's, then each parameter it changes, e.g. mapreader-numLocations30)
    world: str  # the family it belongs to (bct/worlds/registry.py): "twx"
    world_game: str  # the world's own name for it (TWX's gameName)
    params: str  # the world's own parameter string (TWX's gameParams: "numLocations=1,includeDoors=0")
    module: str  # the symbolic module this game is played with ("": none of its own)
    rules: str  # which gold-path rule and planner policy apply (twc-medium plays by twc's rules)
    preset: str = ""  # a variant's registry entry ("" for an entry itself)
    overrides: tuple[tuple[str, int], ...] = ()  # what a variant sets on top of its preset
    memory: bool = False  # played with the working memory (bct/worlds/<world>/modules/memory.py) beside its module
    memory_default: bool = False  # the preset's own setting: on for the games that need to remember
    memory_module: str = ""  # which working memory (its world's modules): its facts and rules fit the game
    step_limit: int = 50  # an evaluation's default actions per episode (module calls included but where
    # the world's limits count game actions only)
    # an evaluation's default stop after this many identical actions in a row (None: none; a world where
    # waiting or looking again passes time repeats by design)
    repeat_limit: int | None = 4
    # the parameters the world's game accepts, each with its range (`game.params.NAME=VALUE`)
    accepts: Mapping[str, tuple[int, int]] = field(default_factory=dict, repr=False, compare=False, hash=False)

    @property
    def param_values(self) -> dict[str, int]:
        return {k: int(v) for k, v in (p.split("=") for p in self.params.split(",") if p)}

    def with_params(self, params: Mapping[str, int | None]) -> Game:
        """This game with the world's parameters set on top (None: as the preset has it). Every parameter
        that differs is part of the variant's name, so that a variant never shares a folder with another."""
        given = {k: v for k, v in params.items() if v is not None}
        for k, v in given.items():
            if k not in self.accepts:
                raise UserError(
                    f"game.params.{k}: {self.name} has no such parameter; it accepts {', '.join(self.accepts) or 'none'}"
                )
            lo, hi = self.accepts[k]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise UserError(f"game.params.{k}={v}: {self.world_game} accepts a whole number from {lo} to {hi}")
        base = self.param_values
        changed = {k: v for k, v in sorted(given.items()) if base.get(k) != v}
        if not changed:
            return self
        merged = {**base, **changed}
        return replace(
            self,
            name=self.name + "".join(f"-{k}{v}" for k, v in changed.items()),
            params=",".join(f"{k}={v}" for k, v in merged.items()),
            preset=self.preset or self.name,
            overrides=tuple({**dict(self.overrides), **changed}.items()),
        )

    def with_memory(self, memory: bool | None) -> Game:
        """This game with the working memory on or off (None: the preset's default). A setting other than
        the preset's default is part of the name (`twc-memory`, `coin-nomemory`), like any variant's."""
        if memory is None or memory == self.memory:
            return self
        if memory and not self.memory_module:
            raise UserError(f"memory=true: {self.name} has no working memory in its world; drop memory=true")
        base = self.name
        if self.memory != self.memory_default:
            base = base.removesuffix("-memory" if self.memory else "-nomemory")
        name = base if memory == self.memory_default else base + ("-memory" if memory else "-nomemory")
        # a preset's own memory setting, with no parameter changed, is the preset itself
        preset = self.preset or base if (self.overrides or memory != self.memory_default) else ""
        return replace(self, name=name, memory=memory, preset=preset)

    def record(self) -> dict:
        """What settings, manifests and results say of the game: its name and, for a variant, its preset
        and parameters (read back by `bct.worlds.registry.from_record`)."""
        return {
            "game": self.name,
            **({"game_preset": self.preset, "game_params": dict(self.overrides)} if self.preset else {}),
            "memory": self.memory,
        }


@dataclass
class GameState:
    """What a world's environment says after a reset or an action."""

    task: str
    observation: str
    look: str
    inventory: str
    valid_actions: list[str]
    score: float  # normalised: 1.0 is the task done
    done: bool
    success: bool


class GameEnv(Protocol):
    """One game of a world, played one episode at a time."""

    def reset(self, seed: int, fold: str, gold: bool) -> GameState: ...

    def step(self, action: str) -> GameState: ...

    def gold_actions(self) -> list[str]: ...

    def kill(self) -> None: ...  # end a process that died or hangs, without waiting for it

    def close(self) -> None: ...
