"""Aligned ranks, Quade, Conover and the exact rank-sum difference (issue 13).

García, Fernández, Luengo & Herrera (2010) and Eisinga et al. (2017) are not among the papers in
../shared/papers and their tables could not be found in a readable form, so their printed numbers are
not asserted here (the note of issue 13 says so). Every statistic is checked instead against an
independent computation: the closed forms printed by García et al. (as scmamp implements them) where
those are right, full enumeration of the permutation null for tiny tables (variances and exact
p-values), and Conover's two equivalent forms of his standard error.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl
from compare_lib.stats import _rank_tests as rt
from compare_lib.data import as_table

from .conftest import SAMPLES


def _table(x, higher=True):
    x = np.asarray(x, dtype=float)
    return as_table(pd.DataFrame(x, columns=[f"C{j}" for j in range(x.shape[1])],
                                 index=[f"D{i}" for i in range(x.shape[0])]), higher)


@pytest.fixture(scope="module")
def demsar():
    return cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)


@pytest.fixture(scope="module")
def garcia():
    return cl.load_scores(SAMPLES / "garcia_herrera2008_table2_accuracy.csv", higher_is_better=True)


def _garcia_aligned_closed_form(x):
    """García et al. (2010) eq. for the aligned-ranks T, untied data, written out independently."""
    n, k = x.shape
    residual = x - x.mean(axis=1, keepdims=True)
    ranks = stats.rankdata(-residual.ravel()).reshape(n, k)
    rj, ri = ranks.sum(axis=0), ranks.sum(axis=1)
    kn = k * n
    num = (k - 1) * ((rj**2).sum() - (kn * n / 4) * (kn + 1) ** 2)
    den = kn * (kn + 1) * (2 * kn + 1) / 6 - (ri**2).sum() / k
    return num / den


def _quade_closed_form(x):
    """Quade's F with García et al.'s untied A = N(N+1)(2N+1)k(k+1)(k-1)/72, written out independently."""
    n, k = x.shape
    q = stats.rankdata(x.max(axis=1) - x.min(axis=1))
    r = np.apply_along_axis(lambda row: stats.rankdata(-row), 1, x)
    s = q[:, None] * (r - (k + 1) / 2)
    a = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72
    b = (s.sum(axis=0) ** 2).sum() / n
    return (n - 1) * b / (a - b)


def test_omnibus_match_the_closed_forms_on_untied_tables():
    rng = np.random.default_rng(11)
    for n, k in [(14, 4), (30, 5), (8, 3), (50, 10)]:
        x = rng.random((n, k))
        t = _table(x)
        aligned = cl.friedman_aligned_ranks(t)
        assert aligned.statistic == pytest.approx(_garcia_aligned_closed_form(x), rel=1e-12)
        assert aligned.pvalue == pytest.approx(stats.chi2.sf(aligned.statistic, k - 1), rel=1e-12)
        q = cl.quade(t)
        assert q.statistic == pytest.approx(_quade_closed_form(x), rel=1e-12)
        assert (q.df1, q.df2) == (k - 1, (k - 1) * (n - 1))
        assert q.pvalue == pytest.approx(stats.f.sf(q.statistic, k - 1, (k - 1) * (n - 1)), rel=1e-12)


def test_demsar_table6_values(demsar):
    """Demšar's Table 6 as he ranked it (chi2_F = 9.28): the values the Omnibus page shows. Its aligned
    residuals tie (14 of 56 aligned ranks are averages), so García et al.'s untied closed form gives 11.5527
    instead of the tie-aware 11.5590."""
    aligned = cl.friedman_aligned_ranks(demsar)
    x = demsar.scores.to_numpy()
    assert _garcia_aligned_closed_form(x) == pytest.approx(11.5527, abs=5e-5)
    assert aligned.statistic == pytest.approx(11.5590, abs=5e-5)
    q = cl.quade(demsar)
    assert q.statistic == pytest.approx(4.5232, abs=5e-5)


def test_aligned_ranks_direction_and_ties():
    x = np.array([[0.9, 0.8, 0.7], [0.5, 0.6, 0.4]])
    ar = cl.aligned_ranks(_table(x))
    # residuals: row 1 (+.1, 0, -.1), row 2 (0, +.1, -.1): +.1 twice (ranks 1.5), 0 twice (3.5), -.1 twice (5.5)
    assert ar.to_numpy().tolist() == [[1.5, 3.5, 5.5], [3.5, 1.5, 5.5]]
    lower = cl.aligned_ranks(_table(-x, higher=False))
    assert lower.to_numpy().tolist() == ar.to_numpy().tolist()
    # The float residuals of 0.1 differ in their last bits between rows; they still tie.
    assert ar.iloc[0, 0] == ar.iloc[1, 1]


def _all_rankings(x):
    """Every assignment of each data set's scores to the classifiers (the permutation null)."""
    n, k = x.shape
    for combo in itertools.product(itertools.permutations(range(k)), repeat=n):
        yield np.array([x[i, list(p)] for i, p in enumerate(combo)])


@pytest.mark.parametrize("seed,shape", [(0, (2, 4)), (1, (3, 3)), (2, (2, 4))])
def test_pairwise_variances_equal_the_enumerated_permutation_variance(seed, shape):
    """The standard errors are the exact permutation variances (with a tie in the data), computed by listing
    all (k!)^N assignments: for García et al.'s printed formulas this fails (see the next test)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, size=shape).astype(float)
    x[0, :2] = 3.0  # a tie
    t = _table(x)
    aligned_diffs, quade_diffs, rank_diffs = [], [], []
    for y in _all_rankings(x):
        ty = _table(y)
        ar = rt._aligned_doubled_ranks(ty).sum(axis=0) / 2
        aligned_diffs.append(ar[0] - ar[1])
        q2, c2 = rt._quade_parts(ty)
        s = (q2[:, None] * c2).sum(axis=0) / 4
        quade_diffs.append(s[0] - s[1])
        r = ty.ranks.to_numpy().sum(axis=0)
        rank_diffs.append(r[0] - r[1])
    k = shape[1]
    within = rt._aligned_within_ss(rt._aligned_doubled_ranks(t))
    assert np.var(aligned_diffs) == pytest.approx(2 * within / (k - 1), rel=1e-12)
    q2, c2 = rt._quade_parts(t)
    a = ((q2[:, None] * c2 / 4.0) ** 2).sum()
    assert np.var(quade_diffs) == pytest.approx(2 * a / (k - 1), rel=1e-12)
    # The exact rank-sum distribution is the enumerated one, at every observed difference.
    support, pmf = cl.rank_sum_difference_distribution(np.rint(2 * t.ranks.to_numpy()).astype(np.int64))
    values, counts = np.unique(np.rint(2 * np.array(rank_diffs)).astype(int), return_counts=True)
    enumerated = dict(zip(values.tolist(), (counts / counts.sum()).tolist()))
    computed = {int(s): p for s, p in zip(support, pmf) if p > 0}
    assert computed.keys() == enumerated.keys()
    for key, value in enumerated.items():
        assert computed[key] == pytest.approx(value, rel=1e-12)


def test_garcia_printed_standard_errors_differ_from_the_permutation_variance():
    """Without ties the permutation standard errors have closed forms; García et al. (2010) print others.

    Quade: Var(T_a - T_b) = k(k+1)(2N+1)/(9N(N+1)); García's k(k+1)(2N+1)(k-1)/(18N(N+1)) agrees only at
    k = 3. Aligned ranks: García's printed k(N+1)/6 misses a factor (Santafé, Inza & Lozano 2015, p. 498);
    even k(kN+1)/6, the variance if the kN aligned ranks fell into the data sets at random, is too small,
    because each data set's residuals sum to zero and so spread its ranks: a z with it rejects too often.
    The permutation variance keeps the level (see the simulation below)."""
    rng = np.random.default_rng(5)
    for n, k in [(10, 3), (10, 5), (20, 8)]:
        t = _table(rng.random((n, k)))
        z = cl.posthoc(t, "quade", "bonferroni").set_index(["a", "b"])
        weighted = cl.quade_mean_ranks(t)
        ours = math.sqrt(k * (k + 1) * (2 * n + 1) / (9 * n * (n + 1)))
        garcia = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18 * n * (n + 1)))
        for (a, b), row in z.iterrows():
            assert row["statistic"] == pytest.approx((weighted[b] - weighted[a]) / ours, rel=1e-10)
        assert (garcia == pytest.approx(ours)) == (k == 3)
    # Aligned ranks: average permutation variance over many random tables vs k(kN+1)/6 (means of ranks).
    n, k = 12, 5
    variances = []
    for _ in range(400):
        d = rt._aligned_doubled_ranks(_table(rng.random((n, k))))
        variances.append(2 * rt._aligned_within_ss(d) / (k - 1) / n**2)
    assert np.mean(variances) > 1.1 * k * (k * n + 1) / 6
    assert np.mean(variances) > 5 * k * (n + 1) / 6  # García's printed value is far off


def test_pairwise_statistics_keep_their_level_under_the_null():
    """2,000 null tables (i.i.d. scores, N = 10, k = 5): each statistic rejects A vs B at 0.05 about 5% of the
    time (binomial sd 0.5%); the exact rank-sum test at most 5%."""
    rng = np.random.default_rng(123)
    hits = {"aligned-ranks": 0, "quade": 0, "conover": 0, "rank-sum-exact": 0}
    reps = 2000
    for _ in range(reps):
        t = _table(rng.normal(size=(10, 5)) + rng.normal(size=(10, 1)) * 3)
        pair = np.array([[0, 1]])
        hits["aligned-ranks"] += rt.aligned_ranks_z(t, pair)[1][0] <= 0.05
        hits["quade"] += rt.quade_z(t, pair)[1][0] <= 0.05
        hits["conover"] += rt.conover_t(t, pair)[1][0] <= 0.05
        hits["rank-sum-exact"] += rt.rank_sum_exact(t, pair)[1][0] <= 0.05
    rates = {name: h / reps for name, h in hits.items()}
    for name in ("aligned-ranks", "quade", "conover"):
        assert 0.035 <= rates[name] <= 0.065, rates
    assert 0.03 <= rates["rank-sum-exact"] <= 0.055, rates


def test_aligned_z_squared_is_the_omnibus_statistic_for_two_classifiers():
    rng = np.random.default_rng(2)
    t = _table(rng.random((15, 2)))
    z = cl.posthoc(t, "aligned-ranks", "holm")["statistic"].iloc[0]
    assert z**2 == pytest.approx(cl.friedman_aligned_ranks(t).statistic, rel=1e-12)


def test_conover_two_forms_of_its_standard_error(garcia):
    """Conover (1999, p. 371): sqrt(2(N A1 - sum R_j^2)/((N-1)(k-1))) equals
    sqrt(2N(A1 - C1)/((N-1)(k-1)) (1 - T1/(N(k-1)))) with T1 the tie-corrected Friedman statistic."""
    r = garcia.ranks.to_numpy()
    n, k = r.shape
    a1 = (r**2).sum()
    rj = r.sum(axis=0)
    c1 = n * k * (k + 1) ** 2 / 4
    t1 = (k - 1) * ((rj - n * (k + 1) / 2) ** 2).sum() / (a1 - c1)
    assert t1 == pytest.approx(cl.friedman(garcia, tie_correction=True).statistic, rel=1e-12)
    se = math.sqrt(2 * n * (a1 - c1) / ((n - 1) * (k - 1)) * (1 - t1 / (n * (k - 1))))
    res = cl.posthoc(garcia, "conover", "bonferroni")
    names = garcia.classifiers
    for row in res.itertuples():
        expected = (rj[names.index(row.b)] - rj[names.index(row.a)]) / se
        assert row.statistic == pytest.approx(expected, rel=1e-12)
        assert row.p == pytest.approx(2 * stats.t.sf(abs(expected), (n - 1) * (k - 1)), rel=1e-10)


def test_conover_refuses_identical_rankings():
    t = _table([[3, 2, 1], [6, 5, 4], [9, 8, 7]])
    with pytest.raises(cl.InputError, match="every data set ranks the classifiers the same way"):
        cl.posthoc(t, "conover", "holm")
    # The disagreement view leaves it out and says why.
    v = cl.verdicts(t)
    assert "Conover t / Holm" in v.attrs["undefined"] and not any("Conover" in c for c in v.columns)
    assert "every data set ranks the classifiers the same way" in v.attrs["undefined"]["Conover t / Holm"]
    # The exact rank-sum test is defined there: P(|D| >= 6) for a pair ranked 1st and 3rd on all 3 data sets.
    res = cl.posthoc(t, "rank-sum-exact", "bonferroni").set_index(["a", "b"])
    assert res.loc[("C0", "C2"), "p"] == pytest.approx(2 * (1 / 6) ** 3)


def test_exact_rank_sum_against_brute_force_and_the_normal_approximation():
    """Tiny tables: the exact p-value equals enumeration; larger ones: close to the normal z in the body."""
    rng = np.random.default_rng(9)
    x = rng.random((4, 3))
    t = _table(x)
    res = cl.posthoc(t, "rank-sum-exact", "bonferroni").set_index(["a", "b"])
    sums = t.ranks.to_numpy().sum(axis=0)
    diffs = []
    for y in _all_rankings(x):
        r = _table(y).ranks.to_numpy().sum(axis=0)
        diffs.append(r)
    diffs = np.array(diffs)
    for (a, b), row in res.iterrows():
        i, j = t.classifiers.index(a), t.classifiers.index(b)
        observed = abs(sums[i] - sums[j])
        assert row["p"] == pytest.approx(np.mean(np.abs(diffs[:, i] - diffs[:, j]) >= observed - 1e-9), rel=1e-12)
        assert row["statistic"] == sums[j] - sums[i]
    big = _table(rng.random((40, 6)))
    exact = cl.posthoc(big, "rank-sum-exact", "bonferroni").set_index(["a", "b"])["p"]
    normal = cl.posthoc(big, "mean-ranks", "bonferroni").set_index(["a", "b"])["p"]
    both = pd.concat([exact, normal], axis=1, keys=["exact", "normal"]).dropna()
    body = both[both["normal"] > 0.01]
    assert (abs(body["exact"] - body["normal"]) < 0.03).all()  # discreteness: no continuity correction


def test_exact_rank_sum_falls_back_beyond_the_budget(monkeypatch):
    rng = np.random.default_rng(4)
    t = _table(rng.random((30, 5)))
    exact = cl.posthoc(t, "rank-sum-exact", "holm")
    assert exact.attrs["approximate_pairs"] == 0
    monkeypatch.setattr(rt, "EXACT_RANK_SUM_CELLS", 10)
    t2 = _table(rng.random((30, 5)))
    approx = cl.posthoc(t2, "rank-sum-exact", "holm")
    assert approx.attrs["approximate_pairs"] == len(approx)
    mean_ranks = cl.posthoc(t2, "mean-ranks", "holm").set_index(["a", "b"])["p"]
    # Without ties the exact variance is the textbook one: the fallback is the mean-ranks z.
    for row in approx.itertuples():
        assert row.p == pytest.approx(mean_ranks[(row.a, row.b)], rel=1e-10)


def test_registry_declares_pool_dependence():
    assert set(cl.POOL_DEPENDENT_TESTS) == {"mean-ranks", "rank-sum-exact", "aligned-ranks", "quade", "conover"}
    assert not cl.PAIRWISE_TESTS["wilcoxon"].pool_dependent and not cl.PAIRWISE_TESTS["sign"].pool_dependent
    assert set(cl.TESTS) == set(cl.PAIRWISE_TESTS)


def test_pool_dependent_statistics_change_with_the_pool():
    """Benavoli et al.'s Example 1: A vs B is significant in the full pool for the mean ranks, and so for the
    exact rank-sum p-value and Conover's t; alone, A and B are not (the Wilcoxon p never moves)."""
    t = cl.load_scores(SAMPLES / "benavoli2016_example1.csv", higher_is_better=True)
    for statistic in ("rank-sum-exact", "conover"):
        v = cl.pool_verdicts(t, ["A", "B"], statistic=statistic)
        key = statistic.replace("-", "_")
        assert bool(v[f"reject_{key}_full"].iloc[0]) and not bool(v[f"reject_{key}"].iloc[0])
        assert bool(v[f"changed_{key}"].iloc[0])
    with pytest.raises(cl.InputError, match="pool-dependent"):
        cl.pool_verdicts(t, ["A", "B"], statistic="wilcoxon")
    # The examples named in the pool page's help text.
    quade = cl.pool_verdicts(t, ["A", "B", "C", "D"], statistic="quade")
    assert int(quade["changed_quade"].sum()) == 4 and int(quade["changed_wilcoxon"].sum()) == 0
    g = cl.load_scores(SAMPLES / "garcia_herrera2008_table2_accuracy.csv", higher_is_better=True)
    pool = [c for c in g.classifiers if c != "Kernel"]
    counts = {s: int(cl.pool_verdicts(g, pool, statistic=s)[f"changed_{s.replace('-', '_')}"].sum())
              for s in ("rank-sum-exact", "quade")}
    assert counts == {"rank-sum-exact": 3, "quade": 2}
    assert int(cl.pool_verdicts(g, pool)["changed_mean_ranks"].sum()) == 3


def test_undefined_omnibus_cases_say_so():
    constant = _table(np.ones((4, 3)))
    assert math.isnan(cl.friedman_aligned_ranks(constant).pvalue) and cl.friedman_aligned_ranks(constant).notes
    assert math.isnan(cl.quade(constant).pvalue) and cl.quade(constant).notes
    # Same ranking everywhere and equal ranges: A = B, Quade's F is infinite; p is the exact (1/3!)^(N-1).
    same = _table([[3, 2, 1], [6, 5, 4], [9, 8, 7]])
    q = cl.quade(same)
    assert q.statistic == math.inf and q.pvalue == pytest.approx((1 / 6) ** 2) and q.method == "exact"


def test_invariance_to_row_and_column_order():
    rng = np.random.default_rng(8)
    x = np.round(rng.random((12, 5)), 1)  # many ties
    t = _table(x)
    perm_r, perm_c = rng.permutation(12), rng.permutation(5)
    shuffled = t.subset([t.classifiers[j] for j in perm_c], [t.datasets[i] for i in perm_r])
    assert cl.friedman_aligned_ranks(t).statistic == cl.friedman_aligned_ranks(shuffled).statistic
    assert cl.quade(t).statistic == cl.quade(shuffled).statistic
    for test in ("aligned-ranks", "quade", "conover", "rank-sum-exact"):
        a = cl.posthoc(t, test, "holm").set_index(["a", "b"])
        b = cl.posthoc(shuffled, test, "holm")
        for row in b.itertuples():
            ref = a.loc[(row.a, row.b)] if (row.a, row.b) in a.index else a.loc[(row.b, row.a)]
            assert row.p == ref["p"] and row.p_adj == ref["p_adj"]


def test_conovers_t_with_no_residual_variance_offers_the_exact_test_when_registered():
    """Conover's t divides by zero when every data set ranks alike: the kernel says so, and the registry (a layer
    above the kernel) names the exact rank-sum test in the advice while it is registered."""
    import pandas as pd

    same_order = cl.as_table(pd.DataFrame({"A": [.9, .8, .7], "B": [.5, .4, .3], "C": [.1, .2, .05]}),
                             higher_is_better=True)
    with pytest.raises(cl.InputError, match=r"residual rank variance .* Use the exact rank-sum test "
                                            r"\(test='rank-sum-exact'\) instead\."):
        cl.posthoc(same_order, test="conover")
    with pytest.raises(rt.ZeroResidualError, match=r"is zero\. Use another pairwise statistic\.$"):
        rt.conover_t(same_order, [(0, 1)])
