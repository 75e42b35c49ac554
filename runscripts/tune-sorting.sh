#!/usr/bin/env bash
# The paper's epoch sweep for sorting, both variants, as Hydra multirun jobs; then: python -m bct.tune <sweep dir>
# Local by default; on a SLURM cluster: runscripts/tune-sorting.sh hydra/launcher=slurm hydra.launcher.partition=NAME
exec python -m bct.train -m +game=sorting "modules=true,false" "epochs=range(2,21,2)" "$@"
