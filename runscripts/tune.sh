#!/usr/bin/env bash
# The paper's epoch sweep for one game, both variants, as Hydra multirun jobs; then: python -m bct.tune <sweep dir>
#   runscripts/tune.sh GAME [more Hydra overrides]; on a SLURM cluster add hydra/launcher=slurm hydra.launcher.partition=NAME
set -euo pipefail
game=${1:?usage: $0 GAME [overrides]}; shift
exec python -m bct.train -m "+game=$game" "modules=true,false" "epochs=range(2,21,2)" "$@"
