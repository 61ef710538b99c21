"""A class on one shared instance: N concurrent sessions against one dashboard server (issues 20 and 31).

    .venv/bin/python bench/load.py [--sessions 1 8 30] [--rounds 2]                 # browsers (chromium)
    .venv/bin/python bench/load.py --mode protocol --sessions 1,30,100 [--rounds 2]  # Streamlit's websocket protocol
    .venv/bin/python bench/load.py --mode calibrate [--repeat 3]                    # the protocol against a browser

Protocol mode (issue 31, ``bench/protocol.py``): the sessions speak Streamlit's own websocket protocol from this one
asyncio process, so that 30, 100 or 300 of them fit on a 2-core machine beside the server. Each arrives in the first
10 s, visits the six pages in random order (two rounds), changes one widget per page, 2-4 s between clicks; a run
with an exception element or the app's internal-error message is an error. It reports per N the answers (requests
answered), the page runs the server logged, errors, the median and p90 answer time measured by the client (request
to ``script_finished``), server CPU per page run, peak PSS of the server tree, and the client's own CPU.
A session asks of the server what a browser asks (calibrated against this file's browser mode at N = 1, issue 31):
besides the websocket, the page and its ~150 static files on arrival (bench/browser_requests.txt), the favicon after
each run, every widget's state with a change, the browser's ForwardMsg cache expiry; ``--websocket-only`` leaves
those out (the protocol mode as first written, 15-25 % below a browser's CPU per run: a first visit's static files
alone cost the server ~0.6 s of CPU).

Calibration mode (issue 31): does the protocol ask of the server what a browser asks? On one server, in turn, one
chromium session of the browser mode and the same visits in protocol (``--browser-like``), each alone, ``--repeat``
times; each phase's server CPU per page run is printed as measured and without the server's idle CPU over the phase
(measured first), and the protocol's mean over the browser's. The protocol's default sessions are not the browser
mode's visits (six widget changes in random pages, 2-4 s apart, 75 s a session against the browser's 15 s), so
their CPU per run at N = 1 is not the comparison.

Browser mode:

Starts the dashboard the way the README does (``bash scripts/run.sh``, so ``.streamlit/config.toml``
applies) on a free port, warms it with one session, then for each N drives N concurrent sessions in
Debian's chromium (Playwright): each opens the app, visits the six pages, changes one control on the
post-hoc page and one on the omnibus page, ``--rounds`` times. Reports, for each N:

* server CPU seconds per page run: the CPU time of the server's process tree (utime + stime of the
  server and its children, from /proc) over the phase, divided by the page runs it served;
* the time the server takes to answer a page, median and p90: from the rerun request reaching the
  script to the end of its run, logged by the app itself (COMPARE_DASHBOARD_RUNLOG), so that the
  load-generating browsers on the same machine do not blur it;
* the peak proportional memory (PSS) of the server's process tree, sampled every 0.25 s, and its PSS
  once the sessions have left (after a pause).

Never a timed assertion: run by hand, paste the output into the note.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
PAGES = ["Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis", "Load data"]
TIMEOUT = 180_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree(pid: int) -> list[int]:
    """The process and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pid: int) -> float:
    total = 0.0
    for p in tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def pss_mb(pid: int, pids: list[int] | None = None) -> float:
    total = 0
    for p in tree(pid) if pids is None else pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class PssSampler(threading.Thread):
    """The peak PSS of the server's tree, sampled every ``interval`` seconds (0.25 s in browser mode, 0.5 s in
    protocol mode: each read of a 300 MB server's smaps_rollup costs this process ~5-10 ms of kernel CPU, taken
    from the two cores the server shares); the tree itself (a walk over all of /proc) is looked up every 2 s."""

    def __init__(self, pid: int, interval: float = 0.25):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop, self.interval = pid, 0.0, threading.Event(), interval

    def run(self) -> None:
        i, pids = 0, []
        while not self.stop.is_set():
            if i % round(2 / self.interval) == 0:
                pids = tree(self.pid)
            self.peak = max(self.peak, pss_mb(self.pid, pids))
            i += 1
            time.sleep(self.interval)


def start_server(port: int, runlog: Path, out: Path) -> subprocess.Popen:
    env = {**os.environ, "COMPARE_DASHBOARD_RUNLOG": str(runlog)}
    proc = subprocess.Popen(
        ["bash", "scripts/run.sh", "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=out.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                return proc
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not start; see {out}")


async def idle(page) -> None:
    await page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').first.wait_for(timeout=TIMEOUT)


async def export_figure(page, fmt: str = "SVG") -> None:
    """Download the CD diagram as SVG (the library's own renderer, no browser) or PNG (kaleido: a Chromium
    started for the export and ended after it) from the post-hoc page."""
    await page.get_by_role("link", name="Post-hoc tests").first.click()
    await page.locator("h1", has_text="Post-hoc tests").first.wait_for(timeout=TIMEOUT)
    await idle(page)
    for attempt in range(2):  # a download the browser cancels (seen once in 16 under load) is asked again
        async with page.expect_download(timeout=TIMEOUT) as info:
            await page.get_by_role("button", name=f"⬇ {fmt}").first.click()
        download = await info.value
        try:
            await download.path()
            return
        except Exception:
            if attempt:
                raise


async def session(browser, url: str, rounds: int, export: str | None = None, delay: float = 0.0) -> None:
    await asyncio.sleep(delay)  # a class arrives over a few seconds, not in the same millisecond
    context = await browser.new_context(viewport={"width": 1300, "height": 900}, accept_downloads=True)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT)  # 30 browsers on two cores: every action waits its turn
    await page.goto(url, timeout=TIMEOUT, wait_until="domcontentloaded")
    await page.locator("h1").first.wait_for(timeout=TIMEOUT)
    await idle(page)
    for _ in range(rounds):
        for label in PAGES:
            await page.get_by_role("link", name=label).first.click()
            await page.locator("h1", has_text=label).first.wait_for(timeout=TIMEOUT)
            await idle(page)
            if label == "Post-hoc tests":  # one widget change: the family of hypotheses
                await page.get_by_text("Versus a control").first.click()
                await page.get_by_text("of 3 hypotheses rejected").first.wait_for(timeout=TIMEOUT)
                await idle(page)
                await page.get_by_text("All pairs").first.click()
                await page.get_by_text("of 6 hypotheses rejected").first.wait_for(timeout=TIMEOUT)
                await idle(page)
            if label == "Omnibus tests":  # and the tie correction
                await page.get_by_text("Correct the Friedman statistic for ties").first.click()
                await idle(page)
    if export:
        await export_figure(page, export)
    await context.close()


def runs_since(runlog: Path, t0: float, by_page: dict | None = None) -> list[float]:
    out = []
    for line in runlog.read_text().splitlines() if runlog.exists() else []:
        stamp, page, seconds = line.split("\t")
        if float(stamp) >= t0:
            out.append(float(seconds))
            if by_page is not None:
                by_page.setdefault(page, []).append(float(seconds))
    return out


async def phase(url: str, n: int, rounds: int, export: str | None = None) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        await asyncio.gather(*(session(browser, url, rounds, export, delay=0.25 * i) for i in range(n)))
        await browser.close()


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))] if values else float("nan")


def client_cpu() -> tuple[float, float]:
    """The CPU of this process's main thread (the asyncio loop of every protocol session), and of the whole
    process (that and the PSS sampler reading /proc)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.thread_time(), usage.ru_utime + usage.ru_stime


def load_now() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def protocol_main(args, proc: subprocess.Popen, port: int, runlog: Path) -> None:
    """Protocol mode: one warm-up session, then for each N the sessions of bench/protocol.py."""
    import protocol

    warm = asyncio.run(protocol.run_sessions("127.0.0.1", port, 1, rounds=1, arrival=0, think=(0.1, 0.2)))
    if warm.sessions_failed or warm.errors:
        print("warm-up problems:", warm.sessions_failed, [r.error for r in warm.errors][:5])
    print("widget changed per page: " + "; ".join(f"{k} -> {v}" for k, v in sorted(warm.widgets.items())))
    print(f"server tree idle after warm-up: {pss_mb(proc.pid):.0f} MB PSS")
    head = (f"{'sessions':>8} {'answers':>7} {'page runs':>9} {'errors':>6} {'median s':>8} {'p90 s':>7} {'CPU s/run':>9} "
            f"{'peak PSS MB':>11} {'after MB':>8} {'client CPU s':>12} {'wall s':>7}")
    rows = []
    for n in args.sessions:
        before = load_now()
        sampler = PssSampler(proc.pid, interval=0.5)  # half the browser mode's rate: less CPU taken from the server
        sampler.start()
        t0, cpu0, ccpu0 = time.time(), cpu_seconds(proc.pid), client_cpu()
        stats = asyncio.run(protocol.run_sessions("127.0.0.1", port, n, rounds=args.rounds, arrival=args.arrival,
                                                  timeout=args.timeout, seed=args.seed,
                                                  browser_like=args.browser_like, browser=not args.websocket_only))
        (loop1, all1), (loop0, all0) = client_cpu(), ccpu0
        wall, cpu, ccpu = time.time() - t0, cpu_seconds(proc.pid) - cpu0, loop1 - loop0
        sampler.stop.set()
        sampler.join()
        pages: dict[str, list[float]] = {}
        server_runs = runs_since(runlog, t0, pages)
        time.sleep(5)
        after = pss_mb(proc.pid)
        answers = [r.seconds for r in stats.runs]
        row = (f"{n:>8} {len(answers):>7} {len(server_runs):>9} {len(stats.errors) + len(stats.sessions_failed):>6} "
               f"{statistics.median(answers) if answers else float('nan'):>8.3f} {quantile(answers, 0.9):>7.3f} "
               f"{cpu / max(len(server_runs), 1):>9.3f} {sampler.peak:>11.0f} {after:>8.0f} {ccpu:>12.1f} {wall:>7.1f}")
        rows.append(row)
        print(head + "\n" + row, flush=True)
        print(f"         machine: {before} before, {load_now()} after", flush=True)
        by_kind: dict[str, list[float]] = {}
        for r in stats.runs:
            by_kind.setdefault(r.kind, []).append(r.seconds)
        print("         answer median/p90 by kind: " + ", ".join(
            f"{k} {statistics.median(v):.3f}/{quantile(v, 0.9):.3f} ({len(v)})" for k, v in sorted(by_kind.items())))
        print(f"         server-side run time median/p90 (runlog): {statistics.median(server_runs) if server_runs else 0:.3f}"
              f"/{quantile(server_runs, 0.9):.3f}; server CPU {cpu:.1f} s over {wall:.0f} s, "
              f"{cpu / max(len(answers), 1):.3f} s per answer; client CPU {ccpu:.1f} s in its asyncio loop, "
              f"{all1 - all0:.1f} s with the PSS sampler; {stats.http_requests} HTTP requests besides the websocket")
        print("         median server run by page: " + ", ".join(
            f"{name} {statistics.median(v):.3f}" for name, v in sorted(pages.items())), flush=True)
        problems = [f"{r.page} ({r.kind}): {r.error}" for r in stats.errors] + stats.sessions_failed
        for problem in sorted(set(problems))[:10]:
            print(f"         error x{problems.count(problem)}: {problem}", flush=True)
    if len(rows) > 1:
        print(head, *rows, sep="\n")


def calibrate_main(args, proc: subprocess.Popen, port: int, runlog: Path) -> None:
    """Calibration mode (issue 31): on one server, ``--repeat`` times in turn, one session of this file's browser mode
    (chromium) and the same visits in protocol mode (``--browser-like``: the pages in the menu's order, the same three
    widget changes), each alone. Reports each phase's server CPU per page run, as measured and without the server's
    idle CPU over the phase's wall time (measured first, with no session), and the protocol's mean over the
    browser's."""
    import protocol

    url = f"http://127.0.0.1:{port}"
    asyncio.run(phase(url, 1, 1))  # warm: caches filled, modules imported
    time.sleep(5)
    cpu0, t0 = cpu_seconds(proc.pid), time.time()
    time.sleep(args.idle)
    idle_rate = (cpu_seconds(proc.pid) - cpu0) / (time.time() - t0)
    print(f"server's idle CPU with no session: {idle_rate:.4f} s per second (over {args.idle:g} s)", flush=True)
    print(f"{'phase':>9} {'page runs':>9} {'CPU s':>6} {'wall s':>6} {'CPU s/run':>9} {'without idle':>12}", flush=True)
    per: dict[str, list[tuple[float, float]]] = {"browser": [], "protocol": []}
    for _ in range(args.repeat):
        for kind in ("browser", "protocol"):
            time.sleep(2)
            t0, cpu0 = time.time(), cpu_seconds(proc.pid)
            if kind == "browser":
                asyncio.run(phase(url, 1, args.rounds))
            else:
                stats = asyncio.run(protocol.run_sessions("127.0.0.1", port, 1, rounds=args.rounds, browser_like=True))
                if stats.errors or stats.sessions_failed:
                    print("protocol problems:", stats.sessions_failed, [r.error for r in stats.errors][:5])
            wall, cpu = time.time() - t0, cpu_seconds(proc.pid) - cpu0
            runs = len(runs_since(runlog, t0))
            row = (cpu / max(runs, 1), (cpu - idle_rate * wall) / max(runs, 1))
            per[kind].append(row)
            print(f"{kind:>9} {runs:>9} {cpu:>6.2f} {wall:>6.1f} {row[0]:>9.3f} {row[1]:>12.3f}", flush=True)
    mean = {k: [statistics.mean(r[i] for r in v) for i in (0, 1)] for k, v in per.items()}
    print(f"mean CPU s per run: browser {mean['browser'][0]:.3f} ({mean['browser'][1]:.3f} without idle), protocol "
          f"{mean['protocol'][0]:.3f} ({mean['protocol'][1]:.3f}); protocol / browser "
          f"{mean['protocol'][0] / mean['browser'][0]:.2f} ({mean['protocol'][1] / mean['browser'][1]:.2f} without idle)",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["browser", "protocol", "calibrate"], default="browser",
                        help="calibrate: one browser session and the same visits in protocol mode, in turn, on one "
                             "server (--repeat times): the protocol's CPU per page run against the browser's")
    parser.add_argument("--repeat", type=int, default=3, help="calibrate: browser and protocol phases, each")
    parser.add_argument("--idle", type=float, default=30.0, help="calibrate: seconds over which the idle CPU is measured")
    parser.add_argument("--sessions", nargs="+", default=None,
                        help="numbers of concurrent sessions, e.g. 1 8 30 or 1,30,100 (browser default 1 8 30, "
                             "protocol default 1 30 100)")
    parser.add_argument("--arrival", type=float, default=10.0, help="protocol: sessions arrive within these seconds")
    parser.add_argument("--timeout", type=float, default=300.0, help="protocol: seconds before a run is an error")
    parser.add_argument("--seed", type=int, default=31, help="protocol: random arrivals, page orders, think times")
    parser.add_argument("--browser-like", action="store_true",
                        help="protocol: the browser mode's sessions (menu order, no pauses, its three widget changes), "
                             "to calibrate against --mode browser")
    parser.add_argument("--websocket-only", action="store_true",
                        help="protocol: the websocket alone, without the browser's other traffic (its page and static "
                             "files on arrival, the favicon after each run, every widget's state, its ForwardMsg cache's "
                             "expiry): the protocol mode before its calibration (issue 31)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--exports", type=int, default=8, help="sessions that each download a figure (0: none)")
    parser.add_argument("--export-formats", nargs="+", default=["SVG", "PNG"], choices=["SVG", "PNG"],
                        help="the CD diagram's download buttons to measure, one phase each")
    args = parser.parse_args()
    default = [1, 8, 30] if args.mode == "browser" else [1, 30, 100]
    args.sessions = [int(x) for arg in args.sessions or [] for x in arg.split(",") if x] or default
    if args.mode in ("protocol", "calibrate"):
        if args.mode == "calibrate" and not Path(CHROMIUM).exists():
            sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
        tmp = Path(tempfile.mkdtemp(prefix="load-"))
        port = free_port()
        runlog = tmp / "runs.tsv"
        proc = start_server(port, runlog, tmp / "server.log")
        print(f"server pid {proc.pid}, port {port}, log {tmp / 'server.log'}", flush=True)
        try:
            (protocol_main if args.mode == "protocol" else calibrate_main)(args, proc, port, runlog)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        return
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium")
    tmp = Path(tempfile.mkdtemp(prefix="load-"))
    port = free_port()
    runlog = tmp / "runs.tsv"
    proc = start_server(port, runlog, tmp / "server.log")
    url = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(phase(url, 1, 1))  # warm: caches filled, modules imported
        print(f"server tree idle after warm-up: {pss_mb(proc.pid):.0f} MB PSS")
        print(f"{'sessions':>8} {'page runs':>9} {'CPU s/run':>9} {'median s':>9} {'p90 s':>7} {'peak PSS MB':>11} "
              f"{'after MB':>8} {'wall s':>7}")
        for n in args.sessions:
            sampler = PssSampler(proc.pid)
            sampler.start()
            t0, cpu0 = time.time(), cpu_seconds(proc.pid)
            asyncio.run(phase(url, n, args.rounds))
            wall, cpu = time.time() - t0, cpu_seconds(proc.pid) - cpu0
            sampler.stop.set()
            sampler.join()
            pages: dict[str, list[float]] = {}
            runs = sorted(runs_since(runlog, t0, pages))
            time.sleep(5)
            after = pss_mb(proc.pid)
            p90 = runs[int(0.9 * (len(runs) - 1))] if runs else float("nan")
            print(f"{n:>8} {len(runs):>9} {cpu / max(len(runs), 1):>9.3f} {statistics.median(runs):>9.3f} {p90:>7.3f} "
                  f"{sampler.peak:>11.0f} {after:>8.0f} {wall:>7.1f}", flush=True)
            print("         median run by page: " + ", ".join(f"{name} {statistics.median(v):.3f}"
                                                         for name, v in sorted(pages.items())), flush=True)
        for fmt in args.export_formats if args.exports else []:
            sampler = PssSampler(proc.pid)
            sampler.start()
            t0 = time.time()
            asyncio.run(phase(url, args.exports, 0, export=fmt))
            sampler.stop.set()
            sampler.join()
            time.sleep(5)
            print(f"{args.exports} sessions that each exported the CD diagram as {fmt}: peak PSS {sampler.peak:.0f} MB, "
                  f"{pss_mb(proc.pid):.0f} MB once they left ({time.time() - t0:.1f} s)", flush=True)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
