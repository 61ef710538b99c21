"""Replicability measures (Bouckaert & Frank 2004; Demšar 2006 §4) and the data-set-selection experiment."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compare_lib as cl
from compare_lib.stats._two_classifiers import paired_t_rows, sign_test_rows, wilcoxon_rows
import importlib

# The module shares its name with the function cl.replicability, so fetch the module itself.
rp = importlib.import_module("compare_lib.analyses._replicability")

from .conftest import SAMPLES


def test_bouckaert_frank_table1():
    """Bouckaert & Frank Table 1 (5x2cv, 27 data sets, 10 repetitions): consistent 9, 12, 13; almost consistent
    14, 17, 17; R = 0.737, 0.783, 0.816."""
    draws = pd.read_csv(SAMPLES / "bouckaert_frank2004_table1_5x2cv_draws.csv")
    cols = ["draws_NB_vs_C4.5", "draws_NB_vs_NN", "draws_C4.5_vs_NN"]
    results = []
    for col in cols:
        outcomes = np.array([[i < 10 - d for i in range(10)] for d in draws[col]])  # True = rejected
        results.append(cl.replicability(outcomes))
        assert cl.replicability_counts(10 - draws[col].to_numpy(), 10) == results[-1]
    assert [r.consistent for r in results] == [9, 12, 13]
    assert [r.almost_consistent for r in results] == [14, 17, 17]
    assert [round(r.R, 3) for r in results] == [0.737, 0.783, 0.816]
    assert all(r.n_datasets == 27 and r.n_repetitions == 10 for r in results)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=60))
def test_r_e_is_one_minus_twice_the_variance(outcomes):
    """Demšar §4.1.2: R(e) = 1 - 2 var(e) with the n-1 denominator; R(e) in [~0.5, 1]."""
    e = np.array(outcomes, dtype=float)
    assert cl.replicability_e(outcomes) == pytest.approx(1 - 2 * e.var(ddof=1), abs=1e-12)
    assert cl.replicability_p(e) == pytest.approx(cl.replicability_e(outcomes), abs=1e-12)
    n = len(outcomes)
    assert cl.replicability_e(outcomes) >= 0.5 - 0.5 / (n - 1) - 1e-12  # the bound is 0.5 as n grows
    assert cl.replicability_e(outcomes) <= 1


def test_r_e_bounds():
    assert cl.replicability_e([True] * 10) == 1.0
    assert cl.replicability_e([False] * 10) == 1.0
    half = [True] * 5 + [False] * 5
    assert cl.replicability_e(half) == pytest.approx((5 * 4 + 5 * 4) / 90)  # the minimum for n = 10
    assert cl.replicability_e([True] * 500 + [False] * 500) == pytest.approx(0.5, abs=1e-3)


def test_r_p():
    assert cl.replicability_p([0.3] * 5) == 1.0
    p = np.array([0.0, 1.0] * 50)
    assert cl.replicability_p(p) == pytest.approx(1 - 2 * p.var(ddof=1))
    assert cl.replicability_p(p) == pytest.approx(0.5, abs=0.01)
    with pytest.raises(cl.InputError):
        cl.replicability_p([0.2])
    with pytest.raises(cl.InputError):
        cl.replicability_p([0.2, 1.5])


def test_replicability_input_errors():
    with pytest.raises(cl.InputError, match="data sets x repetitions"):
        cl.replicability([True, False])
    with pytest.raises(cl.InputError, match="at least 2 repetitions"):
        cl.replicability([[True], [False]])
    with pytest.raises(cl.InputError, match="booleans"):
        cl.replicability([[2, 0], [1, 0]])


# -- vectorized tests against the scalar library functions --------------------------------------------

def test_vectorized_two_classifier_cores_are_the_library_functions():
    """The row cores give bit-identical results to the scalar tests (they are what the scalar tests call)."""
    rng = np.random.default_rng(0)
    d = rng.integers(-3, 4, size=(200, 10)).astype(float)  # ties and zeros
    zeros = np.zeros(10)
    assert wilcoxon_rows(d)["p"].tolist() == [cl.wilcoxon(zeros, row).pvalue for row in d]
    assert sign_test_rows(d)["p"].tolist() == [cl.sign_test(zeros, row).pvalue for row in d]
    cont = d + rng.normal(0, 0.1, d.shape)
    assert paired_t_rows(cont)[1].tolist() == [cl.paired_ttest(zeros, row).pvalue for row in cont]
    big = rng.normal(size=(30, 60))
    assert wilcoxon_rows(big)["p"].tolist() == [cl.wilcoxon(np.zeros(60), row).pvalue for row in big]


def test_vectorized_adjustments_match_the_library():
    rng = np.random.default_rng(1)
    p = rng.uniform(0, 0.2, (150, 6)) ** 2
    from compare_lib.multiple._adjust import hochberg_rows, holm_rows, hommel_rows

    for name, fn in (("holm", holm_rows), ("hochberg", hochberg_rows), ("hommel", hommel_rows)):
        assert np.allclose(fn(p), [cl.adjust(row, name) for row in p], atol=1e-15)


@pytest.mark.parametrize("n_sets", [8, 20, 40])
def test_simulation_gives_each_sample_the_library_p_values(benavoli, n_sets):
    """Issue 9: the experiment and the library give the same p for the same sample, for every test
    (Wilcoxon exact up to 50 data sets in both; Tukey and Dunnett without interpolation or caps)."""
    rng = np.random.default_rng(n_sets)
    idx = np.sort(np.array([rng.choice(benavoli.n_datasets, n_sets, replace=False) for _ in range(6)]), axis=1)
    a, b = "C2", "C4"
    got = rp.sample_pvalues(benavoli, a, b, idx, list(cl.SELECTION_TESTS))
    for s, rows in enumerate(idx):
        sub = benavoli.subset(datasets=[benavoli.datasets[i] for i in rows])
        x, y = sub.scores[b], sub.scores[a]  # the tests' "y" is the classifier whose wins count: a
        expected = {
            "t-test": cl.paired_ttest(x, y).pvalue,
            "t-test (relative)": cl.paired_ttest(x, y, relative=True).pvalue,
            "Wilcoxon": cl.wilcoxon(x, y).pvalue,
            "sign test": cl.sign_test(x, y).pvalue,
            "Friedman": cl.friedman(sub).pvalue,
            "ANOVA": cl.rm_anova(sub).pvalue,
            "Tukey": cl.tukey_hsd(sub).query("a == @a and b == @b")["p"].iloc[0],
            "Dunnett": cl.dunnett(sub, a).query("b == @b")["p"].iloc[0],
        }
        nem = cl.posthoc(sub, "mean-ranks", "nemenyi").query("(a == @a and b == @b) or (a == @b and b == @a)")
        expected["Nemenyi"] = nem["p_adj"].iloc[0]
        for proc, name in (("bonferroni-dunn", "Bonferroni-Dunn"), ("holm", "Holm"), ("hochberg", "Hochberg"),
                           ("hommel", "Hommel")):
            res = cl.posthoc(sub, "mean-ranks", proc, control=a)
            expected[name] = res.query("b == @b")["p_adj"].iloc[0]
        for name, value in expected.items():
            assert got[name][s] == pytest.approx(value, rel=1e-12, abs=1e-300), (name, s)
        assert got["Wilcoxon"][s] == expected["Wilcoxon"]  # the same exact DP: identical bits


def test_selection_counts_undefined_parametric_tests():
    """A table with a constant shift leaves the t-test undefined on every sample: never a rejection, counted."""
    values = np.add.outer(np.linspace(0.5, 0.9, 12), [0.0, 0.25, 0.125])
    t = cl.as_table(values, higher_is_better=True)
    res = cl.selection_experiment(t, "C2", "C1", n_sets=5, biases=[0], samples=50, tests=["t-test", "Wilcoxon", "ANOVA"])
    row = res.set_index("test").loc["t-test"]
    assert row["undefined"] == 50 and row["rejections"] == 0 and np.isnan(row["mean_p"])
    assert res.set_index("test").loc["ANOVA", "undefined"] == 50
    assert res.set_index("test").loc["Wilcoxon", "undefined"] == 0


# -- the experiment ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def selection(benavoli):
    """C2 is the better classifier of the pair, so a larger bias k makes the difference clearer."""
    return cl.selection_experiment(benavoli, "C2", "C4", biases=[0, 5, 10, 15, 20], samples=600, seed=3)


def test_selection_shape_of_demsar_figures(selection):
    rate = selection.pivot(index="bias", columns="test", values="rejections")
    for test in ("t-test", "Wilcoxon", "sign test", "Friedman", "Holm"):
        assert rate[test].iloc[-1] > rate[test].iloc[0], test  # rejections grow with k
    two = rate[["t-test", "t-test (relative)", "Wilcoxon", "sign test"]]
    assert (two["Wilcoxon"] >= two[["t-test", "t-test (relative)"]].max(axis=1) - 10).all()
    assert (two["sign test"] <= two[["t-test", "t-test (relative)", "Wilcoxon"]].min(axis=1) + 10).all()
    assert (rate["Hommel"] >= rate["Holm"]).all() and (rate["Holm"] >= rate["Bonferroni-Dunn"]).all()


def test_selection_columns_and_measures(selection):
    assert set(selection.columns) >= {"bias", "test", "rejections", "rejection_rate", "mean_p", "R_e", "R_p"}
    assert selection["R_e"].between(0.49, 1).all() and selection["R_p"].between(0, 1).all()
    assert set(selection["test"]) == set(cl.SELECTION_TESTS)
    row = selection.iloc[0]
    e = np.array([True] * row["rejections"] + [False] * (600 - row["rejections"]))
    assert row["R_e"] == pytest.approx(cl.replicability_e(e))
    assert selection.attrs["difference_scale"] == 100.0  # Benavoli's accuracies are in percent


def test_selection_is_seeded(benavoli):
    one = cl.selection_experiment(benavoli, "C2", "C4", biases=[0, 10], samples=200, seed=9, tests=["Wilcoxon", "Friedman"])
    two = cl.selection_experiment(benavoli, "C2", "C4", biases=[0, 10], samples=200, seed=9, tests=["Wilcoxon", "Friedman"])
    pd.testing.assert_frame_equal(one, two)


def test_selection_sampling_follows_the_weights():
    """With one strongly favoured data set, every sample contains it at large k."""
    scores = np.column_stack([np.r_[0.9, np.full(29, 0.5)], np.full(30, 0.5)])
    t = cl.ScoreTable(pd.DataFrame(scores, columns=["A", "B"]), True)
    res = cl.selection_experiment(t, "A", "B", n_sets=5, biases=[0, 200], samples=400, tests=["sign test"])
    rates = res.set_index("bias")["rejection_rate"]
    assert rates[0.0] == 0 and rates[200.0] == 0  # one win out of 5 never rejects; the point is no crash


def test_selection_errors(demsar):
    with pytest.raises(cl.InputError, match="more data sets"):
        cl.selection_experiment(demsar, "C4.5", "C4.5+m", n_sets=14)
    with pytest.raises(cl.InputError, match="Unknown test"):
        cl.selection_experiment(demsar, "C4.5", "C4.5+m", tests=["z-test"])
    with pytest.raises(cl.InputError, match="different"):
        cl.selection_experiment(demsar, "C4.5", "C4.5")
