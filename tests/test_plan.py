"""Planning by simulation (compare_lib.analyses._plan): power, data sets needed, smallest detectable difference.

What is asserted:

* every simulated study gets exactly the verdicts ``cl.posthoc`` gives on its table (vectorized kernels for
  Wilcoxon, sign and mean ranks; one table at a time for the others), tied resampled rows included;
* power is at most alpha (within Monte Carlo error) when the difference is 0 and the classifiers are
  exchangeable: stated equal effects, a table closed under permutations of its classifiers, or any table
  with ``baseline="exchangeable"``;
* power grows with the number of data sets and with the difference;
* the sign test on two classifiers agrees with the exact binomial power: with normal noise of spread s on
  each score and a shift d, a data set is a win with q = Phi(d / (sqrt(2) s)), and the power is the
  Bin(N, q) probability of the two-sided exact rejection region;
* the Bayesian signed-rank decisions (better / equivalent), the inverse questions (the answers are points
  of their own curves, equal to plan at the same settings), seeding, progress, refusals.
"""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl
from compare_lib.analyses._plan import (
    MAX_PLAN_REPS, PlanResult, _decide, _design, _simulate, datasets_for_power, detectable_difference, plan,
)


def _se(p: float, reps: int) -> float:
    return math.sqrt(p * (1 - p) / reps)


def _exchangeable_table(seed: int = 0, base_rows: int = 6, k: int = 3) -> cl.ScoreTable:
    """Every base row with its classifiers in every order: the rows, as a population, are exchangeable."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(base_rows, k))
    rows = [row[list(p)] for row in base for p in permutations(range(k))]
    return cl.as_table(np.array(rows), higher_is_better=True)


@pytest.mark.parametrize("test, correction", [("wilcoxon", "holm"), ("sign", "shaffer"), ("mean-ranks", "nemenyi"),
                                              ("quade", "holm")])
def test_each_study_gets_the_posthoc_verdicts(demsar, test, correction):
    design = _design(demsar, classifier=None, against=None, k=None, spread=None, baseline="table",
                     higher_is_better=None, test=test, rope=None)
    x = _simulate(design, 12, 0.01, 15, np.random.default_rng(1))  # resampled rows: many ties
    i, j = np.triu_indices(4, 1)
    pairs = np.column_stack([i, j])
    reject, better, undefined = _decide(x, pairs, test, correction, 0.2, design.names)
    assert not undefined.any()
    names = demsar.classifiers
    for r in range(x.shape[0]):
        study = cl.as_table(pd.DataFrame(x[r], columns=names), higher_is_better=True)
        frame = cl.posthoc(study, test, correction, alpha=0.2)
        expected = {(row.a, row.b): (row.reject, row.better) for row in frame.itertuples()}
        for h, (a, b) in enumerate(pairs):
            verdict = expected[(names[a], names[b])]
            assert reject[r, h] == verdict[0]
            assert (names[better[r, h]] if better[r, h] >= 0 else "") == verdict[1]
    assert reject.any() and not reject.all()


@pytest.mark.parametrize("test, correction", [("wilcoxon", "holm"), ("sign", "holm"), ("mean-ranks", "nemenyi")])
def test_no_difference_stated_effects_power_at_most_alpha(test, correction):
    reps, alpha = 2000, 0.05
    anyone = plan(k=4, n_datasets=20, test=test, correction=correction, reps=reps, seed=3)
    pair = plan(k=4, n_datasets=20, test=test, correction=correction, against="C3", reps=reps, seed=3)
    for r in (anyone, pair):
        assert r.power <= alpha + 3 * _se(alpha, reps)
        assert r.power_better <= r.power
    assert pair.power <= anyone.power  # the pair is one of the pairs of C1
    assert anyone.power > 0  # rejections do happen: the bound is not met by a test that never rejects


def test_no_difference_exchangeable_table_power_at_most_alpha():
    reps, alpha = 2000, 0.05
    table = _exchangeable_table()
    r = plan(table, n_datasets=20, reps=reps, seed=5)
    assert r.power <= alpha + 3 * _se(alpha, reps)
    # A table with clear differences, made exchangeable by the baseline.
    rng = np.random.default_rng(0)
    ordered = cl.as_table(rng.normal(size=(25, 4)) + 2.0 * np.arange(4), higher_is_better=False)
    assert plan(ordered, n_datasets=20, reps=500, seed=5).power > 0.9  # baseline "table": the differences stay
    r = plan(ordered, n_datasets=20, reps=reps, seed=5, baseline="exchangeable")
    assert r.power <= alpha + 3 * _se(alpha, reps)
    assert "not a false-positive rate" in plan(ordered, n_datasets=5, reps=10).notes[0]


def test_power_grows_with_the_data_sets_and_the_difference():
    by_n = plan(k=3, n_datasets=[8, 16, 32, 64], difference=0.5, reps=1000)
    power = np.array(by_n.power)
    se = np.array(by_n.mc_se)
    assert np.all(np.diff(power) > 2 * np.maximum(se[1:], se[:-1]))
    assert by_n.n_datasets == (8, 16, 32, 64) and list(by_n.to_frame()["n_datasets"]) == [8, 16, 32, 64]
    by_d = [plan(k=3, n_datasets=20, difference=d, reps=1000) for d in (0.0, 0.3, 0.6, 1.2)]
    power = np.array([r.power for r in by_d])
    assert np.all(np.diff(power) > 0.05) and power[-1] > 0.9
    # A table: the shift is in the direction of "better" (lower error here).
    table = _exchangeable_table(k=4)
    errors = table.with_direction(False)
    for t in (table, errors):
        r = plan(t, n_datasets=20, difference=1.5, classifier="C2", against="C4", reps=400)
        assert r.power > 0.8 and r.power_better == r.power
        worse = plan(t, n_datasets=20, difference=-1.5, classifier="C2", against="C4", reps=400)
        assert worse.power > 0.8 and worse.power_better == 0


def _exact_sign_power(n: int, q: float, alpha: float) -> float:
    """Power of the two-sided exact sign test: P(W in the rejection region), W ~ Bin(n, q); the region is
    {w : 2 P(B <= min(w, n - w)) <= alpha}, B ~ Bin(n, 1/2)."""
    w = np.arange(n + 1)
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(w, n - w), n, 0.5))
    return float(stats.binom.pmf(w, n, q)[p <= alpha].sum())


@pytest.mark.parametrize("n, difference", [(12, 0.8), (20, 0.5), (25, 0.0), (30, -0.4)])
def test_sign_test_power_is_binomial(n, difference):
    spread, alpha, reps = 2.0, 0.05, 4000
    r = plan(n_datasets=n, difference=difference, spread=spread, test="sign", alpha=alpha, reps=reps, seed=n)
    q = stats.norm.cdf(difference / (math.sqrt(2) * spread))
    exact = _exact_sign_power(n, q, alpha)
    assert abs(r.power - exact) <= 4 * _se(exact, reps) + 1e-9
    if difference > 0:
        region = np.arange(n + 1)
        p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(region, n - region), n, 0.5))
        upper = float(stats.binom.pmf(region, n, q)[(p <= alpha) & (region > n / 2)].sum())
        assert abs(r.power_better - upper) <= 4 * _se(upper, reps) + 1e-9


def test_bayesian_signed_rank_decisions():
    far = plan(n_datasets=30, difference=3.0, test="bayesian-signed-rank", rope=0.5, reps=200)
    assert far.power > 0.9 and far.equivalent == 0 and far.correction is None and far.alpha is None
    same = plan(n_datasets=60, difference=0.0, test="bayesian-signed-rank", rope=1.5, reps=200)
    assert same.equivalent > 0.9 and same.power < 0.05
    curve = plan(n_datasets=[10, 40], difference=1.0, test="bayesian-signed-rank", rope=0.2, reps=300).to_frame()
    assert list(curve.columns) == ["n_datasets", "difference", "power", "mc_se", "power_better", "rejections",
                                   "equivalent"]
    assert curve["power"].iloc[1] > curve["power"].iloc[0] + 0.1
    table = _exchangeable_table()
    r = plan(table, n_datasets=15, test="bayesian-signed-rank", against="C2", reps=50)
    assert r.rope == cl.suggest_rope(table)[0]  # the default ROPE of a table, recorded
    assert any(note.startswith("ROPE:") for note in r.notes)


def test_datasets_for_power_answers_on_its_curve():
    r = datasets_for_power(difference=0.6, power=0.8, test="sign", reps=400, max_n=200)
    assert isinstance(r, PlanResult) and r.question == "datasets" and r.reached
    curve = r.to_frame().set_index("n_datasets")
    assert curve.loc[r.n_datasets, "power"] >= 0.8 == r.target_power
    assert curve.loc[r.n_datasets - 1, "power"] < 0.8  # bisection ends on adjacent sizes
    assert curve.index.is_monotonic_increasing
    # The point is plan's own answer at that size (same seed).
    assert plan(n_datasets=r.n_datasets, difference=0.6, test="sign", reps=400).power == r.power
    short = datasets_for_power(difference=0.05, power=0.9, reps=100, max_n=20)
    assert not short.reached and short.n_datasets is None and "do not reach" in short.notes[-1]
    # A huge shift: the Wilcoxon test cannot reject on 5 data sets (smallest two-sided p = 2/2^5 = 0.0625), on 6 it
    # always does (2/2^6 = 0.031).
    huge = datasets_for_power(difference=5.0, reps=100)
    assert huge.n_datasets == 6 and huge.power == 1.0 and huge.curve.set_index("n_datasets").loc[5, "power"] == 0


def test_detectable_difference_answers_on_its_curve():
    r = detectable_difference(n_datasets=20, power=0.8, reps=400, test="sign", spread=1.0)
    assert r.question == "difference" and r.reached and r.difference > 0
    curve = r.to_frame().set_index("difference")
    assert curve.loc[r.difference, "power"] >= 0.8
    below = curve[curve.index < r.difference]
    assert below["power"].max() < 0.8 and r.difference - below.index.max() <= 4 * math.sqrt(2) / 200 + 1e-12
    assert plan(n_datasets=20, difference=r.difference, reps=400, test="sign").power == r.power
    # Close to the exact binomial answer: the smallest shift whose exact power is 0.8.
    shifts = np.linspace(0, 2, 2001)
    exact = [_exact_sign_power(20, stats.norm.cdf(d / math.sqrt(2)), 0.05) for d in shifts]
    exact_answer = shifts[np.argmax(np.array(exact) >= 0.8)]
    assert abs(r.difference - exact_answer) < 0.15
    # A table: shuffled by default, so the table's own differences do not count.
    rng = np.random.default_rng(0)
    ordered = cl.as_table(rng.normal(size=(25, 3)) + 2.0 * np.arange(3), higher_is_better=True)
    r = detectable_difference(ordered, n_datasets=25, reps=200, against="C3")
    assert r.baseline == "exchangeable" and r.reached and r.difference > 0
    assert r.to_frame().set_index("difference").loc[0.0, "power"] <= 0.05 + 3 * _se(0.05, 200)


def test_studies_on_which_the_statistic_is_undefined_find_nothing():
    # Every data set ranks the classifiers alike: Conover's t has no error term (posthoc refuses the table).
    alike = cl.as_table(np.arange(20.0)[:, None] + np.arange(3.0)[None, :], higher_is_better=True)
    with pytest.raises(cl.InputError):
        cl.posthoc(alike, "conover", "holm")
    r = plan(alike, n_datasets=10, test="conover", reps=20)
    assert r.power == 0 and "undefined on 20 simulated" in r.notes[-1]
    assert "undefined" not in r.to_frame().columns


def test_seeded_and_reproducible():
    a = plan(k=3, n_datasets=15, difference=0.4, reps=300, seed=9)
    b = plan(k=3, n_datasets=15, difference=0.4, reps=300, seed=9)
    c = plan(k=3, n_datasets=15, difference=0.4, reps=300, seed=10)
    assert a.power == b.power and a.to_frame().equals(b.to_frame())
    assert a.power != c.power or a.power_better != c.power_better
    # A point of a curve is the plan of that size alone.
    curve = plan(k=3, n_datasets=[10, 15], difference=0.4, reps=300, seed=9)
    assert curve.power[1] == a.power


def test_progress_and_result():
    seen = []
    r = plan(k=3, n_datasets=[10, 20], difference=0.4, reps=300, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen) and all(0 < f <= 1 for f in seen)
    frame = r.to_frame()
    assert frame.attrs["test"] == "wilcoxon" and frame.attrs["correction"] == "holm" and frame.attrs["k"] == 3
    assert r.to_dict()["classifier"] == "C1" and r.against is None and r.source == "effects"
    seen = []
    datasets_for_power(difference=1.0, reps=50, progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    r = plan({"svm": 0.80, "tree": 0.78, "knn": 0.75}, n_datasets=10, spread=0.02, reps=50, classifier="tree")
    assert r.classifier == "tree" and r.k == 3 and list(plan([0, 1], n_datasets=5, reps=20).curve["n_datasets"]) == [5]


@pytest.mark.parametrize("kwargs, message", [
    ({"reps": MAX_PLAN_REPS + 1}, "100,000"),
    ({"reps": 5}, "reps"),
    ({"n_datasets": 1}, "n_datasets"),
    ({"n_datasets": []}, "empty"),
    ({"n_datasets": 2.5}, "n_datasets"),
    ({"alpha": 1.5}, "alpha"),
    ({"classifier": "nope"}, "classifier='nope'"),
    ({"against": "C1"}, "two different"),
    ({"test": "nope"}, "bayesian-signed-rank"),
    ({"correction": "nope"}, "nope"),
    ({"correction": "nemenyi"}, "mean-ranks"),
    ({"rope": 0.1}, "Bayesian"),
    ({"test": "bayesian-signed-rank"}, "rope="),
    ({"test": "bayesian-signed-rank", "rope": -1}, "rope"),
    ({"spread": 0}, "spread"),
    ({"k": 1}, "k must"),
    ({"difference": float("nan")}, "difference"),
    ({"baseline": "nope"}, "baseline"),
])
def test_bad_input(kwargs, message):
    options = {"n_datasets": 10, "reps": 20, **kwargs}
    with pytest.raises(cl.InputError, match=message):
        plan(**options)


def test_bad_input_tables_and_inverse_questions(demsar):
    with pytest.raises(cl.InputError, match="spread"):
        plan(demsar, spread=1.0, reps=20)
    with pytest.raises(cl.InputError, match="k is"):
        plan(demsar, k=3, reps=20)
    with pytest.raises(cl.InputError, match="n_datasets=30"):
        plan(k=3, reps=20)
    with pytest.raises(cl.InputError, match="direction"):
        plan(np.ones((5, 3)), reps=20)
    with pytest.raises(cl.InputError, match="against="):
        plan(k=3, n_datasets=10, test="bayesian-signed-rank", rope=0.1, reps=20)
    with pytest.raises(cl.InputError, match="Unknown option"):
        datasets_for_power(difference=1.0, n_dataset=3)
    with pytest.raises(cl.InputError, match="power must"):
        detectable_difference(n_datasets=10, power=1.2)
    with pytest.raises(cl.InputError, match="one number"):
        detectable_difference(n_datasets=[10, 20])
    with pytest.raises(cl.InputError, match="limit of 200,000,000"):
        plan(k=60, n_datasets=1000, reps=100_000)
    with pytest.raises(cl.InputError, match="limit of 4,000,000,000"):
        plan(n_datasets=1000, reps=100_000, test="bayesian-signed-rank", rope=0.1)


def test_plan_sentences_state_the_answer():
    import compare_lib as cl

    from tests.conftest import SAMPLES

    table = cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)
    curve = cl.plan(table, n_datasets=[5, 10, 40], difference=0.05, classifier="C4.5", against="C4.5+m", reps=200,
                    baseline="exchangeable")
    text = cl.plan_sentence(curve)
    assert text.startswith("With N = 40 data sets the power to find C4.5 better than C4.5+m by 0.05 is ")
    assert f"{curve.power[-1]:.2f}" in text and ("power needs about N = " in text or "is not reached" in text)
    smallest = cl.detectable_difference(table, n_datasets=14, classifier="C4.5", against="C4.5+m", reps=200)
    assert f"{smallest.difference:.3g}" in cl.plan_sentence(smallest) and "smallest difference" in cl.plan_sentence(smallest)
