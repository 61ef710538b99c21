"""AppTest tests of the Replicability page: the selection experiment, fold-level tests, running an experiment."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

import compare_lib as cl

from .apptest_helpers import open_page, by_label, texts, uploads_as_a_browser_sends_them
from .conftest import SAMPLES


PLAN, FOLDS, RUN = "How many data sets do I need?", "Tests on fold-level results", "Run an experiment"


def _app(**query) -> AppTest:
    """The page, on the tab of ``rtab`` (the data-set selection experiment without it): only the open tab runs."""
    return open_page("replicability", **query)


def _open_tab(at: AppTest, label: str) -> AppTest:
    """Switch tabs as the tab bar does (it reruns the page), through the page's own request slot."""
    at.session_state["rep_tab_request"] = label
    at.run()
    assert not at.exception, at.exception
    return at


def test_selection_experiment_section():
    at = _app(sample="benavoli2016")
    by_label(at.selectbox, "A (also the control)").set_value("C2")
    at.run()
    by_label(at.selectbox, "B").set_value("C4")
    by_label(at.number_input, "Samples per k").set_value(100)
    by_label(at.number_input, "Step of k").set_value(10)
    at.run()
    at.button(key="w_rep_run").click()
    at.run()
    assert not at.exception and not at.error
    charts = [c for c in at.get("plotly_chart") if str(c.key).startswith("sel_")]
    assert len(charts) == 4  # two classifiers, omnibus, the pair among all, versus the control
    assert any("percentages" in c for c in texts(at.caption))


def test_selection_experiment_on_a_small_table_warns():
    at = _app()  # Demšar's 14 data sets
    assert any("overlap" in i for i in texts(at.info))


def test_fold_level_sample_and_table1():
    at = _app(rtab=FOLDS)
    frames = [d.value for d in at.dataframe]
    rep = next(f for f in frames if "almost_consistent" in f.columns and "scheme" in f.columns)
    assert {"5x2cv (Dietterich)", "corrected repeated cv", "corrected resampled t-test"} <= set(rep["test"])
    table1 = next(f for f in frames if "pair" in f.columns)
    assert table1["consistent"].tolist() == [9, 12, 13]
    assert [round(r, 3) for r in table1["R"]] == [0.737, 0.783, 0.816]


def test_fold_level_upload_good_and_bad(monkeypatch):
    uploads_as_a_browser_sends_them(monkeypatch)
    at = _app(rtab=FOLDS)
    by_label(at.radio, "Fold-level data").set_value("Upload a fold-level file")
    at.run()
    uploader = at.file_uploader[0]
    uploader.set_value(("wide.csv", (SAMPLES / "demsar2006_table6_auc_untied.csv").read_bytes(), "text/csv"))
    at.run()
    assert not at.exception
    assert any("classifier column" in e or "no folds" in e for e in texts(at.error))
    folds = (SAMPLES / "fold_level_example.csv").read_bytes()
    at.file_uploader[0].set_value(("mine.csv", folds, "text/csv"))
    at.run()
    assert not at.exception and not at.error
    by_label(at.text_input, "Test/train ratio n2/n1 (blank: from the file)").set_value("ten percent")
    at.run()
    assert any("'ten percent' is not a positive number up to 100" in e for e in texts(at.error))
    by_label(at.text_input, "Test/train ratio n2/n1 (blank: from the file)").set_value("-1")
    at.run()
    assert not at.exception and any("'-1' is not a positive number" in e for e in texts(at.error))
    # Issue 31: the file was read once and its bytes freed; the later runs use what was read (state.read_upload_once).
    file_id, table = at.session_state["w_fold_upload_read"]
    assert len(table.folds) == len(cl.read_results(folds, name="mine.csv", layout="long").fold_rows())
    by_label(at.text_input, "Test/train ratio n2/n1 (blank: from the file)").set_value("0.2")
    at.run()
    assert not at.exception and not at.error
    assert any("scheme" in d.value.columns for d in at.dataframe)  # the replicability of the tests on the file
    assert at.session_state["w_fold_upload_read"][0] == file_id
    at.file_uploader[0].set_value(None)  # the file removed: its results go, and nothing of it is kept
    at.run()
    assert not at.exception and "w_fold_upload_read" not in at.session_state
    assert not any("scheme" in d.value.columns for d in at.dataframe)


def test_run_experiment_section_and_use_the_averages():
    at = _app(rtab=RUN)
    form_multis = {w.label: w for w in at.multiselect}
    form_multis["Classifiers"].set_value(["naive Bayes", "decision tree"])
    form_multis["Data sets"].set_value(["iris", "wine"])
    form_multis["Schemes"].set_value(["5x2cv"])
    by_label(at.number_input, "Seeds (repetitions of the whole experiment)").set_value(2)
    by_label(at.number_input, "Parallel jobs (-1 = all cores)").set_value(1)
    at.button(key="FormSubmitter:experiment-Run").click()
    at.run()
    assert not at.exception, at.exception
    assert any("80 fold-level results" in s for s in texts(at.success))
    _open_tab(at, FOLDS)
    assert "The experiment run on the Replicability page" in by_label(at.radio, "Fold-level data").options
    _open_tab(at, RUN)
    at.button(key="w_use_experiment").click()
    at.run()
    assert not at.exception
    assert any("experiment run on the Replicability page · 2 data sets × 2 classifiers" in c for c in texts(at.caption))


def test_run_experiment_bad_classifier():
    at = _app(rtab=RUN)
    by_label(at.text_input, "Another scikit-learn classifier (optional)").set_value("sklearn.nothing.Here")
    at.button(key="FormSubmitter:experiment-Run").click()
    at.run()
    assert not at.exception
    assert any("'sklearn.nothing' is not offered" in e for e in texts(at.error))


def test_planning_view_power_curve_and_detectable_difference():
    """Issue 22: how many data sets do I need? The curve and the sentences are the library's."""
    import numpy as np

    import compare_lib as cl

    at = _app(rtab=PLAN)
    at.number_input(key="w_plan_nmax").set_value(20)
    at.number_input(key="w_plan_reps").set_value(200)
    at.button(key="w_plan_run").click()
    at.run(timeout=120)
    assert not at.exception
    table = cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)
    names = table.classifiers
    expected = cl.plan(table, n_datasets=sorted({int(x) for x in np.linspace(5, 20, num=10)}),
                       difference=cl.suggest_rope(table)[0], classifier=names[0], against=names[1], reps=200, seed=0,
                       baseline="exchangeable")
    assert any(cl.plan_sentence(expected) in m for m in texts(at.markdown))
    assert any(c.proto.spec and "power" in c.proto.spec for c in at.get("plotly_chart"))


def test_replicability_opens_with_one_sentence():
    """Issue 23: the answer first, before any chart: the share of random draws of data sets in which Wilcoxon
    rejects the pair (the library's selection experiment at bias 0)."""
    import compare_lib as cl

    at = open_page("replicability")
    table = cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)
    a, b = table.classifiers[0], table.classifiers[1]
    result = cl.selection_experiment(table, a, b, n_sets=10, biases=[0], samples=1000, seed=0, tests=["Wilcoxon"])
    sentence = cl.report.selection_sentence(result, a, b, 14)
    assert sentence.startswith("Drawing 10 of your 14 data sets at random (1,000 draws), Wilcoxon rejects")
    assert any(sentence in m for m in texts(at.markdown))


def test_only_the_open_tab_runs_and_settings_are_kept_across_tabs():
    """Issue 31: a page run draws the open tab only (the other tabs' widgets, tables and forms are not made); what
    the reader chose in a tab is there again when they come back to it."""
    at = _app()
    assert by_label(at.number_input, "Data sets per sample")
    assert not [w for w in at.number_input if w.key in ("w_plan_nmax", "w_exp_seeds")]
    assert not at.dataframe and not at.file_uploader
    by_label(at.number_input, "Seed").set_value(7)
    at.run()
    _open_tab(at, FOLDS)
    assert not [w for w in at.number_input if w.key == "w_rep_seed"]
    assert any("pair" in d.value.columns for d in at.dataframe)  # Bouckaert & Frank's table, drawn in this tab
    _open_tab(at, PLAN)
    at.number_input(key="w_plan_nmax").set_value(25)
    at.run()
    _open_tab(at, "How replicable is my verdict?")
    assert at.number_input(key="w_rep_seed").value == 7
    _open_tab(at, PLAN)
    assert at.number_input(key="w_plan_nmax").value == 25


def test_sessions_given_the_same_fold_level_file_share_its_table(monkeypatch):
    """Issue 31: a class given one fold-level file reads it once: the sessions that upload the same bytes share the
    table read (state.load_upload), for as long as one of them keeps it."""
    uploads_as_a_browser_sends_them(monkeypatch)
    folds = (SAMPLES / "fold_level_example.csv").read_bytes()
    tables = []
    for _ in range(2):
        at = _app(rtab=FOLDS)
        by_label(at.radio, "Fold-level data").set_value("Upload a fold-level file")
        at.run()
        at.file_uploader[0].set_value(("mine.csv", folds, "text/csv"))  # the same bytes and name (messages name it)
        at.run()
        assert not at.exception and not at.error
        tables.append(at.session_state["w_fold_upload_read"][1])
    assert tables[0] is tables[1] and tables[0].folds is not None
