"""Readers for LaTeX, Markdown, PDF-copied text and spreadsheets, the cell cleaner and the sniffer.

The fixtures in tests/data/formats/ are shaped like real ones (a paper's booktabs table, a leaderboard,
text copied from a PDF viewer, workbooks made with openpyxl/odfpy by make_spreadsheets.py); hostile
files (zip bomb, truncated or encrypted workbooks) are built in the tests.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from compare_lib.errors import InputError
from compare_lib.io._cells import clean_score_cells, summary_row_mask
from compare_lib.io._detect import sniff_format
from compare_lib.io._excel import read_spreadsheet, sheet_names
from compare_lib.io._latex import latex_to_text, read_latex
from compare_lib.io._markdown import read_markdown
from compare_lib.io._raw import RawTable
from compare_lib.io._whitespace import read_whitespace

FORMATS = Path(__file__).resolve().parent / "data" / "formats"


def _text(name: str) -> str:
    return (FORMATS / name).read_text(encoding="utf-8")


def _bytes(name: str) -> bytes:
    return (FORMATS / name).read_bytes()


def _check_shape(t: RawTable) -> None:
    m = len(t.header)
    assert list(t.grid.columns) == list(range(m))
    assert t.line_numbers.dtype == np.int64
    assert len(t.line_numbers) == len(t.grid)


def _means(column: pd.Series) -> list[float]:
    cleaned, _ = clean_score_cells(column)
    return pd.to_numeric(cleaned).tolist()


# --- clean_score_cells -------------------------------------------------------------------------


def test_clean_score_cells_keeps_the_mean_of_every_decoration():
    cells = pd.Series(
        ["86.4 ± 1.0", "86.4 +- 1.0", "86.4 +/- 1.0", "86.4 (1.0)", "86.4 [1.0]", "**86.4**",
         "__86.4__", "*86.4*", "86.4*", "86.4†", "86.4‡", "86.4§", "86.4^a", "86.4^{a}", "86.4 •",
         "−0.3", "**86.4** ± 1.0", "86.4 ± 1.0†", "86.4±1.0", "0.912"],
        dtype=object,
    )
    cleaned, notes = clean_score_cells(cells)
    assert cleaned.tolist() == ["86.4"] * 15 + ["-0.3", "86.4", "86.4", "86.4", "0.912"]
    assert pd.to_numeric(cleaned).tolist() == [86.4] * 15 + [-0.3, 86.4, 86.4, 86.4, 0.912]
    assert notes == [
        "replaced the unicode minus sign with '-' in 1 cell (e.g. '−0.3' read as -0.3)",
        "removed bold markers (** or __) from 3 cells (e.g. '**86.4**' read as 86.4)",
        "removed italic markers (* or _) from 1 cell (e.g. '*86.4*' read as 86.4)",
        "removed significance or best-value markers (*, †, ‡, §, •, ^a) from 8 cells "
        "(e.g. '86.4*' read as 86.4)",
        "removed ± standard deviations from 6 cells (e.g. '86.4 ± 1.0' read as 86.4)",
        "removed the bracketed number after the mean (a standard deviation or a rank) from 2 cells "
        "(e.g. '86.4 (1.0)' read as 86.4)",
    ]


def test_clean_score_cells_leaves_percent_missing_and_text_alone():
    cells = pd.Series(
        ["86.4%", "", "-", "n/a", "—", "credit_g", "(86.4)", "abc ± 1", "86.4% ± 1.2%", "0.5"],
        index=range(10, 20),
        dtype=object,
    )
    cleaned, notes = clean_score_cells(cells)
    assert cleaned.tolist() == [
        "86.4%", "", "-", "n/a", "—", "credit_g", "(86.4)", "abc ± 1", "86.4%", "0.5"
    ]
    assert list(cleaned.index) == list(range(10, 20))
    assert notes == ["removed ± standard deviations from 1 cell (e.g. '86.4% ± 1.2%' read as 86.4%)"]


def test_clean_score_cells_passes_numbers_and_plain_cells_through():
    numbers = pd.Series([0.5, 0.25])
    out, notes = clean_score_cells(numbers)
    assert out.tolist() == [0.5, 0.25] and notes == []
    plain = pd.Series(["0.5", " 1e-3 ", "7"], dtype=object)
    out, notes = clean_score_cells(plain)
    assert out.tolist() == ["0.5", " 1e-3 ", "7"] and notes == []


def test_clean_score_cells_counts_repeated_cells_one_by_one():
    cells = pd.Series(["86.4 ± 1.0"] * 1000 + ["0.1"] * 1000, dtype=object)
    cleaned, notes = clean_score_cells(cells)
    assert (cleaned == pd.Series(["86.4"] * 1000 + ["0.1"] * 1000)).all()
    assert notes == ["removed ± standard deviations from 1000 cells (e.g. '86.4 ± 1.0' read as 86.4)"]


def test_summary_row_mask():
    labels = pd.Series(
        ["Avg. rank", "Average rank", "Average", "Avg", "Mean", "Mean rank", "Wins", "W/T/L",
         "Win/tie/loss", "Rank", "Ranks", "Total", "Median", "Std", "p-value", "AVG-RANK",
         "Average rank (lower is better)", "# best", "iris", "credit-g", "breast cancer", "wine",
         "Friedman", "meander", None]
    )
    assert summary_row_mask(labels).tolist() == [True] * 18 + [False] * 7


# --- LaTeX -------------------------------------------------------------------------------------


def test_latex_paper_table():
    t = read_latex(_text("paper_table.tex"), "paper_table.tex")
    _check_shape(t)
    assert t.format == "latex" and t.row_word == "line" and t.display == "paper_table.tex"
    # issue 28: the group row names groups, not parts of the names
    assert t.header == ["Data set", "C4.5", "RF", "SVM", "k-NN"]
    assert t.line_numbers.tolist() == [12, 13, 14, 15, 16, 17, 19]
    assert t.grid.iloc[2].tolist() == ["diabetes", "73.8 ± 1.2", "76.0 ± 0.9", "77.1 ± 0.8†", "74.2 ± 1.4"]
    assert t.grid[0].tolist() == [
        "breast-cancer", "credit_g", "diabetes", "ionosphere", "sonar", "vehicle", "Avg. rank"
    ]
    assert t.grid.iloc[6].tolist() == ["Avg. rank", "3.50", "1.33", "1.67", "3.50"]
    assert t.notes == (
        "read a LaTeX tabular (lines 6-21)",
        "ignored the caption on line 4 ('Accuracy (%) of four classifiers, mean ± standard deviati...')",
        "read the header rows (lines 8-10): the last one as the names, the rows above as column groups: "
        "Trees (C4.5, RF); Kernels (SVM, k-NN)",
        "removed LaTeX formatting ($\\pm$, \\textbf, \\multicolumn, \\dagger, \\bf, \\underline) "
        "from 29 cells",
    )
    # The paper's means, as printed.
    assert _means(t.grid[1]) == [71.3, 70.9, 73.8, 89.7, 71.2, 72.5, 3.50]
    assert _means(t.grid[2]) == [73.4, 76.2, 76.0, 93.4, 83.1, 75.3, 1.33]
    assert _means(t.grid[3]) == [72.0, 75.4, 77.1, 93.1, 85.6, 74.8, 1.67]
    assert _means(t.grid[4]) == [70.6, 71.8, 74.2, 86.3, 82.7, 70.1, 3.50]
    _, notes = clean_score_cells(t.grid[3])
    assert notes == [
        "removed significance or best-value markers (*, †, ‡, §, •, ^a) from 1 cell "
        "(e.g. '77.1 ± 0.8†' read as 77.1)",
        "removed ± standard deviations from 6 cells (e.g. '72.0 ± 2.4' read as 72.0)",
    ]
    assert summary_row_mask(t.grid[0]).tolist() == [False] * 6 + [True]
    assert t.where(6) == "line 19"


def test_latex_mismatched_ampersands_names_the_line():
    with pytest.raises(InputError) as e:
        read_latex(_text("mismatched_amp.tex"), "mismatched_amp.tex")
    assert str(e.value) == (
        "File 'mismatched_amp.tex', line 6 has 3 cells separated by & where the header (line 3) has 4: "
        "check for a missing & or an unescaped & in a name (write \\& for a literal ampersand)."
    )


def test_latex_bare_rows_and_single_column_multicolumn():
    text = (
        "Table 1: results\n"
        "Data & \\multicolumn{1}{c}{SVM} & RF \\\\ \\hline\n"
        "iris & 95.0\\% & 96 \\\\\n"
        "wine & \\textit{97}$^{a}$ & {\\bf 98}~\\\\\n"
    )
    t = read_latex(text, "pasted")
    _check_shape(t)
    assert t.header == ["Data", "SVM", "RF"]
    assert t.grid.values.tolist() == [["iris", "95.0%", "96"], ["wine", "97^a", "98"]]
    assert t.line_numbers.tolist() == [3, 4]
    assert t.notes[:2] == (
        "read LaTeX rows separated by \\\\ and & (lines 2-4); found no tabular environment",
        "skipped 1 line before the table (line 1)",
    )


def test_latex_longtable_group_heading_escapes_and_comments():
    text = (
        "\\begin{longtable}{lcc}\n"
        "\\caption{Accuracy.}\\label{t}\\\\\n"
        "\\toprule\n"
        "Data & A & B \\\\ \\midrule \\endhead\n"
        "\\multicolumn{3}{l}{\\emph{Binary}} \\\\\n"
        "iris & 1 & 2 \\\\\n"
        "R\\&D & 3 & 4 \\\\ % c & d\n"
        "\\end{longtable}"
    )
    t = read_latex(text, "long.tex")
    assert t.header == ["Data", "A", "B"]
    assert t.grid.values.tolist() == [["iris", "1", "2"], ["R&D", "3", "4"]]
    assert t.line_numbers.tolist() == [6, 7]
    assert (
        "skipped line 5 ('Binary'): one cell spanning the whole table, a group heading, not a data row"
        in t.notes
    )


def test_latex_spanning_header_without_second_row():
    text = (
        "\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}lcccc}\n"
        "Data & \\multicolumn{2}{c}{SVM} & \\multicolumn{2}{c}{RF} \\\\\n"
        "iris & 95.0 & 1.2 & 96.0 & 0.8 \\\\\n"
        "\\end{tabular*}"
    )
    t = read_latex(text, "x.tex")
    assert t.header == ["Data", "SVM", "SVM 2", "RF", "RF 2"]
    assert t.grid.values.tolist() == [["iris", "95.0", "1.2", "96.0", "0.8"]]


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("\\textbf{86.4}$\\pm$1.0", "86.4±1.0"),
        ("$86.4_{\\pm 1.0}$", "86.4 ± 1.0"),
        ("86.4$^\\dagger$", "86.4†"),
        ("86.4$^\\ddagger$", "86.4‡"),
        ("\\cellcolor{gray!20}\\underline{86.4}", "86.4"),
        ("$-0.3$", "-0.3"),
        ("--", "-"),
        ("\\textcolor{red}{86.4} (1.2)", "86.4 (1.2)"),
        ("$\\mathbf{86.4 \\pm 1.0}$", "86.4 ± 1.0"),
        ("86.4 $\\mp$ 1.0", "86.4 ± 1.0"),
        ("86.4\\textsuperscript{*}", "86.4*"),
        ("86.4$^{\\star}$", "86.4*"),
        ("86.4$^\\ast$", "86.4*"),
        ("\\emph{86.4}", "86.4"),
        ("\\multirow{2}{*}{iris}", "iris"),
        ("C4.5\\,+\\,m", "C4.5 + m"),
        ("$k$-NN", "k-NN"),
        ("\\makecell{Naive\\\\Bayes}", "Naive Bayes"),
        ("credit\\_g", "credit_g"),
    ],
)
def test_latex_to_text(latex, text):
    assert latex_to_text(latex) == text


def test_latex_without_table_and_too_long():
    with pytest.raises(InputError, match="File 'notes.tex': found no LaTeX table"):
        read_latex("just some text\n", "notes.tex")
    with pytest.raises(InputError, match="200,000 lines"):
        read_latex("a & b \\\\\n" * 200_001, "huge.tex")


# --- Markdown ----------------------------------------------------------------------------------


def test_markdown_leaderboard():
    t = read_markdown(_text("leaderboard.md"), "leaderboard.md")
    _check_shape(t)
    assert t.format == "markdown"
    assert t.header == ["Data set", "XGBoost", "Random forest", "TabPFN", "Logistic regression"]
    assert t.line_numbers.tolist() == [7, 8, 9, 10, 11]
    assert t.grid.iloc[0].tolist() == ["adult", "87.1 ± 0.3", "85.9 ± 0.2", "86.4 ± 0.4", "85.0 ± 0.1"]
    assert t.grid[0].tolist() == ["adult", "credit|german", "higgs", "phoneme", "spambase"]
    assert t.notes == (
        "read a Markdown table (lines 5-11)",
        "skipped 2 lines before the table (lines 1 and 3, starting '# Tabular benchmark leaderboard')",
        "skipped 1 line after the table (line 13, starting "
        "'*Last updated 2026-10-01. Submit results via pu...')",
        "removed Markdown formatting (bold, italics, code, links, HTML) from 7 cells",
    )
    assert _means(t.grid[1]) == [87.1, 74.2, 72.8, 89.5, 95.6]
    assert _means(t.grid[3]) == [86.4, 77.3, 70.2, 88.7, 94.9]


def test_markdown_without_outer_pipes_and_mismatch():
    t = read_markdown("Data | SVM\n:--|--:\niris | 0.9\nwine | 0.8\n", "t.md")
    assert t.header == ["Data", "SVM"] and t.grid.values.tolist() == [["iris", "0.9"], ["wine", "0.8"]]
    assert t.line_numbers.tolist() == [3, 4]
    with pytest.raises(InputError) as e:
        read_markdown("| a | b |\n|---|---|\n| x | 1 |\n| y | 2 | 3 |\n", "board.md")
    assert str(e.value) == (
        "File 'board.md', line 4 has 3 cells separated by | where the header (line 1) has 2: check for a "
        "missing | or a | inside a name (write \\| for a literal pipe)."
    )


# --- text copied from a PDF --------------------------------------------------------------------


def test_pdf_copied_text():
    t = read_whitespace(_text("pdf_copy.txt"), "pdf_copy.txt")
    _check_shape(t)
    assert t.format == "text"
    assert t.header == ["Data set", "C4.5", "Naive Bayes", "SVM", "k-NN", "Random forest"]
    assert t.line_numbers.tolist() == list(range(3, 12))
    assert t.grid.iloc[1].tolist() == ["credit g", "71.8", "75.4", "75.6", "72.0", "76.3"]
    assert t.grid[0].tolist() == [
        "breast cancer", "credit g", "heart statlog", "hepatitis", "ionosphere", "labor", "sonar",
        "vote", "Average rank",
    ]
    assert t.notes == (
        "read a table with columns separated by runs of 2 or more spaces or tabs (lines 3-11)",
        "skipped the caption (line 1: 'Table 3: Accuracy (%) of five classifiers on eight UCI da...')",
        "skipped 1 line after the table (line 12: 'Best results per data set are discussed in Section 4.')",
    )
    assert _means(t.grid[3]) == [70.3, 75.6, 84.1, 85.8, 88.6, 89.5, 76.0, 95.9, 2.38]
    assert summary_row_mask(t.grid[0]).tolist() == [False] * 8 + [True]


def test_single_spaces_with_names_containing_spaces():
    text = "Data set SVM RF NB\nbreast cancer 95.1 94.0 93.2\niris 95.3 ± 1.0 96.0 (0.5) 94.0 *\n"
    t = read_whitespace(text, "x.txt")
    assert t.header == ["Data set", "SVM", "RF", "NB"]
    assert t.grid.values.tolist() == [
        ["breast cancer", "95.1", "94.0", "93.2"],
        ["iris", "95.3 ± 1.0", "96.0 (0.5)", "94.0 *"],
    ]
    assert t.notes[1] == (
        "the header (line 1) has 5 words for 4 columns; read 'Data set' as the first column's name "
        "and the last words as the other columns' names"
    )
    headless = read_whitespace("SVM RF\nbreast cancer 95.1 94.0\niris 95.3 96.0\n", "y.txt")
    assert headless.header == ["", "SVM", "RF"]
    assert headless.grid[0].tolist() == ["breast cancer", "iris"]
    assert "the header (line 1) has no label for the first column; left it empty" in headless.notes


def test_whitespace_blank_cell_names_the_line():
    with pytest.raises(InputError) as e:
        read_whitespace("Dataset  SVM  RF  NB\niris  95.3    96.0\nwine  97.1  98.0  97.0\n", "gap.txt")
    assert str(e.value).startswith(
        "File 'gap.txt', line 2 ends in 2 numbers where most rows end in 3: an empty cell cannot be told "
        "from the spaces between columns; write '-' in empty cells"
    )


def test_whitespace_rules_group_headings_tabs():
    t = read_whitespace(
        "Dataset  SVM  RF\niris  95.3 ± 1.2  96.0 ± 0.3\n-----\nwine  97.1  98.0\nMulticlass\nglass  60.1  -\n",
        "x.txt",
    )
    assert t.grid.values.tolist() == [
        ["iris", "95.3 ± 1.2", "96.0 ± 0.3"], ["wine", "97.1", "98.0"], ["glass", "60.1", "-"]
    ]
    assert t.line_numbers.tolist() == [2, 4, 6]
    tabs = read_whitespace("\tSVM\tRF\niris\t95.3\t96.0\n", "t.txt")
    assert tabs.header == ["", "SVM", "RF"] and tabs.grid.values.tolist() == [["iris", "95.3", "96.0"]]


def test_text_readers_refuse_huge_input():
    with pytest.raises(InputError, match="200,000 lines"):
        read_whitespace("a  1\n" * 200_001, "huge.txt")
    with pytest.raises(InputError, match="200,000 lines"):
        read_markdown("| a |\n" * 200_001, "huge.md")


# --- spreadsheets ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "kind"), [("results.xlsx", "xlsx"), ("results.ods", "ods")])
def test_spreadsheet(name, kind):
    t = read_spreadsheet(_bytes(name), name, kind=kind)
    _check_shape(t)
    assert t.format == kind and t.row_word == "row" and t.sheet == "AUC"
    assert t.header == ["Data set", "C4.5", "Naive Bayes", "SVM"]
    assert t.line_numbers.tolist() == [4, 5, 6, 7]
    assert t.grid[0].tolist() == ["adult", "breast cancer", "hepatitis", "ionosphere"]
    assert t.grid[1].dtype == np.float64 and t.grid[2].dtype == np.float64
    assert t.grid[1].tolist() == [0.881, 0.61, 0.668, 0.7 + 0.1 + 0.1]  # full precision
    assert t.grid[1][3] == 0.8999999999999999
    assert t.grid[2].tolist() == [0.892, 0.702, 0.86, 0.937]
    # A column with text in it keeps text; numbers are written back exactly.
    assert t.grid[3].tolist() == ["0.903", "0.655", "n/a", "0.981"]
    assert t.notes == (
        f"read sheet 'AUC' of the .{kind} workbook (rows 3-7, columns B-E); the header is row 3",
        "skipped row 1 ('Table 2. AUC of three classifiers'): a single cell above the table, a title",
    )
    assert t.where(0) == "sheet 'AUC', row 4"
    assert sheet_names(_bytes(name), kind) == ["AUC"]


def test_workbook_with_two_sheets():
    data = _bytes("two_sheets.xlsx")
    assert sheet_names(data, "xlsx") == ["Accuracy", "F1"]
    with pytest.raises(InputError) as e:
        read_spreadsheet(data, "two_sheets.xlsx", kind="xlsx")
    assert str(e.value) == (
        "File 'two_sheets.xlsx' has 2 sheets ('Accuracy', 'F1'); say which one holds the results with sheet=, "
        "e.g. sheet='Accuracy'."
    )
    f1 = read_spreadsheet(data, "two_sheets.xlsx", kind="xlsx", sheet="F1")
    assert f1.sheet == "F1" and f1.header == ["Data set", "SVM", "RF"]
    assert f1.grid.values.tolist() == [["iris", 0.959, 0.951], ["wine", 0.982, 0.976]]
    assert f1.line_numbers.tolist() == [2, 3]
    assert read_spreadsheet(data, "two_sheets.xlsx", kind="xlsx", sheet=0).sheet == "Accuracy"
    with pytest.raises(InputError, match="File 'two_sheets.xlsx' has no sheet 'AUC'; its sheets are 'Accuracy', 'F1'"):
        read_spreadsheet(data, "two_sheets.xlsx", kind="xlsx", sheet="AUC")


def test_truncated_xlsx():
    data = _bytes("results.xlsx")
    with pytest.raises(InputError) as e:
        read_spreadsheet(data[: len(data) // 2], "results.xlsx", kind="xlsx")
    assert str(e.value).startswith("File 'results.xlsx' cannot be read as an .xlsx workbook: the file is corrupt or truncated")
    assert "Upload it again" in str(e.value)


def test_zip_bomb_is_refused(tmp_path):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("xl/worksheets/sheet1.xml", "w") as member:
            zeros = bytes(1024 * 1024)
            for _ in range(300):
                member.write(zeros)
    data = bomb.read_bytes()
    assert len(data) < 1024 * 1024
    with pytest.raises(InputError) as e:
        read_spreadsheet(data, "bomb.xlsx", kind="xlsx")
    assert str(e.value).startswith(
        "File 'bomb.xlsx' was refused: it would unpack to 300 MB, over the limit of 200 MB"
    )


def test_highly_compressed_member_is_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", bytes(5 * 1024 * 1024))
    with pytest.raises(InputError, match=r"File 'ratio.xlsx' was refused: its part 'xl/worksheets/sheet1.xml' is compressed"):
        read_spreadsheet(buf.getvalue(), "ratio.xlsx", kind="xlsx")


def test_encrypted_xlsx():
    # What Office writes for a password-protected .xlsx: an OLE2 compound file whose directory
    # holds an "EncryptedPackage" stream (names are UTF-16LE).
    data = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
        + "EncryptionInfo".encode("utf-16-le") + bytes(100)
        + "EncryptedPackage".encode("utf-16-le") + bytes(1000)
    )
    assert sniff_format(data, None) == "xls"
    with pytest.raises(InputError) as e:
        read_spreadsheet(data, "secret.xlsx", kind="xlsx")
    assert str(e.value).startswith("File 'secret.xlsx' is password-protected (encrypted)")
    assert "remove the password" in str(e.value)


def test_files_that_are_not_spreadsheets():
    with pytest.raises(InputError) as e:
        read_spreadsheet(b"Data set,SVM\niris,0.9\n", "scores.xlsx", kind="xlsx")
    assert str(e.value) == (
        "File 'scores.xlsx' cannot be read as an .xlsx workbook: it is not a zip file, as every .xlsx file "
        "is. Its first bytes look like text: if it is a CSV or text table, give it a .csv or .txt name."
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(InputError, match="File 'archive.xlsx' cannot be read as an .xlsx workbook: it is a zip file without the xl/ folder"):
        read_spreadsheet(buf.getvalue(), "archive.xlsx", kind="xlsx")
    with pytest.raises(InputError, match="File 'photo.ods' cannot be read as an .ods workbook: it is not a zip file"):
        read_spreadsheet(b"\x89PNG\r\n\x1a\n" + bytes(100), "photo.ods", kind="ods")
    with pytest.raises(InputError, match="File 'fake.xls' cannot be read as an .xls workbook"):
        read_spreadsheet(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "fake.xls", kind="xls")
    with pytest.raises(InputError, match="File 'empty.xlsx' is empty"):
        read_spreadsheet(b"", "empty.xlsx", kind="xlsx")


# --- format sniffing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("paper_table.tex", "latex"),
        ("mismatched_amp.tex", "latex"),
        ("leaderboard.md", "markdown"),
        ("pdf_copy.txt", "text"),
        ("results.xlsx", "xlsx"),
        ("two_sheets.xlsx", "xlsx"),
        ("results.ods", "ods"),
    ],
)
def test_sniff_format_by_content_and_name(name, expected):
    data = _bytes(name)
    assert sniff_format(data, name) == expected
    assert sniff_format(data, None) == expected
    assert sniff_format(data, "upload.csv") == expected  # .csv/.txt names are checked by content


def test_sniff_format_text_samples():
    assert sniff_format("Data set,SVM,RF\niris,0.9,0.8\n", None) == "csv"
    assert sniff_format("Data;SVM\niris;0,9\n", None) == "csv"
    assert sniff_format("Data\tSVM\niris\t0.9\n", "x.txt") == "csv"
    assert sniff_format("Table 3, results\nData set,SVM,RF\niris,1,2\nwine,3,4\n", None) == "csv"
    assert sniff_format("Data set  SVM\niris  95.1\n", None) == "text"
    assert sniff_format("iris 95.1 94\nwine 97 98\n", None) == "text"
    assert sniff_format("x & y \\\\\n", None) == "latex"
    assert sniff_format("| a | b |\n|---|---|\n| 1 | 2 |\n", "t.txt") == "markdown"
    assert sniff_format(b"anything", "Results.XLSX") == "xlsx"
    assert sniff_format(b"anything", "r.xls") == "xls"
