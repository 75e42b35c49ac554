"""The paper's protocol on a GPU, in one command: train the t5-base preset in bf16 and in fp32, evaluate
each checkpoint with diverse beam search (the paper's decoding) and with rank, batched across episodes
and one episode at a time, and print one table (training time, peak memory, episodes/s, score).

    python bench/gpu.py                       # on a GPU: t5-base, the game's epochs, 100 dev variations
    python bench/gpu.py --reduced             # anywhere: a tiny model, a few steps, 4 variations (what CI runs)
    python bench/gpu.py --game sorting --variations 50 epochs=4   # key=value: bct.train overrides
    python bench/gpu.py --eval agent.model_batch=16 -- batch_size=32 lr=1e-3   # evaluation settings, then training's

Without a GPU it runs the reduced form (bf16 then runs on the CPU through PyTorch's autocast). Peak
memory is the GPU's allocator peak per phase; on a CPU, the process's resident peak so far (it only grows).
The last line is the ratio of episodes/s, batched / one at a time, for rank with fp32 weights.

Before the clock: the training data are generated (timed apart) and each precision is warmed up with a
short run, so that neither absorbs start-up; each phase resets the peak-memory counter. Each evaluation
plays with the weights in the row's precision (`agent.dtype`); `--eval key=value ...` adds bct.evaluate
settings. "GPU use %" is the GPU's utilisation sampled during training (n/a without NVML).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

import torch

from bct.config.settings import EvaluateSettings, TrainSettings
from bct.data.representation import get_representation
from bct.jobs.evaluation import evaluate
from bct.seq2seq.training import train
from bct.seq2seq.trainset import training_data

COLUMNS = [
    "precision",
    "train s",
    "GPU use %",
    "train peak MB",
    "decoding",
    "episodes at once",
    "episodes/s",
    "eval peak MB",
    "score",
]


def reset_peak() -> None:
    if torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats()


def peak_mb() -> float:
    """The GPU allocator's peak since the last reset_peak; on a CPU, the process's resident peak so far."""
    if torch.cuda.is_available():
        return torch.cuda.max_memory_allocated() / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class GpuUse:
    """The GPU's utilisation (%) sampled every half second while inside; None where it cannot be read."""

    def __enter__(self):
        self.samples, self.stop = [], threading.Event()

        def sample():
            while not self.stop.wait(0.5):
                try:
                    self.samples.append(torch.cuda.utilization())
                except Exception:  # no GPU, or no NVML to ask
                    return

        self.thread = threading.Thread(target=sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    @property
    def mean(self) -> str:
        return f"{sum(self.samples) / len(self.samples):.0f}" if self.samples else "n/a"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="twc")
    ap.add_argument("--variations", type=int, default=None, help="dev variations (default: 100; reduced: 4)")
    ap.add_argument("--reduced", action="store_true", help="a tiny model and a few steps (the default without a GPU)")
    ap.add_argument("--eval", nargs="*", default=[], help="bct.evaluate settings, key=value (end the list with --)")
    ap.add_argument("overrides", nargs="*", help="bct.train overrides, key=value")
    args = ap.parse_args()
    reduced = args.reduced or not torch.cuda.is_available()
    if reduced and not args.reduced:
        print("no GPU: running the reduced form (a tiny model, a few steps)", file=sys.stderr)
    variations = args.variations or (4 if reduced else 100)
    model = ["model=t5-tiny-scratch", "epochs=null", "max_steps=20", "num_games=4"] if reduced else ["model=t5-base"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:

        def train_cfg(precision: str, *more: str) -> TrainSettings:
            return TrainSettings.from_overrides(
                [
                    f"+game={args.game}",
                    *model,
                    f"+trainer.bf16={precision == 'bf16'}",
                    *([] if torch.cuda.is_available() else ["+trainer.use_cpu=true"]),
                    f"checkpoint_dir={tmp}/{precision}",
                    f"data_dir={tmp}/data",
                    "progress=false",
                    *args.overrides,
                    *more,
                ]
            )

        start = time.perf_counter()  # the data, once, before any clock
        first = train_cfg("fp32")
        training_data(first, first.played(), first.modules, get_representation(first.entities))
        print(f"data generated in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        start = time.perf_counter()
        for precision in ("bf16", "fp32"):  # both warmed: kernels, allocator and caches, before the clock
            train(train_cfg(precision, "epochs=null", "max_steps=2", f"checkpoint_dir={tmp}/warm-{precision}"))
        print(f"warm-up (2 steps in each precision) {time.perf_counter() - start:.1f} s", file=sys.stderr)
        for precision in ("bf16", "fp32"):
            reset_peak()
            cfg = train_cfg(precision)
            start = time.perf_counter()
            with GpuUse() as use:
                checkpoint = train(cfg)
            train_s, train_mb = time.perf_counter() - start, peak_mb()
            decodings = {"diverse beams": ["agent.decoding=generate", "agent.num_beams=16", "agent.beam_groups=4",
                                           "agent.diversity_penalty=1.0"],
                         "rank": ["agent.decoding=rank"]}  # fmt: skip
            for decoding, knobs in decodings.items():
                for batch in (32, 1):
                    settings = EvaluateSettings.from_overrides(
                        [
                            f"checkpoint={checkpoint}",
                            "fold=dev",
                            f"num_variations={variations}",
                            f"batch_size={batch}",
                            f"results_dir={tmp}/results-{batch}",
                            "progress=false",
                            f"agent.dtype={precision}",  # the weights as the row says, on any device
                            *knobs,
                            *args.eval,
                        ]
                    )
                    reset_peak()
                    start = time.perf_counter()
                    out = evaluate(settings)
                    seconds = time.perf_counter() - start
                    score = json.loads((Path(out) / "results.json").read_text())["avg_score"]
                    rows.append(
                        [precision, f"{train_s:.0f}", use.mean, f"{train_mb:.0f}", decoding, str(batch),
                         f"{variations / seconds:.2f}", f"{peak_mb():.0f}", f"{score:.3f}"]
                    )  # fmt: skip
    device = torch.cuda.get_device_name() if torch.cuda.is_available() else "CPU"
    print(f"\n{args.game}, {variations} dev variations, {'reduced form' if reduced else 't5-base'}, on {device}")
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    rate = {int(r[5]): float(r[6]) for r in rows if r[0] == "fp32" and r[4] == "rank"}
    print(f"ratio (batched / one at a time, rank, fp32): {rate[32] / rate[1]:.2f}")


if __name__ == "__main__":
    main()
