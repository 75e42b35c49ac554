"""T5 models: from the hub or a local folder (one code path), or built from a config for offline use."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bct.config.runs import RUN_RECORD, read_run
from bct.core.errors import UserError


def hub_reachable(timeout: float = 5.0) -> bool:
    """Whether the hub answers, asked through huggingface_hub's own session: it honours HF_HUB_OFFLINE,
    HF_ENDPOINT and HTTPS proxies. Unreachable, loading uses the local cache at once rather than
    retrying for a minute."""
    from huggingface_hub import constants, get_session

    if constants.HF_HUB_OFFLINE:
        return False
    try:
        get_session().head(constants.ENDPOINT, timeout=timeout)
        return True
    except Exception:  # connection refused, DNS failure, proxy error, time-out: not reachable
        return False


def load_pretrained(name_or_path: str, offline_presets: Iterable[str] = ()):
    """Model and tokenizer by hub id or local folder. A hub id that cannot be fetched is a UserError."""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a bar per weight file is noise beside bct's own progress
    kwargs = {}
    if not Path(name_or_path).exists() and not hub_reachable():
        kwargs["local_files_only"] = True  # use the hub cache if it has the model; fail fast if not
    try:
        tokenizer = AutoTokenizer.from_pretrained(name_or_path, **kwargs)
        model = AutoModelForSeq2SeqLM.from_pretrained(name_or_path, **kwargs)
    except OSError as e:
        presets = ", ".join(f"model={p}" for p in offline_presets) or "an offline preset"
        where = "is not a local folder and " if not Path(name_or_path).exists() else ""
        raise UserError(
            f"could not load model '{name_or_path}': it {where}could not be fetched from the Hugging Face "
            f"hub ({str(e).splitlines()[0][:120]}); offline, use {presets}, or model.pretrained=/path/to/a/saved/model"
        ) from None
    return model, tokenizer


def build_from_config(config: dict, tokenizer, locality: list[float] | None = None):
    """A randomly initialised T5 with the given sizes, for a tokenizer trained on our data.

    `locality`: one slope per attention head; the encoder's relative position bias starts at
    -slope * distance, so that head first attends near itself (0: no preference, as T5 starts).
    T5's bias starts near zero, which spreads attention over the whole prompt: a small model
    trained from scratch then never learns to read a word a few places from another ("To the
    North you see the <e6>": which way is <e6>?), while with local heads it does (docs/training.md,
    "Offline reproduction"). The bias is learned from there on, as usual.
    """
    from transformers import T5Config, T5ForConditionalGeneration

    t5 = T5Config(
        vocab_size=len(tokenizer),
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
        **config,
    )
    model = T5ForConditionalGeneration(t5)
    if locality:
        local_position_bias(model, locality)
    return model


def local_position_bias(model, slopes: list[float]) -> None:
    """Set the encoder's relative position bias to -slope[h] * distance for head h (see build_from_config)."""
    import torch
    from transformers.models.t5.modeling_t5 import T5Attention

    cfg = model.config
    if len(slopes) != cfg.num_heads:
        raise UserError(
            f"model.locality has {len(slopes)} slopes for {cfg.num_heads} attention heads; "
            f"give one per head (0 for a head with no preference), or null"
        )
    offsets = torch.arange(-4 * cfg.relative_attention_max_distance, 4 * cfg.relative_attention_max_distance + 1)
    buckets = T5Attention._relative_position_bucket(
        offsets,
        bidirectional=True,
        num_buckets=cfg.relative_attention_num_buckets,
        max_distance=cfg.relative_attention_max_distance,
    )
    # each bucket's nearest distance (buckets beyond max_distance share one)
    distance = torch.zeros(cfg.relative_attention_num_buckets)
    for b in range(cfg.relative_attention_num_buckets):
        if (buckets == b).any():
            distance[b] = offsets[buckets == b].abs().min()
    bias = model.encoder.block[0].layer[0].SelfAttention.relative_attention_bias
    with torch.no_grad():
        bias.weight.copy_(-distance[:, None] * torch.tensor(slopes, dtype=torch.float)[None, :])


def weights_fingerprint(path: str | Path) -> str:
    """What the weights are: a digest of the saved weight files, so that results follow the model,
    not the folder it was saved in (a retrained run has the same folder and other weights)."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(Path(path).glob("*.safetensors")) + sorted(Path(path).glob("*.bin")):
        with f.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()[:16]


def load_checkpoint(path: str | Path):
    """A checkpoint written by bct.train: (model, tokenizer, run config)."""
    path = Path(path)
    run = read_run(path)
    if run is None:
        why = "does not exist" if not path.exists() else f"is not a bct checkpoint (no {RUN_RECORD})"
        raise UserError(
            f"checkpoint {path} {why}; train one with 'python -m bct.train +game=NAME' "
            f"or pick a folder under checkpoints/"
        )
    if run.get("status") != "done":
        raise UserError(
            f"checkpoint {path} is unfinished (status {run.get('status')!r}); "
            f"run its training command again to resume it"
        )
    model, tokenizer = load_pretrained(str(path))
    if not all(p.isfinite().all() for p in model.parameters()):
        raise UserError(
            f"checkpoint {path} has NaN or infinite weights: its training diverged; train it again with a lower "
            f"learning rate (lr=...) or in fp32 on a GPU (+trainer.bf16=false)"
        )
    return model, tokenizer, run
