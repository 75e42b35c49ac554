"""`python -m bct.generate`: gold trajectories for every game, module setting and fold, as seq2seq data."""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from tqdm.auto import tqdm

from bct.core.errors import UserError
from bct.core.files import write_atomic, write_jsonl
from bct.core.lock import FolderLock
from bct.core.source import fingerprint
from bct.data.datasets import DATA_FORMAT, MANIFEST, data_path, examples, mix_entries, mixture, read_manifest
from bct.data.workers import play_all
from bct.worlds.gold import play_gold
from bct.worlds.registry import (
    as_game,
    check_choices,
    check_fold,
    check_modules,
    data_modules,
    expand_games,
    fold_seeds,
    get_game,
    memory_of,
    modules_label,
    open_game,
    world_of,
)

log = logging.getLogger(__name__)


def gold_code(world) -> str:
    """A fingerprint of the code that writes a world's gold paths: its gold module and the modules of its folder
    that module uses, at any depth (ScienceWorld's gold.py, searches.py, text.py, env.py, games.py). Recorded with each
    file: a file kept by its settings, but written by other gold-path code, is named with a warning."""
    return fingerprint([inspect.getmodule(world.gold_path)])


def generate(
    games,
    modules,
    folds,
    num_games: int = 100,
    out_dir: str | Path = "data",
    overwrite: bool = False,
    progress: bool = True,
    config: dict | None = None,
    workers: int = 1,
    num_games_of: Mapping[str, int] | None = None,
) -> dict:
    """Write `out_dir/<game>/<modules|nomodules>/<fold>.jsonl` and update `out_dir/manifest.json`; return the
    manifest. `games` are registry names or Game objects (variants with their own parameters); `modules` a
    list of true (with the game's modules), false and/or all (every module in every game). `workers`
    processes play games side by side, one game and module setting each (its JVM and its folds).
    `num_games_of`: games (by name, or a variant's by its preset's) played from another number of games than
    `num_games` (bct.train's `mix.GAME.num_games`, so that a run's mix has its data)."""
    games = {g.name: g for g in map(as_game, check_choices("game", games, as_game))}
    modules = check_choices("module setting", modules, check_modules)
    folds = check_choices("fold", folds, check_fold)
    entries = mix_entries(dict(num_games_of or {}), list(games.values()))
    count = {name: int(entries[g] or num_games) for name, g in games.items()}
    seeds_of = {
        (name, fold): fold_seeds(g, fold, count[name], "games", "num_games")
        for name, g in games.items()
        for fold in folds
    }
    out_dir = Path(out_dir)
    try:  # before any game is played: a folder that cannot be written is known now
        out_dir.mkdir(parents=True, exist_ok=True)
        tempfile.NamedTemporaryFile(dir=out_dir, prefix=".bct-write-test-").close()  # its own name: jobs share folders
    except OSError as e:
        raise UserError(
            f"out_dir={out_dir} cannot be written ({e.strerror or type(e).__name__}); choose a folder you can write to"
        ) from None
    # Jobs of a sweep share a data folder: one writes at a time, the others wait, then find it written.
    with FolderLock(out_dir, "data generation", wait=True):
        return _generate(games, modules, folds, seeds_of, count, out_dir, overwrite, progress, config, workers)


def _play(
    g, modules: bool, files: list[tuple[str, str, list[int], dict]], out_dir: Path, queue=None
) -> list[tuple[str, dict]]:
    """Play one game's gold paths with one module setting for each (file, fold, seeds, kept); write each file;
    return each file's manifest entry (less the settings). `kept` holds episodes already written by a run with
    other `num_games` (seed -> its rows, or its failure): those are taken as they are, not played again. `queue`
    hears of each episode played (progress). The game's JVM starts only if an episode is left to play."""
    entries = []
    with contextlib.ExitStack() as stack:
        env = None
        for rel, fold, seeds, kept in files:
            start, rows, failed, reused = time.time(), [], [], 0
            idle = {"dropped": 0, "kept": 0}  # gold steps of idle answers (bct.worlds.gold.play_gold)
            for seed in seeds:
                if seed in kept:
                    reused += 1
                    if isinstance(kept[seed], dict):
                        failed.append(kept[seed])
                    else:
                        rows += kept[seed]
                    continue
                if env is None:  # a world may skip listing: unread here; the same episodes in any run
                    env = stack.enter_context(open_game(g, modules, list_actions=False, reproducible=True))
                traj = play_gold(env, seed, fold, modules=modules)
                if traj.ok:
                    rows += examples(traj, modules)
                    idle["dropped"] += traj.dropped
                    idle["kept"] += traj.idle_kept
                else:
                    failed.append({"seed": seed, "error": traj.error})
                    log.warning("gold path failed: %s %s seed %d: %s", rel, modules_label(modules), seed, traj.error)
                if queue is not None:
                    queue.put(1)
            write_jsonl(out_dir / rel, rows)
            entries.append(
                (
                    rel,
                    {
                        **g.record(),
                        "modules": modules,
                        "fold": fold,
                        "episodes": len(seeds) - len(failed),
                        "examples": len(rows),
                        "gold_success_rate": (len(seeds) - len(failed)) / len(seeds),
                        "failed": failed,
                        "seeds": [seeds[0], seeds[-1]],
                        "variations": seeds,
                        "reused": reused,
                        # of the episodes played here (not those reused): idle steps left out, and kept where the
                        # path without them fell short
                        "idle_steps_dropped": idle["dropped"],
                        "idle_steps_kept": idle["kept"],
                        "seconds": round(time.time() - start, 2),
                    },
                )
            )
    return entries


def _written_episodes(path: Path, entry: dict, seeds: list[int]) -> dict:
    """The episodes of `seeds` that a file written with other `num_games` (and otherwise the same settings)
    holds: seed -> its rows, or its failure as the manifest lists it. Only the seeds not written are played
    (TWX's 20 -> 50 games plays 30; ScienceWorld's variations are drawn from a fold, so some of its 20 are among
    the 50); a file that disagrees with its entry is played again."""
    played: dict = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        played.setdefault(row.get("seed"), []).append(row)
    if len(played) != entry.get("episodes"):
        return {}
    played |= {f["seed"]: f for f in entry.get("failed", [])}
    return {seed: played[seed] for seed in seeds if seed in played}


def _variations(entry: dict) -> list[int]:
    """The seeds a file was written from (entries before bct recorded them: its fold's seeds first to last)."""
    if "variations" in entry:
        return entry["variations"]
    first, last = entry.get("seeds", (0, -1))
    return list(range(first, last + 1))


def _generate(
    games, settings_of_modules, folds, seeds_of, count, out_dir, overwrite, progress, config, workers=1
) -> dict:
    manifest = read_manifest(out_dir)
    # the world's own version: data made by another release of its games are made again
    settings_of = {
        name: {"num_games": count[name], "format": DATA_FORMAT, **world_of(g).version()} for name, g in games.items()
    }
    code_of = {name: gold_code(world_of(g)) for name, g in games.items()}  # recorded beside, not a setting

    # (game, modules) -> its files to write: (file, fold, seeds, episodes already written)
    groups: dict[tuple[str, bool], list[tuple[str, str, list[int], dict]]] = {}
    for game in games:
        for modules in dict.fromkeys(data_modules(games[game], m) for m in settings_of_modules):
            for fold in folds:
                rel = data_path(".", game, modules, fold).as_posix().removeprefix("./")
                done, seeds = manifest["files"].get(rel, {}), seeds_of[game, fold]
                if overwrite or not (out_dir / rel).exists():
                    kept = {}
                elif done.get("settings") == settings_of[game] and _variations(done) == seeds:
                    if done.get("gold_code", code_of[game]) != code_of[game]:
                        log.warning(
                            "%s: kept as written with these settings, but by other gold-path code than this "
                            "(its searches or rules changed since); overwrite=true writes it again",
                            out_dir / rel,
                        )
                    continue  # written with these settings: kept as it is
                else:  # written with other num_games or seeds: its episodes are reused where they are wanted
                    other = {**done.get("settings", {}), "num_games": settings_of[game]["num_games"]}
                    kept = _written_episodes(out_dir / rel, done, seeds) if other == settings_of[game] else {}
                groups.setdefault((game, modules), []).append((rel, fold, seeds, kept))
    episodes = sum(len(seeds) - len(kept) for files in groups.values() for *_, seeds, kept in files)
    bar = tqdm(total=episodes, unit="episode", disable=not progress, desc="generate")

    def record(game: str, entries: list[tuple[str, dict]]) -> None:
        """A group's files are written: the manifest says so at once (an interrupted run resumes after them)."""
        for rel, written in entries:
            manifest["files"][rel] = {
                **written,
                "settings": settings_of[game],
                "gold_code": code_of[game],
            }
        manifest.update(**world_of(games[game]).version(), config=config or {})
        write_atomic(
            out_dir / MANIFEST, json.dumps({k: v for k, v in manifest.items() if k != "written"}, indent=2) + "\n"
        )

    # the longest first (episodes to play x the game's step limit): a long game handed out last runs alone at the end
    def length(key: tuple[str, bool]) -> int:
        return games[key[0]].step_limit * sum(len(seeds) - len(kept) for *_, seeds, kept in groups[key])

    play_all(
        _play,
        {key: (games[key[0]], key[1], groups[key], out_dir) for key in sorted(groups, key=length, reverse=True)},
        lambda key, entries: record(key[0], entries),
        bar,
        workers,
    )
    bar.close()
    manifest["written"] = [rel for files in groups.values() for rel, *_ in files]  # what this run wrote (not saved)
    return manifest


def cfg_list(values, canonical=None) -> list[str]:
    values = list(values) if isinstance(values, (list, tuple)) else [values]
    return [canonical(v).name for v in values] if canonical else values


def plan(cfg) -> list[tuple[bool | str, list, dict[str, int]]]:
    """What `cfg` (bct.config.settings.GenerateSettings) plays, per module setting: its games (`+game=NAME` with
    game.params.*, or each of `games`; each with the memory `memory` gives it: with modules=all it is one of the
    modules offered unless memory=false) and each game's number of training games as bct.train reads them: the run's
    `num_games` for one game; for several, `mixture`'s (mix.GAME.num_games, else the model preset's for that game)."""
    out = []
    for modules in check_choices("module setting", cfg.modules, check_modules):
        memory = memory_of(modules, cfg.memory)
        games = (
            [cfg.game.build(memory)] if cfg.game else [get_game(g).with_memory(memory) for g in expand_games(cfg.games)]
        )
        shares = {} if cfg.game else mixture(cfg, games)  # a mix key that names no game of the run is refused here
        count = {n: s["num_games"] for n, s in shares.items()} if len(games) > 1 else {games[0].name: cfg.num_games}
        out.append((modules, games, count))
    return out


def planned_files(cfg) -> dict[str, int]:
    """The files `cfg` writes (<out_dir>/<game>/<modules label>/<fold>.jsonl), each with its number of games."""
    return {
        data_path(cfg.out_dir, g.name, data_modules(g, modules), fold).as_posix(): count[g.name]
        for modules, games, count in plan(cfg)
        for g in games
        for fold in cfg_list(cfg.folds)
    }


def run(cfg) -> dict:
    """The command: write what `cfg` (bct.config.settings.GenerateSettings) asks for and say what was written."""
    start = time.time()
    written = []
    for modules, games, count in plan(cfg):
        manifest = generate(
            games,
            [modules],
            cfg.folds,
            cfg.num_games,
            cfg.out_dir,
            cfg.overwrite,
            cfg.progress,
            config=cfg.dump(),
            workers=cfg.workers,
            num_games_of=count,
        )
        written += manifest["written"]
    n = sum(manifest["files"][rel]["examples"] for rel in written)
    kept = len(planned_files(cfg)) - len(written)
    print(
        f"wrote {len(written)} files, {n} examples, in {cfg.out_dir}/ ({time.time() - start:.0f} s)"
        + (f"; kept {kept} already written with these settings (overwrite=true rewrites them)" if kept else "")
    )
    return manifest
