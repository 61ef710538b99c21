"""Reading item-level results (issue 30): one outcome per model, task and item.

Three shapes are read to the same :class:`compare_lib.Items`:

* a long table (CSV, TSV, JSON lines, Parquet when pyarrow is installed) with model, task, item and
  score columns (and optionally a cluster column), found by their common names or named by the caller;
* lm-evaluation-harness ``samples_<task>_<timestamp>.jsonl`` files (a folder, searched recursively, or a
  list of files): one JSON object per line with ``doc_id`` and one key per metric (``"acc": 1.0``); the
  model is the folder the file lies in (lm-eval writes ``<output>/<model>/samples_...``) or ``model=``;
* every_eval_ever instance-level JSON or JSON lines (``model_id``, ``evaluation_name``, ``sample_id``,
  ``evaluation.score`` or ``evaluation.is_correct``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from compare_lib.core._validation import check_choice, listing
from compare_lib.errors import InputError, arg
from compare_lib.limits import MAX_INPUT_BYTES, MAX_ITEM_FILES, MAX_ITEM_ROWS
from compare_lib.io._source import decode_text, read_source

ITEM_FORMATS = ("auto", "csv", "tsv", "jsonl", "json", "parquet", "lm-eval", "every-eval-ever")

#: Column names recognised, in order of preference (compared in lower case).
MODEL_NAMES = ("model", "model_id", "model_name", "system", "classifier")
TASK_NAMES = ("task", "evaluation_name", "benchmark", "task_name", "dataset")
ITEM_NAMES = ("item", "doc_id", "sample_id", "question_id", "item_id", "instance_id", "id")
SCORE_NAMES = ("score", "evaluation.score", "correct", "is_correct", "evaluation.is_correct", "acc", "exact_match")
CLUSTER_NAMES = ("cluster", "passage_id", "context_id", "cluster_id", "group")

_LM_EVAL = re.compile(r"^samples_(?P<task>.+?)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.:\-]+)\.jsonl$")
_LM_EVAL_LOOSE = re.compile(r"^samples_(?P<task>.+)\.jsonl$")
#: lm-eval keys of a samples line that are not metrics.
_LM_EVAL_NOT_METRICS = {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                        "doc_hash", "prompt_hash", "target_hash"}


def _find(columns, given, names, what: str, option: str, display: str, *, required: bool = True):
    """The column named ``given`` (checked), or the first of ``names`` present (case-insensitive)."""
    if given is not None:
        if given in columns:
            return given
        lowered = {str(c).lower(): c for c in columns}
        if str(given).lower() in lowered:
            return lowered[str(given).lower()]
        raise InputError(f"File '{display}' has no column {given!r} ({arg(option, given)}); its columns are "
                         f"{listing([str(c) for c in columns])}.")
    lowered = {str(c).lower(): c for c in columns}
    for name in names:
        if name in lowered:
            return lowered[name]
    if required:
        raise InputError(f"File '{display}': no {what} column found (looked for {', '.join(names)}); its columns "
                         f"are {listing([str(c) for c in columns])}. Name it with {arg(option)}.")
    return None


def _json_lines(text: str, display: str) -> tuple[list[dict], np.ndarray]:
    """The objects of a JSON-lines text and their line numbers; a line that is not JSON (a truncated last
    line) is named. The lines are parsed in one call (as a JSON list); only a failure is looked for line by line."""
    lines = text.splitlines()
    numbers = [i for i, line in enumerate(lines, start=1) if line.strip()]
    kept = [lines[i - 1] for i in numbers]
    rows = None
    try:
        rows = json.loads("[" + ",".join(kept) + "]")
    except (json.JSONDecodeError, RecursionError):
        pass
    if rows is None or len(rows) != len(kept) or not all(isinstance(r, dict) for r in rows):
        for number, line in zip(numbers, kept):  # find the line at fault
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as err:
                shown = line if len(line) <= 80 else line[:77] + "..."
                detail = f"{err.msg} at column {err.colno}" if isinstance(err, json.JSONDecodeError) else "nested too deeply"
                raise InputError(f"File '{display}', line {number}: not a complete JSON object ({detail}): {shown!r}. "
                                 "The file may have been cut off while it was written; remove the line or write the "
                                 "file again.") from None
            if not isinstance(obj, dict):
                raise InputError(f"File '{display}', line {number}: a JSON object ({{...}}) was expected, got "
                                 f"{type(obj).__name__}.")
        raise InputError(f"File '{display}': one JSON object per line was expected.")
    if not rows:
        raise InputError(f"File '{display}' holds no JSON lines.")
    return rows, np.asarray(numbers)


def _json_rows(text: str, display: str) -> pd.DataFrame:
    """The objects of a JSON file (a list of objects, or JSON lines) as a flat frame with their lines."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"File '{display}', line {err.lineno}, column {err.colno}: not valid JSON ({err.msg}). "
                             "The file may have been cut off while it was written.") from None
        if not all(isinstance(r, dict) for r in data):
            raise InputError(f"File '{display}': a JSON list of objects was expected.")
        numbers = np.arange(1, len(data) + 1)  # the position in the list
    else:
        data, numbers = _json_lines(text, display)
    frame = pd.json_normalize(data, max_level=1)
    frame["\x00line"] = numbers
    frame.attrs["unit"] = "object" if stripped.startswith("[") else "line"  # a JSON list: its n-th object
    return frame


def _read_table(path_or_source, display: str, fmt: str) -> tuple[pd.DataFrame, str]:
    """A long table as a DataFrame, with a ``\\x00line`` column (the line of each row in the file)."""
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise InputError(f"File '{display}' is Parquet, which needs pyarrow (pip install pyarrow).") from None
        raw, _ = read_source(path_or_source, display)
        if isinstance(raw, str):
            raise InputError(f"'{display}' is text, not a Parquet file.")
        import io

        frame = pd.read_parquet(io.BytesIO(raw))
        frame["\x00line"] = np.arange(1, len(frame) + 1)  # the row number
        return frame, "row"
    raw, display = read_source(path_or_source, display)
    text, _notes = decode_text(raw, display)
    if fmt in ("jsonl", "json", "every-eval-ever", "lm-eval"):
        frame = _json_rows(text, display)
        return frame, frame.attrs.get("unit", "line")
    import io

    sep = "\t" if fmt == "tsv" else ","
    try:
        frame = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False, na_values=[""])
    except pd.errors.ParserError as err:
        raise InputError(f"File '{display}' cannot be read as {fmt.upper()}: {err}") from None
    frame["\x00line"] = np.arange(2, len(frame) + 2)  # line 1 is the header
    return frame, "line"


def _format_of(name: str, fmt: str) -> str:
    if fmt != "auto":
        return fmt
    lower = name.lower()
    if lower.endswith(".parquet") or lower.endswith(".pq"):
        return "parquet"
    if lower.endswith((".tsv", ".tab")):
        return "tsv"
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "lm-eval" if _LM_EVAL_LOOSE.match(Path(name).name) else "jsonl"
    if lower.endswith(".json"):
        return "json"
    return "csv"


def _lm_eval_files(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.rglob("samples_*.jsonl") if p.is_file())
    if not files:
        raise InputError(f"Folder '{folder}' holds no lm-evaluation-harness samples files (samples_<task>_<date>.jsonl). "
                         "Run lm-eval with --log_samples, or give the file of a long table.")
    return files


def _lm_eval_frame(path: Path, display: str, model: str | None) -> dict:
    """One lm-eval samples file as arrays: item (doc_id), line numbers, filter, one array per metric key.

    Plain arrays, not a DataFrame per file: a run of 600 files is then read in one concatenation."""
    m = _LM_EVAL.match(path.name) or _LM_EVAL_LOOSE.match(path.name)
    if not m:
        raise InputError(f"File '{display}' is not named as lm-evaluation-harness names samples files "
                         "(samples_<task>_<date>.jsonl); give the file of a long table instead.")
    raw, _ = read_source(path, display)
    text, _notes = decode_text(raw, display)
    rows, numbers = _json_lines(text, display)
    first = {**rows[-1], **rows[0]}
    if "doc_id" not in first:
        raise InputError(f"File '{display}': lines have no doc_id; is it an lm-evaluation-harness samples file?")
    names = [k for k, v in first.items() if k not in _LM_EVAL_NOT_METRICS and not isinstance(v, (dict, list))]
    if isinstance(first.get("metrics"), list):  # newer lm-eval lists the metric keys of each line
        names = [k for k in names if k in first["metrics"]] or names
    columns = {k: np.array([r.get(k) for r in rows], dtype=object) for k in ["doc_id", *names]}
    metrics = []
    for k in names:  # a metric is a key whose values are mostly numbers or booleans (a stray text is refused later)
        if pd.to_numeric(pd.Series(columns[k]), errors="coerce").notna().mean() > 0.5:
            metrics.append(k)
    flt = None
    if "filter" in first:
        flt = np.array([r.get("filter") for r in rows], dtype=object)
        kinds = list(pd.unique(flt))
        if len(kinds) > 1:  # one line per doc and filter: the metrics are "metric,filter", as in results files
            metrics = [f"{k},{f}" for k in metrics for f in kinds]
    return {"item": columns["doc_id"], "line": numbers, "values": columns, "filter": flt, "metrics": metrics,
            "model": model if model is not None else (path.parent.name or "model"), "task": m.group("task"),
            "file": display}


def _check_rows(n: int, display: str, max_rows: int | None = None) -> None:
    limit = MAX_ITEM_ROWS if max_rows is None else min(int(max_rows), MAX_ITEM_ROWS)
    if n > limit:
        where = "compare_lib.limits.MAX_ITEM_ROWS" if limit == MAX_ITEM_ROWS else "max_rows"
        raise InputError(f"'{display}' holds {n:,} item rows; at most {limit:,} are read ({where}). Keep fewer "
                         "models or tasks.")


def _as_scores(values: pd.Series, lines: pd.Series, files, display: str, column: str, unit: str) -> np.ndarray:
    """Scores as floats; booleans (True/False, "true"/"false") are 1/0; text, missing or non-finite refused."""
    if values.dtype == bool:
        return values.to_numpy(dtype=float)
    obj = values
    if not pd.api.types.is_numeric_dtype(obj):
        lowered = obj.astype(str).str.strip().str.lower()
        obj = obj.astype(object).where(~lowered.isin(("true", "false")), lowered.eq("true").astype(float))
    number = pd.to_numeric(obj, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(number)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        where = files.iloc[i] if files is not None else display
        raise InputError(f"File '{where}', {unit} {int(lines.iloc[i])}, column {column!r}: the score "
                         f"{values.iloc[i]!r} is not a number ({int(bad.sum()):,} such rows). Scores are 0/1 "
                         "(correct or not) or numbers such as 0.75.")
    return number


def read_items(source: Any, *, model_col: str | None = None, task_col: str | None = None, item_col: str | None = None,
               score_col: str | None = None, cluster_col: str | None = None, format: str = "auto",
               model: str | None = None, max_rows: int | None = None):
    options: dict[str, Any] = {"format": format, "model_col": model_col, "task_col": task_col, "item_col": item_col,
                               "score_col": score_col, "cluster_col": cluster_col, "model": model}
    items = _read_items(source, max_rows=max_rows, **options)
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        # a file or folder on disk: recorded, so that a reproducing script reads it again (issue 30)
        from compare_lib.core._provenance import Source, file_sha256

        path = Path(source)
        read = {k: v for k, v in options.items() if v is not None and not (k == "format" and v == "auto")}
        sha = file_sha256(path.read_bytes()) if path.is_file() else None
        record = Source(str(path.resolve()), read=read, kind="file", sha256=sha, loader="read_items")
        object.__setattr__(items, "provenance", record)  # a new object, not yet shared
    return items


def _read_items(source: Any, *, model_col: str | None = None, task_col: str | None = None, item_col: str | None = None,
               score_col: str | None = None, cluster_col: str | None = None, format: str = "auto",
               model: str | None = None, max_rows: int | None = None):
    """Item-level results (one outcome per model, task and item) as :class:`compare_lib.Items`.

    Parameters
    ----------
    source : path, folder, list of paths, bytes or text
        A long table (CSV, TSV, JSON lines, Parquet), every_eval_ever instance-level JSON/JSONL, an
        lm-evaluation-harness samples file, a folder of them (searched recursively) or a list of files.
    model_col, task_col, item_col, score_col, cluster_col : str, optional
        Column names; by default found by their common names (model/model_id/system; task/evaluation_name/
        benchmark; item/doc_id/sample_id/question_id/id; score/correct/is_correct/acc/exact_match;
        cluster/passage_id/context_id). For lm-eval files ``score_col`` is the metric key (``"acc"``,
        ``"acc_norm"``, ``"exact_match,strict-match"`` when the file has several filters); it is required
        when a file has several metrics.
    format : {"auto", "csv", "tsv", "jsonl", "json", "parquet", "lm-eval", "every-eval-ever"}
    model : str, optional
        The model of lm-eval files (default: the name of the folder each file lies in).
    max_rows : int, optional
        Refuse more item rows than this (the dashboard passes :data:`compare_lib.limits.APP_MAX_ITEM_ROWS`);
        never more than :data:`compare_lib.limits.MAX_ITEM_ROWS`.

    Notes
    -----
    What was recognised (columns, files, metric) is in :attr:`Items.notes`. Refused with an
    :class:`~compare_lib.InputError` naming the file and line: a score that is not a number, a truncated JSON
    line, duplicated items (model, task, item twice), missing model/task/item names.
    """
    from compare_lib.io._item_table import Items

    fmt = check_choice(format, ITEM_FORMATS, "format")
    if max_rows is not None and (isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or max_rows < 1):
        raise InputError(f"{arg('max_rows', bare=True)} must be a whole number above 0 or None, got {max_rows!r}.")
    notes: list[str] = []
    files: list[Path] | None = None
    if isinstance(source, (list, tuple)):
        files = [Path(p) for p in source]
    elif isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source) \
            and Path(source).is_dir():
        files = _lm_eval_files(Path(source))
    if files is not None:
        if not files:
            raise InputError("The list of files is empty.")
        if len(files) > MAX_ITEM_FILES:
            raise InputError(f"{len(files):,} files given; at most {MAX_ITEM_FILES:,} are read "
                             "(compare_lib.limits.MAX_ITEM_FILES).")
        total = sum(p.stat().st_size for p in files if p.is_file())
        if total > MAX_INPUT_BYTES:
            raise InputError(f"The files hold {total:,} bytes; the library reads at most {MAX_INPUT_BYTES:,}.")
        kinds = {_format_of(p.name, fmt) for p in files}
        if kinds == {"lm-eval"}:
            return _from_lm_eval(files, score_col=score_col, model=model, notes=notes, Items=Items, max_rows=max_rows)
        parts = [read_items(p, model_col=model_col, task_col=task_col, item_col=item_col, score_col=score_col,
                            cluster_col=cluster_col, format=fmt, max_rows=max_rows) for p in files]
        frame = pd.concat([p.frame for p in parts], ignore_index=True)
        _check_rows(len(frame), str(files[0].parent), max_rows)
        metrics = {p.metric for p in parts}
        if len(metrics) > 1:
            raise InputError(f"The files measure different scores ({', '.join(sorted(map(str, metrics)))}); "
                             f"read one metric at a time ({arg('score_col')}).")
        _check_duplicates(frame, [str(p) for p in files])
        return Items(frame, metric=parts[0].metric, notes=tuple(n for p in parts for n in p.notes))
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        display = Path(source).name
        fmt = _format_of(display, fmt)
        if fmt == "lm-eval":
            return _from_lm_eval([Path(source)], score_col=score_col, model=model, notes=notes, Items=Items,
                                 max_rows=max_rows)
    else:
        display = getattr(source, "name", None) or "pasted text"
        if fmt == "auto":
            head = source[:1] if isinstance(source, (str, bytes)) else b""
            fmt = "jsonl" if head in ("{", b"{", "[", b"[") else "csv"
    frame, unit = _read_table(source, display, fmt)
    _check_rows(len(frame), display, max_rows)
    columns = [c for c in frame.columns if c != "\x00line"]
    mc = _find(columns, model_col, MODEL_NAMES, "model", "model_col", display, required=model is None)
    tc = _find(columns, task_col, TASK_NAMES, "task", "task_col", display)
    ic = _find(columns, item_col, ITEM_NAMES, "item", "item_col", display)
    sc = _find(columns, score_col, SCORE_NAMES, "score", "score_col", display)
    cc = _find(columns, cluster_col, CLUSTER_NAMES, "cluster", "cluster_col", display, required=cluster_col is not None)
    eee = any(str(c).startswith("evaluation.") for c in columns) or "model_id" in columns
    kind = "every_eval_ever instance-level rows" if eee else f"a long {fmt.upper()} table"
    notes.append(f"'{display}': read as {kind}: model = {mc if mc is not None else repr(model) + ' (given)'}, "
                 f"task = {tc}, item = {ic}, score = {sc}" + (f", cluster = {cc}" if cc is not None else "") + ".")
    out = _long(frame, mc, tc, ic, sc, cc, model, display, unit)
    _check_duplicates(out, [display])
    metric = str(sc).split(".")[-1]
    return Items(out, metric=metric, notes=tuple(notes), source=display)


def _text(values: pd.Series, lines: pd.Series, display: str, column, what: str, unit: str) -> pd.Series:
    missing = values.isna()
    if missing.any():
        i = int(np.flatnonzero(missing.to_numpy())[0])
        raise InputError(f"File '{display}', {unit} {int(lines.iloc[i])}: the {what} (column {column!r}) is missing "
                         f"({int(missing.sum()):,} such rows).")
    return values.astype(str)


def _long(frame, mc, tc, ic, sc, cc, model, display, unit) -> pd.DataFrame:
    lines = frame["\x00line"]
    out = pd.DataFrame({
        "model": (_text(frame[mc], lines, display, mc, "model", unit) if mc is not None
                  else pd.Series(str(model), index=frame.index)),
        "task": _text(frame[tc], lines, display, tc, "task", unit),
        "item": _text(frame[ic], lines, display, ic, "item", unit),
        "score": _as_scores(frame[sc], lines, None, display, sc, unit),
    })
    if cc is not None:
        out["cluster"] = _text(frame[cc], lines, display, cc, "cluster", unit)
    # an item id read as 3 from JSON and "3" from CSV is the same item: ids are kept as text, "3.0" -> "3"
    out["item"] = out["item"].str.replace(r"^(-?\d+)\.0$", r"\1", regex=True)
    return out


def _check_duplicates(frame: pd.DataFrame, where: list[str]) -> None:
    dup = frame.duplicated(["model", "task", "item"], keep=False)
    if dup.any():
        first = frame.loc[dup].iloc[0]
        n = int(frame.loc[dup].drop_duplicates(["model", "task", "item"]).shape[0])
        raise InputError(f"{', '.join(where[:3])}{' ...' if len(where) > 3 else ''}: {n:,} items appear more than once "
                         f"for the same model and task, e.g. model {first['model']!r}, task {first['task']!r}, item "
                         f"{first['item']!r}. Keep one outcome per item (two runs of the same model and task: read "
                         "one of them).")


def _from_lm_eval(files: list[Path], *, score_col, model, notes, Items, max_rows=None):
    parts = []
    for p in files:
        if not p.is_file():
            raise InputError(f"File '{p}' does not exist. Check the path.")
        parts.append(_lm_eval_frame(p, str(p), model))
    _check_rows(sum(len(p["item"]) for p in parts), str(files[0].parent), max_rows)
    metrics = sorted(set.intersection(*(set(p["metrics"]) for p in parts)))
    if score_col is None:
        if len(metrics) == 1:
            score_col = metrics[0]
        elif not metrics:
            found = sorted(set.union(*(set(p["metrics"]) for p in parts)))
            raise InputError(f"The samples files share no metric (they have {', '.join(found) or 'no numeric key'}); read "
                             "files of one kind of task at a time.")
        else:
            raise InputError(f"The samples files have {len(metrics)} metrics: {', '.join(metrics)}. Choose one with "
                             f"{arg('score_col', metrics[0])}.")
    elif score_col not in metrics:
        raise InputError(f"{arg('score_col', score_col)} is not a metric of every samples file; "
                         + (f"their common metrics are {', '.join(metrics)}." if metrics else "they share no metric."))
    key, _, chosen = score_col.partition(",")
    items, values, lines, counts = [], [], [], []
    for part in parts:
        keep = slice(None) if not chosen else (part["filter"] == chosen)  # one filter's lines only
        items.append(part["item"][keep])
        values.append(part["values"][key][keep])
        lines.append(part["line"][keep])
        counts.append(len(lines[-1]))
    files_of_rows = pd.Series(np.repeat(np.array([part["file"] for part in parts], dtype=object), np.asarray(counts)))
    score = _as_scores(pd.Series(np.concatenate(values)), pd.Series(np.concatenate(lines)), files_of_rows, "",
                       score_col, "line")
    out = pd.DataFrame({
        "model": np.repeat(np.array([str(p["model"]) for p in parts], dtype=object), counts),
        "task": np.repeat(np.array([str(p["task"]) for p in parts], dtype=object), counts),
        "item": pd.Series(np.concatenate(items)).astype(str).str.replace(r"^(-?\d+)\.0$", r"\1", regex=True),
        "score": score})
    models = sorted(out["model"].unique())
    notes.append(f"Read {len(files)} lm-evaluation-harness samples files: models {listing(models)} "
                 f"({'given' if model is not None else 'from the folder names'}), tasks from the file names, "
                 f"item = doc_id, score = {score_col!r}" + (f" (of {', '.join(metrics)})" if len(metrics) > 1 else "") + ".")
    _check_duplicates(out, [str(f) for f in files])
    return Items(out, metric=key, notes=tuple(notes), source=str(files[0].parent))


read_items.__doc__ = _read_items.__doc__


# -- uploads (the dashboard) ---------------------------------------------------------------------------
#: Column names that mark a long results file (one row per fold or run), not item-level results.
_NOT_ITEM_COLUMNS = {"fold", "folds", "seed", "run", "repeat", "split"}


def sniff_items(head: bytes | str, name: str) -> bool:
    """Whether an upload (its first bytes and its name) looks like item-level results: a zip (of an
    lm-evaluation-harness output folder), a ``samples_<task>_<date>.jsonl`` file, JSON lines, JSON or Parquet, or
    a delimited table whose header names a model, a task, an item and a score column (and no fold/seed column).
    Cheap: only the first line is looked at."""
    lower = str(name).lower()
    if lower.endswith((".zip", ".jsonl", ".ndjson", ".json", ".parquet", ".pq")):
        return True
    text = head.decode("utf-8", "replace") if isinstance(head, (bytes, bytearray)) else str(head)
    text = text.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        return True
    first = text.splitlines()[0] if text else ""
    sep = "\t" if "\t" in first else ","
    cols = {c.strip().strip('"').lower() for c in first.split(sep)}
    items = set(ITEM_NAMES) - {"id"}  # a plain "id" column is too common to decide
    return (bool(cols & set(MODEL_NAMES)) and bool(cols & set(TASK_NAMES)) and bool(cols & items)
            and bool(cols & set(SCORE_NAMES)) and not cols & _NOT_ITEM_COLUMNS)


def _unzip_samples(data: bytes, name: str, folder: Path, max_bytes: int | None = None) -> None:
    """The lm-evaluation-harness samples files (and long tables) of a zip, written under ``folder`` as
    ``<model>/<file>`` (the member's parent folder names the model). Sizes are checked in the zip's directory
    before anything is extracted (a zip bomb is refused: more than ``max_bytes`` unpacked, at most the library's
    MAX_INPUT_BYTES), and member names are never used as paths."""
    import io
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise InputError(f"File '{name}' is not a readable zip archive.") from None
    members = [m for m in archive.infolist() if not m.is_dir() and _LM_EVAL_LOOSE.match(Path(m.filename).name)]
    if not members:
        raise InputError(f"The zip '{name}' holds no lm-evaluation-harness samples files (samples_<task>_<date>.jsonl). "
                         "Zip the output folder of lm-eval run with --log_samples.")
    if len(members) > MAX_ITEM_FILES:
        raise InputError(f"The zip '{name}' holds {len(members):,} samples files; at most {MAX_ITEM_FILES:,} are read.")
    limit = MAX_INPUT_BYTES if max_bytes is None else min(int(max_bytes), MAX_INPUT_BYTES)
    total = sum(m.file_size for m in members)
    if total > limit:
        raise InputError(f"The zip '{name}' would unpack to {total:,} bytes; at most {limit:,} bytes "
                         f"({limit / 1e6:,.0f} MB) are read.")
    for i, m in enumerate(members):
        parts = Path(m.filename.replace("\\", "/")).parts
        model = parts[-2] if len(parts) >= 2 else "model"
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", model).strip(".") or "model"
        target = folder / safe
        target.mkdir(exist_ok=True)
        with archive.open(m) as src:
            content = src.read(m.file_size + 1)
        if len(content) > m.file_size:
            raise InputError(f"The zip '{name}': member {m.filename!r} is larger than its directory says.")
        (target / Path(parts[-1]).name).write_bytes(content)


def _first_metric(folder: Path):
    """(the metric key the upload is read with, the metrics to choose from when there are several), from the
    first line of each samples file; None when the files have one metric or lines per filter (then read_items
    decides or says what to choose)."""
    common = None
    for path in _lm_eval_files(folder):
        with path.open("rb") as f:
            line = f.readline(1 << 20)
        try:
            first = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return None  # read_items names the line at fault
        if not isinstance(first, dict):
            return None
        keys = {k for k, v in first.items() if k not in _LM_EVAL_NOT_METRICS and isinstance(v, (int, float))}
        common = keys if common is None else common & keys
    if not common or len(common) == 1:
        return None
    ordered = sorted(common)
    pick = next((k for k in ("acc", "exact_match") if k in common), ordered[0])
    return pick, ordered


def read_item_upload(data: bytes, name: str, *, max_rows: int | None = None, max_unzip_bytes: int | None = None,
                     **options) -> Any:
    """:func:`read_items` of an upload (the dashboard's, run in its isolated reader): ``data`` are the bytes of
    a file called ``name``: a long table, every_eval_ever JSON, one lm-evaluation-harness samples file, or a zip
    of an lm-eval output folder (``<model>/samples_<task>_<date>.jsonl``), refused before unpacking when its
    samples files would unpack to more than ``max_unzip_bytes`` (the dashboard passes
    :data:`compare_lib.limits.APP_MAX_UNZIP_BYTES`; at most the library's MAX_INPUT_BYTES). Messages name the
    upload, not the temporary folder the samples files are unpacked into."""
    import dataclasses
    import io
    import tempfile

    lower = str(name).lower()
    if lower.endswith(".zip") or _LM_EVAL_LOOSE.match(Path(name).name):
        with tempfile.TemporaryDirectory(prefix="items_") as tmp:
            folder = Path(tmp)
            if lower.endswith(".zip"):
                _unzip_samples(bytes(data), name, folder, max_unzip_bytes)
            else:
                (folder / "model").mkdir()
                (folder / "model" / Path(name).name).write_bytes(bytes(data))
            chosen = _first_metric(folder) if options.get("score_col") is None else None
            if chosen is not None:
                options = {**options, "score_col": chosen[0]}
            try:
                try:
                    items = read_items(folder, max_rows=max_rows, **options)
                except InputError:
                    if chosen is None:
                        raise
                    chosen = None  # e.g. lines per filter ("acc,strict-match"): the reader's own message says so
                    items = read_items(folder, max_rows=max_rows, **{**options, "score_col": None})
            except InputError as err:
                raise InputError(str(err).replace(str(folder), name)) from None
            notes = tuple(n.replace(str(folder), name) for n in items.notes)
            if chosen is not None and chosen[1]:
                notes += (f"The samples files have several metrics ({', '.join(chosen[1])}); {chosen[0]!r} is "
                          "analysed (the first of acc, exact_match, then alphabetical order).",)
            return dataclasses.replace(items, notes=notes, source=name, provenance=None)
    stream = io.BytesIO(bytes(data))
    stream.name = name
    fmt = options.pop("format", "auto")
    if fmt == "auto":
        fmt = _format_of(name, "auto")
        if fmt == "csv" and bytes(data[:1]) in (b"{", b"["):
            fmt = "jsonl"
    return read_items(stream, format=fmt, max_rows=max_rows, **options)
