"""Start the dashboard, open pages in headless Debian chromium and save screenshots.

    python scripts/screenshot.py [out_dir] [--dark] [--pages load_data,omnibus] [--query "?x=y"]

Used to look at the pages while developing and to make the README's screenshot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.browser_helpers import free_port, launch, start_server, stop_server, wait_idle  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="/tmp/shots")
    ap.add_argument("--dark", action="store_true")
    ap.add_argument("--pages", default="load_data,omnibus")
    ap.add_argument("--query", default="", help="query string appended to each page URL")
    ap.add_argument("--width", type=int, default=1400)
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
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            for name in args.pages.split(","):
                url = f"http://127.0.0.1:{port}/{'' if name == 'load_data' else name}{args.query}"
                page.goto(url)
                wait_idle(page)
                page.wait_for_timeout(1000)
                path = out / f"{name}{'_dark' if args.dark else ''}.png"
                page.screenshot(path=str(path), full_page=True)
                print(path)
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
