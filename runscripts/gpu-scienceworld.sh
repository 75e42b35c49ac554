#!/usr/bin/env bash
# ScienceWorld's recipe (bct/conf/experiment/scienceworld.yaml, its mix included) trained on a borrowed GPU machine
# inside a fixed budget (a lent accelerator, a cluster job with a wall-clock limit): SEEDS trainings side by side on
# the one card (the 1M preset is launch-bound: one training keeps the card far from busy), each under a clock
# limit, the weights packed into parts of at most 15 MB to hand back. They are played where they land, as
# runscripts/scienceworld.sh plays its own (the same folders: seed 42 in CHECKPOINTS/RUN, seed N in
# CHECKPOINTS/seedN/RUN).
#   KIT_DATA="data/scienceworld-*" runscripts/offline-kit.sh pack 3.12   # here: bct's stack and the recipe's data
#   source runscripts/offline-kit.sh unpack; OUT=/some/dir SEEDS=3 runscripts/gpu-scienceworld.sh   # there
#   runscripts/gpu-scienceworld.sh land DIR                              # here: the trainings into CHECKPOINTS
# Settings: MODULES (true; false: the row without modules), SEEDS (1: seed 42; 3: seeds 42-44), FIRST_SEED (42),
# RUN (scienceworld.sh's name: scienceworld-nomemory, -nomodules added without modules), MINUTES (each training's
# clock limit, 9), CHECKPOINTS (checkpoints), PY (python3). Arguments are Hydra overrides of the recipe, as
# scienceworld.sh takes them (model=t5-gpu-scratch, '~mix', games=[...], num_games=N).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python3}
CHECKPOINTS=${CHECKPOINTS:-checkpoints}
MODULES=${MODULES:-true}
RUN=${RUN:-scienceworld-nomemory$([ "$MODULES" = false ] && echo -nomodules || true)}
FIRST_SEED=${FIRST_SEED:-42}
folder() { [ "$1" = 42 ] && echo "$CHECKPOINTS/$RUN" || echo "$CHECKPOINTS/seed$1/$RUN"; }

if [ "${1:-}" = land ]; then # here: the parts the GPU machine wrote into OUT
  dir=${2:?usage: runscripts/gpu-scienceworld.sh land DIR}
  parts=("$dir/$RUN".ckpt.tar.part*)
  if [ ! -e "${parts[0]}" ]; then
    echo "error: no $RUN.ckpt.tar.part* in $dir; set RUN (or MODULES) to the run trained there (its files' names start with it)" >&2
    exit 2
  fi
  mkdir -p "$CHECKPOINTS"
  cat "${parts[@]}" | tar -xf - -C "$CHECKPOINTS" || exit 1
  echo "landed in $CHECKPOINTS: $(tar -tf <(cat "${parts[@]}") | grep -c '/model.safetensors$') trainings of $RUN"
  exit 0
fi

OUT=${OUT:?set OUT: the folder whose files come back}
SEEDS=${SEEDS:-1}
MINUTES=${MINUTES:-9}
precision=() # fp32 with TF32 matmuls on a GPU: the 25M preset's bf16 run diverged (the experiment log)
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null && precision=(+trainer.bf16=false +trainer.tf32=true)
mkdir -p "$OUT/logs"
start=$(date +%s)
pids=() folders=()
for ((seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++)); do
  f=$(folder "$seed")
  folders+=("${f#"$CHECKPOINTS"/}")
  # a few threads each: the trainings share the machine's cores, the card does the arithmetic
  OMP_NUM_THREADS=4 $PY -m bct.train +experiment=scienceworld "modules=$MODULES" "${precision[@]}" \
    "max_minutes=$MINUTES" save_strategy=no "checkpoint_dir=$(dirname "$f")" "run_name=$RUN" "seed=$seed" \
    progress=false "$@" >"$OUT/logs/train-seed$seed.log" 2>&1 &
  pids+=($!)
done
failed=0
for ((k = 0; k < ${#pids[@]}; k++)); do
  wait "${pids[k]}" || { failed=1; echo "$RUN: training $((k + 1)) failed:"; tail -n 3 "$OUT/logs/train-seed$((FIRST_SEED + k)).log"; }
done
for ((k = 0; k < ${#folders[@]}; k++)); do
  m=$CHECKPOINTS/${folders[k]}/train_metrics.json
  [ -f "$m" ] && echo "seed $((FIRST_SEED + k)): $(tr -d '\n ' <"$m")" && cp "$m" "$OUT/logs/train_metrics-seed$((FIRST_SEED + k)).json"
done
tar -C "$OUT" -cJf "$OUT/$RUN.logs.tar.xz" logs && rm -rf "$OUT/logs"
[ $failed = 0 ] || { echo "$RUN: a training failed after $(($(date +%s) - start)) s"; exit 1; }
tar -C "$CHECKPOINTS" -cf - "${folders[@]}" | split -b 15M - "$OUT/$RUN.ckpt.tar.part"
echo "$RUN: ${#folders[@]} trainings trained and packed in $(($(date +%s) - start)) s"
