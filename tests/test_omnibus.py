"""Omnibus tests against scipy, statsmodels and hand computations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl


def _random_table(rng, n=12, k=5, ties=True) -> cl.ScoreTable:
    values = rng.integers(0, 6, size=(n, k)).astype(float) if ties else rng.normal(size=(n, k))
    return cl.as_table(values, higher_is_better=True)


def test_friedman_tie_corrected_matches_scipy():
    rng = np.random.default_rng(7)
    for _ in range(20):
        t = _random_table(rng)
        ours = cl.friedman(t, tie_correction=True)
        ref = stats.friedmanchisquare(*t.scores.to_numpy().T)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_friedman_equals_rank_sum_form():
    """Benavoli et al. eq. (3): S = 12/(n m (m+1)) sum_j (R_j - n(m+1)/2)^2 on rank sums."""
    rng = np.random.default_rng(8)
    for _ in range(10):
        t = _random_table(rng, n=15, k=6)
        sums = t.ranks.to_numpy().sum(axis=0)
        n, m = t.n_datasets, t.n_classifiers
        s = 12 / (n * m * (m + 1)) * np.sum((sums - n * (m + 1) / 2) ** 2)
        assert cl.friedman(t).statistic == pytest.approx(s, rel=1e-12)
        assert cl.friedman(t).pvalue == pytest.approx(stats.chi2.sf(s, m - 1), rel=1e-12)


def test_friedman_without_ties_equals_corrected():
    t = _random_table(np.random.default_rng(9), ties=False)
    assert cl.friedman(t).statistic == pytest.approx(cl.friedman(t, tie_correction=True).statistic)


def test_friedman_all_tied_and_perfect_agreement():
    tied = cl.as_table(np.ones((5, 3)), higher_is_better=True)
    assert cl.friedman(tied).statistic == 0 and cl.friedman(tied).pvalue == 1.0
    assert cl.friedman(tied, tie_correction=True).pvalue == 1.0
    same_order = cl.as_table(np.tile([3.0, 2.0, 1.0], (8, 1)), higher_is_better=True)
    assert cl.friedman(same_order).statistic == pytest.approx(8 * 2)  # N (k - 1)
    ff = cl.iman_davenport(same_order)
    assert ff.statistic == math.inf and ff.pvalue == 0.0


def test_friedman_small_p_not_flattened():
    t = cl.as_table(np.tile(np.arange(10.0), (200, 1)), higher_is_better=True)
    p = cl.friedman(t).pvalue
    assert 0 < p < 1e-300 or p == pytest.approx(stats.chi2.sf(200 * 9, 9), rel=1e-6)


def test_friedman_warns_for_small_tables(demsar):
    with pytest.warns(cl.ApproximationWarning, match="N > 10 and k > 5"):
        res = cl.friedman(demsar)
    assert res.notes


def test_iman_davenport_formula():
    t = _random_table(np.random.default_rng(10), n=20, k=4)
    chi2 = cl.friedman(t).statistic
    n, k = 20, 4
    ff = cl.iman_davenport(t)
    assert ff.statistic == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2))
    assert ff.pvalue == pytest.approx(stats.f.sf(ff.statistic, k - 1, (k - 1) * (n - 1)))


def _hand_rm_anova(x: np.ndarray) -> tuple[float, float]:
    n, k = x.shape
    grand = x.mean()
    ss_total = ((x - grand) ** 2).sum()
    ss_subjects = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_treat = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_err = ss_total - ss_subjects - ss_treat
    f = (ss_treat / (k - 1)) / (ss_err / ((k - 1) * (n - 1)))
    return f, stats.f.sf(f, k - 1, (k - 1) * (n - 1))


def test_rm_anova_matches_hand_computation(demsar, garcia):
    for t in (demsar, garcia):
        res = cl.rm_anova(t)
        f, p = _hand_rm_anova(t.scores.to_numpy())
        assert res.statistic == pytest.approx(f, rel=1e-9)
        assert res.pvalue == pytest.approx(p, rel=1e-9)
        assert (res.df1, res.df2) == (t.n_classifiers - 1, (t.n_classifiers - 1) * (t.n_datasets - 1))


def test_rm_anova_degenerate():
    additive = cl.as_table(np.add.outer(np.arange(5.0), [0.0, 1.0, 2.0]), higher_is_better=True)
    assert cl.rm_anova(additive).pvalue == 0.0
    flat = cl.as_table(np.add.outer(np.arange(5.0), [0.0, 0.0, 0.0]), higher_is_better=True)
    assert cl.rm_anova(flat).pvalue == 1.0


def test_tukey_and_dunnett_with_two_classifiers_are_the_paired_ttest(demsar):
    pair = demsar.subset(["C4.5", "C4.5+m"])
    t = cl.paired_ttest(pair.scores["C4.5"], pair.scores["C4.5+m"])
    tukey = cl.tukey_hsd(pair)
    assert tukey["p"].iloc[0] == pytest.approx(t.pvalue, rel=1e-6)
    assert tukey["statistic"].iloc[0] == pytest.approx(abs(t.statistic) * math.sqrt(2), rel=1e-9)
    dun = cl.dunnett(pair, "C4.5")
    assert dun["p"].iloc[0] == pytest.approx(t.pvalue, rel=1e-9)
    assert dun["statistic"].iloc[0] == pytest.approx(t.statistic, rel=1e-9)


def test_tukey_hsd_hand(demsar):
    res = cl.tukey_hsd(demsar)
    x = demsar.scores.to_numpy()
    n, k = x.shape
    anova = cl.rm_anova(demsar)
    means = x.mean(axis=0)
    q = abs(means[0] - means[1]) / math.sqrt(anova.ms_error / n)
    row = res[(res["a"] == "C4.5") & (res["b"] == "C4.5+m")].iloc[0]
    assert row["statistic"] == pytest.approx(q)
    assert row["p"] == pytest.approx(stats.studentized_range.sf(q, k, (k - 1) * (n - 1)), rel=1e-6)


def test_dunnett_against_multivariate_t(demsar):
    res = cl.dunnett(demsar, "C4.5")
    df2 = 3 * 13
    corr = np.full((3, 3), 0.5) + 0.5 * np.eye(3)
    mvt = stats.multivariate_t(shape=corr, df=df2, seed=1)
    for stat, p in zip(res["statistic"], res["p"]):
        c = abs(stat)
        inside = mvt.cdf(np.full(3, c), lower_limit=np.full(3, -c), random_state=1)
        assert p == pytest.approx(1 - inside, abs=5e-4)
    with pytest.raises(cl.InputError, match="Control 'J48'"):
        cl.dunnett(demsar, "J48")


def test_results_to_frame(demsar):
    frame = cl.friedman(demsar).to_frame()
    assert list(frame.columns[:2]) == ["statistic", "pvalue"]
    assert isinstance(cl.iman_davenport(demsar).to_frame(), pd.DataFrame)
