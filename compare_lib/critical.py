"""Critical values and tail probabilities of the post-hoc tests (Demšar 2006, §3.2.2, Table 5).

All values come from the distributions, never from a printed table:

* Nemenyi: q_alpha = Q_{1-alpha}(k, inf) / sqrt(2), Q the studentized range of k means with infinite
  degrees of freedom (Demšar uses infinite df; using k(N-1) df gives larger CDs);
* Bonferroni-Dunn: q_alpha = z_{1 - alpha / (2 (k-1))}, the two-sided normal quantile for k-1 comparisons;
* CD = q_alpha sqrt(k (k+1) / (6 N)).

The tails are computed so that tiny probabilities keep their relative accuracy: the studentized
range and Dunnett's maximum are written as integrals of sums of positive terms (no ``1 - cdf``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import integrate, special, stats

from .errors import InputError

CD_METHODS = ("nemenyi", "bonferroni-dunn")


def _check_k_alpha(k, alpha) -> None:
    if int(k) != k or k < 2:
        raise InputError(f"k must be a whole number of classifiers >= 2, got {k!r}.")
    if not (isinstance(alpha, (int, float, np.floating)) and 0 < float(alpha) < 1):
        raise InputError(f"alpha must be a number between 0 and 1 (e.g. 0.05), got {alpha!r}.")


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(8)


def studentized_range_sf_many(q, k: int, *, panel: float = 0.5) -> np.ndarray:
    """P(Q > q) for many q at once: the range of k independent standard normals (infinite df).

    P(Q > q) = k * int phi(z) [Phi(z)^{k-1} - (Phi(z) - Phi(z-q))^{k-1}] dz, with the bracket written as
    Phi(z)^{k-1} * (-expm1((k-1) log1p(-Phi(z-q)/Phi(z)))): no difference of nearly equal numbers, so
    the result keeps its relative accuracy far below 1e-16 (``scipy.stats.studentized_range.sf``
    flattens out there). Integrated by composite 8-point Gauss-Legendre on panels of width 0.5 from
    z = -9 to max(q)/2 + 9, where the integrand lives; agrees with adaptive quadrature to ~1e-14.
    """
    q = np.atleast_1d(np.asarray(q, dtype=float))
    out = np.ones_like(q)
    out[np.isposinf(q)] = 0.0
    todo = np.isfinite(q) & (q > 0)
    if not todo.any():
        return out
    k = int(k)
    qq = q[todo]
    lo, hi = -9.0, max(float(qq.max()) / 2, 3.0) + 9.0
    edges = np.arange(lo, hi + panel, panel)
    mids = (edges[:-1] + edges[1:]) / 2
    z = (mids[:, None] + _GL_NODES[None, :] * panel / 2).ravel()
    w = np.tile(_GL_WEIGHTS * panel / 2, mids.size)
    upper = special.ndtr(z)
    base = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi) * upper ** (k - 1) * w
    res = np.empty(qq.size)
    with np.errstate(divide="ignore"):
        for start in range(0, qq.size, 64):
            ratio = np.minimum(special.ndtr(z[None, :] - qq[start : start + 64, None]) / np.maximum(upper, 1e-300), 1.0)
            res[start : start + 64] = k * ((-np.expm1((k - 1) * np.log1p(-ratio))) @ base)
    out[todo] = np.minimum(res, 1.0)
    return out


def studentized_range_sf(q: float, k: int) -> float:
    """P(Q > q) for the range of k independent standard normals (infinite df); see
    :func:`studentized_range_sf_many`."""
    return float(studentized_range_sf_many([q], k)[0])


@lru_cache(maxsize=256)
def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Nemenyi critical value q_alpha = Q_{1-alpha}(k, inf)/sqrt(2) (Demšar's Table 5a)."""
    _check_k_alpha(k, alpha)
    return float(stats.studentized_range.isf(alpha, int(k), np.inf) / math.sqrt(2))


@lru_cache(maxsize=256)
def bonferroni_dunn_q(k: int, alpha: float = 0.05) -> float:
    """Bonferroni-Dunn critical value: two-sided normal quantile at alpha/(k-1) (Demšar's Table 5b)."""
    _check_k_alpha(k, alpha)
    return float(stats.norm.isf(alpha / (2 * (int(k) - 1))))


def rank_standard_error(k: int, n: int) -> float:
    """Standard error of a difference of mean ranks, sqrt(k(k+1)/(6N)) (Demšar 2006, §3.2.2)."""
    if int(n) != n or n < 1:
        raise InputError(f"n must be a positive whole number of data sets, got {n!r}.")
    return math.sqrt(k * (k + 1) / (6 * n))


def critical_difference(k: int, n: int, alpha: float = 0.05, method: str = "nemenyi") -> float:
    """Critical difference of mean ranks, CD = q_alpha sqrt(k(k+1)/(6N)) (Demšar 2006, §3.2.2).

    ``method="nemenyi"`` (all pairs) or ``"bonferroni-dunn"`` (each classifier versus a control).
    Demšar's Table 6 (k = 4, N = 14): Nemenyi 1.25 at 0.05 and 1.12 at 0.10; Bonferroni-Dunn 1.168
    at 0.05 (printed truncated as 1.16).
    """
    _check_k_alpha(k, alpha)
    if method == "nemenyi":
        q = nemenyi_q(int(k), float(alpha))
    elif method == "bonferroni-dunn":
        q = bonferroni_dunn_q(int(k), float(alpha))
    else:
        raise InputError(f"method={method!r} is not known; choose one of {', '.join(CD_METHODS)}.")
    return q * rank_standard_error(int(k), n)


_HERMITE_NODES, _HERMITE_WEIGHTS = special.roots_hermitenorm(96)
_HERMITE_WEIGHTS = _HERMITE_WEIGHTS / math.sqrt(2 * math.pi)


def _dunnett_normal_sf(x: float, m: int) -> float:
    # Z_j = (V + U_j)/sqrt(2): given V, |Z_j| > x has probability sf(sqrt2 x - V) + cdf(-sqrt2 x - V).
    tail = special.ndtr(-(x - _HERMITE_NODES)) + special.ndtr(-x - _HERMITE_NODES)
    inside = 1 - tail
    geo = np.ones_like(inside)
    power = np.ones_like(inside)
    for _ in range(m - 1):
        power = power * inside
        geo = geo + power
    return float((tail * geo) @ _HERMITE_WEIGHTS)


def dunnett_sf(c: float, m: int, df: float) -> float:
    """P(max_j |T_j| >= c) for m equicorrelated (rho = 1/2) t variables with ``df`` degrees of freedom.

    The two-sided Dunnett p-value for comparisons with a control on equal sample sizes. Written as
    E_S E_V[(1 - g) sum_i g^i] with 1 - g computed from normal tails, integrated over V by
    Gauss-Hermite quadrature and over the scale S = sqrt(chi2_df / df) adaptively. With m = 1 it
    equals the two-sided t-test p to ~1e-13 relative accuracy.
    """
    if c <= 0:
        return 1.0
    if not np.isfinite(c):
        return 0.0
    if not np.isfinite(df):
        return min(1.0, _dunnett_normal_sf(c * math.sqrt(2), m))

    def integrand(s: float) -> float:
        return _dunnett_normal_sf(c * s * math.sqrt(2), m) * 2 * s * df * stats.chi2.pdf(df * s * s, df)

    val, _ = integrate.quad(integrand, 0, np.inf, limit=200, epsabs=0, epsrel=1e-10)
    return float(min(1.0, val))
