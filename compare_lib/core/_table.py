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

from compare_lib.core._table_validation import MISSING_POLICIES, PAIRWISE_NOTE, _validate_scores
from compare_lib.errors import DataWarning, InputError, arg
from compare_lib.ranks import doubled_rank_rows, doubled_ranks, rank_scores, win_tie_loss, win_tie_loss_frame

__all__ = ["MISSING_POLICIES", "ScoreTable", "as_table"]

#: Set while a table derives another one (subset, other direction): its notes were already shown.
_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("compare_lib_quiet_table", default=False)
#: Set by a reader that hands over a frame of arrays that only it holds and never writes (compare_lib.io's Results):
#: the table then uses them in place, read-only, instead of copying them.
_SHARED_SCORES: contextvars.ContextVar[bool] = contextvars.ContextVar("compare_lib_shared_scores", default=False)


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
        Fold-level rows of a long table (data set, classifier, repetition/fold columns, score). Integer
        repetition/fold identifiers read from a file are int32 when they fit (the rows live as long as the
        table), else int64.
    metric : str, optional
        The name of the metric the scores measure (``"test_accuracy"``, ``"auc"``); None for an unnamed
        one (a wide table whose file name does not say).
    direction_stated, direction_reason :
        Where the direction comes from: stated (True, the default: an argument, a user's choice;
        ``direction_reason`` may say who stated it) or guessed from the metric's name by the direction
        catalogue (False; ``direction_reason`` is the catalogue's reason). Kept by :meth:`subset`; set to
        stated by :meth:`with_direction`. :attr:`direction_text` words it for every output.

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
    #: How the table was made (a compare_lib.Source: file, options, selection), for the reproducing script;
    #: set by read_results/Results.table and carried on by subset and with_direction. None: built in memory.
    provenance: Any = field(default=None, repr=False)
    #: Where the direction comes from (issue 28): stated (an argument, the user's choice: True) or guessed from
    #: the metric's name by the direction catalogue (False, :func:`compare_lib.guess_direction`).
    direction_stated: bool = True
    #: For a guess, the catalogue's reason ("lower is better: 'wer' is word error rate (ASR, ...)"); for a
    #: stated direction, who stated it ("stated by you"), or None.
    direction_reason: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.higher_is_better, (bool, np.bool_)):
            raise InputError(
                f"higher_is_better must be True or False, got {self.higher_is_better!r}. "
                "Say whether a higher score is better (accuracy: True; error rate: False)."
            )
        if self.metric is not None and not isinstance(self.metric, str):
            raise InputError(f"metric must be a name (a string) or None, got {self.metric!r}.")
        if not isinstance(self.direction_stated, (bool, np.bool_)) or not (
                self.direction_reason is None or isinstance(self.direction_reason, str)):
            raise InputError("direction_stated must be True or False and direction_reason a text or None, got "
                             f"{self.direction_stated!r} and {self.direction_reason!r}.")
        if not self.direction_stated and not self.direction_reason:
            raise InputError(f"A guessed direction ({arg('direction_stated', False)}) needs its reason "
                             "(direction_reason).")
        object.__setattr__(self, "direction_stated", bool(self.direction_stated))
        clean, notes = _validate_scores(
            self.scores, missing=self.missing, source=self.source, row_labels=self.row_labels,
            share=_SHARED_SCORES.get(),
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

    @cached_property
    def _names(self) -> tuple[tuple, tuple]:
        # Reading the names out of pandas' (Arrow-backed) indexes costs microseconds per name, and the dashboard asks
        # for them many times per page run (issue 31's profile: 3-5% of the server's time): once per table.
        return tuple(self.scores.columns), tuple(self.scores.index)

    @property
    def classifiers(self) -> list[str]:
        return list(self._names[0])  # a new list each time: a caller may change its copy

    @property
    def datasets(self) -> list[str]:
        return list(self._names[1])

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
    def _compact(self) -> bool:
        """Whether this table keeps its ranks compactly (:data:`COMPACT_RANKS_ABOVE`)."""
        return self.scores.size > COMPACT_RANKS_ABOVE and not self.has_missing

    @property
    def ranks(self) -> pd.DataFrame:
        """Rank of each classifier on each data set (1 = best, ties averaged). In a table with holes
        ("pairwise" policy) the classifiers present on a data set are ranked among themselves and a
        missing cell has no rank (NaN). A large complete table (:data:`COMPACT_RANKS_ABOVE`) makes this frame
        anew at each use from its compact doubled ranks (the same values: halves of integers are exact)."""
        if self._compact:
            return self.head_ranks(self.n_datasets)
        return self._ranks

    @cached_property
    def _ranks(self) -> pd.DataFrame:
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
                f"cell(s) ({arg('missing', 'pairwise')}). Use the Skillings-Mack test (compare_lib.skillings_mack) "
                "as the omnibus test and the Wilcoxon or sign test for pairs, which use the data sets each pair "
                f"shares; or drop the data sets ({arg('missing', 'drop-datasets')}) or the classifiers "
                f"({arg('missing', 'drop-classifiers')}) with missing cells."
            )

    def head_ranks(self, n: int) -> pd.DataFrame:
        """The ranks of the first ``n`` data sets: ``ranks.iloc[:n]``, without making the ranks of the whole table
        (a preview of a large table: 7.7 MB of float ranks for a million scores, made for 1,000 rows)."""
        n = max(0, int(n))
        if self._compact:
            # The halves are a new array that only this frame holds: no second copy of it (pandas copies by default).
            return pd.DataFrame(self._doubled_compact[:n] / 2.0, index=self.scores.index[:n],
                                columns=self.scores.columns, copy=False)
        return self._ranks.iloc[:n]

    @property
    def doubled_ranks(self) -> np.ndarray:
        """2 x the ranks (N x k int64, read-only): exact integers for the rank statistics (which need a
        complete table: see :meth:`require_complete`)."""
        self.require_complete("A statistic of the ranks among all classifiers (Friedman, the mean-ranks z, ...)")
        if self._compact:
            out = self._doubled_compact.astype(np.int64)
            out.setflags(write=False)
            return out
        return self._doubled

    @cached_property
    def _doubled(self) -> np.ndarray:
        out = doubled_ranks(self._ranks.to_numpy())
        out.setflags(write=False)
        return out

    @cached_property
    def _doubled_compact(self) -> np.ndarray:
        # 2 x the ranks in the smallest signed type that holds 2k (int8 up to 63 classifiers, int16 up to 16,383): 1 or
        # 2 bytes a score instead of the 16 of float ranks and int64 doubled ranks kept side by side. Every reader
        # converts first (ranks: / 2.0, doubled_ranks: int64), so no arithmetic happens in the small type.
        # Ranked a block of rows at a time (doubled_rank_rows): all at once held 64 MB of temporary arrays for a
        # million scores, a spike in the server when a class's sessions load their tables together (issue 31).
        twice_k = 2 * self.n_classifiers
        kind = next(t for t in (np.int8, np.int16, np.int32) if twice_k <= np.iinfo(t).max)
        out = doubled_rank_rows(self.scores.to_numpy(dtype=float), higher_is_better=self.higher_is_better, dtype=kind)
        out.setflags(write=False)
        return out

    @cached_property
    def doubled_rank_sums(self) -> pd.Series:
        """2 x the rank sum of each classifier, exact integers: the quantity every rank statistic uses."""
        if self._compact:  # summed in int64 from the compact ranks, without an int64 copy of them (7.7 MB a 1M table)
            sums = self._doubled_compact.sum(axis=0, dtype=np.int64)
        else:
            sums = self.doubled_ranks.sum(axis=0)
        return pd.Series(sums, index=self.scores.columns, name="2 x rank sum")

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
        return self._derived(self.scores.loc[rows, cols], self.higher_is_better, folds,
                             kept=(None if classifiers is None else cols, None if datasets is None else rows))

    def to_long(self) -> pd.DataFrame:
        """Long form with columns ``dataset``, ``classifier``, ``score`` (for AnovaRM and exports)."""
        long = self.scores.rename_axis(index="dataset", columns="classifier").stack().rename("score")
        return long.reset_index()

    def with_direction(self, higher_is_better: bool, *, stated_by: str | None = None) -> "ScoreTable":
        """The same scores read with the direction given: higher or lower is better, stated (``stated_by``: who
        stated it, e.g. "stated by you"; None: the caller), even when it is the direction guessed before."""
        return self._derived(self.scores, higher_is_better, self.folds, direction=(True, stated_by))

    def rename(self, classifiers: dict | None = None, datasets: dict | None = None) -> "ScoreTable":
        """A new table with classifiers and/or data sets renamed (``{old: new}``; issue 28), everything else
        kept (scores, direction, metric, notes, fold rows), with a note saying what was renamed. An unknown old
        name, an empty new name or two names becoming one is an :class:`~compare_lib.errors.InputError` naming
        them. (:func:`compare_lib.parse_renames` reads the mappings from "old = new" lines.) The renamed table
        records no file to read again: a reproducing script carries its scores under the new names."""
        import dataclasses

        from compare_lib.core._rename import checked_mapping, rename_note

        cls = checked_mapping(classifiers, self.classifiers, "classifiers")
        rows = checked_mapping(datasets, self.datasets, "data sets")
        if not cls and not rows:
            return self
        scores = self.scores.rename(columns=cls, index=rows)
        folds = self.folds
        if folds is not None:
            folds = folds.copy()
            if cls and "classifier" in folds.columns:
                folds["classifier"] = folds["classifier"].map(lambda name: cls.get(name, name))
            if rows and "dataset" in folds.columns:
                folds["dataset"] = folds["dataset"].map(lambda name: rows.get(name, name))
        pairwise = self.missing == "pairwise"  # validation describes the holes again
        notes = tuple(n for n in self.notes if not (pairwise and n.startswith(PAIRWISE_NOTE)))
        token = _QUIET.set(True)
        try:
            return dataclasses.replace(self, scores=scores, folds=folds, notes=notes + (rename_note(cls, rows),),
                                       provenance=None)
        finally:
            _QUIET.reset(token)

    @property
    def direction_text(self) -> str:
        """The direction and where it comes from, in words: "lower is better (stated)", "higher is better
        (stated by you)", or "lower is better, guessed from the metric's name: 'wer' is word error rate (ASR,
        Hugging Face evaluate); if that is wrong, pass higher_is_better=True" (options in Python's words;
        :func:`direction_sentence` words them for the command line or the dashboard)."""
        return direction_sentence(self)

    def _derived(self, scores: pd.DataFrame, higher_is_better, folds, kept: tuple[Any, Any] = (None, None),
                 direction=None) -> "ScoreTable":
        """A table made from this one: same source, metric and notes (a "pairwise" table describes its own
        holes instead of the original's), without showing the notes again. ``kept``: the classifiers and
        data sets a subset kept (None: unchanged), recorded in the provenance. ``direction``: (stated, reason)
        of the new table's direction (default: this table's, when the direction is unchanged)."""
        from compare_lib.core._provenance import narrowed

        pairwise = self.missing == "pairwise"
        notes = tuple(n for n in self.notes if not (pairwise and n.startswith(PAIRWISE_NOTE)))
        if direction is None:
            same = bool(higher_is_better) == self.higher_is_better
            direction = (self.direction_stated, self.direction_reason) if same else (True, None)
        token = _QUIET.set(True)
        try:
            return ScoreTable(scores, higher_is_better, missing="pairwise" if pairwise else "error",
                              source=self.source, notes=notes, folds=folds, metric=self.metric,
                              provenance=narrowed(self.provenance, *kept, higher_is_better),
                              direction_stated=direction[0], direction_reason=direction[1])
        finally:
            _QUIET.reset(token)


#: A complete table with more scores than this keeps its ranks once, as 2 x rank in 16-bit integers, and makes the
#: float ranks (:attr:`ScoreTable.ranks`) and int64 doubled ranks (:attr:`ScoreTable.doubled_ranks`) from them at
#: each use. Why (issue 31): a class uploading tables of a million scores kept 16 bytes of ranks per score in each
#: session (7.7 MB of float ranks and 7.7 MB of int64 doubled ranks for 965,250 scores, beside the 7.7 MB of
#: scores); a smaller table keeps both, as they are asked for many times per page.
COMPACT_RANKS_ABOVE = 200_000


def direction_sentence(table: ScoreTable, interface: str = "python") -> str:
    """The table's direction and where it comes from, with options in ``interface``'s words ("python", "cli",
    "app"; see :func:`compare_lib.errors.in_words`)."""
    from compare_lib.errors import in_words

    word = "higher is better" if table.higher_is_better else "lower is better"
    if table.direction_stated:
        return f"{word} ({table.direction_reason or 'stated'})"
    reason = table.direction_reason or ""  # a guessed direction always has the catalogue's reason
    for prefix in ("higher is better: ", "lower is better: "):
        reason = reason[len(prefix):] if reason.startswith(prefix) else reason
    other = arg("higher_is_better", not table.higher_is_better)
    return in_words(f"{word}, guessed from the metric's name: {reason}; if that is wrong, pass {other}", interface)


def as_table(table: Any, higher_is_better: bool | None = None) -> ScoreTable:
    """Accept a :class:`ScoreTable`, or a DataFrame/array together with ``higher_is_better``."""
    if isinstance(table, ScoreTable):
        if higher_is_better is not None and (bool(higher_is_better) != table.higher_is_better
                                             or not table.direction_stated):
            return table.with_direction(bool(higher_is_better))  # given here: stated
        return table
    if higher_is_better is None:
        raise InputError(
            f"Got a plain table without a direction. Pass a ScoreTable, or pass {arg('higher_is_better', True)} "
            f"(accuracy, AUC) or {arg('higher_is_better', False)} (error rate, loss)."
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


