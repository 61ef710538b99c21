"""Figures of item-level comparisons (issue 30): the pairs x tasks heatmap of paired differences with their
significance, and the forest plot of one pair's per-task differences with their intervals.

Both take the DataFrames of :func:`compare_lib.item_comparison_all` / :func:`compare_lib.item_comparison` and
draw only what those hold (no statistic is computed here). Names from the data are escaped (plotly renders a
subset of HTML in labels). The forest plot follows the usual meta-analysis layout (one row per study, the
point estimate with its confidence interval, a line at no difference; Lewis & Clarke 2001, BMJ 322:1479).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.render._style import DIFFERENT_COLOR, FONT_PX, GROUP_COLOR, LINE_COLOR, _colorbar, _figure, _h, _hs, _label_axis, _phone_labels, _row_axis

#: Cells (pairs x tasks) of the heatmap; rows (tasks) of the forest plot. Beyond, the table is the view.
MAX_HEATMAP_CELLS = 20_000
MAX_FOREST_TASKS = 500

_NEEDED_ALL = ("a", "b", "task", "diff", "p", "p_adj", "reject")
_NEEDED_PAIR = ("task", "diff", "ci_low", "ci_high", "p", "p_adj", "reject")


def _check(result, needed, what: str) -> pd.DataFrame:
    if not isinstance(result, pd.DataFrame):
        raise InputError(f"The {what} needs the DataFrame of compare_lib.{'item_comparison_all' if 'a' in needed else 'item_comparison'}, "
                         f"got {type(result).__name__}.")
    missing = [c for c in needed if c not in result.columns]
    if missing:
        raise InputError(f"The {what} needs the columns {', '.join(needed)}; this result lacks {', '.join(missing)}.")
    if result.empty:
        raise InputError(f"The {what} has nothing to draw: the result has no rows.")
    return result


def _p_text(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def item_heatmap_figure(result: pd.DataFrame, *, title: str | None = None, metric: str | None = None):
    """The pairs x tasks heatmap of :func:`compare_lib.item_comparison_all`: each cell the paired difference
    ``diff`` = mean_a - mean_b over the items both models have (a diverging scale centred at 0), marked ``*``
    where the adjusted p-value is at most α (``reject``); the hover gives n, the means, the interval and both
    p-values. Rows are the pairs ("a − b"), columns the tasks. Refused beyond :data:`MAX_HEATMAP_CELLS` cells."""
    import plotly.graph_objects as go

    result = _check(result, _NEEDED_ALL, "item heatmap")
    pairs = list(dict.fromkeys(zip(result["a"].astype(str), result["b"].astype(str))))
    tasks = sorted(result["task"].astype(str).unique())
    if len(pairs) * len(tasks) > MAX_HEATMAP_CELLS:
        raise InputError(f"The heatmap is drawn for up to {MAX_HEATMAP_CELLS:,} cells (pairs × tasks); this result has "
                         f"{len(pairs):,} × {len(tasks):,}. Keep fewer models or tasks, or use the table.")
    labels = [f"{a} − {b}" for a, b in pairs]
    row = {p: i for i, p in enumerate(pairs)}
    col = {t: j for j, t in enumerate(tasks)}
    i = np.array([row[(str(a), str(b))] for a, b in zip(result["a"], result["b"])])
    j = result["task"].astype(str).map(col).to_numpy()
    shape = (len(pairs), len(tasks))
    z = np.full(shape, np.nan)
    z[i, j] = result["diff"].to_numpy(dtype=float)
    mark = np.full(shape, "", dtype=object)
    mark[i, j] = np.where(result["reject"].to_numpy(dtype=bool), "*", "")
    hover = np.full(shape, "no shared item", dtype=object)
    lo = result["ci_low"].to_numpy(dtype=float) if "ci_low" in result else np.full(len(result), np.nan)
    hi = result["ci_high"].to_numpy(dtype=float) if "ci_high" in result else np.full(len(result), np.nan)
    n = result["n"].to_numpy() if "n" in result else np.full(len(result), -1)
    hover[i, j] = [f"n = {int(nn):,}<br>difference {d:.4g} [{a:.4g}, {b:.4g}]<br>p = {_p_text(p)}, adjusted "
                   f"{_p_text(q)}{' (significant)' if r else ''}"
                   for nn, d, a, b, p, q, r in zip(n, result["diff"], lo, hi, result["p"], result["p_adj"],
                                                   result["reject"])]
    bound = float(np.nanmax(np.abs(z))) if np.isfinite(z).any() else 1.0
    bound = bound if bound > 0 else 1.0
    chars, size = _phone_labels(len(tasks))
    height = min(1600, max(320, 28 * len(pairs) + 170))
    what = metric or "score"
    fig = go.Figure(go.Heatmap(
        z=z, x=_hs(tasks), y=_hs(labels), text=mark, texttemplate="%{text}", textfont=dict(size=FONT_PX + 2),
        customdata=hover, colorscale="RdBu", zmid=0, zmin=-bound, zmax=bound,
        colorbar=_colorbar(f"mean difference in {what} (a − b)"),
        hovertemplate="%{y} on %{x}<br>%{customdata}<extra></extra>", xgap=1, ygap=1,
    ))
    test = result.attrs.get("test")
    alpha = result.attrs.get("alpha")
    default = (f"Paired difference per task{f' ({test})' if test else ''}; * adjusted p ≤ α"
               + (f" = {alpha:g}" if isinstance(alpha, (int, float)) else ""))
    return _figure(fig, dict(
        title=default if title is None else title, height=height,
        yaxis=_row_axis(labels, (height - 170) / max(len(pairs), 1), title="pair (a − b)", max_chars=24,
                        autorange="reversed"),
        xaxis=_label_axis(tasks, title="task", max_chars=chars, size=size),
        margin=dict(l=10, r=10, t=60, b=20), meta=dict(min_width=min(1600, 220 + 26 * len(tasks))),
    ))


def item_forest_figure(result: pd.DataFrame, *, title: str | None = None, metric: str | None = None):
    """The forest plot of :func:`compare_lib.item_comparison`: one row per task, the paired difference
    (mean_a - mean_b) with its interval (``ci_low``, ``ci_high``; its level is 1 - α of the comparison), a
    vertical line at no difference; significant tasks (adjusted p ≤ α) in red. Refused beyond
    :data:`MAX_FOREST_TASKS` tasks."""
    import plotly.graph_objects as go

    result = _check(result, _NEEDED_PAIR, "forest plot")
    if len(result) > MAX_FOREST_TASKS:
        raise InputError(f"The forest plot is drawn for up to {MAX_FOREST_TASKS} tasks; this result has {len(result):,}. "
                         "Use the table.")
    rows = result.reset_index(drop=True)
    tasks = rows["task"].astype(str).tolist()
    diff = rows["diff"].to_numpy(dtype=float)
    lo, hi = rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float)
    reject = rows["reject"].to_numpy(dtype=bool)
    hover = [f"difference {d:.4g} [{a:.4g}, {b:.4g}]<br>p = {_p_text(p)}, adjusted {_p_text(q)}"
             + (f"<br>n = {int(nn):,}" if "n" in rows else "")
             for d, a, b, p, q, nn in zip(diff, lo, hi, rows["p"], rows["p_adj"],
                                          rows["n"] if "n" in rows else [0] * len(rows))]
    traces = []
    for flag, colour, name in ((False, GROUP_COLOR, "not significant"), (True, DIFFERENT_COLOR, "significant (adjusted p ≤ α)")):
        keep = reject == flag
        if not keep.any():
            continue
        d = diff[keep]
        traces.append(go.Scatter(
            x=d, y=_hs(np.asarray(tasks, dtype=object)[keep]), mode="markers", name=name,
            marker=dict(color=colour, size=10, symbol="square"),
            error_x=dict(type="data", symmetric=False, array=np.nan_to_num(hi[keep] - d),
                         arrayminus=np.nan_to_num(d - lo[keep]), color=colour, thickness=2, width=6),
            customdata=np.asarray(hover, dtype=object)[keep],
            hovertemplate="%{y}<br>%{customdata}<extra></extra>"))
    fig = go.Figure(traces)
    fig.add_vline(x=0, line_dash="dot", line_color=LINE_COLOR)
    a, b = result.attrs.get("a", "a"), result.attrs.get("b", "b")
    alpha = result.attrs.get("alpha")
    level = f"{(1 - alpha) * 100:g}% " if isinstance(alpha, (int, float)) else ""
    default = f"{a} − {b} per task: mean difference in {metric or 'score'} with its {level}interval"
    height = min(1600, max(300, 30 * len(tasks) + 170))
    span = np.concatenate([lo[np.isfinite(lo)], hi[np.isfinite(hi)], diff[np.isfinite(diff)], [0.0]])
    pad = max(float(np.ptp(span)) * 0.08, 1e-9)
    return _figure(fig, dict(
        title=_h(default) if title is None else title, height=height,
        xaxis=dict(title=_h(f"{a} − {b}"), range=[float(span.min()) - pad, float(span.max()) + pad], zeroline=False),
        yaxis=_row_axis(tasks, (height - 170) / max(len(tasks), 1), title="task", max_chars=20,
                        autorange="reversed"),
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
        margin=dict(l=10, r=10, t=60, b=40), meta=dict(min_width=320),
    ))
