"""Rank confidence sets (compare_lib.analyses._rank_sets): the simultaneous sets of Mogstad, Romano, Shaikh & Wilhelm
(2024) projected from the post-hoc decisions, the marginal bootstrap of the mean ranks, the best / worst sets
and the winners' sentence.

What is asserted:

* on random tables (hypothesis) the sets are exactly the projection of ``cl.posthoc``'s decisions, counted
  here independently, row by row, for several statistics and procedures;
* Demšar's Table 6 (Wilcoxon, Holm): the sets worked out by hand from the post-hoc table at alpha 0.05
  and 0.10, the best and worst sets and the sentence;
* a simulation with a known order: the simultaneous sets cover every true rank in at least 1 - alpha of
  the tables (within Monte Carlo error), and are single ranks when the classifiers are far apart;
* the bootstrap interval (issue 28: expanded BCa floored by a score interval) equals a direct computation
  (ranking every resampled table with scipy, the BCa from its formulas, the score interval by scanning), is
  seeded, and is labelled marginal; a fixed order gets Wilson's interval, not a point; bad input is refused
  with InputError. (Its coverage is measured in test_rank_sets_coverage.py.)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import compare_lib as cl
from compare_lib.analyses._rank_sets import (
    MAX_BOOTSTRAP, best_set, rank_sets, winners_sentence, worst_set,
)

from .strategies import score_tables


def _projection_by_hand(frame: pd.DataFrame, names: list[str]) -> tuple[dict, dict]:
    """rank_low and rank_high from a post-hoc frame, one row at a time."""
    k = len(names)
    better = {x: 0 for x in names}  # classifiers significantly better than x
    worse = {x: 0 for x in names}  # classifiers significantly worse than x
    for row in frame.itertuples():
        if row.reject and row.better:
            loser = row.b if row.better == row.a else row.a
            better[loser] += 1
            worse[row.better] += 1
    return {x: 1 + better[x] for x in names}, {x: k - worse[x] for x in names}


@settings(max_examples=80, deadline=None)
@given(score_tables(max_k=7), st.sampled_from(["wilcoxon", "sign", "mean-ranks"]),
       st.sampled_from(["holm", "bonferroni", "shaffer", "hochberg"]), st.sampled_from([0.01, 0.05, 0.1, 0.3]))
def test_sets_are_the_projection_of_the_posthoc_decisions(table, test, correction, alpha):
    sets = rank_sets(table, test=test, correction=correction, alpha=alpha)
    frame = cl.posthoc(table, test, correction, alpha=alpha)
    low, high = _projection_by_hand(frame, table.classifiers)
    assert list(sets.index) == table.classifiers
    assert sets["rank_low"].to_dict() == low
    assert sets["rank_high"].to_dict() == high
    np.testing.assert_array_equal(sets["mean_rank"].to_numpy(), table.mean_ranks.to_numpy())
    k = table.n_classifiers
    assert (1 <= sets["rank_low"]).all() and (sets["rank_low"] <= sets["rank_high"]).all() and (sets["rank_high"] <= k).all()
    assert (sets["rank_low"] == 1 + sets["worse_than"]).all() and (sets["rank_high"] == k - sets["better_than"]).all()
    assert sets.attrs["method"] == "simultaneous" and sets.attrs["marginal"] is False
    assert sets.attrs["k"] == k and sets.attrs["n"] == table.n_datasets and sets.attrs["alpha"] == alpha
    # The best set: nobody significantly better; the worst: nobody significantly worse.
    assert set(best_set(sets)) == {x for x in table.classifiers if low[x] == 1}
    assert set(worst_set(sets)) == {x for x in table.classifiers if high[x] == k}
    best = best_set(sets)
    assert list(sets.loc[best, "mean_rank"]) == sorted(sets.loc[best, "mean_rank"])


def test_demsar_table6_by_hand(demsar):
    """Wilcoxon + Holm on Demšar's Table 6 (14 data sets). The post-hoc table rejects only C4.5 vs C4.5+m at
    0.05 (p_adj 0.047; next C4.5 vs C4.5+m+cf at 0.062, then C4.5+cf vs C4.5+m+cf at 0.111), so:
    C4.5 has one classifier above it: [2, 4]; C4.5+m one below it: [1, 3]; the others [1, 4]. At 0.10
    C4.5 vs C4.5+m+cf is rejected too: C4.5 [3, 4], C4.5+m and C4.5+m+cf [1, 3], C4.5+cf [1, 4]."""
    frame = cl.posthoc(demsar, "wilcoxon", "holm")
    assert frame.loc[frame["reject"], ["a", "b", "better"]].values.tolist() == [["C4.5", "C4.5+m", "C4.5+m"]]
    sets = rank_sets(demsar)  # Wilcoxon + Holm at 0.05 are the defaults
    assert sets[["rank_low", "rank_high"]].to_dict("index") == {
        "C4.5": {"rank_low": 2, "rank_high": 4}, "C4.5+m": {"rank_low": 1, "rank_high": 3},
        "C4.5+cf": {"rank_low": 1, "rank_high": 4}, "C4.5+m+cf": {"rank_low": 1, "rank_high": 4}}
    sets10 = rank_sets(demsar, alpha=0.10)
    assert sets10[["rank_low", "rank_high"]].to_dict("index") == {
        "C4.5": {"rank_low": 3, "rank_high": 4}, "C4.5+m": {"rank_low": 1, "rank_high": 3},
        "C4.5+cf": {"rank_low": 1, "rank_high": 4}, "C4.5+m+cf": {"rank_low": 1, "rank_high": 3}}
    # Ordered by mean rank: C4.5+m+cf 1.964, C4.5+m 2.000, C4.5+cf 2.893, C4.5 3.143.
    assert best_set(demsar) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    assert worst_set(demsar) == ["C4.5+m+cf", "C4.5+cf", "C4.5"]
    assert worst_set(demsar, alpha=0.10) == ["C4.5+cf", "C4.5"]
    assert winners_sentence(demsar) == ("C4.5+m+cf, C4.5+m and C4.5+cf could each be the best; the data cannot tell "
                                        "them apart at 95% confidence.")
    assert winners_sentence(sets10) == ("C4.5+m+cf, C4.5+m and C4.5+cf could each be the best; the data cannot tell "
                                        "them apart at 90% confidence.")
    # The sign test rejects nothing here: every rank is possible for everyone.
    sign = rank_sets(demsar, test="sign")
    assert (sign["rank_low"] == 1).all() and (sign["rank_high"] == 4).all()
    assert winners_sentence(demsar, test="sign").startswith("Any of the 4 classifiers could be the best")


def _ordered_table(rng, k: int, n: int, delta: float) -> cl.ScoreTable:
    """Classifier j's score = j * delta + N(0, 1): the true order is C_{k-1} best, ..., C_0 worst, and every pair's
    median / pseudo-median / expected rank difference is non-zero (no ties in the true order)."""
    scores = rng.normal(size=(n, k)) + delta * np.arange(k)
    return cl.as_table(scores, higher_is_better=True)


@pytest.mark.parametrize("test, correction", [("wilcoxon", "holm"), ("sign", "holm"), ("mean-ranks", "nemenyi")])
def test_simultaneous_coverage_of_the_true_ranks(test, correction):
    rng = np.random.default_rng(2024)
    k, n, delta, alpha, draws = 5, 30, 0.5, 0.05, 200
    true_rank = k - np.arange(k)  # C1 (index 0) is the worst
    covered = informative = 0
    for _ in range(draws):
        sets = rank_sets(_ordered_table(rng, k, n, delta), test=test, correction=correction, alpha=alpha)
        low, high = sets["rank_low"].to_numpy(), sets["rank_high"].to_numpy()
        covered += bool(np.all((low <= true_rank) & (true_rank <= high)))
        informative += bool(np.any(high - low < k - 1))
    se = math.sqrt(alpha * (1 - alpha) / draws)
    assert covered / draws >= 1 - alpha - 3 * se
    assert informative / draws > 0.9  # the sets are not trivially [1, k]: the check above has teeth


def test_far_apart_classifiers_get_single_ranks():
    rng = np.random.default_rng(7)
    for test in ("wilcoxon", "sign", "mean-ranks"):
        table = _ordered_table(rng, 5, 60, 10.0)  # N = 60: the mean-ranks z of adjacent ranks is 3.5
        sets = rank_sets(table, test=test, correction="holm")
        np.testing.assert_array_equal(sets["rank_low"], [5, 4, 3, 2, 1])
        np.testing.assert_array_equal(sets["rank_high"], [5, 4, 3, 2, 1])
        assert best_set(table, test=test) == ["C5"] and worst_set(sets) == ["C1"]
        assert winners_sentence(sets) == ("C5 is the best with confidence 95%: every other classifier is significantly "
                                          "worse than some classifier.")


def test_lower_is_better_reverses_the_ranks():
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(25, 4)) + 10.0 * np.arange(4)
    errors = rank_sets(cl.as_table(scores, higher_is_better=False))
    np.testing.assert_array_equal(errors["rank_low"], [1, 2, 3, 4])
    np.testing.assert_array_equal(errors["rank_high"], [1, 2, 3, 4])


def test_two_classifiers_sentence():
    table = cl.as_table([[1, 1.1], [2, 1.9], [3, 3.05], [4, 3.9]], higher_is_better=True)
    assert winners_sentence(table) == "C1 and C2 could each be the best; the data cannot tell them apart at 95% confidence."


def _score_interval_by_grid(ranks: np.ndarray, alpha: float, step: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
    """The floored score interval of rank_sets's bootstrap found by scanning theta over [1, k]: the expected ranks
    theta with |mean - theta| <= t sqrt(max(s^2, v(theta)) / N), v(theta) = (theta - floor)(ceil - theta)."""
    n, k = ranks.shape
    t = stats.t.ppf(1 - alpha / 2, n - 1)
    theta = np.arange(1, k + step / 2, step)
    v = (theta - np.floor(theta)) * (np.ceil(theta) - theta)
    low, high = [], []
    for r in ranks.T:
        ok = (r.mean() - theta) ** 2 <= t * t * np.maximum(r.var(ddof=1), v) / n
        low.append(theta[ok].min())
        high.append(theta[ok].max())
    return np.array(low), np.array(high)


def test_bootstrap_equals_a_direct_computation(demsar):
    """Issue 28: the interval is the hull of the expanded BCa interval and the floored score interval; here both
    are computed from their definitions (scipy ranks every resampled table afresh, BCa from Efron's formulas with
    Hesterberg's expanded quantile, the score interval by scanning theta) and must give rank_sets's numbers."""
    alpha, n_boot, seed = 0.1, 500, 11
    boot = rank_sets(demsar, method="bootstrap", alpha=alpha, n_boot=n_boot, seed=seed)
    n = demsar.n_datasets
    # The same resamples, each resampled table ranked afresh by scipy.
    idx = np.random.default_rng(seed).integers(0, n, size=(n_boot, n))
    scores = demsar.scores.to_numpy()
    ranks = stats.rankdata(-scores, axis=1)
    means = np.array([stats.rankdata(-scores[rows], axis=1).mean(axis=0) for rows in idx])
    mean = ranks.mean(axis=0)
    z = math.sqrt(n / (n - 1)) * stats.t.ppf(1 - alpha / 2, n - 1)  # Hesterberg's expanded quantile
    z0 = stats.norm.ppf((means < mean - 1e-9).mean(axis=0) + 0.5 * (np.abs(means - mean) <= 1e-9).mean(axis=0))
    jack = np.array([np.delete(ranks, i, axis=0).mean(axis=0) for i in range(n)])  # leave-one-out means
    d = jack.mean(axis=0) - jack
    accel = (d**3).sum(axis=0) / (6 * ((d**2).sum(axis=0)) ** 1.5)
    bca = [[np.quantile(means[:, j], stats.norm.cdf(z0[j] + (z0[j] + s * z) / (1 - accel[j] * (z0[j] + s * z))))
            for j in range(demsar.n_classifiers)] for s in (-1, 1)]
    s_low, s_high = _score_interval_by_grid(ranks, alpha)
    np.testing.assert_allclose(boot["rank_low"], np.minimum(bca[0], s_low), rtol=0, atol=2e-6)
    np.testing.assert_allclose(boot["rank_high"], np.maximum(bca[1], s_high), rtol=0, atol=2e-6)
    assert (boot["rank_low"].to_numpy() < np.quantile(means, alpha / 2, axis=0)).all()  # wider than the percentiles
    assert (boot["rank_high"].to_numpy() > np.quantile(means, 1 - alpha / 2, axis=0)).all()
    np.testing.assert_array_equal(boot["mean_rank"], demsar.mean_ranks)
    assert list(boot.columns) == ["mean_rank", "rank_low", "rank_high"]
    assert boot.attrs["method"] == "bootstrap" and boot.attrs["marginal"] is True
    assert boot.attrs["test"] is None and boot.attrs["n_boot"] == n_boot and boot.attrs["seed"] == seed
    assert boot.attrs["guaranteed"] is None and boot.attrs["guarantee"].startswith("Marginal")
    # Seeded: the same seed gives the same intervals, another seed others.
    pd.testing.assert_frame_equal(boot, rank_sets(demsar, method="bootstrap", alpha=alpha, n_boot=n_boot, seed=seed))
    assert not rank_sets(demsar, method="bootstrap", alpha=alpha, n_boot=n_boot, seed=12).equals(boot)


def test_bootstrap_of_a_fixed_order_is_wilsons_interval():
    """Issue 28: a classifier ranked the same on all 10 data sets gets Wilson's score interval for 0 of 10 around
    its rank (Student's t in place of z), not a point: the percentile interval's [3, 3] said that it could never
    be ranked otherwise. With g = t^2 / N the interval reaches g / (1 + g) = 0.3385 beyond the rank."""
    table = cl.as_table(np.arange(30, dtype=float).reshape(10, 3) * [1, 2, 3], higher_is_better=True)
    boot = rank_sets(table, method="bootstrap", n_boot=200)
    g = stats.t.ppf(0.975, 9) ** 2 / 10
    reach = g / (1 + g)
    assert round(reach, 4) == 0.3385
    np.testing.assert_allclose(boot["rank_low"], [3 - reach, 2 - reach, 1.0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(boot["rank_high"], [3.0, 2 + reach, 1 + reach], rtol=0, atol=1e-12)


def test_table_with_holes():
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(20, 4)) + 5.0 * np.arange(4)
    scores[3, 1] = scores[7, 2] = np.nan
    with pytest.warns(cl.DataWarning, match="pairwise"):
        table = cl.ScoreTable(pd.DataFrame(scores, columns=list("ABCD")), True, missing="pairwise")
    sets = rank_sets(table)
    low, high = _projection_by_hand(cl.posthoc(table, "wilcoxon", "holm"), table.classifiers)
    assert sets["rank_low"].to_dict() == low and sets["rank_high"].to_dict() == high
    assert "notes" in sets.attrs
    with pytest.raises(cl.InputError, match="missing"):
        rank_sets(table, method="bootstrap")


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "exact"}, "method='exact'"),
    ({"alpha": 1.5}, "alpha"),
    ({"alpha": 0}, "alpha"),
    ({"test": "nope"}, "test='nope'"),
    ({"correction": "nope"}, "nope"),
    ({"correction": "nemenyi", "test": "wilcoxon"}, "mean-ranks"),
    ({"method": "bootstrap", "n_boot": MAX_BOOTSTRAP + 1}, "100,000"),
    ({"method": "bootstrap", "n_boot": 10}, "between 100"),
    ({"method": "bootstrap", "n_boot": 2.5}, "whole number"),
])
def test_bad_input(demsar, kwargs, message):
    with pytest.raises(cl.InputError, match=message):
        rank_sets(demsar, **kwargs)


def test_best_set_needs_the_simultaneous_sets(demsar):
    boot = rank_sets(demsar, method="bootstrap", n_boot=200)
    for fn in (best_set, worst_set, winners_sentence):
        with pytest.raises(cl.InputError, match="simultaneous"):
            fn(boot)
    with pytest.raises(cl.InputError, match="simultaneous"):
        best_set(demsar, method="bootstrap", n_boot=200)
    with pytest.raises(cl.InputError, match="already fixes"):
        best_set(rank_sets(demsar), alpha=0.1)
    with pytest.raises(cl.InputError, match="direction"):
        rank_sets(np.ones((5, 3)))


def test_rank_sets_from_a_posthoc_result_already_computed():
    """The dashboard and the report project the sets from the post-hoc they already have (with effect sizes in
    its columns): the same frame as rank_sets, and a control result is refused."""
    import compare_lib as cl
    from tests.conftest import SAMPLES

    table = cl.load_scores(SAMPLES / "garcia_herrera2008_table2_accuracy.csv", higher_is_better=True)
    frame = cl.with_effect_sizes(cl.posthoc(table, "wilcoxon", "holm"), table)
    pd.testing.assert_frame_equal(cl.rank_sets_from_posthoc(frame), cl.rank_sets(table, test="wilcoxon", correction="holm"))
    assert cl.rank_set_labels(cl.rank_sets(table)) == ["1–2", "2–4", "1–3", "5", "3–4"]
    with pytest.raises(cl.InputError, match="every pair"):
        cl.rank_sets_from_posthoc(cl.posthoc(table, "wilcoxon", "holm", control="C4.5"))
