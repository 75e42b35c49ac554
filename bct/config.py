"""Hydra configuration helpers shared by the command-line entry points."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from omegaconf import OmegaConf

from bct.errors import UserError, exits_cleanly, unknown

CONF = Path(__file__).resolve().parent / "conf"  # shipped inside the package; ./conf links here

# ${if:COND,A,B} in a config: A where COND is true, else B (e.g. a preset's default that depends on
# `modules`: entities: ${if:${modules},placeholders,names}).
OmegaConf.register_new_resolver("if", lambda cond, a, b: a if cond else b, replace=True)


def choices(group: str) -> list[str]:
    """The options of a config group (bct/conf/<group>/*.yaml; games come from the registry)."""
    if group == "game":
        from bct.games import ALIASES, GAMES

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


def check_overrides(argv: list[str]) -> None:
    """Name unknown games, model presets and agents in one line, before Hydra's longer message."""
    check_secrets(argv)
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
            from bct.games import PARAMS, get_game

            game = get_game(games[0])
            if m.group(1) not in PARAMS[game.twx_name]:
                accepted = ", ".join(f"{k} ({lo}-{hi})" for k, (lo, hi) in PARAMS[game.twx_name].items())
                raise UserError(
                    f"game.params.{m.group(1)}: {game.name} has no such parameter; it accepts {accepted or 'none'}"
                )


def entry(hydra_main: Callable[[], None]) -> Callable[[], None]:
    """A console entry point: check the overrides' choices, then run the Hydra app."""

    @exits_cleanly
    def main() -> None:
        check_overrides(sys.argv[1:])
        hydra_main()

    return main
