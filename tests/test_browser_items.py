"""Issue 30 in a real browser: the Per-task comparison page, opened by a link to the item-level sample, renders on a
desktop and on a phone (390 × 844): no exception element, no uncaught page error, the pairs × tasks heatmap drawn
and visible, and the one-pair view's forest plot too. Each test gets its own server (tests/conftest.py) and waits
for the app's state and for content, never for a fixed time."""

from __future__ import annotations

import pytest

from .browser_helpers import browser_page, require_chromium, wait_idle

pytestmark = pytest.mark.browser

require_chromium()

from playwright.sync_api import expect  # noqa: E402

TIMEOUT = 90_000
CHART = '[data-testid="stPlotlyChart"] .js-plotly-plot'


def _check(page, errors) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert not [e for e in errors if "font" not in e.lower()], errors


@pytest.mark.parametrize("size", [(1400, 1000), (390, 844)], ids=["desktop", "phone"])
def test_per_task_page_renders_with_the_heatmap(server, size):
    width, height = size
    with browser_page(width, height) as (page, errors):
        page.goto(f"{server}/items?sample=items-synthetic")
        expect(page.locator("h1").first).to_have_text("Per-task comparison", timeout=TIMEOUT)
        heatmap = page.locator(".st-key-items_heatmap .js-plotly-plot").first
        expect(heatmap).to_be_visible(timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        _check(page, errors)
        heatmap.scroll_into_view_if_needed()
        box = heatmap.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 200
        assert page.locator(".st-key-items_heatmap .heatmaplayer").count() >= 1  # the cells were drawn
        # the one-pair view: its forest plot
        page.locator(".st-key-w_items_view button").filter(has_text="One pair, task by task").first.click()
        forest = page.locator(".st-key-items_forest .js-plotly-plot").first
        expect(forest).to_be_visible(timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        _check(page, errors)
        assert page.locator('[data-testid="stDataFrame"]').count() >= 1
