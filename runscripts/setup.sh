#!/usr/bin/env bash
# Create .venv with bct and the exact versions in requirements.lock; checks Java for TextWorldExpress and ScienceWorld. Safe to re-run.
#   TORCH_SPEC   pip requirement for PyTorch (default torch==2.13.0; e.g. "torch" for the newest CUDA build)
#   PYTHON       interpreter to build the venv with (default python3, needs >= 3.10)
set -euo pipefail
cd "$(dirname "$0")/.."

java_help="install Java 17: 'sudo apt-get install -y openjdk-17-jre-headless' (Debian/Ubuntu) or 'brew install openjdk@17' (macOS)"
if ! command -v java >/dev/null 2>&1; then
  echo "error: TextWorldExpress and ScienceWorld need Java 11+ on PATH and none was found; $java_help" >&2
  exit 1
fi
java_major=$(java -version 2>&1 | sed -nE 's/.*version "(1\.)?([0-9]+).*/\2/p' | head -1)
if [ -n "$java_major" ] && [ "$java_major" -lt 11 ]; then
  echo "error: TextWorldExpress and ScienceWorld need Java 11+, found Java $java_major; $java_help" >&2
  exit 1
fi

PY=${PYTHON:-python3}
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { echo "error: bct needs Python >= 3.10 ($PY is older); set PYTHON=python3.11" >&2; exit 1; }
[ -x .venv/bin/python ] || { echo "[setup] creating .venv"; "$PY" -m venv .venv; }
# A venv set up before by this script from the same lock and pyproject.toml, on the same Python, its packages all
# there, is done: every runscript starts here, and pip's checks alone take 15 s
stamp=.venv/.bct-setup
want=$(.venv/bin/python -I -c 'import hashlib, sys
h = hashlib.sha256(sys.version.encode())
for f in sys.argv[1:]:
    h.update(open(f, "rb").read())
print(h.hexdigest())' requirements.lock pyproject.toml runscripts/setup.sh)
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] &&
  .venv/bin/python -I -c 'import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ("bct", "torch", "transformers", "textworld_express", "scienceworld", "tales")))'; then
  exit 0
fi
rm -f "$stamp"  # written again only once the set-up below has finished
pip() {  # quiet pip; drops the warnings about package-index folders that some machines list but lack
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@" 2> >(grep -v '^WARNING: Location' >&2)
}
# PyTorch first and explicitly: a CPU build where one is at hand keeps CI and laptops fast.
read -ra torch_spec <<< "${TORCH_SPEC:-torch==2.13.0}"  # may carry pip options, e.g. --index-url URL
.venv/bin/python -c 'import torch' 2>/dev/null || { echo "[setup] installing PyTorch (${torch_spec[*]})"; pip "${torch_spec[@]}"; }
.venv/bin/python -c 'import bct, transformers, textworld_express, scienceworld' 2>/dev/null || echo "[setup] installing bct and its dependencies (a few minutes the first time)"
# Exact versions from the lock (runscripts/lock.sh refreshes it), so that a run today and in a year
# resolves the same transformers and TextWorldExpress; then bct itself, without resolving again.
pip -r requirements.lock
pip --no-deps -e ".[dev]"
# TALES's benchmark environments (protocol=tales): tale-suite declares Python >= 3.12 and pulls many LLM clients, but
# its ScienceWorld and TWX environments run on 3.10+ with gymnasium and termcolor (in the lock)
.venv/bin/python -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("tales") is None)' ||
  pip --no-deps --ignore-requires-python tale-suite==1.0.0rc2
echo "$want" >"$stamp"
