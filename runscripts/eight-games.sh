#!/usr/bin/env bash
# All eight TextWorldExpress games, offline, and the table beside TALES's published LLM figures
# (python -m bct.report RESULTS --only twx-table). The CPU preset (t5-cpu-scratch, rank decoding) trained per game:
#   - the paper's four (arithmetic mapreader sorting twc): with their module, and without modules;
#   - TWX's other four at TWX's defaults (simonsays simonsays-memory peckingorder coin cookingworld) and
#     the settings TALES published on (cookingworld-tales simonsays-memory-tales coin-tales): with the
#     working memory, and without it;
# each evaluated on 100 test variations (each game's own step limit: bct/worlds/twx/games.py), beside the random
# and oracle agents and, where it has rules, the hand-written planner (agent=planner). Writes
# $RESULTS/twx-table.md; finished runs and evaluations are kept, so a second call only fills gaps.
#   GAMES (default: all of the above), SETTINGS (default "with without": with modules/memory, and
#   without; "with" trains only the first), VARIATIONS (100), RESULTS (results/twx), JOBS (runs at a time;
#   default: the number of cores, each run on one thread), plus extra Hydra overrides for bct.train.
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
PAPER="arithmetic mapreader sorting twc"
GAMES=${GAMES:-"$PAPER simonsays simonsays-memory peckingorder coin cookingworld cookingworld-tales simonsays-memory-tales coin-tales"}
VARIATIONS=${VARIATIONS:-100}
SETTINGS=${SETTINGS:-"with without"}
RESULTS=${RESULTS:-results/twx}
JOBS=${JOBS:-$(nproc)}
THREADS=$(( JOBS > 1 ? 1 : $(nproc) ))
export RESULTS VARIATIONS THREADS EXTRA="$*"
py=.venv/bin/python
start=$(date +%s)

one() {  # one game and setting: train, then evaluate on test; a log per run under $RESULTS/logs
  local game=$1 setting=$2 log
  local modules memory
  case $setting in
    modules) modules=true memory=false ;; memory) modules=true memory=true ;; nomodules) modules=false memory=false ;;
  esac
  log="$RESULTS/logs/$game-$setting.log"
  mkdir -p "$RESULTS/logs"
  echo "[$(date +%T)] $game $setting: training (log: $log)"
  .venv/bin/python -m bct.train "+game=$game" model=t5-cpu-scratch "modules=$modules" "memory=$memory" \
    "threads=$THREADS" "run_name=twx-$game-$setting" progress=false $EXTRA >"$log" 2>&1
  .venv/bin/python -m bct.evaluate "checkpoint=checkpoints/twx-$game-$setting" fold=test \
    "num_variations=$VARIATIONS" "results_dir=$RESULTS" "threads=$THREADS" progress=false >>"$log" 2>&1
  echo "[$(date +%T)] $game $setting: $(tail -n 1 "$log")"
}
export -f one
for game in $GAMES; do
  for setting in $SETTINGS; do
    case "$setting $PAPER " in
      without*) echo "$game nomodules" ;;
      *" $game "*) echo "$game modules" ;;
      *) echo "$game memory" ;;
    esac
  done
done | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _
for game in $GAMES; do
  agents="random oracle"
  case $game in simonsays-memory* | coin* | cookingworld* | twc* | mapreader*) agents="$agents planner" ;; esac
  for agent in $agents; do
    $py -m bct.evaluate "agent=$agent" "+game=$game" fold=test "num_variations=$VARIATIONS" \
      "results_dir=$RESULTS" progress=false | tail -n 1
  done
done
$py -m bct.report "$RESULTS" --only twx-table
echo "eight-games: $(( ($(date +%s) - start) / 60 )) min"
