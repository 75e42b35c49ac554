"""The behavior-cloned T5 policy, with the paper's beam-search decoding or ranking of valid actions."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import torch
from transformers.modeling_outputs import BaseModelOutput

from bct.agents.base import Agent, Decision, Observation, writes_actions
from bct.agents.settings import T5Settings
from bct.agents.t5_choice import WrittenChoice
from bct.core.errors import UserError, unknown
from bct.core.game import Game
from bct.data.prompt import with_recent
from bct.data.representation import Representation, get_representation
from bct.seq2seq.decoding import group_beam_search, score_actions
from bct.worlds.registry import world_of

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


class T5Agent(WrittenChoice, Agent):
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
    averages each valid action's the same way. `rerank` orders one model's candidates so too, by its own plain
    log-likelihood instead of the diverse beam search's order (which carries the diversity penalty); an ensemble
    always does.
    """

    name = "t5"
    batched = True
    Settings = T5Settings
    members: list = []  # an ensemble's other (model, tokenizer) pairs (__init__)

    def __init__(
        self,
        model,
        tokenizer,
        *,
        settings: T5Settings | None = None,
        max_source_length: int = 1024,
        max_target_length: int = 64,
        entities: str | Representation = "text",
        game: Game | None = None,
        modules: bool = True,
        run_name: str = "t5",
        record: dict | None = None,
        trained: dict | None = None,
        recent: int = 0,
        members: list | tuple = (),
        **knobs,
    ) -> None:
        """A policy from a model in memory (bct.agents.t5_checkpoint.load_agent loads one from a bct checkpoint).
        `settings`: T5Settings, or their keywords (`decoding="rank"`, `num_beams=4`). `game`, `run_name`, `record` (the
        settings of its results) and `trained` matter only to an evaluation. `members`: more (model, tokenizer) pairs
        trained alike, played as one ensemble with `model` (`_pool`)."""
        s = self.config = settings if settings is not None else T5Settings.of(knobs, self.name)
        decoding = s.decoding or "generate"
        if s.rerank and decoding == "rank":
            raise UserError("agent.rerank orders written candidates: it applies to agent.decoding=generate, not rank")
        self.game, self.modules, self._run_name, self.trained = game, modules, run_name, trained
        self.device = play_device(s.device)
        self.dtype = eval_dtype(self.device, s.dtype)
        self.model = model.to(self.device, dtype=self.dtype).eval()
        self.tokenizer = tokenizer
        self.members = [(m.to(self.device, dtype=self.dtype).eval(), t) for m, t in members]
        self.rerank = s.rerank or bool(self.members)  # an ensemble's pool is always ordered by the likelihood
        self.decoding, self.num_beams = decoding, s.num_beams
        self.representation = get_representation(entities) if isinstance(entities, str) else entities
        # writing actions in a world whose parser takes them, it reads no list (its candidates go as written)
        self.reads_valid_actions = not writes_actions(game, decoding == "generate")
        self.beam_groups, self.diversity_penalty = min(s.beam_groups, s.num_beams), s.diversity_penalty
        self.max_source_length, self.max_target_length = max_source_length, max_target_length
        self.fallback_skip = s.fallback_skip
        self.widen = s.widen  # more candidates where the model's are spent (`_widen`); 0: none
        self.recent = recent  # the episode's last actions the model reads after the task (the run's `recent`)
        self._start_choosing(s)
        # Episodes per model call. A GPU wants them all at once; on a CPU, beam search over a big batch
        # moves more cache memory than it saves (measured: 32 at once ran 3.5x slower than one by one).
        self.model_batch = s.model_batch or (64 if self.device.startswith("cuda") else 4)
        played = s.model_copy(update={"decoding": decoding})
        self._record = record or {"agent_config": {**played.record(), "dtype": dtype_name(self.dtype)}}

    @property
    def run_name(self) -> str:
        return self._run_name

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self._start_episode(game, fold, seed)

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
            self._note_made(ob)
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

    def _generate(self, batch: list[Observation], maps) -> list[Decision]:
        sources = [m.source for m in maps]
        read = self._read(self.model, self.tokenizer, sources)
        pools = [list(dict.fromkeys(c)) for c in self._beams(self.model, self.tokenizer, read)]
        scores = self._pool(sources, pools, read) if self.rerank else None
        if self.widen:
            self._widen(batch, maps, pools, read)
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

    def _beams(self, model, tokenizer, read: tuple, num_beams: int = 0, groups: int = 0) -> list[list[str]]:
        """Each source's `num_beams` (default: the agent's) written candidates from one model, best first, in `groups`
        diverse groups (default: the agent's; 1: plain beam search) (`read`: `_read`'s)."""
        enc, hidden = read
        input_ids, attention_mask = enc.input_ids, enc.attention_mask
        num_beams, groups = num_beams or self.num_beams, groups or self.beam_groups
        if groups > 1:  # the original's diverse beam search
            hyps = group_beam_search(
                model,
                input_ids,
                attention_mask,
                num_beams,
                groups,
                self.diversity_penalty,
                self.max_target_length,
                hidden=hidden,
            )
            out = [tokens for per_input in hyps for tokens, _ in per_input]
        else:
            out = model.generate(
                encoder_outputs=BaseModelOutput(last_hidden_state=hidden),
                attention_mask=attention_mask,
                num_beams=num_beams,
                num_return_sequences=num_beams,
                max_new_tokens=self.max_target_length,
                do_sample=False,
            )
        texts = [t.strip() for t in tokenizer.batch_decode(out, skip_special_tokens=True)]
        n = len(input_ids)
        return [texts[i * num_beams : (i + 1) * num_beams] for i in range(n)]

    def _widen(self, batch: list[Observation], maps, pools: list[list[str]], read: tuple) -> None:
        """`widen`: where every candidate in sight was already tried at this step and the agent would send one a third
        time there (`_spent`: a loop; repeats at one prompt are a fifth of the steps of dev's lost runs), the model's
        `widen` best by plain beam search join its pool (in place, after it; only those in sight, never a decisive
        command). Eight diverse groups of one beam mostly write the same two or three commands; a wider plain search
        writes others the choice can take."""
        spent = [i for i, (ob, m) in enumerate(zip(batch, maps)) if self._spent(pools[i], m, ob)]
        if not spent:
            return
        enc, hidden = read
        rows = torch.tensor(spent, device=hidden.device)
        sub = (SimpleNamespace(input_ids=enc.input_ids[rows], attention_mask=enc.attention_mask[rows]), hidden[rows])
        for i, more in zip(spent, self._beams(self.model, self.tokenizer, sub, self.widen, 1)):
            ob, m, world = batch[i], maps[i], world_of(batch[i].game)
            more = [c for c in dict.fromkeys(more) if c not in pools[i]]
            concrete = [m.concrete(c) for c in more]
            # only what is in sight: a wider search writes more names the step does not show, and one sent breaks
            # a repeat that was right (looking again at the plane the block slides down); a focus this far down is a
            # guess the game does not forgive
            seen = set(self._in_sight(more, concrete, m, ob, world))
            pools[i].extend(c for c, w in zip(more, concrete) if w in seen and not w.startswith(world.decisive))

    def _pool(self, sources: list[str], pools: list[list[str]], read: tuple) -> list[list[float]]:
        """An ensemble's step (`members`): every member's candidates join the model's (`pools`, in place), and each
        pool is ordered by the candidates' length-normalised log-likelihood averaged over all the models (each
        reading the source with its own tokenizer, once: `_read`; `read` is the model's); returned: those averages,
        best first. Without members (`rerank`): the model's own candidates ordered by its own likelihood."""
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
