"""Markdown that shows data as text: names from a file are escaped so that they are never read as markup
(a classifier called ``**x**`` or ``<img>`` prints as written), and tables in GitHub's pipe syntax."""

from __future__ import annotations

import html
import math
import re

import numpy as np
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


def _number(v, is_p: bool, digits: int) -> str:
    from ._paper_tables import journal_p

    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if is_p:
        return journal_p(v)
    if v == round(v) and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.{digits}g}" if abs(v) < 10 ** (-digits) else f"{v:.{digits}f}"


def frame_to_markdown(frame: pd.DataFrame, *, digits: int = 3, p_columns=(), index: bool = False) -> str:
    """A pipe table of a DataFrame: text escaped, p-value columns as journals print them, numbers with
    ``digits`` decimals, integers as integers."""
    data = frame.reset_index() if index else frame
    cols = list(data.columns)
    lines = ["| " + " | ".join(md_cell(c) for c in cols) + " |",
             "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c])
                            else "---" for c in cols) + "|"]
    for row in data.itertuples(index=False):
        cells = []
        for c, v in zip(cols, row):
            if isinstance(v, (str,)) or not isinstance(v, (int, float, np.number, np.bool_, bool)) and v is not None:
                cells.append(md_cell(v))
            else:
                cells.append(_number(v, c in p_columns, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def frame_to_html(frame: pd.DataFrame, *, digits: int = 3, p_columns=(), index: bool = False, caption: str | None = None) -> str:
    """An HTML table of a DataFrame (every cell escaped), formatted as :func:`frame_to_markdown`."""
    data = frame.reset_index() if index else frame
    cols = list(data.columns)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for row in data.itertuples(index=False):
        tds = []
        for c, v in zip(cols, row):
            text = str(v) if isinstance(v, str) or v is None or not isinstance(v, (int, float, np.number, np.bool_, bool)) \
                else _number(v, c in p_columns, digits)
            num = isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_))
            tds.append(f"<td{' class=num' if num else ''}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
