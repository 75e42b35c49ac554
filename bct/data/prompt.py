"""The paper's Markov prompt. Training data and evaluation both build their sources here."""

from __future__ import annotations

from bct.worlds.play import Step


def clean(text: str) -> str:
    """Newlines and tabs become spaces, as in the paper."""
    return text.replace("\n", " ").replace("\t", " ")


def pack(step: Step, prev_action: str = "", prev_observation: str = "") -> str:
    """The source text for choosing the action after `step`.

    `prev_action` and `prev_observation` are the action that led to the step before this one and
    that step's observation; both are empty at the first step of an episode.
    """
    return clean(
        step.task
        + " </s> OBS "
        + step.observation
        + " </s> INV "
        + step.inventory
        + " </s> LOOK "
        + step.look
        + " </s> <extra_id_0> </s> PACT "
        + prev_action
        + " </s> POBS "
        + prev_observation
        + " </s>"
    )


PARTS = ("task", "obs", "inv", "look", "slot", "pact", "pobs")  # a packed prompt's parts, in order


def unpack(source: str) -> dict[str, str]:
    """The parts of a source written by `pack` (task, obs, inv, look, pact, pobs; the slot left out)."""
    pieces = source.removesuffix("</s>").split(" </s> ")
    parts = {}
    for name, piece in zip(PARTS, pieces):
        label = name.upper() + " "
        text = piece.strip()
        parts[name] = text[len(label) :].strip() if text.startswith(label) or text == label.strip() else text
    parts.pop("slot", None)
    return parts


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


def training_pair(row: dict, representation) -> tuple[str, str]:
    """(source, target) of one generated example (a row of data/<game>/<modules|nomodules>/<fold>.jsonl), as a
    model with this representation (bct.data.representation) reads it; evaluation maps prompts the same way."""
    m = representation.map(row["source"], row["valid_actions"])
    return m.source, m.rewrite(row["target"])
