"""Issue 31: reads of uploaded files wait in one server-wide first-in, first-out queue with a visible place.

``compare_lib.io._isolate.ReadQueue`` lets at most ``slots`` calls hold a worker and queues the others in arrival
order, telling each its place (``on_wait``); ``run_isolated`` uses one such queue for every call of the process.
The dashboard shows the place as a message while the read waits (``state.QueueNotice``). Orders and overlaps
are checked from what each thread recorded, never from durations.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

import compare_lib as cl
from compare_lib.io import _isolate
from compare_lib.io._isolate import ReadQueue, run_isolated


def _wait_until(predicate, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true")
        time.sleep(0.005)


def _stamp(seconds: float) -> tuple[float, float]:
    """In the worker: when this call started and ended (wall clock, shared by the processes)."""
    start = time.time()
    time.sleep(seconds)
    return start, time.time()


def _queue_in_order(queue: ReadQueue, n: int, hold: threading.Event, seen: dict[int, list[tuple[int, int]]],
                    order: list[int], active: list[int], peak: list[int]) -> list[threading.Thread]:
    """Start n threads one after the other, each queued before the next starts (so their arrival order is known)."""
    lock = threading.Lock()

    def work(i: int) -> None:
        assert queue.acquire(30, on_wait=lambda p, m: seen[i].append((p, m)))
        with lock:
            order.append(i)
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        hold.wait(30)
        time.sleep(0.01)  # the holders overlap long enough for a slot-count bug to show
        with lock:
            active[0] -= 1
        queue.release()

    threads = []
    for i in range(n):
        seen[i] = []
        before = queue.status()
        t = threading.Thread(target=work, args=(i,), daemon=True)
        t.start()
        threads.append(t)
        # arrived: it holds a slot or waits in the queue
        _wait_until(lambda: queue.status()["running"] + queue.status()["waiting"]
                    == before["running"] + before["waiting"] + 1)
    return threads


def test_at_most_the_bound_hold_a_slot_and_the_others_go_first_in_first_out():
    queue = ReadQueue(2)
    hold = threading.Event()
    seen: dict[int, list[tuple[int, int]]] = {}
    order: list[int] = []
    active, peak = [0], [0]
    threads = _queue_in_order(queue, 7, hold, seen, order, active, peak)
    assert queue.status() == {"slots": 2, "running": 2, "waiting": 5}
    assert sorted(order) == [0, 1]
    hold.set()
    for t in threads:
        t.join(30)
    assert order == list(range(7))  # first in, first out
    assert peak[0] == 2  # the bound, reached and never exceeded
    assert queue.status() == {"slots": 2, "running": 0, "waiting": 0}
    # The two that found a free slot were never told to wait; each other one was told its place on arrival
    # (its index among the waiting, 1-based), then each move, then 0 when its turn came.
    assert seen[0] == seen[1] == []
    for i in range(2, 7):
        places = [p for p, _ in seen[i]]
        assert places[0] == i - 1 and places[-1] == 0, seen[i]
        assert places[:-1] == sorted(places[:-1], reverse=True) and all(p >= 1 for p in places[:-1]), seen[i]
        assert all(1 <= p <= m for p, m in seen[i][:-1]), seen[i]


def test_a_newcomer_never_overtakes_a_waiting_call():
    """With a slot freed while calls wait, the first waiting call takes it, not a call arriving at that moment."""
    queue = ReadQueue(1)
    assert queue.acquire(1)
    got: list[str] = []
    waiting = threading.Thread(target=lambda: (queue.acquire(10), got.append("waiting"), queue.release()), daemon=True)
    waiting.start()
    _wait_until(lambda: queue.status()["waiting"] == 1)
    queue.release()
    late = queue.acquire(10)  # arrives just as the slot frees: it must queue behind the waiting call
    got.append("late")
    queue.release()
    waiting.join(10)
    assert late and got == ["waiting", "late"]


def test_the_wait_has_its_own_limit_and_leaves_the_queue_when_it_runs_out():
    queue = ReadQueue(1)
    assert queue.acquire(1)
    told: list[tuple[int, int]] = []
    assert queue.acquire(0.2, on_wait=lambda p, m: told.append((p, m))) is False
    assert told == [(1, 1)]
    assert queue.status() == {"slots": 1, "running": 1, "waiting": 0}
    queue.release()
    assert queue.acquire(0.2) and queue.status()["running"] == 1


def test_a_caller_whose_message_raises_leaves_the_queue_and_the_next_one_moves_up():
    """A page whose visitor left stops inside on_wait (Streamlit raises there): it must not keep a place."""
    queue = ReadQueue(1)
    assert queue.acquire(1)

    class Left(Exception):
        pass

    def leave(position: int, waiting: int) -> None:
        raise Left

    errors: list[BaseException] = []

    def first() -> None:
        try:
            queue.acquire(10, on_wait=leave)
        except Left as err:
            errors.append(err)

    t = threading.Thread(target=first, daemon=True)
    t.start()
    t.join(10)
    assert errors and queue.status()["waiting"] == 0
    told: list[tuple[int, int]] = []
    second = threading.Thread(target=lambda: (queue.acquire(10, on_wait=lambda p, m: told.append((p, m))),
                                              queue.release()), daemon=True)
    second.start()
    _wait_until(lambda: told)
    assert told[0] == (1, 1)  # first in line: the caller that left holds no place
    queue.release()
    second.join(10)
    assert told[-1][0] == 0 and queue.status() == {"slots": 1, "running": 0, "waiting": 0}


def test_run_isolated_runs_at_most_max_children_workers_at_once_in_arrival_order():
    n = _isolate.MAX_CHILDREN + 3
    results: dict[int, tuple[float, float]] = {}
    seen: dict[int, list[tuple[int, int]]] = {i: [] for i in range(n)}
    turns: list[int] = []  # the queued calls, in the order their turn came (on_wait told them 0)
    threads = []
    for i in range(n):
        before = _isolate.queue_status()

        def told(p: int, m: int, i: int) -> None:
            seen[i].append((p, m))
            if p == 0:
                turns.append(i)

        def call(i: int = i) -> None:
            results[i] = run_isolated(_stamp, 1.0, display=f"f{i}.csv", seconds=60, wait_seconds=120,
                                      on_wait=lambda p, m, i=i: told(p, m, i))

        t = threading.Thread(target=call, daemon=True)
        t.start()
        threads.append(t)
        _wait_until(lambda: _isolate.queue_status()["running"] + _isolate.queue_status()["waiting"]
                    == before["running"] + before["waiting"] + 1)
    for t in threads:
        t.join(180)
    assert sorted(results) == list(range(n))
    # Overlap from the workers' own clocks: at no moment more than MAX_CHILDREN calls ran.
    events = sorted([(s, 1) for s, _ in results.values()] + [(e, -1) for _, e in results.values()],
                    key=lambda x: (x[0], x[1]))
    running, most = 0, 0
    for _, step in events:
        running += step
        most = max(most, running)
    assert most <= _isolate.MAX_CHILDREN
    # The queued calls got their turn in their arrival order (their workers, started then, take varying times to
    # start), each after it was told its place.
    queued = list(range(_isolate.MAX_CHILDREN, n))
    assert turns == queued
    for i in queued:
        assert seen[i][0][0] == i - _isolate.MAX_CHILDREN + 1 and seen[i][-1][0] == 0, seen[i]
    assert _isolate.queue_status() == {"slots": _isolate.MAX_CHILDREN, "running": 0, "waiting": 0}


def test_run_isolated_says_when_the_turn_did_not_come():
    held = 0
    try:
        for _ in range(_isolate.MAX_CHILDREN):
            assert _isolate._queue.acquire(1)
            held += 1
        told: list[tuple[int, int]] = []
        others = "another file was" if _isolate.MAX_CHILDREN == 1 else f"{_isolate.MAX_CHILDREN} other files were"
        with pytest.raises(cl.InputError, match=rf"^File 'late.csv' was not read: {others} being read on "
                                                r"this server and its turn did not come within 0.3 s"):
            run_isolated(_stamp, 0, display="late.csv", wait_seconds=0.3, on_wait=lambda p, m: told.append((p, m)))
        assert told == [(1, 1)]
    finally:
        for _ in range(held):
            _isolate._queue.release()


# -- the dashboard's message ----------------------------------------------------------------------------------

def _unique_csv() -> bytes:
    tag = uuid.uuid4().hex[:8]  # a file no cache has seen: it is really read
    return f"dataset,A,B,C\nd1_{tag},0.81,0.70,0.60\nd2,0.50,0.90,0.70\nd3,0.61,0.64,0.66\nd4,0.70,0.80,0.90\n".encode()


def _open_upload(name: str):
    from .apptest_helpers import by_label, goto, new_app

    at = goto(new_app(), "load_data")
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    return at


def test_the_page_shows_its_place_while_every_reader_is_taken(monkeypatch):
    """Every slot taken by other reads and none freed: the page says the table waits, first in line, and then that
    its turn did not come (the queue's limit shortened for the test); the loaded table is kept."""
    from .apptest_helpers import texts

    monkeypatch.setattr(cl.limits, "APP_READ_QUEUE_SECONDS", 1.5)
    at = _open_upload("queued.csv")
    held = 0
    try:
        for _ in range(_isolate.MAX_CHILDREN):
            assert _isolate._queue.acquire(1)
            held += 1
        at.file_uploader[0].set_value(("queued.csv", _unique_csv(), "text/csv"))
        at.run()
    finally:
        for _ in range(held):
            _isolate._queue.release()
    assert not at.exception, at.exception
    infos = texts(at.info)
    assert any(m.startswith("Another table is being read; yours is next (position 1 of 1 waiting)") for m in infos), infos
    errors = texts(at.error)
    assert any("File 'queued.csv' was not read" in m and "turn did not come within 1.5 s" in m for m in errors), errors
    assert any("Demšar 2006" in s for s in texts(at.success))  # the table loaded before stays


def test_a_read_that_waited_loads_and_its_message_goes_and_a_cache_hit_replays_cleanly():
    """The slots are freed while the page waits: the file loads, the waiting message is removed, and a second
    session uploading the same bytes (a hit of the shared read cache, which replays what the read drew) loads too."""
    from .apptest_helpers import texts

    data = _unique_csv()
    at = _open_upload("accuracy_waited.csv")
    held = 0
    for _ in range(_isolate.MAX_CHILDREN):
        assert _isolate._queue.acquire(1)
        held += 1
    freed = threading.Event()

    def free_later() -> None:
        _wait_until(lambda: _isolate.queue_status()["waiting"] == 1, 60)  # the page's read is in the queue
        for _ in range(held):
            _isolate._queue.release()
        freed.set()

    helper = threading.Thread(target=free_later, daemon=True)
    helper.start()
    at.file_uploader[0].set_value(("accuracy_waited.csv", data, "text/csv"))
    at.run()
    helper.join(60)
    assert freed.is_set() and not at.exception, at.exception
    assert any("file: accuracy_waited.csv" in s and "4 data sets × 3 classifiers" in s for s in texts(at.success)), texts(at.success)
    assert not any("being read" in m for m in texts(at.info)), texts(at.info)
    again = _open_upload("accuracy_waited.csv")
    again.file_uploader[0].set_value(("accuracy_waited.csv", data, "text/csv"))
    again.run()
    assert not again.exception, again.exception
    assert any("file: accuracy_waited.csv" in s for s in texts(again.success)), texts(again.success)
