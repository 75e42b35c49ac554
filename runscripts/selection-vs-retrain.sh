#!/usr/bin/env bash
# One-run selection (select=dev) against the paper's protocol (one training per epoch count), same
# game, preset and epoch grid: each picks its epochs on dev and plays its pick on test; bct.tune
# prints both tables with what each cost (training + dev evaluation seconds).
#   GAME=twc GRID=10,20,30,40 runscripts/selection-vs-retrain.sh [bct.train overrides]
# GRID: the epoch counts, evenly spaced from its first; the one-run sweep trains to the last and keeps
# a checkpoint every first-value epochs. OUT (default results/selection-vs-retrain/GAME) holds both.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${GAME:-twc}
GRID=${GRID:-10,20,30,40}
OUT=${OUT:-results/selection-vs-retrain/$GAME}
VARIATIONS=${VARIATIONS:-100}
py=${PYTHON:-.venv/bin/python}
every=${GRID%%,*}
last=${GRID##*,}
common=("+game=$GAME" model=t5-cpu-scratch "eval.num_variations=$VARIATIONS" progress=false "$@")

echo "[selection-vs-retrain] the paper's protocol: one training per epoch count ($GRID), each played on dev"
$py -m bct.train -m "${common[@]}" "epochs=$GRID" evaluate_after=dev "hydra.sweep.dir=$OUT/retrain"
$py -m bct.tune "$OUT/retrain" --num-variations "$VARIATIONS"
echo "[selection-vs-retrain] one run of $last epochs keeping every $every, each kept checkpoint played on dev"
$py -m bct.train "${common[@]}" "epochs=$last" select=dev "select_every=$every" evaluate_after=none \
  "hydra.run.dir=$OUT/select"
$py -m bct.tune "$OUT/select" --num-variations "$VARIATIONS"
