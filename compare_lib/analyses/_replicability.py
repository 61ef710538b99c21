"""Replicability of tests: would the verdict repeat?

* Measures: Bouckaert's R(e) over repeated outcomes, (p(p-1) + q(q-1)) / (n(n-1)); Demšar's variance
  form R(p) = 1 - 2 var(p) (Demšar 2006, §4.1.2); Bouckaert & Frank's consistency (all outcomes
  equal), almost consistency (at most one differs) and replicability R averaged over data sets
  (Bouckaert & Frank 2004, §2).
* Demšar's data-set-selection experiment (§4.1) on any loaded table: samples of n data sets are drawn
  with probability proportional to 1 / (1 + exp(-k d_i)), d_i the score difference of the chosen
  pair, for a range of biases k; every test is run on every sample (vectorized, seeded) and its
  rejection rate, mean p, R(e) and R(p) are recorded per k.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable, Iterable

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.multiple._adjust import hochberg_rows, holm_rows, hommel_rows
from compare_lib.stats._critical import dunnett_sf_many, rank_standard_error, studentized_range_sf_many
from compare_lib.core._table import as_table
from compare_lib.core._validation import check_alpha, check_seed
from compare_lib.errors import InputError
from compare_lib.stats._omnibus import anova_rows, friedman_from_doubled_sums
from compare_lib.stats._two_classifiers import paired_t_rows, sign_test_rows, wilcoxon_rows
from compare_lib.stats._replicability_measures import replicability_e, replicability_p


# ---------------------------------------------------------------------------------------------
# the experiment: every test is the library's own vectorized core (two_classifiers.*_rows,
# critical.*_sf_many, adjust.*_rows), so a sample gets exactly the p-value the library gives it.


#: Bounds of selection_experiment (each stated in its error message).
from compare_lib.limits import MAX_REPLICABILITY_BIASES as MAX_BIASES, MAX_REPLICABILITY_SAMPLE_CELLS as MAX_SAMPLE_CELLS  # noqa: E402
from compare_lib.limits import MAX_REPLICABILITY_SAMPLES as MAX_SAMPLES  # noqa: E402

SELECTION_TESTS = {
    "t-test": "two classifiers",
    "t-test (relative)": "two classifiers",
    "Wilcoxon": "two classifiers",
    "sign test": "two classifiers",
    "Friedman": "all classifiers",
    "ANOVA": "all classifiers",
    "Nemenyi": "the pair, all pairs compared",
    "Tukey": "the pair, all pairs compared",
    "Bonferroni-Dunn": "the pair, versus the control",
    "Holm": "the pair, versus the control",
    "Hochberg": "the pair, versus the control",
    "Hommel": "the pair, versus the control",
    "Dunnett": "the pair, versus the control",
}


def _where_defined(defined: np.ndarray, stat: np.ndarray, sf) -> np.ndarray:
    """sf(stat) where the test is defined, NaN elsewhere (a zero error term has no p-value)."""
    p = np.full(stat.shape, np.nan)
    if defined.any():
        p[defined] = sf(stat[defined])
    return p


def _difference_scale(scores: np.ndarray) -> float:
    """Demšar's d_i are differences of accuracies in [0, 1]; scores in percent are divided by 100."""
    hi = np.nanmax(np.abs(scores))
    return 100.0 if 1.5 < hi <= 100.0 else 1.0


def sample_pvalues(table, a: str, b: str, idx: np.ndarray, tests: Iterable[str]) -> dict[str, np.ndarray]:
    """p-value of each test on each sample of data sets (rows of ``idx``, indices into the table's rows).

    The library's own vectorized cores, so each value equals what the scalar function gives on
    ``table.subset(datasets=...)`` of that sample (tested): paired t-tests, Wilcoxon, sign test
    (a vs b), Friedman and RM-ANOVA (all classifiers), Nemenyi and Tukey (the pair among all pairs),
    Bonferroni-Dunn, Holm, Hochberg, Hommel and Dunnett (b versus the control a). NaN where a
    parametric test is undefined (zero error term).
    """
    t = table
    names = t.classifiers
    scores = t.scores.to_numpy()
    sign = 1.0 if t.higher_is_better else -1.0
    ia, ib = names.index(a), names.index(b)
    k = t.n_classifiers
    n = idx.shape[1]
    denom = 2 * n * rank_standard_error(k, n)
    df_err = (k - 1) * (n - 1)
    others = [j for j in range(k) if j != ia]
    doubled_ranks = t.doubled_ranks
    xa, xb = scores[idx, ia], scores[idx, ib]
    d = sign * (xa - xb)  # > 0 where a is better
    pvals: dict[str, np.ndarray] = {}
    if "t-test" in tests:
        pvals["t-test"] = paired_t_rows(d)[1]
    if "t-test (relative)" in tests:
        avg = (xa + xb) / 2
        pvals["t-test (relative)"] = paired_t_rows(np.where(avg != 0, d / np.where(avg != 0, avg, 1), 0.0))[1]
    if "Wilcoxon" in tests:
        pvals["Wilcoxon"] = wilcoxon_rows(d)["p"]
    if "sign test" in tests:
        pvals["sign test"] = sign_test_rows(d)["p"]
    doubled_sums = doubled_ranks[idx].sum(axis=1)  # (S, k) exact integers
    if "Friedman" in tests:
        pvals["Friedman"] = friedman_from_doubled_sums(doubled_sums, n)[1]
    if any(x in tests for x in ("ANOVA", "Tukey", "Dunnett")):
        anova = anova_rows(scores[idx])
    if "ANOVA" in tests:
        pvals["ANOVA"] = anova["p"]
    z_pair = (doubled_sums[:, ib] - doubled_sums[:, ia]) / denom
    if "Nemenyi" in tests:
        pvals["Nemenyi"] = studentized_range_sf_many(np.abs(z_pair) * math.sqrt(2), k)
    if "Tukey" in tests:
        q = np.abs(anova["means"][:, ia] - anova["means"][:, ib]) / anova["se_mean"]
        pvals["Tukey"] = _where_defined(anova["defined"], q, lambda x: studentized_range_sf_many(x, k, df_err))
    control_tests = [x for x in ("Bonferroni-Dunn", "Holm", "Hochberg", "Hommel") if x in tests]
    if control_tests:
        zc = (doubled_sums[:, others] - doubled_sums[:, [ia]]) / denom
        pc = np.minimum(1.0, 2 * stats.norm.sf(np.abs(zc)))
        col_b = others.index(ib)
        adjusted = {
            "Bonferroni-Dunn": lambda p: np.minimum(1.0, (k - 1) * p),
            "Holm": holm_rows,
            "Hochberg": hochberg_rows,
            "Hommel": hommel_rows,
        }
        for name in control_tests:
            pvals[name] = adjusted[name](pc)[:, col_b]
    if "Dunnett" in tests:
        tt = (anova["means"][:, ib] - anova["means"][:, ia]) / (anova["se_mean"] * math.sqrt(2))
        pvals["Dunnett"] = _where_defined(anova["defined"], tt, lambda x: dunnett_sf_many(x, k - 1, df_err))
    return pvals


def selection_experiment(
    table,
    a: str,
    b: str,
    *,
    n_sets: int = 10,
    biases: Iterable[float] = range(0, 21),
    samples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = 0,
    tests: Iterable[str] | None = None,
    difference_scale: float | None = None,
    higher_is_better: bool | None = None,
    progress: Callable[[float], None] | None = None,
) -> pd.DataFrame:
    """Demšar's data-set-selection experiment (Demšar 2006, §4.1) on a loaded table.

    For every bias k, ``samples`` sets of ``n_sets`` data sets are drawn without replacement with
    probability proportional to 1 / (1 + exp(-k d_i)), d_i = (score of a - score of b) on data set i
    (divided by ``difference_scale``, default 100 for scores in percent, else 1), so that larger k
    favours data sets on which a is better. On each sample the tests are run at ``alpha``:

    * two classifiers (a vs b): paired t-test, t-test on relative differences, Wilcoxon, sign test;
    * all classifiers: Friedman (Demšar's formula) and repeated-measures ANOVA;
    * the pair a vs b among all classifiers: Nemenyi and Tukey;
    * b versus the control a: Bonferroni-Dunn, Holm, Hochberg, Hommel (mean-ranks z) and Dunnett.

    Returns one row per (bias, test): ``rejections`` (count), ``rejection_rate``, ``mean_p`` (the
    adjusted p for post-hoc tests), ``R_e``, ``R_p`` and ``undefined`` (samples on which a parametric
    test has a zero error term and no p-value; they count as not rejected and are left out of mean p
    and R(p)). Every test is the library's own vectorized function, so a sample gets exactly the p-value
    that :func:`compare_lib.wilcoxon`, :func:`compare_lib.tukey_hsd`, ... give it. Seeded; ``progress``
    is called with the fraction done after each bias.
    """
    seed = check_seed(seed)
    t = as_table(table, higher_is_better)
    check_alpha(alpha)
    names = t.classifiers
    for name in (a, b):
        if name not in names:
            raise InputError(f"{name!r} is not among the classifiers {names}.")
    if a == b:
        raise InputError("Pick two different classifiers.")
    n_data = t.n_datasets
    if int(n_sets) != n_sets or not 2 <= n_sets < n_data:
        raise InputError(
            f"Samples of {n_sets} data sets need a table with more data sets than that (this one has {n_data}) "
            "and at least 2 per sample; Demšar drew 10 of 40."
        )
    if int(samples) != samples or samples < 2:
        raise InputError("samples must be a whole number >= 2.")
    if samples > MAX_SAMPLES:
        raise InputError(f"samples = {samples:,}: at most {MAX_SAMPLES:,} samples per bias are drawn.")
    biases = list(itertools.islice(biases, MAX_BIASES + 1))  # never materialize range(10**7)
    if len(biases) > MAX_BIASES:
        raise InputError(f"More than {MAX_BIASES} biases: the experiment runs at most {MAX_BIASES} values of k.")
    cells = int(samples) * max(n_data, int(n_sets) * t.n_classifiers)
    if cells > MAX_SAMPLE_CELLS:
        raise InputError(
            f"{int(samples):,} samples of this {n_data} x {t.n_classifiers} table need {cells:,} cells per bias; the limit "
            f"is {MAX_SAMPLE_CELLS:,}. Draw fewer samples."
        )
    tests = list(SELECTION_TESTS) if tests is None else list(tests)
    unknown = [x for x in tests if x not in SELECTION_TESTS]
    if unknown:
        raise InputError(f"Unknown test(s) {unknown}; choose from {list(SELECTION_TESTS)}.")
    biases = [float(k) for k in biases]
    rng = np.random.default_rng(seed)
    scores = t.scores.to_numpy()
    sign = 1.0 if t.higher_is_better else -1.0
    ia, ib = names.index(a), names.index(b)
    scale = _difference_scale(scores) if difference_scale is None else float(difference_scale)
    d_all = sign * (scores[:, ia] - scores[:, ib]) / scale
    rows = []
    for step, bias in enumerate(biases):
        weights = 1.0 / (1.0 + np.exp(-bias * d_all))
        # Successive sampling without replacement with these weights = the n largest Gumbel-perturbed log-weights.
        keys = np.log(weights)[None, :] + rng.gumbel(size=(samples, n_data))
        idx = np.sort(np.argpartition(-keys, int(n_sets) - 1, axis=1)[:, : int(n_sets)], axis=1)
        pvals = sample_pvalues(t, a, b, idx, tests)
        for name in tests:
            p = pvals[name]
            defined = ~np.isnan(p)
            rejected = p <= alpha  # an undefined test (NaN) never rejects
            rows.append(
                {
                    "bias": bias, "test": name, "family": SELECTION_TESTS[name],
                    "rejections": int(rejected.sum()), "rejection_rate": float(rejected.mean()),
                    "mean_p": float(p[defined].mean()) if defined.any() else math.nan,
                    "R_e": replicability_e(rejected),
                    "R_p": replicability_p(p[defined]) if defined.sum() >= 2 else math.nan,
                    "undefined": int((~defined).sum()),
                }
            )
        if progress is not None:
            progress((step + 1) / len(biases))
    frame = pd.DataFrame(rows)
    frame.attrs.update(a=a, b=b, n_sets=int(n_sets), samples=int(samples), alpha=float(alpha), seed=seed, difference_scale=scale,
                       # Which of the two the whole table favours, for the reading of the curves (issue 28).
                       a_wins=int((d_all > 0).sum()), b_wins=int((d_all < 0).sum()), n_datasets=int(n_data),
                       mean_difference=float(d_all.mean()))
    return frame


# -- reading the selection experiment (issue 28: the text under the chart follows its numbers) -----------------

#: Trends of a test's rejections over the biases (:func:`selection_trend`).
TRENDS = ("grow", "fall", "fall, then grow", "grow, then fall", "flat")


def selection_trend(frame: pd.DataFrame) -> pd.DataFrame:
    """How each test's rejections move with the bias k in a :func:`selection_experiment` result: one row per
    test with ``first`` and ``last`` (rejections at the smallest and the largest bias), ``lowest`` and
    ``highest`` over all biases, ``noise`` (two Monte Carlo standard errors of a difference of two counts)
    and ``trend``: "grow" or "fall" when the last count is more than the noise above or below the first,
    "fall, then grow" or "grow, then fall" when a count inside the range is more than the noise below (above)
    both ends, else "flat" (within the simulation's noise)."""
    samples = int(frame.attrs.get("samples") or 0)
    if samples < 2 or frame.empty:
        raise InputError("selection_trend needs a selection_experiment result with at least 2 samples per bias.")
    rows = []
    for test, part in frame.groupby("test", sort=False):
        counts = part.sort_values("bias")["rejections"].to_numpy(dtype=float)
        first, last = counts[0], counts[-1]
        p1, p2 = (np.clip(x / samples, 1 / samples, 1 - 1 / samples) for x in (first, last))
        noise = 2 * samples * math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / samples)
        low, high = counts.min(), counts.max()
        if min(first, last) - low > noise:  # a dip inside the range, deeper than the noise below both ends
            trend = "fall, then grow"
        elif high - max(first, last) > noise:
            trend = "grow, then fall"
        elif last - first > noise:
            trend = "grow"
        elif first - last > noise:
            trend = "fall"
        else:
            trend = "flat"
        rows.append({"test": test, "first": int(first), "last": int(last), "lowest": int(low), "highest": int(high),
                     "noise": float(noise), "trend": trend})
    out = pd.DataFrame(rows)
    out.attrs.update({k: frame.attrs[k] for k in ("a", "b", "samples", "alpha") if k in frame.attrs})
    return out


def _names(tests: list[str]) -> str:
    return tests[0] if len(tests) == 1 else ", ".join(tests[:-1]) + " and " + tests[-1]


def selection_trend_sentence(frame: pd.DataFrame) -> str:
    """The reading of a :func:`selection_experiment` result's rejection curves, from its own numbers (plain
    text): what a larger k favours, which tests' rejections grow, fall or stay within the noise
    (:func:`selection_trend`), and why, from which of the two classifiers the whole table favours. With
    Demšar's Table 6 and A = C4.5, B = C4.5+m (B better on most data sets) the rejections fall with k."""
    trends = selection_trend(frame)
    attrs = frame.attrs
    a, b = attrs.get("a", "A"), attrs.get("b", "B")
    biases = sorted(set(frame["bias"]))
    if len(biases) < 2:
        return f"Only one bias (k = {biases[0]:g}) was run: there is no trend to read."
    text = f"From k = {biases[0]:g} to k = {biases[-1]:g} the samples favour more and more the data sets on which {a} beats {b}"
    if "a_wins" in attrs:
        text += f" ({a} wins on {attrs['a_wins']} of the table's {attrs['n_datasets']} data sets, {b} on {attrs['b_wins']})"
    text += "."
    words = {"grow": "grow with k", "fall": "fall with k", "fall, then grow": "first fall, then grow again",
             "grow, then fall": "first grow, then fall", "flat": "stay within the simulation's noise"}
    parts = [f"for {_names(list(trends.loc[trends['trend'] == t, 'test']))} they {words[t]}"
             for t in TRENDS if (trends["trend"] == t).any()]
    text += " Rejections: " + "; ".join(parts) + "."
    diff = attrs.get("mean_difference")
    if diff is not None and diff < 0:
        text += (f" {b} is the better of the two on the whole table, so favouring {a}'s data sets first hides the "
                 "difference, and a strong enough bias can turn it around.")
    elif diff is not None and diff > 0:
        text += f" {a} is the better of the two on the whole table, so favouring its data sets makes the difference plainer."
    return text
