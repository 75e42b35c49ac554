"""One job of `python -m bct.train +game=sorting epochs=8` (bct/train.py): train, then evaluate if asked.

Above training (bct.seq2seq.training) and evaluation (bct.evaluate), which know nothing of each other. In a
Hydra sweep (`-m`, locally or on SLURM) every job writes `job.json` in its folder (status,
checkpoint, results), which `python -m bct.tune` reads; a failing job is recorded and does not
stop the others.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import traceback
from pathlib import Path

from bct.agents.rollout import start_envs
from bct.config.runs import kept_checkpoints, read_run
from bct.config.settings import EvaluateSettings, TrainSettings
from bct.core.errors import UserError
from bct.core.files import read_json, write_atomic, write_json
from bct.jobs.evaluation import evaluate, evaluate_all
from bct.seq2seq.training import process_state, train

log = logging.getLogger(__name__)

JOB = "job.json"  # in each Hydra job folder: status, checkpoint, results


def settings_to_evaluate(cfg: TrainSettings, checkpoint: Path, fold: str, results_dir: Path) -> EvaluateSettings:
    """bct.evaluate's settings for the T5 agent on `checkpoint`, played as the train settings' `eval.*` say."""
    return EvaluateSettings(
        **cfg.eval.model_dump(),
        checkpoint=str(checkpoint),
        fold=fold,
        results_dir=str(results_dir),
        progress=cfg.progress,
        threads=cfg.threads,
    )


SELECTION = "selection.json"  # in a select=dev run's folder: dev score per kept epoch count, and the choice


def best(entries: list[dict]) -> dict:
    """Highest dev score; ties go to fewer epochs."""
    return max(entries, key=lambda e: (e["score"], -e["epochs"]))


def select_on_dev(cfg: TrainSettings, run_dir: Path) -> dict:
    """Evaluate every kept checkpoint of a select=dev run on dev (the run's eval.* settings) and write
    selection.json. Evaluations resume like any other, so an interrupted selection loses nothing."""
    start, entries = time.time(), []
    kept = kept_checkpoints(run_dir)
    game = cfg.played()  # one set of JVMs for every kept checkpoint: starting them is much of a short evaluation
    envs = start_envs(game, cfg.modules, min(cfg.eval.batch_size, cfg.eval.num_variations)) if kept else []
    try:
        outs = [
            evaluate(settings_to_evaluate(cfg, checkpoint, "dev", run_dir / "selection"), envs) for checkpoint in kept
        ]
    finally:
        for env in envs:
            env.close()
    for checkpoint, out in zip(kept, outs):
        r = read_json(out / "results.json", "results file", f"delete {out} and run the command again")
        entries.append(
            {
                "epochs": read_run(checkpoint)["settings"]["epochs"],
                "checkpoint": str(checkpoint.resolve()),
                "score": r["avg_score"],
                "steps": r["avg_steps"],
                "env_steps": r["avg_env_steps"],
                "results": str((out / "results.json").resolve()),
            }
        )
    if not entries:
        raise UserError(
            f"{run_dir} kept no checkpoint to select from: its training was shorter than "
            f"select_every={cfg.select_every} epochs"
        )
    metrics = read_run(run_dir).get("metrics", {})
    selection = {
        "fold": "dev",
        "num_variations": cfg.eval.num_variations,
        "eval": cfg.eval.model_dump(),
        "epochs": entries,
        "chosen": best(entries),
        "seconds": {"training": metrics.get("train_runtime"), "selection": round(time.time() - start, 1)},
    }
    write_json(run_dir / SELECTION, selection)
    return selection


class _SacctNotice(logging.Filter):
    """Where SLURM keeps no accounting (a small or test cluster), every status poll of submitit warns that
    sacct failed; one line says so instead, once."""

    said = False

    def filter(self, record: logging.LogRecord) -> bool:
        if "Bypassing sacct error" not in record.getMessage():
            return True
        if not _SacctNotice.said:
            _SacctNotice.said = True
            log.info(
                "SLURM keeps no accounting here (sacct fails): submitit follows the jobs with squeue instead "
                "(sacct's own 'accounting storage is disabled' lines are harmless)"
            )
        return False


def quiet_sweep_noise() -> None:
    logging.getLogger("submitit").addFilter(_SacctNotice())


def timed_out(e: BaseException | None) -> bool:
    """Whether an exception is (or was raised while handling) submitit's notice that SLURM's time limit
    came: its signal handler raises it inside whatever the job was doing."""
    while e is not None:
        if type(e).__name__ == "UncompletedJobError":
            return True
        e = e.__cause__ or e.__context__
    return False


def keep_time_limit_notice() -> None:
    """In a SLURM job, let SLURM's SIGCONT pass silently.

    SLURM sends SIGCONT just before the time-limit signal; submitit logs every SIGCONT, and when the
    time-limit signal lands while that log line is being written, the exception its handler raises to
    stop the job is swallowed by `logging` ("--- Logging error ---"). The job then trains on until
    SLURM kills it, leaves no result, and (where SLURM keeps no accounting) the sweep waits forever.
    """
    if "SLURM_JOB_ID" in os.environ and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGCONT, signal.SIG_DFL)


def run_job(cfg: TrainSettings, job_dir: Path, multirun: bool) -> dict:
    """Train, then evaluate if asked; `job.json` (and `error.txt` on failure) in the job folder say how it went.

    In a sweep a failing job is recorded and does not stop the others; a single run raises.
    """
    after = cfg.evaluate_after if cfg.evaluate_after != "auto" else ("dev" if multirun else "none")
    record = {
        "status": "running",
        "game": cfg.played().name if cfg.game else None,
        **({"games": [g.name for g in cfg.trained()]} if cfg.games else {}),
        "modules": cfg.modules,
        "model": cfg.model.name,
        "epochs": cfg.epochs,
        "evaluate_after": after,
        **({"slurm_job_id": os.environ["SLURM_JOB_ID"]} if "SLURM_JOB_ID" in os.environ else {}),
    }
    keep_time_limit_notice()
    if process_state().is_main_process:  # a job killed before it ends still says which job it was
        write_json(job_dir / JOB, record)
    try:
        run_dir = train(cfg)
        record["checkpoint"] = str(run_dir.resolve())
        record["metrics"] = read_run(run_dir).get("metrics", {})
        if cfg.epochs is None:  # a run of max_steps: the epochs it came to
            record["epochs"] = round(record["metrics"].get("epoch", 0), 2)
        if cfg.select == "dev" and process_state().is_main_process:
            chosen = select_on_dev(cfg, run_dir)["chosen"]
            record["selection"] = str((run_dir / SELECTION).resolve())
            run_dir = Path(chosen["checkpoint"])  # what evaluate_after plays: the chosen epochs
        if after != "none" and process_state().is_main_process:  # one evaluation, not one per GPU
            record["eval"] = cfg.eval.model_dump()
            start = time.time()
            outs = evaluate_all(settings_to_evaluate(cfg, run_dir, after, job_dir / "results"))
            found = [str((out / "results.json").resolve()) for out in outs]
            record["results"] = found[0] if len(found) == 1 else found  # a run of several games: one per game
            record["eval_seconds"] = round(time.time() - start, 1)
        record["status"] = "done"
    except Exception as e:
        if timed_out(e):  # SLURM's time limit, signalled through submitit: let submitit requeue or end it
            record.update(status="killed", error="its time limit: see hydra.launcher.timeout_min")
            raise
        record.update(status="failed", error=f"{type(e).__name__}: {e}")
        write_atomic(job_dir / "error.txt", traceback.format_exc())
        if not multirun:
            raise
        log.error("job failed (%s); see %s", record["error"], job_dir / "error.txt")
    finally:
        if process_state().is_main_process:
            write_json(job_dir / JOB, record)
    return record
