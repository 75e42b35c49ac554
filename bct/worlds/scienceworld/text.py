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


_SIDE = re.compile(r"is (above|below) -?\d+(?:\.\d+)? degrees celsius, focus on the ([a-z]+ box)")


def sides(task: str) -> dict[str, str]:
    """The box a measuring task names for each side of its threshold: {"above": "orange box", "below": "blue box"}."""
    return dict(_SIDE.findall(task))


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


# the fruit a growing task asks for ("Your task is to grow a orange."): the look names it by longer names as it
# grows ("a orange seed", "a orange tree in the adult stage", the task's "the grown orange"), and the fruit itself
_TASK_GROWN = re.compile(r"Your task is to grow an? ([a-z]+)\.", re.I)


# the plant a genetics task crosses ("a dominant or recessive trait in the unknown D plant", "in the pea plant"): the
# look names it inside longer names with its traits before ("a spherical unknown D seed", "a unknown D plant in the
# adult stage with large leaves"), and the unknown plant's letter is drawn per variation (train: B, E; test: D)
_TASK_CROSSED = re.compile(r"a dominant or recessive trait in the ([a-z][a-z ]*?) plant\b", re.I)


# the trait a genetics task asks of ("whether red flower color is a dominant or recessive trait"): its value ("red")
# stands inside the names that show it ("a wilting large red flower", "a round blue unknown D seed", "a short height"),
# and test variations draw values no train variation has (medium flower size, red flower color)
TASK_TRAIT = re.compile(
    r"whether (.+?) (seed color|seed shape|leaf shape|leaf size|flower size|flower color|plant height)"
    r" is a dominant or recessive trait"
)


def stage_things(task: str, grown: bool = True, crossed: bool = True, trait: bool = True) -> list[str]:
    """The organism a life-stage task follows through its stages (identify-life-stages-1 and -2), with `grown` the
    fruit a growing task asks for (grow-fruit), with `crossed` the plant a genetics task crosses, with `trait` the
    value of the trait it asks of (after the plant: "unknown d", "red")."""
    found = [*_TASK_STAGES.finditer(task), *(_TASK_GROWN.finditer(task) if grown else ())]
    found += [*(_TASK_CROSSED.finditer(task) if crossed else ())]
    found += [*(TASK_TRAIT.finditer(task) if trait else ())]
    return list(dict.fromkeys(m.group(1).lower() for m in found))


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
