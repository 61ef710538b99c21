"""Figures of the frequentist analyses: rank sets, adjusted p-values, effect sizes, planning, the family-wise
demonstration, pool sensitivity, replicability and the fold-level p-values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from compare_lib.core._result import as_frame
from compare_lib.errors import InputError
from compare_lib.limits import MAX_CD_K, MAX_FOREST_PAIRS, MAX_MATRIX_K
from compare_lib.render._cd_layout import _procedure_title
from compare_lib.render._style import (
    CONTROL_COLOR, DIFFERENT_COLOR, GROUP_COLOR, _BAR_LABEL_CHARS, _check_size, _colorbar, _figure, _h, _hs,
    _label_axis, _matrix_axes, _phone_labels, _row_axis, _vline
)


def rank_sets_figure(frame: pd.DataFrame) -> go.Figure:
    """The rank set of each classifier (a :func:`compare_lib.rank_sets` frame) as an interval on the rank axis,
    with its mean rank as a dot; best on top. Simultaneous sets are drawn as solid bars from the best to the
    worst rank the classifier can hold; bootstrap intervals (marginal) as thin lines."""
    _check_size(len(frame), MAX_CD_K, "rank-set chart")
    order = frame.sort_values("mean_rank", kind="stable")
    names = [str(n) for n in order.index]
    marginal = bool(frame.attrs.get("marginal"))
    low, high = order["rank_low"].to_numpy(dtype=float), order["rank_high"].to_numpy(dtype=float)
    pad = 0.0 if marginal else 0.4  # a set {r} is drawn as the width of one rank
    hover = [f"<b>{_h(n)}</b><br>mean rank {m:.3f}<br>" + (f"{lo:.2f} to {hi:.2f} (marginal {1 - frame.attrs.get('alpha', 0.05):.0%})"
             if marginal else (f"rank {int(lo)}" if lo == hi else f"ranks {int(lo)} to {int(hi)}"))
             for n, m, lo, hi in zip(order.index, order["mean_rank"], low, high)]
    traces = [
        dict(type="bar", orientation="h", y=_hs(names), x=high - low + 2 * pad, base=low - pad, width=0.12 if marginal else 0.5,
             marker=dict(color=GROUP_COLOR, opacity=0.45), hoverinfo="text", hovertext=hover, name="rank set",
             showlegend=False),
        dict(type="scatter", mode="markers", y=_hs(names), x=order["mean_rank"].tolist(), marker=dict(color="#222", size=8),
             hoverinfo="text", hovertext=hover, name="mean rank", showlegend=False),
    ]
    k = int(frame.attrs.get("k", len(frame)))
    layout = dict(
        xaxis=dict(title="rank (1 = best)", range=[0.4, k + 0.6], dtick=1 if k <= 30 else None, zeroline=False),
        yaxis=_row_axis(names, 26, title="classifier", max_chars=_BAR_LABEL_CHARS, autorange="reversed"),
        height=120 + 26 * len(frame), margin=dict(t=30, b=40),
        title=dict(text="Marginal intervals of the mean rank (bootstrap)" if marginal else
                   f"Simultaneous {1 - frame.attrs.get('alpha', 0.05):.0%} rank sets"),
        bargap=0.3,
    )
    return _figure(traces, layout)


def plan_figure(curve: pd.DataFrame, *, target: float = 0.8, alpha: float | None = None) -> go.Figure:
    """Power against the number of data sets (a :func:`compare_lib.plan` curve, ``to_frame()``), with its Monte
    Carlo interval (± 2 standard errors) and the target power as a dashed line."""
    n, power, se = curve["n_datasets"].tolist(), curve["power"].to_numpy(), curve["mc_se"].to_numpy()
    traces = [
        dict(type="scatter", x=n + n[::-1], y=list(np.clip(power + 2 * se, 0, 1)) + list(np.clip(power - 2 * se, 0, 1))[::-1],
             fill="toself", fillcolor="rgba(76,120,168,0.18)", line=dict(width=0), hoverinfo="skip", showlegend=False,
             name="± 2 SE"),
        dict(type="scatter", x=n, y=power.tolist(), mode="lines+markers", line=dict(color=GROUP_COLOR), name="power",
             hovertemplate="N = %{x}<br>power %{y:.3f}<extra></extra>", showlegend=False),
    ]
    shapes = [dict(type="line", xref="paper", x0=0, x1=1, y0=target, y1=target, line=dict(dash="dash", color="#888"))]
    if alpha is not None:
        shapes.append(dict(type="line", xref="paper", x0=0, x1=1, y0=alpha, y1=alpha, line=dict(dash="dot", color="#bbb")))
    layout = dict(xaxis=dict(title="data sets (N)"), yaxis=dict(title="power", range=[0, 1.02]), shapes=shapes,
                  height=360, margin=dict(t=30, b=50))
    return _figure(traces, layout)


def familywise_figure(curves: pd.DataFrame, *, alpha: float = 0.05, y: str = "fwer") -> go.Figure:
    """The family-wise error (``y="fwer"``) or the power (``y="power"``) of each procedure against the number of
    classifiers k: ``curves`` stacks :func:`compare_lib.familywise_error` results with a ``k`` column. The
    analytic 1 − (1 − α)^m of m independent tests is drawn dashed, α dotted."""
    traces = []
    for i, (label, part) in enumerate(curves.groupby("label", sort=False)):
        part = part.sort_values("k")
        se = part["mc_se" if y == "fwer" else "power_mc_se"].to_numpy()
        traces.append(dict(type="scatter", x=part["k"].tolist(), y=part[y].tolist(), mode="lines+markers", name=_h(label),
                           line=dict(color=_TEST_COLORS[i % len(_TEST_COLORS)]),
                           error_y=dict(type="data", array=(2 * se).tolist(), visible=True, thickness=1),
                           hovertemplate=f"{_h(label)}<br>k = %{{x}}<br>{y} %{{y:.3f}}<extra></extra>"))
    shapes = []
    if y == "fwer":
        analytic = curves.dropna(subset=["analytic"]).sort_values("k")
        if len(analytic):
            traces.append(dict(type="scatter", x=analytic["k"].tolist(), y=analytic["analytic"].tolist(), mode="lines",
                               name="1 − (1 − α)^m, m independent tests", line=dict(dash="dash", color="#555"),
                               hovertemplate="k = %{x}<br>%{y:.3f}<extra>independent tests</extra>"))
        shapes.append(dict(type="line", xref="paper", x0=0, x1=1, y0=alpha, y1=alpha, line=dict(dash="dot", color="#999")))
    layout = dict(xaxis=dict(title="classifiers (k)", dtick=1), yaxis=dict(
        title="P(at least one false 'significant' pair)" if y == "fwer" else "share of true differences found",
        range=[0, 1.02]), shapes=shapes, height=380, margin=dict(t=30, b=50), legend=dict(orientation="h", y=-0.25))
    return _figure(traces, layout)


def _power_of_ten_colorbar(zmin: float, title: str) -> dict:
    """A colour bar over log10 values labelled as p-values in powers of ten (1, 0.1, 0.01, 10⁻³, ...)."""
    low = int(math.floor(zmin))
    step = max(1, math.ceil(-low / 8))
    ticks = list(range(0, low - 1, -step))
    labels = ["1" if t == 0 else f"{10.0 ** t:g}" if t >= -2 else f"10<sup>{t}</sup>" for t in ticks]
    return _colorbar(title, tickvals=ticks, ticktext=labels)


def apv_heatmap(result: pd.DataFrame) -> go.Figure:
    """k x k heatmap of the adjusted p-values of a post-hoc result (log colour scale, rejections marked)."""
    result = as_frame(result)
    mean_ranks = result.attrs["mean_ranks"]
    order = sorted(mean_ranks, key=lambda n: (mean_ranks[n], n))
    idx = {n: i for i, n in enumerate(order)}
    k = len(order)
    _check_size(k, MAX_MATRIX_K, "heatmap of adjusted p-values")
    z = np.full((k, k), np.nan)
    text = np.full((k, k), "", dtype=object)
    alpha = result.attrs["alpha"]
    i = np.array([idx[a] for a in result["a"]], dtype=int)
    j = np.array([idx[b] for b in result["b"]], dtype=int)
    p_adj = result["p_adj"].to_numpy(dtype=float)
    value = np.log10(np.maximum(p_adj, 1e-300))
    z[i, j] = z[j, i] = value
    labels = np.array([f"{p:.3g}" + (" *" if rej else "") for p, rej in zip(p_adj, result["reject"])], dtype=object)
    text[i, j] = text[j, i] = labels
    fig = go.Figure(
        go.Heatmap(
            z=z, x=_hs(order), y=_hs(order), text=text.tolist(), texttemplate="%{text}", colorscale="Blues", reversescale=True,
            zmin=min(np.nanmin(z) if np.isfinite(z).any() else -3, np.log10(alpha) - 1), zmax=0,
            colorbar=_power_of_ten_colorbar(min(np.nanmin(z) if np.isfinite(z).any() else -3, np.log10(alpha) - 1),
                                            "adjusted p"),
            hovertemplate="%{y} vs %{x}<br>adjusted p %{text}<extra></extra>",
        )
    )
    return _figure(fig, dict(
        title=f"Adjusted p-values ({_procedure_title(result)}; * = rejected)",
        height=max(320, 42 * k + 150), margin=dict(l=10, r=10, t=60, b=20), **_matrix_axes(order, 42),
    ))


def pool_z_figure(frame: pd.DataFrame, *, max_points: int = 20000) -> go.Figure:
    """``|z|`` of one pair in every pool, by pool size, against the critical value of that size.

    ``frame`` is a :func:`compare_lib.pool_sensitivity` result. Points are jittered within a size;
    above ``max_points`` pools a seeded sample is drawn (the counts in the hover stay exact).
    """
    a, b = frame.attrs["a"], frame.attrs["b"]
    counts = frame.groupby("size")["reject"].agg(["count", "sum"])
    shown = frame if len(frame) <= max_points else frame.sample(max_points, random_state=0)
    rng = np.random.default_rng(0)
    jitter = rng.uniform(-0.28, 0.28, len(shown))
    fig = go.Figure()
    for verdict, color, label in ((True, DIFFERENT_COLOR, "significant"), (False, GROUP_COLOR, "not significant")):
        part = shown[shown["reject"] == verdict]
        j = jitter[(shown["reject"] == verdict).to_numpy()]
        fig.add_trace(
            go.Scatter(
                x=part["size"] + j, y=part["z"].abs(), mode="markers", name=label,
                marker=dict(color=color, size=7 if len(shown) < 2000 else 4, opacity=0.75),
                customdata=[_h(", ".join(p)) for p in part["pool"]],
                hovertemplate="pool: %{customdata}<br>|z| = %{y:.3f}<extra>" + label + "</extra>",
            )
        )
    crit = frame.groupby("size")["critical"].first().dropna()  # none for Holm: it depends on the other pairs
    xs, ys = [], []
    for size, value in crit.items():
        xs += [size - 0.4, size + 0.4, None]
        ys += [value, value, None]
    if xs:
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="critical |z|", line=dict(color=CONTROL_COLOR, width=3),
                                 hoverinfo="skip"))
    return _figure(fig, dict(
        title=f"{_h(a)} vs {_h(b)}: the mean-ranks statistic in every pool that contains both",
        xaxis=dict(title="classifiers in the pool", tickmode="array", tickvals=list(counts.index),
                   ticktext=[f"{s}<br>{int(r)}/{int(c)} sig." for s, (c, r) in counts.iterrows()]),
        yaxis=dict(title="|z|"), height=430, legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        margin=dict(l=10, r=10, t=80, b=10),
    ))


def pool_counts_figure(counts: pd.DataFrame, a: str, b: str) -> go.Figure:
    """Stacked bars per pool size: pools where a vs b is significant and where it is not."""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=counts["size"], y=counts["rejections"], name="significant", marker_color=DIFFERENT_COLOR))
    fig.add_trace(go.Bar(x=counts["size"], y=counts["pools"] - counts["rejections"], name="not significant",
                         marker_color=GROUP_COLOR))
    return _figure(fig, dict(barmode="stack", title=f"{_h(a)} vs {_h(b)}: pools by size (exact counts)",
                             xaxis=dict(title="classifiers in the pool"), yaxis=dict(title="pools"), height=400,
                             margin=dict(l=10, r=10, t=60, b=10)))


def sensitivity_heatmap(matrix: pd.DataFrame) -> go.Figure:
    """k x k heatmap: fraction of pools whose mean-ranks verdict on the pair differs from the full pool's."""
    _check_size(len(matrix), MAX_MATRIX_K, "pool sensitivity matrix")
    z = matrix.to_numpy().astype(float)
    np.fill_diagonal(z, np.nan)
    text = [["" if i == j else f"{z[i, j]:.0%}" if z[i, j] > 0 else "·" for j in range(len(z))] for i in range(len(z))]
    fig = go.Figure(
        go.Heatmap(z=z, x=_hs(matrix.columns), y=_hs(matrix.index), text=text, texttemplate="%{text}",
                   colorscale="OrRd", zmin=0, zmax=max(0.5, float(np.nanmax(z)) if np.isfinite(z).any() else 0.5),
                   colorbar=_colorbar("pools that flip the verdict"),
                   hovertemplate="%{y} vs %{x}<br>%{z:.1%} of the pools flip the full-pool verdict<extra></extra>")
    )
    return _figure(fig, dict(title="How often the pool changes the mean-ranks verdict (· = never)",
                             height=max(340, 34 * len(z) + 160), margin=dict(l=10, r=10, t=60, b=10),
                             **_matrix_axes(list(matrix.index), 34)))


def power_figure(sim: pd.DataFrame, paper: dict[str, float] | None = None) -> go.Figure:
    """Bars of the simulated power per test with 95% Monte Carlo intervals (and the paper's values)."""
    fig = go.Figure(
        go.Bar(x=sim["test"], y=sim["power"], error_y=dict(type="data", array=1.96 * sim["std_error"]),
               marker_color=[DIFFERENT_COLOR if t == "mean-ranks z" else GROUP_COLOR for t in sim["test"]],
               text=[f"{p:.3f}" for p in sim["power"]], textposition="outside", name="simulated")
    )
    if paper:
        fig.add_trace(go.Scatter(x=list(paper), y=list(paper.values()), mode="markers", name="Benavoli et al.",
                                 marker=dict(symbol="diamond", size=13, color=CONTROL_COLOR)))
    return _figure(fig, dict(title="Power to detect A ≠ B", xaxis=dict(title="test"),
                             yaxis=dict(title="power", range=[0, 1.1]), height=380, margin=dict(l=10, r=10, t=60, b=10)))


_TEST_COLORS = ["#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#9D755D", "#BAB0AC"]


def selection_figure(frame: pd.DataFrame, tests: list[str], *, title: str | None = None) -> go.Figure:
    """Demšar's Figures 3-7 as small multiples: one panel per quantity against the bias k.

    ``frame`` is a :func:`compare_lib.selection_experiment` result. Four panels share the bias axis:
    the number of samples in which each test rejected, R(e), the mean p-value and R(p); one colour per
    test throughout (legend once), no second y-axis and no reversed axis; R(e) and R(p) on their whole
    range [0.5, 1], mean p on [0, 1], rejections on [0, samples], with round ticks.
    """
    from plotly.subplots import make_subplots

    samples = frame.attrs.get("samples")
    fig = make_subplots(
        rows=2, cols=2, shared_xaxes=True, vertical_spacing=0.13, horizontal_spacing=0.09,
        subplot_titles=(f"Rejections (of {samples:,} samples)" if samples else "Rejections",
                        "R(e): will the verdict repeat?", "Mean p-value", "R(p) = 1 − 2 var(p)"),
    )
    panels = (("rejections", 1, 1, "rejections %{y}"), ("R_e", 1, 2, "R(e) %{y:.3f}"),
              ("mean_p", 2, 1, "mean p %{y:.3f}"), ("R_p", 2, 2, "R(p) %{y:.3f}"))
    for i, test in enumerate(tests):
        part = frame[frame["test"] == test].sort_values("bias")
        color = _TEST_COLORS[i % len(_TEST_COLORS)]
        for column, row, col, fmt in panels:
            fig.add_trace(
                go.Scatter(x=part["bias"], y=part[column], name=_h(test), legendgroup=test, showlegend=(row, col) == (1, 1),
                           mode="lines+markers", line=dict(color=color, width=2.2), marker=dict(size=5),
                           hovertemplate=f"{_h(test)}<br>k = %{{x}}<br>{fmt}<extra></extra>"),
                row=row, col=col,
            )
    fig.update_xaxes(title_text="bias k", row=2, col=1)
    fig.update_xaxes(title_text="bias k", row=2, col=2)
    fig.update_yaxes(title_text="rejections", range=[0, samples * 1.02] if samples else None, rangemode="tozero",
                     row=1, col=1)
    fig.update_yaxes(title_text="R(e)", range=[0.48, 1.02], dtick=0.1, row=1, col=2)
    fig.update_yaxes(title_text="mean p", range=[-0.02, 1.02], dtick=0.2, row=2, col=1)
    fig.update_yaxes(title_text="R(p)", range=[0.48, 1.02], dtick=0.1, row=2, col=2)
    return _figure(fig, dict(title=_h(title) if title else None, height=560, legend=dict(orientation="h", y=-0.12),
                             margin=dict(l=10, r=10, t=80 if title else 50, b=10)))


def fold_pvalues_figure(results: pd.DataFrame, test: str, scheme: str | None = None) -> go.Figure:
    """p-values of one fold-level test under one resampling scheme, per data set (rows) and seed
    (columns); rejections marked. ``scheme`` defaults to the first scheme the results hold for the test;
    the title names it."""
    part = results[results["test"] == test]
    schemes = list(dict.fromkeys(part["scheme"]))
    if not schemes:
        raise InputError(f"No results for the test {test!r}.")
    scheme = schemes[0] if scheme is None else scheme
    if scheme not in schemes:
        raise InputError(f"The test {test!r} has no results for the scheme {scheme!r}; it has {schemes}.")
    part = part[part["scheme"] == scheme]
    grid = part.pivot_table(index="dataset", columns="seed", values="p", aggfunc="first")
    alpha = results.attrs.get("alpha", 0.05)
    values = grid.to_numpy(dtype=float)
    chars, size = _phone_labels(len(grid.columns))
    height = max(300, 36 * len(grid) + 140)
    text = [[("" if np.isnan(v) else f"{v:.3f}" + (" *" if v <= alpha else "")) for v in row] for row in values]
    fig = go.Figure(
        go.Heatmap(z=values, x=_hs(grid.columns), y=_hs(grid.index), text=text,
                   texttemplate="%{text}", colorscale="RdBu", zmid=alpha, zmin=0, zmax=min(1, 10 * alpha),
                   colorbar=_colorbar("p"),
                   hovertemplate="%{y}, seed %{x}<br>p = %{z:.4f}<extra></extra>")
    )
    return _figure(fig, dict(
        title=f"{_h(test)}, {_h(scheme)}: p per data set and seed (* = rejected at α = {alpha:g})",
        xaxis=_label_axis(grid.columns, title="seed (repetition of the whole experiment)", max_chars=chars, size=size),
        yaxis=_row_axis(grid.index, 36, title="data set", max_chars=chars, autorange="reversed"),
        height=height, margin=dict(l=10, r=10, t=60, b=10)))


def effect_size_forest(frame: pd.DataFrame, measure: str = "hodges_lehmann") -> go.Figure:
    """Forest plot of one effect size of every pair (estimate and interval; positive favours a)."""
    columns = {"hodges_lehmann": ("hl_ci_low", "hl_ci_high", "Hodges-Lehmann estimate"),
               "mean_difference": ("mean_ci_low", "mean_ci_high", "mean difference"),
               "cohens_dz": ("dz_ci_low", "dz_ci_high", "Cohen's d_z"),
               "prob_superiority": ("ps_ci_low", "ps_ci_high", "probability of superiority")}
    if measure not in columns:
        raise InputError(f"measure must be one of {', '.join(columns)}, got {measure!r}.")
    lo, hi, label = columns[measure]
    _check_size(len(frame), MAX_FOREST_PAIRS, "forest plot", "pairs")
    labels_raw = [f"{a} vs {b}" for a, b in zip(frame["a"], frame["b"])]
    labels = _hs(labels_raw)
    est = frame[measure].to_numpy(dtype=float)
    points = dict(  # plotly's dict of a go.Scatter, without its validation (see mean_ranks_figure)
        type="scatter", x=est, y=labels, mode="markers", marker=dict(size=9, color=GROUP_COLOR),
        error_x=dict(type="data", symmetric=False, array=frame[hi].to_numpy() - est,
                     arrayminus=est - frame[lo].to_numpy(), color=GROUP_COLOR),
        hovertemplate="%{y}<br>" + label + " %{x:.4g}<extra></extra>",
    )
    null = 0.5 if measure == "prob_superiority" else 0.0
    return _figure([points], dict(
        shapes=[_vline(null)],
        title=f"{label} with {frame.attrs.get('level', 0.95):.0%} intervals (right of the line: a better)",
        xaxis=dict(title=f"{label} (positive: a better)" if measure != "prob_superiority" else f"{label} (above 0.5: a better)"),
        yaxis=_row_axis(labels_raw, 26, title="pair (a vs b)", max_chars=32, autorange="reversed"),
        height=max(300, 26 * len(frame) + 120), margin=dict(l=10, r=10, t=60, b=10)))
