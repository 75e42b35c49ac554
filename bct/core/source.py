"""The source of the code that made a file: kept files (generated data, mapped examples) are compared by it, so
that one made by other code is known."""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from types import ModuleType


@functools.cache
def sources(name: str) -> tuple[tuple[str, str], ...]:
    """The module `name` and the modules of its folder (its package) that it uses, at any depth, each as (name,
    source), ordered by name: ScienceWorld's gold.py with searches.py, text.py, env.py and games.py."""
    root = importlib.import_module(name)
    folder = root.__name__.rpartition(".")[0] + "."
    found, todo = {}, [root]
    while todo:
        module = todo.pop()
        if module is None or module.__name__ in found:
            continue
        found[module.__name__] = inspect.getsource(module)
        for value in vars(module).values():
            used = value if inspect.ismodule(value) else inspect.getmodule(value)
            if used is not None and used.__name__.startswith(folder):
                todo.append(used)
    return tuple(sorted(found.items()))


def source_of(modules: list[ModuleType]) -> str:
    """The source of `modules` and of what each uses of its own folder, each module once, in a fixed order."""
    found = dict(pair for m in modules for pair in sources(m.__name__))
    return "".join(found[n] for n in sorted(found))


def fingerprint(modules: list[ModuleType]) -> str:
    """A short digest of `source_of(modules)`."""
    return hashlib.sha256(source_of(modules).encode()).hexdigest()[:16]
