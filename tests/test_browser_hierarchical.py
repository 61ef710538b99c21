"""Real browser: the Bayesian page's "Hierarchical (fold level)" view (issue 29) opened from a link, run on click,
its simplex and forest plot drawn, on a desktop and on a phone-sized screen."""

from __future__ import annotations

import urllib.parse

import pytest

from .browser_helpers import browser_page, require_chromium, wait_idle

pytestmark = pytest.mark.browser

require_chromium()

from playwright.sync_api import expect  # noqa: E402

TIMEOUT = 300_000  # the first run compiles the sampler


@pytest.mark.parametrize("width, height", [(1400, 1600), (390, 844)])
def test_hierarchical_view_runs_and_draws(server, tmp_path, width, height):
    import compare_lib as cl

    if cl.hierarchical_available() is not None:
        pytest.fail(cl.hierarchical_available())  # CI installs the test extras, which include the sampler
    query = urllib.parse.urlencode({"bview": "Hierarchical (fold level)", "bhsamples": "500", "bhsens": "0"})
    with browser_page(width=width, height=height) as (page, errors):
        page.goto(f"{server}/bayesian?{query}")
        expect(page.locator("h1").first).to_be_visible(timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        page.get_by_role("button", name="Run the hierarchical test").click()
        simplex = page.locator(".st-key-bhier_simplex .js-plotly-plot").first
        simplex.wait_for(timeout=TIMEOUT)
        expect(simplex.locator("g.ternary").first).to_be_attached(timeout=TIMEOUT)
        forest = page.locator(".st-key-bhier_forest .js-plotly-plot").first
        forest.wait_for(timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        metric = page.locator('[data-testid="stMetric"]').filter(has_text="P(practically equivalent)").first
        value = float(metric.locator('[data-testid="stMetricValue"]').inner_text())
        assert 0.0 <= value <= 1.0
        expect(page.get_by_text("Diagnostics:").first).to_be_visible(timeout=TIMEOUT)
        assert not page.locator('[data-testid="stException"]').count()
        assert "bhran=1" in page.url or "bhran=true" in page.url.lower()
        page.screenshot(path=str(tmp_path / f"hierarchical_{width}.png"), full_page=True)
        assert not errors, errors
