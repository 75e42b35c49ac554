"""How a bct checkpoint becomes a T5 agent: the run record read back (its games, modules, memory, entity
representation, longest action), the evaluation's settings checked against it, and the name and record its
results are filed under. The policy itself is bct.agents.t5."""

from __future__ import annotations

from pathlib import Path

from bct.agents.settings import T5Settings
from bct.agents.t5 import T5Agent, dtype_name, eval_dtype, play_device
from bct.core.errors import UserError
from bct.core.game import Game
from bct.data.representation import of_checkpoint
from bct.seq2seq.model import load_checkpoint, weights_fingerprint
from bct.worlds.registry import as_trained, played_with, trained_games, world_of

# the choice's settings that change what an agent sends, named in its run so that tables keep its rows apart
LEVERS = {"decisive_per_life": "per-life", "answer_questions": "answers", "decisive_best_only": "best-decisive"}
# the settings of how written candidates become the command (t5_choice), recorded beside agent_config too
CHOICE = ("untried", "retry_refused", "skip_idle", "rerank", "widen", *LEVERS)


def check_against_run(checkpoint, trained: dict, games: list[Game], game, modules, memory) -> Game:
    """The game of the run that `game` plays as (its first where none is named); settings that do not apply
    to the checkpoint (modules, memory other than trained; no game named for a run of several) are refused."""
    with_modules = trained["modules"]
    if modules is not None and modules != with_modules:
        raise UserError(
            f"modules={str(modules).lower()} does not apply to {checkpoint}: it was trained "
            f"{'with' if with_modules else 'without'} modules and plays as it was trained (leave modules "
            f"unset, or train a run with modules={str(modules).lower()})"
        )
    if game is None and len(games) > 1:
        raise UserError(
            f"{checkpoint} was trained on {len(games)} games ({', '.join(g.name for g in games)}); name the one "
            f"to play with +game=NAME (bct.evaluate without +game plays each of them)"
        )
    trained_on = next((g for g in games if game and g.name == game.with_memory(g.memory).name), games[0])
    if memory is not None and memory != trained_on.memory:
        raise UserError(
            f"memory={str(memory).lower()} does not apply to {checkpoint}: it was trained "
            f"{'with' if trained_on.memory else 'without'} the working memory and plays as it was trained "
            f"(leave memory unset, or train a run with memory={str(memory).lower()})"
        )
    return trained_on


_LOADED: dict[tuple, tuple] = {}  # the latest checkpoint read: (folder, its weight files' stamps) -> what it holds


def loaded(checkpoint, beside=()) -> tuple:
    """A checkpoint's (model, tokenizer, run, weights' fingerprint), read and hashed once while its weight files stay
    the same: an evaluation of a checkpoint trained on many games builds an agent for each, sharing one model. Held
    alone, or with the checkpoints `beside` it (an ensemble's)."""
    path = Path(checkpoint).resolve()
    files = sorted(path.glob("*.safetensors")) + sorted(path.glob("*.bin")) if path.is_dir() else []
    key = (str(path), tuple((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    if key not in _LOADED:
        keep = {str(path), *(str(Path(b).resolve()) for b in beside)}
        for old in [k for k in _LOADED if k[0] not in keep or k[0] == str(path)]:
            del _LOADED[old]  # one model held at a time, or one ensemble
        _LOADED[key] = (*load_checkpoint(checkpoint), weights_fingerprint(checkpoint))
    return _LOADED[key]


def ensemble_members(checkpoint, run: dict, ensemble: list[str]) -> list[tuple]:
    """`agent.ensemble`'s checkpoints as (model, tokenizer, resolved path, fingerprint), each refused in one line
    unless trained as `checkpoint` was on what the models read and write: the same games, modules, memory,
    entity representation (as fitted) and recent actions."""
    paths = [str(Path(c).resolve()) for c in [checkpoint, *ensemble]]
    if len(set(paths)) < len(paths):
        raise UserError(
            f"agent.ensemble={list(ensemble)} names a checkpoint twice (or {checkpoint} itself); list others"
        )

    def reads(r: dict, where) -> dict:
        s = r["settings"]
        rep = of_checkpoint(r, where)
        games = sorted(g.name for g in trained_games(s))
        return {"games": games, "modules": s["modules"], "memory": s.get("memory"), "entities": rep.name,
                "representation": rep.state(), "recent": s.get("recent", 0),
                "played_with": played_with(s)}  # fmt: skip

    mine, members = reads(run, checkpoint), []
    for other in ensemble:
        model, tokenizer, other_run, fingerprint = loaded(other, beside=[checkpoint, *ensemble])
        theirs = reads(other_run, other)
        differ = [k for k in mine if mine[k] != theirs[k]]
        if differ:
            k = differ[0]
            show = {"representation": "its fitted names", "played_with": "its modules by game"}.get(k)
            raise UserError(
                f"agent.ensemble: {other} was trained with other {k} than {checkpoint} "
                f"({show or theirs[k]} against {show or mine[k]}); an ensemble's checkpoints read and write alike: "
                f"train it on the same games with the same modules, memory, entities and recent"
            )
        members.append((model, tokenizer, str(Path(other).resolve()), fingerprint))
    return members


def run_name(
    checkpoint, game: Game, trained_on: Game, num_games: int, settings: T5Settings, played, trained_in, members=()
) -> str:
    """The evaluation's name: the run's (with its ensemble's size, or `-rerank`), then what differs from how it
    trained (another game, rank or plain beams, another dtype)."""
    return (
        Path(checkpoint).name
        + (f"-ensemble{1 + len(members)}" if members else ("-rerank" if settings.rerank else ""))
        + "".join(f"-{flag}" for key, flag in LEVERS.items() if getattr(settings, key))
        + (f"-widen{settings.widen}" if settings.widen else "")
        + ("" if game == trained_on and num_games == 1 else f"-on-{game.name}")
        + ("-rank" if settings.decoding == "rank" else ("-beam" if settings.beam_groups == 1 else ""))
        + (f"-{played}" if trained_in and played != trained_in else "")
    )


def record(checkpoint, fingerprint: str, settings: T5Settings, members: list[tuple], played: str) -> dict:
    """What results.json keeps of the agent (`settings`: as played): the checkpoint and its weights, the settings
    (`agent_config`) and, beside it for the tables, how it decodes and chooses."""
    config = settings.record()
    return {
        "checkpoint": str(Path(checkpoint).resolve()),
        "fingerprint": fingerprint,  # the weights loaded, whatever the record says
        **{k: config[k] for k in ("decoding", "num_beams", "beam_groups", "diversity_penalty", "fallback_skip")},
        **{k: config[k] for k in CHOICE if k in config},
        # the other checkpoints played with it, by the weights loaded
        **({"ensemble": [{"checkpoint": m[2], "fingerprint": m[3]} for m in members]} if members else {}),
        "agent_config": config,
        # bf16 is part of the evaluation's identity; fp32 (the CPU's) leaves older results' folders as they were
        **({"dtype": played} if played != "fp32" else {}),
    }


def trained_record(trained: dict, representation, games: list[Game], trained_in) -> dict:
    """What an evaluation's results keep of how its checkpoint was trained."""
    return {
        "model": trained["model"]["name"],
        "epochs": trained["epochs"],
        "max_steps": trained.get("max_steps"),
        "num_games": trained["num_games"],
        "entities": representation.name,
        **({"recent": trained["recent"]} if trained.get("recent") else {}),
        **({"games": [g.name for g in games]} if len(games) > 1 else {}),
        "precision": trained_in,
    }


def default_decoding(run: dict, game: Game) -> str:
    """How a checkpoint plays `game` unless `agent.decoding` says: a world whose parser takes commands beyond a list
    of thousands (ScienceWorld) by writing them, any other by its model preset's default."""
    return "generate" if world_of(game).free_actions else run.get("eval_defaults", {}).get("decoding") or "generate"


def load_agent(
    checkpoint: str | None,
    game: Game | None = None,
    modules: bool | None = None,
    memory: bool | None = None,
    *,
    settings: T5Settings | None = None,
    **knobs,
) -> T5Agent:
    """The policy in a bct checkpoint, playing the game it was trained on (or `game`) with the modules
    it was trained with, decoded as the checkpoint's defaults say unless the settings' `decoding` says otherwise; with
    the checkpoints `ensemble` names, one ensemble of them all (bct.agents.t5.T5Agent._pool). `settings`: T5Settings,
    or their keywords (`num_beams=4`)."""
    s = settings if settings is not None else T5Settings.of(knobs, T5Agent.name)
    if not checkpoint:
        raise UserError("agent=t5 needs checkpoint=checkpoints/<run> (or use agent=oracle|random +game=NAME)")
    model, tokenizer, run, fingerprint = loaded(checkpoint, beside=s.ensemble)
    trained = run["settings"]
    games = trained_games(trained)
    trained_on = check_against_run(checkpoint, trained, games, game, modules, memory)
    representation = of_checkpoint(run, checkpoint)
    members = ensemble_members(checkpoint, run, s.ensemble) if s.ensemble else []
    game = game.with_memory(trained_on.memory) if game else trained_on
    # each game with the module it was trained with, whatever the game's own is now (a module added to a task later)
    game, trained_on = as_trained(game, trained), as_trained(trained_on, trained)
    # as played: the decoding resolved, the ensemble by the checkpoints' resolved paths
    s = s.model_copy(
        update={"decoding": s.decoding or default_decoding(run, game), "ensemble": [m[2] for m in members]}
    )
    # the weights' dtype as played (agent.dtype resolved on this device), beside the one trained in
    played, trained_in = dtype_name(eval_dtype(play_device(s.device), s.dtype)), run.get("precision")
    # actions are short: generating past the longest trained action only lengthens degenerate beams
    max_new = min(trained["max_target_length"], run.get("longest_target_tokens", trained["max_target_length"]) + 4)
    return T5Agent(
        model,
        tokenizer,
        settings=s,
        max_source_length=trained["max_source_length"],
        max_target_length=max_new,
        entities=representation,
        game=game,
        modules=trained["modules"],
        run_name=run_name(checkpoint, game, trained_on, len(games), s, played, trained_in, members),
        record=record(checkpoint, fingerprint, s, members, played),
        trained=trained_record(trained, representation, games, trained_in),
        recent=trained.get("recent", 0),
        members=[(m[0], m[1]) for m in members],
    )


load_agent.Settings = T5Settings  # agent=t5's settings, named as an agent class names its own (make_agent reads them)
