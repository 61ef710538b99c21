"""AppTest tests of the Bayesian page's "Who is best?" view (issue 29, dashboard/view_ranking.py): it renders, its
numbers are the library's (computed here with the same settings), every widget travels in links and a link opens
the same view, bad link values fall back to the defaults, the work budget is stated, hostile names stay text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

from .apptest_helpers import by_label, goto, open_page, texts, upload
from .conftest import SAMPLES
from .test_links_complete import GLOBAL_KEYS, _fresh_equals, _inputs, _normal
from .test_ranking_figures import _arr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
import links  # noqa: E402

VIEW = "Who is best?"


@pytest.fixture(scope="module")
def demsar_table():
    return cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv")


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _summary(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "P(best)" in d.value.columns)


def test_the_view_shows_the_librarys_ranking_beside_the_rank_sets(demsar_table):
    at = open_page("bayesian", bview=VIEW)
    assert not at.exception and not at.error
    want = cl.bayesian_ranking(demsar_table, samples=4000, seed=0, chains=4, warmup=1000)
    frame = _summary(at).set_index("classifier")
    names = [str(c) for c in demsar_table.classifiers]
    assert sorted(frame.index) == sorted(names)
    np.testing.assert_allclose(frame.loc[names, "P(best)"], want.p_best.round(4).to_numpy())
    np.testing.assert_allclose(frame.loc[names, "expected rank"], want.expected_rank.round(3).to_numpy())
    assert list(frame.index) == list(want.expected_rank.sort_values(kind="stable").index)
    sets = cl.rank_sets(demsar_table, alpha=0.05)
    assert list(frame.loc[names, "rank set (frequentist)"]) == cl.rank_set_labels(sets.loc[names])
    charts = _charts(at)
    bars = next(c for c in charts if c["data"][0]["type"] == "bar")
    shown = dict(zip(bars["data"][0]["y"], _arr(bars["data"][0]["x"])))
    assert shown == pytest.approx({n: want.p_best[n] for n in names})
    heat = [c for c in charts if c["data"][0]["type"] == "heatmap"]
    assert len(heat) == 2  # the rank probabilities and P(before)
    rp = _arr(heat[0]["data"][0]["z"])
    order = heat[0]["data"][0]["y"]
    np.testing.assert_allclose(rp, want.rank_probabilities.loc[order].to_numpy())
    before = _arr(heat[1]["data"][0]["z"])
    np.testing.assert_allclose(before, want.p_before.loc[order, order].to_numpy())
    shown_text = " ".join(texts(at.markdown) + texts(at.caption))
    assert f"Most probably best: {want.p_best.idxmax()}" in shown_text
    assert "Largest R-hat" in shown_text and "seed 0" in shown_text and "Dirichlet(1)" in shown_text
    # the paragraph for a paper is the library's, and the reproducing script is offered (issue 29)
    assert want.paragraph() in [c.value for c in at.code]
    assert any("Python script" in b.proto.label for b in at.get("download_button"))


def test_bradley_terry_davidson_from_the_widgets(demsar_table):
    at = open_page("bayesian", bview=VIEW)
    by_label(at.radio, "Model").set_value("Bradley-Terry-Davidson")
    at.run()
    at.select_slider(key="w_rank_samples").set_value(1000)
    at.number_input(key="w_rank_ssd").set_value(1.5)
    at.number_input(key="w_rank_tsd").set_value(3.0)
    by_label(at.number_input, "Seed").set_value(7)
    at.run()
    assert not at.exception and not at.error
    want = cl.bayesian_ranking(demsar_table, model="bradley-terry-davidson", samples=1000, seed=7, chains=4,
                               warmup=1000, strength_sd=1.5, tie_sd=3.0)
    frame = _summary(at).set_index("classifier")
    names = [str(c) for c in demsar_table.classifiers]
    np.testing.assert_allclose(frame.loc[names, "P(best)"], want.p_best.round(4).to_numpy())
    shown = " ".join(texts(at.markdown) + texts(at.caption))
    assert f"posterior mean {want.tie_parameter:.3g}" in shown and "N(0, 1.5²)" in shown
    assert not [w for w in at.number_input if w.key == "w_rank_prior"]  # the Plackett-Luce prior is not shown


def test_every_widget_of_the_view_is_in_links_and_a_link_round_trips():
    declared = {c.widget for c in links.CHOICES} | set(links.NOT_IN_LINKS) | GLOBAL_KEYS
    for model in ("plackett-luce", "bradley-terry-davidson"):
        at = open_page("bayesian", bview=VIEW, bkmodel=model, bksamples="1000")
        assert not at.exception
        keyed, unkeyed = _inputs(at)
        assert {"w_rank_model", "w_rank_samples"} <= keyed
        assert not sorted(k for k in keyed if _normal(k) not in declared) and not unkeyed
    by_label(at.number_input, "Seed").set_value(3)
    at.number_input(key="w_rank_ssd").set_value(2.5)
    at.run()
    params = _fresh_equals(at, "bayesian")
    assert params.get("bview") == VIEW and params.get("bkmodel") == "bradley-terry-davidson"
    assert params.get("bksamples") == "1000" and params.get("bkssd") == "2.5" and params.get("bseed") == "3"
    at = open_page("bayesian", bview=VIEW, bksamples="1000", bkprior="2.5")
    assert at.number_input(key="w_rank_prior").value == pytest.approx(2.5)
    params = _fresh_equals(at, "bayesian")
    assert params.get("bkprior") == "2.5"


def test_bad_link_values_fall_back_to_the_defaults():
    at = open_page("bayesian", bview=VIEW, bkmodel="magic", bksamples="7", bkprior="1e9")
    assert not at.exception
    assert by_label(at.radio, "Model").value == "Plackett-Luce"
    assert at.select_slider(key="w_rank_samples").value == 4000
    assert at.number_input(key="w_rank_prior").value == pytest.approx(1.0)


def test_the_work_budget_is_stated(monkeypatch):
    at = open_page("bayesian")
    import view_ranking  # the module the page imported (same process)

    monkeypatch.setattr(view_ranking, "APP_RANKING_WORK", 1000)
    at.segmented_control(key="w_bay_view").set_value(VIEW)
    at.run()
    assert not at.exception
    assert any("the dashboard runs up to 1,000" in t for t in texts(at.info))
    assert not [d for d in at.dataframe if "P(best)" in d.value.columns]


def test_hostile_names_are_shown_as_text():
    frame = pd.DataFrame({"**bold** <b>x</b>": [0.8, 0.7, 0.9, 0.85, 0.6], "[link](http://e.vil)": [0.7, 0.75, 0.8, 0.8, 0.62],
                          "plain": [0.6, 0.65, 0.7, 0.9, 0.5]}, index=[f"d{i}" for i in range(5)])
    at = upload(open_page("bayesian"), "hostile.csv", frame.to_csv().encode())
    goto(at, "bayesian")
    at.segmented_control(key="w_bay_view").set_value(VIEW)
    at.run()
    at.select_slider(key="w_rank_samples").set_value(1000)
    at.run()
    assert not at.exception and _summary(at) is not None
    for element in list(at.markdown) + list(at.caption):
        assert "<b>x</b>" not in str(element.value)
    charts = _charts(at)
    assert charts and all("<b>" not in json.dumps(c["data"]) for c in charts)


@pytest.mark.browser
def test_the_view_draws_in_a_real_browser(tmp_path):
    """The view opened from a link in Debian's chromium: the three charts are drawn, no page error."""
    from .browser_helpers import CHROMIUM, browser_page, free_port, start_server, stop_server, wait_idle

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import expect

    proc = start_server(free_port(), tmp_path / "server.log")
    try:
        port = proc.args[proc.args.index("--server.port") + 1]
        with browser_page(height=2600) as (page, errors):
            page.goto(f"http://127.0.0.1:{port}/bayesian?sample=demsar2006&bview=Who+is+best%3F&bksamples=1000")
            expect(page.get_by_text("Most probably best").first).to_be_visible(timeout=120_000)
            wait_idle(page, 120_000)
            charts = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot')
            expect(charts).to_have_count(3, timeout=120_000)
            assert "Rank probabilities" in " ".join(charts.nth(1).locator("text").all_text_contents())
            page.screenshot(path=str(tmp_path / "who_is_best.png"), full_page=True)
            assert not errors, errors
    finally:
        stop_server(proc)
