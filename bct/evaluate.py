"""`python -m bct.evaluate`: play unseen dev/test variations and write scores and full play logs."""

from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from bct.agents import AGENTS, Agent, OracleAgent, RandomAgent, T5Agent
from bct.agents.llm import LLMAgent, LocalBackend, OpenAIBackend
from bct.agents.t5 import DECODINGS
from bct.data import write_atomic
from bct.entities import ENTITY_RULE
from bct.config import entry
from bct.errors import UserError, exits_cleanly, unknown
from bct.games import Game, fold_seeds, get_game
from bct.model import load_checkpoint
from bct.rollout import EpisodeResult, rollout, start_envs
from bct.schema import EvaluateSchema, validate
from bct.threads import set_threads

log = logging.getLogger(__name__)

# The settings that define an evaluation: a results folder holds one of each, so reruns can resume.
SETTINGS = ("agent", "checkpoint", "fingerprint", "game", "variant", "fold", "step_limit", "repeat_limit", "decoding",
            "num_beams", "beam_groups", "diversity_penalty", "fallback_skip", "agent_config")


def make_agent(cfg: DictConfig) -> tuple[Agent, Game, bool, str, dict]:
    """The agent, the game and module setting it plays, the run's name, and what defines the run."""
    name = cfg.agent.name
    if name not in AGENTS:
        raise unknown("agent", name, AGENTS)
    game = get_game(cfg.game.name) if cfg.get("game") else None
    extra = {k: v for k, v in OmegaConf.to_container(cfg.agent, resolve=True).items() if k != "name"}
    decoding, run = None, {}
    if name == "t5":
        if not cfg.checkpoint:
            raise UserError("agent=t5 needs checkpoint=checkpoints/<run> (or use agent=oracle|random +game=NAME)")
        model, tokenizer, run = load_checkpoint(cfg.checkpoint)
        trained = run["settings"]
        if trained.get("entities") == "placeholders" and trained.get("entity_rule", 1) != ENTITY_RULE:
            raise UserError(f"checkpoint {cfg.checkpoint} was trained on placeholders numbered by an older rule "
                            f"({trained.get('entity_rule', 1)}; this bct numbers them by rule {ENTITY_RULE}, "
                            f"bct/entities.py) and would read its prompts wrongly; train it again")
        decoding = cfg.decoding or run.get("eval_defaults", {}).get("decoding", "generate")
        if decoding not in DECODINGS:
            raise unknown("decoding", decoding, DECODINGS)
        trained_on = get_game(trained["game"])
        game = game or trained_on
        # actions are short: generating past the longest trained action only lengthens degenerate beams
        max_new = min(trained["max_target_length"], run.get("longest_target_tokens", trained["max_target_length"]) + 4)
        agent = T5Agent(model, tokenizer, decoding, cfg.num_beams, trained["max_source_length"], max_new,
                        cfg.fallback_skip, cfg.device, model_batch=cfg.model_batch,
                        entities=trained.get("entities", "text"), beam_groups=cfg.beam_groups,
                        diversity_penalty=cfg.diversity_penalty)
        modules = trained["variant"] == "modules"
        run_name = Path(cfg.checkpoint).name + ("" if game == trained_on else f"-on-{game.name}")
        run_name += "-rank" if decoding == "rank" else ("-beam" if cfg.beam_groups == 1 else "")
        checkpoint = str(Path(cfg.checkpoint).resolve())
        agent.trained = {"model": trained["model"]["name"], "epochs": trained["epochs"],
                         "num_games": trained["num_games"], "entities": trained.get("entities", "text")}
    else:
        if game is None:
            raise UserError(f"agent={name} needs a game: python -m bct.evaluate agent={name} +game=twc")
        modules = bool(cfg.modules)
        run_name = f"{name}-{game.name}-{'modules' if modules else 'nomodules'}"
        checkpoint = None
        if name == "llm":
            agent = make_llm_agent(cfg.agent, cfg.device)
            flags = [k for k in ("one_shot", "think", "feedback", "guidance") if cfg.agent[k]] + ([] if cfg.agent.constraints else ["norules"])
            model_name = Path(cfg.agent.gguf_file or cfg.agent.model).name.removesuffix(".gguf")
            run_name = "-".join([f"llm-{model_name}", game.name, run_name.rsplit("-", 1)[1], *flags])
        else:
            agent = OracleAgent() if name == "oracle" else RandomAgent(cfg.agent.seed)
    settings = {"agent": name, "checkpoint": checkpoint, "fingerprint": run.get("fingerprint") if name == "t5" else None,
                "game": game.name,
                "variant": "modules" if modules else "nomodules", "fold": cfg.fold, "step_limit": cfg.step_limit,
                "repeat_limit": cfg.repeat_limit, "decoding": decoding if name == "t5" else None,
                "num_beams": cfg.num_beams if name == "t5" else None,
                "beam_groups": cfg.beam_groups if name == "t5" and decoding == "generate" else None,
                "diversity_penalty": cfg.diversity_penalty if name == "t5" and decoding == "generate" else None,
                "fallback_skip": cfg.fallback_skip if name == "t5" else None, "agent_config": extra}
    return agent, game, modules, run_name, settings


def make_llm_agent(a: DictConfig, device: str | None = None) -> LLMAgent:
    if a.backend not in ("openai", "local"):
        raise unknown("agent.backend", a.backend, ["openai", "local"])
    if a.backend == "local":
        backend = LocalBackend(a.model, a.gguf_file, device)
    else:
        backend = OpenAIBackend(a.model, a.base_url, a.api_key_env, a.retries)
    return LLMAgent(backend, a.cache_dir, a.concurrency, a.constraints, a.one_shot, a.think, a.feedback, a.max_tokens,
                    a.history_turns, a.guidance)


EPISODE_FIELDS = ("seed", "score", "steps", "env_steps", "module_steps", "success", "history")


def read_histories(path: Path) -> list[dict]:
    """Finished episodes in a histories file. A line cut short by an interruption, or one that is not
    a whole episode record (damaged, edited), is dropped from the file, so its variation is played again."""
    if not path.exists():
        return []
    episodes, dropped = [], 0
    for line in path.read_text(errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if isinstance(record, dict) and all(k in record for k in EPISODE_FIELDS):
            episodes.append(record)
        elif line.strip():
            dropped += 1
    if dropped:
        log.warning("%s: %d damaged line(s) dropped; those variations are played again", path, dropped)
        write_atomic(path, "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in episodes))
    return episodes


def summarize(settings: dict, episodes: list[dict], num_variations: int, agent_stats: dict,
              trained: dict | None = None) -> dict:
    n = len(episodes)
    mean = lambda key: round(sum(e[key] for e in episodes) / n, 4) if n else None  # noqa: E731
    per_variation = sorted(({k: e[k] for k in ("seed", "score", "steps", "env_steps", "module_steps", "success")}
                            for e in episodes), key=lambda e: e["seed"])
    return {**{k: settings[k] for k in ("game", "variant", "fold", "agent", "checkpoint")},
            "num_variations": n, "complete": n == num_variations, "avg_score": mean("score"),
            "avg_steps": mean("steps"), "avg_env_steps": mean("env_steps"), "avg_module_steps": mean("module_steps"),
            "success_rate": mean("success"), "settings": settings, "agent_stats": agent_stats,
            **({"trained": trained} if trained else {}),
            "per_variation": per_variation}


def evaluate(cfg: DictConfig) -> Path:
    """Evaluate and return the folder with results.json and histories.jsonl; an interrupted run resumes."""
    cfg = validate(cfg, EvaluateSchema)
    wanted = fold_seeds(cfg.fold, cfg.num_variations)
    set_threads(cfg.threads)
    agent, game, modules, run_name, settings = make_agent(cfg)
    out = Path(cfg.results_dir) / run_name / cfg.fold
    results_file, histories_file = out / "results.json", out / "histories.jsonl"
    if results_file.exists():
        try:
            previous = json.loads(results_file.read_text())["settings"]
        except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError):
            previous = None  # damaged: what it was evaluated with is unknown
        reason = None
        if not isinstance(previous, dict):
            reason, tag = "an unreadable results.json", "unreadable"
        elif previous != settings and {k for k in SETTINGS if previous.get(k) != settings[k]} == {"fingerprint"}:
            reason, tag = "results of earlier weights of this checkpoint", (previous.get("fingerprint") or "unknown")[:8]
        if reason:  # set aside, nothing deleted, and evaluate afresh
            stale = out.with_name(f"{out.name}.replaced-{tag}")
            shutil.rmtree(stale, ignore_errors=True)
            out.rename(stale)
            log.warning("%s held %s; moved to %s, evaluating afresh", out, reason, stale)
            previous = settings
        if previous != settings:
            diff = [k for k in SETTINGS if (previous or {}).get(k) != settings[k]]
            raise UserError(f"{out} holds an evaluation with other settings (differs in: {', '.join(diff)}); "
                            f"choose another results_dir or delete that folder")
    out.mkdir(parents=True, exist_ok=True)
    episodes = read_histories(histories_file)
    done = {e["seed"] for e in episodes}
    episodes = [e for e in episodes if e["seed"] in wanted]
    todo = [s for s in wanted if s not in done]
    if done:
        log.info("%s: %d variations already played, %d to go", out, len(done & set(wanted)), len(todo))

    envs = start_envs(game, modules, min(cfg.batch_size, len(todo))) if todo else []
    # the bar starts once the JVMs are up, so that its first time estimate is about playing
    bar = tqdm(total=len(wanted), initial=len(wanted) - len(todo), unit="episode", disable=not cfg.progress,
               desc=f"{run_name} {cfg.fold}")

    def finished(result: EpisodeResult) -> None:
        record = {**result.summary(), "history": result.history}
        with histories_file.open("a") as f:  # one whole line per finished episode
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
        episodes.append(record)
        write_atomic(results_file, json.dumps(summarize(settings, episodes, len(wanted), agent.stats(), getattr(agent, "trained", None)), indent=2) + "\n")
        bar.update()
        bar.set_postfix(score=f"{sum(e['score'] for e in episodes) / len(episodes):.3f}")

    try:
        rollout(agent, game, cfg.fold, todo, modules, cfg.batch_size, cfg.step_limit, cfg.repeat_limit, finished,
                envs=envs)
    finally:
        bar.close()
        agent.close()
        for env in envs:
            env.close()
    write_atomic(results_file, json.dumps(summarize(settings, episodes, len(wanted), agent.stats(), getattr(agent, "trained", None)), indent=2) + "\n")
    return out


@hydra.main(config_path="conf", config_name="evaluate", version_base="1.3")
@exits_cleanly
def _hydra_main(cfg: DictConfig) -> None:
    try:
        out = evaluate(cfg)
    except KeyboardInterrupt:
        print("\ninterrupted; run the same command again to play the variations not yet finished", file=sys.stderr)
        sys.exit(130)
    r = json.loads((out / "results.json").read_text())
    print(f"{r['agent']} on {r['game']} ({r['variant']}, {r['fold']}, {r['num_variations']} variations): "
          f"score {r['avg_score']:.3f}, steps {r['avg_steps']:.1f} -> {out}")


main = entry(_hydra_main)


if __name__ == "__main__":
    main()
