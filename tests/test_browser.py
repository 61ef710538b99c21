"""Real-browser tests: the dashboard served by streamlit, driven by Playwright in Debian's chromium.

Each test gets its own server (no state shared between tests) and waits for the app's state and for
the content an action must produce (``expect`` retries until it appears), never for a fixed time.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import compare_lib as cl

from .browser_helpers import answer_direction, browser_page, require_chromium, wait_idle

pytestmark = pytest.mark.browser

require_chromium()

from playwright.sync_api import expect  # noqa: E402

TIMEOUT = 90_000
MINE = "dataset,A,B,C\nd1,0.81,0.70,0.60\nd2,0.50,0.90,0.70\nd3,0.61,0.64,0.66\nd4,0.70,0.80,0.90\nd5,0.71,0.82,0.93\n"



def _open(page, url: str) -> None:
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=TIMEOUT)
    wait_idle(page, TIMEOUT)


def _text(page, text: str):
    return expect(page.get_by_text(text).first).to_be_visible(timeout=TIMEOUT)


def _chart(page, container: str = '[data-testid="stPlotlyChart"]'):
    """The first plotly chart inside ``container``, once drawn."""
    chart = page.locator(f"{container} .js-plotly-plot").first
    chart.wait_for(timeout=TIMEOUT)
    return chart


def _upload(page, path: Path) -> None:
    page.get_by_text("Upload a file", exact=True).first.click()
    page.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached", timeout=TIMEOUT)
    page.set_input_files('[data-testid="stFileUploaderDropzoneInput"]', str(path))


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label``. The box is opened once the app is idle (a click during a
    rerun can land on the box the rerun replaces, and its list never opens: CI 2026-11-27), and opened again if the
    list did not appear, each time after the app is idle again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    for attempt in range(3):
        wait_idle(page, TIMEOUT)
        box.locator('div[role="combobox"], input').first.click()
        try:
            page.get_by_role("option", name=option).click(timeout=10_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def _go(page, label: str) -> None:
    page.get_by_role("link", name=label).first.click()
    expect(page.locator("h1").first).to_have_text(label.replace(" tests", " tests"), timeout=TIMEOUT)
    wait_idle(page, TIMEOUT)


def test_load_sample_and_see_the_omnibus_charts(server, tmp_path):
    with browser_page() as (page, errors):
        _open(page, server)
        _text(page, "Loaded: sample: Demšar 2006")
        _choose(page, "Sample", "García & Herrera 2008, Table 2 (accuracy, 30 × 5)")
        _text(page, "30 data sets × 5 classifiers")
        _go(page, "Omnibus tests")
        page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=TIMEOUT)
        _text(page, "39.647")
        page.screenshot(path=str(tmp_path / "omnibus.png"), full_page=True)
        assert not errors, errors


def test_posthoc_page_draws_the_cd_diagram(server, tmp_path):
    """Open a shared link to the post-hoc page and find the rendered CD diagram (Demšar's Figure 1a)."""
    with browser_page(height=1300) as (page, errors):
        _open(page, f"{server}/posthoc?sample=demsar2006&test=mean-ranks&procedure=nemenyi&alpha=0.1")
        _text(page, "2 of 6 hypotheses rejected")
        chart = _chart(page)
        expect(chart).to_contain_text("CD = 1.118", timeout=TIMEOUT)
        svg_text = " ".join(chart.locator("text").all_text_contents())
        for name in ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"):
            assert name in svg_text
        page.get_by_text("Versus a control").click()
        _text(page, "of 3 hypotheses rejected")
        assert not errors, errors


def test_pool_explorer_toggle_changes_a_verdict(server):
    """Benavoli et al.'s table: removing C6 from the pool makes C2 vs C4 stop being significant."""
    with browser_page(height=1500) as (page, errors):
        _open(page, f"{server}/pool?sample=benavoli2016")
        _text(page, "mean ranks 0, Wilcoxon 0, sign test 0 of 21 pairs")
        page.get_by_role("button", name="Remove C6").first.click()
        _text(page, "mean ranks 1, Wilcoxon 0, sign test 0 of 15 pairs")
        assert not errors, errors


def test_an_uploaded_table_stays_loaded_across_pages(server, tmp_path):
    """Issue 10: going back to Load data shows the uploaded table, never the sample."""
    path = tmp_path / "mine.csv"
    path.write_text(MINE)
    with browser_page() as (page, errors):
        _open(page, server)
        _upload(page, path)
        answer_direction(page, timeout_ms=TIMEOUT)  # an unnamed metric: asked (issue 28)
        _text(page, "Loaded: file: mine.csv")
        for label in ("Omnibus tests", "Post-hoc tests", "Load data"):
            _go(page, label)
        _text(page, "Loaded: file: mine.csv · 5 data sets × 3 classifiers")
        assert page.get_by_text("Loaded: sample").count() == 0
        assert not errors, errors


def _numbers(page) -> str:
    summary = page.get_by_text("hypotheses rejected").first.inner_text()
    caption = page.locator('[data-testid="stCaptionContainer"]').first.inner_text()
    return summary + " | " + caption


def test_shared_links_reproduce_the_view_in_a_fresh_browser(server, tmp_path):
    """Issue 10: a link with left-out data sets, and a link carrying an uploaded table, opened in a new
    browser context (a new session, nothing shared) show the same numbers."""
    path = tmp_path / "mine.csv"
    path.write_text(MINE)
    with browser_page() as (page, errors):
        _open(page, f"{server}/posthoc?sample=demsar2006&test=mean-ranks&procedure=holm&drop=mushroom&drop=iris")
        _text(page, "12 data sets × 4 classifiers")
        first = _numbers(page)
        shared = page.url
        assert "drop=mushroom" in shared
    with browser_page() as (page, errors):
        _open(page, shared)
        _text(page, "12 data sets × 4 classifiers")
        assert _numbers(page) == first
        assert not errors, errors
    with browser_page() as (page, errors):
        _open(page, server)
        _upload(page, path)
        answer_direction(page, timeout_ms=TIMEOUT)  # an unnamed metric: asked (issue 28)
        _text(page, "Loaded: file: mine.csv")
        _go(page, "Post-hoc tests")
        first = _numbers(page)
        shared = page.url
        assert "data=" in shared and "sample=" not in shared
    with browser_page() as (page, errors):
        _open(page, shared)
        _text(page, "table carried by the link (mine.csv) · 5 data sets × 3 classifiers")  # its file name travels too
        assert _numbers(page) == first
        assert not errors, errors


def test_bayesian_page_draws_the_posterior_and_the_matrix(server, tmp_path):
    """Issue 12: the tutorial's NBC vs AODE posterior as a ternary plot, then all pairs as a matrix."""
    with browser_page(height=1400) as (page, errors):
        _open(page, f"{server}/bayesian?sample=benavoli2017&btest=sign&ba=nbc&bb=aode")
        _text(page, "P(practically equivalent)")
        chart = _chart(page, ".st-key-bay_simplex")
        expect(chart.locator("g.ternary").first).to_be_attached(timeout=TIMEOUT)
        equivalent = page.locator('[data-testid="stMetric"]').filter(has_text="P(practically equivalent)").first
        value = float(equivalent.locator('[data-testid="stMetricValue"]').inner_text())
        assert abs(value - 0.71288) <= 4 * 0.00203 + 0.005  # the tutorial's printed result
        page.get_by_role("radio", name="All pairs").first.click()
        _chart(page, ".st-key-bay_matrix")
        wait_idle(page, TIMEOUT)
        _text(page, "Beside the frequentist verdict")
        page.screenshot(path=str(tmp_path / "bayesian.png"), full_page=True)
        assert not errors, errors


def test_cd_diagram_stays_readable_in_a_narrow_window(server):
    """Issue 10: at 400 px no two classifier names of the CD diagram overlap. Issue 23: there it is drawn
    vertically and fits the column (no sideways scrolling); tests/test_browser_narrow.py checks every page."""
    with browser_page(width=400, height=1400) as (page, errors):
        _open(page, f"{server}/posthoc?sample=benavoli2016&test=mean-ranks&procedure=nemenyi")
        chart = _chart(page, ".st-key-cd_diagram_narrow")
        wait_idle(page, TIMEOUT)
        boxes = [t.bounding_box() for t in chart.locator("g.annotation").all()]
        boxes = [b for b in boxes if b and b["width"] > 0]
        assert len(boxes) >= 7
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
                overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
                assert overlap_x <= 1 or overlap_y <= 1, (a, b)
        scroll = page.evaluate(
            "() => { const c = document.querySelector('.st-key-cd_diagram'); return [c.scrollWidth, c.clientWidth]; }"
        )
        assert scroll[0] <= scroll[1]  # it fits: nothing to scroll sideways
        assert not errors, errors


def test_hostile_names_do_not_reach_the_page_as_html(server, tmp_path):
    path = tmp_path / "evil.csv"
    path.write_text('dataset,"![px](https://evil.example/px.png)","<img src=x onerror=alert(1)>",B\n'
                    '"[click](https://evil.example/)",0.5,0.6,0.7\nd2,0.4,0.8,0.6\nd3,0.3,0.2,0.9\n')
    with browser_page() as (page, errors):
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        _open(page, server)
        _upload(page, path)
        answer_direction(page, timeout_ms=TIMEOUT)  # an unnamed metric: asked (issue 28)
        _text(page, "Loaded: file: evil.csv")
        for label in ("Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Bayesian analysis"):
            _go(page, label)
            assert page.locator('img[src*="evil.example"], a[href*="evil.example"], img[src="x"]').count() == 0
        assert not [u for u in requests if "evil.example" in u]
        assert not errors, errors


DATA = Path(__file__).resolve().parent / "data"


def test_a_cross_validate_export_and_a_workbook_load_through_the_browser(server, tmp_path):
    """Issue 19: the uploader takes a multi-metric file and waits for the metric; an .xlsx is accepted."""
    with browser_page(height=1400) as (page, errors):
        _open(page, server)
        _upload(page, DATA / "results" / "cross_validate_export.csv")
        _text(page, "cross_validate_export.csv holds 5 metrics: choose one")
        _text(page, "Loaded: sample: Demšar 2006")  # nothing replaced before the choice
        _choose(page, "Metric", "test_roc_auc")
        _text(page, "Direction guessed from the metric's name: higher is better: 'roc auc' is the area under the ROC curve")
        page.get_by_role("button", name="Use this table").click()
        _text(page, "3 data sets × 3 classifiers · metric: test_roc_auc · higher is better")
        _go(page, "Omnibus tests")
        _text(page, "metric: test_roc_auc")
        _open(page, server)  # a new session: the uploader accepts a workbook and reads its sheet
        _upload(page, DATA / "formats" / "results.xlsx")
        _text(page, "sheet 'AUC', row 6 (data set 'hepatitis'), column 'SVM'")  # its one empty cell, named
        page.screenshot(path=str(tmp_path / "xlsx.png"), full_page=True)
        assert not errors, errors


def test_teaching_example_opens_the_view_that_shows_the_point(server):
    """Issue 23: "Load Example 1" switches to the subset explorer on A and B (the flipped verdict), says the table
    was replaced, and "Back to my table" restores the sample."""
    with browser_page(height=1500) as (page, errors):
        _open(page, f"{server}/pool?sample=demsar2006")
        page.get_by_role("tab", name="Teaching demos").click()
        page.get_by_role("button", name="Load Example 1").first.click()
        _text(page, "Example 1 is loaded: it replaced your table")
        expect(page.get_by_role("tab", name="Subset explorer")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        _text(page, "mean ranks 1, Wilcoxon 0, sign test 0 of 1 pairs")
        page.get_by_role("button", name="Back to my table").first.click()
        _text(page, "Demšar 2006, Table 6")
        wait_idle(page, TIMEOUT)
        expect(page.get_by_role("button", name="Back to my table")).to_have_count(0, timeout=TIMEOUT)


def test_changed_choices_tab_and_bayesian_settings_travel_in_the_link(server):
    """Issue 23: choices changed by hand (the pool page's tab and procedure; the Bayesian prior, threshold, samples
    and seed) are in the address; opened in a fresh browser, the link shows the same tab, settings and numbers."""
    with browser_page(height=1500) as (page, errors):
        _open(page, f"{server}/pool?sample=benavoli2016")
        page.get_by_role("tab", name="All pairs").click()
        wait_idle(page, TIMEOUT)
        page.get_by_text("Holm within the pool").first.click()
        _text(page, "The matrix is counted exactly for Bonferroni and Nemenyi")
        wait_idle(page, TIMEOUT)
        expect(page).to_have_url(re.compile(r"ptab=All\+pairs"), timeout=TIMEOUT)
        expect(page).to_have_url(re.compile(r"pproc=holm"), timeout=TIMEOUT)
        pool_link = page.url
        pool_text = page.get_by_text("Pairs whose verdict depends on the pool").first.inner_text()
        _go(page, "Bayesian analysis")
        page.get_by_role("spinbutton", name="Seed").fill("7")
        page.get_by_role("spinbutton", name="Seed").press("Enter")
        wait_idle(page, TIMEOUT)
        expect(page).to_have_url(re.compile(r"bseed=7"), timeout=TIMEOUT)
        bayes_link = page.url
        metrics = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
        assert not errors, errors
    with browser_page(height=1500) as (page, errors):
        _open(page, pool_link)
        expect(page.get_by_role("tab", name="All pairs")).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)
        assert page.get_by_text("Pairs whose verdict depends on the pool").first.inner_text() == pool_text
        _open(page, bayes_link)
        expect(page.get_by_role("spinbutton", name="Seed")).to_have_value("7", timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        assert page.locator('[data-testid="stMetricValue"]').all_inner_texts() == metrics
        assert not errors, errors


def test_the_report_downloads_from_the_posthoc_page(server, tmp_path):
    """Issue 21: "⬇ Report (HTML)" and "⬇ Python script" give the whole analysis of the current view; the script,
    run next to the sample file, prints the same numbers as the library."""
    import shutil
    import subprocess
    import sys

    with browser_page(height=1500) as (page, errors):
        _open(page, f"{server}/posthoc?sample=demsar2006&view=Report&test=mean-ranks&correction=nemenyi")
        _text(page, "The whole analysis of this view")
        with page.expect_download(timeout=TIMEOUT) as info:
            page.get_by_role("button", name="⬇ Report (HTML)").first.click()
        html = Path(info.value.path()).read_text(encoding="utf-8")
        assert html.startswith("<!DOCTYPE html>") and "χ²(3) = 9.28" in html and "<svg" in html
        assert "Nemenyi" in html and "CD = 1.254" in html
        with page.expect_download(timeout=TIMEOUT) as info:
            page.get_by_role("button", name="⬇ Python script").first.click()
        script = Path(info.value.path()).read_text(encoding="utf-8")
        assert not errors, errors
    sample = Path(__file__).resolve().parents[1] / "sample_data" / "demsar2006_table6_auc_untied.csv"
    shutil.copy(sample, tmp_path / sample.name)
    (tmp_path / "reproduce.py").write_text(script, encoding="utf-8")
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "9.28" in run.stdout and "1.964" in run.stdout


def test_a_sheet_chosen_after_the_upload_is_read_from_the_spooled_copy(server):
    """Issue 31: once an upload is spooled the server frees its bytes, and the browser's next runs carry only the
    file's id (Streamlit then gives a DeletedFile): the sheet chosen in that next run is read from the spooled copy."""
    path = DATA / "formats" / "two_sheets.xlsx"
    names = cl.io.sheet_names(path.read_bytes(), "xlsx")
    with browser_page() as (page, errors):
        _open(page, server)
        _upload(page, path)
        _text(page, "Loaded: sample: Demšar 2006")  # nothing read before a sheet is chosen
        _choose(page, "Sheet", names[1])
        _text(page, f"two_sheets.xlsx (sheet '{names[1]}')")
        assert not errors, errors


def test_a_fold_level_upload_is_kept_through_the_next_runs(server):
    """Issue 31: the fold-level uploader reads its file once and the server frees its bytes (state.read_upload_once);
    the browser's next runs carry only the file's id, and the page goes on with what was read: a ratio typed after
    the upload is checked (the box exists only while fold rows are loaded) and then used."""
    path = Path(__file__).resolve().parents[1] / "sample_data" / "fold_level_example.csv"
    dropzone = '[data-testid="stFileUploaderDropzoneInput"]'
    with browser_page(height=1400) as (page, errors):
        _open(page, f"{server}/replicability?rtab=Tests%20on%20fold-level%20results")
        page.get_by_text("Upload a fold-level file", exact=True).first.click()
        page.wait_for_selector(dropzone, state="attached", timeout=TIMEOUT)
        page.set_input_files(dropzone, str(path))
        _text(page, "How often does each test's verdict repeat over the seeds?")
        wait_idle(page, TIMEOUT)
        ratio = page.get_by_role("textbox", name="Test/train ratio n2/n1 (blank: from the file)")
        ratio.fill("-1")
        ratio.press("Enter")
        _text(page, "'-1' is not a positive number")  # a later run: the rows were kept
        wait_idle(page, TIMEOUT)
        ratio.fill("0.2")
        ratio.press("Enter")
        expect(page.get_by_text("'-1' is not a positive number")).to_have_count(0, timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        _text(page, "How often does each test's verdict repeat over the seeds?")
        assert not errors, errors
