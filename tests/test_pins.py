"""Issue 31: a reproducible deployment. requirements.txt (what Streamlit Community Cloud installs; CI installs it
too, scripts/test.sh) pins every runtime dependency with ``==``, within pyproject.toml's ranges, and nothing that
only the tests need."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]


def _lines() -> list[str]:
    return [line.split("#", 1)[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()
            if line.split("#", 1)[0].strip()]


def _pins() -> dict[str, Requirement]:
    reqs = [Requirement(line) for line in _lines() if line not in (".", "-e .")]
    return {canonicalize_name(r.name): r for r in reqs}


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_line_is_an_exact_pin_or_the_project():
    lines = _lines()
    assert lines[-1] in (".", "-e ."), "requirements.txt must install the project itself (compare_lib)"
    for line in lines[:-1]:
        req = Requirement(line)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==" and "*" not in specs[0].version, line
        assert req.marker is None and not req.extras and req.url is None, line
    names = [canonicalize_name(Requirement(line).name) for line in lines[:-1]]
    assert len(names) == len(set(names)), "a package pinned twice"


def test_pyproject_runtime_dependencies_pinned_within_their_ranges():
    pins = _pins()
    for text in _pyproject()["project"]["dependencies"]:
        want = Requirement(text)
        name = canonicalize_name(want.name)
        assert name in pins, f"{want.name} (pyproject.toml) is not pinned in requirements.txt"
        pinned = Version(next(iter(pins[name].specifier)).version)
        assert want.specifier.contains(pinned, prereleases=True), f"{name}=={pinned} is outside {want}"


def test_no_test_only_packages_pinned():
    pins = _pins()
    runtime = {canonicalize_name(Requirement(t).name) for t in _pyproject()["project"]["dependencies"]}
    for extra, reqs in _pyproject()["project"]["optional-dependencies"].items():
        for text in reqs:
            name = canonicalize_name(Requirement(text).name)
            if name not in runtime:
                assert name not in pins, f"{name} (extra {extra!r}) is pinned, but the app does not need it"


def test_pins_closed_over_the_installed_runtime_dependencies():
    """Every distribution that ``pip install .`` needs is pinned, at the version installed here (CI installs the
    pins first: scripts/test.sh). If this fails after pyproject.toml changed, run ``bash scripts/refresh_pins.sh``."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from pins import runtime_closure
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    try:
        closure = runtime_closure()
    except metadata.PackageNotFoundError as err:  # pragma: no cover - a venv without the project installed
        pytest.skip(f"compare-lib is not installed here ({err})")
    pins = _pins()
    missing = sorted(set(closure) - set(pins))
    assert not missing, f"runtime dependencies not pinned: {missing} (bash scripts/refresh_pins.sh)"
    differ = {name: (closure[name], str(pins[name].specifier)) for name in closure
              if Version(closure[name]) != Version(next(iter(pins[name].specifier)).version)}
    assert not differ, f"installed versions differ from the pins: {differ} (bash scripts/test.sh reinstalls them)"


def test_streamlits_server_parses_http_with_httptools():
    """Issue 31: with httptools installed (a runtime dependency, pinned above), uvicorn's "auto" HTTP protocol, which
    Streamlit's server uses, is the C parser instead of the pure-Python h11: a new visitor's ~150 static files cost
    the server 0.40 s of CPU instead of 0.52 s, the protocol bench's 30 sessions 0.052 CPU-s per page run instead of
    0.059 s (bench/load.py --mode protocol)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    assert AutoHTTPProtocol.__name__ == "HttpToolsProtocol"
    assert "httptools" in _pins()
