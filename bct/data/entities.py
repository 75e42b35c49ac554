"""Entity placeholders: the names and numbers of one prompt replaced by `<e1>`, `<e2>`, ... and `<n1>`, ...

A small T5 trained from scratch cannot write or rank a name it never saw, and every dev and test fold
of these games uses names that training never shows. With `entities=placeholders`, the prompt, the
valid actions and the target are rewritten by one mapping, so the model learns *which* entity to act
on, not how it is spelled; the action it picks maps back to the valid action it came from.

The rule, decided per case:
- Entities are the argument phrases of the valid actions (`take X`, `put X in Y`, `open X`,
  `query X`, `next step to X`, ...), the object of the previous action (PACT), and the places that
  TWX's fixed sentences name ("You are in the X.", "To the North you see the X.", "The X connects
  to the A, B and C.", "you see a X", the task's "take the X that is located in the Y" / "into the X found in the Y", and
  kb-twc's "located at X."), so that a room or object that no action names now (the current room,
  the box before anything can be put in it) is still a placeholder, and the task's entities keep
  the same numbers throughout an episode.
- Two-argument actions name two entities: `put X in Y`, and CookingWorld's `cook X in Y` (the ingredient
  and the appliance, so that "roast the X (oven: ...)" and `cook X in oven` share their placeholders).
  The recall forms' words (`recall recipe`) are not entities.
- A leading quantity stays outside the phrase: `take 25g of oak` -> `take <n1>g of <e1>`;
  `take 6 pineapples` -> `take <n2> <e2>`. Numbers are separate placeholders, one per distinct
  value; a unit written onto a number (`25g`, `12ml`) stays as written after it.
- A whole valid action that the latest observation quotes (Simon's "take these actions in order: wave
  hello, ...", the memory's "next: slice the red apple") is one entity, so that an action whose verb
  training never showed (test folds have gestures of their own) is still chosen by its placeholder.
  Moves, sorts and arithmetic stay as they are (their arguments are not entities).
- Names that contain other names (`oven` / `oven glove`, `slice red apple` / `red apple`): the
  longest match wins at each position.
- Common words that are also objects (`box`, `map`, `coin`): every whole-word mention is the
  entity, in the task too; a name is never matched inside a longer word (`box` in `boxes`).
- Matching ignores case. Numbering is by first occurrence in the latest observation (OBS), then in
  the prompt from its start (the task), then in the valid actions. What the next action acts on
  is most often in the latest observation, so it gets the same small numbers at every step: the
  navigator's next room is always `<e1>` in mapreader, and the model finds `<e1>` in "To the North
  you see the <e1>" rather than matching two variable names. Numbering the task first instead
  left the small model choosing between the coin's and the box's rooms by name, and it
  confused them in one move of seven.
- More entities than placeholders (`MAX_ENTITIES`, `MAX_NUMBERS`): the surplus stays as text, which
  keeps the mapping one to one.
"""

from __future__ import annotations

import re

from bct.worlds import registry

MAX_ENTITIES = 64
MAX_NUMBERS = 32
ENTITY_TOKENS = [f"<e{i}>" for i in range(1, MAX_ENTITIES + 1)]
NUMBER_TOKENS = [f"<n{i}>" for i in range(1, MAX_NUMBERS + 1)]
PLACEHOLDERS = ENTITY_TOKENS + NUMBER_TOKENS

NUMBER = r"\d+(?:\.\d+)?"
_QUANTITY = rf"(?:{NUMBER}\s?(?:[a-z]+ of )?|{NUMBER} )"  # "25g of ", "4 m of ", "6 " (before "pineapples")
# Verbs whose arguments are not entities: directions, sort orders, numbers (numbers have their own placeholders;
# `compare reading 200.0`: the word stands for the module's latest reading).
# A recall form's words name what the memory answers (`recall recipe`, `recall map`), not an entity.
_NO_ENTITY = {"move", "go", "sort", "add", "sub", "mul", "div", "compare", "look", "inventory", "task", "recall"}
_PUT = re.compile(rf"^(?:put|place|insert|cook) (?:{_QUANTITY})?(.+?) (?:in|on|into) (.+)$")
_VERB_ARG = re.compile(rf"^(?:next step to|look at|[a-z]+) (?:{_QUANTITY})?(.+)$")
_OBS = re.compile(r" </s> OBS (.*?) </s> INV ")
_PACT = re.compile(r" </s> PACT (.*?) </s> POBS ")
_SEEN = re.compile(r" </s> OBS (.*?) </s> PACT ")  # the step's observation, inventory and look
_PLACEHOLDER = re.compile(r"<[en]\d+>")
_SPACED = re.compile(r"\s*(<[en]\d+>)\s*")


def action_entities(action: str) -> list[str]:
    """The entity phrases an action names: `put 25g of oak in box` -> ['oak', 'box']."""
    action = action.strip()
    words = action.split()
    if not words or words[0].lower() in _NO_ENTITY:
        return []
    m = _PUT.match(action)
    if m:
        return [m.group(1), m.group(2)]
    m = _VERB_ARG.match(action)
    return [m.group(1)] if m else []


def shuffle_numbering(texts: list[str], rng) -> list[str]:
    """The same texts with their placeholders renumbered by one random permutation (entities among
    entities, numbers among numbers): a training example that teaches the model to match a placeholder
    by what it stands for in this prompt, not by which number it has, so that numbers a bigger map
    reaches (a 30-room map numbers its rooms up to <e31>) are not new to it."""
    perm = {
        "e": rng.sample(range(1, MAX_ENTITIES + 1), MAX_ENTITIES),
        "n": rng.sample(range(1, MAX_NUMBERS + 1), MAX_NUMBERS),
    }
    renumber = lambda m: f"<{m.group(1)}{perm[m.group(1)][int(m.group(2)) - 1]}>"
    return [re.sub(r"<([en])(\d+)>", renumber, t) for t in texts]


def normalize(action: str) -> str:
    """One spelling for an abstract action, whatever spaces a tokenizer put around placeholders."""
    return " ".join(_SPACED.sub(r"\1", action).split())


def prompt_names(source: str, valid_actions: list[str]) -> set[str]:
    """The names (lower case) a packed prompt and its valid actions hold, by the rule above: what a mapping
    numbers, and what `entities=common` counts over the training data."""
    names = {n.lower().strip() for a in valid_actions for n in action_entities(a)}
    pact = _PACT.search(source)
    if pact:
        names |= {n.lower().strip() for n in action_entities(pact.group(1))}
    names |= {n.lower().strip() for n in registry.names(source)}
    obs = _OBS.search(source)
    if obs:  # whole actions quoted by the latest observation
        seen = obs.group(1).lower()
        names |= {
            a.lower().strip()
            for a in valid_actions
            if action_entities(a) and re.search(rf"(?<![\w-]){re.escape(a.lower().strip())}(?![\w-])", seen)
        }
    return {n for n in names if n and not re.fullmatch(NUMBER, n)}


class EntityMap:
    """One prompt's mapping from names and numbers to placeholders (see the module docstring).

    `numbers=False` leaves numbers as written (names only); names in `keep` stay as written too
    (`entities=common`: the names training saw often); names in `first` are numbered before the rest
    (`entities=common-task`: the task's own thing is `<e1>` in every prompt, its boxes and rooms next), and with
    `inside` a longer name that holds one of them is not numbered whole (its `first` name is; `inside="head"`:
    only a name that ends with one, "substance called tin" but not "tin cup"; a name of `around` wherever it stands,
    "<e1> egg" and "hatchling <e1>"); names in `beside`
    are written in the prompt followed by their placeholder, as `tagged` writes every name. `tagged=True` writes each name of the prompt
    followed by its placeholder ("a thermometer <e3>"): the model reads what a thing is and acts on it by
    its placeholder, in the valid actions and the target as without. `source` and `actions` are the abstract
    prompt and valid actions; `rewrite` applies the same
    assignment to other text (a target); `restore` maps an abstract action back to its valid action.
    """

    def __init__(
        self,
        source: str,
        valid_actions: list[str],
        numbers: bool = True,
        tagged: bool = False,
        keep: frozenset[str] = frozenset(),
        first: tuple[str, ...] = (),
        inside: bool | str = False,
        beside: frozenset[str] = frozenset(),
        around: frozenset[str] = frozenset(),
    ):
        obs = _OBS.search(source)
        # names in `first` are numbered wherever the source has them, even where no rule reads them as names
        low = source.lower()
        named = {*prompt_names(source, valid_actions), *(n for n in first if n.lower() in low)}
        around = frozenset(n.lower() for n in around)
        if inside:  # a longer name that holds a name of `first` is read around it ("a substance called <e1>"); with
            # inside="head" only where that name ends it, as an English noun's head does (a "tin cup" is a cup), but
            # for the names in `around`, read around wherever they stand ("<e1> egg", "hatchling <e1>": one organism
            # at each of its life stages)
            def held_at(n: str) -> str:
                return "$" if inside == "head" and n.lower() not in around else r"(?![\w-])"

            held = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}{held_at(n)}" for n in first) or "(?!)", re.I)
            firsts = {n.lower() for n in first}
            named = {n for n in named if n.lower() in firsts or not held.search(n)}
        # with inside="head", a longer name the thing only qualifies stays whole even where it stays a word ("tin
        # cup" kept as written is matched as itself, not as "<e1> cup")
        self._shield: set[str] = set()
        if inside == "head":
            anywhere = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in first) or "(?!)", re.I)
            self._shield = {n.lower() for n in named & keep if anywhere.search(n)}
        names = sorted((n for n in named if n not in keep or n.lower() in self._shield), key=lambda n: (-len(n), n))
        alternatives = [rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in names]
        if numbers:  # else numbers stay as written, for a model that must read them itself
            alternatives.append(rf"(?<![\w.<]){NUMBER}(?!\d)")
        self._pattern = re.compile("|".join(alternatives) or "(?!)", re.I)  # (?!): nothing to number
        self.names: dict[str, str] = {}  # lower-case name or number -> placeholder
        self._counts = {"e": 0, "n": 0}
        for name in first:  # names the caller wants numbered before all others (a task's own thing: <e1>)
            self.rewrite(name)
        if obs:  # the latest observation is numbered first
            self.rewrite(obs.group(1))
        if tagged:
            self.source = self._pattern.sub(self._tag, source)
        elif beside:  # these names keep their words, their placeholder beside them ("boil water <e1>")
            self.source = self._pattern.sub(
                lambda m: (self._tag if m.group(0).lower() in beside else self._sub)(m), source
            )
        else:
            self.source = self.rewrite(source)
        self.actions = [self.rewrite(a) for a in valid_actions]
        self._back: dict[str, str] = {}
        for a, original in zip(self.actions, valid_actions):
            self._back.setdefault(normalize(a), original)

    def _sub(self, m: re.Match) -> str:
        name = m.group(0).lower()
        if name in self._shield:
            return m.group(0)
        placeholder = self.names.get(name)
        if placeholder is None:
            kind = "n" if name[0].isdigit() else "e"
            limit = MAX_NUMBERS if kind == "n" else MAX_ENTITIES
            if self._counts[kind] >= limit:
                return m.group(0)  # out of placeholders: the surplus stays as text
            self._counts[kind] += 1
            placeholder = self.names[name] = f"<{kind}{self._counts[kind]}>"
        return placeholder

    def _tag(self, m: re.Match) -> str:
        placeholder = self._sub(m)
        return placeholder if placeholder == m.group(0) else f"{m.group(0)} {placeholder}"

    def rewrite(self, text: str) -> str:
        return self._pattern.sub(self._sub, text)

    def restore(self, abstract_action: str) -> str | None:
        """The valid action an abstract action came from (None if it names none)."""
        return self._back.get(normalize(abstract_action))

    def concrete(self, text: str) -> str:
        """Placeholders written back as the names they stand for (for the fallback's word overlap)."""
        back = {p: n for n, p in self.names.items()}
        return _PLACEHOLDER.sub(lambda m: back.get(m.group(0), m.group(0)), text)

    def in_sight(self, abstract_action: str) -> bool:
        """Whether every placeholder an abstract action names stands in the prompt's observation, inventory or
        look, as this prompt numbered them: a name the task gives (`<e1>`) is not in sight because a longer name
        holds its word ("a tin cup" is `<e2>`), though a check of the words would pass "tin"."""
        seen = _SEEN.search(self.source)
        return seen is None or all(p in seen.group(1) for p in _PLACEHOLDER.findall(abstract_action))
