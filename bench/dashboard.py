"""Time the dashboard (run by hand): reruns after a click with a warm cache, and cold start.

    .venv/bin/python bench/dashboard.py [--browser]

Reruns are timed with Streamlit's AppTest (the script run, which is what the user waits for):
changing the control classifier on the post-hoc page, after both controls were shown once (so the
library calls come from st.cache_data), for Benavoli's 54 x 7 table and a random 100 x 20 table.
Cold start: the first AppTest run in a fresh process (imports, default sample, first page); with
--browser also a real server: process start to the first page drawn in Debian's chromium.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLD = """
import time
t0 = time.perf_counter()
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({app!r}, default_timeout=120)
at.run()
assert not at.exception
print(time.perf_counter() - t0)
"""


def posthoc_rerun_times(csv: bytes | None, sample: str | None, controls: tuple[str, str], repeat: int = 7) -> list[float]:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP, by_label

    st.cache_data.clear()
    at = AppTest.from_file(APP, default_timeout=120)
    if sample:
        at.query_params["sample"] = sample
    at.run()
    if csv is not None:
        by_label(at.radio, "Source").set_value("Upload a file")
        at.run()
        at.file_uploader[0].set_value(("bench.csv", csv, "text/csv"))
        at.run()
    at.switch_page("app_pages/posthoc.py")
    at.run()
    by_label(at.radio, "Compare").set_value(1)
    at.run()
    box = lambda: by_label(at.selectbox, "Control classifier")  # noqa: E731
    for name in controls:  # warm the caches for both controls
        box().set_value(name)
        at.run()
    times = []
    for i in range(repeat):
        box().set_value(controls[i % 2])
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    return times


def browser_cold_start() -> float:
    from tests.browser_helpers import browser_page, free_port, start_server, stop_server, wait_idle

    port = free_port()
    t0 = time.perf_counter()
    proc = start_server(port, Path("/tmp/bench_streamlit.log"))
    try:
        with browser_page() as (page, _):
            page.goto(f"http://127.0.0.1:{port}")
            wait_idle(page, 120000)
            return time.perf_counter() - t0 - 0.5  # wait_idle adds 0.5 s for plotly
    finally:
        stop_server(proc)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--browser", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    big = pd.DataFrame(rng.normal(0.8, 0.05, (100, 20)) + np.linspace(0, 0.04, 20),
                       index=[f"d{i}" for i in range(100)], columns=[f"M{j}" for j in range(20)])
    cases = {
        "Benavoli 54 x 7": (None, "benavoli2016", ("C1", "C2")),
        "random 100 x 20": (big.to_csv().encode(), None, ("M0", "M1")),
    }
    print("post-hoc page, change the control (warm cache):")
    for name, (csv, sample, controls) in cases.items():
        times = posthoc_rerun_times(csv, sample, controls)
        print(f"  {name:<18} median {np.median(times) * 1000:6.0f} ms   max {max(times) * 1000:6.0f} ms")
    cold = subprocess.run([sys.executable, "-c", COLD.format(app=str(ROOT / "dashboard" / "app.py"))],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    print(f"cold start, AppTest (imports + default sample + first page): {float(cold.stdout.split()[-1]):.2f} s")
    if args.browser:
        print(f"cold start, real server to first page in chromium: {browser_cold_start():.2f} s")


if __name__ == "__main__":
    main()
