"""Omnibus tests for k classifiers over N data sets (Demšar 2006, §3.2), and their parametric
post-hoc counterparts.

* :func:`friedman` — Friedman's chi2_F on mean ranks (§3.2.2), without tie correction by default;
* :func:`iman_davenport` — Iman & Davenport's F_F (§3.2.2);
* :func:`rm_anova` — repeated-measures ANOVA (§3.2.1) via statsmodels' ``AnovaRM``;
* :func:`tukey_hsd` and :func:`dunnett` — the post-hoc tests Demšar names for ANOVA (all pairs, and
  versus a control), using the ANOVA's error mean square.

Tail probabilities come from survival functions (``chi2.sf``, ``f.sf``), never ``1 - cdf``, so tiny
p-values stay accurate for the p-value adjustments that follow.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.stats._critical import dunnett_sf_many, studentized_range_sf_many
from compare_lib.core._table import ScoreTable, as_table
from compare_lib.core._validation import check_choice
from compare_lib.core._result import FTestResult, RankTestResult
from compare_lib.errors import ApproximationWarning, InputError, arg
from compare_lib.stats._exact import all_identical_probability, friedman_exact_sf




FRIEDMAN_METHODS = ("asymptotic", "exact", "auto")


@dataclass(frozen=True)
class FriedmanResult(RankTestResult):
    """chi2_F with ``df`` = k - 1 degrees of freedom.

    ``method`` says where ``pvalue`` comes from: "asymptotic" (chi-square with k - 1 df) or "exact"
    (the permutation distribution of the observed ranks, :mod:`compare_lib.stats._exact`).
    """

    tie_correction: bool
    mean_ranks: pd.Series = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()
    method: str = "asymptotic"


@dataclass(frozen=True)
class ImanDavenportResult(FTestResult):
    """F_F with (k-1, (k-1)(N-1)) degrees of freedom, computed from ``chi2``; ``method`` as for Friedman."""

    chi2: float
    notes: tuple[str, ...] = ()
    method: str = "asymptotic"


@dataclass(frozen=True)
class AnovaResult(FTestResult):
    """Repeated-measures ANOVA: F for the classifier effect, with the error mean square.

    When the error mean square is zero (up to rounding) the test is undefined: ``pvalue`` is NaN and
    ``notes`` says why.
    """

    ms_error: float
    notes: tuple[str, ...] = ()


def _approximation_notes(k: int, n: int, *, warn: bool = True) -> tuple[str, ...]:
    if n > 10 and k > 5:
        return ()
    note = (
        f"With k = {k} classifiers and N = {n} data sets the chi-square approximation of the Friedman statistic "
        "is rough (Demšar's rule of thumb asks for N > 10 and k > 5); Iman-Davenport's F_F is less conservative, "
        "and the exact permutation p-value (the Friedman test's exact method) needs no approximation."
    )
    if warn:
        warnings.warn(note, ApproximationWarning, stacklevel=4)
    return (note,)


def friedman_from_doubled_sums(doubled_sums: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """chi2_F and its chi-square p from exact doubled rank sums S_j (rows of an S x k array).

    chi2_F = 12N/(k(k+1)) [sum_j R_j^2 - k(k+1)^2/4] with R_j = S_j / (2N) equals
    (3 sum_j S_j^2 - 3 N^2 k (k+1)^2) / (N k (k+1)): an integer numerator and one division, so the
    value does not depend on the order of rows or columns. Vectorized over rows (the simulations).
    """
    sums = np.atleast_2d(np.asarray(doubled_sums, dtype=np.int64))
    k = sums.shape[1]
    numerator = 3 * (sums**2).sum(axis=1) - 3 * n * n * k * (k + 1) ** 2
    chi2 = np.maximum(numerator, 0) / (n * k * (k + 1))
    return chi2, stats.chi2.sf(chi2, k - 1)


def _tie_term(ranks: np.ndarray) -> int:
    """sum over data sets and groups of t tied classifiers of t^3 - t (vectorized, exact integers)."""
    doubled = np.rint(2 * np.asarray(ranks)).astype(np.int64)
    n, k = doubled.shape
    codes = np.arange(n, dtype=np.int64)[:, None] * (2 * k + 2) + doubled  # one code per (data set, rank)
    _, t = np.unique(codes, return_counts=True)
    t = t.astype(np.int64)
    return int(np.sum(t**3 - t))


def _friedman_parts(t: ScoreTable, tie_correction: bool) -> tuple[float, int, np.ndarray]:
    """(chi2_F, observed sum of squared doubled rank sums, doubled ranks)."""
    n, k = t.n_datasets, t.n_classifiers
    doubled_sums = t.doubled_rank_sums.to_numpy()
    chi2 = float(friedman_from_doubled_sums(doubled_sums[None, :], n)[0][0])
    if tie_correction:
        denom = 1 - _tie_term(t.ranks.to_numpy()) / (n * k * (k**2 - 1))
        chi2 = chi2 / denom if denom > 1e-12 else 0.0
    sum_squares = int(np.sum(doubled_sums.astype(object) ** 2))
    return chi2, sum_squares, t.doubled_ranks


def _exact_p(doubled_ranks: np.ndarray, sum_squares: int, method: str) -> float | None:
    if method == "asymptotic":
        return None
    p = friedman_exact_sf(doubled_ranks, sum_squares)
    if p is None and method == "exact":
        n, k = doubled_ranks.shape
        raise InputError(
            f"The exact Friedman distribution for N = {n} data sets and k = {k} classifiers is too large to "
            f"compute here; use {arg('method', 'auto')} (exact where feasible, else asymptotic) or "
            f"{arg('method', 'asymptotic')}."
        )
    return p


def friedman(table, *, tie_correction: bool = False, method: str = "asymptotic",
             higher_is_better: bool | None = None) -> FriedmanResult:
    """Friedman test (Friedman 1937; Demšar 2006, §3.2.2).

    chi2_F = 12N / (k(k+1)) * [sum_j R_j^2 - k(k+1)^2 / 4], R_j the mean ranks, compared with chi2(k-1),
    computed from the exact integer rank sums (see :func:`friedman_from_doubled_sums`).

    By default this is exactly Demšar's formula (no correction for ties). With
    ``tie_correction=True`` it is divided by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over groups of t tied
    classifiers, as ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` compute it. A data
    set on which all classifiers tie carries no information under the correction; if every data set
    is all tied, the statistic is 0 and p = 1.

    ``method``: "asymptotic" (default, the chi-square p Demšar uses), "exact" (the permutation
    distribution of the observed ranks, :func:`compare_lib.stats._exact.friedman_exact_sf`; an InputError
    if the table is too large for it) or "auto" (exact where it can be computed within about a
    second: small N or k, exactly where the chi-square approximation is rough; else asymptotic). The
    exact p is the same with and without the tie correction (the correction is constant given the
    ties). Two data sets, three classifiers ranked the same on both: chi2_F = 4, exact p = 1/6.

    Demšar's Table 6: chi2_F = 9.28 (p = 0.026); García & Herrera's Table 2: 39.647.
    """
    t = as_table(table, higher_is_better)
    check_choice(method, FRIEDMAN_METHODS, "method")
    n, k = t.n_datasets, t.n_classifiers
    chi2, sum_squares, doubled = _friedman_parts(t, tie_correction)
    exact = _exact_p(doubled, sum_squares, method)
    if exact is not None:
        return FriedmanResult(chi2, exact, k - 1, k, n, tie_correction, t.mean_ranks.copy(), (), "exact")
    notes = _approximation_notes(k, n)
    p = float(stats.chi2.sf(chi2, k - 1))
    return FriedmanResult(chi2, p, k - 1, k, n, tie_correction, t.mean_ranks.copy(), notes, "asymptotic")


def iman_davenport(
    table, *, tie_correction: bool = False, method: str = "asymptotic", higher_is_better: bool | None = None
) -> ImanDavenportResult:
    """Iman-Davenport test (Iman & Davenport 1980; Demšar 2006, §3.2.2).

    F_F = (N - 1) chi2_F / (N(k - 1) - chi2_F), compared with F(k-1, (k-1)(N-1)). F_F increases with
    chi2_F, so its exact p-value (``method`` as in :func:`friedman`) is the Friedman one.

    When every data set ranks the classifiers identically, chi2_F reaches N(k-1) and F_F is infinite:
    the F distribution then says nothing (its p would come from a division by zero), so the p-value is
    the exact probability of that event under the null, (k!/prod t!)^-(N-1) (1/6 for two data sets and
    three classifiers), whatever ``method``.

    Demšar's Table 6: F_F = 3.69 with (3, 39) df; García & Herrera's Table 2: 14.309.
    """
    t = as_table(table, higher_is_better)
    check_choice(method, FRIEDMAN_METHODS, "method")
    n, k = t.n_datasets, t.n_classifiers
    chi2, sum_squares, doubled = _friedman_parts(t, tie_correction)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denom = n * (k - 1) - chi2
    if denom <= 1e-9 * n * k:
        p_max = all_identical_probability(doubled)
        note = ("Every data set ranks the classifiers the same way: F_F is infinite and its F distribution gives no "
                "p-value; p is the exact probability of this agreement when the classifiers are equivalent.")
        if p_max is not None:
            return ImanDavenportResult(math.inf, p_max, df1, df2, chi2, (note,), "exact")
        exact = _exact_p(doubled, sum_squares, "auto")
        return ImanDavenportResult(math.inf, math.nan if exact is None else exact, df1, df2, chi2, (note,), "exact")
    f_stat = (n - 1) * chi2 / denom
    exact = _exact_p(doubled, sum_squares, method)
    if exact is not None:
        return ImanDavenportResult(float(f_stat), exact, df1, df2, chi2, (), "exact")
    return ImanDavenportResult(float(f_stat), float(stats.f.sf(f_stat, df1, df2)), df1, df2, chi2, (), "asymptotic")


#: Why the repeated-measures ANOVA, Tukey and Dunnett tests are undefined when the error term is zero.
ZERO_ERROR_ANOVA_NOTE = (
    "Undefined: the residual variance is zero (up to rounding): every data set shifts all classifiers by the "
    "same amount, or all scores are equal. The F, Tukey and Dunnett statistics divide by it, so these tests give "
    "no p-value here; the rank tests (Friedman, Wilcoxon, sign) do."
)


class AnovaRows(TypedDict):
    """What :func:`anova_rows` returns: one entry per block, and the degrees of freedom they share."""

    F: np.ndarray
    p: np.ndarray
    ms_error: np.ndarray
    means: np.ndarray
    se_mean: np.ndarray
    defined: np.ndarray
    df1: int
    df2: int


def anova_rows(x: np.ndarray) -> AnovaRows:
    """The two-way layout without replication of every S x N x k block: F, p, column means, the standard
    error of a mean sqrt(MS_error / N), and ``defined`` (False where the error term is rounding noise).

    Shared by :func:`rm_anova`, :func:`tukey_hsd`, :func:`dunnett` and the simulations, so they agree on
    every table, including when the test is undefined (p NaN).
    """
    x = np.asarray(x, dtype=float)
    if x.ndim == 2:
        x = x[None]
    _, n, k = x.shape
    grand = x.mean(axis=(1, 2), keepdims=True)
    col = x.mean(axis=1, keepdims=True)
    row = x.mean(axis=2, keepdims=True)
    ss_clf = n * ((col - grand) ** 2).sum(axis=(1, 2))
    ss_err = ((x - row - col + grand) ** 2).sum(axis=(1, 2))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    # Residuals of exact zero are computed with errors of ~1e-16 of the scores' size.
    noise = n * k * (1e-12 * np.maximum(np.abs(x).max(axis=(1, 2)), 1e-300)) ** 2
    defined = ss_err > noise
    with np.errstate(divide="ignore", invalid="ignore"):
        mse = np.where(defined, ss_err / max(df2, 1), np.nan)
        f = np.where(defined, (ss_clf / df1) / mse, np.nan)
    p = np.where(defined, stats.f.sf(np.where(defined, f, 0.0), df1, max(df2, 1)), np.nan)
    return {"F": f, "p": p, "ms_error": np.where(defined, mse, 0.0), "means": col[:, 0, :], "se_mean": np.sqrt(mse / n),
            "defined": defined, "df1": df1, "df2": df2}


def rm_anova(table, *, higher_is_better: bool | None = None) -> AnovaResult:
    """Repeated-measures (within-subjects) ANOVA (Fisher 1959; Demšar 2006, §3.2.1).

    Data sets are the subjects and classifiers the within factor: F = MS_classifiers / MS_error with
    (k-1, (k-1)(N-1)) df, from the sums of squares of the two-way layout (:func:`anova_rows`, linear
    in the table). The tests check it against ``statsmodels.stats.anova.AnovaRM``, which gives the same
    F and p but takes seconds on large tables (2.4 s on 12 x 500). When the residual variance is zero
    up to rounding (every data set shifts all classifiers by the same amount, or all scores are equal)
    the test is undefined: statistic and p-value are NaN and ``notes`` says so, as for
    :func:`tukey_hsd`, :func:`dunnett` and the paired t-test.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    t.require_complete("The repeated-measures ANOVA")
    parts = anova_rows(t.scores.to_numpy())
    df1, df2 = parts["df1"], parts["df2"]
    if not parts["defined"][0]:
        return AnovaResult(math.nan, math.nan, df1, df2, 0.0, (ZERO_ERROR_ANOVA_NOTE,))
    return AnovaResult(float(parts["F"][0]), float(parts["p"][0]), df1, df2, float(parts["ms_error"][0]))


def tukey_hsd(table, *, higher_is_better: bool | None = None) -> pd.DataFrame:
    """Tukey's HSD for all pairs after the repeated-measures ANOVA (Demšar 2006, §3.2.1).

    ``q = |mean_a - mean_b| / sqrt(MS_error / N)``, compared with the studentized range for k means and
    (k-1)(N-1) df (:func:`compare_lib.stats._critical.studentized_range_sf_many`, accurate in the far tail).
    Returns one row per pair: a, b, mean_difference (mean_a - mean_b), statistic (q), p. Undefined
    (NaN) when the error term is zero, like :func:`rm_anova`; ``attrs["notes"]`` says so.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    t.require_complete("Tukey's HSD")
    parts = anova_rows(t.scores.to_numpy())
    k = t.n_classifiers
    means = parts["means"][0]
    i, j = np.triu_indices(k, 1)
    diff = means[i] - means[j]
    names = np.asarray(t.classifiers, dtype=object)
    if parts["defined"][0]:
        q = np.abs(diff) / parts["se_mean"][0]
        p = studentized_range_sf_many(q, k, parts["df2"])
        notes: tuple[str, ...] = ()
    else:
        q = p = np.full(diff.size, math.nan)
        notes = (ZERO_ERROR_ANOVA_NOTE,)
    frame = pd.DataFrame({"a": names[i], "b": names[j], "mean_difference": diff, "statistic": q, "p": p})
    frame.attrs["notes"] = notes
    return frame


def dunnett(table, control: str, *, higher_is_better: bool | None = None) -> pd.DataFrame:
    """Dunnett's test of every classifier against a control after the repeated-measures ANOVA.

    t_j = (mean_j - mean_control) / sqrt(2 MS_error / N) with (k-1)(N-1) df (Demšar 2006, §3.2.1); the
    p-value is ``P(max_j |T_j| >= |t_j|)`` over the k-1 comparisons, whose t statistics share the error
    term and the control (correlation 1/2), see :func:`compare_lib.stats._critical.dunnett_sf_many`. With one
    other classifier it is the paired t-test. Returns rows: a (control), b, mean_difference
    (mean_b - mean_control), statistic, p. Undefined (NaN) when the error term is zero.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    t.require_complete("Dunnett's test")
    if control not in t.classifiers:
        raise InputError(f"Control {control!r} is not among the classifiers {t.classifiers}; pick one of them.")
    parts = anova_rows(t.scores.to_numpy())
    means = pd.Series(parts["means"][0], index=t.classifiers)
    others = [c for c in t.classifiers if c != control]
    diff = (means[others] - means[control]).to_numpy()
    if parts["defined"][0]:
        stat = diff / (parts["se_mean"][0] * math.sqrt(2))
        p = dunnett_sf_many(stat, len(others), parts["df2"])
        notes: tuple[str, ...] = ()
    else:
        stat = p = np.full(diff.size, math.nan)
        notes = (ZERO_ERROR_ANOVA_NOTE,)
    frame = pd.DataFrame({"a": control, "b": others, "mean_difference": diff, "statistic": stat, "p": p})
    frame.attrs["notes"] = notes
    return frame
