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
    for df in (5, 39, 500):
        for c in (0.3, 2.0, 6.0, 15.0):
            assert cl.dunnett_sf(c, 1, df) == pytest.approx(2 * stats.t.sf(c, df), rel=1e-8)
    assert cl.dunnett_sf(3.0, 1, np.inf) == pytest.approx(2 * stats.norm.sf(3.0), rel=1e-10)


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
