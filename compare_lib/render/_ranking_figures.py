"""Figures of a Bayesian ranking (issue 29, the "Who is best?" view): P(best) as bars, the rank probabilities and
P(row before column) as heatmaps, for a :class:`~compare_lib.BayesianRankingResult` of
:func:`compare_lib.bayesian_ranking` (Plackett-Luce: Calvo, Ceberio & Lozano 2018; Bradley-Terry-Davidson: Davidson
1970). The classifiers are drawn best first by expected rank (ties by name). Built the one way every figure of
:mod:`compare_lib.plots` is (its ``_figure``: titles as dicts, the project's fonts and colours), names escaped
(plotly renders a subset of HTML in labels)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from compare_lib.limits import MAX_CD_K, MAX_MATRIX_K
from compare_lib.render._style import FONT_PX, _BAR_LABEL_CHARS, _check_size, _colorbar, _figure, _hs, _label_axis, _matrix_axes, _phone_labels

__all__ = ["p_best_figure", "rank_probability_figure", "p_before_figure"]

#: Cell values are written in the heatmaps up to this many classifiers (beyond, the hover only).
TEXT_MAX_K = 15


def _order(result) -> list:
    """The classifiers best first: by expected rank, then by P(best) (descending), then by name (as text)."""
    names = list(result.expected_rank.index)
    keys = sorted(range(len(names)), key=lambda i: (float(result.expected_rank.iloc[i]),
                                                    -float(result.p_best.iloc[i]), str(names[i])))
    return [names[i] for i in keys]


def _best_words(result) -> str:
    if getattr(result, "model", "plackett-luce") == "bradley-terry-davidson":
        return "P(strongest): the posterior probability of the largest strength"
    return "P(best): the probability of being ranked first on a new data set"


def p_best_figure(result) -> go.Figure:
    """Horizontal bars of each classifier's P(best), best at the top (Plackett-Luce: P(ranked first on a new data
    set) = E[w_k / sum w]; Bradley-Terry-Davidson: P(largest strength)), the value written beside each bar."""
    order = _order(result)
    _check_size(len(order), MAX_CD_K, "P(best) chart")
    values = result.p_best.loc[order].to_numpy(dtype=float)
    bar = dict(type="bar", x=values[::-1], y=_hs(order[::-1]), orientation="h",
               text=[f"{v:.3f}" for v in values[::-1]], textposition="outside", cliponaxis=False,
               hovertemplate="%{y}<br>P(best) %{x:.4f}<extra></extra>", marker=dict(color="#4C78A8"))
    k = len(order)
    return _figure([bar], dict(
        title=_best_words(result), xaxis=dict(title="posterior probability", range=[0, min(1.0, values.max() * 1.25 + 0.05)]),
        yaxis=_label_axis(order[::-1], title="classifier", max_chars=_BAR_LABEL_CHARS, size=FONT_PX),
        height=max(260, 32 * k + 120), margin=dict(l=10, r=30, t=60, b=40), showlegend=False,
    ))


def rank_probability_figure(result) -> go.Figure:
    """Heatmap of P(classifier at rank r), classifiers (rows, best first by expected rank) x ranks 1..k; each row
    and each column sums to 1 (Plackett-Luce: the rank on a new data set; Bradley-Terry-Davidson: the rank of the
    strengths)."""
    order = _order(result)
    k = len(order)
    _check_size(k, MAX_MATRIX_K, "rank-probability heatmap")
    z = result.rank_probabilities.loc[order].to_numpy(dtype=float)
    ranks = [str(r) for r in range(1, k + 1)]
    trace = dict(type="heatmap", z=z, x=ranks, y=_hs(order), colorscale="Blues", zmin=0, zmax=1,
                 colorbar=_colorbar("probability"),
                 hovertemplate="%{y} at rank %{x}<br>probability %{z:.4f}<extra></extra>")
    if k <= TEXT_MAX_K:
        trace.update(text=[[f"{v:.2f}" for v in row] for row in z], texttemplate="%{text}")
    chars, size = _phone_labels(k)
    return _figure([trace], dict(
        title="Rank probabilities (1 = best)",
        xaxis=dict(title="rank", type="category", tickfont=dict(size=size)),
        yaxis=_label_axis(order, title="classifier", max_chars=chars, size=size, autorange="reversed"),
        height=max(320, 36 * k + 160), margin=dict(l=10, r=10, t=60, b=20),
    ))


def p_before_figure(result) -> go.Figure:
    """Heatmap of P(row before column): Plackett-Luce, the probability that the row classifier is ranked before the
    column classifier on a new data set; Bradley-Terry-Davidson, that it wins a decisive comparison. Rows and
    columns best first by expected rank; 0.5 is white."""
    order = _order(result)
    k = len(order)
    _check_size(k, MAX_MATRIX_K, "P(before) matrix")
    z = result.p_before.loc[order, order].to_numpy(dtype=float)
    text = [["" if np.isnan(v) else f"{v:.2f}" for v in row] for row in z]
    trace = dict(type="heatmap", z=[[None if np.isnan(v) else float(v) for v in row] for row in z], x=_hs(order), y=_hs(order),
                 colorscale="RdBu", zmin=0, zmax=1, zmid=0.5, colorbar=_colorbar("P(row before column)"),
                 hovertemplate="P(%{y} before %{x}) = %{z:.4f}<extra></extra>")
    if k <= TEXT_MAX_K:
        trace.update(text=text, texttemplate="%{text}")
    btd = getattr(result, "model", "plackett-luce") == "bradley-terry-davidson"
    title = ("P(row beats column in a decisive comparison)" if btd
             else "P(row ranked before column on a new data set)")
    return _figure([trace], dict(title=title, height=max(320, 40 * k + 160), margin=dict(l=10, r=10, t=60, b=20),
                                 **_matrix_axes(order, 40)))
