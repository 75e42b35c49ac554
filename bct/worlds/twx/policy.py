"""The planner: a hand-written policy over the working memory's facts (agent=planner plays it, a baseline of its own).

The memory (bct/worlds/twx/modules/memory*.py) remembers and computes; it never decides. This agent decides by rules:
- Simon Says shown once: Simon's first action not yet done in order;
- Coin: take the coin where it is offered; else explore: a closed door here, then an exit here to a room
  not yet visited, else the first move towards the nearest remembered room that has one;
- CookingWorld: read the cookbook where it lies (exploring until then); take each ingredient (and a knife
  while a step still cuts) where it was seen, walking there, or search (closed containers too) for what
  was never seen; then each direction in order, at an appliance that cooks that way; prepare the meal in
  the kitchen; eat it;
- twc: ask the knowledge base about each object held, put it where it said (opening the place first)
  when that place is here and was not tried wrong, take what lies out of its place here, walk to the
  nearest room with such a place or object, explore;
- mapreader: read the map, then ask the navigator the next step to the coin's room (the box's once the
  coin is held), move as it says, take the coin, put it in the box.

It reads only what every agent reads: each step's observation, look, inventory, score and valid actions,
and the answers of the modules it calls. It keeps its own copies of the game's modules and of the working
memory, fed with what it observes through the same `ModuleStack` as the game's. Before each decision it
asks the recall forms the decision rests on, where the game offers them, so that its episodes read like
the learned agent's; `bct.worlds.twx.gold` takes the gold paths of the games that need memory from it (a teacher
may plan: the learner sees only those recall calls, their factual answers and the decisions).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Protocol

from bct.core.game import Game
from bct.modules.stack import ModuleStack, Step
from bct.worlds.twx.modules.memory import APPLIANCES, KNIFE_VERBS, TWXMemory


class View(Protocol):
    """What the planner reads: the game, its latest step, and modules that heard the episode."""

    game: Game
    last: Step | None

    def module(self, name: str): ...


@dataclass(frozen=True)
class Choice:
    action: str
    reads: tuple[str, ...] = ()  # the recall forms whose facts the choice rests on


def explore(mem: TWXMemory, search: bool, reads: tuple[str, ...]) -> Choice | None:
    """The nearest remembered room (here first) with something not yet explored: a closed container (with
    `search`), a closed door, an exit to a room not yet visited; here, that; elsewhere, the first move there."""
    reads = (*reads, "recall map")
    for room, (move, _) in mem.routes().items():
        u = mem.unexplored(room)
        todo = [f"open {c}" for c in u["containers"]] if search else []
        todo += [f"open door to {d}" for d in u["doors"]] + [f"move {d}" for d, _ in u["exits"]]
        if todo:
            return Choice(move or todo[0], reads)
    return None


def towards(mem: TWXMemory, where: Callable[[str], bool], reads: tuple[str, ...], search: bool) -> Choice | None:
    """The first move to the nearest remembered room that `where` accepts; else explore."""
    for room, (move, _) in mem.routes().items():
        if move and where(room):
            return Choice(move, reads)
    return explore(mem, search, reads)


def simon(view: View) -> Choice | None:
    sequence, k = view.module(view.game.memory_module).sequence()
    return Choice(sequence[k], ("recall sequence",)) if k < len(sequence) else None


def coin(view: View) -> Choice | None:
    if "take coin" in view.last.valid_actions:
        return Choice("take coin")
    return explore(view.module(view.game.memory_module), False, ())


def cook(view: View) -> Choice | None:
    mem, valid = view.module(view.game.memory_module), view.last.valid_actions
    steps = mem.directions()
    if not steps:
        return Choice("read cookbook") if "read cookbook" in valid else explore(mem, False, ())
    reads = ("recall recipe",)
    if mem.ground("done", None, "prepare meal"):
        return Choice("eat meal", reads)
    cuts = any(verb in KNIFE_VERBS and not done for verb, _, done in steps)
    needed = [f.args[0] for f in mem.ground("ingredient")] + (["knife"] if cuts else [])
    missing = [item for item in needed if not mem.held(item)]
    for item in missing:
        if mem.ground("seen", item, mem.here):
            return Choice(f"take {item}", reads)
    seen = {f.args[1] for item in missing for f in mem.ground("seen", item)}
    if seen:
        return towards(mem, lambda room: room in seen, reads, search=True)
    if missing:
        return explore(mem, True, reads)
    for verb, item, done in steps:
        if verb == "prepare":
            break
        if done:
            continue
        if verb in KNIFE_VERBS:
            return Choice(f"{verb} {item}", reads)
        kinds = APPLIANCES.get(verb, ())
        here = [a for a in kinds if mem.ground("seen", a, mem.here)]
        if here:
            return Choice(f"cook {item} in {here[0]}", reads)
        return towards(mem, lambda room, kinds=kinds: any(mem.ground("seen", a, room) for a in kinds), reads, True)
    if mem.here == "kitchen":
        return Choice("prepare meal", reads)
    return towards(mem, lambda room: room == "kitchen", reads, search=True)


def tidy(view: View) -> Choice | None:
    mem = view.module(view.game.memory_module)
    if mem.here is None:
        return Choice("look around")
    reads, here, name = ("recall objects",), mem.furniture(mem.here), mem.as_written
    for obj in mem.holding:
        if not mem.ground("belongs", obj):
            return Choice(f"query {name(obj)}", reads)
        for place in mem.places(obj):
            if place in here:
                if place in mem.closed.get(mem.here, set()):
                    return Choice(f"open {name(place)}", reads)
                return Choice(f"put {name(obj)} in {name(place)}", reads)
    for obj in mem.astray(mem.here):
        return Choice(f"take {name(obj)}", reads)
    for obj in mem.holding:
        wanted = set(mem.places(obj))
        if wanted:
            return towards(mem, lambda room, w=wanted: bool(w & mem.furniture(room)), reads, search=False)
    if any(mem.astray(room) for room in mem.loose):
        return towards(mem, lambda room: bool(mem.astray(room)), reads, search=False)
    return explore(mem, False, reads)


def navigate(view: View) -> Choice | None:
    mem, nav, valid = view.module(view.game.memory_module), view.module(view.game.module), view.last.valid_actions
    if (view.last.action or "").startswith("next step to ") and nav.last_path[1:]:
        return Choice(f"move {nav.exits[nav.last_path[1]]}")  # as the navigator just answered
    if "read map" in valid and not mem.ground("done", None, "read map"):
        return Choice("read map")
    for finish in ("take coin", "put coin in box"):
        if finish in valid:
            return Choice(finish)
    goals = {f.args[0]: f.args[1] for f in mem.ground("goal")}
    goal = goals.get("box" if mem.held("coin") else "coin")
    return Choice(f"next step to {goal}", ("recall task",)) if goal else None


POLICIES: dict[str, Callable[[View], Choice | None]] = {
    "simonsays": simon,
    "coin": coin,
    "cookingworld": cook,
    "twc": tidy,
    "mapreader": navigate,
}
MAX_ACTIONS = 1000  # a policy that never ends its game stops here


# what agent=planner says it plays, where asked to play a game it has no rules for
PLAYS = "simonsays-memory (the sequence shown once), coin, cookingworld, twc (every level) and mapreader"


def has_rules(game: Game) -> bool:
    """Whether the planner can play `game` (Simon Says only where the sequence is shown once)."""
    if game.rules == "simonsays":
        return game.param_values.get("memorization") == 1
    return game.rules in POLICIES


def plays(game: Game, modules: bool) -> bool:
    """Whether the gold path of `game` is the planner's: the games that need memory, played with it."""
    if not game.memory or game.rules not in ("simonsays", "coin", "cookingworld", "twc"):
        return False
    return has_rules(game) and (modules or not game.module)


def actions(view: View) -> Generator[str, Step, None]:
    """The planner's actions until its game ends: before each decision the recall forms it rests on (where
    the game offers them), then the decision. Sent each step's record; it reads `view` after each."""
    policy = POLICIES[view.game.rules]
    for _ in range(MAX_ACTIONS):
        if view.last.done:
            return
        choice = policy(view)
        if choice is None:
            return
        for form in choice.reads:
            if form in view.last.valid_actions:
                yield form
        yield choice.action


class Shadow:
    """One episode as the planner knows it: the game, the latest step it saw, and its own modules."""

    def __init__(self, game: Game, modules: list):
        self.game, self.last = game, None
        self.stack = ModuleStack(modules)  # the game's modules and the working memory, made by the agent

    def module(self, name: str):
        return self.stack.module(name)

    def feed(self, step: Step) -> None:
        if step.action is None:
            self.stack.start(step.task)
            self.stack.saw(step.observation, step.look, step.inventory, step.score)
        else:
            owner = self.stack.owner(step.action)
            if step.from_module and owner is not None:
                owner.run(step.action)  # its copy computes the same answer (and keeps what it computed)
                self.stack.answered(owner, step.action, step.observation)
            elif not step.from_module:
                self.stack.saw(step.observation, step.look, step.inventory, step.score)
        self.last = step
