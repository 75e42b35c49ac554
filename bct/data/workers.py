"""Playing groups of episodes side by side: a pool of spawned processes (each game's JVM in its own), the
progress they report, and their end when the run is interrupted or stopped (Ctrl-C, SIGTERM, SIGKILL)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait


def play_all(
    play: Callable, groups: Mapping[Hashable, tuple], done: Callable[[Hashable, object], None], bar, workers: int = 1
) -> None:
    """Call `play(*args, queue)` for each group (key -> args) and `done(key, result)` as each finishes, in this
    process or in `workers` processes side by side. `play` tells `queue.put(n)` of each n episodes played, and `bar`
    (a tqdm bar) shows them. `play` must be a module-level function (it is sent to the workers by name)."""
    if workers <= 1 or len(groups) <= 1:
        progress = _Progress(bar)
        for key, args in groups.items():
            done(key, play(*args, progress))
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process that holds JVM gateways' threads
    queue = context.Queue()  # the workers' episodes, for the progress bar
    with _terminated_as_exit():
        pool = ProcessPoolExecutor(
            min(workers, len(groups)), mp_context=context, initializer=_start_worker, initargs=(os.getpid(), queue)
        )
        try:
            futures = {pool.submit(_play_in_worker, play, args): key for key, args in groups.items()}
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                while not queue.empty():
                    bar.update(queue.get())
                for future in finished:
                    done(futures[future], future.result())
            while not queue.empty():
                bar.update(queue.get())
        except BaseException:  # interrupted, or a game failed: its workers (and their JVMs) end now
            _stop(pool)
            raise
        pool.shutdown()


@contextlib.contextmanager
def _terminated_as_exit():
    """SIGTERM (a scheduler's stop, `kill`) ends the run as Ctrl-C does, through the code that stops the workers: by
    default it ends this process alone, and the workers play on, orphaned, each with its JVM."""

    def leave(signum, frame):
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, leave)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Ends a pool's workers without waiting for their games (a worker's JVM dies with it); what was done before
    is already recorded (`done`), so the next run resumes after it. The executor has no public way to end a busy
    worker: its processes are ended one by one."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


_QUEUE = None  # in a worker: where it tells the run of each episode played (`_start_worker`)


def _start_worker(parent: int, queue) -> None:
    """A worker's initializer: keeps the run's progress queue, and ends the worker (its JVM with it) once the process
    that started it is gone, as after a SIGKILL, which no handler hears."""
    global _QUEUE
    _QUEUE = queue

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()


def _play_in_worker(play: Callable, args: tuple):
    return play(*args, _QUEUE)


class _Progress:
    """The progress bar as `play` hears of episodes in this process (the queue's `put`)."""

    def __init__(self, bar):
        self.bar = bar

    def put(self, n: int) -> None:
        self.bar.update(n)
