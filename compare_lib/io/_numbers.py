"""Score cells -> floats, for every format: numbers as they are, missing-value tokens, decimal commas,
percent signs, and the decorations of published tables (``± sd``, ``(sd)``, bold, significance
markers), each change recorded in a note. Vectorized: only the cells pandas cannot read as numbers are
looked at again, and messages name at most a few cells."""

from __future__ import annotations

import re
from typing import Callable

import numpy as np
import pandas as pd

from .._table_validation import _MISSING_TOKENS, _count_listing
from .._validation import MAX_LISTED
from ..errors import InputError

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
        from ._cells import clean_score_cells
    except ImportError:  # the cell-cleaning module is optional
        return None
    return clean_score_cells


def parse_columns(
    columns: dict[str, pd.Series], display: str, decimal: str | None, notes: list[str],
    locate: Callable[[int, str], str],
) -> tuple[dict[str, np.ndarray], dict[str, Bad]]:
    """Parse columns of score cells into floats (NaN = a missing-value token or an empty cell).

    Returns the values and, per column, the cells that are still not numbers (their value is NaN):
    the caller decides whether that is an error (:func:`not_numbers_message`). Decimal commas are
    detected over all the columns together (unless ``decimal`` is given); a file that mixes decimal
    points and commas is refused. ``locate(row, column)`` names a cell in messages.
    """
    parsed: dict[str, np.ndarray] = {}
    failed: dict[str, tuple[np.ndarray, pd.Series]] = {}
    for name, col in columns.items():
        if is_number_column(col):
            parsed[name] = col.to_numpy(dtype=float, na_value=np.nan, copy=True)
            continue
        if pd.api.types.is_complex_dtype(col):
            raise InputError(f"File '{display}': column '{name}' holds complex numbers; scores must be real numbers.")
        num = pd.to_numeric(col, errors="coerce")
        num = num.to_numpy(dtype=float, na_value=np.nan, copy=True) if is_number_column(num) else np.full(len(col), np.nan)
        parsed[name] = num
        idx = np.flatnonzero(np.isnan(num))
        if idx.size:
            raw = texts(col.iloc[idx]).reset_index(drop=True)
            keep = ~raw.str.lower().isin(_MISSING_TOKENS).to_numpy()
            failed[name] = (idx[keep], raw[keep].reset_index(drop=True))
    failed = {name: f for name, f in failed.items() if f[0].size}
    cleaned = _clean(failed, notes)
    if decimal is None:
        comma = []
        for name, fixed in cleaned.items():
            hit = fixed.str.match(_COMMA_DECIMAL).to_numpy(dtype=bool)
            if hit.any():
                first = int(np.flatnonzero(hit)[0])
                comma.append((name, failed[name][0][first], fixed.iloc[first]))
        decimal = "," if comma else "."
        if comma:
            dotted = _first_dotted(columns)
            if dotted is not None:
                name, i, v = comma[0]
                raise InputError(
                    f"File '{display}': numbers mix decimal points and decimal commas (e.g. {locate(i, name)}: '{v}' "
                    f"and '{dotted}'). Use one decimal separator throughout."
                )
            notes.append(f"Read decimal commas: '{comma[0][2]}' was read as {comma[0][2].replace(',', '.')}.")
    percent_seen = 0
    example = None
    bad: dict[str, Bad] = {}
    for name, (idx, raw) in failed.items():
        fixed = cleaned[name]
        pct = fixed.str.endswith("%").to_numpy()
        if pct.any():
            percent_seen += int(pct.sum())
            example = example or fixed[pct].iloc[0]
            fixed = fixed.where(~pct, fixed.str[:-1].str.strip())
        if decimal == ",":
            fixed = fixed.str.replace(",", ".", regex=False)
        again = pd.to_numeric(fixed, errors="coerce")
        again = again.to_numpy(dtype=float, na_value=np.nan) if is_number_column(again) else np.full(len(fixed), np.nan)
        parsed[name][idx] = again
        still = np.flatnonzero(np.isnan(again))
        if still.size:
            bad[name] = (idx[still], raw.iloc[still].reset_index(drop=True))
    if percent_seen:
        notes.append(f"Removed percent signs from {percent_seen} cell(s) (e.g. '{example}' read as {example[:-1]}).")
    return parsed, bad


def _clean(failed: dict[str, tuple[np.ndarray, pd.Series]], notes: list[str]) -> dict[str, pd.Series]:
    """The failed cells after removing the decorations of published tables (one call for all columns,
    so that the notes count the cells of the whole table)."""
    cleaned = {name: raw for name, (_, raw) in failed.items()}
    clean = _cleaner() if failed else None
    if clean is None:
        return cleaned
    names = list(failed)
    joined = pd.concat([failed[n][1] for n in names], ignore_index=True)
    out, clean_notes = clean(joined)
    out = texts(pd.Series(np.asarray(out, dtype=object), dtype=object))
    notes.extend(clean_notes)
    start = 0
    for n in names:
        size = failed[n][1].size
        cleaned[n] = out.iloc[start : start + size].reset_index(drop=True)
        start += size
    return cleaned


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
