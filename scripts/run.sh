#!/usr/bin/env bash
# Set up (once) and start the dashboard on its built-in sample data.
#   bash scripts/run.sh            -> http://localhost:8501
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv and installing the dashboard (about a minute, once)..."
  "$PY" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
# The same pinned versions as Streamlit Community Cloud installs (requirements.txt), again whenever they change.
pins_sha=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat .venv/.pins-run 2>/dev/null)" != "$pins_sha" ] \
   || ! .venv/bin/python -c "import compare_lib, streamlit, python_calamine, click, resvg_py" 2>/dev/null \
   || [ ! -x .venv/bin/compare-classifiers ]; then
  grep -E '^[A-Za-z0-9._-]+==' requirements.txt > .venv/pins-constraints.txt
  .venv/bin/python -m pip install --quiet -c .venv/pins-constraints.txt -e .
  echo "$pins_sha" > .venv/.pins-run
fi
exec .venv/bin/python -m streamlit run dashboard/server.py "$@"
