"""Reading results files: "your results as they are".

:func:`read_results` reads a file as it is (CSV/TSV, LaTeX, Markdown, text copied from a PDF, a
spreadsheet) and says what it holds: a :class:`Results` with its metrics, data sets, classifiers, folds
and notes. Choosing comes next: :meth:`Results.table` builds the
:class:`~compare_lib.core._table.ScoreTable` of one metric, aggregated over folds/seeds/runs.
:func:`load_scores` does both at once (the shortcut scripts have always used).

Reading is two steps, one for all formats: a *reader* turns the bytes into a
:class:`~compare_lib.io._raw.RawTable` (header, cells, line numbers), and the *layout* step
(:mod:`compare_lib.io._layout`) decides what the columns mean. A new format is one reader plus one line
in :data:`_READERS`.

Layer 2: imports ``core`` and the base modules (``errors``, ``limits``) only; the statistics import it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from compare_lib.core._table import ScoreTable
from compare_lib.core._validation import check_choice
from compare_lib.errors import InputError, arg, marked
from compare_lib.io._csv import check_sep
from compare_lib.io._direction import direction_catalogue, guess_direction
from compare_lib.io._detect import sniff_format as _detect_format
from compare_lib.io._isolate import Spooled, run_isolated
from compare_lib.io._layout import LAYOUTS, build_results, guess_layout, numeric_columns
from compare_lib.io._raw import RawTable
from compare_lib.io._results import AGGREGATES, Results
from compare_lib.io._source import check_size, decode_text, read_source
from compare_lib.core._provenance import read_record
from compare_lib.io._items import ITEM_FORMATS, read_items  # issue 30: item-level results

__all__ = ["AGGREGATES", "FORMATS", "ITEM_FORMATS", "LAYOUTS", "RawTable", "Results", "Spooled", "direction_catalogue",
           "guess_direction", "load_scores", "read_items", "read_results", "run_isolated", "sheet_names", "sniff_format"]


@dataclass(frozen=True)
class _Reader:
    """A reader: ``module.function(text, display, **options)``, or ``(data, display, sheet=, kind=)``
    for a binary format. ``options``: the read_results arguments it takes."""

    module: str
    function: str
    binary: bool = False
    kind: str | None = None
    options: tuple[str, ...] = ()


#: format -> reader (imported when first used). A new format is one reader returning a RawTable, one line
#: here, and (for "auto") a case in the format detection.
_READERS: dict[str, _Reader] = {
    "csv": _Reader("._csv", "read_delimited", options=("sep", "plan")),
    "latex": _Reader("._latex", "read_latex"),
    "markdown": _Reader("._markdown", "read_markdown"),
    "text": _Reader("._whitespace", "read_whitespace"),
    "xlsx": _Reader("._excel", "read_spreadsheet", binary=True, kind="xlsx", options=("sheet", "max_sheet_cells")),
    "xls": _Reader("._excel", "read_spreadsheet", binary=True, kind="xls", options=("sheet", "max_sheet_cells")),
    "ods": _Reader("._excel", "read_spreadsheet", binary=True, kind="ods", options=("sheet", "max_sheet_cells")),
}

#: Formats read_results accepts ("auto": recognised from the content and the file's name).
FORMATS = ("auto", *_READERS)

_FORMAT_NAMES = {"csv": "CSV", "latex": "LaTeX", "markdown": "Markdown", "text": "plain-text", "xlsx": "Excel (.xlsx)",
                 "xls": "Excel 97-2003 (.xls)", "ods": "OpenDocument (.ods)"}
_DELIMITED_SUFFIXES = (".csv", ".tsv", ".tab", ".psv")



def _sniff(raw: bytes | str, display: str, format: str, sep: str | None) -> str:
    if format != "auto":
        return format
    if sep is not None:
        return "csv"
    found = _detect_format(raw, display)  # it reads a bounded prefix
    if found not in _READERS:
        found = "csv"
    if PurePath(display).suffix.lower() in _DELIMITED_SUFFIXES and not _READERS[found].binary:
        found = "csv"  # a .csv/.tsv file is delimited text, whatever its cells look like
    return found


def _reader(fmt: str, display: str):
    spec = _READERS[fmt]
    try:
        module = importlib.import_module(spec.module, __name__)
        return getattr(module, spec.function)
    except (ImportError, AttributeError) as err:
        raise InputError(
            f"File '{display}' is a {_FORMAT_NAMES.get(fmt, fmt)} file, and this installation cannot read that format "
            f"({err}). Export the table as CSV, or install the package that reads it."
        ) from None


def read_results(
    source: Any,
    *,
    format: str = "auto",
    name: str | None = None,
    sheet: str | int | None = None,
    sep: str | None = None,
    decimal: str | None = None,
    layout: str = "auto",
    dataset_col: str | None = None,
    classifier_col: str | None = None,
    metric_col: str | None = None,
    value_col: str | None = None,
    fold_cols: Any = None,
    max_cells: int | None = None,
    max_classifiers: int | None = None,
    max_sheet_cells: int | None = None,
    _metric_hint: str | None = None,
) -> Results:
    """Read a results file as it is; choose the metric later with :meth:`Results.table`.

    Parameters
    ----------
    source : path, bytes, str or file-like
        A ``str`` containing a newline is the table's text (pasted data).
    format : {"auto", "csv", "latex", "markdown", "text", "xlsx", "xls", "ods"}
        "auto" recognises the format from the content and the file's name; "text" is a table copied
        from a PDF (columns separated by runs of spaces).
    name : str, optional
        Name of the source in messages (defaults to the file name); for a wide table it may name the one
        metric (``error_rates.csv``: ``error_rates``), whose direction is then looked up like any other.
    sheet : str or int, optional
        The sheet of a spreadsheet (default: the first that holds a table).
    sep, decimal : str, optional
        Delimiter of a CSV file (default: detected among tab, semicolon, comma, pipe) and decimal separator
        (default: detected; decimal commas are read and noted).
    layout : {"auto", "wide", "long", "tidy", "sklearn"}
        "wide": first column = data sets, one column per classifier. "long": data-set and classifier
        columns, optional fold/repetition/seed columns, one or more metric columns (every numeric column).
        "tidy": ``metric`` and ``value`` columns. "sklearn": a ``cross_validate`` export (``fit_time``,
        ``score_time``, ``test_*``). "auto" detects them from the header and the cells ("long" also
        accepts a tidy or scikit-learn file).
    dataset_col, classifier_col, metric_col, value_col : str, optional
        Column names when they are not recognised automatically (``metric_col``/``value_col``: a tidy file).
    fold_cols : list of str, optional
        The fold/repetition/seed columns (default: recognised by name: fold, split, cv_fold, seed, run, ...).
    max_cells, max_classifiers : int, optional
        Refuse, before the heavy work, a table with more scores (data sets x classifiers) or classifiers.
    max_sheet_cells : int, optional
        Refuse, before it is read, a sheet whose used range (rows x columns, from the cell references in the
        file) is larger (default: ``compare_lib.limits.MAX_SHEET_CELLS``).

    Raises
    ------
    InputError
        For every problem, naming the file, line, column and value (:class:`~compare_lib.errors.InputError`).
    """
    check_choice(layout, LAYOUTS, "layout")
    check_choice(format, ("auto", *_READERS), "format")
    if decimal not in (None, ".", ","):
        raise InputError(f"{arg('decimal', decimal)} is not a decimal separator; give '.' or ',' (or leave it out to "
                         "detect it).")
    sep = check_sep(sep)
    content, display = read_source(source, name)
    record = read_record(source, content, display, dict(
        format=format, name=name, sheet=sheet, sep=sep, decimal=decimal, layout=layout, dataset_col=dataset_col,
        classifier_col=classifier_col, metric_col=metric_col, value_col=value_col, fold_cols=fold_cols), _metric_hint)
    fmt = _sniff(content, display, format, sep)
    spec = _READERS[fmt]
    limits = (max_cells, max_classifiers)
    hints = dict(classifier_col=classifier_col, dataset_col=dataset_col, metric_col=metric_col, value_col=value_col,
                 metric_hint=_metric_hint)
    size_checked = []

    def plan(header: list[str], n_rows: int) -> int | frozenset | None:
        """Before the cells are split: size limits of a wide table, and which columns the C parser may read
        as numbers directly (a wide table's classifier columns; a long table's columns but the names)."""
        if guess_layout(header, layout=layout, **hints) != "wide":
            if max_classifiers is not None and len(header) > max_classifiers:
                # a long table's columns are data set, classifier, folds and metrics: hundreds mean a wrong layout
                raise InputError(
                    f"File '{display}' has {len(header):,} columns and was read as a long table (one row per data "
                    f"set and classifier); this app reads long tables of up to {max_classifiers:,} columns. If each "
                    f"column is a classifier, read it with {arg('layout', 'wide')}."
                )
            return None if decimal == "," else frozenset(numeric_columns(header, **hints))
        check_size(display, n_rows, len(header) - 1, *limits)
        size_checked.append(True)
        return None if decimal == "," else 1

    if sheet is not None and not spec.binary:
        raise InputError(
            f"File '{display}' is a {_FORMAT_NAMES.get(fmt, fmt)} file, not a spreadsheet: {arg('sheet', sheet)} does "
            f"not apply. Leave out {arg('sheet', bare=True)}, or give the workbook itself."
        )
    available = {"sep": sep, "plan": plan, "sheet": sheet, "max_sheet_cells": max_sheet_cells}
    options = {k: available[k] for k in spec.options}
    read = _reader(fmt, display)
    try:
        if spec.binary:
            if isinstance(content, str):
                raise InputError(f"File '{display}': a {_FORMAT_NAMES.get(fmt, fmt)} file is binary; pass its bytes or "
                                 "its path, not text.")
            raw = read(content, display, kind=spec.kind, **options)
        else:
            text, decoding = decode_text(content, display)
            del content
            raw = read(text, display, **options)
            del text
            if decoding:
                raw = replace(raw, notes=(*decoding, *raw.notes))
        results = build_results(raw, layout=layout, decimal=decimal, dataset_col=dataset_col,
                                classifier_col=classifier_col, metric_col=metric_col, value_col=value_col,
                                fold_cols=fold_cols, limits=limits, size_checked=bool(size_checked),
                                metric_hint=_metric_hint)
        results._provenance = record  # where and how it was read: the tables it makes carry it on
        return results
    except InputError as err:
        if format != "auto" or fmt in ("csv", "xlsx", "xls", "ods"):
            raise
        # A table copied from a paper or a page: say what the text was taken for, in case that is the mistake.
        raise InputError(f"{marked(err)} (The text was recognised as a {_FORMAT_NAMES.get(fmt, fmt)} table; if it is "
                         f"not one, give its format, e.g. {arg('format', 'csv')}.)") from None


def load_scores(
    source: Any,
    *,
    higher_is_better: bool | None = None,
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
    metric: str | None = None,
    aggregate: str = "mean",
    format: str = "auto",
    sheet: str | int | None = None,
    metric_col: str | None = None,
    value_col: str | None = None,
    fold_cols: Any = None,
    max_sheet_cells: int | None = None,
) -> ScoreTable:
    """Load a score table: ``read_results(source, ...).table(metric, ...)`` in one call.

    ``score_col`` is another name for ``metric`` (the column of a long file that holds the scores).
    ``higher_is_better``: the direction; None (default) looks it up in the direction catalogue by the metric's
    name and refuses a metric the catalogue does not know (:meth:`Results.table`). A file with several metrics
    needs ``metric=``; the message lists them.
    See :func:`read_results` and :meth:`Results.table` for the other parameters.
    """
    if score_col is not None and metric is not None and score_col != metric:
        raise InputError(
            f"{arg('score_col', score_col)} and {arg('metric', metric)} name different metrics; score_col is another "
            "name for metric: give one of them."
        )
    metric = metric if metric is not None else score_col
    results = read_results(
        source, format=format, name=name, sheet=sheet, sep=sep, decimal=decimal, layout=layout, dataset_col=dataset_col,
        classifier_col=classifier_col, metric_col=metric_col, value_col=value_col, fold_cols=fold_cols,
        max_cells=max_cells, max_classifiers=max_classifiers, max_sheet_cells=max_sheet_cells, _metric_hint=metric,
    )
    return results.table(metric, higher_is_better=higher_is_better, missing=missing, aggregate=aggregate)


def sheet_names(data: bytes, kind: str, display: str = "the workbook", *, max_sheet_cells: int | None = None) -> list[str]:
    """The sheets of a workbook (``kind``: "xlsx", "xls" or "ods"), for a sheet picker; a file that is not a
    readable workbook raises :class:`~compare_lib.errors.InputError`."""
    from compare_lib.io._excel import sheet_names as names

    return names(data, kind, display, max_sheet_cells=max_sheet_cells)


def sniff_format(data: bytes | str, name: str | None = None) -> str:
    """The format ``read_results(format="auto")`` reads ``data`` as: "csv", "latex", "markdown", "text",
    "xlsx", "xls" or "ods" (from the content, then the file's name; a workbook is one whatever its name)."""
    return _sniff(data, name or "", "auto", None)
