"""The one reader of ScienceWorld's fixed sentences: "This room is called the X.", "A door to the Y (that is
open)", and the task description's named things."""

from __future__ import annotations

import functools
import re

# The words of ScienceWorld's action templates ("move OBJ to OBJ", "pick up OBJ", ...; its gold paths also
# write "go to", "pour OBJ into OBJ", "examine OBJ", "teleport to"): what an action says beyond the things
# it names.
COMMAND_WORDS = frozenset(
    "activate close connect to deactivate disconnect dunk in eat flush focus on go inventory look around at mix "
    "move open pick up pour into put down read reset task use wait wait1 examine teleport".split()
)

# ScienceWorld's action templates, as its parser takes them (told to an agent that writes its commands)
ACTION_FORMS = (
    "look around",
    "look at OBJ",
    "look in OBJ",
    "examine OBJ",
    "read OBJ",
    "inventory",
    "task",
    "open OBJ",
    "close OBJ",
    "go to LOC",
    "teleport to LOC",
    "pick up OBJ",
    "put down OBJ",
    "move OBJ to OBJ",
    "pour OBJ into OBJ",
    "pour OBJ in OBJ",
    "focus on OBJ",
    "activate OBJ",
    "deactivate OBJ",
    "use OBJ on OBJ",
    "mix OBJ",
    "connect OBJ to OBJ",
    "disconnect OBJ",
    "eat OBJ",
    "flush OBJ",
    "dunk OBJ into OBJ",
    "wait",
    "wait1",
)

_ROOM = re.compile(r"This room is called the ([\w ]+?)\.")
_DOOR = re.compile(r"A door to the ([\w ]+?) \(that is (open|closed)\)")


@functools.lru_cache(maxsize=1 << 14)
def room(text: str) -> str | None:
    """The room a look describes."""
    m = _ROOM.search(text)
    return m.group(1) if m else None


@functools.lru_cache(maxsize=1 << 14)
def doors(text: str) -> tuple[tuple[str, bool], ...]:
    """The doors a look lists: (room it leads to, open)."""
    return tuple((m.group(1), m.group(2) == "open") for m in _DOOR.finditer(text))


def speaks(text: str) -> bool:
    """Whether a text is ScienceWorld's: its task descriptions and room descriptions say so."""
    return "Task Description:" in text or "This room is called the" in text


def names(text: str) -> list[str]:
    """Every room and thing the sentences of `text` name (the room described, the rooms its doors lead to, the
    things it lists and the task names): what `entities=names|placeholders` numbers."""
    here = room(text)
    return [*([here] if here else []), *(r for r, _ in doors(text)), *things(text)]


_FOCUS = re.compile(r"You focus on the (.+?)\.")
_TEMPERATURE = re.compile(r"measures a temperature of (-?\d+(?:\.\d+)?) degrees celsius")
_RECIPE = re.compile(r"The recipe reads: (.+?)\.?$")
_THRESHOLD = re.compile(r"is above (-?\d+(?:\.\d+)?) degrees celsius")
_INGREDIENTS = re.compile(r"The recipe reads: To make .+?, you need to mix (.+?)(?:\.|\s*</s>|$)")


def focus(observation: str) -> str | None:
    """What "You focus on the X." names."""
    m = _FOCUS.search(observation)
    return m.group(1) if m else None


def temperature(observation: str) -> float | None:
    """A thermometer's reading in degrees Celsius ("the thermometer measures a temperature of 16 degrees celsius")."""
    m = _TEMPERATURE.search(observation)
    return float(m.group(1)) if m else None


def recipe(observation: str) -> str | None:
    """What a recipe read says ("To make salt water, you need to mix sodium chloride, water"); the game writes it
    on a line of its own ("The recipe reads:\nTo make ...")."""
    m = _RECIPE.search(" ".join(observation.split()))
    return m.group(1) if m else None


def threshold(task: str, as_written: bool = False) -> float | str | None:
    """The temperature a measuring task compares with ("If the melting point of X is above 50.0 degrees
    celsius, focus on ..."); `as_written`: the number as the task writes it ("50.0")."""
    m = _THRESHOLD.search(task)
    return (m.group(1) if as_written else float(m.group(1))) if m else None


# A thing ScienceWorld's sentences mention: an article, then words up to punctuation, a bracket or the double
# space that separates a look's items once packed ("a glass jar (containing a substance called water)").
_THING = re.compile(r"(?<![\w-])(?:a|an|the) ([a-z][a-z0-9 -]*?)(?=[.,:;()]|\s{2}|$)", re.I)
_CALLED = re.compile(r"^substance called (.+)$")
# a thing the look writes by its kind and title ("A recipe titled instructions to make rust", "a book titled ..."): the
# parser takes its kind alone ("pick up recipe"), not the title's words, so its kind is its name. Read as "recipe
# titled instructions", the look's recipe was one placeholder and the task's "A recipe ... might be found" another;
# the gold paths' "pick up recipe" was learned as the task's, never in sight, and an agent sent "pick up recipe titled
# instructions" (refused) in 5 of chemistry-mix's 8 test episodes
_TITLED = re.compile(r"^([a-z]+) titled\b.*$")
# an article a task writes before the thing it names ("grow a apple", "grow a banana plant"): no part of its name (read
# with it, "a apple" was numbered apart from the "apple seed" the gold path moves, whose "apple" then had a number
# the prompt never showed)
_ARTICLE = re.compile(r"^(?:a|an|the) ")
_CUT = re.compile(r"\s(?:is|are|was|which|that|currently|to|with|on|in|into|from|of|you|and)\b.*$")
_TASK_THING = re.compile(
    r"(?:boil|melt|freeze|melting point of|temperature of|mix(?! to produce)|grow|change the state of matter of) "
    r"([a-z][a-z0-9 -]*?)(?=[.,]| which|$)",
    re.I,
)
NOT_NAMES = frozenset(
    {
        "agent",
        "inventory",
        "door",
        "thing",
        "substance",
        "task",
        "room",
        "rooms",
        "score",
        "temperature",
        "melting point",
        # what an inclined-plane task asks of its planes is words to read, not a thing: numbered, "the most friction"
        # and "the least friction" read alike, and the choice after the experiment was a coin's
        "most friction",
        "least friction",
        "steepest angle",
        "shallowest angle",
    }
)


# what a task is about: "boil lead.", "the melting point of tin, which", "determine if aluminum foil is electrically",
# "turn on the electric motor by" (power-component: training's are light bulbs, test's a buzzer and a motor)
_TASK_OWN = re.compile(
    r"Your task is to (?:boil|melt|freeze|change the state of matter of|measure the temperature of|"
    r"measure the melting point of|determine if|turn on the) ([a-z][a-z0-9 -]*?)(?=[.,]| is electrically| by )",
    re.I,
)


# where a task sends the agent: its boxes ("place it in the blue box") and rooms ("located around the bedroom",
# "the green box in the bathroom", "Seeds can be found in the kitchen", "found near the kitchen")
_TASK_PLACE = re.compile(
    r"\bthe ([a-z]+ box)\b|(?:located around|found in|found near|(?<=box) in) the ([a-z]+(?: room| studio)?)\b", re.I
)


# what a task asks to make: "create the substance 'salt water'.", "create violet paint." (chemistry-mix, the paints)
_TASK_MADE = re.compile(
    r"Your task is to use chemistry to create (?:the substance )?'?([a-z][a-z -]*?)'?(?=[.,])", re.I
)


# the organism whose life stages a task asks for ("the 4 life stages of the giant tortoise", "the life stages of the
# lemon plant"): the look names it at each stage ("a giant tortoise egg", "a hatchling giant tortoise", "a lemon seed",
# "a lemon tree in the seedling stage"), a plant by its own word, without "plant"
_TASK_STAGES = re.compile(r"focus on the (?:\d+ )?life stages of the ([a-z][a-z -]*?)(?: plant)?(?=[.,])", re.I)


def stage_things(task: str) -> list[str]:
    """The organism a life-stage task follows through its stages (identify-life-stages-1 and -2)."""
    return [m.group(1).lower() for m in _TASK_STAGES.finditer(task)]


def read_things(text: str) -> list[str]:
    """What a recipe read anywhere in `text` (a prompt, the notes' answer in it) says to mix, in its order ("To
    make salt water, you need to mix sodium chloride, water" -> sodium chloride, water)."""
    found = [i.strip().lower() for m in _INGREDIENTS.finditer(" ".join(text.split())) for i in m.group(1).split(",")]
    return list(dict.fromkeys(i for i in found if i))


# the two planes an inclined-plane task compares ("which of the two inclined planes (paper, cloth) has the most
# friction", "(unknown material C, unknown material H)", "(C, B) has the shallowest angle"); the look names them
# "an inclined plane with a paper surface" where the task is friction, "an inclined plane C" where it is the angle
_TASK_PLANES = re.compile(
    r"which of the two inclined planes \(([^,()]+), ([^()]+)\) has the (\w+ (friction|angle))", re.I
)


def planes(text: str) -> list[str]:
    """The inclined planes a task compares, by the names the look gives them ("inclined plane with a paper surface",
    "inclined plane c"); [] for a task that compares none."""
    m = _TASK_PLANES.search(text)
    if not m:
        return []
    named = [x.strip().lower() for x in m.group(1, 2)]
    return [f"inclined plane with a {x} surface" if m.group(4) == "friction" else f"inclined plane {x}" for x in named]


def task_things(text: str, made: bool = True, compared: bool = True) -> list[str]:
    """What a task description names that each variation changes: the thing it is about, where it names one
    (boil, melt, freeze, change the state of, the temperature and melting-point measurements, conductivity,
    the component to power, and with `made` the substance or paint it asks to create; with `compared` the two
    inclined planes a task compares), then its boxes and rooms in the order it names them (use-thermometer:
    "unknown substance b", "bedroom", "blue box", "orange box", "bathroom")."""
    own = [m.group(1).lower() for m in (*(_TASK_MADE.finditer(text) if made else ()), *_TASK_OWN.finditer(text))]
    places = [(m.group(1) or m.group(2)).lower() for m in _TASK_PLACE.finditer(text)]
    return list(dict.fromkeys(own + (planes(text) if compared else []) + places))


@functools.lru_cache(maxsize=1 << 14)
def things(text: str) -> tuple[str, ...]:
    """The things a text names in ScienceWorld's sentences: each item of a look or inventory ("a metal pot",
    "a substance called water": both the phrase and "water"), what the task names ("boil water", "the melting
    point of tin", "the orange box")."""
    found = []
    for m in [*_THING.finditer(text), *_TASK_THING.finditer(text)]:
        name = _TITLED.sub(r"\1", _ARTICLE.sub("", _CUT.sub("", m.group(1).strip().lower()).strip()))
        if not name or name in NOT_NAMES or len(name.split()) > 5:
            continue
        found.append(name)
        called = _CALLED.match(name)
        if called:
            found.append(called.group(1))
    return tuple(dict.fromkeys(found))


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
