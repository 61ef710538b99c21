"""Plotly figures built only from result objects and tables (no statistics computed here).

Figures use the default template so that Streamlit's theme (light or dark) can restyle them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .data import ScoreTable


def mean_ranks_figure(mean_ranks: pd.Series, *, title: str = "Mean rank (1 = best)") -> go.Figure:
    """Horizontal bars of mean ranks, best at the top, with the expected rank under H0 marked."""
    ordered = mean_ranks.sort_values(ascending=False)  # plotly draws bottom-up: best ends on top
    k = len(mean_ranks)
    fig = go.Figure(
        go.Bar(
            x=ordered.to_numpy(),
            y=[str(c) for c in ordered.index],
            orientation="h",
            text=[f"{v:.3f}" for v in ordered],
            textposition="outside",
            hovertemplate="%{y}<br>mean rank %{x:.3f}<extra></extra>",
            marker_color="#4C78A8",
        )
    )
    fig.add_vline(
        x=(k + 1) / 2, line_dash="dot", line_color="gray",
        annotation_text=f"H0: all equal to {(k + 1) / 2:g}", annotation_position="top",
    )
    fig.update_layout(
        title=title, xaxis_title="mean rank", xaxis_range=[0, k + 0.6], height=max(260, 40 * k + 120),
        margin=dict(l=10, r=10, t=60, b=40), showlegend=False,
    )
    return fig


def rank_heatmap(table: ScoreTable, *, max_rows: int = 400) -> go.Figure:
    """Ranks per data set and classifier (1 = best); hover shows the score. Columns by mean rank."""
    order = table.mean_ranks.sort_values().index
    ranks = table.ranks[order]
    scores = table.scores[order]
    if len(ranks) > max_rows:
        ranks, scores = ranks.iloc[:max_rows], scores.iloc[:max_rows]
    k = table.n_classifiers
    fig = go.Figure(
        go.Heatmap(
            z=ranks.to_numpy(),
            x=[str(c) for c in ranks.columns],
            y=[str(d) for d in ranks.index],
            customdata=scores.to_numpy(),
            colorscale="Viridis",
            reversescale=True,
            zmin=1,
            zmax=k,
            colorbar=dict(title="rank"),
            hovertemplate="%{y} · %{x}<br>rank %{z:g}<br>score %{customdata:.6g}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Rank of each classifier on each data set (1 = best)",
        height=min(1400, max(320, 18 * len(ranks) + 140)),
        yaxis=dict(autorange="reversed", automargin=True),
        xaxis=dict(side="top", automargin=True),
        margin=dict(l=10, r=10, t=90, b=20),
    )
    return fig


def win_tie_loss_figure(table: ScoreTable) -> go.Figure:
    """k x k heatmap: wins of the row classifier over the column classifier (ties and losses in hover)."""
    wtl = table.win_tie_loss()
    order = list(table.mean_ranks.sort_values().index)
    wins = wtl["wins"].loc[order, order]
    ties = wtl["ties"].loc[order, order]
    losses = wtl["losses"].loc[order, order]
    z = wins.to_numpy().astype(float)
    np.fill_diagonal(z, np.nan)
    text = [[("" if i == j else f"{wins.iat[i, j]}/{ties.iat[i, j]}/{losses.iat[i, j]}") for j in range(len(order))] for i in range(len(order))]
    fig = go.Figure(
        go.Heatmap(
            z=z, x=order, y=order, text=text, texttemplate="%{text}", colorscale="Blues", zmin=0, zmax=table.n_datasets,
            colorbar=dict(title="wins"),
            hovertemplate="%{y} vs %{x}<br>wins/ties/losses %{text}<extra></extra>",
        )
    )
    fig.update_layout(
        title="Wins / ties / losses of the row classifier against the column classifier",
        yaxis=dict(autorange="reversed"), height=max(320, 45 * len(order) + 140),
        margin=dict(l=10, r=10, t=60, b=20),
    )
    return fig
