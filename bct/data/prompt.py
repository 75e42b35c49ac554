"""The paper's Markov prompt. Training data and evaluation both build their sources here."""

from __future__ import annotations

from bct.modules.stack import Step


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


LABELS = ("RECENT", "OBS", "INV", "LOOK", "PACT", "POBS")  # the labelled parts after the task (RECENT: `recent`)


def with_recent(source: str, actions: list[str], recent: int) -> str:
    """A packed prompt with the episode's last `recent` actions before this step (oldest first, module calls
    among them) after the task: `task </s> RECENT open door to kitchen ; go to kitchen </s> OBS ...`. The
    Markov prompt says only the last action; a long procedure (ScienceWorld's boil: 100 actions, many of
    them alike) needs more to know where in it the agent is. `recent=0`: the paper's prompt, unchanged.
    Training (from the actions of the rows before, bct.seq2seq.trainset) and evaluation (bct.agents.t5) both
    call this."""
    if not recent:
        return source
    task, sep, rest = source.partition(" </s> ")
    return f"{task}{sep}RECENT {clean(' ; '.join(actions[-recent:]))}{sep}{rest}"


def unpack(source: str) -> dict[str, str]:
    """The parts of a source written by `pack` (task, obs, inv, look, pact, pobs; recent where `with_recent`
    added it; the slot left out)."""
    pieces = source.removesuffix("</s>").split(" </s> ")
    parts = {"task": pieces[0].strip()}
    for piece in pieces[1:]:
        label, _, text = piece.strip().partition(" ")
        if label in LABELS:
            parts[label.lower()] = text.strip()
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


def training_pair(row: dict, representation, recent: int = 0) -> tuple[str, str]:
    """(source, target) of one generated example (a row of data/<game>/<modules|nomodules>/<fold>.jsonl), as a
    model with this representation (bct.data.representation) reads it, with the episode's last `recent`
    actions (the row's `before`: the targets of the rows before it); evaluation maps prompts the same way."""
    source = with_recent(row["source"], row.get("before") or [], recent)
    m = representation.map(source, row["valid_actions"])
    return m.source, m.rewrite(row["target"])
