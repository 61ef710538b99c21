"""Post-hoc tables: structure, consistency between procedures, groups, bad choices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import compare_lib as cl

from .strategies import score_tables


def test_posthoc_columns_and_attrs(demsar):
    res = cl.posthoc(demsar, "wilcoxon", "holm")
    assert list(res.columns) == ["a", "b", "statistic", "p", "p_adj", "reject", "better", "mean_rank_a", "mean_rank_b"]
    assert len(res) == 6
    assert res["p"].is_monotonic_increasing
    assert res.attrs["test"] == "wilcoxon" and res.attrs["correction"] == "holm"
    assert res.attrs["k"] == 4 and res.attrs["n"] == 14 and res.attrs["cd"] is None
    assert set(res.attrs["mean_ranks"]) == set(demsar.classifiers)


def test_wilcoxon_and_sign_rows_are_the_two_classifier_tests(demsar):
    s = demsar.scores
    w = cl.posthoc(demsar, "wilcoxon", "bonferroni")
    row = w[(w["a"] == "C4.5") & (w["b"] == "C4.5+m")].iloc[0]
    direct = cl.wilcoxon(s["C4.5"], s["C4.5+m"])
    assert (row["statistic"], row["p"]) == (direct.statistic, direct.pvalue)
    assert row["better"] == "C4.5+m"
    assert row["p_adj"] == pytest.approx(min(1, 6 * direct.pvalue))
    sg = cl.posthoc(demsar, "sign", "bonferroni")
    row = sg[(sg["a"] == "C4.5") & (sg["b"] == "C4.5+m")].iloc[0]
    assert row["statistic"] == 3  # C4.5 wins 2 and gets one of the two ties
    assert row["p"] == pytest.approx(cl.sign_test(s["C4.5"], s["C4.5+m"]).pvalue)


def test_nemenyi_matches_its_critical_difference(garcia):
    for alpha in (0.01, 0.05, 0.1):
        res = cl.posthoc(garcia, "mean-ranks", "nemenyi", alpha=alpha)
        cd = cl.critical_difference(5, 30, alpha)
        diff = (res["mean_rank_a"] - res["mean_rank_b"]).abs()
        assert (res["reject"] == (diff >= cd)).all()


def test_bonferroni_dunn_matches_its_critical_difference(garcia):
    res = cl.posthoc(garcia, "mean-ranks", "bonferroni-dunn", control="Kernel")
    diff = (res["mean_rank_a"] - res["mean_rank_b"]).abs()
    assert (res["reject"] == (diff >= res.attrs["cd"])).all()


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(test="t-test"), "test='t-test'"),
        (dict(correction="nemenyi", test="wilcoxon"), "mean-ranks statistic only"),
        (dict(correction="shaffer", control="C4.5"), "not defined for comparisons with a control"),
        (dict(correction="bonferroni-dunn"), "not defined for all pairwise"),
        (dict(correction="holm", control="J48"), "control 'J48' is not among"),
        (dict(alpha=0), "alpha"),
        (dict(correction="sidak"), "Unknown procedure"),
    ],
)
def test_bad_choices(demsar, kwargs, message):
    with pytest.raises(cl.InputError, match=message):
        cl.posthoc(demsar, **kwargs)


def test_groups_refuse_control_results(demsar):
    with pytest.raises(cl.InputError, match="control"):
        cl.groups(cl.posthoc(demsar, "mean-ranks", "holm", control="C4.5"))


def test_apv_table_layout(garcia):
    table = cl.apv_table(garcia)
    assert list(table.columns) == ["a", "b", "statistic", "p", "nemenyi", "bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer", "bergmann-hommel", "bergmann-hommel-closed"]
    wil = cl.apv_table(garcia, test="wilcoxon")
    assert "nemenyi" not in wil.columns
    ctrl = cl.apv_table(garcia, control="C4.5")
    assert list(ctrl.columns[4:]) == ["bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "rom", "li"]


@settings(max_examples=60, deadline=None)
@given(score_tables(min_k=3, max_k=7))
def test_groups_never_contradict_the_decisions(table):
    for correction in ("nemenyi", "holm", "bergmann-hommel"):
        res = cl.posthoc(table, "mean-ranks", correction, alpha=0.1)
        groups = cl.groups(res)
        rejected = {frozenset((a, b)) for a, b, r in zip(res["a"], res["b"], res["reject"]) if r}
        for g in groups:
            assert not any(frozenset(p) in rejected for p in _pairs(g))
        # A rejected pair never shares a group; every classifier is in some group.
        together = {frozenset(p) for g in groups for p in _pairs(g)}
        assert not (rejected & together)
        assert set().union(*map(set, groups)) == set(table.classifiers)
        # A group holds every classifier whose mean rank lies in its span, and none contains another.
        ranks = res.attrs["mean_ranks"]
        spans = [(ranks[g[0]], ranks[g[-1]]) for g in groups]
        for (lo, hi), g in zip(spans, groups):
            if len(g) > 1:
                assert set(g) == {c for c, r in ranks.items() if lo <= r <= hi}
        assert all(not (set(g1) < set(g2)) for g1 in groups for g2 in groups)


def _pairs(group):
    return [(group[i], group[j]) for i in range(len(group)) for j in range(i + 1, len(group))]


# -- issue 9: exact ties, order-free groups ----------------------------------------------------------

TIE_TABLE = np.array([
    [3, 2, 2, 1, 1, 0], [0, 0, 0, 3, 2, 3], [2, 2, 3, 2, 2, 2], [2, 3, 1, 3, 2, 0], [1, 3, 2, 0, 3, 2],
    [3, 0, 0, 3, 0, 2], [0, 1, 1, 1, 1, 0], [0, 0, 0, 2, 2, 2], [1, 2, 3, 1, 1, 3], [3, 3, 1, 2, 3, 2],
    [3, 2, 2, 1, 3, 0], [2, 2, 3, 2, 1, 1], [1, 1, 2, 3, 0, 3], [2, 1, 2, 2, 1, 1],
], dtype=float)


def test_equal_rank_sum_differences_give_identical_statistics():
    """With float mean ranks, two pairs whose rank sums differ by 4/2 got |z| 0.20203050891044205 and
    ...266; the statistic now comes from integer rank sums, so they are bit-identical (and so are p and
    every APV, whatever the procedure)."""
    t = cl.as_table(TIE_TABLE, higher_is_better=True)
    sums = t.doubled_rank_sums
    for correction in ("nemenyi", "holm", "shaffer", "bergmann-hommel", "bergmann-hommel-closed", "hommel"):
        res = cl.posthoc(t, "mean-ranks", correction)
        diff = [abs(int(sums[a]) - int(sums[b])) for a, b in zip(res["a"], res["b"])]
        by_diff: dict[int, set] = {}
        for d, z, p, apv in zip(diff, res["statistic"].abs(), res["p"], res["p_adj"]):
            by_diff.setdefault(d, set()).add((z, p, apv))
        assert all(len(v) == 1 for v in by_diff.values()), correction
    # The doubled rank sums are exact integers that add up to N k (k + 1).
    assert sums.dtype.kind == "i" and int(sums.sum()) == 14 * 6 * 7


def test_groups_do_not_depend_on_the_order_of_tied_classifiers():
    """Issue 9: A and B tie at 2.2; with columns C, A, B the old rule gave [(C, A), (A, B)] and with
    C, B, A [(C,), (B, A)]. Classifiers at one mean rank now join or leave a group together."""
    import itertools

    # Sign test, Holm: C vs B rejected, C vs A not; A and B tie in mean rank.
    mean_ranks = {"C": 1.6, "A": 2.2, "B": 2.2}
    for order in itertools.permutations(mean_ranks):
        ranks = {name: mean_ranks[name] for name in order}
        assert cl.not_different_groups(ranks, [("C", "B")]) == [("C",), ("A", "B")]
        assert cl.not_different_groups(ranks, [("B", "C")]) == [("C",), ("A", "B")]
    # Through posthoc on a real table with tied mean ranks, every column order gives the same groups.
    rng = np.random.default_rng(5)
    for _ in range(20):
        values = rng.integers(0, 3, size=(10, 5)).astype(float)
        t = cl.as_table(values, higher_is_better=True)
        expected = None
        for cols in itertools.permutations(t.classifiers):
            got = cl.groups(cl.posthoc(t.subset(list(cols)), "sign", "holm", alpha=0.3))
            expected = expected or got
            assert got == expected


def test_groups_with_a_rejected_pair_inside_a_tie():
    assert cl.not_different_groups({"C": 1.6, "A": 2.2, "B": 2.2, "D": 3.0}, [("A", "B")]) == [
        ("C",), ("A",), ("B",), ("D",)
    ]
    assert cl.not_different_groups({"C": 1.6, "A": 2.2, "B": 2.2, "D": 3.0}, [("C", "D")]) == [
        ("C", "A", "B"), ("A", "B", "D")
    ]


def test_groups_on_many_classifiers_match_a_direct_definition():
    """The interval rule against a brute force over every pair of levels (k = 200, many rejections)."""
    rng = np.random.default_rng(0)
    k = 200
    ranks = {f"c{i}": float(rng.integers(0, 120)) / 4 for i in range(k)}  # many ties
    names = list(ranks)
    pairs = [(names[i], names[j]) for i, j in rng.integers(0, k, size=(300, 2)) if abs(ranks[names[i]] - ranks[names[j]]) > 3]
    got = cl.not_different_groups(ranks, pairs)
    levels = sorted(set(ranks.values()))
    bad = {frozenset(p) for p in pairs}
    free = []
    for i, lo in enumerate(levels):
        for hi in levels[i:]:
            members = {c for c, r in ranks.items() if lo <= r <= hi}
            if not any(frozenset((x, y)) in bad for x in members for y in members if x < y):
                free.append(members)
    maximal = [m for m in free if not any(m < other for other in free)]
    assert {frozenset(g) for g in got if len(g) > 1} == {frozenset(m) for m in maximal if len(m) > 1}
