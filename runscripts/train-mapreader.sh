#!/usr/bin/env bash
# Train T5 on mapreader: runscripts/train-mapreader.sh EPOCHS [modules|nomodules] [more Hydra overrides]
set -euo pipefail
epochs=${1:?usage: $0 EPOCHS [modules|nomodules]}; variant=${2:-modules}; shift $(( $# < 2 ? $# : 2 ))
exec python -m bct.train +game=mapreader "epochs=$epochs" "modules=$([ "$variant" = nomodules ] && echo false || echo true)" "$@"
