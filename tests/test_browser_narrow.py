"""Issue 23 on a phone: at 400 × 850 no plotly figure is wider than its column on any page, and the CD diagram
(drawn vertically in a narrow column) shows every classifier name inside the screen, with the sample and with
an uploaded table of 12 classifiers with long names.

Each test gets its own server and waits for the app's state and for content, never for a fixed time.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest

from .browser_helpers import answer_direction, browser_page, require_chromium, wait_idle

pytestmark = pytest.mark.browser

require_chromium()

from playwright.sync_api import expect  # noqa: E402

TIMEOUT = 90_000
WIDTH, HEIGHT = 400, 850
PAGES = ["Load data", "Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis"]
DEMSAR = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
#: Twelve classifiers with long names (spaces, separators, one long word without any, characters to escape).
TWELVE = [
    "Random Forest (500 trees, balanced)", "Gradient boosting with early stopping", "LogisticRegressionCV_l2_balanced",
    "k-nearest neighbours k=15", "Support vector machine RBF kernel", "Naive Bayes <Gaussian> & priors",
    "C4.5 decision tree pruned", "HistGradientBoostingClassifier", "AdaBoost SAMME 200 stumps",
    "Extremely randomized trees", "Linear discriminant analysis", "Dummy baseline",
]



def _twelve_csv(path: Path) -> Path:
    rng = np.random.default_rng(23)
    scores = rng.uniform(0.6, 0.8, size=(20, 12)) + np.linspace(0, 0.15, 12)
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["dataset", *TWELVE])
        for i, row in enumerate(scores):
            out.writerow([f"data set {i + 1}", *(f"{v:.4f}" for v in row)])
    return path


def _open(page, url: str) -> None:
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=TIMEOUT)
    wait_idle(page, TIMEOUT)


SIDEBAR_OPEN_JS = """() => document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect().left >= 0"""
SIDEBAR_CLOSED_JS = """() => document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect().right <= 0"""


def _go(page, label: str) -> None:
    """Navigate by the sidebar's link, as a phone user does: open the collapsed sidebar, tap the page's link,
    close the sidebar again (on a phone it lies over the page)."""
    if not page.evaluate(SIDEBAR_OPEN_JS):
        page.locator('[data-testid="stExpandSidebarButton"]').click()
        page.wait_for_function(SIDEBAR_OPEN_JS, timeout=TIMEOUT)
    page.locator('[data-testid="stSidebarNavLink"]').filter(has_text=re.compile(f"^{re.escape(label)}$")).first.click()
    expect(page.locator("h1").first).to_have_text(label, timeout=TIMEOUT)
    wait_idle(page, TIMEOUT)
    if page.evaluate(SIDEBAR_OPEN_JS):
        page.locator('[data-testid="stSidebarCollapseButton"]').first.click()
        page.wait_for_function(SIDEBAR_CLOSED_JS, timeout=TIMEOUT)


#: Every drawn plotly chart (charts of hidden tabs or of the orientation not shown have no box) with its box, its
#: SVG's box and the box of the column (the nearest block) holding it.
BOXES_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].flatMap(c => {
  const r = c.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return [];
  const col = c.parentElement.closest('[data-testid="stVerticalBlock"]').getBoundingClientRect();
  const svg = c.querySelector('.main-svg').getBoundingClientRect();
  const keyed = c.closest('[class*="st-key-"]');
  const key = keyed ? [...keyed.classList].find(k => k.startsWith('st-key-')) : '?';
  return [{key, left: r.left, right: r.right, svgLeft: svg.left, svgRight: svg.right, colLeft: col.left,
           colRight: col.right, viewport: document.documentElement.clientWidth}];
})"""

#: The name labels of the CD diagram shown in the container ``sel``: the text and the box of each.
CD_LABELS_JS = """(sel) => {
  const charts = [...document.querySelectorAll(sel + ' [data-testid="stPlotlyChart"]')]
    .filter(c => c.getBoundingClientRect().width > 0);
  if (charts.length !== 1) return {shown: charts.length, labels: []};
  const box = charts[0].getBoundingClientRect();
  const labels = [...charts[0].querySelectorAll('g.annotation')].map(g => {
    const r = g.getBoundingClientRect();  // the text with plotly's padding around it
    return {text: g.querySelector('text').textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  return {shown: 1, chartLeft: box.left, chartRight: box.right, labels,
          viewport: document.documentElement.clientWidth};
}"""


def _no_figure_wider_than_its_column(page, where: str) -> int:
    boxes = page.evaluate(BOXES_JS)
    for b in boxes:
        assert b["colRight"] <= b["viewport"] + 1, (where, b)
        assert b["left"] >= b["colLeft"] - 1 and b["right"] <= b["colRight"] + 1, (where, b)
        assert b["svgLeft"] >= b["colLeft"] - 1 and b["svgRight"] <= b["colRight"] + 1, (where, b)
    return len(boxes)


def squeeze(text: str) -> str:
    """A name as read from the chart: a wrapped name's lines are joined without the spaces at the breaks."""
    return re.sub(r"\s+", "", text)


def _every_name_visible(page, container: str, names: list[str]) -> None:
    found = page.evaluate(CD_LABELS_JS, container)
    assert found["shown"] == 1, found  # one CD diagram on screen (the vertical one)
    labels = [lab for lab in found["labels"] if not lab["text"].startswith("CD = ")]
    for name in names:
        rank, full = r"\(\d+\.\d\d\)", re.escape(squeeze(name))  # the mean rank after the name (or before it)
        mine = [lab for lab in labels if re.fullmatch(f"{full}{rank}|{rank}{full}", squeeze(lab["text"]))]
        assert len(mine) == 1, (name, [lab["text"] for lab in labels])
        lab = mine[0]
        assert 0 <= lab["left"] and lab["right"] <= found["viewport"], (name, lab)
        assert found["chartLeft"] - 1 <= lab["left"] and lab["right"] <= found["chartRight"] + 1, (name, lab, found)
    for i, a in enumerate(labels):  # and no two overlap
        for b in labels[i + 1:]:
            overlap_x = min(a["right"], b["right"]) - max(a["left"], b["left"])
            overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            assert overlap_x <= 1 or overlap_y <= 1, (a, b)


def _upload(page, path: Path) -> None:
    page.get_by_text("Upload a file", exact=True).first.click()
    page.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached", timeout=TIMEOUT)
    page.set_input_files('[data-testid="stFileUploaderDropzoneInput"]', str(path))


def _check_pages(page, names: list[str], tmp_path: Path, tag: str) -> None:
    drawn = 0
    for label in PAGES:
        _go(page, label)
        cd = {"Post-hoc tests": "cd_diagram", "Pool sensitivity": "pool_cd"}.get(label)
        if cd:
            page.locator(f".st-key-{cd}_narrow .main-svg").first.wait_for(timeout=TIMEOUT)
            _every_name_visible(page, f".st-key-{cd}", names)
            page.locator(f".st-key-{cd}_narrow").screenshot(path=str(tmp_path / f"{tag}_{cd}.png"))
        drawn += _no_figure_wider_than_its_column(page, f"{tag}: {label}")
    assert drawn >= 4  # the CD diagrams and the other pages' charts were on screen


def test_every_page_fits_a_phone_with_the_sample(server, tmp_path):
    with browser_page(width=WIDTH, height=HEIGHT) as (page, errors):
        _open(page, server)
        expect(page.get_by_text("Loaded: sample: Demšar 2006").first).to_be_visible(timeout=TIMEOUT)
        _check_pages(page, DEMSAR, tmp_path, "sample")
        assert not errors, errors


def test_every_page_fits_a_phone_with_twelve_long_names(server, tmp_path):
    path = _twelve_csv(tmp_path / "twelve.csv")
    with browser_page(width=WIDTH, height=HEIGHT) as (page, errors):
        _open(page, server)
        _upload(page, path)
        answer_direction(page, timeout_ms=TIMEOUT)  # an unnamed metric: asked (issue 28)
        expect(page.get_by_text("Loaded: file: twelve.csv").first).to_be_visible(timeout=TIMEOUT)
        wait_idle(page, TIMEOUT)
        _check_pages(page, TWELVE, tmp_path, "twelve")
        assert not errors, errors


def test_the_wide_diagram_comes_back_in_a_wide_window(server):
    """The same page turned to a wide window shows the horizontal diagram (and hides the vertical one)."""
    with browser_page(width=WIDTH, height=HEIGHT) as (page, errors):
        _open(page, f"{server}/posthoc")
        page.locator('.st-key-cd_diagram_narrow .main-svg').first.wait_for(timeout=TIMEOUT)
        expect(page.locator('.st-key-cd_diagram_narrow [data-testid="stPlotlyChart"]')).to_be_visible()
        expect(page.locator('.st-key-cd_diagram_wide [data-testid="stPlotlyChart"]')).to_be_hidden()
        page.set_viewport_size({"width": 1400, "height": HEIGHT})
        expect(page.locator('.st-key-cd_diagram_wide [data-testid="stPlotlyChart"]')).to_be_visible(timeout=TIMEOUT)
        expect(page.locator('.st-key-cd_diagram_narrow [data-testid="stPlotlyChart"]')).to_be_hidden()
        # Plotly redraws the revealed chart at its column's width.
        page.wait_for_function("""() => {
          const svg = document.querySelector('.st-key-cd_diagram_wide .main-svg');
          const col = document.querySelector('.st-key-cd_diagram').getBoundingClientRect();
          const r = svg && svg.getBoundingClientRect();
          return r && r.width > 600 && Math.abs(r.right - col.right) <= 1;
        }""", timeout=TIMEOUT)
        assert not errors, errors
