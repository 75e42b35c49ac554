"""How a T5 agent's written candidates become the command it sends (`T5Agent`'s choice, a mixin): the best that
names only things in sight, passing over what this episode already sent at the same prompt (`untried`) and what the
game answered as changing nothing in the same look and inventory (`skip_idle`), and the same model call's next
candidate where the parser refused one (`retry_refused`); a decisive command counted once a life of the episode
(`decisive_per_life`), a question the game asked answered first (`answer_questions`), and no decisive command but the
model's best (`decisive_best_only`). The model's decoding is bct/agents/t5.py's."""

from __future__ import annotations

import re
from collections import Counter

from bct.agents.base import Decision, Observation, closest_valid, episode_key
from bct.agents.settings import T5Settings, untried_setting
from bct.core.game import Game
from bct.worlds.registry import world_of


class WrittenChoice:
    """The command chosen of a step's candidates (module docstring); `T5Agent` sets it up with `_start_choosing` (and
    `fallback_skip`, for a world whose list of valid actions judges a command)."""

    retry_refused = skip_idle = False  # set per agent (`_start_choosing`): off unless asked
    decisive_per_life = answer_questions = decisive_best_only = False

    def _start_choosing(self, settings: T5Settings) -> None:
        """The choice's settings and its per-episode memory (empty: no episode started)."""
        self.untried = untried_setting(settings.untried)
        self._sent: dict[tuple, Counter] = {}  # per episode: (where, command) already sent, and how often
        # a command the parser refused changed nothing: the same step's next candidates go before the model is asked
        self.retry_refused = settings.retry_refused
        self._left: dict[tuple, list[str]] = {}  # per episode: the last model call's candidates after the one sent
        # a command the game answered as changing nothing (`World.idle`: "The drawer is already open.") is passed over
        # while the look and inventory it was sent in are the same: sent again there, it changes nothing again
        self.skip_idle = settings.skip_idle
        self._idle: dict[tuple, set[tuple[str, str, str]]] = {}  # per episode: (look, inventory, command)
        # TALES's loop restarts a lost game inside the budget: a focus made before the loss is undone, and one that
        # counted for the whole episode kept the agent from making it again (it looked around to the budget's end)
        self.decisive_per_life = settings.decisive_per_life
        self._made: dict[tuple, set[str]] = {}  # per episode: the decisive commands the game took in this life
        self._asked: dict[tuple, str | None] = {}  # per episode: a decisive command the game answered with a question
        self.answer_questions = settings.answer_questions
        self.decisive_best_only = settings.decisive_best_only

    def _start_episode(self, game: Game, fold: str, seed: int) -> None:
        """An episode starts: nothing of it sent, left or answered idle yet."""
        self._sent[episode_key(game, fold, seed)] = Counter()
        self._left.pop(episode_key(game, fold, seed), None)
        if self.skip_idle:
            self._idle[episode_key(game, fold, seed)] = set()
        if self.decisive_per_life:
            self._made.pop(episode_key(game, fold, seed), None)
            self._asked.pop(episode_key(game, fold, seed), None)

    def _note_made(self, ob: Observation) -> None:
        """With `decisive_per_life`, the decisive commands the game took in this life of the episode. A life begins at
        the episode's first step and again where TALES's loop restarted a lost game (the record of actions is empty
        then). A command the parser refused, or answered with a question (`World.asks`), was not made; one so asked
        is made by the number that answers it."""
        if not self.decisive_per_life:
            return
        world, key = world_of(ob.game), ob.episode
        if not ob.actions:
            self._made[key], self._asked[key] = set(), None
            return
        sent, answer = ob.actions[-1], ob.step.observation
        asked, self._asked[key] = self._asked.get(key), None
        made = self._made.setdefault(key, set())
        if asks(world, answer):
            self._asked[key] = sent if sent.startswith(world.decisive) else None
        elif not answer.startswith(world.refusals):
            if sent.startswith(world.decisive):
                made.add(sent)
            elif asked and sent.isdigit():
                made.add(asked)

    def _note_idle(self, ob: Observation) -> None:
        """With `skip_idle`, the command the game just answered as changing nothing, with the look and inventory it
        was sent in (an idle answer leaves them as they were)."""
        if not self.skip_idle:
            return
        step = ob.step
        if step.action and world_of(ob.game).idle(step):
            self._idle.setdefault(ob.episode, set()).add((step.look, step.inventory, step.action))

    def _not_idle(self, ob: Observation, commands: list[str]) -> list[str]:
        """`commands` less those answered idle in this look and inventory (`_note_idle`)."""
        idle = self._idle.get(ob.episode, set())
        return [c for c in commands if (ob.step.look, ob.step.inventory, c) not in idle]

    def _retry(self, ob: Observation) -> Decision | None:
        """With `retry_refused`, where the game refused the command just sent (`World.refusals`: its parser took
        nothing, the state is the one the model last read), that model call's next candidate, without a new call:
        asked again, the model reads the refusal as its observation and mostly wanders off (chemistry-mix's "pick
        up cup containing recipe titled ...", refused, then "open door to outside" with "pick up recipe" its third
        candidate). None where the model decides."""
        if not self.retry_refused:
            return None
        left, refusals = self._left.pop(ob.episode, []), world_of(ob.game).refusals
        if not (left and refusals and ob.step.observation.startswith(refusals)):
            return None
        if self.skip_idle:
            left = self._not_idle(ob, left)
            if not left:
                return None
        action, rest = left[0], left[1:]
        self._left[ob.episode] = rest
        self._remember(ob, action)
        return Decision(action, [action, *rest], {"fallback": False, "retried": True})

    def _choose(self, cands: list[str], m, ob: Observation) -> tuple[str, bool]:
        """The command sent for a step's written candidates (best first), and whether it is a fallback. Where the
        world's parser, not its list, judges a command (`World.free_actions`: ScienceWorld) `_write`'s choice, a
        module's command ranked as any other: its list holds only those, and taken first whenever the beams held
        one, a module asked again and again at one prompt until the episode's repeat limit (chemistry-mix's
        `notes`, 20 times) while the model's best was a game command. Elsewhere its best valid action, else the
        valid action closest to its best (avoiding the latest `fallback_skip`)."""
        world = world_of(ob.game)
        if cands and world.free_actions:
            action, queue = self._write(cands, m, ob, world)
            if self.retry_refused:
                self._left[ob.episode] = queue
            self._remember(ob, action)
            return action, False
        action = next((a for a in map(m.restore, cands) if a is not None), None)
        if action is not None:
            return action, False
        recent = ob.actions[-self.fallback_skip :] if self.fallback_skip else []
        return closest_valid(m.concrete(cands[0]) if cands else "", ob.step.valid_actions, recent), True

    def _write(self, cands: list[str], m, ob: Observation, world) -> tuple[str, list[str]]:
        """The command an agent that writes its actions sends: its best candidate that names only things the
        step shows (observation, look, inventory; `World.knows`: no "focus on dove" where no dove is
        in sight; and by the prompt's own numbering, `in_sight`: no "focus on <e1>" where only a tin cup holds the
        word), else its best. The prompt's previous action is not asked: a wrong name written once would
        count as seen. With `untried`, a command this episode already sent at this very prompt is passed
        over for its next such candidate (the same prompt and command lead to the same place again: a loop), and
        where every such candidate was sent, for its best unsent one of any kind but a decisive one (`World.decisive`,
        itself sent once an episode; where a decisive one already sent is all it wrote, the world's `neutral` command);
        with `untried=state`, one already sent where the step's observation, look and inventory were the same
        (whatever the previous action: "the door is now open" and "already open" close one loop). A wait
        (`World.waits`: time passes in the game while the prompt stays) is a loop only once sent at the same
        prompt `World.patience` times (the most its gold paths wait there). With `skip_idle`, a command the game
        answered as changing nothing (`World.idle`) is no candidate while the look and inventory are those it was sent
        in. Returned with the candidates it would send next, in order (`retry_refused`: where the parser refuses this
        one)."""
        written = [m.concrete(c) for c in cands]
        if world.knows is None:
            return written[0], written[1:]
        known, written = self._options(cands, written, m, ob, world)
        if self.untried:
            unsent, once = self._unsent(ob, world)
            fresh = [c for c in known if unsent(c)]
            if not fresh:  # every candidate the check knows was sent here: a loop. An unsent one it does not know
                # breaks it (the game says it knows no such thing, and the prompt changes); never a decisive one
                fresh = [c for c in written if c.strip() and unsent(c) and not c.startswith(world.decisive)]
            again = [c for c in known if c not in once]
            if not (fresh or again) and world.neutral:  # all it wrote is a focus it made: a second one ends the task
                return world.neutral, []
            pool = fresh or again or known
            return pool[0], pool[1:]
        return known[0], known[1:]

    def _options(self, cands: list[str], written: list[str], m, ob: Observation, world) -> tuple[list[str], list[str]]:
        """`_write`'s candidates before `untried`: those in sight (never empty: the model's best where none is), and
        the written ones less those answered idle here (`skip_idle`)."""
        step = ob.step
        known = self._in_sight(cands, written, m, ob, world)
        if self.decisive_best_only and written[0].startswith(world.decisive) and written[0] not in known:
            # its best was a decisive command naming what is not in sight: a lower-ranked one is a guess the game does
            # not forgive (asked for a moth egg it did not see, it focused on the crocodile it saw)
            known = [c for c in known if not c.startswith(world.decisive)] or [world.neutral or written[0]]
        if self.answer_questions and asks(world, step.observation):
            # the game asked which thing was meant: a candidate answering it goes first, else the question stands
            # and a command sent instead is answered by the same question
            known = sorted(known, key=lambda c: not c.isdigit())
        if self.skip_idle:  # where every candidate was answered idle here, the model's best goes as before
            live = self._not_idle(ob, written)
            known, written = [c for c in known if c in live], live or written
        return known or written[:1], written  # "": no command

    def _in_sight(self, cands: list[str], written: list[str], m, ob: Observation, world) -> list[str]:
        """The written candidates (`cands` as the model wrote them) that name only what the step shows."""
        step = ob.step
        text = " ".join((step.observation, step.look, step.inventory))  # not the task: it names what is elsewhere
        return [c for c, a in zip(written, cands) if c.strip() and world.knows(c, text) and m.in_sight(a)]

    def _unsent(self, ob: Observation, world) -> tuple:
        """With `untried`: whether a command is still to be tried at this step (not sent here, a wait fewer than
        `World.patience` times, not a decisive command already made), and those decisive ones made."""
        sent = self._sent.get(ob.episode, Counter())
        where = self._where(ob)
        # a decisive command goes once an episode, wherever (no gold path focuses on the same thing twice; a
        # Markov prompt back where it focused first reads as if it never had)
        once = (
            self._made.get(ob.episode, set())
            if self.decisive_per_life
            else {c for _, c in sent if c.startswith(world.decisive)}
        )

        def unsent(c: str) -> bool:
            times, verb = sent[where, c], c.split()[:1]
            waiting = bool(verb) and verb[0] in world.waits
            return c not in once and (not times or (waiting and times < world.patience))

        return unsent, once

    def _spent(self, cands: list[str], m, ob: Observation, loop: int = 2) -> bool:
        """With `untried`, whether the command the choice would send was sent at this very step `loop` times already,
        every candidate in sight tried here: a loop, not a second look (`widen` asks for more). Once is often right:
        the recipe read again, the plane looked at again after a wait."""
        world = world_of(ob.game)
        if not (self.untried and cands and world.free_actions and world.knows is not None):
            return False
        # the choice sends an untried command in sight whenever there is one: what it sends here was tried, or not
        action, unsent = self._write(cands, m, ob, world)[0], self._unsent(ob, world)[0]
        return not unsent(action) and self._sent.get(ob.episode, Counter())[self._where(ob), action] >= loop

    def _remember(self, ob: Observation, action: str) -> None:
        """With `untried`, a command sent at this step is remembered where it was sent."""
        if self.untried:
            self._sent.setdefault(ob.episode, Counter())[self._where(ob), action] += 1

    def _where(self, ob: Observation) -> tuple:
        """Where a command is remembered as sent: at this prompt, or in this observed state (`untried=state`)."""
        if self.untried == "state":
            return (ob.step.observation, ob.step.look, ob.step.inventory)
        return (ob.prompt,)


def asks(world, answer: str) -> bool:
    """Whether the game's answer is a question its parser waits to have answered with a number (`World.asks`)."""
    return bool(world.asks) and re.match(world.asks, answer) is not None
