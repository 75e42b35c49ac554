"""User-facing errors: one line that names the problem and the fix, exit code 2."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterable


class UserError(Exception):
    """Bad input from the user. The message is shown as is, without a traceback."""


def unknown(kind: str, value: object, choices: Iterable[str]) -> UserError:
    return UserError(f"unknown {kind} {value!r}; valid choices: {', '.join(sorted(choices))}")


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
