"""The score table (data sets x classifiers) and the loaders that build it.

A :class:`ScoreTable` holds one score per data set and classifier, an explicit
``higher_is_better``, and everything derived from the scores that the tests need (ranks, mean
ranks, wins/ties/losses). It is built from a DataFrame or loaded from a file with
:func:`load_scores`, which reads

* a *wide* table: first column = data-set names, one column per classifier;
* a *long* (tidy) table: a data-set column, a classifier column, a score column and optionally
  repetition/fold columns; repeated scores are averaged per cell and the fold-level rows are kept
  in :attr:`ScoreTable.folds`.

Nothing is changed silently: every cleaning step (a duplicate data-set name made unique, decimal
commas read, missing cells dropped by an opt-in policy) is recorded in :attr:`ScoreTable.notes`.
Every problem raises :class:`~compare_lib.errors.InputError` naming the file, line, column and value.
"""

from __future__ import annotations

import csv
import io
from array import array
import os
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from .errors import DataWarning, InputError
from .ranks import doubled_ranks, rank_scores, win_tie_loss, win_tie_loss_frame

MISSING_POLICIES = ("error", "drop-datasets", "drop-classifiers")
LAYOUTS = ("auto", "wide", "long")

_MISSING_TOKENS = {"", "na", "nan", "n/a", "null", "none", "?", "-", "--", "missing"}
_NA_VALUES = sorted({v for t in _MISSING_TOKENS for v in (t, t.upper(), t.capitalize())} | {"NaN", "N/A"})
_DOT_DECIMAL = re.compile(r"^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?%?$")
_COMMA_DECIMAL = re.compile(r"^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?%?$")

_DATASET_NAMES = {"dataset", "data set", "data_set", "data-set", "datasets", "data", "problem", "task", "db"}
_CLASSIFIER_NAMES = {"classifier", "algorithm", "method", "model", "learner", "approach", "system"}
_SCORE_NAMES = {"score", "value", "accuracy", "acc", "auc", "error", "performance", "result", "metric"}
_FOLD_NAMES = {"fold", "folds", "repetition", "rep", "repeat", "run", "seed", "iteration", "split", "trial", "scheme"}
_SIZE_NAMES = {"n_train", "n_test", "train_size", "test_size"}

_MAX_LISTED = 8


def _listing(items: Sequence[str]) -> str:
    shown = "; ".join(items[:_MAX_LISTED])
    more = len(items) - _MAX_LISTED
    return shown + (f"; and {more} more" if more > 0 else "")


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """Scores of k classifiers (columns) on N data sets (rows).

    Parameters
    ----------
    scores : DataFrame
        Index = data-set names, columns = classifier names, numeric finite values.
    higher_is_better : bool
        ``True`` for accuracy, AUC, ...; ``False`` for error rates, losses, run times.
    missing : {"error", "drop-datasets", "drop-classifiers"}
        What to do with missing cells: refuse them (default, the message lists them), drop the data
        sets that have one, or drop the classifiers that have one. What is dropped is recorded in
        :attr:`notes`.
    source : str, optional
        Where the table came from (a file name), used in messages.
    notes : tuple of str
        What was done to the data while loading it; shown to the user.
    folds : DataFrame, optional
        Fold-level rows of a long table (data set, classifier, repetition/fold columns, score).

    Ranks follow Demšar (2006, §3.2.2): 1 = best, ties get the average rank.
    """

    scores: pd.DataFrame
    higher_is_better: bool = True
    missing: str = "error"
    source: str | None = None
    notes: tuple[str, ...] = ()
    folds: pd.DataFrame | None = field(default=None, repr=False)
    row_labels: Any = field(default=None, repr=False)  # how messages name rows (strings or RowLabels)

    def __post_init__(self) -> None:
        if not isinstance(self.higher_is_better, (bool, np.bool_)):
            raise InputError(
                f"higher_is_better must be True or False, got {self.higher_is_better!r}. "
                "Say whether a higher score is better (accuracy: True; error rate: False)."
            )
        clean, notes = _validate_scores(
            self.scores, missing=self.missing, source=self.source, row_labels=self.row_labels
        )
        object.__setattr__(self, "scores", clean)
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))
        object.__setattr__(self, "notes", tuple(self.notes) + tuple(notes))
        object.__setattr__(self, "row_labels", None)
        for note in notes:
            warnings.warn(note, DataWarning, stacklevel=3)

    # -- shape -------------------------------------------------------------------------------
    @cached_property
    def memo(self) -> dict:
        """Results computed from this (immutable) table, shared by the functions that need them."""
        return {}

    @property
    def classifiers(self) -> list[str]:
        return list(self.scores.columns)

    @property
    def datasets(self) -> list[str]:
        return list(self.scores.index)

    @property
    def n_datasets(self) -> int:
        return self.scores.shape[0]

    @property
    def n_classifiers(self) -> int:
        return self.scores.shape[1]

    @cached_property
    def oriented_scores(self) -> np.ndarray:
        """The scores as floats with higher = better (negated for lower-is-better tables; read-only), so
        that a positive difference always favours the first classifier."""
        scores = self.scores.to_numpy(dtype=float)
        out = scores if self.higher_is_better else -scores
        out.setflags(write=False)
        return out

    # -- ranks -------------------------------------------------------------------------------
    @cached_property
    def ranks(self) -> pd.DataFrame:
        """Rank of each classifier on each data set (1 = best, ties averaged)."""
        r = rank_scores(self.scores.to_numpy(), higher_is_better=self.higher_is_better)
        return pd.DataFrame(r, index=self.scores.index, columns=self.scores.columns)

    @cached_property
    def doubled_ranks(self) -> np.ndarray:
        """2 x the ranks (N x k int64, read-only): exact integers for the rank statistics."""
        out = doubled_ranks(self.ranks.to_numpy())
        out.setflags(write=False)
        return out

    @cached_property
    def doubled_rank_sums(self) -> pd.Series:
        """2 x the rank sum of each classifier, exact integers: the quantity every rank statistic uses."""
        return pd.Series(self.doubled_ranks.sum(axis=0), index=self.scores.columns, name="2 x rank sum")

    @cached_property
    def mean_ranks(self) -> pd.Series:
        """Average rank of each classifier over the data sets (lower = better), doubled rank sum / 2N."""
        return pd.Series(self.doubled_rank_sums.to_numpy() / (2 * self.n_datasets), index=self.scores.columns,
                         name="mean rank")

    def win_tie_loss(self) -> dict[str, pd.DataFrame]:
        """k x k matrices ``wins``, ``ties``, ``losses``; ``wins.loc[a, b]`` = data sets where a beats b."""
        wins, ties, losses = win_tie_loss(self.scores.to_numpy(), higher_is_better=self.higher_is_better)
        idx = self.scores.columns
        return {
            "wins": pd.DataFrame(wins, index=idx, columns=idx),
            "ties": pd.DataFrame(ties, index=idx, columns=idx),
            "losses": pd.DataFrame(losses, index=idx, columns=idx),
        }

    def win_tie_loss_frame(self) -> pd.DataFrame:
        """Tidy wins/ties/losses, one row per ordered pair."""
        return win_tie_loss_frame(self.scores, higher_is_better=self.higher_is_better)

    # -- derived tables ----------------------------------------------------------------------
    def subset(self, classifiers: Iterable[str] | None = None, datasets: Iterable[str] | None = None) -> "ScoreTable":
        """A new table restricted to some classifiers and/or data sets (order as given)."""
        cols = self.classifiers if classifiers is None else list(classifiers)
        rows = self.datasets if datasets is None else list(datasets)
        unknown = [c for c in cols if c not in self.scores.columns]
        if unknown:
            raise InputError(
                f"Unknown classifier(s) {unknown}; the table has {self.classifiers}. Pick names from the table."
            )
        unknown = [r for r in rows if r not in self.scores.index]
        if unknown:
            raise InputError(f"Unknown data set(s) {unknown}; pick names from the table's first column.")
        folds = self.folds
        if folds is not None:
            folds = folds[folds["dataset"].isin(rows) & folds["classifier"].isin(cols)].reset_index(drop=True)
        return ScoreTable(
            self.scores.loc[rows, cols],
            self.higher_is_better,
            source=self.source,
            notes=self.notes,
            folds=folds,
        )

    def to_long(self) -> pd.DataFrame:
        """Long form with columns ``dataset``, ``classifier``, ``score`` (for AnovaRM and exports)."""
        long = self.scores.rename_axis(index="dataset", columns="classifier").stack().rename("score")
        return long.reset_index()

    def with_direction(self, higher_is_better: bool) -> "ScoreTable":
        """The same scores read with the other convention (higher or lower is better)."""
        return ScoreTable(self.scores, higher_is_better, source=self.source, notes=self.notes, folds=self.folds)


def as_table(table: Any, higher_is_better: bool | None = None) -> ScoreTable:
    """Accept a :class:`ScoreTable`, or a DataFrame/array together with ``higher_is_better``."""
    if isinstance(table, ScoreTable):
        if higher_is_better is not None and bool(higher_is_better) != table.higher_is_better:
            return table.with_direction(bool(higher_is_better))
        return table
    if higher_is_better is None:
        raise InputError(
            "Got a plain table without a direction. Pass a ScoreTable, or pass higher_is_better=True "
            "(accuracy, AUC) or higher_is_better=False (error rate, loss)."
        )
    if isinstance(table, pd.DataFrame):
        return ScoreTable(table, higher_is_better)
    arr = np.asarray(table, dtype=float)
    if arr.ndim != 2:
        raise InputError(f"Expected a 2-D table (data sets x classifiers), got an array of shape {arr.shape}.")
    frame = pd.DataFrame(
        arr,
        index=[f"D{i + 1}" for i in range(arr.shape[0])],
        columns=[f"C{j + 1}" for j in range(arr.shape[1])],
    )
    return ScoreTable(frame, higher_is_better)


# ---------------------------------------------------------------------------------------------
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
    shown = "; ".join(items)
    more = total - len(items)
    return shown + (f"; and {more} more" if more > 0 else "")


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


def _validate_scores(
    frame: Any, *, missing: str, source: str | None, row_labels
) -> tuple[pd.DataFrame, list[str]]:
    where = _where(source)
    if not isinstance(frame, pd.DataFrame):
        raise InputError(
            f"{where}: expected a pandas DataFrame (index = data sets, columns = classifiers), "
            f"got {type(frame).__name__}. Use load_scores() for files."
        )
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing={missing!r} is not a policy; choose one of {', '.join(MISSING_POLICIES)}.")
    notes: list[str] = []
    columns = pd.Index([str(c) for c in frame.columns], dtype=object).str.strip()
    index = pd.Index(pd.Series(np.asarray(frame.index, dtype=object)).astype(str).str.strip().to_numpy(dtype=object),
                     dtype=object)
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
                "missing-data policy: drop the data sets that have a missing cell, or drop the classifiers that have one."
            )
        if missing == "drop-datasets":
            keep_rows = ~nan_mask.any(axis=1)
            dropped = np.flatnonzero(~keep_rows)
            named = [f"'{index[i]}' ({labels[i]})" for i in dropped[:_MAX_LISTED]]
            notes.append(f"Dropped {dropped.size} data set(s) with missing cells: {_count_listing(named, dropped.size)}.")
        else:
            per_column = nan_mask.sum(axis=0)
            keep_cols = per_column == 0
            dropped = np.flatnonzero(~keep_cols)
            named = [f"'{columns[j]}' ({int(per_column[j])} missing)" for j in dropped[:_MAX_LISTED]]
            notes.append(f"Dropped {dropped.size} classifier(s) with missing cells: {_count_listing(named, dropped.size)}.")
    values = values[np.ix_(keep_rows, keep_cols)] if not (keep_rows.all() and keep_cols.all()) else values
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
    out = pd.DataFrame(values, index=index, columns=columns)
    out.index.name = "dataset"
    out.columns.name = "classifier"
    return out, notes


# ---------------------------------------------------------------------------------------------
# reading files


def _read_text(source: Any, name: str | None) -> tuple[str, str]:
    """Return (text, display name) from a path, bytes, text or a file-like object."""
    display = name
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        path = Path(source)
        display = display or path.name
        if not path.exists():
            raise InputError(f"File '{path}' does not exist. Check the path.")
        if path.is_dir():
            raise InputError(f"'{path}' is a folder, not a file. Give the path of a CSV/TSV file.")
        raw: bytes | str = path.read_bytes()
    elif isinstance(source, str):
        raw = source
        display = display or "pasted text"
    elif isinstance(source, (bytes, bytearray)):
        raw = bytes(source)
    elif hasattr(source, "read"):
        raw = source.read()
        display = display or getattr(source, "name", None)
    else:
        raise InputError(
            f"Cannot read scores from a {type(source).__name__}; give a file path, bytes, text or a file object."
        )
    display = display or "uploaded file"
    if isinstance(raw, str):
        text = raw.lstrip("\ufeff")
    else:
        if b"\x00" in raw[:4096]:
            raise InputError(
                f"File '{display}' looks binary (it contains NUL bytes), not a text table. "
                "Export the scores as CSV or TSV (e.g. from a spreadsheet: File > Save as > CSV)."
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    stripped = text.lstrip().lower()
    if stripped.startswith("<!doctype html") or stripped.startswith("<html") or stripped.startswith("<?xml"):
        raise InputError(
            f"File '{display}' is an HTML/XML page, not a CSV table. Download the raw CSV file instead."
        )
    if not text.strip():
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    return text, display


_DELIMITERS = ("\t", ";", ",", "|")
#: The csv module refuses fields above 128 KiB by default; a 50 MB upload may hold one long line.
_FIELD_LIMIT = 1 << 30
#: Names of data sets and classifiers are shown in every table, chart and message: a longer one is
#: refused (it is a sign of a file read with the wrong delimiter or quotes, or of a crafted file).
MAX_NAME_LENGTH = 1_000


def _allow_long_fields() -> None:
    if csv.field_size_limit() < _FIELD_LIMIT:
        csv.field_size_limit(_FIELD_LIMIT)  # only ever raised, never lowered: safe across sessions
_BLANK_LINES = re.compile(r"^[ \t\f\v]+$", re.MULTILINE)


def _detect_delimiter(sample: list[str]) -> str:
    _allow_long_fields()
    best, best_fields = ",", 1
    for delim in _DELIMITERS:
        counts = {len(row) for row in csv.reader(sample[:50], delimiter=delim, skipinitialspace=True) if row}
        if len(counts) == 1:
            fields = counts.pop()
            if fields > best_fields:
                best, best_fields = delim, fields
    if best_fields == 1:
        # Inconsistent rows: take the delimiter that splits the header most; ragged rows are reported later.
        header = sample[0]
        best = max(_DELIMITERS, key=lambda d: len(next(csv.reader([header], delimiter=d))))
    return best


def _check_sep(sep: Any) -> str | None:
    if sep is None:
        return None
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n" or sep.isalnum():
        raise InputError(
            f"sep={sep!r} is not a delimiter: give one character such as ',', ';', '\\t' or '|' (or leave it out to "
            "detect it)."
        )
    return sep


def _scan_records(text: str, delim: str, display: str) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """One streaming pass of the csv module over the text: for each non-blank record, its first line
    number (1-based, a quoted field may span lines) and its number of fields; and the header cells.

    Nothing but two integer arrays is kept, so memory stays small for any file size. The csv module
    splits records only at \\n (the text is normalized), never at U+2028 or other characters that
    ``str.splitlines`` would split at.
    """
    if '"' not in text:
        return _scan_unquoted(text, delim, display)
    _allow_long_fields()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, skipinitialspace=True)
    starts, counts = array("q"), array("q")
    header: list[str] | None = None
    previous_end = 0
    try:
        for row in reader:
            if row:
                if header is None:
                    header = row
                starts.append(previous_end + 1)
                counts.append(len(row))
            previous_end = reader.line_num
    except csv.Error as err:
        raise InputError(
            f"File '{display}', line {reader.line_num}: the file cannot be read as CSV ({err}). Check for a stray "
            "quote character or a binary file."
        ) from None
    if header is None:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    return np.frombuffer(starts, dtype=np.int64), np.frombuffer(counts, dtype=np.int64), header, previous_end


def _scan_unquoted(text: str, delim: str, display: str) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """:func:`_scan_records` for a text without quote characters, vectorized over its bytes: records are
    the non-empty lines and their fields are separated by every delimiter (the delimiter is ASCII, so
    counting its bytes in UTF-8 is exact)."""
    buf = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    breaks = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [buf.size]])
    nonempty = ends > starts
    seps = np.flatnonzero(buf == ord(delim))
    counts = (np.searchsorted(seps, ends[nonempty]) - np.searchsorted(seps, starts[nonempty]) + 1)
    lines = np.flatnonzero(nonempty) + 1
    if lines.size == 0:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    first = bytes(buf[starts[lines[0] - 1] : ends[lines[0] - 1]]).decode("utf-8")
    header = first.split(delim)
    header = [h.lstrip(" ") for h in header]  # as skipinitialspace
    return lines.astype(np.int64), counts.astype(np.int64), header, int(breaks.size + 1)


def _split_text(text: str, display: str, sep: str | None) -> tuple[list[str], str, np.ndarray, np.ndarray, int, str]:
    """Header cells, the body text (after the header record), the body records' first line numbers and
    field counts, the header's line number and the delimiter (detected on the first non-blank lines
    unless given)."""
    text = _BLANK_LINES.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))  # whitespace-only lines are blank
    stream = io.StringIO(text)
    sample = []
    while len(sample) < 50:
        line = stream.readline()
        if not line:
            break
        if line.strip():
            sample.append(line.rstrip("\n"))
    if not sample:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    delim = sep or _detect_delimiter(sample)
    starts, counts, header, _ = _scan_records(text, delim, display)
    header = [c.strip() for c in header]
    header_line = int(starts[0])
    # The body begins after the header record's last line.
    body_from = int(starts[1]) - 1 if starts.size > 1 else None
    offset = 0
    if body_from is not None:
        for _ in range(body_from):
            offset = text.index("\n", offset) + 1
    body = text[offset:] if body_from is not None else ""
    return header, body, starts[1:], counts[1:], header_line, delim


def _ragged(display: str, line: int, fields: int, header: list[str], header_line: int, delim: str) -> InputError:
    return InputError(
        f"File '{display}', line {line}: {fields} field(s) where the header (line {header_line}) has {len(header)}. "
        f"Every row needs one value per column; check for a missing or extra {_delim_name(delim)}."
    )


def _parse_body(
    header: list[str], body: str, line_numbers: np.ndarray, counts: np.ndarray, header_line: int, delim: str,
    display: str, numeric_from: int | None = None,
) -> tuple[list[str], pd.DataFrame]:
    """The body as a DataFrame of stripped strings (the C parser of pandas does the splitting), and the
    header without a trailing empty column. With ``numeric_from``, columns from that one on come back
    as floats when they all parse as numbers."""
    bad = np.flatnonzero(counts != len(header))
    trailing = header[-1] == "" and len(header) > 1
    if bad.size and not trailing:
        i = int(bad[0])
        raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim)
    common = dict(sep=delim, header=None, engine="c", skip_blank_lines=True, skipinitialspace=True,
                  quotechar='"', encoding="utf-8")
    body_bytes = body.encode("utf-8")  # the C parser reads bytes: 1 byte per ASCII character, not 4
    grid = None
    if numeric_from is not None and not trailing:
        # Fast path for large wide tables: let the C parser read the numbers directly. Anything it
        # cannot read as a number sends the table down the string path, which names the bad cell.
        fast = pd.read_csv(
            io.BytesIO(body_bytes), dtype={0: str}, keep_default_na=False,
            na_values={j: _NA_VALUES for j in range(numeric_from, len(header))},  # never a data-set name
            **common,
        )
        scores = fast.iloc[:, numeric_from:]
        if fast.shape[1] == len(header) and all(pd.api.types.is_float_dtype(t) or pd.api.types.is_integer_dtype(t)
                                                for t in scores.dtypes):
            grid = fast
            grid[0] = grid[0].fillna("").astype(str).str.strip()
    if grid is None:
        grid = pd.read_csv(io.BytesIO(body_bytes), dtype=str, keep_default_na=False, na_filter=False, **common)
        grid = grid.apply(lambda col: col.str.strip())
    if len(grid) != line_numbers.size:
        raise InputError(
            f"File '{display}': the rows could not be told apart consistently ({len(grid)} rows read, "
            f"{line_numbers.size} records found); check the quoting of the file."
        )
    # A trailing delimiter on every line makes an empty last column: not data.
    if trailing and grid.shape[1] == len(header) and (grid.iloc[:, -1] == "").all():
        header, grid = header[:-1], grid.iloc[:, :-1]
    elif bad.size:
        i = int(bad[0])
        raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim)
    grid.columns = range(grid.shape[1])
    return header, grid


def _looks_long(header: list[str], classifier_col: str | None, score_col: str | None) -> bool:
    lowered = [h.strip().lower() for h in header]
    return bool(
        (classifier_col in header or any(h in _CLASSIFIER_NAMES for h in lowered))
        and (score_col in header or any(h in _SCORE_NAMES for h in lowered))
    )


def _delim_name(delim: str) -> str:
    return {"\t": "tab", ";": "semicolon", ",": "comma", "|": "pipe"}.get(delim, repr(delim))


def _parse_scores(
    columns: dict[str, pd.Series], locate, display: str, decimal: str | None, notes: list[str]
) -> dict[str, np.ndarray]:
    """Parse columns of score strings into floats (NaN = a missing-value token), vectorized.

    Numbers are parsed by pandas; only the cells it cannot read are looked at again: missing-value
    tokens, decimal commas and percent signs. ``locate(row, column)`` names a cell in messages.
    """
    parsed, failed = {}, {}
    for name, col in columns.items():
        num = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float, copy=True)
        parsed[name] = num
        idx = np.flatnonzero(np.isnan(num))
        if idx.size:
            raw = col.iloc[idx]
            keep = ~raw.str.lower().isin(_MISSING_TOKENS).to_numpy()
            failed[name] = (idx[keep], raw[keep])
    if decimal is None:
        comma = []
        for name, (idx, raw) in failed.items():
            hit = raw.str.match(_COMMA_DECIMAL).to_numpy(dtype=bool)
            if hit.any():
                first = int(np.flatnonzero(hit)[0])
                comma.append((name, idx[first], raw.iloc[first]))
        decimal = "," if comma else "."
        if comma:
            dotted = next(
                ((name, v) for name, col in columns.items() for v in col[col.str.contains(".", regex=False)].head(1)
                 if _DOT_DECIMAL.match(v)),
                None,
            )
            if dotted is not None:
                name, i, v = comma[0]
                raise InputError(
                    f"File '{display}': numbers mix decimal points and decimal commas (e.g. {locate(i, name)}: '{v}' "
                    f"and '{dotted[1]}'). Use one decimal separator throughout."
                )
            notes.append(f"Read decimal commas: '{comma[0][2]}' was read as {comma[0][2].replace(',', '.')}.")
    percent_seen = 0
    example = None
    bad: list[str] = []
    n_bad = 0
    for name, (idx, raw) in failed.items():
        fixed = raw
        pct = fixed.str.endswith("%").to_numpy()
        if pct.any():
            percent_seen += int(pct.sum())
            example = example or fixed[pct].iloc[0]
            fixed = fixed.where(~pct, fixed.str[:-1].str.strip())
        if decimal == ",":
            fixed = fixed.str.replace(",", ".", regex=False)
        again = pd.to_numeric(fixed, errors="coerce").to_numpy(dtype=float)
        parsed[name][idx] = again
        failed_here = np.flatnonzero(np.isnan(again))
        n_bad += failed_here.size
        for pos in failed_here[: max(0, _MAX_LISTED - len(bad))]:
            bad.append(f"{locate(idx[pos], name)}: {raw.iloc[pos]!r}")
    if percent_seen:
        notes.append(f"Removed percent signs from {percent_seen} cell(s) (e.g. '{example}' read as {example[:-1]}).")
    if n_bad:
        raise InputError(
            f"File '{display}': {n_bad} cell(s) are not numbers: {_count_listing(bad, n_bad)}. Every score must be a "
            "number; fix these cells (or leave them empty and choose a missing-data policy)."
        )
    return parsed


def load_scores(
    source: Any,
    *,
    higher_is_better: bool = True,
    layout: str = "auto",
    missing: str = "error",
    name: str | None = None,
    sep: str | None = None,
    decimal: str | None = None,
    dataset_col: str | None = None,
    classifier_col: str | None = None,
    score_col: str | None = None,
    max_cells: int | None = None,
    max_classifiers: int | None = None,
) -> ScoreTable:
    """Load a score table from a CSV/TSV file, bytes, text or file object.

    Parameters
    ----------
    source : path, bytes, str or file-like
        A ``str`` containing a newline is read as the table's text (pasted data).
    higher_is_better : bool
        Direction of the scores (True: accuracy, AUC; False: error, loss).
    layout : {"auto", "wide", "long"}
        "wide": first column = data sets, one column per classifier. "long": a data-set, a classifier
        and a score column, optionally repetition/fold columns. "auto" picks "long" when the header
        names a classifier column (classifier/algorithm/method/model) and a score column.
    missing : {"error", "drop-datasets", "drop-classifiers"}
        Policy for missing cells (see :class:`ScoreTable`).
    name : str, optional
        Name of the source used in messages (defaults to the file name).
    sep, decimal : str, optional
        Force the delimiter (default: detected among tab, semicolon, comma, pipe) or the decimal
        separator (default: detected; decimal commas are read and recorded in the notes).
    dataset_col, classifier_col, score_col : str, optional
        Column names of a long table when they are not recognised automatically.
    max_cells, max_classifiers : int, optional
        Refuse, as early as the size is known and before the heavy work, a table with more scores
        (data sets x classifiers) or more classifiers than this (the dashboard's limits).

    Cost grows linearly with the size of the file: records are found in one pass (vectorized over the
    bytes when the file has no quote characters, else one streaming pass of the csv module that keeps
    two integers per record), the cells are parsed by pandas' C parser, and every check is vectorized;
    messages name at most a few cells ("and N more").
    """
    if layout not in LAYOUTS:
        raise InputError(f"layout={layout!r} is not known; choose one of {', '.join(LAYOUTS)}.")
    sep = _check_sep(sep)
    text, display = _read_text(source, name)
    header, body, line_numbers, counts, header_line, delim = _split_text(text, display, sep)
    del text
    notes: list[str] = []
    if len(header) < 2:
        raise InputError(
            f"File '{display}' has a single column (header: {header[0]!r}). Expected the data-set names in the first "
            "column and one column per classifier, separated by commas, semicolons or tabs."
        )
    if delim != ",":
        notes.append(f"Columns are separated by {_delim_name(delim)}s.")
    if not line_numbers.size:
        raise InputError(f"File '{display}' has a header but no data rows. Add one row per data set.")
    is_long = layout == "long" or (layout == "auto" and _looks_long(header, classifier_col, score_col))
    limits = (max_cells, max_classifiers)
    if not is_long:
        _check_size(display, line_numbers.size, len(header) - 1, *limits)
    numeric_from = None if is_long or decimal == "," else 1
    header, grid = _parse_body(header, body, line_numbers, counts, header_line, delim, display, numeric_from)
    del body
    if is_long:
        return _build_long(
            header, grid, line_numbers, display, notes, higher_is_better, missing, decimal, dataset_col,
            classifier_col, score_col, limits,
        )
    return _build_wide(header, grid, line_numbers, display, notes, higher_is_better, missing, decimal)


def _check_size(display: str, n: int, k: int, max_cells: int | None, max_classifiers: int | None) -> None:
    if max_classifiers is not None and k > max_classifiers:
        raise InputError(
            f"File '{display}' has {k:,} classifiers; this app compares at most {max_classifiers:,}. Keep the "
            "classifiers you want to compare, or use compare_lib in a notebook for larger tables."
        )
    if max_cells is not None and n * k > max_cells:
        raise InputError(
            f"File '{display}' holds {n:,} data sets x {k:,} classifiers = {n * k:,} scores; this app accepts up to "
            f"{max_cells:,} scores (e.g. 20,000 data sets x 50 classifiers). Keep fewer data sets or classifiers, or "
            "use compare_lib.load_scores in a notebook for larger tables."
        )


def _build_wide(header, grid, line_numbers, display, notes, higher_is_better, missing, decimal) -> ScoreTable:
    classifiers = header[1:]
    names = grid[0]
    columns = {c: grid[j + 1] for j, c in enumerate(classifiers)} if len(set(classifiers)) == len(classifiers) else None
    if columns is None:
        # Duplicate classifier names: let ScoreTable report them with their column numbers.
        frame = pd.DataFrame(grid.iloc[:, 1:].to_numpy(), index=names.to_numpy(), columns=classifiers)
        return ScoreTable(frame, higher_is_better, missing=missing, source=display, notes=tuple(notes))

    def locate(i, column):
        return f"line {line_numbers[i]} (data set '{names.iloc[i]}'), column '{column}'"

    if all(pd.api.types.is_numeric_dtype(col) for col in columns.values()):
        parsed = {c: col.to_numpy(dtype=float) for c, col in columns.items()}  # read by the C parser already
    else:
        parsed = _parse_scores(columns, locate, display, decimal, notes)
    frame = pd.DataFrame(parsed, index=names.to_numpy())
    return ScoreTable(frame, higher_is_better, missing=missing, source=display, notes=tuple(notes),
                      row_labels=RowLabels(line_numbers, "line"))


def _find_column(header: list[str], explicit: str | None, synonyms: set[str], what: str, display: str) -> int:
    if explicit is not None:
        if explicit not in header:
            raise InputError(f"File '{display}': no column named {explicit!r} for the {what}; the header is {header}.")
        return header.index(explicit)
    for j, h in enumerate(header):
        if h.strip().lower() in synonyms:
            return j
    raise InputError(
        f"File '{display}' looks like a long table but has no {what} column (looked for "
        f"{', '.join(sorted(synonyms))}); the header is {header}. Name the column, or pass it explicitly."
    )


def _maybe_integers(values: pd.Series) -> np.ndarray:
    """Fold identifiers as integers when they all are (so that they sort 0, 1, 2, ..., 10)."""
    numbers = pd.to_numeric(values, errors="coerce")
    if numbers.notna().all() and (numbers == np.round(numbers)).all():
        return numbers.astype(np.int64).to_numpy()
    return values.to_numpy()


def _build_long(
    header, grid, line_numbers, display, notes, higher_is_better, missing, decimal, dataset_col, classifier_col,
    score_col, limits=(None, None),
) -> ScoreTable:
    j_data = _find_column(header, dataset_col, _DATASET_NAMES, "data-set", display)
    j_clf = _find_column(header, classifier_col, _CLASSIFIER_NAMES, "classifier", display)
    j_score = _find_column(header, score_col, _SCORE_NAMES, "score", display)
    if limits != (None, None):
        _check_size(display, len(pd.unique(grid[j_data].to_numpy())), len(pd.unique(grid[j_clf].to_numpy())), *limits)
    fold_cols = [
        j for j, h in enumerate(header) if j not in (j_data, j_clf, j_score) and h.strip().lower() in _FOLD_NAMES
    ]
    size_cols = [j for j, h in enumerate(header) if h.strip().lower() in _SIZE_NAMES]
    ignored = [h for j, h in enumerate(header) if j not in (j_data, j_clf, j_score, *fold_cols, *size_cols)]
    if ignored:
        notes.append(f"Ignored column(s) {', '.join(repr(h) for h in ignored)} of the long table.")
    datasets_col, clf_col = grid[j_data], grid[j_clf]
    lines = line_numbers
    for col, j, what in ((datasets_col, j_data, "data-set name"), (clf_col, j_clf, "classifier name")):
        empty = np.flatnonzero((col == "").to_numpy())
        if empty.size:
            raise InputError(f"File '{display}', line {lines[empty[0]]}: the {what} (column '{header[j]}') is empty.")

    def locate(i, _column):
        return f"line {lines[i]} (data set '{datasets_col.iloc[i]}', classifier '{clf_col.iloc[i]}')"

    values = _parse_scores({header[j_score]: grid[j_score]}, locate, display, decimal, notes)[header[j_score]]
    inf = np.flatnonzero(np.isinf(values))
    if inf.size:
        cells = [f"{locate(i, None)}: {grid[j_score].iloc[i]!r}" for i in inf[:_MAX_LISTED]]
        raise InputError(
            f"File '{display}': infinite score(s): {_count_listing(cells, inf.size)}. Scores must be finite numbers."
        )
    nan = np.flatnonzero(np.isnan(values))
    na_rows = [locate(i, None) for i in nan[:_MAX_LISTED]]
    if na_rows and missing == "error":
        raise InputError(
            f"File '{display}': {nan.size} missing score(s): {_count_listing(na_rows, nan.size)}. Fill them in, remove "
            "the rows, or choose a missing-data policy."
        )
    fold_names = [header[j] for j in fold_cols]
    folds = pd.DataFrame(
        {
            "dataset": datasets_col.to_numpy(),
            "classifier": clf_col.to_numpy(),
            **{h: _maybe_integers(grid[j]) for h, j in zip(fold_names, fold_cols)},
            "score": values,
            **{header[j]: pd.to_numeric(grid[j], errors="coerce").to_numpy() for j in size_cols},
            "line": lines,
        }
    )
    key = ["dataset", "classifier", *fold_names]
    dup = folds[folds.duplicated(key, keep=False)]
    if fold_names and not dup.empty:
        first = dup.iloc[0]
        where = ", ".join(f"{c}={first[c]!r}" for c in key)
        same = dup[(dup[key] == first[key]).all(axis=1)]["line"].to_numpy()
        raise InputError(
            f"File '{display}': the same {where} appears on lines "
            f"{_count_listing([str(x) for x in same[:_MAX_LISTED]], same.size).replace('; ', ', ')}. "
            "Each repetition/fold may appear once per data set and classifier."
        )
    if na_rows:
        notes.append(f"{nan.size} fold-level row(s) with a missing score were left out of the averages: "
                     f"{_count_listing(na_rows, nan.size)}.")
    present = folds.dropna(subset=["score"])
    datasets = pd.unique(folds["dataset"].to_numpy())  # order of first appearance, vectorized
    classifiers = pd.unique(folds["classifier"].to_numpy())
    grouped = present.groupby(["dataset", "classifier"], sort=False)["score"]
    counts = grouped.size()
    means = grouped.mean().unstack("classifier").reindex(index=datasets, columns=classifiers)
    if counts.max() > 1:
        if counts.nunique() == 1:
            notes.append(f"Averaged {int(counts.iloc[0])} rows per data set and classifier (repetitions/folds).")
        else:
            notes.append(
                f"Averaged repetitions/folds per data set and classifier; the number of rows per cell varies from "
                f"{int(counts.min())} to {int(counts.max())}."
            )
        if not fold_names:
            notes.append("No repetition/fold column was found, so repeated rows of a cell were treated as repetitions.")
    # A cell that has no row at all is missing: the policy decides.
    first_line = folds.drop_duplicates("dataset").set_index("dataset")["line"].reindex(datasets).to_numpy()
    labels = RowLabels(first_line, "first on line")
    folds = folds.drop(columns="line")
    return ScoreTable(
        means.astype(object),
        higher_is_better,
        missing=missing,
        source=display,
        notes=tuple(notes),
        folds=folds if (fold_names or counts.max() > 1) else None,
        row_labels=labels,
    )
