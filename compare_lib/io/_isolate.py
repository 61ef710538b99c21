"""Running a reader of untrusted input in a child process, with limits on its memory and time.

Why: the spreadsheet readers are native code (calamine, in Rust). A crafted workbook can make them
abort the whole process (a failed allocation is not a Python exception) or raise a panic that is a
``BaseException``; and any parser holds the interpreter lock while it works, so in the dashboard one
visitor's hostile file would stop every other visitor's page. In a child process a crash is only the
child's, the parent waits on a pipe without holding the lock, and the limits are enforced by the
operating system.

:func:`run_isolated` sends a module-level function and its arguments (pickled) to a worker: a fresh
interpreter (``python -c``, never a fork of the caller, whose threads and ``__main__`` a child must not
inherit) that has already imported pandas and the readers. The worker limits its address space
(``RLIMIT_AS``: its size at start plus ``memory_mb``) and its CPU time, computes, sends the result
back and exits; the parent kills it after ``seconds`` of wall-clock time. Each worker serves one call,
so that nothing of one input survives into the next. After :func:`warm_up` (the dashboard calls it
once) a spare worker is kept started, so that a call does not wait for an interpreter to start (about
a second); without it, each call starts its own. At most :data:`MAX_CHILDREN` calls run at once
(others wait for a slot, within their own time limit). An :class:`~compare_lib.errors.InputError`
raised in the worker is raised again in the caller; a worker that dies, runs out of memory or of time
becomes an ``InputError`` that names the file and the limit.

Limits: ``RLIMIT_AS`` is enforced on Linux (on macOS and Windows only the time limit applies); the
arguments and the result are pickled, so they must be picklable.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .. import limits
from ..errors import InputError, marked

__all__ = ["run_isolated", "in_child", "MAX_CHILDREN", "warm_up"]

#: Calls running at once in workers (each may use its memory limit).
MAX_CHILDREN = limits.APP_READ_WORKERS

_slots = threading.BoundedSemaphore(MAX_CHILDREN)
_spare_lock = threading.Lock()
_spare: subprocess.Popen | None = None
_keep_spare = False
#: True inside a worker: a nested call runs its function directly.
_IN_CHILD = False
#: What a worker imports before it waits for its call.
_PRELOAD = ("pandas", "compare_lib.io", "compare_lib.io._excel", "compare_lib.io._csv", "compare_lib.io._layout")
_WORKER = "from compare_lib.io._isolate import _serve; _serve()"


def in_child() -> bool:
    """True when the caller already runs inside an isolated worker."""
    return _IN_CHILD


def _start_worker() -> subprocess.Popen:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # the folder holding compare_lib, installed or not
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["RUST_BACKTRACE"] = "0"  # a native reader's panic prints one line, not a stack
    # The memory limit counts reserved address space: allocators that reserve gigabytes up front (Arrow's
    # default pool, one malloc arena per thread, BLAS thread buffers) would hit it with nothing allocated.
    env.update(ARROW_DEFAULT_MEMORY_POOL="system", MALLOC_ARENA_MAX="2", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=root, close_fds=True)


def _refill() -> None:
    global _spare
    worker = _start_worker()
    with _spare_lock:
        if _spare is None and _keep_spare:
            _spare = worker
            return
    worker.kill()
    worker.wait()


def _take_worker() -> subprocess.Popen:
    global _spare
    with _spare_lock:
        worker, _spare = _spare, None
    if _keep_spare:
        threading.Thread(target=_refill, name="reader-spare", daemon=True).start()
    if worker is not None and worker.poll() is None:
        return worker
    return _start_worker()


def warm_up() -> None:
    """Keep a started worker ready from now on, so that a call does not wait for an interpreter to start."""
    global _keep_spare
    with _spare_lock:
        if _keep_spare:
            return
        _keep_spare = True
    threading.Thread(target=_refill, name="reader-spare", daemon=True).start()


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _serve() -> None:
    """The worker: import the readers, read one pickled call from stdin, apply the limits, answer on stdout."""
    global _IN_CHILD
    _IN_CHILD = True
    import importlib

    for name in _PRELOAD:
        importlib.import_module(name)
    data = sys.stdin.buffer.read()
    if not data:  # the parent went away before giving a call
        return
    func, args, kwargs, memory_mb, cpu_seconds = pickle.loads(data)
    del data
    try:
        import resource

        if memory_mb:
            budget = _vm_size() + memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (budget, budget))
        if cpu_seconds:
            seconds = int(cpu_seconds) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    except (ImportError, ValueError, OSError):  # no resource module (Windows) or not allowed: time limit only
        pass
    try:
        message: tuple = ("ok", func(*args, **kwargs))
    except InputError as err:
        message = ("input", err)  # pickled with its options (InputError.__reduce__), worded by the parent
    except MemoryError:
        message = ("memory", "")
    except BaseException as err:  # noqa: BLE001 - a panic of a native reader is a BaseException
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        message = ("error", f"{type(err).__name__}: {str(err)[:300]}")
    out = sys.stdout.buffer
    try:
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        payload = pickle.dumps(("memory", ""))
    except Exception as err:  # an unpicklable result
        payload = pickle.dumps(("error", f"{type(err).__name__}: {str(err)[:300]}"))
    out.write(payload)
    out.flush()


def _describe_death(code: int | None) -> str:
    if code is None:
        return "it did not answer"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        if name in ("SIGABRT", "SIGSEGV", "SIGBUS", "SIGKILL"):
            return f"it crashed ({name}), most likely by asking for more memory than it may use"
        if name == "SIGXCPU":
            return "it used up its CPU time"
        return f"it was stopped by {name}"
    return f"it ended with exit status {code}"


def run_isolated(func: Callable, /, *args: Any, display: str, memory_mb: int = limits.READ_MEMORY_MB,
                 seconds: float = limits.READ_SECONDS, cpu_seconds: float | None = None, what: str = "read",
                 **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` computed in a worker process with limits; see the module docstring.

    ``func`` must be a module-level function and its arguments and result picklable. ``display`` names
    the input in messages; ``memory_mb`` is the memory the worker may use beyond its size at start,
    ``seconds`` the wall-clock time (waiting for a free slot included), ``cpu_seconds`` its CPU time
    (default: ``seconds``). ``what`` is the verb of the messages ("read").
    """
    if _IN_CHILD:
        return func(*args, **kwargs)
    deadline = time.monotonic() + seconds
    job = pickle.dumps((func, args, kwargs, memory_mb, cpu_seconds or seconds), protocol=pickle.HIGHEST_PROTOCOL)
    if not _slots.acquire(timeout=seconds):
        raise InputError(
            f"File '{display}' was not {what}: {MAX_CHILDREN} other files are being {what} on this server and none "
            f"finished within {seconds:g} s. Try again in a moment."
        )
    timed_out = False
    try:
        worker = _take_worker()
        try:
            out, _ = worker.communicate(job, timeout=max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            timed_out = True
            worker.kill()
            out, _ = worker.communicate()
        code = worker.returncode
    finally:
        _slots.release()
    limit_text = f"the limits are {memory_mb:,} MB of memory and {seconds:g} s"
    message = None
    if out and not timed_out:
        try:
            message = pickle.loads(out)
        except Exception:  # a truncated answer: the worker died while writing
            message = None
    if message is None:
        if timed_out:
            raise InputError(
                f"File '{display}' was not {what}: reading it took longer than {seconds:g} s and was stopped "
                f"({limit_text}). A results table of a few megabytes reads in about a second: check that this "
                "is the file you meant, or export the sheet with the results as CSV."
            )
        raise InputError(
            f"File '{display}' could not be {what}: the reader stopped because {_describe_death(code)} "
            f"({limit_text}). The file may be damaged or crafted; open it in its program, save it again (or "
            "export the results as CSV) and load that copy."
        )
    kind, payload = message
    if kind == "ok":
        return payload
    if kind == "input":
        raise InputError(marked(payload))
    if kind == "memory":
        raise InputError(
            f"File '{display}' could not be {what}: it needs more than the {memory_mb:,} MB of memory a read may "
            "use here. Keep only the results in the file (other sheets, columns or rows removed), or export it "
            "as CSV."
        )
    raise InputError(
        f"File '{display}' could not be {what}: the reader failed ({payload}). The file may be damaged; open it in "
        "its program, save it again (or export the results as CSV) and load that copy."
    )
