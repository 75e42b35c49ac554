"""Where a training step's time goes: batching (collation and padding), forward, backward and the
optimizer, timed apart on the batches the trainer would draw, for the preset and game given; then the
trainer's own step (`training_step` and the optimizer, as `Seq2SeqTrainer.train` runs them) on the same
batches, so that what the trainer adds per step shows. On the GPU when there is one (timings synchronised).

    python bench/profile_train.py [--game sorting] [--model t5-cpu-scratch] [--steps 200] [--compile] [key=value ...] [--precision fp32 bf16]

Extra key=value arguments are bct.train overrides (e.g. batch_size=16, or +experiment=scienceworld with
`--game ""`), written before `--precision`, which takes the rest of the line. `--precision bf16` runs the forward
pass under bf16 autocast (the trainer: `bf16=True`); several precisions are timed one after the other from the same
initial weights on the same batches. `--compile` times each again with the model under `torch.compile` (the trainer:
`+trainer.torch_compile=true`); compilations for new batch shapes after the 10 warm-up steps are counted, as a
training meets them. Prints, per variant, milliseconds per step for each part and its share, the tokens per example
and the trainer's step beside the hand-written one; the last line gives each variant's trainer step as a ratio to
the first's.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import tempfile
import time
from pathlib import Path

import torch
from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

from bct.config.settings import TrainSettings
from bct.core.threads import set_threads
from bct.data.representation import get_representation
from bct.seq2seq.training import scratch_model
from bct.seq2seq.trainset import encode, mixed_data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sorting")
    ap.add_argument("--model", default="t5-cpu-scratch")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--compile", action="store_true", help="each precision again with the model under torch.compile")
    ap.add_argument("--precision", nargs="+", default=["fp32"], choices=["fp32", "bf16"])
    args, overrides = ap.parse_known_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"

    def now() -> float:  # GPU work is asynchronous: wait for it before reading the clock
        if device == "cuda":
            torch.cuda.synchronize()
        return time.perf_counter()

    with tempfile.TemporaryDirectory() as tmp:
        game = [f"+game={args.game}"] if args.game else []
        cfg = TrainSettings.from_overrides([*game, f"model={args.model}", "progress=false", *overrides])
        set_threads(cfg.threads)
        data, rep = mixed_data(cfg, cfg.trained(), get_representation(cfg.entities))  # the trainer's own examples
        initial, tokenizer = scratch_model(cfg, data, Path(tmp), rep)
        encoded = encode(data, tokenizer, cfg)
        where = torch.cuda.get_device_name() if device == "cuda" else f"CPU, {torch.get_num_threads()} threads"
        print(
            f"{args.game or 'the experiment'}, {args.model}, batch {cfg.batch_size}, {len(encoded)} examples, "
            f"{where}, {args.steps} steps"
        )
        trainer_steps: dict[str, float] = {}
        for compiled in (False, True) if args.compile else (False,):
            for precision in args.precision:
                model = copy.deepcopy(initial)
                name = f"{precision}, compiled" if compiled else precision
                trainer_steps[name] = profile(
                    model, tokenizer, encoded, cfg, tmp, device, precision, compiled, args.steps, now
                )
        first, base = next(iter(trainer_steps.items()))
        ratios = ", ".join(f"{name} {base / seconds:.2f}x as fast" for name, seconds in trainer_steps.items())
        print(f"the trainer's step against {first}: {ratios}")


def profile(model, tokenizer, encoded, cfg, tmp, device, precision, compiled, steps, now) -> float:
    """Time the parts of a step, then the trainer's own step, in one precision (the model compiled or not);
    returns the trainer's step."""
    bf16 = precision == "bf16"
    trainer = Seq2SeqTrainer(
        model=model,
        args=Seq2SeqTrainingArguments(
            output_dir=tmp,
            per_device_train_batch_size=cfg.batch_size,
            learning_rate=cfg.lr,
            train_sampling_strategy="group_by_length",
            length_column_name="length",
            report_to="none",
            dataloader_pin_memory=False,
            bf16=bf16,
            use_cpu=device == "cpu",
            seed=cfg.seed,
        ),
        train_dataset=encoded,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100),
    )
    loader = trainer.get_train_dataloader()
    model.to(device)
    run = torch.compile(model) if compiled else model  # the same weights: the optimizer steps `model`'s parameters
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    model.train()
    parts: dict[str, list[float]] = {"batching": [], "forward": [], "backward": [], "optimizer": []}
    tokens, padded = [], []
    batches = iter(loader)
    for step in range(steps + 10):  # the first 10 warm up and are not counted
        t0 = now()
        try:
            batch = next(batches)
        except StopIteration:
            batches = iter(loader)
            batch = next(batches)
        batch = {k: v.to(device) for k, v in batch.items()}
        t1 = now()
        with torch.autocast(device, dtype=torch.bfloat16, enabled=bf16):
            loss = run(**batch).loss
        t2 = now()
        loss.backward()
        t3 = now()
        optimizer.step()
        optimizer.zero_grad()
        t4 = now()
        if step >= 10:
            for name, seconds in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                parts[name].append(seconds)
            tokens.append(int(batch["attention_mask"].sum()))
            padded.append(batch["attention_mask"].numel())
    # the trainer's own step on the same batches: what Seq2SeqTrainer.train does per step, optimizer included
    trainer.create_optimizer_and_scheduler(num_training_steps=steps + 10)
    trainer.current_gradient_accumulation_steps = 1  # set by train(), which this loop stands in for
    own: list[float] = []
    batches = iter(loader)
    for step in range(steps + 10):
        try:
            batch = next(batches)
        except StopIteration:
            batches = iter(loader)
            batch = next(batches)
        t0 = now()
        trainer.training_step(run, batch)
        trainer.optimizer.step()
        trainer.lr_scheduler.step()
        model.zero_grad()
        if step >= 10:
            own.append(now() - t0)
    total = sum(statistics.mean(v) for v in parts.values())
    print(f"{precision}{', compiled' if compiled else ''}:")
    for name, values in parts.items():
        mean = statistics.mean(values)
        print(f"  {name:<10} {1000 * mean:7.1f} ms/step  {100 * mean / total:5.1f}%")
    print(f"  step       {1000 * total:7.1f} ms  ({cfg.batch_size / total:.1f} examples/s)")
    trainer_step = statistics.mean(own)
    print(
        f"  the trainer's step (batch on the device) {1000 * trainer_step:7.1f} ms; the hand-written one without "
        f"batching {1000 * (total - statistics.mean(parts['batching'])):7.1f} ms"
    )
    print(
        f"  source tokens per example {sum(tokens) / len(tokens) / cfg.batch_size:.0f}, "
        f"padding {100 * (1 - sum(tokens) / sum(padded)):.1f}% of the batch"
    )
    model_share = sum(statistics.mean(parts[k]) for k in ("forward", "backward", "optimizer")) / total
    print(f"  model (forward + backward + optimizer): {100 * model_share:.1f}% of the step")
    return trainer_step


if __name__ == "__main__":
    main()
