"""Two-classifier tests against scipy and against brute-force computations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import compare_lib as cl



def _brute_force_wilcoxon_p(d: np.ndarray, zero_method: str) -> float:
    """Enumerate all 2^n sign flips of the non-zero differences (the permutation distribution)."""
    d = np.asarray(d, float)
    zeros = int((d == 0).sum())
    if zero_method == "wilcox":
        d = d[d != 0]
    elif zero_method == "demsar" and zeros % 2:
        d = np.delete(d, np.flatnonzero(d == 0)[0])
    r = stats.rankdata(np.abs(d))
    zero_part = 0.0 if zero_method == "pratt" else r[d == 0].sum() / 2
    free = r[d != 0]
    obs_plus = r[d > 0].sum() + zero_part
    obs_minus = r[d < 0].sum() + zero_part
    t_obs = min(obs_plus, obs_minus)
    hits = 0
    for signs in itertools.product([0, 1], repeat=free.size):
        plus = float(np.dot(signs, free)) + zero_part
        minus = float(free.sum() - np.dot(signs, free)) + zero_part
        hits += min(plus, minus) <= t_obs + 1e-9
    return hits / 2 ** free.size


@pytest.mark.parametrize("zero_method", ["demsar", "zsplit", "wilcox", "pratt"])
def test_wilcoxon_exact_equals_enumeration_with_ties_and_zeros(zero_method):
    rng = np.random.default_rng(1)
    for _ in range(15):
        n = int(rng.integers(3, 12))
        d = rng.integers(-3, 4, size=n).astype(float)  # many ties and zeros
        x = rng.integers(50, 90, size=n).astype(float)  # integers: the differences stay exact
        res = cl.wilcoxon(x, x + d, zero_method=zero_method, method="exact")
        expected = _brute_force_wilcoxon_p(d, zero_method)
        assert res.pvalue == pytest.approx(min(1.0, expected), rel=1e-9, abs=1e-12)


def test_wilcoxon_matches_scipy_exact_without_ties():
    rng = np.random.default_rng(2)
    for n in (5, 9, 14, 20, 30):
        x = rng.normal(size=n)
        y = x + rng.normal(0.4, 1, size=n)
        ours = cl.wilcoxon(x, y, method="exact")
        ref = stats.wilcoxon(x, y, method="exact")
        assert ours.statistic == ref.statistic
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_wilcoxon_approx_matches_scipy_and_demsar_formula():
    rng = np.random.default_rng(3)
    n = 60
    x = rng.normal(size=n)
    y = x + rng.normal(0.2, 1, size=n)
    ours = cl.wilcoxon(x, y)
    assert ours.method == "approx"
    ref = stats.wilcoxon(x, y, method="approx", correction=False)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    # Demšar's z = (T - N(N+1)/4) / sqrt(N(N+1)(2N+1)/24) when nothing is tied.
    z = (ours.statistic - n * (n + 1) / 4) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    assert ours.z == pytest.approx(z, rel=1e-12)
    # The exact distribution and the approximation agree closely at this N.
    assert cl.wilcoxon(x, y, method="exact").pvalue == pytest.approx(ours.pvalue, abs=5e-3)


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
def test_wilcoxon_rank_sums_match_scipy_zero_methods(zero_method):
    x = np.array([0.70, 0.71, 0.72, 0.80, 0.60, 0.66, 0.90, 0.55, 0.61, 0.73])
    y = np.array([0.70, 0.75, 0.72, 0.85, 0.58, 0.70, 0.93, 0.50, 0.61, 0.79])
    ours = cl.wilcoxon(x, y, zero_method=zero_method)
    ref = stats.wilcoxon(x, y, zero_method=zero_method, method="approx")
    assert ours.statistic == pytest.approx(ref.statistic)


def test_wilcoxon_demsar_drops_one_of_an_odd_number_of_zeros():
    x = np.array([0.5, 0.6, 0.7, 0.8, 0.9, 0.4])
    y = np.array([0.5, 0.6, 0.7, 0.85, 0.97, 0.3])
    res = cl.wilcoxon(x, y)
    assert (res.zeros, res.zeros_dropped, res.n) == (3, 1, 5)
    # Ranks of |d| = 0, 0, .05, .07, .1 -> 1.5, 1.5, 3, 4, 5; zeros split: R+ = 1.5 + 3 + 4, R- = 1.5 + 5.
    assert (res.r_plus, res.r_minus) == (8.5, 6.5)
    split = cl.wilcoxon(x, y, zero_method="zsplit")
    assert (split.n, split.r_plus + split.r_minus) == (6, 21)


def test_wilcoxon_direction_and_all_equal():
    x = np.array([0.1, 0.2, 0.3, 0.4])
    assert cl.wilcoxon(x, x).pvalue == 1.0
    up = cl.wilcoxon(x, x + np.array([0.01, 0.02, 0.03, 0.04]))
    down = cl.wilcoxon(x, x + np.array([0.01, 0.02, 0.03, 0.04]), higher_is_better=False)
    assert (up.r_plus, up.r_minus) == (10, 0)
    assert (down.r_plus, down.r_minus) == (0, 10)
    assert up.pvalue == down.pvalue == pytest.approx(2 / 16)


def test_wilcoxon_small_p_is_not_flattened():
    n = 200
    x = np.zeros(n)
    y = np.arange(1, n + 1) / 1000.0
    res = cl.wilcoxon(x, y, method="exact")
    assert res.pvalue == pytest.approx(2 * 0.5**n, rel=1e-9)  # every sign positive
    assert cl.wilcoxon(x, y).pvalue > 0


def test_sign_test_against_binomtest_and_odd_ties():
    x = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9], float)
    y = np.array([2, 3, 4, 5, 6, 6, 7, 8, 1], float)  # 5 wins for y, 1 loss, 3 ties
    res = cl.sign_test(x, y)
    assert (res.wins, res.losses, res.ties) == (5, 1, 3)
    assert res.n == 8 and res.statistic == 6  # one tie dropped, two split
    assert res.pvalue == pytest.approx(stats.binomtest(6, 8).pvalue)
    flipped = cl.sign_test(x, y, higher_is_better=False)
    assert (flipped.wins, flipped.losses) == (1, 5)
    assert flipped.pvalue == res.pvalue


def test_sign_test_critical_wins_exact_rule():
    for n in range(5, 40):
        w = cl.sign_test_critical_wins(n, 0.05, method="exact")
        if w <= n:
            assert 2 * stats.binom.sf(w - 1, n, 0.5) <= 0.05 < 2 * stats.binom.sf(w - 2, n, 0.5)
    assert cl.sign_test_critical_wins(5, 0.05, method="exact") == 6  # never significant at N = 5


def test_paired_ttest_against_scipy():
    rng = np.random.default_rng(4)
    x = rng.uniform(0.6, 0.9, 25)
    y = x + rng.normal(0.01, 0.02, 25)
    res = cl.paired_ttest(x, y)
    ref = stats.ttest_rel(y, x)
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.pvalue == pytest.approx(ref.pvalue)
    rel = cl.paired_ttest(x, y, relative=True)
    ref_rel = stats.ttest_1samp((y - x) / ((x + y) / 2), 0.0)
    assert rel.statistic == pytest.approx(ref_rel.statistic)
    assert rel.pvalue == pytest.approx(ref_rel.pvalue)
    assert cl.paired_ttest(x, y, higher_is_better=False).statistic == pytest.approx(-res.statistic)


def test_paired_ttest_zero_variance_is_undefined():
    """Issue 9: a zero standard error gives no p-value (not 0 or 1 from a division by zero)."""
    x = np.array([0.5, 0.6, 0.7])
    same = cl.paired_ttest(x, x)
    assert np.isnan(same.pvalue) and np.isnan(same.statistic) and "Undefined" in same.note
    shifted = cl.paired_ttest(x, x + 0.25)  # exact binary fractions: every difference identical
    assert np.isnan(shifted.pvalue) and shifted.statistic == np.inf and "Undefined" in shifted.note
    # Rounding noise only (0.1 + 0.2 - 0.3 style) counts as zero variance too.
    noisy = cl.paired_ttest([0.1, 0.7, 0.3], [0.2, 0.8, 0.4])
    assert np.isnan(noisy.pvalue)
    assert cl.paired_ttest(x, x + [0.1, 0.2, 0.4]).note == ""


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: cl.wilcoxon([1, 2, 3], [1, 2]), "3 and 2 scores"),
        (lambda: cl.sign_test([1, np.nan], [1, 2]), "missing or infinite"),
        (lambda: cl.paired_ttest([1.0], [2.0]), "at least 2"),
        (lambda: cl.paired_ttest([1.0, -1.0], [-1.0, 1.0], relative=True), "average score"),
        (lambda: cl.wilcoxon([1, 2], [2, 3], zero_method="drop"), "zero_method"),
        (lambda: cl.wilcoxon([1, 2], [2, 3], method="fast"), "method"),
        (lambda: cl.sign_test([1, 2], [2, 3], alpha=5), "alpha"),
    ],
)
def test_bad_input_messages(call, message):
    with pytest.raises(cl.InputError, match=message):
        call()
