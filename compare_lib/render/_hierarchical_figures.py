"""Figures of the hierarchical test (issue 29): the shrunk per-data-set differences as a forest plot.

The posterior of the next data set uses :func:`compare_lib.plots.posterior_simplex` (a
:class:`~compare_lib.HierarchicalResult` carries its draws of the three masses like every Bayesian result).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from compare_lib.errors import InputError
from compare_lib.render._style import _REGION_COLORS, _figure, _h

#: A forest plot has one labelled row per data set.
MAX_FOREST_DATASETS = 300


def hierarchical_forest_figure(result, x_name: str = "x", y_name: str = "y") -> go.Figure:
    """Per data set: its observed mean fold difference (open circle) and the hierarchical model's shrunk δ_i
    (posterior mean, filled, with its 95% interval), positive favouring ``x_name``; the ROPE as a grey band and
    the posterior mean of δ0 (the mean difference over data sets) as a dashed line. Data sets are sorted by δ_i."""
    rows = result.datasets
    if rows is None or not len(rows):
        raise InputError("This result has no per-data-set posterior (only the hierarchical test has one).")
    if len(rows) > MAX_FOREST_DATASETS:
        raise InputError(f"A forest plot shows at most {MAX_FOREST_DATASETS} data sets; this result has {len(rows)}.")
    rows = rows.sort_values("delta", kind="stable")
    labels = [_h(v) for v in rows["dataset"]]
    # Two data sets with the same name would share a row: make the labels unique, keeping the names readable.
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} ({seen[label]})"
    delta = rows["delta"].to_numpy(float)
    err_hi = rows["delta_high"].to_numpy(float) - delta
    err_lo = delta - rows["delta_low"].to_numpy(float)
    colours = np.where(rows["delta_low"] > result.rope, _REGION_COLORS[0],
                       np.where(rows["delta_high"] < -result.rope, _REGION_COLORS[2], _REGION_COLORS[1]))
    traces = [
        {"type": "scatter", "x": rows["mean_difference"].to_numpy(float), "y": labels, "mode": "markers",
         "name": "observed mean difference", "marker": {"symbol": "circle-open", "size": 9, "color": "#555555"},
         "hovertemplate": "%{y}: observed %{x:.4g}<extra></extra>"},
        {"type": "scatter", "x": delta, "y": labels, "mode": "markers", "name": "shrunk δ_i (95% interval)",
         "marker": {"size": 9, "color": list(colours)},
         "error_x": {"type": "data", "symmetric": False, "array": err_hi, "arrayminus": err_lo, "thickness": 1.5,
                     "color": "#444444"},
         "hovertemplate": "%{y}: δ %{x:.4g}<extra></extra>"},
    ]
    delta0 = float(np.mean(result.posterior["delta0"])) if result.posterior else float("nan")
    shapes = [{"type": "rect", "xref": "x", "yref": "paper", "x0": -result.rope, "x1": result.rope, "y0": 0, "y1": 1,
               "fillcolor": "rgba(157,157,157,0.25)", "line": {"width": 0}, "layer": "below"},
              {"type": "line", "xref": "x", "yref": "paper", "x0": 0, "x1": 0, "y0": 0, "y1": 1,
               "line": {"color": "#888888", "width": 1}}]
    if np.isfinite(delta0):
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": delta0, "x1": delta0, "y0": 0, "y1": 1,
                       "line": {"color": "#222222", "width": 1.5, "dash": "dash"}})
    height = 140 + 26 * len(rows)
    return _figure(traces, {
        "title": f"Per data set: observed and shrunk differences ({_h(x_name)} − {_h(y_name)}, positive favours "
                 f"{_h(x_name)}); grey band: ROPE ±{result.rope:g}; dashed: mean over data sets δ0 = {delta0:.4g}",
        "xaxis": {"title": "difference", "zeroline": False},
        "yaxis": {"automargin": True, "type": "category"},
        "shapes": shapes, "height": height, "legend": {"orientation": "h", "y": -0.12 if len(rows) < 15 else -0.04},
        "margin": {"l": 40, "r": 20, "t": 80, "b": 60},
    })
