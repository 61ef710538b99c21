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
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .errors import InputError

WILCOXON_ZERO_METHODS = ("demsar", "zsplit", "wilcox", "pratt")
WILCOXON_METHODS = ("auto", "exact", "approx")
#: Up to this many differences ``method="auto"`` computes the exact distribution.
EXACT_WILCOXON_MAX_N = 50


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


class _Result:
    def to_dict(self) -> dict:
        return asdict(self)  # type: ignore[call-overload]

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])


# ---------------------------------------------------------------------------------------------
# sign test


@dataclass(frozen=True)
class SignTestResult(_Result):
    """Result of :func:`sign_test`.

    ``statistic`` is the number of wins of ``y`` after splitting ties; ``n`` the number of data
    sets counted (one tie is dropped when their number is odd).
    """

    statistic: float
    pvalue: float
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
    _check_alpha(alpha)
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
    raise InputError(f"method={method!r} is not known; use 'normal' or 'exact'.")


def sign_test(x, y, *, higher_is_better: bool = True, alpha: float = 0.05) -> SignTestResult:
    """Sign test on counts of wins, losses and ties (Demšar 2006, §3.1.4).

    Ties support the null hypothesis, so they are split evenly between the two classifiers; if
    their number is odd, one is ignored. The p-value is the exact two-sided binomial p
    (``scipy.stats.binomtest``); ``pvalue_normal`` is the normal approximation N(N/2, sqrt(N)/2)
    and ``critical_wins`` Demšar's critical number of wins (Table 3) at ``alpha``.

    Demšar's Table 2 example: C4.5+m wins 11 of 14 (10 wins, 2 ties split), which reaches Table 3's
    critical value 11 at 0.05; the exact binomial p is 0.057.
    """
    a, b = _pair(x, y)
    _check_alpha(alpha)
    d = (b - a) if higher_is_better else (a - b)
    wins = int((d > 0).sum())
    losses = int((d < 0).sum())
    ties = int((d == 0).sum())
    half = ties // 2
    n = wins + losses + 2 * half
    w = wins + half
    if n == 0:
        p, p_norm = 1.0, 1.0
    else:
        p = float(stats.binomtest(w, n, 0.5, alternative="two-sided").pvalue)
        z = abs(w - n / 2) / (math.sqrt(n) / 2)
        p_norm = float(min(1.0, 2 * stats.norm.sf(z)))
    crit = sign_test_critical_wins(max(n, 1), alpha)
    return SignTestResult(float(w), min(p, 1.0), wins, losses, ties, n, p_norm, crit, alpha)


# ---------------------------------------------------------------------------------------------
# Wilcoxon signed-ranks test


@dataclass(frozen=True)
class WilcoxonResult(_Result):
    """Result of :func:`wilcoxon`.

    ``statistic`` is T = min(R+, R-); ``r_plus`` sums the ranks where ``y`` is better. ``n`` is the
    number of ranked differences (zeros included for "demsar"/"zsplit"/"pratt"), ``zeros`` the number
    of zero differences and ``zeros_dropped`` how many were dropped. ``z`` is the normal score of T
    (reported for both methods).
    """

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    zeros: int
    zeros_dropped: int
    z: float
    method: str
    zero_method: str


def _signed_rank_null_cdf(doubled_ranks: np.ndarray, s: int) -> float:
    """P(S <= s) where S = sum of a random subset of the given integer weights (each in with prob. 1/2).

    This is the exact permutation distribution of R+ given the observed (possibly tied) ranks, which
    the classic tables assume untied. Built by dynamic programming over the reachable sums.
    """
    total = int(doubled_ranks.sum())
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    reach = 0
    for w in doubled_ranks.astype(int):
        # Halving at every step keeps the numbers in [0, 1] so that tiny tails stay accurate.
        new = dist[: reach + w + 1] * 0.5
        new[w : w + reach + 1] += dist[: reach + 1] * 0.5
        reach += w
        dist[: reach + 1] = new
    return float(dist[: min(s, total) + 1].sum())


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
    if zero_method not in WILCOXON_ZERO_METHODS:
        raise InputError(f"zero_method={zero_method!r} is not known; choose one of {', '.join(WILCOXON_ZERO_METHODS)}.")
    if method not in WILCOXON_METHODS:
        raise InputError(f"method={method!r} is not known; choose one of {', '.join(WILCOXON_METHODS)}.")
    d = (b - a) if higher_is_better else (a - b)
    zeros = int((d == 0).sum())
    dropped = 0
    if zero_method == "wilcox":
        d = d[d != 0]
        dropped = zeros
    elif zero_method == "demsar" and zeros % 2 == 1:
        d = np.delete(d, np.flatnonzero(d == 0)[0])
        dropped = 1
    n = d.size
    ranks = stats.rankdata(np.abs(d)) if n else np.array([])
    is_zero = d == 0
    if zero_method == "pratt":
        zero_share = 0.0
    else:
        zero_share = ranks[is_zero].sum() / 2
    r_plus = float(ranks[d > 0].sum() + zero_share)
    r_minus = float(ranks[d < 0].sum() + zero_share)
    t_stat = min(r_plus, r_minus)

    # Under H0 only the signs of the non-zero differences are random.
    free = ranks[~is_zero]
    mean = free.sum() / 2
    var = (free**2).sum() / 4
    s_obs = min(r_plus, r_minus) - zero_share
    z = float((s_obs - mean) / math.sqrt(var)) if var > 0 else 0.0

    use_exact = method == "exact" or (method == "auto" and free.size <= EXACT_WILCOXON_MAX_N)
    if free.size == 0:
        p = 1.0
    elif use_exact:
        doubled = np.rint(2 * free).astype(np.int64)
        p = min(1.0, 2 * _signed_rank_null_cdf(doubled, int(round(2 * s_obs))))
    else:
        p = float(min(1.0, 2 * stats.norm.sf(abs(z))))
    return WilcoxonResult(
        t_stat, p, r_plus, r_minus, n, zeros, dropped, z, "exact" if use_exact else "approx", zero_method
    )


# ---------------------------------------------------------------------------------------------
# paired t-test


@dataclass(frozen=True)
class TTestResult(_Result):
    """Result of :func:`paired_ttest`: t = mean(d) / (sd(d)/sqrt(N)) with N-1 degrees of freedom."""

    statistic: float
    pvalue: float
    df: int
    mean_difference: float
    relative: bool


def paired_ttest(x, y, *, relative: bool = False, higher_is_better: bool = True) -> TTestResult:
    """Paired t-test over data sets (Demšar 2006, §3.1.2), two-sided.

    With ``relative=True`` the differences are divided by the average score,
    d_i = (y_i - x_i) / ((x_i + y_i)/2), as Demšar suggests to compensate for different difficulty.
    A positive statistic means ``y`` is better. If all differences are equal the standard error is
    zero: t is 0 (p = 1) when they are all zero and infinite (p = 0) otherwise.
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
    n = d.size
    mean = float(d.mean())
    t, p = t_from_moments(mean, float(d.var(ddof=1)) / n, n - 1)
    return TTestResult(t, p, n - 1, mean, relative)


def t_from_moments(mean: float, se2: float, df: int) -> tuple[float, float]:
    """Two-sided t = mean / sqrt(se2) with ``df`` degrees of freedom, shared by every t-test here.

    Identical differences leave a standard error of rounding noise only (at most 1e-12 of the mean):
    it is treated as zero, giving t = 0, p = 1 for a zero mean and t = +-inf, p = 0 otherwise.
    """
    if not np.isfinite(se2) or se2 <= (1e-12 * abs(mean)) ** 2:
        return (0.0, 1.0) if mean == 0 else (math.copysign(math.inf, mean), 0.0)
    t = mean / math.sqrt(se2)
    return float(t), float(min(1.0, 2 * stats.t.sf(abs(t), df)))


def _check_alpha(alpha: float) -> None:
    if not (isinstance(alpha, (int, float, np.floating)) and 0 < float(alpha) < 1):
        raise InputError(f"alpha must be a number between 0 and 1 (e.g. 0.05), got {alpha!r}.")
