"""Issue 23: the vertical CD diagram for a narrow screen (a phone): every full name, stacked without overlap in
the order of the mean ranks, the same group bars as the horizontal diagram, within 340 px."""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl
from compare_lib.limits import MAX_NAME_CHARS
from compare_lib.plots import cd_diagram, cd_layout
from compare_lib.render import _style

#: Twelve classifiers with long names: spaces, separators, one long word with none, a name needing escapes.
LONG_NAMES = [
    "Random Forest (500 trees, balanced)", "Gradient boosting with early stopping", "LogisticRegressionCV_l2_balanced",
    "k-nearest neighbours k=15", "Support vector machine RBF kernel", "Naive Bayes <Gaussian> & priors",
    "C4.5 decision tree pruned", "HistGradientBoostingClassifier", "AdaBoost SAMME 200 stumps",
    "Extremely randomized trees", "Linear discriminant analysis", "Dummy baseline",
]
COLUMN_PX = 340  # what the vertical diagram must fit (a 360 px phone has a 328 px column)


def twelve() -> cl.ScoreTable:
    rng = np.random.default_rng(23)
    scores = rng.normal(size=(30, 12)) + np.linspace(0, 2.5, 12)
    return cl.ScoreTable(pd.DataFrame(scores, columns=LONG_NAMES), True)


def _results(demsar):
    t12 = twelve()
    return {
        "demsar nemenyi 0.10": cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.10),
        "demsar wilcoxon holm": cl.posthoc(demsar),
        "demsar bonferroni-dunn": cl.posthoc(demsar, "mean-ranks", "bonferroni-dunn", control="C4.5"),
        "twelve nemenyi": cl.posthoc(t12, "mean-ranks", "nemenyi"),
        "twelve wilcoxon holm": cl.posthoc(t12),
        "twelve shaffer": cl.posthoc(t12, "mean-ranks", "shaffer", alpha=0.1),
        "twelve holm vs control": cl.posthoc(t12, "mean-ranks", "holm", control="Dummy baseline"),
    }


@pytest.fixture(scope="module")
def cases(demsar):
    return _results(demsar)


CASES = ["demsar nemenyi 0.10", "demsar wilcoxon holm", "demsar bonferroni-dunn", "twelve nemenyi",
         "twelve wilcoxon holm", "twelve shaffer", "twelve holm vs control"]


def _names(fig) -> list:
    return [a for a in fig.layout.annotations if not a.text.startswith("CD = ")]


def _shown(text: str) -> str:
    """What a name annotation reads, without its mean rank, its tags and the line breaks (spaces dropped)."""
    text = re.sub(r"<span style='font-size:\d+px'>\([0-9.]+\)</span>", "", text)
    text = re.sub(r"</?b>|<br>", "", text)
    return re.sub(r"\s+", "", html.unescape(text))


def _lines(text: str) -> int:
    return text.count("<br>") + 1


def _px(fig, rank_gap: float) -> float:
    return rank_gap * fig.layout.meta["px_per_rank"]


@pytest.mark.parametrize("case", CASES)
def test_vertical_diagram_geometry(cases, case):
    res = cases[case]
    lay = cd_layout(res)
    fig = cd_diagram(res, orientation="vertical")
    meta = fig.layout.meta
    assert meta["orientation"] == "vertical"

    # Every name in full (none here is longer than MAX_NAME_CHARS), once.
    names = _names(fig)
    assert len(names) == lay.k
    ranks = res.attrs["mean_ranks"]
    by_rank = sorted(ranks, key=lambda n: (ranks[n], n))
    assert [_shown(a.text) for a in names] == [re.sub(r"\s+", "", n) for n in by_rank]
    assert all(a.hovertext is None for a in names)  # nothing shortened
    for a, name in zip(names, by_rank):
        assert f"({ranks[name]:.2f})" in a.text
        tags = r"</?b>|<br>|<span style='font-size:\d+px'>|</span>"
        assert not re.search("[<>]", re.sub(tags, "", a.text))  # the name itself escaped

    # Ordered by mean rank, best at the top (the y axis is reversed), no two closer than their line heights.
    ys = [a.y for a in names]
    assert ys == sorted(ys)
    y_bottom, y_top = fig.layout.yaxis.range
    assert y_top < y_bottom  # reversed: rank 1 at the top
    for upper, lower in zip(names, names[1:]):
        need = (_lines(upper.text) + _lines(lower.text)) / 2 * meta["line_px"]
        assert _px(fig, lower.y - upper.y) >= need - 1e-6 >= meta["line_px"] - 1e-6
    # Within the plot, a half label from either edge.
    for a in names:
        half = _lines(a.text) * meta["line_px"] / 2
        assert _px(fig, a.y - y_top) >= half - 1e-6 and _px(fig, y_bottom - a.y) >= half - 1e-6

    # Each elbow starts at its classifier's mean rank on the axis and ends at its name.
    markers = next(tr for tr in fig.data if tr.name == "mean ranks")
    assert list(markers.meta) == by_rank and np.allclose(markers.y, [ranks[n] for n in by_rank])
    axis = next(tr for tr in fig.data if tr.name == "axis")
    assert axis.x[0] == axis.x[1] == markers.x[0]  # a vertical axis
    ends = {}
    for tr in fig.data:
        if tr.name == "classifiers":
            pts = [(x, y) for x, y in zip(tr.x, tr.y)]
            for i in range(0, len(pts), 4):
                ends[pts[i][1], pts[i + 2][1]] = pts[i + 2][0]
    assert sorted(ends) == sorted(zip([ranks[n] for n in by_rank], ys))
    assert all(x < names[0].x for x in ends.values())

    # The same group bars as the layout (and as the horizontal diagram), as vertical bars beside the axis.
    pad = 0.02 * max(lay.k - 1, 1)
    drawn = sorted((tuple(tr.meta), tr.y[0] + pad, tr.y[1] - pad) for tr in fig.data if tr.name == "group")
    expected = sorted((bar.members, bar.low, bar.high) for bar in lay.bars)
    assert [d[0] for d in drawn] == [e[0] for e in expected]
    assert np.allclose([d[1:] for d in drawn], [e[1:] for e in expected]) if drawn else not expected
    groups = [tr for tr in fig.data if tr.name == "group"]
    assert all(tr.x[0] == tr.x[1] and axis.x[0] < tr.x[0] < names[0].x for tr in groups)
    horizontal = cd_diagram(res)
    assert sorted(tuple(tr.meta) for tr in horizontal.data if tr.name == "group") == [d[0] for d in drawn]

    # The CD (Nemenyi) as a vertical bar of the CD's length; the control interval along the axis.
    cd = [tr for tr in fig.data if tr.name == "cd"]
    if lay.cd is not None and lay.control is None:
        assert len(cd) == 1 and cd[0].x[0] == cd[0].x[1] < axis.x[0]
        assert abs(abs(cd[0].y[1] - cd[0].y[0]) - lay.cd) < 1e-9
        assert any(a.text == f"CD = {lay.cd:.3f}" for a in fig.layout.annotations)
    band = [tr for tr in fig.data if tr.name == "control interval"]
    assert len(band) == (lay.control_interval is not None)
    if band:
        assert np.allclose(band[0].meta, lay.control_interval) and band[0].x[0] == band[0].x[1] == axis.x[0]

    # It fits a phone's column by its own estimate, every label inside its design width.
    assert meta["min_width"] <= COLUMN_PX
    x_lo, x_hi = fig.layout.xaxis.range
    assert x_lo == 0 and x_hi + fig.layout.margin.l + fig.layout.margin.r <= COLUMN_PX
    for a in names:
        rank = re.search(r"<span style='font-size:(\d+)px'>(\([0-9.]+\))</span>", a.text)
        lines = [html.unescape(re.sub(r"<[^>]+>", "", x)) for x in a.text.replace(rank.group(0), "").split("<br>")]
        widths = [_style._text_px(x.strip(), 13) for x in lines]
        widths[-1] += (6 if lines[-1].strip() else 0) + _style._text_px(rank.group(2), int(rank.group(1)))
        assert a.x + max(widths) <= x_hi + 1


def test_horizontal_is_the_default_and_auto_turns_in_a_narrow_width(demsar):
    res = cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.10)
    default = cd_diagram(res)
    assert default.layout.meta["orientation"] == "horizontal"
    assert cd_diagram(res, orientation="horizontal").to_plotly_json() == default.to_plotly_json()
    min_width = default.layout.meta["min_width"]
    assert cd_diagram(res, width=min_width).layout.meta["orientation"] == "horizontal"
    narrow = cd_diagram(res, width=min_width - 1)
    assert narrow.layout.meta["orientation"] == "vertical" and narrow.layout.width == min_width - 1
    assert cd_diagram(res, width=400, orientation="horizontal").layout.meta["orientation"] == "horizontal"
    with pytest.raises(cl.InputError, match="orientation"):
        cd_diagram(res, orientation="sideways")


def test_names_beyond_the_limit_are_shortened_as_in_the_horizontal_diagram():
    names = ["x" * 80, "short", "y y" * 15]
    table = cl.ScoreTable(pd.DataFrame(np.arange(15.0).reshape(5, 3), columns=names), True)
    fig = cd_diagram(cl.posthoc(table, "sign", "holm"), orientation="vertical")
    shown = {_shown(a.text): a.hovertext for a in _names(fig)}
    assert shown["short"] is None
    assert shown["x" * (MAX_NAME_CHARS - 1) + "…"] == "x" * 80  # broken into lines, shortened only past the limit
    assert shown[("y y" * 15)[: MAX_NAME_CHARS - 1].replace(" ", "") + "…"] == "y y" * 15
    assert fig.layout.meta["min_width"] <= COLUMN_PX


def test_wrapping_breaks_at_word_boundaries_first():
    wrap, px = _style._wrap, _style._text_px
    assert wrap("Random Forest (500 trees, balanced)", 150, 13) == ["Random Forest (500", "trees, balanced)"]
    assert wrap("short", 150, 13) == ["short"]
    # A word wider than a line: between camelCase humps and after separators, inside a part only when needed.
    assert wrap("HistGradientBoostingClassifier", 150, 13) == ["HistGradientBoosting", "Classifier"]
    assert wrap("LogisticRegressionCV_l2_balanced", 150, 13) == ["LogisticRegression", "CV_l2_balanced"]
    assert wrap("LogisticRegressionCV_l2_balanced", 200, 13) == ["LogisticRegressionCV_l2_", "balanced"]
    lines = wrap("x" * 39 + "…", 150, 13)
    assert len(lines) == 3 and "".join(lines) == "x" * 39 + "…"
    for text in ("HistGradientBoostingClassifier", "x" * 39 + "…", "k-nearest neighbours k=15 (distance-weighted)"):
        assert all(px(x, 13) <= 150 for x in wrap(text, 150, 13))
    # No-break spaces hold.
    assert wrap("all pairs, α\u00a0=\u00a00.05", 90, 13) == ["all pairs,", "α\u00a0=\u00a00.05"]


@pytest.mark.parametrize("k", [2, 30, 60])
def test_many_or_few_classifiers_still_fit_and_never_overlap(k):
    rng = np.random.default_rng(k)
    names = [f"classifier number {i} with a long name" if i % 3 == 0 else f"C{i}" for i in range(k)]
    table = cl.ScoreTable(pd.DataFrame(rng.normal(size=(20, k)), columns=names), True)
    res = cl.posthoc(table, "mean-ranks", "nemenyi")
    fig = cd_diagram(res, orientation="vertical")
    labels = _names(fig)
    assert sorted(_shown(a.text) for a in labels) == sorted(n.replace(" ", "") for n in names)
    ppr, line = fig.layout.meta["px_per_rank"], fig.layout.meta["line_px"]
    for upper, lower in zip(labels, labels[1:]):
        assert (lower.y - upper.y) * ppr >= (_lines(upper.text) + _lines(lower.text)) / 2 * line - 1e-6
    assert fig.layout.meta["min_width"] <= COLUMN_PX


def test_hostile_names_stay_text(demsar):
    table = cl.ScoreTable(pd.DataFrame(np.arange(12.0).reshape(4, 3),
                                       columns=["<img src=x onerror=alert(1)>", "a & b", "<b>bold</b> claim"]), True)
    fig = cd_diagram(cl.posthoc(table, "sign", "holm"), orientation="vertical")
    for a in _names(fig):
        assert "<img" not in a.text and "<b>bold" not in a.text
    assert {_shown(a.text) for a in _names(fig)} == {"<imgsrc=xonerror=alert(1)>", "a&b", "<b>bold</b>claim"}
