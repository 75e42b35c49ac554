"""Where a training step's time goes: batching (collation and padding), forward, backward and the
optimizer, timed apart on the batches the trainer would draw, for the preset and game given.

    python bench/profile_train.py [--game sorting] [--model t5-cpu-scratch] [--steps 200] [key=value ...]

Extra key=value arguments are bct.train overrides (e.g. batch_size=16). Prints seconds per step for
each part and its share, then the tokens per example; the last line is the model's share of the step.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import torch
from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

from bct.representation import get_representation
from bct.settings import TrainSettings
from bct.threads import set_threads
from bct.training import encode, scratch_model, training_data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sorting")
    ap.add_argument("--model", default="t5-cpu-scratch")
    ap.add_argument("--steps", type=int, default=200)
    args, overrides = ap.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        cfg = TrainSettings.from_overrides([f"+game={args.game}", f"model={args.model}", "progress=false", *overrides])
        set_threads(cfg.threads)
        rep = get_representation(cfg.entities)
        data = training_data(cfg, cfg.played(), True, rep)
        model, tokenizer = scratch_model(cfg, data, Path(tmp), rep)
        encoded = encode(data, tokenizer, cfg)
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
            ),
            train_dataset=encoded,
            processing_class=tokenizer,
            data_collator=DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100),
        )
        loader = trainer.get_train_dataloader()
        optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
        model.train()
        parts: dict[str, list[float]] = {"batching": [], "forward": [], "backward": [], "optimizer": []}
        tokens, padded = [], []
        batches = iter(loader)
        for step in range(args.steps + 10):  # the first 10 warm up and are not counted
            t0 = time.perf_counter()
            try:
                batch = next(batches)
            except StopIteration:
                batches = iter(loader)
                batch = next(batches)
            t1 = time.perf_counter()
            loss = model(**batch).loss
            t2 = time.perf_counter()
            loss.backward()
            t3 = time.perf_counter()
            optimizer.step()
            optimizer.zero_grad()
            t4 = time.perf_counter()
            if step >= 10:
                for name, seconds in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                    parts[name].append(seconds)
                tokens.append(int(batch["attention_mask"].sum()))
                padded.append(batch["attention_mask"].numel())
        total = sum(statistics.mean(v) for v in parts.values())
        print(
            f"{args.game}, {args.model}, batch {cfg.batch_size}, {len(encoded)} examples, "
            f"{torch.get_num_threads()} threads, {args.steps} steps"
        )
        for name, values in parts.items():
            mean = statistics.mean(values)
            print(f"  {name:<10} {1000 * mean:7.1f} ms/step  {100 * mean / total:5.1f}%")
        print(f"  step       {1000 * total:7.1f} ms  ({cfg.batch_size / total:.1f} examples/s)")
        print(
            f"source tokens per example {sum(tokens) / len(tokens) / cfg.batch_size:.0f}, "
            f"padding {100 * (1 - sum(tokens) / sum(padded)):.1f}% of the batch"
        )
        model_share = sum(statistics.mean(parts[k]) for k in ("forward", "backward", "optimizer")) / total
        print(f"model (forward + backward + optimizer): {100 * model_share:.1f}% of the step")


if __name__ == "__main__":
    main()
