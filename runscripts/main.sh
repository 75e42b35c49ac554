#!/usr/bin/env bash
# The main job end to end on a small default, on a 2-core CPU in about 10 minutes:
# set up .venv, generate gold-path data, train the CPU-sized offline T5 preset, evaluate it on
# dev variations, evaluate the random and oracle agents on the same variations, print the table.
# The small scratch model learns the protocol but spells unseen names poorly, so it ranks the
# valid actions (decoding=rank) rather than writing them (the paper's beam search, decoding=generate).
#   GAME (default arithmetic), EPOCHS (16), VARIATIONS (50), DECODING (rank): override by
#   environment, e.g. GAME=twc DECODING=generate ./runscripts/main.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
GAME=${GAME:-arithmetic}
EPOCHS=${EPOCHS:-16}
VARIATIONS=${VARIATIONS:-50}
DECODING=${DECODING:-rank}
py=.venv/bin/python

$py -m bct.generate "games=[$GAME]" "variants=[modules]" "folds=[train,dev]"
$py -m bct.train "+game=$GAME" model=t5-cpu-scratch "epochs=$EPOCHS"
$py -m bct.evaluate "checkpoint=checkpoints/$GAME-modules-t5-cpu-scratch-ep$EPOCHS" fold=dev "num_variations=$VARIATIONS" \
  "decoding=$DECODING"
for agent in random oracle; do
  $py -m bct.evaluate "agent=$agent" "+game=$GAME" fold=dev "num_variations=$VARIATIONS"
done
$py -m bct.report results --fold dev
