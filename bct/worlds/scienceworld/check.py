"""The check of a command an agent writes for ScienceWorld (`World.knows`): whether every thing it names stands in the
step's text, read by the command forms the parser takes (text.ACTION_FORMS). An agent that writes its actions prefers,
among its candidates, one that names nothing absent; the game judges what passes."""

from __future__ import annotations

import functools
import re

from bct.worlds.scienceworld.text import ACTION_FORMS


def _slots(form: str) -> tuple[str, str | None]:
    """A command form as the words before its first slot and the words between its two ("move OBJ to OBJ" ->
    ("move ", " to "); "focus on OBJ" -> ("focus on ", None))."""
    words = form.split()
    first = next(i for i, w in enumerate(words) if w in ("OBJ", "LOC"))
    between = words[first + 1 : -1] if len(words) > first + 1 else None
    return " ".join(words[:first]) + " ", (" " + " ".join(between) + " ") if between else None


_FORMS = tuple(_slots(f) for f in ACTION_FORMS if "OBJ" in f or "LOC" in f)
_BARE = frozenset(f for f in ACTION_FORMS if "OBJ" not in f and "LOC" not in f)  # "look around", "wait1"
_VERBS = frozenset(head.split()[0] for head, _ in _FORMS)  # a command that starts so must fill a form


def _fillings(command: str, head: str, between: str | None) -> list[tuple[str, ...]]:
    """Every way a command fills a form's slots; a two-slot form splits at each place its middle words allow."""
    if not command.startswith(head) or len(command) == len(head):
        return []
    rest = command[len(head) :]
    if between is None:
        return [(rest,)]
    cuts = [i for i in range(len(rest)) if rest.startswith(between, i)]
    return [(rest[:i], rest[i + len(between) :]) for i in cuts]


# What a command's slot may add to a name as a look writes it: links to where the thing is ("thermometer in
# inventory", "flower pot 3 containing pea plant and soil", "seed in the seed stage") and the parts and kinds
# ScienceWorld's parser names that no look lists ("battery anode", "wire terminal 1", "living thing").
_LINK = re.compile(r" (?:in|on|containing|and) ")
# articles, and the life stages the parser writes before a name or a look after it ("adult pea plant" / "a pea
# plant in the adult stage", "egg blue jay egg" / "a blue jay egg")
_GLUED = re.compile(r"(?<=[a-z])its (?=terminal|anode|cathode)")  # the game's "a wireits terminal 1 is connected to"
_STAGES = frozenset("adult baby juvenile reproducing seedling egg".split())  # a thing is at one stage at a time
_SKIPPED = frozenset({"a", "an", "the", *_STAGES})


@functools.lru_cache(maxsize=1 << 12)  # a step's text is read once for all its candidates
def _words(text: str) -> str:
    """Lower-case words without articles, life stages or a word written twice in a row ("a door to the hallway"
    -> "door to hallway"; the parser's "baby baby mouse" -> "mouse")."""
    words = [w for w in re.findall(r"[a-z0-9]+", _GLUED.sub(" its ", text.lower())) if w not in _SKIPPED]
    return " ".join(w for i, w in enumerate(words) if i == 0 or w != words[i - 1])


_PART = re.compile(r"^(?:(.*) )?(?:anode|cathode|terminal \d+)$")
_KINDS = frozenset(
    {"inventory", "seed stage", "stage", "living thing", "organism", ""}
)  # ("the reproducing stage": "stage")


def knows(command: str, text: str) -> bool:
    """Whether every thing a written command names is mentioned in `text` (the step's observation, look and
    inventory: not the task, which names what the agent must find wherever it is, nor the previous action):
    each slot, cut at its links ("X in Y", "X containing Y and Z") and parts ("X terminal 1"), is a phrase the
    text holds (articles and life stages aside). So "focus on dove" where no dove is in sight,
    or "flower pot 8 peach" made of two names, is not, while ScienceWorld's longer names for a thing
    ("thermometer in inventory", "substance in metal pot", "battery anode") are. A command of no form of the
    game's with a slot (`look around`, `wait`, a module's `recall ...`) passes; the game or the module judges it.
    One that starts as a form with a slot but fills none ("focus on2", "move to kitchen") does not, nor one that
    takes from the inventory ("move soil in inventory to flower pot 2") what the inventory does not list, nor a
    number where the game asks for none (it answers an ambiguous request: "0: move apple seed (in seed jar)..."),
    nor a thing linked to itself (a degenerate "focus on tin containing tin containing tin", which the game took
    for the tin), nor a thing at two life stages at once ("baby juvenile beaver") or at a stage the text does not show it at
    (`_at_stage`: "baby parrot" where the look lists "a parrot egg")."""
    if len(_STAGES.intersection(command.lower().split())) > 1:  # "baby juvenile beaver", "baby crocodile egg"
        return False
    if not _at_stage(command, text):
        return False
    seen = f" {_words(text)} "
    command = _words(command)

    def held(slot: str, seen: str = seen) -> bool:
        if slot.endswith(" in inventory"):  # what the parser takes from the inventory must be in it
            return held(slot.removesuffix(" in inventory"), _inventory(text))
        phrases = _LINK.split(slot)
        if len(set(phrases)) < len(phrases):  # a thing linked to itself: "tin containing tin containing tin ..."
            return False
        for phrase in phrases:
            part = _PART.match(phrase)
            phrase = (part.group(1) or "") if part else phrase
            if phrase not in _KINDS and f" {phrase} " not in seen:
                return False
        return True

    fillings = [f for head, between in _FORMS for f in _fillings(command, head, between)]
    if not fillings:
        if command.isdigit():  # the answer to "Ambiguous request: Please enter the number ... 0: ... 1: ..."
            # the game lists its choices one a line, the number and a tab before each: "\n0:\tmove soil (in ...)"
            return "Ambiguous request" in text and re.search(rf"(?<!\S){command}:\s", text) is not None
        return command in _BARE or re.match(r"[a-z]*", command).group() not in _VERBS  # "move2 to box" starts so
    return any(all(held(slot) for slot in f) for f in fillings)


def _at_stage(command: str, text: str) -> bool:
    """Whether a thing a command names at a life stage is at that stage in `text`, as ScienceWorld writes one: "a baby
    wolf", "a parrot egg", "a pea plant in the adult stage" (the parser's forms: "baby wolf", "egg parrot", "adult pea
    plant"). Stages aside, "baby parrot" and "parrot egg" read alike, and an agent that focused on the baby it had
    seen in training where the look showed the egg was refused, waited, and focused on the hatchling: the egg's stage
    missed, the task failed. A command that names no stage, or a stage alone ("the seedling stage"), passes."""
    low = command.lower()
    if not _STAGES.intersection(low.split()):
        return True
    seen = " ".join(re.findall(r"[a-z0-9]+", text.lower()))

    def shown(part: str) -> bool:
        words = part.split()
        stages = _STAGES.intersection(words)
        thing = " ".join(w for w in words if w not in _SKIPPED)
        if not stages or thing in _KINDS or thing == "stage":
            return True
        s, t = next(iter(stages)), re.escape(thing)
        return re.search(rf"(?<![a-z0-9])(?:{s} {t}|{t} {s}|{t} in the {s} stage)(?![a-z0-9])", seen) is not None

    fillings = [f for head, between in _FORMS for f in _fillings(low, head, between)]
    return not fillings or any(all(shown(p) for slot in f for p in _LINK.split(slot)) for f in fillings)


_INVENTORY = re.compile(r"In your inventory, you see:(.*?)(?=</s>|This room is called|This outside location|$)", re.S)


@functools.lru_cache(maxsize=1 << 12)
def _inventory(text: str) -> str:
    """The words of what a step's inventory lists (all of the text where it has none)."""
    found = _INVENTORY.findall(text)
    return f" {_words(found[-1] if found else text)} "
