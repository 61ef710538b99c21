"""Formatting at the bottom of the library, for result objects (``_repr_html_``, Markdown) and every renderer:
numbers in one format per column (p-values as journals print them), and Markdown that shows data as text:
names from a file are escaped so that they are never read as markup (a classifier called ``**x**`` or
``<img>`` prints as written), tables in GitHub's pipe syntax."""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd

# Characters Markdown reads anywhere in a line (the line-start ones, # + - 1., never begin a generated line).
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]!|<>~$&])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")


def journal_p(p, digits: int = 3) -> str:
    """A p-value as journals print it: three significant digits ("0.0258", "0.200", "1.00"), "< 0.001"
    below 0.001, "undefined" for NaN."""
    if p is None or (isinstance(p, (float, np.floating)) and math.isnan(p)):
        return "undefined"
    if p < 0.001:
        return "< 0.001"
    return f"{p:#.{digits}g}".rstrip(".")


def _column_format(values: np.ndarray, digits: int, is_p: bool, *, plain: bool = False):
    """One formatter for a numeric column (LaTeX; ``plain``: the same formats as plain text)."""
    finite = values[np.isfinite(values)]
    if is_p:
        return journal_p if plain else (lambda v: "$<0.001$" if v < 0.001 else journal_p(v))
    if finite.size and np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15):
        return lambda v: str(int(v))
    nonzero = np.abs(finite[finite != 0])
    if nonzero.size and nonzero.min() < 10 ** (-digits) and nonzero.max() < 10 ** (-digits + 2):
        def scientific(v):
            if v == 0:
                return "0"
            mant, exp = f"{v:.2e}".split("e")
            return f"{mant}e{int(exp)}" if plain else f"${mant} \\times 10^{{{int(exp)}}}$"
        return scientific
    places = _decimals(finite, None, cap=digits)  # 12.0 and 14.5, not 12.000 and 14.500
    return lambda v: f"{v:.{places}f}"


def _numeric_cells(series: pd.Series, digits: int, is_p: bool, *, plain: bool = False) -> list[str]:
    """A numeric column's cells in one format (LaTeX, or ``plain`` text for HTML and Markdown)."""
    values = series.to_numpy(dtype=float)
    fmt = _column_format(values, digits, is_p, plain=plain)
    out = []
    for v in values:
        if math.isnan(v):
            out.append("–" if plain else "--")
        elif math.isinf(v):
            out.append(("∞" if v > 0 else "−∞") if plain else (r"$\infty$" if v > 0 else r"$-\infty$"))
        else:
            out.append(fmt(v))
    return out


def _decimals(scores: np.ndarray, digits: int | None, *, cap: int = 4) -> int:
    """``digits`` if given, else the fewest decimals (up to ``cap``) that keep every score as written."""
    if digits is not None:
        return digits
    finite = scores[np.isfinite(scores)]
    for d in range(cap + 1):
        if np.allclose(finite, np.round(finite, d), rtol=0, atol=1e-9 * 10 ** -d):
            return d
    return cap


def md_text(text) -> str:
    """Plain text for Markdown: every character Markdown (or the HTML it allows) would read is escaped."""
    return _MD_SPECIAL.sub(r"\\\1", _CONTROL.sub(" ", str(text)))


def md_cell(text) -> str:
    """Text for a pipe-table cell (as :func:`md_text`; a pipe can never end the cell)."""
    return md_text(text)


def _columns(data: pd.DataFrame, digits: int, p_columns) -> dict:
    """Each column's cells as text: numbers in one format per column (as the LaTeX tables), booleans as
    yes/no, text as it is (escaped by the caller)."""
    out = {}
    for col in data.columns:
        series = data[col]
        if pd.api.types.is_bool_dtype(series):
            out[col] = ["yes" if v else "no" for v in series]
        elif pd.api.types.is_numeric_dtype(series):
            out[col] = _numeric_cells(series, digits, col in p_columns, plain=True)
        else:
            out[col] = ["–" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in series]
    return out


def frame_to_markdown(frame: pd.DataFrame, *, digits: int = 3, p_columns=(), index: bool = False) -> str:
    """A pipe table of a DataFrame: text escaped, p-value columns as journals print them, one number format per
    column, integers as integers."""
    data = frame.reset_index() if index else frame
    cols = list(data.columns)
    cells = _columns(data, digits, p_columns)
    numeric = {c: pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c]) for c in cols}
    lines = ["| " + " | ".join(md_cell(c) for c in cols) + " |",
             "|" + "|".join("---:" if numeric[c] else "---" for c in cols) + "|"]
    for i in range(len(data)):
        lines.append("| " + " | ".join(md_cell(cells[c][i]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def frame_to_html(frame: pd.DataFrame, *, digits: int = 3, p_columns=(), index: bool = False, caption: str | None = None) -> str:
    """An HTML table of a DataFrame (every cell escaped), formatted as :func:`frame_to_markdown`."""
    data = frame.reset_index() if index else frame
    cols = list(data.columns)
    cells = _columns(data, digits, p_columns)
    numeric = {c: pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c]) for c in cols}
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = ["<tr>" + "".join(f"<td{' class=num' if numeric[c] else ''}>{html.escape(cells[c][i])}</td>" for c in cols)
            + "</tr>" for i in range(len(data))]
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


#: Cells a spreadsheet would run as a formula (OWASP's CSV injection list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: Separators a spreadsheet may split a line on (and line breaks): "x;=2+5" is two cells, "x" and "=2+5", for a
#: spreadsheet that splits on ";" (issue 27).
_SEPARATORS = frozenset(",;\t|\r\n")
_FORMULA_CHARS = frozenset("=+-@")
#: Text cells holding a separator or a quote (or with spaces at an end) are quoted, so that a reader splitting on
#: another separator keeps them whole.
_QUOTE_CHARS = re.compile(r"[,;\t|\r\n\"]|^\s|\s$")


def _neutral(value):
    """A text cell that no spreadsheet runs: an apostrophe before the whole cell if it starts with a formula
    character (=, +, -, @) or a tab or line break, and before a formula character that follows a separator
    (comma, semicolon, tab, pipe, line break) or leading spaces (some spreadsheets trim them). One pass over the
    text (no pattern that could backtrack). Other values are returned as they are."""
    if not isinstance(value, str):
        return value
    out = ["'"] if value.startswith(_FORMULA_START) else []
    armed = not out  # at the start of a cell, or after a separator and spaces: a formula character here runs
    for ch in value:
        if ch in _FORMULA_CHARS:
            if armed:
                out.append("'")
            armed = False
        elif ch in _SEPARATORS:
            armed = True
        elif ch != " ":
            armed = False
        out.append(ch)
    return "".join(out)


def _csv_text(value: str) -> str:
    text = _neutral(value)
    if _QUOTE_CHARS.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def _is_number(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, np.number, np.bool_)) or value is pd.NaT


def to_csv(frame: pd.DataFrame, *, index: bool = False) -> str:
    """CSV text of a table for download (comma-separated, one header row). Numbers stay numbers (as pandas
    writes them). Every text cell (headings too) is neutralised: an apostrophe goes before a formula
    character (=, +, -, @) at its start, after leading spaces, or after a separator a spreadsheet may split
    on (comma, semicolon, tab, pipe, line break); and a text cell holding a separator, a quote or spaces at
    an end is quoted, so that a spreadsheet reading the file with ";", tab or "|" as separator keeps it whole,
    and one that does not honour quotes still finds no cell that starts a formula (issue 27)."""
    import csv
    import io

    out = frame.reset_index() if index else frame
    # pandas writes the numbers (its formats: 0.5, 1e-09, empty for NaN); the text cells are written here.
    written = list(csv.reader(io.StringIO(out.to_csv(index=False, header=False, lineterminator="\n"))))
    if len(written) != len(out):  # never expected: every record is one row of the frame
        raise ValueError("the table could not be written as CSV")
    lines = [",".join(_csv_text(str(c)) for c in out.columns)]
    for row, cells in zip(out.itertuples(index=False, name=None), written):
        lines.append(",".join(
            (cell if '"' not in cell and "," not in cell and "\n" not in cell and "\r" not in cell
             else '"' + cell.replace('"', '""') + '"') if _is_number(value) else _csv_text(cell)
            for value, cell in zip(row, cells)))
    return "\n".join(lines) + "\n"
