"""Sphinx configuration: the API reference (autodoc + napoleon, from the docstrings) and the user guide (MyST
Markdown pages). Built with warnings as errors by tests/test_docs.py (CI runs it through scripts/test.sh):

    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's compare_lib, also when it is not installed

import compare_lib  # noqa: E402

project = "compare_lib"
author = "compare_lib contributors"
copyright = "2026, compare_lib contributors"
release = version = compare_lib.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

# The docstrings are NumPy style ("Parameters\n----------").
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# The public names are attributes of the package (resolved lazily by compare_lib.__getattr__), so the pages name
# them compare_lib.posthoc, not compare_lib.analyses._posthoc.posthoc.
add_module_names = True
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

html_theme = "alabaster"
html_title = "compare_lib"
html_theme_options = {"page_width": "1100px", "sidebar_width": "240px"}


def _attr_comment(modname: str, attr: str) -> list[str] | None:
    """The ``#:`` comment documenting ``attr`` in module ``modname`` or, for a package, in any of its modules."""
    from sphinx.pycode import ModuleAnalyzer

    package = importlib.import_module(modname)
    modules = [modname] + [f"{modname}.{m.name}" for m in pkgutil.iter_modules(getattr(package, "__path__", []))]
    for name in modules:
        comment = ModuleAnalyzer.for_module(name).find_attr_docs().get(("", attr))
        if comment:
            return list(comment)
    return None


def _registry_data_doc(app, what, name, obj, options, lines):
    """A constant of the public face (``compare_lib.PROCEDURES``) is documented by a ``#:`` comment in the module
    that defines it; autodoc looks for that comment only in the module the page names (``compare_lib/__init__.py``,
    where the name is merely registered, or ``compare_lib.report`` for a constant it re-exports). Read it from the
    defining module (the registry says which; for a re-export, the private modules are searched), so the page shows
    the real text and never the docstring of ``dict``, ``tuple`` or ``str``."""
    if what not in ("data", "attribute") or not name.startswith("compare_lib."):
        return
    parts = name.split(".")
    if len(parts) == 2 and parts[1] in compare_lib._WHERE:
        module, real = compare_lib._WHERE[parts[1]]
        comment = _attr_comment(f"compare_lib.{module}", real)
        lines[:] = comment or []  # no comment: api.rst describes the constant itself
    elif len(parts) == 3 and parts[1] in compare_lib._MODULES and not _attr_comment(f"compare_lib.{parts[1]}", parts[2]):
        # a constant a public module re-exports from a private one (compare_lib.report.ARTICLE_WIDTH_PT)
        for info in pkgutil.iter_modules(compare_lib.__path__):
            comment = _attr_comment(f"compare_lib.{info.name}", parts[2])
            if comment:
                lines[:] = comment
                return
        lines[:] = []


def public_module_members(name: str) -> list[str] | None:
    """The documented members of the public module ``compare_lib.<name>``: its ``__all__`` when it has one (None:
    autodoc then follows ``__all__`` itself), else the public functions and classes it defines plus the names it
    re-exports from a private module (an import marked ``noqa: F401``, as ``compare_lib.plots`` does for the CD
    layout and ``compare_lib.report`` for the paper tables). tests/test_docs.py checks the built page against it."""
    import ast
    import inspect

    module = importlib.import_module(f"compare_lib.{name}")
    if hasattr(module, "__all__"):
        return None
    source = inspect.getsource(module)
    lines = source.splitlines()
    names = [n for n, obj in vars(module).items()
             if not n.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
             and obj.__module__ == module.__name__]
    from sphinx.pycode import ModuleAnalyzer

    # the constants it defines with a #: comment (compare_lib.limits is nothing else)
    names += [n for (cls, n) in ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
              if cls == "" and not n.startswith("_")]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.col_offset == 0:
            text = "\n".join(lines[node.lineno - 1:node.end_lineno])
            if "F401" in text:  # re-exported functions and classes (a bare constant has no docstring to show)
                names += [n for n in (a.asname or a.name for a in node.names) if not n.startswith("_")
                          and (inspect.isfunction(getattr(module, n)) or inspect.isclass(getattr(module, n)))]
    return sorted(set(names))


def _public_modules_rst() -> str:
    out = []
    for name in compare_lib._MODULES:
        members = public_module_members(name)
        title = f"compare_lib.{name}"
        out += [title, "~" * len(title), "", f".. automodule:: compare_lib.{name}"]
        # a name of the registry is documented once, as compare_lib.<name> above (two entries of one class would
        # be a duplicate description, and a reference to it ambiguous)
        if members is None:
            module = importlib.import_module(f"compare_lib.{name}")
            shared = [n for n in getattr(module, "__all__", ()) if n in compare_lib._WHERE]
            out += ["   :members:"] + ([f"   :exclude-members: {', '.join(shared)}"] if shared else [])
        else:
            # listed by name, so a re-exported constant is shown too (its text found by _registry_data_doc)
            out += ["   :members: " + ", ".join(n for n in members if n not in compare_lib._WHERE), "   :undoc-members:"]
        out += [""]
    return "\n".join(out)


def _expand_public_modules(app, docname, source):
    if docname == "api":
        source[0] = source[0].replace(".. public-modules::", _public_modules_rst())


def setup(app):
    app.connect("autodoc-process-docstring", _registry_data_doc)
    app.connect("source-read", _expand_public_modules)
