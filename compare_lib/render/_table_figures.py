"""Figures that describe the score table: mean ranks, the rank heatmap, wins/ties/losses."""

from __future__ import annotations


import numpy as np
import pandas as pd
import plotly.graph_objects as go

from compare_lib.core._table import ScoreTable
from compare_lib.limits import MAX_MATRIX_K
from compare_lib.render._style import (
    FONT_PX, _BAR_LABEL_CHARS, _check_size, _colorbar, _figure, _hs, _label_axis, _matrix_axes, _phone_labels,
    _row_axis, _vline
)


def mean_ranks_figure(mean_ranks: pd.Series, *, title: str = "Mean rank (1 = best)") -> go.Figure:
    """Horizontal bars of mean ranks, best at the top, with the expected rank under H0 marked."""
    ordered = mean_ranks.sort_values(ascending=False)  # plotly draws bottom-up: best ends on top
    k = len(mean_ranks)
    h0 = (k + 1) / 2
    # The trace, the line and its label written as plotly's dicts: what go.Bar and fig.add_vline(annotation_position=
    # "top") make, without their validation and deep copies (~15 ms of a page run when the figure is drawn anew).
    bar = dict(type="bar", x=ordered.to_numpy(), y=_hs(ordered.index), orientation="h",
               text=[f"{v:.3f}" for v in ordered], textposition="outside",
               hovertemplate="%{y}<br>mean rank %{x:.3f}<extra></extra>", marker=dict(color="#4C78A8"))
    return _figure([bar], dict(
        shapes=[_vline(h0)],
        annotations=[dict(showarrow=False, text=f"H0: all equal to {h0:g}", x=h0, xanchor="center", xref="x", y=1,
                          yanchor="bottom", yref="y domain")],
        title=title, xaxis=dict(title="mean rank", range=[0, k + 0.6]),
        yaxis=_label_axis(ordered.index, title="classifier", max_chars=_BAR_LABEL_CHARS, size=FONT_PX),
        height=max(260, 40 * k + 120), margin=dict(l=10, r=10, t=60, b=40), showlegend=False,
    ))


def rank_heatmap(table: ScoreTable, *, max_rows: int = 400) -> go.Figure:
    """Ranks per data set and classifier (1 = best); hover shows the score. Columns by mean rank; every
    classifier's name is shown (shortened on a phone, in full in the hover)."""
    order = table.mean_ranks.sort_values().index
    # The first rows, then the columns in order: the whole table's ranks and reordered scores were three copies of a
    # large table (23 MB for a million scores) to draw 400 rows.
    ranks = table.head_ranks(max_rows)[order]
    scores = table.scores.iloc[:max_rows][order]
    k = table.n_classifiers
    chars, size = _phone_labels(k)
    height = min(1400, max(320, 18 * len(ranks) + 140))
    fig = go.Figure(
        go.Heatmap(
            z=ranks.to_numpy(),
            x=_hs(ranks.columns),
            y=_hs(ranks.index),
            customdata=scores.to_numpy(),
            colorscale="Viridis",
            reversescale=True,
            zmin=1,
            zmax=k,
            colorbar=_colorbar("rank"),
            hovertemplate="%{y} · %{x}<br>rank %{z:g}<br>score %{customdata:.6g}<extra></extra>",
        )
    )
    return _figure(fig, dict(
        title="Rank of each classifier on each data set (1 = best)",
        height=height,
        yaxis=_row_axis(ranks.index, (height - 140) / max(len(ranks), 1), title="data set", max_chars=chars,
                        size=size, autorange="reversed"),
        xaxis=_label_axis(ranks.columns, title="classifier (best on the left)", max_chars=chars, size=size),
        margin=dict(l=10, r=10, t=60, b=20),
    ))


def win_tie_loss_figure(table: ScoreTable) -> go.Figure:
    """k x k heatmap: wins of the row classifier over the column classifier (ties and losses in hover)."""
    _check_size(table.n_classifiers, MAX_MATRIX_K, "wins/ties/losses matrix")
    wtl = table.win_tie_loss()
    order = list(table.mean_ranks.sort_values().index)
    wins = wtl["wins"].loc[order, order].to_numpy()
    ties = wtl["ties"].loc[order, order].to_numpy()
    losses = wtl["losses"].loc[order, order].to_numpy()
    z = wins.astype(float)
    np.fill_diagonal(z, np.nan)
    text = np.char.add(np.char.add(np.char.add(wins.astype(str), "/"), np.char.add(ties.astype(str), "/")),
                       losses.astype(str)).astype(object)
    np.fill_diagonal(text, "")
    fig = go.Figure(
        go.Heatmap(
            z=z, x=_hs(order), y=_hs(order), text=text.tolist(), texttemplate="%{text}", colorscale="Blues", zmin=0, zmax=table.n_datasets,
            colorbar=_colorbar("wins"),
            hovertemplate="%{y} vs %{x}<br>wins/ties/losses %{text}<extra></extra>",
        )
    )
    return _figure(fig, dict(
        title="Wins / ties / losses of the row classifier against the column classifier",
        height=max(320, 45 * len(order) + 140), margin=dict(l=10, r=10, t=60, b=20), **_matrix_axes(order, 45),
    ))
