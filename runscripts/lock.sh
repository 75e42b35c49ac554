#!/usr/bin/env bash
# Refresh requirements.lock, the exact versions runscripts/setup.sh installs: resolves pyproject.toml's
# ranges (with the dev extras) in a throwaway venv and records what it got. PyTorch is left out: its
# build (CPU or CUDA) is chosen by TORCH_SPEC at set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"${PYTHON:-python3}" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check "${TORCH_SPEC:-torch==2.13.0}"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check ".[dev]"
{
  echo "# Exact versions for runscripts/setup.sh, made by runscripts/lock.sh on $(date -u +%Y-%m-%d) with $("$tmp/venv/bin/python" -V)."
  echo "# PyTorch is not here: TORCH_SPEC chooses its build. pyproject.toml keeps ranges for pip install bct."
  "$tmp/venv/bin/python" -m pip freeze --exclude-editable | grep -v -i -E '^(torch|nvidia-|triton|bct)([=@ ]|$)'
} > requirements.lock
echo "wrote requirements.lock ($(grep -c '==' requirements.lock) packages)"
