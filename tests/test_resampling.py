"""Tests on resampled results (Bouckaert & Frank 2004, §3): hand-computed examples and fold-level tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl

from .conftest import SAMPLES

# Differences a - b of a 5x2cv experiment: run j (rows), fold i (columns).
D52 = np.array([[0.02, 0.04], [0.01, 0.03], [0.05, -0.01], [0.00, 0.02], [0.03, 0.01]])


def test_dietterich_5x2cv_by_hand():
    """t = x_11 / sqrt((1/5) sum_j s_j^2), s_j^2 = (x_1j - xbar_j)^2 + (x_2j - xbar_j)^2, 5 df."""
    s2 = [(0.02 - 0.03) ** 2 * 2, (0.01 - 0.02) ** 2 * 2, (0.05 - 0.02) ** 2 * 2, (0.00 - 0.01) ** 2 * 2,
          (0.03 - 0.02) ** 2 * 2]
    t = 0.02 / math.sqrt(sum(s2) / 5)
    res = cl.dietterich_5x2cv_ttest(D52)
    assert res.statistic == pytest.approx(t) and res.df == 5
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5))
    # Only x_11 in the numerator: changing another fold's mean changes only the denominator.
    other = D52.copy()
    other[1, :] += 0.5
    assert cl.dietterich_5x2cv_ttest(other).statistic == pytest.approx(t)


def test_corrected_resampled_by_hand():
    d = np.array([0.01, 0.03, -0.02, 0.04, 0.02, 0.00, 0.05, 0.01, 0.02, 0.03])
    n, ratio = d.size, 10 / 90
    mean, var = d.mean(), d.var(ddof=1)
    t = mean / math.sqrt((1 / n + ratio) * var)
    res = cl.corrected_resampled_ttest(d, ratio)
    assert res.statistic == pytest.approx(t) and res.df == 9
    assert res.pvalue == pytest.approx(2 * stats.t.sf(t, 9))
    plain = cl.cv_ttest(d)
    assert plain.statistic == pytest.approx(mean / math.sqrt(var / n))
    assert plain.pvalue < res.pvalue  # the correction makes the test more conservative


def test_corrected_repeated_cv_by_hand():
    rng = np.random.default_rng(4)
    d = rng.normal(0.01, 0.02, size=(10, 10))
    t = d.mean() / math.sqrt((1 / 100 + 1 / 9) * d.var(ddof=1))
    res = cl.corrected_repeated_cv_ttest(d)
    assert res.statistic == pytest.approx(t) and res.df == 99
    assert cl.corrected_repeated_cv_ttest(d, 0.2).statistic == pytest.approx(d.mean() / math.sqrt((0.01 + 0.2) * d.var(ddof=1)))
    # With one run of k-fold cv this is the corrected k-fold test.
    assert cl.corrected_repeated_cv_ttest(d[:1]).df == 9


def test_resampling_errors():
    with pytest.raises(cl.InputError, match="5 runs x 2 folds"):
        cl.dietterich_5x2cv_ttest(np.zeros((4, 2)))
    with pytest.raises(cl.InputError, match="positive"):
        cl.corrected_resampled_ttest([0.1, 0.2], 0)
    with pytest.raises(cl.InputError, match="runs x folds"):
        cl.corrected_repeated_cv_ttest([0.1, 0.2])
    # Differences that do not vary leave the t-tests undefined (issue 9), as the paired t-test.
    flat = cl.cv_ttest([0.1, 0.1, 0.1])
    assert np.isnan(flat.pvalue) and flat.statistic == np.inf and "Undefined" in flat.note
    assert np.isnan(cl.cv_ttest([0.0, 0.0]).pvalue)


def _fold_table() -> pd.DataFrame:
    rows = []
    rng = np.random.default_rng(0)
    for dataset, shift in (("d1", 0.05), ("d2", 0.0)):
        for seed in range(4):
            for run in range(5):
                for fold in range(2):
                    base = rng.uniform(0.6, 0.9)
                    rows.append({"dataset": dataset, "classifier": "A", "seed": seed, "run": run, "fold": fold,
                                 "score": base + shift + rng.normal(0, 0.01)})
                    rows.append({"dataset": dataset, "classifier": "B", "seed": seed, "run": run, "fold": fold,
                                 "score": base})
    return pd.DataFrame(rows)


def test_fold_level_tests_5x2cv():
    folds = _fold_table()
    res = cl.fold_level_tests(folds, "A", "B")
    assert set(res["test"]) == {"paired t-test (cv folds)", "corrected repeated cv", "5x2cv (Dietterich)"}
    assert len(res) == 2 * 4 * 3
    one = folds[(folds["dataset"] == "d1") & (folds["seed"] == 2)]
    grid = (one[one.classifier == "A"].set_index(["run", "fold"])["score"]
            - one[one.classifier == "B"].set_index(["run", "fold"])["score"]).unstack().to_numpy()
    direct = cl.dietterich_5x2cv_ttest(grid)
    row = res[(res.dataset == "d1") & (res.seed == 2) & (res.test == "5x2cv (Dietterich)")].iloc[0]
    assert row["p"] == pytest.approx(direct.pvalue)
    rep = cl.fold_replicability(res)
    assert set(rep["test"]) == set(res["test"]) and (rep["repetitions"] == 4).all() and (rep["datasets"] == 2).all()


def test_fold_level_tests_subsampling_needs_a_ratio():
    folds = _fold_table().drop(columns="fold")
    folds = folds.groupby(["dataset", "classifier", "seed", "run"], as_index=False)["score"].mean()
    res = cl.fold_level_tests(folds, "A", "B")
    assert set(res["test"]) == {"resampled t-test"}
    res = cl.fold_level_tests(folds, "A", "B", test_train_ratio=0.25)
    assert set(res["test"]) == {"resampled t-test", "corrected resampled t-test"}
    assert (res["scheme"] == "5 random splits").all()


def test_fold_level_ratio_from_train_test_sizes():
    folds = cl.load_scores(SAMPLES / "fold_level_example.csv", higher_is_better=True).folds
    res = cl.fold_level_tests(folds, "naive Bayes", "k-NN")
    sub = res[res["scheme"] == "subsampling 20 x 10%"]
    assert set(sub["test"]) == {"resampled t-test", "corrected resampled t-test"}
    assert set(res["scheme"]) == {"5x2cv", "10-fold cv", "subsampling 20 x 10%"}
    rep = cl.fold_replicability(res)
    assert (rep["repetitions"] == 10).all() and (rep["datasets"] == 6).all()
    assert rep["R"].between(0.5, 1).all()


def test_fold_level_errors():
    folds = _fold_table()
    with pytest.raises(cl.InputError, match="'C' is not in"):
        cl.fold_level_tests(folds, "A", "C")
    broken = folds.drop(index=folds[(folds.classifier == "B") & (folds.run == 1) & (folds.seed == 0)].index)
    # Issue 19 changed this: B's missing run no longer blocks the pair; its splits are left out and named.
    notes = cl.fold_level_tests(broken, "A", "B").attrs["notes"]
    assert "have a score for only one of A and B and were left out" in notes[0] and "seed 0 / run 1" in notes[0]
    with pytest.raises(cl.InputError, match="needs a 'score' column"):
        cl.fold_level_tests(folds.drop(columns="score"), "A", "B")


def test_a_split_one_classifier_lacks_is_left_out_with_a_note():
    """Issue 19: one missing fold out of 90 no longer blocks a pair; the split and the rest of its run are
    left out and named."""
    folds = cl.load_scores(SAMPLES / "fold_level_example.csv", layout="long", higher_is_better=True).folds
    a, b = "decision tree", "k-NN"
    lost = folds.index[(folds["classifier"] == a) & (folds["dataset"] == "breast cancer")][1]  # seed 0, fold 1
    gappy = folds.drop(index=[lost])
    full = cl.fold_level_tests(folds, a, b)
    with_gap = cl.fold_level_tests(gappy, a, b)
    notes = with_gap.attrs["notes"]
    assert len(notes) == 2
    assert "1 split(s) have a score for only one of decision tree and k-NN" in notes[0]
    assert "breast cancer / seed 0 / run 0 / fold 1" in notes[0]
    assert "run(s) 0 lack a fold" in notes[1]
    # The seed that lost its only run is gone; every other (data set, seed) is exactly as before.
    key = ["dataset", "scheme", "seed", "test"]
    merged = full.merge(with_gap, on=key, suffixes=("", "_gap"))
    assert len(merged) == len(full) - 2 == len(with_gap)
    assert (merged["p"] == merged["p_gap"]).all()
    scheme = folds.loc[lost, "scheme"]
    gone = (with_gap["dataset"] == "breast cancer") & (with_gap["seed"] == 0) & (with_gap["scheme"] == scheme)
    assert not gone.any() and ((full["dataset"] == "breast cancer") & (full["seed"] == 0)
                               & (full["scheme"] == scheme)).sum() == 2
    assert cl.bayesian_fold_tests(gappy, a, b, rope=0.01).attrs["notes"] == notes


def test_classifiers_never_on_the_same_splits_are_refused():
    folds = cl.load_scores(SAMPLES / "fold_level_example.csv", layout="long", higher_is_better=True).folds
    only_a = folds[~((folds["classifier"] == "k-NN") & folds["dataset"].isin(folds["dataset"].unique()))]
    only_a = pd.concat([only_a, folds[folds["classifier"] == "k-NN"].assign(seed=lambda f: f["seed"] + 1000)])
    with pytest.raises(cl.InputError, match="never run on the same folds"):
        cl.fold_level_tests(only_a, "decision tree", "k-NN")
