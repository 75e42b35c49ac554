"""Reading results back: bct.report and bct.compare beside the published numbers, damaged files skipped."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bct.jobs.evaluation as ev
from bct.jobs.evaluation import evaluate

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses

ROOT = Path(__file__).resolve().parent.parent


def test_compare_table_and_chart(tmp_path, compose):
    for overrides in (["agent=oracle", "+game=twc"], ["agent=random", "+game=sorting", "modules=false"]):
        cfg = compose(
            "evaluate", *overrides, "num_variations=2", "batch_size=2", "progress=false", f"results_dir={tmp_path}"
        )
        evaluate(cfg)
    r = subprocess.run([sys.executable, "-m", "bct.compare", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert "on dev" in lines[0]  # no test results here: the dev results are compared
    assert any(line.startswith("| Oracle+mod |  |  |  | 1.00 (") and line.endswith("|  |") for line in lines)
    oracle = json.loads(next(tmp_path.glob("oracle-twc-modules/dev-*/results.json")).read_text())
    env_steps = f"1.00 ({oracle['avg_env_steps']:.0f})"  # environment steps, as published: module calls not counted
    assert f"|  |  |  | {env_steps} |" in r.stdout and oracle["avg_env_steps"] < oracle["avg_steps"]
    assert any(line.startswith("| Random |  |  | ") for line in lines)
    assert "| BCT t5-base+mod (published) | 1.00 (5) | 1.00 (10) | 0.98 (8) | 0.97 (3) | 0.99 (7) |" in lines
    assert (tmp_path / "comparison-dev.md").read_text().strip() in r.stdout
    png = tmp_path / "comparison-dev.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert png.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("ours", [1, 6, 16])
def test_the_comparison_chart_fits_a_paper_column_with_its_legend_under_a_fifth_of_it(ours, tmp_path):
    from PIL import Image

    from bct.reports.compare import chart, comparisons

    cells = {"arithmetic": (0.9, 10), "mapreader": (0.8, 12), "sorting": (1.0, 8), "twc": (0.95, 9)}
    rows = {f"BCT t5-cpu-scratch-ep{k} placeholders rank+mod [numLocations=30]": cells for k in range(ours)}
    share = chart(rows, comparisons()["paper"], tmp_path / "c.png", "test")
    assert 0.01 < share < 0.2
    width, height = Image.open(tmp_path / "c.png").size
    assert width == 3.5 * 300 and height >= 2.2 * 300  # a column's width at 300 dpi
    assert (tmp_path / "c.pdf").read_bytes()[:5] == b"%PDF-"


def test_report_compare_and_tune_skip_or_name_damaged_files(tmp_path, capsys, compose, cli):
    from bct.core.results import collect
    from bct.jobs.tuning import read_jobs

    ev.evaluate(
        compose(
            "evaluate",
            "agent=random",
            "+game=twc",
            "num_variations=2",
            "batch_size=2",
            "progress=false",
            f"results_dir={tmp_path / 'r'}",
        )
    )
    bad = tmp_path / "r" / "other" / "dev" / "results.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{oops")
    rows = collect(tmp_path / "r")
    assert len(rows) == 1 and "skipped" in capsys.readouterr().err
    r = cli("bct.compare", str(tmp_path / "r"))
    assert r.returncode == 0 and "Random+mod" in r.stdout and "skipped" in r.stderr
    sweep = tmp_path / "sweep" / "0"
    sweep.mkdir(parents=True)
    (sweep / "job.json").write_text("{broken")
    jobs, problems = read_jobs(tmp_path / "sweep")
    assert jobs == [] and "job.json is damaged" in problems[0]


@pytest.mark.parametrize(
    "module, args, says",
    [
        ("bct.compare", ["/nonexistent/results"], "no results folder at /nonexistent/results"),
        ("bct.compare", ["--fold", "nosuch"], "invalid choice: 'nosuch'"),
        ("bct.report", ["--fold", "nosuch"], "invalid choice: 'nosuch'"),
    ],
)
def test_bad_arguments_are_one_line(cli, one_line, module, args, says):
    one_line(cli(module, *args), says)


def test_llm_rows_carry_their_invalid_reply_share(tmp_path, cli):
    from bct.reports.compare import agent_rows, comparisons

    def write(run, invalid):
        row = {
            "game": "twc",
            "modules": True,
            "fold": "test",
            "agent": "llm",
            "checkpoint": None,
            "num_variations": 6,
            "avg_score": 0.83,
            "avg_steps": 19.5,
            "avg_env_steps": 19.5,
            "avg_module_steps": 0,
            "settings": {},
            "agent_stats": {"invalid_replies": invalid},
        }
        (tmp_path / run / "test").mkdir(parents=True)
        (tmp_path / run / "test" / "results.json").write_text(json.dumps(row))

    write("llm-gemma-twc-modules", 117)  # every reply: the fallback played
    write("llm-gpt-twc-modules", 3)
    _, rows = agent_rows(tmp_path, "test", comparisons()["paper"])
    assert "LLM gemma+mod [100% invalid replies; mostly the fallback's actions]" in rows
    assert "LLM gpt+mod [3% invalid replies]" in rows
    r = cli("bct.report", str(tmp_path))
    assert r.returncode == 0 and "100% *" in r.stdout and "most actions came from the closest-valid-action" in r.stdout


def _result(root, training, task, fold, score, protocol=None, draw=1, history_scores=None):
    """A results folder as bct.evaluate writes it: one training's play of one ScienceWorld task."""
    settings = {"checkpoint": f"/ckpt/{training}/recipe", "fold": fold, **({"protocol": protocol} if protocol else {})}
    settings |= {"draw": draw} if draw != 1 else {}
    out = root / training / f"recipe-on-scienceworld-{task}" / f"{fold}-{protocol or 'bct'}{draw}"
    out.mkdir(parents=True)
    r = {"game": f"scienceworld-{task}-nomemory", "modules": True, "fold": fold, "agent": "t5", "avg_score": score,
         "avg_steps": 10.0, "avg_env_steps": 10.0, "settings": settings, **({"protocol": protocol} if protocol else {})}  # fmt: skip
    (out / "results.json").write_text(json.dumps(r))
    history = [{"score": s, "from_module": False} for s in history_scores or [score]]
    (out / "histories.jsonl").write_text(json.dumps({"seed": 1, "history": history}) + "\n")


def test_a_recipe_is_reported_as_the_mean_and_spread_of_its_trainings_on_each_fold_draw_and_loop(tmp_path):
    from bct.core.results import collect
    from bct.worlds.scienceworld.report import recipes_table

    for training, base in [("seed42", 0.6), ("seed43", 0.8)]:
        for task in ("boil", "find-plant"):
            # bct's loop on dev: the table reads TALES's measure, the best score in play, not the final 0.0
            _result(tmp_path, training, task, "dev", 0.0, history_scores=[base, 0.0])
            _result(tmp_path, training, task, "test", base, protocol="tales")
            _result(tmp_path, training, task, "test", base - 0.1, draw=2)
    table = recipes_table(collect(tmp_path))
    header, _, row = table.splitlines()[:3]
    assert header == "| recipe | dev | test, second draw | test (TALES's loop) |"
    assert row.startswith("| recipe |")  # the run, whatever task it played
    assert "0.700 (0.600-0.800, 2 trainings), 2 tasks" in row  # dev and TALES's loop: mean of 0.6 and 0.8
    assert "0.600 (0.500-0.700, 2 trainings), 2 tasks" in row  # the second draw
    assert "| boil | 0.70 (0.60-0.80) |" in table and "claude-opus-4.5" in table


def test_the_per_task_table_keeps_folds_and_trainings_apart_and_leaves_tales_loop_to_the_recipes_table(tmp_path):
    from bct.core.results import collect
    from bct.worlds.scienceworld.report import scienceworld_table

    for training, base in [("seed42", 0.6), ("seed43", 0.8)]:
        _result(tmp_path, training, "boil", "dev", base)
        _result(tmp_path, training, "boil", "test", base, protocol="tales")
    _result(tmp_path, "seed42", "boil", "test", 0.3)
    header = scienceworld_table(collect(tmp_path)).splitlines()[0]
    columns = [c.split(":")[0].strip() for c in header.split(" | ")[1:]]
    assert sorted(columns) == ["recipe [seed42] (dev)", "recipe [seed42] (test)", "recipe [seed43] (dev)"]


def _pass(root, training, game, scores):
    """One pass of one training on one game, bct's loop: results.json with its runs (variation seeds 1, 2, ...)."""
    out = root / training / f"recipe-on-{game}" / "dev-x"
    out.mkdir(parents=True)
    runs = [{"seed": i + 1, "score": s} for i, s in enumerate(scores)]
    r = {"game": game, "modules": True, "fold": "dev", "agent": "t5", "avg_score": sum(scores) / len(scores),
         "avg_steps": 10.0, "avg_env_steps": 10.0, "num_variations": len(scores),
         "settings": {"checkpoint": f"/ckpt/{training}"}, "per_variation": runs}  # fmt: skip
    (out / "results.json").write_text(json.dumps(r))


def test_two_passes_of_the_same_weights_are_compared_run_by_run_with_an_interval(tmp_path, cli, one_line):
    """`bct.report A --against B`: a lever's pass against the pass without it, the same episodes paired."""
    from bct.reports.paired import compare, per_episode

    lever, base = tmp_path / "lever", tmp_path / "base"
    for training in ("seed42", "seed43"):
        _pass(base, training, "boil", [0.2, 0.5, 1.0, 1.0])
        _pass(base, training, "find-plant", [1.0, 1.0])
    _pass(lever, "seed42", "boil", [1.0, 0.5, 1.0, 1.0])  # one run up
    _pass(lever, "seed42", "find-plant", [1.0, 1.0])
    _pass(lever, "seed43", "boil", [0.2, 0.5, 1.0, 0.6])  # one run down
    _pass(lever, "seed43", "find-plant", [1.0, 1.0])
    _pass(lever, "seed44", "boil", [1.0])  # weights the other pass never played: left out, and said
    result = compare(per_episode(lever), per_episode(base))
    by = {Path(r["weights"][0]).name: r for r in result["trainings"]}
    assert (by["seed42"]["changed"], by["seed42"]["up"], by["seed43"]["down"]) == (1, 1, 1)
    assert by["seed42"]["diff"] == pytest.approx(0.8 / 4 / 2)  # boil's mean +0.2, find-plant level: mean of games
    assert result["diff"] == pytest.approx((0.1 - 0.05) / 2)
    low, high = result["interval"]
    assert low < 0 < high and low <= result["diff"] <= high  # one run up, one down: no sign to choose by
    assert result["only_a"] == 1 and result["only_b"] == 0
    r = cli("bct.report", str(lever), "--against", str(base))
    assert r.returncode == 0, r.stderr[-2000:]
    row = next(line for line in r.stdout.splitlines() if line.startswith("| seed42 |"))
    assert row.startswith("| seed42 | 2 | 6 | 0.93") and row.endswith("| +0.100 | 1 (1 / 0) |")  # 0.9375 against 0.8375
    assert "- seed43, boil: 0.575, 0.675 (-0.100)" in r.stdout  # the games that moved, each training's
    assert "Unmatched evaluations, left out: 1 in A, 0 in B" in r.stdout
    other = tmp_path / "other"
    _pass(other, "seed99", "boil", [0.5])
    one_line(cli("bct.report", str(lever), "--against", str(other)), "--against compares two passes of the same")
