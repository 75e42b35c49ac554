"""stages: an animal's life stages in order, and which of them were focused on (its command: `stages NAME`).

Knowledge from a public source, not from any game: the life cycles a school biology text teaches by kind of animal
(Wikipedia, "Biological life cycle", "Metamorphosis", "Amphibian", "Holometabolism", "Hemimetabolism"): a mammal is
born live and grows from a baby through a juvenile to an adult; a bird or a reptile hatches from an egg (a hatchling),
grows to a juvenile, then an adult; a frog or a toad is an egg, a tadpole, then an adult; a butterfly or a moth an
egg, a caterpillar (its larva), a pupa, then an adult, as a bee, a beetle or a fly is an egg, a larva, a pupa and an
adult; a dragonfly or a grasshopper an egg, a nymph, then an adult; a fish an egg, a fry, a juvenile, an adult.

Why: a stage whose name holds no word of the animal ("a tadpole" for the frog) is what a small model cloned from a
handful of animals never learns to look for, and the order of the stages is knowledge, not something a look shows.
The module answers the stages in order and remembers the ones the game said were focused on ("You focus on the
frog egg."), so that the answer also says which are still to focus on; which thing in sight to focus on, and when,
is the agent's to choose.
"""

from __future__ import annotations

import re

from bct.modules.base import Module, quote

# kind of animal -> its stages, earliest first (module docstring)
CYCLES: dict[str, tuple[str, ...]] = {
    "mammal": ("baby", "juvenile", "adult"),
    "bird": ("egg", "hatchling", "juvenile", "adult"),
    "reptile": ("egg", "hatchling", "juvenile", "adult"),
    "amphibian": ("egg", "tadpole", "adult"),
    "butterfly": ("egg", "caterpillar", "pupa", "adult"),
    "insect": ("egg", "larva", "pupa", "adult"),
    "nymph insect": ("egg", "nymph", "adult"),
    "fish": ("egg", "fry", "juvenile", "adult"),
}
# other names of a stage that a text may use for it ("a larva" of a moth, "a newborn" mammal, "a nestling" bird)
ALSO = {
    "baby": ("newborn", "infant", "calf", "cub", "pup", "foal"),
    "hatchling": ("nestling", "chick"),
    "juvenile": ("fledgling",),
    "caterpillar": ("larva",),
    "pupa": ("chrysalis", "cocoon"),
    "adult": ("imago",),
    "tadpole": ("polliwog",),
}
# common animals by kind; a name not listed is read by its last word ("giant tortoise": tortoise, "blue jay": jay)
KINDS: dict[str, tuple[str, ...]] = {
    "mammal": (
        "wolf beaver elephant dog cat mouse rat rabbit hare chipmunk squirrel deer moose bear fox horse cow pig sheep "
        "goat lion tiger leopard cheetah giraffe zebra hippopotamus rhinoceros whale dolphin seal bat hedgehog raccoon "
        "skunk otter badger monkey gorilla chimpanzee kangaroo koala panda camel donkey llama mole opossum porcupine "
        "hamster lemur sloth walrus"
    ).split(),
    "bird": (
        "jay robin sparrow crow raven owl eagle hawk falcon parrot duck goose swan chicken hen turkey penguin pigeon "
        "dove hummingbird cardinal finch woodpecker ostrich flamingo pelican seagull gull heron stork peacock "
        "bluebird blackbird starling wren magpie"
    ).split(),
    "reptile": "turtle tortoise crocodile alligator lizard snake iguana gecko chameleon python cobra viper".split(),
    "amphibian": "frog toad bullfrog".split(),
    "butterfly": "butterfly moth".split(),
    "insect": "bee wasp ant beetle ladybug ladybird fly mosquito flea".split(),
    "nymph insect": "dragonfly damselfly grasshopper cricket cockroach cicada mayfly termite locust".split(),
    "fish": "fish salmon trout goldfish shark tuna cod carp".split(),
}
KIND_OF = {animal: kind for kind, animals in KINDS.items() for animal in animals}
_TASK = re.compile(r"\blife stages of (?:the |a |an )?([a-z][a-z -]*?)(?= plant\b|[.,]|$)")
_FOCUSED = re.compile(r"\byou focus on (?:the |a |an )?([a-z][a-z -]*?)\.?$")
_NAME = re.compile(r"[a-z]+(?:[- ][a-z]+){0,3}")


def cycle(animal: str) -> tuple[str, ...]:
    """The stages of `animal`, earliest first; KeyError for an animal of no kind the module knows."""
    words = animal.lower().replace("-", " ").split()
    for name in (" ".join(words), words[-1] if words else "", words[-1].removesuffix("s") if words else ""):
        if name in KIND_OF:
            return CYCLES[KIND_OF[name]]
    raise KeyError(animal)


def stage_of(thing: str, stages: tuple[str, ...]) -> str | None:
    """Which of `stages` the name `thing` is at ("frog egg": egg, "a butterfly pupa": pupa), by a stage's word or
    another name of it; None for a name that holds none."""
    words = set(thing.lower().replace("-", " ").split())
    return next((s for s in stages if words & {s, *ALSO.get(s, ())}), None)


class Stages(Module):
    name = "stages"
    verbs = ("stages",)
    usage = (
        "stages NAME: an animal's life stages, earliest first, and which of them were focused on so far (e.g. "
        "'stages frog' says egg, tadpole, adult)."
    )

    def reset(self) -> None:
        self.asked: list[str] = []  # the animal a task names, offered as a command
        self.focused: list[str] = []  # the names the game said were focused on, in order

    def given(self, task: str) -> None:
        found = [m.group(1).strip() for m in _TASK.finditer(task.lower())]
        self.asked = [a for a in dict.fromkeys(found) if _known(a)]

    def observe(self, observation: str, look: str, inventory: str) -> None:
        said = _FOCUSED.search(" ".join(observation.lower().split()))
        if said:
            self.focused.append(said.group(1))

    def commands(self) -> list[str]:
        return [f"stages {a}" for a in self.asked]

    def run(self, action: str) -> str:
        name = action.strip().lower().removeprefix("stages").strip()
        if not name or not _NAME.fullmatch(name):
            return self.bad_usage(f"'stages' takes one animal's name, got '{quote(action)}'.")
        try:
            stages = cycle(name)
        except KeyError:
            return f"No life cycle is known for '{quote(name)}'; try the kind of animal (frog, moth, bird, bear)."
        done = [s for s in map(lambda t: stage_of(t, stages), self.focused) if s]
        left = [s for s in stages if s not in done]
        said = f"{name} life stages in order: {', '.join(stages)}."
        said += f" Focused: {', '.join(dict.fromkeys(done))}." if done else " None focused yet."
        return said + (f" Still to focus: {', '.join(left)}." if left else " Every stage focused.")


def _known(animal: str) -> bool:
    try:
        cycle(animal)
    except KeyError:
        return False
    return True
