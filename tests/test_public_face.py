"""Issue 32: a typed public face. compare_lib resolves its public names lazily (``__getattr__`` over the ``_PUBLIC``
registry), which type checkers cannot follow; ``compare_lib/__init__.pyi`` re-exports the same names from the same
modules and ``py.typed`` (PEP 561) tells type checkers to use it. These tests keep the stub and the registry equal,
ship both files, and run mypy: the package type-checks (pyproject.toml's [tool.mypy]) and a user's code sees every
public name with its signature, and an error for a name that is not public."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import compare_lib

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "compare_lib" / "__init__.pyi"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")


def _stub_imports() -> dict[str, tuple[str, str]]:
    """{public name: (module relative to compare_lib, attribute)} from the stub's ``from .x import a as b`` lines."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.parse(STUB.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1, f"the stub imports from outside the package: line {node.lineno}"
            for alias in node.names:
                public = alias.asname or alias.name
                assert alias.asname is not None, (
                    f"{alias.name} (line {node.lineno}) must be re-exported explicitly, 'import {alias.name} as "
                    f"{alias.name}' (PEP 484: a plain import in a stub is private)")
                assert public not in found, f"{public} is imported twice in the stub"
                found[public] = (node.module or "", alias.name)
    return found


def _expected_lines() -> str:
    lines = []
    for module, names in compare_lib._PUBLIC.items():
        lines.append(f"from .{module} import " + ", ".join(f"{n} as {n}" for n in names))
    return "\n".join(lines)


def test_stub_lists_exactly_the_registry():
    """Each public name of the registry, alias and public module is in the stub, imported from the module the
    registry names; nothing else is. A new public name needs its line in compare_lib/__init__.pyi."""
    stub = _stub_imports()
    expected = {name: (module, attr) for name, (module, attr) in compare_lib._WHERE.items()}
    expected |= {name: ("", name) for name in compare_lib._MODULES}
    missing = sorted(set(expected) - set(stub))
    extra = sorted(set(stub) - set(expected))
    assert not missing and not extra, (
        f"compare_lib/__init__.pyi differs from the registry: missing {missing}, not public {extra}. "
        f"The registry as stub lines:\n{_expected_lines()}")
    moved = {n: (stub[n], expected[n]) for n in expected if stub[n] != expected[n]}
    assert not moved, f"imported from another module than the registry's (stub, registry): {moved}"
    assert set(compare_lib.__all__) == set(stub)


def test_stub_names_are_the_runtime_objects():
    """Resolving each stub line at run time gives the object ``compare_lib.<name>`` gives (so the signature a type
    checker reads is the one that runs)."""
    for name, (module, attr) in _stub_imports().items():
        source = importlib.import_module(f"compare_lib.{module}" if module else "compare_lib")
        there, here = getattr(source, attr), getattr(compare_lib, name)
        if callable(there) or inspect.ismodule(there):
            assert there is here, name
        else:  # a listing a module builds on each access from its registry (compare_lib.TESTS)
            assert there == here, name


def test_typed_files_ship_with_the_package():
    assert (ROOT / "compare_lib" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = data.get("compare_lib", [])
    assert "py.typed" in shipped and any(p in shipped for p in ("__init__.pyi", "*.pyi")), shipped


def _mypy():
    if importlib.util.find_spec("mypy") is None:
        message = "mypy is not installed: scripts/test.sh installs the typecheck extra (pip install -e '.[typecheck]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_no_module_is_exempt_from_the_type_checker():
    """Issue 32: the whole package type-checks; only third-party packages without types are let through."""
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"].get("overrides", [])
    assert overrides, "pyproject.toml lists the untyped third-party packages"
    for override in overrides:
        assert not override.get("ignore_errors"), override
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        assert not [m for m in modules if m.split(".")[0] == "compare_lib"], modules


@pytest.mark.slow
def test_mypy_checks_the_package_and_sees_every_public_name(tmp_path):
    """One mypy run (pyproject.toml's configuration) over the package and a user's file: the package has no error,
    the user's file resolves every public name (reveal_type shows each function's own signature) and gets an
    error for a name that is not public (which the lazy ``__getattr__`` would otherwise let through)."""
    _mypy()
    functions = [n for n in sorted(compare_lib._WHERE) if inspect.isfunction(getattr(compare_lib, n))]
    user = tmp_path / "user_code.py"
    user.write_text(textwrap.dedent("""\
        import compare_lib as cl

        {reveals}
        cl.not_a_public_name
        """).format(reveals="\n".join(f"reveal_type(cl.{n})" for n in functions)))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir",
         str(tmp_path / "cache"), "--no-error-summary", "--hide-error-context", str(ROOT / "compare_lib"), str(user)],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = proc.stdout.splitlines()
    package_errors = [line for line in out if line.startswith("compare_lib") and ": error:" in line]
    assert not package_errors, (
        "mypy finds errors in compare_lib (fix them: no module is exempt):\n" + "\n".join(package_errors[:60]))
    user_lines = [line for line in out if line.startswith(str(user)) or line.startswith(user.name)]
    errors = [line for line in user_lines if ": error:" in line]
    assert len(errors) == 1 and "not_a_public_name" in errors[0], "\n".join(errors[:20])
    reveals = [line for line in user_lines if "Revealed type" in line]
    assert len(reveals) == len(functions)
    for name, line in zip(functions, reveals):
        assert "def (" in line and "Any" != line.rsplit('"', 2)[-2], f"{name}: {line}"
        # the parameters a type checker sees are the function's own
        params = [p for p in inspect.signature(getattr(compare_lib, name)).parameters if p not in ("self",)]
        for param in params:
            kind = inspect.signature(getattr(compare_lib, name)).parameters[param].kind
            if kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                assert f"{param}:" in line or f"{param}=" in line or f" {param}" in line, f"{name}.{param}: {line}"
