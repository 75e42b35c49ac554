#!/usr/bin/env bash
# ScienceWorld's 30 tasks on a borrowed GPU machine inside a fixed time budget (a lent accelerator, a cluster
# job with a wall-clock limit): train one agent, evaluate as many tasks as the rest of the budget allows, and
# pack what the machine must hand back into a few files of at most 15 MB (the weights, in bf16 where larger;
# the logs and evaluated episodes in one archive). What was not evaluated there is played where they land:
#   source runscripts/offline-kit.sh unpack     # there, without network (runscripts/offline-kit.sh pack here)
#   OUT=/some/dir runscripts/gpu-scienceworld.sh # there
#   runscripts/gpu-scienceworld.sh land DIR      # here: DIR's parts into checkpoints/RUN and results/RUN
# Settings: RUN (the run's name, sw-gpu), MODEL (t5-gpu-scratch), EPOCHS (6), MINUTES (the training's clock
# limit, 5.5), EVAL_SECONDS (the evaluation's, 200; 0: none), TASKS (those evaluated, in order: all 30),
# JOBS (tasks at once, one process each, 5: a task's 10 episodes run 10 JVMs), PY (python3); GAMES
# ([scienceworld-search]: the 30, with the searches where a task has one), NUM_GAMES (20), VARIATIONS (10), STEPS (100), CHECKPOINTS (checkpoints), RESULTS
# (results/RUN): smaller runs, as the test's on a CPU. Extra arguments go to bct.train. The agent plays in fp32
# on the stored weights everywhere, so that tasks played there and here form one evaluation (one results folder).
set -uo pipefail
cd "$(dirname "$0")/.."
RUN=${RUN:-sw-gpu}
PY=${PY:-python3}
CHECKPOINTS=${CHECKPOINTS:-checkpoints}
RESULTS=${RESULTS:-results/$RUN}
play=(fold=test "num_variations=${VARIATIONS:-10}" "step_limit=${STEPS:-100}" agent.num_beams=8 agent.untried=true agent.dtype=fp32
  memory=false "results_dir=$RESULTS" progress=false)

if [ "${1:-}" = land ]; then # here: the parts the GPU machine wrote into OUT
  dir=${2:?usage: runscripts/gpu-scienceworld.sh land DIR}
  parts=("$dir/$RUN".ckpt.tar.part*)
  if [ ! -e "${parts[0]}" ]; then
    echo "error: no $RUN.ckpt.tar.part* in $dir; set RUN to the run trained there (its files' names start with it)" >&2
    exit 2
  fi
  mkdir -p "$CHECKPOINTS" "$RESULTS"
  cat "${parts[@]}" | tar -xf - -C "$CHECKPOINTS" || exit 1
  if [ -f "$dir/$RUN.rest.tar.xz" ]; then tar -xJf "$dir/$RUN.rest.tar.xz" -C "$RESULTS" || exit 1; fi
  echo "landed $CHECKPOINTS/$RUN and $RESULTS; play the rest here (tasks already played are kept, not replayed):"
  echo "  for t in \$($PY -c \"from bct.worlds.registry import expand_games; print(' '.join(expand_games(['scienceworld-search'])))\"); do"
  echo "    $PY -m bct.evaluate checkpoint=$CHECKPOINTS/$RUN +game=\$t ${play[*]}; done"
  exit 0
fi

OUT=${OUT:?set OUT: the folder whose files come back}
MODEL=${MODEL:-t5-gpu-scratch}
EPOCHS=${EPOCHS:-6}
MINUTES=${MINUTES:-5.5}
EVAL_SECONDS=${EVAL_SECONDS:-200}
JOBS=${JOBS:-5}
log=$RESULTS/logs
mkdir -p "$log"
start=$(date +%s)
pack() { tar -C "$RESULTS" -cJf "$OUT/$RUN.rest.tar.xz" .; } # logs and evaluated episodes, one file
precision=() # fp32 with TF32 matmuls on the GPU: this preset's bf16 run diverged (the experiment log, docs/experiments/)
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null && precision=(+trainer.bf16=false +trainer.tf32=true)
GAMES=${GAMES:-[scienceworld-search]}
$PY -m bct.train "games=$GAMES" modules=false memory=false entities=common-task "model=$MODEL" \
  "num_games=${NUM_GAMES:-20}" "epochs=$EPOCHS" decisive_passes=4 "${precision[@]}" "max_minutes=$MINUTES" \
  save_strategy=no "checkpoint_dir=$CHECKPOINTS" "run_name=$RUN" progress=false "$@" >"$log/train.log" 2>&1
status=$?
tail -n 2 "$log/train.log"
[ $status = 0 ] || { echo "$RUN: training failed ($status) after $(($(date +%s) - start)) s"; pack; exit $status; }
cp "$CHECKPOINTS/$RUN/train_metrics.json" "$log/"
weights=$CHECKPOINTS/$RUN/model.safetensors
if [ "$(stat -c %s "$weights")" -gt 15000000 ]; then # bf16: half the bytes to hand back, played on both machines
  $PY -c 'import sys, torch; from safetensors.torch import load_file, save_file
w = {k: v.to(torch.bfloat16).contiguous() for k, v in load_file(sys.argv[1]).items()}
save_file(w, sys.argv[1], metadata={"format": "pt"})' "$weights"
fi
tar -C "$CHECKPOINTS" -cf - "$RUN" | split -b 15M - "$OUT/$RUN.ckpt.tar.part"
echo "$RUN: trained and packed in $(($(date +%s) - start)) s"
if [ "$EVAL_SECONDS" -gt 0 ]; then
  echo "$RUN: evaluating for $EVAL_SECONDS s, $JOBS tasks at once"
  TASKS=${TASKS:-$($PY -c "import sys; from bct.worlds.registry import expand_games
print(' '.join(expand_games(sys.argv[1].strip('[]').split(','))))" "$GAMES")}
  printf '%s\n' $TASKS | timeout "$EVAL_SECONDS" xargs -P "$JOBS" -I{} $PY -m bct.evaluate "checkpoint=$CHECKPOINTS/$RUN" \
    "games=[{}]" "${play[@]}" threads=1 >"$log/evaluate.log" 2>&1
  pkill -f "bct.evaluate checkpoint=$CHECKPOINTS/$RUN" && sleep 3 # timeout stops xargs, not the players it started
  grep -h "score" "$log/evaluate.log" | tail -n 40
fi
pack
echo "$RUN: done in $(($(date +%s) - start)) s"
