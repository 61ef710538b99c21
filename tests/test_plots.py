"""CD diagrams and other figures: what is drawn agrees with the post-hoc decisions."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

import compare_lib as cl
from compare_lib.plots import cd_diagram, cd_layout

from .strategies import score_tables


def _drawn_groups(fig) -> list[frozenset]:
    return [frozenset(tr.meta) for tr in fig.data if tr.name == "group"]


def test_demsar_nemenyi_010_groups_and_cd_drawn(demsar):
    """Demšar §3.2.4, Figure 1a: at alpha .10 two groups and CD = 1.12."""
    res = cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.10)
    fig = cd_diagram(res)
    assert set(_drawn_groups(fig)) == {
        frozenset({"C4.5", "C4.5+cf"}),
        frozenset({"C4.5+cf", "C4.5+m", "C4.5+m+cf"}),
    }
    cd_traces = [tr for tr in fig.data if tr.name == "cd"]
    assert len(cd_traces) == 1 and round(cd_traces[0].meta, 2) == 1.12
    assert abs(abs(cd_traces[0].x[0] - cd_traces[0].x[1]) - 1.118) < 1e-3
    assert any("CD = 1.118" in a.text for a in fig.layout.annotations)


def test_demsar_nemenyi_005_single_group(demsar):
    res = cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.05)
    assert _drawn_groups(cd_diagram(res)) == [frozenset(demsar.classifiers)]
    assert round(res.attrs["cd"], 2) == 1.25
    assert res.attrs["cd"] > demsar.mean_ranks.max() - demsar.mean_ranks.min()


def test_demsar_bonferroni_dunn_control_interval(demsar):
    """Demšar Figure 1b: the interval is 1.168 on each side of C4.5; only C4.5+m+cf lies outside it."""
    res = cl.posthoc(demsar, "mean-ranks", "bonferroni-dunn", control="C4.5", alpha=0.05)
    lay = cd_layout(res)
    rc = demsar.mean_ranks["C4.5"]
    lo, hi = lay.control_interval
    assert round(rc - lo, 3) == 1.168 and round(hi - rc, 3) == 1.168
    outside = {ln.name for ln in lay.lines if not lo <= ln.mean_rank <= hi}
    assert outside == {"C4.5+m+cf"}
    assert lay.different_from_control == ("C4.5+m+cf",)
    fig = cd_diagram(res)
    band = [tr for tr in fig.data if tr.name == "control interval"]
    assert len(band) == 1 and np.allclose(band[0].meta, [lo, hi])
    assert not _drawn_groups(fig)


def test_control_with_holm_marks_rejections_without_a_cd(demsar):
    res = cl.posthoc(demsar, "mean-ranks", "holm", control="C4.5")
    lay = cd_layout(res)
    assert lay.control_interval is None
    assert set(lay.different_from_control) == {"C4.5+m+cf", "C4.5+m"}


def test_garcia_bergmann_hommel_groups(garcia):
    """García & Herrera §2.2: best C4.5 and NaiveBayes; middle 1-NN and CN2; worst Kernel (alone)."""
    res = cl.posthoc(garcia, "mean-ranks", "bergmann-hommel", alpha=0.05)
    assert set(_drawn_groups(cd_diagram(res))) == {frozenset({"C4.5", "NaiveBayes"}), frozenset({"1-NN", "CN2"})}
    lay = cd_layout(res)
    by_name = {ln.name: ln for ln in lay.lines}
    assert by_name["Kernel"].side == "left" and by_name["C4.5"].side == "right"


@settings(max_examples=60, deadline=None)
@given(score_tables(min_k=2, max_k=9))
def test_bars_never_contradict_the_decisions(table):
    for test, correction in (("mean-ranks", "nemenyi"), ("wilcoxon", "holm"), ("mean-ranks", "shaffer")):
        res = cl.posthoc(table, test, correction, alpha=0.1)
        drawn = _drawn_groups(cd_diagram(res))
        rejected = [frozenset((a, b)) for a, b, r in zip(res["a"], res["b"], res["reject"]) if r]
        for pair in rejected:
            assert not any(pair <= bar for bar in drawn), (pair, drawn)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 20, 30])
def test_labels_never_overlap_or_cross(k):
    rng = np.random.default_rng(k)
    names = [f"classifier number {i} with a long name" if i % 4 == 0 else f"C{i}" for i in range(k)]
    table = cl.ScoreTable(pd.DataFrame(rng.normal(size=(25, k)), columns=names), True)
    res = cl.posthoc(table, "mean-ranks", "holm")
    lay = cd_layout(res)
    assert sorted(ln.name for ln in lay.lines) == sorted(names)
    for side in ("left", "right"):
        lines = [ln for ln in lay.lines if ln.side == side]
        assert sorted(ln.level for ln in lines) == list(range(len(lines)))  # one label per line
        # The classifier nearer the axis end gets the line nearer the axis: elbows never cross.
        by_level = sorted(lines, key=lambda ln: ln.level)
        ranks = [ln.mean_rank for ln in by_level]
        assert ranks == (sorted(ranks) if side == "right" else sorted(ranks, reverse=True))
    fig = cd_diagram(res)
    name_ys = sorted(a.y for a in fig.layout.annotations if not a.text.startswith("CD"))
    left_right = [a for a in fig.layout.annotations if not a.text.startswith("CD")]
    for side_anchor in ("left", "right"):
        ys = sorted(a.y for a in left_right if a.xanchor == side_anchor)
        assert all(b - a >= 20 for a, b in zip(ys, ys[1:]))
    assert len(name_ys) == k
    # Bars in one row never overlap.
    rows: dict[int, list] = {}
    for bar in lay.bars:
        rows.setdefault(bar.row, []).append((bar.low, bar.high))
    for spans in rows.values():
        spans.sort()
        assert all(a[1] < b[0] for a, b in zip(spans, spans[1:]))


def test_long_names_are_shortened_with_full_name_on_hover():
    names = ["x" * 80, "short", "y" * 60]
    table = cl.ScoreTable(pd.DataFrame(np.arange(15.0).reshape(5, 3), columns=names), True)
    fig = cd_diagram(cl.posthoc(table, "sign", "holm"))
    texts = [a.text for a in fig.layout.annotations]
    assert any("…" in t for t in texts)
    assert {a.hovertext for a in fig.layout.annotations if a.hovertext} == {"x" * 80, "y" * 60}


def test_apv_heatmap_is_symmetric(garcia):
    res = cl.posthoc(garcia, "wilcoxon", "holm")
    z = np.array(cl.plots.apv_heatmap(res).data[0].z, dtype=float)
    assert np.allclose(np.nan_to_num(z), np.nan_to_num(z.T))
    assert np.isnan(np.diag(z)).all()


def test_html_export_is_self_contained(demsar):
    html = cl.plots.figure_html(cd_diagram(cl.posthoc(demsar))).decode()
    assert "<html" in html and "Plotly.newPlot" in html or "plotly" in html.lower()
    assert 'src="https://cdn.plot.ly' not in html
    assert len(html) > 1_000_000  # plotly.js embedded


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() and os.environ.get("REQUIRE_BROWSER") != "1",
                    reason="kaleido needs chromium")
def test_static_export(demsar):
    fig = cd_diagram(cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.1))
    png = cl.plots.figure_image(fig, "png")
    svg = cl.plots.figure_image(fig, "svg")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg[:500] and b"CD = 1.118" in svg


def test_selection_figure_is_small_multiples_without_twin_or_reversed_axes(benavoli):
    """Issue 10: one panel per quantity, one colour per test, no second y-axis, no reversed axis."""
    res = cl.selection_experiment(benavoli, "C2", "C4", biases=[0, 10], samples=60, seed=1,
                                  tests=["Wilcoxon", "sign test", "t-test"])
    fig = cl.plots.selection_figure(res, ["Wilcoxon", "sign test", "t-test"], title="Two classifiers")
    spec = fig.to_plotly_json()["layout"]
    yaxes = [k for k in spec if k.startswith("yaxis")]
    assert len(yaxes) == 4
    assert not any(spec[k].get("overlaying") or spec[k].get("autorange") == "reversed" for k in yaxes)
    assert [a["text"] for a in spec["annotations"]][:4] == ["Rejections (of 60 samples)", "R(e): will the verdict repeat?",
                                                          "Mean p-value", "R(p) = 1 − 2 var(p)"]
    colours = {}
    for trace in fig.data:
        colours.setdefault(trace.legendgroup, set()).add(trace.line.color)
    assert all(len(c) == 1 for c in colours.values()) and len({next(iter(c)) for c in colours.values()}) == 3
    assert sum(t.showlegend for t in fig.data) == 3  # one legend entry per test


def test_fold_pvalues_figure_names_its_scheme():
    folds = cl.run_experiment(["naive Bayes", "k-NN"], ["iris"], schemes=["5x2cv", "3-fold cv"], seeds=range(2),
                              n_jobs=1)
    res = cl.fold_level_tests(folds, "naive Bayes", "k-NN")
    fig = cl.plots.fold_pvalues_figure(res, "paired t-test (cv folds)", "3-fold cv")
    assert "3-fold cv" in fig.layout.title.text
    with pytest.raises(cl.InputError, match="no results for the scheme"):
        cl.plots.fold_pvalues_figure(res, "5x2cv (Dietterich)", "3-fold cv")
