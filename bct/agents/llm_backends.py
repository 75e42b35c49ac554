"""Backends of the LLM agent (bct/agents/llm.py): any OpenAI-compatible server through the `openai`
client (chat, plain completions, structured output), or a local causal LM through transformers (free
text, ranking the offered actions by likelihood, decoding constrained to them)."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from functools import cache

from bct.agents.base import EpisodeFailed
from bct.core.errors import UserError, unknown

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
        return self.chat_batch([messages], max_tokens)[0]

    def chat_batch(self, conversations: list[list[dict]], max_tokens: int) -> list[dict]:
        """Greedy replies to several conversations in one generation, their prompts padded on the left: on a CPU
        in fp32 the replies `chat` gives each alone (bench/llm_batch.py), for about one pass over the batch."""
        import torch

        tok = self.tokenizer
        ends = self.lm.generation_config.eos_token_id  # where generation stops: an id, a list, or none
        ends = set(ends if isinstance(ends, list) else [] if ends is None else [ends])
        pad = next((t for t in (tok.pad_token_id, tok.eos_token_id, min(ends, default=None)) if t is not None), 0)
        with self._lock, torch.inference_mode():
            # padded by hand: the shared tokenizer's own padding state is left as `rank` and `constrained` use it
            ids = [self.encode(m)["input_ids"][0].tolist() for m in conversations]
            width = max(len(i) for i in ids)
            input_ids = torch.tensor([[pad] * (width - len(i)) + i for i in ids], device=self.device)
            mask = torch.tensor([[0] * (width - len(i)) + [1] * len(i) for i in ids], device=self.device)
            out = self.lm.generate(
                input_ids=input_ids, attention_mask=mask, max_new_tokens=max_tokens, do_sample=False, pad_token_id=pad
            )
        replies = []
        for row, prompt in zip(out[:, width:].tolist(), ids):
            # a reply ends at its first end of sequence (kept, as generation alone keeps it); pads follow
            n = next((k + 1 for k, t in enumerate(row) if t in ends), len(row))
            text = tok.decode(row[:n], skip_special_tokens=True)
            text = re.split(r"\n\s*(?:User|System):", text)[0].strip()  # a base model goes on with the next turn
            replies.append({"text": text, "prompt_tokens": len(prompt), "completion_tokens": n})
        return replies


@cache
def local_backend(model: str, gguf_file: str | None = None, device: str | None = None) -> LocalBackend:
    """One loaded copy of a local model in a process: an evaluation of many games gives each game's agent the same."""
    return LocalBackend(model, gguf_file, device)
