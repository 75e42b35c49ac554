#!/usr/bin/env bash
# A zero-shot LLM on ScienceWorld's 30 tasks through TALES's loop (game seeds 1-5, 100 game commands, a loss restarts,
# the best score), as TALES plays its LLMs: no modules, no list of valid actions, commands written in the game's forms.
# Every task in one pool of episodes; a local model answers the pool's episodes in one generation a step.
#   runscripts/llm-scienceworld-row.sh                                   # Gemma 3 270M, the local model of the tests
#   GEMMA_DIR=/path/to/model runscripts/llm-scienceworld-row.sh          # any local causal LM (a folder or hub id)
#   BASE_URL=http://127.0.0.1:8000/v1 MODEL=name runscripts/llm-scienceworld-row.sh   # any OpenAI-compatible server
#   runscripts/llm-scienceworld-row.sh agent.max_tokens=16               # arguments: the agent's settings (agent.*)
# Settings: FOLDS (test: a zero-shot agent is chosen on nothing), TALES_SEEDS (5), STEPS (100; fewer for a quick
# check only), TASKS (every task; or a comma list of games), EPISODES (episodes at once: 150, every run of a fold),
# RESULTS (results/llm-scienceworld). On 2 CPU cores Gemma 3 270M takes about 8 s a command (150 runs of 100: over a
# day); on a GPU, its batches of 150 are what make the row cheap.
set -euo pipefail
cd "$(dirname "$0")/.." && bash runscripts/setup.sh >/dev/null && source .venv/bin/activate
FOLDS=${FOLDS:-test} TALES_SEEDS=${TALES_SEEDS:-5} STEPS=${STEPS:-100} EPISODES=${EPISODES:-150}
TASKS=${TASKS:-scienceworld} RESULTS=${RESULTS:-results/llm-scienceworld}
if [ -n "${BASE_URL:-}" ]; then
  model=("agent.base_url=$BASE_URL" "agent.model=${MODEL:?set MODEL to the model name the server knows}")
else
  G=${GEMMA_DIR:-${BCT_TEST_CACHE:-$HOME/.cache/bct-tests}/gemma3-270m-hf}
  case "$G" in  # a folder must be there; anything else is a hub id
    /* | ./* | ../* | ~*) [ -e "$G" ] || {
      echo "error: no model at $G; run 'pytest tests/test_llm_server.py' once to prepare it, or set GEMMA_DIR" >&2
      exit 1
    } ;;
  esac
  model=(agent.backend=local "agent.model=$G")
fi
way=(protocol=tales "num_variations=$TALES_SEEDS")
if [ "$STEPS" -lt 100 ]; then way+=("step_limit=$STEPS"); fi  # fewer for a quick check, never more than TALES
for fold in $FOLDS; do
  echo "[$(date +%T)] ${model[*]} on $fold ($TASKS, TALES's loop) -> $RESULTS"
  python -m bct.evaluate agent=llm "${model[@]}" "games=[$TASKS]" modules=false memory=false "fold=$fold" "${way[@]}" \
    "batch_size=$EPISODES" "agent.concurrency=$EPISODES" agent.cache_dir=null "results_dir=$RESULTS" progress=false "$@" |
    tail -n 3
done
python -m bct.report "$RESULTS"
