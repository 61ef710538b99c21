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
if ! .venv/bin/python -c "import compare_lib, streamlit, python_calamine, click, resvg_py" 2>/dev/null || [ ! -x .venv/bin/compare-classifiers ]; then
  .venv/bin/python -m pip install --quiet -e .
fi
exec .venv/bin/python -m streamlit run dashboard/app.py "$@"
