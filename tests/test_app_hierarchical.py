"""AppTest of the Bayesian page's "Hierarchical (fold level)" view (issue 29): run on click, the numbers are the
library's, the reproducing script replays them, links carry every setting, and without the sampler the page
says how to install it."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import compare_lib as cl

from .apptest_helpers import by_label, open_page, texts
from .conftest import SAMPLES
from .test_app_bayesian import _metric
from .test_app_bayesian import _view as _bayes_view
from .test_hierarchical import _need_numpyro

VIEW = "Hierarchical (fold level)"
RUN = "FormSubmitter:hierarchical-Run the hierarchical test"


def test_runs_on_click_and_shows_the_library_numbers():
    _need_numpyro()
    at = _bayes_view(open_page("bayesian"), VIEW)
    assert not at.get("plotly_chart") and not at.error
    a, b = by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value
    scheme = by_label(at.selectbox, "Resampling scheme (one per data set: its folds share one correlation)").value
    by_label(at.select_slider, "Draws per chain").set_value(500)  # inside the form: applied by the submit
    at.button(key=RUN).click()
    at.run(timeout=600)
    assert not at.exception, at.exception
    folds = cl.load_scores(SAMPLES / "fold_level_example.csv", layout="long", higher_is_better=True).folds  # as the page
    folds = folds[folds["scheme"].astype(str) == scheme]
    res = cl.bayesian_hierarchical(folds, (a, b), 0.01, prior="paper", samples=500, chains=4, warmup=1000, seed=0)
    assert _metric(at, f"P({a} better on the next data set)") == pytest.approx(res.p_x, abs=1e-9)
    assert _metric(at, "P(practically equivalent)") == pytest.approx(res.p_rope, abs=1e-9)
    charts = at.get("plotly_chart")
    assert len(charts) == 2  # the simplex and the forest plot
    sens = next(d.value for d in at.dataframe if "prior" in d.value.columns)
    assert list(sens["prior"]) == ["paper", "baycomp"]
    assert sens.loc[0, "p_x"] == pytest.approx(res.p_x)
    assert any("Diagnostics" in m for m in texts(at.markdown))
    assert at.query_params["bhran"] in ("1", ["1"], "true", ["true"])
    assert at.query_params["bview"] in (VIEW, [VIEW])
    # The script replays the same numbers.
    script = next(b for b in at.get("download_button") if b.label.startswith("⬇ Python script"))
    assert script is not None
    code = cl.hierarchical_script(folds, a, b, rope=0.01, prior="paper", samples=500, chains=4, warmup=1000, seed=0,
                                  sensitivity=False)
    scope: dict = {}
    exec(compile(code, "hierarchical_script.py", "exec"), scope)  # noqa: S102 - our own generated code
    assert scope["res"].p_x == res.p_x and scope["res"].p_rope == res.p_rope


def test_a_link_fills_the_form_and_asks_for_run():
    _need_numpyro()
    at = open_page("bayesian", bview=VIEW, bhprior="baycomp", bhsamples="2000", bhsens="0", bhran="1", bhrope="0.02")
    assert not at.exception
    assert by_label(at.selectbox, "Prior (hyper-prior of ν)").value == "baycomp"
    assert by_label(at.select_slider, "Draws per chain").value == 2000
    assert by_label(at.number_input, "ROPE (fold-level scores)").value == pytest.approx(0.02)
    assert by_label(at.checkbox, "Also under the other prior").value is False
    assert any("press 'Run the hierarchical test'" in i for i in texts(at.info))
    bad = open_page("bayesian", bview=VIEW, bhprior="flat", bhsamples="7")
    assert not bad.exception
    assert by_label(bad.selectbox, "Prior (hyper-prior of ν)").value == "paper"


def test_without_the_sampler_the_page_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpyro", None)
    at = _bayes_view(open_page("bayesian"), VIEW)
    assert not at.exception
    assert any("compare-lib[bayes]" in i for i in texts(at.info))


def test_forest_figure_shows_every_data_set():
    _need_numpyro()
    rng = np.random.default_rng(1)
    x = 0.8 + rng.normal(0.01, 0.02, (6, 10))
    res = cl.bayesian_hierarchical(x, np.full((6, 10), 0.8), 0.01, chains=2, samples=500, warmup=300, seed=0,
                                   names=["a<b>", "b", "c", "d", "e", "f"])
    fig = cl.hierarchical_forest_figure(res, "A", "B")
    shrunk = fig.data[1]
    assert sorted(shrunk.y) == sorted(["a&lt;b&gt;", "b", "c", "d", "e", "f"])  # names escaped for plotly's HTML
    assert np.allclose(sorted(shrunk.x), sorted(res.datasets["delta"]))
    assert list(fig.data[0].x) == list(res.datasets.sort_values("delta", kind="stable")["mean_difference"])
