"""Training speed: dynamic padding with length-grouped batches against padding every batch to
max_source_length, same model, data and steps, in the same process.

    python bench/train.py [--game sorting] [--examples 200] [--model t5-cpu-scratch]

Prints training examples per second of each, and the ratio (dynamic / padded) as the last line.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hydra import compose, initialize_config_dir
from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

from bct.config import CONF
from bct.games import game_of
from bct.representation import get_representation
from bct.train import encode, scratch_model, training_data


def examples_per_second(model, tokenizer, data, cfg, dynamic: bool, out: str) -> float:
    if dynamic:
        collator = DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    else:
        collator = DataCollatorForSeq2Seq(
            tokenizer, model=model, label_pad_token_id=-100, padding="max_length", max_length=cfg.max_source_length
        )
    args = Seq2SeqTrainingArguments(
        output_dir=out,
        num_train_epochs=1,
        per_device_train_batch_size=cfg.batch_size,
        learning_rate=cfg.lr,
        train_sampling_strategy="group_by_length" if dynamic else "random",
        length_column_name="length",
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        seed=cfg.seed,
        dataloader_pin_memory=False,
    )
    trainer = Seq2SeqTrainer(
        model=model, args=args, train_dataset=data, processing_class=tokenizer, data_collator=collator
    )
    start = time.perf_counter()
    trainer.train()
    return len(data) / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sorting")
    ap.add_argument("--examples", type=int, default=200)
    ap.add_argument("--model", default="t5-cpu-scratch")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, initialize_config_dir(str(CONF), version_base="1.3"):
        cfg = compose("train", overrides=[f"+game={args.game}", f"model={args.model}", "progress=false"])
        rep = get_representation(cfg.entities)
        data = training_data(cfg, game_of(cfg), "modules", rep)
        data = data.select(range(min(args.examples, len(data))))
        _, tokenizer = scratch_model(cfg, data, Path(tmp), rep)
        encoded = encode(data, tokenizer, cfg)
        rates = {}
        for dynamic in (True, False, True, False):  # interleaved; each side keeps its best
            model, _ = scratch_model(cfg, data, Path(tmp), rep)  # fresh weights, same tokenizer
            rate = examples_per_second(model, tokenizer, encoded, cfg, dynamic, tmp)
            rates[dynamic] = max(rates.get(dynamic, 0.0), rate)
        print(f"dynamic padding + length grouping: {rates[True]:.1f} examples/s")
        print(f"padded to max_source_length={cfg.max_source_length}: {rates[False]:.1f} examples/s")
        print(f"ratio (dynamic / padded): {rates[True] / rates[False]:.2f}")


if __name__ == "__main__":
    main()
