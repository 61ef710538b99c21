"""Hostile and huge input through a real server and browser (run by hand, never in the tests).

    .venv/bin/python bench/hostile.py [--only NAME]
    .venv/bin/python bench/hostile.py --attacks library [--only NAME]   # issue 27: each attack in the library
    .venv/bin/python bench/hostile.py --attacks live [--only NAME]      # issue 27: each attack on a live server

``--attacks library`` reads every input of ``bench/attacks.py`` with ``compare_lib`` in its own process
(address space capped at 3 GB, 120 s) and reports the outcome, the wall time and the peak resident
memory; issue 27's goal: a clear InputError (or a correct read) within 10 s and 1.5 GB. ``--attacks
live`` starts one server per attack: an attacker's browser uploads, pastes or opens the attack while a
second visitor keeps switching pages; reported: the attacker's outcome and time, the visitor's page runs
during the attack (median and slowest, against the same visitor's runs before it) and the server's
peak resident memory; goal: the visitor's pages as fast as before, the server alive and under 1.5 GB.

For each generated file: a fresh ``streamlit run`` server, Debian's chromium uploads the file on the
Load data page, then opens every page. Reported per file: the wall time until the upload has been
loaded or refused (the page is idle again and shows the outcome), the time of each page's first draw,
and the server's peak resident memory (VmHWM of the streamlit process). Targets (issue 11): any file
within the 50 MB upload limit loaded or refused in under 10 s and 1 GB; every page on a 20,000 x 50
and a 12 x 500 table in under 5 s (or saying at once what is not offered at that size).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser_helpers import IDLE, browser_page, free_port, start_server, stop_server  # noqa: E402

PAGES = [("Omnibus tests", "omnibus"), ("Post-hoc tests", "posthoc"), ("Pool sensitivity", "pool"),
         ("Replicability", "replicability"), ("Bayesian analysis", "bayesian")]


def make_files(folder: Path) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    files = {}

    def wide(name, n, k, values=None):
        path = folder / name
        v = rng.uniform(0.5, 0.95, size=(n, k)) if values is None else values
        with path.open("w") as f:
            f.write("dataset," + ",".join(f"c{j}" for j in range(k)) + "\n")
            for i in range(n):
                f.write(f"d{i}," + ",".join(f"{x:.4f}" for x in v[i]) + "\n")
        files[name] = path

    wide("wide_20000x50.csv", 20_000, 50)
    wide("wide_12x500.csv", 12, 500)
    wide("ties_50x200.csv", 50, 200, rng.integers(0, 5, size=(50, 200)) / 10)
    path = folder / "identical_45MB.csv"
    path.write_bytes(b"dataset,A,B\n" + b"same,0.5,0.6\n" * 3_460_000)
    files[path.name] = path
    path = folder / "long_2M_rows.csv"  # 1.95M rows, 45 MB: within the 50 MB upload limit
    with path.open("w") as f:
        f.write("dataset,classifier,fold,score\n")
        for d in range(13_000):
            s = rng.random((15, 10))
            f.write("".join(f"ds{d},clf{c},{k},{s[c, k]:.4f}\n" for c in range(15) for k in range(10)))
    files[path.name] = path
    path = folder / "one_long_line.csv"
    path.write_bytes(b"dataset,A,B\n" + b"x" * 40_000_000 + b",0.5,0.6\nd2,0.4,0.7\n")
    files[path.name] = path
    return files


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wait_done(page, timeout_ms: int = 600_000) -> None:
    """The run has finished: the app is idle and no spinner or running status is shown."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=timeout_ms,
    )


def run_one(name: str, path: Path) -> None:
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"bench_hostile_{port}.log"
    proc = start_server(port, log)
    try:
        with browser_page() as (page, errors):
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector(IDLE, timeout=120_000)
            page.get_by_text("Upload a file").first.click()
            page.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached", timeout=60_000)
            start = time.perf_counter()
            page.set_input_files('[data-testid="stFileUploaderDropzoneInput"]', str(path))
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-testid=\"stAlert\"]')].some(a => "
                "a.innerText.includes('Loaded: file') || a.innerText.includes('" + name[:12] + "')) || "
                "[...document.querySelectorAll('[data-testid=\"stFileUploaderFileErrorMessage\"]')].length > 0",
                timeout=600_000,
            )
            wait_done(page)
            upload = time.perf_counter() - start
            outcome = "refused" if page.locator('[data-testid="stAlertContentError"]').count() else "loaded"
            timings = []
            for label, _ in PAGES:
                start = time.perf_counter()
                page.get_by_role("link", name=label).first.click()
                # The new page's title first (the old page may still look idle), then the end of its run.
                page.wait_for_function("(t) => document.querySelector('h1')?.innerText.trim().startsWith(t)",
                                       arg=label, timeout=600_000)
                wait_done(page)
                timings.append(f"{label.split()[0].lower()} {time.perf_counter() - start:.1f}s")
        print(f"{name:24s} {path.stat().st_size / 1e6:6.1f} MB  {outcome:8s} upload {upload:5.1f}s  "
              + "  ".join(timings) + f"  peak RSS {peak_rss_mb(proc.pid):.0f} MB", flush=True)
    finally:
        stop_server(proc)


_LIBRARY_CHILD = r"""
import base64, json, resource, sys, time, zlib
import compare_lib as cl
kind, path, name = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(path, "rb").read()
cl.read_results(b"dataset,A,B\nd1,0.5,0.6\nd2,0.4,0.7\n")  # imports done before the clock starts
start = time.perf_counter()
try:
    if kind == "link":  # the app unpacks a link's table and reads it as CSV
        query = data.decode()
        payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(query.split("=", 1)[1] + "==")))
        result = cl.load_scores(payload["csv"].encode("utf-8", "surrogatepass"), name="table from the link",
                                format="csv", layout="wide", higher_is_better=bool(payload.get("higher", True)))
        outcome = f"read {result.n_datasets} x {result.n_classifiers}"
    else:
        source = data.decode("utf-8", "surrogatepass") if kind == "paste" else data
        result = cl.read_results(source, name=None if kind == "paste" else name)
        outcome = f"read: {len(result.datasets)} data sets, {len(result.classifiers)} classifiers"
except cl.InputError as err:
    outcome = "InputError: " + str(err)[:150]
except BaseException as err:
    outcome = f"!! {type(err).__name__}: {str(err)[:150]}"
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"outcome": outcome, "seconds": took, "peak_mb": peak}))
"""


def run_library_attacks(only: str | None) -> None:
    import json
    import subprocess

    from attacks import attacks

    print(f"{'attack':34s} {'time':>7s} {'peak':>8s}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, _, arrives, payload in attacks():
            if only and only not in name:
                continue
            path = Path(tmp) / "payload"
            path.write_bytes(payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload)
            cmd = ["prlimit", f"--as={3 << 30}", "--", sys.executable, "-c", _LIBRARY_CHILD, arrives, str(path), name]
            start = time.perf_counter()
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                print(f"{name:34s} {'>120s':>7s} {'':>8s}  !! did not finish", flush=True)
                continue
            wall = time.perf_counter() - start
            if run.returncode != 0 or not run.stdout.strip():
                print(f"{name:34s} {wall:6.1f}s {'':>8s}  !! process ended with {run.returncode}: "
                      f"{run.stderr.strip().splitlines()[-1][:120] if run.stderr.strip() else ''}", flush=True)
                continue
            got = json.loads(run.stdout.strip().splitlines()[-1])
            print(f"{name:34s} {got['seconds']:6.2f}s {got['peak_mb']:6.0f}MB  {got['outcome'][:110]}", flush=True)


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of the server and its children (the reading workers), now."""
    total = 0
    pids = [pid]
    try:
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def run_live_attack(name: str, arrives: str, payload, folder: Path) -> None:
    import threading
    import urllib.parse

    from playwright.sync_api import sync_playwright

    from tests.browser_helpers import launch

    port = free_port()
    log = Path(tempfile.gettempdir()) / f"bench_attack_{port}.log"
    proc = start_server(port, log)
    url = f"http://127.0.0.1:{port}/"
    peak = [0.0]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _tree_rss_mb(proc.pid))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            visitor = browser.new_context().new_page()
            attacker = browser.new_context().new_page()
            visitor.goto(url)
            visitor.wait_for_selector(IDLE, timeout=120_000)
            labels = [label for label, _ in PAGES] + ["Load data"]

            def visit(i: int) -> float:
                label = labels[i % len(labels)]
                start = time.perf_counter()
                visitor.get_by_role("link", name=label).first.click()
                visitor.wait_for_function("(t) => document.querySelector('h1')?.innerText.trim().startsWith(t)",
                                          arg=label if label != "Load data" else "Load", timeout=600_000)
                wait_done(visitor)
                return time.perf_counter() - start

            before = [visit(i) for i in range(6)]
            attacker.goto(url if arrives != "link" else url + "?" + payload)
            start = time.perf_counter()
            if arrives == "file":
                path = folder / name
                path.write_bytes(payload)
                attacker.wait_for_selector(IDLE, timeout=120_000)
                attacker.get_by_text("Upload a file").first.click()
                attacker.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached")
                attacker.set_input_files('[data-testid="stFileUploaderDropzoneInput"]', str(path))
            elif arrives == "paste":
                attacker.wait_for_selector(IDLE, timeout=120_000)
                attacker.get_by_text("Paste", exact=True).first.click()
                area = attacker.locator("textarea").first
                area.wait_for()
                area.fill(payload)
                attacker.get_by_role("button", name="Use the pasted table").click()
            during = []
            # The visitor keeps visiting pages while the attacker's run is going on (at least three visits).
            while len(during) < 3 or not attacker.locator(IDLE).count():
                during.append(visit(len(during)))
                if len(during) > 60:
                    break
            wait_done(attacker)
            attacked = time.perf_counter() - start
            alerts = attacker.locator('[data-testid="stAlert"]').all_inner_texts()
            outcome = next((a for a in alerts if "could not" in a or "refused" in a or "File" in a or "link" in a),
                           alerts[0] if alerts else "")
            browser.close()
        alive = proc.poll() is None
        print(f"{name:34s} attacker {attacked:5.1f}s  visitor before {np.median(before):.2f}s "
              f"during median {np.median(during):.2f}s max {max(during):.2f}s ({len(during)} pages)  "
              f"peak {peak[0]:5.0f}MB  {'alive' if alive else 'DEAD'}  {outcome[:90]!r}", flush=True)
    finally:
        stop.set()
        stop_server(proc)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--attacks", choices=["library", "live"], default=None)
    args = ap.parse_args()
    if args.attacks == "library":
        run_library_attacks(args.only)
        return
    if args.attacks == "live":
        from attacks import attacks

        with tempfile.TemporaryDirectory() as tmp:
            for name, _, arrives, payload in attacks():
                if not args.only or args.only in name:
                    run_live_attack(name, arrives, payload, Path(tmp))
        return
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp))
        for name, path in files.items():
            if args.only and args.only not in name:
                continue
            run_one(name, path)


if __name__ == "__main__":
    main()
