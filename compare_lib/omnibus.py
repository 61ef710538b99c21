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
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from .critical import dunnett_sf
from .data import ScoreTable, as_table
from .errors import ApproximationWarning, InputError


class _Result:
    def to_dict(self) -> dict:
        d = asdict(self)  # type: ignore[call-overload]
        return {k: v for k, v in d.items() if not isinstance(v, (pd.Series, pd.DataFrame))}

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.to_dict()])


@dataclass(frozen=True)
class FriedmanResult(_Result):
    """chi2_F with ``df`` = k - 1 degrees of freedom."""

    statistic: float
    pvalue: float
    df: int
    k: int
    n: int
    tie_correction: bool
    mean_ranks: pd.Series = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImanDavenportResult(_Result):
    """F_F with (k-1, (k-1)(N-1)) degrees of freedom, computed from ``chi2``."""

    statistic: float
    pvalue: float
    df1: int
    df2: int
    chi2: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AnovaResult(_Result):
    """Repeated-measures ANOVA: F for the classifier effect, with the error mean square."""

    statistic: float
    pvalue: float
    df1: int
    df2: int
    ms_error: float
    notes: tuple[str, ...] = ()


def _approximation_notes(k: int, n: int) -> tuple[str, ...]:
    if n > 10 and k > 5:
        return ()
    note = (
        f"With k = {k} classifiers and N = {n} data sets the chi-square approximation of the Friedman statistic "
        "is rough (Demšar's rule of thumb asks for N > 10 and k > 5); Iman-Davenport's F_F is less conservative, "
        "and exact critical values exist for small tables (Zar 1998; Sheskin 2000)."
    )
    warnings.warn(note, ApproximationWarning, stacklevel=3)
    return (note,)


def friedman(table, *, tie_correction: bool = False, higher_is_better: bool | None = None) -> FriedmanResult:
    """Friedman test (Friedman 1937; Demšar 2006, §3.2.2).

    chi2_F = 12N / (k(k+1)) * [sum_j R_j^2 - k(k+1)^2 / 4], R_j the mean ranks, compared with chi2(k-1).

    By default this is exactly Demšar's formula (no correction for ties). With
    ``tie_correction=True`` it is divided by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over groups of t tied
    classifiers, as ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` compute it. A data
    set on which all classifiers tie carries no information under the correction; if every data set
    is all tied, the statistic is 0 and p = 1.

    Demšar's Table 6: chi2_F = 9.28 (p = 0.026); García & Herrera's Table 2: 39.647.
    """
    t = as_table(table, higher_is_better)
    n, k = t.n_datasets, t.n_classifiers
    r = t.mean_ranks.to_numpy()
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    chi2 = max(float(chi2), 0.0)  # rounding can leave -1e-15 for identical mean ranks
    if tie_correction:
        ranks = t.ranks.to_numpy()
        ties = 0.0
        for row in ranks:
            _, counts = np.unique(row, return_counts=True)
            ties += float(np.sum(counts**3 - counts))
        denom = 1 - ties / (n * k * (k**2 - 1))
        chi2 = chi2 / denom if denom > 0 else 0.0
    notes = _approximation_notes(k, n)
    p = float(stats.chi2.sf(chi2, k - 1))
    return FriedmanResult(chi2, p, k - 1, k, n, tie_correction, t.mean_ranks.copy(), notes)


def iman_davenport(
    table, *, tie_correction: bool = False, higher_is_better: bool | None = None
) -> ImanDavenportResult:
    """Iman-Davenport test (Iman & Davenport 1980; Demšar 2006, §3.2.2).

    F_F = (N - 1) chi2_F / (N(k - 1) - chi2_F), compared with F(k-1, (k-1)(N-1)). When every data set
    ranks the classifiers identically, chi2_F reaches N(k-1): F_F is infinite and p = 0.

    Demšar's Table 6: F_F = 3.69 with (3, 39) df; García & Herrera's Table 2: 14.309.
    """
    t = as_table(table, higher_is_better)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ApproximationWarning)
        fr = friedman(t, tie_correction=tie_correction)
    n, k = fr.n, fr.k
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denom = n * (k - 1) - fr.statistic
    if denom <= 1e-12 * n * k:
        f_stat, p = math.inf, 0.0
    else:
        f_stat = (n - 1) * fr.statistic / denom
        p = float(stats.f.sf(f_stat, df1, df2))
    return ImanDavenportResult(float(f_stat), p, df1, df2, fr.statistic)


def _anova_parts(t: ScoreTable) -> tuple[float, float, int, int]:
    """Sums of squares of the two-way layout without replication: (SS classifiers, SS error, df1, df2)."""
    x = t.scores.to_numpy()
    n, k = x.shape
    grand = x.mean()
    ss_clf = n * float(np.sum((x.mean(axis=0) - grand) ** 2))
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + grand
    ss_err = float(np.sum(resid**2))
    return ss_clf, ss_err, k - 1, (k - 1) * (n - 1)


def rm_anova(table, *, higher_is_better: bool | None = None) -> AnovaResult:
    """Repeated-measures (within-subjects) ANOVA (Fisher 1959; Demšar 2006, §3.2.1).

    Data sets are the subjects and classifiers the within factor: F = MS_classifiers / MS_error with
    (k-1, (k-1)(N-1)) df, computed by ``statsmodels.stats.anova.AnovaRM``. When the residual variance is
    zero (every data set shifts all classifiers by the same amount) F is infinite (p = 0) if the
    classifiers differ, and 0 (p = 1) if they do not.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    ss_clf, ss_err, df1, df2 = _anova_parts(t)
    scale = max(float(np.abs(t.scores.to_numpy()).max()), 1.0) ** 2 * t.scores.size
    if ss_err <= 1e-24 * scale:
        f_stat, p = (math.inf, 0.0) if ss_clf > 1e-24 * scale else (0.0, 1.0)
        return AnovaResult(f_stat, p, df1, df2, 0.0)
    from statsmodels.stats.anova import AnovaRM

    long = t.to_long()
    res = AnovaRM(long, depvar="score", subject="dataset", within=["classifier"]).fit()
    row = res.anova_table.iloc[0]
    return AnovaResult(
        float(row["F Value"]), float(row["Pr > F"]), int(row["Num DF"]), int(row["Den DF"]), ss_err / df2
    )


def tukey_hsd(table, *, higher_is_better: bool | None = None) -> pd.DataFrame:
    """Tukey's HSD for all pairs after the repeated-measures ANOVA (Demšar 2006, §3.2.1).

    q = |mean_a - mean_b| / sqrt(MS_error / N), compared with the studentized range for k means and
    (k-1)(N-1) df. Returns one row per pair: a, b, mean_difference (mean_a - mean_b), statistic (q), p.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    _, ss_err, _, df2 = _anova_parts(t)
    n, k = t.n_datasets, t.n_classifiers
    means = t.scores.mean(axis=0).to_numpy()
    se = math.sqrt(ss_err / df2 / n)
    rows = []
    for i in range(k):
        for j in range(i + 1, k):
            diff = means[i] - means[j]
            if se == 0:
                q, p = (0.0, 1.0) if diff == 0 else (math.inf, 0.0)
            else:
                q = abs(diff) / se
                p = float(stats.studentized_range.sf(q, k, df2))
            rows.append({"a": t.classifiers[i], "b": t.classifiers[j], "mean_difference": diff, "statistic": q, "p": min(p, 1.0)})
    return pd.DataFrame(rows, columns=["a", "b", "mean_difference", "statistic", "p"])


def dunnett(table, control: str, *, higher_is_better: bool | None = None) -> pd.DataFrame:
    """Dunnett's test of every classifier against a control after the repeated-measures ANOVA.

    t_j = (mean_j - mean_control) / sqrt(2 MS_error / N) with (k-1)(N-1) df (Demšar 2006, §3.2.1); the
    p-value is P(max_j |T_j| >= |t_j|) over the k-1 comparisons, whose t statistics share the error
    term and the control (correlation 1/2), see :func:`compare_lib.critical.dunnett_sf`. With one
    other classifier it is the paired t-test. Returns rows: a (control), b, mean_difference
    (mean_b - mean_control), statistic, p.
    """
    t = as_table(table, True if higher_is_better is None else higher_is_better)
    if control not in t.classifiers:
        raise InputError(f"Control {control!r} is not among the classifiers {t.classifiers}; pick one of them.")
    _, ss_err, _, df2 = _anova_parts(t)
    n = t.n_datasets
    means = t.scores.mean(axis=0)
    se = math.sqrt(2 * ss_err / df2 / n)
    others = [c for c in t.classifiers if c != control]
    rows = []
    for name in others:
        diff = float(means[name] - means[control])
        if se == 0:
            stat, p = (0.0, 1.0) if diff == 0 else (math.copysign(math.inf, diff), 0.0)
        else:
            stat = diff / se
            p = dunnett_sf(abs(stat), len(others), df2)
        rows.append({"a": control, "b": name, "mean_difference": diff, "statistic": stat, "p": p})
    return pd.DataFrame(rows, columns=["a", "b", "mean_difference", "statistic", "p"])
