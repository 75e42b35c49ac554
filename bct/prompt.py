"""The paper's Markov prompt. Training data and evaluation both build their sources here."""

from __future__ import annotations

from bct.entities import EntityMap, TextMap, check_representation
from bct.env import Step


def clean(text: str) -> str:
    """Newlines and tabs become spaces, as in the paper."""
    return text.replace("\n", " ").replace("\t", " ")


def pack(step: Step, prev_action: str = "", prev_observation: str = "") -> str:
    """The source text for choosing the action after `step`.

    `prev_action` and `prev_observation` are the action that led to the step before this one and
    that step's observation; both are empty at the first step of an episode.
    """
    return clean(
        step.task + " </s> OBS " + step.observation + " </s> INV " + step.inventory + " </s> LOOK " + step.look
        + " </s> <extra_id_0> </s> PACT " + prev_action + " </s> POBS " + prev_observation + " </s>"
    )


def prompt_at(steps: list[Step], i: int) -> str:
    """The source for choosing the action after steps[i], where steps[0] is the reset record.

    steps[i].action is the action that led to steps[i]; the source of step i has that action and
    the observation of step i-1 as its previous action and observation.
    """
    if i == 0:
        return pack(steps[0])
    return pack(steps[i], steps[i].action or "", steps[i - 1].observation)


def pack_history(steps: list[Step]) -> list[str]:
    """Sources for every step of an episode (training data and evaluation both use `prompt_at`)."""
    return [prompt_at(steps, i) for i in range(len(steps))]


def represent(source: str, valid_actions: list[str], entities: str = "text") -> EntityMap | TextMap:
    """What the model sees for one packed prompt: `entities=text` (the paper's) keeps the names;
    `entities=placeholders` rewrites names and numbers (bct.entities). Training data and evaluation
    both go through here, so a model is always shown prompts built the same way."""
    return (EntityMap if check_representation(entities) == "placeholders" else TextMap)(source, valid_actions)


def training_pair(row: dict, entities: str = "text") -> tuple[str, str]:
    """(source, target) of one generated example (a row of data/<game>/<variant>/<fold>.jsonl)."""
    m = represent(row["source"], row["valid_actions"], entities)
    return m.source, m.rewrite(row["target"])
