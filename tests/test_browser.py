"""One real-browser smoke test: the dashboard served by streamlit, driven by Playwright in Debian's chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .browser_helpers import CHROMIUM, browser_page, free_port, start_server, stop_server, wait_idle

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing: install Debian's chromium.")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    proc = start_server(port, log)
    yield f"http://127.0.0.1:{port}"
    stop_server(proc)


def test_load_sample_and_see_the_omnibus_charts(server, tmp_path):
    with browser_page() as (page, errors):
        page.goto(server)
        wait_idle(page)
        assert page.get_by_text("Loaded: sample: Demšar 2006").count() >= 1
        # Pick another sample through the real widget, then open the omnibus page from the navigation.
        sample_box = page.locator('[data-testid="stSelectbox"]').filter(has_text="Sample").first
        sample_box.locator('div[role="combobox"], input').first.click()
        page.get_by_role("option", name="García & Herrera 2008, Table 2 (accuracy, 30 × 5)").click()
        wait_idle(page)
        assert page.get_by_text("30 data sets × 5 classifiers").count() >= 1
        page.get_by_role("link", name="Omnibus tests").first.click()
        wait_idle(page)
        page.wait_for_selector('[data-testid="stPlotlyChart"] .js-plotly-plot', timeout=60000)
        assert page.get_by_text("39.647").count() >= 1
        page.screenshot(path=str(tmp_path / "omnibus.png"), full_page=True)
        assert (tmp_path / "omnibus.png").stat().st_size > 10000
        assert not errors, errors


def test_posthoc_page_draws_the_cd_diagram(server, tmp_path):
    """Open a shared link to the post-hoc page and find the rendered CD diagram (Demšar's Figure 1a)."""
    with browser_page(height=1300) as (page, errors):
        page.goto(f"{server}/posthoc?sample=demsar2006&test=mean-ranks&procedure=nemenyi&alpha=0.1")
        wait_idle(page)
        chart = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first
        chart.wait_for(timeout=60000)
        svg_text = chart.inner_text() + " ".join(chart.locator("text").all_text_contents())
        assert "CD = 1.118" in svg_text
        for name in ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"):
            assert name in svg_text
        assert page.get_by_text("2 of 6 hypotheses rejected").count() == 1
        # Switch to the control view through the real widgets.
        page.get_by_text("Versus a control").click()
        wait_idle(page)
        assert page.get_by_text("of 3 hypotheses rejected").count() == 1
        page.screenshot(path=str(tmp_path / "posthoc.png"), full_page=True)
        assert not errors, errors


def test_pool_explorer_toggle_changes_a_verdict(server, tmp_path):
    """Benavoli et al.'s table: removing C6 from the pool makes C2 vs C4 stop being significant."""
    with browser_page(height=1500) as (page, errors):
        page.goto(f"{server}/pool?sample=benavoli2016")
        wait_idle(page)
        assert page.get_by_text("mean ranks 0, Wilcoxon 0, sign test 0 of 21 pairs").count() == 1
        page.get_by_role("button", name="Remove C6").first.click()
        wait_idle(page)
        assert page.get_by_text("mean ranks 1, Wilcoxon 0, sign test 0 of 15 pairs").count() == 1
        page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first.wait_for(timeout=60000)
        page.screenshot(path=str(tmp_path / "pool.png"), full_page=True)
        assert not errors, errors
