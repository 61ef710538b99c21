"""A class loading data at once: N sessions upload results files to one dashboard server (issue 31).

    .venv/bin/python bench/uploads.py [--sessions 30] [--mb 10] [--arrival 10]   # N uploads within 10 s
    .venv/bin/python bench/uploads.py --big                                      # one 41.9 MB upload
    options: --files DIR (keep the made files), --ttl 10 (measure again once the closed sessions are dropped),
             --root DIR (measure another checkout, e.g. `git archive HEAD | tar -x -C DIR`), --env NAME=VALUE,
             --stay S (each session stays open, holding its table, until all are loaded and S s more: a class keeps
             its tabs open; by default a session closes once its file is loaded)

Starts the dashboard as ``bench/load.py`` does (``bash scripts/run.sh`` on a free port, so ``.streamlit/config.toml``
applies), then drives sessions that speak Streamlit's own protocol from this one asyncio process
(``bench/protocol.py``): each opens the app (Load data is the default page), chooses the source "Upload a file",
then at a random moment in the first ``--arrival`` seconds uploads its file the way the browser does:

1. ``BackMsg.file_urls_request`` with the file's name; the server answers ``file_urls_response`` with a file id
   and the upload URL ``/_stcore/upload_file/<session id>/<file id>`` (the session id is in the first
   ``new_session`` message); streamlit/runtime/app_session.py ``_handle_file_urls_request``;
2. HTTP ``PUT`` of a multipart form with one file part to that URL (streamlit/web/server/starlette/
   starlette_routes.py ``_upload_put``: the session must be active, one file per request);
3. a rerun whose widget states give the ``st.file_uploader`` its value: ``file_uploader_state_value`` with one
   ``UploadedFileInfo`` (file id, name, size, the URLs), as the browser's FileUploader sends it
   (streamlit/elements/widgets/file_uploader.py ``FileUploaderSerde``).

The page reads the file (in a worker process, queued server-wide: ``compare_lib.io._isolate``) and, when it loads,
reruns itself; the session waits for the end of that run and checks that the page says "Loaded: file: <name>".
An error message on the page, an exception element, a failed upload or no answer within ``--timeout`` is an error.

The files are made by this script (not committed), each different (its own seed), shaped like real results: half
are wide tables (data sets x classifiers, scores with 7 decimals, within the app's 1,000,000 scores), half long
fold-level files (data set, classifier, fold, accuracy). ``--big`` uploads the 1.95-million-row long table of
``bench/hostile.py`` (41.9 MB), one session.

Reported: the peak PSS of the server's process tree (the server and its reader workers, from
/proc/<pid>/smaps_rollup, sampled every 0.2 s), its PSS idle before and after, errors, how many sessions saw the
"waiting for a reader" message, and each session's upload time (PUT) and read time (from the rerun carrying the
file to the end of the run that shows it loaded). Never a timed assertion: run by hand, paste the output.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import requests
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import protocol  # noqa: E402  (bench/protocol.py: the websocket session)
from load import cpu_seconds, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

QUEUE_WORDS = "being read"  # the dashboard's message while a read waits for a free reader


# -- the server's memory -----------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (from each of its threads' ``children`` file: cheaper than a walk of /proc)."""
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                out += [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
            except OSError:
                pass
    except OSError:
        pass
    return out


def tree_pss_mb(pid: int, parts: dict | None = None) -> tuple[float, int]:
    """PSS of ``pid`` and all its descendants (MB), and how many processes that is. ``parts``, when given, receives
    the PSS of ``pid`` itself under "server" and of its descendants (the reader workers) under "readers"."""
    total, todo, seen = 0, [pid], 0
    while todo:
        p = todo.pop()
        todo += _children(p)
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    kb = int(line.split()[1])
                    total += kb
                    seen += 1
                    if parts is not None:
                        key = "server" if p == pid else "readers"
                        parts[key] = parts.get(key, 0.0) + kb / 1024
                    break
        except OSError:
            continue
    return total / 1024, seen


class Sampler(threading.Thread):
    """The server tree's PSS every ``interval`` s; the tree is looked up at every sample (reader workers live for
    a second or two)."""

    def __init__(self, pid: int, interval: float = 0.2):
        super().__init__(daemon=True)
        self.pid, self.interval, self.stop = pid, interval, threading.Event()
        self.peak, self.peak_procs, self.samples = 0.0, 0, []
        self.peak_parts: dict = {}  # the server's own PSS and its readers' at the peak
        self.server_peak = 0.0  # the server process alone, its own peak

    def run(self) -> None:
        t0 = time.perf_counter()
        while not self.stop.is_set():
            parts: dict = {}
            mb, procs = tree_pss_mb(self.pid, parts)
            self.samples.append((time.perf_counter() - t0, mb, procs))
            self.server_peak = max(self.server_peak, parts.get("server", 0.0))
            if mb > self.peak:
                self.peak, self.peak_procs, self.peak_parts = mb, procs, parts
            time.sleep(self.interval)


def start_server(root: Path, port: int, log: Path, env: dict[str, str] | None = None,
                 ttl: float | None = None) -> subprocess.Popen:
    """The dashboard of the checkout ``root`` as scripts/run.sh starts it (its ``.streamlit/config.toml`` applies),
    with this virtualenv; ``root`` first on the path, so that another checkout (``--root``, e.g. ``git archive HEAD``
    unpacked somewhere) is measured with its own compare_lib."""
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(root) + (os.pathsep + os.environ["PYTHONPATH"]
                                                                   if os.environ.get("PYTHONPATH") else "")}
    extra = ["--server.disconnectedSessionTTL", f"{ttl:g}"] if ttl is not None else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "dashboard/server.py", "--server.port", str(port), "--server.address",
         "127.0.0.1", *extra], cwd=root, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).text == "ok":
                return proc
        except requests.RequestException:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not start; see {log}")


# -- the files -------------------------------------------------------------------------------------------

def wide_file(path: Path, mb: float, seed: int) -> None:
    """A wide table: data sets x 50 classifiers, 7 decimals (about 10 bytes a score), within 1,000,000 scores."""
    rng = np.random.default_rng(seed)
    k = 50
    n = min(int(mb * 1e6 / (18 + 10 * k)), 1_000_000 // k)
    scores = rng.uniform(0.55, 0.98, size=(n, k)) + np.linspace(0, 0.01, k)
    names = np.array([f"openml_task_{seed % 100:02d}{i:05d}" for i in range(n)], dtype=object)
    with path.open("w") as f:
        f.write("dataset," + ",".join(f"clf_{j:02d}" for j in range(k)) + "\n")
        body = np.column_stack([names, np.char.mod("%.7f", np.minimum(scores, 0.9999999))])
        np.savetxt(f, body, fmt="%s", delimiter=",")


def long_file(path: Path, mb: float, seed: int) -> None:
    """A long fold-level file: data set, classifier, fold, accuracy (10 folds of 25 classifiers per data set)."""
    rng = np.random.default_rng(seed)
    k, folds = 25, 10
    n = max(int(mb * 1e6 / (43 * k * folds)), 2)
    d = np.repeat(np.arange(n), k * folds)
    c = np.tile(np.repeat(np.arange(k), folds), n)
    fold = np.tile(np.arange(folds), n * k)
    acc = np.clip(rng.normal(0.8, 0.05, size=d.size) + c * 0.001, 0, 1)
    with path.open("w") as f:
        f.write("dataset,classifier,fold,accuracy\n")
        body = np.column_stack([np.char.add(f"uci_{seed:03d}_", d.astype(str)),
                                np.char.add("classifier_", c.astype(str)), fold.astype(str),
                                np.char.mod("%.7f", acc)])
        np.savetxt(f, body, fmt="%s", delimiter=",")


def big_long_file(path: Path) -> None:
    """bench/hostile.py's long table: 13,000 data sets x 15 classifiers x 10 folds, 1.95 million rows, 41.9 MB."""
    rng = np.random.default_rng(0)
    rng.uniform(0.5, 0.95, size=(20_000, 50)), rng.uniform(0.5, 0.95, size=(12, 500)), rng.integers(0, 5, size=(50, 200))
    with path.open("w") as f:  # the same draws as hostile.py (the three tables it makes first)
        f.write("dataset,classifier,fold,score\n")
        for d in range(13_000):
            s = rng.random((15, 10))
            f.write("".join(f"ds{d},clf{c},{k},{s[c, k]:.4f}\n" for c in range(15) for k in range(10)))


# -- one session -------------------------------------------------------------------------------------------

class UploadSession(protocol.Session):
    """bench/protocol.py's session, also keeping the session id, the file uploader, file URL answers and alerts."""

    def __init__(self, url: str, timeout: float):
        super().__init__(url, timeout)
        self.session_id: str | None = None
        self.uploader = None
        self.alerts: list[tuple[int, str]] = []  # (format, body) of every alert of the current run
        self.url_answers: dict[str, asyncio.Future] = {}
        self.saw_queue = False

    def _handle(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.initialize.session_id:
            self.session_id = msg.new_session.initialize.session_id
        elif kind == "file_urls_response":
            answer = self.url_answers.pop(msg.file_urls_response.response_id, None)
            if answer is not None and not answer.done():
                answer.set_result(msg.file_urls_response)
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            etype = element.WhichOneof("type")
            if etype == "file_uploader":
                self.uploader = element.file_uploader
            elif etype == "alert":
                body = element.alert.body.replace("\\", "")  # the page escapes punctuation (ui.esc)
                self.alerts.append((element.alert.format, body))
                if QUEUE_WORDS in body:
                    self.saw_queue = True
        super()._handle(msg)

    async def rerun(self, page, states=()):
        self.alerts = []
        return await super().rerun(page, states)

    async def file_urls(self, name: str):
        back = BackMsg()
        request_id = f"r{random.getrandbits(48):x}"
        back.file_urls_request.request_id = request_id
        back.file_urls_request.session_id = self.session_id or ""
        back.file_urls_request.file_names.append(name)
        self.url_answers[request_id] = asyncio.get_running_loop().create_future()
        await self.ws.send(back.SerializeToString())
        answer = await asyncio.wait_for(self.url_answers[request_id], self.timeout)
        if answer.error_msg:
            raise RuntimeError(f"file_urls_request refused: {answer.error_msg}")
        return answer.file_urls[0]


@dataclass
class Outcome:
    name: str
    mb: float
    upload_s: float = float("nan")
    read_s: float = float("nan")
    error: str | None = None
    saw_queue: bool = False
    done: bool = False


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    expected: int = 0  # sessions (with --stay: each waits for all of them)
    linger: float = 0.0  # with --stay: seconds the sessions stay open once all are done


def _xsrf(base: str, timeout: float) -> requests.Session:
    """An HTTP session holding the XSRF cookie that /_stcore/health sets (the browser polls it when it opens the app); the
    upload sends it back as the ``X-Xsrftoken`` header (Streamlit's double-submit check, on by default)."""
    http = requests.Session()
    http.get(base + "/_stcore/health", timeout=timeout).raise_for_status()
    return http


def _put(http: requests.Session, url: str, name: str, path: Path, timeout: float) -> int:
    token = http.cookies.get("_streamlit_xsrf")
    with path.open("rb") as f:
        return http.put(url, files={"file": (name, f, "text/csv")}, timeout=timeout,
                        headers={"X-Xsrftoken": token} if token else {}).status_code


async def upload_session(host: str, port: int, path: Path, delay: float, timeout: float, report: Report,
                         stay: asyncio.Event | None = None) -> None:
    s = UploadSession(f"ws://{host}:{port}/_stcore/stream", timeout)
    out = Outcome(path.name, path.stat().st_size / 1e6)
    report.outcomes.append(out)
    base = f"http://{host}:{port}"
    try:
        http = await asyncio.to_thread(_xsrf, base, timeout)
        await s.connect()
        seconds, problem = await s.rerun(None)  # lands on Load data, the default page
        if problem:
            raise RuntimeError(f"landing: {problem}")
        seconds, problem = await s.rerun(None, [s.set_widget("Source", "Upload a file")])
        if problem or s.uploader is None:
            raise RuntimeError(f"choosing 'Upload a file': {problem or 'no file uploader on the page'}")
        uploader = s.uploader
        await asyncio.sleep(max(delay - (time.perf_counter() - T0), 0))  # the upload's moment in the arrival window
        urls = await s.file_urls(path.name)
        t0 = time.perf_counter()
        status = await asyncio.to_thread(_put, http, base + urls.upload_url, path.name, path, timeout)
        out.upload_s = time.perf_counter() - t0
        if status != 204:
            raise RuntimeError(f"PUT answered {status}")
        state = WidgetState(id=uploader.id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, path.name, path.stat().st_size
        info.file_urls.CopyFrom(urls)
        t0 = time.perf_counter()
        seconds, problem = await s.rerun(None, [state])
        out.read_s, out.saw_queue = time.perf_counter() - t0, s.saw_queue
        errors = [body for fmt, body in s.alerts if fmt == 1]  # Alert.Format.ERROR
        if problem or errors:
            raise RuntimeError(problem or errors[0][:300])
        # Loaded, or read and waiting for the direction of a metric the catalogue does not know (--big's "score")
        if not any(f"Loaded: file: {path.name}" in body or "Nothing says whether a higher or a lower" in body
                   for _, body in s.alerts):
            raise RuntimeError("the page does not say the file is loaded: "
                               + " | ".join(body[:80] for _, body in s.alerts)[:300])
    except Exception as err:  # reported; the other sessions go on
        out.error = f"{type(err).__name__}: {err}"
    finally:
        out.done = True
        if stay is not None:  # a class keeps its tabs open: the session holds its table until every upload is done
            if all(o.done for o in report.outcomes) and len(report.outcomes) == report.expected:
                await asyncio.sleep(report.linger)
                stay.set()
            await stay.wait()
        await s.close()


T0 = 0.0


async def run_uploads(host: str, port: int, files: list[Path], arrival: float, timeout: float, seed: int,
                      stay: float | None = None) -> Report:
    global T0
    rng = random.Random(seed)
    report = Report(expected=len(files), linger=stay or 0.0)
    everyone = asyncio.Event() if stay is not None else None
    T0 = time.perf_counter()
    # Every session first opens the app (within the first 2 s), then uploads at its moment within `arrival` s.
    delays = sorted(rng.uniform(0, arrival) for _ in files)
    await asyncio.gather(*(upload_session(host, port, path, 2.0 + delay, timeout, report, everyone)
                           for path, delay in zip(files, delays)))
    return report


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--mb", type=float, default=10.0, help="size of each file (MB)")
    parser.add_argument("--arrival", type=float, default=10.0, help="the uploads start within these seconds")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before a step is an error")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--big", action="store_true", help="one session uploading the 41.9 MB long table instead")
    parser.add_argument("--kinds", default="wide,long", help="file shapes, alternated: wide, long")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose dashboard is measured (default: this one)")
    parser.add_argument("--files", type=Path, default=None, help="keep the made files in this folder (made once)")
    parser.add_argument("--env", nargs="*", default=[], metavar="NAME=VALUE",
                        help="environment of the server, e.g. MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072")
    parser.add_argument("--settle", type=float, default=0.0,
                        help="with --ttl: measure once more this many seconds after the sessions were dropped")
    parser.add_argument("--hold", type=float, default=0.0,
                        help="keep the server this many seconds after the last measure (to inspect it)")
    parser.add_argument("--stay", type=float, default=None, metavar="SECONDS",
                        help="each session stays open, holding its table, until every upload is done and SECONDS more "
                             "(a class keeps its tabs open); without it a session closes once its file is loaded")
    parser.add_argument("--ttl", type=float, default=None,
                        help="server.disconnectedSessionTTL (s); with it, the PSS is measured again once the closed "
                             "sessions are dropped (Streamlit's default keeps them 120 s)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="uploads-"))
    folder = args.files or tmp
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    t0 = time.perf_counter()
    if args.big:
        files.append(folder / "long_2M_rows.csv")
        if not files[0].exists():
            big_long_file(files[0])
    else:
        kinds = args.kinds.split(",")
        for i in range(args.sessions):
            kind = kinds[i % len(kinds)]
            path = folder / f"accuracy_{kind}_{args.mb:g}MB_{i:03d}.csv"  # the metric named, as people name files
            if not path.exists():
                (wide_file if kind == "wide" else long_file)(path, args.mb, seed=i)
            files.append(path)
    sizes = [p.stat().st_size / 1e6 for p in files]
    print(f"{len(files)} files made in {time.perf_counter() - t0:.1f} s: {min(sizes):.1f}-{max(sizes):.1f} MB "
          f"({', '.join(sorted({p.name.split('_')[1] for p in files}))})", flush=True)
    port = free_port()
    proc = start_server(args.root.resolve(), port, tmp / "server.log", dict(e.split("=", 1) for e in args.env),
                        args.ttl)
    print(f"server pid {proc.pid}, port {port}, log {tmp / 'server.log'}", flush=True)
    try:
        # Warm-up: one session lands and loads the first page, as the first visitor of the day does.
        warm = asyncio.run(protocol.run_sessions("127.0.0.1", port, 1, rounds=0, arrival=0, think=(0.1, 0.2)))
        if warm.sessions_failed or warm.errors:
            print("warm-up problems:", warm.sessions_failed, [r.error for r in warm.errors][:5])
        deadline = time.time() + 20  # the spare reader worker starts after the first page (if the app keeps one)
        while tree_pss_mb(proc.pid)[1] < 2 and time.time() < deadline:
            time.sleep(0.5)
        time.sleep(1)
        idle, procs = tree_pss_mb(proc.pid)
        print(f"server tree idle after warm-up: {idle:.0f} MB PSS ({procs} processes)", flush=True)
        sampler = Sampler(proc.pid)
        sampler.start()
        cpu0, w0 = cpu_seconds(proc.pid), time.perf_counter()
        report = asyncio.run(run_uploads("127.0.0.1", port, files, 0 if args.big else args.arrival, args.timeout,
                                         args.seed, args.stay))
        wall, cpu = time.perf_counter() - w0, cpu_seconds(proc.pid) - cpu0
        time.sleep(5)
        sampler.stop.set()
        sampler.join()
        after, _ = tree_pss_mb(proc.pid)
        outs = report.outcomes
        errors = [o for o in outs if o.error]
        reads = [o.read_s for o in outs if not o.error]
        uploads = [o.upload_s for o in outs if o.upload_s == o.upload_s]
        print(f"{len(outs)} sessions, {len(errors)} errors; peak PSS of the server tree {sampler.peak:.0f} MB "
              f"({sampler.peak_procs} processes), idle {idle:.0f} MB before, {after:.0f} MB 5 s after; server CPU "
              f"{cpu:.1f} s over {wall:.1f} s", flush=True)
        print(f"at the peak: server {sampler.peak_parts.get('server', 0):.0f} MB, reader workers "
              f"{sampler.peak_parts.get('readers', 0):.0f} MB; the server process alone peaked at "
              f"{sampler.server_peak:.0f} MB", flush=True)
        if reads:
            print(f"read time (rerun with the file -> loaded) median {statistics.median(reads):.2f} s, p90 "
                  f"{quantile(reads, 0.9):.2f} s, max {max(reads):.2f} s; upload (PUT) median "
                  f"{statistics.median(uploads):.2f} s, max {max(uploads):.2f} s; "
                  f"{sum(o.saw_queue for o in outs)} sessions were shown the queue message", flush=True)
        print(f"{'file':>26} {'MB':>5} {'upload s':>8} {'read s':>7} {'queued':>6}  error")
        for o in sorted(outs, key=lambda o: o.name):
            print(f"{o.name:>26} {o.mb:>5.1f} {o.upload_s:>8.2f} {o.read_s:>7.2f} {'yes' if o.saw_queue else '':>6}  "
                  f"{' '.join((o.error or '').split())[:150]}")
        if args.ttl is not None:
            time.sleep(args.ttl + 5)
            # Streamlit drops expired sessions when its session storage is next used: one visitor opens the app
            asyncio.run(protocol.run_sessions("127.0.0.1", port, 1, rounds=0, arrival=0, think=(0.1, 0.2)))
            time.sleep(5)
            print(f"server tree once the sessions were dropped ({args.ttl:g} s after they closed, then one visit): "
                  f"{tree_pss_mb(proc.pid)[0]:.0f} MB PSS", flush=True)
            if args.settle:
                time.sleep(args.settle)
                print(f"... and {args.settle:g} s later (the dashboard collects garbage every 30 s): "
                      f"{tree_pss_mb(proc.pid)[0]:.0f} MB PSS", flush=True)
        peak_at = max(sampler.samples, key=lambda s: s[1])[0] if sampler.samples else 0
        print(f"PSS peak at {peak_at:.1f} s; PSS every second: " + " ".join(
            f"{mb:.0f}" for t, mb, _ in sampler.samples[::5]), flush=True)
        time.sleep(args.hold)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
