"""`python -m bct.train +game=sorting epochs=8`: train, then evaluate if asked (one job, bct.jobs.job).

Sweeps: `python -m bct.train -m +game=twc epochs=2,4,6` (locally, or `hydra/launcher=slurm`), one job
folder each, read by `python -m bct.tune`. Multi-GPU: `accelerate launch -m bct.train ...`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig

from bct.config.cli import entry
from bct.config.settings import CONF, TrainSettings
from bct.core.errors import exits_cleanly
from bct.jobs.job import quiet_sweep_noise, run_job


@hydra.main(config_path=str(CONF), config_name="train", version_base="1.3")
@exits_cleanly
def _hydra_main(cfg: DictConfig) -> None:
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    hc = HydraConfig.get()
    try:
        record = run_job(TrainSettings.from_config(cfg), Path(hc.runtime.output_dir), hc.mode == RunMode.MULTIRUN)
    except KeyboardInterrupt:
        print("\ninterrupted; run the same command again to resume where it stopped", file=sys.stderr)
        sys.exit(130)
    if record["status"] == "done" and "selection" in record:
        print(f"selection: {record['selection']}")
    if record["status"] == "done":
        m = record["metrics"]
        print(
            f"checkpoint: {record['checkpoint']} (train loss {m.get('train_loss', float('nan')):.4f}, "
            f"{m.get('train_runtime', 0):.0f} s)"
            + (f"; {record['evaluate_after']} results: {record['results']}" if "results" in record else "")
        )


quiet_sweep_noise()
main = entry(_hydra_main, "train")


if __name__ == "__main__":
    main()
