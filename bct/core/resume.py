"""Resuming a training run from the newest checkpoint that was saved whole (Ctrl-C stops at a step end with a
checkpoint there: bct.seq2seq.callbacks.StopOnInterrupt)."""

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
