"""A claim on a folder a job writes, so that two jobs never write one folder at once."""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from pathlib import Path

from bct.core.errors import UserError
from bct.core.files import read_record

log = logging.getLogger(__name__)


class FolderLock:
    """A claim on a folder a job writes: `.<name>.lock` beside it holds the holder's host, pid and start.

    A second job is refused in one line naming the holder (`wait=True`: it waits its turn instead, for
    work that the first job may already have done, such as generating shared data). A lock whose
    holder has died (same host, pid gone) is taken over with a warning. Released on exit, whatever
    the exit.
    """

    def __init__(self, folder: Path, what: str, wait: bool = False):
        self.folder, self.what, self.wait = Path(folder), what, wait
        self.path = self.folder.parent / f".{self.folder.name}.lock"

    def __enter__(self) -> FolderLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        me = {
            "what": self.what,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        told = False
        while True:
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = read_record(self.path, ["host", "pid"]) or {}
                if holder and holder["host"] == me["host"] and not _alive(holder["pid"]):
                    log.warning(
                        "%s: taking over the lock of pid %s, which is no longer running", self.folder, holder["pid"]
                    )
                    self.path.unlink(missing_ok=True)
                    continue
                who = (
                    f"{holder.get('what', 'a job')} (pid {holder.get('pid')} on {holder.get('host')} since "
                    f"{holder.get('since')})"
                    if holder
                    else "another job"
                )
                if not self.wait:
                    raise UserError(
                        f"{self.folder} is in use by {who}; wait for it to finish, or if that job "
                        f"is gone, delete {self.path}"
                    ) from None
                if not told:
                    log.info("%s is in use by %s; waiting for it", self.folder, who)
                    told = True
                time.sleep(0.5)
                continue
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            return self

    def __exit__(self, *exc) -> None:
        self.path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, TypeError):
        return True
    return True
