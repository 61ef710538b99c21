"""The score table: one score per data set (row) and classifier (column), with its direction.

A :class:`ScoreTable` holds the scores, an explicit ``higher_is_better``, the metric they measure, and
everything derived from the scores that the tests need (ranks, mean ranks, wins/ties/losses). It is built
from a DataFrame, or from a file with :func:`compare_lib.io.read_results` /
:func:`compare_lib.io.load_scores`. Nothing is changed silently: every cleaning step is recorded in
:attr:`ScoreTable.notes`, and every problem raises :class:`~compare_lib.errors.InputError`.
"""

from __future__ import annotations

import contextvars
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable

import numpy as np
import pandas as pd

from ._table_validation import MISSING_POLICIES, PAIRWISE_NOTE, _validate_scores
from .errors import DataWarning, InputError
from .ranks import doubled_ranks, rank_scores, win_tie_loss, win_tie_loss_frame

__all__ = ["MISSING_POLICIES", "ScoreTable", "as_table"]

#: Set while a table derives another one (subset, other direction): its notes were already shown.
_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("compare_lib_quiet_table", default=False)


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """Scores of k classifiers (columns) on N data sets (rows).

    Parameters
    ----------
    scores : DataFrame
        Index = data-set names, columns = classifier names, numeric finite values.
    higher_is_better : bool
        ``True`` for accuracy, AUC, ...; ``False`` for error rates, losses, run times.
    missing : {"error", "drop-datasets", "drop-classifiers", "pairwise"}
        What to do with missing cells: refuse them (default, the message lists them), drop the data
        sets that have one, drop the classifiers that have one, or keep every data set and classifier
        with NaN in the holes ("pairwise": :attr:`has_missing` says so; the tests that compare two
        classifiers use the data sets where both have a score). What is dropped or kept is recorded in
        :attr:`notes`.
    source : str, optional
        Where the table came from (a file name), used in messages.
    notes : tuple of str
        What was done to the data while loading it; shown to the user.
    folds : DataFrame, optional
        Fold-level rows of a long table (data set, classifier, repetition/fold columns, score).
    metric : str, optional
        The name of the metric the scores measure (``"test_accuracy"``, ``"auc"``); None for an unnamed
        one (a wide table whose file name does not say).

    Ranks follow Demšar (2006, §3.2.2): 1 = best, ties get the average rank.
    """

    scores: pd.DataFrame
    higher_is_better: bool = True
    missing: str = "error"
    source: str | None = None
    notes: tuple[str, ...] = ()
    folds: pd.DataFrame | None = field(default=None, repr=False)
    row_labels: Any = field(default=None, repr=False)  # how messages name rows (strings or RowLabels)
    metric: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.higher_is_better, (bool, np.bool_)):
            raise InputError(
                f"higher_is_better must be True or False, got {self.higher_is_better!r}. "
                "Say whether a higher score is better (accuracy: True; error rate: False)."
            )
        if self.metric is not None and not isinstance(self.metric, str):
            raise InputError(f"metric must be a name (a string) or None, got {self.metric!r}.")
        clean, notes = _validate_scores(
            self.scores, missing=self.missing, source=self.source, row_labels=self.row_labels
        )
        object.__setattr__(self, "scores", clean)
        object.__setattr__(self, "higher_is_better", bool(self.higher_is_better))
        object.__setattr__(self, "notes", tuple(self.notes) + tuple(notes))
        object.__setattr__(self, "row_labels", None)
        if not _QUIET.get():
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
    def has_missing(self) -> bool:
        """True when the table keeps holes (NaN cells): only with the "pairwise" missing-data policy."""
        return bool(np.isnan(self.scores.to_numpy(dtype=float)).any())

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
        """Rank of each classifier on each data set (1 = best, ties averaged). In a table with holes
        ("pairwise" policy) the classifiers present on a data set are ranked among themselves and a
        missing cell has no rank (NaN)."""
        values = self.scores.to_numpy(dtype=float)
        if self.has_missing:
            holes = np.isnan(values)
            # A hole ranks after every score (whatever the direction), then loses its rank.
            oriented = np.where(holes, np.inf, -values if self.higher_is_better else values)
            r = np.where(holes, np.nan, rank_scores(oriented, higher_is_better=False))
        else:
            r = rank_scores(values, higher_is_better=self.higher_is_better)
        return pd.DataFrame(r, index=self.scores.index, columns=self.scores.columns)

    def require_complete(self, what: str = "This statistic") -> None:
        """Refuse, with what to do instead, a computation that needs every classifier on every data set."""
        if self.has_missing:
            holes = int(np.isnan(self.scores.to_numpy(dtype=float)).sum())
            raise InputError(
                f"{what} needs every classifier's score on every data set; this table keeps {holes:,} missing "
                "cell(s) (missing-data policy 'pairwise'). Use the Skillings-Mack test (compare_lib.skillings_mack) "
                "as the omnibus test and the Wilcoxon or sign test for pairs, which use the data sets each pair "
                "shares; or choose the policy that drops the data sets or the classifiers with missing cells."
            )

    @cached_property
    def doubled_ranks(self) -> np.ndarray:
        """2 x the ranks (N x k int64, read-only): exact integers for the rank statistics (which need a
        complete table: see :meth:`require_complete`)."""
        self.require_complete("A statistic of the ranks among all classifiers (Friedman, the mean-ranks z, ...)")
        out = doubled_ranks(self.ranks.to_numpy())
        out.setflags(write=False)
        return out

    @cached_property
    def doubled_rank_sums(self) -> pd.Series:
        """2 x the rank sum of each classifier, exact integers: the quantity every rank statistic uses."""
        return pd.Series(self.doubled_ranks.sum(axis=0), index=self.scores.columns, name="2 x rank sum")

    @cached_property
    def mean_ranks(self) -> pd.Series:
        """Average rank of each classifier over the data sets (lower = better), doubled rank sum / 2N. In a
        table with holes: the average over the data sets where the classifier has a score, of its rank among
        the classifiers present there (a description, not the Friedman statistic's mean rank)."""
        if self.has_missing:
            return pd.Series(np.nanmean(self.ranks.to_numpy(), axis=0), index=self.scores.columns, name="mean rank")
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
        return self._derived(self.scores.loc[rows, cols], self.higher_is_better, folds)

    def to_long(self) -> pd.DataFrame:
        """Long form with columns ``dataset``, ``classifier``, ``score`` (for AnovaRM and exports)."""
        long = self.scores.rename_axis(index="dataset", columns="classifier").stack().rename("score")
        return long.reset_index()

    def with_direction(self, higher_is_better: bool) -> "ScoreTable":
        """The same scores read with the other convention (higher or lower is better)."""
        return self._derived(self.scores, higher_is_better, self.folds)

    def _derived(self, scores: pd.DataFrame, higher_is_better, folds) -> "ScoreTable":
        """A table made from this one: same source, metric and notes (a "pairwise" table describes its own
        holes instead of the original's), without showing the notes again."""
        pairwise = self.missing == "pairwise"
        notes = tuple(n for n in self.notes if not (pairwise and n.startswith(PAIRWISE_NOTE)))
        token = _QUIET.set(True)
        try:
            return ScoreTable(scores, higher_is_better, missing="pairwise" if pairwise else "error",
                              source=self.source, notes=notes, folds=folds, metric=self.metric)
        finally:
            _QUIET.reset(token)


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


