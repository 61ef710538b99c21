"""Critical values and tails against scipy and closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import compare_lib as cl


@pytest.mark.parametrize("k", [2, 3, 5, 10, 20])
def test_studentized_range_sf_matches_scipy_in_the_body(k):
    for q in (0.5, 1.5, 3.0, 5.0, 7.0):
        assert cl.studentized_range_sf(q, k) == pytest.approx(stats.studentized_range.sf(q, k, np.inf), rel=1e-7, abs=1e-14)


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_studentized_range_sf_keeps_tiny_tails(k):
    """Far in the tail the range exceeds q essentially through one pair: P ~ C(k,2) * 2 * sf(q/sqrt2)."""
    for q in (12.0, 20.0, 30.0):
        union = k * (k - 1) / 2 * 2 * stats.norm.sf(q / math.sqrt(2))
        assert cl.studentized_range_sf(q, k) == pytest.approx(union, rel=1e-4)
        assert cl.studentized_range_sf(q, k) > 0


def test_studentized_range_k2_is_normal():
    for q in (0.1, 1.0, 4.0, 15.0):
        assert cl.studentized_range_sf(q, 2) == pytest.approx(2 * stats.norm.sf(q / math.sqrt(2)), rel=1e-9)


def test_nemenyi_q_inverts_sf():
    for k in (3, 7, 15):
        for alpha in (0.01, 0.05, 0.1):
            assert cl.studentized_range_sf(cl.nemenyi_q(k, alpha) * math.sqrt(2), k) == pytest.approx(alpha, rel=1e-5)


def test_dunnett_sf_one_comparison_is_t():
    for df in (1, 5, 39, 500):
        for c in (0.3, 2.0, 6.0, 15.0, 40.0):
            assert cl.dunnett_sf(c, 1, df) == pytest.approx(2 * stats.t.sf(c, df), rel=1e-10)
    for c in (3.0, 10.0, 30.0, 37.0):
        # Issue 9: the Gauss-Hermite version gave 3.9e-201 for c = 30 (exact 9.8e-198).
        assert cl.dunnett_sf(c, 1, np.inf) == pytest.approx(2 * stats.norm.sf(c), rel=1e-12)


def test_dunnett_sf_between_sidak_and_bonferroni():
    for m in (2, 4, 8):
        for c in (2.0, 2.5, 3.0):
            p1 = 2 * stats.t.sf(c, 30)
            value = cl.dunnett_sf(c, m, 30)
            assert p1 <= value <= min(1, m * p1)


def test_critical_difference_grows_with_k_and_shrinks_with_n():
    assert cl.critical_difference(5, 20) < cl.critical_difference(6, 20)
    assert cl.critical_difference(5, 40) < cl.critical_difference(5, 20)
    assert cl.critical_difference(5, 20, method="bonferroni-dunn") < cl.critical_difference(5, 20)


@pytest.mark.parametrize(
    "args,message",
    [((1, 10), "k must be"), ((4, 0), "n must be"), ((4, 10, 1.5), "alpha"), ((4, 10, 0.05, "tukey"), "method")],
)
def test_critical_difference_errors(args, message):
    with pytest.raises(cl.InputError, match=message):
        cl.critical_difference(*args)


def _quad_reference(q: float, k: int) -> float:
    """Adaptive quadrature of k * int phi(z) Phi(z-q) sum_i Phi(z)^i (Phi(z)-Phi(z-q))^(k-2-i) dz."""
    from scipy import integrate

    def f(z):
        a = stats.norm.cdf(z)
        low = stats.norm.cdf(z - q)
        return stats.norm.pdf(z) * low * sum(a**i * (a - low) ** (k - 2 - i) for i in range(k - 1))

    val, _ = integrate.quad(f, q / 2 - 12, q / 2 + 12, points=[q / 2], limit=200, epsabs=0, epsrel=1e-11)
    return k * val


@pytest.mark.parametrize("k", [2, 4, 9, 25, 50])
def test_vectorized_studentized_range_equals_adaptive_quadrature(k):
    q = np.array([0.2, 1.0, 3.3, 5.0, 9.0, 16.0, 27.0])
    expected = np.array([min(1.0, _quad_reference(x, k)) for x in q])
    assert np.allclose(cl.studentized_range_sf_many(q, k), expected, rtol=1e-9, atol=1e-15)
    assert cl.studentized_range_sf_many([0.0, np.inf], k).tolist() == [1.0, 0.0]


# -- issue 9: finite-df tails and non-finite input ---------------------------------------------------

def _finite_df_reference(q: float, k: int, df: float, sf_inf) -> float:
    """Adaptive quadrature over s = sqrt(chi2_df/df) of the directly integrated infinite-df tail
    (no spline, no fixed panels): an independent computation of the finite-df tail."""
    from scipy import integrate

    def f(s):
        return sf_inf(q * s) * 2 * s * df * stats.chi2.pdf(df * s * s, df)

    peak = math.sqrt(df / (df + q * q / 2))
    val, _ = integrate.quad(f, 0, 60, points=[peak / 2, peak, 2 * peak], limit=500, epsabs=0, epsrel=1e-12)
    return val


@pytest.mark.parametrize("q,k,df,printed", [(20.0, 5, 100, 1.35e-24), (40.0, 4, 39, 8.0e-27), (5.0, 5, 10, None),
                                            (8.0, 5, 1, None), (3.0, 10, 200, None)])
def test_studentized_range_finite_df_keeps_its_tail(q, k, df, printed):
    """Issue 9: scipy's finite-df sf returns 0 for sf(20, 5, 100) (true 1.35e-24) and 2.2e-16 for
    sf(40, 4, 39) (true 8e-27); ours agrees with an independent quadrature to 1e-10."""
    ref = _finite_df_reference(q, k, df, lambda x: cl.studentized_range_sf(x, k))
    ours = cl.studentized_range_sf(q, k, df)
    assert ours == pytest.approx(ref, rel=1e-10)
    if printed is not None:
        assert ours == pytest.approx(printed, rel=0.01)
    else:  # in the body scipy is accurate
        assert ours == pytest.approx(stats.studentized_range.sf(q, k, df), rel=1e-7)


@pytest.mark.parametrize("c,m,df", [(3.0, 4, 39), (9.0, 3, 20), (25.0, 6, 100), (2.0, 2, 3)])
def test_dunnett_finite_df_against_quadrature(c, m, df):
    ref = _finite_df_reference(c * math.sqrt(2), m, df, lambda x: cl.dunnett_sf(x / math.sqrt(2), m, np.inf))
    assert cl.dunnett_sf(c, m, df) == pytest.approx(ref, rel=1e-10)


def test_tukey_hsd_uses_the_accurate_tail():
    rng = np.random.default_rng(0)
    x = rng.normal(0, 0.01, size=(40, 4)) + np.array([0.0, 0.0, 0.0, 0.2])
    res = cl.tukey_hsd(cl.as_table(x, higher_is_better=True))
    df = 3 * 39
    for q, p in zip(res["statistic"], res["p"]):
        assert p == pytest.approx(cl.studentized_range_sf(q, 4, df), rel=1e-15)
        assert p > 0
    assert res["p"].min() < 1e-50  # scipy's sf would say 0 here


@pytest.mark.parametrize("call", [
    lambda: cl.studentized_range_sf(float("nan"), 4),
    lambda: cl.studentized_range_sf_many([1.0, float("nan")], 4),
    lambda: cl.studentized_range_sf(-float("inf"), 4),
    lambda: cl.dunnett_sf(float("nan"), 2, 10),
    lambda: cl.studentized_range_sf(2.0, 4, df=0),
    lambda: cl.studentized_range_sf(2.0, 1),
])
def test_non_finite_statistics_are_refused(call):
    """Issue 9: studentized_range_sf(nan, 4) returned 1.0; a missing statistic has no p-value."""
    with pytest.raises(cl.InputError):
        call()
    assert cl.studentized_range_sf(float("inf"), 4) == 0.0
