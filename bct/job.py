"""`python -m bct.train +game=sorting epochs=8`: one job = train, then evaluate if asked.

Above training (bct.train) and evaluation (bct.evaluate), which know nothing of each other. In a
Hydra sweep (`-m`, locally or on SLURM) every job writes `job.json` in its folder (status,
checkpoint, results), which `python -m bct.tune` reads; a failing job is recorded and does not
stop the others.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf

from bct.config import CONF, entry
from bct.errors import UserError, exits_cleanly
from bct.evaluate import evaluate
from bct.files import read_json, write_atomic, write_json
from bct.games import game_of, variant_name
from bct.rollout import start_envs
from bct.runs import kept_checkpoints, read_run
from bct.train import process_state, train

log = logging.getLogger(__name__)

JOB = "job.json"  # in each Hydra job folder: status, checkpoint, results


def evaluation_config(cfg: DictConfig, checkpoint: Path, fold: str, results_dir: Path) -> DictConfig:
    """conf/evaluate.yaml for the T5 agent on `checkpoint`, with the train config's `eval` settings."""
    base = OmegaConf.load(CONF / "evaluate.yaml")
    for key in ("defaults", "hydra"):
        del base[key]
    base.agent = OmegaConf.load(CONF / "agent" / "t5.yaml")
    return OmegaConf.merge(
        base,
        {"checkpoint": str(checkpoint), "fold": fold, "results_dir": str(results_dir), "progress": cfg.progress},
        cfg.eval,
    )


SELECTION = "selection.json"  # in a select=dev run's folder: dev score per kept epoch count, and the choice


def best(entries: list[dict]) -> dict:
    """Highest dev score; ties go to fewer epochs."""
    return max(entries, key=lambda e: (e["score"], -e["epochs"]))


def select_on_dev(cfg: DictConfig, run_dir: Path) -> dict:
    """Evaluate every kept checkpoint of a select=dev run on dev (the run's eval.* settings) and write
    selection.json. Evaluations resume like any other, so an interrupted selection loses nothing."""
    start, entries = time.time(), []
    kept = kept_checkpoints(run_dir)
    game = game_of(cfg)  # one set of JVMs for every kept checkpoint: starting them is much of a short evaluation
    envs = start_envs(game, cfg.modules, min(cfg.eval.batch_size, cfg.eval.num_variations)) if kept else []
    try:
        outs = [evaluate(evaluation_config(cfg, checkpoint, "dev", run_dir / "selection"), envs) for checkpoint in kept]
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
        "eval": OmegaConf.to_container(cfg.eval),
        "epochs": entries,
        "chosen": best(entries),
        "seconds": {"training": metrics.get("train_runtime"), "selection": round(time.time() - start, 1)},
    }
    write_json(run_dir / SELECTION, selection)
    return selection


def run_job(cfg: DictConfig, job_dir: Path, multirun: bool) -> dict:
    """Train, then evaluate if asked; `job.json` (and `error.txt` on failure) in the job folder say how it went.

    In a sweep a failing job is recorded and does not stop the others; a single run raises.
    """
    after = cfg.evaluate_after if cfg.evaluate_after != "auto" else ("dev" if multirun else "none")
    game = cfg.get("game")
    record = {
        "status": "running",
        "game": game_of(cfg).name if game else None,
        "variant": variant_name(cfg.modules),
        "model": cfg.model.name,
        "epochs": cfg.epochs,
        "evaluate_after": after,
    }
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
            record["eval"] = OmegaConf.to_container(cfg.eval, resolve=True)
            start = time.time()
            out = evaluate(evaluation_config(cfg, run_dir, after, job_dir / "results"))
            record["results"] = str((out / "results.json").resolve())
            record["eval_seconds"] = round(time.time() - start, 1)
        record["status"] = "done"
    except Exception as e:
        record.update(status="failed", error=f"{type(e).__name__}: {e}")
        write_atomic(job_dir / "error.txt", traceback.format_exc())
        if not multirun:
            raise
        log.error("job failed (%s); see %s", record["error"], job_dir / "error.txt")
    finally:
        if process_state().is_main_process:
            write_json(job_dir / JOB, record)
    return record


@hydra.main(config_path=str(CONF), config_name="train", version_base="1.3")
@exits_cleanly
def _hydra_main(cfg: DictConfig) -> None:
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    hc = HydraConfig.get()
    try:
        record = run_job(cfg, Path(hc.runtime.output_dir), hc.mode == RunMode.MULTIRUN)
    except KeyboardInterrupt:
        print("\ninterrupted; run the same command again to resume where it stopped", file=sys.stderr)
        sys.exit(130)
    if record["status"] == "done" and "selection" in record:
        print(f"selection: {record['selection']}")
    if record["status"] == "done":
        m = record["metrics"]
        print(
            f"checkpoint: {record['checkpoint']} (train loss {m.get('train_loss', float('nan')):.4f}, "
            f"{m.get('train_runtime', 0):.0f} s)"
            + (f"; {record['evaluate_after']} results: {record['results']}" if "results" in record else "")
        )


main = entry(_hydra_main)


if __name__ == "__main__":
    main()
