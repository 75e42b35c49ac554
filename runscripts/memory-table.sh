#!/usr/bin/env bash
# The games that need memory, with the fact-only working memory (issue: "a memory that remembers, an
# agent that decides"): the CPU preset trained from defaults, one run at a time, each evaluated on 100
# test variations beside random, oracle and the hand-written planner (runscripts/eight-games.sh), then
# mapreader trained with memory on its defaults and played on 30-room maps with rooms up to 8 apart.
#   RESULTS (default results/memory), VARIATIONS (100); extra Hydra overrides go to bct.train.
set -euo pipefail
cd "$(dirname "$0")/.."
RESULTS=${RESULTS:-results/memory}
VARIATIONS=${VARIATIONS:-100}
GAMES=${GAMES:-"simonsays-memory coin twc-hard cookingworld-tales cookingworld simonsays-memory-tales"}
GAMES=$GAMES SETTINGS=with JOBS=1 RESULTS=$RESULTS VARIATIONS=$VARIATIONS bash runscripts/eight-games.sh "$@"
py=.venv/bin/python
log="$RESULTS/logs/mapreader-memory.log"
echo "[$(date +%T)] mapreader memory: training (log: $log)"
$py -m bct.train +game=mapreader model=t5-cpu-scratch memory=true run_name=twx-mapreader-memory progress=false "$@" >"$log" 2>&1
$py -m bct.generalize --checkpoints checkpoints/twx-mapreader-memory --games mapreader \
  "mapreader numLocations=30 maxDistanceApart=8 step_limit=100" --results-dir "$RESULTS/generalize" \
  --num-variations "$VARIATIONS" --name mapreader-memory >>"$log" 2>&1
for agent in planner random; do
  $py -m bct.evaluate "agent=$agent" +game=mapreader memory=true game.params.numLocations=30 \
    game.params.maxDistanceApart=8 step_limit=100 fold=test "num_variations=$VARIATIONS" \
    "results_dir=$RESULTS" progress=false | tail -n 1
done
tail -n 5 "$log"
