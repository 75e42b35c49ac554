#!/usr/bin/env bash
# One agent for every game: one small T5 (the offline CPU preset) trained on every TextWorldExpress game
# with every module offered in every game (+experiment=generalist: modules=all), evaluated on each game it
# trained on and at the sixteen settings TALES (2025) published zero-shot LLM figures on, beside the
# specialists (the same preset trained on one game: runscripts/eight-games.sh), the hand-written planner
# and random (both offered every module too); at TALES's settings also through TALES's own loop (protocol=tales). Writes $RESULTS/twx-table.md (its second table: the one
# agent, the specialists and TALES's aggregate) and $RESULTS/report.html.
#   RESULTS (default results/generalist), VARIATIONS (100), SPECIALISTS (default 1: train and evaluate the
#   specialists too; 0: the one agent and the baselines only); extra Hydra overrides go to bct.train.
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
RESULTS=${RESULTS:-results/generalist}
VARIATIONS=${VARIATIONS:-100}
SPECIALISTS=${SPECIALISTS:-1}
py=.venv/bin/python
mkdir -p "$RESULTS/logs"
start=$(date +%s)
echo "[$(date +%T)] the one agent: training (log: $RESULTS/logs/train.log)"
$py -m bct.train +experiment=generalist progress=false "$@" >>"$RESULTS/logs/train.log" 2>&1  # appended: a rerun keeps the first log
tail -n 1 "$RESULTS/logs/train.log"
echo "[$(date +%T)] the one agent: every game it trained on, $VARIATIONS test variations each"
$py -m bct.evaluate checkpoint=checkpoints/generalist fold=test "num_variations=$VARIATIONS" \
  "results_dir=$RESULTS" progress=false | tee -a "$RESULTS/logs/evaluate.log"
TALES=$($py -c "from bct.worlds.twx.games import TALES_ENVS; print(' '.join(TALES_ENVS.values()))")
for game in $TALES; do  # TALES's settings (those it trained on are found already played), by bct's loop and TALES's own
  $py -m bct.evaluate checkpoint=checkpoints/generalist "+game=$game" fold=test "num_variations=$VARIATIONS" \
    "results_dir=$RESULTS" progress=false | tail -n 1
  $py -m bct.evaluate checkpoint=checkpoints/generalist "+game=$game" fold=test num_variations=5 protocol=tales \
    "results_dir=$RESULTS" progress=false | tail -n 1
done
PLANNED=$($py -c "
from bct.worlds.registry import get_game
from bct.worlds.twx.games import TALES_ENVS, TWX_GAMES
from bct.worlds.twx.policy import has_rules
for g in dict.fromkeys([*TWX_GAMES, *TALES_ENVS.values()]):
    print(g, int(has_rules(get_game(g))))")
while read -r game rules; do
  agents="random"
  [ "$rules" = 1 ] && agents="random planner"
  for agent in $agents; do
    $py -m bct.evaluate "agent=$agent" "+game=$game" modules=all fold=test "num_variations=$VARIATIONS" \
      "results_dir=$RESULTS" progress=false | tail -n 1
  done
done <<<"$PLANNED"
if [ "$SPECIALISTS" = 1 ]; then
  GAMES="arithmetic mapreader sorting twc simonsays simonsays-memory peckingorder coin cookingworld cookingworld-tales simonsays-memory-tales coin-tales" \
    SETTINGS=with JOBS=1 RESULTS=$RESULTS VARIATIONS=$VARIATIONS bash runscripts/eight-games.sh
fi
$py -m bct.report "$RESULTS" --only twx-table | tail -n 40
$py -m bct.report "$RESULTS" --html "$RESULTS/report.html" >/dev/null
echo "[$(date +%T)] done in $(( ($(date +%s) - start) / 60 )) minutes; $RESULTS/twx-table.md, $RESULTS/report.html"
