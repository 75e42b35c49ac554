"""Stopping and resuming a training run: Ctrl-C stops at a step end with a checkpoint there, and a
rerun resumes from the newest checkpoint that was saved whole."""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)


def last_complete_checkpoint(folder: str | Path) -> str | None:
    """The newest trainer checkpoint that was saved whole; one cut off mid-save (a kill while writing)
    is skipped, so the run resumes from the one before rather than failing."""
    found = sorted(
        (p for p in Path(folder).glob("checkpoint-*") if p.name.rsplit("-", 1)[-1].isdigit()),
        key=lambda p: int(p.name.rsplit("-", 1)[-1]),
        reverse=True,
    )
    for p in found:
        weights = any(p.glob("*.safetensors")) or (p / "pytorch_model.bin").exists()
        if weights and (p / "trainer_state.json").exists() and (p / "optimizer.pt").exists():
            return str(p)
        log.warning("skipping %s: saved only in part (interrupted while saving)", p)
    return None


def interrupt_callback():
    """A TrainerCallback for Ctrl-C: the step under way finishes, a checkpoint is saved there, and
    training stops, so that resuming neither loses nor repeats a step. A second Ctrl-C stops at once.

    Python's default handler raises KeyboardInterrupt wherever the main thread happens to be, and
    where that is a destructor or a callback the interruption is printed and dropped: the run then
    trains on. A flag read at step ends cannot be dropped."""
    import signal

    from transformers import TrainerCallback

    class StopOnInterrupt(TrainerCallback):
        interrupted = False
        previous = None

        def on_train_begin(self, args, state, control, **kwargs):
            self.previous = signal.getsignal(signal.SIGINT)
            signal.signal(signal.SIGINT, self.handle)

        def handle(self, signum, frame):
            if self.interrupted:
                self.restore()
                raise KeyboardInterrupt
            self.interrupted = True

        def on_step_end(self, args, state, control, **kwargs):
            if self.interrupted:
                control.should_save = control.should_training_stop = True

        def restore(self):
            """Ctrl-C as it was before training (called however training ends)."""
            if self.previous is not None:
                signal.signal(signal.SIGINT, self.previous)
                self.previous = None

    return StopOnInterrupt()
