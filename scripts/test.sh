#!/usr/bin/env bash
# Set up (once) and run the whole test suite.
#   bash scripts/test.sh [pytest args]
# The real-browser test needs Debian's chromium (/usr/bin/chromium); without it that test is skipped,
# unless REQUIRE_BROWSER=1 (as in CI), which makes it fail instead.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv and installing compare_lib with its test extras (about a minute, once)..."
  "$PY" -m venv .venv || exit 1
  .venv/bin/python -m pip install --quiet --upgrade pip || exit 1
fi
if ! .venv/bin/python -c "import compare_lib, streamlit, pytest, hypothesis, playwright, baycomp, python_calamine, openpyxl, odf, click, resvg_py" 2>/dev/null || [ ! -x .venv/bin/compare-classifiers ]; then
  .venv/bin/python -m pip install --quiet -e '.[test]' || exit 1
fi
.venv/bin/python -m pytest "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests (exit code 5): treating this as a failure." >&2
  exit 1
fi
exit "$status"
