#!/usr/bin/env bash
# The paper's table, offline, and one step beyond: the CPU preset (t5-cpu-scratch, rank decoding) trained on
# each game with modules (entity placeholders) and without (names as placeholders, numbers as written),
# evaluated on 100 test variations beside the random agent and the published rows; agents trained on
# twc-medium and twc-hard; and the generalization tables (mapreader on bigger maps and rooms further
# apart, twc agents on every level). Writes results/offline/comparison-test.md and .png and
# results/offline/generalization-*.md and .png.
#   GAMES (default "arithmetic mapreader sorting twc mapreader-directions"; the last, beyond the paper, has a
#   navigator that also names the direction, and plays with modules only), VARIATIONS (100), RESULTS (results/offline),
#   JOBS (runs at a time; default: the number of cores, each run on one thread), plus any extra
#   Hydra overrides for bct.train as arguments, e.g. runscripts/reproduce-offline.sh epochs=6
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
GAMES=${GAMES:-"arithmetic mapreader sorting twc mapreader-directions"}
VARIATIONS=${VARIATIONS:-100}
RESULTS=${RESULTS:-results/offline}
JOBS=${JOBS:-$(nproc)}
THREADS=$(( JOBS > 1 ? 1 : $(nproc) ))
export RESULTS VARIATIONS THREADS EXTRA="$*"
py=.venv/bin/python
start=$(date +%s)
$py -m bct.generate "games=[${GAMES// /,}]" "modules=[true,false]" "folds=[train,test]" num_games=1000 progress=false
$py -m bct.generate "games=[twc-medium,twc-hard]" "modules=[true]" "folds=[train,test]" num_games=1000 progress=false

one() {  # one game and variant: train, then evaluate on test; a log per run under $RESULTS/logs
  local game=$1 variant=$2 modules log
  modules=$([ "$variant" = modules ] && echo true || echo false)
  log="$RESULTS/logs/$game-$variant.log"
  mkdir -p "$RESULTS/logs"
  echo "[$(date +%T)] $game $variant: training (log: $log)"
  .venv/bin/python -m bct.train "+game=$game" model=t5-cpu-scratch "modules=$modules" "threads=$THREADS" \
    "run_name=offline-$game-$variant" progress=false $EXTRA >"$log" 2>&1
  .venv/bin/python -m bct.evaluate "checkpoint=checkpoints/offline-$game-$variant" fold=test \
    "num_variations=$VARIATIONS" "results_dir=$RESULTS" "threads=$THREADS" progress=false >>"$log" 2>&1
  echo "[$(date +%T)] $game $variant: $(tail -n 1 "$log")"
}
export -f one
{ echo "twc-hard modules"; echo "twc-medium modules"  # the harder levels, with the knowledge base
  for game in $GAMES; do for variant in modules nomodules; do
    [ "$game-$variant" = mapreader-directions-nomodules ] || echo "$game $variant"  # no module: plain mapreader
  done; done; } |
  xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _
for game in ${GAMES/mapreader-directions/}; do
  $py -m bct.evaluate agent=random "+game=$game" fold=test "num_variations=$VARIATIONS" "results_dir=$RESULTS" progress=false
done
$py -m bct.compare "$RESULTS"
# Generalization: each cell plays 100 test variations (bigger maps get a longer step limit).
$py -m bct.generalize --checkpoints checkpoints/offline-mapreader-modules --results-dir "$RESULTS" \
  --name generalization-mapreader --num-variations "$VARIATIONS" --threads "$(nproc)" --games mapreader \
  "mapreader maxDistanceApart=6" "mapreader numLocations=30 maxDistanceApart=8 step_limit=100" \
  "mapreader numLocations=50 maxDistanceApart=8 step_limit=100"
$py -m bct.generalize --checkpoints checkpoints/offline-twc-modules checkpoints/offline-twc-medium-modules \
  checkpoints/offline-twc-hard-modules --games twc twc-medium twc-hard --results-dir "$RESULTS" \
  --name generalization-twc --num-variations "$VARIATIONS" --threads "$(nproc)"
echo "reproduce-offline: $(( ($(date +%s) - start) / 60 )) min"
