#!/usr/bin/env bash
# The main job, end to end on a small default: set up .venv, then generate the gold-path data.
# Extra arguments are Hydra overrides for bct.generate, e.g. games=[sorting] num_games=20.
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
.venv/bin/python -m bct.generate "$@"
