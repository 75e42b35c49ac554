#!/usr/bin/env bash
# The paper's epoch sweep for arithmetic, both variants, as Hydra multirun jobs; then: python -m bct.tune <sweep dir>
# Local by default; on a SLURM cluster: runscripts/tune-arithmetic.sh hydra/launcher=slurm hydra.launcher.partition=NAME
exec python -m bct.train -m +game=arithmetic "modules=true,false" "epochs=range(2,21,2)" "$@"
