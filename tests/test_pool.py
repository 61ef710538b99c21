"""Pool sensitivity (Benavoli, Corani & Mangili 2016): published counts, exactness, consistency."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compare_lib as cl

from .strategies import score_tables


def test_benavoli_table1(benavoli):
    """Benavoli et al. Table 1: pools {Ca, Cb} plus 2, 3 and 4 others among the 7 classifiers."""
    dep = cl.pool_dependence(benavoli, 0.05, sizes=(4, 5, 6))
    table = {(row["a"], row["b"]): [row["2 others"], row["3 others"], row["4 others"]] for _, row in dep.iterrows()}
    assert table == {
        ("C2", "C4"): ["7/10", "9/10", "3/5"],
        ("C2", "C7"): ["1/10", "-", "-"],
        ("C3", "C7"): ["2/10", "-", "-"],
        ("C4", "C6"): ["9/10", "5/10", "-"],
    }
    assert dep["full pool"].tolist() == ["reject", "retain", "retain", "retain"]


def test_benavoli_table1_also_when_friedman_must_reject(benavoli):
    for (a, b), expected in {("C2", "C4"): (7, 9, 3), ("C4", "C6"): (9, 5, 0)}.items():
        frame = cl.pool_sensitivity(benavoli, a, b, require_friedman=True)
        counts = frame.groupby("size")["reject"].sum()
        assert (counts[4], counts[5], counts[6]) == expected


def test_benavoli_example3_pools(benavoli):
    """z(C2, C4) = 3.06 in {C1..C4} (significant, z* = 2.64) and 2.46 in {C1, C2, C4, C5} (not)."""
    frame = cl.pool_sensitivity(benavoli, "C2", "C4").set_index("pool")
    first = frame.loc[[("C1", "C2", "C3", "C4")]].iloc[0]
    second = frame.loc[[("C1", "C2", "C4", "C5")]].iloc[0]
    assert round(abs(first["z"]), 2) == 3.06 and first["reject"] and round(first["critical"], 2) == 2.64
    assert round(abs(second["z"]), 2) == 2.46 and not second["reject"]


def test_benavoli_example1(benavoli_example1):
    frame = cl.pool_sensitivity(benavoli_example1, "A", "B")
    assert frame["pool"].iloc[0] == ("A", "B") and not frame["reject"].iloc[0]
    assert frame["pool"].iloc[-1] == ("A", "B", "C", "D", "E") and frame["reject"].iloc[-1]
    assert frame["mean_rank_a"].iloc[-1] == 4.0 and frame["mean_rank_b"].iloc[-1] == 2.5


def test_benavoli_example2_power():
    """Benavoli et al. §4.2: power 0.94 for the sign test and 0.046 for mean ranks (Monte Carlo)."""
    sim = cl.pool_power_simulation(reps=6000, seed=1).set_index("test")
    assert abs(sim.loc["sign test", "power"] - 0.94) < 3 * sim.loc["sign test", "std_error"] + 0.005
    assert abs(sim.loc["mean-ranks z", "power"] - 0.046) < 3 * sim.loc["mean-ranks z", "std_error"] + 0.005
    assert sim.loc["Wilcoxon signed-ranks", "power"] > sim.loc["sign test", "power"]
    again = cl.pool_power_simulation(reps=6000, seed=1, chunk=1000)
    assert again["rejections"].tolist() == sim["rejections"].tolist()  # seeded, chunking does not matter


@settings(max_examples=40, deadline=None)
@given(score_tables(min_k=3, max_k=7, min_n=3, max_n=15), st.sampled_from(["bonferroni", "nemenyi"]),
       st.sampled_from([0.01, 0.05, 0.1]))
def test_counts_without_listing_equal_the_enumeration(table, procedure, alpha):
    a, b = table.classifiers[:2]
    counts = cl.pool_counts(table, a, b, alpha, procedure=procedure).set_index("size")
    frame = cl.pool_sensitivity(table, a, b, alpha, procedure=procedure)
    by_size = frame.groupby("size")["reject"].agg(["count", "sum"])
    assert counts["pools"].tolist() == by_size["count"].tolist()
    assert counts["rejections"].tolist() == by_size["sum"].tolist()


@settings(max_examples=30, deadline=None)
@given(score_tables(min_k=3, max_k=6, min_n=3, max_n=15), st.sampled_from(["bonferroni", "nemenyi", "holm"]))
def test_every_pool_agrees_with_reranking_and_posthoc(table, procedure):
    """Independent computation: re-rank each pool with ScoreTable.subset and run posthoc() on it."""
    a, b = table.classifiers[:2]
    frame = cl.pool_sensitivity(table, a, b, 0.05, procedure=procedure)
    for row in frame.itertuples():
        sub = table.subset(list(row.pool))
        assert row.mean_rank_a == pytest.approx(sub.mean_ranks[a]) and row.mean_rank_b == pytest.approx(sub.mean_ranks[b])
        res = cl.posthoc(sub, "mean-ranks", procedure)
        verdict = bool(res[(res["a"] == a) & (res["b"] == b)]["reject"].iloc[0])
        if abs(abs(row.z) - row.critical) > 1e-9 or procedure == "holm":
            assert verdict == row.reject, (row.pool, row.z, row.critical)


def test_sensitivity_matrix_matches_enumeration(garcia, benavoli):
    for t in (garcia, benavoli):
        matrix = cl.pool_sensitivity_matrix(t)
        assert np.allclose(matrix.to_numpy(), matrix.to_numpy().T) and np.all(np.diag(matrix) == 0)
        for a, b in itertools.combinations(t.classifiers, 2):
            frame = cl.pool_sensitivity(t, a, b)
            full = frame["reject"].iloc[-1]
            assert matrix.loc[a, b] == pytest.approx((frame["reject"] != full).mean())


def test_large_pools_are_counted_not_listed():
    rng = np.random.default_rng(5)
    k = 26
    t = cl.ScoreTable(pd.DataFrame(rng.normal(size=(30, k)) + np.linspace(0, 1.5, k)), True)
    counts = cl.pool_counts(t, t.classifiers[0], t.classifiers[-1])
    assert counts["pools"].sum() == 2 ** (k - 2)
    assert counts["rejections"].iloc[-1] in (0, 1)
    with pytest.raises(cl.InputError, match="count them exactly"):
        cl.pool_sensitivity(t, t.classifiers[0], t.classifiers[1])


def test_smallest_flip(benavoli):
    frame = cl.pool_sensitivity(benavoli, "C2", "C4")
    flips = cl.smallest_flip(frame, benavoli.classifiers)
    assert set(flips["removed"]) == {("C3",), ("C6",)} and set(flips["added"]) == {()}
    assert (flips["changes"] == 1).all() and not flips["reject"].any()
    never = cl.smallest_flip(cl.pool_sensitivity(benavoli, "C1", "C5"), benavoli.classifiers)
    assert never.empty


def test_pool_verdicts_wilcoxon_and_sign_do_not_move(benavoli):
    ver = cl.pool_verdicts(benavoli, ["C1", "C2", "C4", "C5"])
    full = cl.pool_verdicts(benavoli)
    merged = ver.merge(full, on=["a", "b"], suffixes=("", "_f"))
    assert np.allclose(merged["p_wilcoxon"], merged["p_wilcoxon_f"])
    assert np.allclose(merged["p_sign"], merged["p_sign_f"])
    row = ver[(ver["a"] == "C2") & (ver["b"] == "C4")].iloc[0]
    assert round(abs(row["z_mean_ranks"]), 2) == 2.46 and not row["reject_mean_ranks"]
    assert row["reject_mean_ranks_full"] and row["changed_mean_ranks"]


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda t: cl.pool_sensitivity(t, "C1", "C1"), "two different"),
        (lambda t: cl.pool_counts(t, "C1", "J48"), "'J48' is not among"),
        (lambda t: cl.pool_sensitivity(t, "C1", "C2", procedure="tukey"), "procedure"),
        (lambda t: cl.pool_sensitivity_matrix(t, procedure="holm"), "Holm needs"),
        (lambda t: cl.pool_verdicts(t, ["C1"]), "at least 2"),
        (lambda t: cl.pool_power_simulation((0.0,)), "at least two"),
    ],
)
def test_bad_input(benavoli, call, message):
    with pytest.raises(cl.InputError, match=message):
        call(benavoli)
