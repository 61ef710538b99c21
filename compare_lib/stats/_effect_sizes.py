"""Paired effect sizes: by how much does classifier a beat classifier b over the data sets?

All effect sizes are for the paired design (one difference per data set) and signed so that a
positive value favours ``a``, whatever the direction of the scores: the differences are
d = score(a) - score(b) for higher-is-better scores and score(b) - score(a) for lower-is-better ones.

* ``mean_difference`` with the t interval mean ± t_{.975, N-1} sd/sqrt(N);
* ``hodges_lehmann``: the median of the Walsh averages (d_i + d_j)/2, i <= j (Hodges & Lehmann 1963),
  with the distribution-free interval from the signed-rank distribution: the c-th smallest and c-th
  largest Walsh averages, c from the exact null distribution of the signed-rank statistic (normal
  approximation above 50 data sets) (Hollander, Wolfe & Chicken 2014, §3.3);
* ``cohens_dz`` = mean / sd of the differences, with the interval from the noncentral t distribution;
* ``rank_biserial`` (matched pairs, Kerby 2014) = (R+ - R-)/(R+ + R-) on the ranks of the non-zero |d|;
* ``prob_superiority`` = (wins + ties/2) / N, the share of data sets on which a beats b (ties half),
  with a Wilson score interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.core._table import as_table
from compare_lib.core._result import Result
from compare_lib.errors import InputError
from compare_lib.ranks import average_ranks
from compare_lib.stats._two_classifiers import EXACT_WILCOXON_MAX_N, signed_rank_null_cdf

#: Walsh averages are listed up to this many; beyond, order statistics are found by counting.
_MAX_LISTED_WALSH = 2_000_000


@dataclass(frozen=True)
class EffectSizes(Result):
    """Paired effect sizes of ``a`` versus ``b`` (positive favours a); intervals at ``level``."""

    a: str
    b: str
    n: int
    mean_difference: float
    mean_difference_ci: tuple[float, float]
    hodges_lehmann: float
    hodges_lehmann_ci: tuple[float, float]
    cohens_dz: float
    cohens_dz_ci: tuple[float, float]
    rank_biserial: float
    prob_superiority: float
    prob_superiority_ci: tuple[float, float]
    level: float = 0.95


def _walsh_kth(d_sorted: np.ndarray, k: int) -> float:
    """The k-th smallest (1-based) Walsh average (d_i + d_j)/2, i <= j, of sorted d, in O(n log range):
    bisection on the value with an O(n) two-pointer count, then the largest Walsh sum not above it."""
    n = d_sorted.size
    if n * (n + 1) // 2 <= _MAX_LISTED_WALSH:
        i, j = np.triu_indices(n)
        sums = d_sorted[i] + d_sorted[j]
        return float(np.partition(sums, k - 1)[k - 1] / 2)

    def count_le(t: float) -> int:  # number of i <= j with d_i + d_j <= t
        j_max = np.searchsorted(d_sorted, t - d_sorted, side="right") - 1  # largest j with d_i + d_j <= t
        return int(np.clip(j_max - np.arange(n) + 1, 0, None).sum())

    lo, hi = 2 * d_sorted[0], 2 * d_sorted[-1]
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if count_le(mid) >= k:
            hi = mid
        else:
            lo = mid
    # hi is (within one float step of) the k-th sum: return the largest attained sum <= hi.
    j = np.searchsorted(d_sorted, hi - d_sorted, side="right") - 1
    valid = j >= np.arange(n)
    return float(np.max(d_sorted[valid] + d_sorted[j[valid]]) / 2)


def _signed_rank_critical(n: int, level: float) -> int:
    """The largest c with P(T+ <= c - 1) <= (1 - level)/2 under the null (untied ranks 1..n): the
    c-th smallest and c-th largest Walsh averages bound the Hodges-Lehmann interval."""
    alpha = (1 - level) / 2
    m = n * (n + 1) // 2
    if n <= EXACT_WILCOXON_MAX_N:
        cdf = signed_rank_null_cdf(2 * np.arange(1, n + 1))  # doubled ranks: index 2t is T+ = t
        cdf_t = cdf[::2][: m + 1]
        c = int(np.searchsorted(cdf_t, alpha, side="right"))  # P(T+ <= c - 1) <= alpha < P(T+ <= c)
    else:
        z = stats.norm.isf(alpha)
        c = int(math.floor(m / 2 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    return max(c, 1)


def _dz_intervals(t_obs: np.ndarray, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Intervals for Cohen's d_z from the noncentral t, for many observed t at once: the noncentralities
    delta with P(T_{n-1}(delta) <= t_obs) = 1 - alpha/2 and alpha/2, divided by sqrt(n). The cdf
    decreases in delta, so a vectorized bisection (64 halvings of a bracket) finds both to float
    precision."""
    t_obs = np.asarray(t_obs, dtype=float)
    out = np.full((2, t_obs.size), np.nan)
    ok = np.isfinite(t_obs)
    if n < 2 or not ok.any():
        return out[0], out[1]
    alpha = 1 - level
    df = n - 1
    t = t_obs[ok]

    def cdf(delta: np.ndarray) -> np.ndarray:
        value = stats.nct.cdf(t, df, delta)
        # scipy's nct loses itself far in the tails, where the cdf is 1 (delta far below t) or 0.
        return np.where(np.isnan(value), np.where(delta > t, 0.0, 1.0), value)

    for row, target in enumerate((1 - alpha / 2, alpha / 2)):
        lo, hi = t - 2.0, t + 2.0
        for _ in range(60):  # widen until cdf(lo) >= target >= cdf(hi)
            low_bad, high_bad = cdf(lo) < target, cdf(hi) > target
            if not (low_bad.any() or high_bad.any()):
                break
            lo = np.where(low_bad, lo - 2 * (t - lo + 1), lo)
            hi = np.where(high_bad, hi + 2 * (hi - t + 1), hi)
        for _ in range(64):
            mid = (lo + hi) / 2
            above = cdf(mid) > target  # the root lies above mid
            lo, hi = np.where(above, mid, lo), np.where(above, hi, mid)
        out[row, ok] = (lo + hi) / 2 / math.sqrt(n)
    return out[0], out[1]


def _wilson(p: np.ndarray, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    z = stats.norm.isf((1 - level) / 2)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.maximum(0.0, centre - half), np.minimum(1.0, centre + half)


#: Walsh averages listed at once when the Hodges-Lehmann estimates of many pairs are computed together.
_WALSH_CHUNK = 4_000_000
#: Hodges-Lehmann estimates of all pairs are computed while pairs x N(N+1)/2 Walsh averages stay below
#: this (about ten seconds); beyond, those columns are left empty with a note saying so.
from compare_lib.limits import MAX_WALSH_WORK  # noqa: E402


def _walsh_order_statistics(d: np.ndarray, ks: list[int]) -> np.ndarray:
    """The ks-th smallest (1-based) Walsh averages of every row of d (pairs x N): chunks of rows whose
    Walsh averages are listed and partitioned at once, or counting per row for very long rows."""
    rows, n = d.shape
    m = n * (n + 1) // 2
    out = np.empty((rows, len(ks)))
    d_sorted = np.sort(d, axis=1)
    if m > _MAX_LISTED_WALSH:
        for r in range(rows):  # each row is O(n log n log range) work, far above the loop's cost
            out[r] = [_walsh_kth(d_sorted[r], k) for k in ks]
        return out
    i, j = np.triu_indices(n)
    chunk = max(1, _WALSH_CHUNK // m)
    kth = [k - 1 for k in ks]
    for start in range(0, rows, chunk):
        block = d_sorted[start:start + chunk]
        sums = np.partition(block[:, i] + block[:, j], kth, axis=1)
        out[start:start + chunk] = sums[:, kth] / 2
    return out


ALL_MEASURES = ("mean_difference", "hodges_lehmann", "cohens_dz", "rank_biserial", "prob_superiority")


def _effects(d: np.ndarray, level: float, *, with_walsh: bool = True,
             measures: tuple[str, ...] = ALL_MEASURES) -> dict[str, np.ndarray]:
    """The effect sizes ``measures`` of each row of the paired differences d (pairs x N data sets,
    positive favours a), vectorized over the rows; the others (and Hodges-Lehmann without
    ``with_walsh``) are NaN, so that a caller pays only for what it shows."""
    rows, n = d.shape
    empty = np.full(rows, np.nan)
    out = {key: empty for key in ("mean_difference", "mean_ci_low", "mean_ci_high", "hodges_lehmann", "hl_ci_low",
                                  "hl_ci_high", "cohens_dz", "dz_ci_low", "dz_ci_high", "rank_biserial",
                                  "prob_superiority", "ps_ci_low", "ps_ci_high")}
    if "mean_difference" in measures or "cohens_dz" in measures:
        mean = d.mean(axis=1)
        sd = d.std(axis=1, ddof=1) if n > 1 else empty
        with np.errstate(divide="ignore", invalid="ignore"):
            if "mean_difference" in measures:
                half = stats.t.isf((1 - level) / 2, n - 1) * sd / math.sqrt(n) if n > 1 else empty
                out.update(mean_difference=mean, mean_ci_low=mean - half, mean_ci_high=mean + half)
            if "cohens_dz" in measures:
                t_obs = np.where(sd > 0, mean / (sd / math.sqrt(n)), np.nan)
                dz_low, dz_high = _dz_intervals(t_obs, n, level)
                out.update(cohens_dz=np.where(sd > 0, mean / sd, np.nan), dz_ci_low=dz_low, dz_ci_high=dz_high)
    if "hodges_lehmann" in measures and with_walsh:
        m = n * (n + 1) // 2
        c = _signed_rank_critical(n, level)
        ks = [(m + 1) // 2, m // 2 + 1] + ([c, m - c + 1] if c <= m - c + 1 else [])
        walsh = _walsh_order_statistics(d, ks)
        out["hodges_lehmann"] = walsh[:, :2].mean(axis=1)
        if walsh.shape[1] == 4:
            out.update(hl_ci_low=walsh[:, 2], hl_ci_high=walsh[:, 3])
    zeros = (d == 0).sum(axis=1)
    if "rank_biserial" in measures:
        # Matched pairs, on the ranks of the non-zero |d|: zeros are the smallest |d|, so a non-zero's
        # rank among the non-zeros is its rank among all minus the number of zeros.
        ranks = average_ranks(np.abs(d)) - zeros[:, None]
        r_plus = np.where(d > 0, ranks, 0).sum(axis=1)
        r_minus = np.where(d < 0, ranks, 0).sum(axis=1)
        total = r_plus + r_minus
        out["rank_biserial"] = np.where(total > 0, (r_plus - r_minus) / np.where(total > 0, total, 1), 0.0)
    if "prob_superiority" in measures:
        ps = ((d > 0).sum(axis=1) + zeros / 2) / n
        ps_low, ps_high = _wilson(ps, n, level)
        out.update(prob_superiority=ps, ps_ci_low=ps_low, ps_ci_high=ps_high)
    return out


def _effects_with_holes(d: np.ndarray, level: float, **options) -> dict[str, np.ndarray]:
    """:func:`_effects` of rows with missing differences (NaN: a data set only one classifier of the pair
    has): each row on the data sets both have. Rows with the same number of shared data sets are computed
    together (a loop over the distinct counts, not over the pairs); fewer than two leave NaN."""
    present = ~np.isnan(d)
    counts = present.sum(axis=1)
    out: dict[str, np.ndarray] | None = None
    for c in np.unique(counts):
        rows = np.flatnonzero(counts == c)
        if c < 2:
            continue
        block = d[rows]
        part = _effects(block[present[rows]].reshape(rows.size, int(c)), level, **options)
        if out is None:
            out = {key: np.full(d.shape[0], np.nan) for key in part}
        for key, value in part.items():
            out[key][rows] = value
    return out if out is not None else _effects(np.full((d.shape[0], 2), np.nan), level, **options)


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise InputError(f"level must be between 0 and 1 (e.g. 0.95), got {level!r}.")


def effect_sizes(table, a: str, b: str, *, level: float = 0.95, higher_is_better: bool | None = None) -> EffectSizes:
    """Paired effect sizes of classifier ``a`` versus ``b`` over the data sets (positive favours a);
    see the module docstring for the definitions and intervals."""
    t = as_table(table, higher_is_better)
    for name in (a, b):
        if name not in t.classifiers:
            raise InputError(f"{name!r} is not among the classifiers of the table; pick two of them.")
    if a == b:
        raise InputError("Pick two different classifiers.")
    _check_level(level)
    d = (t.scores[a] - t.scores[b]).to_numpy(dtype=float)
    d = d[~np.isnan(d)]  # a table with holes: the data sets both classifiers have
    if not t.higher_is_better:
        d = -d
    e = {key: float(value[0]) for key, value in _effects(d[None, :], level).items()}
    return EffectSizes(
        a, b, int(d.size), e["mean_difference"], (e["mean_ci_low"], e["mean_ci_high"]), e["hodges_lehmann"],
        (e["hl_ci_low"], e["hl_ci_high"]), e["cohens_dz"], (e["dz_ci_low"], e["dz_ci_high"]), e["rank_biserial"],
        e["prob_superiority"], (e["ps_ci_low"], e["ps_ci_high"]), level,
    )


#: Effect sizes of every pair are computed up to this many pairs (the page draws up to 60 classifiers).
from compare_lib.limits import MAX_EFFECT_PAIRS  # noqa: E402


def _pair_frame(t, first: np.ndarray, second: np.ndarray, level: float, *,
                measures: tuple[str, ...] = ALL_MEASURES) -> pd.DataFrame:
    """Effect sizes of the pairs (first[i], second[i]) (column positions), vectorized in chunks of pairs
    so that the difference matrix stays within a few million numbers."""
    n = t.n_datasets
    pairs = first.size
    x = t.scores.to_numpy(dtype=float)
    sign = 1.0 if t.higher_is_better else -1.0
    walsh_work = pairs * (n * (n + 1) // 2)
    with_walsh = walsh_work <= MAX_WALSH_WORK or "hodges_lehmann" not in measures
    names = np.asarray(t.classifiers, dtype=object)
    frame = pd.DataFrame({"a": names[first], "b": names[second]})
    step = max(1, 4_000_000 // max(n, 1))
    effects = _effects_with_holes if t.has_missing else _effects
    parts = [effects(sign * (x[:, first[s:s + step]] - x[:, second[s:s + step]]).T, level, with_walsh=with_walsh,
                     measures=measures) for s in range(0, max(pairs, 1), step)] if pairs else []
    for key in (parts[0] if parts else _effects(np.zeros((0, max(n, 2))), level)):
        frame[key] = np.concatenate([p[key] for p in parts]) if parts else np.zeros(0)
    frame.attrs.update(level=level, higher_is_better=t.higher_is_better, n=n)
    if not with_walsh:
        frame.attrs["note"] = (
            f"Hodges-Lehmann estimates are left empty: {pairs:,} pairs x {n:,} data sets need {walsh_work:,} Walsh "
            f"averages, above the limit of {MAX_WALSH_WORK:,}. Call effect_sizes() for the pairs you need.")
    return frame


def effect_size_table(table, *, level: float = 0.95, higher_is_better: bool | None = None) -> pd.DataFrame:
    """:func:`effect_sizes` of every pair (a, b) with a before b in the table, one row per pair,
    computed for all pairs at once. ``attrs["note"]`` says when the Hodges-Lehmann columns were left
    empty because the table is too large for them (more than ``MAX_WALSH_WORK`` Walsh averages)."""
    t = as_table(table, higher_is_better)
    _check_level(level)
    k = t.n_classifiers
    pairs = k * (k - 1) // 2
    if pairs > MAX_EFFECT_PAIRS:
        raise InputError(f"Effect sizes are tabulated for up to {MAX_EFFECT_PAIRS:,} pairs; this table has "
                         f"{pairs:,}. Keep fewer classifiers, or call effect_sizes() for the pairs you need.")
    first, second = np.triu_indices(k, 1)
    return _pair_frame(t, first, second, level)


#: The effect size shown beside p-values, and its interval columns.
EFFECT_MEASURES = {
    "hodges_lehmann": ("hl_ci_low", "hl_ci_high", "Hodges-Lehmann median difference"),
    "mean_difference": ("mean_ci_low", "mean_ci_high", "mean difference"),
    "cohens_dz": ("dz_ci_low", "dz_ci_high", "Cohen's d_z"),
    "rank_biserial": (None, None, "matched-pairs rank-biserial correlation"),
    "prob_superiority": ("ps_ci_low", "ps_ci_high", "probability of superiority"),
}


def effect_size_measures() -> dict[str, tuple[str | None, str | None, str]]:
    """The measures :func:`with_effect_sizes` accepts: code -> (interval columns, label)."""
    return dict(EFFECT_MEASURES)


def with_effect_sizes(frame: pd.DataFrame, table, measure: str = "hodges_lehmann", *, level: float = 0.95,
                      higher_is_better: bool | None = None) -> pd.DataFrame:
    """A copy of any frame with columns ``a`` and ``b`` (a :func:`compare_lib.posthoc` result, an APV
    table) with the effect size of each row's pair added: ``effect`` (positive favours that row's
    ``a``), ``effect_low`` and ``effect_high`` (its ``level`` interval; NaN where the measure has none).
    ``attrs`` gains ``effect_measure``, ``effect_label`` and ``effect_level``; ``effect_note`` where
    Hodges-Lehmann estimates could not be computed (see :func:`effect_size_table`)."""
    t = as_table(table, higher_is_better)
    _check_level(level)
    if measure not in EFFECT_MEASURES:
        raise InputError(f"measure must be one of {', '.join(EFFECT_MEASURES)}, got {measure!r}.")
    position = pd.Series(np.arange(t.n_classifiers), index=list(t.classifiers))
    try:
        first = position.loc[frame["a"]].to_numpy()
        second = position.loc[frame["b"]].to_numpy()
    except KeyError as err:
        raise InputError(f"The frame names classifiers that the table does not have: {err}.") from None
    effects = _pair_frame(t, first, second, level, measures=(measure,))
    low, high, label = EFFECT_MEASURES[measure]
    out = frame.copy()
    out["effect"] = effects[measure].to_numpy()
    out["effect_low"] = effects[low].to_numpy() if low else np.nan
    out["effect_high"] = effects[high].to_numpy() if high else np.nan
    out.attrs.update(effect_measure=measure, effect_label=label, effect_level=level)
    if "note" in effects.attrs and measure == "hodges_lehmann":
        out.attrs["effect_note"] = effects.attrs["note"]
    return out
