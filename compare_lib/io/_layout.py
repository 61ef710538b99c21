"""What the columns of a :class:`RawTable` mean: wide, long, tidy or scikit-learn layout -> :class:`Results`.

* **wide**: first column = data sets, one column per classifier, one metric (named after the file when
  its name says, e.g. ``error_rates.csv``); summary rows ("Average", "Avg. rank", "Wins") are skipped.
* **long**: a data-set and a classifier column, optional fold/repetition/seed columns, and every other
  numeric column is a metric, in file order (sizes such as ``n_train``/``n_test`` and row numbers are
  kept apart: they are not metrics).
* **tidy**: ``metric`` and ``value`` columns: each metric name is a metric (never averaged together).
* **sklearn**: a ``cross_validate`` export (``fit_time``, ``score_time``, ``test_*``, ``train_*``): every
  one of those is a metric, shown with its prefix; the classifier column may be called ``estimator``,
  ``model``, ``clf``, ``pipeline``; the fold column ``fold``, ``split``, ``cv_fold``, or there is none
  (repeated rows of a cell are then repetitions, with a note).

Score cells that are not plain numbers go through the same parsing for every format (missing-value
tokens, decimal commas, percent signs, ``± sd`` and markers), each change noted.
"""

from __future__ import annotations


import numpy as np
import pandas as pd

from compare_lib.core._table import ScoreTable
from compare_lib.core._table_validation import _MISSING_TOKENS
from compare_lib.core._validation import MAX_LISTED
from compare_lib.errors import InputError
from compare_lib.limits import MAX_TABLE_COLUMNS
from compare_lib.io._direction import LAYOUT_METRIC_WORDS, metric_from_file_name, metric_from_text, words
from compare_lib.io._numbers import is_number_column, not_numbers_message, parse_columns, texts
from compare_lib.io._raw import RawTable
from compare_lib.io._results import LineNumbers, Results, _Metric, _Wide, int32_if_fits
from compare_lib.io._source import check_size

#: Layouts a file may be read with ("auto": detected).
LAYOUTS = ("auto", "wide", "long", "tidy", "sklearn")

_DATASET_NAMES = {"dataset", "data set", "data_set", "data-set", "datasets", "data", "problem", "task", "db",
                  "dataset_name", "dataset name", "data_name", "task_name", "dataset_id", "task_id"}
_CLASSIFIER_NAMES = {"classifier", "algorithm", "method", "model", "learner", "approach", "system", "estimator", "clf",
                     "pipeline", "classifier_name", "model_name", "algorithm_name", "estimator_name", "learner_name"}
_SCORE_NAMES = {"score", "value", "accuracy", "acc", "auc", "error", "performance", "result", "metric"}
_FOLD_NAMES = {"fold", "folds", "repetition", "rep", "repeat", "run", "seed", "iteration", "split", "trial", "scheme",
               "cv_fold", "fold_id", "split_id", "outer_fold", "repeat_id", "run_id", "random_state", "random_seed"}
_SIZE_NAMES = {"n_train", "n_test", "train_size", "test_size", "n_samples", "n_features", "n_classes", "n_instances",
               "n_attributes", "instances", "attributes", "classes"}
#: Row numbers written by spreadsheets and pandas (an unnamed index column): not metrics.
_ID_NAMES = {"", "unnamed: 0", "index", "id", "#", "row", "row_id"}
_METRIC_NAME_COLUMNS = {"metric", "measure", "metric_name", "metric name", "measure_name", "scorer", "scoring",
                        "score_name"}
_VALUE_COLUMNS = {"value", "score", "result", "performance", "val", "metric_value", "score_value"}
_SKLEARN_TIMES = {"fit_time", "score_time"}
_METRIC_WORDS = LAYOUT_METRIC_WORDS


def _lower(header: list[str]) -> list[str]:
    return [str(h).strip().lower() for h in header]


def _sklearn_column(name: str) -> bool:
    low = name.strip().lower()
    return low.startswith(("test_", "train_")) or low in _SKLEARN_TIMES


def _score_named(name: str) -> bool:
    low = name.strip().lower()
    return low in _SCORE_NAMES or low in _VALUE_COLUMNS or _sklearn_column(name) or any(
        w in _METRIC_WORDS for w in words(name))


def _index_of(header: list[str], explicit: str | None, synonyms: set[str], exclude=()) -> int | None:
    if explicit is not None:
        return header.index(explicit) if explicit in header else None
    for j, h in enumerate(_lower(header)):
        if h in synonyms and j not in exclude:
            return j
    return None


def _find_column(header: list[str], explicit: str | None, synonyms: set[str], what: str, display: str,
                 kind: str = "a long table", exclude=()) -> int:
    if explicit is not None:
        if explicit not in header:
            raise InputError(f"File '{display}': no column named {explicit!r} for the {what}; the header is {header}.")
        return header.index(explicit)
    j = _index_of(header, None, synonyms, exclude)
    if j is None:
        named = sorted(n for n in synonyms if "_" not in n and " " not in n) or sorted(synonyms)
        raise InputError(
            f"File '{display}' looks like {kind} but has no {what} column (looked for "
            f"{', '.join(named)}); the header is {header}. Name the column, or pass it explicitly."
        )
    return j


def _mostly_text(col: pd.Series) -> bool:
    """True when most non-empty cells of the column are not numbers (names, not scores)."""
    if is_number_column(col):
        return False
    sample = texts(col.iloc[:2000])
    sample = sample[~sample.str.lower().isin(_MISSING_TOKENS)]
    if sample.empty:
        return False
    numbers = pd.to_numeric(sample, errors="coerce")
    return bool(numbers.isna().mean() > 0.5)


def guess_layout(header: list[str], *, layout: str, classifier_col=None, dataset_col=None, metric_col=None,
                 value_col=None, metric_hint=None) -> str:
    """The layout the header alone suggests (before the cells are read): "wide" lets the CSV reader
    parse the classifier columns as numbers directly and check the size limits early."""
    if layout != "auto":
        return layout
    lowered = _lower(header)
    if metric_col is not None or value_col is not None:
        return "tidy"
    has_clf = classifier_col in header or any(h in _CLASSIFIER_NAMES for h in lowered)
    if any(_sklearn_column(h) for h in header) and (has_clf or _SKLEARN_TIMES & set(lowered)):
        return "sklearn"
    if has_clf and (metric_hint in header or any(h in _SCORE_NAMES for h in lowered)):
        return "long"
    if has_clf and (dataset_col in header or any(h in _DATASET_NAMES for h in lowered)):
        return "long?"  # decided on the cells: is the classifier column text (long) or numbers (wide)?
    return "wide"


def numeric_columns(header: list[str], *, classifier_col=None, dataset_col=None, metric_col=None, value_col=None,
                    metric_hint=None) -> list[int]:
    """The columns of a long/tidy/sklearn file that may hold numbers: all but those named like data-set,
    classifier or metric names (the C parser reads them as numbers where it can, as text otherwise)."""
    names = _DATASET_NAMES | _CLASSIFIER_NAMES | _METRIC_NAME_COLUMNS | {"scheme"}
    explicit = {dataset_col, classifier_col, metric_col}
    return [j for j, h in enumerate(header) if h not in explicit and str(h).strip().lower() not in names]


def _decide(raw: RawTable, layout: str, *, classifier_col, dataset_col, metric_col, value_col, metric_hint) -> str:
    header, grid = raw.header, raw.grid
    guess = guess_layout(header, layout="auto" if layout == "long" else layout, classifier_col=classifier_col,
                         dataset_col=dataset_col, metric_col=metric_col, value_col=value_col, metric_hint=metric_hint)
    j_clf = _index_of(header, classifier_col, _CLASSIFIER_NAMES)
    j_mname = _index_of(header, metric_col, _METRIC_NAME_COLUMNS, exclude=(j_clf,))
    j_value = _index_of(header, value_col, _VALUE_COLUMNS, exclude=(j_clf, j_mname))
    tidy = j_clf is not None and j_mname is not None and j_value is not None and _mostly_text(grid[j_mname])
    if guess == "tidy":
        return "tidy"
    if guess in ("wide", "sklearn") and layout != "long":
        return guess
    if tidy:
        return "tidy"
    if guess == "sklearn":
        return "sklearn"
    if layout == "long" or guess == "long":
        return "long"
    # guess "long?": a classifier column and a data-set column; long when the classifier column holds names
    return "long" if j_clf is not None and _mostly_text(grid[j_clf]) else "wide"


def build_results(
    raw: RawTable, *, layout: str = "auto", decimal: str | None = None, dataset_col: str | None = None,
    classifier_col: str | None = None, metric_col: str | None = None, value_col: str | None = None,
    fold_cols=None, limits: tuple[int | None, int | None] = (None, None), size_checked: bool = False,
    metric_hint: str | None = None,
) -> Results:
    """Decide the layout of ``raw`` and read what it holds into a :class:`Results`."""
    display = raw.display
    if len(raw.header) < 2:
        raise InputError(
            f"File '{display}' has a single column (header: {raw.header[0] if raw.header else ''!r}). Expected the "
            "data-set names in the first column and one column per classifier."
        )
    if not len(raw.grid):
        raise InputError(f"File '{display}' has a header but no data rows. Add one row per data set.")
    if fold_cols is not None:
        fold_cols = [fold_cols] if isinstance(fold_cols, str) else list(fold_cols)
    chosen = _decide(raw, layout, classifier_col=classifier_col, dataset_col=dataset_col, metric_col=metric_col,
                     value_col=value_col, metric_hint=metric_hint)
    notes = list(raw.notes)
    if chosen == "wide":
        return _build_wide(raw, decimal, limits, size_checked, notes)
    return _build_rows(raw, chosen, decimal, notes, limits, dataset_col=dataset_col, classifier_col=classifier_col,
                       metric_col=metric_col, value_col=value_col, fold_cols=fold_cols, metric_hint=metric_hint)


# -- wide ------------------------------------------------------------------------------------------

def _summary_mask(names: pd.Series) -> np.ndarray | None:
    try:
        from compare_lib.io._cells import summary_row_mask
    except ImportError:  # the cell-cleaning module is optional
        return None
    mask = np.asarray(summary_row_mask(names), dtype=bool)
    return mask if mask.shape == (len(names),) and mask.any() else None


def _place(raw: RawTable) -> str:
    return f"sheet '{raw.sheet}', {raw.row_word}" if raw.sheet else raw.row_word


def _build_wide(raw: RawTable, decimal, limits, size_checked, notes) -> Results:
    display = raw.display
    header, grid, lines = raw.header, raw.grid, raw.line_numbers
    classifiers = [str(c) for c in header[1:]]
    names = texts(grid[0]) if not pd.api.types.is_string_dtype(grid[0]) else grid[0].fillna("").astype(str)
    skip = _summary_mask(names)
    if skip is not None:
        dropped = np.flatnonzero(skip)
        named = [f"'{names.iloc[i]}' ({_place(raw)} {lines[i]})" for i in dropped[:MAX_LISTED]]
        if dropped.size == 1:
            notes.append(f"skipped the row {named[0]}: a summary, not a data set")
        else:
            more = f"; and {dropped.size - MAX_LISTED} more" if dropped.size > MAX_LISTED else ""
            notes.append(f"skipped {dropped.size} summary rows, not data sets: {'; '.join(named)}{more}")
        keep = ~skip
        grid, names, lines = grid[keep].reset_index(drop=True), names[keep].reset_index(drop=True), lines[keep]
        if not len(grid):
            raise InputError(f"File '{display}' has only summary rows ({named[0]}, ...), no data sets.")
    if not size_checked:
        check_size(display, len(grid), len(classifiers), *limits)
    common = dict(source=display, format=raw.format, layout="wide", notes=notes, row_word=raw.row_word,
                  sheet=raw.sheet)
    metric, from_file = metric_from_file_name(display), True
    for where, text in (("the sheet's name", raw.sheet), ("the table's title", raw.title)):
        found = None if metric is not None else metric_from_text(text)
        if found is not None:  # a caption or a sheet named after the metric names the table's one metric
            metric, from_file = found, False
            notes.append(f"The metric's name, {found}, is taken from {where} ('{str(text)[:60]}').")
    columns = {"dataset": header[0], "classifier": None, "classifiers": classifiers, "folds": [], "metrics": []}
    if len(set(classifiers)) != len(classifiers):
        # Duplicate classifier names: ScoreTable reports them with their column numbers.
        frame = pd.DataFrame(grid.iloc[:, 1:].to_numpy(), index=names.to_numpy(), columns=classifiers)
        ScoreTable(frame, True, source=display, notes=tuple(notes))  # raises
        wide = _Wide(names.to_numpy(dtype=object), classifiers, None, lines, frame_for_errors=frame)
        return Results(**common, columns=columns, metrics=[metric], wide=wide, metric_from_file=from_file)
    place = _place(raw)

    def locate(i, column):
        return f"{place} {lines[i]} (data set '{names.iloc[i]}'), column '{column}'"

    cols = {c: grid[j + 1] for j, c in enumerate(classifiers)}
    parsed, bad = parse_columns(cols, display, decimal, notes, locate)
    message = not_numbers_message(display, bad, locate)
    if message:
        raise InputError(message)
    # Column by column in memory (Fortran order), as pandas keeps a frame's floats: a table then uses this grid in
    # place with the layout, and so the sums and the numbers to the last bit, of a table built from a copy.
    values = np.empty((len(grid), len(classifiers)), order="F")
    for j, c in enumerate(classifiers):
        values[:, j] = parsed[c]
    wide = _Wide(names.to_numpy(dtype=object), classifiers, values, lines)
    return Results(**common, columns=columns, metrics=[metric], wide=wide, metric_from_file=from_file)


# -- long, tidy, sklearn -----------------------------------------------------------------------------

def _maybe_integers(values: pd.Series) -> np.ndarray:
    """Fold identifiers as integers when they all are (so that they sort 0, 1, 2, ..., 10), in 32 bits when they
    fit: the rows live as long as the session that read the file (issue 31: 0.93 MB less for a 10 MB fold-level
    upload of 232,500 rows). Not smaller: a user's ``folds["seed"] + 1000`` must not overflow. Identifiers beyond
    2**53 are not exact as numbers: they stay text."""
    numbers = pd.to_numeric(values, errors="coerce")
    if len(numbers) and numbers.notna().all() and (numbers == np.round(numbers)).all() and numbers.abs().max() < 2 ** 53:
        return int32_if_fits(numbers.to_numpy(dtype=np.int64))
    return texts(values).to_numpy(dtype=object)


def _names(col: pd.Series, stripped: bool = False) -> pd.Series:
    """Names (data sets, classifiers, metrics) as text; ``stripped``: the reader stripped them already."""
    if pd.api.types.is_string_dtype(col) and not is_number_column(col):
        try:
            col = col.fillna("") if col.hasnans else col
            return col if stripped else col.str.strip()
        except AttributeError:
            pass
    return texts(col)


def _build_rows(raw: RawTable, kind: str, decimal, notes, limits, *, dataset_col, classifier_col, metric_col, value_col,
                fold_cols, metric_hint) -> Results:
    display = raw.display
    header, grid, lines = raw.header, raw.grid, raw.line_numbers
    what = {"long": "a long table", "tidy": "a tidy table (metric and value columns)",
            "sklearn": "a scikit-learn cross_validate export"}[kind]
    j_data = _find_column(header, dataset_col, _DATASET_NAMES, "data-set", display, what)
    j_clf = _find_column(header, classifier_col, _CLASSIFIER_NAMES, "classifier", display, what, exclude=(j_data,))
    if j_clf == j_data:
        raise InputError(f"File '{display}': the data-set and the classifier column cannot both be '{header[j_data]}'.")
    taken = {j_data, j_clf}
    j_mname = j_value = None
    if kind == "tidy":
        j_mname = _find_column(header, metric_col, _METRIC_NAME_COLUMNS, "metric-name", display, what, exclude=taken)
        taken.add(j_mname)
        j_value = _find_column(header, value_col, _VALUE_COLUMNS, "value", display, what, exclude=taken)
        taken.add(j_value)
    stripped = raw.format == "csv"
    datasets_col, clf_col = _names(grid[j_data], stripped), _names(grid[j_clf], stripped)
    # The names as categories: a fold-level file repeats each data set and classifier on many rows, and the rows stay
    # in memory with the read file (issue 31: 12.9 MB for 232,500 rows as strings, 3.6 MB as categories). Made from
    # the column itself: with pandas' Arrow strings no Python string is made per row (an object array of them was
    # 27 MB of a 10 MB file's read).
    datasets_cat, clf_cat = pd.Categorical(datasets_col), pd.Categorical(clf_col)
    if limits != (None, None):
        check_size(display, len(datasets_cat.categories), len(clf_cat.categories), *limits)
    place = _place(raw)
    for col, j, label in ((datasets_col, j_data, "data-set name"), (clf_col, j_clf, "classifier name")):
        empty = np.flatnonzero((col == "").to_numpy())
        if empty.size:
            raise InputError(f"File '{display}', {place} {lines[empty[0]]}: the {label} (column '{header[j]}') is empty.")
    lowered = _lower(header)
    if fold_cols is not None:
        for f in fold_cols:
            if f not in header:
                raise InputError(f"File '{display}': no column named {f!r} for the folds/repetitions; the header is {header}.")
        folds = [header.index(f) for f in fold_cols]
    else:
        folds = [j for j, h in enumerate(lowered) if j not in taken and h in _FOLD_NAMES and header[j] != metric_hint]
    taken |= set(folds)
    sizes = [j for j, h in enumerate(lowered) if j not in taken and h in _SIZE_NAMES and header[j] != metric_hint]
    taken |= set(sizes)
    ids = [j for j, h in enumerate(lowered) if j not in taken and h in _ID_NAMES and header[j] != metric_hint]
    taken |= set(ids)
    for j in ids:
        notes.append(f"Ignored the column '{header[j]}' (row numbers, not a metric)." if header[j] else
                     f"Ignored the unnamed column {j + 1} (row numbers, not a metric).")
    fixed_names = {"dataset", "classifier", "score"}
    reserved = [header[j] for j in folds + sizes if header[j] in fixed_names]
    if reserved:
        raise InputError(f"File '{display}': a fold or size column may not be called {reserved[0]!r}; rename it.")
    rows = pd.DataFrame({
        "dataset": datasets_cat,
        "classifier": clf_cat,
        **{header[j]: _maybe_integers(grid[j]) for j in folds},
        **{header[j]: pd.to_numeric(grid[j], errors="coerce").to_numpy() for j in sizes},
    })
    keys = [header[j] for j in folds]
    size_names = [header[j] for j in sizes]
    several_candidates = kind != "tidy" and len([j for j in range(len(header)) if j not in taken]) > 1

    def locate(i, column):
        extra = f", column '{column}'" if several_candidates else ""
        return f"{place} {lines[i]} (data set '{datasets_col.iloc[i]}', classifier '{clf_col.iloc[i]}'{extra})"

    common = dict(source=display, format=raw.format, layout=kind, row_word=raw.row_word, sheet=raw.sheet, rows=rows,
                  lines=LineNumbers(lines),
                  keys=keys, sizes=size_names)
    if kind == "tidy":
        return _tidy(raw, rows, grid, j_mname, j_value, datasets_col, clf_col, decimal, notes, common, keys, taken,
                     header, {"dataset": header[j_data], "classifier": header[j_clf], "folds": keys, "sizes": size_names})
    candidates = [j for j in range(len(header)) if j not in taken]
    metric_cols = _metric_columns(grid, header, candidates, kind, metric_hint, display, decimal)
    ignored = [header[j] for j in candidates if j not in metric_cols]
    row_numbers = [header[j] for j in ids]
    if ignored:
        notes.append(f"Ignored column(s) {', '.join(repr(h) for h in ignored)} of the long table (not numbers).")
    if not metric_cols:
        raise InputError(
            f"File '{display}' looks like {what} but has no score column: no column of numbers besides the data set, "
            f"classifier and fold columns (looked for {', '.join(sorted(_SCORE_NAMES))} or any numeric column); the "
            f"header is {header}. Name the column, or pass it explicitly."
        )
    names = [header[j] for j in metric_cols]
    dup = [n for n in names if names.count(n) > 1]
    if dup:
        raise InputError(f"File '{display}': several metric columns are named {dup[0]!r}; give each column its own name.")
    parsed, bad = parse_columns({header[j]: grid[j] for j in metric_cols}, display, decimal, notes, locate)
    metric_data = {}
    for j in metric_cols:
        name = header[j]
        message = not_numbers_message(display, {name: bad[name]} if name in bad else {}, locate)
        raw_text = grid[j] if not is_number_column(grid[j]) else None
        metric_data[name] = _Metric(name, None, parsed[name], raw_text, message)
    has_folds = bool(keys) or bool(rows.duplicated(["dataset", "classifier"]).any())
    columns = {"dataset": header[j_data], "classifier": header[j_clf], "folds": keys, "metrics": names,
               "sizes": size_names, "ignored": row_numbers + ignored}
    return Results(**common, columns=columns, notes=notes, metrics=names, metric_data=metric_data, has_folds=has_folds)


def _metric_columns(grid, header, candidates, kind, metric_hint, display, decimal) -> list[int]:
    """The candidate columns that hold a metric: every column named like a score, and every column whose
    cells are mostly numbers (after the usual cleaning of a sample of the others)."""
    out = []
    for j in candidates:
        name = str(header[j])
        if name == metric_hint or _score_named(name) or (kind == "sklearn" and _sklearn_column(name)):
            out.append(j)
            continue
        col = grid[j]
        if is_number_column(col):
            out.append(j)
            continue
        text = texts(col) if not pd.api.types.is_string_dtype(col) else col.fillna("")
        filled = text[~text.str.lower().isin(_MISSING_TOKENS)]
        if filled.empty:
            continue
        numbers = pd.to_numeric(filled, errors="coerce")
        ok = int(numbers.notna().sum())
        failing = filled[numbers.isna().to_numpy()]
        if failing.size and ok < failing.size:
            sample = failing.head(200).reset_index(drop=True)
            try:
                again, bad = parse_columns({name: sample}, display, decimal, [], lambda i, c: f"cell {i}")
            except InputError:
                out.append(j)  # numbers with mixed decimal separators: a metric, refused when read
                continue
            share = 1 - (bad[name][0].size if name in bad else 0) / sample.size
            ok += int(round(share * failing.size))
        if ok > 0 and ok >= (filled.size - ok):
            out.append(j)
    return out


def _tidy(raw, rows, grid, j_mname, j_value, datasets_col, clf_col, decimal, notes, common, keys, taken, header,
          base_columns) -> Results:
    display = raw.display
    place = _place(raw)
    lines = raw.line_numbers
    metric_names = _names(grid[j_mname], raw.format == "csv")
    empty = np.flatnonzero((metric_names == "").to_numpy())
    if empty.size:
        raise InputError(
            f"File '{display}', {place} {lines[empty[0]]}: the metric name (column '{header[j_mname]}') is empty."
        )
    ignored = [header[j] for j in range(len(header)) if j not in taken]
    if ignored:
        notes.append(f"Ignored column(s) {', '.join(repr(h) for h in ignored)} of the tidy table.")

    def locate(i, _column):
        return (f"{place} {lines[i]} (data set '{datasets_col.iloc[i]}', classifier '{clf_col.iloc[i]}', metric "
                f"'{metric_names.iloc[i]}')")

    value_name = header[j_value]
    codes, metrics = pd.factorize(metric_names.to_numpy(dtype=object), sort=False)
    if len(metrics) > MAX_TABLE_COLUMNS:
        # Each metric is a table of its own: as many as columns of a text table at most (issue 27).
        raise InputError(
            f"File '{display}': the metric column '{header[j_mname]}' names {len(metrics):,} different metrics; a tidy "
            f"table is read with up to {MAX_TABLE_COLUMNS:,}. Check that it is the column of metric names."
        )
    parsed, bad = parse_columns({value_name: grid[j_value]}, display, decimal, notes, locate)
    values = parsed[value_name]
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(metrics) + 1))
    bad_pos, bad_raw = bad.get(value_name, (np.array([], dtype=np.int64), pd.Series([], dtype=object)))
    # The cells that are not numbers, grouped by metric once (np.isin per metric was metrics x cells).
    bad_order = np.argsort(codes[bad_pos], kind="stable")
    bad_bounds = np.searchsorted(codes[bad_pos][bad_order], np.arange(len(metrics) + 1))
    raw_text = grid[j_value].to_numpy(dtype=object) if not is_number_column(grid[j_value]) else None
    bad_text = bad_raw.to_numpy(dtype=object)  # sliced per metric as arrays: a pandas take per metric cost ~1 ms
    metric_data = {}
    for m, name in enumerate(metrics):
        positions = order[bounds[m] : bounds[m + 1]]
        mine = bad_order[bad_bounds[m] : bad_bounds[m + 1]]
        message = not_numbers_message(display, {value_name: (bad_pos[mine], pd.Series(bad_text[mine], dtype=object))},
                                      locate) if mine.size else None
        metric_data[str(name)] = _Metric(str(name), positions, values[positions],
                                         None if raw_text is None else pd.Series(raw_text[positions], dtype=object),
                                         message)
    key = ["dataset", "classifier"]
    with_metric = rows[key].assign(_metric=codes)
    has_folds = bool(keys) or bool(with_metric.duplicated().any())
    columns = {**base_columns, "metric": header[j_mname], "value": value_name, "ignored": ignored}
    return Results(**common, columns=columns, notes=notes, metrics=[str(m) for m in metrics], metric_data=metric_data,
                   has_folds=has_folds)
