#!/usr/bin/env bash
# Set up .venv and run the test suite. Extra arguments go to pytest (e.g. -k modules).
set -euo pipefail
cd "$(dirname "$0")/.."
bash runscripts/setup.sh
.venv/bin/python -m pytest "$@"
