"""The memory allocators of the dashboard's server process (issue 31), apart from Streamlit: ``server.py`` sets them
before anything else is imported, and ``state`` tunes and trims them while the app runs. No Streamlit import here:
a module imported by ``server.py`` must not create Streamlit's caches before its runtime exists."""

from __future__ import annotations

import os
from typing import Any

#: glibc's ``mallopt`` parameters (malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8

_libc: list[Any] = [None]  # the C library once loaded (False: not glibc)


def glibc() -> Any:
    """glibc through ctypes, or False where the C library is another (macOS, Windows, musl)."""
    import ctypes
    import ctypes.util

    if _libc[0] is None:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            libc.malloc_trim.argtypes = [ctypes.c_size_t]
            libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
            _libc[0] = libc
        except (OSError, AttributeError):  # not glibc
            _libc[0] = False
    return _libc[0]


def arrow_from_glibc() -> None:
    """Arrow's buffers (pandas' strings, Streamlit's frames) from glibc rather than Arrow's own allocator (mimalloc),
    which kept memory for the page-run threads that had ended. Called by ``server.py`` before pyarrow is imported
    (``ARROW_DEFAULT_MEMORY_POOL`` is read then); an operator's own setting is kept. Measured in
    ``compare_lib.limits.ALLOCATOR_ARENA_MAX``."""
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")


def limit_heaps(arena_max: int) -> bool:
    """At most ``arena_max`` glibc heaps for the process's threads (by default up to 8 per core): every page run is a
    new thread, and each could take a heap of its own, whose free memory only that heap reuses. Called by
    ``server.py`` before the server starts its threads. Returns False where there is no glibc."""
    libc = glibc()
    return bool(libc) and bool(libc.mallopt(M_ARENA_MAX, arena_max))
