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
    # Issue 9: F_F is infinite, but p is the exact chance that 8 data sets agree, (3!)^-7, not 0.
    assert ff.statistic == math.inf and ff.pvalue == pytest.approx(6.0**-7, rel=1e-12) and ff.method == "exact"


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


def test_rm_anova_matches_statsmodels_anovarm(demsar, garcia, benavoli):
    """The field's library as the independent computation: statsmodels' AnovaRM gives the same F and p."""
    from statsmodels.stats.anova import AnovaRM

    for t in (demsar, garcia, benavoli):
        ref = AnovaRM(t.to_long(), depvar="score", subject="dataset", within=["classifier"]).fit().anova_table.iloc[0]
        ours = cl.rm_anova(t)
        assert ours.statistic == pytest.approx(float(ref["F Value"]), rel=1e-10)
        assert ours.pvalue == pytest.approx(float(ref["Pr > F"]), rel=1e-9)
        assert (ours.df1, ours.df2) == (int(ref["Num DF"]), int(ref["Den DF"]))


def test_rm_anova_tukey_dunnett_undefined_on_a_zero_error_term():
    """Issue 9: a zero residual variance (exact or rounding noise) leaves all three undefined, consistently."""
    additive = np.add.outer(np.arange(5.0), [0.0, 1.0, 2.0])
    noisy = np.add.outer(np.array([0.1, 0.7, 0.3, 0.9]), np.array([0.2, 0.1, 0.3]))  # residuals ~1e-17
    flat = np.add.outer(np.arange(5.0), [0.0, 0.0, 0.0])
    constant = np.full((4, 3), 0.8)
    for values in (additive, noisy, flat, constant):
        t = cl.as_table(values, higher_is_better=True)
        res = cl.rm_anova(t)
        assert math.isnan(res.pvalue) and math.isnan(res.statistic) and "Undefined" in res.notes[0]
        tukey = cl.tukey_hsd(t)
        assert tukey["p"].isna().all() and tukey["statistic"].isna().all() and tukey.attrs["notes"]
        assert cl.dunnett(t, t.classifiers[0])["p"].isna().all()
    # A real (tiny) residual keeps the tests defined.
    jitter = additive + np.array([[0, 1e-6, 0], [0, 0, 0], [0, 0, 2e-6], [0, 0, 0], [1e-6, 0, 0]])
    assert 0 <= cl.rm_anova(cl.as_table(jitter, higher_is_better=True)).pvalue < 1e-6


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


# -- issue 9: exact Friedman distribution, degenerate tables ----------------------------------------

def _brute_force_friedman_sf(ranks: np.ndarray, tie_correction: bool) -> float:
    """Enumerate every combination of arrangements of each data set's ranks (the permutation null)."""
    import itertools

    def stat(r):
        t = cl.as_table(-r, higher_is_better=True)  # ranks themselves: lower rank = better = higher score
        return cl.friedman(t, tie_correction=tie_correction).statistic

    observed = stat(ranks)
    options = [sorted(set(itertools.permutations(row.tolist()))) for row in ranks]
    hits = total = 0
    for combo in itertools.product(*options):
        total += 1
        hits += stat(np.array(combo)) >= observed - 1e-9
    return hits / total


@pytest.mark.filterwarnings("ignore")
def test_exact_friedman_equals_enumeration_with_and_without_ties():
    rng = np.random.default_rng(11)
    for _ in range(12):
        n, k = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        values = rng.integers(0, 3, size=(n, k)).astype(float)  # ties, and rows that are all tied
        t = cl.as_table(values, higher_is_better=True)
        for tc in (False, True):
            expected = _brute_force_friedman_sf(t.ranks.to_numpy(), tc)
            res = cl.friedman(t, method="exact", tie_correction=tc)
            assert res.method == "exact"
            assert res.pvalue == pytest.approx(expected, rel=1e-12)
        assert cl.iman_davenport(t, method="exact").pvalue == pytest.approx(res.pvalue, rel=1e-12)


def test_exact_friedman_tiny_tables_from_the_issue():
    """Two data sets, three classifiers, the same ranking: chi2_F = 4, exact p = 1/6 (not 'p < 1e-300');
    three data sets: 1/36."""
    two = cl.as_table(np.array([[0.9, 0.8, 0.7], [0.6, 0.5, 0.4]]), higher_is_better=True)
    assert cl.friedman(two, method="exact").pvalue == pytest.approx(1 / 6)
    assert cl.friedman(two, method="auto").method == "exact"
    ff = cl.iman_davenport(two)
    assert ff.statistic == math.inf and ff.pvalue == pytest.approx(1 / 6) and ff.notes
    three = cl.as_table(np.array([[3, 2, 1], [3, 2, 1], [6, 5, 4.0]]), higher_is_better=True)
    assert cl.iman_davenport(three).pvalue == pytest.approx(1 / 36)
    assert cl.friedman(three, method="exact").pvalue == pytest.approx(1 / 36)


@pytest.mark.filterwarnings("ignore")
def test_exact_friedman_against_chi_square_for_a_larger_table_and_auto_fallback(demsar):
    exact = cl.friedman(demsar, method="exact")
    asym = cl.friedman(demsar)
    assert exact.statistic == asym.statistic and exact.method == "exact"
    # Independent check: 100,000 random arrangements of each data set's ranks (Monte Carlo, 4 s.e.).
    rng = np.random.default_rng(0)
    ranks = demsar.ranks.to_numpy()
    reps = 100_000
    order = np.argsort(rng.random((reps, *ranks.shape)), axis=2)
    shuffled = np.take_along_axis(np.broadcast_to(ranks, (reps, *ranks.shape)), order, axis=2).mean(axis=1)
    n, k = ranks.shape
    chi2 = 12 * n / (k * (k + 1)) * ((shuffled**2).sum(axis=1) - k * (k + 1) ** 2 / 4)
    mc = float((chi2 >= exact.statistic - 1e-9).mean())
    assert abs(exact.pvalue - mc) < 4 * math.sqrt(mc * (1 - mc) / reps)
    # Demšar's chi2_F = 9.28 has exact p 0.0136; the chi-square approximation says 0.0258.
    assert round(exact.pvalue, 4) == 0.0136 and round(asym.pvalue, 4) == 0.0258
    big = cl.as_table(np.random.default_rng(3).normal(size=(40, 12)), higher_is_better=True)
    with pytest.raises(cl.InputError, match="too large"):
        cl.friedman(big, method="exact")
    auto = cl.friedman(big, method="auto")
    assert auto.method == "asymptotic" and auto.pvalue == cl.friedman(big).pvalue
    with pytest.raises(cl.InputError, match="method"):
        cl.friedman(demsar, method="permutation")


def test_tie_term_matches_a_loop():
    from compare_lib.stats._omnibus import _tie_term

    rng = np.random.default_rng(4)
    for _ in range(20):
        t = cl.as_table(rng.integers(0, 4, size=(9, 6)).astype(float), higher_is_better=True)
        expected = 0
        for row in t.ranks.to_numpy():
            _, counts = np.unique(row, return_counts=True)
            expected += int(np.sum(counts**3 - counts))
        assert _tie_term(t.ranks.to_numpy()) == expected


@pytest.mark.filterwarnings("ignore")
def test_friedman_statistic_is_identical_under_permutations():
    rng = np.random.default_rng(6)
    t = cl.as_table(rng.integers(0, 3, size=(30, 7)).astype(float), higher_is_better=True)
    base = cl.friedman(t).statistic
    for _ in range(10):
        cols = list(rng.permutation(t.classifiers))
        rows = list(rng.permutation(t.datasets))
        assert cl.friedman(t.subset(cols, rows)).statistic == base  # bit-identical, not approximately
