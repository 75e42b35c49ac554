"""How many CPU threads PyTorch may use: the cores this process may run on, less those others keep busy.

OpenMP threads spin while they wait for a core, so more threads than free cores is far slower than
one thread (a training step of the CPU preset: 7.7 s with 2 threads beside another job on 2 cores,
0.28 s with 1). `threads=auto` takes the smallest of: the CPUs in this process's affinity mask,
OMP_NUM_THREADS, SLURM_CPUS_PER_TASK, and the cores not busy with other processes right now.
"""

from __future__ import annotations

import logging
import os
import time

from bct.core.errors import UserError

log = logging.getLogger(__name__)


def available_cores() -> tuple[int, str]:
    """The cores this process may use, and what limited it."""
    try:
        n, why = len(os.sched_getaffinity(0)), "CPU affinity"
    except AttributeError:  # macOS, Windows
        n, why = os.cpu_count() or 1, "CPU count"
    for var in ("OMP_NUM_THREADS", "SLURM_CPUS_PER_TASK"):
        value = os.environ.get(var, "")
        if value.isdigit() and 0 < int(value) < n:
            n, why = int(value), var
    return n, why


def busy_cores(seconds: float = 0.25) -> float:
    """Cores other processes keep busy now: /proc/stat sampled over `seconds` (this process waits
    meanwhile), else the 1-minute load average, which lags by up to a minute."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return sum(fields), idle

    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
        cores = os.cpu_count() or 1
        return cores * (1 - (idle1 - idle0) / max(1, total1 - total0))
    except (OSError, ValueError, IndexError):
        try:
            return os.getloadavg()[0]
        except (AttributeError, OSError):
            return 0.0


def auto_threads() -> tuple[int, str]:
    n, why = available_cores()
    busy = round(busy_cores())
    free = max(1, n - busy)
    if free < n:
        return free, f"{why} allows {n}, {busy} busy with other processes"
    return n, why


def set_threads(threads: int | str | None) -> int:
    """Set PyTorch's intra-op threads (`auto`/None: see the module docstring) and return the number."""
    import torch

    if threads in (None, "auto"):
        n, why = auto_threads()
    elif isinstance(threads, int) and not isinstance(threads, bool) and threads > 0:
        n, why = threads, "threads setting"
    else:
        raise UserError(f"threads={threads!r}: give a positive number of CPU threads, or auto")
    torch.set_num_threads(n)
    log.info("PyTorch CPU threads: %d (%s)", n, why)
    return n
