#!/usr/bin/env bash
# ScienceWorld's 30 tasks from nothing to the per-task table: the recipe (bct/conf/experiment/scienceworld.yaml) made
# into gold data and trained SEEDS times, each training played as the recipe plays (conf/agent/t5-scienceworld.yaml)
# on FOLDS by bct's loop and TALES's, beside the oracle and random under the same budget; then the tables and the
# HTML report (docs/scienceworld.md). What is done stays done: a second run trains nothing again.
#   SEEDS (1): trainings, seeds 42, 43, ...; more than one are also played as one agent (agent.ensemble).
#   FOLDS (dev): choices are made on dev; FOLDS="dev test" reports a chosen recipe on test too (its usual draw, a
#     second draw of other variations, TALES's loop).
#   RESULTS (results/scienceworld), DATA (data), CHECKPOINTS (checkpoints); VARIATIONS (10) a task in bct's loop, of
#     STEPS (100) game actions in either loop (TALES's is 100: fewer for a quick check only); TALES_SEEDS (5) game
#     seeds a task in TALES's loop.
#   TASKS: some tasks only, space-separated (a quick check); all 30 where unset.
#   PLAY: more settings of the agent as played, e.g. PLAY="agent.rerank=false".
# Arguments are Hydra overrides of the recipe, read by bct.generate and bct.train alike (bct.generate takes the
# data's: games, modules, memory, model, num_games, mix): modules=false (the row without modules), '~mix' (every task
# its 20 train variations), games=[scienceworld] (the simulator's gold paths alone), model=t5-gpu-scratch, epochs=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
RESULTS=${RESULTS:-results/scienceworld} DATA=${DATA:-data} CHECKPOINTS=${CHECKPOINTS:-checkpoints}
SEEDS=${SEEDS:-1} FOLDS=${FOLDS:-dev} VARIATIONS=${VARIATIONS:-10} STEPS=${STEPS:-100} TALES_SEEDS=${TALES_SEEDS:-5}
py=.venv/bin/python
tales=("num_variations=$TALES_SEEDS" protocol=tales)
if [ "$STEPS" -lt 100 ]; then tales+=("step_limit=$STEPS"); fi  # fewer for a quick check, never more than TALES
recipe=(+experiment=scienceworld "data_dir=$DATA" "checkpoint_dir=$CHECKPOINTS" progress=false "$@")
data=(+experiment=scienceworld "out_dir=$DATA" folds=[train] workers=2 progress=false)
for a in "$@"; do case "${a#[+~]}" in games=* | modules=* | memory=* | model=* | num_games=* | mix*) data+=("$a") ;; esac done
if [ -n "${TASKS:-}" ]; then  # the tasks' own games and the recipe's mix entries for them alone
  mapfile -t only < <($py -c "import sys; from omegaconf import OmegaConf; from bct.worlds.registry import get_game
tasks = sys.argv[1:]; mix = OmegaConf.load('bct/conf/experiment/scienceworld.yaml').mix
print(f'games=[{\",\".join(tasks)}]', '~mix', '+mix={}', *(f'+mix.{g}.{k}={v}' for g, e in mix.items()
      if g in {get_game(t).preset or t for t in tasks} for k, v in e.items()), sep='\n')" $TASKS)
  recipe+=("${only[@]}") data+=("${only[@]}")
fi
mkdir -p "$RESULTS/logs"
start=$(date +%s)
echo "[$(date +%T)] gold data (log: $RESULTS/logs/generate.log)"
$py -m bct.generate "${data[@]}" >>"$RESULTS/logs/generate.log" 2>&1
tail -n 1 "$RESULTS/logs/generate.log"
players=()  # "results folder|checkpoint|agent settings": each training, then all of them as one agent
trainings=()
for ((seed = 42; seed < 42 + SEEDS; seed++)); do
  into=$CHECKPOINTS$([ "$seed" = 42 ] || echo "/seed$seed")
  echo "[$(date +%T)] training $((seed - 41)) of $SEEDS (seed $seed; log: $RESULTS/logs/train.log)"
  said=$($py -m bct.train "${recipe[@]}" "checkpoint_dir=$into" "seed=$seed" 2>>"$RESULTS/logs/train.log" |
    tee -a "$RESULTS/logs/train.log" | tail -n 1)
  echo "$said"
  checkpoint=$(sed -n 's/^checkpoint: \([^ ]*\) .*/\1/p' <<<"$said")
  trainings+=("$checkpoint")
  players+=("$RESULTS/seed$seed|$checkpoint|")
done
[ "$SEEDS" -gt 1 ] && players+=("$RESULTS/ensemble|${trainings[0]}|agent.ensemble=[$(IFS=,; echo "${trainings[*]:1}")]")
read -ra play <<<"${PLAY:-}"
for player in "${players[@]}"; do
  IFS='|' read -r out checkpoint extra <<<"$player"
  for fold in $FOLDS; do
    ways=("num_variations=$VARIATIONS step_limit=$STEPS")  # bct's loop; on test a second draw too; TALES's loop
    [ "$fold" = test ] && ways+=("num_variations=$VARIATIONS step_limit=$STEPS draw=2")
    ways+=("${tales[*]}")
    for way in "${ways[@]}"; do
      echo "[$(date +%T)] $checkpoint on $fold ($way) -> $out"
      read -ra w <<<"$way $extra"
      $py -m bct.evaluate "checkpoint=$checkpoint" agent=t5-scienceworld "fold=$fold" "${w[@]}" "${play[@]}" \
        "results_dir=$out" progress=false | tee -a "$RESULTS/logs/evaluate.log" | tail -n 3
    done
  done
done
oracle_games=$($py -c "import sys; from pathlib import Path; from bct.config.runs import read_run
from bct.worlds.registry import from_record
print(','.join(dict.fromkeys(from_record(g).preset or g['game'] for g in read_run(Path(sys.argv[1]))['settings']['games'])))" \
  "${trainings[0]}")  # each task's own game, not its search variant, from the run record (the model is not loaded)
for agent in oracle random; do  # every task in one pool of episodes, a results folder each, under the same budget
  for fold in $FOLDS; do
    for way in "num_variations=$VARIATIONS step_limit=$STEPS" "${tales[*]}"; do
      read -ra w <<<"$way"
      $py -m bct.evaluate "agent=$agent" "games=[$oracle_games]" modules=false memory=false "fold=$fold" "${w[@]}" \
        "results_dir=$RESULTS/$agent" progress=false | tail -n 30
    done
  done
done
$py -m bct.report "$RESULTS" --html "$RESULTS/report.html" | sed -n '/^| task/,$p'
echo "[$(date +%T)] done in $((($(date +%s) - start) / 60)) minutes; $RESULTS/scienceworld-table.md, $RESULTS/report.html"
