"""`python -m bct.evaluate`: play unseen dev/test variations and write scores and full play logs.

The command's code and its options: bct/jobs/evaluation.py."""

from __future__ import annotations

import json
import sys

import hydra
from omegaconf import DictConfig

from bct.config.cli import entry
from bct.config.settings import CONF, EvaluateSettings
from bct.core.errors import exits_cleanly
from bct.jobs.evaluation import evaluate_all
from bct.worlds.registry import modules_label


@hydra.main(config_path=str(CONF), config_name="evaluate", version_base="1.3")
@exits_cleanly
def _hydra_main(cfg: DictConfig) -> None:
    try:
        outs = evaluate_all(EvaluateSettings.from_config(cfg))
    except KeyboardInterrupt:
        print("\ninterrupted; run the same command again to play the variations not yet finished", file=sys.stderr)
        sys.exit(130)
    for out in outs:
        r = json.loads((out / "results.json").read_text())
        print(
            f"{r['agent']} on {r['game']} ({modules_label(r['modules'])}, {r['fold']}, {r['num_variations']} "
            f"variations): score {r['avg_score']:.3f}, steps {r['avg_steps']:.1f} -> {out}"
        )


main = entry(_hydra_main, "evaluate")


if __name__ == "__main__":
    main()
