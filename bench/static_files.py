"""What a new visitor's static files cost the server: ``dashboard/server.py`` against ``dashboard/app.py`` (issue 31).

    .venv/bin/python bench/static_files.py [--visitors 20]

Starts each entry point on a free port, then fetches, over one keep-alive connection per visitor, the page and the
static files a browser fetched on its first visit (``bench/browser_requests.txt``), as many visitors as asked one
after the other, and reports the server's CPU (utime + stime from /proc) per visitor. The favicon, which the browser
asks for after every run, is timed apart: 100 conditional requests. Run by hand; never a timed assertion.
"""

from __future__ import annotations

import argparse
import http.client
import socket
import subprocess
import sys
import time
from pathlib import Path

from load import cpu_seconds, free_port  # bench/ is on the path when this file runs
from protocol import browser_requests

ROOT = Path(__file__).resolve().parents[1]


def _paths() -> list[str]:
    """The page and the static files of a browser's first visit (a renamed hashed file found by its stem)."""
    found, _missing = browser_requests()
    return ["/" + p.lstrip("/") for p in found if p.startswith("static/") or p == "/"]


def _visit(port: int, paths: list[str]) -> tuple[int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    ok = size = 0
    for path in paths:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        ok += response.status == 200
        size += len(body)
    conn.close()
    return ok, size


def _favicon(port: int, n: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("GET", "/favicon.png")
    response = conn.getresponse()
    response.read()
    etag = response.getheader("ETag") or ""
    not_modified = 0
    for _ in range(n):
        conn.request("GET", "/favicon.png", headers={"If-None-Match": etag})
        response = conn.getresponse()
        response.read()
        not_modified += response.status == 304
    conn.close()
    return not_modified


def measure(entry: str, visitors: int) -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", entry, "--server.port", str(port),
                               "--server.address", "127.0.0.1"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        paths = _paths()
        _visit(port, paths)  # the first visit reads the files from disk; a class's later visitors find them cached
        before = cpu_seconds(server.pid)
        for _ in range(visitors):
            ok, size = _visit(port, paths)
        per_visitor = (cpu_seconds(server.pid) - before) / visitors
        before = cpu_seconds(server.pid)
        not_modified = _favicon(port, 100)
        per_favicon = (cpu_seconds(server.pid) - before) / 100
        print(f"{entry}: {len(paths)} requests a visitor ({ok} answered 200, {size / 1e6:.1f} MB); "
              f"server CPU {per_visitor:.3f} s a visitor; favicon {not_modified}/100 answered 304, "
              f"{per_favicon * 1000:.2f} ms each")
    finally:
        server.terminate()
        server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=20)
    args = parser.parse_args()
    for entry in ("dashboard/app.py", "dashboard/server.py"):
        measure(entry, args.visitors)


if __name__ == "__main__":
    main()
