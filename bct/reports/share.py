"""`python -m bct.share CHECKPOINT OUT_DIR [--push REPO_ID]`: a trained agent as a hub-ready folder.

The folder holds the weights, the tokenizer, bct's run record (its settings) and a model card whose
`model-index` carries the scores of every evaluation of these exact weights found under --results
(matched by the weights' fingerprint, not by folder name). `python -m bct.evaluate checkpoint=OUT_DIR`
plays it as the original. `--push` uploads the folder with huggingface_hub; the token is read from
the environment (HF_TOKEN, or the one `hf auth login` stored) and never written anywhere.

python -m bct.share checkpoints/twc-modules-t5-cpu-scratch-ep30-1a2b3c shared/twc-agent
python -m bct.share checkpoints/my-run shared/my-run --push me/bct-twc --results results
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

from bct.core.errors import ArgumentParser, UserError, exits_cleanly
from bct.core.results import collect
from bct.seq2seq.model import load_checkpoint, weights_fingerprint
from bct.worlds.registry import WORLDS, from_record, modules_label, trained_games, world_of

# What a hub folder needs to be loaded and played again (the trainer's resumable state stays behind);
# *.bin: training_args.bin is part of the weights' fingerprint (bct.seq2seq.model.weights_fingerprint).
KEPT = ("*.safetensors", "*.bin", "config.json", "generation_config.json", "tokenizer*.json", "spiece.model")
RECORDS = ("bct_config.json", "train_metrics.json")
LOOPS = (
    "Score: in bct's loop the final score of each episode; in TALES's (`protocol=tales`: its environments, 100 game "
    "commands, a lost game restarts) the best score reached, TALES's measure. Draw 2: other variations of the same "
    "fold, played once."
)


def evaluations(results_dir: str | Path, fingerprint: str) -> list[dict]:
    """Every evaluation under `results_dir` of the weights with this fingerprint, complete ones only."""
    if not Path(results_dir).is_dir():
        return []
    return [
        r
        for r in collect(results_dir)
        # an ensemble's evaluation records its first member's weights, but these weights alone did not play it
        if r.get("settings", {}).get("fingerprint") == fingerprint
        and r.get("complete", True)
        and not r["settings"].get("ensemble")
    ]


@functools.cache  # read once: a card asks for every evaluation row
def t5_presets() -> dict[str, dict]:
    """The agent presets built on the T5 agent (conf/agent/*.yaml whose defaults start from `t5`): the settings
    each sets over it."""
    from omegaconf import OmegaConf

    out = {}
    for f in sorted((Path(__file__).resolve().parent.parent / "conf" / "agent").glob("*.yaml")):
        conf = OmegaConf.to_container(OmegaConf.load(f))
        if "t5" in (conf.get("defaults") or []):
            out[f.stem] = {k: v for k, v in conf.items() if k not in ("defaults", "_self_")}
    return out


def agent_settings(row: dict, run: dict) -> tuple[str, ...]:
    """The agent settings an evaluation changed from what `bct.evaluate checkpoint=...` plays by default (the
    checkpoint's own decoding; ScienceWorld's written actions): `agent.KEY=VALUE` overrides, or the agent preset
    (`agent=t5-scienceworld`) that says the same in fewer words, with what the evaluation changed on top of it."""
    from bct.agents.settings import T5Settings
    from bct.agents.t5_checkpoint import default_decoding

    played = row.get("settings", {}).get("agent_config") or {}
    record = T5Settings(decoding=default_decoding(run, from_record(row))).record()
    fields = T5Settings.model_fields
    default = lambda k: record[k] if k in record else fields[k].default  # noqa: E731
    word = lambda k, v: f"agent.{k}={str(v).lower() if isinstance(v, bool) else v}"  # noqa: E731

    def changed(base: dict) -> list[str]:
        keys = [k for k in dict.fromkeys([*played, *base]) if k != "ensemble" and (k in record or k in fields)]
        return [
            word(k, played.get(k, default(k))) for k in keys if played.get(k, default(k)) != base.get(k, default(k))
        ]

    options = [changed({})] + [[f"agent={name}", *changed(preset)] for name, preset in t5_presets().items()]
    return tuple(min(options, key=len))  # the fewest words; on a tie, no preset


def how(row: dict) -> str:
    """bct's loop or TALES's."""
    return row.get("settings", {}).get("protocol", "bct")


def ways(rows: list[dict], run: dict, out_dir: Path) -> tuple[list[str], str]:
    """The mean over the games of each way the weights were played (fold, loop, draw, agent settings: what a reader
    compares with a published figure), and the command that plays them as the most measured way did."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        key = (r["fold"], how(r), r.get("settings", {}).get("draw", 1), agent_settings(r, run))
        groups.setdefault(key, []).append(r)
    summary = ["| fold | loop | draw | games | mean score | agent settings |", "|---|---|---|---|---|---|"]
    summary += [
        f"| {fold} | {loop} | {draw} | {len(g)} | {sum(r['avg_score'] for r in g) / len(g):.3f} | {' '.join(a) or '-'} |"
        for (fold, loop, draw, a), g in sorted(groups.items(), key=lambda kv: kv[0][:3])
    ]
    best = max(groups, key=lambda k: (len(groups[k]), k[0] == "test", k[1] == "tales", len(k[3])), default=None)
    fold, loop, draw, settings = best or ("test", "bct", 1, ())
    command = f"python -m bct.evaluate checkpoint={out_dir} fold=test num_variations={5 if loop == 'tales' else 100}"
    command += " protocol=tales" * (loop == "tales") + "".join(f" {a}" for a in settings)
    played = sorted({r.get("game_preset") or r["game"] for r in groups.get(best, [])})
    # checkpoint=... alone plays the presets it trained on (a variant's preset: scienceworld-boil for
    # scienceworld-boil-moved1-search1); games=[...] only where it was measured on others (TALES's TWX settings)
    if played and played != sorted({g.preset or g.name for g in trained_games(run["settings"])}):
        command += f" games=[{','.join(played)}]"
    return summary, command


def decoding_played(run: dict) -> str:
    """How `bct.evaluate checkpoint=...` decodes these weights unless told, on each game they trained on (a world
    whose parser takes free commands, ScienceWorld, by writing them whatever the model preset's default)."""
    from bct.agents.t5_checkpoint import default_decoding

    return " or ".join(sorted({default_decoding(run, g) for g in trained_games(run["settings"])}))


def games_a_game(s: dict) -> str:
    """How many training games each game's gold data came from: one number, or the range a run's mix spans."""
    counts = sorted({e["num_games"] for e in (s.get("mix") or {}).values() if e.get("num_games")})
    if len(counts) > 1:
        return f"{counts[0]}-{counts[-1]} (per game: `mix` in bct_config.json)"
    return str(counts[0] if counts else s.get("num_games"))


def model_card(name: str, run: dict, rows: list[dict], out_dir: Path) -> str:
    """README.md for the hub: YAML metadata (model-index from the measured rows), then what the agent
    is, how it was trained and how to evaluate it."""
    from huggingface_hub import EvalResult, ModelCardData

    s = run["settings"]
    games = [g["game"] for g in s["games"]] if s.get("games") else [s.get("game_preset") or s["game"]]
    game = games[0] if len(games) == 1 else f"{len(games)} games"
    where = lambda r: world_of(from_record(r)).title  # noqa: E731
    results = [
        EvalResult(
            task_type="text-game",
            task_name=f"{where(r)} {r['game']} ({modules_label(r['modules'])}"
            + (", memory" if r.get("memory") else "")
            + ")",
            dataset_type=where(r).lower(),
            dataset_name=f"{where(r)} {r['game']}",
            dataset_config=r["game"],
            dataset_split=r["fold"],
            dataset_args={"num_variations": r["num_variations"], "step_limit": r.get("step_limit"), "loop": how(r)},
            metric_type=metric,
            metric_name=label,
            metric_value=round(r[key], 4),
        )
        for r in rows
        for metric, label, key in (("score", "average score", "avg_score"), ("steps", "average steps", "avg_steps"))
    ]
    data = ModelCardData(
        model_name=name,
        library_name="transformers",
        pipeline_tag="text2text-generation",
        tags=["bct", "text-games", *sorted({where(r).lower() for r in rows}), "behavior-cloning", "t5"],
        eval_results=results or None,
    )
    m = s["model"]
    trained = [
        f"- game{'s' if len(games) > 1 else ''}: "
        + ", ".join(f"`{g}`" for g in games)
        + (f" (preset `{game}`, parameters {s.get('game_params')})" if s.get("game_params") else ""),
        f"- modules: {'on' if s['modules'] else 'off'}; memory: {'on' if s.get('memory') else 'off'}",
        f"- model: `{m['name']}`" + (f" from `{m['pretrained']}`" if m.get("pretrained") else " (built from a config)"),
        f"- entities: {s.get('entities')}; decoding at evaluation: {decoding_played(run)}",
        f"- data: gold walkthroughs of {games_a_game(s)} training games a game; {s.get('epochs')} epochs, lr {s.get('lr')}, "
        f"batch size {s.get('batch_size')}, seed {s.get('seed')}; {run.get('num_examples')} examples"
        + (f", digest `{run['data_digest']}`" if run.get("data_digest") else ""),
        f"- parameters: {run.get('num_parameters')}; weights fingerprint `{run.get('fingerprint')}`",
    ]
    table = [
        "| game | modules | memory | fold | loop | variations | score | steps | agent settings |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    table += [
        f"| {r['game']} | {modules_label(r['modules'])} | {'on' if r.get('memory') else 'off'} | {r['fold']} | {how(r)} | "
        f"{r['num_variations']} | {r['avg_score']:.3f} | {r['avg_steps']:.1f} | {' '.join(agent_settings(r, run)) or '-'} |"
        for r in rows
    ]
    summary, command = ways(rows, run, out_dir)
    worlds = {g.world for g in trained_games(s)}
    body = [
        f"# {name}",
        "",
        f"A behavior-cloned T5 agent for {' and '.join(sorted(WORLDS[w].title for w in worlds))}'s {game}, trained with bct: it reads the Markov prompt "
        "(task, observation, inventory, look, previous action and observation) and writes the next action, "
        "calling bct's symbolic modules as actions.",
        "",
        "## Training",
        "",
        *trained,
        "",
        "## Measured",
        "",
        *(
            [LOOPS, "", *summary, "", *table]
            if rows
            else ["No evaluation of these weights was found when this card was written."]
        ),
        "",
        "## Evaluate it",
        "",
        "```bash",
        command,
        "```",
        "",
        "From the hub, download the folder first (`hf download REPO_ID --local-dir DIR`) and pass `checkpoint=DIR`.",
    ]
    return "---\n" + data.to_yaml() + "\n---\n\n" + "\n".join(body) + "\n"


def share(checkpoint: str | Path, out_dir: str | Path, results_dir: str | Path = "results") -> Path:
    """Write the hub-ready folder; returns it. A folder that exists and is not empty is refused."""
    checkpoint, out_dir = Path(checkpoint), Path(out_dir)
    _, _, run = load_checkpoint(checkpoint)  # a finished bct checkpoint, or a one-line error
    if out_dir.exists() and any(out_dir.iterdir()):
        raise UserError(f"{out_dir} exists and is not empty; choose a new folder or delete it")
    fingerprint = weights_fingerprint(checkpoint)
    rows = evaluations(results_dir, fingerprint)
    tmp = out_dir.with_name(out_dir.name + ".writing")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for pattern in (*KEPT, *RECORDS):
        for f in checkpoint.glob(pattern):
            shutil.copy2(f, tmp / f.name)
    (tmp / "README.md").write_text(model_card(out_dir.name, run, rows, out_dir))
    if out_dir.exists():
        out_dir.rmdir()
    tmp.rename(out_dir)
    if weights_fingerprint(out_dir) != fingerprint:
        raise UserError(f"the weights copied into {out_dir} differ from {checkpoint}'s; copy again")
    return out_dir


def push(out_dir: str | Path, repo_id: str, private: bool = False) -> str:
    """Upload the folder to the hub as a model repository; returns its URL. The token comes from the
    environment (HF_TOKEN) or huggingface_hub's own login, and is never written into the folder."""
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    token = os.environ.get("HF_TOKEN") or None
    api = HfApi(token=token)
    try:
        url = api.create_repo(repo_id, repo_type="model", private=private, exist_ok=True)
        api.upload_folder(folder_path=str(out_dir), repo_id=repo_id, repo_type="model", commit_message="bct.share")
    except HfHubHTTPError as e:
        status = getattr(e.response, "status_code", "?")
        raise UserError(
            f"the hub refused the upload to {repo_id} (HTTP {status}); set HF_TOKEN to a token with write access, "
            f"or run 'hf auth login'"
        ) from None
    except OSError as e:
        raise UserError(
            f"could not reach the hub to upload {repo_id} ({type(e).__name__}); check the network"
        ) from None
    return str(url)


@exits_cleanly
def main(argv: list[str] | None = None) -> None:
    ap = ArgumentParser(prog="python -m bct.share", description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint", help="a finished checkpoint folder written by bct.train")
    ap.add_argument("out_dir", help="the folder to write (new or empty)")
    ap.add_argument("--results", default="results", help="where to look for evaluations of these weights")
    ap.add_argument("--push", metavar="REPO_ID", default=None, help="also upload to the hub as REPO_ID")
    ap.add_argument("--private", action="store_true", help="with --push: a private repository")
    args = ap.parse_args(argv)
    out = share(args.checkpoint, args.out_dir, args.results)
    rows = evaluations(args.results, weights_fingerprint(out))
    print(f"wrote {out} (model card with {len(rows)} evaluations of these weights)")
    if args.push:
        print(f"uploaded to {push(out, args.push, args.private)}")
