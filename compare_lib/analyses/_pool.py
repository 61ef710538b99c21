"""Pool sensitivity of the mean-ranks post-hoc test (Benavoli, Corani & Mangili 2016).

The mean-ranks verdict on classifiers a and b depends on the other classifiers in the pool; the
Wilcoxon and sign tests do not. Everything here rests on one identity: the mean rank of classifier
i inside a pool S is

    R_i(S) = 1 + sum_{j in S, j != i} W[j, i],

where W[j, i] is the fraction of data sets on which j beats i (ties count 1/2). So no pool is ever
re-ranked: a pool's mean ranks are a sum over a precomputed k x k matrix, and

    R_a(S) - R_b(S) = (W[b,a] - W[a,b]) + sum_{j in S \\ {a,b}} (W[j,a] - W[j,b]).

In units of 1/(2N) every term is an integer, so the number of pools of each size on which the
difference crosses the critical value is counted exactly by dynamic programming over the possible
sums, without listing pools (:func:`pool_counts`, :func:`pool_sensitivity_matrix`). Procedures whose
verdict on a pair depends on the other pairs of the pool (Holm within the pool, or requiring the
pool's Friedman test to reject first) are computed by enumerating the pools (:func:`pool_sensitivity`).

Benavoli et al. use the Bonferroni-corrected two-sided test: for a pool of m classifiers, reject
when |R_a - R_b| / sqrt(m(m+1)/(6N)) >= z*, the upper alpha/(m(m-1)) normal quantile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, compress
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.multiple._adjust import holm_rows
from compare_lib.stats._critical import nemenyi_q
from compare_lib.core._table import ScoreTable, as_table
from compare_lib.errors import InputError, arg
from compare_lib.ranks import win_fraction
from compare_lib.stats._two_classifiers import sign_test_rows, wilcoxon_rows
from compare_lib.core._result import FrameResult
from compare_lib.stats._pairwise_tests import DEFAULT_TEST, PAIRWISE_TESTS, mean_ranks_test
from compare_lib.core._validation import check_alpha, check_choice, check_seed

POOL_CORRECTIONS = ("bonferroni", "nemenyi", "holm")
#: Bounds of pool_power_simulation (each stated in its error message).
from compare_lib.limits import MAX_SIMULATION_ALGORITHMS, MAX_SIMULATION_N, MAX_SIMULATION_REPS  # noqa: E402
#: Pools are listed one by one only up to this many classifiers (2^(k-2) pools per pair).
from compare_lib.limits import MAX_ENUMERATED_POOL_K  # noqa: E402
#: Holm within every pool needs every pair of every pool; this bounds the work.
from compare_lib.limits import MAX_HOLM_POOL_K  # noqa: E402


def _renamed_correction(correction: str, procedure: str | None, where: str) -> str:
    """``procedure=`` is the former name of ``correction=`` (kept working for a release)."""
    if procedure is None:
        return correction
    from compare_lib.multiple._adjust import _deprecated

    _deprecated(f"{where}(procedure=...)", f"{where}(correction=...)")
    return check_choice(procedure, POOL_CORRECTIONS, "procedure")


def _check(t: ScoreTable, alpha: float, correction: str, pair: tuple[str, str] | None = None) -> None:
    t.require_complete("The pool sensitivity analysis (mean ranks within each pool)")
    check_alpha(alpha)
    check_choice(correction, POOL_CORRECTIONS, "pool.correction")  # not the Post-hoc page's procedure
    if pair is not None:
        a, b = pair
        for name in (a, b):
            if name not in t.classifiers:
                raise InputError(f"{name!r} is not among the classifiers {t.classifiers}; pick two of them.")
        if a == b:
            raise InputError(f"Pick two different classifiers (got {a!r} twice).")


def _units(t: ScoreTable) -> np.ndarray:
    """2N * W as exact integers: wins count 2, ties 1."""
    w = win_fraction(t.scores.to_numpy(), higher_is_better=t.higher_is_better)
    return np.rint(w * 2 * t.n_datasets).astype(np.int64)


def critical_rank_difference(m: int, n: int, alpha: float = 0.05, correction: str = "bonferroni") -> float:
    """The ``|R_a - R_b|`` a pool of m classifiers needs for a rejection (Benavoli et al., eq. 4).

    "bonferroni": z* = Phi^{-1}(1 - alpha/(m(m-1))) as in the paper; "nemenyi": the studentized range
    q_alpha(m) / sqrt(2). Both multiply sqrt(m(m+1)/(6N)).
    """
    if m < 2:
        raise InputError(f"A pool needs at least 2 classifiers, got m = {m}.")
    se = math.sqrt(m * (m + 1) / (6 * n))
    if correction == "nemenyi":
        return nemenyi_q(m, alpha) * se
    return float(stats.norm.isf(alpha / (m * (m - 1)))) * se


@lru_cache(maxsize=256)
def _critical_units(m: int, n: int, alpha: float, correction: str) -> int:
    """Smallest integer |2N (R_a - R_b)| that rejects in a pool of m (exact integer comparison)."""
    return int(math.ceil(critical_rank_difference(m, n, alpha, correction) * 2 * n - 1e-9))


# ---------------------------------------------------------------------------------------------
# exact counts without listing pools


def _size_sum_counts(steps: np.ndarray) -> tuple[np.ndarray, int]:
    """counts[s, v + offset] = number of s-subsets of ``steps`` summing to v (dynamic programming).

    Only the part of the table reachable so far is touched: after i items, sizes 0..i and sums
    between the partial sums of the negative and of the positive items.
    """
    lo = int(steps[steps < 0].sum())
    hi = int(steps[steps > 0].sum())
    offset = -lo
    counts = np.zeros((steps.size + 1, hi - lo + 1), dtype=np.int64)
    counts[0, offset] = 1
    reach_lo = reach_hi = offset  # columns that can be non-zero
    for i, c in enumerate(steps.tolist()):
        # Add item c to every subset: size s -> s + 1, sum v -> v + c; reading a copy keeps each item once.
        src = counts[: i + 1, reach_lo : reach_hi + 1].copy()
        counts[1 : i + 2, reach_lo + c : reach_hi + c + 1] += src
        reach_lo, reach_hi = min(reach_lo, reach_lo + c), max(reach_hi, reach_hi + c)
    return counts, offset


def pool_counts(table, a: str, b: str, alpha: float = 0.05, *, correction: str = "bonferroni", procedure: str | None = None,
                higher_is_better: bool | None = None) -> pd.DataFrame:
    """For each pool size m = 2..k: how many pools contain a and b and how many reject a vs b.

    Exact, by dynamic programming over the possible rank differences (no pool is listed), for the
    Bonferroni (Benavoli et al.) and Nemenyi critical values. Columns: size, pools, rejections,
    fraction. Benavoli et al.'s Table 1 is this table for sizes 4, 5 and 6.
    """
    correction = _renamed_correction(correction, procedure, "pool_counts")
    t = as_table(table, higher_is_better)
    _check(t, alpha, correction, (a, b))
    if correction == "holm":
        frame = pool_sensitivity(t, a, b, alpha, correction="holm")
        grouped = frame.groupby("size")["reject"].agg(pools="count", rejections="sum").reset_index()
        grouped["rejections"] = grouped["rejections"].astype(int)
        grouped["fraction"] = grouped["rejections"] / grouped["pools"]
        return grouped
    pools, rejections = _count_pools(_units(t), t.classifiers.index(a), t.classifiers.index(b), t.n_datasets,
                                     float(alpha), correction)
    frame = pd.DataFrame({"size": np.arange(2, t.n_classifiers + 1), "pools": pools, "rejections": rejections})
    frame["fraction"] = frame["rejections"] / frame["pools"]
    return frame


#: Cells (pool sizes x reachable rank-sum differences) of one exact count.
from compare_lib.limits import MAX_COUNT_CELLS  # noqa: E402


def _count_pools(u: np.ndarray, ia: int, ib: int, n: int, alpha: float, correction: str) -> tuple[np.ndarray, np.ndarray]:
    """Pools and rejections of ia vs ib per pool size 2..k, by dynamic programming over the rank sums.

    The steps are divided by their greatest common divisor (with d0), which keeps the table small when
    rank sums move in large equal jumps (e.g. classifiers ordered the same way on every data set); the
    integer critical values are divided with a ceiling, so the comparison stays exact.
    """
    k = u.shape[0]
    others = [j for j in range(k) if j not in (ia, ib)]
    d0 = int(u[ib, ia] - u[ia, ib])
    steps = (u[others, ia] - u[others, ib]).astype(np.int64)
    g = int(np.gcd.reduce(np.abs(np.concatenate([steps, [d0]])))) or 1
    steps, d0 = steps // g, d0 // g
    span = int(np.abs(steps).sum()) + 1
    if (k - 1) * span > MAX_COUNT_CELLS:
        raise InputError(
            f"Counting every pool of this pair exactly needs a table of {(k - 1) * span:,} cells (the limit is "
            f"{MAX_COUNT_CELLS:,}): with {n:,} data sets the rank sums are too fine-grained for k = {k}. Keep fewer "
            "classifiers or data sets."
        )
    counts, offset = _size_sum_counts(steps)
    values = np.abs(np.arange(counts.shape[1]) - offset + d0)
    crit = np.array([-(-_critical_units(m, n, alpha, correction) // g) for m in range(2, k + 1)])
    hits = values[None, :] >= crit[:, None]
    return counts.sum(axis=1), (counts * hits).sum(axis=1)


def pool_sensitivity_matrix(table, alpha: float = 0.05, *, correction: str = "bonferroni", procedure: str | None = None,
                            higher_is_better: bool | None = None,
                            progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """k x k matrix: for each pair, the fraction of pools containing it whose mean-ranks verdict differs
    from the verdict in the full pool (0 = the verdict never depends on the pool).

    Counted exactly without listing pools (works for k = 40). Pools of every size from 2 (the pair
    alone) to k are counted, each pool once.
    """
    correction = _renamed_correction(correction, procedure, "pool_sensitivity_matrix")
    t = as_table(table, higher_is_better)
    _check(t, alpha, correction)
    if correction == "holm":
        raise InputError("The sensitivity matrix is counted exactly for 'bonferroni' and 'nemenyi'; Holm needs "
                         "every pool listed: use pool_sensitivity() for one pair.")
    k = t.n_classifiers
    names = t.classifiers
    out = np.zeros((k, k))
    pairs = list(combinations(range(k), 2))
    u = _units(t)
    for step, (i, j) in enumerate(pairs):
        pools, rejections = _count_pools(u, i, j, t.n_datasets, float(alpha), correction)
        full = bool(rejections[-1])
        total = pools.sum()
        agree = rejections.sum() if full else total - rejections.sum()
        out[i, j] = out[j, i] = (total - agree) / total
        if progress is not None:
            progress((step + 1) / len(pairs))
    frame = pd.DataFrame(out, index=names, columns=names)
    frame.attrs.update(alpha=float(alpha), correction=correction)
    return frame


# ---------------------------------------------------------------------------------------------
# enumerating pools


def _pool_masks(n_others: int) -> np.ndarray:
    """All subsets of n_others items as a (2^n, n) boolean matrix, ordered by size then lexicographically."""
    codes = np.arange(2**n_others, dtype=np.int64)
    bits = ((codes[:, None] >> np.arange(n_others)) & 1).astype(bool)
    order = np.lexsort((codes, bits.sum(axis=1)))
    return bits[order]


def pool_sensitivity(table, a: str, b: str, alpha: float = 0.05, *, correction: str = "bonferroni", procedure: str | None = None,
                     require_friedman: bool = False, tie_correction: bool = False,
                     higher_is_better: bool | None = None) -> pd.DataFrame:
    """The mean-ranks verdict on a vs b in every pool (set of classifiers) that contains both.

    One row per pool, built vectorized (k = 20 gives 262,144 rows): ``pool`` (tuple of names, in
    table order), ``size``, ``mean_rank_a``, ``mean_rank_b``, ``z`` (positive when a ranks better),
    ``critical`` (the ``|z|`` needed; NaN for Holm, whose threshold depends on the other pairs), ``reject``; with ``require_friedman`` also ``friedman_p`` and the
    verdict counts as a rejection only if the pool's Friedman test rejects at alpha. ``correction`` is
    "bonferroni" (Benavoli et al.), "nemenyi", or "holm" (Holm over all pairs of the pool, at most
    :data:`MAX_HOLM_POOL_K` classifiers). The last row is the full pool.
    """
    correction = _renamed_correction(correction, procedure, "pool_sensitivity")
    t = as_table(table, higher_is_better)
    _check(t, alpha, correction, (a, b))
    k, n = t.n_classifiers, t.n_datasets
    if k > MAX_ENUMERATED_POOL_K:
        raise InputError(
            f"Listing every pool of {k} classifiers ({2 ** (k - 2):,} per pair) is too large; the limit is "
            f"k = {MAX_ENUMERATED_POOL_K}. pool_counts() and pool_sensitivity_matrix() count them exactly instead."
        )
    if correction == "holm" and k > MAX_HOLM_POOL_K:
        raise InputError(f"Holm within every pool is limited to k = {MAX_HOLM_POOL_K} classifiers; use 'bonferroni'.")
    names = t.classifiers
    ia, ib = names.index(a), names.index(b)
    others = [j for j in range(k) if j not in (ia, ib)]
    masks = _pool_masks(len(others))
    member = np.zeros((masks.shape[0], k), dtype=bool)
    member[:, ia] = member[:, ib] = True
    member[:, others] = masks
    u = _units(t)
    sizes = member.sum(axis=1)
    # 2N * R_i(S) = 2N + sum_{j in S} u[j, i] for members i.
    rank_units = 2 * n + member.astype(np.int64) @ u
    diff_units = rank_units[:, ib] - rank_units[:, ia]  # > 0 when a ranks better (lower)
    se = np.sqrt(sizes * (sizes + 1) / (6 * n))
    z = diff_units / (2 * n) / se
    if correction == "holm":
        reject, critical = _holm_in_pools(rank_units, member, sizes, ia, ib, n, alpha)
    else:
        sizes_used = range(2, k + 1)
        crit_units = np.zeros(k + 1, dtype=np.int64)
        crit_units[2:] = [_critical_units(m, n, float(alpha), correction) for m in sizes_used]
        reject = np.abs(diff_units) >= crit_units[sizes]
        crit_diff = np.zeros(k + 1)
        crit_diff[2:] = [critical_rank_difference(m, n, alpha, correction) for m in sizes_used]
        critical = crit_diff[sizes] / se
    frame = pd.DataFrame(
        {
            "pool": [tuple(compress(names, row)) for row in member.tolist()],
            "size": sizes,
            "mean_rank_a": rank_units[:, ia] / (2 * n),
            "mean_rank_b": rank_units[:, ib] / (2 * n),
            "z": z,
            "critical": critical,
            "reject": reject,
        }
    )
    if require_friedman:
        ranks = np.where(member, rank_units / (2 * n), 0.0)
        chi2 = 12 * n / (sizes * (sizes + 1)) * ((ranks**2).sum(axis=1) - sizes * (sizes + 1) ** 2 / 4)
        if tie_correction:
            raise InputError("tie_correction with require_friedman needs the ranks of every pool; not supported.")
        frame["friedman_p"] = stats.chi2.sf(np.maximum(chi2, 0), sizes - 1)
        frame["reject"] = frame["reject"] & (frame["friedman_p"] <= alpha)
    frame.attrs.update(a=a, b=b, alpha=float(alpha), correction=correction, require_friedman=require_friedman)
    return frame


def _holm_in_pools(rank_units, member, sizes, ia, ib, n, alpha):
    """Holm over all pairs of each pool (z from exact integer rank sums); returns (reject, NaN 'critical')."""
    ranks = rank_units
    reject = np.zeros(member.shape[0], dtype=bool)
    critical = np.zeros(member.shape[0])
    for m in np.unique(sizes):
        rows = np.flatnonzero(sizes == m)
        idx = np.nonzero(member[rows])[1].reshape(rows.size, m)  # (P, m) member indices, row by row
        r = np.take_along_axis(ranks[rows], idx, axis=1)
        pi, pj = np.triu_indices(m, 1)
        denom = 2 * n * math.sqrt(m * (m + 1) / (6 * n))
        p = 2 * stats.norm.sf(np.abs(r[:, pi] - r[:, pj]) / denom)  # (P, M), integer differences
        apv = holm_rows(p)
        a_pos = np.argmax(idx == ia, axis=1)
        b_pos = np.argmax(idx == ib, axis=1)
        lo, hi = np.minimum(a_pos, b_pos), np.maximum(a_pos, b_pos)
        pair_col = lo * m - lo * (lo + 1) // 2 + (hi - lo - 1)  # position of (lo, hi) in triu order
        pair_apv = apv[np.arange(len(rows)), pair_col]
        reject[rows] = pair_apv <= alpha
    critical[:] = np.nan  # Holm has no single critical value: it depends on the other pairs of the pool
    return reject, critical


def smallest_flip(frame: pd.DataFrame, pool: tuple[str, ...] | list[str]) -> pd.DataFrame:
    """The pools closest to ``pool`` (fewest classifiers added or removed) where the verdict differs.

    ``frame`` is a :func:`pool_sensitivity` result. Returns rows with ``added``, ``removed`` and
    ``changes`` (empty if the verdict never changes).
    """
    pool_set = set(pool)
    match = frame[frame["pool"].map(lambda p: set(p) == pool_set)]
    if match.empty:
        raise InputError(f"The pool {sorted(pool_set)} does not contain both {frame.attrs['a']} and {frame.attrs['b']}.")
    verdict = bool(match["reject"].iloc[0])
    flipped = frame[frame["reject"] != verdict].copy()
    if flipped.empty:
        return flipped.assign(added=[], removed=[], changes=[])
    flipped["added"] = flipped["pool"].map(lambda p: tuple(sorted(set(p) - pool_set)))
    flipped["removed"] = flipped["pool"].map(lambda p: tuple(sorted(pool_set - set(p))))
    flipped["changes"] = flipped["added"].map(len) + flipped["removed"].map(len)
    best = flipped["changes"].min()
    return flipped[flipped["changes"] == best].reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# one pool: every pair under mean ranks versus Wilcoxon and sign


@dataclass(frozen=True, eq=False)
class PoolVerdictsResult(FrameResult):
    """Every pair of one pool under the mean-ranks, Wilcoxon and sign tests (:func:`pool_verdicts`)."""

    pool: tuple = ()
    alpha: float = 0.05
    correction: str = "bonferroni"
    statistic: str = DEFAULT_TEST


def pool_verdicts(table, pool: list[str] | None = None, alpha: float = 0.05, *, correction: str = "bonferroni",
                  procedure: str | None = None, statistic: str = DEFAULT_TEST, higher_is_better: bool | None = None,
                  as_result: bool = False):
    """Every pair of ``pool`` under the mean-ranks, Wilcoxon and sign tests, next to the full pool.

    The same correction is used for all three (Bonferroni over the pool's m(m-1)/2 pairs, or the
    Nemenyi critical value for mean ranks), so the only thing that differs is the pairwise
    statistic. The mean-ranks z of a pair changes with the pool; the Wilcoxon and sign p-values
    cannot (their decisions change only through the number of comparisons). Columns per test:
    ``z_mean_ranks``, ``p_mean_ranks``, ``reject_mean_ranks``, ``p_wilcoxon``, ``reject_wilcoxon``,
    ``p_sign``, ``reject_sign``, and ``*_full`` and ``changed_*`` against the full table.

    ``statistic`` adds another pool-dependent statistic of :data:`compare_lib.PAIRWISE_TESTS`
    ("rank-sum-exact", "aligned-ranks", "quade" or "conover"), recomputed on the pool's own table, with
    Bonferroni over the pool's pairs (Nemenyi's studentized range exists for mean ranks only): columns
    ``stat_<name>``, ``p_<name>``, ``reject_<name>``, ``stat_<name>_full``, ``reject_<name>_full`` and
    ``changed_<name>``, with ``<name>`` the statistic's name with "_" for "-". So a teacher can show that
    these share the mean-ranks paradox. ``attrs["statistic"]`` names it. ``procedure`` is the former name of
    ``correction``; ``as_result=True`` returns a :class:`PoolVerdictsResult`.
    """
    correction = _renamed_correction(correction, procedure, "pool_verdicts")
    t = as_table(table, higher_is_better)
    pool = list(t.classifiers if pool is None else pool)
    if len(pool) < 2:
        raise InputError("A pool needs at least 2 classifiers.")
    present = set(t.classifiers)
    unknown = [name for name in pool if name not in present]
    if unknown:
        raise InputError(f"{unknown[0]!r} is not among the classifiers of the table; pick the pool from them.")
    if len(set(pool)) != len(pool):
        raise InputError("The pool names a classifier twice; list each classifier once.")
    _check(t, alpha, "nemenyi" if correction == "nemenyi" else "bonferroni")

    n = t.n_datasets
    index = {name: i for i, name in enumerate(t.classifiers)}
    members = np.array([index[name] for name in pool], dtype=np.int64)
    m, k = members.size, t.n_classifiers
    a_idx, b_idx = np.triu_indices(m, 1)
    pairs = np.column_stack([members[a_idx], members[b_idx]])
    u = _units(t)

    def rank_diff_units(pool_members: np.ndarray) -> np.ndarray:
        # 2N (R_b - R_a) inside the pool, from exact integers: sum over pool members j of u[j, b] - u[j, a].
        col = u[pool_members].sum(axis=0)
        return col[pairs[:, 1]] - col[pairs[:, 0]]

    def verdicts(diff: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        z = diff / (2 * n * math.sqrt(size * (size + 1) / (6 * n)))  # > 0 when a ranks better
        reject = np.abs(diff) >= _critical_units(size, n, float(alpha), correction)
        return z, np.minimum(1.0, 2 * stats.norm.sf(np.abs(z))), reject

    z_here, p_here, rej_here = verdicts(rank_diff_units(members), m)
    z_full, _, rej_full = verdicts(rank_diff_units(np.arange(k)), k)
    # Wilcoxon and sign p-values depend on the pair only: the post-hoc families of the full table
    # (computed once per table and shared with the post-hoc functions), looked up for the pool's pairs.
    from compare_lib.analyses._posthoc import _family

    lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    position = lo * k - lo * (lo + 1) // 2 + (hi - lo - 1)  # each pair's row in the full table's family

    def pair_p(test: str) -> np.ndarray:
        return _family(t, test, None, "demsar", "auto").p[position]

    # The statistics that look at the two classifiers only (Wilcoxon, sign): key -> p of each pair.
    alone = {name.replace("-", "_"): pair_p(name) for name, spec in PAIRWISE_TESTS.items() if not spec.pool_dependent}
    n_hyp, full_hyp = m * (m - 1) // 2, k * (k - 1) // 2
    names = np.asarray(pool, dtype=object)
    columns = {"a": names[a_idx], "b": names[b_idx],
               "z_mean_ranks": z_here, "p_mean_ranks": p_here, "reject_mean_ranks": rej_here}
    for key, p in alone.items():
        columns[f"p_{key}"] = p
        columns[f"reject_{key}"] = np.minimum(1.0, n_hyp * p) <= alpha
    columns.update({"z_mean_ranks_full": z_full, "reject_mean_ranks_full": rej_full})
    for key, p in alone.items():
        columns[f"reject_{key}_full"] = np.minimum(1.0, full_hyp * p) <= alpha
    frame = pd.DataFrame(columns)
    for test in ("mean_ranks", *alone):
        frame[f"changed_{test}"] = frame[f"reject_{test}"] != frame[f"reject_{test}_full"]
    if statistic != mean_ranks_test().name:
        spec = PAIRWISE_TESTS.get(statistic)
        if spec is None or not spec.pool_dependent:
            choices = ", ".join(x for x, v in PAIRWISE_TESTS.items() if v.pool_dependent and not v.mean_ranks)
            raise InputError(f"{arg('statistic', statistic)} is not a pool-dependent statistic; choose one of "
                             f"{choices}.")
        key = statistic.replace("-", "_")
        fam_pool = _family(t.subset(pool), statistic, None, "demsar", "auto")  # pairs in pool order
        fam_full = _family(t, statistic, None, "demsar", "auto")
        sign = np.where(pairs[:, 0] < pairs[:, 1], 1.0, -1.0)  # the full table's pair may be (b, a)
        frame[f"stat_{key}"] = fam_pool.stat
        frame[f"p_{key}"] = fam_pool.p
        frame[f"reject_{key}"] = np.minimum(1.0, n_hyp * fam_pool.p) <= alpha
        frame[f"stat_{key}_full"] = fam_full.stat[position] * sign
        frame[f"reject_{key}_full"] = np.minimum(1.0, full_hyp * fam_full.p[position]) <= alpha
        frame[f"changed_{key}"] = frame[f"reject_{key}"] != frame[f"reject_{key}_full"]
    result = PoolVerdictsResult(frame=frame, pool=tuple(pool), alpha=float(alpha), correction=correction,
                                statistic=statistic)
    return result if as_result else result.to_frame(copy=False)


# ---------------------------------------------------------------------------------------------
# Benavoli et al.'s Example 2: power lost to the rest of the pool


def pool_power_simulation(means=(0.0, 1.5, 5.0, 6.0, 7.0), *, n: int = 20, reps: int = 2000, alpha: float = 0.05,
                          seed: int | None = 0, sd: float = 1.0, chunk: int = 500,
                          progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """Monte Carlo power of the sign, Wilcoxon and mean-ranks tests for the first two algorithms.

    Benavoli et al. (2016), Example 2: scores of algorithm i on each of n data sets are N(means[i], sd);
    only A (first) vs B (second) is tested, two-sided at alpha without multiplicity correction. The
    mean-ranks z uses the ranks among all len(means) algorithms; the sign test (exact binomial) and
    the Wilcoxon test (exact, no ties with continuous scores) see only A and B. Paper: power 0.94 for
    the sign test and 0.046 for mean ranks. Vectorized, seeded, in chunks with a progress callback.
    """
    seed = check_seed(seed)
    means = np.asarray(means, dtype=float)
    k = means.size
    if k < 2:
        raise InputError("Give the means of at least two algorithms (A and B first).")
    if not np.isfinite(means).all() or not (np.isfinite(sd) and sd > 0):
        raise InputError("The means must be finite numbers and sd a positive number.")
    if int(n) != n or n < 2 or int(reps) != reps or reps < 1:
        raise InputError("n (data sets) must be >= 2 and reps >= 1, whole numbers.")
    if k > MAX_SIMULATION_ALGORITHMS or n > MAX_SIMULATION_N or reps > MAX_SIMULATION_REPS:
        raise InputError(
            f"The simulation runs at most {MAX_SIMULATION_REPS:,} repetitions of at most {MAX_SIMULATION_N:,} data sets "
            f"and {MAX_SIMULATION_ALGORITHMS} algorithms (asked: {int(reps):,}, {int(n):,}, {k}); larger runs take "
            "minutes without changing the lesson."
        )
    n, reps = int(n), int(reps)
    chunk = max(1, min(int(chunk), 2_000_000 // (n * k)))  # at most ~2 million simulated scores in memory
    check_alpha(alpha)
    rng = np.random.default_rng(seed)
    z_crit = stats.norm.isf(alpha / 2)
    se = math.sqrt(k * (k + 1) / (6 * n))
    hits = {"sign test": 0, "Wilcoxon signed-ranks": 0, "mean-ranks z": 0}
    done = 0
    while done < reps:
        size = min(chunk, reps - done)
        x = rng.normal(means, sd, size=(size, n, k))
        ranks = stats.rankdata(-x, axis=2)  # 1 = best (highest score)
        mr = ranks.mean(axis=1)
        z = np.abs(mr[:, 0] - mr[:, 1]) / se
        hits["mean-ranks z"] += int((z >= z_crit).sum())
        d = x[:, :, 1] - x[:, :, 0]
        # The library's own vectorized tests (exact binomial; exact Wilcoxon, continuous scores: no ties).
        hits["sign test"] += int((sign_test_rows(d)["p"] <= alpha).sum())
        hits["Wilcoxon signed-ranks"] += int((wilcoxon_rows(d)["p"] <= alpha).sum())
        done += size
        if progress is not None:
            progress(done / reps)
    frame = pd.DataFrame({"test": list(hits), "rejections": list(hits.values())})
    frame["power"] = frame["rejections"] / reps
    frame["std_error"] = np.sqrt(frame["power"] * (1 - frame["power"]) / reps)
    frame.attrs.update(means=tuple(means), n=n, reps=reps, alpha=alpha, seed=seed)
    return frame


def pool_dependence(table, alpha: float = 0.05, *, correction: str = "bonferroni", procedure: str | None = None, sizes=None,
                    higher_is_better: bool | None = None) -> pd.DataFrame:
    """Pairs whose mean-ranks verdict depends on the pool, with counts per pool size (Benavoli et al., Table 1).

    One row per pair (a, b) for which, at some pool size in ``sizes`` (default 3..k), some pools reject
    and others do not; a column per size holds "rejections/pools", or "-" where every pool of that
    size agrees. Counted exactly (see :func:`pool_counts`).
    """
    correction = _renamed_correction(correction, procedure, "pool_dependence")
    t = as_table(table, higher_is_better)
    _check(t, alpha, correction)
    k = t.n_classifiers
    sizes = list(range(3, k + 1)) if sizes is None else [int(s) for s in sizes]
    rows = []
    for a, b in combinations(t.classifiers, 2):
        counts = pool_counts(t, a, b, alpha, correction=correction).set_index("size")
        cells = {}
        depends = False
        for s in sizes:
            pools, rej = int(counts.loc[s, "pools"]), int(counts.loc[s, "rejections"])
            if 0 < rej < pools:
                depends = True
                cells[f"{s - 2} others"] = f"{rej}/{pools}"
            else:
                cells[f"{s - 2} others"] = "-"
        if depends:
            rows.append({"a": a, "b": b, "full pool": "reject" if counts["rejections"].iloc[-1] else "retain", **cells})
    frame = pd.DataFrame(rows, columns=["a", "b", "full pool", *[f"{s - 2} others" for s in sizes]])
    frame.attrs.update(alpha=float(alpha), correction=correction)
    return frame
