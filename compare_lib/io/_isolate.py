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
once) each worker is forked from a fork server (:class:`_ForkServer`): an interpreter started once, with one
thread, that imported the readers and never reads any input, so that a call waits milliseconds for its worker
instead of the second an interpreter takes to start, and the workers share the imported modules' memory with it;
without it (a library's caller, or not on Linux), each call starts its own interpreter. At most
:data:`MAX_CHILDREN` calls run at once
(others wait their turn in a queue, below). An :class:`~compare_lib.errors.InputError`
raised in the worker is raised again in the caller; a worker that dies, runs out of memory or of time
becomes an ``InputError`` that names the file and the limit.

Many calls at once (a class loading its files, issue 31): the calls beyond :data:`MAX_CHILDREN` wait in one
server-wide first-in, first-out queue (:class:`ReadQueue`), so that at most :data:`MAX_CHILDREN` workers (each
within its memory limit) exist at a time, whoever asks. A caller that must wait is told its place through
``on_wait(position, waiting)`` (1 = next; called again whenever it moves, and with position 0 once its turn has
come), which the dashboard turns into a message; :func:`queue_status` tells anyone how many calls run and wait.
The wait has its own limit (``wait_seconds``); the read's time limit starts when its worker does.

Memory (issue 31: a 41.9 MB upload peaked the server's processes at over 1 GB): the caller holds as little as
it can. A large ``bytes`` argument is not pickled into the call (a copy in the caller, and two in the worker, which
read the whole pipe and then unpickled it): it is written to a private temporary file that the worker reads
once and the caller deletes when the call ends. The result comes back pickled with protocol 5 and its large
buffers (numpy and Arrow arrays) sent out of band, each read into its own buffer that the unpickled arrays then
use in place (PEP 574), instead of a whole pickle read into memory and then copied into the arrays. A caller that
must wait for its turn can hold its input on disk meanwhile: a :class:`Spooled` argument is read by the worker from
its file.

Files (issue 31): what this process writes for the readers (spooled uploads, large arguments) is in its own private
folder, :func:`scratch_dir`, and each call's worker writes its temporary files in a folder of its call, removed
when the call ends, even when the worker was killed. The folder goes when the process exits; a server that was
killed leaves it behind, and :func:`remove_stale_scratch` (called by :func:`warm_up`, at the dashboard's start)
removes those of processes that no longer run.

Limits: ``RLIMIT_AS`` is enforced on Linux (on macOS and Windows only the time limit applies); the
arguments and the result are pickled, so they must be picklable.
"""

from __future__ import annotations

import atexit
import collections
import itertools
import os
import pickle
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from compare_lib import limits
from compare_lib.errors import InputError, marked

__all__ = ["run_isolated", "in_child", "MAX_CHILDREN", "warm_up", "ReadQueue", "queue_status", "scratch_dir",
           "remove_stale_scratch"]

#: Calls running at once in workers (each may use its memory limit).
MAX_CHILDREN = limits.APP_READ_WORKERS
#: ``bytes`` arguments at least this long go to the worker in a temporary file rather than in the pickled call.
FILE_ARGUMENT_BYTES = 1 << 16


class ReadQueue:
    """At most ``slots`` holders at once; the others wait in first-in, first-out order (a ticket queue: a newcomer
    never overtakes a waiting call, unlike a semaphore, whose waiters wake in no particular order).

    :meth:`acquire` returns at once when a slot is free and nobody waits; otherwise it queues the caller, calls
    ``on_wait(position, waiting)`` in the caller's thread (1-based position, number of calls waiting) at first and
    whenever either changes, and ``on_wait(0, waiting)`` once when the slot is taken after a wait. An exception
    raised by ``on_wait`` (a page whose visitor left) leaves the queue and propagates. :meth:`status` is what a
    page can poll. The tickets are those of the ticket lock (J. M. Mellor-Crummey, M. L. Scott, Algorithms for
    scalable synchronization on shared-memory multiprocessors, ACM TOCS 9(1), 1991), kept in a list so that each
    waiting call can be told its place."""

    def __init__(self, slots: int):
        if slots < 1:
            raise ValueError("a queue needs at least one slot")
        self.slots = slots
        self._cond = threading.Condition()
        self._running = 0
        self._waiting: collections.deque[int] = collections.deque()
        self._tickets = itertools.count()

    def status(self) -> dict[str, int]:
        """``{"slots": ..., "running": ..., "waiting": ...}`` at this moment."""
        with self._cond:
            return {"slots": self.slots, "running": self._running, "waiting": len(self._waiting)}

    def acquire(self, timeout: float, on_wait: Callable[[int, int], Any] | None = None) -> bool:
        """Take a slot, waiting at most ``timeout`` seconds in the queue; False when the time ran out."""
        with self._cond:
            if self._running < self.slots and not self._waiting:
                self._running += 1
                return True
            ticket = next(self._tickets)
            self._waiting.append(ticket)
        deadline = time.monotonic() + timeout
        told, holding = None, False
        try:
            while True:
                with self._cond:
                    while True:
                        position = self._waiting.index(ticket) + 1
                        if position == 1 and self._running < self.slots:
                            self._waiting.popleft()
                            self._running += 1
                            holding = True
                            self._cond.notify_all()  # the others move up one place
                            now = (0, len(self._waiting))
                            break
                        left = deadline - time.monotonic()
                        if left <= 0:
                            self._waiting.remove(ticket)
                            self._cond.notify_all()
                            return False
                        now = (position, len(self._waiting))
                        if now != told and on_wait is not None:
                            break  # tell the caller, outside the lock (on_wait may draw a page, or raise)
                        self._cond.wait(left)
                told = now
                if on_wait is not None:
                    on_wait(*now)
                if holding:
                    return True
        except BaseException:
            with self._cond:
                if holding:
                    self._running -= 1  # the slot was taken, then on_wait raised: give it back
                elif ticket in self._waiting:
                    self._waiting.remove(ticket)
                self._cond.notify_all()
            raise

    def release(self) -> None:
        with self._cond:
            if self._running <= 0:
                raise ValueError("release() without acquire()")
            self._running -= 1
            self._cond.notify_all()


_queue = ReadQueue(MAX_CHILDREN)


def queue_status() -> dict[str, int]:
    """How many isolated calls run (at most :data:`MAX_CHILDREN`) and wait, server-wide, at this moment."""
    return _queue.status()

#: True inside a worker: a nested call runs its function directly.
_IN_CHILD = False
#: What a worker imports before it waits for its call.
_PRELOAD = ("pandas", "compare_lib.io", "compare_lib.io._excel", "compare_lib.io._csv", "compare_lib.io._layout")
_WORKER = "from compare_lib.io._isolate import _serve_stdio; _serve_stdio()"
_FORK_SERVER = "import sys; from compare_lib.io._isolate import _fork_server; _fork_server(int(sys.argv[1]))"
#: Seconds a call waits for the fork server to answer with its worker's pid (it may still be importing the readers)
#: before it starts a fresh interpreter instead.
FORK_WAIT_SECONDS = 30.0


def in_child() -> bool:
    """True when the caller already runs inside an isolated worker."""
    return _IN_CHILD


_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding compare_lib, installed or not


def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["RUST_BACKTRACE"] = "0"  # a native reader's panic prints one line, not a stack
    # The memory limit counts reserved address space: allocators that reserve gigabytes up front (Arrow's
    # default pool, one malloc arena per thread, BLAS thread buffers) would hit it with nothing allocated.
    env.update(ARROW_DEFAULT_MEMORY_POOL="system", MALLOC_ARENA_MAX="2", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    # pyarrow's bundled jemalloc starts a background thread when imported, even when its pool is not used: without
    # it, the fork server has one thread, the only kind of process that forks safely.
    env["JE_ARROW_MALLOC_CONF"] = "background_thread:false"
    # A buffer of 4 MB or more on its own pages, given back when freed, as in the dashboard's server (issue 31:
    # dashboard/state.tune_allocator): glibc would otherwise keep a parse's large intermediate buffers in its heap
    # for the rest of the call.
    env.update(MALLOC_MMAP_THRESHOLD_=str(limits.ALLOCATOR_MMAP_THRESHOLD),
               MALLOC_TRIM_THRESHOLD_=str(limits.ALLOCATOR_TRIM_THRESHOLD))
    return env


def _start_worker() -> subprocess.Popen:
    """A fresh interpreter that serves one call (without the fork server: a library's caller, or no fork here)."""
    return subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=_worker_env(), cwd=_ROOT, close_fds=True)


_STATUS = struct.Struct("<q")


def _read_pipe(fd: int, size: int, deadline: float | None = None) -> bytes:
    """``size`` bytes from the pipe ``fd``, or fewer if it ends first; OSError if ``deadline`` (``time.monotonic``)
    passes first."""
    import select

    data = b""
    while len(data) < size:
        if deadline is not None and not select.select([fd], [], [], max(deadline - time.monotonic(), 0))[0]:
            raise OSError("no answer in time")
        chunk = os.read(fd, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


class _Forked:
    """A worker forked by the fork server, with what :func:`run_isolated` uses of a ``Popen``: ``stdin``,
    ``stdout``, :meth:`kill`, :meth:`wait`, :meth:`poll`. Its exit status comes from the fork server (its parent),
    which writes it into ``status`` once it has reaped it."""

    def __init__(self, pid: int, stdin, stdout, status: int):
        self.pid, self.stdin, self.stdout, self._status = pid, stdin, stdout, status
        self.returncode: int | None = None
        self._ended = False

    def _read_status(self, block: bool) -> None:
        if self._ended:
            return
        if not block:
            import select

            if not select.select([self._status], [], [], 0)[0]:
                return
        data = _read_pipe(self._status, _STATUS.size)  # short: the fork server was killed before it could tell
        self._ended = True
        os.close(self._status)
        if len(data) == _STATUS.size:
            self.returncode = _STATUS.unpack(data)[0]

    def poll(self) -> int | None:
        self._read_status(block=False)
        return self.returncode

    def wait(self) -> int | None:
        self._read_status(block=True)
        return self.returncode

    def kill(self) -> None:
        self._read_status(block=False)
        if not self._ended:  # not yet reaped by the fork server, so the pid is still this worker's
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class _ForkServer:
    """An interpreter that has imported the readers once and forks one worker per call (issue 31).

    Why: a fresh interpreter per call costs about 0.8 s of CPU to start and import pandas and the readers (on the
    server's two cores, beside the pages), and holds its own ~70 MB of imported modules, so that a worker kept
    started for the next call doubled the readers' memory while a class uploaded. A worker forked from this
    server starts in milliseconds and shares the imported modules with it until it writes to them (copy on write;
    the server's objects are frozen out of the collector's reach, ``gc.freeze``, so that a collection in the
    worker does not copy them). The server itself never reads any input: each worker is a copy of it as it was
    after its imports, so nothing of one call survives into the next, as with a fresh interpreter. It is a fresh
    interpreter itself (``python -c``), with one thread, never a fork of the caller. (The workers share its
    string-hash seed, where fresh interpreters each drew their own; each read is still bounded by its time and CPU
    limits.)

    Protocol, over a Unix socket pair: for each call the caller sends one byte with three descriptors
    (``SCM_RIGHTS``): the read end of the call's pipe, the write end of the answer's pipe, and the write end of a
    status pipe, in which the server writes the worker's pid at once and its exit status (as ``Popen`` gives it:
    minus the signal's number when a signal ended it) once it has reaped it. When the caller's end of the socket
    closes (the dashboard's server ended), the server kills its workers and exits."""

    def __init__(self) -> None:
        import socket

        self._lock = threading.Lock()
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen([sys.executable, "-c", _FORK_SERVER, str(theirs.fileno())],
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, env=_worker_env(), cwd=_ROOT,
                                            pass_fds=(theirs.fileno(),))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._socket = ours

    def alive(self) -> bool:
        return self.process.poll() is None

    def fork(self) -> _Forked:
        """A new worker, its call's pipes connected; OSError when the server does not answer within
        :data:`FORK_WAIT_SECONDS`."""
        import socket

        job_r, job_w = os.pipe()
        answer_r, answer_w = os.pipe()
        status_r, status_w = os.pipe()
        try:
            with self._lock:
                socket.send_fds(self._socket, [b"F"], [job_r, answer_w, status_w])
        except BaseException:
            for fd in (job_w, answer_r, status_r):
                os.close(fd)
            raise
        finally:
            for fd in (job_r, answer_w, status_w):
                os.close(fd)
        try:
            data = _read_pipe(status_r, _STATUS.size, time.monotonic() + FORK_WAIT_SECONDS)
            if len(data) < _STATUS.size:
                raise OSError("the fork server ended, or refused this fork")
        except BaseException:
            for fd in (job_w, answer_r, status_r):
                os.close(fd)
            raise
        (pid,) = _STATUS.unpack(data)
        return _Forked(pid, os.fdopen(job_w, "wb"), os.fdopen(answer_r, "rb"), status_r)

    def close(self) -> None:
        """End the server (it kills the workers it has running)."""
        self._socket.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_server_lock = threading.Lock()
_server: _ForkServer | None = None
_use_fork_server = False


def _fork_server_available() -> bool:
    """Where the fork server is used: Linux (``fork`` of an interpreter that has imported pandas is not safe on
    macOS, and Windows has no ``fork``)."""
    import socket

    return sys.platform.startswith("linux") and hasattr(socket, "send_fds")


def _ensure_server() -> _ForkServer | None:
    """The running fork server, started (again) if it is not running; None when it is not used or cannot start."""
    global _server
    if not _use_fork_server:
        return None
    with _server_lock:
        if _server is not None and not _server.alive():
            _server.close()
            _server = None
        if _server is None:
            try:
                _server = _ForkServer()
            except OSError:
                return None
        return _server


def _take_worker() -> subprocess.Popen | _Forked:
    """A worker for one call: forked by the fork server when it runs, else a fresh interpreter."""
    server = _ensure_server()
    if server is not None:
        try:
            return server.fork()
        except OSError:  # the server died or hangs: this call starts its own; the next call starts a new server
            with _server_lock:
                global _server
                if _server is server:
                    _server = None
            threading.Thread(target=server.close, name="fork-server-close", daemon=True).start()
    return _start_worker()


def warm_up() -> None:
    """From now on, fork each call's worker from a server that has imported the readers (the dashboard calls this
    once): a call then waits milliseconds for its worker, not the second an interpreter takes to start."""
    global _use_fork_server
    remove_stale_scratch()
    if not _fork_server_available():
        return
    _use_fork_server = True
    _ensure_server()


def stop_fork_server() -> None:
    """End the fork server and start each call's worker fresh again (for tests, and a caller that is done)."""
    global _use_fork_server, _server
    _use_fork_server = False
    with _server_lock:
        server, _server = _server, None
    if server is not None:
        server.close()


def _fork_server(fd: int) -> None:
    """The fork server's loop (see :class:`_ForkServer`): import the readers, then fork one worker per request
    arriving on the socket ``fd``, and report each worker's exit status. One thread; the SIGCHLD of an ended
    worker wakes the loop through a pipe (``signal.set_wakeup_fd``)."""
    global _IN_CHILD
    _IN_CHILD = True
    import gc
    import importlib
    import select
    import socket

    for name in _PRELOAD:
        importlib.import_module(name)
    gc.freeze()  # what the imports made is never traversed by a worker's collections: its pages stay shared
    control = socket.socket(fileno=fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    status: dict[int, int] = {}  # worker pid -> the write end of its status pipe
    poller = select.poll()
    poller.register(control, select.POLLIN)
    poller.register(wake_r, select.POLLIN)

    def report(pid: int, code: int) -> None:
        fd = status.pop(pid, None)
        if fd is not None:
            try:
                os.write(fd, _STATUS.pack(code))
            except OSError:  # the caller stopped waiting
                pass
            os.close(fd)

    while True:
        for ready, _ in poller.poll():
            if ready == wake_r:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                while True:
                    try:
                        pid, code = os.waitpid(-1, os.WNOHANG)
                    except ChildProcessError:
                        break
                    if pid == 0:
                        break
                    report(pid, os.waitstatus_to_exitcode(code))
                continue
            try:
                message, fds, _, _ = socket.recv_fds(control, 1, 3)
            except OSError:
                message, fds = b"", []
            if not message:  # the caller's end closed: the dashboard's server has ended
                for pid in status:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                os._exit(0)
            if len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                continue
            job, answer, done = fds
            try:
                pid = os.fork()
            except OSError:  # no process to be had (memory, process limit): this call fails, the server goes on
                for fd in fds:
                    os.close(fd)  # the caller reads the end of its status pipe: it starts a fresh interpreter
                continue
            if pid == 0:
                code = 1
                try:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    for fd in (wake_r, wake_w, done, *status.values()):
                        os.close(fd)
                    control.close()
                    with os.fdopen(job, "rb") as stdin, os.fdopen(answer, "wb") as stdout:
                        _serve(stdin, stdout)
                    code = 0
                finally:
                    os._exit(code)
            os.close(job)
            os.close(answer)
            status[pid] = done
            try:
                os.write(done, _STATUS.pack(pid))
            except OSError:
                pass


#: The name of a process's scratch folder in the temporary folder: ``compare-<pid>-<random>``.
_SCRATCH = re.compile(r"compare-(\d+)-[A-Za-z0-9_]+")
_scratch_lock = threading.Lock()
_scratch: dict[str, str] = {}  # temporary folder -> this process's scratch folder in it


def scratch_dir() -> str:
    """This process's private folder (mode 0700) for what it writes for the readers: spooled uploads, large
    arguments, and each call's folder, in which its worker writes its own temporary files. Made once per temporary
    folder (``tempfile.gettempdir()``); removed when the process exits normally, and by :func:`remove_stale_scratch`
    (the dashboard's start) when it did not: a server that was killed leaves no visitor's file behind for good.
    OSError when it cannot be made."""
    base = tempfile.gettempdir()
    with _scratch_lock:
        path = _scratch.get(base)
        if path is None or not os.path.isdir(path):
            path = tempfile.mkdtemp(prefix=f"compare-{os.getpid()}-", dir=base)
            _scratch[base] = path
            atexit.register(shutil.rmtree, path, True)
    return path


def _pid_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_scratch() -> list[str]:
    """Remove, from the temporary folder, the scratch folders (:func:`scratch_dir`) of this user's processes that no
    longer run, with what they held; returns their paths. A folder whose process runs (or whose number a new process
    took) is kept."""
    removed: list[str] = []
    base = tempfile.gettempdir()
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for entry in entries:
        match = _SCRATCH.fullmatch(entry.name)
        try:
            if (not match or not entry.is_dir(follow_symlinks=False)
                    or entry.stat(follow_symlinks=False).st_uid != os.getuid()):
                continue
        except OSError:
            continue
        pid = int(match.group(1))
        if pid == os.getpid() or _pid_runs(pid):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.path)
    return removed


def _call_dir() -> str | None:
    """A folder for one call, in this process's scratch folder: the worker's temporary folder, removed with all it
    holds when the call ends, even when its worker was killed (a reader that unpacks a zip into a temporary folder
    cannot clean up after SIGKILL). None when it cannot be made (the call then goes on without it)."""
    try:
        return tempfile.mkdtemp(prefix="call-", dir=scratch_dir())
    except OSError:
        return None


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _FileArgument:
    """A ``bytes`` argument that the worker reads from a temporary file instead of the pickled call."""

    __slots__ = ("path",)

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (_FileArgument, (self.path,))


class Spooled:
    """Bytes kept in a private temporary file (mode 0600) instead of memory, for as long as this object lives.

    Why (issue 31): a class uploading at once waits in the read queue, and each waiting upload held its bytes in
    the server's memory two or three times (Streamlit's copy, the page's, the cache key's): 30 files of 10 MB
    were over 450 MB before any was read. Spooled as soon as it arrives, an upload waits on disk; a worker of
    :func:`run_isolated` reads it from its file (it pickles as the file's path), and :meth:`read` gives the bytes
    back to anyone else. ``sha256`` (hex) and ``head`` (the first 64 KiB, for sniffing the format) are kept, so
    that a cache can key on the content and a page can look at the start without reading the file. The file is
    deleted by :meth:`close`, or when the object is garbage; if it cannot be written (a full or read-only disk)
    the bytes stay in memory, and the object works the same.
    """

    HEAD_BYTES = 1 << 16

    def __init__(self, data: bytes, name: str = "data"):
        import hashlib
        import weakref

        self.name, self.size = name, len(data)
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.head = bytes(data[: self.HEAD_BYTES])
        self._data: bytes | None = None
        self.path: str | None = None
        try:
            fd, path = tempfile.mkstemp(prefix="upload-", dir=scratch_dir())
        except OSError:
            self._data = bytes(data)
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError:
            _unlink(path)
            self._data = bytes(data)
            return
        self.path = path
        self._finalizer = weakref.finalize(self, _unlink, path)

    def read(self) -> bytes:
        """The bytes (read from the file once more: the caller holds the only copy)."""
        if self._data is not None:
            return self._data
        if self.path is None:
            raise ValueError(f"the spooled copy of {self.name!r} was closed")
        return Path(self.path).read_bytes()

    def close(self) -> None:
        """Delete the file now (the object can no longer be read)."""
        if self.path is not None:
            self._finalizer()
            self.path = None
        self._data = None

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        where = "memory" if self._data is not None else ("closed" if self.path is None else "disk")
        return f"Spooled({self.name!r}, {self.size:,} bytes, sha256 {self.sha256[:12]}…, on {where})"

    def __reduce__(self):
        # A worker gets the file's path and reads it there (_from_file); the caller keeps the file.
        if self.path is not None:
            return (_FileArgument, (self.path,))
        return (bytes, (self.read(),))


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _to_file(value: Any, files: list[str], folder: str | None = None) -> Any:
    """``value``, or a :class:`_FileArgument` when it is a large ``bytes``: written once to a private temporary
    file (mode 0600) in ``folder`` (the call's), whose path goes in ``files`` for the caller to delete. If it cannot
    be written (a full or read-only disk), the value is pickled into the call as before."""
    if not isinstance(value, (bytes, bytearray)) or len(value) < FILE_ARGUMENT_BYTES:
        return value
    try:
        fd, path = tempfile.mkstemp(prefix="argument-", dir=folder)
    except OSError:
        return value
    files.append(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(value)
    except OSError:
        return value
    return _FileArgument(path)


def _from_file(value: Any) -> Any:
    # read_bytes allocates the file's size once (a pipe read to its end grows and joins chunks)
    return Path(value.path).read_bytes() if isinstance(value, _FileArgument) else value


_HEADER = struct.Struct("<Q")


def _send(out, message: tuple) -> None:
    """``message`` pickled with protocol 5, its contiguous buffers out of band: the number of buffers, the length of
    each part (the pickle, then the buffers), then the parts, written from where they are (no joined copy)."""
    buffers: list[pickle.PickleBuffer] = []

    def out_of_band(buffer: pickle.PickleBuffer) -> bool:
        try:
            buffer.raw()
        except BufferError:  # neither C- nor Fortran-contiguous: in band
            return True
        buffers.append(buffer)
        return False

    try:
        main = pickle.dumps(message, protocol=5, buffer_callback=out_of_band)
    except MemoryError:
        buffers, main = [], pickle.dumps(("memory", ""))
    except Exception as err:  # an unpicklable result
        buffers, main = [], pickle.dumps(("error", f"{type(err).__name__}: {str(err)[:300]}"))
    parts = [memoryview(main), *(b.raw() for b in buffers)]
    out.write(_HEADER.pack(len(parts) - 1) + struct.pack(f"<{len(parts)}Q", *(p.nbytes for p in parts)))
    for part in parts:
        out.write(part)
    out.flush()


def _read_exactly(stream, size: int) -> bytearray:
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        n = stream.readinto(view[got:])
        if not n:
            raise EOFError("the worker's answer ended early")
        got += n
    return buffer


def _receive(stream, limit: int) -> tuple[bytearray, list[bytearray]]:
    """What :func:`_send` wrote: the pickle and its buffers, each read into its own ``bytearray`` (which the
    unpickled arrays then use). Sizes beyond ``limit`` bytes in all are refused before anything is allocated."""
    (count,) = _HEADER.unpack(_read_exactly(stream, _HEADER.size))
    if count > 1_000_000:
        raise ValueError("a malformed answer")
    sizes = struct.unpack(f"<{count + 1}Q", _read_exactly(stream, 8 * (count + 1)))
    if sum(sizes) > limit:
        raise ValueError("an answer larger than the worker could hold")
    parts = [_read_exactly(stream, size) for size in sizes]
    return parts[0], parts[1:]


def _serve_stdio() -> None:
    """A fresh interpreter's worker: import the readers, then serve one call from stdin to stdout."""
    global _IN_CHILD
    _IN_CHILD = True
    import importlib

    for name in _PRELOAD:
        importlib.import_module(name)
    _serve(sys.stdin.buffer, sys.stdout.buffer)


def _serve(stdin, stdout) -> None:
    """The worker: read one pickled call from ``stdin``, apply the limits, answer on ``stdout``."""
    data = stdin.read()
    if not data:  # the parent went away before giving a call
        return
    func, args, kwargs, memory_mb, cpu_seconds, folder = pickle.loads(data)
    del data
    if folder is not None:  # what the reader writes goes in the call's folder, removed by the caller in any case
        tempfile.tempdir = folder
        os.environ["TMPDIR"] = folder
    args = tuple(_from_file(a) for a in args)
    kwargs = {k: _from_file(v) for k, v in kwargs.items()}
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
    del args, kwargs  # the input is not needed to send the answer
    _send(stdout, message)


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
                 wait_seconds: float | None = None, on_wait: Callable[[int, int], Any] | None = None,
                 **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` computed in a worker process with limits; see the module docstring.

    ``func`` must be a module-level function and its arguments and result picklable. ``display`` names
    the input in messages; ``memory_mb`` is the memory the worker may use beyond its size at start,
    ``seconds`` the wall-clock time of the worker, ``cpu_seconds`` its CPU time (default: ``seconds``).
    ``what`` is the verb of the messages ("read"). When :data:`MAX_CHILDREN` calls are running, the call waits
    its turn at most ``wait_seconds`` (default: ``seconds``), calling ``on_wait(position, waiting)`` in this thread
    as its place changes (:class:`ReadQueue`).
    """
    if _IN_CHILD:
        return func(*(a.read() if isinstance(a, Spooled) else a for a in args),
                    **{k: v.read() if isinstance(v, Spooled) else v for k, v in kwargs.items()})
    wait_seconds = seconds if wait_seconds is None else wait_seconds
    if not _queue.acquire(wait_seconds, on_wait):
        raise InputError(
            f"File '{display}' was not {what}: "
            f"{'another file was' if MAX_CHILDREN == 1 else f'{MAX_CHILDREN} other files were'} being {what} on this "
            f"server and its turn did not come within {wait_seconds:g} s. Try again in a moment."
        )
    deadline = time.monotonic() + seconds
    timed_out, answer, code = False, {}, None
    files: list[str] = []
    folder = _call_dir()
    try:
        job = pickle.dumps((func, tuple(_to_file(a, files, folder) for a in args),
                            {k: _to_file(v, files, folder) for k, v in kwargs.items()}, memory_mb,
                            cpu_seconds or seconds, folder), protocol=pickle.HIGHEST_PROTOCOL)
        worker = _take_worker()
        assert worker.stdin is not None and worker.stdout is not None  # started with both pipes
        limit = max(memory_mb or 0, 256) * 2 ** 21  # twice the memory the worker may use

        def receive() -> None:
            try:
                answer["parts"] = _receive(worker.stdout, limit)
            except (OSError, EOFError, ValueError, struct.error, MemoryError):
                pass  # a worker that died or wrote nonsense: told by its exit status below

        try:
            worker.stdin.write(job)
            worker.stdin.close()
        except OSError:  # it died before reading the call
            pass
        del job
        # The answer is read in a thread so that this one can stop waiting at the deadline (a read has no timeout).
        reader = threading.Thread(target=receive, name="reader-answer", daemon=True)
        reader.start()
        reader.join(max(deadline - time.monotonic(), 0.01))
        if reader.is_alive():
            timed_out = True
            worker.kill()
            reader.join()
        code = worker.wait()
        worker.stdout.close()
    finally:
        _queue.release()
        for path in files:
            try:
                os.unlink(path)
            except OSError:
                pass
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    message = None
    if "parts" in answer and not timed_out:
        main, buffers = answer.pop("parts")
        try:
            message = pickle.loads(main, buffers=buffers)
        except Exception:  # a truncated or damaged answer
            message = None
        del main, buffers
    limit_text = f"the limits are {memory_mb:,} MB of memory and {seconds:g} s"
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
