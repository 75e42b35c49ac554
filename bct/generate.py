"""`python -m bct.generate`: gold trajectories for every game, module setting and fold, as seq2seq data.

The command's code and its options: bct/data/generation.py."""

from __future__ import annotations

import hydra
from omegaconf import DictConfig

from bct.config.cli import entry
from bct.config.settings import CONF, GenerateSettings
from bct.core.errors import exits_cleanly
from bct.data.generation import run


@hydra.main(config_path=str(CONF), config_name="generate", version_base="1.3")
@exits_cleanly
def _hydra_main(cfg: DictConfig) -> None:
    run(GenerateSettings.from_config(cfg))


main = entry(_hydra_main, "generate")


if __name__ == "__main__":
    main()
