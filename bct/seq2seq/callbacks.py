"""The TrainerCallbacks a training run adds to Seq2SeqTrainer, one class each: Ctrl-C stops at a step end with
a checkpoint, a diverged run stops without saving, `max_minutes` stops by the clock, `select` keeps the model
every few epochs. bct.seq2seq.training adds them; this module imports transformers, so it is imported there
when a run starts, not by the CLI."""

from __future__ import annotations

import math
import signal
import time
from pathlib import Path

from transformers import TrainerCallback

from bct.config.runs import KEPT, RUN_RECORD, read_run
from bct.core.files import write_json
from bct.seq2seq.model import weights_fingerprint


class StopOnInterrupt(TrainerCallback):
    """Ctrl-C: the step under way finishes, a checkpoint is saved there, and training stops, so that resuming
    neither loses nor repeats a step. A second Ctrl-C stops at once.

    Python's default handler raises KeyboardInterrupt wherever the main thread happens to be, and where that is
    a destructor or a callback the interruption is printed and dropped: the run then trains on. A flag read at
    step ends cannot be dropped. `restore()` puts Ctrl-C back as it was (call it however training ends)."""

    def __init__(self):
        self.interrupted = False
        self.previous = None

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
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None


class DivergenceGuard(TrainerCallback):
    """Stops training at the first logged non-finite gradient norm or loss, and keeps the trainer from saving
    after it (its own log filters NaN losses out and would save NaN weights as a finished model, or as a
    checkpoint for a resume to load). `at_step` is where it stopped, None where it did not."""

    def __init__(self):
        self.at_step = None

    def on_log(self, args, state, control, logs=None, **kwargs):
        values = [float(logs[k]) for k in ("grad_norm", "loss") if k in (logs or {})]
        if self.at_step is None and any(not math.isfinite(v) for v in values):
            self.at_step = state.global_step
            control.should_training_stop = True
        self.keep_out(control)

    def on_epoch_end(self, args, state, control, **kwargs):  # after the trainer's own save-at-epoch-end
        self.keep_out(control)

    def keep_out(self, control):
        if self.at_step is not None:
            control.should_save = False


class TimeLimit(TrainerCallback):
    """Stops training at the first optimizer step past `minutes` of training; the model as it is then is saved
    as usual. `reached` says whether it stopped the run."""

    def __init__(self, minutes: float):
        self.minutes = minutes
        self.reached = False
        self.began = None

    def on_train_begin(self, args, state, control, **kwargs):
        self.began = time.time()

    def on_step_end(self, args, state, control, **kwargs):
        if time.time() - self.began > 60 * self.minutes:
            self.reached = control.should_training_stop = True


class KeepEvery(TrainerCallback):
    """Keeps the model every `every` epochs as a checkpoint of its own beside the run (`<run>/kept/<run>-epN`),
    with a run record saying how many epochs it had: what select=dev evaluates on dev. One already kept whole
    (a resumed run) is not written again."""

    def __init__(self, every: int, run_dir: Path, tokenizer, record: dict):
        self.every, self.run_dir, self.tokenizer, self.record = every, run_dir, tokenizer, record

    def on_epoch_end(self, args, state, control, model=None, **kwargs):
        epochs = round(state.epoch)
        folder = self.run_dir / KEPT / f"{self.run_dir.name}-ep{epochs}"
        if epochs % self.every or (read_run(folder) or {}).get("status") == "done":
            return
        model.save_pretrained(folder)
        self.tokenizer.save_pretrained(folder)
        write_json(
            folder / RUN_RECORD,
            {
                **self.record,
                "settings": {**self.record["settings"], "epochs": epochs},
                "status": "done",
                "kept_from": self.run_dir.name,
                "fingerprint": weights_fingerprint(folder),
            },
        )
