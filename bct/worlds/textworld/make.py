"""Making TextWorld's games: its own generator (textworld.challenges), one game per seed, cached on disk.

A game is made once and kept under the cache folder (BCT_TEXTWORLD_GAMES, else ~/.cache/bct/textworld), named by
its challenge, options and seed, and made again when missing. Two processes making the same game each write their
own temporary files and move them into place, so a reader never sees half a game.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from bct.core.game import Game
from bct.worlds.textworld.games import COOKING_LEVELS, level

RETRIES = 5  # treasure hunter's generator fails on some seeds: the next of seed + k * RETRY_STEP is taken
RETRY_STEP = 100_000  # below the folds' spacing (bct.worlds.textworld.games.FOLD_SEEDS): folds stay disjoint


def cache_dir() -> Path:
    if os.environ.get("BCT_TEXTWORLD_GAMES"):
        return Path(os.environ["BCT_TEXTWORLD_GAMES"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bct" / "textworld"


def settings(game: Game) -> list[str]:
    """The challenge's own command-line options for `game`'s level (tw-make's)."""
    n = level(game)
    if game.world_game == "tw-cooking":
        recipe, take, go, cook, cut = COOKING_LEVELS[n]
        options = ["--recipe", str(recipe), "--take", str(take), "--go", str(go), "--open", "--split", "train"]
        return options + (["--cook"] if cook else []) + (["--cut"] if cut else [])
    return ["--level", str(n)]


def game_file(game: Game, seed: int) -> Path:
    """The game file of `game` made from `seed`: made and cached where missing."""
    tag = "".join(o.strip("-") for o in settings(game))
    folder = cache_dir() / f"{game.world_game}-{tag}"
    path = folder / f"seed{seed}.z8"
    if not (path.exists() and path.with_suffix(".json").exists()):
        _make(game, seed, folder, path)
    return path


def _make(game: Game, seed: int, folder: Path, path: Path) -> None:
    import textworld
    import textworld.challenges
    from textworld.generator import QuestGenerationError, compile_game

    _, make, add_arguments = textworld.challenges.CHALLENGES[game.world_game]
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    options = vars(parser.parse_args(settings(game)))
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(RETRIES):
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            opt = textworld.GameOptions()
            opt.seeds = seed + k * RETRY_STEP
            opt.path = str(Path(tmp) / "game.z8")
            opt.force_recompile = True
            try:
                made = compile_game(make(options, opt), opt)
            except QuestGenerationError:
                continue
            made = Path(made)
            # the json first: a .z8 in place means its json is there too
            os.replace(made.with_suffix(".json"), path.with_suffix(".json"))
            os.replace(made, path)
            return
    raise RuntimeError(f"TextWorld made no {game.name} game from seed {seed} in {RETRIES} tries")
