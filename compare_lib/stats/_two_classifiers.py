"""Tests for two classifiers over N data sets (Demšar 2006, §3.1).

* :func:`sign_test` — counts of wins, losses and ties (§3.1.4, Table 3);
* :func:`wilcoxon` — Wilcoxon signed-ranks test (§3.1.3) with Demšar's handling of zero differences;
* :func:`paired_ttest` — paired t-test on absolute or relative differences (§3.1.2).

All tests are two-sided. ``x`` and ``y`` are the scores of the two classifiers on the same data
sets; ``higher_is_better`` only decides which one a "win" or R+ refers to (R+ and wins count the
data sets where ``y`` is better), never the p-value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from compare_lib.core._validation import check_alpha, check_choice
from compare_lib.core._result import TestResult
from compare_lib.errors import InputError, arg
from compare_lib.ranks import average_ranks

WILCOXON_ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
WILCOXON_METHODS = ("auto", "exact", "approx")
#: Up to this many differences ``method="auto"`` computes the exact distribution.
from compare_lib.limits import EXACT_WILCOXON_MAX_N  # noqa: E402


def _pair(x, y, what: str = "scores") -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(x, dtype=float).ravel()
    b = np.asarray(y, dtype=float).ravel()
    if a.shape != b.shape:
        raise InputError(
            f"The two classifiers have {a.size} and {b.size} {what}; a paired test needs one score per data set "
            "for both."
        )
    if a.size == 0:
        raise InputError("No data sets: a paired test needs at least one score per classifier.")
    bad = np.flatnonzero(~np.isfinite(a) | ~np.isfinite(b))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"Data set {i + 1} (position {i}) has a missing or infinite score ({a[i]!r}, {b[i]!r}); "
            "paired tests need finite scores for both classifiers on every data set."
        )
    return a, b




# ---------------------------------------------------------------------------------------------
# sign test


@dataclass(frozen=True)
class SignTestResult(TestResult):
    """Result of :func:`sign_test`.

    ``statistic`` is the number of wins of ``y`` after splitting ties; ``n`` the number of data
    sets counted (one tie is dropped when their number is odd).
    """

    wins: int
    losses: int
    ties: int
    n: int
    pvalue_normal: float
    critical_wins: int
    alpha: float
    method: str = "exact binomial"


def sign_test_critical_wins(n: int, alpha: float = 0.05, *, method: str = "normal") -> int:
    """Smallest number of wins out of ``n`` that is significant (two-sided) at ``alpha``.

    ``method="normal"`` is Demšar's rule (§3.1.4): wins >= N/2 + z_{alpha/2} sqrt(N)/2, rounded up. It
    reproduces 35 of the 42 entries of his Table 3; the other seven (N = 13, 18, 24 at 0.05 and
    N = 14, 19, 21, 24 at 0.10) differ from the rule by one win in the table itself. ``method="exact"`` is the smallest w with
    exact two-sided binomial p <= alpha (``n + 1`` if no number of wins reaches it).
    """
    check_alpha(alpha)
    if int(n) != n or n < 1:
        raise InputError(f"n must be a positive whole number of data sets, got {n!r}.")
    n = int(n)
    if method == "normal":
        return int(math.ceil(n / 2 + stats.norm.isf(alpha / 2) * math.sqrt(n) / 2 - 1e-12))
    if method == "exact":
        for w in range(int(math.ceil(n / 2)), n + 1):
            if min(1.0, 2 * stats.binom.sf(w - 1, n, 0.5)) <= alpha:
                return w
        return n + 1
    raise InputError(f"{arg('method', method)} is not known; use 'normal' or 'exact'.")


def sign_test_rows(d: np.ndarray) -> dict[str, np.ndarray]:
    """The sign test of every row of ``d`` (S x N differences, positive = a win), vectorized.

    Ties are split evenly and one is dropped if their number is odd (Demšar 2006, §3.1.4); a missing
    difference (NaN: a data set only one classifier of the pair has) is left out. The exact
    two-sided binomial p is 2 * P(B <= min(w, n - w)), B ~ Bin(n, 1/2), capped at 1: what
    ``scipy.stats.binomtest`` gives for p = 1/2 (the distribution is symmetric). :func:`sign_test`,
    the post-hoc tables and the simulations all use this one function, so they agree to the bit.
    """
    d = np.atleast_2d(np.asarray(d, dtype=float))
    wins = (d > 0).sum(axis=1)
    losses = (d < 0).sum(axis=1)
    ties = (d == 0).sum(axis=1)  # a missing difference (NaN) is none of the three
    half = ties // 2
    n = wins + losses + 2 * half
    w = wins + half
    low = np.minimum(w, n - w)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, np.minimum(1.0, 2 * stats.binom.cdf(low, np.maximum(n, 1), 0.5)), 1.0)
        z = np.where(n > 0, np.abs(w - n / 2) / (np.sqrt(np.maximum(n, 1)) / 2), 0.0)
    p_norm = np.where(n > 0, np.minimum(1.0, 2 * stats.norm.sf(z)), 1.0)
    return {"wins": wins, "losses": losses, "ties": ties, "n": n, "statistic": w.astype(float), "p": p,
            "p_normal": p_norm}


def sign_test(x, y, *, higher_is_better: bool = True, alpha: float = 0.05) -> SignTestResult:
    """Sign test on counts of wins, losses and ties (Demšar 2006, §3.1.4).

    Ties support the null hypothesis, so they are split evenly between the two classifiers; if
    their number is odd, one is ignored. The p-value is the exact two-sided binomial p (equal to
    ``scipy.stats.binomtest``'s); ``pvalue_normal`` is the normal approximation N(N/2, sqrt(N)/2)
    and ``critical_wins`` Demšar's critical number of wins (Table 3) at ``alpha``.

    Demšar's Table 2 example: C4.5+m wins 11 of 14 (10 wins, 2 ties split), which reaches Table 3's
    critical value 11 at 0.05; the exact binomial p is 0.057.
    """
    a, b = _pair(x, y)
    check_alpha(alpha)
    d = (b - a) if higher_is_better else (a - b)
    r = {key: value[0] for key, value in sign_test_rows(d[None, :]).items()}
    n = int(r["n"])
    crit = sign_test_critical_wins(max(n, 1), alpha)
    return SignTestResult(float(r["statistic"]), float(r["p"]), int(r["wins"]), int(r["losses"]), int(r["ties"]), n,
                          float(r["p_normal"]), crit, alpha)


# ---------------------------------------------------------------------------------------------
# Wilcoxon signed-ranks test


@dataclass(frozen=True)
class WilcoxonResult(TestResult):
    """Result of :func:`wilcoxon`.

    ``statistic`` is T = min(R+, R-); ``r_plus`` sums the ranks where ``y`` is better. ``n`` is the
    number of ranked differences (zeros included for "demsar"/"zsplit"/"pratt"), ``zeros`` the number
    of zero differences and ``zeros_dropped`` how many were dropped. ``z`` is the normal score of T
    (reported for both methods).
    """

    r_plus: float
    r_minus: float
    n: int
    zeros: int
    zeros_dropped: int
    z: float
    method: str
    zero_method: str


def signed_rank_null_cdf(doubled_ranks) -> np.ndarray:
    """cdf[s] = P(S <= s) where S is the sum of a random subset of the integer weights ``doubled_ranks``
    (each in with probability 1/2): the exact permutation distribution of 2 R+ given the observed,
    possibly tied, ranks (the classic tables assume them untied).

    Built by dynamic programming over the reachable sums, halving at every step: every entry is a
    count times 2^-n, exact in floating point up to n = 53 weights and keeping its relative accuracy
    beyond, so tiny tails stay accurate. Zero weights leave the distribution unchanged.
    """
    weights = np.asarray(doubled_ranks, dtype=np.int64).ravel()
    weights = weights[weights > 0]
    total = int(weights.sum())
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    reach = 0
    for w in weights.tolist():
        new = dist[: reach + w + 1] * 0.5
        new[w : w + reach + 1] += dist[: reach + 1] * 0.5
        reach += w
        dist[: reach + 1] = new
    return np.cumsum(dist)


def _exact_signed_rank_p(doubled_free: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """Two-sided exact p for each row: 2 P(2R <= s2) under the row's own null distribution.

    Rows with the same multiset of ranks share one distribution, computed once: with continuous
    scores most rows have ranks 1..n. The distributions of all distinct multisets are built together,
    a block of rows at a time, by the dynamic programming of :func:`signed_rank_null_cdf` (the same
    halving steps, so the same bits), with one numpy operation per distinct weight and step.
    """
    patterns = np.ascontiguousarray(np.sort(doubled_free, axis=1))
    keys = patterns.view(np.dtype((np.void, patterns.dtype.itemsize * patterns.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    unique = patterns[first]
    totals = unique.sum(axis=1)
    width = int(totals.max()) + 1
    cdf_at = np.empty(unique.shape[0], dtype=object)
    p_unique_rows: list[float] = []
    block = max(1, 4_000_000 // width)
    cdfs = []
    for lo in range(0, unique.shape[0], block):
        part = unique[lo : lo + block]
        dist = np.zeros((part.shape[0], width))
        dist[:, 0] = 1.0
        for j in range(part.shape[1]):
            column = part[:, j]
            for w in np.unique(column):
                if w == 0:
                    continue
                rows = np.flatnonzero(column == w)
                d = dist[rows]
                new = d * 0.5
                new[:, w:] += d[:, :-w] * 0.5
                dist[rows] = new
        cdfs.append(np.cumsum(dist, axis=1))
    del cdf_at, p_unique_rows
    cdf = np.concatenate(cdfs, axis=0)
    inverse = inverse.ravel()
    at = np.clip(s2, 0, totals[inverse])
    return np.minimum(1.0, 2 * cdf[inverse, at])


#: Work (distinct tie patterns x steps x reachable sums) of the exact distributions of one call.
from compare_lib.limits import EXACT_WILCOXON_WORK  # noqa: E402


def _within_exact_budget(doubled: np.ndarray, candidates: np.ndarray) -> np.ndarray | bool:
    """With method="auto": False for the rows with tied ranks when building the exact distribution of
    every distinct tie pattern would exceed :data:`EXACT_WILCOXON_WORK` (e.g. 125,000 pairs of heavily
    tied scores on 50 data sets: minutes). Those rows use the normal approximation with the tie-corrected
    variance, as R does for tied data. The rule depends on the set of rows only, not their order."""
    rows = np.flatnonzero(candidates)
    patterns = np.ascontiguousarray(np.sort(doubled[rows], axis=1))
    keys = patterns.view(np.dtype((np.void, patterns.dtype.itemsize * patterns.shape[1]))).ravel()
    _, first = np.unique(keys, return_index=True)
    work = int(np.sum(patterns[first].sum(axis=1) * (patterns[first] > 0).sum(axis=1)))
    if work <= EXACT_WILCOXON_WORK:
        return True
    nonzero = np.where(doubled > 0, doubled, -1 - np.arange(doubled.shape[1]))  # zeros never tie
    tied = np.any(np.diff(np.sort(nonzero, axis=1), axis=1) == 0, axis=1)
    return ~tied


def wilcoxon_rows(d: np.ndarray, *, zero_method: str = "demsar", method: str = "auto") -> dict[str, np.ndarray]:
    """The Wilcoxon signed-ranks test of every row of ``d`` (S x N differences, positive = y better).

    Vectorized over rows; :func:`wilcoxon`, the post-hoc tables and the simulations all call it, so
    they give bit-identical results for the same differences; a NaN difference (a data set only one
    classifier of the pair has) is left out. Returns arrays ``r_plus``, ``r_minus``,
    ``statistic`` (T), ``p``, ``z``, ``n``, ``zeros``, ``dropped`` and ``exact`` (bool per row).
    With ``method="auto"`` the exact distribution is used up to 50 differences, except for rows with
    tied ranks when the distinct tie patterns of one call are too many to enumerate within the work
    budget (see :func:`_within_exact_budget`); ``exact`` says which rows got which.
    """
    check_choice(zero_method, WILCOXON_ZERO_METHODS, "zero_method")
    check_choice(method, WILCOXON_METHODS, "method")
    d = np.atleast_2d(np.asarray(d, dtype=float))
    rows, n_all = d.shape
    zero = d == 0
    zeros = zero.sum(axis=1)
    keep = ~np.isnan(d)  # a missing difference (a data set only one classifier has) is left out
    absent = n_all - keep.sum(axis=1)
    if zero_method == "wilcox":
        keep &= ~zero
    elif zero_method == "demsar":
        odd = np.flatnonzero(zeros % 2 == 1)
        keep[odd, np.argmax(zero[odd], axis=1)] = False  # drop one zero where their number is odd
    dropped = n_all - keep.sum(axis=1)
    # Dropped differences get a value below every kept one; subtracting their number from the ranks
    # gives the ranks among the kept differences (average ranks for ties, as scipy's rankdata).
    ranks = average_ranks(np.where(keep, np.abs(d), -1.0)) - dropped[:, None]
    ranks = np.where(keep, ranks, 0.0)
    kept_zero = zero & keep
    zero_share = np.zeros(rows) if zero_method == "pratt" else (ranks * kept_zero).sum(axis=1) / 2
    r_plus = (ranks * (d > 0)).sum(axis=1) + zero_share
    r_minus = (ranks * (d < 0)).sum(axis=1) + zero_share
    t_stat = np.minimum(r_plus, r_minus)
    # Under H0 only the signs of the non-zero kept differences are random.
    free = np.where(kept_zero | ~keep, 0.0, ranks)
    n_free = (free > 0).sum(axis=1)
    mean = free.sum(axis=1) / 2
    var = (free**2).sum(axis=1) / 4
    s_obs = t_stat - zero_share
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, (s_obs - mean) / np.sqrt(var), 0.0)
    exact = np.full(rows, method == "exact") | ((method == "auto") & (n_free <= EXACT_WILCOXON_MAX_N))
    if method == "auto" and exact.sum() > 1:
        exact &= _within_exact_budget(np.rint(2 * free).astype(np.int64), exact)
    p = np.where(n_free > 0, np.minimum(1.0, 2 * stats.norm.sf(np.abs(z))), 1.0)
    todo = np.flatnonzero(exact & (n_free > 0))
    if todo.size:
        doubled = np.rint(2 * free[todo]).astype(np.int64)
        p[todo] = _exact_signed_rank_p(doubled, np.rint(2 * s_obs[todo]).astype(np.int64))
    return {"r_plus": r_plus, "r_minus": r_minus, "statistic": t_stat, "p": p, "z": z, "n": n_all - dropped,
            "zeros": zeros, "dropped": dropped - absent, "exact": exact, "n_free": n_free}


def wilcoxon(
    x,
    y,
    *,
    zero_method: str = "demsar",
    method: str = "auto",
    higher_is_better: bool = True,
) -> WilcoxonResult:
    """Wilcoxon signed-ranks test (Wilcoxon 1945; Demšar 2006, §3.1.3), two-sided.

    The absolute differences d_i are ranked (average ranks for ties);
    R+ = sum_{d_i>0} rank(d_i) + 1/2 sum_{d_i=0} rank(d_i), R- likewise, and T = min(R+, R-).

    zero_method
        ``"demsar"`` (default): the ranks of zero differences are split evenly between R+ and R-; if
        their number is odd, one zero is ignored (Demšar's rule). ``"zsplit"``: split without
        dropping (scipy's "zsplit"). ``"wilcox"``: zeros are discarded before ranking.
        ``"pratt"``: zeros are ranked and then discarded.
    method
        ``"exact"``: the exact permutation distribution of R+ given the observed ranks (equal to the
        classic tables when there are no ties). ``"approx"``: the normal approximation with the
        mean and variance of that distribution; without ties and zeros this is Demšar's
        z = (T - N(N+1)/4) / sqrt(N(N+1)(2N+1)/24). ``"auto"``: exact up to 50 differences.

    Demšar's Table 2: R+ = 93, R- = 12, T = 12 (<= 21, the critical value at 0.05 for N = 14).
    """
    a, b = _pair(x, y)
    d = (b - a) if higher_is_better else (a - b)
    r = {key: value[0] for key, value in wilcoxon_rows(d[None, :], zero_method=zero_method, method=method).items()}
    return WilcoxonResult(
        float(r["statistic"]), float(r["p"]), float(r["r_plus"]), float(r["r_minus"]), int(r["n"]), int(r["zeros"]),
        int(r["dropped"]), float(r["z"]), "exact" if r["exact"] else "approx", zero_method,
    )


# ---------------------------------------------------------------------------------------------
# paired t-test


@dataclass(frozen=True)
class TTestResult(TestResult):
    """Result of :func:`paired_ttest`: t = mean(d) / (sd(d)/sqrt(N)) with N-1 degrees of freedom.

    ``note`` says why the test is undefined when it is (``pvalue`` is then NaN).
    """

    df: int
    mean_difference: float
    relative: bool
    note: str = ""

    @property
    def notes(self) -> tuple[str, ...]:  # type: ignore[override]  # Result.notes is a plain attribute (a field in most results); here it is derived from ``note``
        return (self.note,) if self.note else ()


#: Why a t or F test is undefined when its error term is zero.
ZERO_ERROR_NOTE = (
    "Undefined: the differences do not vary (their standard error is zero, up to rounding), so the statistic "
    "divides by zero and the test has no p-value. Use the Wilcoxon or sign test, which need no variance."
)


def paired_ttest(x, y, *, relative: bool = False, higher_is_better: bool = True) -> TTestResult:
    """Paired t-test over data sets (Demšar 2006, §3.1.2), two-sided.

    With ``relative=True`` the differences are divided by the average score,
    d_i = (y_i - x_i) / ((x_i + y_i)/2), as Demšar suggests to compensate for different difficulty.
    A positive statistic means ``y`` is better. If all differences are equal (the standard error is
    zero up to rounding) the test is undefined: ``pvalue`` is NaN, ``statistic`` is +-inf (or NaN
    when every difference is zero) and ``note`` says so; the RM-ANOVA, Tukey and Dunnett tests
    treat a zero error term the same way.
    """
    a, b = _pair(x, y)
    if a.size < 2:
        raise InputError("The paired t-test needs at least 2 data sets (it estimates a variance).")
    d = b - a
    if relative:
        avg = (a + b) / 2
        zero = np.flatnonzero(avg == 0)
        if zero.size:
            raise InputError(
                f"Relative differences divide by the average score, which is 0 on data set {int(zero[0]) + 1}; "
                "use the absolute t-test for these scores."
            )
        d = d / avg
    if not higher_is_better:
        d = -d
    t, p, mean = (v[0] for v in paired_t_rows(d[None, :]))
    n = d.size
    return TTestResult(float(t), float(p), n - 1, float(mean), relative, ZERO_ERROR_NOTE if np.isnan(p) else "")


def paired_t_rows(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(t, p, mean) of the one-sample t-test of every row of ``d`` (S x N), N - 1 df, vectorized."""
    d = np.atleast_2d(np.asarray(d, dtype=float))
    n = d.shape[1]
    mean = d.mean(axis=1)
    t, p = t_from_moments(mean, d.var(axis=1, ddof=1) / n, n - 1)
    return t, p, mean


def t_from_moments(mean, se2, df):
    """Two-sided t = mean / sqrt(se2) with ``df`` degrees of freedom, shared by every t-test here
    (scalars or arrays).

    A standard error of rounding noise only (at most 1e-12 of the mean) counts as zero: the test is
    then undefined, with p = NaN and t = +-inf (NaN when the mean is 0 too); see ``ZERO_ERROR_NOTE``.
    """
    scalar = np.ndim(mean) == 0 and np.ndim(se2) == 0
    mean = np.atleast_1d(np.asarray(mean, dtype=float))
    se2 = np.atleast_1d(np.asarray(se2, dtype=float))
    flat = ~np.isfinite(se2) | (se2 <= (1e-12 * np.abs(mean)) ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(flat, np.where(mean == 0, np.nan, np.copysign(np.inf, mean)), mean / np.sqrt(se2))
    p = np.where(flat, np.nan, np.minimum(1.0, 2 * stats.t.sf(np.abs(np.where(flat, 0.0, t)), df)))
    if scalar:
        return float(t[0]), float(p[0])
    return t, p

