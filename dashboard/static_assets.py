"""Streamlit's own front-end files, answered before Streamlit's middleware and static handler (issue 31).

A new visitor's browser fetches about 150 of Streamlit's hashed JavaScript, CSS and font files (11.5 MB, once: they
are cached for a year). Streamlit serves each through its path-security, session and gzip middleware, its router and
Starlette's ``StaticFiles`` (a path resolution, a ``stat`` and every 64 KB read in a worker thread): 0.45 s of the
server's CPU per visitor on a 2-core machine, the largest part of what a class arriving at once costs the one
process that serves every session. :class:`StaticAssets` answers exactly those files (an exact match against the
files present in Streamlit's static folder when the server starts: no path is resolved, so nothing outside the
folder can be named) with one read and the same headers, 0.12 s a visitor; any other request, or one for a byte
range, goes on to Streamlit unchanged. ``bench/static_files.py`` measures both; ``tests/test_static_assets.py``
compares every answer with Streamlit's handler's.

It is installed by ``dashboard/server.py`` through ``st.App``, Streamlit's documented way to add ASGI middleware.
"""

from __future__ import annotations

import email.utils
import hashlib
import mimetypes
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Streamlit's cache lifetime for its hashed files (``STATIC_ASSET_CACHE_MAX_AGE_SECONDS``, one year); the test
#: compares every header with Streamlit's own answer, so a change there fails it.
_CACHE_CONTROL = b"public, immutable, max-age=31536000"

#: Served from the folder's root besides ``static/``: the favicon, which the browser asks for again after every run
#: (Streamlit marks it immutable too). ``index.html`` and ``manifest.json`` stay Streamlit's (no-cache, and the
#: page's fallback for every page URL).
_ROOT_FILES = ("favicon.png",)


class _File:
    __slots__ = ("path", "headers", "etag", "last_modified")

    def __init__(self, path: Path) -> None:
        stat = path.stat()
        # Starlette's FileResponse validators, so that a browser's cached copy stays valid whichever answered it.
        etag = '"' + hashlib.md5(f"{stat.st_mtime}-{stat.st_size}".encode(), usedforsecurity=False).hexdigest() + '"'
        last_modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        content_type = mimetypes.guess_type(path.name)[0] or "text/plain"
        if content_type.startswith("text/"):
            content_type += "; charset=utf-8"
        self.path = str(path)
        self.etag = etag.encode()
        self.last_modified = email.utils.parsedate(last_modified)
        self.headers = [
            (b"content-type", content_type.encode()),
            (b"accept-ranges", b"bytes"),
            (b"last-modified", last_modified.encode()),
            (b"etag", self.etag),
            (b"cache-control", _CACHE_CONTROL),
        ]

    def not_modified(self, headers: dict[bytes, bytes]) -> bool:
        """Starlette's rule: ``If-None-Match`` decides when sent, else ``If-Modified-Since``."""
        if_none_match = headers.get(b"if-none-match")
        if if_none_match is not None:
            return self.etag in {tag.strip().removeprefix(b"W/") for tag in if_none_match.split(b",")}
        since = headers.get(b"if-modified-since")
        if since is None:
            return False
        parsed = email.utils.parsedate(since.decode("latin-1"))
        return parsed is not None and self.last_modified is not None and parsed >= self.last_modified


def asset_table(directory: str | Path, base_url: str = "") -> dict[str, _File]:
    """URL path → file, for every file under ``directory/static`` and the root files, under the base URL."""
    root = Path(directory)
    base = base_url.strip("/")
    prefix = f"/{base}/" if base else "/"
    files = [p for p in (root / "static").rglob("*") if p.is_file()]
    files += [root / name for name in _ROOT_FILES if (root / name).is_file()]
    return {prefix + p.relative_to(root).as_posix(): _File(p) for p in files}


class StaticAssets:
    """ASGI middleware: a ``GET`` for one of Streamlit's static files is answered here, anything else passes on.

    ``directory`` and ``base_url`` default to Streamlit's static folder and ``server.baseUrlPath``, read when the
    server builds its middleware (after the configuration is loaded).
    """

    def __init__(self, app: ASGIApp, directory: str | Path | None = None, base_url: str | None = None) -> None:
        from streamlit import config, file_util

        self.app = app
        if base_url is None:
            base_url = config.get_option("server.baseUrlPath") or ""
        self.files = asset_table(directory or file_util.get_static_dir(), base_url)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            found = self.files.get(scope["path"])
            if found is not None:
                headers = dict(scope["headers"])
                if b"range" not in headers:  # ranges (never asked for these files) stay Streamlit's
                    await _answer(found, headers, send)
                    return
        await self.app(scope, receive, send)


async def _answer(found: _File, headers: dict[bytes, bytes], send: Send) -> None:
    if found.not_modified(headers):
        await send({"type": "http.response.start", "status": 304, "headers": [(b"etag", found.etag)]})
        await send({"type": "http.response.body", "body": b""})
        return
    # One read in the event loop: these are the package's own files (at most 5 MB, plotly's; a millisecond or two
    # once in the page cache, after the first visitor); a worker thread per 64 KB is what cost Streamlit's handler.
    with open(found.path, "rb") as f:
        body = f.read()
    headers_out = [*found.headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers_out})
    await send({"type": "http.response.body", "body": body})
