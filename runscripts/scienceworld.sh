#!/usr/bin/env bash
# ScienceWorld's 30 science tasks, from nothing to the per-task table: gold data from ScienceWorld's own
# gold paths (replayed, kept where they reach 100; with its working memory's recalls where MEMORY=true), one agent trained on
# all 30 (the offline CPU preset; the names many tasks show as words, the rest by placeholder, the task's own
# thing always <e1>, the boxes and rooms it names next: entities=common-task;
# on a GPU when there is one), evaluated on test
# variations beside the oracle and random, and the per-task table (final score, best score in play and
# TALES's protocol, beside SwiftSage's and TALES's published means) and the HTML report.
#   RESULTS (default results/scienceworld), VARIATIONS (test variations per task, 10; all where fewer), STEPS
#   (the learned agents' game actions per episode, 100 as TALES plays; module calls not counted),
#   GAMES (train variations per task, 20), EPOCHS (8), DECISIVE (copies of each focus example an epoch,
#   decisive_passes: 4), MODULES (true: the compare module, a reading against the threshold the task names, in the
#   three tasks that sort by one, bct/modules/compare.py, the notes module, the recipe read, in chemistry-mix,
#   bct/modules/notes.py, the slides module, each inclined plane's slide, bct/modules/slides.py, and the circuit module,
#   the connections made, in the conductivity tasks, bct/modules/circuit.py; false: none; with WIDE=1 the defaults are
#   `sw-grow8`'s recipe (the seeds' name, the known plant's answer, the circuit module), 0.800 on the 30 by TALES's
#   measure (the unknown plant's share guessed: 0.791 without), with the recipe named by its kind (chemistry-mix 0.29 ->
#   0.60 in `sw-title8`, 0.744 on the 30 beside the tertiary paints' search, which cost the secondary 1.00 -> 0.27 and
#   is left out), the growing tasks' pots filled in order (level on grow-fruit alone) and entity rule 15 (grow-fruit's
#   fruit followed through its stages: 0.38 -> 0.72), trained together as `sw-fruit8`: 0.760; find-plant's plant carried
#   by the look's name since (find-plant alone 0.83 -> 0.98): all of it together, `sw-plant8`, 0.820, the best; the
#   unknown substance read until a reading settles it since (2 -> 8 of 10 solved): `sw-settled8`, 0.818, 173 solved; the unknown plant's cross with
#   entity rule 16 and 40 train variations of both unknowns since: `sw-cross8`, 0.791 (the unknown plant 0.24 -> 0.60);
#   entity rule 17 since (the trait a genetics task asks of by its value, its word beside): `sw-trait8`, 0.819, 175 solved; the gold paths' idle steps dropped since (an open door opened, a pot poured into itself): `sw-idle8`, 0.805, 170 solved;
#   the rule mended (a module call goes only where left twice in a row) and trained again: `sw-mend8`, 0.808, 177 solved,
#   played with SKIP_IDLE since: 0.822, 179 solved;
#   `sw-seen8` before them: 0.704; `sw-slide8` before the substance focused where it is seen: 0.668; `sw-stage8` before the inclined planes' equal times, slides and entity
#   rule 14 and the circuits' third pass: 0.624; `sw-read8` before the notes, entity rules 12-13 and find-plant's pot by
#   name: 0.659, `sw-cmp8` before the watched waits, the life stages as seen and `compare reading`: 0.667; one
#   training's spread, docs/scienceworld.md), MEMORY (false: the agent plays without the
#   working memory; with it the agents measured lower), BASELINE=1 also trains and evaluates the agent with the other memory
#   setting; MODEL (t5-cpu-scratch, trained at batch 16, learning rate 7e-4; t5-gpu-scratch on a
#   GPU: 25M parameters at its preset's batch 64, 3e-4), JOBS (1: one process plays all 30 tasks in one pool of
#   32 episodes, as many as memory holds at ~1.2 GB a JVM (1 GB heap cap, ~0.4 GB resident); on a machine of many
#   cores, e.g. 10, one process a task, 10 at once), SEARCH (1: the tasks that have a search learn from it,
#   games=[scienceworld-search]: the changes of state's tour of the house, their train substances carried out of the
#   kitchen (moved=1), the secondary paints' pairs, the growing tasks' waits watched (they water a pot at the wait that
#   dried it, and fill their pots in the order the look lists them), the life stages focused by the names the look writes, find-plant's plant carried by the look's name for it, the unknown substance's
#   melting point read until a reading settles it, the unknown plant's cross cut to its evidence (32-56 actions where
#   the simulator's experiment takes 114-234), the inclined
#   planes timed by one equal wait and one look each; 0: the
#   simulator's paths alone), WIDE (1: the tasks that are knowledge of kinds or a procedure with many variations learn
#   from more train variations than GAMES, the smallest tasks' examples count two or three times an epoch: the `mix` below;
#   0: GAMES for every task, one pass), TASKS (the games to play, space-separated, e.g. one task for a quick check; all
#   30 where unset; the oracle and random rows then play those tasks, and the mix keeps their entries alone), SKIP_IDLE
#   (1: a command the game answered as changing nothing, "The drawer is already open.", a terminal in use, a refusal, is
#   passed over while the look and inventory it was sent in stay, agent.skip_idle; 0: sent again); extra
#   Hydra overrides go to bct.train. DATA (data) and CHECKPOINTS (checkpoints): where the gold data and the agent go.
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
group=scienceworld$([ "$SEARCH" = 1 ] && echo -search || true)
mix=()  # the same keys for bct.generate (each task's variations) and bct.train (those and the passes)
if [ "$WIDE" = 1 ]; then
  # which thing is an animal, a plant, living or not, lives longest: short episodes, learned from variety
  for t in find-animal find-living-thing find-non-living-thing find-plant; do mix+=("+mix.scienceworld-$t.num_games=60"); done
  for t in lifespan-longest-lived lifespan-shortest-lived lifespan-longest-lived-then-shortest-lived \
    measure-melting-point-known-substance measure-melting-point-unknown-substance mendelian-genetics-unknown-plant; do
    mix+=("+mix.scienceworld-$t.num_games=40")
  done
  mix+=("+mix.scienceworld-test-conductivity.num_games=50")
  # folds of 4-18 train variations, all taken: twice in each epoch
  for t in identify-life-stages-1 identify-life-stages-2 chemistry-mix chemistry-mix-paint-tertiary-color; do
    mix+=("+mix.scienceworld-$t.passes=2")
  done
  # the circuits: 10 train variations of 11-30 actions each, 0.5% of the examples, and two trainings of the same data
  # scored them 0.81-0.83 and 0.13-0.18: three times in each epoch
  for t in power-component power-component-renewable-vs-nonrenewable-energy; do mix+=("+mix.scienceworld-$t.passes=3"); done
fi
py=.venv/bin/python
games=$group oracle_games=scienceworld  # the oracle and random rows: each task's own game, not its search variant
if [ -n "${TASKS:-}" ]; then
  games=${TASKS// /,}
  oracle_games=$($py -c "import sys; from bct.worlds.registry import get_game
print(','.join(get_game(t).preset or t for t in sys.argv[1:]))" $TASKS)
  kept=()
  for entry in "${mix[@]}"; do  # +mix.GAME.key=value, kept where GAME is played
    key=${entry#+mix.}
    if [[ ",$oracle_games," == *",${key%.*=*},"* ]]; then kept+=("$entry"); fi
  done
  mix=("${kept[@]}")
fi
sizes=()
[ "$MODEL" = t5-cpu-scratch ] && sizes=(batch_size=16 lr=7e-4)
mkdir -p "$RESULTS/logs"
start=$(date +%s)
TASKS=$($py -c "from bct.worlds.registry import expand_games; print(' '.join(expand_games('$games'.split(','))))")
other=$([ "$MEMORY" = false ] && echo true || echo false)
for memory in "$MEMORY" $([ "$BASELINE" = 1 ] && echo "$other"); do
  run=scienceworld$([ "$memory" = false ] && echo -nomemory || true)$([ "$MODULES" = false ] && echo -nomodules || true)
  echo "[$(date +%T)] gold data (memory=$memory): $GAMES train variations of each task (log: $RESULTS/logs/generate.log)"
  $py -m bct.generate "games=[$games]" "num_games=$GAMES" "${mix[@]}" folds=[train] "modules=[$MODULES]" "memory=$memory" \
    "out_dir=$DATA" workers=2 progress=false >>"$RESULTS/logs/generate.log" 2>&1
  tail -n 1 "$RESULTS/logs/generate.log"
  echo "[$(date +%T)] one agent for the 30 tasks (memory=$memory): training (log: $RESULTS/logs/train.log)"
  # distinct=false: every step of every gold path, with modules too (the CPU preset dedupes where modules=true)
  $py -m bct.train "games=[$games]" "modules=$MODULES" "memory=$memory" entities=common-task "model=$MODEL" distinct=false \
    "num_games=$GAMES" "${mix[@]}" "epochs=$EPOCHS" "decisive_passes=$DECISIVE" "${sizes[@]}" "run_name=$run" "data_dir=$DATA" "checkpoint_dir=$CHECKPOINTS" progress=false "$@" >>"$RESULTS/logs/train.log" 2>&1
  tail -n 1 "$RESULTS/logs/train.log"
  echo "[$(date +%T)] the agent on every task, $VARIATIONS test variations each (all where a task has fewer)"
  # the agent writes its action (ScienceWorld's parser judges it): of 8 beam candidates, the best that names only
  # things in sight and was not already sent at the same prompt (docs/scienceworld.md, "Choosing among many actions")
  play=(fold=test "num_variations=$VARIATIONS" "step_limit=$STEPS" agent.num_beams=8 agent.untried=true "results_dir=$RESULTS" progress=false)
  if [ "$SKIP_IDLE" = 1 ]; then play+=(agent.skip_idle=true); fi
  if [ "$JOBS" = 1 ]; then
    $py -m bct.evaluate "checkpoint=$CHECKPOINTS/$run" "${play[@]}" | tee -a "$RESULTS/logs/evaluate.log"
  else  # one process a task, JOBS at once, one PyTorch thread each (the games' JVMs need the cores)
    printf '%s\n' $TASKS | xargs -P "$JOBS" -I{} $py -m bct.evaluate "checkpoint=$CHECKPOINTS/$run" "games=[{}]" "memory=$memory" \
      "${play[@]}" threads=1 2>>"$RESULTS/logs/evaluate.log" | tee -a "$RESULTS/logs/evaluate.log"
  fi
done
for agent in oracle random; do  # every task in one pool of episodes, a results folder each
  $py -m bct.evaluate "agent=$agent" "games=[$oracle_games]" modules=false fold=test "num_variations=$VARIATIONS" \
    "results_dir=$RESULTS" progress=false | tail -n 30
done
$py -m bct.report "$RESULTS" --html "$RESULTS/report.html" | sed -n '/^| task/,$p'
echo "[$(date +%T)] done in $(( ($(date +%s) - start) / 60 )) minutes; $RESULTS/scienceworld-table.md, $RESULTS/report.html"
