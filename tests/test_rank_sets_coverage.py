"""Coverage of the rank sets, measured (issue 28, "Guarantees as measured").

The docstring of :func:`compare_lib.rank_sets` and the ``guarantee`` text of its result state coverages; this
module measures them by simulation and asserts each claim within its Monte Carlo error, so that the numbers in
the documentation are what a test measures (``bench/rank_sets_coverage.py`` runs the same simulation with more
tables and prints the whole table).

The simulated tables: N data sets, k classifiers, score = data-set effect + location_j + spread_j x N(0, 1),
independent across data sets and classifiers, higher is better (:data:`SCENARIOS`). The true ranks, one estimand
per statistic:

* the pairwise tests that look at two classifiers only (Wilcoxon, sign) target the order of each pair's
  pseudo-median (Wilcoxon) or median (sign) difference, i.e. whether P(a beats b) > 1/2 for the sign test; for
  normal scores both are the order of the locations (a difference of two normal scores is symmetric about the
  difference of the locations), so classifiers of equal location are tied whatever their spreads;
* the mean-ranks family targets the expected Friedman rank within the pool, e_j = 1 + sum over l != j of
  P(classifier l beats j on a data set) = 1 + sum Phi((location_l - location_j) / sqrt(spread_l^2 + spread_j^2));
  with equal locations and different spreads the expected ranks can still be equal (all equal in "spread"),
  but the pairs are not exchangeable;
* the bootstrap intervals target e_j too (the expected mean rank), each on its own (marginal).

A true rank with ties is the whole range a tied classifier could take, [1 + #truly better, k - #truly worse];
a table is covered when every classifier's set contains its whole range, all at once (the containment the
docstring promises). The simultaneous sets are computed for many tables at once by the kernels that
:func:`compare_lib.plan` uses (bit-identical to :func:`compare_lib.posthoc`'s); a test checks that they give
exactly ``rank_sets``'s sets. The bootstrap intervals are those of ``rank_sets(method="bootstrap")`` (its
interval function on each simulated table's ranks).

What is asserted, each with a fixed seed, against the ``MEASURED_*`` constants of compare_lib.analyses._rank_sets that
the docstring and the ``guarantee`` texts quote:

* Wilcoxon or sign tests with Holm or Shaffer: coverage >= 0.95 - 3 MC SE in every scenario and N, and not
  below the lowest documented (0.957) by more than 3 combined MC SE;
* the mean-ranks z in "spread": the documented coverage (Nemenyi 0.936-0.941, Holm 0.946-0.956) within 3
  combined MC SE, and below 0.95 with Nemenyi (the shortfall is real); elsewhere >= 0.95 - 3 MC SE;
* the bootstrap interval: every classifier's coverage >= 0.95 - 3 MC SE; the percentile interval it replaced:
  the documented range of its worst-covered classifier (and, fast, below 0.95 at N = 10);
* the result, the page and the report state the guarantee in the library's words.

The fast tests take about 15 s (the page and report tests 20 s more); the full grid is marked slow (about 3 min
of CPU; bench/rank_sets_coverage.py prints the whole table with more tables per cell).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import stats

import compare_lib as cl
from compare_lib.analyses import _rank_sets as rs
from compare_lib.stats._pairwise_tests import lookup_test
from compare_lib.analyses._plan import _decide
from compare_lib.ranks import average_ranks


@dataclass(frozen=True)
class Scenario:
    """k classifiers whose scores on a data set are location_j + spread_j x N(0, 1) (plus a data-set effect
    shared by all, which no rank statistic sees)."""

    name: str
    location: tuple[float, ...]
    spread: tuple[float, ...]

    @property
    def k(self) -> int:
        return len(self.location)

    def draw(self, rng: np.random.Generator, n: int, reps: int) -> np.ndarray:
        """(reps, n, k) scores, higher is better."""
        mu, sd = np.asarray(self.location), np.asarray(self.spread)
        return rng.normal(size=(reps, n, 1)) + mu + sd * rng.normal(size=(reps, n, self.k))

    def expected_ranks(self) -> np.ndarray:
        """e_j = 1 + sum_l P(X_l > X_j): the expected Friedman rank of each classifier within the pool."""
        mu, sd = np.asarray(self.location, float), np.asarray(self.spread, float)
        beats = stats.norm.cdf((mu[None, :] - mu[:, None]) / np.sqrt(sd[None, :] ** 2 + sd[:, None] ** 2))
        np.fill_diagonal(beats, 0.0)  # beats[j, l] = P(X_l > X_j)
        return 1 + beats.sum(axis=1)

    def truly_better(self, estimand: str) -> np.ndarray:
        """(k, k) booleans: [a, b] when a is truly better than b for the estimand ("location": the pairwise
        tests' median / pseudo-median order; "expected rank": the mean-ranks family's and the bootstrap's)."""
        if estimand == "location":
            mu = np.asarray(self.location, float)
            return mu[:, None] > mu[None, :]
        e = self.expected_ranks()
        return e[:, None] < e[None, :] - 1e-12

    def true_ranks(self, estimand: str) -> tuple[np.ndarray, np.ndarray]:
        """The range of ranks each classifier truly can take: [1 + #truly better, k - #truly worse]."""
        better = self.truly_better(estimand)
        return 1 + better.sum(axis=0), self.k - better.sum(axis=1)


#: The simulated populations (k = 4 to 6; unit spread unless stated).
SCENARIOS = {s.name: s for s in [
    Scenario("exchangeable", (0.0,) * 5, (1.0,) * 5),
    Scenario("location", (0.0, 0.0, 0.5, 1.0), (1.0,) * 4),
    Scenario("location, graded", (0.0, 0.3, 0.6, 1.0, 1.5, 2.5), (1.0,) * 6),
    Scenario("spread", (0.0,) * 6, (1.0, 1.0, 1.0, 3.0, 3.0, 3.0)),
    Scenario("location and spread", (0.0, 0.0, 0.5, 0.5, 1.0, 1.0), (1.0, 3.0, 1.0, 3.0, 1.0, 3.0)),
    Scenario("far apart", (0.0, 1.5, 3.0, 4.5), (1.0,) * 4),
]}

#: The statistic / procedure pairs measured.
PROCEDURES = [("wilcoxon", "holm"), ("sign", "holm"), ("wilcoxon", "shaffer"), ("mean-ranks", "nemenyi"),
              ("mean-ranks", "holm")]

ALPHA = 0.05
SIZES = (10, 20, 50)


def estimand(test: str) -> str:
    return "expected rank" if lookup_test(test).pool_dependent else "location"


def simultaneous_sets(x: np.ndarray, test: str, correction: str, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """rank_low, rank_high (reps, k) of rank_sets on each of the tables ``x`` (reps, n, k), all at once."""
    reps, _, k = x.shape
    i, j = np.triu_indices(k, 1)
    pairs = np.column_stack([i, j]).astype(np.int64)
    names = [f"C{q + 1}" for q in range(k)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)
        reject, better, _ = _decide(x, pairs, test, correction, alpha, names)
    counted = reject & (better >= 0)
    loser = np.where(better == pairs[:, 0], pairs[:, 1], pairs[:, 0])
    found_better = np.zeros((reps, k), dtype=np.int64)  # classifiers found significantly better than each
    found_worse = np.zeros((reps, k), dtype=np.int64)
    row = np.repeat(np.arange(reps)[:, None], pairs.shape[0], axis=1)
    np.add.at(found_better, (row[counted], loser[counted]), 1)
    np.add.at(found_worse, (row[counted], better[counted]), 1)
    return 1 + found_better, k - found_worse


def simultaneous_coverage(scenario: Scenario, n: int, test: str, correction: str, reps: int, seed: int,
                          chunk: int = 1000) -> tuple[float, float]:
    """(coverage, Monte Carlo standard error): the share of ``reps`` tables whose sets contain every classifier's
    true ranks, all at once."""
    rng = np.random.default_rng(seed)
    true_low, true_high = scenario.true_ranks(estimand(test))
    covered = 0
    for start in range(0, reps, chunk):
        low, high = simultaneous_sets(scenario.draw(rng, n, min(chunk, reps - start)), test, correction)
        covered += int(np.all((low <= true_low) & (true_high <= high), axis=1).sum())
    p = covered / reps
    return p, math.sqrt(p * (1 - p) / reps)


def percentile_intervals(ranks: np.ndarray, alpha: float, n_boot: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """The interval rank_sets(method="bootstrap") gave before issue 28: Efron's percentile interval of the mean
    rank over the same resamples."""
    low, high = np.quantile(rs._bootstrap_means(ranks, n_boot, seed), [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


def bootstrap_coverage(scenario: Scenario, n: int, reps: int, seed: int, *, n_boot: int = 2000,
                       interval=None) -> tuple[np.ndarray, np.ndarray]:
    """(coverage, Monte Carlo standard error) of each classifier's marginal interval of its expected rank over
    ``reps`` tables: ``interval(ranks, alpha, n_boot, seed)``, by default rank_sets's."""
    interval = interval or rs._bootstrap_intervals
    rng = np.random.default_rng(seed)
    target = scenario.expected_ranks()
    hits = np.zeros(scenario.k)
    x = scenario.draw(rng, n, reps)
    for r in range(reps):
        low, high = interval(average_ranks(-x[r]), ALPHA, n_boot, seed + r)
        hits += (low <= target + 1e-12) & (target - 1e-12 <= high)
    p = hits / reps
    return p, np.sqrt(p * (1 - p) / reps)


# ---------------------------------------------------------------------------------------------
# the simulation measures rank_sets itself


@pytest.mark.parametrize("test, correction", PROCEDURES)
def test_the_batched_sets_are_rank_sets(test, correction):
    """The simulation's sets, computed for many tables at once, are exactly rank_sets's, table by table."""
    rng = np.random.default_rng(28)
    for scenario, n in [(SCENARIOS["spread"], 10), (SCENARIOS["location and spread"], 20),
                        (SCENARIOS["location"], 50)]:
        x = scenario.draw(rng, n, 6) * 2  # wider differences: some pairs rejected, some not
        low, high = simultaneous_sets(x, test, correction)
        for r in range(x.shape[0]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", cl.ApproximationWarning)
                sets = cl.rank_sets(cl.as_table(x[r], higher_is_better=True), test=test, correction=correction)
            np.testing.assert_array_equal(sets["rank_low"].to_numpy(), low[r])
            np.testing.assert_array_equal(sets["rank_high"].to_numpy(), high[r])
    assert (low > 1).any() and (high < scenario.k).any()  # decisions were made: the comparison has teeth


def test_the_bootstrap_measured_is_rank_sets():
    rng = np.random.default_rng(5)
    scores = SCENARIOS["location"].draw(rng, 12, 1)[0]
    frame = cl.rank_sets(cl.as_table(scores, higher_is_better=True), method="bootstrap", n_boot=500, seed=3)
    low, high = rs._bootstrap_intervals(average_ranks(-scores), ALPHA, 500, 3)
    np.testing.assert_array_equal(frame["rank_low"].to_numpy(), low)
    np.testing.assert_array_equal(frame["rank_high"].to_numpy(), high)


def test_the_estimands():
    """Equal locations, different spreads: tied for the pairwise tests, and tied in expected rank only when the
    pool is symmetric ("spread"); "location and spread" separates the two estimands."""
    spread, mixed = SCENARIOS["spread"], SCENARIOS["location and spread"]
    np.testing.assert_allclose(spread.expected_ranks(), 3.5)
    low, high = spread.true_ranks("location")
    np.testing.assert_array_equal(np.array(spread.true_ranks("expected rank")), [low, high])
    assert (low == 1).all() and (high == 6).all()
    loc_low, loc_high = mixed.true_ranks("location")
    np.testing.assert_array_equal(loc_low, [5, 5, 3, 3, 1, 1])
    np.testing.assert_array_equal(loc_high, [6, 6, 4, 4, 2, 2])
    e = mixed.expected_ranks()
    assert e[0] != pytest.approx(e[1])  # equal locations, unequal expected ranks
    assert mixed.expected_ranks().sum() == pytest.approx(21)  # ranks 1..6 sum to 21


# ---------------------------------------------------------------------------------------------
# what the result says


@pytest.mark.parametrize("test, correction, holds, words", [
    ("wilcoxon", "holm", True, ["Holds", "pseudo-median", "symmetric", "95.7%–100%"]),
    ("sign", "shaffer", True, ["Holds", "median difference", "95.7%–100%"]),
    ("wilcoxon", "hochberg", True, ["Holds", "Simes"]),
    ("mean-ranks", "nemenyi", False, ["Only for exchangeable classifiers", "Benavoli, Corani & Mangili 2016",
                                      "93.6%–94.1% with Nemenyi", "94.6%–95.6% with Holm"]),
    ("quade", "holm", False, ["Only for exchangeable classifiers", "Quade z"]),
    ("wilcoxon", "none", False, ["No guarantee"]),
])
def test_the_result_states_its_guarantee(test, correction, holds, words):
    table = cl.as_table(SCENARIOS["location"].draw(np.random.default_rng(1), 15, 1)[0], higher_is_better=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sets = cl.rank_sets(table, test=test, correction=correction)
    assert sets.attrs["guaranteed"] is holds
    text = sets.attrs["guarantee"]
    assert sets.attrs["notes"][-1] == text
    for word in words:
        assert word in text, (word, text)
    assert ("symmetric" in text) == (test == "wilcoxon" and holds is True)  # Wilcoxon's own assumption, stated


def test_the_texts_quote_the_measured_numbers():
    """The percentages in the texts are the MEASURED_* constants the simulation checks, not hand-typed."""
    rs.MEASURED_POOL_SHORTFALL["nemenyi"][20], saved = 0.5, rs.MEASURED_POOL_SHORTFALL["nemenyi"][20]
    try:
        assert "50%–94.1% with Nemenyi" in rs.guarantee("simultaneous", "mean-ranks", "nemenyi")[1]
    finally:
        rs.MEASURED_POOL_SHORTFALL["nemenyi"][20] = saved
    holds, text = rs.guarantee("bootstrap")
    assert holds is None and "at least 95% of the tables at N = 10, 20 and 50" in text
    assert "77%–92% at N = 10, 83%–94% at N = 20 and 91%–95% at N = 50" in text
    at_90 = rs.guarantee("simultaneous", "wilcoxon", "holm", alpha=0.1)[1]
    assert at_90.startswith("Holds: with probability at least 90%")


# ---------------------------------------------------------------------------------------------
# the claims, fast (about 15 s) and in full (slow, about 3 min of CPU)

#: The Monte Carlo standard error of a documented coverage (bench/rank_sets_coverage.py: 10,000 tables per cell).
_DOC_SE = 0.0025


def _check_simultaneous(test, correction, scenario, n, reps, seed):
    p, se = simultaneous_coverage(SCENARIOS[scenario], n, test, correction, reps, seed)
    label = f"{test} + {correction}, {scenario}, N = {n}: coverage {p:.4f} ± {se:.4f}"
    tolerance = 3 * math.sqrt(se**2 + _DOC_SE**2)
    if lookup_test(test).pool_dependent and scenario == "spread":
        documented = rs.MEASURED_POOL_SHORTFALL[correction][n]
        assert abs(p - documented) <= tolerance, f"{label}, documented {documented}"
        if correction == "nemenyi":
            assert p < 1 - ALPHA, label  # the shortfall is real
    else:
        assert p >= 1 - ALPHA - 3 * se, label  # the guarantee
        if not lookup_test(test).pool_dependent:
            assert p >= rs.MEASURED_PAIRWISE_COVERAGE - tolerance, label  # the lowest documented
    return p, se


@pytest.mark.parametrize("test, correction, scenario", [
    ("wilcoxon", "holm", "spread"), ("mean-ranks", "nemenyi", "spread"), ("sign", "holm", "exchangeable")])
def test_simultaneous_coverage_fast(test, correction, scenario):
    _check_simultaneous(test, correction, scenario, 20, 4000, 2028)


def _check_bootstrap(scenario, n, reps, seed):
    p, se = bootstrap_coverage(SCENARIOS[scenario], n, reps, seed)
    floor = rs.MEASURED_BOOTSTRAP_COVERAGE[n]
    assert (p >= floor - 3 * se).all(), f"{scenario}, N = {n}: per classifier {np.round(p, 3)}, floor {floor}"
    return p, se


def test_bootstrap_coverage_fast():
    """The interval of rank_sets(method="bootstrap") holds each expected rank at its documented level at N = 10,
    where the percentile interval it replaced fell short (about 0.89 here)."""
    scenario, n, reps = SCENARIOS["location"], 10, 800
    p, se = _check_bootstrap("location", n, reps, 11)
    old, old_se = bootstrap_coverage(scenario, n, reps, 11, interval=percentile_intervals)
    assert (old < 1 - ALPHA - 2 * old_se).all()  # the old interval was too short on every classifier
    assert p.mean() > old.mean() + 0.03


@pytest.mark.slow
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_simultaneous_coverage_full(scenario, n):
    for q, (test, correction) in enumerate(PROCEDURES):
        _check_simultaneous(test, correction, scenario, n, 3000, 100 * n + q)


@pytest.mark.slow
@pytest.mark.parametrize("n", SIZES)
def test_bootstrap_coverage_full(n):
    """Every scenario: the interval's documented floor, and the documented range of the percentile interval's
    worst-covered classifier (from the worst scenario to the best)."""
    reps = 1000
    worst = []
    for q, scenario in enumerate(SCENARIOS):
        _check_bootstrap(scenario, n, reps, 7 * n + q)
        old, old_se = bootstrap_coverage(SCENARIOS[scenario], n, reps, 7 * n + q, interval=percentile_intervals)
        worst.append((old.min(), old_se[old.argmin()]))
    low, high = rs.MEASURED_PERCENTILE_COVERAGE[n]
    (lowest, lowest_se), (highest, highest_se) = min(worst), max(worst)
    assert abs(lowest - low) <= 3 * lowest_se + 0.005, (lowest, low)  # documented values are rounded to 0.01
    assert abs(highest - high) <= 3 * highest_se + 0.005, (highest, high)


# ---------------------------------------------------------------------------------------------
# the page shows what the library says


def test_the_posthoc_page_states_the_guarantee():
    """The "How sure is the ranking?" view shows the result's guarantee: a caption where it holds, a warning with
    the measured shortfall for the mean-ranks family, and the bootstrap's measured coverage under its chart."""
    from .apptest_helpers import open_page, texts

    def view(**query):
        at = open_page("posthoc", sample="garcia2008", **query)
        at.segmented_control(key="w_ph_view").set_value("How sure is the ranking?")
        at.run()
        assert not at.exception
        return at

    def plain(items):
        return [t.replace("\\", "") for t in texts(items)]

    at = view()
    holds = rs.guarantee("simultaneous", "wilcoxon", "holm")[1]
    assert holds in plain(at.caption) and not any("Only for exchangeable" in w for w in plain(at.warning))
    at.toggle(key="w_ph_boot").set_value(True)
    at.run()
    assert any(rs.guarantee("bootstrap")[1] in c and "expanded BCa" in c and "2,000 resamplings" in c
               for c in plain(at.caption))
    at = view(test="mean-ranks", procedure="nemenyi")
    assert rs.guarantee("simultaneous", "mean-ranks", "nemenyi")[1] in plain(at.warning)
    assert holds not in plain(at.caption)


def test_the_report_states_the_guarantee():
    """The report's rank-set note ends with the guarantee of the test and procedure analysed."""
    import html

    from .conftest import SAMPLES

    table = cl.load_scores(SAMPLES / "garcia_herrera2008_table2_accuracy.csv", higher_is_better=True)
    for test, correction in [("wilcoxon", "holm"), ("mean-ranks", "nemenyi")]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            report = cl.analyze(table, test=test, correction=correction).to_html()
        assert html.escape(rs.guarantee("simultaneous", test, correction)[1]) in report
        assert ("Only for exchangeable classifiers" in report) == (test == "mean-ranks")
