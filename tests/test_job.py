"""Jobs and sweeps: train then evaluate, Hydra multirun (local submitit launcher), SLURM settings, bct.jobs.tuning."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bct.jobs.job as jobs
from bct.jobs.tuning import main as tune

pytestmark = pytest.mark.slow  # integration: JVMs, training, subprocesses

TINY_RUN = ["+game=twc", "model=t5-tiny-scratch", "epochs=1", "num_games=2"]


ROOT = Path(__file__).resolve().parent.parent


TINY = [
    "+game=twc",
    "model=t5-tiny-scratch",
    "num_games=2",
    "eval.num_variations=2",
    "eval.agent.num_beams=2",
    "eval.batch_size=2",
    "progress=false",
]


def sweep(tmp_path, *args):
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bct.train",
            "-m",
            *TINY,
            f"checkpoint_dir={tmp_path / 'ck'}",
            f"data_dir={tmp_path / 'data'}",
            f"hydra.sweep.dir={tmp_path / 'sweep'}",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    return tmp_path / "sweep"


def test_local_launcher_sweep_and_tune(tmp_path, capsys):
    out = sweep(
        tmp_path, "hydra/launcher=local", "epochs=1,2", "eval.agent.decoding=generate", "eval.agent.beam_groups=2"
    )
    jobs = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/job.json")}
    assert set(jobs) == {"0", "1"}
    assert (out / ".submitit").is_dir()  # ran as submitit jobs
    for job in jobs.values():
        assert job["status"] == "done" and Path(job["checkpoint"], "bct_config.json").exists()
        assert json.loads(Path(job["results"]).read_text())["fold"] == "dev"
    scores = {j["epochs"]: json.loads(Path(j["results"]).read_text())["avg_score"] for j in jobs.values()}
    chosen = 1 if scores[1] >= scores[2] else 2  # ties go to fewer epochs

    tune([str(out)])  # on test with the sweep's evaluator settings: 2 variations, generate, 2 beams in 2 groups
    printed = capsys.readouterr().out
    assert f"best epochs {chosen}, test score" in printed
    table = (out / "tuning-results.txt").read_text()
    assert "twc (modules, t5-tiny-scratch), dev set, 2 variations" in table
    assert "cost: 2 training(s)" in table  # what the protocol cost: both trainings and their dev evaluations
    assert [line.split()[0] for line in table.splitlines() if line.strip().endswith("<- best")] == [str(chosen)]
    assert (out / "tuning-scores.png").stat().st_size > 5000
    test = json.loads(next((out / "test-results").rglob("results.json")).read_text())
    assert test["fold"] == "test" and test["num_variations"] == 2 and f"-ep{chosen}-" in test["checkpoint"]
    assert (test["settings"]["decoding"], test["settings"]["num_beams"], test["settings"]["beam_groups"]) == (
        "generate",
        2,
        2,
    )


def test_a_sweep_over_any_setting_gives_each_job_its_own_checkpoint(tmp_path):
    out = sweep(tmp_path, "epochs=1", "lr=0.001,0.002", "seed=1,2", "evaluate_after=none")
    jobs = [json.loads(p.read_text()) for p in out.glob("*/job.json")]
    assert len(jobs) == 4 and all(j["status"] == "done" for j in jobs)
    assert len({j["checkpoint"] for j in jobs}) == 4


def test_a_failed_job_is_reported_and_the_rest_still_chosen(tmp_path, capsys):
    # both jobs are told to use one checkpoint folder, with different lr: the second is refused, and fails alone
    out = sweep(tmp_path, "epochs=1", "lr=0.001,0.002", "run_name=shared")
    failed = [
        json.loads(p.read_text()) for p in out.glob("*/job.json") if json.loads(p.read_text())["status"] == "failed"
    ]
    assert len(failed) == 1 and "another config" in failed[0]["error"]
    assert len(list(out.glob("*/error.txt"))) == 1
    tune([str(out), "--dry-run"])
    printed = capsys.readouterr().out
    assert "Jobs without results:" in printed and "failed: UserError" in printed
    assert "python -m bct.evaluate checkpoint=" in printed and "fold=test" in printed


def test_slurm_launcher_settings_without_a_cluster():
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bct.train",
            "hydra/launcher=slurm",
            "+game=sorting",
            "epochs=4",
            "hydra.launcher.partition=a100",
            "--cfg",
            "hydra",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    for line in [
        "partition: a100",
        "gpus_per_node: 1",
        "timeout_min: 120",
        "cpus_per_task: 8",
        "mem_gb: 32",
        "submitit_folder: ${hydra.sweep.dir}/.submitit/%j",
        "SlurmLauncher",
    ]:
        assert line in r.stdout, line


def test_under_accelerate_only_the_main_process_evaluates_and_writes_job_json(
    tmp_path, monkeypatch, train_config, fake_state
):
    calls = []
    monkeypatch.setattr(jobs, "train", lambda cfg: tmp_path)
    monkeypatch.setattr(jobs, "evaluate_all", lambda cfg: calls.append(cfg) or [tmp_path])
    (tmp_path / "bct_config.json").write_text("{}")
    for main, evaluations in ((False, 0), (True, 1)):
        monkeypatch.setattr(jobs, "process_state", lambda main=main: fake_state(main))
        job = tmp_path / f"job-{main}"
        job.mkdir()
        jobs.run_job(train_config(*TINY, "evaluate_after=dev"), job, multirun=True)
        assert len(calls) == evaluations and (job / "job.json").exists() == main


def test_select_on_dev_keeps_checkpoints_chooses_by_dev_score_and_resumes(train_config, tmp_path, monkeypatch, capsys):
    cfg = train_config(
        "+game=twc",
        "model=t5-tiny-scratch",
        "num_games=2",
        "epochs=4",
        "select=dev",
        "select_every=2",
        "eval.num_variations=2",
        "eval.batch_size=2",
        "eval.agent.num_beams=2",
    )
    calls = []
    real = jobs.evaluate

    def interrupted(c, envs=None):  # the selection is cut off after its first evaluation
        calls.append(c.checkpoint)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(c, envs)

    monkeypatch.setattr(jobs, "evaluate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        jobs.run_job(cfg, tmp_path / "job", multirun=False)
    monkeypatch.setattr(jobs, "evaluate", real)
    record = jobs.run_job(cfg, tmp_path / "job", multirun=False)  # resumes: trained once, first evaluation kept
    selection = json.loads(Path(record["selection"]).read_text())
    assert [e["epochs"] for e in selection["epochs"]] == [2, 4] and selection["fold"] == "dev"
    assert selection["chosen"] == jobs.best(selection["epochs"])
    first = json.loads(Path(selection["epochs"][0]["results"]).read_text())
    assert first["num_variations"] == 2 and first["checkpoint"].endswith("-ep2")
    played = Path(selection["epochs"][0]["results"]).with_name("histories.jsonl").read_text().splitlines()
    assert len(played) == 2  # the evaluation done before the interruption was not played again
    kept = json.loads((Path(selection["epochs"][0]["checkpoint"]) / "bct_config.json").read_text())
    assert kept["settings"]["epochs"] == 2 and kept["status"] == "done"

    tune([str(Path(record["selection"]).parent), "--dry-run"])
    printed = capsys.readouterr().out
    assert f"-ep{selection['chosen']['epochs']} fold=test" in printed and "<- best" in printed
    assert "cost: 1 training(s)" in printed  # one training, however many checkpoints it kept
    assert selection["seconds"]["selection"] > 0 and selection["seconds"]["training"] > 0


def test_ties_go_to_fewer_epochs():
    entries = [{"epochs": 4, "score": 0.9}, {"epochs": 2, "score": 0.9}, {"epochs": 6, "score": 0.8}]
    assert jobs.best(entries)["epochs"] == 2


class TimeLimit(Exception):
    pass


def test_slurms_time_limit_signal_is_not_lost_while_sigcont_is_logged(monkeypatch):
    """SLURM sends SIGCONT just before the time-limit signal (SIGUSR2 through submitit). submitit logs each
    SIGCONT; a time-limit signal that lands during that log line raises inside `logging`, which swallows
    it, and the job trains on until it is killed. bct's job lets SIGCONT pass silently."""
    import io
    import logging
    import os
    import signal

    class Stream(io.StringIO):  # the time-limit signal arrives while a log line is written
        def write(self, s):
            os.kill(os.getpid(), signal.SIGUSR2)
            return super().write(s)

    logger = logging.getLogger("submitit-like")
    logger.propagate = False
    logger.addHandler(logging.StreamHandler(Stream()))
    monkeypatch.setattr(logging, "raiseExceptions", False)  # as in production: handleError says nothing

    def time_limit(signum, frame):
        raise TimeLimit

    saved = {s: signal.getsignal(s) for s in (signal.SIGCONT, signal.SIGUSR2)}
    try:
        signal.signal(signal.SIGUSR2, time_limit)
        signal.signal(signal.SIGCONT, lambda signum, frame: logger.warning("Bypassing signal SIGCONT"))
        os.kill(os.getpid(), signal.SIGCONT)  # what submitit does alone: the time limit is lost
        monkeypatch.setenv("SLURM_JOB_ID", "7")
        jobs.keep_time_limit_notice()
        assert signal.getsignal(signal.SIGCONT) == signal.SIG_DFL
        with pytest.raises(TimeLimit):  # with bct's job: SIGCONT passes, the time limit stops the job
            os.kill(os.getpid(), signal.SIGCONT)
            os.kill(os.getpid(), signal.SIGUSR2)
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
