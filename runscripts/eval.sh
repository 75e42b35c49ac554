#!/usr/bin/env bash
# Evaluate a checkpoint: runscripts/eval.sh CHECKPOINT FOLD [more Hydra overrides]
set -euo pipefail
checkpoint=${1:?usage: $0 CHECKPOINT FOLD}; fold=${2:?usage: $0 CHECKPOINT FOLD}; shift 2
exec python -m bct.evaluate "checkpoint=$checkpoint" "fold=$fold" "$@"
