"""Validation of a score frame (data sets x classifiers): names, numbers, missing cells.

:func:`_validate_scores` turns any DataFrame into the clean float frame a
:class:`~compare_lib.core._table.ScoreTable` holds, or raises :class:`~compare_lib.errors.InputError` naming
the row, column and value. Rows are named in messages through :class:`RowLabels` ("line 17" for a file,
"row 3" for a DataFrame), and listings of cells stop after a few ("and N more"), so that a table of
millions of cells never builds millions of strings.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np
import pandas as pd

from compare_lib.core._validation import MAX_LISTED as _MAX_LISTED
from compare_lib.core._validation import check_choice, listing
from compare_lib.errors import InputError, arg

#: What to do with missing cells (see :class:`~compare_lib.core._table.ScoreTable`).
MISSING_POLICIES = ("error", "drop-datasets", "drop-classifiers", "pairwise")

#: Cell texts read as "no score" (compared lower-cased, stripped).
_MISSING_TOKENS = {"", "na", "nan", "n/a", "n.a.", "null", "none", "?", "-", "--", "\u2013", "\u2014", "missing"}

#: Names of data sets and classifiers are shown in every table, chart and message: a longer one is
#: refused (it is a sign of a file read with the wrong delimiter or quotes, or of a crafted file).
MAX_NAME_LENGTH = 1_000

#: The note of the "pairwise" policy starts with this (a derived table replaces it with its own).
PAIRWISE_NOTE = "Missing-data policy 'pairwise':"


# validation shared by DataFrames and files


def _where(source: str | None) -> str:
    return f"File '{source}'" if source else "Score table"


class RowLabels:
    """How messages name row i: "line 17" for a file (``prefix`` + number), "row 3" for a DataFrame.

    Holds one integer per row and formats only the few rows a message names, so a table with
    millions of rows never builds millions of strings.
    """

    def __init__(self, numbers, prefix: str = "row", texts: Sequence[str] | None = None):
        self.numbers = np.asarray(numbers, dtype=np.int64)
        self.prefix = prefix
        self.texts = list(texts) if texts is not None else None

    @classmethod
    def of(cls, labels, n: int) -> "RowLabels":
        if isinstance(labels, RowLabels):
            return labels
        if labels is None:
            return cls(np.arange(1, n + 1))
        return cls(np.arange(1, n + 1), texts=[str(x) for x in labels])

    def __getitem__(self, i: int) -> str:
        if self.texts is not None:
            return self.texts[int(i)]
        return f"{self.prefix} {self.numbers[int(i)]}"

    def __len__(self) -> int:
        return self.numbers.size

    def take(self, keep: np.ndarray) -> "RowLabels":
        texts = None if self.texts is None else [self.texts[int(i)] for i in np.flatnonzero(keep)]
        return RowLabels(self.numbers[keep], self.prefix, texts)


def _cells(rows: np.ndarray, cols: np.ndarray, labels: RowLabels, index: pd.Index, columns: pd.Index,
           raw=None) -> list[str]:
    """Descriptions of the first few cells (enough for a message), never all of them."""
    out = []
    for i, j in zip(rows[: _MAX_LISTED], cols[: _MAX_LISTED]):
        text = f"{labels[i]} (data set '{index[i]}'), column '{columns[j]}'"
        if raw is not None:
            text += f": {raw(i, j)!r}"
        out.append(text)
    return out


def _count_listing(items: list[str], total: int) -> str:
    """All of ``items`` (the first few of ``total``), then "and N more"."""
    return listing(items, len(items), total=total)


def _is_plain_numeric(dtype) -> bool:
    """A real numeric dtype whose values convert to float as they are (not bool, not complex)."""
    return (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
            and not pd.api.types.is_complex_dtype(dtype))


def _column_values(column: pd.Series, where: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(values with NaN for missing cells, mask of cells that are not numbers), vectorized."""
    if pd.api.types.is_complex_dtype(column):
        raise InputError(
            f"{where}: column '{name}' holds complex numbers; scores must be real numbers."
        )
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return column.to_numpy(dtype=float, na_value=np.nan), np.zeros(len(column), dtype=bool)
    numeric = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    absent = column.isna().to_numpy()
    text = column.astype(str).str.strip().str.lower()
    token = text.isin(_MISSING_TOKENS).to_numpy() & ~absent
    kind = pd.api.types.infer_dtype(column, skipna=True)
    is_bool = np.zeros(len(column), dtype=bool)
    if kind in ("boolean", "mixed"):
        is_bool = column.map(lambda v: isinstance(v, (bool, np.bool_))).to_numpy(dtype=bool)
    if kind in ("complex", "mixed"):
        if column.map(lambda v: isinstance(v, complex)).any():
            raise InputError(f"{where}: column '{name}' holds complex numbers; scores must be real numbers.")
    missing = absent | token
    bad = ~missing & (np.isnan(numeric) | is_bool)
    values = np.where(missing | bad, np.nan, numeric)
    return values, bad


def _unique_index(index: pd.Index) -> tuple[np.ndarray, list[tuple[str, np.ndarray, list[str]]]]:
    """Repeated names made unique by suffixing ' (2)', ' (3)', ... in order of appearance (vectorized);
    returns the new names and, for the first few repeated names, their positions and new names."""
    names = np.asarray(index, dtype=object)
    codes, uniques = pd.factorize(names)
    order = np.argsort(codes, kind="stable")
    group_start = np.searchsorted(codes[order], np.arange(len(uniques)))
    occurrence = np.empty(names.size, dtype=np.int64)
    occurrence[order] = np.arange(names.size) - group_start[codes[order]] + 1
    rename = occurrence > 1
    new = names.copy()
    new[rename] = names[rename] + " (" + occurrence[rename].astype(str).astype(object) + ")"
    # A new name can only clash with an original one (e.g. a row already named 'x (2)'): hash lookup.
    clash = np.flatnonzero(rename)[pd.Index(new[rename], dtype=object).isin(pd.Index(uniques, dtype=object))]
    if clash.size:
        current = set(new.tolist())
        for pos in clash:  # take the next free suffix (rare)
            suffix = int(occurrence[pos])
            candidate = new[pos]
            while candidate in current:
                suffix += 1
                candidate = f"{names[pos]} ({suffix})"
            current.add(candidate)
            new[pos] = candidate
    counts = np.bincount(codes, minlength=len(uniques))
    repeated = np.flatnonzero(counts > 1)
    groups = []
    for g in repeated[:_MAX_LISTED]:
        pos = order[group_start[g] : group_start[g] + counts[g]]
        groups.append((str(uniques[g]), pos, [str(x) for x in new[pos[1 : _MAX_LISTED + 1]]]))
    if repeated.size > _MAX_LISTED:
        groups.append(("", np.array([], dtype=np.int64), [f"{repeated.size - _MAX_LISTED} more repeated names"]))
    return new, groups


#: The type of each element of an object array, in numpy's loop (a name that is a str subclass, np.str_, is replaced).
_TYPE_OF = np.frompyfunc(type, 1, 1)


def _validate_scores(
    frame: Any, *, missing: str, source: str | None, row_labels, share: bool = False
) -> tuple[pd.DataFrame, list[str]]:
    where = _where(source)
    if not isinstance(frame, pd.DataFrame):
        raise InputError(
            f"{where}: expected a pandas DataFrame (index = data sets, columns = classifiers), "
            f"got {type(frame).__name__}. Use load_scores() for files."
        )
    check_choice(missing, MISSING_POLICIES, "missing", verb="is not a policy")
    notes: list[str] = []
    columns = pd.Index([str(c) for c in frame.columns], dtype=object).str.strip()
    names = np.asarray(frame.index, dtype=object)
    stripped = pd.Series(names).astype(str).str.strip().to_numpy(dtype=object)
    # A name that was already a stripped string stays the same object: the table's index then shares the read
    # file's names instead of holding a second copy of each (issue 31: 1.3 MB for 19,305 names).
    same = (stripped == names) & (_TYPE_OF(names) == str) if len(names) else np.zeros(0, dtype=bool)
    index = pd.Index(np.where(same, names, stripped), dtype=object)
    labels = RowLabels.of(row_labels, len(frame))

    empty_cols = [f"column {j + 2}" for j, c in enumerate(columns) if c == ""]
    if empty_cols:
        raise InputError(f"{where}: classifier name missing in {', '.join(empty_cols)}. Give every column a name.")
    dup_cols = [c for c, n in Counter(columns).items() if n > 1]
    if dup_cols:
        where_cols = [
            f"'{c}' in columns {', '.join(str(j + 2) for j, x in enumerate(columns) if x == c)}" for c in dup_cols
        ]
        raise InputError(
            f"{where}: duplicate classifier name(s): {'; '.join(where_cols)}. "
            "Each classifier must appear once; rename or remove the repeated columns."
        )
    long_cols = np.flatnonzero(columns.str.len().to_numpy() > MAX_NAME_LENGTH)
    if long_cols.size:
        j = int(long_cols[0])
        raise InputError(
            f"{where}: the name of classifier column {j + 2} is {len(columns[j]):,} characters long (it starts "
            f"{columns[j][:40]!r}); names are limited to {MAX_NAME_LENGTH:,} characters. Check that the file is a table "
            "of scores with a header row, or shorten the name."
        )
    long_rows = np.flatnonzero(pd.Series(index, dtype=object).str.len().to_numpy() > MAX_NAME_LENGTH)
    if long_rows.size:
        i = int(long_rows[0])
        raise InputError(
            f"{where}: the data-set name on {labels[i]} is {len(index[i]):,} characters long (it starts "
            f"{index[i][:40]!r}); names are limited to {MAX_NAME_LENGTH:,} characters"
            + (f" ({long_rows.size:,} names are longer)" if long_rows.size > 1 else "")
            + ". Check the file's delimiter and quotes, or shorten the names."
        )
    empty_rows = np.flatnonzero(index == "")
    if empty_rows.size:
        named = [labels[i] for i in empty_rows[:_MAX_LISTED]]
        raise InputError(
            f"{where}: data-set name missing on {_count_listing(named, empty_rows.size)}. Give every row a name."
        )

    bad = np.zeros(frame.shape, dtype=bool)
    dtypes = set(frame.dtypes)
    if len(dtypes) == 1 and _is_plain_numeric(next(iter(dtypes))):
        # One real numeric dtype (the usual case): one conversion instead of one per column.
        values = frame.to_numpy(dtype=float, na_value=np.nan)
    else:
        values = np.empty(frame.shape, dtype=float)
        for j in range(frame.shape[1]):
            values[:, j], bad[:, j] = _column_values(frame.iloc[:, j], where, columns[j])
    if bad.any():
        rows, cols = np.nonzero(bad)
        cells = _cells(rows, cols, labels, index, columns, raw=lambda i, j: frame.iat[i, j])
        raise InputError(
            f"{where}: {rows.size} cell(s) are not numbers: {_count_listing(cells, rows.size)}. "
            "Every score must be a number; fix these cells (or leave them empty and choose a missing-data policy)."
        )
    infinite = np.isinf(values)
    if infinite.any():
        rows, cols = np.nonzero(infinite)
        cells = _cells(rows, cols, labels, index, columns, raw=lambda i, j: values[i, j])
        raise InputError(
            f"{where}: {rows.size} cell(s) are infinite: {_count_listing(cells, rows.size)}. "
            "Scores must be finite numbers; check how they were computed."
        )

    nan_mask = np.isnan(values)
    keep_rows = np.ones(values.shape[0], dtype=bool)
    keep_cols = np.ones(values.shape[1], dtype=bool)
    if nan_mask.any():
        rows, cols = np.nonzero(nan_mask)
        if missing == "error":
            cells = _cells(rows, cols, labels, index, columns)
            raise InputError(
                f"{where}: {rows.size} missing cell(s): {_count_listing(cells, rows.size)}. Fill them in, or choose a "
                f"missing-data policy: drop the data sets that have a missing cell ({arg('missing', 'drop-datasets')}), "
                f"drop the classifiers that have one ({arg('missing', 'drop-classifiers')}), or keep the holes for the "
                f"tests that compare pairs ({arg('missing', 'pairwise')})."
            )
        if missing == "drop-datasets":
            keep_rows = ~nan_mask.any(axis=1)
            dropped = np.flatnonzero(~keep_rows)
            named = [f"'{index[i]}' ({labels[i]})" for i in dropped[:_MAX_LISTED]]
            notes.append(f"Dropped {dropped.size} data set(s) with missing cells: {_count_listing(named, dropped.size)}.")
        elif missing == "pairwise":
            empty = np.flatnonzero(nan_mask.all(axis=0))
            if empty.size:
                raise InputError(
                    f"{where}: classifier(s) {', '.join(repr(columns[j]) for j in empty[:_MAX_LISTED])} have no score "
                    "on any data set, so nothing can be compared with them. Remove the column(s), or check that the "
                    "file was read with the right layout."
                )
            named = [f"{index[i]} / {columns[j]} ({labels[i]})" for i, j in zip(rows[:_MAX_LISTED], cols[:_MAX_LISTED])]
            notes.append(
                f"{PAIRWISE_NOTE} kept {rows.size} missing score(s) as holes: {_count_listing(named, rows.size)}. "
                f"{int(nan_mask.any(axis=1).sum())} of {values.shape[0]} data set(s) and "
                f"{int(nan_mask.any(axis=0).sum())} of {values.shape[1]} classifier(s) have a hole; a comparison of "
                "two classifiers uses the data sets where both have a score."
            )
        else:
            per_column = nan_mask.sum(axis=0)
            keep_cols = per_column == 0
            dropped = np.flatnonzero(~keep_cols)
            named = [f"'{columns[j]}' ({int(per_column[j])} missing)" for j in dropped[:_MAX_LISTED]]
            notes.append(f"Dropped {dropped.size} classifier(s) with missing cells: {_count_listing(named, dropped.size)}.")
    if not (keep_rows.all() and keep_cols.all()):
        values = values[np.ix_(keep_rows, keep_cols)]
        index, columns, labels = index[keep_rows], columns[keep_cols], labels.take(keep_rows)

    if values.shape[1] < 2:
        raise InputError(
            f"{where}: {values.shape[1]} classifier column(s) left ({', '.join(columns) or 'none'}); comparing needs "
            "at least 2. A wide file needs the data-set names in the first column and one column per classifier."
        )
    if values.shape[0] < 2:
        raise InputError(
            f"{where}: {values.shape[0]} data set(s) left; comparing classifiers over data sets needs at least 2 rows."
        )

    if not index.is_unique:
        new, groups = _unique_index(index)
        for name, positions, renamed in groups:
            if not name:
                notes.append(f"... and {renamed[0]}, renamed the same way.")
                continue
            lines = [labels[i] for i in positions[:_MAX_LISTED]]
            notes.append(
                f"Data-set name '{name}' appears {positions.size} times ({_count_listing(lines, positions.size)}); all "
                f"rows are kept and the repeats were renamed {_count_listing([repr(n) for n in renamed], positions.size - 1)}. "
                "Rename them in the file if they are different data sets, or remove one if it is a duplicate."
            )
        index = pd.Index(new, dtype=object)
    # The caller's frame is copied, so that changing it later cannot change the table; an array made here, or a
    # reader's own array that nobody else holds (``share``), is used in place and made read-only (issue 31: one copy
    # of a million scores per session instead of two) when it is laid out as a copy would be (column by column,
    # Fortran order): the sums over a table, and so its statistics to the last bit, do not depend on which it was.
    in_place = (share or values.flags.owndata) and values.flags.f_contiguous
    if in_place:
        values.setflags(write=False)
    out = pd.DataFrame(values, index=index, columns=columns, copy=not in_place)
    out.index.name = "dataset"
    out.columns.name = "classifier"
    return out, notes


# ---------------------------------------------------------------------------------------------
# reading files

