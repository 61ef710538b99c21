"""Why a correction for multiple comparisons matters: the family-wise error, by simulation.

:func:`familywise_error` simulates ``reps`` score tables of ``k`` equivalent classifiers on ``n`` data sets
(i.i.d. standard normal scores: the classifiers are exchangeable, every pairwise null hypothesis is true),
runs on each table the post-hoc analysis of :func:`compare_lib.posthoc` over all k(k-1)/2 pairs (the
registry's pairwise statistic, then each procedure's adjusted p-values, exactly as posthoc computes them)
and counts the tables on which at least one pair is declared "significant": the family-wise error rate
(FWER).

What it shows:

* **Uncorrected, the FWER grows with the number of pairs.** For m *independent* tests at level α the
  chance of at least one false rejection is 1 − (1 − α)^m: 0.26 for 6 pairs (k = 4), 0.90 for 45 pairs
  (k = 10). ``independent=True`` simulates exactly that (each hypothesis gets its own, independent data)
  and, with a continuous test, reproduces the formula within Monte Carlo error.
* **The pairs of one table are not independent.** The pairs (A, B) and (A, C) share A's scores: when A
  is unlucky on a few data sets, both differences lean the same way. The statistics are positively
  dependent, so on one table the uncorrected FWER stays below 1 − (1 − α)^m (Šidák's inequality for
  two-sided tests of jointly normal statistics; nearly so for the rank statistics), yet far above α: about
  0.67 for 10 classifiers on 20 data sets with Wilcoxon, against 0.90 for 45 independent tests.
  Bonferroni and Holm control the FWER under any dependence.
* **Under the complete null Holm and Bonferroni have the same FWER.** Holm's first step is Bonferroni's
  test of the smallest p-value (p_(1) ≤ α/m): Holm rejects something exactly when Bonferroni does, so on
  every simulated table both make a false rejection or neither does. They differ in power, which only
  shows when some hypotheses are false: the **partial null** (``better`` classifiers, the first ones, get
  ``shift`` added to every score). Holm's adjusted p-values are never larger than Bonferroni's, so it
  rejects at least the same true differences on every table; ``power`` (the share of truly different
  pairs rejected, averaged over tables) shows by how much more. The FWER then counts only the false
  rejections among the truly equal pairs.
* **A discrete test stays below α.** The sign test and the exact Wilcoxon test at small N have p-values
  on a coarse grid: the test rejects when p is at most the largest attainable value ≤ α, and that happens
  with a probability below α (the sign test on 10 data sets rejects at α = 0.05 with probability 0.021, the exact Wilcoxon
  with 0.049). After a correction the level is α/m, where the grid is coarser still: on 10 data sets the
  smallest two-sided sign-test p-value is 2/1024 ≈ 0.002, above 0.05/45, so Bonferroni and Holm never
  reject anything among 10 classifiers. The rates are then below the nominal ones, even under
  independence.

The simulated tables of one call (``independent=False``) are ``numpy.random.default_rng(seed)
.standard_normal((reps, n, k))`` with ``shift`` added to the first ``better`` columns, classifier c in column
c - 1 (named C1 ... Ck), so any of them can be rebuilt and analysed with :func:`compare_lib.posthoc` (the
tests do). With ``independent=True`` and a statistic of the two classifiers only, each hypothesis gets its
own two columns; with a pool-dependent statistic (the mean ranks, ...), its own table of k classifiers.

Speed: the Wilcoxon, sign and mean-ranks statistics are computed for all tables at once (the vectorized
kernels of :mod:`compare_lib.analyses._plan`, bit-identical to posthoc's); other statistics table by table. The
uncorrected decisions are p ≤ α, for all tables at once; the corrections are applied table by table with
posthoc's own code (the tables where no raw p-value reaches α are skipped: nothing is rejected there, since
every adjusted p-value is at least the raw one). 2,000 tables of 10 classifiers on 20 data sets with
Wilcoxon take about 0.3 s. Seeded, bounded (:data:`MAX_FAMILYWISE_K`, :data:`MAX_FAMILYWISE_REPS`,
:data:`MAX_FAMILYWISE_DATASETS`, :data:`MAX_FAMILYWISE_WORK`, :data:`MAX_FAMILYWISE_ADJUSTMENTS`; each
refusal states its limit) and reporting progress through ``progress(fraction)``.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from compare_lib.multiple._adjust import FAMILYWISE_PROCEDURES, UNCORRECTED, lookup_procedure
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST, lookup_test
from compare_lib.analyses._plan import _chunk, _pairwise
from compare_lib.analyses._posthoc import _adjusted, _Family
from compare_lib.core._validation import check_alpha, check_seed
from compare_lib.errors import InputError, arg

#: Most classifiers of the simulated tables (435 pairs).
MAX_FAMILYWISE_K = 30
#: Most simulated tables of one call.
MAX_FAMILYWISE_REPS = 100_000
#: Most data sets of one simulated table.
MAX_FAMILYWISE_DATASETS = 10_000
#: Most units of work of one call: tables x pairs x data sets (x classifiers when ``independent=True`` with a
#: statistic that depends on the pool, which needs a whole table per hypothesis).
MAX_FAMILYWISE_WORK = 200_000_000
#: Most applications of a correction of one call: tables x corrections (the uncorrected rate is vectorized; each
#: correction is applied table by table, as posthoc applies it, 20 to 1,000 microseconds a table).
MAX_FAMILYWISE_ADJUSTMENTS = 500_000
#: Tables simulated between two progress reports, at least (smaller chunks cost vectorization).
_MIN_PROGRESS_CHUNK = 100


def _whole(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise InputError(f"{what} must be a whole number between {low:,} and {high:,}, got {value!r}.")
    return int(value)


def _procedures(procedures, spec, k: int, m: int) -> list[str]:
    if isinstance(procedures, str):
        procedures = (procedures,)
    try:
        names = list(procedures)
    except TypeError:
        raise InputError(f"procedures must be a list of procedure names, got {procedures!r}.") from None
    if not names:
        raise InputError("procedures is empty; name at least one procedure (e.g. the default ones: "
                         f"{', '.join(FAMILYWISE_PROCEDURES)}).")
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise InputError(f"procedures must be names of procedures (text), got {name!r}.")
        proc = lookup_procedure(name, "all-pairs")  # unknown, or not defined for all pairs: refused with the choices
        if proc.unavailable(mean_ranks=spec.mean_ranks) is not None:
            raise InputError(f"{proc.label} is defined on the mean-ranks statistic only; it cannot follow the "
                             f"{spec.label}.")
        reason = proc.unavailable(k=k, m=m)
        if reason:
            raise InputError(reason)
        if proc.name not in out:
            out.append(proc.name)
    return out


def familywise_error(
    k: int,
    n: int,
    *,
    procedures: Sequence[str] = FAMILYWISE_PROCEDURES,
    alpha: float = 0.05,
    test: str = RECOMMENDED_TEST,
    reps: int = 2000,
    seed: int | None = 0,
    independent: bool = False,
    better: int = 0,
    shift: float = 0.0,
    progress: Callable[[float], None] | None = None,
) -> pd.DataFrame:
    """The family-wise error rate of post-hoc procedures on ``k`` equivalent classifiers, by simulation (see
    the module's description for what it teaches).

    Parameters
    ----------
    k, n : int
        Classifiers (2 to :data:`MAX_FAMILYWISE_K`) and data sets (2 to :data:`MAX_FAMILYWISE_DATASETS`) of
        each simulated table; the scores are i.i.d. standard normal.
    procedures : sequence of str
        Names of :data:`compare_lib.PROCEDURES` defined for all pairs (default: no correction, Bonferroni and
        Holm); "none" is the uncorrected rate.
    alpha : float
        The level: a pair is rejected when its adjusted p-value is at most alpha.
    test : str
        The pairwise statistic (:data:`compare_lib.PAIRWISE_TESTS`), default the recommended Wilcoxon.
    reps, seed
        Simulated tables (10 to :data:`MAX_FAMILYWISE_REPS`) and the seed (the same seed gives the same numbers).
    independent : bool
        False: the m = k(k-1)/2 pairs of one table, as a study tests them. True: m independent tests, each
        hypothesis (i, j) on its own simulated data (its own n differences for a statistic of the two
        classifiers only; its own k-classifier table for a statistic that depends on the pool), so that the
        uncorrected rate is 1 − (1 − α)^m for a continuous test.
    better, shift
        A partial null: the first ``better`` classifiers (0 to k − 1) get ``shift`` added to every score. The
        pairs of one shifted and one unshifted classifier are then truly different; the FWER counts only
        false rejections among the truly equal pairs, and ``power`` is added.
    progress : callable, optional
        Called with the fraction done (0 to 1).

    Returns
    -------
    DataFrame, one row per procedure: ``procedure``, ``label``, ``fwer`` (share of tables with at least one
    truly equal pair rejected), ``mc_se`` (its Monte Carlo standard error sqrt(f(1 − f)/reps)),
    ``rejections_per_table`` (mean number of pairs rejected, true differences included), ``analytic``
    (on the uncorrected row: 1 − (1 − α)^m0 for m0 independent tests, m0 the truly equal pairs, m under the
    complete null; NaN on the others); with ``better`` > 0 also ``power`` (the share of truly different pairs
    rejected, averaged over tables) and ``power_mc_se``. ``attrs``: the settings (``k``, ``n``, ``m``,
    ``m_true_null``, ``alpha``, ``test``, ``reps``, ``seed``, ``independent``, ``better``, ``shift``),
    ``undefined`` (tables, or independent tests, on which the statistic is undefined: they reject nothing)
    and ``notes``.
    """
    k = _whole(k, f"k (classifiers; at most {MAX_FAMILYWISE_K} in this demonstration)", 2, MAX_FAMILYWISE_K)
    n = _whole(n, "n (data sets of a simulated table)", 2, MAX_FAMILYWISE_DATASETS)
    reps = _whole(reps, "reps (simulated tables)", 10, MAX_FAMILYWISE_REPS)
    alpha = check_alpha(alpha)
    spec = lookup_test(test)
    m = k * (k - 1) // 2
    names = _procedures(procedures, spec, k, m)
    seed = check_seed(seed)
    if not isinstance(independent, (bool, np.bool_)):
        raise InputError(f"independent must be True or False, got {independent!r}.")
    independent = bool(independent)
    better = _whole(better, f"better (classifiers shifted, fewer than k = {k})", 0, k - 1)
    if isinstance(shift, bool) or not isinstance(shift, (int, float, np.integer, np.floating)) or not math.isfinite(shift):
        raise InputError(f"shift must be a finite number (added to the scores of the first `better` classifiers), "
                         f"got {shift!r}.")
    shift = float(shift)
    if better and shift == 0:
        raise InputError(f"{arg('better', better)} with {arg('shift', 0)} makes no classifier better: give the "
                         f"shift (in units of the scores' standard deviation, e.g. {arg('shift', 1.0)}), or "
                         f"{arg('better', 0)} for the complete null.")
    if shift != 0 and not better:
        raise InputError(f"shift is added to the first `better` classifiers; with {arg('better', 0)} there are none: "
                         f"give {arg('better')} (e.g. {arg('better', 2)}) as well, or {arg('shift', 0)} for the "
                         "complete null.")
    if progress is not None and not callable(progress):
        raise InputError(f"progress must be a function of the fraction done (0 to 1), got {progress!r}.")
    corrected = [name for name in names if name != UNCORRECTED]
    if reps * len(corrected) > MAX_FAMILYWISE_ADJUSTMENTS:
        raise InputError(f"{reps:,} tables x {len(corrected)} corrections is {reps * len(corrected):,} applications of a "
                         f"correction, above the limit of {MAX_FAMILYWISE_ADJUSTMENTS:,}; use fewer reps or procedures.")
    whole_tables = independent and spec.pool_dependent
    work = reps * m * n * (k if whole_tables else 1)
    if work > MAX_FAMILYWISE_WORK:
        per = "tables x pairs x data sets" + (" x classifiers" if whole_tables else "")
        raise InputError(f"This simulation is {work:,} units of work ({per}), above the limit of "
                         f"{MAX_FAMILYWISE_WORK:,}; use fewer reps, data sets or classifiers.")

    i, j = np.triu_indices(k, 1)
    pairs = np.column_stack([i, j]).astype(np.int64)
    means = np.zeros(k)
    means[:better] = shift
    equal = (i < better) == (j < better)  # truly equal pairs (all of them under the complete null)
    different = ~equal
    m0, m1 = int(equal.sum()), int(different.sum())
    labels = [f"C{c + 1}" for c in range(k)]

    rng = np.random.default_rng(seed)
    wide = 2 * m if independent and not whole_tables else k
    step = _chunk(reps, n, wide, m, spec.name)
    step = min(step, max(_MIN_PROGRESS_CHUNK, math.ceil(reps / 20)))
    fwer_hits = dict.fromkeys(names, 0)
    rejected = dict.fromkeys(names, 0)
    power_sum = dict.fromkeys(names, 0.0)
    power_sq = dict.fromkeys(names, 0.0)
    undefined = 0
    exact = np.ones(m, dtype=bool)
    done = 0
    while done < reps:
        size = min(step, reps - done)
        stat, p, won, missing = _simulate_statistics(rng, size, n, k, means, pairs, spec, independent, whole_tables,
                                                     labels)
        undefined += int(missing.sum())
        candidates = np.flatnonzero((p <= alpha).any(axis=1))  # elsewhere no procedure rejects (APV >= p)
        for name in names:
            if name == UNCORRECTED:  # its adjusted p-values are the raw ones (the common finishing step keeps them)
                reject = p <= alpha
            else:
                reject = np.zeros((size, m), dtype=bool)
                for r in candidates:
                    fam = _Family("all-pairs", k, pairs, stat[r], p[r], won[r], exact)
                    reject[r] = _adjusted(fam, name, spec) <= alpha
            fwer_hits[name] += int(reject[:, equal].any(axis=1).sum())
            rejected[name] += int(reject.sum())
            if m1:
                share = reject[:, different].mean(axis=1)
                power_sum[name] += float(share.sum())
                power_sq[name] += float((share**2).sum())
        done += size
        if progress is not None:
            progress(done / reps)

    rows = []
    for name in names:
        proc = lookup_procedure(name)
        f = fwer_hits[name] / reps
        row = {"procedure": name, "label": proc.label, "fwer": f, "mc_se": math.sqrt(f * (1 - f) / reps),
               "rejections_per_table": rejected[name] / reps,
               "analytic": 1 - (1 - alpha) ** m0 if name == UNCORRECTED else math.nan}
        if better:
            mean = power_sum[name] / reps
            var = max(0.0, power_sq[name] / reps - mean**2)
            row["power"] = mean
            row["power_mc_se"] = math.sqrt(var / reps)
        rows.append(row)
    frame = pd.DataFrame(rows)
    notes = []
    if undefined:
        notes.append(f"The {spec.label} is undefined on {undefined:,} simulated "
                     f"{'tests' if whole_tables else 'tables'} (posthoc refuses such a table): they reject nothing.")
    frame.attrs.update({
        "k": k, "n": n, "m": m, "m_true_null": m0, "alpha": alpha, "test": spec.name, "reps": reps, "seed": seed,
        "independent": independent, "better": better, "shift": shift, "procedures": tuple(names),
        "undefined": undefined, "notes": tuple(notes),
    })
    return frame


def _simulate_statistics(rng, size: int, n: int, k: int, means: np.ndarray, pairs: np.ndarray, spec,
                         independent: bool, whole_tables: bool, labels: list[str]):
    """Statistic, p-value and better classifier (size, m) of every hypothesis on ``size`` simulated tables, and
    the tables (or independent tests) on which the statistic is undefined (their p-values are 1)."""
    m = pairs.shape[0]
    if not independent:
        x = rng.standard_normal((size, n, k)) + means
        return _pairwise(x, pairs, spec.name, labels)
    if not whole_tables:
        # The statistic looks at the two classifiers only: hypothesis h gets its own two columns (2h, 2h + 1),
        # with the means of its pair, in one wide table per repetition; columns never meet another pair's.
        x = rng.standard_normal((size, n, 2 * m)) + means[pairs].ravel()
        own = np.arange(2 * m, dtype=np.int64).reshape(m, 2)
        wide_labels = [f"{labels[a]}.{h + 1}" for h, pair in enumerate(pairs) for a in pair]
        stat, p, won, missing = _pairwise(x, own, spec.name, wide_labels)
        won = np.where(won >= 0, pairs.ravel()[np.maximum(won, 0)], -1)  # column index -> classifier index
        return stat, p, won, missing
    # A pool-dependent statistic (the mean ranks, ...) needs the whole table: one table per hypothesis.
    stat, p = np.zeros((size, m)), np.ones((size, m))
    won = np.full((size, m), -1, dtype=np.int64)
    missing = np.zeros((size, m), dtype=bool)
    for h in range(m):
        x = rng.standard_normal((size, n, k)) + means
        s, q, w, u = _pairwise(x, pairs[h : h + 1], spec.name, labels)
        stat[:, h], p[:, h], won[:, h], missing[:, h] = s[:, 0], q[:, 0], w[:, 0], u
    return stat, p, won, missing
