"""The LLM agent through the real `openai` client against a loopback chat-completions server."""

import json
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bct.agents.llm import LLMAgent, OpenAIBackend
from bct.agents.rollout import rollout
from bct.core.errors import UserError
from bct.worlds.gold import play_gold
from bct.worlds.registry import get_game, open_game, world_of

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses

ROOT = Path(__file__).resolve().parent.parent


SEEDS = list(range(10000, 10004))


KEY = "sk-test-secret-123"


class ChatServer(ThreadingHTTPServer):
    """Answers chat completions from `policy(messages)`; `failures` are statuses sent before real answers."""

    def __init__(self, policy, failures=(), structured="honour"):
        """`structured`: what the server does with a structured-output request: honour (a JSON reply within
        the schema's enum), ignore (free text), refuse (HTTP 400, as servers without the feature do)."""
        self.policy, self.failures, self.structured = policy, list(failures), structured
        self.requests, self.in_flight, self.max_in_flight = [], 0, 0
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        srv = self.server
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with srv.lock:
            srv.requests.append({"body": body, "auth": self.headers.get("Authorization")})
            srv.in_flight += 1
            srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
            status = srv.failures.pop(0) if srv.failures else 200
        time.sleep(0.05)
        if status == 200 and body["model"] == "no-such-model":
            status = 404
        schema = body.get("response_format", {}).get("json_schema")
        if status == 200 and schema and srv.structured == "refuse":
            status = 400
        text = srv.policy(body["messages"]) if status == 200 else ""
        if schema and srv.structured == "honour" and status == 200:
            offered = schema["schema"]["properties"]["action"]["enum"]
            text = json.dumps({"action": text if text in offered else offered[0]})
        payload = (
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
            }
            if status == 200
            else {"error": {"message": "response_format is not supported", "type": "invalid_request_error"}}
            if status == 400
            else {"error": {"message": "scripted failure", "type": "server_error"}}
        )
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status == 429:
            self.send_header("Retry-After", "0")
        self.end_headers()
        self.wfile.write(data)
        with srv.lock:
            srv.in_flight -= 1


@pytest.fixture(scope="module")
def plans():
    """The gold action sequence of each twc dev seed, keyed by its first observation."""
    game = get_game("twc")
    with open_game(game, [game.module]) as env:
        trajs = [play_gold(env, s, "dev", True) for s in SEEDS]
    return {t.steps[0].observation.strip(): t.actions for t in trajs}


def oracle_policy(plans, template="{}"):
    def policy(messages):
        first = messages[1]["content"]
        plan = next(p for obs, p in plans.items() if obs in first)
        t = sum(m["role"] == "assistant" for m in messages)
        return template.format(plan[t])

    return policy


def agent(server, tmp_path, **kw):
    return LLMAgent(
        get_game("twc"),
        client=OpenAIBackend("scripted", server.url, "BCT_TEST_KEY", retries=3),
        cache_dir=tmp_path / "cache",
        concurrency=4,
        history_turns=50,
        **kw,
    )


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv("BCT_TEST_KEY", KEY)


def test_scripted_oracle_scores_one_with_concurrent_queries(plans, tmp_path):
    server = ChatServer(oracle_policy(plans))
    a = agent(server, tmp_path)
    results = rollout(a, get_game("twc"), "dev", SEEDS, True, batch_size=4)
    assert all(r.score == 1.0 for r in results)
    steps = sum(r.steps for r in results)
    assert a.stats()["calls"] == len(server.requests) == steps and a.stats()["invalid_replies"] == 0
    assert server.max_in_flight > 1  # episodes' queries overlap
    first = server.requests[0]["body"]
    assert first["temperature"] == 0 and first["messages"][0]["role"] == "system"
    system, user = first["messages"][0]["content"], first["messages"][1]["content"]
    assert "robot" in system and "in its right place gives a higher score" in system  # role and Table 3's twc rules
    assert "The valid action set contains:" in user and "Your current score is: 0" in user and "Inventory" in user
    assert server.requests[0]["auth"] == f"Bearer {KEY}"

    # a rerun with the same cache costs no calls and plays the same
    again = agent(server, tmp_path)
    rerun = rollout(again, get_game("twc"), "dev", SEEDS, True, batch_size=4)
    assert again.stats()["calls"] == 0 and again.stats()["cache_hits"] == steps
    assert sorted((r.seed, r.score, r.steps) for r in rerun) == sorted((r.seed, r.score, r.steps) for r in results)


def test_retries_on_server_errors_and_rate_limits(plans, tmp_path):
    server = ChatServer(oracle_policy(plans), failures=[500, 429, 503])
    results = rollout(agent(server, tmp_path), get_game("twc"), "dev", SEEDS[:1], True, batch_size=1)
    assert results[0].score == 1.0
    assert len(server.requests) == results[0].steps + 3


def test_think_template_and_malformed_replies(plans, tmp_path):
    server = ChatServer(oracle_policy(plans, "Thought: the object goes where it belongs.\nAction: {}"))
    a = agent(server, tmp_path, think=True)
    assert rollout(a, get_game("twc"), "dev", SEEDS[:2], True, batch_size=2)[0].score == 1.0
    assert "Action:" in server.requests[0]["body"]["messages"][0]["content"]

    junk = ChatServer(lambda messages: "Hmm, I would rather dance!!")
    b = agent(junk, tmp_path / "other")
    r = rollout(b, get_game("twc"), "dev", SEEDS[:1], True, batch_size=1, step_limit=5)[0]
    assert b.stats()["invalid_replies"] == r.steps == len(r.history)
    assert all(h["valid_reply"] is False and h["reply"] == "Hmm, I would rather dance!!" for h in r.history)


def test_one_shot_example_and_feedback(plans, tmp_path):
    server = ChatServer(oracle_policy(plans))
    rollout(
        agent(server, tmp_path, one_shot=True, feedback=True), get_game("twc"), "dev", SEEDS[:1], True, batch_size=1
    )
    system = server.requests[0]["body"]["messages"][0]["content"]
    assert "An example of a game played well" in system and "> take " in system
    last_user = server.requests[-1]["body"]["messages"][-1]["content"]
    assert "Right position" not in last_user  # the final put ends the game: no query after it
    # the feedback is TWX's (the LLM paper's, after each put): told from its folder, none in a world without one
    feedback = world_of(get_game("twc")).llm_feedback
    assert feedback("put apple in fridge", 0.0, 0.5).startswith("Right position")
    assert feedback("put apple in oven", 0.5, 0.5).startswith("That does not seem to be where it belongs")
    assert feedback("take apple", 0.0, 0.5) == "" and world_of(get_game("scienceworld-boil")).llm_feedback is None


def test_bad_endpoints_are_one_clear_error(tmp_path, monkeypatch):
    server = ChatServer(lambda m: "look around")
    with pytest.raises(UserError, match="model 'no-such-model' was not found"):
        OpenAIBackend("no-such-model", server.url, "BCT_TEST_KEY", retries=0).chat(
            [{"role": "user", "content": "hi"}], 5
        )
    with pytest.raises(UserError, match="could not reach http://127.0.0.1:9/v1"):
        OpenAIBackend("m", "http://127.0.0.1:9/v1", "BCT_TEST_KEY", retries=0).chat(
            [{"role": "user", "content": "x"}], 5
        )
    failing = ChatServer(lambda m: "look around", failures=[503] * 10)
    with pytest.raises(
        UserError, match=r'answered HTTP 503 \("scripted failure"\) after 1 retries; try again later'
    ) as e:
        OpenAIBackend("m", failing.url, "BCT_TEST_KEY", retries=1).chat([{"role": "user", "content": "x"}], 5)
    assert KEY not in str(e.value)
    monkeypatch.delenv("BCT_TEST_KEY")
    with pytest.raises(UserError, match="set the environment variable BCT_TEST_KEY"):
        OpenAIBackend("m", None, "BCT_TEST_KEY")  # the OpenAI API itself needs a key; a local server does not


def test_cli_writes_results_without_the_key(plans, tmp_path):
    server = ChatServer(oracle_policy(plans))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bct.evaluate",
            "agent=llm",
            "+game=twc",
            "num_variations=4",
            "batch_size=4",
            "progress=false",
            "agent.model=scripted",
            f"agent.base_url={server.url}",
            "agent.api_key_env=BCT_TEST_KEY",
            f"agent.cache_dir={tmp_path / 'cache'}",
            f"results_dir={tmp_path / 'results'}",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**__import__("os").environ, "BCT_TEST_KEY": KEY},
    )
    assert r.returncode == 0, r.stderr[-2000:]
    out = next((tmp_path / "results" / "llm-scripted-twc-modules").glob("dev-*"))
    res = json.loads((out / "results.json").read_text())
    assert res["avg_score"] == 1.0 and res["agent"] == "llm" and res["agent_stats"]["calls"] == len(server.requests)
    for f in [out / "results.json", out / "histories.jsonl", *Path(tmp_path / "cache").rglob("*.json")]:
        assert KEY not in f.read_text()
    assert KEY not in r.stdout + r.stderr
    hist = json.loads((out / "histories.jsonl").read_text().splitlines()[0])["history"]
    assert all("reply" in h for h in hist)


def test_a_real_local_model_plays_episodes_offline_answering_them_together_as_each_alone(tmp_path, gemma_folder):
    """Gemma 3 270M (its GGUF shipped by a PyPI package, de-quantized once: conftest) through the local backend:
    the loop works end to end. It generates for a step's episodes in one batch (prompts of different lengths,
    padded on the left), `concurrency` to a batch: each reply and its token counts are those of the conversation
    alone."""
    from bct.agents.llm_backends import LocalBackend

    backend = LocalBackend(str(gemma_folder))
    talks = [
        [{"role": "system", "content": "You play a text game."}, {"role": "user", "content": "You are in a kitchen."}],
        [{"role": "user", "content": "You see a red door and a blue box on a table. What do you do? " * 6}],
        [{"role": "user", "content": "Score: 0. Inventory: nothing."}],
    ]
    alone = [backend.chat(t, 8) for t in talks]
    assert backend.chat_batch(talks, 8) == alone and all(a["completion_tokens"] >= 1 for a in alone)

    offered, batches = {}, []

    class Checked(LLMAgent):  # records the valid actions of each step it was asked about
        def act(self, batch):
            offered.update({(ob.episode, len(ob.actions)): ob.step.valid_actions for ob in batch})
            return super().act(batch)

    class Counted(LocalBackend):
        def chat_batch(self, conversations, max_tokens):
            batches.append(len(conversations))
            return super().chat_batch(conversations, max_tokens)

    counted = Counted.__new__(Counted)
    counted.__dict__.update(backend.__dict__)
    a = Checked(get_game("twc"), client=counted, cache_dir=tmp_path, max_tokens=6, history_turns=1, concurrency=2)
    results = rollout(a, get_game("twc"), "dev", SEEDS[:3], True, batch_size=3, step_limit=1)
    assert batches[:2] == [2, 1]  # the three episodes' first queries: a batch of two, then one
    assert all(r.steps == 1 and 0.0 <= r.score <= 1.0 for r in results)
    assert a.stats()["calls"] == sum(r.steps for r in results) == sum(batches) and a.stats()["prompt_tokens"] > 0
    history = [(r.seed, k, h) for r in results for k, h in enumerate(r.history)]
    assert a.stats()["invalid_replies"] == sum(not h["valid_reply"] for _, _, h in history)
    # whatever the model said, the action sent was one the game or the module offered at that step
    assert len(offered) == len(history)
    assert all(h["action"] in offered[("twc", "dev", seed), k] for seed, k, h in history)
    # an evaluation of many games gives each game's agent the one loaded model
    one, two = (LLMAgent(get_game(g), backend="local", model=str(gemma_folder)) for g in ("twc", "sorting"))
    assert one.backend is two.backend


def test_a_pool_of_games_asks_one_local_model_for_all_their_episodes_at_once(tmp_path):
    """Several games played together (`ByGame`, as `bct.evaluate games=[...]` plays them) with one local model:
    one generation a step for the episodes of every game, `concurrency` to a batch, each reply going to its own
    episode and each game's agent counting its own calls; a refused batch fails its episodes alone; a backend that
    answers one query at a time is asked per game, as before."""
    import re as regex

    from bct.agents.base import ByGame, Observation
    from bct.agents.llm_backends import Refused
    from bct.modules.stack import Step

    def answer(messages):  # the room the episode's prompt names
        room = regex.findall(r"Room (\d+)", messages[-1]["content"])[-1]
        return {"text": f"go to room {room}", "prompt_tokens": 10 + int(room), "completion_tokens": 2}

    class Batching:  # a local model's interface, scripted
        model = "scripted"

        def __init__(self, refuse=()):
            self.batches, self.refuse = [], refuse

        def chat_batch(self, talks, max_tokens):
            self.batches.append(len(talks))
            if len(self.batches) in self.refuse:
                raise Refused("the server refused the request", 400, "bad request")
            return [answer(m) for m in talks]

    class OneAtATime:  # a server's interface: a query a call
        model = "scripted"

        def chat(self, messages, max_tokens):
            return answer(messages)

    games = [get_game("twc"), get_game("sorting")]
    for client, batches in ((Batching(), [3, 1]), (Batching(refuse=(2,)), [3, 1]), (OneAtATime(), None)):
        agents = {
            g.name: LLMAgent(g, client=client, cache_dir=tmp_path / str(id(client)), concurrency=3) for g in games
        }
        pool, batch = ByGame(agents), []
        for k, g in enumerate(games * 2):
            pool.start(g, "dev", 10000 + k, True)
            valid = [f"go to room {j}" for j in range(4)]
            step = Step("Do the task.", f"Room {k}.", f"Room {k}.", "Nothing.", valid, 0.0, False)
            batch.append(Observation(g, "dev", 10000 + k, True, step, "", []))
        decisions = pool.act(batch)
        refused = getattr(client, "refuse", ())
        assert [d.action for d in decisions] == [f"go to room {k}" if k != 3 or not refused else "" for k in range(4)]
        assert bool(decisions[3].error) == bool(refused)
        # episodes 0 and 2 are twc's, 1 and 3 sorting's: each game's agent counts its own calls and tokens
        counts = [(agents[g.name].stats()["calls"], agents[g.name].stats()["prompt_tokens"]) for g in games]
        assert counts == [(2, 22), (1, 11) if refused else (2, 24)]
        if batches:  # four episodes of two games: one generation of three, then one
            assert client.batches == batches


@pytest.mark.parametrize("family", ["arithmetic", "mapreader", "sorting", "twc"])
def test_table3_rules_per_game_without_module_commands_for_runs_without_modules(family):
    from bct.agents import llm_prompts as P
    from bct.worlds.twx.llm_hints import GUIDANCE, RULES

    hints = (RULES[family], GUIDANCE[family])
    with_modules = P.system_prompt(hints, "Do the task.", True, False, None, modules=True)
    without = P.system_prompt(hints, "Do the task.", True, False, None, modules=False)
    module_words = {"mapreader": "next step to", "sorting": "sort ascending", "twc": "query", "arithmetic": "div"}
    assert module_words[family] not in without and "helper tool" not in without
    assert ("helper tool" in with_modules) and (module_words[family] in with_modules) == (
        family in ("mapreader", "sorting")
    )
    for about_module, rule in RULES[family]:
        assert rule in with_modules and (rule in without) == (not about_module)
    guided = P.system_prompt(hints, "Do the task.", True, False, None, modules=True, guidance=True)
    assert all(g in guided and g not in with_modules for g in GUIDANCE[family])
    assert "rules" not in P.system_prompt(hints, "Do the task.", False, False, None, modules=True)


def test_local_backend_writes_the_special_tokens_once_and_thinking_gets_room():
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    from bct.agents.llm_backends import LocalBackend

    vocab = {w: i for i, w in enumerate(["<pad>", "<bos>", "<eos>", "<unk>", "user:", "hello", "model:"])}
    raw = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    raw.post_processor = processors.TemplateProcessing(single="<bos> $A", special_tokens=[("<bos>", 1)])
    tok = PreTrainedTokenizerFast(
        tokenizer_object=raw, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>", unk_token="<unk>"
    )
    tok.chat_template = "{{ bos_token }}{% for m in messages %}user: {{ m['content'] }} {% endfor %}model:"
    backend = LocalBackend.__new__(LocalBackend)
    backend.tokenizer = tok
    ids = backend.encode([{"role": "user", "content": "hello"}]).input_ids[0].tolist()
    assert ids.count(1) == 1 and ids[0] == 1  # one BOS, from the template
    tok.chat_template = None  # a base model's plain transcript: the tokenizer adds its BOS
    assert backend.encode([{"role": "user", "content": "hello"}]).input_ids[0].tolist().count(1) == 1
    twc = get_game("twc")
    assert (
        LLMAgent(twc, client=backend, think=True).max_tokens == 512 and LLMAgent(twc, client=backend).max_tokens == 32
    )


def test_a_local_openai_compatible_server_needs_no_key(monkeypatch):
    from bct.agents.llm import OpenAIBackend

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    backend = OpenAIBackend("local-model", "http://127.0.0.1:9/v1")
    assert backend.client.api_key  # some placeholder: the server ignores it
    with pytest.raises(UserError, match="no API key"):
        OpenAIBackend("gpt-4o", None)


def test_two_servers_with_one_model_name_are_not_answered_from_one_cache(plans, tmp_path):
    first, second = ChatServer(oracle_policy(plans)), ChatServer(oracle_policy(plans))
    rollout(agent(first, tmp_path), get_game("twc"), "dev", SEEDS[:1], True, batch_size=1)
    assert first.requests
    rollout(agent(second, tmp_path), get_game("twc"), "dev", SEEDS[:1], True, batch_size=1)  # same cache folder
    assert len(second.requests) == len(first.requests)  # asked, not answered with the first server's replies


def test_a_refused_request_fails_its_episode_alone_and_says_why(plans, tmp_path, monkeypatch):
    refused_obs = next(iter(plans))
    policy = oracle_policy(plans)
    server = ChatServer(policy)
    real = Handler.do_POST

    def do_post(self):
        length = int(self.headers["Content-Length"])
        body = self.rfile.read(length)
        if refused_obs in json.loads(body)["messages"][1]["content"]:
            self.send_response(400)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
            return
        from io import BytesIO

        self.rfile = BytesIO(body)
        real(self)

    monkeypatch.setattr(Handler, "do_POST", do_post)
    results = rollout(agent(server, tmp_path), get_game("twc"), "dev", SEEDS, True, batch_size=4)
    failed = [r for r in results if r.stop == "failed"]
    assert len(results) == 4 and len(failed) == 1
    assert "HTTP 400, which is not retried" in failed[0].error
    assert all(r.score == 1.0 for r in results if r.stop != "failed")  # the others went on


@pytest.mark.parametrize("structured", ["honour", "ignore", "refuse"])
def test_constrained_asks_for_a_reply_within_the_offered_actions_and_says_once_when_a_server_cannot(
    structured, plans, tmp_path, caplog
):
    server = ChatServer(oracle_policy(plans), structured=structured)
    a = agent(server, tmp_path, choice="constrained")
    assert a.run_name.endswith("-constrained")
    results = rollout(a, get_game("twc"), "dev", SEEDS[:2], True, batch_size=2)
    assert all(r.score == 1.0 for r in results)
    steps = sum(r.steps for r in results)
    body = server.requests[0]["body"]
    enum = body["response_format"]["json_schema"]["schema"]["properties"]["action"]["enum"]
    offered = body["messages"][1]["content"].split("The valid action set contains:")[1]
    plan = next(p for obs, p in plans.items() if obs in body["messages"][1]["content"])
    assert len(enum) > 5 and plan[0] in enum and all(a in offered for a in enum)
    said = [r.getMessage() for r in caplog.records if "structured" in r.getMessage()]
    stats = a.stats()
    if structured == "honour":
        assert stats["unstructured_replies"] == 0 and said == [] and stats["invalid_replies"] == 0
        assert all("response_format" in r["body"] for r in server.requests)
    elif structured == "ignore":  # free text: read as such, counted, said once
        assert stats["unstructured_replies"] == steps and len(said) == 1 and "does not enforce" in said[0]
    else:  # refused (once per request in flight), then asked for free text; said once with the server's words
        assert steps < len(server.requests) <= steps + 2 and len(said) == 1
        assert "HTTP 400" in said[0] and "response_format is not supported" in said[0]
        assert not any("response_format" in r["body"] for r in server.requests[2:])


def test_a_key_in_a_url_is_never_saved_or_shown():
    from bct.agents.llm import redact_url

    assert (
        redact_url("https://me:sk-1@api.example.com:8443/v1?api-key=sk-2&v=3")
        == "https://api.example.com:8443/v1?api-key=%2A%2A%2A&v=3"
    )


def test_with_memory_the_prompt_shows_the_remembered_facts_and_offers_recall(tmp_path):
    """Simon Says shown once: from the second step on only the memory still has the sequence, and the
    prompt carries it as facts; an agent that follows them (here, a scripted server) scores 1.0."""

    def follow_memory(messages):
        last = messages[-1]["content"]
        facts = re.findall(r"- Simon's action (\d+) is: (.+?)\.\n", last)
        done = len(re.findall(r"- Action \d+: ", last))
        return dict(facts)[str(done + 1)] if facts else "look"

    server = ChatServer(follow_memory)
    game = get_game("simonsays-memory")
    llm = LLMAgent(game, client=OpenAIBackend("scripted", server.url, "BCT_TEST_KEY"), cache_dir=tmp_path / "c")
    [result] = rollout(llm, game, "test", [20000], True, batch_size=1, step_limit=20)
    assert result.score == 1.0, result
    second = server.requests[1]["body"]["messages"]
    assert "'recall' actions" in second[0]["content"] and "recall sequence" in second[-1]["content"]
    assert "recall next" not in second[0]["content"] + second[-1]["content"]
    assert "What you remember:\n- Simon's action 1 is:" in second[-1]["content"]
    assert "Simon says" not in second[-1]["content"].split("What you remember")[0]
