"""Each agent's own settings (`agent.*`), typed once: a pydantic class per agent, mirrored by
conf/agent/<name>.yaml (its defaults; tests/test_agent_settings.py checks they agree), and read alike by the agent,
the T5 checkpoint loader and the agent's record in results.json. A setting is added here and in the yaml alone.

A setting the agent does not take, or a value of the wrong type or out of its choices, is a UserError in one line
that names it (`AgentSettings.of`). This module imports no PyTorch: a bad setting is answered before a model loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_serializer, field_validator, model_validator

from bct.config.validation import one_line
from bct.core.errors import UserError

AtLeast1 = Annotated[int, Field(ge=1)]
UNTRIED = ("prompt", "state")
# a number kept as written: results recorded `1` and `1.0` under different folders
Number = Union[int, float]


def untried_setting(value: bool | str) -> str | bool:
    """`agent.untried`: false, true (= prompt: a command already sent at this very prompt is passed over) or
    state (already sent in the same observation, look and inventory, whatever the previous action)."""
    if value is True:
        return "prompt"
    if value is False or value is None or value in UNTRIED:
        return value or False
    raise UserError(f"agent.untried={value}: choose false, true (the same prompt) or state (the same observed state)")


def added(default: Any) -> Any:
    """A setting added after results were first recorded: kept in the record only where it differs from its default,
    so that older results folders keep their names."""
    return Field(default, json_schema_extra={"recorded": "where set"})


def unrecorded(default: Any) -> Any:
    """A setting that changes how an evaluation runs, not what it finds: left out of the record (a results folder
    is not refused over it)."""
    return Field(default, json_schema_extra={"recorded": False})


class AgentSettings(BaseModel):
    """An agent's settings; this class itself is those of an agent that takes none (oracle, planner)."""

    model_config = ConfigDict(strict=True, extra="forbid", protected_namespaces=())

    @classmethod
    def of(cls, values: Mapping[str, Any], agent: str):
        """`values` (the yaml's, the command line's, keywords) checked, or a UserError in one line naming the first
        bad one; `agent`: the agent's name, as `agent=NAME` chooses it."""
        try:
            return cls.model_validate(dict(values))
        except ValidationError as e:
            extra = next((x for x in e.errors() if x["type"] == "extra_forbidden"), None)
            if extra:
                takes = ", ".join(f"agent.{k}" for k in cls.model_fields) or "no settings of its own"
                raise UserError(f"agent.{extra['loc'][0]} does not apply to agent={agent}; it takes {takes}") from None
            raise UserError(one_line(e, cls, prefix="agent.")) from None

    def record(self) -> dict:
        """What results.json keeps of them (`agent_config`): each setting that changes what an evaluation finds,
        those `added` since the first results only where set."""
        out = {}
        for key, value in self.model_dump().items():
            field = type(self).model_fields[key]
            recorded = (field.json_schema_extra or {}).get("recorded", True)
            if recorded is True or (recorded == "where set" and getattr(self, key) != field.default):
                out[key] = value
        return out


class RandomSettings(AgentSettings):
    seed: int = 0


class T5Settings(AgentSettings):
    """agent=t5 (bct.agents.t5.T5Agent, loaded by bct.agents.t5_checkpoint.load_agent). In the order results record
    them; conf/agent/t5.yaml says what each does."""

    decoding: Optional[Literal["generate", "rank"]] = None  # None: the checkpoint's default (T5Agent: generate)
    num_beams: AtLeast1 = 16
    beam_groups: AtLeast1 = 16
    diversity_penalty: Number = 0.9
    fallback_skip: Annotated[int, Field(ge=0)] = 4
    model_batch: Optional[AtLeast1] = None
    device: Optional[str] = None
    untried: Union[bool, Literal["prompt", "state"]] = added(False)  # true is read as prompt
    retry_refused: bool = added(False)
    skip_idle: bool = added(False)
    rerank: bool = added(False)
    ensemble: list[str] = added([])
    dtype: Literal["auto", "bf16", "fp32"] = added("auto")
    decisive_per_life: bool = added(False)
    answer_questions: bool = added(False)
    decisive_best_only: bool = added(False)
    widen: Annotated[int, Field(ge=0)] = added(0)

    @field_validator("untried", mode="before")
    @classmethod
    def _untried(cls, value):
        return untried_setting(value)

    @field_validator("ensemble", mode="before")
    @classmethod
    def _ensemble(cls, value):  # one checkpoint may be named alone (agent.ensemble=PATH)
        return [value] if isinstance(value, str) else list(value) if isinstance(value, tuple) else value

    @field_serializer("untried")
    def _untried_as_recorded(self, value):  # `true` in results written before `state` existed
        return True if value == "prompt" else value

    @model_validator(mode="after")
    def _beams_in_groups(self):
        if self.num_beams % min(self.beam_groups, self.num_beams):
            raise UserError(
                f"agent.num_beams={self.num_beams} must be a multiple of agent.beam_groups={self.beam_groups} "
                f"(the original: 16 beams in 16 groups)"
            )
        return self

    def record(self) -> dict:
        """Beam search's own settings are null under rank; an ensemble always reranks (not recorded twice)."""
        out = super().record()
        if self.decoding == "rank":
            out.update(beam_groups=None, diversity_penalty=None)
        if self.ensemble:
            out.pop("rerank", None)
        return out


class LLMSettings(AgentSettings):
    """agent=llm (bct.agents.llm.LLMAgent). In the order results record them; conf/agent/llm.yaml says what each does."""

    backend: Literal["openai", "local"] = "openai"
    model: str = "gpt-4o-mini"
    gguf_file: Optional[str] = None
    base_url: Optional[str] = None  # recorded without credentials (LLMAgent.settings)
    api_key_env: str = "OPENAI_API_KEY"
    api: Literal["chat", "completions"] = "chat"
    retries: Annotated[int, Field(ge=0)] = unrecorded(4)
    timeout: Annotated[float, Field(gt=0)] = unrecorded(60)
    cache_dir: Optional[Union[str, Path]] = unrecorded(".cache/llm")
    concurrency: AtLeast1 = unrecorded(8)
    constraints: bool = True
    one_shot: bool = False
    think: bool = False
    feedback: bool = False
    max_tokens: Optional[AtLeast1] = None  # None: 32 for an action, 512 with think
    history_turns: AtLeast1 = 8
    guidance: bool = False
    choice: Literal["generate", "rank", "constrained"] = "generate"
    device: Optional[str] = None
