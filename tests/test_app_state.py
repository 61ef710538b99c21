"""Issue 10: the loaded table is never replaced or changed without the user asking, and a link
reproduces the whole view (AppTest; the browser versions are in test_browser.py)."""

from __future__ import annotations

import compare_lib as cl

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from .apptest_helpers import APP, answer_direction, by_label, goto, new_app, texts, upload

MINE = b"dataset,A,B,C\nd1,0.8,0.7,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\nd4,0.7,0.8,0.9\nd5,0.71,0.82,0.93\n"



def _success(at) -> str:
    return " ".join(texts(at.success))


def test_going_back_to_load_data_keeps_the_uploaded_table():
    at = upload(new_app(), "mine.csv", MINE)
    assert "file: mine.csv" in _success(at)
    for page in ("omnibus", "posthoc", "pool", "replicability", "load_data"):
        goto(at, page)
        assert any("5 data sets × 3 classifiers" in c for c in texts(at.caption) + texts(at.success)), page
    assert "file: mine.csv" in _success(at)
    assert "Demšar" not in _success(at)
    # The source radio shows how the table was loaded, and nothing was reloaded.
    assert by_label(at.radio, "Source").value == "Upload a file"


def test_direction_for_a_new_file_does_not_flip_the_loaded_table():
    at = new_app()
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    by_label(at.radio, "In the new table, scores are").set_value("Lower is better (error, loss, time)")
    at.run()
    assert "higher is better" in _success(at) and "Demšar" in _success(at)  # the sample is untouched
    at.file_uploader[0].set_value(("bad.csv", b"dataset,A,B\nd1,0.8,oops\nd2,0.5,0.6\n", "text/csv"))
    at.run()
    assert "higher is better" in _success(at) and "Demšar" in _success(at)  # a refused upload changes nothing
    at.file_uploader[0].set_value(("errors.csv", MINE, "text/csv"))
    at.run()
    assert "file: errors.csv" in _success(at) and "lower is better" in _success(at)


def test_pasted_text_is_called_pasted_text():
    at = new_app()
    by_label(at.radio, "Source").set_value("Paste")
    at.run()
    at.text_area(key="w_paste").set_value(MINE.decode())
    at.button(key="w_paste_load").click()
    at.run()
    answer_direction(at)  # an unnamed metric: its direction is asked (issue 28)
    assert "pasted text" in _success(at) and "file" not in _success(at).split("·")[0]
    goto(at, "omnibus")
    goto(at, "load_data")
    assert "pasted text" in _success(at)


def test_a_message_about_a_previous_table_disappears():
    at = goto(new_app(), "posthoc")
    by_label(at.radio, "Compare").set_value(1)
    at.run()
    by_label(at.selectbox, "Control classifier").set_value("C4.5+m")
    at.run()
    goto(at, "load_data")
    at = upload(at, "mine.csv", MINE)
    goto(at, "posthoc")
    assert not any("C4.5" in e for e in texts(at.error)), texts(at.error)
    # The control of the earlier table is gone: the new table's best classifier by mean rank (issue 23's default).
    import io

    best = cl.load_scores(io.BytesIO(MINE), higher_is_better=True).mean_ranks.idxmin()
    assert by_label(at.selectbox, "Control classifier").value == best


def _link_of(at) -> dict[str, list[str]]:
    """The URL's query parameters as the page wrote them (each a list of values)."""
    out = {}
    for key, value in dict(at.query_params).items():
        out[key] = [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]
    return out


def _open(query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def _summary(at) -> str:
    return next(m for m in texts(at.markdown) if "hypotheses rejected" in m)


def test_a_link_keeps_left_out_data_sets_classifiers_and_choices():
    at = new_app()
    by_label(at.multiselect, "Classifiers").set_value(["C4.5", "C4.5+m", "C4.5+m+cf"])
    by_label(at.multiselect, "Data sets to leave out").set_value(["mushroom", "iris"])
    at.run()
    goto(at, "posthoc")
    by_label(at.radio, "Pairwise statistic").set_value(2)
    at.run()
    by_label(at.selectbox, "Procedure").set_value("nemenyi")
    at.run()
    summary = _summary(at)
    link = _link_of(at)
    assert link["drop"] == ["mushroom", "iris"] or sorted(link["drop"]) == ["iris", "mushroom"]
    fresh = goto(_open(link), "posthoc")
    assert _summary(fresh) == summary
    assert any("12 data sets × 3 classifiers" in c for c in texts(fresh.caption))


def test_a_link_carries_a_small_uploaded_table():
    at = upload(new_app(), "mine.csv", MINE)
    goto(at, "posthoc")
    summary = _summary(at)
    link = _link_of(at)
    assert "data" in link and "sample" not in link
    at.segmented_control(key="w_ph_view").set_value("Report")
    at.run()
    assert any("whoever has the link has the data" in m for m in texts(at.markdown))
    link = _link_of(at)
    fresh = _open(link)
    assert any("table carried by the link" in s and "5 data sets × 3 classifiers" in s for s in texts(fresh.success))
    fresh = goto(fresh, "posthoc")
    assert _summary(fresh) == summary


def _big_csv(seed: int = 1) -> bytes:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.uniform(0.5, 0.9, size=(2500, 10)).round(4), columns=[f"M{j}" for j in range(10)],
                         index=pd.Index([f"d{i}" for i in range(2500)], name="dataset"))
    return frame.to_csv().encode()


def test_a_link_to_a_large_table_waits_for_the_same_file():
    big = _big_csv()
    at = upload(new_app(), "big.csv", big)
    by_label(at.multiselect, "Classifiers").set_value([f"M{j}" for j in range(6)])
    at.run()
    goto(at, "posthoc")
    summary = _summary(at)
    link = _link_of(at)
    assert "fp" in link and "data" not in link
    fresh = _open(link)
    assert any("too large to travel in a link" in w for w in texts(fresh.warning))
    # A different file is named as such and the view is not applied.
    fresh = upload(fresh, "other.csv", _big_csv(seed=2))
    assert any("not the one the link was made with" in i for i in texts(fresh.info))
    # The same file: the view is applied.
    fresh.file_uploader[0].set_value(("big.csv", big, "text/csv"))
    fresh.run()
    answer_direction(fresh)  # an unnamed metric: asked (issue 28), answered as the sender did
    assert any("matches the link" in i for i in texts(fresh.info))
    fresh = goto(fresh, "posthoc")
    assert _summary(fresh) == summary
    assert any("2500 data sets × 6 classifiers" in c for c in texts(fresh.caption))


def test_pool_and_omnibus_choices_travel_in_the_link():
    at = goto(new_app(), "omnibus")
    by_label(at.toggle, "Correct the Friedman statistic for ties").set_value(True)
    at.run()
    link = _link_of(at)
    assert link.get("tie") == ["1"]
    fresh = goto(_open(link), "omnibus")
    assert by_label(fresh.toggle, "Correct the Friedman statistic for ties").value is True
    at = goto(new_app(), "pool")
    by_label(at.radio, "Correction for the pool's m(m−1)/2 comparisons").set_value("Holm within the pool")
    at.run()
    link = _link_of(at)
    assert link.get("pproc") == ["holm"]
    fresh = goto(_open(link), "pool")
    assert by_label(fresh.radio, "Correction for the pool's m(m−1)/2 comparisons").value == "Holm within the pool"


def test_the_server_collects_cycles_now_and_then():
    """Issue 31: what finished runs leave in reference cycles (a page's globals and its functions, an ended session
    and its script runner) is freed by a full collection at most every GC_EVERY_SECONDS, server-wide."""
    import gc
    import sys
    import weakref
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    class Held:  # stands for an upload's bytes held by a cycle
        pass

    def cycle():
        page_globals = {"data": Held()}
        page_globals["callback"] = page_globals  # a dict that holds itself, as a page's globals hold its functions
        return weakref.ref(page_globals["data"])

    gc.disable()  # the automatic collector must not do it for us
    try:
        alive = cycle()
        assert alive() is not None  # only a collection frees it
        assert state.collect_now_and_then(every=0.0)
        assert alive() is None
        alive = cycle()
        assert not state.collect_now_and_then(every=3600.0)  # the last collection is too recent: nothing done
        assert alive() is not None
        assert state.collect_now_and_then(every=0.0) and alive() is None
    finally:
        gc.enable()


def test_free_upload_removes_streamlits_copy_and_closes_the_uploaders_value(monkeypatch):
    """Issue 31: once read, an upload's bytes leave the server: Streamlit's copy is removed from its file manager and
    the uploader's value (a BytesIO of the whole file, kept in the session's widget state) is closed, which the page
    reads as freed."""
    import sys
    import types
    from pathlib import Path

    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.scriptrunner_utils import script_run_context
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    removed = []
    manager = types.SimpleNamespace(remove_file=lambda session_id, file_id: removed.append((session_id, file_id)))
    ctx = types.SimpleNamespace(session_id="s1", uploaded_file_mgr=manager)
    monkeypatch.setattr(script_run_context, "get_script_run_ctx", lambda suppress_warning=False: ctx)
    import streamlit as st

    monkeypatch.setattr(st, "session_state", {})
    uploaded = UploadedFile(UploadedFileRec("f1", "scores.csv", "text/csv", b"dataset,A,B\nd1,1,2\n"), FileURLs())
    assert not state.uploaded_was_freed(uploaded) and uploaded.getvalue().startswith(b"dataset")
    state.free_upload(uploaded)
    assert removed == [("s1", "f1")]
    assert uploaded.closed and state.uploaded_was_freed(uploaded)
    # The session state can hold another UploadedFile of the same file (measured: 30 of them kept 268 MB): closed too;
    # a value of another file is left alone.
    import copy

    rec = UploadedFileRec("f2", "scores.csv", "text/csv", b"dataset,A,B\nd1,1,2\n")
    given, held = UploadedFile(rec, FileURLs()), UploadedFile(rec, FileURLs())
    other = UploadedFile(rec._replace(file_id="f3"), FileURLs())
    monkeypatch.setattr(st, "session_state", {"w_upload": held, "other": other})
    state.free_upload(given, key="w_upload")
    # Emptied, not closed: Streamlit deep-copies the kept value into a later run, which a closed file would break.
    assert given.closed and not held.closed and held.getvalue() == b"" and copy.deepcopy(held).getvalue() == b""
    assert state.uploaded_was_freed(held) and state.uploaded_was_freed(copy.deepcopy(held))
    assert other.getvalue().startswith(b"dataset") and not state.uploaded_was_freed(other)
    assert state.uploaded_was_freed(types.SimpleNamespace(file_id="f1"))  # Streamlit's DeletedFile: no getvalue
    assert not state.uploaded_was_freed(None)


def _a_session_with_uploads(monkeypatch, tmp_path):
    """The dashboard's state module in a stand-in session: its session state (a dict), spooled files in ``tmp_path``
    and Streamlit's file manager replaced by a list of the files removed from it."""
    import sys
    import tempfile
    import types
    from pathlib import Path

    import streamlit as st
    from streamlit.runtime.scriptrunner_utils import script_run_context

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    removed: list = []
    manager = types.SimpleNamespace(remove_file=lambda session_id, file_id: removed.append((session_id, file_id)))
    ctx = types.SimpleNamespace(session_id="s1", uploaded_file_mgr=manager)
    monkeypatch.setattr(script_run_context, "get_script_run_ctx", lambda suppress_warning=False: ctx)
    session: dict = {}
    monkeypatch.setattr(st, "session_state", session)
    return state, session, removed


def _files(folder) -> list[str]:
    """The names of the files anywhere under ``folder`` (spooled uploads are in the process's scratch folder)."""
    from pathlib import Path

    return sorted(p.name for p in Path(folder).rglob("*") if p.is_file())


def test_an_upload_waits_for_its_reader_on_disk_not_in_memory(monkeypatch, tmp_path):
    """Issue 31: as soon as an upload arrives it is spooled to a private file and Streamlit's copies are freed, so
    that a class's uploads wait in the read queue without holding memory; the spooled copy serves the following
    runs (a sheet to choose, a refused file read another way) until the file was read, then it is deleted."""
    from pathlib import Path

    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.uploaded_file_manager import DeletedFile, UploadedFile, UploadedFileRec

    state, session, removed = _a_session_with_uploads(monkeypatch, tmp_path)
    uploaded = UploadedFile(UploadedFileRec("f1", "scores.csv", "text/csv", MINE), FileURLs())

    spooled = state.upload_spool(uploaded)
    assert removed == [("s1", "f1")] and uploaded.closed  # Streamlit's copy and the uploader's value: freed
    assert spooled.read() == MINE and spooled.name == "scores.csv" and spooled.head == MINE
    assert _files(tmp_path) == [Path(spooled.path).name]
    assert state.upload_spool(DeletedFile("f1")) is spooled  # the next run: the same spooled copy
    assert state.digest(spooled) == state.digest(MINE)  # caches key it by content, as the bytes were
    assert state.results_token(spooled, "scores.csv", "auto", None) == state.results_token(MINE, "scores.csv", "auto",
                                                                                         None)
    state.drop_upload_spool()  # read: nothing of it stays on the server
    assert _files(tmp_path) == [] and "upload_spool" not in session
    assert state.upload_spool(DeletedFile("f1")) is None and state.upload_spool(None) is None

    other = UploadedFile(UploadedFileRec("f2", "other.csv", "text/csv", MINE + b"d6,0.1,0.2,0.3\n"), FileURLs())
    first = state.upload_spool(other)
    again = UploadedFile(UploadedFileRec("f3", "again.csv", "text/csv", MINE), FileURLs())
    assert state.upload_spool(again).name == "again.csv"  # another file replaces it, and its copy is deleted
    assert first.path is None and len(_files(tmp_path)) == 1


def test_once_read_the_uploaders_value_in_the_session_is_freed_too():
    """Issue 31: the value the session state keeps for the uploader is closed once the file was read (30 uploads of
    10 MB kept 268 MB until their sessions ended when only the run's own copy was closed); the uploader then gives
    None, as Streamlit does for a file its server no longer has, and the table stays loaded."""
    at = new_app()
    upload(at, "mine.csv", MINE)
    assert at.session_state["w_upload"] is None
    assert "Loaded: file" in _success(at) and "mine" in _success(at)
    goto(at, "omnibus")
    goto(at, "load_data")
    assert at.session_state["w_upload"] is None and "mine" in _success(at)


def test_freed_memory_goes_back_to_the_system():
    """Issue 31: after a collection with something to free, the allocators' free memory is given back (glibc;
    elsewhere it says it did nothing)."""
    import platform
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert state.release_free_memory() is glibc


def test_large_buffers_get_their_own_pages_whatever_was_freed_before():
    """Issue 31: with the app's allocator thresholds, a buffer of 4 MB or more is mapped on its own pages (given back
    when freed) even after a larger one was freed, which by glibc's default raises the threshold above it, so that a
    class's tables came from the heap and left holes there (984 MB peak for 30 uploads of 10 MB, 643 MB with it)."""
    import ctypes
    import platform
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert state.tune_allocator() is glibc and state.tune_allocator() is glibc  # once per process, then the same
    if not glibc:
        return

    class Info(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                            "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = Info
    big = np.ones(4 * state.MMAP_THRESHOLD // 8)  # freed: glibc's default would now heap-allocate anything smaller
    del big
    before = libc.mallinfo2().hblkhd
    buffer = np.ones(2 * state.MMAP_THRESHOLD // 8)
    assert libc.mallinfo2().hblkhd - before >= buffer.nbytes  # mapped on its own pages
    del buffer


def test_the_tuned_allocator_gives_back_a_threads_freed_memory():
    """Issue 31: Streamlit runs each page in its own thread, and glibc gives threads their own heaps (16 on 2 cores),
    whose free top it keeps up to the trim threshold: with 64 MB, a class's freed tables stayed in 16 heaps of 9-47 MB
    (268 MB free in the heaps once the 30 sessions of bench/uploads.py were dropped, the server tree at 468-516 MB;
    324-334 MB with the threshold at 1 MB). malloc_trim does not shrink a thread's heap: only the threshold does."""
    import ctypes
    import platform
    import sys
    import threading
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    if not (platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"):
        return
    assert state.tune_allocator() and state.TRIM_THRESHOLD <= 1 << 20

    class Info(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                            "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = Info
    seen: dict[str, int] = {}

    def page_run() -> None:
        before = libc.mallinfo2().arena
        buffers = [np.ones(100_000 // 8) for _ in range(300)]  # 30 MB in pieces below the mmap threshold
        seen["grown"] = libc.mallinfo2().arena - before
        del buffers
        seen["kept"] = libc.mallinfo2().arena - before

    thread = threading.Thread(target=page_run)
    thread.start()
    thread.join()
    # measured: grown 28 MB, kept 19 MB with the 1 MB threshold (the rest is given back as the buffers are freed, the
    # heap's top shrinking below the last live one), kept 28 MB with 64 MB
    assert seen["grown"] >= 20 << 20 and seen["kept"] <= seen["grown"] - (5 << 20), seen


def test_one_collector_thread_starts_with_the_first_run():
    """The collection runs in one daemon thread per server (note_run, called at the end of each page run)."""
    import sys
    import threading
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import state

    new_app()  # one run of the app
    state.note_run()
    state.note_run()
    threads = [t for t in threading.enumerate() if t.name == "dashboard-gc"]
    assert len(threads) == 1 and threads[0].daemon and threads[0].is_alive()


def test_a_fold_level_upload_is_read_once_and_its_bytes_freed(monkeypatch, tmp_path):
    """Issue 31: the fold-level uploader (Replicability, Bayesian) reads its file once per upload: the bytes are
    spooled, freed from Streamlit's memory, read from the spooled copy, which is then deleted; the next runs get what
    was read (a refusal too) by the file's id, until the file is removed or another one chosen."""
    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.uploaded_file_manager import DeletedFile, UploadedFile, UploadedFileRec

    state, session, removed = _a_session_with_uploads(monkeypatch, tmp_path)
    calls = []

    def read(spooled):
        calls.append((spooled.name, spooled.read(), _files(tmp_path)))
        if spooled.name == "bad.csv":
            raise cl.InputError("File 'bad.csv' has no folds.")
        return f"rows of {spooled.name}"

    uploaded = UploadedFile(UploadedFileRec("f1", "folds.csv", "text/csv", MINE), FileURLs())
    session["w_fold_upload"] = uploaded
    assert state.read_upload_once(uploaded, "w_fold_upload", read) == "rows of folds.csv"
    assert calls[0][:2] == ("folds.csv", MINE) and len(calls[0][2]) == 1  # read from its spooled copy...
    assert _files(tmp_path) == []  # ... deleted once read
    assert removed == [("s1", "f1")] and uploaded.closed  # Streamlit's copy and the uploader's value: freed
    # The next runs (the browser sends the file's id; Streamlit gives a DeletedFile): what was read, not read again.
    session["w_fold_upload"] = DeletedFile("f1")
    for _ in range(3):
        assert state.read_upload_once(None, "w_fold_upload", read) == "rows of folds.csv"
    assert len(calls) == 1
    # Another file replaces it; a refused file's message is what was read, shown again on the next run.
    bad = UploadedFile(UploadedFileRec("f2", "bad.csv", "text/csv", b"dataset,A\nd1,1\n"), FileURLs())
    session["w_fold_upload"] = bad
    refused = state.read_upload_once(bad, "w_fold_upload", read)
    assert isinstance(refused, cl.errors.Words) and "has no folds" in refused and len(calls) == 2
    session["w_fold_upload"] = DeletedFile("f2")
    assert state.read_upload_once(None, "w_fold_upload", read) is refused and len(calls) == 2
    # The file removed (the uploader emptied): nothing, and nothing kept.
    session["w_fold_upload"] = None
    assert state.read_upload_once(None, "w_fold_upload", read) is None and "w_fold_upload_read" not in session
    assert _files(tmp_path) == []
