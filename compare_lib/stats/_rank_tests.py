"""Rank tests beyond Friedman's mean ranks: aligned ranks, Quade, Conover and exact rank-sum differences.

* :func:`friedman_aligned_ranks` — Hodges & Lehmann's (1962) aligned ranks: each score minus its data
  set's mean, all kN residuals ranked together (García, Fernández, Luengo & Herrera 2010, §3.1);
* :func:`quade` — Quade's (1979) test: within-data-set ranks weighted by the rank of the data set's
  range (García et al. 2010, §3.1; Conover 1999, §5.8);
* pairwise statistics for :func:`compare_lib.posthoc`: the aligned-ranks z, the Quade z, Conover's
  (1999, §5.8) t after Friedman, and the exact distribution of a difference of Friedman rank sums
  (Eisinga, Heskes, Pelzer & Te Grotenhuis 2017).

Conventions as everywhere in the library: rank 1 is the best, ties get average ranks, tests are
two-sided, and every statistic is positive when the first classifier of the pair is the better.

The pairwise standard errors are the exact permutation variances of the statistics under the null
hypothesis (each data set's values assigned to the classifiers in a uniformly random order), given
the observed ranks. Without ties they reduce to closed forms; where the literature prints another
formula the docstring says so, and the tests check the variance against full enumeration:

* aligned ranks: Var(Rbar_a - Rbar_b) = 2 D / (N^2 (k - 1)), D = sum_i sum_j (r_ij - rbar_i)^2 the
  within-data-set sum of squares of the aligned ranks, the denominator of the omnibus statistic
  (so that for k = 2 the pairwise z^2 is the omnibus T). Its average over random tables is
  k(kN + 1)/6; García et al. print sqrt(k(N + 1)/6) (an error noted by Santafé, Inza & Lozano 2015,
  p. 498, and copied by scmamp's post-hoc);
* Quade: Var(S_a - S_b) = 2 A / (k - 1), A = sum_ij S_ij^2, S_ij = Q_i (r_ij - (k+1)/2). Without ties,
  for the weighted mean ranks T_j = W_j / (N(N+1)/2) this is k(k+1)(2N+1) / (9 N (N+1)); García et
  al. print k(k+1)(2N+1)(k-1) / (18 N (N+1)), the same only for k = 3 and larger (conservative)
  for k > 3;
* Conover: the t statistic of Conover (1999, p. 371), |R_a - R_b| / sqrt(2 (N A_1 - sum_j R_j^2) /
  ((N-1)(k-1))), with (N-1)(k-1) degrees of freedom; A_1 = sum of squared ranks (ties included);
* exact rank-sum difference: the null distribution of R_a - R_b is the N-fold convolution of each
  data set's distribution of r_a - r_b (uniform over the ordered pairs of its ranks, ties
  included); it is the same for every pair, so one convolution serves all pairs (Eisinga et al.
  give a closed form for untied ranks; the convolution is exact with ties too).

All of these depend on the other classifiers in the pool (the ranks do), like the mean-ranks z
(Benavoli, Corani & Mangili 2016); the Wilcoxon and sign tests do not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.core._table import ScoreTable, as_table
from compare_lib.errors import InputError
from compare_lib.core._result import FTestResult, RankTestResult
from compare_lib.core._result import PairwiseStatistics

#: Cells (vector length x kernel length, summed over data sets) the exact rank-sum convolution may cost:
#: under a second on a 2-core machine (bench/rank_tests.py). Beyond it the normal approximation with the
#: exact variance is used, and said.
from compare_lib.limits import EXACT_RANK_SUM_CELLS  # noqa: E402

#: Residuals closer than this fraction of the largest |score| count as ties in the aligned ranks, so
#: that rounding noise in the data-set means never decides a rank (nor depends on the column order).
ALIGNED_TIE_TOLERANCE = 1e-12


def _aligned_doubled_ranks(t: ScoreTable) -> np.ndarray:
    """2 x the aligned ranks (integers), N x k; rank 1 = the largest residual (the best)."""
    t.require_complete("The aligned ranks (Friedman aligned-ranks test and z)")
    memo = t.memo
    if "aligned_doubled" not in memo:
        x = t.oriented_scores
        n, k = x.shape
        # The sum of a row's sorted values does not depend on the order of the columns.
        residual = k * x - np.sort(x, axis=1).sum(axis=1, keepdims=True)
        scale = float(np.max(np.abs(x))) * k if x.size else 0.0
        quantum = scale * ALIGNED_TIE_TOLERANCE if scale > 0 else 1.0
        snapped = np.round(residual / quantum)
        ranks = stats.rankdata(-snapped.ravel(), method="average").reshape(n, k)
        memo["aligned_doubled"] = np.rint(2 * ranks).astype(np.int64)
    return memo["aligned_doubled"]


def aligned_ranks(table, *, higher_is_better: bool | None = None) -> pd.DataFrame:
    """The aligned ranks (Hodges & Lehmann 1962): each score minus its data set's mean score, the kN
    residuals ranked together, 1 = the largest residual (the best relative to its data set), ties
    averaged. Residuals closer than :data:`ALIGNED_TIE_TOLERANCE` x the largest ``|score|`` tie."""
    t = as_table(table, higher_is_better)
    return pd.DataFrame(_aligned_doubled_ranks(t) / 2, index=t.scores.index, columns=t.scores.columns)


def _quade_parts(t: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """(2 Q_i, 2 r_ij - (k + 1)) as integers: doubled range ranks and doubled centred ranks."""
    memo = t.memo
    if "quade_parts" not in memo:
        x = t.scores.to_numpy(dtype=float)
        k = x.shape[1]
        spread = np.ptp(x, axis=1)
        q2 = np.rint(2 * stats.rankdata(spread, method="average")).astype(np.int64)
        centred2 = t.doubled_ranks - (k + 1)
        memo["quade_parts"] = (q2, centred2)
    return memo["quade_parts"]


def quade_weights(table, *, higher_is_better: bool | None = None) -> pd.Series:
    """Q_i: the rank of each data set's range (largest - smallest score), 1 = the smallest range, ties averaged."""
    t = as_table(table, higher_is_better)
    q2, _ = _quade_parts(t)
    return pd.Series(q2 / 2, index=t.scores.index, name="Q (rank of the range)")


def quade_mean_ranks(table, *, higher_is_better: bool | None = None) -> pd.Series:
    """Quade's weighted mean ranks T_j = sum_i Q_i r_ij / (N(N+1)/2) (García et al. 2010), 1 = best."""
    t = as_table(table, higher_is_better)
    q2, centred2 = _quade_parts(t)
    n, k = centred2.shape
    weighted = (q2[:, None] * centred2).sum(axis=0) / 4  # S_j
    return pd.Series(weighted / (n * (n + 1) / 2) + (k + 1) / 2, index=t.scores.columns, name="Quade mean rank")


@dataclass(frozen=True)
class AlignedRanksResult(RankTestResult):
    """Friedman aligned-ranks test: ``statistic`` T compared with chi2(``df`` = k - 1)."""

    mean_ranks: pd.Series = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()
    method: str = "asymptotic"


@dataclass(frozen=True)
class QuadeResult(FTestResult):
    """Quade test: ``statistic`` F compared with F(``df1`` = k - 1, ``df2`` = (k - 1)(N - 1))."""

    k: int
    n: int
    mean_ranks: pd.Series = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()
    method: str = "asymptotic"


def _aligned_within_ss(doubled: np.ndarray) -> float:
    """D = sum_i sum_j (r_ij - rbar_i)^2 of the aligned ranks (from doubled ranks, exact until 2^53)."""
    d = doubled.astype(float)
    k = d.shape[1]
    return float(((k * d - d.sum(axis=1, keepdims=True)) ** 2).sum()) / (4 * k * k)


def friedman_aligned_ranks(table, *, higher_is_better: bool | None = None) -> AlignedRanksResult:
    """Friedman aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010, §3.1).

    T = (k - 1) sum_j (R_j - N(kN + 1)/2)^2 / D, R_j the aligned rank sums and D the within-data-set
    sum of squares of the aligned ranks, compared with chi2(k - 1). Without ties D equals García et
    al.'s [kN(kN+1)(2kN+1)/6 - (1/k) sum_i R_i.^2]; with ties it is the exact permutation variance.
    Aligning lets data sets be compared with each other, which helps when k is small (k < 4 or so).
    """
    t = as_table(table, higher_is_better)
    n, k = t.n_datasets, t.n_classifiers
    doubled = _aligned_doubled_ranks(t)
    sums2 = doubled.sum(axis=0).astype(float)  # 2 R_j
    within = _aligned_within_ss(doubled)
    mean_ranks = pd.Series(sums2 / (2 * n), index=t.classifiers, name="mean aligned rank")
    centre2 = n * (k * n + 1)  # 2 x N(kN + 1)/2
    if within <= 0:
        note = ("Undefined: every data set gives all classifiers the same score, so the aligned ranks do not vary "
                "within any data set.")
        return AlignedRanksResult(math.nan, math.nan, k - 1, k, n, mean_ranks, (note,))
    statistic = (k - 1) * float(((sums2 - centre2) ** 2).sum()) / 4 / within
    return AlignedRanksResult(statistic, float(stats.chi2.sf(statistic, k - 1)), k - 1, k, n, mean_ranks)


def quade(table, *, higher_is_better: bool | None = None) -> QuadeResult:
    """Quade test (Quade 1979; Conover 1999, §5.8; García et al. 2010, §3.1).

    With Q_i the rank of data set i's range and S_ij = Q_i (r_ij - (k+1)/2): A = sum_ij S_ij^2,
    B = sum_j S_j^2 / N and F = (N - 1) B / (A - B), compared with F(k - 1, (k - 1)(N - 1)). A is the
    sum itself (García et al.'s N(N+1)(2N+1)k(k+1)(k-1)/72 holds only without ties). Data sets with
    larger ranges weigh more: it assumes ranges are comparable across data sets.

    When A = B (every data set ranks the classifiers the same way and all ranges tie) F is infinite:
    Conover then puts the point in the critical region; here p is the exact probability of that
    agreement under the null, (k!/prod t!)^-(N-1), as for Iman-Davenport.
    """
    from compare_lib.stats._exact import all_identical_probability

    t = as_table(table, higher_is_better)
    n, k = t.n_datasets, t.n_classifiers
    q2, centred2 = _quade_parts(t)
    s = q2[:, None].astype(float) * centred2 / 4  # S_ij
    a = float((s**2).sum())
    b = float((s.sum(axis=0) ** 2).sum()) / n
    df1, df2 = k - 1, (k - 1) * (n - 1)
    means = quade_mean_ranks(t)
    if a <= 0:
        note = "Undefined: every data set ties all classifiers (or has zero range), so the weighted ranks do not vary."
        return QuadeResult(math.nan, math.nan, df1, df2, k, n, means, (note,))
    if n < 2:
        return QuadeResult(math.nan, math.nan, df1, df2, k, n, means, ("Quade's test needs at least two data sets.",))
    if a - b <= 1e-12 * a:
        p = all_identical_probability(t.doubled_ranks)
        note = ("A = B: every data set ranks the classifiers the same way, so F is infinite and the F distribution "
                "gives no p-value; p is the exact probability of this agreement when the classifiers are equivalent.")
        return QuadeResult(math.inf, math.nan if p is None else p, df1, df2, k, n, means, (note,), "exact")
    f_stat = (n - 1) * b / (a - b)
    return QuadeResult(float(f_stat), float(stats.f.sf(f_stat, df1, df2)), df1, df2, k, n, means)


# ---------------------------------------------------------------------------------------------
# pairwise statistics: each returns PairwiseStatistics (statistic, p, better index or -1, exact flags),
# vectorized over pairs


def _better(diff: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """diff > 0 when a (the first of the pair) is better."""
    return np.where(diff > 0, pairs[:, 0], np.where(diff < 0, pairs[:, 1], -1))


def _normal_p(z: np.ndarray) -> np.ndarray:
    return np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))


def aligned_ranks_z(t: ScoreTable, pairs) -> PairwiseStatistics:
    """z = (Rbar_b - Rbar_a) / sqrt(2 D / (N^2 (k-1))) of the aligned ranks (positive when a is better)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    doubled = _aligned_doubled_ranks(t)
    n, k = doubled.shape
    sums2 = doubled.sum(axis=0)
    diff2 = sums2[pairs[:, 1]] - sums2[pairs[:, 0]]  # exact integers: equal differences, identical z
    within = _aligned_within_ss(doubled)
    if within <= 0:
        raise InputError("The aligned-ranks statistic is undefined: no data set has different scores.")
    z = diff2 / (2.0 * math.sqrt(2.0 * within / (k - 1)))  # rank sums: Var(R_a - R_b) = 2 D / (k - 1)
    return PairwiseStatistics(z, _normal_p(z), _better(diff2, pairs), np.ones(len(z), dtype=bool))


def quade_z(t: ScoreTable, pairs) -> PairwiseStatistics:
    """z = (S_b - S_a) / sqrt(2 A / (k-1)) of Quade's weighted ranks (positive when a is better)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    q2, centred2 = _quade_parts(t)
    k = centred2.shape[1]
    s4 = (q2[:, None] * centred2).sum(axis=0)  # 4 S_j, exact integers
    diff4 = s4[pairs[:, 1]] - s4[pairs[:, 0]]
    a = float(((q2[:, None].astype(float) * centred2) ** 2).sum()) / 16
    if a <= 0:
        raise InputError("The Quade statistic is undefined: no data set has different scores.")
    z = diff4 / (4.0 * math.sqrt(2.0 * a / (k - 1)))
    return PairwiseStatistics(z, _normal_p(z), _better(diff4, pairs), np.ones(len(z), dtype=bool))


class ZeroResidualError(InputError):
    """Conover's t divides by zero. The registry of pairwise statistics (a layer above) replaces :attr:`ADVICE` with
    advice naming the exact rank-sum test when it is registered."""

    ADVICE = "Use another pairwise statistic."


def conover_t(t: ScoreTable, pairs) -> PairwiseStatistics:
    """Conover's t = (R_b - R_a) / sqrt(2 (N A_1 - sum_j R_j^2) / ((N-1)(k-1))), (N-1)(k-1) df."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    n, k = t.n_datasets, t.n_classifiers
    if n < 2:
        raise InputError("Conover's test needs at least two data sets (its t has (N - 1)(k - 1) degrees of freedom).")
    doubled = t.doubled_ranks
    sums2 = t.doubled_rank_sums.to_numpy()
    # 4(N A_1 - sum R^2) in int64: at most 4 (Nk)^2 k <= 2e15 within the loader's limits (1e6 scores, k <= 500)
    residual4 = n * int((doubled**2).sum()) - int((sums2**2).sum())
    if residual4 <= 0:
        raise ZeroResidualError(
            "Conover's t is undefined here: every data set ranks the classifiers the same way, so the residual rank "
            "variance it divides by is zero. " + ZeroResidualError.ADVICE
        )
    df = (n - 1) * (k - 1)
    diff2 = sums2[pairs[:, 1]] - sums2[pairs[:, 0]]
    se = math.sqrt(2.0 * residual4 / 4.0 / df)
    tt = diff2 / (2.0 * se)
    p = np.minimum(1.0, 2 * stats.t.sf(np.abs(tt), df))
    return PairwiseStatistics(tt, p, _better(diff2, pairs), np.ones(len(tt), dtype=bool))


def rank_sum_difference_distribution(doubled_ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Exact null distribution of 2 (R_a - R_b) for any pair, from N x k doubled ranks.

    Under the permutation null each data set's ranks are assigned to the classifiers in a uniformly
    random order, so (r_a, r_b) is a uniformly random ordered pair of distinct positions of its rank
    vector, independently across data sets. Returns (support, pmf) with support the even or odd
    integers from -max to max in doubled units, or None when the convolutions would exceed
    :data:`EXACT_RANK_SUM_CELLS`. Data sets with the same tie pattern share one kernel.
    """
    doubled_ranks = np.asarray(doubled_ranks, dtype=np.int64)
    n, k = doubled_ranks.shape
    patterns, counts = np.unique(np.sort(doubled_ranks, axis=1), axis=0, return_counts=True)
    width = 2 * (2 * k - 2) + 1  # kernel length in doubled units (differences from -(2k-2) to 2k-2)
    total = n * width
    if total * width * n / 2 > EXACT_RANK_SUM_CELLS:
        return None
    off = np.arange(k)
    not_same = off[:, None] != off[None, :]
    pmf = np.ones(1)
    low = 0
    for pattern, count in zip(patterns, counts):
        diffs = (pattern[:, None] - pattern[None, :])[not_same]
        lo = int(diffs.min())
        kernel = np.bincount(diffs - lo).astype(float) / diffs.size
        for _ in range(int(count)):
            pmf = np.convolve(pmf, kernel)  # direct convolution: no FFT round-off in the tails
            low += lo
    support = np.arange(low, low + pmf.size)
    return support, pmf


def rank_sum_exact(t: ScoreTable, pairs) -> PairwiseStatistics:
    """Statistic R_b - R_a (Friedman rank sums; positive when a is better) with the exact two-sided
    p-value P(|R_a - R_b| >= observed) of Eisinga et al. (2017), or, beyond the work budget, the
    normal approximation with the exact variance (flagged as not exact)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    memo = t.memo
    doubled = t.doubled_ranks
    if "rank_sum_distribution" not in memo:
        memo["rank_sum_distribution"] = rank_sum_difference_distribution(doubled)
    dist = memo["rank_sum_distribution"]
    sums2 = t.doubled_rank_sums.to_numpy()
    diff2 = sums2[pairs[:, 1]] - sums2[pairs[:, 0]]
    observed = np.abs(diff2)
    if dist is None:
        k = doubled.shape[1]
        centred = doubled - doubled.mean(axis=1, keepdims=True)
        variance2 = 2.0 * k / (k - 1) * float((centred**2).mean(axis=1).sum())  # Var(2(R_a - R_b))
        z = observed / math.sqrt(variance2) if variance2 > 0 else np.where(observed > 0, np.inf, 0.0)
        p = np.minimum(1.0, 2 * stats.norm.sf(z))
        return PairwiseStatistics(diff2 / 2.0, p, _better(diff2, pairs), np.zeros(len(diff2), dtype=bool))
    support, pmf = dist
    # P(|D| >= d): the distribution is symmetric; sum the upper tail from its small end.
    upper = np.cumsum(pmf[::-1])[::-1]  # upper[i] = P(D >= support[i])
    index = np.searchsorted(support, observed, side="left")
    tail = np.where(index < support.size, upper[np.minimum(index, support.size - 1)], 0.0)
    p = np.where(observed == 0, 1.0, np.minimum(1.0, 2 * tail))
    return PairwiseStatistics(diff2 / 2.0, p, _better(diff2, pairs), np.ones(len(diff2), dtype=bool))
