"""The one reader of TextWorld's sentences: its status line and banner, room headers, the cookbook's recipe, what
a cooking action did, and the names the entity placeholders number."""

from __future__ import annotations

import re

_STATUS = re.compile(r"\s*>\s*-= .*? =-\d+/\d+\s*$", re.S)  # the Z-machine's status line after every answer
_BANNER_LINE = re.compile(r"^[\s$|\\/_()`'.,:<>-]*$")  # the ASCII "TEXT WORLD" banner of the first answer
_ROOM = re.compile(r"^-= (.+?) =-$", re.M)
_RECIPE = re.compile(r"Ingredients:\s*\n(.*?)\n\s*\nDirections:\s*\n(.*?)(?:\n\s*\n|$)", re.S)
# what a cooking action answers, as the game writes it
_DONE = re.compile(r"\bYou (slice|dice|chop|fried|roasted|grilled) the (.+?)\.", re.I)
PAST = {"fried": "fry", "roasted": "roast", "grilled": "grill"}
# the objects a room text shows, in its commonest forms (its prose is drawn from a grammar)
_THINGS = re.compile(
    r"\b(?:you (?:can )?(?:see|make out) (?:a|an|the)|there is (?:a|an)|revealing (?:a|an)|on the|the) "
    r"((?:closed |open )?[a-z][a-z -]{1,40}?)(?= (?:and|on|in|here|leading|to|that)\b|[.,!])",
    re.I,
)


DIRECTIONS = ("north", "east", "south", "west")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
_DOOR = re.compile(r"\b(closed|open) ([a-z][a-z -]*?) leading (north|east|south|west)\b", re.I)
_EXIT = re.compile(r"\b(north|east|south|west)\b", re.I)


_WHERE = r"(?:\s+(?:inside|within|in)\s+the\s+.*)?"  # "the gate inside the garage": the room is not in the command
_TAKE = re.compile(
    rf"\b(?:retrieve|pick[ -]up|take|lift|recover|grab|get)\s+the\s+(.+?)\s+from\s+the\s+(?:floor\s+of\s+.*|(.+?){_WHERE})$",
    re.I,
)
_OPEN = re.compile(
    rf"\b(open|unlock)\s+the\s+(.+?){_WHERE}$|\bthat\s+the\s+(.+?){_WHERE}\s+is\s+(?:wide\s+)?(open|opened|ajar|unlocked)\b",
    re.I,
)


def steps(objective: str) -> list[str]:
    """The steps an objective spells ("First, go north. Then, pick up the coin from the floor of the bar."), one a
    sentence, in order, each as its command: "go north", "open gate", "unlock gate", "take coin", "take passkey from
    bench". A sentence that asks none of these (a greeting, the sign-off) is no step."""
    objective = objective.split("-= ", 1)[0]  # the room's description after it names exits too
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", objective):
        sentence = sentence.strip().rstrip(".!?")
        take, door, move = _TAKE.search(sentence), _OPEN.search(sentence), _EXIT.findall(sentence)
        if take:
            out.append(f"take {take.group(1)}" + (f" from {take.group(2)}" if take.group(2) else ""))
        elif door and door.group(1):
            out.append(f"{door.group(1).lower()} {door.group(2)}")
        elif door:
            out.append(f"{'unlock' if door.group(4).lower() == 'unlocked' else 'open'} {door.group(3)}")
        elif len(move) == 1:
            out.append(f"go {move[0].lower()}")
    return out


def clean(text: str) -> str:
    """An answer without the status line and the banner, its blank lines closed up."""
    text = _STATUS.sub("", text)
    lines = [line.rstrip() for line in text.splitlines()]
    if any("$$" in line for line in lines):  # the first answer's banner: drop its lines
        lines = [line for line in lines if not ("$$" in line or (line and _BANNER_LINE.match(line)))]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def speaks(text: str) -> bool:
    """Whether a text is TextWorld's: a room header, or the objective of one of its challenges."""
    return bool(_ROOM.search(text) or "Let's cook a delicious meal" in text or "Welcome to TextWorld" in text)


def rooms(text: str) -> list[str]:
    return [r.lower() for r in _ROOM.findall(text)]


def recipe(text: str) -> tuple[list[str], list[str]] | None:
    """The cookbook's ingredients and directions, as read ("examine cookbook"); None where the text holds none."""
    found = _RECIPE.search(text)
    if not found:
        return None
    ingredients, directions = ([ln.strip() for ln in part.splitlines() if ln.strip()] for part in found.groups())
    return ingredients, directions


def done(text: str) -> list[str]:
    """The directions an answer says were carried out ("You slice the carrot." -> "slice the carrot")."""
    found = [f"{PAST.get(v.lower(), v.lower())} the {thing.lower()}" for v, thing in _DONE.findall(text)]
    return found + (["prepare meal"] if "Adding the meal to your inventory" in text else [])


PARTICIPLE = {
    "slice": "sliced",
    "dice": "diced",
    "chop": "chopped",
    "fry": "fried",
    "roast": "roasted",
    "grill": "grilled",
}


def prepared(inventory: str, directions: list[str]) -> list[str]:
    """The directions an inventory shows carried out already ("a sliced fried banana": slice and fry the banana); the
    easier levels hand over an ingredient prepared."""
    held = re.split(r",\s*|\s+and\s+", inventory.lower().split(":", 1)[-1])
    out = []
    for d in directions:
        verb, _, thing = d.partition(" the ")
        word = PARTICIPLE.get(verb.strip())
        if word and any(thing in item and re.search(rf"\b{word}\b", item) for item in held):
            out.append(d)
    return out


def names(text: str) -> list[str]:
    """The rooms and things `text` names, in order of first mention."""
    found = rooms(text) + [
        t.strip().lower().removeprefix("closed ").removeprefix("open ") for t in _THINGS.findall(text)
    ]
    return list(dict.fromkeys(n for n in found if n))


def exits(look: str) -> dict[str, tuple[str, bool] | None]:
    """The exits a room's description names, by direction: its door and whether it is closed ("There is a closed
    plain door leading north."), or None for an open way ("There is an exit to the south.", "try going east")."""
    found: dict[str, tuple[str, bool] | None] = {}
    for sentence in re.split(r"(?<=[.!?])\s+", look):
        door = _DOOR.search(sentence)
        if door:
            found[door.group(3).lower()] = (door.group(2).lower(), door.group(1).lower() == "closed")
            continue
        for d in _EXIT.findall(sentence):
            found.setdefault(d.lower(), None)
    return found
