"""The behavior-cloned T5 policy, with the paper's beam-search decoding or ranking of valid actions."""

from __future__ import annotations

import logging
from collections import Counter

import torch
from transformers.modeling_outputs import BaseModelOutput

from bct.agents.base import Agent, Decision, Observation, closest_valid, episode_key, writes_actions
from bct.core.errors import UserError, unknown
from bct.data.prompt import with_recent
from bct.data.representation import Representation, get_representation
from bct.seq2seq.decoding import group_beam_search, score_actions
from bct.worlds.base import Game
from bct.worlds.registry import world_of

DECODINGS = ("generate", "rank")
log = logging.getLogger(__name__)


DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}


def eval_dtype(device: str, setting: str = "auto") -> torch.dtype:
    """The weights' dtype for playing (`agent.dtype`): `auto` is bf16 on a GPU that has it (half the memory
    of 16 beams' cross-attention cache), else fp32; `bf16` and `fp32` are what they say, on any device."""
    if setting not in ("auto", *DTYPES):
        raise unknown("agent.dtype", setting, ["auto", *DTYPES])
    if setting != "auto":
        return DTYPES[setting]
    if device.startswith("cuda") and torch.cuda.is_available() and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float32


def play_device(device: str | None) -> str:
    """`agent.device`, or cuda where there is one, else cpu."""
    return device or ("cuda" if torch.cuda.is_available() else "cpu")


def dtype_name(dtype: torch.dtype) -> str:
    return next(name for name, d in DTYPES.items() if d == dtype)


UNTRIED = ("prompt", "state")


def untried_setting(value: bool | str) -> str | bool:
    """`agent.untried`: false, true (= prompt: a command already sent at this very prompt is passed over) or
    state (already sent in the same observation, look and inventory, whatever the previous action)."""
    if value is True:
        return "prompt"
    if value is False or value is None or value in UNTRIED:
        return value or False
    raise UserError(f"agent.untried={value}: choose false, true (the same prompt) or state (the same observed state)")


def untried_record(value: str | bool) -> dict:
    """What results record of `untried` (unset when off, so that older results keep their folders)."""
    return {"untried": True if value == "prompt" else value} if value else {}


class T5Agent(Agent):
    """`decoding="generate"` (the paper): diverse beam search (`beam_groups` groups, `diversity_penalty`;
    one group is plain beam search) returns `num_beams` candidates; the first valid one wins, else the
    valid action sharing most words with the top candidate, avoiding the last `fallback_skip` actions. `decoding="rank"`: every valid action is scored by its length-normalised
    log-likelihood given the prompt (see `score_actions`).

    `entities` is the representation the checkpoint was trained with (bct.data.representation; its name, or
    the one fitted to the run's data that bct.agents.t5_checkpoint.load_agent reads): with
    `placeholders` the model reads and writes `<e1>`, `<n1>`, ... and its choice maps back to the
    valid action it stands for.

    With `members` (`agent.ensemble`: checkpoints trained alike, other weights) the models play as one: each writes
    its candidates, and the pool is ordered by their log-likelihood averaged over the models (`_pool`); ranking
    averages each valid action's the same way.
    """

    name = "t5"
    batched = True
    retry_refused = skip_idle = False  # set per agent (__init__): off unless asked
    members: list = []  # an ensemble's other (model, tokenizer) pairs (__init__)

    def __init__(
        self,
        model,
        tokenizer,
        decoding: str = "generate",
        num_beams: int = 16,
        max_source_length: int = 1024,
        max_target_length: int = 64,
        fallback_skip: int = 4,
        device: str | None = None,
        model_batch: int | None = None,
        entities: str | Representation = "text",
        beam_groups: int = 16,
        diversity_penalty: float = 0.9,
        game: Game | None = None,
        modules: bool = True,
        run_name: str = "t5",
        record: dict | None = None,
        trained: dict | None = None,
        dtype: str = "auto",
        untried: bool | str = False,
        recent: int = 0,
        retry_refused: bool = False,
        skip_idle: bool = False,
        members: list | tuple = (),
    ) -> None:
        """A policy from a model in memory (bct.agents.t5_checkpoint.load_agent loads one from a bct checkpoint). `game`,
        `run_name`, `record` (the settings of its results) and `trained` matter only to an evaluation. `members`:
        more (model, tokenizer) pairs trained alike, played as one ensemble with `model` (`_pool`)."""
        if decoding not in DECODINGS:
            raise unknown("agent.decoding", decoding, DECODINGS)
        self.game, self.modules, self._run_name, self.trained = game, modules, run_name, trained
        self.device = play_device(device)
        self.dtype = eval_dtype(self.device, dtype)
        self.model = model.to(self.device, dtype=self.dtype).eval()
        self.tokenizer = tokenizer
        self.members = [(m.to(self.device, dtype=self.dtype).eval(), t) for m, t in members]
        self.decoding, self.num_beams = decoding, num_beams
        self.representation = get_representation(entities) if isinstance(entities, str) else entities
        # writing actions in a world whose parser takes them, it reads no list (its candidates go as written)
        self.reads_valid_actions = not writes_actions(game, decoding == "generate")
        self.beam_groups, self.diversity_penalty = min(beam_groups, num_beams), diversity_penalty
        if num_beams % self.beam_groups:
            raise UserError(
                f"agent.num_beams={num_beams} must be a multiple of agent.beam_groups={beam_groups} "
                f"(the original: 16 beams in 16 groups)"
            )
        self.max_source_length, self.max_target_length = max_source_length, max_target_length
        self.fallback_skip = fallback_skip
        self.recent = recent  # the episode's last actions the model reads after the task (the run's `recent`)
        self.untried = untried_setting(untried)
        self._sent: dict[tuple, Counter] = {}  # per episode: (where, command) already sent, and how often
        # a command the parser refused changed nothing: the same step's next candidates go before the model is asked
        self.retry_refused = bool(retry_refused)
        self._left: dict[tuple, list[str]] = {}  # per episode: the last model call's candidates after the one sent
        # a command the game answered as changing nothing (`World.idle`: "The drawer is already open.") is passed over
        # while the look and inventory it was sent in are the same: sent again there, it changes nothing again
        self.skip_idle = bool(skip_idle)
        self._idle: dict[tuple, set[tuple[str, str, str]]] = {}  # per episode: (look, inventory, command)
        # Episodes per model call. A GPU wants them all at once; on a CPU, beam search over a big batch
        # moves more cache memory than it saves (measured: 32 at once ran 3.5x slower than one by one).
        self.model_batch = model_batch or (64 if self.device.startswith("cuda") else 4)
        self.config = {
            "decoding": decoding,
            "num_beams": num_beams,
            "beam_groups": beam_groups,
            "diversity_penalty": diversity_penalty,
            "fallback_skip": fallback_skip,
            "model_batch": model_batch,
            "device": device,
            "dtype": dtype_name(self.dtype),
            **untried_record(self.untried),
            **({"retry_refused": True} if self.retry_refused else {}),
            **({"skip_idle": True} if self.skip_idle else {}),
        }
        self._record = record or {"agent_config": self.config}

    @property
    def run_name(self) -> str:
        return self._run_name

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self._sent[episode_key(game, fold, seed)] = Counter()
        self._left.pop(episode_key(game, fold, seed), None)
        if self.skip_idle:
            self._idle[episode_key(game, fold, seed)] = set()

    def played_with(self) -> dict:
        return {"device": self.device, "dtype": dtype_name(self.dtype)}

    def settings(self) -> dict:
        return self._record

    def _encode(self, sources: list[str], tokenizer=None):
        return (tokenizer or self.tokenizer)(
            sources, padding=True, truncation=True, max_length=self.max_source_length, return_tensors="pt"
        ).to(self.device)

    def model_inputs(self, batch: list[Observation]):
        """What the model reads for each episode, and the way back to valid actions (bct.data.representation)."""
        return [
            self.representation.map(with_recent(ob.prompt, ob.actions, self.recent), ob.step.valid_actions)
            for ob in batch
        ]

    @torch.inference_mode()
    def act(self, batch: list[Observation]) -> list[Decision]:
        """Model calls over groups of `model_batch` episodes with prompts of similar length (little padding)."""
        for ob in batch:
            self._note_idle(ob)
        decisions: list[Decision | None] = [self._retry(ob) for ob in batch]
        asked = [i for i, d in enumerate(decisions) if d is None]  # the episodes the model decides for
        maps = dict(zip(asked, self.model_inputs([batch[i] for i in asked])))
        order = sorted(asked, key=lambda i: len(maps[i].source))
        decide = self._rank if self.decoding == "rank" else self._generate
        start = 0
        while start < len(order):
            group = order[start : start + self.model_batch]
            try:
                decided = decide([batch[i] for i in group], [maps[i] for i in group])
            except torch.OutOfMemoryError:
                if self.model_batch == 1:
                    raise
                self.model_batch = max(1, self.model_batch // 2)  # and keep the smaller size from now on
                log.warning("out of memory: model_batch halved to %d", self.model_batch)
                if self.device.startswith("cuda"):
                    torch.cuda.empty_cache()
                continue
            for i, d in zip(group, decided):
                if maps[i].source != batch[i].prompt:  # what the model read, where the representation rewrote it
                    d.info["model_input"] = maps[i].source
                decisions[i] = d
            start += len(group)
        return decisions

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

    def _generate(self, batch: list[Observation], maps) -> list[Decision]:
        sources = [m.source for m in maps]
        read = self._read(self.model, self.tokenizer, sources)
        pools = [list(dict.fromkeys(c)) for c in self._beams(self.model, self.tokenizer, read)]
        scores = self._pool(sources, pools, read) if self.members else None
        decisions = []
        for i, (ob, m) in enumerate(zip(batch, maps)):
            cands = pools[i]
            action, fallback = self._choose(cands, m, ob)
            info = {"fallback": fallback, **({"scores": [round(x, 4) for x in scores[i]]} if scores else {})}
            # candidates as a reader knows them: placeholders written back as names
            decisions.append(Decision(action, [m.restore(c) or m.concrete(c) for c in cands], info))
        return decisions

    def _read(self, model, tokenizer, sources: list[str]) -> tuple:
        """The sources as one model reads them: its tokenizer's encoding and its encoder's output, computed once a
        step and shared by its beam search and its scoring (an ensemble's `_pool`)."""
        enc = self._encode(sources, tokenizer)
        return enc, model.get_encoder()(**enc).last_hidden_state

    def _beams(self, model, tokenizer, read: tuple) -> list[list[str]]:
        """Each source's `num_beams` written candidates from one model, best first (`read`: `_read`'s)."""
        enc, hidden = read
        if self.beam_groups > 1:  # the original's diverse beam search
            hyps = group_beam_search(
                model,
                enc.input_ids,
                enc.attention_mask,
                self.num_beams,
                self.beam_groups,
                self.diversity_penalty,
                self.max_target_length,
                hidden=hidden,
            )
            out = [tokens for per_input in hyps for tokens, _ in per_input]
        else:
            out = model.generate(
                encoder_outputs=BaseModelOutput(last_hidden_state=hidden),
                attention_mask=enc.attention_mask,
                num_beams=self.num_beams,
                num_return_sequences=self.num_beams,
                max_new_tokens=self.max_target_length,
                do_sample=False,
            )
        texts = [t.strip() for t in tokenizer.batch_decode(out, skip_special_tokens=True)]
        n = len(enc.input_ids)
        return [texts[i * self.num_beams : (i + 1) * self.num_beams] for i in range(n)]

    def _pool(self, sources: list[str], pools: list[list[str]], read: tuple) -> list[list[float]]:
        """An ensemble's step (`members`): every member's candidates join the model's (`pools`, in place), and each
        pool is ordered by the candidates' length-normalised log-likelihood averaged over all the models (each
        reading the source with its own tokenizer, once: `_read`; `read` is the model's); returned: those averages,
        best first."""
        reads = [read]
        for model, tokenizer in self.members:
            reads.append(self._read(model, tokenizer, sources))
            for pool, more in zip(pools, self._beams(model, tokenizer, reads[-1])):
                pool.extend(c for c in more if c not in pool)
        means = []
        for pool, mean in zip(pools, self._mean_likelihood(sources, pools, reads)):
            ranked = sorted(zip(mean, pool), key=lambda x: -x[0])  # stable: ties keep the beams' order
            pool[:] = [c for _, c in ranked]
            means.append([x for x, _ in ranked])
        return means

    def _mean_likelihood(self, sources: list[str], actions: list[list[str]], reads=None) -> list[list[float]]:
        """Each source's actions' length-normalised log-likelihood, averaged over the model and its `members`
        (`reads`: each model's `_read` of the sources, where the caller has them)."""
        models = [(self.model, self.tokenizer), *self.members]
        reads = reads or [self._read(model, tokenizer, sources) for model, tokenizer in models]
        per_model = [
            score_actions(model, tokenizer, hidden, enc.attention_mask, actions, self.max_target_length)
            for (model, tokenizer), (enc, hidden) in zip(models, reads)
        ]
        return [[sum(x) / len(models) for x in zip(*(p[k] for p in per_model))] for k in range(len(sources))]

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
        step = ob.step
        text = " ".join((step.observation, step.look, step.inventory))  # not the task: it names what is elsewhere
        known = [c for c, a in zip(written, cands) if c.strip() and world.knows(c, text) and m.in_sight(a)]
        if self.skip_idle:  # where every candidate was answered idle here, the model's best goes as before
            live = self._not_idle(ob, written)
            known, written = [c for c in known if c in live], live or written
        known = known or written[:1]  # "": no command
        if self.untried:
            sent = self._sent.get(ob.episode, Counter())
            where = self._where(ob)

            # a decisive command goes once an episode, wherever (no gold path focuses on the same thing twice; a
            # Markov prompt back where it focused first reads as if it never had)
            once = {c for _, c in sent if c.startswith(world.decisive)}

            def unsent(c: str) -> bool:
                times, verb = sent[where, c], c.split()[:1]
                waiting = bool(verb) and verb[0] in world.waits
                return c not in once and (not times or (waiting and times < world.patience))

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

    def _remember(self, ob: Observation, action: str) -> None:
        """With `untried`, a command sent at this step is remembered where it was sent."""
        if self.untried:
            self._sent.setdefault(ob.episode, Counter())[self._where(ob), action] += 1

    def _where(self, ob: Observation) -> tuple:
        """Where a command is remembered as sent: at this prompt, or in this observed state (`untried=state`)."""
        if self.untried == "state":
            return (ob.step.observation, ob.step.look, ob.step.inventory)
        return (ob.prompt,)

    def _rank(self, batch: list[Observation], maps) -> list[Decision]:
        means = self._mean_likelihood([m.source for m in maps], [m.actions for m in maps])  # an ensemble's mean
        decisions = []
        for ob, m, s in zip(batch, maps, means):
            ranked = sorted(zip(s, m.actions, ob.step.valid_actions), key=lambda x: -x[0])
            decisions.append(
                Decision(
                    ranked[0][2],
                    [a for _, _, a in ranked[: self.num_beams]],  # as played (the model's input: model_input)
                    {"scores": [round(x, 4) for x, _, _ in ranked[: self.num_beams]]},
                )
            )
        return decisions

    def score_actions(self, hidden: torch.Tensor, mask: torch.Tensor, actions: list[list[str]]) -> list[list[float]]:
        """Length-normalised log-likelihood of each episode's actions (bct.seq2seq.decoding.score_actions)."""
        return score_actions(self.model, self.tokenizer, hidden, mask, actions, self.max_target_length)
