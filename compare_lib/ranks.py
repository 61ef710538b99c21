"""Ranks of classifiers within each data set (Demšar 2006, §3.2.2).

Conventions used everywhere in :mod:`compare_lib`:

* rank 1 is the best classifier on a data set, rank k the worst;
* tied scores get the average of the ranks they span (``scipy.stats.rankdata(method="average")``);
* whether a higher score is better is always stated by the caller (``higher_is_better``).

Ties are exact equality of the numbers as loaded; round the scores first if differences below
the measurement precision should count as ties.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def average_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks within each row, ties given the average of the ranks they span: the values of
    ``scipy.stats.rankdata(x, axis=1)`` (tested equal), about five times faster on wide rows because
    the order among equal values does not matter (an unstable sort suffices)."""
    x = np.atleast_2d(x)
    order = np.argsort(x, axis=1, kind="quicksort")
    sorted_x = np.take_along_axis(x, order, axis=1)
    n = x.shape[1]
    position = np.arange(n)
    starts = np.ones(x.shape, dtype=bool)
    starts[:, 1:] = sorted_x[:, 1:] != sorted_x[:, :-1]
    ranks = np.empty(x.shape)
    if starts.all():  # no ties anywhere: the rank is the position in the sorted row
        np.put_along_axis(ranks, order, np.broadcast_to(position + 1.0, x.shape), axis=1)
        return ranks
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1)  # start of each run
    ends = np.ones(x.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    last = np.minimum.accumulate(np.where(ends, position, n - 1)[:, ::-1], axis=1)[:, ::-1]  # its end
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=1)
    return ranks


def rank_scores(scores: np.ndarray, *, higher_is_better: bool) -> np.ndarray:
    """Rank each row of an (N data sets x k classifiers) array: 1 = best, ties averaged (the values of
    ``scipy.stats.rankdata(method="average")``, tested equal)."""
    values = np.asarray(scores, dtype=float)
    oriented = -values if higher_is_better else values
    return average_ranks(oriented)


def doubled_ranks(ranks: np.ndarray) -> np.ndarray:
    """2 x the (average) ranks as exact integers (int64): average ranks are multiples of 1/2."""
    return np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)


def doubled_rank_rows(scores: np.ndarray, *, higher_is_better: bool, dtype=np.int64,
                      block_cells: int = 1 << 16) -> np.ndarray:
    """2 x the ranks of each row of an (N x k) array, as ``dtype``: the values of
    ``doubled_ranks(rank_scores(scores, higher_is_better=...))``, computed a block of rows at a time. Why (issue 31):
    ranking a table of a million scores at once holds about 64 MB of temporary arrays (sort order, sorted values,
    run starts and ends, float ranks, their doubles), a spike in a server where a class's sessions rank their tables
    at the same moment; blocks of the default 65,536 scores hold a few MB (``tests/test_table.py``: under 6 MB beside
    the result). ``dtype`` must hold 2k (the caller chooses it); rows are independent, so the result does not depend
    on the block size (``tests/test_properties.py``)."""
    values = np.asarray(scores, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"expected an (N x k) array, got shape {values.shape}")
    n, k = values.shape
    out = np.empty((n, k), dtype=dtype)
    step = max(1, block_cells // max(k, 1))
    for lo in range(0, n, step):  # blocks of rows, not a loop over rows: about 15 blocks for a million scores
        out[lo:lo + step] = doubled_ranks(rank_scores(values[lo:lo + step], higher_is_better=higher_is_better))
    return out


def doubled_rank_sums(ranks: np.ndarray) -> np.ndarray:
    """Twice the rank sum of each classifier, as exact integers (int64).

    Average ranks are multiples of 1/2, so 2 * sum_i r_i^j is a whole number. Every rank-based
    statistic is computed from these integers so that equal differences of rank sums give
    bit-identical statistics whatever the order of rows and columns (floating-point mean ranks
    would make R_a - R_b and R_c - R_d differ in the last bit when the rank sums differ equally).
    """
    return doubled_ranks(ranks).sum(axis=0)


def mean_ranks(ranks: np.ndarray) -> np.ndarray:
    """Average rank of each classifier over the data sets, R_j = (1/N) sum_i r_i^j (Demšar eq. in §3.2.2).

    Computed as (exact doubled rank sum) / (2N), so equal rank sums give identical mean ranks.
    """
    ranks = np.asarray(ranks, dtype=float)
    return doubled_rank_sums(ranks) / (2 * ranks.shape[0])


def win_tie_loss(scores: np.ndarray, *, higher_is_better: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairwise counts over data sets.

    Returns ``(wins, ties, losses)``, each k x k, where ``wins[i, j]`` is the number of data sets on
    which classifier i is strictly better than classifier j. ``losses`` is ``wins.T``.
    """
    values = np.asarray(scores, dtype=float)
    oriented = values if higher_is_better else -values
    n, k = oriented.shape
    wins = np.zeros((k, k), dtype=np.int64)
    ties = np.zeros((k, k), dtype=np.int64)
    # Rows in chunks so that the N x k x k comparison never holds more than ~4 million cells.
    step = max(1, 4_000_000 // max(1, k * k))
    for lo in range(0, n, step):
        block = oriented[lo : lo + step]
        diff = block[:, :, None] - block[:, None, :]
        wins += (diff > 0).sum(axis=0)
        ties += (diff == 0).sum(axis=0)
    return wins, ties, wins.T.copy()


def win_fraction(scores: np.ndarray, *, higher_is_better: bool) -> np.ndarray:
    """``W[i, j]``: fraction of data sets on which i beats j, ties counting one half.

    The mean rank of classifier j inside any pool S of classifiers is ``1 + sum_{i in S, i != j} W[i, j]``
    (Benavoli et al. 2016 build their pool argument on this), so pools never need re-ranking.
    """
    wins, ties, _ = win_tie_loss(scores, higher_is_better=higher_is_better)
    n = np.asarray(scores).shape[0]
    frac = (wins + 0.5 * ties) / n
    np.fill_diagonal(frac, 0.0)
    return frac


def win_tie_loss_frame(scores: pd.DataFrame, *, higher_is_better: bool) -> pd.DataFrame:
    """Tidy wins/ties/losses: one row per ordered pair (a, b) with a != b."""
    wins, ties, losses = win_tie_loss(scores.to_numpy(), higher_is_better=higher_is_better)
    names = np.asarray(scores.columns, dtype=object)
    i, j = np.nonzero(~np.eye(names.size, dtype=bool))
    return pd.DataFrame({"a": names[i], "b": names[j], "wins": wins[i, j], "ties": ties[i, j], "losses": losses[i, j]})
