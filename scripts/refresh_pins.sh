#!/usr/bin/env bash
# Regenerate requirements.txt (the pins Streamlit Community Cloud installs, and CI installs before the test extras):
# a fresh venv, `pip install .` (no extras: what the app needs at run time), then the exact version of every
# distribution that install brought in (scripts/pins.py). The newest versions allowed by pyproject.toml on the day.
#   bash scripts/refresh_pins.sh            # with python3
#   PYTHON=python3.12 bash scripts/refresh_pins.sh
# Use the Python version chosen on Cloud (README, "Deploying on Streamlit Community Cloud"); then run the tests
# (bash scripts/test.sh reinstalls .venv from the new pins) and commit requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${PINS_OUT:-requirements.txt}  # another file, to compare without replacing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Resolving the runtime dependencies in a fresh venv ($("$PY" --version))..."
"$PY" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip
"$work/venv/bin/python" -m pip install --quiet .
pins=$("$work/venv/bin/python" scripts/pins.py)
{
  echo "# Streamlit Community Cloud installs this file (it reads uv.lock first, then requirements.txt; this repository"
  echo "# has no uv.lock). Exact versions of everything the app needs at run time (pyproject.toml's dependencies and"
  echo "# theirs), resolved with $("$PY" --version) on $(date -u +%Y-%m-%d) by scripts/refresh_pins.sh; do not edit by hand."
  echo "# CI (scripts/test.sh) installs the same pins before the test extras."
  echo "$pins"
  echo "# This project (compare_lib) itself, with its dependencies as pinned above."
  echo "."
} > "$OUT"
echo "$OUT: $(echo "$pins" | wc -l) pins, $("$PY" --version)."
