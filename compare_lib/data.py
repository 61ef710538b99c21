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
from .ranks import doubled_rank_sums, rank_scores, win_tie_loss, win_tie_loss_frame

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


def _unique_names(names: Sequence[str]) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """Make repeated names unique by suffixing ' (2)', ' (3)', ...; return the renames per name."""
    seen = Counter(names)
    taken = set(names)
    counts: Counter = Counter()
    out, renamed = [], {}
    for pos, name in enumerate(names):
        counts[name] += 1
        if seen[name] > 1 and counts[name] > 1:
            suffix = counts[name]
            new = f"{name} ({suffix})"
            while new in taken:
                suffix += 1
                new = f"{name} ({suffix})"
            taken.add(new)
            out.append(new)
            renamed.setdefault(name, []).append(pos)
        else:
            out.append(name)
    return out, list(renamed.items())


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
    row_labels: tuple[str, ...] | None = field(default=None, repr=False)

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

    # -- ranks -------------------------------------------------------------------------------
    @cached_property
    def ranks(self) -> pd.DataFrame:
        """Rank of each classifier on each data set (1 = best, ties averaged)."""
        r = rank_scores(self.scores.to_numpy(), higher_is_better=self.higher_is_better)
        return pd.DataFrame(r, index=self.scores.index, columns=self.scores.columns)

    @cached_property
    def doubled_rank_sums(self) -> pd.Series:
        """2 x the rank sum of each classifier, exact integers: the quantity every rank statistic uses."""
        return pd.Series(doubled_rank_sums(self.ranks.to_numpy()), index=self.scores.columns, name="2 x rank sum")

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


def _validate_scores(
    frame: Any, *, missing: str, source: str | None, row_labels: Sequence[str] | None
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
    df = frame.copy()
    df.columns = pd.Index([str(c) for c in df.columns], dtype=object).str.strip()
    df.index = pd.Index([str(i) for i in df.index], dtype=object).str.strip()
    labels = list(row_labels) if row_labels is not None else [f"row {i + 1}" for i in range(len(df))]

    empty_cols = [f"column {j + 2}" for j, c in enumerate(df.columns) if c == ""]
    if empty_cols:
        raise InputError(f"{where}: classifier name missing in {', '.join(empty_cols)}. Give every column a name.")
    dup_cols = [c for c, n in Counter(df.columns).items() if n > 1]
    if dup_cols:
        where_cols = [
            f"'{c}' in columns {', '.join(str(j + 2) for j, x in enumerate(df.columns) if x == c)}" for c in dup_cols
        ]
        raise InputError(
            f"{where}: duplicate classifier name(s): {'; '.join(where_cols)}. "
            "Each classifier must appear once; rename or remove the repeated columns."
        )
    empty_rows = [labels[i] for i, name in enumerate(df.index) if name == ""]
    if empty_rows:
        raise InputError(f"{where}: data-set name missing on {', '.join(empty_rows)}. Give every row a name.")

    # Numeric columns are taken as they are; other columns are read cell by cell so that a message
    # can name the offending cell.
    bad: list[str] = []
    infinite: list[str] = []
    values = np.empty(df.shape, dtype=float)
    for j, col in enumerate(df.columns):
        column = df.iloc[:, j]
        if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
            values[:, j] = column.to_numpy(dtype=float, na_value=np.nan)
            continue
        numeric = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        for i, (raw, num) in enumerate(zip(column.tolist(), numeric)):
            if raw is None or raw is pd.NA or (isinstance(raw, float) and np.isnan(raw)):
                values[i, j] = np.nan
            elif isinstance(raw, str) and raw.strip().lower() in _MISSING_TOKENS:
                values[i, j] = np.nan
            elif np.isnan(num) or isinstance(raw, (bool, np.bool_)):
                bad.append(f"{labels[i]} (data set '{df.index[i]}'), column '{col}': {raw!r}")
                values[i, j] = np.nan
            else:
                values[i, j] = num
    for i, j in zip(*np.nonzero(np.isinf(values))):
        infinite.append(f"{labels[i]} (data set '{df.index[i]}'), column '{df.columns[j]}': {values[i, j]!r}")
    if bad:
        raise InputError(
            f"{where}: {len(bad)} cell(s) are not numbers: {_listing(bad)}. "
            "Every score must be a number; fix these cells (or leave them empty and choose a missing-data policy)."
        )
    if infinite:
        raise InputError(
            f"{where}: {len(infinite)} cell(s) are infinite: {_listing(infinite)}. "
            "Scores must be finite numbers; check how they were computed."
        )

    out = pd.DataFrame(values, index=df.index, columns=df.columns)
    nan_mask = np.isnan(values)
    if nan_mask.any():
        cells = [
            f"{labels[i]} (data set '{out.index[i]}'), column '{out.columns[j]}'" for i, j in zip(*np.nonzero(nan_mask))
        ]
        if missing == "error":
            raise InputError(
                f"{where}: {len(cells)} missing cell(s): {_listing(cells)}. Fill them in, or choose a missing-data "
                "policy: drop the data sets that have a missing cell, or drop the classifiers that have one."
            )
        if missing == "drop-datasets":
            drop = [i for i in range(len(out)) if nan_mask[i].any()]
            notes.append(
                f"Dropped {len(drop)} data set(s) with missing cells: "
                + ", ".join(f"'{out.index[i]}' ({labels[i]})" for i in drop)
                + "."
            )
            keep = [i for i in range(len(out)) if i not in set(drop)]
            out = out.iloc[keep]
            labels = [labels[i] for i in keep]
        else:
            drop_cols = [out.columns[j] for j in range(out.shape[1]) if nan_mask[:, j].any()]
            notes.append(
                f"Dropped {len(drop_cols)} classifier(s) with missing cells: "
                + ", ".join(f"'{c}' ({int(nan_mask[:, list(out.columns).index(c)].sum())} missing)" for c in drop_cols)
                + "."
            )
            out = out.drop(columns=drop_cols)

    if out.shape[1] < 2:
        raise InputError(
            f"{where}: {out.shape[1]} classifier column(s) left ({', '.join(out.columns) or 'none'}); comparing needs "
            "at least 2. A wide file needs the data-set names in the first column and one column per classifier."
        )
    if out.shape[0] < 2:
        raise InputError(
            f"{where}: {out.shape[0]} data set(s) left; comparing classifiers over data sets needs at least 2 rows."
        )

    names, renamed = (list(out.index), []) if out.index.is_unique else _unique_names(list(out.index))
    if renamed:
        for name, positions in renamed:
            lines = [labels[i] for i, n in enumerate(out.index) if n == name]
            new = [names[p] for p in positions]
            notes.append(
                f"Data-set name '{name}' appears {len(lines)} times ({', '.join(lines)}); all rows are kept and the "
                f"repeats were renamed {', '.join(repr(n) for n in new)}. Rename them in the file if they are "
                "different data sets, or remove one if it is a duplicate."
            )
        out.index = names
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


def _detect_delimiter(lines: list[str]) -> str:
    best, best_fields = ",", 1
    for delim in ("\t", ";", ",", "|"):
        counts = {len(row) for row in csv.reader(lines[:50], delimiter=delim)}
        if len(counts) == 1:
            fields = counts.pop()
            if fields > best_fields:
                best, best_fields = delim, fields
    if best_fields == 1:
        # Inconsistent rows: take the delimiter that splits the header most; ragged rows are reported later.
        header = lines[0]
        best = max(("\t", ";", ",", "|"), key=lambda d: len(next(csv.reader([header], delimiter=d))))
    return best


def _field_counts(lines: list[str], delim: str) -> np.ndarray:
    """Number of fields on each line (quote-aware only when the text has quotes: that is slower)."""
    if any('"' in line for line in lines):
        return np.array([len(row) for row in csv.reader(lines, delimiter=delim)])
    return pd.Series(lines, dtype=object).str.count(re.escape(delim)).to_numpy() + 1


def _split_text(text: str, display: str, sep: str | None) -> tuple[list[str], list[str], np.ndarray, int, str]:
    """Header cells, the non-blank body lines with their 1-based file line numbers, the header's line
    number and the delimiter (detected on the first 50 non-blank lines unless given)."""
    lines = text.splitlines()
    kept = [i for i, line in enumerate(lines) if line.strip()]
    if not kept:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    delim = sep or _detect_delimiter([lines[i] for i in kept[:50]])
    header = [c.strip() for c in next(csv.reader([lines[kept[0]]], delimiter=delim))]
    body_lines = [lines[i] for i in kept[1:]]
    return header, body_lines, np.asarray(kept[1:], dtype=int) + 1, kept[0] + 1, delim


def _ragged(display: str, line: int, fields: int, header: list[str], header_line: int, delim: str) -> InputError:
    return InputError(
        f"File '{display}', line {line}: {fields} field(s) where the header (line {header_line}) has {len(header)}. "
        f"Every row needs one value per column; check for a missing or extra {_delim_name(delim)}."
    )


def _parse_body(
    header: list[str], body_lines: list[str], line_numbers: np.ndarray, header_line: int, delim: str, display: str,
    numeric_from: int | None = None,
) -> tuple[list[str], pd.DataFrame]:
    """The body as a DataFrame of stripped strings (the C parser of pandas does the splitting), and the
    header without a trailing empty column. With ``numeric_from``, columns from that one on come back
    as floats when they all parse as numbers."""
    counts = _field_counts(body_lines, delim)
    bad = np.flatnonzero(counts != len(header))
    trailing = header[-1] == "" and len(header) > 1
    if bad.size and not trailing:
        i = int(bad[0])
        raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim)
    body = "\n".join(body_lines)
    grid = None
    if numeric_from is not None and not trailing:
        # Fast path for large wide tables: let the C parser read the numbers directly. Anything it
        # cannot read as a number sends the table down the string path, which names the bad cell.
        fast = pd.read_csv(
            io.StringIO(body), sep=delim, header=None, dtype={0: str}, keep_default_na=False,
            na_values={j: _NA_VALUES for j in range(numeric_from, len(header))},  # never a data-set name
            engine="c", skip_blank_lines=False, skipinitialspace=True,
        )
        scores = fast.iloc[:, numeric_from:]
        if fast.shape[1] == len(header) and all(pd.api.types.is_float_dtype(t) or pd.api.types.is_integer_dtype(t)
                                                for t in scores.dtypes):
            grid = fast
            grid[0] = grid[0].fillna("").astype(str).str.strip()
    if grid is None:
        grid = pd.read_csv(
            io.StringIO(body), sep=delim, header=None, dtype=str, keep_default_na=False,
            na_filter=False, engine="c", skip_blank_lines=False, skipinitialspace=True,
        )
        grid = grid.apply(lambda col: col.str.strip())
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
        comma = [(name, i, v) for name, (idx, raw) in failed.items() for i, v in zip(idx, raw) if _COMMA_DECIMAL.match(v)]
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
        for i, v, value in zip(idx, raw, again):
            if np.isnan(value):
                bad.append(f"{locate(i, name)}: {v!r}")
    if percent_seen:
        notes.append(f"Removed percent signs from {percent_seen} cell(s) (e.g. '{example}' read as {example[:-1]}).")
    if bad:
        raise InputError(
            f"File '{display}': {len(bad)} cell(s) are not numbers: {_listing(bad)}. Every score must be a number; "
            "fix these cells (or leave them empty and choose a missing-data policy)."
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
    """
    if layout not in LAYOUTS:
        raise InputError(f"layout={layout!r} is not known; choose one of {', '.join(LAYOUTS)}.")
    text, display = _read_text(source, name)
    header, body_lines, line_numbers, header_line, delim = _split_text(text, display, sep)
    notes: list[str] = []
    if len(header) < 2:
        raise InputError(
            f"File '{display}' has a single column (header: {header[0]!r}). Expected the data-set names in the first "
            "column and one column per classifier, separated by commas, semicolons or tabs."
        )
    if delim != ",":
        notes.append(f"Columns are separated by {_delim_name(delim)}s.")
    if not body_lines:
        raise InputError(f"File '{display}' has a header but no data rows. Add one row per data set.")
    is_long = layout == "long" or (layout == "auto" and _looks_long(header, classifier_col, score_col))
    numeric_from = None if is_long or decimal == "," else 1
    header, grid = _parse_body(header, body_lines, line_numbers, header_line, delim, display, numeric_from)
    if is_long:
        return _build_long(
            header, grid, line_numbers, display, notes, higher_is_better, missing, decimal, dataset_col,
            classifier_col, score_col,
        )
    return _build_wide(header, grid, line_numbers, display, notes, higher_is_better, missing, decimal)


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
    labels = tuple(f"line {n}" for n in line_numbers)
    return ScoreTable(frame, higher_is_better, missing=missing, source=display, notes=tuple(notes), row_labels=labels)


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
    score_col,
) -> ScoreTable:
    j_data = _find_column(header, dataset_col, _DATASET_NAMES, "data-set", display)
    j_clf = _find_column(header, classifier_col, _CLASSIFIER_NAMES, "classifier", display)
    j_score = _find_column(header, score_col, _SCORE_NAMES, "score", display)
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
        cells = [f"{locate(i, None)}: {grid[j_score].iloc[i]!r}" for i in inf]
        raise InputError(f"File '{display}': infinite score(s): {_listing(cells)}. Scores must be finite numbers.")
    nan = np.flatnonzero(np.isnan(values))
    na_rows = [locate(i, None) for i in nan]
    if na_rows and missing == "error":
        raise InputError(
            f"File '{display}': {len(na_rows)} missing score(s): {_listing(na_rows)}. Fill them in, remove the rows, "
            "or choose a missing-data policy."
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
        raise InputError(
            f"File '{display}': the same {where} appears on lines "
            f"{', '.join(str(x) for x in dup[(dup[key] == first[key]).all(axis=1)]['line'])}. "
            "Each repetition/fold may appear once per data set and classifier."
        )
    if na_rows:
        notes.append(f"{len(na_rows)} fold-level row(s) with a missing score were left out of the averages: {_listing(na_rows)}.")
    present = folds.dropna(subset=["score"])
    datasets = list(dict.fromkeys(folds["dataset"]))
    classifiers = list(dict.fromkeys(folds["classifier"]))
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
    first_line = dict(zip(reversed(folds["dataset"].tolist()), reversed(lines)))
    labels = tuple(f"first on line {first_line[d]}" for d in datasets)
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
