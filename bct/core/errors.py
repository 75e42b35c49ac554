"""User-facing errors: one line that names the problem and the fix, exit code 2."""

from __future__ import annotations

import argparse
import difflib
import functools
import sys
from collections.abc import Iterable


class UserError(Exception):
    """Bad input from the user. The message is shown as is, without a traceback."""


class CannotMake(UserError):
    """A world's generator refused a game's parameters for a seed (a variant it cannot build): a sweep marks the
    cell, a single run says so in one line."""


def unknown(kind: str, value: object, choices: Iterable[str]) -> UserError:
    """One line: the unknown value, the closest choice where one is close, and every choice."""
    choices = sorted(choices)
    close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.75)
    hint = f"; did you mean {close[0]!r}?" if close else ";"
    return UserError(f"unknown {kind} {value!r}{hint} valid choices: {', '.join(choices)}")


def exits_cleanly(main):
    """Wrap a CLI entry point so that a UserError prints one line and exits with code 2."""

    @functools.wraps(main)
    def wrapper(*args, **kwargs):
        try:
            return main(*args, **kwargs)
        except UserError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(2)

    return wrapper


class ArgumentParser(argparse.ArgumentParser):
    """argparse with bct's one-line errors (exit code 2), for the commands that are not Hydra apps."""

    def error(self, message: str):
        print(f"error: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(2)
