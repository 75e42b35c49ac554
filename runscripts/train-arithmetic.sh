#!/usr/bin/env bash
# Train T5 on arithmetic: runscripts/train-arithmetic.sh EPOCHS [modules|nomodules] [more Hydra overrides]
set -euo pipefail
epochs=${1:?usage: $0 EPOCHS [modules|nomodules]}; variant=${2:-modules}; shift $(( $# < 2 ? $# : 2 ))
exec python -m bct.train +game=arithmetic "epochs=$epochs" "modules=$([ "$variant" = nomodules ] && echo false || echo true)" "$@"
