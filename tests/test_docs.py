"""Every command shown in the README and docs/ stays valid as written: a Hydra command's settings
compose and validate (its game, preset, agent and every key and value), an argparse command knows
every option the docs give it, and every script the docs name exists."""

import importlib
import re
import shlex
from pathlib import Path

import pytest

from bct.config.cli import check_overrides
from bct.config.settings import EvaluateSettings, GenerateSettings, TrainSettings

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
HYDRA = {"train": TrainSettings, "evaluate": EvaluateSettings, "generate": GenerateSettings}


def commands() -> list[tuple[str, str]]:
    """(page, command line) for every shell line of a ```bash block, continuation lines joined."""
    found = []
    for page in PAGES:
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #")[0].split(" # ")[0].strip()
                if line and not line.startswith("#"):
                    found.append((page.name, line))
    return found


def words(line: str) -> list[str]:
    """The arguments after `python -m bct.X`, with the docs' placeholders (<run>, <time>) kept as text."""
    return shlex.split(line.replace("<", "PLACEHOLDER_").replace(">", ""))


def first_of_sweep(arg: str) -> str:
    """A sweep override (epochs=2,4,6 or epochs=range(2,21,2)) as its first value."""
    key, _, value = arg.partition("=")
    if value.startswith("range("):
        return f"{key}={value[6:].split(',')[0]}"
    if "," in value and not value.startswith(("[", "{", "'", '"')):
        return f"{key}={value.split(',')[0]}"
    return arg


BCT = [(page, line) for page, line in commands() if "python -m bct." in line]


def test_the_docs_show_commands_of_every_kind():
    shown = {re.search(r"python -m bct\.(\w+)", line).group(1) for _, line in BCT}
    assert {"generate", "train", "evaluate", "show", "report", "compare", "tune", "share"} <= shown


@pytest.mark.parametrize("page,line", BCT, ids=[f"{p}:{line[:60]}" for p, line in BCT])
def test_a_documented_command_is_valid_as_written(page, line, cli_here):
    args = words(line.split("python -m ", 1)[1])
    module, args = args[0], args[1:]
    command = module.removeprefix("bct.")
    if command in HYDRA:
        if "--cfg" in args:  # `--cfg hydra` prints what would run
            args = args[: args.index("--cfg")]
        args = [first_of_sweep(a) for a in args if a not in ("-m", "--multirun") and not a.startswith("hydra")]
        check_overrides(args)
        HYDRA[command].from_overrides(args)  # composes and validates, or raises naming the bad value
        return
    options = {a.split("=")[0] for a in args if a.startswith("--")}
    if not options:
        return
    known = set(re.findall(r"--[\w-]+", cli_here(module, "--help").stdout))
    assert options <= known, f"{page}: {line}: {sorted(options - known)} not among {module}'s options"


SCRIPTS = sorted(
    {m for _, line in commands() for m in re.findall(r"(?:\./)?(runscripts/[\w-]+\.sh|bench/\w+\.py)", line)}
)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_documented_script_exists(script):
    assert (ROOT / script).is_file()


PY_IMPORTS = [
    (page.name, m.group(1), name.strip())
    for page in [*PAGES, *sorted((ROOT / "runscripts").glob("*.sh"))]
    for block in (
        re.findall(r"```python\n(.*?)```", page.read_text(), re.S) if page.suffix == ".md" else [page.read_text()]
    )
    for m in re.finditer(r"^\s*from (bct[\w.]*) import ([\w, ]+)$", block, re.M)
    for name in m.group(2).split(",")
]


@pytest.mark.parametrize("page, module, name", PY_IMPORTS)
def test_a_documented_import_names_what_is_there(page, module, name):
    """Python in the README, docs/ and the runscripts imports what is there (a moved name breaks no script)."""
    assert PY_IMPORTS and hasattr(importlib.import_module(module), name), f"{page}: from {module} import {name}"
