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
# The pins that Streamlit Community Cloud installs (requirements.txt, issue 31) first, then the project editable with
# its test extras, constrained to the same pins; again whenever requirements.txt changes.
pins_sha=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat .venv/.pins-installed 2>/dev/null)" != "$pins_sha" ] \
   || ! .venv/bin/python -c "import compare_lib, streamlit, pytest, hypothesis, playwright, baycomp, python_calamine, openpyxl, odf, click, resvg_py, sphinx, myst_parser, mypy, numpyro" 2>/dev/null \
   || [ ! -x .venv/bin/compare-classifiers ]; then
  echo "Installing the pinned runtime dependencies (requirements.txt), then the test, docs and typecheck extras..."
  grep -E '^[A-Za-z0-9._-]+==' requirements.txt > .venv/pins-constraints.txt || exit 1
  .venv/bin/python -m pip install --quiet -r requirements.txt || exit 1
  .venv/bin/python -m pip install --quiet -c .venv/pins-constraints.txt -e '.[test,docs,typecheck]' || exit 1
  echo "$pins_sha" > .venv/.pins-installed
fi
.venv/bin/python -m pytest "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests (exit code 5): treating this as a failure." >&2
  exit 1
fi
exit "$status"
