"""Files bct writes and reads back: atomic writes, JSON records, JSON lines."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from bct.core.errors import UserError


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file so that readers see the old version or the new one, never a partial one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())  # on disk before it replaces the old version: a crash leaves one or the other
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; the file gets the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (where the platform allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json(path: str | Path, value) -> None:
    write_atomic(path, json.dumps(value, indent=2) + "\n")


def write_jsonl(path: str | Path, rows: Iterable[dict]) -> None:
    write_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def read_json(path: str | Path, what: str, fix: str) -> dict:
    """A JSON object from a file bct wrote, or a UserError that names the file and the fix."""
    try:
        value = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        first = str(e).splitlines()[0][:80]
        raise UserError(f"{path} is not a readable {what} ({type(e).__name__}: {first}); {fix}") from None
    if not isinstance(value, dict):
        raise UserError(f"{path} is not a {what} (no JSON object); {fix}")
    return value


def read_record(path: str | Path, keys: Iterable[str] = ()) -> dict | None:
    """A JSON object with the given keys, or None where the file is damaged (for callers that skip it)."""
    try:
        value = read_json(path, "record", "")
    except UserError:
        return None
    return value if all(k in value for k in keys) else None
