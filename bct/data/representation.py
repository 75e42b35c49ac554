"""What a model reads of a prompt: one object per representation (`entities=text|placeholders|names|tagged|common|common-task`).

A representation owns its name, the tokens it adds to a tokenizer (scratch and hub alike), the
rule it numbers prompts by (recorded in each checkpoint and checked when one is loaded) and the
mapping from a packed prompt and its valid actions to what the model reads and back. Training data
(`bct.data.prompt.training_pair`) and evaluation (`bct.agents.t5`) both go through `map`. Adding a
representation is one class here and one entry in REPRESENTATIONS.
"""

from __future__ import annotations

from collections import defaultdict

from bct.core.errors import UserError, unknown
from bct.data.entities import ENTITY_TOKENS, PLACEHOLDERS, EntityMap, prompt_names
from bct.worlds import registry


class TextMap:
    """Names stay as written (the same interface as bct.data.entities.EntityMap)."""

    def __init__(self, source: str, valid_actions: list[str]):
        self.source, self.actions, self.names = source, list(valid_actions), {}

    def rewrite(self, text: str) -> str:
        return text

    def restore(self, action: str) -> str | None:
        return action if action in self.actions else None

    def concrete(self, text: str) -> str:
        return text

    def in_sight(self, action: str) -> bool:
        return True


class Representation:
    name = ""
    tokens: tuple[str, ...] = ()  # single tokens the tokenizer must have (and the model embeddings for)
    rule: int | None = None  # how prompts are numbered; a checkpoint reads only prompts made by its rule
    older_rules: tuple[int, ...] = ()  # rules before `rule` it still numbers by, for checkpoints trained on them
    mapping = TextMap

    def map(self, source: str, valid_actions: list[str]):
        """The model's view of one packed prompt: `.source`, `.actions`, `.rewrite(text)`, `.restore(action)`."""
        return self.mapping(source, valid_actions)

    def add_tokens(self, tokenizer, model=None) -> None:
        """Give a tokenizer this representation's tokens (and a model embeddings for the new ones)."""
        new = [t for t in self.tokens if t not in tokenizer.get_vocab()]
        if new:
            tokenizer.add_tokens(new)  # ordinary added tokens (not special), so that decoding keeps them
            if model is not None:
                model.resize_token_embeddings(len(tokenizer))

    def at_rule(self, rule: int | None) -> Representation:
        """This representation numbering by `rule` (None: its latest), for a training that measures a rule against
        another; only a rule it still numbers by."""
        if rule is None or rule == self.rule:
            return self
        raise UserError(
            f"entity_rule={rule}: entities={self.name} numbers by "
            + (f"rule {self.rule} alone" if self.rule is not None else "no rule")
            + "; leave entity_rule unset"
        )

    def record(self) -> dict:
        """What a checkpoint's settings say of its representation."""
        return {"entities": self.name, **({"entity_rule": self.rule} if self.rule is not None else {})}

    def fit(self, parts) -> Representation:
        """This representation fitted to a run's training rows (datasets with game, seed, source and
        valid_actions; one per game); most have nothing to learn from them."""
        return self

    def state(self) -> dict:
        """What a checkpoint's run record keeps of what `fit` learned (read back by `from_run`)."""
        return {}

    def from_run(self, run: dict, checkpoint) -> Representation:
        return self


class Text(Representation):
    """The paper's: names as written."""

    name = "text"


class Placeholders(Representation):
    """Names and numbers as `<e1>`, `<n1>`, ... (bct.data.entities). Rules: 1 numbered from the task on;
    2 the latest observation first; 3 as 2, with the first room of a map read as the room alone (rule 2
    took "map reads: The X" for one name); 4 as 3, with a whole action that the latest observation quotes
    as one entity; 5 (`common-task`) as 4, with the task's own thing numbered first; 6 (`common-task`) as 5,
    with the task's boxes and rooms after it, all of them numbered wherever the prompt has them."""

    name = "placeholders"
    tokens = tuple(PLACEHOLDERS)
    rule = 4
    mapping = EntityMap


class Names(Placeholders):
    """Names as `<e1>`, ..., numbers as written: what a model needs to solve a game without modules
    (divide 22 by 11, compare 25g with 3kg) while it still cannot be lost on a name it never saw.
    The scratch presets' default for `modules=false`."""

    name = "names"
    tokens = tuple(ENTITY_TOKENS)

    def map(self, source: str, valid_actions: list[str]):
        return EntityMap(source, valid_actions, numbers=False)


class Tagged(Names):
    """Names as written, each followed by its placeholder in the prompt ("a thermometer <e3>"), numbers as
    written; actions name things by placeholder, as with `names`. For worlds whose things keep their names
    from variation to variation (ScienceWorld's thermometer, stove, foundry) but whose tests bring names
    training never shows (boil lead): the model learns what a thermometer is called and where it stands,
    and still writes a name it cannot spell by its placeholder."""

    name = "tagged"

    def map(self, source: str, valid_actions: list[str]):
        return EntityMap(source, valid_actions, numbers=False, tagged=True)


class Common(Names):
    """Names the training data shows often, in many games, as written; every other name as `<eK>`, numbers as
    written. For worlds whose furniture keeps its name from variation to variation (ScienceWorld's ten rooms,
    its stove, sink and thermometer) while each variation brings things of its own (boil *lead*, the animals
    outside): the model reads and writes "go to kitchen" and "pick up thermometer" as words, and a thing it may
    never have seen by its placeholder ("focus on <e1>"). Which names are common is learned from the run's
    training rows (`fit`): a name in at least MIN_SHARE of the run's episodes (2 at least) and in episodes of at
    least MIN_GAMES games (all of a run's games where it has fewer); ScienceWorld's 30 tasks x 20 variations
    keep about 300 names, its rooms, doors, furniture and tools among them. The list is kept in the
    checkpoint's run record, and evaluation maps by it."""

    name = "common"
    MIN_SHARE = 0.02
    MIN_GAMES = 3

    def __init__(self, known: frozenset[str] = frozenset()):
        self.known = frozenset(known)

    def map(self, source: str, valid_actions: list[str]):
        return EntityMap(source, valid_actions, numbers=False, keep=self.known)

    def fit(self, parts) -> Common:
        parts = list(parts)
        episodes, games = defaultdict(set), defaultdict(set)
        for part in parts:
            for game, seed, source, actions in zip(part["game"], part["seed"], part["source"], part["valid_actions"]):
                for name in prompt_names(source, actions):
                    episodes[name].add((game, seed))
                    games[name].add(game)
        played = len({e for seen in episodes.values() for e in seen})
        fewest, least = max(2, self.MIN_SHARE * played), min(self.MIN_GAMES, len(parts))
        return self.knowing(n for n, e in episodes.items() if len(e) >= fewest and len(games[n]) >= least)

    def knowing(self, known) -> Common:
        """The same representation with these common names."""
        return type(self)(known)

    def state(self) -> dict:
        return {"common_names": sorted(self.known)}

    def from_run(self, run: dict, checkpoint) -> Common:
        if "common_names" not in run:
            raise UserError(
                f"checkpoint {checkpoint} was trained on entities=common but keeps no common_names; train it again"
            )
        return type(self)(run["common_names"])


class CommonTask(Common):
    """As `common`, with what a task description names that its variations change (`World.task_things`: the
    thing it is about, test-conductivity's sodium chloride, boil's water, power-component's light bulb or motor;
    then the boxes and rooms it names) numbered even where they are common names, and numbered first: the
    task's own thing is `<e1>` in every prompt of every variation, where it stands in sight or not, and "the
    room the task names" or "the box for a conductor" is one placeholder, so "focus on <e1>", "go to <e2>"
    and "move <e1> to <e3>" read the same whichever room and box a variation draws."""

    name = "common-task"
    # 4: the task's thing numbered where the latest observation put it; 5: the task's thing first, where a rule
    # read it as a name in the prompt (checkpoints before this rule); 6: the boxes and rooms after it; 7: what a
    # task asks to create is its thing too ("create <e1>", and a mix that produced it "produce <e1>"; under 6 a
    # paint the training data showed often stayed a word, and an agent answered the word, not the task); 8: a
    # longer name that holds the task's thing is read around it ("a substance called <e1>": under 7 boil lead's
    # "substance called lead", never in training, was numbered whole, and the lead in sight was not <e1>); 9: as 8,
    # with the task's own thing (not its boxes and rooms) written beside its placeholder where its name is a
    # common one ("boil water <e1>"):
    # under 8 boil water and boil orange juice read alike in the kitchen, and only water comes from the sink;
    # 10: as 9, a longer name read around the task's thing only where it ends with it ("substance called <e1>"),
    # not where the thing only qualifies it: under 9 boil tin's kitchen showed "a <e1> cup", and the agent focused
    # on tin there; 11: as 10, with what a task asks to create written beside its placeholder common or not ("create
    # violet-red paint <e1>"): the paint's name is its recipe, and under 10 a tertiary paint read "create <e1>" alone,
    # so no agent could tell which two paints to mix (0.10); 12: as 11, with what a text read in the prompt names
    # that the task needs (`World.read_things`: chemistry-mix's recipe's ingredients) numbered after the task's
    # things, common or not, their words beside ("mix sugar <e2>, water <e3>"): under 11 the train recipes' common
    # ingredients stayed words, and an agent reading a test recipe fetched a train product's ingredient (soap for
    # sugar water); 13: as 12, with the organism a life-stage task follows (`World.stage_things`) numbered first
    # and read inside any longer name ("<e1> egg", "hatchling <e1>", "<e1> tree in the seedling stage"): under 12
    # each stage was a name of its own, "hatchling giant tortoise" one <eK> among the hatchlings of five animals,
    # and the agent focused on a caterpillar after the tortoise's egg; 14: as 13, with the two inclined planes a task
    # compares numbered as its things, in the order it names them ("move block to <e1>", "focus on <e2>"): under 13
    # a plane was written by its letter or surface ("inclined plane with a unknown material h surface"), and the agent
    # wrote letters of train worlds ("material f") for planes it did not have; 15: as 14, with the fruit a growing
    # task asks for followed as a life stage's organism ("<e1> seed", "grown <e1>"): under 14 a fruit every agent
    # carries ("an orange") stayed a word while a rarer one was numbered, and in 3 of 4 "grow a orange" episodes the
    # agent wrote the seed placeholder of the other fruits, which that prompt never showed; 16: as 15, with the plant a
    # genetics task crosses followed so too ("a spherical <e1> seed", "<e1> plant in the adult stage"): under 15 the
    # unknown plant's train letters (B, E) stayed words, and an agent trained on them alone wrote "unknown B seed" in a
    # test world of "unknown D" plants, refused, until its repeat limit; 17: as 16, with the value of the trait a
    # genetics task asks of numbered after its plant and read inside any longer name, its word beside ("whether red
    # <e2> flower color", "a wilting large red <e2> flower", "a round <e2> blue <e1> seed"): under 16 a flower was one
    # placeholder ("a <e7>"), and an agent that had run the cross chose its box at chance; test variations ask of
    # values no train one has (medium flower size, red flower color), and the known plant's answer is the word's
    rule = 17
    older_rules = (6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)

    def __init__(self, known: frozenset[str] = frozenset(), rule: int | None = None):
        super().__init__(known)
        self.rule = rule or type(self).rule

    def knowing(self, known) -> CommonTask:
        return type(self)(known, self.rule)

    def at_rule(self, rule: int | None) -> CommonTask:
        if rule is None or rule == self.rule:
            return self
        if rule not in (type(self).rule, *self.older_rules):
            rules = ", ".join(map(str, (*self.older_rules, type(self).rule)))
            raise UserError(f"entity_rule={rule}: entities={self.name} numbers by rules {rules}; choose one of them")
        return type(self)(self.known, rule)

    def map(self, source: str, valid_actions: list[str]):
        task = source.partition(" </s> ")[0]
        staged = (
            tuple(registry.stage_things(task, grown=self.rule >= 15, crossed=self.rule >= 16, trait=self.rule >= 17))
            if self.rule >= 13
            else ()
        )
        # the trait's value keeps its word beside its placeholder: the known plant's answer is Mendel's, by the word
        traits = set(staged).difference(registry.stage_things(task, trait=False)) if self.rule >= 17 else set()
        things = tuple(registry.task_things(task, made=self.rule >= 7, compared=self.rule >= 14))
        unmade = registry.task_things(task, made=False, compared=self.rule >= 14) if self.rule >= 11 else things
        made = set(things).difference(unmade)
        own = staged + things
        read = tuple(n for n in registry.read_things(task, source) if n not in own) if self.rule >= 12 else ()
        beside = (
            (frozenset(n.lower() for n in own[:1] if n in self.known or n in made) if self.rule >= 9 else frozenset())
            | frozenset(read)
            | frozenset(traits)
        )
        own += read
        keep = self.known.difference(own)
        return EntityMap(
            source,
            valid_actions,
            numbers=False,
            keep=keep,
            first=own,
            inside="head" if self.rule >= 10 else self.rule >= 8,
            beside=beside,
            around=frozenset(staged),
        )

    def from_run(self, run: dict, checkpoint) -> CommonTask:
        return type(self)(super().from_run(run, checkpoint).known, run["settings"].get("entity_rule"))


REPRESENTATIONS: dict[str, Representation] = {
    r.name: r for r in (Text(), Placeholders(), Names(), Tagged(), Common(), CommonTask())
}


def get_representation(name: str, rule: int | None = None) -> Representation:
    """The representation `name` (entities=...), numbering by `rule` where given (entity_rule=...; None: its latest)."""
    if name not in REPRESENTATIONS:
        raise unknown("entities", name, REPRESENTATIONS)
    return REPRESENTATIONS[name].at_rule(rule)


def of_checkpoint(run: dict, checkpoint) -> Representation:
    """The representation a checkpoint (its run record) was trained with, as fitted to its training data; one
    numbered by a rule this bct no longer numbers by is refused."""
    settings = run["settings"]
    rep = get_representation(settings.get("entities", "text"))
    trained_rule = settings.get("entity_rule", 1) if rep.rule is not None else None
    if trained_rule != rep.rule and trained_rule not in rep.older_rules:
        raise UserError(
            f"checkpoint {checkpoint} was trained on {rep.name} numbered by an older rule "
            f"({trained_rule}; this bct numbers them by rule {rep.rule}, bct/data/representation.py) "
            f"and would read its prompts wrongly; train it again"
        )
    return rep.from_run(run, checkpoint)
