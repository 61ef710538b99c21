"""Issue 28: links carry what a view shows.

* A view that shows another page's choice carries it: the Bayesian "All pairs" view puts the adjusted p-values of
  the post-hoc procedure beside its matrix, so its link carries ``correction=`` (the receiver sees Bonferroni where
  the sender did, with the same adjusted p-values); the family-wise demo runs the post-hoc procedure too.
* The settings of every run and demo travel (the experiment form, the selection experiment, the power curve, the
  family-wise, Example 2 and relevance demos), with a flag saying that the view showed the run's results: the
  receiver finds the form filled in and is told to press Run, and gets the sender's numbers when they do. A
  fold-level view built on an experiment never becomes the sample for the receiver.
* A fingerprint link (a table too large to travel) keeps its parameters in the address until its table is loaded
  (a reload keeps the view), names the file and its size (validated and escaped like every link value), and every
  page says what the view awaits and what it shows meanwhile (the sample, named as such).
* A table that travels keeps its aggregation and, when they fit, its fold-level rows; when they do not, the
  fold-level views say so instead of showing the sample.

The tests wait for the app's state (AppTest runs each script to its end), never for time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from .apptest_helpers import answer_direction, by_label, goto, new_app, open_page, raw_texts, texts, upload


#: The forms' submit buttons (their keys as Streamlit names them).
FWER_RUN, DEMO2_RUN = "FormSubmitter:fwer_demo-Run the simulation", "FormSubmitter:demo2-Run the simulation"
RELEVANCE_RUN, EXPERIMENT_RUN = "FormSubmitter:relevance-Run the demo", "FormSubmitter:experiment-Run"


SELECTION, PLAN, FOLDS, RUN = ("How replicable is my verdict?", "How many data sets do I need?",
                               "Tests on fold-level results", "Run an experiment")  # the Replicability page's tabs


def _open_tab(at, label: str):
    """Open a tab of the Replicability page as its tab bar does (only the open tab runs, issue 31)."""
    at.session_state["rep_tab_request"] = label
    at.run()
    assert not at.exception, at.exception
    return at


def _params(at) -> dict:
    """The address share_view wrote after the last run (one value, or a list for a repeated parameter)."""
    return {key: at.query_params[key] for key in at.query_params}


def _frames(at) -> list[str]:
    return [d.value.to_csv() for d in at.dataframe]


def _shown(at) -> dict:
    """What a reader compares: text, metrics and the tables' values (not the notices about the link itself)."""
    return {"markdown": texts(at.markdown), "caption": texts(at.caption), "code": texts(at.code),
            "metric": [(m.label, m.value) for m in at.metric], "tables": _frames(at)}


def _ran(at) -> list[str]:
    return [i for i in texts(at.info) if i.startswith("This view came from a run")]


# -- a view that shows another page's choice carries it ------------------------------------------------


def _bayes_all_pairs(at) -> tuple[list[str], str]:
    side = next(d.value for d in at.dataframe if "p_adj" in d.value.columns)
    beside = next(m for m in texts(at.markdown) if "Beside the frequentist verdict" in m)
    return list(side["p_adj"].astype(str)), beside


def test_the_bayesian_all_pairs_link_carries_the_posthoc_procedure():
    """The sender chooses Bonferroni on the Post-hoc page and opens the Bayesian "All pairs" view: the link carries
    correction=bonferroni, and the receiver sees the same adjusted p-values beside the matrix (not Holm's)."""
    at = open_page("posthoc", sample="demsar2006")
    by_label(at.selectbox, "Procedure").set_value("bonferroni")
    at.run()
    at = goto(at, "bayesian")
    at.select_slider(key="w_bay_samples").set_value(10000)
    at.run()
    at.button_group(key="w_bay_view").set_value("All pairs")
    at.run()
    assert not at.exception, at.exception
    sent, beside = _bayes_all_pairs(at)
    assert "Wilcoxon with Bonferroni" in beside
    params = _params(at)
    assert params.get("correction") == "bonferroni" and params.get("bview") == "All pairs"
    fresh = open_page("bayesian", **params)
    assert _bayes_all_pairs(fresh) == (sent, beside)
    assert _shown(fresh) == _shown(at)
    # Without the procedure the receiver would see Holm's adjusted p-values, which differ here.
    holm = open_page("bayesian", **{k: v for k, v in params.items() if k != "correction"})
    holm_p, holm_beside = _bayes_all_pairs(holm)
    assert "Wilcoxon with Holm" in holm_beside and holm_p != sent


def test_other_views_leave_the_posthoc_procedure_out():
    """The procedure travels with the views that show it, not with every Bayesian view."""
    at = open_page("bayesian", sample="demsar2006", correction="bonferroni")
    assert "correction" not in _params(at)
    at = open_page("pool", sample="demsar2006", correction="bonferroni")
    assert "correction" not in _params(at)
    at = open_page("pool", sample="demsar2006", correction="bonferroni", ptab="Teaching demos")
    assert _params(at).get("correction") == "bonferroni"


# -- the settings of every run and demo travel ---------------------------------------------------------------------


def test_the_family_wise_demo_travels_with_its_settings_and_procedure():
    at = open_page("pool", sample="demsar2006", ptab="Teaching demos", correction="hochberg")
    at.number_input(key="w_fw_kmax").set_value(4)
    at.number_input(key="w_fw_n").set_value(10)
    at.number_input(key="w_fw_reps").set_value(100)
    at.selectbox(key="w_fw_test").set_value("Sign test")
    at.number_input(key="w_fw_shift").set_value(1.5)
    at.button(key=FWER_RUN).click()
    at.run()
    assert not at.exception, at.exception
    sent = [m for m in texts(at.markdown) if "equal classifiers" in m]
    assert sent and "k = 4" in sent[0] and "N = 10" in sent[0]
    params = _params(at)
    assert {k: params.get(k) for k in ("fwk", "fwn", "fwreps", "fwtest", "fwshift", "fwran", "correction")} == {
        "fwk": "4", "fwn": "10", "fwreps": "100", "fwtest": "sign", "fwshift": "1.5", "fwran": "1",
        "correction": "hochberg"}
    fresh = open_page("pool", **params)
    # The form is filled in, the receiver is told to press Run, and nothing else stands in for the results.
    assert fresh.number_input(key="w_fw_kmax").value == 4 and fresh.number_input(key="w_fw_n").value == 10
    assert fresh.selectbox(key="w_fw_test").value == "Sign test"
    assert fresh.number_input(key="w_fw_shift").value == pytest.approx(1.5)
    assert any("the multiple-comparisons simulation" in m for m in _ran(fresh)), texts(fresh.info)
    assert not [m for m in texts(fresh.markdown) if "equal classifiers" in m]
    assert _params(fresh) == params  # a reload keeps the flag: the view still came from a run
    fresh.button(key=FWER_RUN).click()
    fresh.run()
    assert [m for m in texts(fresh.markdown) if "equal classifiers" in m] == sent
    assert _frames(fresh) == _frames(at) and not _ran(fresh)


def test_example_2_travels_with_its_settings():
    at = open_page("pool", sample="demsar2006", ptab="Teaching demos")
    at.number_input(key="w_d2_mean_b").set_value(2.0)
    at.number_input(key="w_d2_reps").set_value(100)
    at.text_input(key="w_d2_others").set_value("4, 8")
    at.number_input(key="w_d2_seed").set_value(3)
    at.button(key=DEMO2_RUN).click()
    at.run()
    assert not at.exception, at.exception
    sent = _frames(at)
    params = _params(at)
    assert {k: params.get(k) for k in ("d2b", "d2reps", "d2others", "d2seed", "d2ran")} == {
        "d2b": "2", "d2reps": "100", "d2others": "4, 8", "d2seed": "3", "d2ran": "1"}
    fresh = open_page("pool", **params)
    assert fresh.text_input(key="w_d2_others").value == "4, 8" and fresh.number_input(key="w_d2_seed").value == 3
    assert any("Example 2" in m for m in _ran(fresh)) and _frames(fresh) != sent
    fresh.button(key=DEMO2_RUN).click()
    fresh.run()
    assert _frames(fresh) == sent


def test_the_relevance_demo_travels_with_its_settings():
    at = open_page("bayesian", sample="demsar2006", bview="Significance is not relevance", bseed="4")
    at.number_input(key="w_bdemo_delta").set_value(0.002)
    at.number_input(key="w_bdemo_rope").set_value(0.02)
    at.button(key=RELEVANCE_RUN).click()
    at.run()
    assert not at.exception, at.exception
    sent = _frames(at)
    params = _params(at)
    assert {k: params.get(k) for k in ("bddelta", "bdrope", "bdran", "bseed")} == {
        "bddelta": "0.002", "bdrope": "0.02", "bdran": "1", "bseed": "4"}
    fresh = open_page("bayesian", **params)
    assert fresh.number_input(key="w_bdemo_delta").value == pytest.approx(0.002)
    assert any("the relevance demo" in m for m in _ran(fresh)) and not fresh.dataframe
    fresh.button(key=RELEVANCE_RUN).click()
    fresh.run()
    assert _frames(fresh) == sent


def test_the_selection_experiment_and_the_power_curve_ask_for_a_run():
    query = dict(sample="demsar2006", rsamples="50", rkmax="2", rkstep="1", rtest="Wilcoxon", qreps="100", qnmax="10")
    at = open_page("replicability", **query)
    at.button(key="w_rep_run").click()
    at.run()
    sent_selection = _shown(at)
    _open_tab(at, PLAN)  # only the open tab runs (issue 31)
    at.button(key="w_plan_run").click()
    at.run()
    assert not at.exception, at.exception
    params = _params(at)
    assert params.get("rran") == "1" and params.get("qran") == "1"
    sent = _shown(at)
    fresh = open_page("replicability", **params)  # on the planning tab, the link's
    assert any("the power curve" in m for m in _ran(fresh)), _ran(fresh)
    # No power curve: no run here yet.
    assert not [c for c in fresh.get("plotly_chart") if c.key == "plan_curve"]
    fresh.button(key="w_plan_run").click()
    fresh.run()
    assert _shown(fresh) == sent and not _ran(fresh)
    _open_tab(fresh, SELECTION)
    assert any("the selection experiment" in m for m in _ran(fresh)), _ran(fresh)
    assert not [c for c in fresh.get("plotly_chart") if c.key.startswith("sel_")]
    fresh.button(key="w_rep_run").click()
    fresh.run()
    assert _shown(fresh) == sent_selection and not _ran(fresh)
    # A session that changes a setting after its run no longer shows that run's results as its view.
    _open_tab(at, SELECTION)
    at.number_input(key="w_rep_samples").set_value(100)
    at.run()
    assert "rran" not in _params(at) and not _ran(at)


def _run_experiment(at):
    at.multiselect(key="w_exp_classifiers").set_value(["naive Bayes", "decision tree"])
    at.number_input(key="w_exp_seeds").set_value(2)
    at.number_input(key="w_exp_jobs").set_value(1)
    at.button(key=EXPERIMENT_RUN).click()
    at.run()
    assert not at.exception, at.exception


def _experiment_success(at) -> list[str]:
    return [s for s in texts(at.success) if "fold-level results:" in s]


def test_an_experiment_travels_as_its_form_and_a_fold_level_view_of_it_never_becomes_the_sample():
    at = open_page("replicability", sample="demsar2006", rtab=RUN)
    _run_experiment(at)
    assert _experiment_success(at) == ["80 fold-level results: 2 classifiers, 2 data sets, 1 scheme(s), 2 seeds."]
    params = _params(at)
    assert params.get("eclf") == ["naive Bayes", "decision tree"] and params.get("eseeds") == "2"
    assert params.get("eran") == "1"
    fresh = open_page("replicability", **params)
    assert fresh.multiselect(key="w_exp_classifiers").value == ["naive Bayes", "decision tree"]
    assert fresh.number_input(key="w_exp_seeds").value == 2
    assert any("the experiment" in m for m in _ran(fresh)) and not _experiment_success(fresh)

    # The Bayesian fold-level view of the experiment: its link carries the experiment's form (another page's).
    at = goto(at, "bayesian")
    at.button_group(key="w_bay_view").set_value("Fold-level results")
    at.run()
    by_label(at.radio, "Fold-level data").set_value("The experiment run on the Replicability page")
    at.run()
    assert not at.exception, at.exception
    sent = _shown(at)
    assert sent["tables"], "the sender sees the experiment's tests"
    params = _params(at)
    assert params.get("bfsrc") == "The experiment run on the Replicability page"
    assert params.get("eclf") == ["naive Bayes", "decision tree"] and params.get("eran") == "1"
    fresh = open_page("bayesian", **params)
    assert by_label(fresh.radio, "Fold-level data").value == "The experiment run on the Replicability page"
    assert any("This view came from a run" in w and "(not the sample)" in w for w in texts(fresh.warning))
    assert not fresh.dataframe and not fresh.get("plotly_chart")  # not the sample's tests
    assert _params(fresh) == params  # the view keeps its source and the experiment's settings
    # The receiver runs the experiment the link describes (the form is filled in) and sees the sender's view.
    fresh = _open_tab(goto(fresh, "replicability"), RUN)
    fresh.button(key=EXPERIMENT_RUN).click()
    fresh.run()
    assert _experiment_success(fresh) == ["80 fold-level results: 2 classifiers, 2 data sets, 1 scheme(s), 2 seeds."]
    fresh = goto(fresh, "bayesian")
    assert _shown(fresh) == sent


# -- a table that travels keeps its aggregation and its fold-level rows ---------------------------------------------


def _long_csv(n_datasets: int = 4, folds: int = 3) -> bytes:
    rows = ["dataset,classifier,fold,accuracy"]
    for d in range(n_datasets):
        for c, base in (("A", 0.7), ("B", 0.8), ("C", 0.75)):
            rows += [f"d{d},{c},{f},{base + 0.01 * d + 0.001 * f * f + 0.0003 * (d * f % 5):.4f}" for f in range(folds)]
    return ("\n".join(rows) + "\n").encode()


def test_a_table_link_keeps_the_aggregation_and_the_fold_level_rows():
    at = upload(new_app(), "folds.csv", _long_csv())
    by_label(at.radio, "Runs/folds per cell").set_value("Median")
    at.run()
    at = _open_tab(goto(at, "replicability"), FOLDS)
    by_label(at.radio, "Fold-level data").set_value("The fold-level rows of the loaded table")
    at.run()
    assert not at.exception, at.exception
    sent = _shown(at)
    params = _params(at)
    assert "data" in params and params.get("agg") == "median"
    fresh = open_page("replicability", **params)
    assert _params(fresh) == params  # the receiver's link is the sender's: median, fold rows and all
    shown = _shown(fresh)
    assert shown.pop("caption") != sent.pop("caption")  # "file: folds.csv" there, "table carried by the link" here
    assert shown == sent and any("R" in d.value.columns for d in fresh.dataframe)
    fresh = goto(fresh, "load_data")
    fresh.button_group(key="w_preview_view").set_value("Fold-level rows")
    fresh.run()
    assert any("use their median per cell" in c for c in texts(fresh.caption)), texts(fresh.caption)


def test_fold_level_rows_too_large_to_travel_are_said_to_be_missing_not_replaced_by_the_sample():
    at = upload(new_app(), "many_folds.csv", _long_csv(n_datasets=40, folds=30))
    at = _open_tab(goto(at, "replicability"), FOLDS)
    by_label(at.radio, "Fold-level data").set_value("The fold-level rows of the loaded table")
    at.run()
    params = _params(at)
    assert "data" in params
    fresh = open_page("replicability", **params)
    assert by_label(fresh.radio, "Fold-level data").value == "The fold-level rows of the loaded table"
    warning = [w for w in texts(fresh.warning) if "has none" in w]
    assert warning and "without them" in warning[0] and "(not the sample)" in warning[0]
    # Only the page's fixed table (Bouckaert & Frank's) is shown: no fold-level tests of the sample.
    assert [list(d.value.columns)[0] for d in fresh.dataframe] == ["pair"]
    assert any("without its fold-level rows" in c for c in texts(fresh.caption))


def test_a_load_data_view_that_needs_what_did_not_travel_is_named():
    at = upload(new_app(), "many_folds.csv", _long_csv(n_datasets=40, folds=30))
    at.button_group(key="w_preview_view").set_value("Fold-level rows")
    at.run()
    params = _params(at)
    assert params.get("lview") == "Fold-level rows" and "data" in params
    fresh = _first_run("load_data", **params)
    assert any("The link's view 'Fold-level rows' shows the fold-level rows, which did not travel" in i
               and "Shown instead: 'Scores (rank)'" in i for i in texts(fresh.info)), texts(fresh.info)


@pytest.mark.parametrize("folds", [5, "", "not,a\nfold table\n", "dataset,classifier,fold,score\nd0,A,0,Infinity\n",
                                   ["x"]], ids=repr)
def test_fold_level_rows_a_link_cannot_read_are_left_out(folds):
    """A link's table whose fold-level rows are not a fold-level table is read without them (never raised)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
    import links

    payload = {"higher": True, "csv": "dataset,A,B\nd1,1,2\nd2,3,4\nd3,5,7\n", "folds": folds}
    at = open_page("replicability", data=links._pack(payload), rtab=FOLDS)
    table = at.session_state["table"]
    assert table.classifiers == ["A", "B"] and table.folds is None
    assert by_label(at.radio, "Fold-level data").value.startswith("Sample")  # nothing to say: the user's own choice


# -- a fingerprint link ---------------------------------------------------------------------------------------------


def _big_csv(seed: int = 1) -> bytes:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.uniform(0.5, 0.9, size=(2500, 10)).round(4), columns=[f"M{j}" for j in range(10)],
                         index=pd.Index([f"d{i}" for i in range(2500)], name="dataset"))
    return frame.to_csv().encode()


def _summary(at) -> str:
    return next(m for m in texts(at.markdown) if "hypotheses rejected" in m)


def _notice(at) -> str:
    return next((w for w in texts(at.warning) if w.startswith("This link's view awaits its table")), "")


def _load(at, name: str, data: bytes):
    at = goto(at, "load_data")
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    at.file_uploader[0].set_value((name, data, "text/csv"))
    at.run()
    assert not at.exception, at.exception
    return answer_direction(at)  # an unnamed metric: its direction is asked (issue 28)


def test_a_fingerprint_link_keeps_its_view_names_its_table_and_survives_a_reload():
    at = upload(new_app(), "results of the big study.csv", _big_csv())
    by_label(at.radio, "The scores are").set_value("Lower is better (error, loss, time)")
    at.run()
    by_label(at.multiselect, "Classifiers").set_value([f"M{j}" for j in range(5)])
    at.run()
    at = goto(at, "posthoc")
    by_label(at.selectbox, "Procedure").set_value("bonferroni")
    at.run()
    sent = _summary(at)
    link = _params(at)
    assert "fp" in link and "data" not in link
    assert link["fpname"] == "results of the big study.csv" and link["fpshape"] == "2500x10" and link["dir"] == "lower"

    fresh = open_page("posthoc", **link)
    notice = _notice(fresh)
    assert "the file results of the big study.csv (2,500 data sets × 10 classifiers" in notice
    assert "too large to travel in a link" in notice
    assert "Meanwhile this page shows sample: Demšar 2006" in notice and "not the link's table" in notice
    assert _params(fresh) == link, "the address keeps the link until its table is loaded"
    assert "4 classifiers" in " ".join(texts(fresh.caption))  # the sample, named as such, with its own caption
    fresh = goto(fresh, "omnibus")
    assert _notice(fresh) == notice and _params(fresh) == link
    # A reload (a new session with the address as it is now) awaits the same table.
    reloaded = open_page("omnibus", **_params(fresh))
    assert _notice(reloaded) == notice and _params(reloaded) == link
    # Another table is named as not the link's; the view still waits, and the pages say what they show meanwhile.
    reloaded = _load(reloaded, "other.csv", _big_csv(seed=2))
    assert any("not the one the link was made with" in i and "results of the big study.csv" in i
               for i in texts(reloaded.info)), texts(reloaded.info)
    assert "Meanwhile this page shows file: other.csv" in _notice(reloaded) and _params(reloaded) == link
    # The same file (read as higher is better here: the link's direction is applied): the view is the sender's.
    reloaded.file_uploader[0].set_value(("results of the big study.csv", _big_csv(), "text/csv"))
    reloaded.run()
    answer_direction(reloaded)  # asked (issue 28): answered "higher"; the link's direction is then applied
    assert any("matches the link" in i for i in texts(reloaded.info)), texts(reloaded.info)
    assert not _notice(reloaded)
    reloaded = goto(reloaded, "posthoc")
    assert _summary(reloaded) == sent
    assert _params(reloaded) == link


def _first_run(page: str, **query: str):
    """A fresh session opened on ``page`` with a link (the warnings about the link are those of its first run)."""
    from streamlit.testing.v1 import AppTest

    from .apptest_helpers import APP

    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_file_name_and_size_of_a_fingerprint_link_are_checked_and_escaped():
    fp = "0123456789abcdef"
    at = _first_run("load_data", fp=fp, fpname="**bold** <b>x</b> [a](http://e.org)", fpshape="12x3")
    notice = _notice(at)
    assert "the file **bold** <b>x</b> [a](http://e.org) (12 data sets × 3 classifiers)" in notice.replace("\u200b", "")
    raw = next(w for w in raw_texts(at.warning) if "awaits its table" in w)
    assert "\\*\\*bold\\*\\*" in raw and "\\<b\\>" in raw and "\\[a\\]" in raw  # shown as text, never rendered
    for name, shape in (("x\x07y.csv", "Infinityx3"), ("y" * 200, "1x3"), ("ok.csv", "99999999x999")):
        at = _first_run("omnibus", fp=fp, fpname=name, fpshape=shape)
        warnings = texts(at.warning)
        assert any("(fpshape)" in w for w in warnings), warnings
        assert ("(fpname)" in " ".join(warnings)) == (name != "ok.csv")
        assert at.session_state["pending_view"]["fp"] == [fp]  # the view still waits for its table
        notice = _notice(at)
        awaited = notice.split(", too large to travel")[0]
        assert ("a file the link does not name" in awaited) == (name != "ok.csv") and "data sets ×" not in awaited
        assert "fpshape" not in _params(at)  # a value this app does not write is not kept in the address


@pytest.mark.browser
def test_a_fingerprint_link_survives_a_reload_in_a_browser(server):
    """In a real browser the address is what the app writes: a fingerprint link stays in it, on every page, and a
    reload (a new session) awaits the same table with the same words."""
    from .browser_helpers import browser_page, require_chromium, wait_idle

    require_chromium()
    from playwright.sync_api import expect

    timeout = 90_000
    link = (f"{server}/posthoc?fp=0123456789abcdef&fpname=results.csv&fpshape=2500x10&dir=lower&alpha=0.1"
            "&correction=bonferroni")
    awaited = "the file results.csv (2,500 data sets × 10 classifiers)"
    with browser_page() as (page, errors):
        page.goto(link)
        expect(page.get_by_text(awaited).first).to_be_visible(timeout=timeout)
        wait_idle(page, timeout)
        for part in ("fp=0123456789abcdef", "fpname=results.csv", "fpshape=2500x10", "correction=bonferroni"):
            assert part in page.url, page.url
        expect(page.get_by_text("Meanwhile this page shows sample: Demšar 2006").first).to_be_visible(timeout=timeout)
        page.reload()
        expect(page.get_by_text(awaited).first).to_be_visible(timeout=timeout)
        wait_idle(page, timeout)
        assert "fp=0123456789abcdef" in page.url and "correction=bonferroni" in page.url, page.url
        page.get_by_role("link", name="Omnibus tests").first.click()
        expect(page.locator("h1").first).to_have_text("Omnibus tests", timeout=timeout)
        wait_idle(page, timeout)
        expect(page.get_by_text(awaited).first).to_be_visible(timeout=timeout)
        assert "fp=0123456789abcdef" in page.url and "fpname=results.csv" in page.url, page.url
        assert not errors, errors
