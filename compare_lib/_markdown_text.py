"""Markdown that shows data as text: names from a file are escaped so that they are never read as markup
(a classifier called ``**x**`` or ``<img>`` prints as written), and tables in GitHub's pipe syntax."""

from __future__ import annotations

import html
import math
import re

import pandas as pd

# Characters Markdown reads anywhere in a line (the line-start ones, # + - 1., never begin a generated line).
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]!|<>~$&])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")


def md_text(text) -> str:
    """Plain text for Markdown: every character Markdown (or the HTML it allows) would read is escaped."""
    return _MD_SPECIAL.sub(r"\\\1", _CONTROL.sub(" ", str(text)))


def md_cell(text) -> str:
    """Text for a pipe-table cell (as :func:`md_text`; a pipe can never end the cell)."""
    return md_text(text)


def _columns(data: pd.DataFrame, digits: int, p_columns) -> dict:
    """Each column's cells as text: numbers in one format per column (as the LaTeX tables), booleans as
    yes/no, text as it is (escaped by the caller)."""
    from ._paper_tables import _numeric_cells

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
