"""Hostile and huge input through a real server and browser (run by hand, never in the tests).

    .venv/bin/python bench/hostile.py [--only NAME]

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = make_files(Path(tmp))
        for name, path in files.items():
            if args.only and args.only not in name:
                continue
            run_one(name, path)


if __name__ == "__main__":
    main()
