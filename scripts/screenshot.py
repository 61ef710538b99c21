"""Start the dashboard, open every page in headless Debian chromium and save full-page screenshots.

    python scripts/screenshot.py [out_dir] [--widths 1400,400] [--dark] [--pages load_data,omnibus] [--query "?x=y"]

Used to look at the pages while developing (every page at a desktop and a phone width) and to make
the README's screenshot. Waits for the app's state (idle, charts drawn), never for a fixed time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.browser_helpers import free_port, launch, start_server, stop_server, wait_idle  # noqa: E402

PAGES = "load_data,omnibus,posthoc,pool,replicability,bayesian"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="/tmp/shots")
    ap.add_argument("--dark", action="store_true")
    ap.add_argument("--pages", default=PAGES)
    ap.add_argument("--query", default="", help="query string appended to each page URL")
    ap.add_argument("--widths", default="1400,400")
    ap.add_argument("--height", type=int, default=1000)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {"STREAMLIT_THEME_BASE": "dark"} if args.dark else {}
    proc = start_server(port, out / "server.log", env)
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            for width in [int(w) for w in args.widths.split(",")]:
                page = browser.new_page(viewport={"width": width, "height": args.height})
                for name in args.pages.split(","):
                    url = f"http://127.0.0.1:{port}/{'' if name == 'load_data' else name}{args.query}"
                    page.goto(url)
                    page.wait_for_selector("h1", timeout=90000)
                    wait_idle(page)
                    # The main area scrolls inside the page: grow the viewport to its whole height.
                    tall = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
                    page.set_viewport_size({"width": width, "height": max(args.height, int(tall) + 40)})
                    wait_idle(page)
                    path = out / f"{name}_{width}{'_dark' if args.dark else ''}.png"
                    page.screenshot(path=str(path), full_page=True)
                    page.set_viewport_size({"width": width, "height": args.height})
                    print(path)
                page.close()
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
