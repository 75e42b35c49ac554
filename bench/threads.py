"""PyTorch CPU threads: training steps of the CPU preset with 1 and with 2 intra-op threads, on an idle
machine and beside a neighbour process that keeps one core busy, in the same process.

    python bench/threads.py [--steps 40]

Prints ms per training step for each case and, last, what `threads=auto` picks beside the neighbour
and the ratio (2 threads / 1 thread) there. Needs 2 or more cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import torch

from bct.core.threads import auto_threads
from bct.seq2seq.model import build_from_config
from bct.seq2seq.tokenizer import train_tokenizer

BURN = "import time\nend = time.time() + 600\nwhile time.time() < end:\n    pass\n"


def ms_per_step(model, batch, steps: int, threads: int) -> float:
    torch.set_num_threads(threads)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model.train()
    for _ in range(3):  # warm-up
        model(**batch).loss.backward()
        opt.step()
        opt.zero_grad()
    start = time.perf_counter()
    for _ in range(steps):
        model(**batch).loss.backward()
        opt.step()
        opt.zero_grad()
    return 1000 * (time.perf_counter() - start) / steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    text = "Your task is to pick up objects, then place them in their usual locations. </s> OBS You see a bed. " * 6
    tok = train_tokenizer([text] * 4, vocab_size=400)
    torch.manual_seed(0)
    model = build_from_config(
        {
            "d_model": 128,
            "d_ff": 512,
            "d_kv": 32,
            "num_heads": 4,
            "num_layers": 2,
            "num_decoder_layers": 2,
            "dropout_rate": 0.0,
        },
        tok,
    )
    enc = tok([text] * 4, return_tensors="pt", padding=True, truncation=True, max_length=256)
    batch = {**enc, "labels": tok(["put black blanket in bed"] * 4, return_tensors="pt").input_ids}
    results = {}
    for case in ("idle", "beside a busy neighbour"):
        neighbour = subprocess.Popen([sys.executable, "-c", BURN]) if case != "idle" else None
        try:
            time.sleep(1 if neighbour else 0)
            for threads in (1, 2):
                results[case, threads] = ms_per_step(model, batch, args.steps, threads)
                print(f"{case:24s} {threads} thread(s): {results[case, threads]:8.1f} ms per step")
            if neighbour:
                print(
                    f"threads=auto beside the neighbour picks: {auto_threads()} (load average lags by up to a minute)"
                )
        finally:
            if neighbour:
                neighbour.kill()
    print(f"idle: 2 threads / 1 thread time = {results['idle', 2] / results['idle', 1]:.2f}")
    print(
        f"beside a neighbour: 2 threads / 1 thread time = "
        f"{results['beside a busy neighbour', 2] / results['beside a busy neighbour', 1]:.2f}"
    )


if __name__ == "__main__":
    main()
