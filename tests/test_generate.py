"""`python -m bct.generate` writes the files, a consistent manifest, resumes, rejects bad input; bct.show shows them."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bct.data.datasets import load_examples
from bct.data.generation import generate

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses


RUN = [sys.executable, "-m", "bct.generate", "progress=false"]


def run(*overrides, cwd=None):
    return subprocess.run([*RUN, *overrides], capture_output=True, text=True, cwd=cwd)


def test_generate_small_config_writes_files_and_manifest(tmp_path):
    out = tmp_path / "data"
    r = run("games=[sorting,twc-easy]", "modules=[true,false]", "folds=[train,dev]", "num_games=4", f"out_dir={out}")
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["files"]) == {
        f"{g}/{v}/{f}.jsonl" for g in ["sorting", "twc"] for v in ["modules", "nomodules"] for f in ["train", "dev"]
    }
    assert manifest["twx_version"] and manifest["config"]["num_games"] == 4
    for rel, entry in manifest["files"].items():
        rows = [json.loads(line) for line in (out / rel).read_text().splitlines()]
        assert entry["examples"] == len(rows) and entry["episodes"] == len({r["seed"] for r in rows}) == 4
        assert entry["gold_success_rate"] == 1.0
        assert {r["modules"] for r in rows} == {entry["modules"]} and {r["fold"] for r in rows} == {entry["fold"]}
        assert set(rows[0]) == {"source", "target", "valid_actions", "final", "game", "modules", "fold", "seed", "step"}
        assert rows[0]["step"] == 0 and rows[0]["source"].endswith("</s> PACT  </s> POBS  </s>")
        assert all(r["target"] in r["valid_actions"] for r in rows if not r["final"])
        finals = [r for r in rows if r["final"]]  # each episode ends with its final state -> 'completed'
        assert len(finals) == 4 and all(r["target"] == "completed" for r in finals)
    modules = (out / "sorting/modules/train.jsonl").read_text()
    assert (
        '"target": "sort ascending"' in modules
        and "sort ascending" not in (out / "sorting/nomodules/train.jsonl").read_text()
    )

    # a second run with the same settings keeps what is there; a new fold is added to the manifest
    before = (out / "sorting/modules/train.jsonl").stat().st_mtime_ns
    r = run("games=[sorting]", "modules=[true]", "folds=[train,test]", "num_games=4", f"out_dir={out}")
    assert r.returncode == 0, r.stderr
    assert (out / "sorting/modules/train.jsonl").stat().st_mtime_ns == before
    assert "sorting/modules/test.jsonl" in json.loads((out / "manifest.json").read_text())["files"]

    ds = load_examples(out / "sorting/modules/train.jsonl")
    assert len(ds) == manifest["files"]["sorting/modules/train.jsonl"]["examples"]
    assert len(load_examples(out / "twc")) == sum(
        e["examples"] for k, e in manifest["files"].items() if k.startswith("twc/")
    )


def test_workers_play_games_side_by_side_and_write_what_one_process_writes(tmp_path):
    """`workers=2`: each game in a process of its own; the files are those one process writes, byte for byte,
    and the manifest lists each (its seconds aside)."""
    outs = {n: tmp_path / f"w{n}" for n in (1, 2)}
    for n, out in outs.items():
        r = run(
            "games=[sorting,twc-easy]",
            "modules=[true]",
            "folds=[train]",
            "num_games=3",
            f"out_dir={out}",
            f"workers={n}",
        )
        assert r.returncode == 0, r.stderr
    manifests = {n: json.loads((out / "manifest.json").read_text())["files"] for n, out in outs.items()}
    assert set(manifests[1]) == set(manifests[2]) == {"sorting/modules/train.jsonl", "twc/modules/train.jsonl"}
    for rel in manifests[1]:
        assert (outs[1] / rel).read_bytes() == (outs[2] / rel).read_bytes()
        assert {k: v for k, v in manifests[1][rel].items() if k != "seconds"} == {
            k: v for k, v in manifests[2][rel].items() if k != "seconds"
        }


def _session(sid: int) -> list[str]:
    """The command lines of the processes of session `sid` (Linux's /proc)."""
    lines = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            if int(fields[3]) == sid:
                lines.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return lines


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_a_run_stopped_while_workers_play_leaves_no_worker_or_jvm_behind(tmp_path, stop):
    """A scheduler's stop (SIGTERM) or a SIGKILL while two workers play: the run's workers and their JVMs end with
    it, not playing on orphaned; the manifest it leaves is whole."""
    out = tmp_path / "d"
    # a whole fold each, so that neither worker ends its game before both JVMs were seen (the suite's load can slow
    # the second's start: at 400 games the suite once saw no two at once in 180 s)
    command = [*RUN, "games=[sorting,twc-easy]", "modules=[true]", "folds=[train]", "num_games=1000", f"out_dir={out}"]
    run = subprocess.Popen(
        [*command, "workers=2"], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.time() + 180
    while sum("java" in c for c in _session(run.pid)) < 2 and run.poll() is None and time.time() < deadline:
        time.sleep(0.5)
    assert run.poll() is None and sum("java" in c for c in _session(run.pid)) >= 2, "two workers' JVMs never ran"
    time.sleep(2)  # games under way
    run.send_signal(stop)
    assert run.wait(timeout=60) != 0
    deadline = time.time() + 30
    while _session(run.pid) and time.time() < deadline:
        time.sleep(0.5)
    assert _session(run.pid) == []
    if (out / "manifest.json").exists():
        json.loads((out / "manifest.json").read_text())


def test_the_longest_games_are_handed_out_first(tmp_path, monkeypatch):
    """Games go to the workers longest first (episodes to play x step limit): a long one handed out last runs alone at
    the end (ScienceWorld's genetics tasks did: its data took 1,656 s against 1,343 in this order)."""
    from bct.data import generation

    played = []
    monkeypatch.setattr(generation, "_play", lambda g, modules, files, out_dir, queue=None: played.append(g.name) or [])
    generate(["twc", "coin", "sorting"], [True], ["train"], num_games=4, out_dir=tmp_path, progress=False)
    assert played == ["coin", "twc", "sorting"]  # 4 x 120, then 4 x 50 in the order given
    played.clear()
    generate(
        ["coin", "twc"], [True], ["train"], num_games=4, num_games_of={"twc": 12}, out_dir=tmp_path, progress=False
    )
    assert played == ["twc", "coin"]  # 12 x 50 > 4 x 120


def test_bad_choices_give_one_line_and_exit_code_2(tmp_path):
    for override, says in [
        ("games=[chess]", "unknown game 'chess'; valid choices: arithmetic"),
        ("folds=[valid]", "unknown fold 'valid'; valid choices: dev, test, train"),
        ("modules=[both]", "modules: 'both' is not true, false or all"),
    ]:
        r = run(override, f"out_dir={tmp_path}")
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"error: {says}"), r.stderr


def test_generate_refuses_an_unwritable_out_dir_before_playing_and_a_corrupt_manifest(tmp_path, cli, one_line):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    one_line(cli("bct.generate", f"out_dir={a_file}", "progress=false"), f"out_dir={a_file} cannot be written")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "manifest.json").write_text('{"files": ')
    one_line(
        cli("bct.generate", f"out_dir={tmp_path / 'd'}", "progress=false"),
        "manifest.json is not a readable data manifest",
    )


def test_show_prints_examples_in_either_representation(tmp_path, cli, one_line):
    generate(["twc"], [True], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    r = cli("bct.show", "twc", "--data-dir", str(tmp_path), "-n", "2", "--entities", "placeholders")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("seed 0 step") == 2 and "target" in r.stdout and "<e1>" in r.stdout
    one_line(cli("bct.show", "arithmetic", "--data-dir", str(tmp_path)), "no data at")


def test_more_games_reuse_the_episodes_already_written(tmp_path):
    """num_games 2 -> 4 plays 2 episodes and writes the file a fresh 4-game run writes; 4 -> 3 plays none."""
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    generate(["sorting"], [True], ["train"], num_games=2, out_dir=grown, progress=False)
    manifest = generate(["sorting"], [True], ["train"], num_games=4, out_dir=grown, progress=False)
    entry = manifest["files"]["sorting/modules/train.jsonl"]
    assert entry["reused"] == 2 and entry["episodes"] == 4 and entry["settings"]["num_games"] == 4
    generate(["sorting"], [True], ["train"], num_games=4, out_dir=fresh, progress=False)
    rel = "sorting/modules/train.jsonl"
    assert (grown / rel).read_bytes() == (fresh / rel).read_bytes()

    manifest = generate(["sorting"], [True], ["train"], num_games=3, out_dir=grown, progress=False)
    entry = manifest["files"][rel]
    assert entry["reused"] == 3 and entry["episodes"] == 3
    assert {json.loads(line)["seed"] for line in (grown / rel).read_text().splitlines()} == {
        json.loads(line)["seed"] for line in (fresh / rel).read_text().splitlines()
    } - {max(json.loads(line)["seed"] for line in (fresh / rel).read_text().splitlines())}


def test_a_file_kept_by_its_settings_but_written_by_other_gold_path_code_is_named(tmp_path, caplog):
    """Data are kept by their settings; a change to a world's gold paths (a search, a rule) does not show in them. Each
    file records the gold-path code that wrote it, and one kept from other code is named with the fix."""
    from bct.data.generation import gold_code
    from bct.worlds.registry import get_game, world_of

    rel = "sorting/modules/train.jsonl"
    first = generate(["sorting"], [True], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    assert first["files"][rel]["gold_code"] == gold_code(world_of(get_game("sorting")))
    with caplog.at_level("WARNING"):
        assert (
            rel
            not in generate(["sorting"], [True], ["train"], num_games=2, out_dir=tmp_path, progress=False)["written"]
        )
    assert "gold-path code" not in caplog.text  # the same code: kept without a word
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["files"][rel]["gold_code"] = "0" * 16  # written by other code
    path.write_text(json.dumps(manifest))
    with caplog.at_level("WARNING"):
        again = generate(["sorting"], [True], ["train"], num_games=2, out_dir=tmp_path, progress=False)
    assert rel not in again["written"] and "other gold-path code" in caplog.text and "overwrite=true" in caplog.text


def test_the_gold_path_fingerprint_covers_what_the_gold_module_uses_of_its_folder():
    """ScienceWorld's gold.py calls its demonstrations (searches.py), which call the paint search (paints.py) and
    read names (text.py): a change to any of them is a change of gold-path code; bct's other folders are not."""
    from bct.core.source import sources

    names = {name for name, _ in sources("bct.worlds.scienceworld.gold")}
    assert {"searches", "paints", "text"} <= {n.rpartition(".")[2] for n in names}
    assert all(n.startswith("bct.worlds.scienceworld.") for n in names)


def test_a_file_from_other_seeds_is_played_again_where_they_differ(tmp_path):
    """Same settings, other seeds (ScienceWorld drew its variations from the first n before): the seeds the
    file lacks are played, the ones it holds reused; a manifest from before seeds were listed reads as the
    fold's first to last."""
    rel = "sorting/modules/train.jsonl"
    generate(["sorting"], [True], ["train"], num_games=3, out_dir=tmp_path, progress=False)
    path = tmp_path / "manifest.json"
    manifest = json.loads(path.read_text())
    entry = manifest["files"][rel]
    first, last = entry.pop("variations")[0], entry["seeds"][1]
    path.write_text(json.dumps(manifest))  # as bct wrote it before: first and last seed only
    again = generate(["sorting"], [True], ["train"], num_games=3, out_dir=tmp_path, progress=False)
    assert rel not in again["written"] and again["files"][rel]["seeds"] == [first, last]

    # written from other seeds: the file holds the first two of the three wanted
    rows = [line for line in (tmp_path / rel).read_text().splitlines() if json.loads(line)["seed"] != last]
    (tmp_path / rel).write_text("\n".join(rows) + "\n")
    manifest["files"][rel] |= {"variations": [first, first + 1, last + 40], "episodes": 2}
    path.write_text(json.dumps(manifest))
    entry = generate(["sorting"], [True], ["train"], num_games=3, out_dir=tmp_path, progress=False)["files"][rel]
    assert entry["reused"] == 2 and entry["episodes"] == 3 and entry["variations"] == list(range(first, last + 1))
    assert {json.loads(line)["seed"] for line in (tmp_path / rel).read_text().splitlines()} == {first, first + 1, last}


def test_a_mix_gives_a_game_its_own_number_of_games_as_bct_train_reads_it(tmp_path, cli, one_line):
    """`+mix.GAME.num_games=N` (bct.train's key) plays N games of that game, `num_games` of the others, and the
    training run with the same mix finds its data written; a mix key naming no game of the run is one line."""
    r = run(
        "games=[sorting,arithmetic]",
        "modules=[true]",
        "folds=[train]",
        "num_games=2",
        f"out_dir={tmp_path}",
        "+mix.sorting.num_games=5",
        "+mix.sorting.passes=3",
    )
    assert r.returncode == 0, r.stderr[-2000:]
    files = json.loads((tmp_path / "manifest.json").read_text())["files"]
    assert files["sorting/modules/train.jsonl"]["episodes"] == 5
    assert files["arithmetic/modules/train.jsonl"]["episodes"] == 2
    assert files["sorting/modules/train.jsonl"]["settings"]["num_games"] == 5
    one_line(
        cli("bct.generate", "games=[sorting]", f"out_dir={tmp_path}", "+mix.twc.num_games=3", "progress=false"),
        "mix.twc: not a game of this run (sorting)",
    )
