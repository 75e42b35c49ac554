"""The zero-shot LLM agent (seed 000), with the TWC techniques of seed 003 as options.

Backends (bct/agents/llm_backends.py): any OpenAI-compatible endpoint through the `openai` client, or
a local causal LM through transformers. Replies are cached on disk, keyed by the full request, so a
rerun costs no calls. Episodes' queries go out concurrently, up to `concurrency` at a time (a local model
generates for up to `concurrency` episodes in one batch).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bct.agents import llm_prompts as P
from bct.agents.base import Agent, Decision, EpisodeFailed, Observation, closest_valid, episode_key, writes_actions
from bct.agents.llm_backends import OpenAIBackend, local_backend, redact_url, structured_action
from bct.agents.settings import LLMSettings
from bct.core.errors import UserError
from bct.core.files import write_atomic
from bct.core.game import Game
from bct.worlds.registry import make_module, modules_label, open_game, world_of

log = logging.getLogger(__name__)


class LLMAgent(Agent):
    name = "llm"
    batched = True
    Settings = LLMSettings

    def __init__(self, game: Game | None, modules: bool | None = None, client=None, **settings) -> None:
        """`settings`: LLMSettings, or their keywords (`model="qwen"`, `choice="rank"`). `client`: a backend object of
        one's own (with `model` and `chat(messages, max_tokens)`), in place of the one `backend` names."""
        super().__init__(game, modules, **settings)
        s = self.config
        # a backend of one's own: its class and model are the ones recorded
        self.own = {"backend": type(client).__name__, "model": getattr(client, "model", s.model)} if client else {}
        if client is not None:
            self.backend = client
        elif s.backend == "local":
            self.backend = local_backend(s.model, s.gguf_file, s.device)
        else:
            self.backend = OpenAIBackend(s.model, s.base_url, s.api_key_env, s.retries, s.timeout, s.api)
        self.concurrency, choice = s.concurrency, s.choice
        self.cache_dir = Path(s.cache_dir) if s.cache_dir else None
        self.constraints, self.one_shot, self.think, self.feedback = s.constraints, s.one_shot, s.think, s.feedback
        if self.feedback and game is not None and world_of(game).llm_feedback is None:
            raise UserError(f"agent.feedback=true: {game.world}'s games give no feedback to tell; drop it")
        # an action is a few words; thinking first needs room before the 'Action:' line
        self.max_tokens = s.max_tokens or (512 if s.think else 32)
        self.history_turns, self.guidance, self.choice = s.history_turns, s.guidance, choice
        if choice == "rank" and not hasattr(self.backend, "rank"):
            raise UserError(
                f"agent.choice=rank scores each offered action by the model's likelihood, which the "
                f"{type(self.backend).__name__} backend does not give; use agent.backend=local, or agent.choice=generate"
            )
        if choice == "constrained" and not hasattr(self.backend, "constrained"):
            raise UserError(
                f"agent.choice=constrained needs a backend that restricts its reply to the offered actions, which "
                f"{type(self.backend).__name__} does not; use agent.backend=openai or local, or agent.choice=generate"
            )
        # a world whose parser takes commands beyond its list (ScienceWorld: thousands a step): the agent writes
        # one in the world's command forms, unless it ranks or constrains to the listed ones
        self.reads_valid_actions = not writes_actions(game, choice == "generate")
        self._episodes: dict[int, dict] = {}
        self._examples: dict[tuple[str, bool], str] = {}
        self._lock = threading.Lock()
        self.counts = {"calls": 0, "cache_hits": 0, "prompt_tokens": 0, "completion_tokens": 0, "invalid_replies": 0}
        if choice == "constrained":  # replies that came back as free text: the server ignored the schema
            self.counts["unstructured_replies"] = 0

    @property
    def run_name(self) -> str:
        """llm-<model>-<game>-<modules|nomodules>[-one_shot][-think][-feedback][-guidance][-norules][-rank]"""
        c = self.config
        flags = (
            [k for k in ("one_shot", "think", "feedback", "guidance") if getattr(c, k)]
            + ([] if c.constraints else ["norules"])
            + ([c.choice] if c.choice != "generate" else [])
        )
        model_name = Path(c.gguf_file or self.own.get("model", c.model)).name.removesuffix(".gguf")
        return "-".join([f"llm-{model_name}", self.game.name, modules_label(self.modules), *flags])

    def _example(self, game: Game, modules: bool) -> str:
        """A train-fold gold walkthrough of the same game (seed 003's one-shot example)."""
        key = (game.name, modules)
        if key not in self._examples:
            from bct.worlds.gold import play_gold

            with open_game(game, modules) as env:
                self._examples[key] = P.walkthrough(play_gold(env, 0, "train", modules).steps)
        return self._examples[key]

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self._episodes[episode_key(game, fold, seed)] = {
            **{"game": game, "modules": modules, "turns": [], "system": None, "last_score": 0.0},
            # the agent's own working memory, written from what it observes and does, as the env's is
            "memory": make_module(game.memory_module) if game.memory else None,
        }

    def _messages(self, ob: Observation) -> list[dict]:
        ep = self._episodes[ob.episode]
        if ep["system"] is None:
            example = self._example(ob.game, ob.modules) if self.one_shot else None
            world = world_of(ob.game)
            ep["system"] = P.system_prompt(
                (world.llm_rules.get(ob.game.rules, ()), world.llm_guidance.get(ob.game.rules, ())),
                ob.step.task,
                self.constraints,
                self.think,
                example,
                ob.modules,
                self.guidance,
                ob.game.memory,
            )
        observation = ob.step.observation
        told = world_of(ob.game).llm_feedback if self.feedback and ob.actions else None
        if told and (said := told(ob.actions[-1], ep["last_score"], ob.step.score)):
            observation += " " + said
        ep["last_score"] = ob.step.score
        forms = world_of(ob.game).action_forms if not self.reads_valid_actions else ()
        prompt = P.step_prompt(observation, ob.step.inventory, ob.step.score, ob.step.valid_actions, self.think, forms)
        memory = ep["memory"]
        if memory is not None:  # seed 004: the facts remembered so far, in natural language, before the step
            if not ob.actions:
                memory.given(ob.step.task)
            if ob.actions:
                memory.acted(ob.actions[-1])
            if not ob.step.from_module:
                memory.observe(ob.step.observation, ob.step.look, ob.step.inventory)
                memory.scored(ob.step.score)
            elif ob.actions and not memory.owns(ob.actions[-1]):  # another module's answer
                memory.heard(ob.actions[-1], ob.step.observation)
            prompt = P.memory_prompt(memory.remembered()) + prompt
        ep["turns"].append({"role": "user", "content": prompt})
        turns = ep["turns"][-(2 * self.history_turns - 1) :]
        return [{"role": "system", "content": ep["system"]}, *turns]

    def _cache_path(self, messages: list[dict], actions: list[str] | None) -> Path | None:
        """Where a reply is kept, keyed by the full request; None without a cache."""
        if not self.cache_dir:
            return None
        key = hashlib.sha256(
            json.dumps(
                {
                    **({"choice": self.choice, "actions": actions} if self.choice != "generate" else {}),
                    "backend": type(self.backend).__name__,
                    "server": getattr(self.backend, "base_url", None),
                    "model": self.backend.model,
                    "messages": messages,
                    "temperature": 0,
                    "max_tokens": self.max_tokens,
                },
                sort_keys=True,
            ).encode()
        ).hexdigest()
        return self.cache_dir / key[:2] / f"{key}.json"

    def _cached(self, path: Path | None) -> dict | None:
        if path and path.exists():
            with self._lock:
                self.counts["cache_hits"] += 1
            return json.loads(path.read_text())
        return None

    def _record(self, path: Path | None, reply: dict) -> dict:
        with self._lock:
            self.counts["calls"] += 1
            self.counts["prompt_tokens"] += reply["prompt_tokens"]
            self.counts["completion_tokens"] += reply["completion_tokens"]
        if path:
            write_atomic(path, json.dumps(reply))
        return reply

    def _ask(self, messages: list[dict], actions: list[str] | None = None) -> dict:
        path = self._cache_path(messages, actions)
        if (reply := self._cached(path)) is not None:
            return reply
        if self.choice == "rank":
            reply = self.backend.rank(messages, actions)
        elif self.choice == "constrained":  # room for the JSON around the action
            reply = self.backend.constrained(messages, actions, max(self.max_tokens, 64))
        else:
            reply = self.backend.chat(messages, self.max_tokens)
        return self._record(path, reply)

    def parse(self, text: str, valid: list[str]) -> tuple[str, bool]:
        """The action a reply names, and whether it named a valid one (else the closest valid action)."""
        m = re.findall(r"action\s*:\s*(.+)", text, flags=re.IGNORECASE)
        said = (m[-1] if m else text).strip().strip("`'\".").strip()
        lines = [line.strip() for line in said.splitlines() if line.strip()]
        said = lines[-1] if lines else ""
        lowered = {a.lower(): a for a in valid}
        if said.lower() in lowered:
            return lowered[said.lower()], True
        if not self.reads_valid_actions:  # a free-action world: the game's parser judges a written command
            return said, bool(said)
        return closest_valid(said, valid), False

    def read(self, text: str, valid: list[str]) -> tuple[str, bool]:
        """`parse`, after the structured form when choice=constrained (a server that ignores the schema
        answers free text: counted, and said once)."""
        if self.choice == "constrained":
            said = structured_action(text)
            if said is not None:
                return self.parse(said, valid)
            with self._lock:
                self.counts["unstructured_replies"] += 1
                first = self.counts["unstructured_replies"] == 1
            if first and getattr(self.backend, "structured", True):  # (a refusal was said by the backend)
                log.warning(
                    "%s answered free text to a structured-output request (agent.choice=constrained): the server "
                    "does not enforce the schema; its replies are read as with agent.choice=generate, and counted "
                    "as unstructured_replies in results.json",
                    getattr(self.backend, "where", self.backend.model),
                )
        return self.parse(text, valid)

    def settings(self) -> dict:
        """The record of its settings, with a backend of its own named and no credentials of a URL."""
        config = {**self.config.record(), **self.own}
        return {"agent_config": {**config, "base_url": redact_url(config["base_url"])}}

    def _ask_or_fail(self, request: tuple[list[dict], list[str]]) -> dict:
        try:
            return self._ask(*request)
        except EpisodeFailed as e:  # this episode's request alone: the others go on
            return {"error": str(e)}

    def act(self, batch: list[Observation]) -> list[Decision]:
        return self.act_together([(self, batch)])[0]

    @classmethod
    def act_together(cls, parts: list[tuple[LLMAgent, list[Observation]]]) -> list[list[Decision]]:
        """The decisions of each agent for its episodes. Agents that write free text with one local model (the
        games of a pool share it: `local_backend`) ask it in one generation for all their episodes' uncached
        queries, `concurrency` to a batch; others ask theirs side by side, `concurrency` at once. A pool of games
        (`ByGame`) calls this, not each agent's `act`."""
        requests = [[(agent._messages(ob), ob.step.valid_actions) for ob in batch] for agent, batch in parts]
        first = parts[0][0]
        together = hasattr(first.backend, "chat_batch") and all(
            agent.choice == "generate" and agent.backend is first.backend for agent, _ in parts
        )
        if together:
            replies = cls._generate_together([(agent, asked) for (agent, _), asked in zip(parts, requests)])
        else:
            replies = [agent._ask_side_by_side(asked) for (agent, _), asked in zip(parts, requests)]
        return [agent._decide(batch, said) for (agent, batch), said in zip(parts, replies)]

    @staticmethod
    def _generate_together(asked: list[tuple[LLMAgent, list[tuple[list[dict], list[str]]]]]) -> list[list[dict]]:
        """Each agent's replies to its queries: from its cache, else from one shared generation (each agent
        counts its own calls and tokens)."""
        paths = [[agent._cache_path(m, a) for m, a in requests] for agent, requests in asked]
        replies = [[agent._cached(p) for p in ps] for (agent, _), ps in zip(asked, paths)]
        todo = [(k, i) for k, rs in enumerate(replies) for i, r in enumerate(rs) if r is None]
        first = asked[0][0]
        for start in range(0, len(todo), first.concurrency):
            part = todo[start : start + first.concurrency]
            talks = [asked[k][1][i][0] for k, i in part]
            try:
                said = first.backend.chat_batch(talks, first.max_tokens)
            except EpisodeFailed as e:  # a refused request fails its batch's episodes alone: the others go on
                said = [{"error": str(e)}] * len(part)
            for (k, i), reply in zip(part, said):
                replies[k][i] = reply if "error" in reply else asked[k][0]._record(paths[k][i], reply)
        return replies

    def _ask_side_by_side(self, requests: list[tuple[list[dict], list[str]]]) -> list[dict]:
        pool = ThreadPoolExecutor(max(1, min(self.concurrency, len(requests))))
        try:
            return list(pool.map(self._ask_or_fail, requests))
        finally:  # on Ctrl-C, requests not yet sent are dropped rather than waited for
            pool.shutdown(wait=False, cancel_futures=True)

    def _decide(self, batch: list[Observation], replies: list[dict]) -> list[Decision]:
        decisions = []
        for ob, reply in zip(batch, replies):
            if "error" in reply:
                decisions.append(Decision("", error=reply["error"]))
                continue
            action, ok = self.read(reply["text"], ob.step.valid_actions)
            if not ok:
                self.counts["invalid_replies"] += 1
            self._episodes[ob.episode]["turns"].append({"role": "assistant", "content": reply["text"]})
            decisions.append(Decision(action, [action], {"reply": reply["text"], "valid_reply": ok}))
        return decisions

    def stats(self) -> dict:
        return dict(self.counts)
