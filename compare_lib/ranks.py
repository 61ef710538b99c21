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
from scipy import stats


def rank_scores(scores: np.ndarray, *, higher_is_better: bool) -> np.ndarray:
    """Rank each row of an (N data sets x k classifiers) array: 1 = best, ties averaged."""
    values = np.asarray(scores, dtype=float)
    oriented = -values if higher_is_better else values
    return stats.rankdata(oriented, axis=1, method="average")


def doubled_rank_sums(ranks: np.ndarray) -> np.ndarray:
    """Twice the rank sum of each classifier, as exact integers (int64).

    Average ranks are multiples of 1/2, so 2 * sum_i r_i^j is a whole number. Every rank-based
    statistic is computed from these integers so that equal differences of rank sums give
    bit-identical statistics whatever the order of rows and columns (floating-point mean ranks
    would make R_a - R_b and R_c - R_d differ in the last bit when the rank sums differ equally).
    """
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    return doubled.sum(axis=0)


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
