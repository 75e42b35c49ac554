"""The zero-shot LLM agent (seed 000), with the TWC techniques of seed 003 as options.

Backends: any OpenAI-compatible chat endpoint through the `openai` client, or a local causal LM
through transformers. Replies are cached on disk, keyed by the full request, so a rerun costs no
calls. Episodes' queries go out concurrently, up to `concurrency` at a time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bct.agents import llm_prompts as P
from bct.agents.base import Agent, Decision, EpisodeFailed, Observation, closest_valid
from bct.errors import UserError, unknown
from bct.files import write_atomic
from bct.games import Game, modules_label
from bct.modules import make_module

log = logging.getLogger(__name__)
for _name in ("openai", "httpx"):  # their INFO lines (each request, each retry) are not for users
    logging.getLogger(_name).setLevel(logging.WARNING)


def redact_url(url: str | None) -> str | None:
    """A URL as it may be saved or shown: no user or password, no query value that looks like a key."""
    if not url:
        return url
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "")
    query = urlencode([(k, "***" if SECRET.search(k) else v) for k, v in parse_qsl(parts.query)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


SECRET = re.compile(r"key|token|secret|sig|pass", re.I)
# Agent settings that do not change what an evaluation finds: a results folder is not refused over them.
NOT_OUTCOME = ("concurrency", "retries", "cache_dir", "timeout")


class OpenAIBackend:
    def __init__(
        self,
        model: str,
        base_url: str | None,
        api_key_env: str = "OPENAI_API_KEY",
        retries: int = 4,
        timeout: float = 60.0,
        api: str = "chat",
    ) -> None:
        import openai

        if api not in APIS:
            raise unknown("agent.api", api, APIS)
        self.api = api

        key = os.environ.get(api_key_env)
        if not key and not base_url:
            raise UserError(
                f"no API key: set the environment variable {api_key_env} (or name another one with "
                f"agent.api_key_env=NAME)"
            )
        # A local OpenAI-compatible server (llama.cpp, vLLM, Ollama) needs no key; the client wants some string.
        key = key or "no-key"
        # The client retries 429 and 5xx answers with exponential backoff.
        self.client = openai.OpenAI(api_key=key, base_url=base_url or None, max_retries=retries, timeout=timeout)
        self.model, self.base_url = model, base_url
        self.where = redact_url(base_url) or "the OpenAI API"  # for messages: never credentials
        self.structured = True  # False once the server has refused a structured-output request
        self._lock = threading.Lock()

    def constrained(self, messages: list[dict], actions: list[str], max_tokens: int) -> dict:
        """A reply asked for as structured output: JSON whose `action` is one of `actions` (the server
        enforces the schema where it supports it). A server that refuses the request is said so once, and
        asked for free text from then on."""
        if self.structured:
            try:
                return self.chat(messages, max_tokens, action_schema(actions))
            except Refused as e:
                if e.status not in (400, 422):
                    raise
                with self._lock:  # concurrent requests may all be refused: said once
                    first, self.structured = self.structured, False
                if first:
                    log.warning(
                        "%s refused structured output (agent.choice=constrained: HTTP %s%s); asking for free text "
                        "from now on",
                        self.where,
                        e.status,
                        e.said,
                    )
        return self.chat(messages, max_tokens)

    def chat(self, messages: list[dict], max_tokens: int, schema: dict | None = None) -> dict:
        import openai

        structured = {"response_format": {"type": "json_schema", "json_schema": schema}} if schema else {}
        try:
            if self.api == "completions":  # a base model: bct writes the transcript, the server continues it
                r = self.client.completions.create(
                    model=self.model,
                    prompt=transcript(messages),
                    temperature=0,
                    max_tokens=max_tokens,
                    stop=STOP,
                    **({"extra_body": structured} if structured else {}),
                )
                text = r.choices[0].text or ""
            else:
                r = self.client.chat.completions.create(
                    model=self.model, messages=messages, temperature=0, max_tokens=max_tokens, **structured
                )
                text = r.choices[0].message.content or ""
        except openai.AuthenticationError:
            raise UserError(f"the endpoint refused the API key (authentication failed at {self.where})") from None
        except openai.NotFoundError:
            raise UserError(f"model '{self.model}' was not found at {self.where}; check agent.model") from None
        except openai.APIConnectionError:
            raise UserError(f"could not reach {self.where}; check agent.base_url and the network") from None
        except openai.APIStatusError as e:
            said = explanation(e)
            if 400 <= e.status_code < 500 and e.status_code not in (408, 409, 429):
                raise Refused(
                    f"{self.where} refused this request with HTTP {e.status_code}{said}, which is not "
                    f"retried (e.g. a context too long for the model)",
                    e.status_code,
                    said,
                ) from None
            if self.api == "chat" and self.completions_work():
                raise UserError(
                    f"{self.where} answered HTTP {e.status_code}{said} to every chat request but answers plain "
                    f"completions: a base model without a chat template does this; set agent.api=completions"
                ) from None
            raise UserError(
                f"{self.where} answered HTTP {e.status_code}{said} after "
                f"{self.client.max_retries} retries; try again later, or check the server"
            ) from None
        usage = r.usage
        return {
            "text": text.split("\n\nUser:")[0],
            "prompt_tokens": usage.prompt_tokens if usage else 0,
            "completion_tokens": usage.completion_tokens if usage else 0,
        }

    def completions_work(self) -> bool:
        """Whether the server answers a one-token plain completion (it tells a chat-template failure apart)."""
        try:
            self.client.with_options(max_retries=2).completions.create(model=self.model, prompt="Hello", max_tokens=1)
            return True
        except Exception:
            return False


class Refused(EpisodeFailed):
    """A request the server refused (a 4xx answer that retrying cannot change), with its status and words."""

    def __init__(self, reason: str, status: int, said: str):
        super().__init__(reason)
        self.status, self.said = status, said


def explanation(e) -> str:
    """The server's own words for an error, when its body gives some (` ("...")`), with anything that
    looks like a key removed; '' for a bare status."""
    body = e.body if isinstance(e.body, dict) else {}
    err = body.get("error", body)
    msg = err.get("message") if isinstance(err, dict) else err if isinstance(err, str) else None
    msg = msg or body.get("detail")  # FastAPI servers: {"detail": "..."} or a list of validation errors
    if isinstance(msg, list):  # a validation error's details (FastAPI): `field: what is wrong` each
        msg = "; ".join(
            f"{d.get('loc', ['?'])[-1]}: {d.get('msg', '')}" if isinstance(d, dict) else str(d) for d in msg
        )
    if not isinstance(msg, str) or not msg.strip():
        return ""
    msg = re.sub(r"\b(sk|key|token)[-_][A-Za-z0-9_-]{6,}", "***", " ".join(msg.split()))
    return f' ("{msg[:160]}")'


def action_schema(actions: list[str]) -> dict:
    """The JSON schema of a reply that names one offered action (OpenAI's `json_schema` response format)."""
    return {
        "name": "action",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {"action": {"type": "string", "enum": list(actions)}},
            "required": ["action"],
            "additionalProperties": False,
        },
    }


def structured_action(text: str) -> str | None:
    """The action of a structured reply (`{"action": ...}`), None if the reply is not one."""
    try:
        reply = json.loads(text)
    except ValueError:
        return None
    return reply.get("action") if isinstance(reply, dict) and isinstance(reply.get("action"), str) else None


APIS = ["chat", "completions"]  # an OpenAI-compatible server's chat endpoint, or plain completions
STOP = ["\n\nUser:", "\n\nSystem:"]  # where a base model goes on with the next turn


def transcript(messages: list[dict]) -> str:
    """Messages as a plain transcript that ends where the assistant speaks (for a model without a chat template)."""
    return "".join(f"{m['role'].capitalize()}: {m['content']}\n\n" for m in messages) + "Assistant:"


class LocalBackend:
    """A causal LM through transformers, by hub id or local folder (`gguf_file` for a GGUF model in it)."""

    def __init__(self, model: str, gguf_file: str | None = None, device: str | None = None) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        kwargs = {"gguf_file": gguf_file} if gguf_file else {}
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model, **kwargs)
            self.lm = AutoModelForCausalLM.from_pretrained(model, **kwargs)
        except OSError as e:
            raise UserError(
                f"could not load local model '{model}' ({str(e).splitlines()[0][:120]}); "
                f"give a local folder (and agent.gguf_file) or a hub id that can be fetched"
            ) from None
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.lm.to(self.device).eval()
        self.model = f"{model}/{gguf_file}" if gguf_file else model
        self._lock = threading.Lock()  # one generation at a time on one model

    def prompt(self, messages: list[dict]) -> str:
        if self.tokenizer.chat_template:
            return self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        return transcript(messages)  # a base model

    def encode(self, messages: list[dict]):
        """Token ids of the prompt. A chat template already writes the special tokens (BOS among them),
        so they are not added again; a plain transcript gets them from the tokenizer."""
        return self.tokenizer(
            self.prompt(messages), return_tensors="pt", add_special_tokens=not self.tokenizer.chat_template
        )

    def rank(self, messages: list[dict], actions: list[str], batch: int = 8) -> dict:
        """The offered action with the highest length-normalised log-likelihood after the prompt (each
        action's tokens appended to the prompt's), scored in batches of `batch` candidates.

        The prompt is read once; its cache, copied for each batch, serves every candidate, so a step
        costs one pass over the prompt plus one over the candidates' few tokens."""
        import copy

        import torch

        prompt = self.encode(messages)["input_ids"][0].tolist()
        space = "" if self.tokenizer.chat_template else " "  # a transcript ends 'Assistant:'
        scores: list[float] = []
        with self._lock, torch.inference_mode():
            read = self.lm(input_ids=torch.tensor([prompt], device=self.device), use_cache=True, logits_to_keep=1)
            first = read.logits[0, -1].float().log_softmax(-1).cpu()  # predicts each tail's first token
            for i in range(0, len(actions), batch):
                tails = [
                    self.tokenizer(space + a, add_special_tokens=False)["input_ids"] for a in actions[i : i + batch]
                ]
                width = max(len(t) for t in tails)
                ids = torch.full((len(tails), width), self.tokenizer.pad_token_id or 0, dtype=torch.long)
                mask = torch.zeros((len(tails), len(prompt) + width), dtype=torch.long)
                mask[:, : len(prompt)] = 1
                for j, t in enumerate(tails):
                    ids[j, : len(t)] = torch.tensor(t)
                    mask[j, len(prompt) : len(prompt) + len(t)] = 1
                past = copy.deepcopy(read.past_key_values)
                past.batch_repeat_interleave(len(tails))
                logits = self.lm(
                    input_ids=ids.to(self.device), attention_mask=mask.to(self.device), past_key_values=past
                ).logits
                logp = logits.float().log_softmax(-1).cpu()
                for j, t in enumerate(tails):  # token k > 0 of the tail is predicted at tail position k - 1
                    rest = logp[j, torch.arange(len(t) - 1), torch.tensor(t[1:], dtype=torch.long)]
                    scores.append(torch.cat([first[t[0]].reshape(1), rest]).mean().item())
        best = max(range(len(actions)), key=lambda k: scores[k])
        return {"text": actions[best], "prompt_tokens": len(prompt), "completion_tokens": 0, "scores": scores}

    def constrained(self, messages: list[dict], actions: list[str], max_tokens: int) -> dict:
        """Greedy decoding restricted to the offered actions' tokens (a prefix tree of them, ended by the
        end-of-sequence token): the reply is always one offered action, found token by token."""
        import torch

        space = "" if self.tokenizer.chat_template else " "
        eos = self.tokenizer.eos_token_id
        tails = [tuple(self.tokenizer(space + a, add_special_tokens=False)["input_ids"]) + (eos,) for a in actions]
        following: dict[tuple, set[int]] = {}
        for t in tails:
            for k in range(len(t)):
                following.setdefault(t[:k], set()).add(t[k])
        with self._lock, torch.inference_mode():
            enc = self.encode(messages).to(self.device)
            start = enc["input_ids"].shape[1]
            out = self.lm.generate(
                **enc,
                max_new_tokens=max(len(t) for t in tails),
                do_sample=False,
                pad_token_id=self.tokenizer.pad_token_id or eos,
                prefix_allowed_tokens_fn=lambda _, ids: sorted(following.get(tuple(ids[start:].tolist()), {eos})),
            )
        new = tuple(out[0][start:].tolist())
        chosen = next((a for a, t in zip(actions, tails) if new[: len(t)] == t), None)
        text = json.dumps({"action": chosen}) if chosen is not None else self.tokenizer.decode(new)
        return {"text": text, "prompt_tokens": int(start), "completion_tokens": len(new)}

    def chat(self, messages: list[dict], max_tokens: int) -> dict:
        import torch

        with self._lock, torch.inference_mode():
            enc = self.encode(messages).to(self.device)
            out = self.lm.generate(**enc, max_new_tokens=max_tokens, do_sample=False)
        new = out[0][enc["input_ids"].shape[1] :]
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        text = re.split(r"\n\s*(?:User|System):", text)[0].strip()  # a base model goes on with the next turn
        return {"text": text, "prompt_tokens": int(enc["input_ids"].shape[1]), "completion_tokens": int(len(new))}


# write an action; score each offered one (the local backend); or write one constrained to the offered ones
# (structured output from a server, a prefix tree of their tokens locally)
CHOICES = ["generate", "rank", "constrained"]


class LLMAgent(Agent):
    name = "llm"

    def __init__(
        self,
        game: Game | None,
        modules: bool | None = None,
        backend: str = "openai",
        model: str = "gpt-4o-mini",
        gguf_file: str | None = None,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        api: str = "chat",
        retries: int = 4,
        timeout: float = 60,
        cache_dir: str | Path | None = None,
        concurrency: int = 8,
        constraints: bool = True,
        one_shot: bool = False,
        think: bool = False,
        feedback: bool = False,
        max_tokens: int | None = None,
        history_turns: int = 8,
        guidance: bool = False,
        choice: str = "generate",
        device: str | None = None,
        client=None,
    ) -> None:
        """`client`: a backend object of one's own (with `model` and `chat(messages, max_tokens)`), in
        place of the one `backend` names."""
        config = {k: v for k, v in locals().items() if k not in ("self", "game", "modules", "client", "__class__")}
        if client is not None:  # a backend of one's own: its model is the one recorded
            config.update(backend=type(client).__name__, model=getattr(client, "model", model))
        super().__init__(game, modules, **config)
        if client is None and backend not in ("openai", "local"):
            raise unknown("agent.backend", backend, ["openai", "local"])
        if choice not in CHOICES:
            raise unknown("agent.choice", choice, CHOICES)
        if client is not None:
            self.backend = client
        elif backend == "local":
            self.backend = LocalBackend(model, gguf_file, device)
        else:
            self.backend = OpenAIBackend(model, base_url, api_key_env, retries, timeout, api)
        self.concurrency = concurrency
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.constraints, self.one_shot, self.think, self.feedback = constraints, one_shot, think, feedback
        # an action is a few words; thinking first needs room before the 'Action:' line
        self.max_tokens = max_tokens or (512 if think else 32)
        self.history_turns, self.guidance, self.choice = history_turns, guidance, choice
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
            [k for k in ("one_shot", "think", "feedback", "guidance") if c[k]]
            + ([] if c["constraints"] else ["norules"])
            + ([c["choice"]] if c.get("choice", "generate") != "generate" else [])
        )
        model_name = Path(c["gguf_file"] or c["model"]).name.removesuffix(".gguf")
        return "-".join([f"llm-{model_name}", self.game.name, modules_label(self.modules), *flags])

    def _example(self, game: Game, modules: bool) -> str:
        """A train-fold gold walkthrough of the same game (seed 003's one-shot example)."""
        key = (game.name, modules)
        if key not in self._examples:
            from bct.env import ModularEnv
            from bct.gold import play_gold

            with ModularEnv.of(game, modules) as env:
                self._examples[key] = P.walkthrough(play_gold(env, 0, "train", modules).steps)
        return self._examples[key]

    def start(self, game: Game, fold: str, seed: int, modules: bool) -> None:
        self._episodes[seed] = {
            **{"game": game, "modules": modules, "turns": [], "system": None, "last_score": 0.0},
            # the agent's own working memory, written from what it observes and does, as the env's is
            "memory": make_module(game.memory_module) if game.memory else None,
        }

    def _messages(self, ob: Observation) -> list[dict]:
        ep = self._episodes[ob.seed]
        if ep["system"] is None:
            example = self._example(ob.game, ob.modules) if self.one_shot else None
            ep["system"] = P.system_prompt(
                ob.game.family,
                ob.step.task,
                self.constraints,
                self.think,
                example,
                ob.modules,
                self.guidance,
                ob.game.memory,
            )
        observation = ob.step.observation
        if self.feedback and ob.actions and ob.actions[-1].startswith("put "):
            observation += " " + (P.FEEDBACK_RIGHT if ob.step.score > ep["last_score"] else P.FEEDBACK_WRONG)
        ep["last_score"] = ob.step.score
        prompt = P.step_prompt(observation, ob.step.inventory, ob.step.score, ob.step.valid_actions, self.think)
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
            prompt = P.memory_prompt(memory.facts) + prompt
        ep["turns"].append({"role": "user", "content": prompt})
        turns = ep["turns"][-(2 * self.history_turns - 1) :]
        return [{"role": "system", "content": ep["system"]}, *turns]

    def _ask(self, messages: list[dict], actions: list[str] | None = None) -> dict:
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
        path = self.cache_dir / key[:2] / f"{key}.json" if self.cache_dir else None
        if path and path.exists():
            with self._lock:
                self.counts["cache_hits"] += 1
            return json.loads(path.read_text())
        if self.choice == "rank":
            reply = self.backend.rank(messages, actions)
        elif self.choice == "constrained":  # room for the JSON around the action
            reply = self.backend.constrained(messages, actions, max(self.max_tokens, 64))
        else:
            reply = self.backend.chat(messages, self.max_tokens)
        with self._lock:
            self.counts["calls"] += 1
            self.counts["prompt_tokens"] += reply["prompt_tokens"]
            self.counts["completion_tokens"] += reply["completion_tokens"]
        if path:
            write_atomic(path, json.dumps(reply))
        return reply

    def parse(self, text: str, valid: list[str]) -> tuple[str, bool]:
        """The action a reply names, and whether it named a valid one (else the closest valid action)."""
        m = re.findall(r"action\s*:\s*(.+)", text, flags=re.IGNORECASE)
        said = (m[-1] if m else text).strip().strip("`'\".").strip()
        lines = [line.strip() for line in said.splitlines() if line.strip()]
        said = lines[-1] if lines else ""
        lowered = {a.lower(): a for a in valid}
        if said.lower() in lowered:
            return lowered[said.lower()], True
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
        config = {k: v for k, v in self.config.items() if k not in NOT_OUTCOME}
        return {"agent_config": {**config, "base_url": redact_url(config.get("base_url"))}}

    def _ask_or_fail(self, request: tuple[list[dict], list[str]]) -> dict:
        try:
            return self._ask(*request)
        except EpisodeFailed as e:  # this episode's request alone: the others go on
            return {"error": str(e)}

    def act(self, batch: list[Observation]) -> list[Decision]:
        requests = [(self._messages(ob), ob.step.valid_actions) for ob in batch]
        pool = ThreadPoolExecutor(max(1, min(self.concurrency, len(batch))))
        try:
            replies = list(pool.map(self._ask_or_fail, requests))
        finally:  # on Ctrl-C, requests not yet sent are dropped rather than waited for
            pool.shutdown(wait=False, cancel_futures=True)
        decisions = []
        for ob, reply in zip(batch, replies):
            if "error" in reply:
                decisions.append(Decision("", error=reply["error"]))
                continue
            action, ok = self.read(reply["text"], ob.step.valid_actions)
            if not ok:
                self.counts["invalid_replies"] += 1
            self._episodes[ob.seed]["turns"].append({"role": "assistant", "content": reply["text"]})
            decisions.append(Decision(action, [action], {"reply": reply["text"], "valid_reply": ok}))
        return decisions

    def stats(self) -> dict:
        return dict(self.counts)
