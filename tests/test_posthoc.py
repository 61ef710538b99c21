"""Post-hoc tables: structure, consistency between procedures, groups, bad choices."""

from __future__ import annotations

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
    assert list(table.columns) == ["a", "b", "statistic", "p", "nemenyi", "bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann-hommel"]
    wil = cl.apv_table(garcia, test="wilcoxon")
    assert "nemenyi" not in wil.columns
    ctrl = cl.apv_table(garcia, control="C4.5")
    assert list(ctrl.columns[4:]) == ["bonferroni-dunn", "holm", "hochberg", "hommel"]


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
        # Groups are contiguous in mean-rank order and none contains another.
        order = sorted(res.attrs["mean_ranks"], key=res.attrs["mean_ranks"].get)
        spans = [(order.index(g[0]), order.index(g[-1])) for g in groups]
        assert all(e - s + 1 == len(g) for (s, e), g in zip(spans, groups))
        assert all(not (s2 <= s1 and e1 <= e2) for i, (s1, e1) in enumerate(spans) for j, (s2, e2) in enumerate(spans) if i != j)


def _pairs(group):
    return [(group[i], group[j]) for i in range(len(group)) for j in range(i + 1, len(group))]
