"""Print exact pins (name==version) of the runtime dependencies of the installed compare-lib: the closure of
pyproject.toml's [project.dependencies] (no extras) over the installed distributions' own requirements, with
environment markers evaluated for this interpreter and platform. Run by scripts/refresh_pins.sh in a fresh venv
where only ``pip install .`` was done.

    python scripts/pins.py > pins.txt
"""

from __future__ import annotations

import sys
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def runtime_closure(project: str = "compare-lib") -> dict[str, str]:
    """{canonical name: installed version} of every distribution that ``pip install .`` needs (no extras)."""
    def wanted(req: Requirement) -> bool:
        return req.marker is None or req.marker.evaluate({"extra": ""})

    pins: dict[str, str] = {}
    stack = [Requirement(r) for r in metadata.requires(project) or []]
    while stack:
        req = stack.pop()
        name = canonicalize_name(req.name)
        if not wanted(req) or name in pins:
            continue
        dist = metadata.distribution(req.name)
        pins[name] = dist.version
        stack += [Requirement(r) for r in dist.requires or []]
    return pins


if __name__ == "__main__":
    for name, version in sorted(runtime_closure(*sys.argv[1:2]).items()):
        print(f"{name}=={version}")
