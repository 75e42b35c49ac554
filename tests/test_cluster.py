"""Sweeps on a real SLURM cluster: a single node on this machine (runscripts/slurm-local.sh), jobs through
Hydra's submitit launcher, read by bct.tune; a requeued job resumes; a job past its time limit is reported.

Where SLURM is not installed (apt-get install slurm-wlm munge) or the cluster cannot be started (needs
root), these tests are skipped with the reason."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bct.jobs.tuning import main as tune

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "runscripts" / "slurm-local.sh"
os.environ["PATH"] += os.pathsep + "/usr/sbin"  # Debian puts slurmctld, slurmd and munged there


def node_idle() -> bool:
    r = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True)
    return r.returncode == 0 and "idle" in r.stdout


@pytest.fixture(scope="module")
def cluster():
    if not shutil.which("slurmctld") or not shutil.which("sinfo"):
        pytest.skip("SLURM is not installed: apt-get install -y slurm-wlm munge (as root)")
    started = False
    if not node_idle():
        if os.geteuid() != 0:
            pytest.skip("no SLURM cluster is up, and starting one needs root: sudo runscripts/slurm-local.sh up")
        r = subprocess.run(["bash", str(SCRIPT), "up"], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            pytest.skip(f"runscripts/slurm-local.sh up failed: {(r.stdout + r.stderr).strip()[-300:]}")
        started = True
    yield
    if started:
        subprocess.run(["bash", str(SCRIPT), "down"], capture_output=True, timeout=60)


def sweep(tmp_path, *args, background=False, timeout=600):
    cmd = [
        sys.executable,
        "-m",
        "bct.train",
        "-m",
        "hydra/launcher=slurm",
        "+game=twc",
        "model=t5-tiny-scratch",
        "num_games=2",
        "eval.num_variations=2",
        "eval.agent.num_beams=2",
        "eval.batch_size=2",
        "progress=false",
        f"checkpoint_dir={tmp_path / 'ck'}",
        f"data_dir={tmp_path / 'data'}",
        f"hydra.sweep.dir={tmp_path / 'sweep'}",
        # the local node has no GPU and few cores: a CPU each, little memory
        "hydra.launcher.gpus_per_node=0",
        "hydra.launcher.cpus_per_task=1",
        "hydra.launcher.mem_gb=2",
        *args,
    ]
    if background:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def test_an_epoch_sweep_runs_as_slurm_jobs_and_tune_reads_them(cluster, tmp_path, capsys):
    r = sweep(tmp_path, "epochs=1,2", "hydra.launcher.timeout_min=10")
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    jobs = [json.loads(p.read_text()) for p in sorted((tmp_path / "sweep").glob("*/job.json"))]
    assert [j["status"] for j in jobs] == ["done", "done"]
    assert all(j["slurm_job_id"] for j in jobs) and len({j["slurm_job_id"] for j in jobs}) == 2  # two real jobs
    # submitit's sacct warnings are one line, not one per poll
    assert "Bypassing sacct error" not in r.stdout + r.stderr
    tune([str(tmp_path / "sweep"), "--dry-run"])
    printed = capsys.readouterr().out
    assert "<- best" in printed and "python -m bct.evaluate checkpoint=" in printed


def test_a_requeued_job_resumes_from_its_checkpoint_and_finishes(cluster, tmp_path):
    proc = sweep(
        tmp_path,
        "epochs=null",
        "max_steps=300",
        "save_strategy=steps",
        "save_steps=30",
        "evaluate_after=none",
        "hydra.launcher.timeout_min=10",
        background=True,
    )
    deadline = time.time() + 300
    while not list(tmp_path.glob("ck/*/trainer/checkpoint-*")):
        assert proc.poll() is None and time.time() < deadline, "the job ended before its first checkpoint"
        time.sleep(0.3)
    job_id = json.loads(next((tmp_path / "sweep").glob("*/job.json")).read_text())["slurm_job_id"]
    subprocess.run(["scontrol", "requeue", job_id], check=True)
    # skip SLURM's requeue delay (two minutes): once the job is pending again, let it start now
    deadline = time.time() + 60
    while time.time() < deadline:
        state = subprocess.run(["squeue", "-h", "-j", job_id, "-o", "%T"], capture_output=True, text=True).stdout
        if state.strip() == "PENDING":
            subprocess.run(["scontrol", "update", f"jobid={job_id}", "StartTime=now"], check=True)
            break
        time.sleep(0.3)
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, out[-3000:]
    job = json.loads(next((tmp_path / "sweep").glob("*/job.json")).read_text())
    assert job["status"] == "done" and job["metrics"]["global_step"] == 300
    assert "/trainer/checkpoint-" in job["metrics"]["resumed_from"]
    # resuming from a trainer checkpoint does not warn about T5's tied weights
    logs = "".join(p.read_text() for p in tmp_path.glob("sweep/**/*_log.err"))
    assert "missing keys" not in logs


def test_a_job_past_its_time_limit_is_reported_as_killed_not_as_a_result(cluster, tmp_path, capsys):
    # a two-minute limit whose warning signal comes a minute before it (SLURM checks every 30 s or so; an
    # earlier signal could land before submitit's handler is installed and kill the job unreported),
    # no requeue, and a training far longer than that
    r = sweep(
        tmp_path,
        "epochs=null",
        "max_steps=1000000",
        "evaluate_after=none",
        "hydra.launcher.timeout_min=2",
        "hydra.launcher.signal_delay_s=60",
        "hydra.launcher.max_num_timeout=0",
        timeout=400,  # a job that leaves no result would keep the sweep waiting
    )
    assert r.returncode != 0
    job = json.loads(next((tmp_path / "sweep").glob("*/job.json")).read_text())
    assert job["status"] == "killed" and "time limit" in job["error"]
    with pytest.raises(SystemExit) as exit:  # nothing to choose from: one line, exit 2
        tune([str(tmp_path / "sweep"), "--dry-run"])
    assert exit.value.code == 2
    printed = capsys.readouterr()
    assert "killed by SLURM (its time limit" in printed.out + printed.err
