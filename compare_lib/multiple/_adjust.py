"""Adjusted p-values (APVs) for families of hypotheses (García & Herrera 2008, §3; Demšar 2006, §3.2.2).

One entry point, :func:`adjust`, in the style of statsmodels' ``multipletests``: raw p-values in,
adjusted p-values out, in the same order. A hypothesis is rejected at level alpha exactly when its
APV <= alpha. The registry :data:`PROCEDURES` drives dispatch, error messages and the dashboard's
choice lists.

Two steps are applied to every procedure's APVs so that results never depend on the order of the
hypotheses: APVs are made monotone in the order of the raw p-values (García & Herrera's Table 5
needs this for Bergmann-Hommel), and exactly tied raw p-values get the same APV (the largest in
the tie group).

Bonferroni, Holm, Hochberg and Hommel are the textbook formulas, vectorized over families, and are
checked against ``statsmodels.stats.multitest.multipletests`` in the tests; Shaffer's static
procedure and Bergmann-Hommel's use the logical structure of all pairwise comparisons. Holland,
Finner, Li and Rom follow García, Fernández, Luengo & Herrera (2010, §3.3), Rom's APV computed for
every level at once (see :func:`rom_critical_values`).
"""


from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from compare_lib.multiple._exhaustive import bergmann_hommel_raw
from compare_lib.core._validation import check_choice, check_new_name
from compare_lib.errors import InputError, arg, register_option_labels
from compare_lib.limits import MAX_BERGMANN_HOMMEL_K, MAX_ROM_HYPOTHESES, MAX_SHAFFER_K

#: The two families of hypotheses: all k(k-1)/2 pairs, or the k-1 comparisons with a control.
FAMILIES = ("all-pairs", "control")

# ---------------------------------------------------------------------------------------------
# Holm, Hochberg, Hommel, vectorized over families in rows. (statsmodels' multipletests gives the same
# numbers, as the tests check, but its Holm branch calls gc.collect() on every call, which costs
# ~25 ms: too slow for a dashboard that recomputes on every click.)


def holm_rows(p: np.ndarray) -> np.ndarray:
    """Holm APVs of each row of p (families in rows): max_{j<=i} (m-j+1) p_(j), capped at 1."""
    m = p.shape[1]
    order = np.argsort(p, axis=1, kind="stable")
    sp = np.take_along_axis(p, order, axis=1)
    adj = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * sp), axis=1)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=1)
    return out


def hochberg_rows(p: np.ndarray) -> np.ndarray:
    """Hochberg APVs of each row of p: min_{j>=i} (m-j+1) p_(j), capped at 1."""
    m = p.shape[1]
    order = np.argsort(p, axis=1, kind="stable")
    sp = np.take_along_axis(p, order, axis=1)
    adj = np.minimum.accumulate(((m - np.arange(m)) * sp)[:, ::-1], axis=1)[:, ::-1]
    adj = np.minimum(adj, 1.0)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=1)
    return out


def _hommel_one(p: np.ndarray) -> np.ndarray:
    """Hommel's APVs of one family in O(m log m) (checked against closed Simes testing and García &
    Herrera's Figure 3, which are O(m^2)).

    With p_(1) <= ... <= p_(m), Hommel's procedure at level alpha finds h(alpha) = max{r : S_r > alpha},
    where S_r = min_{j=1..r} r p_(m-r+j) / j is the Simes p-value of the r largest p-values, and rejects
    H_i when h(alpha) p_i <= alpha (all when h = 0). So APV_i = min{alpha : h(alpha) p_i <= alpha}.

    * S_r = r g(m - r) with g(x) = min_{l > x} p_(l) / (l - x): the smallest slope from (x, 0) to the
      points (l, p_(l)), attained on their lower convex hull. Adding the points from the right, one
      stack holds that hull and a binary search finds the tangent: O(m log m).
    * h is a non-increasing step function with jumps at the S_r; on each step [lo, hi) with h = H,
      the smallest alpha is max(lo, H p_i) provided H p_i < hi, a condition that holds from some step
      on, found for all hypotheses at once by one ``searchsorted``.
    """
    m = p.size
    order = np.argsort(p, kind="stable")
    ps = p[order]
    simes = np.empty(m)
    hx: list[int] = []
    hy: list[float] = []
    for x0 in range(m - 1, -1, -1):
        px, py = x0 + 1, float(ps[x0])
        while len(hx) >= 2:
            ax, ay, bx, by = hx[-1], hy[-1], hx[-2], hy[-2]
            if (ay - py) * (bx - ax) >= (by - ay) * (ax - px):  # A is not below the segment P-B
                hx.pop()
                hy.pop()
            else:
                break
        hx.append(px)
        hy.append(py)
        n = len(hx)
        lo, hi = 0, n - 1  # hull vertices from the left; the slope from (x0, 0) is unimodal along them
        while lo < hi:
            mid = (lo + hi) // 2
            a, b = n - 1 - mid, n - 2 - mid
            if hy[b] * (hx[a] - x0) < hy[a] * (hx[b] - x0):
                lo = mid + 1
            else:
                hi = mid
        i = n - 1 - lo
        r = m - x0
        simes[r - 1] = r * hy[i] / (hx[i] - x0)
    levels = np.unique(simes)
    order_s = np.argsort(simes, kind="stable")
    largest_r = np.maximum.accumulate((order_s + 1)[::-1])[::-1]  # max r among S_r >= a value
    h = np.concatenate([largest_r[np.searchsorted(simes[order_s], levels, side="left")], [0]])
    step_lo = np.concatenate([[0.0], levels])
    step_hi = np.concatenate([levels, [np.inf]])
    ratio = np.where(h > 0, step_hi / np.maximum(h, 1), np.inf)
    t = np.searchsorted(ratio, ps, side="right")
    apv = np.minimum(1.0, np.maximum(step_lo[t], h[t] * ps))
    out = np.empty(m)
    out[order] = apv
    return out


def hommel_rows(p: np.ndarray) -> np.ndarray:
    """Hommel's APVs of each row of p: García & Herrera's Figure 3 algorithm, vectorized over rows."""
    if p.shape[0] == 1:
        return _hommel_one(p[0])[None, :]
    s, m = p.shape
    order = np.argsort(p, axis=1, kind="stable")
    ps = np.take_along_axis(p, order, axis=1)
    apv = ps.copy()
    idx = np.arange(1, m + 1)
    k = m + 1
    for j in range(m, 1, -1):
        upper = idx > (k - 1 - j)
        c = np.where(upper, j * ps / np.maximum(j + idx - k + 1, 1), np.inf)
        c_min = c.min(axis=1, keepdims=True)
        lower_vals = np.minimum(c_min, j * ps)
        apv = np.where(upper, np.maximum(apv, c_min), np.maximum(apv, lower_vals))
    apv = np.minimum(apv, 1.0)
    out = np.empty_like(apv)
    np.put_along_axis(out, order, apv, axis=1)
    return out


def _step_down_rows(p: np.ndarray, scaled) -> np.ndarray:
    """max_{j<=i} scaled(p_(j), j) of each row, capped at 1, back in the input order."""
    m = p.shape[1]
    order = np.argsort(p, axis=1, kind="stable")
    sp = np.take_along_axis(p, order, axis=1)
    with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf gives an APV of exactly 1
        adj = np.maximum.accumulate(np.minimum(1.0, scaled(sp, np.arange(1, m + 1))), axis=1)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=1)
    return out


def holland_rows(p: np.ndarray) -> np.ndarray:
    """Holland's APVs of each row: max_{j<=i} 1 - (1 - p_(j))^(m-j+1) (García et al. 2010, §3.3).

    Computed as -expm1((m-j+1) log1p(-p)) so that tiny p-values keep their digits (1 - (1 - p)^n
    loses them all below p ~ 1e-16).
    """
    m = p.shape[1]
    return _step_down_rows(p, lambda sp, j: -np.expm1((m - j + 1) * np.log1p(-sp)))


def finner_rows(p: np.ndarray) -> np.ndarray:
    """Finner's APVs of each row: max_{j<=i} 1 - (1 - p_(j))^(m/j) (García et al. 2010, §3.3)."""
    m = p.shape[1]
    return _step_down_rows(p, lambda sp, j: -np.expm1((m / j) * np.log1p(-sp)))


def li_apv(p: np.ndarray) -> np.ndarray:
    """Li's two-step APVs (Li 2008; García et al. 2010, §3.3): p_i / (p_i + 1 - p_m), and p_m for the largest.

    Li rejects every hypothesis when p_m <= alpha, and otherwise H_i when p_i <= alpha (1 - p_m)/(1 - alpha),
    which is p_i / (p_i + 1 - p_m) <= alpha: so "APV <= alpha" is exactly the decision at every alpha.
    """
    largest = p.max()
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(p > 0, p / (p + 1.0 - largest), 0.0)
    out[p == largest] = largest
    return out


#: Rom's APVs invert the critical values level by level (vectorized bisection): O(m^2) per step.


@lru_cache(maxsize=4)
def _log_binomials(m: int) -> np.ndarray:
    """log C(l, j) for 0 <= l, j <= m (zero-padded where j > l)."""
    from scipy.special import gammaln

    l = np.arange(m + 1)[:, None]
    j = np.arange(m + 1)[None, :]
    out = np.where(j <= l, gammaln(l + 1) - gammaln(j + 1) - gammaln(np.maximum(l - j, 0) + 1), -np.inf)
    out.setflags(write=False)
    return out


def rom_critical_values(alpha, m: int) -> np.ndarray:
    """Rom's (1990) critical values c_1(alpha) .. c_m(alpha), c_l for the l-th largest p-value.

    c_1 = alpha, c_2 = alpha/2 and, for l >= 3 (García et al. 2010, eq. 3),
    c_l = [sum_{j=1}^{l-1} alpha^j - sum_{j=1}^{l-2} C(l, j) c_{j+1}^{l-j}] / l.
    With these the step-up procedure's family-wise error is exactly alpha for independent uniform
    p-values (the tests check this); García et al. print r_l = alpha/c_l as 1, 2, 3, 3.814, 4.755, ...,
    where the recursion gives 1, 2, 2.963, 3.933, 4.905 at alpha = 0.05.
    ``alpha`` may be an array: the values are computed for every level at once (shape m x len(alpha)).
    """
    alpha = np.atleast_1d(np.asarray(alpha, dtype=float))
    c = np.zeros((m + 1, alpha.size))
    c[1] = alpha
    if m >= 2:
        c[2] = alpha / 2
    # sum_{j=1}^{l-1} alpha^j for every l at once
    geometric = np.cumsum(alpha[None, :] ** np.arange(1, max(m, 2))[:, None], axis=0)
    log_binom = _log_binomials(m)
    log_c = np.full_like(c, -np.inf)
    with np.errstate(divide="ignore"):
        log_c[1:3] = np.log(c[1:3])
    for level in range(3, m + 1):
        j = np.arange(1, level - 1)
        terms = np.exp(log_binom[level, j][:, None] + (level - j)[:, None] * log_c[j + 1])
        c[level] = (geometric[level - 2] - terms.sum(axis=0)) / level
        with np.errstate(divide="ignore"):
            log_c[level] = np.log(np.maximum(c[level], 0.0))
    return c[1:]


def rom_apv(p: np.ndarray) -> np.ndarray:
    """Rom's APVs: the smallest alpha at which the step-up procedure rejects each hypothesis.

    H_(i) (the i-th smallest p) is rejected at alpha when p_(j) <= c_{m-j+1}(alpha) for some j >= i;
    the c_l increase with alpha, so APV_(i) = min_{j>=i} c_{m-j+1}^{-1}(p_(j)), each inverse found
    by bisection (60 halvings: exact to about 1e-18). Unlike the APVs printed by García et al.
    (r_l p computed with the r_l of alpha = 0.05), "APV <= alpha" is then the decision at every alpha.
    """
    m = p.size
    if m > MAX_ROM_HYPOTHESES:
        raise InputError(
            f"Rom's procedure is offered for up to {MAX_ROM_HYPOTHESES} hypotheses (got {m}); its critical values "
            "are then within 2.5% of Hochberg's, so use 'hochberg'."
        )
    order = np.argsort(p, kind="stable")
    ps = p[order]
    levels = m - np.arange(m)  # c_l for the j-th smallest: l = m - j + 1
    lo, hi = np.zeros(m), np.ones(m)
    for _ in range(60):
        mid = (lo + hi) / 2
        c = rom_critical_values(mid, m)[levels - 1, np.arange(m)]
        ok = ps <= c
        hi = np.where(ok, mid, hi)
        lo = np.where(ok, lo, mid)
    at_one = rom_critical_values(1.0, m)[levels - 1, 0]
    inverse = np.where(ps <= at_one, hi, 1.0)
    apv = np.minimum.accumulate(inverse[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(apv, 1.0)
    return out


# ---------------------------------------------------------------------------------------------
# Shaffer


#: Shaffer's S(k) needs C(k, 2)-bit sets for every k' <= k: about k^4/512 machine-word operations.


@lru_cache(maxsize=8)
def _possible_true_bits(k: int) -> tuple[int, ...]:
    """S(0..k) as Python integers used as bit sets (bit s set when s true hypotheses are possible).

    S(k) = union_{j=1..k} (S(k - j) shifted by C(j, 2)); one shift-or of big integers per (k', j), so the
    whole table costs about k^4/512 word operations (k = 200: 0.05 s) instead of Python set unions.
    """
    bits = [1, 1]  # S(0) = S(1) = {0}
    for kk in range(2, k + 1):
        acc = 0
        for j in range(1, kk + 1):
            acc |= bits[kk - j] << (j * (j - 1) // 2)
        bits.append(acc)
    return tuple(bits)


def possible_true_counts(k: int) -> frozenset[int]:
    """S(k): the possible numbers of true hypotheses among all pairwise comparisons of k classifiers.

    S(k) = union_{j=1..k} { C(j, 2) + x : x in S(k - j) }, S(0) = S(1) = {0} (Shaffer 1986;
    García & Herrera 2008, §2.1).
    """
    return frozenset(_counts_array(int(k)).tolist())


@lru_cache(maxsize=8)
def _counts_array(k: int) -> np.ndarray:
    if k > MAX_SHAFFER_K:
        raise InputError(
            f"Shaffer's procedure with k = {k} classifiers ({k * (k - 1) // 2:,} hypotheses) is beyond this library's "
            f"limit of k = {MAX_SHAFFER_K}; use Holm's procedure (Shaffer's t_j tends to m - j + 1 as k grows)."
        )
    if k <= 1:
        return np.zeros(1, dtype=np.int64)
    mask = _possible_true_bits(k)[k]
    raw = np.frombuffer(mask.to_bytes((mask.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).astype(np.int64)


@lru_cache(maxsize=8)
def _shaffer_t_array(k: int) -> np.ndarray:
    m = k * (k - 1) // 2
    counts = _counts_array(k)  # sorted
    limits = m - np.arange(1, m + 1) + 1  # m - j + 1
    out = counts[np.searchsorted(counts, limits, side="right") - 1]
    out.setflags(write=False)
    return out


def shaffer_t(k: int) -> tuple[int, ...]:
    """t_1..t_m of Shaffer's static procedure: t_j = max { s in S(k) : s <= m - j + 1 } (vectorized)."""
    return tuple(_shaffer_t_array(int(k)).tolist())


def _infer_k(m: int, method: str) -> int:
    k = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if k * (k - 1) // 2 != m:
        raise InputError(
            f"{method} needs the p-values of all pairwise comparisons (k(k-1)/2 of them); got {m}, which is not "
            "k(k-1)/2 for any k."
        )
    return k


def _shaffer(p: np.ndarray, k: int) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    t = _shaffer_t_array(k).astype(float)
    scaled = np.maximum.accumulate(t * p[order])
    out = np.empty_like(p)
    out[order] = scaled
    return out


# ---------------------------------------------------------------------------------------------
# Bergmann-Hommel


def _default_pairs(k: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(k) for j in range(i + 1, k)]


def _check_pairs(pairs, k: int, m: int) -> list[tuple[int, int]]:
    if pairs is None:
        return _default_pairs(k)
    pairs = [(int(a), int(b)) for a, b in pairs]
    normalized = {(min(a, b), max(a, b)) for a, b in pairs}
    if len(pairs) != m or normalized != set(_default_pairs(k)):
        raise InputError(
            "pairs must list every pair of the k classifiers exactly once (as index pairs), one per p-value."
        )
    return pairs


def _finish(p: np.ndarray, adjusted: np.ndarray, *, monotone: bool = True) -> np.ndarray:
    adjusted = np.clip(np.maximum(adjusted, p), 0.0, 1.0)
    if not monotone:
        return adjusted
    order = np.argsort(p, kind="stable")
    running = np.maximum.accumulate(adjusted[order])
    out = np.empty_like(adjusted)
    out[order] = running
    # Tied raw p-values: the group's largest APV, so that column order never matters.
    uniq, inverse = np.unique(p, return_inverse=True)
    if uniq.size < p.size:
        group_max = np.full(uniq.size, -np.inf)
        np.maximum.at(group_max, inverse, out)
        out = group_max[inverse]
    return out


# ---------------------------------------------------------------------------------------------
# the registry: one entry per procedure, with its APV function and its availability rule


@dataclass(frozen=True)
class Hypotheses:
    """A family of hypotheses as a procedure sees it: the raw p-values, and what some procedures need
    besides them (the number of classifiers and each hypothesis' pair for the logically related
    all-pairs procedures; the statistic for Nemenyi's studentized range)."""

    p: np.ndarray
    family: str | None = None
    k: int | None = None
    pairs: np.ndarray | None = None
    statistic: np.ndarray | None = None


@dataclass(frozen=True)
class Procedure:
    """A p-value adjustment procedure: one registry entry.

    ``apv(hypotheses) -> array`` gives the raw adjusted p-values (before the common step that caps them
    to [p, 1], makes them non-decreasing in p when ``monotone`` and gives tied p-values one APV).
    ``families`` says where it applies: "all-pairs", "control" or both. ``mean_ranks_only`` marks
    Nemenyi, whose APV comes from the studentized range of the mean-ranks statistic rather than from
    the p-values. ``exhaustive``: needs the exhaustive sets (time grows quickly with k, refused beyond
    ``max_k``). ``max_hypotheses``: refused for larger families. ``critical_difference``: the method of
    :func:`compare_lib.critical_difference` that draws its decisions on the mean-ranks axis.
    ``showcase``: the families in which the verdicts view shows it beside the others with the
    mean-ranks statistic (the default correction is shown with every statistic). ``formula``: the APV
    as a LaTeX formula (p_1 <= ... <= p_m) for reports and the dashboard. ``corrects``: False for the
    uncorrected choice ("none", the raw p-values), a teaching choice rather than a procedure to compare:
    :func:`procedures_for` leaves it out unless asked (``include_uncorrected=True``), and with it the APV
    table's default columns; it is used only where named.
    """

    name: str
    label: str
    families: tuple[str, ...]
    kind: str
    reference: str
    description: str
    apv: Callable[[Hypotheses], np.ndarray] = field(repr=False, compare=False)
    formula: str = ""
    mean_ranks_only: bool = False
    exhaustive: bool = False
    monotone: bool = True
    max_k: int | None = None
    max_hypotheses: int | None = None
    critical_difference: str | None = None
    showcase: tuple[str, ...] = ()
    corrects: bool = True
    #: Under which dependence between the tests it controls the family-wise error: "any", "simes" (positively
    #: dependent tests, the Simes inequality), "independent" (exact for independent tests), or "" (not stated).
    dependence: str = ""

    def unavailable(self, family: str | None = None, *, mean_ranks: bool | None = None, k: int | None = None,
                    m: int | None = None, exhaustive_max_k: int | None = None) -> str | None:
        """Why this procedure cannot be used here, or None when it can: the one rule every caller asks
        (the post-hoc functions, the APV table, the dashboard's choice list).

        ``family``: "all-pairs" or "control"; ``mean_ranks``: whether the pairwise statistic is the
        mean-ranks z; ``k``: classifiers; ``m``: hypotheses; ``exhaustive_max_k``: a smaller limit on k for
        the exhaustive procedures (the dashboard's).
        """
        if family is not None and family not in self.families:
            where = "comparisons with a control" if family == "control" else "all pairwise comparisons"
            return f"{self.label} is not defined for {where}; choose one of {', '.join(procedures_for(family))}."
        if self.mean_ranks_only and mean_ranks is False:
            return f"{self.label} is defined on the mean-ranks statistic only."
        limit = self.max_k
        if self.exhaustive and exhaustive_max_k is not None:
            limit = exhaustive_max_k if limit is None else min(limit, exhaustive_max_k)
        if limit is not None and k is not None and k > limit:
            return (f"{self.label} is offered up to {limit} classifiers (k = {k} here: its "
                    f"{'exhaustive sets' if self.exhaustive else 'computation'} would take seconds to minutes beyond); "
                    "Shaffer's procedure is the next most powerful." if self.exhaustive else
                    f"{self.label} is offered up to {limit} classifiers (k = {k} here); use Holm's procedure.")
        if self.max_hypotheses is not None and m is not None and m > self.max_hypotheses:
            return (f"{self.label}'s procedure is offered for up to {self.max_hypotheses} hypotheses (got {m}); its "
                    "critical values are then within 2.5% of Hochberg's, so use 'hochberg'.")
        return None


def _k_of(h: Hypotheses, label: str) -> int:
    m = h.p.size
    k = _infer_k(m, label) if h.k is None else int(h.k)
    if k * (k - 1) // 2 != m:
        raise InputError(f"{label} with k = {k} needs {k * (k - 1) // 2} p-values; got {m}.")
    return k


def _rows(fn) -> Callable[[Hypotheses], np.ndarray]:
    return lambda h: fn(h.p[None, :])[0]


def _nemenyi_apv(h: Hypotheses) -> np.ndarray:
    from compare_lib.stats._critical import studentized_range_sf_many

    if h.statistic is None or h.k is None:
        from compare_lib.stats._pairwise_tests import mean_ranks_test

        raise InputError(
            "Nemenyi's APVs come from the studentized range of the mean-ranks statistic, not from p-values; use "
            f"compare_lib.posthoc with {arg('test', mean_ranks_test().name)} and {arg('correction', 'nemenyi')}, or "
            f"{arg('correction', 'bonferroni')} here."
        )
    return studentized_range_sf_many(np.abs(h.statistic) * math.sqrt(2), h.k)


def _bergmann_hommel_apv(h: Hypotheses) -> np.ndarray:
    k = _k_of(h, "Bergmann-Hommel")
    pairs = _check_pairs(None if h.pairs is None else np.asarray(h.pairs).tolist(), k, h.p.size)
    return bergmann_hommel_raw(h.p, k, pairs)


#: The correction used where none is chosen, and shown with every statistic in the verdicts view.
DEFAULT_CORRECTION = "holm"

PROCEDURES: dict[str, Procedure] = {}
# the dashboard's labels of the "correction" option, for messages phrased in its words (compare_lib.errors.OPTIONS)
register_option_labels("correction", lambda: {name: proc.label for name, proc in PROCEDURES.items()})


def register_procedure(name: str, apv: Callable[[Hypotheses], np.ndarray], *, label: str, reference: str,
                       families: Sequence[str] = FAMILIES, kind: str = "step-down", description: str = "",
                       formula: str = "", monotone: bool = True, max_k: int | None = None,
                       max_hypotheses: int | None = None, replace: bool = False, **options) -> Procedure:
    """Add a p-value adjustment procedure: it then appears in :func:`adjust`, :func:`compare_lib.posthoc`,
    the APV table, the command line's help and the dashboard's choices, with no other change.

    ``apv(hypotheses)`` gets a :class:`Hypotheses` (``p``, ``family``, ``k``, ``pairs``, ``statistic``) and
    returns one adjusted p-value per hypothesis, in the input order; the library then caps them to
    [p, 1] and (``monotone=True``) makes them non-decreasing in p with tied p-values sharing one APV.
    Other keywords (``mean_ranks_only``, ``exhaustive``, ``critical_difference``, ``showcase``,
    ``corrects``, ``dependence``) are those of :class:`Procedure`.

    >>> import numpy as np, compare_lib as cl
    >>> _ = cl.register_procedure("double", lambda h: 2 * h.p, label="Doubled", reference="a toy")
    >>> cl.adjust([0.01, 0.2], correction="double").tolist()
    [0.02, 0.4]
    >>> cl.unregister_procedure("double")
    """
    name = check_new_name(name, PROCEDURES, "procedure", replace=replace)
    for family in families:
        check_choice(family, FAMILIES, "family")
    proc = Procedure(name, label, tuple(families), kind, reference, description, apv, formula=formula,
                     monotone=monotone, max_k=max_k, max_hypotheses=max_hypotheses, **options)
    PROCEDURES[name] = proc
    return proc


def unregister_procedure(name: str) -> None:
    """Remove a procedure added with :func:`register_procedure`."""
    PROCEDURES.pop(name, None)


#: The uncorrected choice: each hypothesis tested at alpha on its own (the adjusted p-value is the raw one).
UNCORRECTED = "none"

register_procedure(
    UNCORRECTED, lambda h: h.p, label="none (uncorrected)", kind="uncorrected",
    reference="no correction for multiple comparisons", corrects=False,
    description="Uncorrected: each pair is tested at α on its own, so the chance of at least one false "
                "'significant' pair (the family-wise error) grows with the number of pairs, up to "
                "1 − (1 − α)^m for m independent tests. For teaching; report a corrected procedure.",
    formula=r"p_{adj} = p",
)
register_procedure(
    "nemenyi", _nemenyi_apv, label="Nemenyi", families=("all-pairs",), kind="single-step",
    reference="Nemenyi 1963; Demšar 2006, §3.2.2",
    description="Studentized range of the mean ranks (the test behind Demšar's CD). Mean-ranks statistic only.",
    mean_ranks_only=True, critical_difference="nemenyi", showcase=("all-pairs",),
    formula=r"\mathrm{APV} = P\left(Q_{k,\infty} > \sqrt{2}\,|z|\right)",
)
register_procedure(
    "bonferroni", lambda h: np.minimum(1.0, h.p.size * h.p), label="Bonferroni", families=("all-pairs",),
    kind="single-step", reference="Dunn 1961; García & Herrera 2008, §3",
    description="García & Herrera call this 'Nemenyi' in the all-pairs setting.",
    formula=r"\mathrm{APV}_i = \min(1,\, m\,p_i)", dependence="any",
)
register_procedure(
    "bonferroni-dunn", lambda h: np.minimum(1.0, h.p.size * h.p), label="Bonferroni-Dunn", families=("control",),
    kind="single-step", reference="Dunn 1961; Demšar 2006, §3.2.2",
    description="Bonferroni versus a control; the CD of Demšar's Figure 1b.", critical_difference="bonferroni-dunn",
    showcase=("control",), formula=r"\mathrm{APV}_i = \min(1,\,(k-1)\,p_i)", dependence="any",
)
register_procedure(
    "holm", _rows(holm_rows), label="Holm", kind="step-down", reference="Holm 1979; García & Herrera 2008, §3",
    description="Step-down: each hypothesis is corrected for those not yet rejected.", showcase=FAMILIES,
    formula=r"\mathrm{APV}_i = \max_{j \le i}\,(m - j + 1)\,p_j", dependence="any",
)
register_procedure(
    "hochberg", _rows(hochberg_rows), label="Hochberg", kind="step-up", reference="Hochberg 1988; Demšar 2006, §3.2.2",
    description="Step-up (relies on the Simes inequality).",
    formula=r"\mathrm{APV}_i = \min_{j \ge i}\,(m - j + 1)\,p_j", dependence="simes",
)
register_procedure(
    "hommel", _rows(hommel_rows), label="Hommel", kind="step-up", reference="Hommel 1988; García & Herrera 2008, Fig. 3",
    description="Closed testing with Simes tests of every intersection (relies on the Simes inequality).",
    formula=r"\mathrm{APV}_i = \max_{I \ni i}\,\min_{j} \frac{|I|\,p_{(j)}^{I}}{j}", dependence="simes",
)
register_procedure(
    "holland", _rows(holland_rows), label="Holland", kind="step-down",
    reference="Holland & Copenhaver 1987; García et al. 2010, §3.3",
    description="Holm with Šidák's 1 − (1 − p)^n in place of n p (exact under independence; statsmodels' 'holm-sidak').",
    formula=r"\mathrm{APV}_i = \max_{j \le i}\,\left[1 - (1 - p_j)^{m - j + 1}\right]", dependence="independent",
)
register_procedure(
    "finner", _rows(finner_rows), label="Finner", kind="step-down", reference="Finner 1993; García et al. 2010, §3.3",
    description="Step-down with 1 − (1 − p_j)^{m/j}: more powerful than Holm and Holland, valid under independence.",
    showcase=("control",), formula=r"\mathrm{APV}_i = \max_{j \le i}\,\left[1 - (1 - p_j)^{m / j}\right]", dependence="independent",
)
register_procedure(
    "rom", lambda h: rom_apv(h.p), label="Rom", families=("control",), kind="step-up",
    reference="Rom 1990; García et al. 2010, §3.3", max_hypotheses=MAX_ROM_HYPOTHESES,
    description="Hochberg's step-up with Rom's critical values, which make the family-wise error exactly α for "
                "independent p-values. Defined for comparisons with a control.",
    formula=r"\mathrm{APV}_i = \min_{j \ge i}\,\min\{\alpha : p_j \le c_{m-j+1}(\alpha)\}",
)
register_procedure(
    "li", lambda h: li_apv(h.p), label="Li", families=("control",), kind="two-step",
    reference="Li 2008; García et al. 2010, §3.3", showcase=("control",),
    description="Rejects everything when the largest p-value is ≤ α, otherwise H_i when p_i ≤ α(1 − p_m)/(1 − α). "
                "Defined for comparisons with a control.",
    formula=r"\mathrm{APV}_i = \frac{p_i}{p_i + 1 - p_m}\ (i < m),\quad \mathrm{APV}_m = p_m",
)
register_procedure(
    "shaffer", lambda h: _shaffer(h.p, _k_of(h, "Shaffer's procedure")), label="Shaffer (static)",
    families=("all-pairs",), kind="step-down", reference="Shaffer 1986; García & Herrera 2008, §2.1",
    description="Holm with m − j + 1 replaced by t_j, the most hypotheses that can be true when j − 1 are false.",
    max_k=MAX_SHAFFER_K, showcase=("all-pairs",), formula=r"\mathrm{APV}_i = \max_{j \le i}\,t_j\,p_j", dependence="any",
)
register_procedure(
    "bergmann-hommel", _bergmann_hommel_apv, label="Bergmann-Hommel", families=("all-pairs",), kind="dynamic",
    reference="Bergmann & Hommel 1988; García & Herrera 2008, §2.1 and §3", exhaustive=True,
    max_k=MAX_BERGMANN_HOMMEL_K, showcase=("all-pairs",),
    description="Over the exhaustive sets I (sets of pairs that can be exactly the true ones), then made non-decreasing "
                "in the raw p-values, as García & Herrera's Table 5 and scmamp (slightly conservative).",
    formula=r"\mathrm{APV}_i = \max_{I \ni i \text{ exhaustive}}\,|I|\,\min_{j \in I} p_j", dependence="any",
)
register_procedure(
    "bergmann-hommel-closed", _bergmann_hommel_apv, label="Bergmann-Hommel (closed testing)", families=("all-pairs",),
    kind="dynamic", reference="Bergmann & Hommel 1988; García & Herrera 2008, §2.1 and §3", exhaustive=True,
    max_k=MAX_BERGMANN_HOMMEL_K, monotone=False,
    description="The formula exactly (no monotone step): APV ≤ α is exactly the procedure's decision.",
    formula=r"\mathrm{APV}_i = \max_{I \ni i \text{ exhaustive}}\,|I|\,\min_{j \in I} p_j", dependence="any",
)

#: The procedures the family-wise error demonstration (:func:`compare_lib.familywise_error`) compares by default:
#: none, the simplest correction and the step-down one that improves on it.
FAMILYWISE_PROCEDURES = (UNCORRECTED, "bonferroni", "holm")


def procedures_for(family: str, *, mean_ranks: bool | None = None, k: int | None = None, m: int | None = None,
                   exhaustive_max_k: int | None = None, include_uncorrected: bool = False) -> list[str]:
    """Names of the procedures available for a family ("all-pairs" or "control"), in registry order; with
    ``mean_ranks``, ``k``, ``m`` or ``exhaustive_max_k`` only those that :meth:`Procedure.unavailable` allows.
    The uncorrected choice (``corrects=False``, "none") only with ``include_uncorrected=True``."""
    return [name for name, p in PROCEDURES.items()
            if family in p.families and (p.corrects or include_uncorrected)
            and p.unavailable(None, mean_ranks=mean_ranks, k=k, m=m, exhaustive_max_k=exhaustive_max_k) is None]


def lookup_procedure(name: str, family: str | None = None) -> Procedure:
    """The registry entry of a procedure (case-insensitive), refused with the list of choices when unknown
    or not defined for ``family``."""
    proc = PROCEDURES.get(str(name).lower())
    if proc is None:
        raise InputError(f"Unknown procedure {name!r}; choose one of {', '.join(PROCEDURES)}.")
    reason = proc.unavailable(family)
    if reason:
        raise InputError(reason)
    return proc


def apply_procedure(proc: Procedure, hypotheses: Hypotheses) -> np.ndarray:
    """The APVs of one family under one procedure: its APV function, then the common finishing step."""
    raw = np.asarray(proc.apv(hypotheses), dtype=float)
    return _finish(hypotheses.p, raw, monotone=proc.monotone)


def adjust(
    pvalues,
    correction: str = DEFAULT_CORRECTION,
    *,
    k: int | None = None,
    pairs: Sequence[tuple[int, int]] | None = None,
    family: str | None = None,
    method: str | None = None,
) -> np.ndarray:
    """Adjusted p-values of a family of hypotheses, in the input order.

    Parameters
    ----------
    pvalues : array-like
        Raw p-values, one per hypothesis.
    correction : str
        A name of :data:`PROCEDURES`: "bonferroni", "bonferroni-dunn" (the same formula, named for a control
        family), "holm", "hochberg", "hommel", "holland", "finner", "rom", "li", "shaffer", "bergmann-hommel"
        or "bergmann-hommel-closed", "none" (no correction: the raw p-values, a teaching choice), or one added
        with :func:`register_procedure`. ("nemenyi" needs the mean-ranks statistic; use
        :func:`compare_lib.posthoc`.) Rom and Li are defined for comparisons with a
        control (García et al. 2010): pass ``family="all-pairs"`` to have them refused for all pairwise
        comparisons. ``method`` is the former name of this argument (deprecated).
    k : int, optional
        Number of classifiers for "shaffer" and the Bergmann-Hommel forms (inferred from m = k(k-1)/2).
    pairs : sequence of (i, j), optional
        For Bergmann-Hommel: the classifier indices of each hypothesis (default: (0,1), (0,2), ...,
        the order of ``itertools.combinations``).

    Returns
    -------
    ndarray of APVs in [0, 1], with APV >= p; reject at alpha where APV <= alpha.

    Formulas (García & Herrera 2008, §3), p_1 <= ... <= p_m:
    Bonferroni m p_i; Holm max_{j<=i} (m-j+1) p_j; Hochberg min_{j>=i} (m-j+1) p_j; Hommel: closed
    Simes tests; Shaffer max_{j<=i} t_j p_j; Bergmann-Hommel max_{I exhaustive, i in I} |I| min_{j in I} p_j.
    García et al. (2010, §3.3): Holland max_{j<=i} 1-(1-p_j)^(m-j+1); Finner max_{j<=i} 1-(1-p_j)^(m/j);
    Li p_i/(p_i+1-p_m); Rom: the smallest alpha at which the step-up with Rom's critical values rejects.

    Bergmann-Hommel comes in two forms. "bergmann-hommel" (the default) makes those APVs
    non-decreasing in the raw p-values, as García & Herrera's printed Table 5 and scmamp do (1-NN vs
    NaiveBayes 0.0319 where the formula gives 0.0303); it is slightly conservative.
    "bergmann-hommel-closed" keeps the formula as defined, so that APV <= alpha is exactly the
    procedure's decision (reject H_i iff i lies outside every exhaustive set I with
    min_{j in I} p_j > alpha/|I|). Example: for p = (.02, .02, .0001, .02, .0001, .03) the last
    hypothesis gets 0.06 from the monotone form and 0.04 from the closed one.
    """
    if method is not None:
        _deprecated("adjust(method=...)", "adjust(correction=...)")
        correction = method
    proc = lookup_procedure(correction, family)
    p = np.asarray(pvalues, dtype=float).ravel()
    if p.size == 0:
        return p.copy()
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        bad = p[~np.isfinite(p) | (p < 0) | (p > 1)][0]
        raise InputError(f"p-values must lie in [0, 1]; got {bad!r}.")
    reason = proc.unavailable(m=p.size)  # the family was checked by lookup_procedure
    if reason:
        raise InputError(reason)
    return apply_procedure(proc, Hypotheses(p, family, k, None if pairs is None else np.asarray(pairs), None))


def _deprecated(old: str, new: str) -> None:
    import warnings

    warnings.warn(f"{old} is deprecated; use {new}.", DeprecationWarning, stacklevel=3)
