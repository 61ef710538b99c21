"""Figures of the Bayesian tests: the posterior simplex, the correlated t posterior, the pairwise matrix, the
fold-level probabilities and the relevance demonstration (Benavoli et al. 2017)."""

from __future__ import annotations


import numpy as np
import pandas as pd
import plotly.graph_objects as go

from compare_lib.errors import InputError
from compare_lib.limits import MAX_MATRIX_K
from compare_lib.render._style import (
    DIFFERENT_COLOR, _REGION_COLORS, _check_size, _colorbar, _figure, _h, _hs, _matrix_axes
)


def posterior_simplex(result, x_name: str = "x", y_name: str = "y", *, max_points: int = 4000, seed: int = 0) -> go.Figure:
    """The posterior samples of a Bayesian sign or signed-rank test in the probability simplex, as in
    the tutorial's figures: each point is one posterior sample of (x better, rope, y better), coloured
    by the region with the largest mass; the three probabilities in the title. Above ``max_points``
    samples a seeded subsample is drawn (the probabilities use all of them)."""
    theta = result.samples
    if theta is None:
        raise InputError("This result has no posterior samples (the correlated t-test is in closed form).")
    rng = np.random.default_rng(seed)
    shown = theta if theta.shape[0] <= max_points else theta[rng.choice(theta.shape[0], max_points, replace=False)]
    winner = np.argmax(shown, axis=1)
    labels = (f"{_h(x_name)} better", "equivalent (ROPE)", f"{_h(y_name)} better")
    probs = (result.p_x, result.p_rope, result.p_y)
    fig = go.Figure()
    for region in range(3):
        part = shown[winner == region]
        fig.add_trace(go.Scatterternary(
            a=part[:, 1], b=part[:, 0], c=part[:, 2], mode="markers", name=f"{labels[region]}: {probs[region]:.3f}",
            marker=dict(size=4, color=_REGION_COLORS[region], opacity=0.45),
            hovertemplate=f"{_h(x_name)} %{{b:.3f}}<br>rope %{{a:.3f}}<br>{_h(y_name)} %{{c:.3f}}<extra></extra>",
        ))
    return _figure(fig, dict(
        title=f"Posterior of the {result.test} test (rope {result.rope:g}): P({_h(x_name)}) = {result.p_x:.3f}, "
              f"P(rope) = {result.p_rope:.3f}, P({_h(y_name)}) = {result.p_y:.3f}",
        ternary=dict(aaxis=dict(title="rope", min=0), baxis=dict(title=_h(x_name), min=0),
                     caxis=dict(title=_h(y_name), min=0), sum=1),
        height=520, legend=dict(orientation="h", y=-0.08), margin=dict(l=40, r=40, t=70, b=40),
    ))


def correlated_t_posterior(result, x_name: str = "x", y_name: str = "y") -> go.Figure:
    """The Student-t posterior of the mean difference (positive favours x) of the correlated t-test,
    with the ROPE shaded and the three probabilities."""
    from scipy import stats

    post = result.posterior
    if not post:
        raise InputError("This result is not a correlated t-test.")
    dist = stats.t(post["df"], loc=post["loc"], scale=max(post["scale"], 1e-12))
    lo, hi = dist.ppf(0.0005), dist.ppf(0.9995)
    lo, hi = min(lo, -2 * result.rope), max(hi, 2 * result.rope)
    xs = np.linspace(lo, hi, 400)
    fig = go.Figure()
    fig.add_vrect(x0=-result.rope, x1=result.rope, fillcolor=_REGION_COLORS[1], opacity=0.25, line_width=0,
                  annotation_text=f"ROPE ±{result.rope:g}", annotation_position="top left")
    fig.add_trace(go.Scatter(x=xs, y=dist.pdf(xs), mode="lines", line=dict(color=_REGION_COLORS[0], width=2.5),
                             name="posterior", hovertemplate="difference %{x:.4f}<br>density %{y:.3g}<extra></extra>"))
    return _figure(fig, dict(
        title=f"Posterior of the mean difference ({_h(x_name)} − {_h(y_name)}): P({_h(x_name)}) = {result.p_x:.3g}, "
              f"P(rope) = {result.p_rope:.3g}, P({_h(y_name)}) = {result.p_y:.3g}",
        xaxis=dict(title=f"mean difference (positive: {_h(x_name)} better)"), yaxis=dict(title="posterior density"),
        height=380, showlegend=False, margin=dict(l=10, r=10, t=60, b=10),
    ))


def bayesian_matrix(frame: pd.DataFrame, classifiers: list[str]) -> go.Figure:
    """k x k heatmap of a :func:`compare_lib.bayesian_posthoc` result: cell (row, column) is
    P(row practically better than column); the text adds P(equivalent) and the decision."""
    k = len(classifiers)
    _check_size(k, MAX_MATRIX_K, "matrix of posterior probabilities")
    position = pd.Series(np.arange(k), index=list(classifiers))
    i = position.loc[frame["a"]].to_numpy()
    j = position.loc[frame["b"]].to_numpy()
    p_a, p_b = frame["p_a"].to_numpy(dtype=float), frame["p_b"].to_numpy(dtype=float)
    rope = pd.Series(frame["p_rope"].to_numpy(dtype=float)).map("{:.2f}".format).to_numpy(dtype=object)
    marks = {"a better": ("▲", "▼"), "b better": ("▼", "▲"), "equivalent": ("=", "="), "undecided": ("?", "?")}
    mark_ab = frame["decision"].map(lambda d: marks[d][0]).to_numpy(dtype=object)
    mark_ba = frame["decision"].map(lambda d: marks[d][1]).to_numpy(dtype=object)
    z = np.full((k, k), np.nan)
    z[i, j], z[j, i] = p_a, p_b
    text = np.full((k, k), "", dtype=object)
    fmt = np.vectorize("{:.2f}".format, otypes=[object])
    text[i, j] = fmt(p_a) + "<br>≈" + rope + " " + mark_ab
    text[j, i] = fmt(p_b) + "<br>≈" + rope + " " + mark_ba
    fig = go.Figure(go.Heatmap(
        z=z, x=_hs(classifiers), y=_hs(classifiers), text=text.tolist(), texttemplate="%{text}", zmin=0, zmax=1,
        colorscale="Blues", colorbar=_colorbar("P(row better)"),
        hovertemplate="%{y} vs %{x}<br>P(%{y} better) = %{z:.3f}<extra></extra>",
    ))
    return _figure(fig, dict(title="P(row practically better than column); ≈ P(equivalent); ▲ row better, "
                                   "▼ column better, = equivalent, ? undecided",
                             height=max(340, 48 * k + 160), margin=dict(l=10, r=10, t=60, b=10),
                             **_matrix_axes(list(classifiers), 48)))


def bayesian_fold_figure(frame: pd.DataFrame, scheme: str | None = None) -> go.Figure:
    """The correlated t-test of every data set and seed (a :func:`compare_lib.bayesian_fold_tests`
    result) as stacked bars of P(a better), P(equivalent), P(b better): one group of bars per data set,
    one bar per seed, so that how often the verdict repeats can be seen at a glance."""
    part = frame if scheme is None else frame[frame["scheme"] == scheme]
    part = part[part["p_a"].notna()]
    _check_size(len(part), 2000, "chart of fold-level posteriors", "data set and seed bars")
    a, b = frame.attrs.get("a", "a"), frame.attrs.get("b", "b")
    x = [_hs(part["dataset"].astype(str)), _hs(part["seed"].astype(str))]
    fig = go.Figure()
    for column, label, color in (("p_a", f"P({_h(a)} better)", _REGION_COLORS[0]),
                                 ("p_rope", "P(equivalent)", _REGION_COLORS[1]),
                                 ("p_b", f"P({_h(b)} better)", _REGION_COLORS[2])):
        fig.add_trace(go.Bar(x=x, y=part[column], name=label, marker_color=color,
                             hovertemplate="%{x}<br>" + label + " = %{y:.3f}<extra></extra>"))
    return _figure(fig, dict(
        barmode="stack", title=f"Bayesian correlated t-test per data set and seed (ROPE ±"
                               f"{frame.attrs.get('rope', 0):g}){' · ' + _h(scheme) if scheme else ''}",
        yaxis=dict(range=[0, 1], title="posterior probability"), height=460, bargap=0.05,
        xaxis=dict(title="data set and seed"), legend=dict(orientation="h", y=1.0, yanchor="bottom", x=0, traceorder="normal"),
        margin=dict(l=10, r=10, t=90, b=10)))


def relevance_figure(demo: pd.DataFrame, alpha: float = 0.05) -> go.Figure:
    """The "significance is not relevance" demo: the Wilcoxon p-value and the posterior probabilities
    against the number of data sets (log scale), as two panels."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=("Wilcoxon p-value", "Bayesian signed-rank posterior"),
                        horizontal_spacing=0.1)
    fig.add_trace(go.Scatter(x=demo["n"], y=demo["wilcoxon_p"], mode="lines+markers", name="Wilcoxon p",
                             line=dict(color=DIFFERENT_COLOR)), row=1, col=1)
    fig.add_hline(y=alpha, line_dash="dot", line_color="gray", annotation_text=f"α = {alpha:g}", row=1, col=1)
    for column, label, color in (("p_x", "P(A better)", _REGION_COLORS[0]), ("p_rope", "P(equivalent)", _REGION_COLORS[1]),
                                 ("p_y", "P(B better)", _REGION_COLORS[2])):
        fig.add_trace(go.Scatter(x=demo["n"], y=demo[column], mode="lines+markers", name=label, line=dict(color=color)),
                      row=1, col=2)
    fig.update_xaxes(type="log", title_text="data sets")
    fig.update_yaxes(type="log", title_text="p", row=1, col=1, exponentformat="power", dtick=1)  # 10⁻⁶, not 1μ
    fig.update_yaxes(range=[-0.02, 1.02], title_text="posterior probability", row=1, col=2)
    return _figure(fig, dict(height=420, legend=dict(orientation="h", y=-0.2), margin=dict(l=10, r=10, t=50, b=10)))
