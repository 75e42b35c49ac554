#!/usr/bin/env bash
# ScienceWorld's 30 science tasks, from nothing to the per-task table: gold data from ScienceWorld's own gold paths
# (replayed, kept where they reach 100), one agent trained on all 30 (the offline CPU preset, on a GPU when there is
# one), evaluated on dev (and, to report, on test) beside the oracle and random under the same budget, and the tables
# (per task: final score, best score in play and TALES's measure; per recipe: mean and spread of its trainings,
# beside SwiftSage's and TALES's published means) and the HTML report. Every agent this
# recipe has trained, what each change did and one training's spread: docs/experiments/README.md.
# Settings (environment variables):
#   RESULTS (results/scienceworld), DATA (data), CHECKPOINTS (checkpoints): where results, gold data and agent go.
#   VARIATIONS (10): variations per task in bct's loop, all where fewer. STEPS (100, as TALES plays): game actions per
#     episode in bct's loop (the agents' and the oracle's and random's alike), module calls not counted.
#   GAMES (20): train variations per task. EPOCHS (8). DECISIVE (4): copies of each focus example an epoch.
#   MODULES (true): the threshold module (a reading against the task's threshold, bct/modules/threshold.py), notes (the
#     recipe read, chemistry-mix), slides (each inclined plane's slide) and circuit (the connections made, in the
#     conductivity tasks and the power circuits); false: none, the baseline row.
#   MEMORY (false): the working memory of facts; with it the agents measured lower. BASELINE=1 also trains and
#     evaluates the other memory setting.
#   MODEL (t5-cpu-scratch, batch 16, learning rate 7e-4; t5-gpu-scratch: 25M parameters at its preset's batch 64).
#   JOBS (1): one process plays all 30 tasks in one pool of 32 episodes (~1.2 GB a JVM); on many cores, e.g. 10, one
#     process a task, JOBS at once.
#   SEARCH (1): the tasks that have one learn from a search variant of their gold paths, games=[scienceworld-search]
#     (the house toured for a substance, waits watched, life stages focused as the look names them, the unknown
#     substance read until a reading settles it, the unknown plant's cross cut to its evidence, the inclined planes
#     timed alike: docs/scienceworld.md); 0: the simulator's paths alone.
#   WIDE (1): the knowledge tasks and the many-variation procedures learn from more train variations than GAMES and
#     the smallest tasks' examples count two or three times an epoch (the recipe's `mix`); 0: GAMES for every task.
# The recipe itself (its data's and training's settings, read by bct.generate and bct.train alike) is
# bct/conf/experiment/scienceworld.yaml: the variables below change it.
#   TASKS: the games to play, space-separated (one task for a quick check); all 30 where unset.
#   SKIP_IDLE (1): a command the game answered as changing nothing ("The drawer is already open.") is passed over
#     while the look it was sent in stays (agent.skip_idle); 0: sent again.
#   RERANK (1): one model's 8 written candidates ordered by its plain length-normalised likelihood (agent.rerank), as an
#     ensemble's pool is (measured: the experiment log, docs/experiments/); 0: the diverse beam search's order.
#   LEVERS (1): the choice's three levers, chosen on dev (docs/scienceworld.md, "Choosing among many actions"): a focus
#     counted once a life (agent.decisive_per_life), the game's question answered first (agent.answer_questions), no
#     lower-ranked focus after an unseen best (agent.decisive_best_only); 0: without them.
#   SEEDS (1): trainings of the agent on the same data, seeds 42, 43, ... (the second and later under
#     CHECKPOINTS/seed<N>), each played on its own (RESULTS/seed<N>); more than one are also played as one ensemble
#     (RESULTS/ensemble; agent.ensemble: their candidates pooled, ranked by their mean log-likelihood).
#   FOLDS (dev): where the agents play. Choices are made on dev; `FOLDS="dev test"` reports a recipe already chosen
#     on test too: its usual draw, a second draw of VARIATIONS others (the tasks whose test fold holds them) and
#     TALES's loop. Each fold is played by bct's loop (VARIATIONS a task, STEPS game actions) and by TALES's
#     (protocol=tales: tale-suite's environments, its game seeds 1..TALES_SEEDS (5), 100 game commands).
#   RESULTS/recipes.md: each measure's mean and spread (min-max) over the trainings, per task too.
#   Extra Hydra overrides go to bct.train.
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
RESULTS=${RESULTS:-results/scienceworld}
DATA=${DATA:-data}
CHECKPOINTS=${CHECKPOINTS:-checkpoints}
VARIATIONS=${VARIATIONS:-10}
GAMES=${GAMES:-20}
EPOCHS=${EPOCHS:-8}
DECISIVE=${DECISIVE:-4}
MODULES=${MODULES:-true}
MEMORY=${MEMORY:-false}
BASELINE=${BASELINE:-0}
STEPS=${STEPS:-100}
MODEL=${MODEL:-t5-cpu-scratch}
JOBS=${JOBS:-1}
SEARCH=${SEARCH:-1}
WIDE=${WIDE:-1}
SKIP_IDLE=${SKIP_IDLE:-1}
SEEDS=${SEEDS:-1}
RERANK=${RERANK:-1}
LEVERS=${LEVERS:-1}
FOLDS=${FOLDS:-dev}
TALES_SEEDS=${TALES_SEEDS:-5}
group=scienceworld$([ "$SEARCH" = 1 ] && echo -search || true)
py=.venv/bin/python
games=$group oracle_games=scienceworld  # the oracle and random rows: each task's own game, not its search variant
if [ -n "${TASKS:-}" ]; then
  games=${TASKS// /,}
  oracle_games=$($py -c "import sys; from bct.worlds.registry import get_game
print(','.join(get_game(t).preset or t for t in sys.argv[1:]))" $TASKS)
fi
# the recipe's mix (bct/conf/experiment/scienceworld.yaml: each task's train variations and passes) stands, read by
# bct.generate and bct.train alike from +experiment=scienceworld; WIDE=0: none, GAMES for every task; TASKS: its
# entries of the tasks played (a mix names games of its run only)
mix=()
if [ "$WIDE" != 1 ]; then
  mix=("~mix" "+mix={}")
elif [ -n "${TASKS:-}" ]; then
  mapfile -t mix < <($py -c "import sys; from omegaconf import OmegaConf
mix, played = OmegaConf.load('bct/conf/experiment/scienceworld.yaml').mix, sys.argv[1].split(',')
print('~mix', '+mix={}', *(f'+mix.{g}.{k}={v}' for g, e in mix.items() if g in played for k, v in e.items()), sep='\n')" \
    "$oracle_games")
fi
sizes=()  # the recipe's batch and learning rate are the CPU preset's; another model keeps its preset's own
[ "$MODEL" = t5-cpu-scratch ] || sizes=('batch_size=${model.batch_size}' 'lr=${model.lr}')
mkdir -p "$RESULTS/logs"
start=$(date +%s)
TASKS=$($py -c "from bct.worlds.registry import expand_games; print(' '.join(expand_games('$games'.split(','))))")
other=$([ "$MEMORY" = false ] && echo true || echo false)
for memory in "$MEMORY" $([ "$BASELINE" = 1 ] && echo "$other"); do
  run=scienceworld$([ "$memory" = false ] && echo -nomemory || true)$([ "$MODULES" = false ] && echo -nomodules || true)
  echo "[$(date +%T)] gold data (memory=$memory): $GAMES train variations of each task (log: $RESULTS/logs/generate.log)"
  # the data and the training read the same recipe: bct.generate writes what bct.train reads
  recipe=(+experiment=scienceworld "games=[$games]" "modules=$MODULES" "memory=$memory" "model=$MODEL" "num_games=$GAMES"
    "${mix[@]}")
  $py -m bct.generate "${recipe[@]}" folds=[train] "out_dir=$DATA" workers=2 progress=false >>"$RESULTS/logs/generate.log" 2>&1
  tail -n 1 "$RESULTS/logs/generate.log"
  echo "[$(date +%T)] one agent for the 30 tasks (memory=$memory): training (log: $RESULTS/logs/train.log)"
  # distinct=false: every step of every gold path, with modules too (the CPU preset dedupes where modules=true)
  $py -m bct.train "${recipe[@]}" "epochs=$EPOCHS" "decisive_passes=$DECISIVE" "${sizes[@]}" "run_name=$run" \
    "data_dir=$DATA" "checkpoint_dir=$CHECKPOINTS" progress=false "$@" >>"$RESULTS/logs/train.log" 2>&1
  tail -n 1 "$RESULTS/logs/train.log"
  trainings=("$CHECKPOINTS/$run")
  for ((k = 1; k < SEEDS; k++)); do  # the same recipe from other seeds: each played on its own, and all as one agent
    echo "[$(date +%T)] training $((k + 1)) of ${SEEDS} (seed $((42 + k)))"
    $py -m bct.train "${recipe[@]}" "epochs=$EPOCHS" "decisive_passes=$DECISIVE" "${sizes[@]}" "run_name=$run" \
      "data_dir=$DATA" "checkpoint_dir=$CHECKPOINTS/seed$((42 + k))" progress=false "$@" "seed=$((42 + k))" \
      >>"$RESULTS/logs/train.log" 2>&1
    tail -n 1 "$RESULTS/logs/train.log"
    trainings+=("$CHECKPOINTS/seed$((42 + k))/$run")
  done
  # the agent writes its action (ScienceWorld's parser judges it): of 8 beam candidates, the best that names only
  # things in sight and was not already sent at the same prompt (docs/scienceworld.md, "Choosing among many actions")
  agent=(agent.num_beams=8 agent.untried=true progress=false)
  if [ "$SKIP_IDLE" = 1 ]; then agent+=(agent.skip_idle=true); fi
  if [ "$LEVERS" = 1 ]; then agent+=(agent.decisive_per_life=true agent.answer_questions=true agent.decisive_best_only=true); fi
  one=(); if [ "$RERANK" = 1 ]; then one=(agent.rerank=true); fi  # an ensemble's pool is always so ordered
  players=()  # "results folder|checkpoint|agent settings": each training, then all of them as one agent
  for ((k = 0; k < ${#trainings[@]}; k++)); do players+=("$RESULTS/seed$((42 + k))|${trainings[k]}|${one[*]}"); done
  if [ "$SEEDS" -gt 1 ]; then
    players+=("$RESULTS/ensemble|${trainings[0]}|agent.ensemble=[$(IFS=,; echo "${trainings[*]:1}")]")
  fi
  for player in "${players[@]}"; do
    IFS='|' read -r out checkpoint extra <<<"$player"
    read -ra extra <<<"$extra"
    for fold in $FOLDS; do
      # bct's loop on the usual draw; on test also a second draw (the tasks with 20+ test variations); then TALES's
      ways=("num_variations=$VARIATIONS step_limit=$STEPS")
      [ "$fold" = test ] && ways+=("num_variations=$VARIATIONS step_limit=$STEPS draw=2")
      ways+=("num_variations=$TALES_SEEDS protocol=tales")
      for way in "${ways[@]}"; do
        echo "[$(date +%T)] $checkpoint on $fold ($way) -> $out"
        read -ra w <<<"$way"
        if [ "$JOBS" = 1 ]; then
          $py -m bct.evaluate "checkpoint=$checkpoint" "fold=$fold" "${w[@]}" "${agent[@]}" "${extra[@]}" "results_dir=$out" |
            tee -a "$RESULTS/logs/evaluate.log" | tail -n 3
        else  # one process a task, JOBS at once, one PyTorch thread each (the games' JVMs need the cores)
          printf '%s\n' $TASKS | xargs -P "$JOBS" -I{} $py -m bct.evaluate "checkpoint=$checkpoint" "games=[{}]" "memory=$memory" \
            "fold=$fold" "${w[@]}" "${agent[@]}" "${extra[@]}" "results_dir=$out" threads=1 2>>"$RESULTS/logs/evaluate.log" |
            tee -a "$RESULTS/logs/evaluate.log" | tail -n 3
        fi
      done
    done
  done
done
for agent in oracle random; do  # every task in one pool of episodes, a results folder each, under the same budget
  for fold in $FOLDS; do
    for way in "num_variations=$VARIATIONS step_limit=$STEPS" "num_variations=$TALES_SEEDS protocol=tales"; do
      read -ra w <<<"$way"
      $py -m bct.evaluate "agent=$agent" "games=[$oracle_games]" modules=false memory=false "fold=$fold" "${w[@]}" \
        "results_dir=$RESULTS/$agent" progress=false | tail -n 30
    done
  done
done
$py -m bct.report "$RESULTS" --html "$RESULTS/report.html" | sed -n '/^| task/,$p'
echo "[$(date +%T)] done in $(( ($(date +%s) - start) / 60 )) minutes; $RESULTS/scienceworld-table.md, $RESULTS/report.html"
