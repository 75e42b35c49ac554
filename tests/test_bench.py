"""bench scripts in reduced form: the GPU protocol on a CPU prints its table; the LLM rank bench agrees with its baseline."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench(*args: str, timeout: int) -> list[str]:
    """Run a bench script; the lines it printed."""
    r = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    return r.stdout.splitlines()


@pytest.mark.slow
def test_the_gpu_protocol_runs_reduced_on_a_cpu_and_prints_its_table():
    lines = bench("bench/gpu.py", "--reduced", "--variations", "1", timeout=900)
    header = next(line for line in lines if line.startswith("| precision"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "precision", "train s", "GPU use %", "train peak MB", "decoding", "episodes at once", "episodes/s",
        "eval peak MB", "score",
    ]  # fmt: skip
    rows = [line for line in lines if line.startswith("| bf16") or line.startswith("| fp32")]
    # two precisions x two decodings x (batched, one at a time), each with a score in [0, 1]
    assert len(rows) == 8 and {r.split("|")[5].strip() for r in rows} == {"diverse beams", "rank"}
    assert all(0.0 <= float(r.split("|")[9]) <= 1.0 for r in rows)
    assert lines[-1].startswith("ratio (batched / one at a time, rank, fp32): ")


@pytest.mark.slow
def test_llm_rank_bench_agrees_with_its_baseline_and_prints_the_ratio():
    lines = bench("bench/llm_rank.py", "--model", "tiny", "--steps", "3", timeout=300)
    assert float(lines[-2].removeprefix("largest score difference: ")) < 1e-4  # the same scores, read once
    assert lines[-1].startswith("ratio (baseline / shared): ") and float(lines[-1].split(": ")[1]) > 0


@pytest.mark.slow
def test_llm_batch_bench_answers_a_batch_as_one_at_a_time_and_prints_the_ratio():
    lines = bench(
        "bench/llm_batch.py", "--model", "tiny", "--game", "twc", "--steps", "4", "--max-tokens", "6", timeout=300
    )
    assert lines[-2].endswith("4 of 4 replies the same")  # left padding changes no reply
    assert lines[-1].startswith("ratio (one at a time / batched): ") and float(lines[-1].split(": ")[1]) > 0


@pytest.mark.slow
def test_decisions_bench_counts_what_a_checkpoint_gets_wrong_after_each_recall(tmp_path):
    """bench/decisions.py: teacher-forced on gold paths, every decision is counted once, by what it read."""
    from bct.config.settings import TrainSettings
    from bct.seq2seq.training import train

    run = train(
        TrainSettings(
            game="simonsays-memory",
            model="t5-tiny-scratch",
            epochs=1,
            num_games=10,
            data_dir=str(tmp_path / "data"),
            checkpoint_dir=str(tmp_path / "ck"),
            progress=False,
        )
    )
    lines = bench("bench/decisions.py", str(run), "--games", "2", timeout=300)
    counts = {line.split(":")[0].strip(): line.split(": ")[1] for line in lines if line.startswith("  after ")}
    # Simon Says shown once: 5 actions, each after a recall of the sequence; 5 recalls, each after anything else
    assert counts["after recall sequence"].split(" of ")[1].startswith("10 decisions")
    assert counts["after anything else"].split(" of ")[1].startswith("10 decisions")
    assert lines[-1].startswith("all decisions: ") and lines[-1].endswith("% differ")


@pytest.mark.slow
def test_mix_bench_compares_a_run_of_several_games_with_its_games_alone(tmp_path):
    lines = bench(
        "bench/mix.py", "--steps", "3", "games=[twc,coin-tales]", "modules=all", "model=t5-tiny-scratch",
        "num_games=3", "epochs=1", f"data_dir={tmp_path}", timeout=600,
    )  # fmt: skip
    lines = [line for line in lines if not line.startswith("{")]  # the trainer prints its metrics
    assert lines[0].startswith("twc-memory") and lines[1].startswith("coin-tales")
    assert float(lines[-1].split("ratio mixture / games alone: ")[1].split(";")[0]) > 0


@pytest.mark.slow
def test_scaling_bench_says_where_the_time_goes_and_prints_the_ratio():
    lines = bench("bench/scaling.py", "--variations", "4", "--at-once", "1", "2", timeout=300)
    assert "JVM start" in lines[0] and "game steps" in lines[0] and "modules" in lines[0]
    assert float(lines[-1].split(": ")[1]) > 0


def test_markov_fit_counts_the_examples_a_markov_agent_must_lose(tmp_path):
    """The same prompt followed by two actions: the rarer is lost; a path whose prompts say why it acts loses none."""
    import json

    def row(game, source, target):
        return json.dumps({"game": game, "source": source, "target": target, "valid_actions": []})

    wait = "OBS You decide to wait. </s> LOOK a flower pot 1 (containing a seedling, soil)"
    wet = "OBS You decide to wait. </s> LOOK a flower pot 1 (containing a seedling, soil, water)"
    data = tmp_path / "train.jsonl"
    rows = [row("simulator", wait, a) for a in ("wait1", "wait1", "wait1", "look around")]
    rows += [row("watched", wet, "wait1"), row("watched", wet, "wait1"), row("watched", wait, "activate sink")]
    data.write_text("\n".join(rows) + "\n")
    lines = bench("bench/markov_fit.py", str(data), timeout=120)
    lost = {line.split()[0]: float(line.split()[2]) for line in lines[1:]}
    assert lost == {"simulator": 0.25, "watched": 0.0, "all": round(1 / 7, 3)}
    assert "'wait1': 3, 'look around': 1" in next(line for line in lines if line.startswith("simulator"))


@pytest.mark.slow
def test_ensemble_read_bench_shares_each_encoders_reading_without_changing_a_score(tmp_path):
    """bench/ensemble_read.py on two tiny models trained alike: the same pooled candidates and scores either way."""
    from bct.config.settings import TrainSettings
    from bct.seq2seq.training import train

    runs = [
        train(
            TrainSettings(
                game="twc",
                model="t5-tiny-scratch",
                epochs=1,
                num_games=4,
                seed=seed,
                data_dir=str(tmp_path / "data"),
                checkpoint_dir=str(tmp_path / f"ck{seed}"),
                progress=False,
            )
        )
        for seed in (1, 2)
    ]
    args = ["--game", "twc", "--data", str(tmp_path / "data"), "--prompts", "6", "--repeats", "1"]
    lines = bench(
        "bench/ensemble_read.py", "--checkpoint", str(runs[0]), "--ensemble", str(runs[1]), *args, timeout=600
    )
    assert float(next(x for x in lines if x.startswith("largest score")).split(": ")[1]) < 1e-4
    assert float(next(x for x in lines if x.startswith("once / twice")).split(": ")[1].removesuffix("x the time")) > 0
