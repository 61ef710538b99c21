"""The family-wise error demonstration (issue 23): familywise_error against the formula for independent tests,
against posthoc itself on the same and on other simulated tables, the corrections' control of the error, and
their power under a partial null."""

from __future__ import annotations

import inspect
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl
from compare_lib.multiple._adjust import FAMILYWISE_PROCEDURES, UNCORRECTED
from compare_lib.analyses._familywise import (
    MAX_FAMILYWISE_ADJUSTMENTS, MAX_FAMILYWISE_K, MAX_FAMILYWISE_REPS, MAX_FAMILYWISE_WORK, familywise_error,
)
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST
from compare_lib.limits import MAX_BERGMANN_HOMMEL_K

ALPHA = 0.05


def _paired_t(table, pairs):
    """Student's paired t-test of each pair: a continuous test, exactly of level alpha on normal scores."""
    s = table.oriented_scores
    d = s[:, pairs[:, 0]] - s[:, pairs[:, 1]]
    n = d.shape[0]
    t = d.mean(axis=0) / (d.std(axis=0, ddof=1) / math.sqrt(n))
    return SimpleNamespace(statistic=t, pvalue=2 * stats.t.sf(np.abs(t), n - 1))


@pytest.fixture
def paired_t():
    cl.register_pairwise_test("toy-paired-t", _paired_t, label="paired t", reference="Student 1908")
    yield "toy-paired-t"
    cl.unregister_pairwise_test("toy-paired-t")


def _row(frame: pd.DataFrame, procedure: str) -> pd.Series:
    return frame.set_index("procedure").loc[procedure]


def _se(p: float, reps: int) -> float:
    return math.sqrt(p * (1 - p) / reps)


def _analytic(m: int, alpha: float = ALPHA) -> float:
    return 1 - (1 - alpha) ** m


# ---------------------------------------------------------------------------------------------
# independent tests: the formula


def test_independent_continuous_test_reproduces_the_formula(paired_t):
    k, reps = 5, 2000
    f = familywise_error(k, 10, test=paired_t, independent=True, reps=reps, seed=1)
    m = k * (k - 1) // 2
    none = _row(f, UNCORRECTED)
    assert none["analytic"] == pytest.approx(_analytic(m)) == pytest.approx(0.40126, abs=1e-5)
    assert abs(none["fwer"] - none["analytic"]) <= 4 * _se(none["analytic"], reps)
    # each of the m independent tests rejects with probability alpha
    assert abs(none["rejections_per_table"] / m - ALPHA) <= 4 * _se(ALPHA, reps * m)
    for procedure in ("bonferroni", "holm"):
        assert _row(f, procedure)["fwer"] <= ALPHA + 3 * _se(ALPHA, reps)
    assert f.attrs["independent"] is True and f.attrs["m"] == m == f.attrs["m_true_null"]


def test_independent_wilcoxon_with_the_normal_approximation_reproduces_the_formula():
    """Beyond 50 data sets the Wilcoxon p-value is the normal one: practically continuous."""
    k, reps = 6, 3000
    none = _row(familywise_error(k, 60, procedures=[UNCORRECTED], independent=True, reps=reps, seed=2), UNCORRECTED)
    assert abs(none["fwer"] - _analytic(15)) <= 4 * _se(_analytic(15), reps)


@pytest.mark.parametrize("test,n", [("mean-ranks", 12), ("sign", 12)])
def test_independent_discrete_tests_follow_the_formula_with_their_own_level(test, n):
    """With m independent tests of level q (q < alpha for a discrete test) the rate is 1 - (1 - q)^m; q, the
    rejection rate of one pair, is the same on one table (estimated there from many tables)."""
    k, reps = 5, 2000
    m = k * (k - 1) // 2
    one = _row(familywise_error(k, n, test=test, procedures=[UNCORRECTED], reps=40_000, seed=3), UNCORRECTED)
    q = one["rejections_per_table"] / m
    ind = familywise_error(k, n, test=test, procedures=[UNCORRECTED], independent=True, reps=reps, seed=4)
    none = _row(ind, UNCORRECTED)
    assert abs(none["rejections_per_table"] / m - q) <= 4 * math.sqrt(_se(q, reps * m) ** 2 + _se(q, 40_000) ** 2)
    assert abs(none["fwer"] - _analytic(m, q)) <= 4 * _se(_analytic(m, q), reps)
    if test == "sign":  # 12 data sets: the sign test rejects at 0.05 only with 2 or fewer losses, P = 0.0386
        assert q == pytest.approx(2 * stats.binom.cdf(2, 12, 0.5), abs=4 * _se(0.0386, 40_000))


def test_pairs_of_one_table_are_not_independent():
    """On one table the pairs share classifiers: the uncorrected rate is far below the independent one."""
    reps = 2000
    one = _row(familywise_error(10, 20, procedures=[UNCORRECTED], reps=reps, seed=5), UNCORRECTED)
    ind = _row(familywise_error(10, 20, procedures=[UNCORRECTED], reps=reps, seed=5, independent=True), UNCORRECTED)
    assert one["analytic"] == ind["analytic"] == pytest.approx(_analytic(45))
    assert one["fwer"] + 4 * math.hypot(one["mc_se"], ind["mc_se"]) < ind["fwer"]
    assert one["fwer"] > 10 * ALPHA  # and still far above alpha
    # the expected number of rejections is the same: only their clustering differs
    assert one["rejections_per_table"] == pytest.approx(ind["rejections_per_table"], abs=0.25)


# ---------------------------------------------------------------------------------------------
# one table: posthoc itself


def _brute_force(x: np.ndarray, test: str, procedures, equal: np.ndarray | None = None):
    """Share of tables with a false rejection and mean rejections per table, by calling posthoc on each table."""
    hits, count = dict.fromkeys(procedures, 0), dict.fromkeys(procedures, 0)
    k = x.shape[2]
    names = [f"C{c + 1}" for c in range(k)]
    index = {(a, b): h for h, (a, b) in enumerate(zip(*np.triu_indices(k, 1)))}
    for table in x:
        t = cl.as_table(pd.DataFrame(table, columns=names), higher_is_better=True)
        for procedure in procedures:
            res = cl.posthoc(t, test=test, correction=procedure, alpha=ALPHA)
            rejected = [index[tuple(sorted((names.index(a), names.index(b))))]
                        for a, b in zip(res["a"][res["reject"]], res["b"][res["reject"]])]
            count[procedure] += len(rejected)
            hits[procedure] += any(equal is None or equal[h] for h in rejected)
    return hits, count


@pytest.mark.parametrize("test,better,shift", [("wilcoxon", 0, 0.0), ("sign", 0, 0.0), ("mean-ranks", 1, 1.0)])
def test_same_tables_give_exactly_posthocs_decisions(test, better, shift):
    """The documented tables, rebuilt and analysed with posthoc one by one: the same counts, exactly."""
    k, n, reps, seed = 4, 8, 240, 7
    procedures = (UNCORRECTED, "bonferroni", "holm")
    f = familywise_error(k, n, procedures=procedures, test=test, reps=reps, seed=seed, better=better, shift=shift)
    x = np.random.default_rng(seed).standard_normal((reps, n, k))
    x[:, :, :better] += shift
    i, j = np.triu_indices(k, 1)
    hits, count = _brute_force(x, test, procedures, equal=(i < better) == (j < better))
    for procedure in procedures:
        row = _row(f, procedure)
        assert round(row["fwer"] * reps) == hits[procedure], procedure
        assert round(row["rejections_per_table"] * reps) == count[procedure], procedure


def test_one_table_agrees_with_an_independent_brute_force_simulation():
    """A straightforward loop over posthoc on other simulated tables of the same design: within Monte Carlo error."""
    k, n, reps, brute_reps = 5, 10, 4000, 300
    procedures = (UNCORRECTED, "bonferroni", "holm")
    f = familywise_error(k, n, procedures=procedures, reps=reps, seed=8)
    x = np.random.default_rng(20260423).standard_normal((brute_reps, n, k))
    hits, _ = _brute_force(x, RECOMMENDED_TEST, procedures)
    for procedure in procedures:
        rate = _row(f, procedure)["fwer"]
        brute = hits[procedure] / brute_reps
        se = math.hypot(_se(max(rate, ALPHA / 2), reps), _se(max(rate, ALPHA / 2), brute_reps))
        assert abs(rate - brute) <= 4 * se, (procedure, rate, brute)
    assert _row(f, UNCORRECTED)["fwer"] > 4 * ALPHA


# ---------------------------------------------------------------------------------------------
# the corrections: control under the complete null, power under a partial null


@pytest.mark.parametrize("test", ["wilcoxon", "sign", "mean-ranks"])
def test_holm_and_bonferroni_stay_at_or_below_alpha_under_the_complete_null(test):
    reps = 2000
    f = familywise_error(8, 15, test=test, reps=reps, seed=9)
    assert list(f["procedure"]) == list(FAMILYWISE_PROCEDURES)
    bonferroni, holm, none = _row(f, "bonferroni"), _row(f, "holm"), _row(f, UNCORRECTED)
    for row in (bonferroni, holm):
        assert row["fwer"] <= ALPHA + 3 * _se(ALPHA, reps)
        assert math.isnan(row["analytic"])
    # Holm rejects something exactly when Bonferroni does: the same tables, the same rate
    assert holm["fwer"] == bonferroni["fwer"]
    assert holm["rejections_per_table"] >= bonferroni["rejections_per_table"]
    assert none["fwer"] > ALPHA + 4 * none["mc_se"] and none["fwer"] <= none["analytic"] + 4 * none["mc_se"]
    assert "power" not in f.columns


def test_a_discrete_test_stays_below_alpha():
    """The sign test on 10 data sets: its smallest p-value, 2/1024, is above 0.05/45, so Bonferroni and Holm never
    reject among 10 classifiers; uncorrected, each test's level is 0.021, far below 0.05."""
    reps = 2000
    f = familywise_error(10, 10, test="sign", reps=reps, seed=10, independent=True)
    assert _row(f, "bonferroni")["fwer"] == 0 and _row(f, "holm")["fwer"] == 0
    none = _row(f, UNCORRECTED)
    level = 2 * stats.binom.cdf(1, 10, 0.5)  # 0.0215
    assert none["fwer"] < none["analytic"] - 4 * none["mc_se"]
    assert abs(none["fwer"] - _analytic(45, level)) <= 4 * _se(_analytic(45, level), reps)


def test_partial_null_holm_is_at_least_as_powerful_as_bonferroni():
    reps = 2000
    procedures = (UNCORRECTED, "bonferroni", "holm", "shaffer")
    f = familywise_error(6, 20, procedures=procedures, better=2, shift=1.0, reps=reps, seed=11)
    bonferroni, holm, shaffer, none = (_row(f, p) for p in ("bonferroni", "holm", "shaffer", UNCORRECTED))
    assert holm["power"] >= bonferroni["power"]
    assert holm["power"] > bonferroni["power"] + 2 * holm["power_mc_se"]  # here Holm's gain is visible
    assert shaffer["power"] >= holm["power"]  # t_j <= m - j + 1
    assert none["power"] > holm["power"]
    for row in (bonferroni, holm, shaffer):
        assert row["fwer"] <= ALPHA + 3 * _se(ALPHA, reps)  # strong control: false rejections among equal pairs
        assert 0 < row["power_mc_se"] < 0.02
    assert f.attrs["m_true_null"] == 1 + 6  # the two better ones among themselves, the four others
    assert none["analytic"] == pytest.approx(_analytic(7))
    assert none["fwer"] <= none["analytic"] + 4 * none["mc_se"]


def test_partial_null_independent_counts_only_the_equal_pairs(paired_t):
    k, reps = 4, 1000
    f = familywise_error(k, 10, test=paired_t, better=1, shift=3.0, independent=True, reps=reps, seed=12,
                         procedures=[UNCORRECTED])
    none = _row(f, UNCORRECTED)
    assert f.attrs["m_true_null"] == 3
    assert abs(none["fwer"] - _analytic(3)) <= 4 * _se(_analytic(3), reps)
    assert none["power"] > 0.95  # a shift of 3 standard deviations of each score, 10 data sets


# ---------------------------------------------------------------------------------------------
# seeds, progress, defaults, limits


def test_seeded_reproducible_and_seed_dependent():
    a = familywise_error(6, 12, reps=500, seed=13, better=1, shift=0.5)
    b = familywise_error(6, 12, reps=500, seed=13, better=1, shift=0.5)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs
    c = familywise_error(6, 12, reps=500, seed=14, better=1, shift=0.5)
    assert not a[["fwer", "power"]].equals(c[["fwer", "power"]])
    d1 = familywise_error(4, 12, test="mean-ranks", reps=300, seed=15, independent=True)
    d2 = familywise_error(4, 12, test="mean-ranks", reps=300, seed=15, independent=True)
    pd.testing.assert_frame_equal(d1, d2)


def test_progress_reports_fractions_up_to_one():
    seen = []
    familywise_error(5, 10, reps=2000, seed=0, progress=seen.append)
    assert len(seen) >= 10 and seen[-1] == 1.0
    assert all(0 < a < b for a, b in zip(seen, seen[1:]))


def test_defaults_come_from_the_registries():
    params = inspect.signature(familywise_error).parameters
    assert params["procedures"].default == FAMILYWISE_PROCEDURES
    assert params["test"].default == RECOMMENDED_TEST
    f = familywise_error(3, 6, reps=50)
    assert list(f["label"]) == [cl.PROCEDURES[p].label for p in FAMILYWISE_PROCEDURES]
    assert f.attrs["test"] == RECOMMENDED_TEST and f.attrs["seed"] == 0 and f.attrs["reps"] == 50
    assert list(f.columns) == ["procedure", "label", "fwer", "mc_se", "rejections_per_table", "analytic"]


@pytest.mark.parametrize("kwargs,message", [
    ({"k": 1}, f"between 2 and {MAX_FAMILYWISE_K}"),
    ({"k": MAX_FAMILYWISE_K + 1}, f"between 2 and {MAX_FAMILYWISE_K}"),
    ({"k": 4.0}, "k .*whole number"),
    ({"k": True}, "k .*whole number"),
    ({"n": 1}, "n .*between 2 and 10,000"),
    ({"reps": 5}, "reps .*between 10 and 100,000"),
    ({"reps": MAX_FAMILYWISE_REPS + 1}, "between 10 and 100,000"),
    ({"alpha": 0.0}, "alpha must be a number between 0 and 1"),
    ({"alpha": 1.5}, "alpha must be a number between 0 and 1"),
    ({"test": "t-test-nope"}, "not known"),
    ({"procedures": []}, "procedures is empty"),
    ({"procedures": ["nope"]}, "Unknown procedure 'nope'"),
    ({"procedures": ["rom"]}, "not defined for all pairwise comparisons"),
    ({"procedures": ["nemenyi"]}, "mean-ranks statistic only"),
    ({"procedures": [None]}, "names of procedures"),
    ({"procedures": ["bergmann-hommel"], "k": MAX_BERGMANN_HOMMEL_K + 1}, "offered up to"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"seed": 1.5}, "seed must be a whole number"),
    ({"independent": "yes"}, "independent must be True or False"),
    ({"better": 4}, "better .*between 0 and 3"),
    ({"better": 1}, "shift=0 makes no classifier better"),
    ({"shift": 1.0}, "with better=0 there are none"),
    ({"better": 1, "shift": float("nan")}, "shift must be a finite number"),
    ({"progress": 3}, "progress must be a function"),
    ({"k": 30, "n": 10_000, "reps": 1000}, f"limit of {MAX_FAMILYWISE_WORK:,}"),
    ({"reps": 100_000, "procedures": ["bonferroni", "holm", "hochberg", "hommel", "shaffer", "finner"]},
     f"limit of {MAX_FAMILYWISE_ADJUSTMENTS:,}"),
])
def test_bad_inputs_are_refused_with_their_limit(kwargs, message):
    args = {"k": 4, "n": 10, "reps": 100, **kwargs}
    with pytest.raises(cl.InputError, match=message):
        familywise_error(args.pop("k"), args.pop("n"), **args)


def test_nemenyi_follows_the_mean_ranks_and_a_name_may_be_given_alone():
    f = familywise_error(5, 10, test="mean-ranks", procedures=["nemenyi", "Holm", "holm"], reps=200)
    assert list(f["procedure"]) == ["nemenyi", "holm"]
    assert list(familywise_error(3, 5, procedures=UNCORRECTED, reps=20)["procedure"]) == [UNCORRECTED]
