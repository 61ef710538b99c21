"""Run the dashboard in a subprocess and drive it with Playwright + Debian's chromium.

Shared by the browser test and ``scripts/screenshot.py``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log: Path, env_extra: dict | None = None,
                 extra_args: list[str] | None = None) -> subprocess.Popen:
    """Start ``streamlit run dashboard/server.py`` (as scripts/run.sh does) in its own process group; wait for
    /_stcore/health. ``extra_args``:
    more command-line options (e.g. ``--client.showErrorDetails=false``, as Community Cloud forces it)."""
    env = dict(os.environ, **(env_extra or {}))
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard" / "server.py"), "--server.headless", "true",
        "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none", *(extra_args or []),
    ]
    proc = subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True, env=env, cwd=ROOT)
    deadline = time.time() + 90
    while time.time() < deadline:
        if proc.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return proc
        except OSError:
            time.sleep(0.3)
    stop_server(proc)
    raise RuntimeError(f"streamlit did not start; its output is in {log}:\n{log.read_text()[-2000:]}")


def stop_server(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


#: True when the app has finished its run: idle, no spinner, every plotly chart drawn.
SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stSpinner"], [data-testid="stSkeleton"]')) return false;
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  return charts.every(c => c.querySelector('.main-svg'));
}"""


def wait_idle(page, timeout_ms: int = 90000) -> None:
    """Wait for the app's state, not for time: the run has finished and every chart is drawn. After an
    action, wait first for content the action must produce (``expect(...)``); this then settles."""
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    page.wait_for_function(SETTLED_JS, timeout=timeout_ms)


def answer_direction(page, higher: bool = True, timeout_ms: int = 90000) -> None:
    """Issue 28: answer the Load data page's "Which is better?" question, asked for a file whose metric's direction
    the catalogue does not know, and load the table (the question and its button are found by their keys)."""
    from playwright.sync_api import expect

    label = "Higher is better (accuracy, AUC, F1)" if higher else "Lower is better (error, loss, time)"
    question = page.locator(".st-key-w_pending_direction").first
    question.wait_for(timeout=timeout_ms)
    question.get_by_text(label, exact=True).first.click()
    button = page.locator(".st-key-w_pending_use button").first
    expect(button).to_be_enabled(timeout=timeout_ms)
    button.click()


def launch(pw):
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@contextmanager
def browser_page(width: int = 1400, height: int = 1400):
    """A fresh chromium page; yields (page, errors) where errors collects uncaught page errors."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield page, errors
        finally:
            browser.close()


def require_chromium() -> None:
    """Skip a browser test module when Debian's chromium is missing, unless REQUIRE_BROWSER=1 (CI): then fail."""
    import pytest

    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            raise RuntimeError(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing: install Debian's chromium.")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

