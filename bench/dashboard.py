"""Time the dashboard in a real browser (run by hand, never in the tests).

    .venv/bin/python bench/dashboard.py [--repeat 5]

What a visitor of the public app meets, measured with Debian's chromium against a fresh
``streamlit run`` server (goals from issue 10):

* server start: process start until ``/_stcore/health`` answers;
* first page drawn: from the first request until the Load data page is idle with its charts drawn
  (goal < 3 s after the server answers);
* first visit to each other page (goal < 2 s);
* the Omnibus page's first visit in a new browser session on a warm server, until its chart is drawn
  (goal < 1.5 s, issue 20);
* a warm widget change on Benavoli's 54 x 7 table: choosing another control classifier on the
  post-hoc page, after each control was shown once (goal < 300 ms), until the CD diagram names it.

Each figure is the median of ``--repeat`` fresh servers (cold) or clicks (warm); the machine has 2 cores,
and timings vary by ~30% between runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser_helpers import browser_page, free_port, start_server, stop_server, wait_idle  # noqa: E402

PAGES = ["Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis"]


def cold_run(pause: float = 0.0) -> dict[str, float]:
    port = free_port()
    t0 = time.perf_counter()
    proc = start_server(port, Path("/tmp/bench_dashboard.log"))
    out = {"server start": time.perf_counter() - t0}
    try:
        with browser_page() as (page, errors):
            t0 = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/")
            page.get_by_text("Loaded: sample").first.wait_for(timeout=120_000)
            wait_idle(page, 120_000)
            out["first page drawn"] = time.perf_counter() - t0
            page.wait_for_timeout(pause * 1000)  # a visitor reads the first page before clicking on
            for label in PAGES:
                t0 = time.perf_counter()
                page.get_by_role("link", name=label).first.click()
                page.locator("h1", has_text=label).first.wait_for(timeout=120_000)
                wait_idle(page, 120_000)
                out[f"first visit: {label}"] = time.perf_counter() - t0
            assert not errors, errors
    finally:
        stop_server(proc)
    return out


def warm_first_visits(repeat: int, pause: float = 0.0) -> list[float]:
    """The Omnibus page's first visit in a new browser session (empty browser cache) on a warm server (a first
    session has visited every page): from the click until the page is idle with its first chart drawn."""
    port = free_port()
    proc = start_server(port, Path("/tmp/bench_dashboard.log"))
    times = []
    try:
        with browser_page() as (page, errors):  # warm the server: modules imported, caches filled
            page.goto(f"http://127.0.0.1:{port}/")
            page.get_by_text("Loaded: sample").first.wait_for(timeout=120_000)
            wait_idle(page, 120_000)
            for label in PAGES:
                page.get_by_role("link", name=label).first.click()
                page.locator("h1", has_text=label).first.wait_for(timeout=120_000)
                wait_idle(page, 120_000)
        for _ in range(repeat):
            with browser_page() as (page, errors):
                page.goto(f"http://127.0.0.1:{port}/")
                page.get_by_text("Loaded: sample").first.wait_for(timeout=120_000)
                wait_idle(page, 120_000)
                page.wait_for_timeout(pause * 1000)
                t0 = time.perf_counter()
                page.get_by_role("link", name="Omnibus tests").first.click()
                page.locator("h1", has_text="Omnibus tests").first.wait_for(timeout=120_000)
                page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first.wait_for(timeout=120_000)
                wait_idle(page, 120_000)
                times.append(time.perf_counter() - t0)
                assert not errors, errors
    finally:
        stop_server(proc)
    return times


def warm_clicks(repeat: int) -> list[float]:
    port = free_port()
    proc = start_server(port, Path("/tmp/bench_dashboard.log"))
    times = []
    try:
        with browser_page(height=1400) as (page, errors):
            page.goto(f"http://127.0.0.1:{port}/posthoc?sample=benavoli2016&family=control&control=C1")
            page.locator("h1", has_text="Post-hoc tests").first.wait_for(timeout=120_000)
            wait_idle(page, 120_000)
            controls = ["C2", "C1"] * (repeat + 1)
            for i, name in enumerate(controls):
                box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Control classifier").first
                box.locator('div[role="combobox"], input').first.click()
                t0 = time.perf_counter()
                page.get_by_role("option", name=name, exact=True).click()
                page.locator(".st-key-cd_diagram .gtitle", has_text=f"versus control {name}").first.wait_for(
                    timeout=60_000)
                wait_idle(page, 60_000)
                if i >= 2:  # both controls shown once: the computations come from the cache
                    times.append(time.perf_counter() - t0)
            assert not errors, errors
    finally:
        stop_server(proc)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pause", type=float, default=0.0, help="seconds spent on the first page before clicking on")
    args = ap.parse_args()
    runs = [cold_run(args.pause) for _ in range(args.repeat)]
    for key in runs[0]:
        values = [r[key] for r in runs]
        print(f"{key:32s} median {statistics.median(values):5.2f} s   (min {min(values):.2f}, max {max(values):.2f})")
    first = warm_first_visits(args.repeat, args.pause)
    print(f"{'Omnibus first visit, warm server':32s} median {statistics.median(first):5.2f} s   "
          f"(min {min(first):.2f}, max {max(first):.2f}; new browser session, chart drawn)")
    clicks = warm_clicks(args.repeat)
    print(f"{'warm control change (54 x 7)':32s} median {statistics.median(clicks) * 1000:5.0f} ms  "
          f"(min {min(clicks) * 1000:.0f}, max {max(clicks) * 1000:.0f})")


if __name__ == "__main__":
    main()
