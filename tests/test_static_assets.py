"""Issue 31: ``dashboard/static_assets.py`` answers Streamlit's front-end files as Streamlit's own handler does.

The reference is Streamlit's handler itself (``create_streamlit_static_handler``, what ``streamlit run`` mounts),
called through ASGI side by side with the middleware on the same requests: same status, same headers, same bytes,
for every file the middleware answers; everything else reaches Streamlit unchanged.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import sys
from pathlib import Path

import pytest
from streamlit import file_util
from streamlit.web.server.app_discovery import discover_asgi_app
from streamlit.web.server.starlette.starlette_static_routes import create_streamlit_static_handler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "dashboard"))
sys.path.insert(0, str(ROOT / "bench"))
import protocol  # noqa: E402
import static_assets  # noqa: E402  (the dashboard's modules import each other from dashboard/, as app.py does)

STATIC_DIR = Path(file_util.get_static_dir())


def _browser_paths() -> list[str]:
    """What chromium fetched on its first visit (bench/browser_requests.txt, read by bench/protocol.py, which finds
    a hashed file that another Streamlit version renamed), the files under static/."""
    found, _missing = protocol.browser_requests()
    return ["/" + p for p in found if p.startswith("static/")]


def _scope(path: str, headers: dict[str, str] | None = None, method: str = "GET", kind: str = "http") -> dict:
    return {
        "type": kind, "method": method, "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
        "scheme": "http", "server": ("127.0.0.1", 8501), "client": ("127.0.0.1", 50000), "http_version": "1.1",
        "asgi": {"version": "3.0", "spec_version": "2.3"},  # what uvicorn sends
    }


def _call(app, scope: dict) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request through an ASGI app as uvicorn makes it: the request, then a disconnect once answered."""
    messages: list[dict] = []

    async def run() -> None:
        answered = asyncio.Event()
        requested = False

        async def receive():
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await answered.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            messages.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered.set()

        await asyncio.wait_for(app(scope, receive, send), 30)

    asyncio.run(run())
    start = messages[0]
    assert start["type"] == "http.response.start"
    headers = {k.lower(): v for k, v in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in messages[1:])


class _Recorder:
    """Stands for Streamlit's app behind the middleware: records what reached it."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b"streamlit"})


@pytest.fixture(scope="module")
def streamlit_handler():
    return create_streamlit_static_handler(directory=str(STATIC_DIR), base_url=None)


@pytest.fixture
def middleware():
    inner = _Recorder()
    return static_assets.StaticAssets(inner, directory=STATIC_DIR, base_url=""), inner


def test_every_file_a_browser_fetched_is_answered_as_streamlit_answers_it(streamlit_handler, middleware):
    mw, inner = middleware
    paths = _browser_paths() + ["/favicon.png"]
    assert len(paths) > 100  # the recorded first visit: ~150 files
    for path in paths:
        expected = _call(streamlit_handler, _scope(path))
        got = _call(mw, _scope(path))
        assert expected[0] == 200, path
        assert got == expected, path
    assert inner.paths == []  # none of them reached Streamlit


def test_every_file_of_the_folder_has_streamlits_headers(streamlit_handler, middleware):
    """All of Streamlit's static folder (fonts, images, source maps if any), headers only."""
    mw, inner = middleware
    assert len(mw.files) > 300
    for path in mw.files:
        expected = _call(streamlit_handler, _scope(path))
        got = _call(mw, _scope(path))
        assert (got[0], got[1], len(got[2])) == (expected[0], expected[1], len(expected[2])), path
    assert inner.paths == []


@pytest.mark.parametrize("headers,status", [
    ({"If-None-Match": "{etag}"}, 304),
    ({"If-None-Match": 'W/"x", {etag}'}, 304),
    ({"If-None-Match": '"stale"'}, 200),
    ({"If-Modified-Since": "{last_modified}"}, 304),
    ({"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}, 200),
    ({"If-Modified-Since": "not a date"}, 200),
    ({"If-None-Match": '"stale"', "If-Modified-Since": "{last_modified}"}, 200),  # If-None-Match decides
])
def test_conditional_requests_as_streamlit(streamlit_handler, middleware, headers, status):
    """The favicon is asked for again after every run, conditionally: 304 with the same validators, or the file."""
    mw, _ = middleware
    path = "/favicon.png"
    first = _call(streamlit_handler, _scope(path))[1]
    filled = {k: v.format(etag=first[b"etag"].decode(), last_modified=first[b"last-modified"].decode())
              for k, v in headers.items()}
    expected = _call(streamlit_handler, _scope(path, filled))
    got = _call(mw, _scope(path, filled))
    assert got == expected
    assert got[0] == status


@pytest.mark.parametrize("path,headers,method,kind", [
    ("/", {}, "GET", "http"),  # index.html: no-cache, Streamlit's
    ("/Omnibus_tests", {}, "GET", "http"),  # a page's URL: Streamlit's fallback to index.html
    ("/manifest.json", {}, "GET", "http"),
    ("/index.html", {}, "GET", "http"),
    ("/static/js/not-there.js", {}, "GET", "http"),
    ("/static/../index.html", {}, "GET", "http"),
    ("/static/js/", {}, "GET", "http"),
    ("/_stcore/health", {}, "GET", "http"),
    ("/_stcore/stream", {}, "GET", "websocket"),
    ("{first}", {}, "HEAD", "http"),
    ("{first}", {}, "POST", "http"),
    ("{first}", {"Range": "bytes=0-9"}, "GET", "http"),
    ("{first}/", {}, "GET", "http"),
    ("{first_upper}", {}, "GET", "http"),
])
def test_anything_else_reaches_streamlit_unchanged(middleware, path, headers, method, kind):
    mw, inner = middleware
    first = _browser_paths()[0]
    path = path.format(first=first, first_upper=first.upper())
    assert _call(mw, _scope(path, headers, method, kind)) == (299, {}, b"streamlit")
    assert inner.paths == [path]


def test_under_a_base_url(streamlit_handler):
    """``server.baseUrlPath``: the files are answered under it, and only there."""
    inner = _Recorder()
    mw = static_assets.StaticAssets(inner, directory=STATIC_DIR, base_url="/course/")
    first = _browser_paths()[0]
    status, headers, body = _call(mw, _scope("/course" + first))
    assert (status, headers, body) == _call(streamlit_handler, _scope(first))
    assert _call(mw, _scope(first))[0] == 299
    assert inner.paths == [first]


def test_defaults_are_streamlits_folder_and_base_url(monkeypatch):
    from streamlit import config

    monkeypatch.setattr(config, "get_option", lambda name: "/x/" if name == "server.baseUrlPath" else None)
    mw = static_assets.StaticAssets(_Recorder())
    assert "/x/favicon.png" in mw.files
    assert all(p.startswith("/x/static/") or p == "/x/favicon.png" for p in mw.files)
    assert len([p for p in mw.files if p.startswith("/x/static/")]) == sum(
        1 for p in (STATIC_DIR / "static").rglob("*") if p.is_file())


def test_not_modified_rule_matches_starlettes():
    """The validators' rule, against Starlette's ``StaticFiles.is_not_modified`` on made-up headers."""
    from starlette.datastructures import Headers
    from starlette.staticfiles import StaticFiles

    f = static_assets.asset_table(STATIC_DIR)["/favicon.png"]
    etag = f.etag.decode()
    modified = email.utils.formatdate(email.utils.mktime_tz((*f.last_modified[:9], 0)), usegmt=True)
    later = "Sat, 01 Jan 2101 00:00:00 GMT"
    earlier = "Thu, 01 Jan 1970 00:00:00 GMT"
    response_headers = Headers(raw=[(k, v) for k, v in f.headers])
    cases = [{}, {"if-none-match": etag}, {"if-none-match": f"W/{etag}"}, {"if-none-match": f'"a", {etag} ,"b"'},
             {"if-none-match": '"a"'}, {"if-modified-since": modified}, {"if-modified-since": later},
             {"if-modified-since": earlier}, {"if-modified-since": "garbage"},
             {"if-none-match": '"a"', "if-modified-since": later},
             {"if-none-match": etag, "if-modified-since": earlier}]
    for case in cases:
        expected = StaticFiles.is_not_modified(None, response_headers, Headers(case))
        assert f.not_modified({k.encode(): v.encode() for k, v in case.items()}) == expected, case


def test_server_entry_point_is_streamlits_asgi_app_with_the_middleware():
    """``streamlit run dashboard/server.py`` finds the st.App (Streamlit's own discovery) and serves app.py."""
    found = discover_asgi_app(ROOT / "dashboard" / "server.py")
    assert found.is_asgi_app and found.import_string == "server:app"
    source = (ROOT / "dashboard" / "server.py").read_text()
    assert 'st.App("app.py", middleware=[Middleware(StaticAssets)])' in source


def test_the_server_entry_point_sets_the_servers_gil_switch_interval():
    """Issue 31: ``dashboard/server.py`` (the server of scripts/run.sh and of Community Cloud) lets a thread hold the GIL
    limits.SERVER_SWITCH_INTERVAL (20 ms) instead of Python's 5 ms, in the server's process only: the app's own
    module (app.py, which AppTest runs in the test process) leaves it alone."""
    import subprocess
    import sys

    from compare_lib import limits

    code = ("import sys; before = sys.getswitchinterval(); sys.path.insert(0, '.'); import server; "
            "print(before, sys.getswitchinterval())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "dashboard", capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert float(out[0]) == 0.005 and float(out[1]) == limits.SERVER_SWITCH_INTERVAL == 0.02
    assert "setswitchinterval" not in (ROOT / "dashboard" / "app.py").read_text()


_HEAPS = '''
import ctypes, os, sys, tempfile, threading
sys.path.insert(0, ".")
if sys.argv[1] == "server":
    import server
import pyarrow as pa
import numpy as np

held, gate = [], threading.Barrier(9)
def run():
    held.append(np.ones(50_000))  # 400 kB: from the heap of this thread (below glibc's mmap threshold)
    gate.wait()
threads = [threading.Thread(target=run) for _ in range(8)]
for t in threads:
    t.start()
gate.wait()
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
path = os.path.join(tempfile.mkdtemp(), "info.xml")
f = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, f)
libc.fclose(f)
print(open(path).read().count("<heap nr="), pa.default_memory_pool().backend_name)
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heaps (malloc_info)")
def test_the_server_entry_point_gives_threads_two_heaps_and_arrow_glibcs_allocator():
    """Issue 31: ``dashboard/server.py`` limits glibc to limits.ALLOCATOR_ARENA_MAX (2) heaps, however many threads
    allocate (every page run is a thread), and makes Arrow allocate from glibc rather than mimalloc, which kept the
    memory of ended threads; bench/uploads.py measured 395-406 MB instead of 417-420 MB for 10 held 10 MB tables.
    Without server.py (the test process, AppTest), nine allocating threads get more heaps and Arrow its own pool."""
    import subprocess

    from compare_lib import limits

    env = {k: v for k, v in os.environ.items() if k not in ("MALLOC_ARENA_MAX", "ARROW_DEFAULT_MEMORY_POOL")}

    def heaps(mode: str) -> tuple[int, str]:
        out = subprocess.run([sys.executable, "-c", _HEAPS, mode], cwd=ROOT / "dashboard", capture_output=True,
                             text=True, timeout=120, check=True, env=env).stdout.split()
        return int(out[0]), out[1]

    assert limits.ALLOCATOR_ARENA_MAX == 2
    assert heaps("server") == (2, "system")
    plain, pool = heaps("plain")
    assert plain > 2 and pool != "system"
