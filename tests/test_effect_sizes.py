"""Paired effect sizes: each against its definition computed independently (brute-force Walsh averages,
enumeration of the signed-rank null, scipy's t interval, statsmodels' Wilson interval), plus the
direction convention, the all-pairs table and its limits."""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

import compare_lib as cl

from .strategies import score_tables

# The package's attribute effect_sizes is the function; the module is reached by its full name.
es = importlib.import_module("compare_lib.stats._effect_sizes")


def _table(a, b, higher_is_better=True):
    return cl.ScoreTable(pd.DataFrame({"A": a, "B": b}), higher_is_better)


def _walsh(d):
    d = np.asarray(d, dtype=float)
    return np.sort([(d[i] + d[j]) / 2 for i in range(d.size) for j in range(i, d.size)])


def _signed_rank_null_by_enumeration(n):
    """P(T+ = t) for untied ranks 1..n, by listing all 2^n sign patterns."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    for signs in itertools.product((0, 1), repeat=n):
        counts[sum(r for r, s in zip(range(1, n + 1), signs) if s)] += 1
    return counts / 2**n


D10 = np.array([0.031, -0.012, 0.044, 0.008, 0.027, -0.003, 0.019, 0.052, 0.015, -0.021])


def test_hodges_lehmann_is_the_median_of_walsh_averages():
    e = cl.effect_sizes(_table(D10, np.zeros(10)), "A", "B")
    assert e.hodges_lehmann == pytest.approx(np.median(_walsh(D10)), abs=1e-15)
    assert e.n == 10 and e.level == 0.95


def test_hodges_lehmann_interval_from_the_exact_signed_rank_null():
    """n = 10, 95 %: P(T+ <= 8) = 0.0244 <= 0.025 < P(T+ <= 9) = 0.0322 (Wilcoxon's table: critical
    value 8), so the interval runs from the 9th smallest to the 9th largest of the 55 Walsh averages."""
    null = _signed_rank_null_by_enumeration(10)
    cdf = np.cumsum(null)
    assert cdf[8] == pytest.approx(25 / 1024) and cdf[8] <= 0.025 < cdf[9]
    c = int(np.searchsorted(cdf, 0.025, side="right"))  # P(T+ <= c - 1) <= .025
    assert c == 9 == es._signed_rank_critical(10, 0.95)
    walsh = _walsh(D10)
    e = cl.effect_sizes(_table(D10, np.zeros(10)), "A", "B")
    assert e.hodges_lehmann_ci == (pytest.approx(walsh[c - 1]), pytest.approx(walsh[55 - c]))
    # The interval's coverage is 1 - 2 P(T+ <= c - 1) >= 95 %.
    assert 1 - 2 * cdf[c - 1] == pytest.approx(1 - 50 / 1024)


@pytest.mark.parametrize("n", [6, 12, 20])
def test_signed_rank_critical_value_by_enumeration(n):
    cdf = np.cumsum(_signed_rank_null_by_enumeration(n))
    for level in (0.9, 0.95, 0.99):
        c = es._signed_rank_critical(n, level)
        if cdf[0] > (1 - level) / 2:  # too few data sets for this level: the widest interval
            assert c == 1
        else:
            assert cdf[c - 1] <= (1 - level) / 2 < cdf[c]


def test_large_n_critical_value_is_the_normal_approximation():
    n = 200
    m = n * (n + 1) // 2
    expected = math.floor(m / 2 - 1.959963984540054 * math.sqrt(n * (n + 1) * (2 * n + 1) / 24))
    assert es._signed_rank_critical(n, 0.95) == expected


def test_walsh_order_statistics_by_counting_equal_listing(monkeypatch):
    rng = np.random.default_rng(3)
    d = np.round(rng.normal(size=(3, 40)), 2)  # ties among the Walsh sums
    ks = [1, 7, 410, 411, 820]
    listed = es._walsh_order_statistics(d, ks)
    for row in range(3):
        assert listed[row] == pytest.approx(_walsh(d[row])[np.array(ks) - 1], abs=1e-15)
    monkeypatch.setattr(es, "_MAX_LISTED_WALSH", 0)
    counted = es._walsh_order_statistics(d, ks)
    assert counted == pytest.approx(listed, abs=1e-12)


def test_mean_difference_interval_is_scipys_t_interval():
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.8, 0.05, 30), rng.normal(0.78, 0.05, 30)
    e = cl.effect_sizes(_table(a, b), "A", "B", level=0.9)
    ci = stats.ttest_1samp(a - b, 0).confidence_interval(0.9)
    assert e.mean_difference == pytest.approx(np.mean(a - b))
    assert e.mean_difference_ci == (pytest.approx(ci.low), pytest.approx(ci.high))


def test_cohens_dz_interval_inverts_the_noncentral_t():
    rng = np.random.default_rng(6)
    d = rng.normal(0.4, 1.0, 25)
    e = cl.effect_sizes(_table(d, np.zeros(25)), "A", "B")
    assert e.cohens_dz == pytest.approx(d.mean() / d.std(ddof=1))
    t_obs = d.mean() / (d.std(ddof=1) / 5)
    low, high = e.cohens_dz_ci
    assert stats.nct.cdf(t_obs, 24, low * 5) == pytest.approx(0.975, abs=1e-9)
    assert stats.nct.cdf(t_obs, 24, high * 5) == pytest.approx(0.025, abs=1e-9)
    assert low < e.cohens_dz < high


def test_cohens_dz_interval_far_in_the_tails():
    """t around 60: scipy's noncentral t returns NaN for some noncentralities; the interval is still
    finite, ordered and close to the normal-theory one."""
    d = 1.0 + 0.05 * np.sin(np.arange(40))
    e = cl.effect_sizes(_table(d, np.zeros(40)), "A", "B")
    low, high = e.cohens_dz_ci
    assert math.isfinite(low) and math.isfinite(high) and low < e.cohens_dz < high
    approx_se = math.sqrt(1 / 40 + e.cohens_dz**2 / (2 * 39))
    assert low == pytest.approx(e.cohens_dz - 1.96 * approx_se, rel=0.1)


def test_rank_biserial_and_probability_of_superiority_by_definition():
    a = np.array([0.9, 0.8, 0.7, 0.85, 0.6, 0.75, 0.5])
    b = np.array([0.8, 0.8, 0.72, 0.80, 0.7, 0.70, 0.5])
    d = a - b  # two zeros, one tie among |d| (0.05, 0.05)
    e = cl.effect_sizes(_table(a, b), "A", "B")
    nz = d[d != 0]
    ranks = stats.rankdata(np.abs(nz))
    r_plus, r_minus = ranks[nz > 0].sum(), ranks[nz < 0].sum()
    assert e.rank_biserial == pytest.approx((r_plus - r_minus) / (r_plus + r_minus))
    assert e.prob_superiority == pytest.approx((3 + 2 / 2) / 7)
    low, high = proportion_confint(4, 7, alpha=0.05, method="wilson")
    assert e.prob_superiority_ci == (pytest.approx(low), pytest.approx(high))


def test_lower_is_better_scores_are_signed_to_favour_a():
    rng = np.random.default_rng(8)
    err_a, err_b = rng.uniform(0.1, 0.2, 15), rng.uniform(0.15, 0.25, 15)
    lower = cl.effect_sizes(_table(err_a, err_b, higher_is_better=False), "A", "B")
    as_accuracy = cl.effect_sizes(_table(1 - err_a, 1 - err_b), "A", "B")
    for field in ("mean_difference", "hodges_lehmann", "cohens_dz", "rank_biserial", "prob_superiority"):
        assert getattr(lower, field) == pytest.approx(getattr(as_accuracy, field), abs=1e-12), field
    assert lower.mean_difference > 0


def test_identical_classifiers_give_zero_effects_and_undefined_dz():
    x = np.linspace(0.6, 0.9, 8)
    e = cl.effect_sizes(_table(x, x), "A", "B")
    assert (e.mean_difference, e.hodges_lehmann, e.rank_biserial, e.prob_superiority) == (0, 0, 0, 0.5)
    assert math.isnan(e.cohens_dz) and all(math.isnan(v) for v in e.cohens_dz_ci)
    assert e.mean_difference_ci == (0, 0)


@settings(max_examples=60, deadline=None)
@given(score_tables(min_k=2, max_k=2, min_n=3, max_n=30))
def test_swapping_the_pair_mirrors_every_effect(table):
    a, b = table.classifiers
    ab, ba = cl.effect_sizes(table, a, b), cl.effect_sizes(table, b, a)
    for field in ("mean_difference", "hodges_lehmann", "rank_biserial"):
        assert getattr(ab, field) == pytest.approx(-getattr(ba, field), abs=1e-12)
    assert ab.prob_superiority == pytest.approx(1 - ba.prob_superiority)
    assert ab.hodges_lehmann_ci == (pytest.approx(-ba.hodges_lehmann_ci[1]), pytest.approx(-ba.hodges_lehmann_ci[0]))
    assert ab.hodges_lehmann_ci[0] <= ab.hodges_lehmann <= ab.hodges_lehmann_ci[1]
    assert ab.mean_difference_ci[0] <= ab.mean_difference <= ab.mean_difference_ci[1]
    if math.isfinite(ab.cohens_dz):
        assert ab.cohens_dz == pytest.approx(-ba.cohens_dz, abs=1e-9)
        assert ab.cohens_dz_ci[0] <= ab.cohens_dz <= ab.cohens_dz_ci[1]


def test_effect_size_table_rows_equal_the_pairwise_function(garcia):
    frame = cl.effect_size_table(garcia)
    k = garcia.n_classifiers
    assert len(frame) == k * (k - 1) // 2
    assert frame.attrs == {"level": 0.95, "higher_is_better": True, "n": garcia.n_datasets}
    for row in frame.itertuples():
        e = cl.effect_sizes(garcia, row.a, row.b)
        assert row.hodges_lehmann == pytest.approx(e.hodges_lehmann, abs=1e-15)
        assert (row.hl_ci_low, row.hl_ci_high) == pytest.approx(e.hodges_lehmann_ci, abs=1e-15)
        assert (row.dz_ci_low, row.dz_ci_high) == pytest.approx(e.cohens_dz_ci, abs=1e-12)
        assert row.rank_biserial == pytest.approx(e.rank_biserial)
        assert (row.ps_ci_low, row.ps_ci_high) == pytest.approx(e.prob_superiority_ci)


def test_effect_size_table_leaves_hodges_lehmann_empty_beyond_its_limit(garcia, monkeypatch):
    monkeypatch.setattr(es, "MAX_WALSH_WORK", 100)
    frame = cl.effect_size_table(garcia)
    assert frame["hodges_lehmann"].isna().all() and frame["hl_ci_low"].isna().all()
    assert frame["mean_difference"].notna().all()
    assert "above the limit of 100" in frame.attrs["note"]


def test_effect_size_table_refuses_too_many_pairs(monkeypatch):
    monkeypatch.setattr(es, "MAX_EFFECT_PAIRS", 2)
    table = cl.as_table(np.random.default_rng(0).random((5, 3)), higher_is_better=True)
    with pytest.raises(cl.InputError, match="up to 2 pairs; this table has 3"):
        cl.effect_size_table(table)


@pytest.mark.parametrize("kwargs,match", [
    ({"a": "A", "b": "A"}, "two different"),
    ({"a": "A", "b": "Z"}, "'Z' is not among"),
    ({"a": "A", "b": "B", "level": 1.5}, "level must be between 0 and 1"),
])
def test_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(cl.InputError, match=match):
        cl.effect_sizes(_table(D10, np.zeros(10)), **kwargs)


def test_to_dict_round_trip():
    e = cl.effect_sizes(_table(D10, np.zeros(10)), "A", "B")
    assert pd.Series(e.to_dict())["hodges_lehmann"] == e.hodges_lehmann


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 40), st.floats(-1.0, 1.0), st.integers(0, 2**32 - 1))
def test_hodges_lehmann_interval_excludes_zero_exactly_when_wilcoxon_rejects(n, shift, seed):
    """Untied differences: the 95 % interval excludes 0 exactly when the exact two-sided Wilcoxon
    p-value is at most 0.05 (both come from the same signed-rank distribution)."""
    d = np.random.default_rng(seed).normal(shift, 1.0, n)
    e = cl.effect_sizes(_table(d, np.zeros(n)), "A", "B")
    p = cl.wilcoxon(d, np.zeros(n), method="exact").pvalue
    assert (e.hodges_lehmann_ci[0] > 0 or e.hodges_lehmann_ci[1] < 0) == (p <= 0.05)


def test_with_effect_sizes_orients_each_row(garcia):
    result = cl.posthoc(garcia, "wilcoxon", "holm")
    flipped = result.rename(columns={"a": "b", "b": "a"})
    one = cl.with_effect_sizes(result, garcia)
    other = cl.with_effect_sizes(flipped, garcia)
    assert np.allclose(one["effect"], -other["effect"])
    assert np.allclose(one["effect_low"], -other["effect_high"])
    for row in one.head(5).itertuples():
        e = cl.effect_sizes(garcia, row.a, row.b)
        assert (row.effect, row.effect_low, row.effect_high) == pytest.approx(
            (e.hodges_lehmann, *e.hodges_lehmann_ci), abs=1e-15)
    assert one.attrs["effect_measure"] == "hodges_lehmann" and one.attrs["alpha"] == result.attrs["alpha"]
    dz = cl.with_effect_sizes(result, garcia, "cohens_dz")
    assert dz["effect_low"].notna().all() and (dz["effect_low"] <= dz["effect"]).all()
    with pytest.raises(cl.InputError, match="measure must be one of"):
        cl.with_effect_sizes(result, garcia, "glass")
