"""Replicability of tests: would the verdict repeat?

* Measures: Bouckaert's R(e) over repeated outcomes, (p(p-1) + q(q-1)) / (n(n-1)); Demšar's variance
  form R(p) = 1 - 2 var(p) (Demšar 2006, §4.1.2); Bouckaert & Frank's consistency (all outcomes
  equal), almost consistency (at most one differs) and replicability R averaged over data sets
  (Bouckaert & Frank 2004, §2).
* Demšar's data-set-selection experiment (§4.1) on any loaded table: samples of n data sets are drawn
  with probability proportional to 1 / (1 + exp(-k d_i)), d_i the score difference of the chosen
  pair, for a range of biases k; every test is run on every sample (vectorized, seeded) and its
  rejection rate, mean p, R(e) and R(p) are recorded per k.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy import interpolate, special, stats

from .adjust import hochberg_rows, holm_rows, hommel_rows
from .critical import _dunnett_normal_sf, studentized_range_sf_many
from .data import as_table
from .errors import InputError
from .two_classifiers import _check_alpha

# ---------------------------------------------------------------------------------------------
# measures


def replicability_e(outcomes) -> float:
    """Bouckaert's R(e): the probability that two repetitions agree, estimated without bias.

    With p acceptances and q rejections out of n, R(e) = (p(p-1) + q(q-1)) / (n(n-1)) = 1 - 2 var(e)
    with the n-1 denominator (Demšar 2006, §4.1.2). 0.5 when p = q = n/2, 1 when all agree.
    """
    e = np.asarray(outcomes, dtype=bool).ravel()
    n = e.size
    if n < 2:
        raise InputError("R(e) needs at least 2 repeated outcomes.")
    q = int(e.sum())
    p = n - q
    return (p * (p - 1) + q * (q - 1)) / (n * (n - 1))


def replicability_p(pvalues) -> float:
    """Demšar's R(p) = 1 - 2 var(p) with the n-1 denominator (Demšar 2006, §4.1.2)."""
    p = np.asarray(pvalues, dtype=float).ravel()
    if p.size < 2:
        raise InputError("R(p) needs at least 2 p-values.")
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise InputError("p-values must lie in [0, 1].")
    return float(1 - 2 * p.var(ddof=1))


@dataclass(frozen=True)
class ReplicabilityResult:
    """Bouckaert & Frank's summary over data sets of n repeated outcomes each.

    ``consistent``: data sets whose n outcomes are all equal; ``almost_consistent``: at most one
    differs; ``R``: mean over data sets of R(e); ``per_dataset``: R(e) of each data set.
    """

    consistent: int
    almost_consistent: int
    R: float
    n_datasets: int
    n_repetitions: int
    per_dataset: tuple[float, ...]

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("per_dataset")
        return d


def replicability(outcomes) -> ReplicabilityResult:
    """Consistency, almost consistency and replicability R (Bouckaert & Frank 2004, §2).

    ``outcomes``: a data sets x repetitions boolean array (True = the test rejected).
    Bouckaert & Frank's Table 1 (5x2cv, 27 data sets, 10 repetitions): consistent 9, 12, 13; almost
    consistent 14, 17, 17; R = 0.737, 0.783, 0.816.
    """
    e = np.asarray(outcomes)
    if e.ndim != 2:
        raise InputError(f"outcomes must be a data sets x repetitions array, got shape {e.shape}.")
    if e.dtype != bool:
        if not np.isin(e, [0, 1]).all():
            raise InputError("outcomes must be booleans (True = rejected) or 0/1.")
        e = e.astype(bool)
    m, n = e.shape
    if n < 2:
        raise InputError("Replicability needs at least 2 repetitions per data set.")
    rejections = e.sum(axis=1)
    return replicability_counts(rejections, n)


def replicability_counts(rejections, n: int) -> ReplicabilityResult:
    """:func:`replicability` from the number of rejections (or of acceptances) per data set out of n."""
    r = np.asarray(rejections, dtype=int).ravel()
    if np.any(r < 0) or np.any(r > n):
        raise InputError(f"Counts must lie between 0 and n = {n}.")
    if n < 2:
        raise InputError("Replicability needs at least 2 repetitions per data set.")
    a = n - r
    per = (r * (r - 1) + a * (a - 1)) / (n * (n - 1))
    consistent = int(np.sum((r == 0) | (r == n)))
    almost = int(np.sum((r <= 1) | (r >= n - 1)))
    return ReplicabilityResult(consistent, almost, float(per.mean()), int(r.size), int(n), tuple(map(float, per)))


# ---------------------------------------------------------------------------------------------
# vectorized tests on many samples of data sets


def _t_p(d: np.ndarray) -> np.ndarray:
    """Two-sided paired t-test p per row of d (S, n); zero variance: p = 1 if all zero else 0."""
    n = d.shape[1]
    mean = d.mean(axis=1)
    sd = d.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / math.sqrt(n))
    p = 2 * stats.t.sf(np.abs(t), n - 1)
    flat = sd / math.sqrt(n) <= 1e-12 * np.abs(mean)  # rounding noise only, as in t_from_moments
    return np.where(~flat, p, np.where(mean == 0, 1.0, 0.0))


def _sign_p(d: np.ndarray) -> np.ndarray:
    wins = (d > 0).sum(axis=1)
    losses = (d < 0).sum(axis=1)
    ties = d.shape[1] - wins - losses
    n = wins + losses + 2 * (ties // 2)
    w = wins + ties // 2
    low = np.minimum(w, n - w)
    p = np.minimum(1.0, 2 * stats.binom.cdf(low, n, 0.5))
    return np.where(n == 0, 1.0, p)


@lru_cache(maxsize=8)
def _sign_patterns(n: int) -> np.ndarray:
    codes = np.arange(2**n)
    return ((codes[:, None] >> np.arange(n)) & 1).astype(np.float64)


def _wilcoxon_p(d: np.ndarray, exact_max: int = 14) -> np.ndarray:
    """Wilcoxon p per row with Demšar's zero handling; exact (all sign patterns) up to ``exact_max``."""
    s, n = d.shape
    absd = np.abs(d)
    zero = d == 0
    nz = zero.sum(axis=1)
    drop = (nz % 2 == 1)
    # Drop one zero where their number is odd: give it a sentinel below every other value.
    keep = np.ones_like(d, dtype=bool)
    first_zero = np.argmax(zero, axis=1)
    keep[np.arange(s)[drop], first_zero[drop]] = False
    ranked = np.where(keep, absd, -1.0)
    ranks = stats.rankdata(ranked, axis=1) - (~keep).sum(axis=1, keepdims=True)
    ranks = np.where(keep, ranks, 0.0)
    zero_kept = zero & keep
    zero_share = (ranks * zero_kept).sum(axis=1) / 2
    r_plus = (ranks * (d > 0)).sum(axis=1) + zero_share
    r_minus = (ranks * (d < 0)).sum(axis=1) + zero_share
    free = np.where(zero_kept, 0.0, ranks)  # ranks whose sign is random under H0
    s_obs = np.minimum(r_plus, r_minus) - zero_share
    total = free.sum(axis=1)
    if n <= exact_max:
        patterns = _sign_patterns(n)
        p = np.empty(s)
        for lo in range(0, s, 256):
            block = free[lo : lo + 256]
            sums = block @ patterns.T  # (B, 2^n)
            tot = total[lo : lo + 256, None]
            stat = np.minimum(sums, tot - sums)
            p[lo : lo + 256] = (stat <= s_obs[lo : lo + 256, None] + 1e-9).mean(axis=1)
        return np.where(total > 0, np.minimum(p, 1.0), 1.0)
    var = (free**2).sum(axis=1) / 4
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (s_obs - total / 2) / np.sqrt(var)
    return np.where(var > 0, np.minimum(1.0, 2 * stats.norm.sf(np.abs(z))), 1.0)


@lru_cache(maxsize=16)
def _tukey_interpolator(k: int, df: int):
    """log P(Q > q) for the studentized range (k, df) on a grid, for fast vectorized p-values."""
    grid = np.concatenate([np.linspace(0.0, 2.0, 9)[1:], np.linspace(2.0, 12.0, 81)[1:]])
    logp = np.log(np.maximum(stats.studentized_range.sf(grid, k, df), 1e-300))
    return interpolate.PchipInterpolator(grid, logp, extrapolate=True)


def _tukey_p(q: np.ndarray, k: int, df: int) -> np.ndarray:
    f = _tukey_interpolator(k, df)
    return np.where(q <= 0, 1.0, np.minimum(1.0, np.exp(f(np.clip(q, 0.25, 12.0)))))


@lru_cache(maxsize=16)
def _dunnett_interpolator(m: int, df: int):
    grid = np.linspace(0.05, 8.0, 80)
    # Scale mixture over s = sqrt(chi2_df / df) by Gauss-Legendre in its quantiles (vectorized).
    u, w = special.roots_legendre(160)
    u, w = (u + 1) / 2, w / 2
    s = np.sqrt(stats.chi2.ppf(u, df) / df)
    vals = np.array([sum(wi * _dunnett_normal_sf(c * si * math.sqrt(2), m) for si, wi in zip(s, w)) for c in grid])
    return interpolate.PchipInterpolator(grid, np.log(np.maximum(vals, 1e-300)), extrapolate=True)


def _dunnett_p(t: np.ndarray, m: int, df: int) -> np.ndarray:
    f = _dunnett_interpolator(m, df)
    return np.where(np.abs(t) <= 0.05, 1.0, np.minimum(1.0, np.exp(f(np.clip(np.abs(t), 0.05, 8.0)))))


SELECTION_TESTS = {
    "t-test": "two classifiers",
    "t-test (relative)": "two classifiers",
    "Wilcoxon": "two classifiers",
    "sign test": "two classifiers",
    "Friedman": "all classifiers",
    "ANOVA": "all classifiers",
    "Nemenyi": "the pair, all pairs compared",
    "Tukey": "the pair, all pairs compared",
    "Bonferroni-Dunn": "the pair, versus the control",
    "Holm": "the pair, versus the control",
    "Hochberg": "the pair, versus the control",
    "Hommel": "the pair, versus the control",
    "Dunnett": "the pair, versus the control",
}


def _difference_scale(scores: np.ndarray) -> float:
    """Demšar's d_i are differences of accuracies in [0, 1]; scores in percent are divided by 100."""
    hi = np.nanmax(np.abs(scores))
    return 100.0 if 1.5 < hi <= 100.0 else 1.0


def selection_experiment(
    table,
    a: str,
    b: str,
    *,
    n_sets: int = 10,
    biases: Iterable[float] = range(0, 21),
    samples: int = 1000,
    alpha: float = 0.05,
    seed: int = 0,
    tests: Iterable[str] | None = None,
    difference_scale: float | None = None,
    higher_is_better: bool | None = None,
    progress: Callable[[float], None] | None = None,
) -> pd.DataFrame:
    """Demšar's data-set-selection experiment (Demšar 2006, §4.1) on a loaded table.

    For every bias k, ``samples`` sets of ``n_sets`` data sets are drawn without replacement with
    probability proportional to 1 / (1 + exp(-k d_i)), d_i = (score of a - score of b) on data set i
    (divided by ``difference_scale``, default 100 for scores in percent, else 1), so that larger k
    favours data sets on which a is better. On each sample the tests are run at ``alpha``:

    * two classifiers (a vs b): paired t-test, t-test on relative differences, Wilcoxon, sign test;
    * all classifiers: Friedman (Demšar's formula) and repeated-measures ANOVA;
    * the pair a vs b among all classifiers: Nemenyi and Tukey;
    * b versus the control a: Bonferroni-Dunn, Holm, Hochberg, Hommel (mean-ranks z) and Dunnett.

    Returns one row per (bias, test): ``rejections`` (count), ``rejection_rate``, ``mean_p`` (the
    adjusted p for post-hoc tests), ``R_e`` and ``R_p``. Vectorized and seeded; ``progress`` is
    called with the fraction done after each bias.
    """
    t = as_table(table, higher_is_better)
    _check_alpha(alpha)
    names = t.classifiers
    for name in (a, b):
        if name not in names:
            raise InputError(f"{name!r} is not among the classifiers {names}.")
    if a == b:
        raise InputError("Pick two different classifiers.")
    n_data = t.n_datasets
    if int(n_sets) != n_sets or not 2 <= n_sets < n_data:
        raise InputError(
            f"Samples of {n_sets} data sets need a table with more data sets than that (this one has {n_data}) "
            "and at least 2 per sample; Demšar drew 10 of 40."
        )
    if int(samples) != samples or samples < 2:
        raise InputError("samples must be a whole number >= 2.")
    tests = list(SELECTION_TESTS) if tests is None else list(tests)
    unknown = [x for x in tests if x not in SELECTION_TESTS]
    if unknown:
        raise InputError(f"Unknown test(s) {unknown}; choose from {list(SELECTION_TESTS)}.")
    biases = [float(k) for k in biases]
    rng = np.random.default_rng(seed)
    scores = t.scores.to_numpy()
    sign = 1.0 if t.higher_is_better else -1.0
    ia, ib = names.index(a), names.index(b)
    scale = _difference_scale(scores) if difference_scale is None else float(difference_scale)
    d_all = sign * (scores[:, ia] - scores[:, ib]) / scale
    ranks = t.ranks.to_numpy()
    k = t.n_classifiers
    n = int(n_sets)
    se_rank = math.sqrt(k * (k + 1) / (6 * n))
    df_err = (k - 1) * (n - 1)
    rows = []
    for step, bias in enumerate(biases):
        weights = 1.0 / (1.0 + np.exp(-bias * d_all))
        # Successive sampling without replacement with these weights = the n largest Gumbel-perturbed log-weights.
        keys = np.log(weights)[None, :] + rng.gumbel(size=(samples, n_data))
        idx = np.argpartition(-keys, n - 1, axis=1)[:, :n]
        xa, xb = scores[idx, ia], scores[idx, ib]
        d = sign * (xa - xb)
        pvals: dict[str, np.ndarray] = {}
        if "t-test" in tests:
            pvals["t-test"] = _t_p(d)
        if "t-test (relative)" in tests:
            avg = (xa + xb) / 2
            pvals["t-test (relative)"] = _t_p(np.where(avg != 0, d / np.where(avg != 0, avg, 1), 0.0))
        if "Wilcoxon" in tests:
            pvals["Wilcoxon"] = _wilcoxon_p(d)
        if "sign test" in tests:
            pvals["sign test"] = _sign_p(d)
        sample_ranks = ranks[idx]  # (S, n, k)
        mean_ranks = sample_ranks.mean(axis=1)
        if "Friedman" in tests:
            chi2 = 12 * n / (k * (k + 1)) * ((mean_ranks**2).sum(axis=1) - k * (k + 1) ** 2 / 4)
            pvals["Friedman"] = stats.chi2.sf(np.maximum(chi2, 0), k - 1)
        needs_anova = any(x in tests for x in ("ANOVA", "Tukey", "Dunnett"))
        if needs_anova:
            x = scores[idx]  # (S, n, k)
            grand = x.mean(axis=(1, 2), keepdims=True)
            col = x.mean(axis=1, keepdims=True)
            row = x.mean(axis=2, keepdims=True)
            ss_clf = n * ((col - grand) ** 2).sum(axis=(1, 2))
            ss_err = ((x - row - col + grand) ** 2).sum(axis=(1, 2))
            mse = ss_err / df_err
            col = col[:, 0, :]
        if "ANOVA" in tests:
            with np.errstate(divide="ignore", invalid="ignore"):
                f = (ss_clf / (k - 1)) / mse
            pvals["ANOVA"] = np.where(mse > 0, stats.f.sf(f, k - 1, df_err), np.where(ss_clf > 0, 0.0, 1.0))
        z_pair = (mean_ranks[:, ib] - mean_ranks[:, ia]) / se_rank
        if "Nemenyi" in tests:
            pvals["Nemenyi"] = studentized_range_sf_many(np.abs(z_pair) * math.sqrt(2), k)
        if "Tukey" in tests:
            with np.errstate(divide="ignore", invalid="ignore"):
                q = np.abs(col[:, ia] - col[:, ib]) / np.sqrt(mse / n)
            pvals["Tukey"] = np.where(mse > 0, _tukey_p(np.nan_to_num(q), k, df_err), np.where(q > 0, 0.0, 1.0))
        control_tests = [x for x in ("Bonferroni-Dunn", "Holm", "Hochberg", "Hommel") if x in tests]
        if control_tests:
            others = [j for j in range(k) if j != ia]
            zc = (mean_ranks[:, others] - mean_ranks[:, [ia]]) / se_rank
            pc = np.minimum(1.0, 2 * stats.norm.sf(np.abs(zc)))
            col_b = others.index(ib)
            adjusted = {
                "Bonferroni-Dunn": lambda p: np.minimum(1.0, (k - 1) * p),
                "Holm": holm_rows,
                "Hochberg": hochberg_rows,
                "Hommel": hommel_rows,
            }
            for name in control_tests:
                pvals[name] = adjusted[name](pc)[:, col_b]
        if "Dunnett" in tests:
            with np.errstate(divide="ignore", invalid="ignore"):
                tt = (col[:, ib] - col[:, ia]) / np.sqrt(2 * mse / n)
            pvals["Dunnett"] = np.where(mse > 0, _dunnett_p(np.nan_to_num(tt), k - 1, df_err), np.where(tt != 0, 0.0, 1.0))
        for name in tests:
            p = np.clip(pvals[name], 0.0, 1.0)
            rejected = p <= alpha
            rows.append(
                {
                    "bias": bias, "test": name, "family": SELECTION_TESTS[name],
                    "rejections": int(rejected.sum()), "rejection_rate": float(rejected.mean()),
                    "mean_p": float(p.mean()), "R_e": replicability_e(rejected), "R_p": replicability_p(p),
                }
            )
        if progress is not None:
            progress((step + 1) / len(biases))
    frame = pd.DataFrame(rows)
    frame.attrs.update(a=a, b=b, n_sets=n, samples=int(samples), alpha=float(alpha), seed=seed, difference_scale=scale)
    return frame
