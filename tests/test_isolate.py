"""Issue 27: untrusted input is read in a worker process with limits (``compare_lib.io.run_isolated``).

A worker that aborts, runs out of memory or of time becomes a clear ``InputError``; an ``InputError`` in the
worker comes back as itself; the caller's other threads keep running while a worker holds its own
interpreter lock (the property that keeps a shared server answering).
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

    def spy(value, files):
        out = real(value, files)
        made.extend(files)
        return out

    monkeypatch.setattr(_isolate, "_to_file", spy)
    assert run_isolated(_digest_and_size, data, display="big.csv") == (hashlib.sha256(data).hexdigest(), len(data),
                                                                       "bytes")
    assert made and all(p.startswith(str(tmp_path)) for p in made)  # it did go through a file
    assert list(tmp_path.iterdir()) == []  # and the file is gone once the call ended
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
    assert [p.name for p in tmp_path.iterdir()] == [os.path.basename(spooled.path)]  # only the spooled file
    spooled.close()
    assert list(tmp_path.iterdir()) == [] and spooled.path is None
    with pytest.raises(ValueError, match="closed"):
        spooled.read()
    cl.io.Spooled(data)  # dropped at once: its file goes with it
    gc.collect()
    assert list(tmp_path.iterdir()) == []


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
