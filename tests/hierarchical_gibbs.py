"""An independent sampler of the hierarchical model of Corani et al. (2017), for the tests only.

Not NUTS and not the library's closed form: a Gibbs sampler with the Student-t written as a scale mixture
of normals (δ_i | λ_i ~ N(δ0, σ0²/λ_i), λ_i ~ Gamma(ν/2, rate ν/2)), conjugate updates for δ_i, σ_i, δ0
and σ0, slice sampling for ν and α, and an inverse-CDF draw for β. It works on the raw fold differences
(no rescaling), with the dense likelihood's pieces computed from the folds themselves.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special, stats


def _slice(logp, x0: float, lo: float, hi: float, rng: np.random.Generator, w: float = 1.0) -> float:
    """One univariate slice-sampling update (Neal 2003, stepping out, then shrinking) on (lo, hi)."""
    y = logp(x0) - rng.exponential()
    left = x0 - w * rng.uniform()
    right = left + w
    for _ in range(50):
        if left <= lo or logp(left) < y:
            break
        left -= w
    for _ in range(50):
        if right >= hi or logp(right) < y:
            break
        right += w
    left, right = max(left, lo), min(right, hi)
    while True:
        x1 = rng.uniform(left, right)
        if logp(x1) >= y:
            return x1
        if x1 < x0:
            left = x1
        else:
            right = x1


def gibbs(diffs: list[np.ndarray], rho: float, alpha=(0.5, 5.0), beta=(0.05, 0.15), iterations: int = 20_000,
          burn: int = 2_000, seed: int = 0, std_upper: float = 1000.0) -> dict[str, np.ndarray]:
    """Posterior draws of δ0, σ0, ν, δ (iterations × q) for the fold differences ``diffs`` (one array per
    data set, positive favours x), every data set with correlation ``rho``."""
    rng = np.random.default_rng(seed)
    q = len(diffs)
    n = np.array([d.size for d in diffs], dtype=float)
    m = np.array([d.mean() for d in diffs])
    # The dense quadratic form (x - δ1)ᵀ M⁻¹ (x - δ1) = A + B (m - δ)², from the folds and M⁻¹ directly.
    A = np.empty(q)
    B = np.empty(q)
    for i, d in enumerate(diffs):
        k = d.size
        Minv = np.linalg.inv((1 - rho) * np.eye(k) + rho * np.ones((k, k)))
        c = d - d.mean()
        A[i] = c @ Minv @ c
        B[i] = np.ones(k) @ Minv @ np.ones(k)
    sd_hi = std_upper * np.mean([d.std(ddof=1) for d in diffs])
    sd0_hi = std_upper * (np.std(m, ddof=1) if q > 1 else np.mean([d.std(ddof=1) for d in diffs]))
    D = max(np.abs(d).max() for d in diffs)
    delta, sigma = m.copy(), np.array([d.std(ddof=1) for d in diffs])
    delta0, sigma0, nu, a, b = float(m.mean()), float(np.std(m) + 1e-3), 10.0, float(np.mean(alpha)), float(np.mean(beta))
    lam = np.ones(q)
    out = {k: [] for k in ("delta0", "std0", "nu", "delta")}
    for it in range(iterations + burn):
        z = (delta - delta0) / sigma0
        lam = rng.gamma((nu + 1) / 2, 2.0 / (nu + z * z))
        v = sigma ** 2 / B  # the likelihood of δ_i: N(m_i, σ_i² / B_i)
        prec = lam / sigma0 ** 2 + 1 / v
        delta = rng.normal((delta0 * lam / sigma0 ** 2 + m / v) / prec, 1 / np.sqrt(prec))
        Q = A + B * (m - delta) ** 2
        while True:
            tau = rng.gamma((n - 1) / 2, 2.0 / Q)
            if np.all(tau > 1 / sd_hi ** 2):
                break
        sigma = 1 / np.sqrt(tau)
        sl = lam.sum()
        mu, sd = (lam * delta).sum() / sl, sigma0 / math.sqrt(sl)
        delta0 = float(stats.truncnorm.rvs((-D - mu) / sd, (D - mu) / sd, loc=mu, scale=sd, random_state=rng))
        S = (lam * (delta - delta0) ** 2).sum()
        while True:
            tau0 = rng.gamma((q - 1) / 2, 2.0 / S)
            if tau0 > 1 / sd0_hi ** 2:
                break
        sigma0 = 1 / math.sqrt(tau0)
        loglam, sumlam = np.log(lam).sum(), sl

        def log_nu(u):  # u = log(ν - 1), with its Jacobian
            e = math.exp(u)
            h = (e + 1) / 2
            return ((a - 1) * u - b * e + u + q * (h * math.log(h) - special.gammaln(h))
                    + (h - 1) * loglam - h * sumlam)
        nu = 1 + math.exp(_slice(log_nu, math.log(nu - 1), -30.0, 30.0, rng))
        lo_c, hi_c = stats.gamma.cdf([beta[0], beta[1]], a + 1, scale=1 / (nu - 1))
        b = float(stats.gamma.ppf(rng.uniform(lo_c, hi_c), a + 1, scale=1 / (nu - 1))) if hi_c > lo_c else float(
            rng.uniform(*beta))
        log_a = lambda aa: aa * math.log(b) + (aa - 1) * math.log(nu - 1) - special.gammaln(aa)  # noqa: E731
        a = _slice(log_a, a, alpha[0], alpha[1], rng)
        if it >= burn:
            out["delta0"].append(delta0)
            out["std0"].append(sigma0)
            out["nu"].append(nu)
            out["delta"].append(delta.copy())
    return {k: np.asarray(v) for k, v in out.items()}
