"""Score cells -> floats, for every format: numbers as they are, missing-value tokens, decimal commas,
percent signs, and the decorations of published tables (``± sd``, ``(sd)``, bold, significance
markers), each change recorded in a note. Vectorized: only the cells pandas cannot read as numbers are
looked at again, and messages name at most a few cells."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pandas as pd

from compare_lib.core._table_validation import _MISSING_TOKENS, _count_listing
from compare_lib.core._validation import MAX_LISTED
from compare_lib.errors import InputError

_DOT_DECIMAL = re.compile(r"^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?%?$")
_COMMA_DECIMAL = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?%?$")

#: (positions in the column, the cells' text as in the source) of the cells that are not numbers.
Bad = tuple[np.ndarray, pd.Series]


def is_number_column(col: pd.Series) -> bool:
    """A real numeric dtype whose values are the scores as they are (not bool, not complex)."""
    return (pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
            and not pd.api.types.is_complex_dtype(col))


def texts(values: pd.Series) -> pd.Series:
    """Cells as stripped text: "" for an empty cell (None, NaN), integral floats without ".0"."""
    if pd.api.types.is_string_dtype(values) and not values.isna().any():
        try:
            return values.str.strip()
        except AttributeError:  # an object column holding non-strings
            pass

    def one(v) -> str:
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v).strip()

    return values.map(one).astype(object)


def _cleaner() -> Callable | None:
    try:
        from compare_lib.io._cells import clean_score_cells
    except ImportError:  # the cell-cleaning module is optional
        return None
    return clean_score_cells


def _column_cells(col: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """One column the slow way (any cells): its numbers (NaN where not one), and the positions, texts (as
    :func:`texts` gives them) and text dtype of the cells that are neither numbers nor missing-value tokens."""
    num = pd.to_numeric(col, errors="coerce")
    num = num.to_numpy(dtype=float, na_value=np.nan, copy=True) if is_number_column(num) else np.full(len(col), np.nan)
    idx = np.flatnonzero(np.isnan(num))
    if not idx.size:
        return num, idx, np.empty(0, dtype=object), object
    raw = texts(col.iloc[idx]).reset_index(drop=True)
    keep = ~raw.str.lower().isin(_MISSING_TOKENS).to_numpy()
    return num, idx[keep], raw.to_numpy(dtype=object)[keep], raw.dtype


def _batch_key(col: pd.Series):
    """Columns with the same key are parsed together, as one column, with the same result cell by cell:
    columns of text only (a CSV file, a pasted table), grouped by dtype. None: any other column (numbers
    stored as objects, booleans, dates: a spreadsheet), parsed alone."""
    if isinstance(col.dtype, pd.StringDtype):
        return col.dtype
    if pd.api.types.is_object_dtype(col.dtype) and pd.api.types.infer_dtype(col, skipna=True) in ("string", "empty"):
        return col.dtype
    return None


def _texts_of(subset: pd.Series, own_strip: bool) -> pd.Series:
    """:func:`texts` of cells of columns that all take the same branch there: pandas' string dtype without
    missing values is stripped by pandas (``own_strip``), anything else cell by cell by Python."""
    if own_strip:
        return subset.str.strip()
    return texts(pd.Series(subset.to_numpy(dtype=object), dtype=object))


def _batch_cells(cols: list[pd.Series], dtype) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, Any]]:
    """:func:`_column_cells` of columns of one batch key, computed with one call of each pandas function
    for them all (a call per column cost about a millisecond: a table of 20,000 columns took minutes)."""
    sizes = np.asarray([len(c) for c in cols], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    joined = pd.Series(np.concatenate([c.to_numpy(dtype=object) for c in cols]), dtype=dtype)
    num = pd.to_numeric(joined, errors="coerce")
    if not is_number_column(num):  # never for text; to be safe, the columns one by one
        return [_column_cells(c) for c in cols]
    num = num.to_numpy(dtype=float, na_value=np.nan, copy=True)
    # texts() strips a column of pandas' string dtype itself unless it has missing values.
    missing = np.concatenate([[0], np.cumsum(joined.isna().to_numpy())])[starts]
    own = np.diff(missing) == 0 if isinstance(dtype, pd.StringDtype) else np.zeros(len(cols), dtype=bool)
    failing = np.flatnonzero(np.isnan(num))
    owner = np.searchsorted(starts, failing, side="right") - 1
    subset = joined.iloc[failing].reset_index(drop=True)
    raw_text = np.empty(failing.size, dtype=object)
    keep = np.zeros(failing.size, dtype=bool)
    raw_dtype = np.empty(failing.size, dtype=object)
    for own_strip in (False, True):
        part = np.flatnonzero(own[owner] == own_strip)
        if part.size:
            raw = _texts_of(subset.iloc[part], own_strip)
            keep[part] = ~raw.str.lower().isin(_MISSING_TOKENS).to_numpy()
            raw_text[part] = raw.to_numpy(dtype=object)
            raw_dtype[part] = raw.dtype
    bounds = np.searchsorted(owner, np.arange(len(cols) + 1))
    out = []
    for c in range(len(cols)):
        sl = slice(bounds[c], bounds[c + 1])
        mine = keep[sl]
        text_dtype = raw_dtype[bounds[c]] if bounds[c + 1] > bounds[c] else object
        out.append((num[starts[c] : starts[c + 1]], (failing[sl] - starts[c])[mine], raw_text[sl][mine], text_dtype))
    return out


def parse_columns(
    columns: dict[str, pd.Series], display: str, decimal: str | None, notes: list[str],
    locate: Callable[[int, str], str],
) -> tuple[dict[str, np.ndarray], dict[str, Bad]]:
    """Parse columns of score cells into floats (NaN = a missing-value token or an empty cell).

    Returns the values and, per column, the cells that are still not numbers (their value is NaN):
    the caller decides whether that is an error (:func:`not_numbers_message`). Decimal commas are
    detected over all the columns together (unless ``decimal`` is given); a file that mixes decimal
    points and commas is refused. ``locate(row, column)`` names a cell in messages.

    Cost: the columns of text are parsed together, a few vectorised calls for the whole table (issue 27:
    one set of calls per column made a table of 20,000 columns take minutes); the cells of every other
    column are looked at one by one.
    """
    parsed: dict[str, np.ndarray] = {}
    cells: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, Any]] = {}
    batches: dict[Any, list[str]] = {}
    for name, col in columns.items():
        if is_number_column(col):
            parsed[name] = col.to_numpy(dtype=float, na_value=np.nan, copy=True)
            continue
        if pd.api.types.is_complex_dtype(col):
            raise InputError(f"File '{display}': column '{name}' holds complex numbers; scores must be real numbers.")
        key = _batch_key(col)
        if key is None:
            cells[name] = _column_cells(col)
        else:
            batches.setdefault(key, []).append(name)  # their cells are filled below; ``order`` follows ``columns``
    for dtype, names in batches.items():
        for name, result in zip(names, _batch_cells([columns[n] for n in names], dtype)):
            cells[name] = result
    # The cells that are not numbers, all columns in one array (in column order, then row order).
    order = [name for name in columns if name in cells]
    for name in order:
        parsed[name] = cells[name][0]
    failing = [name for name in order if cells[name][1].size]
    if not failing:
        return {name: parsed[name] for name in columns}, {}
    sizes = np.asarray([cells[n][1].size for n in failing], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    rows = np.concatenate([cells[n][1] for n in failing])
    raw_text = np.concatenate([cells[n][2] for n in failing])
    raw_dtypes = [cells[n][3] for n in failing]
    owner = np.repeat(np.arange(len(failing)), sizes)
    # As one column, they keep pandas' string dtype when all of them had it (as pd.concat did).
    same = all(isinstance(t, pd.StringDtype) and t == raw_dtypes[0] for t in raw_dtypes)
    joined_dtype = raw_dtypes[0] if same else object
    fixed = _clean(pd.Series(raw_text, dtype=joined_dtype), notes)
    if decimal is None:
        hit = np.flatnonzero(fixed.str.match(_COMMA_DECIMAL).to_numpy(dtype=bool))
        decimal = "," if hit.size else "."
        if hit.size:
            first = int(hit[0])
            name, i, v = failing[owner[first]], int(rows[first]), fixed.iloc[first]
            dotted = _first_dotted(columns)
            if dotted is not None:
                raise InputError(
                    f"File '{display}': numbers mix decimal points and decimal commas (e.g. {locate(i, name)}: '{v}' "
                    f"and '{dotted}'). Use one decimal separator throughout."
                )
            notes.append(f"Read decimal commas: '{v}' was read as {v.replace(',', '.')}.")
    pct = fixed.str.endswith("%").to_numpy()
    if pct.any():
        example = fixed[pct].iloc[0]
        fixed = fixed.where(~pct, fixed.str[:-1].str.strip())
        notes.append(f"Removed percent signs from {int(pct.sum())} cell(s) (e.g. '{example}' read as {example[:-1]}).")
    if decimal == ",":
        fixed = fixed.str.replace(",", ".", regex=False)
    again = pd.to_numeric(fixed, errors="coerce")
    again = again.to_numpy(dtype=float, na_value=np.nan) if is_number_column(again) else np.full(len(fixed), np.nan)
    bad: dict[str, Bad] = {}
    for c, name in enumerate(failing):
        sl = slice(starts[c], starts[c + 1])
        parsed[name][rows[sl]] = again[sl]
        still = np.flatnonzero(np.isnan(again[sl]))
        if still.size:  # as object text: a Series of pandas' string dtype per column cost a quarter millisecond
            bad[name] = (rows[sl][still], pd.Series(raw_text[sl][still], dtype=object))
    return {name: parsed[name] for name in columns}, bad


def _clean(raw: pd.Series, notes: list[str]) -> pd.Series:
    """The cells after removing the decorations of published tables (one call for all the columns, so
    that the notes count the cells of the whole table), as stripped text."""
    clean = _cleaner()
    if clean is None:
        return raw
    out, clean_notes = clean(raw)
    notes.extend(clean_notes)
    return texts(pd.Series(np.asarray(out, dtype=object), dtype=object))


def _first_dotted(columns: dict[str, pd.Series]) -> str | None:
    for col in columns.values():
        if is_number_column(col):
            continue
        text = texts(col) if not pd.api.types.is_string_dtype(col) else col
        try:
            candidates = text[text.str.contains(".", regex=False)].head(50)
        except AttributeError:
            continue
        for v in candidates:
            if _DOT_DECIMAL.match(v):
                return v
    return None


def not_numbers_message(display: str, bad: dict[str, Bad], locate: Callable[[int, str], str]) -> str | None:
    """The message for cells that are not numbers (None when there are none)."""
    n_bad = sum(pos.size for pos, _ in bad.values())
    if not n_bad:
        return None
    cells: list[str] = []
    for name, (pos, raw) in bad.items():
        for p, r in zip(pos[: max(0, MAX_LISTED - len(cells))], raw.iloc[: max(0, MAX_LISTED - len(cells))]):
            cells.append(f"{locate(p, name)}: {r!r}")
    return (
        f"File '{display}': {n_bad} cell(s) are not numbers: {_count_listing(cells, n_bad)}. Every score must be a "
        "number; fix these cells (or leave them empty and choose a missing-data policy)."
    )
