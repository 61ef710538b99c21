"""Loading score tables: layouts, detection, and messages for bad input."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

from .conftest import SAMPLES

WIDE = "dataset,A,B,C\nd1,0.8,0.7,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\n"


def load(text: str, **kw) -> cl.ScoreTable:
    kw.setdefault("higher_is_better", True)  # an unnamed metric: the direction is stated (issue 28)
    return cl.load_scores(text.encode("utf-8"), name="t.csv", **kw)


def test_wide_basic_and_ranks():
    t = load(WIDE)
    assert t.classifiers == ["A", "B", "C"] and t.datasets == ["d1", "d2", "d3"]
    assert t.ranks.loc["d1"].tolist() == [1, 2, 3]
    assert t.ranks.loc["d3"].tolist() == [2, 2, 2]  # constant rows are legal: all tied
    assert t.mean_ranks.tolist() == pytest.approx([(1 + 3 + 2) / 3, (2 + 1 + 2) / 3, (3 + 2 + 2) / 3])
    low = load(WIDE, higher_is_better=False)
    assert low.ranks.loc["d1"].tolist() == [3, 2, 1]


def test_wins_ties_losses():
    t = load(WIDE)
    wtl = t.win_tie_loss()
    assert wtl["wins"].loc["A", "B"] == 1 and wtl["losses"].loc["A", "B"] == 1 and wtl["ties"].loc["A", "B"] == 1
    frame = t.win_tie_loss_frame()
    assert len(frame) == 6 and set(frame.columns) == {"a", "b", "wins", "ties", "losses"}


def test_samples_load(demsar, garcia, benavoli):
    assert (demsar.n_datasets, demsar.n_classifiers) == (14, 4)
    assert (garcia.n_datasets, garcia.n_classifiers) == (30, 5)
    assert (benavoli.n_datasets, benavoli.n_classifiers) == (54, 7)


def test_duplicate_dataset_names_are_kept_renamed_and_reported():
    with pytest.warns(cl.DataWarning, match="credit"):
        t = cl.load_scores(SAMPLES / "benavoli2016_table2_accuracy.csv")
    assert "credit" in t.datasets and "credit (2)" in t.datasets
    assert t.n_datasets == 54
    assert any("line 7" in n and "line 49" in n for n in t.notes)
    assert t.scores.loc["credit (2)", "C1"] == 84.93


def test_semicolon_and_decimal_comma_and_bom():
    text = "\ufeffdataset;A;B\nd1;0,81;0,7\nd2;0,5;0,92\n"
    t = load(text)
    assert t.scores.loc["d1", "A"] == 0.81
    assert any("decimal commas" in n for n in t.notes)
    assert any("semicolon" in n for n in t.notes)


def test_tab_separated_and_quoted():
    t = load('data set\t"A"\t"B"\nd1\t"0.8"\t0.7\nd2\t0.5\t0.9\n')
    assert t.classifiers == ["A", "B"] and t.scores.loc["d1", "A"] == 0.8


def test_paste_text_and_file_object():
    assert cl.load_scores(WIDE, higher_is_better=True).n_datasets == 3
    assert cl.load_scores(io.StringIO(WIDE), higher_is_better=True).n_datasets == 3
    assert cl.load_scores(io.BytesIO(WIDE.encode()), higher_is_better=True).n_datasets == 3


def test_long_layout_with_folds_is_averaged_and_kept():
    rows = ["dataset,classifier,fold,accuracy"]
    for d in ("d1", "d2"):
        for c, base in (("A", 0.8), ("B", 0.7)):
            for f in range(3):
                rows.append(f"{d},{c},{f},{base + f / 100}")
    t = load("\n".join(rows))
    assert t.scores.loc["d1", "A"] == pytest.approx(0.81)
    assert t.folds is not None and len(t.folds) == 12
    assert set(t.folds.columns) == {"dataset", "classifier", "fold", "score"}
    assert any("Averaged 3 rows" in n for n in t.notes)


def test_long_layout_missing_cell_policy():
    text = "dataset,classifier,score\nd1,A,0.8\nd1,B,0.7\nd2,A,0.6\nd3,A,0.5\nd3,B,0.4\n"
    with pytest.raises(cl.InputError, match="missing cell.*data set 'd2'.*column 'B'"):
        load(text)
    with pytest.warns(cl.DataWarning, match="Dropped 1 data set"):
        t = load(text, missing="drop-datasets")
    assert t.datasets == ["d1", "d3"]
    assert any("Dropped 1 data set" in n and "'d2'" in n for n in t.notes)


def test_long_duplicate_fold_is_an_error():
    text = "dataset,classifier,fold,score\nd1,A,1,0.8\nd1,A,1,0.7\nd1,B,1,0.6\nd2,A,1,0.6\nd2,B,1,0.5\n"
    with pytest.raises(cl.InputError, match="lines 2, 3"):
        load(text)


def test_missing_cells_default_error_lists_them():
    text = "dataset,A,B,C\nd1,0.8,,0.6\nd2,0.5,0.9,NA\nd3,0.6,0.6,0.6\n"
    with pytest.raises(cl.InputError) as err:
        load(text)
    msg = str(err.value)
    assert "t.csv" in msg and "2 missing" in msg
    assert "line 2 (data set 'd1'), column 'B'" in msg and "line 3 (data set 'd2'), column 'C'" in msg


def test_missing_policies_report_what_was_dropped():
    text = "dataset,A,B,C\nd1,0.8,,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\nd4,0.1,0.2,0.3\n"
    with pytest.warns(cl.DataWarning):
        rows = load(text, missing="drop-datasets")
    assert rows.datasets == ["d2", "d3", "d4"]
    assert any("'d1' (line 2)" in n for n in rows.notes)
    with pytest.warns(cl.DataWarning):
        cols = load(text, missing="drop-classifiers")
    assert cols.classifiers == ["A", "C"]
    assert any("'B' (1 missing)" in n for n in cols.notes)


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("", "is empty"),
        ("dataset,A,B\n", "no data rows"),
        ("just one column\nd1\nd2\n", "single column"),
        ("dataset,A,B\nd1,0.8,abc\nd2,0.5,0.6\n", r"line 2 \(data set 'd1'\), column 'B': 'abc'"),
        ("dataset,A,B\nd1,0.8,inf\nd2,0.5,0.6\n", "infinite"),
        ("dataset,A,A\nd1,0.8,0.7\nd2,0.5,0.6\n", "duplicate classifier name.*'A' in columns 2, 3"),
        ("dataset,A,B\nd1,0.8\nd2,0.5,0.6\n", "line 2: 2 field"),
        ("dataset,A,B\nd1,0.8,0.7\n", "1 data set"),
        ("dataset,A\nd1,0.8\nd2,0.7\n", "1 classifier"),
        ("dataset,A,\nd1,0.8,0.7\nd2,0.5,0.6\n", "classifier name missing"),
        ("dataset,A,B\n,0.8,0.7\nd2,0.5,0.6\n", "data-set name missing on line 2"),
        ("dataset,A,B\nd1,0.8,0,7\nd2,0.5,0.6\n", "field"),
        ("<!DOCTYPE html><html><body>x</body></html>", "HTML"),
        ("dataset;A;B\nd1;0,5;0.6\nd2;0.1;0.2\n", "mix decimal points and decimal commas"),
    ],
)
def test_bad_files_have_clear_messages(text, pattern):
    with pytest.raises(cl.InputError, match=pattern) as err:
        load(text)
    assert "t.csv" in str(err.value)


def test_binary_file():
    with pytest.raises(cl.InputError, match="binary"):
        cl.load_scores(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", name="scores.csv")


def test_missing_path():
    with pytest.raises(cl.InputError, match="does not exist"):
        cl.load_scores("/nonexistent/scores.csv")


def test_dataframe_input_validation():
    df = pd.DataFrame({"A": [0.1, 0.2], "B": [0.3, "x"]}, index=["d1", "d2"])
    with pytest.raises(cl.InputError, match="row 2 \\(data set 'd2'\\), column 'B': 'x'"):
        cl.ScoreTable(df)
    with pytest.raises(cl.InputError, match="higher_is_better"):
        cl.ScoreTable(pd.DataFrame({"A": [1, 2], "B": [2, 3]}), higher_is_better="yes")
    with pytest.raises(cl.InputError, match="policy"):
        cl.ScoreTable(pd.DataFrame({"A": [1, 2], "B": [2, 3]}), missing="ignore")
    with pytest.raises(cl.InputError, match="direction"):
        cl.as_table(np.ones((3, 3)))


def test_subset_and_unknown_names(demsar):
    sub = demsar.subset(["C4.5", "C4.5+m"], demsar.datasets[:5])
    assert sub.classifiers == ["C4.5", "C4.5+m"] and sub.n_datasets == 5
    with pytest.raises(cl.InputError, match="Unknown classifier"):
        demsar.subset(["J48"])


def test_the_input_frame_is_not_changed():
    df = pd.DataFrame({"A": [0.1, 0.2], "B": [0.3, 0.4]}, index=["x", "x"])
    before = df.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = cl.ScoreTable(df)
    pd.testing.assert_frame_equal(df, before)
    assert t.datasets == ["x", "x (2)"]


def test_to_long_round_trip(demsar):
    long = demsar.to_long()
    assert list(long.columns) == ["dataset", "classifier", "score"]
    assert len(long) == 14 * 4
    again = long.pivot(index="dataset", columns="classifier", values="score").loc[demsar.datasets, demsar.classifiers]
    assert np.array_equal(again.to_numpy(), demsar.scores.to_numpy())


def test_single_numeric_dtype_fast_path_keeps_every_check():
    """A frame of one numeric dtype is converted in one step: nullable missing cells, infinities and the
    direction still behave exactly as on the column-by-column path."""
    import pandas as pd

    df = pd.DataFrame({"A": pd.array([1, None, 3], dtype="Int64"), "B": pd.array([2, 2, 1], dtype="Int64")},
                      index=["x", "y", "z"])
    with pytest.raises(cl.InputError, match=r"row 2 \(data set 'y'\), column 'A'"):
        cl.ScoreTable(df, True)
    with pytest.warns(cl.DataWarning):
        dropped = cl.ScoreTable(df, True, missing="drop-datasets")
    assert dropped.datasets == ["x", "z"]
    inf = pd.DataFrame({"A": [1.0, float("inf")], "B": [0.5, 0.2]}, index=["x", "y"])
    with pytest.raises(cl.InputError, match="infinite"):
        cl.ScoreTable(inf, True)
    mixed = pd.DataFrame({"A": [1.0, 2.0], "B": [True, False]}, index=["x", "y"])
    with pytest.raises(cl.InputError, match="not numbers"):
        cl.ScoreTable(mixed, True)
