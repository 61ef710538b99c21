"""What a file holds, read but not yet chosen from: :class:`Results`.

A results file may hold several metrics, folds, seeds or repeated runs. :class:`Results` keeps them as
they are and says what it found (:attr:`Results.metrics`, :attr:`Results.columns`, :attr:`Results.notes`);
:meth:`Results.table` then builds the :class:`~compare_lib.core._table.ScoreTable` of one metric, aggregated
over the runs of each data set and classifier, with the direction given, or else looked up in the direction
catalogue by the metric's name (recorded as a guess, with its reason) and refused when the catalogue does not
know it.
Nothing is chosen silently: with several metrics and none asked for, :meth:`Results.table` refuses and
lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from compare_lib.core._table import _SHARED_SCORES, MISSING_POLICIES, ScoreTable
from compare_lib.core._table_validation import RowLabels, _count_listing
from compare_lib.core._validation import MAX_LISTED, check_choice
from compare_lib.errors import InputError, arg
from compare_lib.io._direction import infer_direction

#: Significant digits an averaged cell keeps: runs whose true means are equal (0.81, 0.80, 0.82 and three
#: times 0.81) then get equal cells, instead of ranks decided by floating-point noise (0.8099999999999999).
CELL_DIGITS = 12


def _without_float_noise(x: np.ndarray) -> np.ndarray:
    """``x`` rounded to :data:`CELL_DIGITS` significant digits (vectorized; zeros and NaN unchanged)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = np.floor(np.log10(np.abs(x)))
        scale = np.where(np.isfinite(exponent), 10.0 ** (CELL_DIGITS - 1 - exponent), 1.0)
        return np.where(np.isfinite(exponent), np.round(x * scale) / scale, x)


#: How the runs of one data set and classifier become its cell.
AGGREGATES = ("mean", "median")
#: Metrics a message does not offer as the example of what to compare (costs, not scores).
_NOT_AN_EXAMPLE = re.compile(r"time|duration|latency|memory|energy|seconds|size|count", re.I)


def _example_metric(metrics) -> str:
    """The metric a message offers as an example: a scikit-learn test score, else the first that is not a cost
    (fit_time, score_time...), else the first."""
    names = [m for m in metrics if m is not None]
    return (next((m for m in names if str(m).startswith("test_")), None)
            or next((m for m in names if not _NOT_AN_EXAMPLE.search(str(m))), None) or metrics[0])


def _recorded(method):
    """:meth:`Results.table` that records in the table's ``provenance`` how it was made (the file as read, the
    metric asked for, the direction, the missing-data policy, the aggregation), for the reproducing script."""
    import functools
    import inspect

    signature = inspect.signature(method)

    @functools.wraps(method)
    def table(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        record = getattr(self, "_provenance", None)
        if record is not None and isinstance(out, ScoreTable):
            from compare_lib.core._provenance import with_table

            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            given = bound.arguments
            # the table is new and not yet shared: recording its provenance changes nothing else
            object.__setattr__(out, "provenance", with_table(record, given.get("metric"), out.higher_is_better,
                                                             given.get("missing", "error"),
                                                             given.get("aggregate", "mean")))
        return out

    return table


def int32_if_fits(ints: np.ndarray) -> np.ndarray:
    """``ints`` in 32 bits when every value fits, else as they are: integers kept with a read file's rows, which live
    as long as the session that read it (issue 31)."""
    info = np.iinfo(np.int32)
    return ints.astype(np.int32) if ints.size and info.min <= int(ints.min()) and int(ints.max()) <= info.max else ints


class LineNumbers:
    """The place in the source (a line, a sheet's row) of each row a file's reader kept, for messages: only the
    first when the rows are consecutive lines (a file without blank or skipped lines), else the numbers, in 32 bits
    when they fit. Indexed like the array of the numbers (an integer, positions, a mask, a slice).

    Why (issue 31): the rows live as long as the session that read the file, and a number per row was 0.93 MB of a
    10 MB fold-level upload (232,500 rows)."""

    __slots__ = ("start", "numbers", "size")

    def __init__(self, lines) -> None:
        lines = np.asarray(lines, dtype=np.int64)
        self.size = len(lines)
        consecutive = self.size > 0 and bool((np.diff(lines) == 1).all())
        self.start = int(lines[0]) if consecutive else 0
        self.numbers: np.ndarray | None = None if consecutive else int32_if_fits(lines)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index):
        if self.numbers is not None:
            return self.numbers[index]
        if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
            i = int(index)
            if not -self.size <= i < self.size:
                raise IndexError(f"row {i} of {self.size}")
            return self.start + i % self.size
        positions = np.asarray(index)
        if positions.dtype.kind in "iu":  # positions: no array of every row's number
            if positions.size and (positions.min() < -self.size or positions.max() >= self.size):
                raise IndexError(f"a row beyond the {self.size} rows")
            return self.start + np.where(positions < 0, positions + self.size, positions).astype(np.int64)
        return self.start + np.arange(self.size)[index]  # a mask or a slice

    def to_numpy(self) -> np.ndarray:
        return self.numbers if self.numbers is not None else self.start + np.arange(self.size)


@dataclass(frozen=True, eq=False)
class _Metric:
    """One metric of a long/tidy/sklearn file: its rows, values and (deferred) problems."""

    name: str
    positions: np.ndarray | None  # rows of the row frame holding this metric (None: every row)
    values: np.ndarray  # floats aligned with the rows (NaN: missing)
    raw: pd.Series | None = field(default=None, repr=False)  # the cells' source text, for messages
    error: str | None = None  # cells that are not numbers: raised when the metric is asked for


@dataclass(frozen=True, eq=False)
class _Wide:
    """The one metric of a wide table."""

    names: np.ndarray  # data-set names (object)
    classifiers: list[str]
    values: np.ndarray | None  # n x k floats, or None when the table can only be refused
    lines: np.ndarray
    frame_for_errors: pd.DataFrame | None = None  # duplicate classifier names: ScoreTable reports them


class Results:
    """The contents of a results file: one or more metrics of k classifiers on N data sets.

    Built by :func:`compare_lib.io.read_results`. Attributes:

    ``metrics``
        The metrics, in file order (a column name of a long file, ``test_roc_auc`` of a scikit-learn
        export, a value of the ``metric`` column of a tidy file; for a wide table the one metric, named
        after the file when its name says, e.g. ``error_rates``, else None).
    ``datasets``, ``classifiers``
        Names in order of first appearance.
    ``has_folds``
        True when some data set and classifier have several rows (folds, seeds, runs).
    ``notes``
        What reading did (a tuple of sentences).
    ``format``, ``layout``
        How the file was read ("csv", "latex", ...) and laid out ("wide", "long", "tidy", "sklearn").
    ``columns``
        Which source column plays which role: ``dataset``, ``classifier``, ``folds``, ``metrics`` (long,
        sklearn) or ``metric`` and ``value`` (tidy), ``sizes``, ``ignored``.
    ``source``
        The file's name as used in messages.
    """

    _provenance: Any  # set by read_results (where and how the file was read); absent on a Results built directly

    def __init__(self, *, source: str, format: str, layout: str, columns: dict, notes, metrics: list,
                 wide: _Wide | None = None, rows: pd.DataFrame | None = None, keys: list[str] | None = None,
                 sizes: list[str] | None = None, metric_data: dict[str, _Metric] | None = None,
                 metric_from_file: bool = False, row_word: str = "line", sheet: str | None = None,
                 has_folds: bool = False, lines: LineNumbers | None = None):
        self.source = source
        self.format = format
        self.layout = layout
        self.columns = columns
        self.notes = tuple(n[:1].upper() + n[1:] for n in notes)  # the readers write notes as clauses
        self.metrics = list(metrics)
        self.has_folds = bool(has_folds)
        self._wide = wide
        self._rows = rows
        # the place of each row in the source, for messages (rows 1, 2, ... when the caller gives none)
        self._lines = lines if lines is not None else LineNumbers(np.arange(1, (0 if rows is None else len(rows)) + 1))
        self._keys = list(keys or [])
        self._sizes = list(sizes or [])
        self._metric_data = metric_data or {}
        self._metric_from_file = metric_from_file
        self._row_word = row_word
        self._sheet = sheet
        if wide is not None:
            self.datasets = [str(x) for x in wide.names]
            self.classifiers = list(wide.classifiers)
        else:
            if rows is None:
                raise TypeError("Results needs a wide table or the rows of a long one")
            # In order of first appearance, from the categories: an array of the names per row would make a Python
            # string per row from pandas' Arrow strings (issue 31: 27 MB for 232,500 rows, the peak of a read).
            self.datasets = [str(x) for x in pd.unique(rows["dataset"])]
            self.classifiers = [str(x) for x in pd.unique(rows["classifier"])]

    def __repr__(self) -> str:
        return (f"Results(source={self.source!r}, format={self.format!r}, layout={self.layout!r}, "
                f"metrics={self.metrics!r}, datasets={len(self.datasets)}, classifiers={len(self.classifiers)}, "
                f"has_folds={self.has_folds})")

    # -- choosing a metric ---------------------------------------------------------------------
    def _metric(self, metric: str | None) -> str | None:
        if metric is None:
            if len(self.metrics) > 1:
                raise InputError(
                    f"File '{self.source}': the file has {len(self.metrics)} metrics: {', '.join(map(str, self.metrics))}; "
                    f"say which one to compare with {arg('metric')} (e.g. "
                    f"{arg('metric', _example_metric(self.metrics))})."
                )
            if not self.metrics:
                raise InputError(f"File '{self.source}' has no metric column.")
            return self.metrics[0]
        if metric in self.metrics:
            return metric
        named = [m for m in self.metrics if m is not None]
        if not named:
            raise InputError(
                f"File '{self.source}': {arg('metric', metric)} is not in the file: it is a wide table of one unnamed "
                f"metric; leave out {arg('metric', bare=True)}."
            )
        raise InputError(
            f"File '{self.source}': {arg('metric', metric)} is not in the file; it has {len(self.metrics)} metric(s): "
            f"{', '.join(map(str, self.metrics))}."
        )

    def direction(self, metric: str | None = None) -> bool | None:
        """True when a higher score of ``metric`` is better, False when lower is, None when unknown: looked up
        in the direction catalogue by the metric's name (:func:`compare_lib.guess_direction`); the file's
        name never decides (it may only name a wide table's one metric)."""
        return self._direction(metric)[0]

    def direction_reason(self, metric: str | None = None) -> str:
        """Why :meth:`direction` says what it says ("lower is better: 'wer' is word error rate (ASR, Hugging Face
        evaluate)")."""
        return self._direction(metric)[1]

    def _direction(self, metric: str | None) -> tuple[bool | None, str]:
        name = self._metric(metric)
        return infer_direction(name, self.source, metric_from_file=self._metric_from_file)

    # -- rows -----------------------------------------------------------------------------------
    def fold_rows(self, metric: str | None = None) -> pd.DataFrame:
        """The rows of ``metric`` as in the file: columns ``dataset``, ``classifier``, the repetition key
        columns (fold, seed, ...), ``score`` and the size columns (n_train, n_test) when the file has
        them. For a wide table: one row per cell (dataset, classifier, score). Integer keys are int32 when they fit,
        else int64."""
        name = self._metric(metric)
        if self._wide is not None:
            w = self._wide
            if w.values is None:
                self._wide_table(name, True, "error", [])  # raises the reason
                raise AssertionError("a wide table without values is refused by ScoreTable")
            n, k = w.values.shape
            return pd.DataFrame({"dataset": np.repeat(w.names, k), "classifier": np.tile(np.array(w.classifiers, dtype=object), n),
                                 "score": w.values.reshape(-1)})
        all_rows, m = self._long(name)
        rows = all_rows if m.positions is None else all_rows.iloc[m.positions]
        return self._fold_frame(rows, m.values)

    def _long(self, name: str | None) -> tuple[pd.DataFrame, _Metric]:
        """The row frame of a long, tidy or sklearn file and the data of its metric ``name`` (refused when the
        metric's cells are not all numbers)."""
        if self._rows is None or name is None:  # a file with rows names all its metrics
            raise TypeError("a wide table has no rows of metrics")
        m = self._metric_data[name]
        if m.error:
            raise InputError(m.error)
        return self._rows, m

    def _fold_frame(self, rows: pd.DataFrame, values: np.ndarray) -> pd.DataFrame:
        # The names stay categories (sorted, as the read rows keep them): a table's fold rows live as long as its
        # session, and as strings they were the largest thing a fold-level upload kept (issue 31: 9.2 MB of 12.9 for
        # 232,500 rows; 0.7 MB as categories). Sorted categories group, sort and compare as the strings did.
        # The run keys, the scores and the sizes are the read rows' own arrays, not copies (issue 31: 3.7 MB of the
        # 4.4 a table of 232,500 fold rows added to its read file): read-only, so that neither can change the other.
        columns = {k: rows[k].to_numpy() for k in self._keys}
        columns["score"] = values
        columns.update({s: rows[s].to_numpy() for s in self._sizes})
        for array in columns.values():
            array.flags.writeable = False
        return pd.DataFrame({"dataset": _categories(rows["dataset"]), "classifier": _categories(rows["classifier"]),
                             **columns}, copy=False)

    # -- the table ------------------------------------------------------------------------------
    @_recorded
    def table(self, metric: str | None = None, *, higher_is_better: bool | None = None, missing: str = "error",
              aggregate: str = "mean") -> ScoreTable:
        """The :class:`ScoreTable` of one metric (data sets x classifiers).

        ``metric``: which one (required when the file has several). ``higher_is_better``: the direction
        (stated); None looks it up in the direction catalogue by the metric's name (:meth:`direction`; the
        table records it as guessed, with the reason) and refuses, with an :class:`InputError` saying how to
        state it, a metric the catalogue does not know. ``missing``: the missing-data policy ("error",
        "drop-datasets", "drop-classifiers", "pairwise"). ``aggregate``: "mean" or "median" of the runs
        (folds, seeds, repetitions) of each data set and classifier. The notes say how the cells were made
        and what was dropped or kept.
        """
        name = self._metric(metric)
        check_choice(missing, MISSING_POLICIES, "missing", verb="is not a policy")
        check_choice(aggregate, AGGREGATES, "aggregate")
        notes = list(self.notes)
        direction: tuple[bool, str | None] = (True, None)  # stated by the caller
        unknown = None
        if higher_is_better is None:
            better, reason = infer_direction(name, self.source, metric_from_file=self._metric_from_file)
            if better is None:  # refused below, after the cells' own problems (they come first)
                unknown, better, reason = reason, True, "unknown"
            higher_is_better, direction = better, (False, reason)
        if self._wide is not None:
            table = self._wide_table(name, higher_is_better, missing, notes, direction)
        else:
            table = self._rows_table(name, higher_is_better, missing, aggregate, notes, direction)
        if unknown is not None:
            raise InputError(self._unknown_direction(name, unknown))
        return table

    def _unknown_direction(self, name: str | None, reason: str) -> str:
        if name is None:
            said = ("the table's one metric has no name (neither the file's name nor a caption names it), so nothing "
                    "says whether a higher or a lower score is better")
        else:
            why = reason[len("unknown: "):] if reason.startswith("unknown: ") else reason
            said = f"nothing says whether a higher or a lower value of the metric '{name}' is better ({why})"
        return (f"File '{self.source}': {said}. State it: {arg('higher_is_better', True)} if higher is better, "
                f"{arg('higher_is_better', False)} if lower is better.")

    def _wide_table(self, name, higher_is_better, missing, notes, direction=(True, None)) -> ScoreTable:
        w = self._wide
        if w is None:
            raise TypeError("a long table has no wide grid")
        stated, reason = direction
        if w.values is None:
            return ScoreTable(w.frame_for_errors, higher_is_better, missing=missing, source=self.source,
                              notes=tuple(notes), metric=name, direction_stated=stated, direction_reason=reason)
        # The grid is this object's own and never written: the table uses it in place (issue 31).
        # The names as objects, not pandas' text type, so that the table's index holds these very strings.
        frame = pd.DataFrame(w.values, index=pd.Index(w.names, dtype=object, copy=False), columns=w.classifiers,
                             copy=False)
        token = _SHARED_SCORES.set(True)
        try:
            return ScoreTable(frame, higher_is_better, missing=missing, source=self.source, notes=tuple(notes),
                              row_labels=RowLabels(w.lines, self._place("")), metric=name, direction_stated=stated,
                              direction_reason=reason)
        finally:
            _SHARED_SCORES.reset(token)

    def _place(self, before: str) -> str:
        word = f"{before}{self._row_word}" if not before else f"{before} {self._row_word}"
        return f"sheet '{self._sheet}', {word}" if self._sheet else word

    def _rows_table(self, name, higher_is_better, missing, aggregate, notes, direction=(True, None)) -> ScoreTable:
        all_rows, m = self._long(name)
        rows = all_rows if m.positions is None else all_rows.iloc[m.positions].reset_index(drop=True)
        values = m.values
        lines = self._lines if m.positions is None else self._lines[m.positions]
        ds, clf = rows["dataset"], rows["classifier"]
        several = len(self.metrics) > 1
        place = self._place("")

        def locate(i) -> str:
            extra = f", metric '{name}'" if several else ""
            return f"{place} {lines[i]} (data set '{ds.iloc[i]}', classifier '{clf.iloc[i]}'{extra})"

        inf = np.flatnonzero(np.isinf(values))
        if inf.size:
            cells = [f"{locate(i)}: {(m.raw.iloc[i] if m.raw is not None else str(values[i]))!r}" for i in inf[:MAX_LISTED]]
            raise InputError(
                f"File '{self.source}': infinite score(s): {_count_listing(cells, inf.size)}. Scores must be finite numbers."
            )
        nan = np.flatnonzero(np.isnan(values))
        na_rows = [locate(i) for i in nan[:MAX_LISTED]]
        if na_rows and missing == "error":
            raise InputError(
                f"File '{self.source}': {nan.size} missing score(s): {_count_listing(na_rows, nan.size)}. Fill them in, "
                f"remove the rows, or choose a missing-data policy ({arg('missing')})."
            )
        keys = self._keys
        folds = self._fold_frame(rows, values)
        key = ["dataset", "classifier", *keys]
        if keys:
            dup_mask = _repeated(folds, key)
            if dup_mask.any():
                dup = folds[dup_mask]
                first = dup.iloc[0]
                where = ", ".join(f"{c} {first[c]!r}" for c in key)  # the file's columns, not arguments
                same = lines[np.flatnonzero(dup_mask)[(dup[key] == first[key]).all(axis=1).to_numpy()]]
                raise InputError(
                    f"File '{self.source}': the same {where} appears on {self._row_word}s "
                    f"{_count_listing([str(x) for x in same[:MAX_LISTED]], same.size).replace('; ', ', ')}. "
                    "Each repetition/fold may appear once per data set and classifier."
                )
        if na_rows:
            notes.append(f"{nan.size} fold-level row(s) with a missing score were left out of the "
                         f"{'averages' if aggregate == 'mean' else 'medians'}: {_count_listing(na_rows, nan.size)}.")
        ds_codes, datasets = _factorize_names(ds)
        clf_codes, classifiers = _factorize_names(clf)
        k = len(classifiers)
        cell = ds_codes.astype(np.int64) * k + clf_codes
        present = ~np.isnan(values)
        grouped = pd.Series(values[present]).groupby(cell[present], sort=True)
        agg = grouped.mean() if aggregate == "mean" else grouped.median()
        agg = pd.Series(_without_float_noise(agg.to_numpy()), index=agg.index)
        counts = np.bincount(cell[present], minlength=len(datasets) * k)
        grid: np.ndarray = np.full(len(datasets) * k, np.nan)
        grid[agg.index.to_numpy()] = agg.to_numpy()
        grid = grid.reshape(len(datasets), k)
        notes.extend(self._cell_notes(counts[counts > 0], aggregate))
        if keys:
            notes.extend(self._missing_runs(folds, cell, ds_codes, k, aggregate))
        first_index = np.unique(ds_codes, return_index=True)[1]
        labels = RowLabels(lines[first_index], self._place("first on"))
        holes = np.flatnonzero(counts == 0)
        if holes.size and missing == "error":
            raise InputError(self._holes_message(holes, k, datasets, classifiers, labels))
        frame = pd.DataFrame(grid, index=np.asarray(datasets, dtype=object), columns=np.asarray(classifiers, dtype=object))
        multi = bool(keys) or (counts.size and counts.max() > 1)
        return ScoreTable(frame, higher_is_better, missing=missing, source=self.source, notes=tuple(notes),
                          folds=folds if multi else None, row_labels=labels, metric=name,
                          direction_stated=direction[0], direction_reason=direction[1])

    def _runs_word(self) -> str:
        lowered = [k.lower() for k in self._keys]
        if not lowered:
            return "repetitions"
        if len(lowered) == 1:
            word = lowered[0]
            if "fold" in word or "split" in word:
                return "folds"
            if "seed" in word:
                return "seeds"
        return "runs"

    def _cell_notes(self, counts: np.ndarray, aggregate: str) -> list[str]:
        if not counts.size or (counts.max() <= 1 and not self._keys):
            return []
        what = "repetitions/folds" if not self._keys else "/".join(self._keys)
        noun = self._runs_word()
        verb = "Averaged" if aggregate == "mean" else "Took the median of"
        if counts.min() == counts.max():
            c = int(counts[0])
            notes = [f"{verb} {c} rows per data set and classifier ({what}): each cell is the {aggregate} of "
                     f"{c} {noun if c > 1 else noun.rstrip('s')}."]
        else:
            lead = "Averaged" if aggregate == "mean" else "Took the median of the"
            notes = [f"{lead} repetitions/folds per data set and classifier; the number of rows per cell varies from "
                     f"{int(counts.min())} to {int(counts.max())}: each cell is the {aggregate} of the {noun} it has."]
        if not self._keys and counts.max() > 1:
            notes.append("No repetition/fold column was found, so repeated rows of a cell were treated as repetitions.")
        return notes

    def _missing_runs(self, folds: pd.DataFrame, cell: np.ndarray, ds_codes: np.ndarray, n_clf: int,
                      aggregate: str) -> list[str]:
        """A note naming the runs (fold/seed values) that a data set has for some classifiers and not for
        others: the rows the file lacks. Vectorized; only the few runs named are looked up."""
        if len(self._keys) == 1:
            key_codes = pd.factorize(folds[self._keys[0]].to_numpy())[0].astype(np.int64)
        else:
            key_codes = folds.groupby(self._keys, sort=False, dropna=False).ngroup().to_numpy().astype(np.int64)
        n_keys = int(key_codes.max()) + 1
        n_ds = int(ds_codes.max()) + 1
        combined = ds_codes.astype(np.int64) * n_keys + key_codes
        if n_ds * n_keys <= 50_000_000:
            ds_key = np.flatnonzero(np.bincount(combined, minlength=n_ds * n_keys))
        else:
            ds_key = np.unique(combined)
        keys_per_ds = np.bincount(ds_key // n_keys, minlength=n_ds)
        rows_per_cell = np.bincount(cell, minlength=n_ds * n_clf)
        cells = np.flatnonzero(rows_per_cell)
        rows_per_cell = rows_per_cell[cells]
        deficit = keys_per_ds[cells // n_clf] - rows_per_cell
        total = int(deficit[deficit > 0].sum())
        if not total:
            return []
        named: list[str] = []
        for c in cells[deficit > 0][:MAX_LISTED]:
            d = int(c // n_clf)
            in_ds = np.unique(key_codes[ds_codes == d])
            have = key_codes[cell == c]
            first = folds.iloc[int(np.flatnonzero(cell == c)[0])]
            for code in np.setdiff1d(in_ds, have)[: MAX_LISTED - len(named)]:
                run = folds.iloc[int(np.flatnonzero(key_codes == code)[0])]
                ident = ", ".join(f"{key} {run[key]}" for key in self._keys)
                named.append(f"{first['dataset']} / {first['classifier']}, {ident}")
            if len(named) >= MAX_LISTED:
                break
        return [f"{total} run(s) missing, with no row in the file: {_count_listing(named, total)}. Each of those cells "
                f"is the {aggregate} of the runs it has."]

    def _holes_message(self, holes, k, datasets, classifiers, labels) -> str:
        cells = [f"{labels[int(h // k)]} (data set '{datasets[int(h // k)]}'), column '{classifiers[int(h % k)]}'"
                 for h in holes[:MAX_LISTED]]
        runs = [f"{datasets[int(h // k)]} / {classifiers[int(h % k)]}" for h in holes[:MAX_LISTED]]
        return (
            f"File '{self.source}': {holes.size} missing cell(s): {_count_listing(cells, holes.size)}. There is no row for "
            f"{_count_listing(runs, holes.size)}: every "
            "classifier needs at least one row (run) on every data set. Add the rows, or choose a missing-data policy: "
            f"drop the data sets that lack a classifier ({arg('missing', 'drop-datasets')}), drop the classifiers that "
            f"lack a data set ({arg('missing', 'drop-classifiers')}), or keep the holes ({arg('missing', 'pairwise')})."
        )


def _repeated(frame: pd.DataFrame, columns: list[str]) -> np.ndarray:
    """Which rows repeat another row's values of ``columns`` (all of them marked, as ``duplicated(keep=False)``),
    from one 64-bit code per row: pandas' ``duplicated`` allocated 132 MB for 1.95 million fold rows (issue 31); this
    keeps three arrays of 8 bytes a row at a time."""
    combined = np.zeros(len(frame), dtype=np.int64)
    size = 1
    for column in columns:
        codes, uniques = pd.factorize(frame[column], use_na_sentinel=False)
        if size * len(uniques) >= 2 ** 62:  # the combined codes would overflow: renumber them densely first
            combined, kinds = pd.factorize(combined)
            size = len(kinds)
        combined *= len(uniques)
        combined += codes
        size *= len(uniques)
        del codes
    if size > 4 * len(frame) + 1024:  # sparse codes: renumber them so that counting them is linear in the rows
        combined = pd.factorize(combined)[0]
    counts = np.bincount(combined)
    return counts[combined] > 1


def _factorize_names(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The codes of a column of names in order of first appearance, and the names (objects). A column of categories
    is factorized by its codes: an array of its values would make a Python string per row from pandas' Arrow strings
    (issue 31: with 1.95 million rows, building the table allocated 220 MB in the server and took 1.0 s, now 115 MB
    and 0.4 s)."""
    codes, uniques = pd.factorize(column, sort=False)
    return codes, np.asarray(uniques, dtype=object)


def _categories(column: pd.Series) -> pd.Categorical:
    """A column of names as a categorical with sorted categories (the read rows' own, or made from strings)."""
    values = column.array
    if isinstance(values, pd.Categorical) and not values.ordered:
        return values
    return pd.Categorical(column.to_numpy(dtype=object))
