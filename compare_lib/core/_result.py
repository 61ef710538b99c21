"""One result protocol for the whole library.

Every result a public function returns offers ``to_dict()`` (its scalar fields, for JSON and reports),
``to_frame()`` (a tidy DataFrame) and ``notes`` (a tuple of plain sentences: approximations used,
what was dropped, why a value is undefined). Results of the table-sized analyses (post-hoc, APV table,
verdicts, pool verdicts) are :class:`FrameResult` objects that carry their provenance as fields and
give the very DataFrame the functions have always returned on request.

Pairwise kernels return :class:`PairwiseStatistics`, one array per quantity over the m pairs.
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any, NamedTuple

import numpy as np
import pandas as pd


class PairwiseStatistics(NamedTuple):
    """What a pairwise statistic gives for m pairs (a, b): the statistic, the two-sided p-value, the
    index of the better classifier of each pair (-1 when tied), whether each p-value is exact (False
    where a work budget made it fall back to an approximation) and, for a table with holes, the number
    of data sets each pair shares (None when every pair has every data set)."""

    statistic: np.ndarray
    pvalue: np.ndarray
    better: np.ndarray
    exact: np.ndarray
    n: np.ndarray | None = None


def _plain(value: Any) -> bool:
    return not isinstance(value, (pd.Series, pd.DataFrame, np.ndarray))


class Result:
    """Base of every result: ``to_dict``, ``to_frame`` and ``notes``.

    ``to_dict`` keeps the dataclass fields that are not arrays or tables (a field can leave it with
    ``metadata={"to_dict": False}`` or rename itself with ``metadata={"key": "..."}``); ``to_frame`` is
    that dictionary as a one-row DataFrame unless a result defines its own table.
    """

    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if not f.metadata.get("to_dict", True):
                continue
            value = getattr(self, f.name)
            if _plain(value):
                out[f.metadata.get("key", f.name)] = dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else value
        return out

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])

    def _repr_html_(self) -> str:
        """A notebook's view: the result's name, its fields as a two-column table, and its notes (escaped)."""
        rows = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td>{html.escape(_short(v))}</td></tr>"
                       for k, v in self.to_dict().items() if k != "notes")
        return f"<div><b>{html.escape(type(self).__name__)}</b><table>{rows}</table>{_notes_html(self.notes)}</div>"


@dataclasses.dataclass(frozen=True)
class TestResult(Result):
    """A test's result: its ``statistic`` and two-sided ``pvalue`` first (as scipy.stats' results), then what
    each test adds."""

    statistic: float
    pvalue: float


@dataclasses.dataclass(frozen=True)
class RankTestResult(TestResult):
    """An omnibus rank test of k classifiers over N data sets, referred to chi-squared with ``df`` degrees of
    freedom (Friedman, aligned ranks, Skillings-Mack)."""

    df: int
    k: int
    n: int


@dataclasses.dataclass(frozen=True)
class FTestResult(TestResult):
    """A test referred to the F distribution with (``df1``, ``df2``) degrees of freedom (Iman-Davenport, Quade,
    the repeated-measures ANOVA)."""

    df1: int
    df2: int


@dataclasses.dataclass(frozen=True, eq=False)
class FrameResult(Result):
    """A result whose natural form is a table: ``frame`` holds the rows, the other fields the provenance.

    ``to_frame()`` returns a copy of the table with the provenance also in ``.attrs`` (the form the
    public functions return, kept for compatibility; pandas drops ``.attrs`` through merges, the
    object keeps them). Iterating, indexing and ``len`` pass through to the table.
    """

    frame: pd.DataFrame = dataclasses.field(repr=False)
    notes: tuple[str, ...] = ()

    def provenance(self) -> dict:
        """The fields other than the table, as the ``attrs`` of :meth:`to_frame`."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("frame", "notes")}

    def to_dict(self) -> dict:
        return {**self.provenance(), "notes": list(self.notes), "rows": self.frame.to_dict(orient="records")}

    def to_frame(self, *, copy: bool = True) -> pd.DataFrame:
        """The table with the provenance in ``attrs``. ``copy=False`` hands over the object's own table (for a
        function that returns the frame and drops the object: one copy less per call)."""
        out = self.frame.copy() if copy else self.frame
        out.attrs.update(self.provenance())
        if self.notes:
            out.attrs["notes"] = tuple(self.notes)
        return out

    def __len__(self) -> int:
        return len(self.frame)

    #: Rows a notebook shows of a large result.
    REPR_ROWS = 60

    def _repr_html_(self) -> str:
        """A notebook's view: the provenance in one line, the table (p-values as journals print them) and
        the notes; every cell escaped."""
        from compare_lib.core._format import frame_to_html

        about = ", ".join(f"{k} = {_short(v)}" for k, v in self.provenance().items()
                          if v is not None and not isinstance(v, dict))
        shown = self.frame.head(self.REPR_ROWS)
        more = len(self.frame) - len(shown)
        tail = f"<p>… {more} more rows (to_frame() has them all)</p>" if more > 0 else ""
        p_cols = [c for c in shown.columns if c in ("p", "p_adj")]
        return (f"<div><b>{html.escape(type(self).__name__)}</b> <small>{html.escape(about)}</small>"
                f"{frame_to_html(shown, p_columns=p_cols)}{tail}{_notes_html(self.notes)}</div>")

    def __getitem__(self, key):
        return self.frame[key]

    @property
    def columns(self) -> pd.Index:
        return self.frame.columns


def _short(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value)
    return text if len(text) <= 200 else text[:199] + "…"


def _notes_html(notes) -> str:
    return "".join(f"<p><i>Note:</i> {html.escape(str(n))}</p>" for n in notes)


def as_frame(result) -> pd.DataFrame:
    """The DataFrame of a result: ``to_frame()`` of a :class:`FrameResult` (provenance in ``attrs``), or the
    DataFrame itself (as the public functions return it). Plots, reports and exports accept either."""
    if isinstance(result, FrameResult):
        return result.to_frame()
    return result
