"""Reading a table copied from a PDF (columns separated by spaces) into a :class:`RawTable`.

Text copied from a PDF viewer keeps a table's columns apart with runs of spaces (or tabs), and keeps
single spaces inside names ("breast cancer"). The reader tries, in this order:

1. runs of two or more spaces or tabs, when they split every row into the same number of fields (and
   no field holds several numbers separated by single spaces);
2. when every row is words followed by numbers: the last v fields of each row as the values and the
   words before them as the name, v being the number of trailing numbers most rows share (so that
   "breast cancer 95.1 94.0" keeps its name whole);
3. otherwise (a text column between the numbers) single spaces, when they split every row into the
   same number of fields.

A spread written with the mean (``86.4 ± 1.0``, ``86.4 +/- 1.0``) stays one cell, and so does a
bracketed number or a marker after a value (``86.4 (1.0)``, ``86.4 *``). The header is the line above
the first row ending in numbers; it may lack the first column's label ("  SVM  RF") or, when split by
single spaces, have a first label of several words. Lines before the header (a caption such as
"Table 3: Accuracy (%) of ...") and after the last row (footnotes) are skipped with a note, as are rule
lines made of dashes and one-field group headings inside the table.

Limits: an empty cell cannot be told apart from a wide gap, so rows with a blank cell raise an
:class:`~compare_lib.errors.InputError` naming the line (write "-" in empty cells); in mode 2 the
values must be numbers or missing-value tokens, and a text column right after the name ("iris
multiclass 95.1") is read as part of the name; a single-spaced header whose first label has several
words is split by taking its last m-1 words as the column names. Texts over 200,000 lines, and tables of more
than :data:`~compare_lib.limits.MAX_TABLE_COLUMNS` columns, are refused.

Cost (issue 27): linear in the text's length. The spread pattern matches the blanks before a sign only
from where their run starts (it was tried from every blank of a run: seconds for a line of 40,000
spaces), and the fields of all rows are classified in one vectorised call, never one call per field.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.io._cells import MISSING_TOKENS, clean_score_cells
from compare_lib.io._markdown import line_list
from compare_lib.io._raw import MAX_TEXT_TABLE_LINES, RawTable, table_lines
from compare_lib.limits import MAX_TABLE_COLUMNS

__all__ = ["read_whitespace", "MAX_LINES"]

MAX_LINES = MAX_TEXT_TABLE_LINES

_GLUE = "\x00"  # stands for the spaces around "±" while splitting, so "86.4 ± 1.0" stays one field
# The blanks around a spread sign. The blanks before it are matched only from where their run starts (a
# leading "[ \t]*" was tried from every blank of a run, then failed: quadratic); after a match, which
# ends past its blanks, the next sign may follow directly (the optional group is left out).
_PM = re.compile(r"(?:(?<![ \t])[ \t]++)?(±|∓|\+/-|\+-)[ \t]*+")
_MULTI = re.compile(r"[ \t]*\t[ \t]*| {2,}")
_SINGLE = re.compile(r"[ \t]+")
_RULE_LINE = re.compile(r"[\s\-=_─━—–+|.]+")
_CAPTION = re.compile(r"(?:table|tab\.)\s*[0-9ivxlcA-Z]+\s*[:.—–-]", re.I)
# A token that belongs to the value before it: "(1.0)", "[1.0]", "*", "†", "•".
_ATTACHED = re.compile(r"[(\[][^()\[\]]*[)\]]|[*†‡§¶•◦▲▼△▽↑↓✓✗]+|\^\S+")
_NUMBERISH = re.compile(r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?%?")


def _protect(line: str) -> str:
    return _PM.sub(lambda m: f"{_GLUE}{m.group(1)}{_GLUE}", line.replace("\xa0", " ").strip())


def _restore(field: str) -> str:
    return field.replace(_GLUE, " ").strip()


def _tokens(protected: str) -> list[str]:
    """Single-space fields, with bracketed numbers and markers joined to the value before them."""
    out: list[str] = []
    for tok in _SINGLE.split(protected):
        if out and _ATTACHED.fullmatch(tok):
            out[-1] = f"{out[-1]} {tok}"
        else:
            out.append(tok)
    return out


def _numberish(tokens: list[str]) -> np.ndarray:
    """Per token: does it read as a number (after decorations) or a missing-value token?"""
    if not tokens:
        return np.zeros(0, dtype=bool)
    s = pd.Series([_restore(t) for t in tokens], dtype=object)
    cleaned, _ = clean_score_cells(s)
    number = cleaned.str.fullmatch(_NUMBERISH).fillna(False).astype(bool).to_numpy()
    missing = s.str.lower().isin(MISSING_TOKENS).to_numpy()
    return number | missing


def _check_columns(display: str, k: int, m: int) -> None:
    """Refuse a table of ``m`` columns beyond the limit (``k``: the index of a line that has them)."""
    if m > MAX_TABLE_COLUMNS:
        raise InputError(
            f"File '{display}', line {k + 1} has {m:,} columns; tables copied from a PDF are read up to "
            f"{MAX_TABLE_COLUMNS:,} columns. Check that the text is one table, or save it as a CSV file."
        )


def _short(line: str) -> str:
    line = line.strip()
    return line if len(line) <= 60 else line[:57] + "..."


def read_whitespace(text: str, display: str) -> RawTable:
    """Read a space-separated table (copied from a PDF) in ``text``, named ``display`` in messages."""
    lines = table_lines(text, display, "tables separated by spaces")
    notes: list[str] = []
    idx = [k for k, line in enumerate(lines) if line.strip()]
    rules = [k for k in idx if _RULE_LINE.fullmatch(lines[k].strip())]
    rule_set = set(rules)
    idx = [k for k in idx if k not in rule_set]
    if not idx:
        raise InputError(f"File '{display}' holds no table: every line is empty. Paste the table's lines.")

    protected = {k: _protect(lines[k]) for k in idx}
    tokens = {k: _tokens(protected[k]) for k in idx}
    flat = [t for k in idx for t in tokens[k]]
    flags = _numberish(flat)
    trailing: dict[int, int] = {}
    words_then_numbers: dict[int, bool] = {}
    pos = 0
    for k in idx:
        f = flags[pos : pos + len(tokens[k])]
        pos += len(tokens[k])
        non = np.flatnonzero(~f)
        trailing[k] = len(f) - (int(non[-1]) + 1 if non.size else 0)
        # True when no word follows a number: "breast cancer 95.1 94.0", not "iris multi 95.1 x".
        words_then_numbers[k] = len(f) - trailing[k] == non.size
    counts = Counter(t for t in trailing.values() if t >= 1)
    if not counts:
        raise InputError(
            f"File '{display}': found no rows ending in numbers; expected a header line and rows such as "
            "'iris  95.3  96.0'. Check that the text is the table itself."
        )
    v = max(counts, key=lambda t: (counts[t], t))
    # Rows with a blank cell end in fewer numbers: count them in the table (to name them in an
    # error) as long as at least half their values are there.
    enough = max(1, -(-v // 2))
    data = [k for k in idx if trailing[k] >= enough]
    first_data, last_data = data[0], data[-1]

    above = [k for k in idx if k < first_data]
    header_at = above[-1] if above else None
    if header_at is not None and _CAPTION.match(lines[header_at].strip()):
        header_at = None
    before = [k for k in above if k != header_at]
    if before:
        cap = before[0]
        what = "the caption" if _CAPTION.match(lines[cap].strip()) and len(before) == 1 else (
            f"{len(before)} line{'s' if len(before) > 1 else ''} before the table"
        )
        notes.append(f"skipped {what} ({line_list([k + 1 for k in before])}: '{_short(lines[cap])}')")
    after = [k for k in idx if k > last_data]
    if after:
        notes.append(
            f"skipped {len(after)} line{'s' if len(after) > 1 else ''} after the table "
            f"({line_list([k + 1 for k in after])}: '{_short(lines[after[0]])}')"
        )
    if rules:
        notes.append(f"ignored rule lines made of dashes ({line_list([k + 1 for k in rules])})")

    body: list[int] = []
    for k in idx:
        if not first_data <= k <= last_data:
            continue
        multi = _MULTI.split(protected[k])
        if trailing[k] == 0 and len(multi) == 1 and v >= 1:
            notes.append(
                f"skipped line {k + 1} ('{_short(lines[k])}'): one field inside the table, a group "
                "heading, not a data row"
            )
            continue
        body.append(k)

    # Mode 1: runs of 2+ spaces or tabs.
    multi_fields = {k: _MULTI.split(protected[k]) for k in body}
    widths = {len(f) for f in multi_fields.values()}
    # "iris  95.1 94.0" splits into 2 fields by runs of spaces, but its second field is two numbers.
    spaced = [_tokens(field) for k in body for field in multi_fields[k][1:] if " " in field or "\t" in field]
    spaced_flags = _numberish([t for toks in spaced for t in toks])  # one call for all the fields
    bounds = np.cumsum([0] + [len(toks) for toks in spaced])
    packed = any(spaced_flags[bounds[i] : bounds[i + 1]].all() for i in range(len(spaced)))
    rows: list[list[str]]
    if len(widths) == 1 and widths != {1} and not packed:
        m = widths.pop()
        _check_columns(display, body[0], m)
        rows = [[_restore(f) for f in multi_fields[k]] for k in body]
        how = "runs of 2 or more spaces or tabs"
    elif (
        len({len(tokens[k]) for k in body}) == 1
        and len(tokens[body[0]]) >= 2
        and not all(words_then_numbers[k] and trailing[k] >= v for k in body)
    ):
        # Mode 3: a text column between numbers. Rows made of a name and numbers are read by
        # mode 2 below, so that names with spaces stay whole.
        m = len(tokens[body[0]])
        _check_columns(display, body[0], m)
        rows = [[_restore(f) for f in tokens[k]] for k in body]
        how = "single spaces"
    else:  # mode 2
        m = v + 1
        _check_columns(display, next((k for k in body if trailing[k] >= v), body[0]), m)
        rows = []
        how_simple = all(len(tokens[k]) == v + 1 for k in body)
        for k in body:
            if trailing[k] < v:
                raise InputError(
                    f"File '{display}', line {k + 1} ends in {trailing[k]} number"
                    f"{'s' if trailing[k] != 1 else ''} where most rows end in {v}: an empty cell "
                    "cannot be told from the spaces between columns; write '-' in empty cells, "
                    "check that the line was not wrapped, or remove notes written under the table."
                )
            toks = tokens[k]
            rows.append([_restore(" ".join(toks[:-v]))] + [_restore(t) for t in toks[-v:]])
        how = (
            "single spaces"
            if how_simple
            else f"single spaces, with names containing spaces: took the last {v} fields of each "
            "line as the values and the words before them as the name"
        )
    notes.insert(0, f"read a table with columns separated by {how} ({line_list([k + 1 for k in body])})")

    header = _header(lines, protected, header_at, m, display, notes)
    grid = pd.DataFrame(rows, columns=range(m), dtype=object)
    return RawTable(
        header=header,
        grid=grid,
        line_numbers=np.asarray([k + 1 for k in body], dtype=np.int64),
        display=display,
        format="text",
        row_word="line",
        notes=tuple(notes),
        title=" ".join(lines[k].strip() for k in before) or None,
    )


def _header(
    lines: list[str],
    protected: dict[int, str],
    header_at: int | None,
    m: int,
    display: str,
    notes: list[str],
) -> list[str]:
    if header_at is None:
        notes.append("found no header line above the first row; the column names are empty")
        return [""] * m
    line_no = header_at + 1
    # Names separated by 2+ spaces first (names may hold single spaces), then by any space.
    for splitter in (_MULTI, _SINGLE):
        words = [_restore(f) for f in splitter.split(protected[header_at])]
        if len(words) == m:
            return words
        if len(words) == m - 1:
            notes.append(f"the header (line {line_no}) has no label for the first column; left it empty")
            return [""] + words
    if len(words) > m:
        extra = len(words) - m + 1
        first = " ".join(words[:extra])
        notes.append(
            f"the header (line {line_no}) has {len(words)} words for {m} columns; read '{first}' as "
            "the first column's name and the last words as the other columns' names"
        )
        return [first] + words[extra:]
    raise InputError(
        f"File '{display}': the header (line {line_no}) has {len(words)} names where the rows have {m} "
        "columns: check that the header was copied whole (names on one line, separated by 2 or "
        "more spaces when they contain spaces)."
    )
