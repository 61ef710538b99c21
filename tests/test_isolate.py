"""Issue 27: untrusted input is read in a worker process with limits (``compare_lib.io.run_isolated``).

A worker that aborts, runs out of memory or of time becomes a clear ``InputError``; an ``InputError`` in the
worker comes back as itself; the caller's other threads keep running while a worker holds its own
interpreter lock (the property that keeps a shared server answering).

Every test runs twice: with a fresh interpreter per call (a library's caller) and with each worker forked by the
fork server that the dashboard starts (``_isolate.warm_up``, issue 31).
"""

from __future__ import annotations

import os
import re
import threading
import time

import numpy as np
import pytest

import compare_lib as cl
from compare_lib.io import _isolate
from compare_lib.io._isolate import run_isolated

CSV = b"dataset,A,B,C\nd1,0.81,0.70,0.60\nd2,0.50,0.90,0.70\nd3,0.61,0.64,0.66\nd4,0.70,0.80,0.90\n"


# -- functions the worker runs (module level, so that the worker can import them) ------------------------

def _abort() -> None:
    os.abort()


def _allocate(mb: int) -> int:
    return int(np.ones(mb * 1024 * 1024 // 8).sum())


def _sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def _refuse() -> None:
    raise cl.InputError("File 'x.csv', line 3: a message from the worker")


class _Panic(BaseException):
    """Like pyo3's PanicException: a BaseException that is not an Exception."""


def _panic() -> None:
    raise _Panic("called `Option::unwrap()` on a `None` value")


def _hold_the_lock(n: int) -> bool:
    # One call into the regex engine that backtracks for a long time without releasing the interpreter lock.
    return re.fullmatch(r"(a+)+b", "a" * n) is not None


def _nested() -> tuple[bool, str]:
    return _isolate.in_child(), run_isolated(_sleep, 0, display="inner")


_MARK: list[str] = []


def _whoami(mark: str) -> tuple[int, int, list[str]]:
    """The worker's pid, its parent's, and the marks left in this module by earlier calls (none, if nothing of
    one call survives into the next), then leaves its own."""
    seen = list(_MARK)
    _MARK.append(mark)
    return os.getpid(), os.getppid(), seen


def _pid_then_sleep(path: str, seconds: float) -> str:
    with open(path, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(seconds)
    return "woke"


@pytest.fixture(autouse=True, params=["fresh", "forked"])
def worker_kind(request):
    """A fresh interpreter per call, or each worker forked by the fork server (the dashboard's way). The dashboard's
    AppTests of the same test run may have started one (ui.warm_up): "fresh" stops it first."""
    if request.param == "forked":
        _isolate.warm_up()
        assert _isolate._server is not None and _isolate._server.alive()
    else:
        _isolate.stop_fork_server()
        assert _isolate._server is None
    yield request.param
    _isolate.stop_fork_server()


def _alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _files(folder) -> list[str]:
    """The names of the files anywhere under ``folder``."""
    from pathlib import Path

    return sorted(p.name for p in Path(folder).rglob("*") if p.is_file())


def _leave_files_then_sleep(record: str, seconds: float) -> str:
    """What a reader that unpacks into a temporary folder leaves when it is killed: the folder and a file in it."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="items_")
    with open(os.path.join(folder, "member.csv"), "w") as f:
        f.write("dataset,A\n")
    with open(record + ".part", "w") as f:  # whole or absent: the test waits for it, then reads it
        f.write(f"{os.getpid()}\n{folder}")
    os.replace(record + ".part", record)
    time.sleep(seconds)
    return folder


def _wait_until(condition, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# -----------------------------------------------------------------------------------------------------

def test_a_read_in_the_worker_equals_the_read_in_process():
    here = cl.read_results(CSV, name="mine.csv")
    there = run_isolated(cl.read_results, CSV, display="mine.csv", name="mine.csv")
    assert there.metrics == here.metrics and there.classifiers == here.classifiers
    a, b = here.table(None, higher_is_better=True), there.table(None, higher_is_better=True)
    assert a.scores.equals(b.scores) and a.notes == b.notes


def test_an_input_error_in_the_worker_is_raised_as_itself():
    with pytest.raises(cl.InputError, match=r"^File 'x.csv', line 3: a message from the worker$"):
        run_isolated(_refuse, display="x.csv")


def test_a_worker_that_aborts_becomes_an_input_error_naming_the_file():
    with pytest.raises(cl.InputError, match=r"File 'crafted.xlsx' could not be read: .*crashed \(SIGABRT\)"):
        run_isolated(_abort, display="crafted.xlsx")


def test_a_worker_over_its_memory_limit_becomes_an_input_error_with_the_limit():
    with pytest.raises(cl.InputError, match=r"File 'big.ods' could not be read: .*200 MB"):
        run_isolated(_allocate, 2000, display="big.ods", memory_mb=200)
    assert run_isolated(_allocate, 50, display="small.ods", memory_mb=400) == 50 * 1024 * 1024 // 8


def test_a_worker_over_its_time_is_stopped_with_the_limit_named():
    with pytest.raises(cl.InputError, match=r"File 'slow.csv' was not read: reading it took longer than 1 s"):
        run_isolated(_sleep, 60, display="slow.csv", seconds=1)
    assert run_isolated(_sleep, 0, display="quick.csv", seconds=30) == "woke"


def test_a_panic_that_is_a_base_exception_becomes_an_input_error():
    with pytest.raises(cl.InputError, match=r"File 'w.xls' could not be read: the reader failed \(_Panic: called"):
        run_isolated(_panic, display="w.xls")


def test_a_call_inside_a_worker_runs_directly():
    assert run_isolated(_nested, display="outer") == (True, "woke")
    assert not _isolate.in_child()


def test_the_callers_threads_run_while_the_worker_holds_its_interpreter_lock():
    """In process, the backtracking call holds the lock: a ticking thread cannot tick until it returns. In a
    worker it ticks all along. Counted in ticks observed during the call, not in seconds."""
    n = 24
    ticks = 0
    running = threading.Event()
    done = threading.Event()

    def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            if running.is_set():
                ticks += 1
            time.sleep(0.005)

    thread = threading.Thread(target=ticker, daemon=True)
    thread.start()
    try:
        in_process = []
        for where in ("worker", "process"):
            ticks = 0
            running.set()
            if where == "worker":
                assert run_isolated(_hold_the_lock, n, display="t") is False
            else:
                assert _hold_the_lock(n) is False
            running.clear()
            in_process.append(ticks)
    finally:
        done.set()
        thread.join()
    worker_ticks, process_ticks = in_process
    # The in-process call lets the ticker run at most at its edges; the worker's call, throughout.
    assert process_ticks <= 3 < 20 <= worker_ticks, (worker_ticks, process_ticks)


# -- issue 31: what crosses between the caller and the worker -------------------------------------------------

def _digest_and_size(data: bytes) -> tuple[str, int, str]:
    import hashlib

    return hashlib.sha256(data).hexdigest(), len(data), type(data).__name__


def _big_array(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=n)


def test_a_large_bytes_argument_reaches_the_worker_whole_through_a_file_that_is_then_deleted(tmp_path, monkeypatch):
    import hashlib
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the temporary files go here, to be counted
    data = np.random.default_rng(1).bytes(3 * _isolate.FILE_ARGUMENT_BYTES + 7)
    made: list[str] = []
    real = _isolate._to_file

    def spy(value, files, folder=None):
        out = real(value, files, folder)
        made.extend(files)
        return out

    monkeypatch.setattr(_isolate, "_to_file", spy)
    assert run_isolated(_digest_and_size, data, display="big.csv") == (hashlib.sha256(data).hexdigest(), len(data),
                                                                       "bytes")
    assert made and all(p.startswith(str(tmp_path)) for p in made)  # it did go through a file
    assert _files(tmp_path) == []  # and the file is gone once the call ended, with the call's folder
    assert [p.name for p in tmp_path.iterdir()] == [os.path.basename(_isolate.scratch_dir())]
    small = b"dataset,A\n"
    assert run_isolated(_digest_and_size, small, display="s.csv") == (hashlib.sha256(small).hexdigest(), len(small),
                                                                      "bytes")


def test_a_spooled_argument_waits_on_disk_and_reaches_the_worker_whole(tmp_path, monkeypatch):
    """Issue 31: an upload spooled as it arrives holds no copy in memory while it waits for a reader; the worker
    reads its file (the caller keeps it: a sheet may still be chosen), and the file goes with the object."""
    import gc
    import hashlib
    import stat
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    data = np.random.default_rng(2).bytes(2 * cl.io.Spooled.HEAD_BYTES + 11)
    spooled = cl.io.Spooled(data, "upload.csv")
    assert spooled._data is None and spooled.path is not None  # on disk, not in memory
    assert stat.S_IMODE(os.stat(spooled.path).st_mode) == 0o600
    assert (spooled.name, spooled.size, len(spooled)) == ("upload.csv", len(data), len(data))
    assert spooled.sha256 == hashlib.sha256(data).hexdigest() and spooled.head == data[:cl.io.Spooled.HEAD_BYTES]
    assert spooled.read() == data
    expected = (hashlib.sha256(data).hexdigest(), len(data), "bytes")
    assert run_isolated(_digest_and_size, spooled, display="upload.csv") == expected  # the worker gets bytes
    assert run_isolated(_digest_and_size, spooled, display="upload.csv") == expected  # read again: still there
    assert _files(tmp_path) == [os.path.basename(spooled.path)]  # only the spooled file
    assert os.path.dirname(spooled.path) == _isolate.scratch_dir()  # in this process's own folder
    spooled.close()
    assert _files(tmp_path) == [] and spooled.path is None
    with pytest.raises(ValueError, match="closed"):
        spooled.read()
    cl.io.Spooled(data)  # dropped at once: its file goes with it
    gc.collect()
    assert _files(tmp_path) == []


def test_a_spooled_argument_stays_in_memory_when_the_disk_refuses(monkeypatch):
    import hashlib
    import tempfile

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    data = b"dataset,A,B\n" + b"d,1,2\n" * 20_000
    spooled = cl.io.Spooled(data, "full-disk.csv")
    assert spooled.path is None and spooled.read() == data and "memory" in repr(spooled)
    assert run_isolated(_digest_and_size, spooled, display="full-disk.csv") == (hashlib.sha256(data).hexdigest(),
                                                                                len(data), "bytes")


def test_a_spooled_argument_to_a_call_inside_a_worker_is_given_as_bytes():
    spooled = cl.io.Spooled(CSV, "in.csv")
    monkey = _isolate._IN_CHILD
    try:
        _isolate._IN_CHILD = True  # as in a worker: the call runs directly, with the bytes
        assert run_isolated(_digest_and_size, spooled, display="in.csv")[1:] == (len(CSV), "bytes")
    finally:
        _isolate._IN_CHILD = monkey
        spooled.close()


def test_a_large_result_comes_back_equal_with_its_arrays_out_of_band():
    """Protocol-5 buffers: the array arrives with the values computed in the worker, and writable (its memory is
    the buffer it was read into, not a read-only bytes object)."""
    got = run_isolated(_big_array, 2_000_000, 7, display="a")
    assert np.array_equal(got, _big_array(2_000_000, 7))
    assert got.flags.writeable
    table = run_isolated(cl.read_results, CSV, display="mine.csv", name="mine.csv").table(None, higher_is_better=True)
    assert table.scores.equals(cl.read_results(CSV, name="mine.csv").table(None, higher_is_better=True).scores)


def test_a_malformed_answer_is_refused_before_anything_is_allocated():
    import io
    import struct

    huge = struct.pack("<Q", 0) + struct.pack("<Q", 1 << 40)  # one part of a terabyte
    with pytest.raises(ValueError, match="larger than the worker could hold"):
        _isolate._receive(io.BytesIO(huge), limit=1 << 30)
    with pytest.raises(EOFError):
        _isolate._receive(io.BytesIO(struct.pack("<Q", 0) + struct.pack("<Q", 10) + b"short"), limit=1 << 30)


# -- issue 31: the fork server ----------------------------------------------------------------------------------

def test_each_call_has_its_own_worker_and_nothing_of_one_call_reaches_the_next(worker_kind):
    first = run_isolated(_whoami, "one", display="a")
    second = run_isolated(_whoami, "two", display="b")
    assert first[2] == second[2] == []  # the mark the first call left is not seen by the second
    assert len({first[0], second[0], os.getpid()}) == 3
    if worker_kind == "forked":
        server = _isolate._server
        assert first[1] == second[1] == server.process.pid  # forked by the server, which is not this process
        assert server.process.pid not in (first[0], second[0])
        assert _whoami("here")[2] == [] and _MARK == ["here"]  # the calls' marks did not reach the caller either
        _MARK.clear()
    else:
        assert first[1] == second[1] == os.getpid()


@pytest.mark.parametrize("worker_kind", ["forked"], indirect=True)
def test_the_fork_server_is_a_fresh_interpreter_with_one_thread_and_the_readers_imported():
    pid = _isolate._server.process.pid
    # once it has answered a call (it has imported what it preloads: its command line is readable by then, which
    # is not always so the moment the process has started)
    assert run_isolated(_sleep, 0, display="x") == "woke"
    assert open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")[1:3] == [b"-c", _isolate._FORK_SERVER.encode()]
    assert len(os.listdir(f"/proc/{pid}/task")) == 1  # one thread: nothing else runs while it forks


@pytest.mark.parametrize("worker_kind", ["forked"], indirect=True)
def test_a_dead_fork_server_is_started_again_by_the_next_call():
    old = _isolate._server
    old.process.kill()
    old.process.wait()
    assert run_isolated(_sleep, 0, display="b") == "woke"
    new = _isolate._server
    assert new is not None and new is not old and new.alive()
    assert run_isolated(_whoami, "again", display="c")[1] == new.process.pid


@pytest.mark.parametrize("worker_kind", ["forked"], indirect=True)
def test_a_fork_server_that_does_not_answer_costs_the_call_a_fresh_interpreter(monkeypatch):
    """A fork server that hangs (stopped here with SIGSTOP) is given up after FORK_WAIT_SECONDS: the call is served by
    a fresh interpreter, and the next call starts a new server."""
    import signal

    old = _isolate._server
    monkeypatch.setattr(_isolate, "FORK_WAIT_SECONDS", 1.0)
    os.kill(old.process.pid, signal.SIGSTOP)
    try:
        assert run_isolated(_whoami, "fresh", display="a")[1] == os.getpid()
    finally:
        os.kill(old.process.pid, signal.SIGCONT)
    assert _wait_until(lambda: old.process.poll() is not None)  # closed in the background
    assert run_isolated(_whoami, "forked", display="b")[1] == _isolate._server.process.pid != old.process.pid


def test_a_worker_stopped_at_its_time_limit_leaves_the_fork_server_running(worker_kind, tmp_path):
    # 10 s, not 1: the worker must have started and written its pid before it is stopped, also on a loaded machine
    # (a fresh interpreter imports the readers first; 1 s was too short for that in a CI run beside other work).
    with pytest.raises(cl.InputError, match="took longer than 10 s"):
        run_isolated(_pid_then_sleep, str(tmp_path / "pid"), 60, display="slow.csv", seconds=10)
    pid = int((tmp_path / "pid").read_text())
    assert _wait_until(lambda: not _alive(pid))
    if worker_kind == "forked":
        assert _isolate._server.alive()
        assert run_isolated(_whoami, "next", display="n")[1] == _isolate._server.process.pid


@pytest.mark.parametrize("worker_kind", ["forked"], indirect=True)
def test_the_fork_server_ends_its_workers_when_the_caller_ends_it(tmp_path):
    """The dashboard's server ending closes the fork server's socket: it kills its running workers and exits, and
    the call that waited is told its reader stopped."""
    server = _isolate._server
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(run_isolated(_pid_then_sleep, str(tmp_path / "pid"), 60, display="long.csv", seconds=120))
        except cl.InputError as err:
            outcome.append(err)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    assert _wait_until(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text() != "")
    pid = int((tmp_path / "pid").read_text())
    _isolate.stop_fork_server()
    assert server.process.poll() is not None
    assert _wait_until(lambda: not _alive(pid))
    thread.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], cl.InputError), outcome
    assert "could not be read: the reader stopped" in str(outcome[0])


# -- issue 31: nothing a read wrote stays on disk ---------------------------------------------------------------

def test_what_a_killed_worker_wrote_is_removed_with_its_calls_folder(tmp_path, monkeypatch):
    """The worker is killed once it has written (waited for, not timed: a worker that starts slowly on a loaded
    machine must not be killed before it writes anything, as a 1 s limit once did in CI)."""
    import signal
    import tempfile

    record = tmp_path / "record"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(run_isolated(_leave_files_then_sleep, str(record), 120, display="zip.zip", seconds=240))
        except cl.InputError as err:
            outcome.append(err)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    assert _wait_until(record.exists, timeout=120)
    pid, left = record.read_text().split("\n", 1)
    assert left.startswith(_isolate.scratch_dir() + os.sep) and os.path.exists(left)  # in its call's folder
    os.kill(int(pid), signal.SIGKILL)
    thread.join(120)
    assert len(outcome) == 1 and "could not be read: the reader stopped" in str(outcome[0]), outcome
    assert not os.path.exists(left) and _files(scratch) == []  # which went with the call
    record.unlink()
    done = run_isolated(_leave_files_then_sleep, str(record), 0, display="zip.zip")
    assert not os.path.exists(done) and _files(scratch) == []


def test_scratch_folders_of_processes_that_ended_are_removed_and_the_others_kept(tmp_path, monkeypatch):
    import subprocess
    import sys
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(ended.stdout)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead = tmp_path / f"compare-{dead_pid}-ab_c1"
        (dead / "call-x").mkdir(parents=True)
        (dead / "upload-1").write_bytes(b"a visitor's file")
        (dead / "call-x" / "argument-2").write_bytes(b"another")
        living = tmp_path / f"compare-{alive.pid}-xyz"
        living.mkdir()
        (living / "upload-3").write_bytes(b"in use")
        mine = _isolate.scratch_dir()
        other = tmp_path / "compare-upload-k2j3"  # not a scratch folder's name: left alone
        other.write_bytes(b"?")
        assert _isolate.remove_stale_scratch() == [str(dead)]
        assert not dead.exists() and living.exists() and os.path.isdir(mine) and other.exists()
    finally:
        alive.kill()
        alive.wait()


def test_a_scratch_folder_is_private_and_goes_when_its_process_exits(tmp_path):
    import stat
    import subprocess
    import sys

    code = ("import sys, tempfile; tempfile.tempdir = sys.argv[1]; from compare_lib.io import _isolate; "
            "path = _isolate.scratch_dir(); import os; print(path, oct(os.stat(path).st_mode)); "
            "cl = __import__('compare_lib'); s = cl.io.Spooled(b'x' * 100, 'f'); print(s.path)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path, mode, spooled = out.stdout.split()
    assert os.path.dirname(path) == str(tmp_path) and stat.S_IMODE(int(mode, 8)) == 0o700
    assert os.path.dirname(spooled) == path
    assert not os.path.exists(path) and list(tmp_path.iterdir()) == []
