"""Bayesian tests with a ROPE (Benavoli, Corani, Demšar & Zaffalon 2017): the tutorial's printed results,
baycomp as an independent computation, the direction convention, limits and invariance."""

from __future__ import annotations

import importlib.util
import math
import os

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl
from compare_lib.stats._bayesian import _dp_weights, _signed_rank_theta

from .conftest import ROOT

# A copy of ../shared/data/bayes_tutorial (the tutorial's data; see its README) so CI's clean clone has it.
TUTORIAL = ROOT / "tests" / "data" / "bayes_tutorial"


def _close_mc(result, which: str, printed: float) -> None:
    """The tutorial's Monte Carlo results agree within 4 standard errors plus 0.005 (issue 12)."""
    index = {"p_x": 0, "p_rope": 1, "p_y": 2}[which]
    value = getattr(result, which)
    assert abs(value - printed) <= 4 * result.mc_se[index] + 0.005, (which, value, printed)


@pytest.fixture(scope="module")
def nbc_aode():
    return pd.read_csv(TUTORIAL / "accuracy_nbc_aode.csv")


def test_tutorial_sign_test_nbc_vs_aode(nbc_aode):
    """Tutorial, Bsigntest notebook: NBC vs AODE on 54 data sets, rope 0.01 -> 0.0, 0.71288, 0.28712
    (AODE practically better with probability 0.29)."""
    res = cl.bayesian_sign_test(nbc_aode["nbc"], nbc_aode["aode"], rope=0.01, seed=1)
    assert res.p_x == 0.0
    _close_mc(res, "p_rope", 0.71288)
    _close_mc(res, "p_y", 0.28712)
    assert res.samples.shape == (50_000, 3) and np.allclose(res.samples.sum(axis=1), 1)
    assert res.p_x + res.p_rope + res.p_y == pytest.approx(1)


def test_tutorial_signed_rank_nbc_vs_aode(nbc_aode):
    """Tutorial, Bsignedrank notebook (prior 0.6): 0.0, 0.12244, 0.87756."""
    res = cl.bayesian_signed_rank(nbc_aode["nbc"], nbc_aode["aode"], rope=0.01, seed=1)
    assert res.prior_strength == 0.6 and res.p_x == 0.0
    _close_mc(res, "p_rope", 0.12244)
    _close_mc(res, "p_y", 0.87756)


@pytest.mark.parametrize("dataset,p_nbc,p_rope,p_aode", [
    ("anneal", 3.0353909763469744e-07, 0.04570306097263277, 0.9542966354882696),
    ("audiology", 0.009348057821063849, 0.9085092663989454, 0.08214267577999079),
])
def test_tutorial_correlated_ttest(dataset, p_nbc, p_rope, p_aode):
    """Tutorial, correlated t-test notebook: 10 x 10-fold cv on one data set, rope 0.01 (the printed
    labels name the regions the other way round; the numbers are these)."""
    nbc = np.loadtxt(TUTORIAL / f"nbc_{dataset}.csv", skiprows=1) / 100
    aode = np.loadtxt(TUTORIAL / f"aode_{dataset}.csv", skiprows=1) / 100
    res = cl.bayesian_correlated_ttest(nbc, aode, rope=0.01, folds=10)
    assert res.p_x == pytest.approx(p_nbc, rel=1e-8)
    assert res.p_rope == pytest.approx(p_rope, rel=1e-12)
    assert res.p_y == pytest.approx(p_aode, rel=1e-12)
    assert res.samples is None and res.mc_se == (0.0, 0.0, 0.0)
    same = cl.bayesian_correlated_ttest(nbc - aode, rope=0.01, test_ratio=1 / 9)
    assert (same.p_x, same.p_y) == (res.p_x, res.p_y)


# -- baycomp, an independent implementation -------------------------------------------------------------

# In the test extra; only a local run without it skips these (in CI a missing baycomp fails them).
needs_baycomp = pytest.mark.skipif(importlib.util.find_spec("baycomp") is None and os.environ.get("CI") != "true",
                                   reason="baycomp is not installed (pip install -e .[test])")


def _baycomp_probs(samples: np.ndarray) -> np.ndarray:
    return np.bincount(np.argmax(samples, axis=1), minlength=3) / samples.shape[0]


@needs_baycomp
@pytest.mark.parametrize("seed", range(6))
def test_against_baycomp_on_random_tables(seed):
    """baycomp puts y's advantage on the right; ours calls x's advantage p_x. Random tables with ties
    and zero differences (rounded scores), both directions of the difference."""
    from baycomp.multiple import SignedRankTest, SignTest

    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 60))
    x = np.round(rng.uniform(0.6, 0.9, n), 3)
    y = np.round(x + rng.normal(rng.uniform(-0.02, 0.02), 0.015, n), 3)
    rope = float(rng.choice([0.0, 0.005, 0.01]))
    ours = cl.bayesian_signed_rank(y, x, rope=rope, prior_strength=0.5, seed=seed, samples=40_000)
    ref = _baycomp_probs(SignedRankTest.sample(x, y, rope=rope, prior=0.5, nsamples=40_000, random_state=seed))
    for got, want, se in zip((ours.p_y, ours.p_rope, ours.p_x), ref, (ours.mc_se[2], ours.mc_se[1], ours.mc_se[0])):
        # baycomp counts a Walsh sum exactly on the ROPE's edge half in, half out; that moves little.
        assert abs(got - want) <= 5 * math.sqrt(2) * max(se, 1e-3) + 0.01
    ours = cl.bayesian_sign_test(y, x, rope=rope, seed=seed, samples=40_000)
    ref = _baycomp_probs(SignTest.sample(x, y, rope=rope, prior=1, nsamples=40_000, random_state=seed))
    for got, want, se in zip((ours.p_y, ours.p_rope, ours.p_x), ref, (ours.mc_se[2], ours.mc_se[1], ours.mc_se[0])):
        assert abs(got - want) <= 5 * math.sqrt(2) * max(se, 1e-3) + 0.005


@needs_baycomp
def test_correlated_ttest_against_baycomp():
    from baycomp.single import CorrelatedTTest

    rng = np.random.default_rng(3)
    x = rng.uniform(0.7, 0.9, 50)
    y = x + rng.normal(0.005, 0.01, 50)
    left, rope, right = CorrelatedTTest.probs(x, y, rope=0.005, runs=5)  # 5 runs of 10-fold cv
    ours = cl.bayesian_correlated_ttest(y, x, rope=0.005, folds=10)
    assert (ours.p_y, ours.p_rope, ours.p_x) == pytest.approx((left, rope, right), rel=1e-9)


# -- conventions and limits -----------------------------------------------------------------------------

def test_direction_follows_higher_is_better_never_the_sign():
    rng = np.random.default_rng(0)
    acc_a = rng.uniform(0.8, 0.9, 30)
    acc_b = acc_a - 0.03 + rng.normal(0, 0.005, 30)  # a is better
    err_a, err_b = 1 - acc_a, 1 - acc_b  # the same, as error rates (lower is better)
    for fn in (cl.bayesian_sign_test, cl.bayesian_signed_rank):
        hi = fn(acc_a, acc_b, rope=0.01, seed=0)
        lo = fn(err_a, err_b, rope=0.01, seed=0, higher_is_better=False)
        assert hi.p_x > 0.95 and (lo.p_x, lo.p_rope, lo.p_y) == pytest.approx((hi.p_x, hi.p_rope, hi.p_y), abs=1e-12)
    t = cl.bayesian_correlated_ttest(err_a, err_b, rope=0.01, folds=10, higher_is_better=False)
    assert t.p_x > 0.9


def test_limits_hold_exactly():
    rng = np.random.default_rng(1)
    # Every difference inside the ROPE: the posterior is all equivalence.
    x = rng.uniform(0.7, 0.8, 25)
    y = x + rng.uniform(-0.009, 0.009, 25)
    for fn in (cl.bayesian_sign_test, cl.bayesian_signed_rank):
        res = fn(x, y, rope=0.01, seed=0)
        assert (res.p_x, res.p_rope, res.p_y) == (0.0, 1.0, 0.0)
        assert res.mc_se == (0.0, 0.0, 0.0)
    # One classifier better by more than the ROPE on every data set: the other never wins.
    big = rng.uniform(0.7, 0.8, 60)
    for fn in (cl.bayesian_sign_test, cl.bayesian_signed_rank):
        res = fn(big + 0.05, big, rope=0.01, seed=0)
        assert res.p_y == 0.0 and res.p_x == 1.0
    # rope = 0 and a huge N: no equivalence region to speak of, and the posterior is certain.
    n = 5000
    d = rng.normal(0.01, 0.02, n)
    res = cl.bayesian_signed_rank(d, np.zeros(n), rope=0.0, seed=0, samples=2000)
    assert res.p_rope == 0.0 and res.p_x == 1.0
    res = cl.bayesian_sign_test(d, np.zeros(n), rope=0.0, seed=0)
    assert res.p_rope == 0.0 and res.p_x == 1.0


def test_signed_rank_masses_equal_the_double_sum():
    """The O(n) computation against the definition sum_{i,j} w_i w_j [z_i + z_j > 2 rope] with the same
    weights, for the three prior places (and ties, zeros and the ROPE's edge)."""
    rng = np.random.default_rng(2)
    d = np.round(rng.normal(0, 0.02, 25), 2)  # many ties, some zeros, sums exactly on 2 rope
    w0, wd = _dp_weights(rng, 0.6, d.size, 300)
    for place, z0 in (("rope", 0.0), ("x", np.inf), ("y", -np.inf)):
        theta = _signed_rank_theta(d, 0.01, w0, wd, place)
        z = np.concatenate([[z0], np.sort(d)])
        w = np.column_stack([w0, wd])
        sums = z[:, None] + z[None, :]
        want_x = np.einsum("si,ij,sj->s", w, (sums > 0.02).astype(float), w)
        want_y = np.einsum("si,ij,sj->s", w, (sums < -0.02).astype(float), w)
        assert np.allclose(theta[:, 0], want_x, atol=1e-13) and np.allclose(theta[:, 2], want_y, atol=1e-13)
        assert np.allclose(theta.sum(axis=1), 1)


def test_row_order_does_not_matter():
    rng = np.random.default_rng(4)
    x, y = rng.uniform(0.7, 0.9, 40), rng.uniform(0.7, 0.9, 40)
    perm = rng.permutation(40)
    for fn in (cl.bayesian_sign_test, cl.bayesian_signed_rank):
        a, b = fn(x, y, rope=0.01, seed=5), fn(x[perm], y[perm], rope=0.01, seed=5)
        assert (a.p_x, a.p_rope, a.p_y) == (b.p_x, b.p_rope, b.p_y)


def test_bayesian_posthoc_rows_decisions_and_invariance(benavoli):
    res = cl.bayesian_posthoc(benavoli, seed=0, samples=20_000)
    assert len(res) == 21 and res.attrs["rope"] == 1.0  # scores in percent: one point
    assert res.attrs["rope_reason"].startswith("Scores look like percentages")
    total = res["p_a"] + res["p_rope"] + res["p_b"]
    assert np.allclose(total, 1)
    for row in res.itertuples():
        want = ("a better" if row.p_a >= 0.95 else "b better" if row.p_b >= 0.95 else
                "equivalent" if row.p_rope >= 0.95 else "undecided")
        assert row.decision == want
    # Each pair agrees with the single-pair test within Monte Carlo error.
    row = res[(res["a"] == "C2") & (res["b"] == "C4")].iloc[0]
    single = cl.bayesian_signed_rank(benavoli.scores["C2"], benavoli.scores["C4"], rope=1.0, seed=9, samples=20_000)
    assert abs(single.p_x - row.p_a) < 5 * math.sqrt(2) * max(single.mc_se[0], 1e-3) + 0.005
    # Columns in another order: the same probabilities for the same pairs, within Monte Carlo error.
    other = cl.bayesian_posthoc(benavoli.subset(benavoli.classifiers[::-1]), seed=0, samples=20_000)
    for r in other.itertuples():
        match = res[(res["a"] == r.b) & (res["b"] == r.a)].iloc[0]
        assert abs(match.p_a - r.p_b) < 0.03 and abs(match.p_rope - r.p_rope) < 0.03
    sign = cl.bayesian_posthoc(benavoli, test="sign", rope=1.0, seed=0, samples=10_000)
    assert set(sign["decision"]) <= {"a better", "b better", "equivalent", "undecided"}
    paragraph = cl.report.bayesian_paragraph(res)
    assert "ROPE" in paragraph and "±1" in paragraph and "seed 0" in paragraph and "20,000 posterior samples" in paragraph


@pytest.mark.parametrize("call,message", [
    (lambda: cl.bayesian_sign_test([1, 2], [1, 2, 3]), "2 and 3 scores"),
    (lambda: cl.bayesian_signed_rank([1, 2], [2, 3], rope=-1), "rope"),
    (lambda: cl.bayesian_signed_rank([1, 2], [2, 3], prior_place="left"), "prior_place"),
    (lambda: cl.bayesian_signed_rank([1, 2], [2, 3], samples=10**9), "samples"),
    (lambda: cl.bayesian_sign_test([1, 2], [2, 3], prior_strength=0), "prior_strength"),
    (lambda: cl.bayesian_correlated_ttest([1, 2], [2, 3]), "test_ratio"),
    (lambda: cl.bayesian_posthoc(cl.as_table(np.eye(3), True), test="t"), "test"),
    (lambda: cl.bayesian_posthoc(cl.as_table(np.eye(3), True), decision=0.3), "decision"),
])
def test_bad_input(call, message):
    with pytest.raises(cl.InputError, match=message):
        call()


def test_relevance_demo_shows_significance_without_relevance():
    demo = cl.relevance_demo(delta=0.003, sd=0.01, sizes=(10, 100, 1000), seed=0, samples=5000)
    assert demo["wilcoxon_p"].iloc[-1] < 1e-6  # the tiny difference is detected...
    assert demo["p_rope"].iloc[-1] > 0.99  # ...and it is practically nothing
    with pytest.raises(cl.InputError, match="between 2 and"):
        cl.relevance_demo(sizes=(10, 10**7))


def test_bayesian_fold_tests_equal_the_single_test_per_group():
    folds = pd.read_csv(ROOT / "sample_data" / "fold_level_example.csv")
    frame = cl.bayesian_fold_tests(folds, "k-NN", "naive Bayes", rope=0.01)
    assert len(frame) == 6 * 3 * 10 and set(frame["scheme"]) == {"10-fold cv", "5x2cv", "subsampling 20 x 10%"}
    assert np.allclose(frame[["p_a", "p_rope", "p_b"]].sum(axis=1), 1)
    row = frame[(frame["dataset"] == "wine") & (frame["scheme"] == "5x2cv") & (frame["seed"] == 3)].iloc[0]
    part = folds[(folds["dataset"] == "wine") & (folds["scheme"] == "5x2cv") & (folds["seed"] == 3)]
    wide = part.pivot_table(index=["run", "fold"], columns="classifier", values="score")
    ratio = float((part["n_test"] / part["n_train"]).mean())
    single = cl.bayesian_correlated_ttest(wide["k-NN"], wide["naive Bayes"], rope=0.01, test_ratio=ratio)
    assert (row["p_a"], row["p_rope"], row["p_b"]) == pytest.approx((single.p_x, single.p_rope, single.p_y), abs=1e-12)
    assert row["splits"] == 10 and row["test_ratio"] == pytest.approx(ratio)
    # Lower-is-better fold scores (errors): the same verdict with the roles kept.
    errors = folds.assign(score=1 - folds["score"])
    flipped = cl.bayesian_fold_tests(errors, "k-NN", "naive Bayes", rope=0.01, higher_is_better=False)
    assert np.allclose(flipped["p_a"], frame["p_a"]) and np.allclose(flipped["p_b"], frame["p_b"])


def test_bayesian_fold_tests_without_a_ratio_for_random_splits():
    folds = pd.read_csv(ROOT / "sample_data" / "fold_level_example.csv").drop(columns=["n_train", "n_test"])
    frame = cl.bayesian_fold_tests(folds, "k-NN", "naive Bayes", rope=0.01)
    random = frame[frame["scheme"] == "subsampling 20 x 10%"]
    assert random["p_a"].isna().all() and (random["note"] != "").all()
    kfold = frame[frame["scheme"] == "10-fold cv"]
    assert kfold["p_a"].notna().all() and np.allclose(kfold["test_ratio"], 1 / 9)
    given = cl.bayesian_fold_tests(folds, "k-NN", "naive Bayes", rope=0.01, test_train_ratio=0.1)
    assert given["p_a"].notna().all()
    with pytest.raises(cl.InputError, match="test/train ratio must be a positive number"):
        cl.bayesian_fold_tests(folds, "k-NN", "naive Bayes", test_train_ratio=-1.0)


def test_work_limits_are_stated(monkeypatch):
    bayesian = importlib.import_module("compare_lib.stats._bayesian")
    assert cl.signed_rank_max_samples(20_000) == 100_000
    assert cl.signed_rank_max_samples(100, n_pairs=190, work=1_000_000_000) == 52_631
    monkeypatch.setattr(bayesian, "MAX_SIGNED_RANK_WORK", 1_000_000)
    x = np.linspace(0.5, 0.9, 200)
    with pytest.raises(cl.InputError, match="above the limit of 1,000,000 .* use at most 5,000 samples, or the sign test"):
        cl.bayesian_signed_rank(x, x[::-1], samples=10_000)
    table = cl.as_table(np.random.default_rng(0).random((200, 3)), higher_is_better=True)
    with pytest.raises(cl.InputError, match="x 3 pairs with 10,000 samples .* use at most 1,666 samples or fewer classifiers"):
        cl.bayesian_posthoc(table, samples=10_000)
    monkeypatch.setattr(bayesian, "MAX_SIGN_POSTHOC_WORK", 1_000)
    with pytest.raises(cl.InputError, match="sign test on 3 pairs with 10,000 samples each is above the limit of 1,000"):
        cl.bayesian_posthoc(table, test="sign", samples=10_000)
