"""Fine-tune T5 on gold-path data with Seq2SeqTrainer: `train(settings)` -> the run's checkpoint folder
(the examples themselves: bct.seq2seq.trainset).

The command `python -m bct.train +game=sorting epochs=8` (bct/train.py, and its sweeps) runs a job
(bct.jobs.job): it trains here and then evaluates if asked. Multi-GPU: `accelerate launch -m bct.train ...`
(every process trains).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path

from bct.config.runs import RUN_RECORD, claim_run_dir, read_run, train_run_dir, train_settings
from bct.config.settings import TrainSettings, choices
from bct.core.errors import UserError
from bct.core.files import write_json
from bct.core.lock import FolderLock
from bct.core.resume import last_complete_checkpoint
from bct.core.threads import set_threads
from bct.data.representation import get_representation, of_checkpoint
from bct.seq2seq.model import build_from_config, load_pretrained, weights_fingerprint
from bct.seq2seq.trainset import encode, mixed_data

log = logging.getLogger(__name__)


class _TiedWeightsNotice(logging.Filter):
    """On resume, transformers warns that the embeddings and the LM head are missing from a trainer
    checkpoint: T5 ties them to the shared embedding, which is saved and loaded. Dropped; anything else
    missing is still shown."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if "missing keys in the checkpoint" not in msg:
            return True
        return not all(
            k.endswith(("embed_tokens.weight", "lm_head.weight")) for k in msg.split("[", 1)[-1].split("'")[1::2]
        )


logging.getLogger("transformers.trainer").addFilter(_TiedWeightsNotice())


def scratch_model(cfg: TrainSettings, data, run_dir: Path, representation):
    """A T5 built from the preset's config, with a tokenizer trained on `data` (kept when resuming)."""
    from transformers import AutoTokenizer, set_seed

    from bct.seq2seq.tokenizer import train_tokenizer

    if (run_dir / "tokenizer.json").exists():  # resuming: the tokenizer the run started with
        tokenizer = AutoTokenizer.from_pretrained(run_dir)
    else:
        tokenizer = train_tokenizer(
            list(data["source"]) + list(data["target"]), cfg.model.vocab_size, representation.tokens
        )
        tokenizer.save_pretrained(run_dir)
    set_seed(cfg.seed)
    return build_from_config(cfg.model.config, tokenizer, cfg.model.locality), tokenizer


def process_state():
    """This process's place in a multi-process (`accelerate launch`) run; a single process is the main one."""
    from accelerate import PartialState

    return PartialState()


def trainer_overrides(cfg: TrainSettings) -> dict:
    """`+trainer.NAME=VALUE` settings, checked against Seq2SeqTrainingArguments' fields."""
    import dataclasses

    from transformers import Seq2SeqTrainingArguments

    extra = cfg.trainer or {}
    fields = {f.name for f in dataclasses.fields(Seq2SeqTrainingArguments)}
    unknown_keys = sorted(set(extra) - fields)
    if unknown_keys:
        raise UserError(
            f"trainer.{unknown_keys[0]} is not a Seq2SeqTrainingArguments setting; see "
            f"https://huggingface.co/docs/transformers/main_classes/trainer#transformers.Seq2SeqTrainingArguments"
        )
    return extra


def precision() -> dict:
    """bf16 on GPUs that have it; else fp32 (TF32 matmuls on Ampere and newer). Never fp16: T5's
    activations overflow in fp16 and the trainer then writes a NaN checkpoint without a word."""
    import torch

    if not torch.cuda.is_available():
        return {}  # fp32 on the CPU
    if torch.cuda.is_bf16_supported():
        return {"bf16": True}
    return {"tf32": True} if torch.cuda.get_device_capability()[0] >= 8 else {}


def train(cfg: TrainSettings, callbacks: list | None = None) -> Path:
    """Train one run and return its checkpoint folder; a finished run with the same config is kept.

    `callbacks` are extra transformers TrainerCallbacks.
    """
    if not cfg.trained():
        raise UserError(
            f"choose a game: python -m bct.train +game=sorting epochs=8, or several: games=[twc,coin] "
            f"(games: {', '.join(choices('game'))})"
        )
    if cfg.games and cfg.select != "none":
        raise UserError("select=dev chooses epochs on one game's dev score; a run of several games takes select=none")
    if cfg.epochs is None and cfg.max_steps is None:
        raise UserError("epochs and max_steps are both null: set one, e.g. epochs=4 or max_steps=2500")
    settings = train_settings(cfg)
    target = train_run_dir(cfg, settings)
    with FolderLock(target, "a training run"):  # a second job on this folder is refused in one line
        run_dir = claim_run_dir(settings, target, cfg.overwrite)
        if run_dir is None:
            log.info("%s is already trained with this config (overwrite=true retrains it)", target)
            return target
        saved = fit(cfg, settings, run_dir, callbacks)
        if saved and run_dir != target:  # overwrite: the new run, complete, replaces the old one
            old = target.with_name(target.name + ".old")
            shutil.rmtree(old, ignore_errors=True)  # ours: left by a replacement cut short
            target.rename(old)
            run_dir.rename(target)
            shutil.rmtree(old)
    return target


def fit(cfg: TrainSettings, settings: dict, run_dir: Path, callbacks: list | None = None) -> bool:
    """Train into `run_dir` (resuming from its last whole trainer checkpoint) and write its run record;
    True where this process saved the model (the main one)."""
    import torch
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer

    from bct.seq2seq.callbacks import DivergenceGuard, KeepEvery, StopOnInterrupt, TimeLimit

    set_threads(cfg.threads)
    state = process_state()
    quiet_progress(cfg.progress)
    model, tokenizer, train_set, representation, digest = model_and_data(cfg, run_dir, state)
    record = {**run_record(cfg, settings, model, train_set, state), "data_digest": digest, **representation.state()}
    run_file = run_dir / RUN_RECORD
    if state.is_main_process:
        write_json(run_file, record)
    args = training_arguments(cfg, run_dir)
    record["precision"] = "bf16" if args.bf16 else "fp32"  # what the weights trained in (the evaluator's auto follows)
    if state.is_main_process:
        write_json(run_file, record)
    stop, diverged = StopOnInterrupt(), DivergenceGuard()
    limit = TimeLimit(cfg.max_minutes) if cfg.max_minutes else None
    ours = [stop, diverged, *([limit] if limit else [])]
    if cfg.select != "none" and state.is_main_process:
        ours.append(KeepEvery(cfg.select_every, run_dir, tokenizer, record))
    trainer = Seq2SeqTrainer(
        model=model,
        args=args,
        train_dataset=train_set,
        processing_class=tokenizer,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100),
        callbacks=[*ours, *(callbacks or [])],
    )
    last = last_complete_checkpoint(args.output_dir)
    per_epoch = max(1, -(-len(train_set) // (cfg.batch_size * state.num_processes)) // cfg.grad_accum)
    steps = per_epoch * cfg.epochs if cfg.epochs else cfg.max_steps
    log.info(
        "training %s: %d examples, %.1f epochs, %d optimizer steps, on %s; writing %s%s",
        run_dir.name,
        len(train_set),
        steps / per_epoch,
        steps,
        "GPU" if torch.cuda.is_available() else f"CPU ({torch.get_num_threads()} threads)",
        run_dir,
        f"; resuming from {Path(last).name}" if last else "",
    )
    start = time.time()
    try:
        result = trainer.train(resume_from_checkpoint=last)
    finally:
        stop.restore()
    if stop.interrupted:  # stopped at a step end, with a checkpoint there: not done
        raise KeyboardInterrupt
    if diverged.at_step is not None:  # NaN weights are not saved: the run stays unfinished
        raise UserError(
            f"training {run_dir.name} diverged at step {diverged.at_step} (the gradient norm is not finite; the "
            f"weights are NaN and were not saved): train again with a lower learning rate (lr={cfg.lr:g} now) "
            f"or, on a GPU, in fp32 (+trainer.bf16=false)"
        )
    if not trainer.is_world_process_zero():
        return False
    timing = {"wall_seconds": round(time.time() - start, 1), "resumed_from": last}
    if limit and limit.reached:
        timing["stopped_at_max_minutes"] = cfg.max_minutes  # the schedule's steps were not all taken
        log.info(
            "training %s stopped at max_minutes=%s, step %d of %d",
            run_dir.name,
            cfg.max_minutes,
            trainer.state.global_step,
            steps,
        )
    finish(trainer, result, record, run_dir, timing)
    return True


def quiet_progress(progress: bool) -> None:
    """No bar for every weight file written (noise beside the trainer's own); with progress=false (logs, batch
    jobs), no datasets bars either."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    if not progress:
        import datasets

        datasets.disable_progress_bars()


def model_and_data(cfg: TrainSettings, run_dir: Path, state):
    """The model, its tokenizer, the tokenized examples the run trains on, the representation fitted to them and
    the gold data's digest."""
    representation = get_representation(cfg.entities, cfg.entity_rule)
    fitted = False
    if cfg.model.pretrained:  # first, so that a model that cannot be had stops the run at once
        model, tokenizer = load_pretrained(cfg.model.pretrained, [p for p in choices("model") if "scratch" in p])
        representation.add_tokens(tokenizer, model)  # placeholders: one token each, with embeddings to learn
        before = read_run(Path(cfg.model.pretrained))
        if before is not None:  # a bct checkpoint trained further reads names as it learned to (its fitted list)
            theirs = of_checkpoint(before, cfg.model.pretrained)  # as its evaluation reads it (older rules too)
            if theirs.record() != representation.record():
                raise UserError(
                    f"model.pretrained={cfg.model.pretrained} was trained on "
                    + " ".join(f"{k}={v}" for k, v in theirs.record().items())
                    + "; train on from it with the same "
                    + " and ".join(dict.fromkeys([*theirs.record(), *representation.record()]))
                )
            representation, fitted = theirs, True
    # Under `accelerate launch`, the main process generates data and trains the tokenizer; the others
    # then read what it wrote.
    with state.main_process_first():
        data, representation, digest = mixed_data(cfg, cfg.trained(), representation, fitted)
        run_dir.mkdir(parents=True, exist_ok=True)
        if not cfg.model.pretrained:
            model, tokenizer = scratch_model(cfg, data, run_dir, representation)
    return model, tokenizer, encode(data, tokenizer, cfg), representation, digest


def run_record(cfg: TrainSettings, settings: dict, model, train_set, state) -> dict:
    """What the run folder says of itself while it trains (bct/config/runs.py reads it back)."""
    return {
        "status": "training",
        "settings": settings,
        "eval_defaults": {"decoding": cfg.model.decoding},
        "config": cfg.dump(),
        "num_examples": len(train_set),
        "num_parameters": model.num_parameters(),
        "num_processes": state.num_processes,
        "effective_batch_size": cfg.batch_size * cfg.grad_accum * state.num_processes,
        "longest_target_tokens": max(len(labels) for labels in train_set["labels"]),
    }


def training_arguments(cfg: TrainSettings, run_dir: Path):
    """Seq2SeqTrainingArguments from the settings (wandb where enabled, the precision the device has)."""
    import torch
    from transformers import Seq2SeqTrainingArguments

    report_to = "none"
    if cfg.wandb.mode != "disabled":
        os.environ.update(WANDB_MODE=cfg.wandb.mode, WANDB_PROJECT=cfg.wandb.project)
        if cfg.wandb.entity:
            os.environ["WANDB_ENTITY"] = cfg.wandb.entity
        report_to = "wandb"
    return Seq2SeqTrainingArguments(
        **{
            "output_dir": str(run_dir / "trainer"),
            **({"num_train_epochs": cfg.epochs} if cfg.epochs else {"max_steps": cfg.max_steps}),
            "learning_rate": cfg.lr,
            "warmup_steps": cfg.warmup,
            "per_device_train_batch_size": cfg.batch_size,
            "gradient_accumulation_steps": cfg.grad_accum,
            "train_sampling_strategy": "group_by_length",
            "length_column_name": "length",
            "seed": cfg.seed,
            "logging_steps": cfg.logging_steps,
            "save_strategy": cfg.save_strategy,
            "save_steps": cfg.save_steps,
            "save_total_limit": 1,
            "report_to": report_to,
            "run_name": run_dir.name,
            "disable_tqdm": not cfg.progress,
            "dataloader_pin_memory": torch.cuda.is_available(),
            # a constant rate after warm-up where checkpoints are kept for selection: each one is then a
            # finished model of its epochs, not a point half way down a decay towards the last epoch
            **({"lr_scheduler_type": "constant_with_warmup"} if cfg.select != "none" else {}),
            **precision(),
            **trainer_overrides(cfg),
        }
    )


def finish(trainer, result, record: dict, run_dir: Path, timing: dict) -> None:
    """Save the model, its fingerprint and the run's metrics; drop the optimizer states (only for resuming)."""
    trainer.save_model(str(run_dir))
    record["fingerprint"] = weights_fingerprint(run_dir)
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    metrics = {
        **result.metrics,
        "first_logged_loss": losses[0] if losses else None,
        "final_logged_loss": losses[-1] if losses else None,
        "global_step": trainer.state.global_step,
        **timing,
    }
    write_json(run_dir / "train_metrics.json", metrics)
    write_json(run_dir / RUN_RECORD, {**record, "status": "done", "metrics": metrics})
    shutil.rmtree(trainer.args.output_dir, ignore_errors=True)
