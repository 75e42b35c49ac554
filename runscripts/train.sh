#!/usr/bin/env bash
# Train T5 on one game: runscripts/train.sh GAME EPOCHS [modules|nomodules] [more Hydra overrides]
#   e.g. runscripts/train.sh twc 20 nomodules model=t5-cpu-scratch
set -euo pipefail
game=${1:?usage: $0 GAME EPOCHS [modules|nomodules]}; epochs=${2:?usage: $0 GAME EPOCHS [modules|nomodules]}
variant=${3:-modules}; shift $(( $# < 3 ? $# : 3 ))
exec python -m bct.train "+game=$game" "epochs=$epochs" "modules=$([ "$variant" = nomodules ] && echo false || echo true)" "$@"
