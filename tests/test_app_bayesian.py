"""AppTest tests of the Bayesian analysis page: each view against the library, links, bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

from streamlit.testing.v1 import AppTest

from .apptest_helpers import APP, by_label, goto, open_page, texts, unescape, upload
from .conftest import SAMPLES


def _view(at, name: str):
    at.segmented_control(key="w_bay_view").set_value(name)
    at.run()
    assert not at.exception, at.exception
    return at


def _metric(at, label_start: str) -> float:
    return float(next(m.value for m in at.metric if unescape(m.label).startswith(label_start)))


@pytest.fixture(scope="module")
def demsar_table():
    return cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv")


def test_one_pair_matches_the_library(demsar_table):
    at = open_page("bayesian")
    assert not at.error
    a, b = by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value
    assert by_label(at.number_input, "ROPE (in the units of the scores)").value == pytest.approx(0.01)
    assert by_label(at.number_input, "Prior strength").value == pytest.approx(0.6)
    res = cl.bayesian_signed_rank(demsar_table.scores[a], demsar_table.scores[b], rope=0.01, prior_strength=0.6,
                                  samples=50_000, seed=0)
    assert _metric(at, f"P({a} better)") == pytest.approx(res.p_x, abs=5e-4)
    assert _metric(at, "P(practically equivalent)") == pytest.approx(res.p_rope, abs=5e-4)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["type"] == "scatterternary"
    assert {"⬇ SVG", "⬇ PNG", "⬇ HTML (interactive)"} <= {b.label for b in at.get("download_button")}


def test_sign_test_and_its_prior(demsar_table):
    at = open_page("bayesian")
    by_label(at.radio, "Test").set_value("Sign")
    at.run()
    assert by_label(at.number_input, "Prior strength").value == pytest.approx(1.0)
    a, b = by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value
    res = cl.bayesian_sign_test(demsar_table.scores[a], demsar_table.scores[b], rope=0.01, samples=50_000, seed=0)
    assert _metric(at, f"P({b} better)") == pytest.approx(res.p_y, abs=5e-4)
    assert at.query_params["btest"] in ("sign", ["sign"])


def test_all_pairs_matrix_side_by_side_and_paragraph(demsar_table):
    at = _view(open_page("bayesian"), "All pairs")
    frame = cl.bayesian_posthoc(demsar_table, rope=0.01, samples=50_000, seed=0)
    summary = next(m for m in texts(at.markdown) if "pairs with a practically better classifier" in m)
    decided = int((frame["decision"].isin(["a better", "b better"])).sum())
    assert summary.startswith(f"**{decided} pairs with a practically better classifier")
    side = next(d.value for d in at.dataframe if "bayesian" in d.value.columns)
    assert len(side) == 6 and {"p_adj", "significant", "note"} <= set(side.columns)
    paragraph = next(c for c in texts(at.code) if "region of practical equivalence" in c)
    assert "±0.01" in paragraph and "50,000 posterior samples" in paragraph and "seed 0" in paragraph
    assert "strength 0.6" in paragraph
    assert len(at.get("plotly_chart")) == 1


def test_effect_sizes_table_and_forest(demsar_table):
    at = _view(open_page("bayesian"), "Effect sizes")
    eff = next(d.value for d in at.dataframe if "hodges_lehmann" in d.value.columns)
    expected = cl.effect_size_table(demsar_table).round(4)
    pd.testing.assert_frame_equal(eff.reset_index(drop=True), expected, check_dtype=False)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(spec["data"][0]["y"]) == 6
    assert {"⬇ CSV", "⬇ LaTeX"} <= {b.label for b in at.get("download_button")}


def test_fold_level_view_on_the_sample():
    at = _view(open_page("bayesian"), "Fold-level results")
    assert not at.error
    folds = pd.read_csv(SAMPLES / "fold_level_example.csv")
    a, b = by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value
    table = next(d.value for d in at.dataframe if "p_rope" in d.value.columns)
    expected = cl.bayesian_fold_tests(folds, a, b, rope=0.01)
    assert len(table) == len(expected) == 180
    assert np.allclose(table["p_a"], expected["p_a"])
    caption = next(c for c in texts(at.caption) if "splits, n_test/n_train" in c)
    first = expected.iloc[0]
    assert f"P({a} better) = {first['p_a']:.4g}" in caption
    assert len(at.get("plotly_chart")) == 2  # the posterior density and the bars per data set and seed


def test_fold_level_upload_of_a_wide_table_is_explained():
    at = _view(open_page("bayesian"), "Fold-level results")
    by_label(at.radio, "Fold-level data").set_value("Upload a fold-level file")
    at.run()
    at.file_uploader[0].set_value(("wide.csv", (SAMPLES / "demsar2006_table6_auc_untied.csv").read_bytes(), "text/csv"))
    at.run()
    assert not at.exception
    assert any("is a wide table" in e or "no folds" in e for e in texts(at.error))


def test_relevance_demo_runs_on_click():
    at = _view(open_page("bayesian"), "Significance is not relevance")
    assert not at.get("plotly_chart")
    at.button(key="FormSubmitter:relevance-Run the demo").click()
    at.run()
    assert not at.exception
    demo = next(d.value for d in at.dataframe if "wilcoxon_p" in d.value.columns)
    expected = cl.relevance_demo(0.003, 0.01, rope=0.01, seed=0)
    assert list(demo["n"]) == list(expected["n"])
    assert np.allclose(demo["p_rope"], expected["p_rope"])
    assert len(at.get("plotly_chart")) == 1
    assert at.session_state["bdemo_ran"] and not any("earlier run" in c for c in texts(at.caption))
    # Another seed (outside the demo's form): the results stay, said to be from the earlier run, and a link no longer
    # says "ran".
    at.number_input(key="w_bay_seed").set_value(1)
    at.run()
    assert any(c == cl_stale() for c in texts(at.caption)) and not at.session_state["bdemo_ran"]
    assert len(at.get("plotly_chart")) == 1
    at.button(key="FormSubmitter:relevance-Run the demo").click()
    at.run()
    assert at.session_state["bdemo_ran"] and not any("earlier run" in c for c in texts(at.caption))
    demo = next(d.value for d in at.dataframe if "wilcoxon_p" in d.value.columns)
    assert np.allclose(demo["p_rope"], cl.relevance_demo(0.003, 0.01, rope=0.01, seed=1)["p_rope"])


def cl_stale() -> str:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import ui_widgets

    return ui_widgets.STALE_RUN


def test_view_from_a_link_and_bad_link_values():
    at = open_page("bayesian", bview="Effect sizes", rope="0.02", btest="sign")
    assert at.segmented_control(key="w_bay_view").value == "Effect sizes"
    assert by_label(at.number_input, "ROPE (in the units of the scores)").value == pytest.approx(0.02)
    assert by_label(at.radio, "Test").value == "Sign"
    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in {"rope": "lots", "btest": "magic", "bview": "nothing"}.items():
        at.query_params[key] = value
    at.run()
    assert any("The link's rope 'lots' is not a number" in w for w in texts(at.warning))  # on the first page
    goto(at, "bayesian")
    assert by_label(at.number_input, "ROPE (in the units of the scores)").value == pytest.approx(0.01)
    assert by_label(at.radio, "Test").value == "Signed-rank (Bayesian Wilcoxon)"
    assert at.segmented_control(key="w_bay_view").value == "One pair"


def test_hostile_names_are_shown_as_text():
    frame = pd.DataFrame({"**bold** <b>x</b>": [0.8, 0.7, 0.9, 0.85, 0.6], "[link](http://e.vil)": [0.7, 0.75, 0.8, 0.8, 0.62]},
                         index=[f"d{i}" for i in range(5)])
    at = upload(open_page("bayesian"), "hostile.csv", frame.to_csv().encode())
    goto(at, "bayesian")
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert all("<b>" not in label or "\\<b\\>" in label or "&lt;" in label for label in labels)
    for view in ("All pairs", "Effect sizes"):
        _view(at, view)
        assert not at.exception


def test_tutorial_sample_reproduces_the_tutorials_numbers():
    """Benavoli et al. 2017: NBC vs AODE, rope 0.01 -> sign 0 / 0.71288 / 0.28712, signed-rank
    0 / 0.12244 / 0.87756 (Monte Carlo: within 4 standard errors plus 0.005)."""
    at = open_page("bayesian", sample="benavoli2017", ba="nbc", bb="aode", btest="sign")
    assert (by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value) == ("nbc", "aode")
    assert _metric(at, "P(nbc better)") == 0
    assert abs(_metric(at, "P(practically equivalent)") - 0.71288) <= 4 * 0.00203 + 0.005
    by_label(at.radio, "Test").set_value("Signed-rank (Bayesian Wilcoxon)")
    at.run()
    assert abs(_metric(at, "P(aode better)") - 0.87756) <= 4 * 0.0015 + 0.005


@pytest.mark.slow
def test_large_tables_get_fewer_samples_or_a_clear_refusal():
    """The page's work budget: samples x data sets for one pair (40,000,000)."""
    rng = np.random.default_rng(1)
    n = 5_000
    frame = pd.DataFrame(rng.uniform(0.7, 0.9, (n, 3)), columns=["A", "B", "C"], index=[f"d{i}" for i in range(n)])
    at = upload(open_page("bayesian"), "big.csv", frame.to_csv().encode())
    goto(at, "bayesian")
    assert any("8,000 posterior samples instead of 50,000" in m for m in texts(at.info))
    assert _metric(at, "P(practically equivalent)") >= 0
    n = 50_000
    frame = pd.DataFrame(rng.uniform(0.7, 0.9, (n, 2)), columns=["A", "B"], index=[f"d{i}" for i in range(n)])
    at = upload(at, "huge.csv", frame.to_csv().encode())
    goto(at, "bayesian")
    assert not at.exception
    assert any("Not offered here for one pair of 50,000 data sets" in m for m in texts(at.info))
    assert not at.metric
    by_label(at.radio, "Test").set_value("Sign")
    at.run()
    assert not [m for m in texts(at.info) if "Not offered" in m] and at.metric  # the sign test's cost does not grow with N


def test_fold_level_view_suggests_its_own_rope_and_warns_on_another_scale():
    """Issue 23: fold-level accuracies in [0, 1] get their own ROPE (0.01) whatever the page's table; a ROPE of one
    percentage point written for percentages (1) is flagged as another scale."""
    at = _view(open_page("bayesian"), "Fold-level results")
    rope_box = next(n for n in at.number_input if n.label == "ROPE (fold-level scores)")
    assert rope_box.value == pytest.approx(0.01)
    assert not any("another scale" in w for w in texts(at.warning))
    rope_box.set_value(1.0)
    at.run()
    assert any("probably on another scale" in w and "±1" in w for w in texts(at.warning))
    folds = pd.read_csv(SAMPLES / "fold_level_example.csv")
    a, b = by_label(at.selectbox, "Classifier A").value, by_label(at.selectbox, "Classifier B").value
    table = next(d.value for d in at.dataframe if "p_rope" in d.value.columns)
    assert np.allclose(table["p_rope"], cl.bayesian_fold_tests(folds, a, b, rope=1.0)["p_rope"])


def test_rope_scale_warning():
    assert cl.rope_scale_warning(0.01, [0.8, 0.9, 0.75]) is None
    assert "larger" in cl.rope_scale_warning(1.0, [0.8, 0.9, 0.75])
    assert "smaller" in cl.rope_scale_warning(0.01, [80.0, 90.0, 75.0])
    assert cl.suggest_rope([0.8, float("nan"), 0.7])[0] == 0.01  # missing cells ignored


def test_a_link_carries_the_prior_threshold_samples_and_seed():
    """Issue 23: a Bayesian link reproduces the view: prior strength, decision threshold, posterior samples and
    seed are in it; values the widgets do not offer fall back to the defaults."""
    at = open_page("bayesian", btest="sign", bprior="1.5", bdec="0.9", bsamples="20000", bseed="7")
    assert not at.exception
    assert by_label(at.number_input, "Prior strength").value == pytest.approx(1.5)
    assert at.slider(key="w_bay_decision").value == pytest.approx(0.9)
    assert at.select_slider(key="w_bay_samples").value == 20000
    assert by_label(at.number_input, "Seed").value == 7
    params = at.query_params
    for key, value in (("bprior", "1.5"), ("bdec", "0.9"), ("bsamples", "20000"), ("bseed", "7")):
        assert params[key] in (value, [value])
    at = open_page("bayesian", bprior="99", bdec="0.5", bsamples="123", bseed="-3")
    assert not at.exception
    assert by_label(at.number_input, "Prior strength").value == pytest.approx(0.6)
    assert at.slider(key="w_bay_decision").value == pytest.approx(0.95)
    assert at.select_slider(key="w_bay_samples").value == 50000
    assert by_label(at.number_input, "Seed").value == 0
