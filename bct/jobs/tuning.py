"""`python -m bct.tune <sweep_dir | run_dir>`: the paper's epoch tuning, from the jobs of a `bct.train -m`
sweep, or from the kept checkpoints of one `select=dev` run (its selection.json).

Reads every job's dev results, prints and writes a table of dev score and steps by epochs (per game
and module setting, `tuning-results.txt`), plots score against epochs (`tuning-scores.png`), picks the best
epochs (ties go to fewer epochs) and evaluates that checkpoint on test, or prints the command
(`--dry-run`). Failed or unfinished jobs are reported, not fatal.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from bct.config.runs import RUN_RECORD
from bct.core.errors import ArgumentParser, UserError, exits_cleanly
from bct.core.files import read_json, write_atomic
from bct.jobs.job import JOB, SELECTION, best
from bct.worlds.registry import modules_label


def killed(job: dict, sweep_dir: Path) -> str | None:
    """Why SLURM ended a job that never recorded its end, from the line SLURM writes into the job's log in
    submitit's folder ("*** JOB 12 ON node CANCELLED AT ... DUE TO TIME LIMIT ***"); None if it did not."""
    job_id = job.get("slurm_job_id")
    if not job_id:
        return None
    for log in sweep_dir.glob(".submitit/**/*_log.err"):
        for line in log.read_text(errors="replace").splitlines():
            if f"JOB {job_id} " in line and "CANCELLED" in line:
                return "its time limit, hydra.launcher.timeout_min" if "TIME LIMIT" in line else "cancelled"
    return None


def read_jobs(sweep_dir: Path) -> tuple[list[dict], list[str]]:
    """Finished jobs with dev results, and a line for each job that failed or left no results."""
    jobs, problems = [], []
    folders = sorted(
        {p.parent.parent for p in sweep_dir.rglob(".hydra/config.yaml")} | {p.parent for p in sweep_dir.rglob(JOB)}
    )
    for folder in folders:
        name = folder.relative_to(sweep_dir)
        if not (folder / JOB).exists():
            problems.append(f"{name}: no {JOB} (still running, killed, or not a bct.train job)")
            continue
        try:
            job = json.loads((folder / JOB).read_text())
            job["status"]  # noqa: B018 - a job record has a status
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
            problems.append(f"{name}: {JOB} is damaged (not a job record)")
            continue
        if job["status"] == "done" and job.get("selection"):  # a select=dev run: one entry per kept epoch count
            jobs += selection_jobs(Path(job["selection"]), {**job, "folder": str(folder)})
        elif job["status"] == "killed" or (job["status"] == "running" and killed(job, sweep_dir)):
            problems.append(f"{name}: killed by SLURM ({job.get('error') or killed(job, sweep_dir)}); no result")
        elif job["status"] != "done":
            problems.append(f"{name}: {job['status']}: {job.get('error', '')}".rstrip(": "))
        elif isinstance(job.get("results"), list):  # one results file per game: nothing to rank on one game
            problems.append(
                f"{name}: a run of several games ({', '.join(job.get('games', []))}); bct.tune ranks runs of one"
            )
        elif "results" not in job or not Path(job["results"]).exists():
            problems.append(f"{name}: trained but not evaluated (evaluate_after={job.get('evaluate_after')})")
        else:
            try:
                res = json.loads(Path(job["results"]).read_text())
                res["avg_score"]  # noqa: B018
            except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
                problems.append(f"{name}: its results file {job['results']} is damaged")
                continue
            jobs.append(
                {
                    **job,
                    "folder": str(folder),
                    "fold": res["fold"],
                    "score": res["avg_score"],
                    "steps": res["avg_steps"],
                    "n": res["num_variations"],
                    "train_seconds": job.get("metrics", {}).get("train_runtime"),
                    "eval_seconds": job.get("eval_seconds"),
                }
            )
    return jobs, problems


def selection_jobs(selection_file: Path, base: dict) -> list[dict]:
    """The kept checkpoints of a select=dev run (its selection.json), as the jobs of a sweep."""
    sel = read_json(selection_file, "selection file", "run its training command again to remake it")
    return [
        {
            **base,
            "epochs": e["epochs"],
            "checkpoint": e["checkpoint"],
            "fold": sel["fold"],
            "score": e["score"],
            "steps": e["steps"],
            "n": sel["num_variations"],
            "eval": sel["eval"],
            "train_seconds": sel["seconds"]["training"],  # one training and one selection for all its entries
            "eval_seconds": sel["seconds"]["selection"],
        }
        for e in sel["epochs"]
    ]


def read_run_selection(run_dir: Path) -> list[dict]:
    """A select=dev run folder given to bct.tune directly."""
    settings = read_json(run_dir / RUN_RECORD, "run record", f"delete {run_dir}")["settings"]
    base = {
        "game": settings["game"],
        "modules": settings["modules"],
        "model": settings["model"]["name"],
        "folder": str(run_dir),
    }
    return selection_jobs(run_dir / SELECTION, base)


def cost(jobs: list[dict]) -> str:
    """What a group's tuning cost: training and dev-evaluation seconds, each training counted once."""
    per_folder = {j["folder"]: (j.get("train_seconds") or 0, j.get("eval_seconds") or 0) for j in jobs}
    train, evaluation = (sum(v) for v in zip(*per_folder.values()))
    return (
        f"cost: {len(per_folder)} training(s), {train:.0f} s training + {evaluation:.0f} s dev evaluation "
        f"= {train + evaluation:.0f} s"
    )


def tuning_table(groups: dict[tuple, list[dict]], problems: list[str]) -> str:
    lines = []
    for (game, label, model), jobs in sorted(groups.items()):
        choice = best(jobs)
        lines += [
            f"{game} ({label}, {model}), {jobs[0]['fold']} set, {jobs[0]['n']} variations",
            f"{'epochs':>8} {'score':>8} {'steps':>8}",
        ]
        for j in sorted(jobs, key=lambda j: j["epochs"]):
            mark = "  <- best" if j is choice else ""
            lines.append(f"{j['epochs']:>8} {j['score']:>8.3f} {j['steps']:>8.1f}{mark}")
        lines += [cost(jobs), ""]
    if problems:
        lines += ["Jobs without results:", *(f"  {p}" for p in problems), ""]
    return "\n".join(lines)


def plot(groups: dict[tuple, list[dict]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for (game, label, model), jobs in sorted(groups.items()):
        jobs = sorted(jobs, key=lambda j: j["epochs"])
        ax.plot([j["epochs"] for j in jobs], [j["score"] for j in jobs], marker="o", label=f"{game} {label} {model}")
    ax.set_xlabel("training epochs")
    ax.xaxis.get_major_locator().set_params(integer=True)  # epochs are whole numbers
    ax.set_ylabel("dev score")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def test_command(job: dict, num_variations: int | None, results_dir: str) -> list[str]:
    """The test evaluation of a chosen job, with the evaluator settings its sweep used on dev."""
    settings = {k: v for k, v in (job.get("eval") or {}).items() if v is not None and k != "agent"}
    agent = (job.get("eval") or {}).get("agent") or {}
    settings.update({f"agent.{k}": v for k, v in agent.items() if v is not None and k not in ("_target_", "name")})
    if num_variations is not None:
        settings["num_variations"] = num_variations
    return [
        "python",
        "-m",
        "bct.evaluate",
        f"checkpoint={job['checkpoint']}",
        "fold=test",
        *(f"{k}={v}" for k, v in settings.items()),
        f"results_dir={results_dir}",
    ]


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog=f"python -m {__spec__.name}", description=__doc__.splitlines()[0])
    ap.add_argument("sweep_dir")
    ap.add_argument("--dry-run", action="store_true", help="print the test evaluation commands instead of running them")
    ap.add_argument(
        "--num-variations",
        type=int,
        default=None,
        help="test variations for the chosen checkpoints (default: as many as the sweep used on dev)",
    )
    ap.add_argument("--results-dir", default=None, help="where test results go (default: <sweep_dir>/test-results)")
    args = ap.parse_args(argv)
    sweep = Path(args.sweep_dir)
    if not sweep.is_dir():
        raise UserError(f"no sweep folder at {sweep}; run 'python -m bct.train -m +game=NAME epochs=2,4,6' first")
    jobs, problems = (read_run_selection(sweep), []) if (sweep / SELECTION).exists() else read_jobs(sweep)
    if not jobs:
        raise UserError(
            f"no job under {sweep} has dev results" + (f" ({len(problems)} without: {problems[0]})" if problems else "")
        )
    groups: dict[tuple, list[dict]] = {}
    for j in jobs:
        groups.setdefault((j["game"], modules_label(j["modules"]), j["model"]), []).append(j)
    text = tuning_table(groups, problems)
    print(text)
    write_atomic(sweep / "tuning-results.txt", text)
    plot(groups, sweep / "tuning-scores.png")
    print(f"wrote {sweep / 'tuning-results.txt'} and {sweep / 'tuning-scores.png'}")
    results_dir = args.results_dir or str(sweep / "test-results")
    for key, group in sorted(groups.items()):
        command = test_command(best(group), args.num_variations, results_dir)
        if args.dry_run:
            print(shlex.join(command))
            continue
        from bct.config.settings import EvaluateSettings
        from bct.jobs.evaluation import evaluate

        out = evaluate(EvaluateSettings.from_overrides(command[3:]))
        r = json.loads((out / "results.json").read_text())
        print(
            f"{key[0]} ({key[1]}): best epochs {best(group)['epochs']}, test score {r['avg_score']:.3f}, "
            f"steps {r['avg_steps']:.1f} -> {out}"
        )
