"""The malformed-input corpus (tests/data/bad/): every file gives a correct table or one clear error,
through the library and through the Load data page (no traceback, the previous table kept)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

from .apptest_helpers import answer_direction, by_label, new_app, texts

BAD = Path(__file__).resolve().parent / "data" / "bad"

ERRORS = {
    "01_empty.csv": "is empty",
    "02_whitespace_only.csv": "is empty",
    "03_header_only.csv": "no data rows",
    "04_one_column.csv": "single column",
    "05_non_numeric.csv": "line 3 (data set 'wine'), column 'B': 'high'",
    "06_nan_and_blank.csv": "2 missing cell(s): line 2 (data set 'iris'), column 'B'; line 3 (data set 'wine'), column 'A'",
    "07_infinity.csv": "infinite",
    "08_duplicate_classifiers.csv": "duplicate classifier name(s): 'A' in columns 2, 4",
    "15_binary_named_csv.csv": "looks binary",
    "16_html_named_csv.csv": "HTML",
    "17_one_dataset.csv": "1 data set(s) left",
    "21_long_missing_cell.csv": "missing cell(s): first on line 4 (data set 'd2'), column 'B'",
    "22_ragged_row.csv": "line 3: 3 field(s) where the header (line 1) has 4",
    "23_mixed_decimal_separators.csv": "mix decimal points and decimal commas",
    "24_empty_classifier_name.csv": "classifier name missing in column 3",
    "25_empty_dataset_name.csv": "data-set name missing on line 2",
    "29_long_duplicate_fold.csv": "appears on lines 2, 3",
    "30_question_marks.csv": "1 missing cell(s): line 2 (data set 'iris'), column 'B'",
    "31_negative_infinity_long.csv": "infinite score(s): line 2 (data set 'd1', classifier 'A'): '-inf'",
}


def _load(name: str, **kw) -> cl.ScoreTable:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        kw.setdefault("higher_is_better", True)  # unnamed metrics: the direction is stated (issue 28)
        return cl.load_scores(BAD / name, **kw)


def test_the_corpus_is_complete():
    assert len(list(BAD.iterdir())) >= 25


@pytest.mark.parametrize("name,message", sorted(ERRORS.items()))
def test_library_gives_one_clear_error(name, message):
    with pytest.raises(cl.InputError) as err:
        _load(name)
    text = str(err.value)
    assert message in text
    assert name in text  # the file is named
    assert "Traceback" not in text


def test_files_that_load():
    t = _load("09_duplicate_datasets.csv")
    assert t.datasets == ["credit", "iris", "credit (2)"] and any("renamed" in n for n in t.notes)
    assert _load("10_bom.csv").classifiers == ["A", "B"]
    t = _load("11_decimal_commas_semicolons.csv")
    assert t.scores.loc["iris", "A"] == 0.95 and any("decimal commas" in n for n in t.notes)
    assert _load("12_tabs.tsv").scores.shape == (2, 2)
    assert _load("13_quoted_numbers.csv").scores.loc["wine", "B"] == 0.99
    assert _load("14_unicode_names.csv").classifiers == ["Naïve Bayes", "决策树", "k-NN 🚀"]
    assert _load("26_latin1_encoded.csv").datasets == ["Crédit", "Été"]
    assert _load("27_trailing_delimiters.csv").classifiers == ["A", "B"]
    t = _load("28_percent_signs.csv")
    assert t.scores.loc["iris", "A"] == 95.1 and any("percent" in n for n in t.notes)
    assert _load("32_excel_semicolon_blank_lines.csv").scores.shape == (2, 2)


def test_statistics_on_the_edge_cases():
    two = _load("18_two_classifiers.csv")
    fr = cl.friedman(two)
    assert fr.df == 1 and 0 <= fr.pvalue <= 1
    assert np.isfinite(cl.iman_davenport(two).statistic)
    assert "two classifiers" in cl.report.omnibus_verdict(fr, cl.iman_davenport(two), None, 0.05)
    tied = _load("19_all_tied.csv")
    assert cl.friedman(tied).pvalue == 1.0 and cl.iman_davenport(tied).pvalue == 1.0
    assert not cl.posthoc(tied, "wilcoxon", "holm")["reject"].any()
    low = _load("20_lower_is_better_negative.csv", higher_is_better=False)
    assert low.ranks.loc["d1"].tolist() == [3.0, 1.0, 2.0]  # -0.30 is the lowest score, so the best


def test_a_50_mb_file_loads(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.uniform(0.5, 1, (260_000, 20)).round(6), columns=[f"C{j}" for j in range(20)],
                         index=[f"data set {i}" for i in range(260_000)])
    path = tmp_path / "big.csv"
    frame.to_csv(path)
    assert path.stat().st_size > 49_000_000
    t = cl.load_scores(path, higher_is_better=True)
    assert t.scores.shape == (260_000, 20)
    assert np.allclose(t.scores.to_numpy(), frame.to_numpy())


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.iterdir()))
def test_load_page_shows_the_same_outcome(name):
    at = new_app()
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    at.file_uploader[0].set_value((name, (BAD / name).read_bytes(), "text/csv"))
    at.run()
    assert not at.exception, at.exception
    if name in ERRORS:
        errors = texts(at.error)
        assert len(errors) == 1 and ERRORS[name] in errors[0] and "still in use" in errors[0]
        assert any("Demšar 2006, Table 6" in s for s in texts(at.success))  # the previous table is kept
    else:
        answer_direction(at)  # an unnamed metric's direction is asked (issue 28)
        assert not at.error
        assert any(f"file: {name}" in s for s in texts(at.success))
