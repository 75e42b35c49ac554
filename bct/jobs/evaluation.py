"""`python -m bct.evaluate`: play unseen dev/test variations and write scores and full play logs."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from tqdm.auto import tqdm

from bct.agents import Agent, make_agent
from bct.agents.base import ByGame
from bct.agents.rollout import EpisodeRequest, EpisodeResult, env_slots, play, start_envs
from bct.config.runs import claim_results_dir, digest, read_run
from bct.config.settings import EvaluateSettings, GameSettings
from bct.core.errors import UserError
from bct.core.files import write_json, write_jsonl
from bct.core.game import Game
from bct.core.lock import FolderLock
from bct.core.threads import set_threads
from bct.data.wins import WINS, append_rows, won_rows
from bct.worlds.gold import gold_modules
from bct.worlds.registry import expand_games, from_record, get_game, protocol_seeds, tales_runs, trained_games, world_of
from bct.worlds.tales import STEPS as TALES_STEPS
from bct.worlds.tales import TALE_SUITE

log = logging.getLogger(__name__)


def evaluation_identity(cfg: EvaluateSettings, agent: Agent) -> dict:
    """What defines an evaluation (a results folder holds one set, so reruns resume it). bct's loop with the usual
    draw writes no `protocol` or `draw`, so that its folders stay those of earlier runs."""
    tales = cfg.protocol == "tales"
    return {
        "agent": agent.name,
        **agent.game.record(),
        "modules": agent.modules,
        "fold": cfg.fold,
        "step_limit": cfg.step_limit or (TALES_STEPS if tales else agent.game.step_limit),
        "repeat_limit": None if tales else cfg.repeat_limit or agent.game.repeat_limit,
        **({"protocol": "tales", "tales_version": TALE_SUITE} if tales else {}),
        **({"draw": cfg.draw} if cfg.draw != 1 else {}),
        **({"keep_wins": True} if cfg.keep_wins else {}),  # a folder played without them has no wins.jsonl
        **agent.settings(),
    }


EPISODE_FIELDS = ("seed", "score", "steps", "env_steps", "module_steps", "success", "history")
TALES_FIELDS = ("restarts", "final_score")  # TALES's loop: restarts after a loss, the score at the last step


def read_histories(path: Path) -> list[dict]:
    """Finished episodes in a histories file. A line cut short by an interruption, or one that is not
    a whole episode record (damaged, edited), is dropped from the file, so its variation is played again."""
    if not path.exists():
        return []
    episodes, dropped, seen = [], 0, set()
    for line in path.read_text(errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if isinstance(record, dict) and all(k in record for k in EPISODE_FIELDS):
            if record.get("stop") == "failed":
                continue  # kept in the log; its variation is played again
            if record["seed"] in seen:
                dropped += 1  # a variation recorded twice: the first stands
                continue
            seen.add(record["seed"])
            episodes.append(record)
        elif line.strip():
            dropped += 1
    if dropped:
        log.warning("%s: %d damaged or repeated line(s) dropped; damaged ones are played again", path, dropped)
        write_jsonl(path, episodes)
    return episodes


def module_use(episodes: list[dict], needed: set[str]) -> dict:
    """Module calls per module over `episodes`, and the share of all module calls that went to a module
    the game's gold path never calls (`needed`: bct.worlds.twx.gold.gold_modules): calls wasted on the wrong module."""
    calls: dict[str, int] = {}
    for e in episodes:
        for h in e.get("history", []):
            if h.get("from_module"):
                name = h.get("module") or "?"
                calls[name] = calls.get(name, 0) + 1
    total = sum(calls.values())
    wasted = sum(n for name, n in calls.items() if name not in needed)
    return {
        "module_calls": dict(sorted(calls.items())),
        "wasted_module_calls": round(wasted / total, 4) if total else 0.0,
    }


def summarize(
    settings: dict,
    episodes: list[dict],
    num_variations: int,
    agent_stats: dict,
    trained: dict | None = None,
    failed: list[dict] = (),
    needed: set[str] | None = None,
    played_with: dict | None = None,
) -> dict:
    """results.json: averages over the episodes that ran to an end; failed ones are counted apart (a
    rerun plays them again). `needed`: the modules the game's gold path calls (module_calls and the share
    of wasted calls are counted against them)."""
    tales = settings.get("protocol") == "tales"
    # TALES's loop: a variation its seeds pick twice (a fold of fewer than num_variations) weighs as two runs
    runs = tales_runs(from_record(settings), settings["fold"], num_variations) if tales else {}
    n = sum(runs.get(e["seed"], 1) for e in episodes)
    mean = lambda key: round(sum(runs.get(e["seed"], 1) * e[key] for e in episodes) / n, 4) if n else None  # noqa: E731
    shown = ("seed", "score", "steps", "env_steps", "module_steps", "success", *(TALES_FIELDS if tales else ()))
    per_variation = sorted(({k: e.get(k) for k in shown} for e in episodes), key=lambda e: e["seed"])
    return {
        **{k: settings.get(k) for k in ("game", "modules", "memory", "fold", "agent", "checkpoint")},
        **{k: settings[k] for k in ("game_preset", "game_params") if k in settings},
        "step_limit": settings["step_limit"],
        **(played_with or {}),  # the T5 agent: device and the weights' dtype as played
        "num_variations": n,
        "complete": n == num_variations,
        "num_failed": len(failed),
        "failed": [{"seed": e["seed"], "error": e["error"]} for e in failed],
        "avg_score": mean("score"),
        "avg_steps": mean("steps"),
        "avg_env_steps": mean("env_steps"),
        "avg_module_steps": mean("module_steps"),
        "success_rate": mean("success"),
        # TALES's loop: `avg_score` is its measure (the best score reached, /1); the score at the end and the restarts
        **(
            {"protocol": "tales", "avg_final_score": mean("final_score"), "avg_restarts": mean("restarts")}
            if tales
            else {}
        ),
        **(module_use(episodes, needed) if needed is not None else {}),
        "settings": settings,
        "agent_stats": agent_stats,
        **({"trained": trained} if trained else {}),
        "per_variation": per_variation,
    }


def results_folder(cfg: EvaluateSettings, agent: Agent, settings: dict) -> Path:
    """`<results_dir>/<agent's run name>/<fold>-<digest of every setting that changes the outcome>`: two
    evaluations that differ in anything (step_limit, beams, ...) never share a folder. The weights'
    fingerprint is left out: results of earlier weights of a checkpoint are set aside in place."""
    return (
        Path(cfg.results_dir)
        / agent.run_name
        / f"{cfg.fold}-{digest({k: v for k, v in settings.items() if k != 'fingerprint'})}"
    )


def checkpoint_games(cfg: EvaluateSettings) -> list[Game]:
    """The games an evaluation plays: the one named (`+game=`), those listed (`games=`), else every game the
    checkpoint trained on."""
    if cfg.games:
        if cfg.game is not None:
            raise UserError("+game and games are both set; name one game (+game=NAME) or several (games=[a,b])")
        return [get_game(name) for name in expand_games(cfg.games)]
    if cfg.game is not None or not cfg.checkpoint:
        return [cfg.played()] if cfg.game is not None else []
    run = read_run(Path(cfg.checkpoint))
    return trained_games(run["settings"]) if run and isinstance(run.get("settings"), dict) else []


def evaluate_all(cfg: EvaluateSettings) -> list[Path]:
    """`evaluate` on each game: the one named, or each game of a checkpoint trained on several (one results
    folder each, in the order it trained on them), played together: one pool of episodes across the games of
    a world, so that the batch stays full to the end and the games' JVMs start once (`play_together`)."""
    games = checkpoint_games(cfg)
    # a second draw of the checkpoint's own games skips those too small for it (a game named is refused instead)
    several = len(games) > 1 or cfg.games or (cfg.draw != 1 and cfg.game is None and games)
    return evaluate_games(cfg, games) if several else [evaluate(cfg)]


def evaluate_games(cfg: EvaluateSettings, games: list[Game]) -> list[Path]:
    """`cfg`'s evaluation of each of `games` (one results folder each), their episodes in one pool per world."""
    one = [
        cfg.model_copy(update={"games": None, "game": GameSettings(name=g.preset or g.name, params=dict(g.overrides))})
        for g in games
    ]
    if cfg.draw != 1:  # a second draw is owed only where the fold holds two
        one = [c for c in one if has_draws(c)]
    for c in one:  # every fold's size is checked before a model loads
        wanted_seeds(c)
    set_threads(cfg.threads)
    with ExitStack() as stack:
        plans = [opened(c, stack) for c in one]  # a checkpoint's agents share one model
        by_world: dict[str, list[Recorder]] = {}
        for r in plans:
            by_world.setdefault(world_of(r.agent.game).name, []).append(r)
        for group in by_world.values():
            play_together(cfg, group)
    return [r.out for r in plans]


def evaluate(cfg: EvaluateSettings, envs: list | None = None) -> Path:
    """Evaluate and return the folder with results.json and histories.jsonl; an interrupted run resumes.
    The folder is locked while the evaluation runs: a second one on it is refused in one line.

    `envs`: environments of the agent's game and module setting to play in, left open (evaluations
    of several checkpoints share them); by default `batch_size` are started and closed here."""
    if cfg.played() is not None:  # the fold's size is checked before a model loads
        wanted_seeds(cfg)
    set_threads(cfg.threads)
    with ExitStack() as stack:
        recorder = opened(cfg, stack)
        play_together(cfg, [recorder], envs)
        return recorder.out


def wanted_seeds(cfg: EvaluateSettings, game: Game | None = None) -> list[int]:
    """The variations `cfg` plays of `game` (by default the one it names): bct's draw, or TALES's seeds 1..N."""
    return protocol_seeds(game or cfg.played(), cfg.fold, cfg.num_variations, cfg.protocol, cfg.draw)


def has_draws(cfg: EvaluateSettings) -> bool:
    """Whether `cfg`'s game's fold holds `draw` disjoint sets of num_variations (a second draw skips the others)."""
    game = cfg.played()
    if world_of(game).fold_size(game, cfg.fold) >= cfg.draw * cfg.num_variations:
        return True
    log.info("%s: its %s fold is too small for draw=%d; not played", game.name, cfg.fold, cfg.draw)
    return False


def opened(cfg: EvaluateSettings, stack: ExitStack) -> Recorder:
    """`cfg`'s agent and its results folder, locked while `stack` is open (a second evaluation on it is refused in
    one line); the agent is closed after the lock is released."""
    agent = make_agent(cfg.agent, cfg.played(), cfg.modules, cfg.checkpoint, cfg.memory)
    stack.callback(agent.close)
    settings = evaluation_identity(cfg, agent)
    out = results_folder(cfg, agent, settings)
    stack.enter_context(FolderLock(out, "an evaluation"))
    return Recorder(out, cfg, agent, settings)


class Recorder:
    """One evaluation's results folder: the variations it wants, those already played (an interrupted run
    resumes), and each finished episode written as it ends (a line of histories.jsonl, results.json again)."""

    def __init__(self, out: Path, cfg: EvaluateSettings, agent: Agent, settings: dict):
        self.out, self.cfg, self.agent, self.settings = out, cfg, agent, settings
        self.results_file, self.histories_file = out / "results.json", out / "histories.jsonl"
        self.wanted = wanted_seeds(cfg, agent.game)  # the checkpoint's game where none is named
        claim_results_dir(out, self.results_file, settings)
        out.mkdir(parents=True, exist_ok=True)
        self.episodes = [e for e in read_histories(self.histories_file) if e["seed"] in self.wanted]
        done = {e["seed"] for e in self.episodes}
        self.todo = [s for s in self.wanted if s not in done]
        if done:
            log.info("%s: %d variations already played, %d to go", out, len(done), len(self.todo))
        self.failed: list[dict] = []
        self.needed = gold_modules(agent.game, agent.modules)
        self.on_finished: Callable[[], None] = lambda: None

    def jobs(self) -> list[EpisodeRequest]:
        s = self.settings
        tales = s.get("protocol") == "tales"
        return [
            EpisodeRequest(self.agent.game, seed, s["step_limit"], s["repeat_limit"], self.finished, tales)
            for seed in self.todo
        ]

    def summary(self) -> dict:
        a = self.agent
        tales = (
            self.settings.get("protocol") == "tales"
        )  # its runs: num_variations, a variation picked twice counted twice
        return summarize(
            self.settings,
            self.episodes,
            self.cfg.num_variations if tales else len(self.wanted),
            a.stats(),
            a.trained,
            self.failed,
            self.needed,
            a.played_with(),
        )

    def finished(self, result: EpisodeResult) -> None:
        if self.cfg.keep_wins and result.won:  # before its history: a run cut between the two plays it again
            a = self.agent
            append_rows(self.out / WINS, won_rows(a.game, self.cfg.fold, result.seed, a.modules, result.won))
        record = {**result.summary(), "history": result.history}
        with self.histories_file.open("a") as f:  # one whole line per finished episode
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
        (self.failed if result.stop == "failed" else self.episodes).append(record)
        write_json(self.results_file, self.summary())
        self.on_finished()

    def close(self) -> None:
        write_json(self.results_file, self.summary())
        if self.failed:
            log.warning(
                "%d of %d variations failed (reasons in %s); run the same command again to retry them",
                len(self.failed),
                len(self.wanted),
                self.results_file,
            )


def play_together(cfg: EvaluateSettings, recorders: list[Recorder], shared: list | None = None) -> None:
    """Every variation the evaluations still want, in one pool of episodes, each decided by its own evaluation's
    agent (`ByGame`); `shared`: environments to play in, left open."""
    agent = recorders[0].agent if len(recorders) == 1 else ByGame({r.agent.game.name: r.agent for r in recorders})
    # the games whose gold paths run longest first (their own step limit says which: ScienceWorld's genetics and
    # inclined planes), so that the pool does not end waiting on them with its other slots empty
    jobs = sorted((j for r in recorders for j in r.jobs()), key=lambda j: -j.game.step_limit)
    slots = env_slots(agent, cfg.batch_size, len(jobs))
    tales_fold = cfg.fold if cfg.protocol == "tales" else None
    envs = shared or (
        start_envs(jobs[0].game, agent.modules, slots, agent.reads_valid_actions, tales_fold) if jobs else []
    )
    # the bar starts once the JVMs are up, so that its first time estimate is about playing
    total = sum(len(r.wanted) for r in recorders)
    bar = tqdm(
        total=total,
        initial=total - len(jobs),
        unit="episode",
        disable=not cfg.progress,
        desc=f"{agent.run_name if len(recorders) == 1 else f'{len(recorders)} games'} {cfg.fold}",
    )
    for r in recorders:

        def tick(r: Recorder = r) -> None:
            bar.update()
            bar.set_postfix(score=f"{sum(e['score'] for e in r.episodes) / max(1, len(r.episodes)):.3f}")

        r.on_finished = tick
    try:
        play(agent, jobs, cfg.fold, agent.modules, cfg.batch_size, envs=envs, own=shared is None)
    finally:
        bar.close()
    for r in recorders:
        r.close()
