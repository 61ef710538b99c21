"""How sure is the ranking? Confidence sets for the ranks of k classifiers over N data sets.

Two answers:

* ``method="simultaneous"`` (default): the confidence sets of Mogstad, Romano, Shaikh & Wilhelm,
  "Inference for ranks with applications to mobility across neighbourhoods and academic achievement
  across countries", Review of Economic Studies 91(1), 2024, built by projection from the all-pairs
  decisions of a pairwise test and a family-wise procedure (:func:`compare_lib.posthoc`). With
  B_i the classifiers found significantly better than i and W_i those found significantly worse,

      rank_low_i = 1 + |B_i|,        rank_high_i = k - |W_i|,

  the simultaneous sets of Mogstad et al. (the lower end counts the populations found better, the upper
  end those found worse), with the rejections of a post-hoc test and family-wise procedure in place of
  their bootstrap step-down test of the pairwise differences. With the Wilcoxon or the sign test (tests of
  the two classifiers only) and a procedure controlling the family-wise error, the sets hold *all* true
  ranks *at once* with probability at least 1 - alpha; with the pool-dependent mean-ranks family they do so
  only for exchangeable classifiers (measured 93.6%-94.1% with Nemenyi, not 95%, when classifiers differ in
  spread; issue 28). :func:`guarantee` states which, and the result carries it (``attrs["guarantee"]``).
* ``method="bootstrap"``: *marginal* intervals of each classifier's expected rank in the pool (each holds
  its own, not all at once; an expected rank is not a rank) from resampling the data sets (rows) with
  replacement: the expanded BCa interval, floored by a score interval (issue 28: the percentile interval
  used before held 77%-92% at N = 10 for a nominal 95%).

The coverages quoted here are measured by tests/test_rank_sets_coverage.py (bench/rank_sets_coverage.py runs
the simulation in full); the ``MEASURED_*`` constants hold them.

:func:`best_set` and :func:`worst_set` name the classifiers that could be first or last, and
:func:`winners_sentence` says it in a sentence.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from compare_lib.multiple._adjust import DEFAULT_CORRECTION
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST
from compare_lib.analyses._posthoc import posthoc
from compare_lib.core._table import as_table
from compare_lib.core._validation import check_alpha, check_choice, check_seed
from compare_lib.errors import InputError, arg

METHODS = ("simultaneous", "bootstrap")
#: Most bootstrap resamples one call draws (the message of the refusal states it).
MAX_BOOTSTRAP = 100_000
#: Most resampled cells (resamples x data sets x classifiers) one bootstrap call gathers (a few seconds).
MAX_BOOTSTRAP_WORK = 1_000_000_000
#: Resampled cells held in memory at once.
_CHUNK_CELLS = 4_000_000
#: Columns of a rank-sets frame.
COLUMNS = ("mean_rank", "rank_low", "rank_high")
#: The interval of ``rank_sets(method="bootstrap")`` (issue 28), as its frame's ``attrs["interval"]`` names it.
BOOTSTRAP_INTERVAL = "expanded BCa, floored by the score interval"

# ---------------------------------------------------------------------------------------------
# what the sets and intervals guarantee, as measured (issue 28)

#: Issue 28: coverages measured by the simulation of tests/test_rank_sets_coverage.py, run in full by
#: bench/rank_sets_coverage.py (10,000 tables per cell for the simultaneous sets, 4,000 for the bootstrap; normal
#: scores differing in location and/or in spread, k = 4 to 6, N = 10, 20, 50, at 1 - alpha = 0.95). The guarantee
#: texts and the docstring of :func:`rank_sets` quote these numbers; the tests assert them within their Monte Carlo
#: error. The simulated tables the numbers come from, in words:
MEASURED_ON = ("simulated tables of normal scores differing in location and/or in spread, k = 4 to 6 classifiers, "
               "N = 10, 20 and 50 data sets")
#: The lowest simultaneous coverage with Wilcoxon or sign tests and Holm or Shaffer, over every scenario and N.
MEASURED_PAIRWISE_COVERAGE = 0.957
#: Simultaneous coverage of the mean-ranks z where it falls short: classifiers that differ in spread, not in location
#: (the "spread" scenario: k = 6, three classifiers with three times the others' spread), by procedure and N.
MEASURED_POOL_SHORTFALL = {"nemenyi": {10: 0.936, 20: 0.938, 50: 0.941}, "holm": {10: 0.956, 20: 0.953, 50: 0.946}}
#: The bootstrap interval of :func:`rank_sets`: the lowest coverage of any classifier's expected rank, by N, over
#: every scenario (the lowest measured: 0.9505, 0.9535 and 0.9497, each within 1 Monte Carlo error of 0.95).
MEASURED_BOOTSTRAP_COVERAGE = {10: 0.95, 20: 0.95, 50: 0.95}
#: The percentile interval it replaced, on the same resamples: the coverage of the worst-covered classifier, from
#: the worst scenario to the best, by N.
MEASURED_PERCENTILE_COVERAGE = {10: (0.77, 0.92), 20: (0.83, 0.94), 50: (0.91, 0.95)}

def _percent(x: float) -> str:
    return f"{100 * x:.1f}".rstrip("0").rstrip(".") + "%"


def _span(values) -> str:
    low, high = min(values), max(values)
    return _percent(low) if _percent(low) == _percent(high) else f"{_percent(low)}–{_percent(high)}"


def guarantee(method: str = "simultaneous", test: str | None = RECOMMENDED_TEST,
              correction: str | None = DEFAULT_CORRECTION, alpha: float = 0.05) -> tuple[bool | None, str]:
    """What :func:`rank_sets` guarantees with these settings, as measured (issue 28): ``(holds, text)``.

    ``holds`` is True when the simultaneous guarantee holds under the assumptions the text states: a pairwise test
    that looks at the two classifiers only (Wilcoxon, sign) and a procedure that controls the family-wise error.
    False when it does not hold in general: the mean-ranks family (mean-ranks z, exact rank sums, aligned ranks,
    Quade, Conover), whose null distribution assumes exchangeable classifiers (Benavoli, Corani & Mangili 2016),
    or no correction. None for the bootstrap (marginal and approximate: its measured coverage is stated) and for a
    registered statistic the library has not measured. The text is the result's ``attrs["guarantee"]``, what the
    dashboard shows; its numbers are the ``MEASURED_*`` constants above, asserted by
    tests/test_rank_sets_coverage.py.
    """
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import PAIRWISE_TESTS, lookup_test

    if method == "bootstrap":
        boot, pct = MEASURED_BOOTSTRAP_COVERAGE, MEASURED_PERCENTILE_COVERAGE
        return None, (
            "Marginal: each interval holds its classifier's expected rank in this pool (its mean rank over the "
            "population of data sets these stand for) on its own, not all classifiers at once, and an expected "
            "rank is not a rank: read no ranking from the intervals. Assumes independent data sets. Measured at "
            f"95% (issue 28; {MEASURED_ON}, and an order that hardly ever changes): every classifier's interval "
            f"held its expected rank in at least {_span(boot.values())} of the tables at N = 10, 20 and 50 alike "
            "(within Monte Carlo error); the percentile interval used before held the worst-covered classifier's in "
            f"{_span(pct[10])} at N = 10, {_span(pct[20])} at N = 20 and {_span(pct[50])} at N = 50."
        )
    spec = lookup_test(check_choice(test, PAIRWISE_TESTS, "test"))  # None is refused as an unknown name
    proc = PROCEDURES.get(correction) if correction is not None else None
    label = proc.label if proc is not None else str(correction)
    if proc is not None and not proc.corrects:
        return False, (
            "No guarantee: with no correction for multiple comparisons each pair is tested at α on its own, the "
            "chance of a false or reversed decision grows with the number of pairs, and the sets miss the true "
            f"ranks far more often than {_percent(alpha)} of the time. Choose a procedure (Holm) for the guarantee."
        )
    if spec.pool_dependent:
        nemenyi, holm = MEASURED_POOL_SHORTFALL["nemenyi"], MEASURED_POOL_SHORTFALL["holm"]
        return False, (
            f"Only for exchangeable classifiers: the {spec.label} ranks the scores within this pool, and its null "
            "distribution assumes that all k classifiers are exchangeable (Benavoli, Corani & Mangili 2016). The "
            "true order is that of the expected ranks in this pool. Measured at 95% with the mean-ranks z (issue 28; "
            f"{MEASURED_ON}): at least 95% when the classifiers differ in location only, but when they differ in "
            "spread rather than location (k = 6, three with three times the others' spread) "
            f"{_span(nemenyi.values())} with Nemenyi and {_span(holm.values())} with Holm (the lowest at N = 50): "
            "more data sets do not close the gap. For the guarantee, choose the Wilcoxon or the sign test."
        )
    assumptions = ["independent data sets"]
    if spec.assumption:
        assumptions.append(spec.assumption)
    assumptions.append("a transitive true order")
    dependence = proc.dependence if proc is not None else ""
    if dependence == "any":
        assumptions.append(f"that {label}, which controls the family-wise error under any dependence, controls "
                           "errors of direction too")
    elif dependence == "simes":
        assumptions.append(f"the Simes inequality {label} relies on (positively dependent tests), and errors of "
                           "direction controlled with the family-wise error")
    elif dependence == "independent":
        assumptions.append(f"that {label}, exact for independent tests, controls the family-wise error and errors of "
                           "direction for the pairs' dependent tests")
    else:
        assumptions.append(f"that {label} controls the family-wise error, errors of direction included")
    assumed = ", ".join(assumptions[:-1]) + " and " + assumptions[-1]
    if not spec.estimand:
        return None, (
            f"Holds if the {spec.label} keeps its level for each pair: with probability at least {_percent(1 - alpha)} "
            "every classifier's true rank (in the order of the test's own parameter) lies in its set, all at once. "
            f"Assumes {assumed}. Not measured by the library."
        )
    return True, (
        f"Holds: with probability at least {_percent(1 - alpha)}, every classifier's true rank lies in its set, all "
        f"at once, the true order being that of {spec.estimand}. Assumes {assumed}. Measured at 95% (issue 28; "
        f"{MEASURED_ON}): {_percent(MEASURED_PAIRWISE_COVERAGE)}–100% with Wilcoxon or sign tests and Holm or "
        "Shaffer."
    )


def _check_n_boot(n_boot: Any, n: int, k: int) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or not 100 <= n_boot <= MAX_BOOTSTRAP:
        raise InputError(f"n_boot must be a whole number of resamples between 100 and {MAX_BOOTSTRAP:,} "
                         f"(the limit of one call), got {n_boot!r}.")
    work = int(n_boot) * n * k
    if work > MAX_BOOTSTRAP_WORK:
        raise InputError(f"{int(n_boot):,} resamples of this {n:,} x {k} table are {work:,} cells, above the limit of "
                         f"{MAX_BOOTSTRAP_WORK:,} (resamples x data sets x classifiers); use at most "
                         f"{max(1, MAX_BOOTSTRAP_WORK // (n * k)):,} resamples.")
    return int(n_boot)


def _decision_counts(frame: pd.DataFrame, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(better_than, worse_than): for each classifier, how many classifiers it was found significantly
    better / worse than in a post-hoc frame (columns a, b, reject, better). Vectorized over the pairs: the
    winner and loser of every rejected pair are counted with one bincount each. A rejected pair without a
    better classifier (a tied statistic: possible only for a registered statistic) says nothing of the order
    and is not counted."""
    k = len(names)
    index = pd.Index(names)
    a = index.get_indexer(frame["a"].to_numpy())
    b = index.get_indexer(frame["b"].to_numpy())
    better = index.get_indexer(frame["better"].to_numpy())  # -1 for "" (a tie)
    rejected = frame["reject"].to_numpy(dtype=bool) & (better >= 0)
    winner = better[rejected]
    loser = np.where(winner == a[rejected], b[rejected], a[rejected])
    return np.bincount(winner, minlength=k), np.bincount(loser, minlength=k)


def rank_sets(
    table,
    *,
    alpha: float = 0.05,
    test: str = RECOMMENDED_TEST,
    correction: str = DEFAULT_CORRECTION,
    method: str = "simultaneous",
    n_boot: int = 2000,
    seed: int | None = 0,
    higher_is_better: bool | None = None,
) -> pd.DataFrame:
    """Confidence sets for the ranks of the classifiers (rank 1 = best).

    Parameters
    ----------
    table : ScoreTable (or DataFrame / array with ``higher_is_better``)
    alpha : float
        1 - alpha is the confidence level (simultaneous for ``method="simultaneous"``, marginal for
        ``"bootstrap"``).
    test, correction : str
        The pairwise statistic and the family-wise procedure of :func:`compare_lib.posthoc` (all pairs)
        whose decisions the simultaneous sets are projected from. Ignored by the bootstrap.
    method : {"simultaneous", "bootstrap"}
    n_boot, seed : int
        Resamples of the data sets (at most :data:`MAX_BOOTSTRAP`) and the seed of the bootstrap.

    Returns
    -------
    DataFrame indexed by classifier (the table's order).

    ``method="simultaneous"``: columns ``mean_rank``, ``rank_low``, ``rank_high`` (integers),
    ``better_than`` and ``worse_than`` (how many classifiers this one was found significantly better /
    worse than). With B_i the classifiers significantly better than i and W_i those significantly worse,
    rank_low = 1 + |B_i| and rank_high = k - |W_i| (Mogstad, Romano, Shaikh & Wilhelm 2024, "Inference for
    ranks with applications to mobility across neighbourhoods and academic achievement across
    countries", Review of Economic Studies 91(1): their simultaneous sets, with the all-pairs decisions of
    the post-hoc test and procedure in place of their bootstrap step-down test). They agree exactly with
    ``posthoc(table, test, correction, alpha=alpha)``.

    *Guarantee* (issue 28; the numbers are measured by tests/test_rank_sets_coverage.py on simulated tables of
    normal scores differing in location and/or in spread, k = 4 to 6, N = 10, 20, 50, at 95%). The true order is
    the one the pairwise test's parameter defines: the median of the differences for the sign test (who beats
    whom on more than half of the data sets), their pseudo-median (the median of the Walsh averages) for
    Wilcoxon, the expected ranks within this pool of classifiers for the mean-ranks family (mean-ranks z,
    exact rank sums, aligned ranks, Quade, Conover). With ties in the true order, every rank a tied classifier
    could take (from 1 + #truly better to k - #truly worse) must be in its set. Then:

    - *Wilcoxon or sign test, with a procedure that controls the family-wise error*: with probability at least
      1 - alpha every classifier's true rank lies in its set, all classifiers at once. Measured: 95.7%-100%
      with Holm or Shaffer, in every scenario and N (:data:`MEASURED_PAIRWISE_COVERAGE`).
    - *The mean-ranks family*: only for exchangeable classifiers. These statistics rank the scores within the
      pool, and their null distribution assumes all k classifiers exchangeable (Benavoli, Corani & Mangili
      2016, "Should we really use post-hoc tests based on mean-ranks?", JMLR 17). Measured with the mean-ranks
      z: at least 95% when the classifiers differ in location only, but when they differ in spread rather
      than location (k = 6, three with three times the others' spread) 93.6%-94.1% with Nemenyi at N = 10,
      20 and 50 alike, and 94.6%-95.6% with Holm, the lowest at N = 50 (:data:`MEASURED_POOL_SHORTFALL`).
    - *No correction* ("none"): no guarantee.

    *Assumptions* behind the first case: (1) independent data sets, and the test's own assumptions: for
    Wilcoxon, differences symmetric about their pseudo-median (for skewed differences its level, and the
    guarantee, can fail); the sign test needs none. (2) The procedure controls the family-wise error strongly,
    directional errors included: with probability >= 1 - alpha no pair is declared different when equal, nor
    in the wrong direction. Every set covers whenever no such error occurs, so the guarantee is exactly as
    good as that control: Bonferroni (single step) has it whenever each two-sided test has its level in each
    tail; for the stepwise procedures (Holm, Shaffer, Bergmann-Hommel) the control of directional errors is
    known under conditions (e.g. independent statistics, Shaffer 1980) or asymptotically, and is assumed here;
    Hochberg and Hommel also rely on the Simes inequality, Holland and Finner are exact for independent tests.
    (3) The pairwise orders are consistent (transitive, so that a true rank is defined): the pseudo-medians of
    Wilcoxon can in principle be intransitive. ``attrs["guarantee"]`` (also the last of ``attrs["notes"]``)
    says which case applies, in words, and ``attrs["guaranteed"]`` is True, False or None as
    :func:`guarantee` returns it.

    ``method="bootstrap"``: columns ``mean_rank``, ``rank_low``, ``rank_high`` (floats): an interval for each
    classifier's expected rank in this pool (its mean rank over the population of data sets the table stands
    for), from ``n_boot`` resamples of the data sets (rows) with replacement. *Marginal*: each interval holds
    its classifier's expected rank on its own, not all of them together, and an expected rank is not a rank;
    ``attrs["marginal"]`` is True. Needs a complete table. The interval (issue 28) is the hull of

    - the BCa interval of the mean rank (Efron 1987, "Better bootstrap confidence intervals", JASA 82), at
      Hesterberg's expanded level: the normal quantile z_(1 - alpha/2) replaced by sqrt(N/(N - 1)) t_(N-1)
      (Hesterberg 2015, "What teachers should know about the bootstrap", The American Statistician 69),
      which undoes the narrowness of resampling intervals in small samples;
    - the score interval {theta : |mean rank - theta| <= t_(N-1) sqrt(max(s^2, v(theta)) / N)}, s the
      standard deviation of the classifier's ranks and v(theta) = (theta - floor(theta)) (ceil(theta) -
      theta) the least variance a rank with expectation theta can have. Where v exceeds s^2 this is Wilson's
      (1927) score interval: a classifier ranked the same on every data set gets Wilson's interval for 0 of
      N (ranked first on 10 data sets of 10: [1, 1.34]), not a point, since nothing in 10 data sets rules out
      that it is second on a third of the population.

    Measured at 95% (:data:`MEASURED_BOOTSTRAP_COVERAGE`): every classifier's interval held its expected rank
    in at least 95% of the tables at N = 10, 20 and 50, within Monte Carlo error (the lowest of any classifier
    in any scenario: 0.9505, 0.9535 and 0.9497, standard error 0.0035), also when the order hardly ever
    changes. The percentile interval used before (Efron's alpha/2 and 1 - alpha/2 percentiles) held the
    worst-covered classifier's in 77%-92% of the tables at N = 10, 83%-94% at N = 20 and 91%-95% at N = 50
    (:data:`MEASURED_PERCENTILE_COVERAGE`): bootstrap percentiles are too narrow for small N, and collapse to
    a point when a classifier's rank hardly varies.
    The literature on the ranks themselves (Hall & Miller 2009, "Using the bootstrap to quantify the authority
    of an empirical ranking", Annals of Statistics 37; Xie, Singh & Zhang 2009, "Confidence intervals for
    population ranks in the presence of ties and near ties", JASA 104; Mogstad et al. 2024) shows the bootstrap
    of a rank inconsistent near ties; an expected rank is a mean, which the bootstrap handles, but near the
    ends of [1, k] its distribution is skewed and discrete, hence the BCa correction and the floor.
    ``attrs["interval"]`` names the interval; ``attrs["guarantee"]`` states the above.

    ``attrs``: alpha, test, correction (None for the bootstrap), method, marginal, k, n,
    higher_is_better, guaranteed, guarantee, notes (the post-hoc analysis's notes, then the guarantee); and
    n_boot, seed, interval for the bootstrap.
    """
    seed = check_seed(seed)
    t = as_table(table, higher_is_better)
    alpha = check_alpha(alpha)
    check_choice(method, METHODS, "method")
    k, n = t.n_classifiers, t.n_datasets
    names = t.classifiers
    mean_ranks = t.mean_ranks.to_numpy(dtype=float)
    if method == "bootstrap":
        t.require_complete("The bootstrap of the mean ranks")
        n_boot = _check_n_boot(n_boot, n, k)
        low, high = _bootstrap_intervals(t.ranks.to_numpy(dtype=float), alpha, n_boot, seed)
        frame = pd.DataFrame({"mean_rank": mean_ranks, "rank_low": low, "rank_high": high},
                             index=pd.Index(names, name="classifier"))
        holds, text = guarantee("bootstrap", alpha=alpha)
        frame.attrs.update(alpha=alpha, test=None, correction=None, method=method, marginal=True, k=k, n=n,
                           higher_is_better=t.higher_is_better, n_boot=n_boot, seed=seed, interval=BOOTSTRAP_INTERVAL,
                           guaranteed=holds, guarantee=text, notes=(text,))
        return frame
    return rank_sets_from_posthoc(posthoc(t, test=test, correction=correction, alpha=alpha, as_result=True))


def rank_sets_from_posthoc(result) -> pd.DataFrame:
    """The simultaneous rank sets of :func:`rank_sets` projected from a post-hoc result already computed (a
    :class:`~compare_lib.PosthocResult` or the DataFrame of :func:`compare_lib.posthoc`, all pairs), so that a
    report or a page that shows both does not run the post-hoc twice."""
    from compare_lib.analyses._posthoc import as_posthoc_result

    result = as_posthoc_result(result)
    if result.control is not None:
        raise InputError("Rank sets need every pair compared: the post-hoc result compares against a control "
                         f"({result.control!r}). Run it over all pairs.")
    names = list(result.mean_ranks)
    k = len(names)
    better_than, worse_than = _decision_counts(result.frame, names)
    frame = pd.DataFrame({"mean_rank": np.fromiter(result.mean_ranks.values(), dtype=float, count=k),
                          "rank_low": 1 + worse_than, "rank_high": k - better_than,
                          "better_than": better_than, "worse_than": worse_than},
                         index=pd.Index(names, name="classifier"))
    holds, text = guarantee("simultaneous", result.test, result.correction, result.alpha)
    frame.attrs.update(alpha=result.alpha, test=result.test, correction=result.correction, method="simultaneous",
                       marginal=False, k=k, n=result.n, higher_is_better=result.higher_is_better, guaranteed=holds,
                       guarantee=text, notes=(*(result.notes or ()), text))
    return frame


def rank_set_labels(frame: pd.DataFrame) -> list[str]:
    """Each classifier's simultaneous rank set as text for a table: "2" for a single rank, "1–3" for a range."""
    return [f"{lo}" if lo == hi else f"{lo}–{hi}" for lo, hi in zip(frame["rank_low"], frame["rank_high"])]


def _bootstrap_means(ranks: np.ndarray, n_boot: int, seed) -> np.ndarray:
    """Each classifier's mean rank in ``n_boot`` resamples of the rows (data sets) with replacement: the table is
    ranked once (``ranks``, per data set, ties averaged); a resample's mean ranks are its counts of each row times
    the ranks, over N (exact: average ranks are multiples of 1/2, so the sums are exact in floating point), in
    chunks of resamples that keep the cells within :data:`_CHUNK_CELLS`."""
    n, k = ranks.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    means = np.empty((n_boot, k))
    step = max(1, _CHUNK_CELLS // (n * max(n, k)))
    for lo in range(0, n_boot, step):
        part = idx[lo : lo + step]
        rows = part.shape[0]
        counts = np.bincount((part + n * np.arange(rows)[:, None]).ravel(), minlength=rows * n).reshape(rows, n)
        means[lo : lo + step] = (counts @ ranks) / n
    return means


def _student(alpha: float, n: int) -> float:
    """t_(N-1, 1 - alpha/2), Student's quantile."""
    return float(special.stdtrit(n - 1, 1 - alpha / 2))


def _column_quantiles(ordered: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Column j's quantile at level q[j] of the column-sorted ``ordered`` (numpy's default, linear
    interpolation between order statistics)."""
    b = ordered.shape[0]
    position = np.clip(q, 0.0, 1.0) * (b - 1)
    below = np.floor(position).astype(np.int64)
    above = np.minimum(below + 1, b - 1)
    share = position - below
    cols = np.arange(ordered.shape[1])
    return ordered[below, cols] * (1 - share) + ordered[above, cols] * share


def _expanded_bca(ranks: np.ndarray, means: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The BCa interval of each mean rank (Efron 1987) at Hesterberg's expanded level: the normal quantile
    z_(1 - alpha/2) replaced by sqrt(N / (N - 1)) t_(N-1, 1 - alpha/2) (Hesterberg 2015, "expanded percentile"),
    which undoes the narrowness of resampling intervals in small samples. Bias correction z0 from the share of
    resampled means below the observed one (equal ones count half: the means of a few ranks repeat);
    acceleration from the jackknife, for a mean a = sum(d^3) / (6 (sum d^2)^1.5) with d the deviations."""
    n = ranks.shape[0]
    b = means.shape[0]
    mean = ranks.mean(axis=0)
    # Average ranks are multiples of 1/2, so 2 N x a mean rank is a whole number: equal means compare exactly.
    doubled, observed = np.rint(2 * n * means), np.rint(2 * n * mean)
    below = (doubled < observed).mean(axis=0) + 0.5 * (doubled == observed).mean(axis=0)
    z0 = special.ndtri(np.clip(below, 0.5 / b, 1 - 0.5 / b))
    dev = ranks - mean
    ss = (dev**2).sum(axis=0)
    accel = np.where(ss > 0, (dev**3).sum(axis=0) / (6 * np.where(ss > 0, ss, 1.0) ** 1.5), 0.0)
    z = math.sqrt(n / (n - 1)) * _student(alpha, n)
    ordered = np.sort(means, axis=0)
    ends = []
    for sign in (-1.0, 1.0):
        w = z0 + sign * z
        denom = 1 - accel * w
        level = np.where(denom > 0, special.ndtr(z0 + w / np.where(denom > 0, denom, 1.0)), (sign + 1) / 2)
        ends.append(_column_quantiles(ordered, level))
    return ends[0], ends[1]


def _floored_score_interval(ranks: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The expected ranks theta that a Student t test would not reject, with the variance floored at the least a
    rank can have: {theta : |mean - theta| <= t_(N-1, 1 - alpha/2) sqrt(max(s^2, v(theta)) / N)}, v(theta) =
    (theta - floor(theta)) (ceil(theta) - theta) the variance of a rank on the two whole ranks around theta (no
    rank variable with expectation theta varies less). Where v exceeds s^2 this is Wilson's (1927) score interval
    for the share of data sets on the upper of the two ranks: a classifier ranked the same on every data set
    (s = 0) gets Wilson's interval for 0 of N, not a point. Returns the hull (lowest, highest theta) per
    classifier; it always contains the mean rank."""
    n, k = ranks.shape
    mean = ranks.mean(axis=0)
    t = _student(alpha, n)
    g = t * t / n
    half = t * ranks.std(axis=0, ddof=1) / math.sqrt(n)
    low, high = mean - half, mean + half
    # The floor reaches |mean - theta| <= t / (2 sqrt(N)) at most (v <= 1/4): the whole-rank segments [a, a + 1]
    # within that distance, each solved as a quadratic in u = theta - a: (d - u)^2 <= g u (1 - u), d = mean - a.
    reach = int(math.ceil(t / (2 * math.sqrt(n)))) + 1
    base = np.floor(mean).astype(np.int64)
    for offset in range(-reach, reach + 1):
        a = base + offset
        d = mean - a
        disc = g * (g + 4 * d * (1 - d))
        root = np.sqrt(np.where(disc >= 0, disc, 0.0))
        u_low = np.maximum(((2 * d + g) - root) / (2 * (1 + g)), 0.0)
        u_high = np.minimum(((2 * d + g) + root) / (2 * (1 + g)), 1.0)
        ok = (disc >= 0) & (u_low <= u_high) & (a >= 1) & (a <= k - 1)
        low = np.where(ok, np.minimum(low, a + u_low), low)
        high = np.where(ok, np.maximum(high, a + u_high), high)
    return low, high


def _bootstrap_intervals(ranks: np.ndarray, alpha: float, n_boot: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """The marginal interval of each classifier's expected rank (issue 28): the hull of the expanded BCa interval
    of its mean rank over ``n_boot`` resamples and the floored score interval, within [1, k]."""
    ranks = np.ascontiguousarray(ranks, dtype=float)  # one memory layout: the same sums, bit for bit
    k = ranks.shape[1]
    b_low, b_high = _expanded_bca(ranks, _bootstrap_means(ranks, n_boot, seed), alpha)
    s_low, s_high = _floored_score_interval(ranks, alpha)
    return np.clip(np.minimum(b_low, s_low), 1.0, k), np.clip(np.maximum(b_high, s_high), 1.0, k)


# ---------------------------------------------------------------------------------------------
# who could be first, who could be last


def _is_rank_sets(obj) -> bool:
    return isinstance(obj, pd.DataFrame) and set(COLUMNS) <= set(obj.columns) and "method" in obj.attrs


def _simultaneous(table_or_sets, what: str, **kwargs) -> pd.DataFrame:
    """The simultaneous rank sets of a table (computed) or a rank-sets frame (as given)."""
    if _is_rank_sets(table_or_sets):
        if kwargs:
            raise InputError(f"{what} got a rank-sets frame and options {sorted(kwargs)}: the frame already fixes them; "
                             "pass the score table to choose them.")
        frame = table_or_sets
    else:
        frame = rank_sets(table_or_sets, **kwargs)
    if frame.attrs.get("method") != "simultaneous":
        raise InputError(f"{what} needs the simultaneous rank sets ({arg('method', 'simultaneous')}): bootstrap "
                         "intervals are marginal intervals of mean ranks, and say nothing of who can be first or "
                         "last.")
    return frame


def _by_mean_rank(frame: pd.DataFrame, mask: np.ndarray) -> list[str]:
    part = frame.loc[mask]
    order = np.lexsort((np.arange(len(part)), part["mean_rank"].to_numpy()))  # mean rank, then table order
    return [str(x) for x in part.index.to_numpy()[order]]


def best_set(table, **kwargs) -> list[str]:
    """The classifiers that could be the best (rank_low = 1 in :func:`rank_sets`), ordered by mean rank.

    With probability at least 1 - alpha the truly best classifier is among them (under the assumptions of
    :func:`rank_sets`). ``table`` is a score table (``kwargs`` are those of :func:`rank_sets`) or a frame
    returned by :func:`rank_sets`.
    """
    frame = _simultaneous(table, "best_set", **kwargs)
    return _by_mean_rank(frame, frame["rank_low"].to_numpy() == 1)


def worst_set(table, **kwargs) -> list[str]:
    """The classifiers that could be the worst (rank_high = k in :func:`rank_sets`), ordered by mean rank."""
    frame = _simultaneous(table, "worst_set", **kwargs)
    k = int(frame.attrs.get("k", len(frame)))
    return _by_mean_rank(frame, frame["rank_high"].to_numpy() == k)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winners_sentence(table_or_sets, **kwargs) -> str:
    """The set of possible winners in one plain-text sentence, e.g. "C4.5+m+cf and C4.5+m could each be the
    best; the data cannot tell them apart at 95% confidence." or "X is the best with confidence 95%: every
    other classifier is significantly worse than some classifier."

    ``table_or_sets``: a frame returned by :func:`rank_sets` (simultaneous) or a score table (``kwargs`` are
    those of :func:`rank_sets`). Names are listed by mean rank.
    """
    frame = _simultaneous(table_or_sets, "winners_sentence", **kwargs)
    best = best_set(frame)
    level = f"{100 * (1 - float(frame.attrs.get('alpha', 0.05))):g}%"
    k = len(frame)
    if len(best) == 1:
        return (f"{best[0]} is the best with confidence {level}: every other classifier is significantly worse than "
                "some classifier.")
    if len(best) == k:
        if k == 2:
            return f"{best[0]} and {best[1]} could each be the best; the data cannot tell them apart at {level} confidence."
        return (f"Any of the {k} classifiers could be the best; the data cannot tell which at {level} confidence "
                f"(best mean rank: {best[0]}).")
    return f"{_and(best)} could each be the best; the data cannot tell them apart at {level} confidence."
