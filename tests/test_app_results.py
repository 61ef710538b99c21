"""AppTest tests of issue 19 on the dashboard: a researcher's own results files, read first and chosen from
second (metric, direction, aggregation, missing cells), named on every page, in exports and links."""

from __future__ import annotations

from pathlib import Path


import compare_lib as cl

from .apptest_helpers import by_label, goto, new_app, texts, upload

DATA = Path(__file__).resolve().parent / "data"
CV = (DATA / "results" / "cross_validate_export.csv").read_bytes()


def _success(at) -> str:
    return " ".join(texts(at.success))


def _choose_metric(at, metric: str):
    by_label(at.selectbox, "Metric").set_value(metric)
    at.run()
    at.button(key="w_pending_use").click()
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_cross_validate_export_waits_for_the_metric_then_loads_it():
    at = upload(new_app(), "cv.csv", CV)
    assert "Demšar" in _success(at)  # nothing is analysed before a metric is chosen
    assert any("cv.csv holds 5 metrics: choose one" in m for m in texts(at.markdown))
    assert by_label(at.selectbox, "Metric").value is None
    assert at.button(key="w_pending_use").disabled
    _choose_metric(at, "test_roc_auc")
    assert "file: cv.csv" in _success(at) and "metric: test_roc_auc" in _success(at)
    assert "3 data sets × 3 classifiers" in _success(at) and "higher is better" in _success(at)
    expected = cl.read_results(DATA / "results" / "cross_validate_export.csv").table("test_roc_auc")
    frame = at.dataframe[0].value
    assert frame.loc["ionosphere", "SVC"] == f"{expected.scores.loc['ionosphere', 'SVC']:.6g} (1)"
    assert any("each cell is the mean of 3 folds" in m for m in texts(at.markdown))
    # Every page names the metric.
    for page in ("omnibus", "posthoc"):
        goto(at, page)
        assert any("metric: test_roc_auc" in c for c in texts(at.caption)), page
    assert at.query_params["metric"] in ("test_roc_auc", ["test_roc_auc"])


def test_the_metric_can_be_changed_after_loading_and_the_selection_stays():
    at = _choose_metric(upload(new_app(), "cv.csv", CV), "test_accuracy")
    by_label(at.multiselect, "Data sets to leave out").set_value(["diabetes"])
    at.run()
    by_label(at.selectbox, "Metric").set_value("fit_time")
    at.run()
    assert "metric: fit_time" in _success(at) and "lower is better" in _success(at)
    # issue 28: a guess is not a question; it is shown with its reason and can be changed
    assert any("Guessed from the metric's name: lower is better: 'fit time'" in c for c in texts(at.caption))
    assert by_label(at.multiselect, "Data sets to leave out").value == ["diabetes"]
    goto(at, "omnibus")
    assert any("2 data sets × 3 classifiers" in c for c in texts(at.caption))


def test_across_metrics_view_gives_each_metrics_verdict():
    at = _choose_metric(upload(new_app(), "cv.csv", CV), "test_accuracy")
    at.segmented_control(key="w_preview_view").set_value("Across metrics")
    at.run()
    summary = at.dataframe[0].value
    assert list(summary["Metric"]) == ["fit_time", "score_time", "test_accuracy", "test_roc_auc", "test_f1_macro"]
    expected = cl.compare_metrics(cl.read_results(DATA / "results" / "cross_validate_export.csv"))
    assert list(summary["Best mean rank"]) == list(expected["best"])
    assert list(summary["Tied for best"]) == list(expected["tied_for_best"])
    assert list(summary["Higher is better"]) == [False, False, True, True, True]
    assert list(summary.columns[:3]) == ["Metric", "Best mean rank", "Tied for best"]


def test_an_error_rate_file_is_read_lower_is_better_and_the_guess_can_be_confirmed():
    data = (DATA / "results" / "error_rates.csv").read_bytes()
    at = upload(new_app(), "error_rates.csv", data)
    assert any("Skipped the row 'Average'" in m for m in texts(at.markdown))
    assert "file: error_rates.csv" in _success(at) and "lower is better (guessed" in _success(at)
    guess = [c for c in texts(at.caption) if c.startswith("Guessed from the metric's name")]
    assert guess and "'error rate'" in guess[0] and "error_rates.csv" in guess[0]
    at.button(key=f"w_direction_ok_{at.session_state['table_version']}").click()
    at.run()
    assert not [c for c in texts(at.caption) if c.startswith("Guessed from")]
    assert "lower is better (stated by you)" in _success(at)


def test_a_file_without_a_direction_word_asks_before_anything_is_analysed():
    data = b"dataset,A,B,C\nd1,0.8,0.7,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\nd4,0.7,0.8,0.9\n"
    at = upload(new_app(), "mine.csv", data, direction=None)
    assert "Demšar" in _success(at)  # issue 28: not assumed higher, asked
    assert any("mine.csv: which is better" in m for m in texts(at.markdown))
    assert at.button(key="w_pending_use").disabled


def test_an_xlsx_with_two_sheets_gets_a_sheet_picker():
    data = (DATA / "formats" / "two_sheets.xlsx").read_bytes()
    names = cl.io.sheet_names(data, "xlsx")
    at = upload(new_app(), "two_sheets.xlsx", data)
    picker = by_label(at.selectbox, "Sheet")
    assert list(picker.options) == names
    assert picker.value is None and "Demšar" in _success(at)  # nothing read before a sheet is chosen
    picker.set_value(names[1])
    at.run()
    assert not at.exception
    expected = cl.read_results(data, name="two_sheets.xlsx", sheet=names[1])
    if len(expected.metrics) > 1:
        _choose_metric(at, expected.metrics[0])
    table = expected.table(expected.metrics[0])
    assert f"(sheet '{names[1]}')" in _success(at)
    assert f"{table.n_datasets} data sets × {table.n_classifiers} classifiers" in _success(at)


def test_a_latex_table_pasted_from_a_paper_loads_its_means():
    text = (DATA / "formats" / "paper_table.tex").read_text()
    at = new_app()
    by_label(at.radio, "Source").set_value("Paste")
    at.run()
    at.text_area(key="w_paste").set_value(text)
    at.button(key="w_paste_load").click()
    at.run()
    assert not at.exception
    expected = cl.read_results(text)
    if len(expected.metrics) > 1:
        _choose_metric(at, expected.metrics[0])
    table = expected.table(expected.metrics[0])
    assert "pasted text" in _success(at)
    assert f"{table.n_datasets} data sets × {table.n_classifiers} classifiers" in _success(at)
    assert any("Read as latex" in c for c in texts(at.caption))
    frame = at.dataframe[0].value
    first = table.datasets[0]
    assert frame.loc[first].iloc[0].startswith(f"{table.scores.iloc[0, 0]:.6g} (")


HOLES = (b"dataset,classifier,accuracy\n" + b"".join(
    f"{d},{c},{0.5 + 0.01 * i + 0.03 * j}\n".encode() for i, d in enumerate(["iris", "wine", "glass", "vowel", "heart"])
    for j, c in enumerate(["RF", "SVC", "kNN"]) if (d, c) not in {("wine", "SVC"), ("vowel", "kNN")}))


def test_keep_the_holes_gives_skillings_mack_and_pairwise_tests():
    data = HOLES
    at = new_app()
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    by_label(at.selectbox, "Missing cells").set_value("Keep the holes (each pair on the data sets both have)")
    at.run()
    at.file_uploader[0].set_value(("holes.csv", data, "text/csv"))
    at.run()
    assert not at.exception
    assert "with missing cells" in _success(at)
    table = cl.read_results(data, name="holes.csv").table(missing="pairwise")
    assert int(table.scores.isna().sum().sum()) == 2
    goto(at, "omnibus")
    sm = cl.skillings_mack(table)
    assert any(f"{sm.statistic:.3f}" == m.value for m in at.metric)
    assert not at.error
    goto(at, "posthoc")
    radio = by_label(at.radio, "Pairwise statistic")
    assert set(radio.options) == {"Wilcoxon signed-ranks", "Sign test"}
    assert not at.error


def test_fold_level_pages_start_on_the_loaded_fold_rows():
    data = (DATA / "results" / "cross_validate_export.csv").read_bytes()
    at = _choose_metric(upload(new_app(), "cv.csv", data), "test_accuracy")
    goto(at, "replicability")
    at.session_state["rep_tab_request"] = "Tests on fold-level results"  # only the open tab runs (issue 31)
    at.run()
    radio = by_label(at.radio, "Fold-level data")
    assert radio.value == "The fold-level rows of the loaded table"


def test_a_workbook_named_csv_still_gets_its_sheet_picker():
    data = (DATA / "formats" / "two_sheets.xlsx").read_bytes()
    at = upload(new_app(), "results.csv", data)  # saved with the wrong name
    picker = by_label(at.selectbox, "Sheet")
    assert list(picker.options) == cl.io.sheet_names(data, "xlsx")
    assert not at.error


def test_an_error_goes_when_the_source_changes():
    at = upload(new_app(), "bad.csv", b"dataset,A,B\nd1,0.8,oops\nd2,0.5,0.6\n")
    assert at.error
    by_label(at.radio, "Source").set_value("Sample")
    at.run()
    assert not at.error


def test_the_paragraph_holds_no_note_on_the_data():
    """Issue 28: the paragraph is pasted into a paper as it is; what was averaged or ignored stays in the notes."""
    at = _choose_metric(upload(new_app(), "cv.csv", CV), "test_roc_auc")
    goto(at, "posthoc")
    at.segmented_control(key="w_ph_view").set_value("Report")
    at.run()
    paragraph = at.code[0].value
    assert "by their test_roc_auc (higher is better)" in paragraph
    assert "Averaged 3 rows" not in paragraph and "Data:" not in paragraph
    assert "Ignored the unnamed column" not in paragraph
    # said beside it, for the paper's data section
    assert any("for your paper's data section: Averaged 3 rows per data set" in c for c in texts(at.caption))


def test_names_in_the_skillings_mack_notes_are_not_markdown():
    """A data set with a single score is dropped by Skillings-Mack and named in a note: as text, never a link."""
    rows = ["dataset,classifier,accuracy"]
    rows += [f"d{i},{c},{0.5 + 0.01 * i + 0.02 * j}" for i in range(6) for j, c in enumerate(["A", "B", "C"])]
    rows += ["[click](https://evil.example/),A,0.9"]
    at = new_app()
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    by_label(at.selectbox, "Missing cells").set_value("Keep the holes (each pair on the data sets both have)")
    at.run()
    at.file_uploader[0].set_value(("evil.csv", ("\n".join(rows) + "\n").encode(), "text/csv"))
    at.run()
    goto(at, "omnibus")
    infos = [str(i.value) for i in at.info]
    assert any("click" in i for i in infos)
    assert not any("[click](https://evil.example/)" in i for i in infos)  # escaped: \[click\]\(https...
