"""How a score table was made, so that a script can make it again (issue 28: scripts that replay).

A :class:`Source` records the steps: where the data came from (a file on disk by its absolute path and
SHA-256, or an upload, a paste or a sample with no lasting path), the reader's options, the table's
options (metric, direction, missing-data policy, aggregation of runs) and the selection of classifiers and
data sets made afterwards. :func:`compare_lib.read_results` records where and how it read
(:func:`read_record`); :meth:`compare_lib.Results.table`, :meth:`ScoreTable.subset` and
:meth:`ScoreTable.with_direction` carry it on in :attr:`ScoreTable.provenance`; :func:`compare_lib.analyze`
takes it as the analysis' source and :meth:`Analysis.to_python` replays it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path
from typing import Any

from compare_lib.errors import InputError, arg

#: Keyword arguments of :func:`compare_lib.read_results` a source may record (for the reproducing script).
READ_OPTIONS = ("format", "name", "sheet", "sep", "decimal", "layout", "dataset_col", "classifier_col", "metric_col",
                "value_col", "fold_cols")
#: Keyword arguments of :func:`compare_lib.read_items` a source may record (loader "read_items", issue 30).
ITEM_READ_OPTIONS = ("format", "model_col", "task_col", "item_col", "score_col", "cluster_col", "model")
#: Keyword arguments of :meth:`compare_lib.Results.table` a source may record.
TABLE_OPTIONS = ("metric", "higher_is_better", "missing", "aggregate")
#: Where the data came from. "file": a file on disk, read again by its path (an absolute path as read; a
#: relative one is looked up next to the script). "upload" (bytes or a file object with no lasting path, e.g.
#: the dashboard's uploads), "paste" (text) and "sample" (a sample table of the dashboard): the script carries
#: the table as analysed instead.
KINDS = ("file", "upload", "paste", "sample")
#: How a file is read again: ``read_results(...).table(metric, ...)``, or ``load_scores(..., metric=...)`` when
#: the file was read knowing the metric (which can decide the layout of a long file), or
#: ``read_items(...).task_table(statistic=aggregate, ...)`` for item-level results (issue 30; ``path`` may then
#: be a folder of lm-evaluation-harness samples files).
LOADERS = ("read_results", "load_scores", "read_items")


@dataclasses.dataclass(frozen=True)
class Source:
    """How the table was read, so that a script can make it again.

    ``path``: the file (its absolute path when :func:`compare_lib.read_results` read it from disk; a relative
    path is looked up next to the script), or a name for a table that has no file (an upload, a paste).
    ``read``: the reader's options; ``table``: the table's options (metric, direction, missing-data policy,
    aggregation of folds); ``classifiers``/``datasets``: the selection made afterwards (None: all).
    ``kind``: one of :data:`KINDS`; ``sha256``: the file's SHA-256 when it was read (the script warns when the
    file has changed since); ``loader``: one of :data:`LOADERS`.
    """

    path: str
    read: dict = dataclasses.field(default_factory=dict)
    table: dict = dataclasses.field(default_factory=dict)
    classifiers: tuple[str, ...] | None = None
    datasets: tuple[str, ...] | None = None
    kind: str = "file"
    sha256: str | None = None
    loader: str = "read_results"

    def __post_init__(self):
        read_options = ITEM_READ_OPTIONS if self.loader == "read_items" else READ_OPTIONS
        unknown = (set(self.read) - set(read_options)) | (set(self.table) - set(TABLE_OPTIONS))
        if unknown:
            raise InputError(f"Source: unknown option(s) {', '.join(sorted(map(str, unknown)))}; read options are "
                             f"{', '.join(read_options)}; table options are {', '.join(TABLE_OPTIONS)}.")
        if self.kind not in KINDS:
            raise InputError(f"Source: {arg('kind', self.kind)} is not one of {', '.join(KINDS)}.")
        if self.loader not in LOADERS:
            raise InputError(f"Source: {arg('loader', self.loader)} is not one of {', '.join(LOADERS)}.")
        if self.sha256 is not None and not (isinstance(self.sha256, str) and len(self.sha256) == 64
                                            and all(c in "0123456789abcdef" for c in self.sha256)):
            raise InputError("Source: sha256 must be 64 lowercase hexadecimal digits (hashlib's hexdigest()).")

    @property
    def replays_file(self) -> bool:
        """True when a script reads the file again (a file on disk), False when it carries the table."""
        return self.kind == "file"


def file_sha256(data: bytes | str) -> str:
    """The SHA-256 of the bytes read (text: of its UTF-8 encoding), as hexadecimal digits."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def read_record(source: Any, content: bytes | str, display: str, options: dict, metric_hint: str | None) -> Source:
    """What :func:`compare_lib.read_results` read: a path (absolute, resolved now, with the SHA-256 of the bytes
    read), text ("paste") or bytes/a file object ("upload"); the options given (defaults left out)."""
    read = {k: v for k, v in options.items()
            if k in READ_OPTIONS and v is not None and not (k in ("format", "layout") and v == "auto")}
    loader = "load_scores" if metric_hint is not None else "read_results"
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        try:
            path = str(Path(source).resolve())
        except (OSError, RuntimeError, ValueError):
            path = os.path.abspath(source)
        return Source(path, read=read, kind="file", sha256=file_sha256(content), loader=loader)
    kind = "paste" if isinstance(source, str) else "upload"
    return Source(display, read=read, kind=kind, sha256=file_sha256(content), loader=loader)


def with_table(record: Source | None, metric, higher_is_better, missing, aggregate) -> Source | None:
    """The record of a table built by :meth:`Results.table` from what ``record`` read."""
    if record is None:
        return None
    return dataclasses.replace(record, table={"metric": metric, "higher_is_better": bool(higher_is_better),
                                              "missing": missing, "aggregate": aggregate})


def narrowed(record: Source | None, classifiers, datasets, higher_is_better) -> Source | None:
    """The record of a table derived from another (a subset of it, or its scores read in the other direction)."""
    if record is None:
        return None
    table = {**record.table, "higher_is_better": bool(higher_is_better)}
    return dataclasses.replace(
        record, table=table,
        classifiers=record.classifiers if classifiers is None else tuple(classifiers),
        datasets=record.datasets if datasets is None else tuple(datasets))
