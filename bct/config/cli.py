"""The command line of bct's Hydra apps: the config groups' options, overrides checked before Hydra reads them.

Secrets are refused before Hydra saves the overrides with the run; unknown games, model presets and agents are
named in one line; `game.params.NAME=V` without `+game=` takes the game of the checkpoint named. `entry` wraps
a Hydra app as a console entry point (`python -m bct.train`, ...). Typed settings: bct/config/settings.py.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable
from pathlib import Path

from bct.core.errors import UserError, exits_cleanly, unknown
from bct.worlds.registry import get_game

CONF = Path(__file__).resolve().parents[1] / "conf"  # shipped inside the package; ./conf links here


def choices(group: str) -> list[str]:
    """The options of a config group (bct/conf/<group>/*.yaml; games come from the registry)."""
    if group == "game":
        from bct.worlds.registry import ALIASES, GAMES

        return sorted([*GAMES, *ALIASES])
    return sorted(p.stem for p in (CONF / group).glob("*.yaml"))


SECRET_KEY = re.compile(r"(token|api_?key|secret|password|passwd)$", re.I)


def check_secrets(argv: list[str]) -> None:
    """Refuse a secret on the command line before Hydra saves the overrides into its output folder:
    tokens and keys come from the environment only, and URLs carry no credentials."""
    for arg in argv:
        key, eq, value = arg.lstrip("+~").partition("=")
        if not eq:
            continue
        leaf = key.rsplit(".", 1)[-1]
        if SECRET_KEY.search(leaf):
            raise UserError(
                f"{key}: bct takes secrets from the environment only, never from the command line "
                f"(it would be saved with the run): export HF_TOKEN=... for the hub, or set the key in a "
                f"variable named by agent.api_key_env"
            )
        if leaf == "api_key_env" and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise UserError(
                "agent.api_key_env must name an environment variable (e.g. OPENAI_API_KEY) that holds "
                "the key, not the key itself"
            )
        if re.search(r"://[^/@\s]+@", value):
            raise UserError(
                f"{key}: the URL carries credentials; give the key through the environment "
                f"(agent.api_key_env) and the URL without them"
            )


def checkpoint_game(argv: list[str]) -> list[str]:
    """`game.params.NAME=V` without `+game=`: the game of the checkpoint named (`checkpoint=X`), with its
    own parameters under those given; a UserError in one line where no single game is named."""
    if any(re.match(r"^\+{0,2}game=", a) for a in argv):
        return argv
    given = [a for a in argv if re.match(r"^\+{0,2}game\.params\.\w+=", a)]
    if not given:
        return argv
    first = given[0].lstrip("+")
    checkpoint = next((a.split("=", 1)[1] for a in argv if a.startswith("checkpoint=")), None)
    if not checkpoint or checkpoint == "null":
        raise UserError(f"{first}: name the game it applies to, e.g. +game=mapreader {first}")
    from bct.core.files import read_record
    from bct.worlds.registry import trained_games

    run = read_record(Path(checkpoint) / "bct_config.json", ["settings"])  # bct.config.runs.RUN_RECORD
    if run is None or not isinstance(run.get("settings"), dict):
        return argv  # the agent names a missing or unfinished checkpoint in its own line
    games = trained_games(run["settings"])
    if len(games) > 1:
        names = ", ".join(g.preset or g.name for g in games)
        raise UserError(
            f"{first}: {checkpoint} was trained on {len(games)} games ({names}); name the one it applies to, "
            f"e.g. +game={games[0].preset or games[0].name} {first}"
        )
    game = games[0]
    keys = {a.lstrip("+").split("=", 1)[0].rsplit(".", 1)[1] for a in given}
    own = [f"game.params.{k}={v}" for k, v in game.overrides if k not in keys]
    return [*argv, f"+game={game.preset or game.name}", *own]


def check_overrides(argv: list[str]) -> list[str]:
    """Name unknown games, model presets and agents in one line, before Hydra's longer message; return
    the overrides to run (a checkpoint's game added where only its parameters were given)."""
    check_secrets(argv)
    argv = checkpoint_game(list(argv))
    # a per-game map entry as the docs write it (mix.twc.passes=2): added where the map lacks it, else set
    argv = [re.sub(r"^\+?(?=mix\.[\w-]+\.\w+=)", "++", a) for a in argv]
    names = {"game": "game", "model": "model preset", "agent": "agent"}
    for arg in argv:
        m = re.match(r"^\+{0,2}(game|model|agent)=(.*)$", arg)
        if m and "(" not in m.group(2):
            for value in m.group(2).split(","):
                if value not in choices(m.group(1)):
                    raise unknown(names[m.group(1)], value, choices(m.group(1)))
    games = [m.group(1) for a in argv if (m := re.match(r"^\+{0,2}game=([\w-]+)$", a))]
    for arg in argv:  # game.params.NAME=...: a parameter the game's TWX generator takes
        m = re.match(r"^\+{0,2}game\.params\.(\w+)=", arg)
        if m and games:
            game = get_game(games[0])
            if m.group(1) not in game.accepts:
                accepted = ", ".join(f"{k} ({lo}-{hi})" for k, (lo, hi) in game.accepts.items())
                raise UserError(
                    f"game.params.{m.group(1)}: {game.name} has no such parameter; it accepts {accepted or 'none'}"
                )
    return argv


def settings_of(command: str) -> set[str]:
    """The top-level settings of a command's config (conf/<command>.yaml with its defaults composed)."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(str(CONF), version_base="1.3"):
        return {k for k in compose(command) if k != "hydra"}


def check_keys(argv: list[str], command: str) -> None:
    """An override of a setting the command does not have (`bct.evaluate games=[...]`) is named in one line with
    the settings it has, before Hydra's longer message; `+key=` (adding one), `~key` and Hydra's own pass."""
    known: set[str] | None = None
    for arg in argv:
        if arg.startswith(("+", "~", "-")) or "=" not in arg:
            continue
        root = re.split(r"[.=@/]", arg, maxsplit=1)[0]
        if root in ("hydra", "game"):
            continue
        known = known if known is not None else settings_of(command)
        if root not in known:
            close = difflib.get_close_matches(root, known, n=1)
            raise UserError(
                f"{root}: python -m bct.{command} has no such setting"
                + (f" (did you mean {close[0]}?)" if close else "")
                + f"; it has {', '.join(sorted(known))} (conf/{command}.yaml)"
            )


def entry(hydra_main: Callable[[], None], command: str) -> Callable[[], None]:
    """A console entry point: check the overrides' keys and choices, then run the Hydra app."""

    @exits_cleanly
    def main() -> None:
        sys.argv[1:] = check_overrides(sys.argv[1:])
        check_keys(sys.argv[1:], command)
        hydra_main()

    return main
