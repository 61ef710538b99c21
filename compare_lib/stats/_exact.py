"""Exact permutation distributions of rank statistics, computed without listing the rankings.

Under the null hypothesis of the Friedman test every data set ranks the classifiers in an order
drawn uniformly from the arrangements of its own (possibly tied) ranks, independently of the other
data sets. The exact p-value of a statistic that depends on the rank sums is the probability, under
that permutation distribution, of a value at least as extreme as the observed one. Listing the
(k!)^N combinations is hopeless beyond tiny tables; here the distribution is built data set by data
set over the *multisets* of rank sums (the Friedman statistic is symmetric in the classifiers, so the
sorted vector of rank sums is a sufficient state), merging equal states after each step.

Everything is in doubled ranks (integers: average ranks are multiples of 1/2), so comparisons with
the observed statistic are exact. The work grows with the number of distinct states; a budget stops
the computation (and the callers fall back to the asymptotic distribution, saying so) before it
takes more than about a second.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations

import numpy as np

#: Upper bound on the cells (states x arrangements x k) of one step, and on their total over all steps.
STEP_CELLS = 6_000_000
TOTAL_CELLS = 40_000_000


@lru_cache(maxsize=256)
def _arrangements(pattern: tuple[int, ...]) -> np.ndarray:
    """The distinct orderings of a doubled rank vector (k!/prod t! of them), as an int64 array."""
    k = len(pattern)
    if math.factorial(k) > 50_000:
        raise OverflowError("too many arrangements")
    return np.array(sorted(set(permutations(pattern))), dtype=np.int64)


def friedman_exact_sf(doubled_ranks: np.ndarray, observed_sum_squares: int) -> float | None:
    """P(sum_j S_j^2 >= observed) under the permutation null, S_j the doubled rank sums.

    ``doubled_ranks``: N x k integer array of 2 x the ranks (ties averaged) of each data set. The
    Friedman statistic, with or without the tie correction, and Iman-Davenport's F_F are increasing
    functions of sum_j S_j^2 given the tie pattern, so this one probability is the exact p-value of
    all three. Data sets on which every classifier ties add a constant and are skipped. Returns
    None when the computation would exceed the budget (:data:`STEP_CELLS`, :data:`TOTAL_CELLS`).
    """
    doubled_ranks = np.asarray(doubled_ranks, dtype=np.int64)
    n, k = doubled_ranks.shape
    constant = np.zeros(k, dtype=np.int64)
    patterns = []
    for row in np.sort(doubled_ranks, axis=1):
        if row[0] == row[-1]:
            constant += row  # all tied: the same contribution to every classifier
        else:
            patterns.append(tuple(int(v) for v in row))
    if not patterns:
        return 1.0
    base = int(doubled_ranks.max(axis=1).sum()) + 1
    if k * math.log2(base) > 62:  # the sorted state vector must fit one int64 code
        return None
    place = base ** np.arange(k - 1, -1, -1, dtype=np.int64)
    states = np.zeros((1, k), dtype=np.int64)
    probs: np.ndarray = np.ones(1)  # bincount with weights: floats
    spent = 0
    ordered = sorted(patterns)  # equal patterns in a row keep the state count low
    for step, pattern in enumerate(ordered):
        try:
            moves = _arrangements(pattern)
        except OverflowError:
            return None
        cells = states.shape[0] * moves.shape[0] * k
        spent += cells
        if cells > STEP_CELLS or spent > TOTAL_CELLS:
            return None
        # The distinct states grow about like step^(k-1): give up at once when the last step would not fit.
        if step >= 3:
            final = cells * (len(ordered) / step) ** (k - 1)
            if final > 4 * STEP_CELLS or spent + final * (len(ordered) - step) / k > 2 * TOTAL_CELLS:
                return None
        grown = (states[:, None, :] + moves[None, :, :]).reshape(-1, k)
        grown.sort(axis=1)
        codes = grown @ place
        unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        probs = np.bincount(inverse.ravel(), weights=np.repeat(probs / moves.shape[0], moves.shape[0]),
                            minlength=unique.size)
        states = grown[first]
    totals = states + np.sort(constant)  # the constant part is the same for every classifier
    hit = (totals**2).sum(axis=1) >= observed_sum_squares  # small enough for int64 within the budget
    tail = np.sort(probs[hit])  # small terms first keep tiny p-values accurate
    return float(min(1.0, tail.sum()))


def all_identical_probability(doubled_ranks: np.ndarray) -> float | None:
    """P(every data set that is not all tied ranks the classifiers exactly as the first such one does),
    under the permutation null: the exact p-value when the Friedman statistic is at its maximum.

    Only defined when those data sets share one tie pattern (otherwise the maximum cannot be reached);
    returns None then. (k!/prod t!)^-(M-1) for M such data sets; no enumeration, any size.
    """
    rows = np.sort(np.asarray(doubled_ranks, dtype=np.int64), axis=1)
    varied = rows[rows[:, 0] != rows[:, -1]]
    if varied.shape[0] == 0:
        return 1.0
    if not (varied == varied[0]).all():
        return None
    _, counts = np.unique(varied[0], return_counts=True)
    log_arrangements = math.lgamma(rows.shape[1] + 1) - sum(math.lgamma(c + 1) for c in counts)
    return math.exp(-(varied.shape[0] - 1) * log_arrangements)
