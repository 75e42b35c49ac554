"""The examples a run trains on: each game's gold data (generated where missing), mapped by the entity
representation into (source, target) pairs, mixed across the games of a run, and tokenized."""

from __future__ import annotations

import hashlib
import json
import logging
import random

from bct.config.runs import mixture
from bct.config.settings import TrainSettings
from bct.core.game import Game
from bct.core.source import source_of
from bct.data.datasets import DATA_FORMAT, data_path, load_examples, read_manifest
from bct.data.entities import shuffle_numbering
from bct.data.prompt import training_pair
from bct.data.refused import refused_twins
from bct.data.wins import wins_for
from bct.worlds.registry import data_modules, modules_label, world_of

log = logging.getLogger(__name__)


def _mapping_code() -> str:
    """The source of what turns a generated row into a model's example: prompt packing, representations, and the
    worlds' readers of the names a prompt holds (`World.names`, `task_things`, ...: a changed reader renumbers a
    prompt, and a fingerprint without it reused examples numbered by the old one), with what each uses of its folder."""
    import inspect

    from bct.data import entities, prompt, representation
    from bct.worlds.registry import WORLDS

    readers = ("names", "speaks", "task_things", "read_things", "stage_things")
    worlds = {inspect.getmodule(f) for w in WORLDS.values() for f in (getattr(w, r) for r in readers) if f}
    return source_of([prompt, entities, representation, *worlds])


MAPPING_CODE = _mapping_code()


def actions_before(data, recent: int) -> list[list[str]]:
    """Per row, the last `recent` actions its episode took before it (the targets of the rows before it,
    module calls among them): the rows of an episode are written in step order, one episode after another."""
    before, episode, last = [], [], None
    for seed, step, target in zip(data["seed"], data["step"], data["target"]):
        if seed != last or step == 0:
            episode = []
        before.append(episode[-recent:] if episode else [])
        episode.append(target)
        last = seed
    return before


def training_data(cfg: TrainSettings, game: Game, modules: bool | str, representation, num_games: int | None = None):
    """The examples of the first `num_games` (default: the run's) training games of
    data/<game>/<modules label>/train.jsonl (generated if missing), as `representation` maps them."""
    return examples(cfg, game_rows(cfg, game, modules, num_games), representation)


def game_rows(cfg: TrainSettings, game: Game, modules: bool | str, num_games: int | None = None):
    """The generated rows of the first `num_games` (default: the run's) training games of
    data/<game>/<modules label>/train.jsonl, generated if missing."""
    from datasets import concatenate_datasets

    from bct.data.generation import generate

    num_games = num_games or cfg.num_games
    modules = data_modules(game, modules)  # a game that no module changes reads the data without
    path = data_path(cfg.data_dir, game.name, modules, "train")
    entry = read_manifest(cfg.data_dir)["files"].get(f"{game.name}/{modules_label(modules)}/train.jsonl", {})
    made = entry.get("settings", {})
    if not path.exists() or made.get("num_games", 0) < num_games or made.get("format") != DATA_FORMAT:
        log.info(
            "no training data for %s/%s with %d games in %s: generating it",
            game.name,
            modules_label(modules),
            num_games,
            cfg.data_dir,
        )
        generate(
            [game],
            [modules],
            ["train"],
            num_games=max(num_games, 1),
            out_dir=cfg.data_dir,
            overwrite=True,
            progress=cfg.progress,
        )
    elif other := {k: (made.get(k), v) for k, v in world_of(game).version().items() if made.get(k) != v}:
        # another simulator, or ScienceWorld's data from before its hash codes were fixed: another draw of gold paths
        log.warning(
            "%s was made by another version of its world (%s, not %s); trained on as it is. "
            "python -m bct.generate ... overwrite=true makes it again",
            path,
            {k: was for k, (was, _) in other.items()},
            {k: now for k, (_, now) in other.items()},
        )
    data = load_examples(path)
    seeds = sorted(set(data["seed"]))[:num_games]
    data = data.filter(lambda s: s <= seeds[-1], input_columns=["seed"])
    won = wins_for(cfg.wins, game) if cfg.wins else None
    if won is not None:  # the agent's own won episodes after the gold paths (bct.data.wins)
        data = concatenate_datasets([data, won.cast(data.features)])
    data = data.filter(lambda final: cfg.final_example or not final, input_columns=["final"])

    if cfg.recent:
        data = data.add_column("before", actions_before(data, cfg.recent))
    return data


def with_refused(cfg: TrainSettings, data, game: Game):
    """`data` and, with `refused`, its gold steps again after a command the game refused (bct.data.refused), after
    the episodes: a lever on the rows as read, after the representation's fit and the data's digest."""
    from datasets import Dataset, concatenate_datasets

    if not cfg.refused:
        return data
    twins = refused_twins(data, game, cfg.refused, cfg.recent, cfg.seed)
    log.info("%s: %d gold steps again after a refused command", game.name, len(twins))
    return concatenate_datasets([data, Dataset.from_list(twins, features=data.features)]) if twins else data


def examples(cfg: TrainSettings, data, representation):
    """Generated rows as (source, target) examples, as `representation` maps them (shuffled ids, distinct
    examples as the settings say)."""
    from datasets.fingerprint import Hasher

    def pair(row: dict) -> dict:
        source, target = training_pair(row, representation, cfg.recent)
        return {"source": source, "target": target}

    # datasets caches a map by the function's pickle, which names the representation's class but holds
    # none of its code: a changed entity rule would reuse examples mapped by the old one. The fingerprint
    # names the code that maps them.
    data = data.map(
        pair,
        desc=f"entities={representation.name}" + (f", recent={cfg.recent}" if cfg.recent else ""),
        new_fingerprint=Hasher.hash(
            [data._fingerprint, representation.name, representation.state(), cfg.recent, MAPPING_CODE]
        ),
    )
    if cfg.distinct:  # an example that is the same after the representation teaches nothing the first did not
        seen = set()
        data = data.filter(lambda s, t: (s, t) not in seen and not seen.add((s, t)), input_columns=["source", "target"])
    if cfg.shuffle_ids:

        def shuffle(row: dict) -> dict:
            rng = random.Random(f"{cfg.seed}-{row['seed']}-{row['step']}")
            if rng.random() < cfg.shuffle_ids:  # this example's placeholders renumbered at random
                row["source"], row["target"] = shuffle_numbering([row["source"], row["target"]], rng)
            return row

        data = data.map(shuffle, desc="shuffle_ids")
    return data


def decisive_again(cfg: TrainSettings, data, game: Game):
    """`data` with `decisive_passes - 1` more copies of its examples whose action is one of the world's decisive
    commands (`World.decisive`): a choice made once an episode, which the gold paths show once against dozens of
    moves, and which ends the task when wrong."""
    from datasets import concatenate_datasets

    starts = world_of(game).decisive
    if cfg.decisive_passes == 1 or not starts:
        return data
    chosen = data.filter(lambda t: t.startswith(starts), input_columns=["target"])
    if len(chosen):
        log.info("%s: %d decisive examples x %d passes", game.name, len(chosen), cfg.decisive_passes)
    return concatenate_datasets([data, chosen.repeat(cfg.decisive_passes - 1)]) if len(chosen) else data


def mixed_data(cfg: TrainSettings, games: list[Game], representation, fitted: bool = False):
    """The training examples of every game of a run, each game as `mixture` says (one game: its data), the
    representation fitted to the run's rows (bct.data.representation: `entities=common` learns its names; `fitted`:
    kept as given, a checkpoint's own trained further) and the rows' `data_digest`."""
    from datasets import concatenate_datasets

    shares = mixture(cfg, games) if len(games) > 1 else {games[0].name: {"num_games": None, "passes": 1}}
    by_name = {g.name: g for g in games}
    rows = {g: game_rows(cfg, by_name[g], cfg.modules, share["num_games"]) for g, share in shares.items()}
    representation = representation if fitted else representation.fit(rows.values())
    parts = []
    for g, share in shares.items():
        data = decisive_again(cfg, examples(cfg, with_refused(cfg, rows[g], by_name[g]), representation), by_name[g])
        parts.append(data.repeat(share["passes"]) if share["passes"] > 1 else data)
        if len(games) > 1:
            log.info("%s: %d examples x %d passes", g, len(data), share["passes"])
    return (parts[0] if len(parts) == 1 else concatenate_datasets(parts)), representation, data_digest(rows)


def data_digest(rows: dict) -> str:
    """Which gold data a run trained on: a digest of each game's generated rows as read (its training games, any
    won episodes), before the representation, `recent` or passes shape them, so that runs of two levers on one draw
    share it. Data made twice from one config by one version of bct is the same; another world version's is not."""
    h = hashlib.sha256()
    for game in sorted(rows):
        h.update(game.encode())
        for row in rows[game]:
            row.pop("before", None)  # the recent actions: `recent`'s reading of the rows, not the rows
            h.update(json.dumps(row, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def encode(data, tokenizer, cfg: TrainSettings):
    def batch(rows):
        enc = tokenizer(rows["source"], max_length=cfg.max_source_length, truncation=True)
        enc["labels"] = tokenizer(rows["target"], max_length=cfg.max_target_length, truncation=True)["input_ids"]
        enc["length"] = [len(ids) for ids in enc["input_ids"]]
        return enc

    return data.map(batch, batched=True, remove_columns=data.column_names, desc="tokenize")
