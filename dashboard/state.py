"""The loaded table and the user's selection, kept in plain ``st.session_state`` keys.

Widget keys are dropped when the user leaves a page, so nothing the user chose lives only in a
widget: the pages read their defaults from here and write the choices back. The loaded table is
replaced only by an explicit user action (choosing a sample, uploading, pasting, running an
experiment, opening a link with data); choices that name classifiers of the previous table are
cleared when it is replaced, so no message about an old table can linger.
"""

from __future__ import annotations

import contextvars
import hashlib
import math
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd
import streamlit as st

import allocator
import compare_lib as cl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "sample_data"

#: What the app accepts (stated on the Load data page and in the README).
MAX_CELLS = cl.limits.APP_MAX_CELLS
MAX_CLASSIFIERS = cl.limits.APP_MAX_CLASSIFIERS
MAX_SHEET_CELLS = cl.limits.APP_MAX_SHEET_CELLS
#: Above this many data sets the leave-out control is a text box, not a list (a browser list of
#: 100,000 options freezes the tab).
MAX_LISTED_DATASETS = cl.limits.APP_MAX_LISTED_DATASETS
ALPHA_MIN, ALPHA_MAX, ALPHA_DEFAULT = 0.001, 0.5, 0.05

#: Page choices that name classifiers: meaningless for another table, so cleared with it.
CLASSIFIER_CHOICES = ("ph_control", "pool_members", "pool_a", "pool_b", "rep_a", "rep_b", "bay_a", "bay_b", "items_a",
                      "items_b")


@dataclass(frozen=True)
class Sample:
    id: str  # short name used in shareable URLs (?sample=...)
    file: str
    higher_is_better: bool
    about: str
    #: Item-level results (issue 30): the file is read with compare_lib.read_items and the table analysed is the
    #: per-task mean; the items stay in the session for the Per-task comparison page.
    items: bool = False


SAMPLES: dict[str, Sample] = {
    "Demšar 2006, Table 6 (AUC, 14 data sets × 4 C4.5 variants)": Sample(
        "demsar2006", "demsar2006_table6_auc_untied.csv", True,
        "Demšar's worked example. Voting/C4.5+cf is 0.9751 (printed 0.975) so that the ranks match the paper: "
        "$\\chi^2_F = 9.28$, $F_F = 3.69$.",
    ),
    "Demšar 2006, Table 6 exactly as printed": Sample(
        "demsar2006-printed", "demsar2006_table6_auc.csv", True,
        "As printed, voting ties C4.5+cf and C4.5+m+cf, giving $\\chi^2_F = 9.857$ instead of the paper's 9.28.",
    ),
    "García & Herrera 2008, Table 2 (accuracy, 30 × 5)": Sample(
        "garcia2008", "garcia_herrera2008_table2_accuracy.csv", True,
        "The all-pairwise case study: Holm, Shaffer and Bergmann-Hommel reject 5, 6 and 8 hypotheses.",
    ),
    "Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)": Sample(
        "benavoli2016", "benavoli2016_table2_accuracy.csv", True,
        "Seven WEKA classifiers on 54 UCI data sets; two rows are both named 'credit'.",
    ),
    "Benavoli et al. 2017, Bayesian tutorial (accuracy, 54 × 5)": Sample(
        "benavoli2017", "benavoli2017_tutorial_accuracy.csv", True,
        "Naive Bayes, AODE, HNB, J48 and J48 grafted on 54 UCI data sets (mean of 10 × 10-fold cv): the data of the "
        "Bayesian tutorial. NBC vs AODE with ROPE 0.01 gives the tutorial's 0.71 / 0.29 (sign) and 0.12 / 0.88 "
        "(signed-rank) on the Bayesian analysis page.",
    ),
    "Benavoli et al. 2016, Example 1 (20 × 5)": Sample(
        "benavoli2016-example1", "benavoli2016_example1.csv", True,
        "A and B win 10 data sets each, yet C, D and E make the mean-ranks test call them different.",
    ),
    "Item-level results, synthetic (4 models × 6 tasks × 60 questions)": Sample(
        "items-synthetic", "items_synthetic.csv", True,
        "Synthetic per-question outcomes (1 = correct) of four language models on six benchmark tasks, 60 questions "
        "each, in passages of four questions (made with numpy, seed 30). The table analysed is each task's mean; "
        "the Per-task comparison page tests the models question by question.", items=True,
    ),
}
DEFAULT_SAMPLE = next(iter(SAMPLES))
SAMPLE_BY_ID = {sample.id: label for label, sample in SAMPLES.items()}


@dataclass(frozen=True)
class Origin:
    """Where the loaded table came from (kind is sample, file, paste, experiment or link) and how it was
    read and chosen: the layout asked for, the missing-data policy, the metric, the aggregation of
    folds/runs, and the sheet of a workbook."""

    kind: str
    label: str = ""
    layout: str = "auto"
    missing: str = "error"
    metric: str | None = None
    aggregate: str = "mean"
    sheet: str | None = None

    def describe(self) -> str:
        if self.kind == "sample":
            return f"sample: {self.label}"
        if self.kind == "file":
            return f"file: {self.label}" + (f" (sheet '{self.sheet}')" if self.sheet else "")
        if self.kind == "paste":
            return "pasted text"
        if self.kind == "link":
            return "table carried by the link" + (f" ({self.label})" if self.label and self.label != "table from the link" else "")
        return "experiment run on the Replicability page"


# ---------------------------------------------------------------------------------------------
# loading (cached: a file or sample is parsed once; bounded in entries and time)


def shared_while_held(spinner: str | None = None) -> Callable[[Callable], Callable]:
    """Like ``st.cache_resource`` (one object for every session that asks for the same thing: the same upload read
    once), but an entry lives only as long as some session holds its value: the cache keeps weak references. A
    class's uploads are then freed when its sessions end, instead of up to 8 read files and 16 tables kept for an
    hour (issue 31). Bytes arguments (and spooled ones) are keyed by their SHA-256; arguments named with a leading underscore are not
    part of the key (as in Streamlit's caches). The value must support weak references (Results, ScoreTable)."""
    import functools
    import inspect
    import threading
    import weakref

    def decorate(func: Callable) -> Callable:
        signature = inspect.signature(func)
        entries: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        lock = threading.Lock()

        @functools.wraps(func)
        def cached(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = tuple((name, digest(value) if isinstance(value, (bytes, bytearray, cl.io.Spooled)) else value)
                        for name, value in bound.arguments.items() if not name.startswith("_"))
            with lock:
                value = entries.get(key)
            if value is not None:
                return value
            if spinner:
                with st.spinner(spinner):
                    value = func(*args, **kwargs)
            else:
                value = func(*args, **kwargs)
            with lock:
                entries[key] = value
            return value

        cached.clear = entries.clear  # type: ignore[attr-defined]
        return cached

    return decorate


def digest(data: bytes | bytearray | cl.io.Spooled) -> bytes:
    """The SHA-256 of bytes, or of a spooled upload's bytes (computed when it was spooled: the file is not read)."""
    return bytes.fromhex(data.sha256) if isinstance(data, cl.io.Spooled) else hashlib.sha256(data).digest()


#: Streamlit's caches key a spooled upload by its content (its file's path differs from one upload to the next).
SPOOLED_HASH = {cl.io.Spooled: lambda spooled: spooled.sha256}


def isolated(func: Callable, *args: Any, display: str, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` of compare_lib run on untrusted bytes in a child process with the app's limits
    (memory, time): a crafted file cannot crash the server, and while it is read every other session keeps
    answering (this thread waits on a pipe without holding the interpreter lock). Reads beyond the server's
    readers wait their turn in one queue, and the page says its place (issue 31: :class:`QueueNotice`)."""
    return cl.io.run_isolated(func, *args, display=display, memory_mb=cl.limits.APP_READ_MEMORY_MB,
                              seconds=cl.limits.APP_READ_SECONDS, cpu_seconds=cl.limits.APP_READ_CPU_SECONDS,
                              wait_seconds=cl.limits.APP_READ_QUEUE_SECONDS, on_wait=QueueNotice(), **kwargs)


def queue_words(position: int, waiting: int) -> str:
    """What a page says while its read waits for a free reader (issue 31): its place in the server's queue."""
    if position == 1:
        return (f"Another table is being read; yours is next (position 1 of {waiting} waiting). It is read as soon as "
                "a reader is free: keep this page open.")
    return (f"Other tables are being read; yours is number {position} of {waiting} waiting. It is read as soon as a "
            "reader is free: keep this page open.")


class QueueNotice:
    """``on_wait`` of :func:`compare_lib.io.run_isolated`: a message at the current place of the page, updated as
    the read moves up the server-wide queue, removed when its turn comes. The reads run inside ``st.cache_*``
    functions, which record the elements drawn inside them (Streamlit's context variable ``in_cached_function``)
    to replay them on a cache hit; this message belongs to the run that waited, not to the cached value (a replay
    would draw it again in a session that never waited), so it is drawn in a copy of the context with that variable
    off. Without that variable (another Streamlit) it is drawn all the same: a hit then replays it, and its removal,
    at once."""

    def __init__(self) -> None:
        self.slot = None

    def __call__(self, position: int, waiting: int) -> None:
        contextvars.copy_context().run(self._draw, position, waiting)

    def _draw(self, position: int, waiting: int) -> None:
        try:
            from streamlit.runtime.scriptrunner_utils.script_run_context import in_cached_function
        except ImportError:
            pass
        else:
            in_cached_function.set(False)  # in this copy of the context only
        if self.slot is None:
            if position == 0:
                return
            self.slot = st.empty()
        if position == 0:
            self.slot.empty()
        else:
            self.slot.info(queue_words(position, waiting), icon="⏳")


@st.cache_data(show_spinner=False, max_entries=8, ttl=3600)
def load_bytes(data: bytes, name: str, higher_is_better: bool, layout: str, missing: str,
               format: str = "auto") -> cl.ScoreTable:
    """A score table from bytes a visitor gave (a link's table: ``format="csv"``, an experiment's rows), read in
    a child process."""
    return _load_scores(data, name, higher_is_better, layout, missing, format)


def _load_scores(data: bytes | cl.io.Spooled, name: str, higher_is_better: bool, layout: str, missing: str,
                 format: str = "auto") -> cl.ScoreTable:
    """``cl.load_scores`` of a visitor's bytes in a child process, with the app's limits (the cached loaders' body)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)  # the notes carry the same text
        return isolated(cl.load_scores, data, display=name, name=name, higher_is_better=higher_is_better,
                        layout=layout, missing=missing, format=format, max_cells=MAX_CELLS,
                        max_classifiers=MAX_CLASSIFIERS, max_sheet_cells=MAX_SHEET_CELLS)


#: The words a page uses for the missing-data policies.
MISSING_LABELS = {
    "error": "refuse missing cells (list them)",
    "drop-datasets": "drop the data sets with a missing cell",
    "drop-classifiers": "drop the classifiers with a missing cell",
    "pairwise": "keep the holes: each pair is compared on the data sets both classifiers have",
}


@shared_while_held("Reading the file…")  # freed with the sessions that hold it (issue 31)
def load_upload(data: cl.io.Spooled, name: str, layout: str) -> cl.ScoreTable:
    """A score table (higher is better, missing cells refused) from an upload read once per session
    (:func:`read_upload_once`): shared by the sessions that upload the same file (the same bytes and name: a class
    given one file), for as long as one of them keeps it."""
    return _load_scores(data, name, True, layout, "error")


@shared_while_held("Reading the file…")  # freed with the sessions that hold it (issue 31)
def read_results(data: bytes | cl.io.Spooled, name: str, layout: str, sheet: str | None, format: str = "auto") -> cl.Results:
    """What a file holds (shared by the sessions that upload the same bytes; read-only, never changed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        return isolated(cl.read_results, data, display=name, name=name, layout=layout, sheet=sheet, format=format,
                        max_cells=MAX_CELLS, max_classifiers=MAX_CLASSIFIERS, max_sheet_cells=MAX_SHEET_CELLS)


@st.cache_resource(show_spinner="Reading the workbook…", max_entries=8, ttl=3600, hash_funcs=SPOOLED_HASH)
def sheet_names(data: bytes | cl.io.Spooled, kind: str, name: str) -> list[str]:
    """The sheets of an uploaded workbook, listed in a child process (the reader is native code)."""
    return isolated(cl.io.sheet_names, data, kind, name, display=name, max_sheet_cells=MAX_SHEET_CELLS)


@shared_while_held("Building the table…")  # freed with the sessions that hold it (issue 31)
def results_table(token: str, _results: cl.Results, metric: str | None, higher_is_better: bool | None, missing: str,
                  aggregate: str) -> cl.ScoreTable:
    """The score table of one metric of a read file (keyed by the file's token and the choices)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        return _results.table(metric, higher_is_better=higher_is_better, missing=missing, aggregate=aggregate)


#: What the Load data page says once an uploaded file was read and its bytes freed (free_upload).
FREED_UPLOAD = ("The file was read and its bytes are no longer kept on the server. To read it again in another way "
                "(another layout, format or sheet), upload it again.")


def free_upload(uploaded: Any, key: str | None = None) -> None:
    """Drop an uploaded file's bytes from the server once it has been read (issue 31): Streamlit keeps every upload
    in memory for as long as its session lives (30 students with 10 MB files: 300 MB), while the page needs only
    what was read from it. The file uploader then gives a ``DeletedFile`` (no ``getvalue``), for which the page
    shows :data:`FREED_UPLOAD`. ``key``: the uploader's widget key, whose value in the session state is emptied too.
    Does nothing outside a Streamlit session."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    file_id = getattr(uploaded, "file_id", None)
    if ctx is not None and file_id and getattr(ctx, "uploaded_file_mgr", None) is not None:
        ctx.uploaded_file_mgr.remove_file(session_id=ctx.session_id, file_id=file_id)
        # The uploader's value (an UploadedFile: a BytesIO of the whole file) stays in the session's widget state
        # until the widget changes: closing it frees its buffer (measured: 10 MB per session that uploaded). The
        # page then treats it as freed (uploaded_was_freed).
        close = getattr(uploaded, "close", None)
        if close is not None:
            close()
        # The run was given a deep copy of the value the session state keeps (Streamlit's register_widget), which
        # shares the same bytes: measured with 30 uploads of 10 MB, those kept 268 MB until the sessions ended. It
        # is emptied rather than closed, because Streamlit deep-copies it again into a later run that reuses it.
        held = st.session_state.get(key) if key is not None else None
        if held is not uploaded and getattr(held, "file_id", None) == file_id and callable(getattr(held, "truncate", None)):
            held.truncate(0)
        _uploads_read[0] += 1  # what reading it left in cycles is freed by the next collection (note_run)


def _upload_id(uploaded: Any, key: str | None) -> str | None:
    """The id of the file the uploader ``key`` shows, or None. Once its bytes are freed, the server no longer has the
    file: the uploader gives None, while the session state keeps Streamlit's DeletedFile with its id (the browser
    sends it on every run), which says the uploader still shows this file (a sheet being chosen, rows kept)."""
    file_id = getattr(uploaded, "file_id", None)
    if file_id is None and key is not None:
        file_id = getattr(st.session_state.get(key), "file_id", None)
    return file_id


def upload_spool(uploaded: Any, key: str | None = None) -> cl.io.Spooled | None:
    """The file uploader's file, spooled to disk as soon as it arrives (issue 31), or None (no file, or a file read
    and dropped: :func:`drop_upload_spool`). Its bytes then leave the server's memory at once (:func:`free_upload`):
    a class's uploads wait for a reader on disk, not in memory (measured: 30 uploads of 10 MB held 470 MB while
    waiting). The spooled copy stays, one per session, until the file is read, so that a sheet can be chosen or a
    refused file read another way without uploading it again; it is deleted with the session otherwise. ``key``: the
    uploader's widget key (see :func:`free_upload`)."""
    ss = st.session_state
    file_id = _upload_id(uploaded, key)
    held = ss.get("upload_spool")
    if held is not None and file_id is not None and held[0] == file_id:
        return held[1]
    if uploaded is None or uploaded_was_freed(uploaded):
        return None
    spooled = cl.io.Spooled(uploaded.getvalue(), uploaded.name)
    drop_upload_spool()
    ss["upload_spool"] = (file_id, spooled)
    free_upload(uploaded, key)
    return spooled


def read_upload_once(uploaded: Any, key: str, read: Callable[[cl.io.Spooled], Any]) -> Any:
    """What ``read`` made of the file uploader ``key``'s current file, read once per upload and kept in the session
    (with the file's id, under ``<key>_read``), or None when there is no file. Why (issue 31): a page that reads an
    upload on every run (the fold-level uploader of the Replicability and Bayesian pages) kept the file's bytes in the
    session (up to 50 MB each) and hashed them on each run. Here the file is spooled to disk as it arrives, its bytes
    are freed (:func:`free_upload`), ``read`` gets the spooled copy, which is deleted once read, and later runs return
    what was read until another file is chosen or the file is removed. An :class:`~compare_lib.InputError` raised by
    ``read`` is what was read: its message is returned (and kept) as :class:`compare_lib.errors.Words`, for the page
    to show on each run."""
    ss = st.session_state
    memo = f"{key}_read"
    file_id = _upload_id(uploaded, key)
    held = ss.get(memo)
    if held is not None and file_id is not None and held[0] == file_id:
        return held[1]
    ss.pop(memo, None)
    if uploaded is None or uploaded_was_freed(uploaded):
        return None
    spooled = cl.io.Spooled(uploaded.getvalue(), uploaded.name)
    free_upload(uploaded, key)
    try:
        value = read(spooled)
    except cl.InputError as err:
        value = cl.errors.worded(err)  # its options still marked: the page words it (ui.words) on each run
    finally:
        spooled.close()
    ss[memo] = (file_id, value)
    return value


def drop_upload_spool() -> None:
    """Delete the session's spooled upload (read, removed or replaced)."""
    held = st.session_state.pop("upload_spool", None)
    if held is not None:
        held[1].close()


def uploaded_was_freed(uploaded: Any) -> bool:
    """Whether the file uploader's value is a file whose bytes :func:`free_upload` dropped: Streamlit's
    ``DeletedFile`` (no ``getvalue``), the closed upload of this run, or the emptied value the session keeps (or a
    copy of it): a file that says it has bytes and holds none."""
    if uploaded is None:
        return False
    if not hasattr(uploaded, "getvalue") or getattr(uploaded, "closed", False):
        return True
    return bool(getattr(uploaded, "size", 0)) and not uploaded.getvalue()  # getvalue: the shared bytes, no copy


#: How often the collector thread looks for a reason to collect (note_run), and how long after the last page run it
#: goes on looking (an ended session is dropped disconnectedSessionTTL = 120 s after it closed). Every 3 s rather
#: than 10 (issue 31, bench/uploads.py, 30 x 10 MB uploads within 10 s): the dropped sessions' and finished reads'
#: garbage waits less, peak 583-600 MB instead of 636-667 MB, with the same server CPU (2 s: the same peaks, +10 %).
GC_EVERY_SECONDS = 3.0
GC_IDLE_SECONDS = 300.0
_gc_lock = threading.Lock()
_gc_last = [0.0]
_last_run = [0.0]
_uploads_read = [0]  # uploads read since the last collection (free_upload)
_collector: list[threading.Thread] = []


def _server_sessions() -> int | None:
    """The sessions the server holds (connected or kept after disconnecting), or None if Streamlit does not say."""
    try:
        from streamlit.runtime import Runtime

        return int(Runtime.instance()._session_mgr.num_sessions())  # noqa: SLF001 - no public count
    except Exception:  # noqa: BLE001 - outside a server (tests), or another Streamlit
        return None


def note_run() -> None:
    """Called by app.py at the end of each page run: starts, once per server, the thread that collects garbage when
    there is something to free: an upload was read (free_upload) or sessions were dropped since it last looked
    (every GC_EVERY_SECONDS, while pages ran within GC_IDLE_SECONDS). Page runs alone never trigger a collection:
    a collection every 30 s whatever happened was measured at +20-40 % CPU per page run (noisy, 30 sessions)."""
    import time

    _last_run[0] = time.monotonic()
    if _collector:
        return
    with _gc_lock:
        if _collector:
            return

        def collect_when_freed() -> None:
            sessions = _server_sessions()
            while True:
                time.sleep(GC_EVERY_SECONDS)
                if time.monotonic() - _last_run[0] >= GC_IDLE_SECONDS:
                    continue
                now = _server_sessions()
                dropped = sessions is not None and now is not None and now < sessions
                sessions = now
                if (_uploads_read[0] or dropped) and collect_now_and_then(0.0):
                    _uploads_read[0] = 0

        thread = threading.Thread(target=collect_when_freed, name="dashboard-gc", daemon=True)
        _collector.append(thread)
    thread.start()


def collect_now_and_then(every: float = 30.0) -> bool:
    """A full garbage collection of the server unless one ran within ``every`` seconds, called by the thread of
    :func:`note_run`. Why (issue 31): Streamlit's own collection after every run is
    off (``runner.postScriptGC = false``: it cost more than the run), and Python's automatic collector seldom
    reaches the oldest generation in a server of millions of long-lived objects, while each page run leaves cycles
    (the page's globals and the functions defined in them, a session's state and its script runner) that hold what
    the run held: an upload's bytes, a read file, a table. Measured with 12 uploads of 10 MB: 36 uploaded files, 12
    read files and 13 tables stayed in memory after their sessions were dropped, freed by one collection (0.15-0.5 s
    on this server). Returns True when it collected."""
    import gc
    import time

    now = time.monotonic()
    if now - _gc_last[0] < every or not _gc_lock.acquire(blocking=False):
        return False
    try:
        if now - _gc_last[0] < every:
            return False
        gc.collect()
        release_free_memory()
        _gc_last[0] = time.monotonic()
        return True
    finally:
        _gc_lock.release()


def release_free_memory() -> bool:
    """Give back to the system the memory the allocators keep free: glibc's ``malloc_trim`` and Arrow's pool (where
    pandas' Arrow-backed strings live). Why (issue 31): a read file and its table are large buffers freed in the
    middle of the heap, which glibc keeps for reuse; measured during 30 uploads of 10 MB, the server's heap held
    281-561 MB free beside 458-674 MB in use, memory no other session could use and that counts against the app's
    limit. Called after a collection that had something to free. Returns False where there is no glibc (macOS,
    Windows, musl), which then keeps its own policy."""
    import sys

    if "pyarrow" in sys.modules:
        try:
            sys.modules["pyarrow"].default_memory_pool().release_unused()
        except Exception:  # noqa: BLE001 - an older pyarrow without release_unused: nothing to give back
            pass
    libc = allocator.glibc()
    if not libc:
        return False
    libc.malloc_trim(0)
    return True


#: glibc's thresholds set by :func:`tune_allocator` (the reading children get the same): a buffer of 4 MB or more gets
#: its own pages (returned to the system when freed), and a heap's free top beyond 1 MB is given back, the page-run
#: threads' own heaps too, which malloc_trim (release_free_memory) does not shrink.
MMAP_THRESHOLD = cl.limits.ALLOCATOR_MMAP_THRESHOLD
TRIM_THRESHOLD = cl.limits.ALLOCATOR_TRIM_THRESHOLD
_tuned: list[bool] = []


def tune_allocator() -> bool:
    """Set glibc's allocator for a server whose sessions hold large tables (issue 31), once per process: a buffer of
    :data:`MMAP_THRESHOLD` or more is mapped on its own pages, so that freeing it returns it to the system. By
    default glibc raises that threshold to the largest buffer freed so far (up to 32 MB), after which a class's
    tables, read files and uploads (7-10 MB each) all come from the heap, where the holes they leave are kept:
    measured with 30 uploads of 10 MB (bench/uploads.py), the server tree peaked at 984 MB with glibc's default
    and at 643-847 MB in four runs with these thresholds, for the same CPU per page run (bench/load.py, 30
    sessions: 0.060 and 0.062 s). With a fixed mmap threshold glibc no longer raises its trim threshold either: it
    is set to :data:`TRIM_THRESHOLD` (1 MB; 64 MB kept 268 MB free in the 16 heaps of the page-run threads after a
    class's uploads, see ``compare_lib.limits``), and :func:`release_free_memory` trims the rest after collections.
    Returns False where there is no glibc (the allocator keeps its own policy)."""
    if _tuned:
        return _tuned[0]
    libc = allocator.glibc()
    ok = bool(libc) and bool(libc.mallopt(allocator.M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        libc.mallopt(allocator.M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    _tuned.append(ok)
    return ok


def results_token(data: bytes | cl.io.Spooled, name: str, layout: str, sheet: str | None, format: str = "auto") -> str:
    key = repr((name, layout, sheet, format)).encode("utf-8")
    return hashlib.sha256(key + digest(data)).hexdigest()[:20]


def set_results(results: cl.Results | None, token: str | None) -> None:
    """Remember the read file behind the loaded table, so its metric, aggregation and policy can be changed."""
    ss = st.session_state
    if results is None:
        for key in ("results", "results_token"):
            ss.pop(key, None)
    else:
        ss["results"], ss["results_token"] = results, token


def loaded_results() -> tuple[cl.Results, str] | None:
    """The read file behind the loaded table (None for samples, experiments and links)."""
    ss = st.session_state
    if "results" in ss and ss.get("origin") is not None and ss["origin"].kind in ("file", "paste"):
        return ss["results"], ss["results_token"]
    return None


@st.cache_resource(show_spinner=False, max_entries=len(SAMPLES) + 1)
def load_sample(label: str) -> cl.ScoreTable:
    """A sample table, one object shared by every session (read-only: a ScoreTable never changes; its memo of
    derived results is shared too), instead of a copy per session."""
    sample = SAMPLES[label]
    if sample.items:
        table = load_item_sample(label).task_table(higher_is_better=sample.higher_is_better)
        return table.with_direction(sample.higher_is_better, stated_by="stated with the sample")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        table = cl.load_scores(SAMPLE_DIR / sample.file, higher_is_better=sample.higher_is_better)
    return table.with_direction(sample.higher_is_better, stated_by="stated with the sample")


@st.cache_resource(show_spinner=False, max_entries=len(SAMPLES) + 1)
def load_item_sample(label: str) -> cl.Items:
    """An item-level sample's items, one read-only object shared by every session."""
    return cl.read_items(SAMPLE_DIR / SAMPLES[label].file)


def use_sample(label: str) -> None:
    """Make the sample with this label the loaded table (and, for item-level samples, its items)."""
    set_table(load_sample(label), Origin("sample", label))
    if SAMPLES[label].items:
        set_items(load_item_sample(label), f"sample:{SAMPLES[label].id}")


# ---------------------------------------------------------------------------------------------
# item-level results (issue 30): the items behind a task table, kept for the Per-task comparison page


@st.cache_resource(show_spinner="Reading the item-level results…", max_entries=4, ttl=3600, hash_funcs=SPOOLED_HASH)
def read_items_upload(data: bytes | cl.io.Spooled, name: str) -> cl.Items:
    """Item-level results from an upload or a paste (a long table, every_eval_ever JSON, lm-evaluation-harness
    samples files or a zip of their folder), read in a child process with the app's limits, at most
    APP_MAX_ITEM_ROWS rows (shared by the sessions that give the same bytes; read-only)."""
    from compare_lib.io._items import _LM_EVAL_LOOSE, read_item_upload

    items = isolated(read_item_upload, data, name, display=name, max_rows=cl.limits.APP_MAX_ITEM_ROWS,
                     max_unzip_bytes=cl.limits.APP_MAX_UNZIP_BYTES)
    if name != "pasted text" and not name.lower().endswith(".zip") and not _LM_EVAL_LOOSE.match(name):
        # One file that cl.read_items reads as it is: the reproducing script reads it again from beside itself
        # (checked by its SHA-256). A zip, or a samples file whose model is named by its folder, is carried instead.
        # (The object is new, unpickled from the reader, and not yet shared.)
        object.__setattr__(items, "provenance", cl.Source(Path(name).name, kind="file", loader="read_items",
                                                          sha256=digest(data).hex()))
    return items


def looks_like_items(data: bytes | cl.io.Spooled, name: str) -> bool:
    """Whether an upload looks like item-level results (by its name and first line; compare_lib decides)."""
    from compare_lib.io._items import sniff_items

    return sniff_items(data.head if isinstance(data, cl.io.Spooled) else data[:65536], name)


def items_token(data: bytes | cl.io.Spooled, name: str) -> str:
    return "items:" + hashlib.sha256(repr(name).encode("utf-8") + digest(data)).hexdigest()[:20]


def set_items(items: cl.Items | None, token: str | None) -> None:
    """Remember the item-level results behind the loaded table (None: the table has none)."""
    if items is None:
        st.session_state.pop("items", None)
    else:
        st.session_state["items"] = (items, token)


def loaded_items() -> tuple[cl.Items, str] | None:
    """The item-level results behind the loaded table and their token (None when it was not made from items)."""
    return st.session_state.get("items")


def analysed_items() -> cl.Items | None:
    """The loaded items as the active table names and keeps them: the renames of Load data applied, and only the
    models and tasks kept (remembered per selection for the session)."""
    loaded = loaded_items()
    if loaded is None:
        return None
    items, token = loaded
    active, key = active_table(), active_token()

    def compute() -> cl.Items:
        names = renames()
        frame = items.frame
        if names["classifiers"] or names["datasets"]:
            # dict lookups in pandas (no Python call per row): a name not renamed keeps its own
            frame = frame.assign(model=frame["model"].map(names["classifiers"]).fillna(frame["model"]),
                                 task=frame["task"].map(names["datasets"]).fillna(frame["task"]))
        keep = frame["model"].isin(active.classifiers) & frame["task"].isin(active.datasets)
        if keep.all() and frame is items.frame:
            return items
        return cl.Items(frame.loc[keep].reset_index(drop=True), metric=items.metric, notes=items.notes,
                        source=items.source)

    return session_memo("_items_memo", (token, key), compute)


#: What a teaching example replaces and "go back" restores.
_EXAMPLE_KEYS = ("table", "origin", "results", "results_token", "keep_classifiers", "drop_datasets", "upload_token",
                 "renames", "items")


def remembered(key: str, default: Any, valid: Callable[[Any], bool] = lambda value: True) -> Any:
    """A page's choice kept in the session under ``key`` (by an earlier visit or a link), if ``valid``; else the
    default. Widgets start from it, and the page stores their value back under ``key``, which links.CHOICES
    declares: so the choice survives leaving the page and travels in links."""
    value = st.session_state.get(key, default)
    try:
        return value if valid(value) else default
    except (TypeError, ValueError):
        return default


def whole(value: Any, lo: int, hi: int) -> bool:
    """Whether ``value`` is a whole number (an int, not a bool or a float) from ``lo`` to ``hi``: what a
    ``st.number_input`` of integers from ``lo`` to ``hi`` accepts as its value (a float there, or a value out of
    its range, raises). For :func:`remembered`'s ``valid``."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def number(value: Any, lo: float, hi: float) -> bool:
    """Whether ``value`` is a finite real number (not a bool) from ``lo`` to ``hi``, for :func:`remembered`."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and lo <= value <= hi)


def use_example(label: str) -> str:
    """Load a teaching example's sample, remembering the table it replaces (once: loading a second example
    keeps the user's own table, not the first example) so that :func:`restore_before_example` can bring it
    back. Returns a description of what was replaced."""
    ss = st.session_state
    ensure_table()
    replaced = origin().describe()
    if "before_example" not in ss:
        ss["before_example"] = {key: ss[key] for key in _EXAMPLE_KEYS if key in ss}
    use_sample(label)
    return replaced


def before_example() -> Origin | None:
    """Where the table a teaching example replaced came from (None when no example replaced anything)."""
    saved = st.session_state.get("before_example")
    return saved.get("origin") if saved else None


def restore_before_example() -> None:
    """Bring back the table (and its selection) that the teaching example replaced."""
    ss = st.session_state
    saved = ss.pop("before_example", None)
    if not saved:
        return
    for key in _EXAMPLE_KEYS:
        ss.pop(key, None)
    ss.update(saved)
    ss["table_version"] = ss.get("table_version", 0) + 1
    for key in CLASSIFIER_CHOICES:
        ss.pop(key, None)


# ---------------------------------------------------------------------------------------------
# the loaded table and the selection


def set_table(table: cl.ScoreTable, origin: Origin, *, keep_selection: bool = False) -> None:
    """Make ``table`` the loaded table with every classifier and data set kept (``keep_selection``: the same
    file read another way — another metric, aggregation or policy — keeps what the user left out)."""
    ss = st.session_state
    if keep_selection and ss.get(RENAMES):
        table = _renamed_again(table)  # the same file read another way keeps the user's names (issue 28)
    else:
        ss.pop(RENAMES, None)  # another table: the renames were of the old one's names
    ss["table"] = table
    ss["origin"] = origin
    if not keep_selection:
        ss.pop("items", None)  # another table: its item-level results, if any, are set after this (set_items)
    if origin.kind not in ("file", "paste"):
        set_results(None, None)
    if keep_selection:
        ss["table_version"] = ss.get("table_version", 0) + 1
        return
    ss["keep_classifiers"] = list(table.classifiers)
    ss["drop_datasets"] = []
    ss["table_version"] = ss.get("table_version", 0) + 1
    for key in CLASSIFIER_CHOICES:
        ss.pop(key, None)
    ss.pop("load_error", None)
    if origin.kind != "file":
        ss.pop("upload_token", None)


# ---------------------------------------------------------------------------------------------
# renaming classifiers and data sets (issue 28): the loaded table itself is renamed, so every page, download and
# link shows the new names; the renames are remembered from the names as read, so that the same file read another
# way (another metric, aggregation or policy) keeps them, and a link carries them for a sample or a fingerprint.

#: Session key of the renames: {"classifiers": {name as read: current name}, "datasets": {...}}.
RENAMES = "renames"


def renames() -> dict[str, dict[str, str]]:
    """The renames in force, from the names as read to the current ones (empty dicts when none)."""
    stored = st.session_state.get(RENAMES) or {}
    return {"classifiers": dict(stored.get("classifiers", {})), "datasets": dict(stored.get("datasets", {}))}


def _compose(stored: dict, before: list, after: list) -> dict:
    """Renames from the names as read, after one more step (names ``before`` became ``after``, in order)."""
    step = {old: new for old, new in zip(before, after) if old != new}
    as_read = {current: original for original, current in stored.items()}
    out = dict(stored)
    for current, new in step.items():
        out[as_read.get(current, current)] = new
    return {original: current for original, current in out.items() if original != current}


def _rename_choices(classifiers: dict, datasets: dict) -> None:
    """The selection and the pages' classifier choices follow a rename ({old: new})."""
    ss = st.session_state
    if "keep_classifiers" in ss:
        ss["keep_classifiers"] = [classifiers.get(c, c) for c in ss["keep_classifiers"]]
    if "drop_datasets" in ss:
        ss["drop_datasets"] = [datasets.get(d, d) for d in ss["drop_datasets"]]
    for key in CLASSIFIER_CHOICES:
        value = ss.get(key)
        if isinstance(value, str):
            ss[key] = classifiers.get(value, value)
        elif isinstance(value, (list, tuple)):
            ss[key] = [classifiers.get(v, v) if isinstance(v, str) else v for v in value]


def apply_renames(classifiers: dict | None = None, datasets: dict | None = None) -> dict[str, dict[str, str]]:
    """Rename classifiers and/or data sets of the loaded table ({current name: new name}); the selection and the
    pages' choices follow. Returns what was renamed in this step; an InputError (unknown name, empty name, two
    names becoming one) changes nothing."""
    ss = st.session_state
    table = full_table()
    new = table.rename(classifiers or None, datasets or None)
    if new is table:
        return {"classifiers": {}, "datasets": {}}
    done = {"classifiers": {o: n for o, n in zip(table.classifiers, new.classifiers) if o != n},
            "datasets": {o: n for o, n in zip(table.datasets, new.datasets) if o != n}}
    stored = renames()
    ss[RENAMES] = {"classifiers": _compose(stored["classifiers"], table.classifiers, new.classifiers),
                   "datasets": _compose(stored["datasets"], table.datasets, new.datasets)}
    ss["table"] = new
    _rename_choices(done["classifiers"], done["datasets"])
    ss["table_version"] = ss.get("table_version", 0) + 1
    return done


def undo_renames() -> None:
    """Give the classifiers and data sets their names as read again."""
    stored = renames()
    apply_renames({c: o for o, c in stored["classifiers"].items()}, {c: o for o, c in stored["datasets"].items()})
    st.session_state.pop(RENAMES, None)


def _renamed_again(table: cl.ScoreTable) -> cl.ScoreTable:
    """``table`` (read from the same file as the renamed one) with the renames in force, for the names it has."""
    stored = renames()
    classifiers = {o: c for o, c in stored["classifiers"].items() if o in set(table.classifiers)}
    datasets = {o: c for o, c in stored["datasets"].items() if o in set(table.datasets)}
    try:
        return table.rename(classifiers, datasets)
    except cl.InputError:
        st.session_state.pop(RENAMES, None)  # the names no longer fit this table: shown as read
        return table


def table_as_read() -> cl.ScoreTable:
    """The loaded table with the names it was read with (its fingerprint is the file's, for a link)."""
    stored = renames()
    table = full_table()
    if not stored["classifiers"] and not stored["datasets"]:
        return table
    return session_memo("_as_read_memo", table, lambda: table.rename(
        {c: o for o, c in stored["classifiers"].items()}, {c: o for o, c in stored["datasets"].items()}))


#: How the outputs name a direction the user chose on the Load data page (issue 28).
STATED_BY_YOU = "stated by you"


def set_direction(higher_is_better: bool, stated_by: str = STATED_BY_YOU) -> None:
    """Read the loaded scores in the direction the user chose (also when it confirms the guess: the outputs then
    say it was stated); the selection is kept."""
    st.session_state["table"] = st.session_state["table"].with_direction(higher_is_better, stated_by=stated_by)


def direction_words(table: cl.ScoreTable) -> str:
    """"lower is better (stated by you)", "higher is better (guessed from the metric's name)": the direction and
    where it comes from, short, for captions."""
    direction = "higher is better" if table.higher_is_better else "lower is better"
    if table.direction_stated:
        return f"{direction} ({table.direction_reason or 'stated'})"
    return f"{direction} (guessed from the metric's name)"


def direction_waiting() -> str | None:
    """The sentence other pages show while a file read on Load data waits for its direction (None otherwise)."""
    pending = st.session_state.get("pending_read")
    if not pending or not pending.get("direction"):
        return None
    return (f"{pending['origin'].label} is read but not analysed: nothing says whether a higher or a lower "
            f"{pending['origin'].metric or 'score'} is better. Choose the direction on Load data. Until then every "
            f"page shows the table loaded before ({origin().describe()}).")


def ensure_table() -> None:
    if "table" not in st.session_state:
        use_sample(DEFAULT_SAMPLE)


def full_table() -> cl.ScoreTable:
    ensure_table()
    return st.session_state["table"]


def report_source() -> cl.Source | None:
    """How the active table was made, for the report: the sample, the uploaded file or the pasted text with the
    choices made on the Load data page and the selection. None of them has a path on the visitor's disk (an upload
    is bytes; a sample lives on the server), so the reproducing script carries the table as analysed (kinds
    "sample", "upload", "paste" of cl.Source) and says which case applies; None (the script carries the scores
    too) for a link's table or an experiment."""
    where = origin()
    kinds = {"sample": "sample", "file": "upload", "paste": "paste"}
    if where.kind not in kinds:
        return None
    item_level = loaded_items()
    record = getattr(item_level[0], "provenance", None) if item_level is not None else None
    renamed = renames()
    if record is not None and where.kind == "file" and not (renamed["classifiers"] or renamed["datasets"]):
        # Item-level results (issue 30): the script reads the item file (put beside it) with cl.read_items and makes
        # the task table again; with renames it carries the table as analysed.
        full = full_table()
        keep, drop = kept_classifiers(), set(dropped_datasets())
        return cl.Source(record.path, read=dict(record.read), kind="file", sha256=record.sha256, loader="read_items",
                         table={"metric": full.metric, "higher_is_better": full.higher_is_better,
                                "missing": where.missing, "aggregate": "mean"},
                         classifiers=tuple(keep) if keep != list(full.classifiers) else None,
                         datasets=tuple(d for d in full.datasets if d not in drop) if drop else None)
    if where.kind == "sample":
        path, read = SAMPLES[where.label].file if where.label in SAMPLES else where.label, {}
    else:
        path = where.label if where.kind == "file" else "pasted text"
        read = {k: v for k, v in (("layout", where.layout), ("sheet", where.sheet)) if v not in (None, "auto")}
    full = full_table()
    keep, drop = kept_classifiers(), set(dropped_datasets())
    table_options = {"metric": full.metric, "higher_is_better": full.higher_is_better, "missing": where.missing,
                     "aggregate": where.aggregate}
    classifiers = tuple(keep) if keep != list(full.classifiers) else None
    datasets = tuple(d for d in full.datasets if d not in drop) if drop else None
    return cl.Source(path, read=read, table=table_options, classifiers=classifiers, datasets=datasets,
                     kind=kinds[where.kind])


def origin() -> Origin:
    ensure_table()
    return st.session_state["origin"]


def kept_classifiers() -> list[str]:
    table = full_table()
    present = set(table.classifiers)
    keep = [c for c in st.session_state.get("keep_classifiers", table.classifiers) if c in present]
    return keep if len(keep) >= 2 else list(table.classifiers)


def dropped_datasets() -> list[str]:
    table = full_table()
    present = set(table.datasets)
    return [d for d in st.session_state.get("drop_datasets", []) if d in present]


def set_selection(keep_classifiers: list[str] | None = None, drop_datasets: list[str] | None = None) -> None:
    if keep_classifiers is not None:
        st.session_state["keep_classifiers"] = list(keep_classifiers)
    if drop_datasets is not None:
        st.session_state["drop_datasets"] = list(drop_datasets)


def active_table() -> cl.ScoreTable:
    """The loaded table restricted to the classifiers and data sets the user kept (linear in the size,
    built once per selection and remembered for the session)."""
    return _active()[0]


def active_token() -> str:
    """A key that identifies the active table (the loaded table's fingerprint and the selection): the
    cached computations are keyed by it instead of hashing the scores on every rerun."""
    return _active()[1]


def _active() -> tuple[cl.ScoreTable, str]:
    table = full_table()
    ss = st.session_state
    keep_c = kept_classifiers()
    dropped = dropped_datasets()
    # The direction's provenance too: confirming a guess ("That is right") makes the outputs say "stated by you".
    key = (ss.get("table_version", 0), table.higher_is_better, table.direction_stated, tuple(keep_c), tuple(dropped))

    def compute() -> tuple[cl.ScoreTable, str]:
        active = table
        if keep_c != table.classifiers or dropped:
            drop_set = set(dropped)
            rows = [d for d in table.datasets if d not in drop_set]
            if len(rows) >= 2:
                # subset keeps the metric, the notes, the missing-data policy and the fold rows of the kept part
                active = table.subset(keep_c, rows)
        key_text = repr((fingerprint(table), keep_c, dropped, table.direction_stated, table.direction_reason))
        return active, hashlib.sha256(key_text.encode("utf-8")).hexdigest()[:20]

    return session_memo("_active_memo", key, compute)


def session_memo(name: str, key: Any, compute: Callable[[], Any]) -> Any:
    """The value ``compute()`` gives for ``key``, remembered for this session under ``name``: one entry per
    name (a new key replaces the old one, so a session keeps one large result of each kind). Keys are
    compared with ``==`` (a ScoreTable compares by identity). A None result (an error already shown) is
    not remembered."""
    ss = st.session_state
    slot = ss.get(name)
    if slot is not None and slot[0] == key:
        return slot[1]
    value = compute()
    if value is not None:
        ss[name] = (key, value)
    return value


def alpha() -> float:
    return float(st.session_state.get("alpha", ALPHA_DEFAULT))


def table_caption(table: cl.ScoreTable) -> str:
    """Plain text (escape it before rendering as Markdown): where the table came from, the metric, its size
    and the direction."""
    direction = direction_words(table)
    metric = f" · metric: {table.metric}" if table.metric else ""
    holes = " · with missing cells" if table.has_missing else ""
    return (f"{origin().describe()} · {table.n_datasets} data sets × {table.n_classifiers} classifiers{metric}"
            f"{holes} · {direction}")


def table_label(table: cl.ScoreTable | None = None) -> str:
    """The metric and the direction of the active table, for export captions: "test_roc_auc, higher is better"."""
    table = active_table() if table is None else table
    direction = "higher is better" if table.higher_is_better else "lower is better"
    return f"{table.metric}, {direction}" if table.metric else direction


def file_stem(stem: str, table: cl.ScoreTable | None = None) -> str:
    """A download's file name with the metric in it ("cd_diagram_test_roc_auc"), safe for every file system."""
    table = active_table() if table is None else table
    if not table.metric:
        return stem
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(table.metric))[:60]
    return f"{stem}_{safe}"


def fingerprint(table: cl.ScoreTable) -> str:
    """A short hash of the table's names, scores and direction: a link made with a table the link cannot
    carry records it, so that the page can check the recipient loaded the same table. Vectorized
    (pandas' row hashes), so a million scores take milliseconds."""
    def compute() -> str:
        digest = hashlib.sha256()
        digest.update(b"higher" if table.higher_is_better else b"lower")
        digest.update("\x1f".join(table.classifiers).encode("utf-8"))
        digest.update(pd.util.hash_pandas_object(table.scores, index=True).to_numpy().tobytes())
        return digest.hexdigest()[:16]

    return session_memo("_fingerprint_memo", table, compute)
