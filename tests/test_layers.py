"""Issue 32: the library's layout shows its layers. Every import inside ``compare_lib`` (at the top of a module
or inside a function: both run) points down a layer or within one, never up, and no set of modules imports
itself in a circle. The layers, bottom to top:

0. ``errors``, ``limits``, ``ranks``: messages, bounds and the rank helpers
1. ``core``: the score table, validation, provenance, result objects, formatting
2. ``io``: reading results files (and item-level results)
3. ``stats``: the statistical kernels
4. ``multiple``: multiple-comparison procedures
5. ``analyses``: what is built from tests and procedures
6. ``render``: figures, report text, paper tables, documents, scripts
7. the top: the package's face (``__init__``), the public faces ``plots``, ``report``, ``data``, ``cli`` and
   ``_analysis`` (the whole analysis, which renders itself)
"""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "compare_lib"

LAYERS = {
    "compare_lib.errors": 0, "compare_lib.limits": 0, "compare_lib.ranks": 0,
    "compare_lib.core": 1, "compare_lib.io": 2, "compare_lib.stats": 3, "compare_lib.multiple": 4,
    "compare_lib.analyses": 5, "compare_lib.render": 6,
    "compare_lib": 7, "compare_lib.plots": 7, "compare_lib.report": 7, "compare_lib.data": 7, "compare_lib.cli": 7,
    "compare_lib._analysis": 7,
}
#: At most this many modules directly in compare_lib/ besides the subpackages (issue 32).
MAX_TOP_MODULES = 10


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, pathlib.Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _layer(module: str) -> int:
    best = max((prefix for prefix in LAYERS if module == prefix or module.startswith(prefix + ".")), key=len)
    return LAYERS[best]


def import_graph(modules: dict[str, pathlib.Path]) -> dict[str, dict[str, int]]:
    """module -> {imported compare_lib module: line}, for every import statement anywhere in the module."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                # "from pkg import sub" imports the submodule; "from mod import name" the module
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found = sub if sub in modules else target
                    if found in modules and found != name:
                        edges.setdefault(found, node.lineno)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.name != name:
                        edges.setdefault(alias.name, node.lineno)
        graph[name] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph():
    return import_graph(_modules())


def test_every_module_has_a_layer():
    for name in _modules():
        assert any(name == p or name.startswith(p + ".") for p in LAYERS), f"{name} belongs to no layer"


def test_no_import_points_up_a_layer(graph):
    upward = [f"{name}:{line} imports {target} (layer {_layer(target)} above {_layer(name)})"
              for name, edges in graph.items() for target, line in edges.items() if _layer(target) > _layer(name)]
    assert not upward, "imports that point up a layer:\n" + "\n".join(sorted(upward))


def test_no_import_circle(graph):
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_checks_find_what_they_look_for():
    """The checker itself: a made-up graph with a circle and an upward import is caught."""
    made_up = {"compare_lib.core._a": {"compare_lib.render._b": 3}, "compare_lib.render._b": {"compare_lib.core._a": 1},
               "compare_lib.stats._c": {}}
    assert circles(made_up) == [["compare_lib.core._a", "compare_lib.render._b"]]
    assert _layer("compare_lib.render._b") > _layer("compare_lib.core._a")
    assert _layer("compare_lib.io._csv") == 2 and _layer("compare_lib") == 7 and _layer("compare_lib.errors") == 0


def test_few_modules_directly_in_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top
    subpackages = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert subpackages == ["analyses", "core", "io", "multiple", "render", "stats"]
    for sub in subpackages:  # each says what it holds and what it may import
        doc = ast.get_docstring(ast.parse((PACKAGE / sub / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "Layer" in doc, sub
