#!/usr/bin/env bash
# The main job end to end on a small default, on a 2-core CPU in about 5 minutes: set up .venv,
# generate gold-path data, train the CPU-sized offline T5 preset (entity placeholders, the distinct
# examples of 1000 games, the epochs its game needs: conf/model/t5-cpu-scratch.yaml), evaluate it on
# 100 unseen test variations, evaluate the random and oracle agents on the same variations, print
# the table and write an HTML page of it with every episode (results/report.html).
#   GAME (default twc), VARIATIONS (100), FOLD (test): override by environment, e.g.
#   GAME=arithmetic ./runscripts/main.sh; extra arguments go to bct.train (e.g. epochs=2).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "[main] setting up .venv (a minute or more on a fresh machine; quiet when already done)"
bash runscripts/setup.sh
GAME=${GAME:-twc}
VARIATIONS=${VARIATIONS:-100}
FOLD=${FOLD:-test}
RESULTS=${RESULTS:-results}
py=.venv/bin/python

echo "[main] generating gold-path data for $GAME"
$py -m bct.generate "games=[$GAME]" "modules=[true]" "folds=[train,$FOLD]" num_games=1000
echo "[main] training the offline T5 on $GAME (checkpoints/main-$GAME)"
$py -m bct.train "+game=$GAME" model=t5-cpu-scratch "run_name=main-$GAME" "$@"
echo "[main] evaluating it, then the random and oracle agents, on $VARIATIONS $FOLD variations"
$py -m bct.evaluate "checkpoint=checkpoints/main-$GAME" "fold=$FOLD" "num_variations=$VARIATIONS" "results_dir=$RESULTS"
for agent in random oracle; do
  $py -m bct.evaluate "agent=$agent" "+game=$GAME" "fold=$FOLD" "num_variations=$VARIATIONS" "results_dir=$RESULTS"
done
$py -m bct.report "$RESULTS" --fold "$FOLD" --html "$RESULTS/report.html"
echo "[main] open $RESULTS/report.html in a browser, or read the episodes here: $py -m bct.show $RESULTS --failed"
