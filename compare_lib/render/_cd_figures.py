"""The critical-difference diagram as a plotly figure (Demšar 2006, §3.2.4, Figure 1), horizontal or vertical
(for a phone), its caption, and its static exports (SVG, PNG, TikZ through :mod:`compare_lib.render._cd_static`)."""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from compare_lib.core._result import as_frame
from compare_lib.errors import InputError
from compare_lib.render._cd_layout import CDLayout, CDLine, CDLink, UNJOINED_NOTE, _cd_axis, _short, cd_layout
from compare_lib.render._style import (
    CONTROL_COLOR, DIFFERENT_COLOR, FONT_PX, GROUP_COLOR, INK, LINE_COLOR, _CHAR_PX, _figure, _h, _hs, _text_px,
    _wrap, figure_image
)


#: Effect sizes listed in a CD-diagram hover: against this many classifiers nearest in mean rank.
CD_HOVER_EFFECTS = 6


def _effect_hover(result: pd.DataFrame) -> dict[str, str]:
    """Per classifier, hover lines with the effect sizes of a :func:`compare_lib.with_effect_sizes`
    result against the classifiers nearest in mean rank (positive: the hovered one is better)."""
    result = as_frame(result)
    if "effect" not in result.columns or result.empty:
        return {}
    ranks = result.attrs["mean_ranks"]
    flip_to_one = result.attrs.get("effect_measure") == "prob_superiority"  # the mirror of p is 1 - p
    mirror = (lambda v: 1 - v) if flip_to_one else (lambda v: -v)
    both = pd.concat([
        pd.DataFrame({"name": result["a"], "other": result["b"], "e": result["effect"], "lo": result["effect_low"],
                      "hi": result["effect_high"]}),
        pd.DataFrame({"name": result["b"], "other": result["a"], "e": mirror(result["effect"]),
                      "lo": mirror(result["effect_high"]), "hi": mirror(result["effect_low"])}),
    ], ignore_index=True)
    both["gap"] = (both["name"].map(ranks) - both["other"].map(ranks)).abs()
    both = both.sort_values(["name", "gap"], kind="stable").groupby("name", sort=False).head(CD_HOVER_EFFECTS)
    fmt = ("{:.3g}" if flip_to_one else "{:+.3g}").format
    interval = np.where(both["lo"].notna(), " [" + both["lo"].map(fmt) + ", " + both["hi"].map(fmt) + "]", "")
    both["line"] = "<br>vs " + both["other"].map(_h) + ": " + both["e"].map(fmt) + interval
    label = _h(result.attrs.get("effect_label", "effect size"))
    level = result.attrs.get("effect_level", 0.95)
    head = f"<br><i>{label} ({level:.0%} interval)</i>"
    return (head + both.groupby("name", sort=False)["line"].agg("".join)).to_dict()


_CD_ORIENTATIONS = ("auto", "horizontal", "vertical")
#: Pairs named one by one in :func:`cd_caption`; beyond, their number (:func:`compare_lib.unjoined_pairs` lists all).
CD_CAPTION_PAIRS = 6


def _unjoined_hover(link: CDLink) -> str:
    from compare_lib.render._report import format_p

    return (f"<b>not significantly different</b>, though no bar joins them<br>{_h(link.a)} and {_h(link.b)}"
            f"<br>adjusted p = {format_p(link.p_adj)}<br>(a bar spanning both would span a rejected pair)")


def cd_caption(result) -> str:
    """What the CD diagram of ``result`` shows, as plain text for a caption (issue 28): the dashboard writes it
    under the diagram and the reports under their figure. Names are as they are: escape them for the medium.

    All pairs: what the bars mean (with the procedure), the CD where there is one, and each pair that is not
    rejected though no bar joins it (:func:`compare_lib.unjoined_pairs`, drawn dashed): "C4.5+m+cf and C4.5 are
    not significantly different (adjusted p = 0.062), though no bar joins them"; when there is none, that every
    pair without a common bar is significantly different. Versus a control: the classifiers found different
    from it, and the band of one CD around it where the procedure has one.
    """
    from compare_lib.render._report import format_p

    frame = as_frame(result)
    lay = cd_layout(frame)
    procedure = html.unescape(lay.title)
    if lay.control is not None:
        found = list(lay.different_from_control)
        text = (f"Versus the control {lay.control} ({procedure}): "
                + (f"{', '.join(found)} {'is' if len(found) == 1 else 'are'} significantly different from it (marked); "
                   if found else "no classifier is significantly different from it; ")
                + "an unmarked classifier is not.")
        if lay.control_interval is not None:
            text += f" The band spans one critical difference (CD = {lay.cd:.3f}) on either side of {lay.control}."
        return text
    text = (f"Thick bars join classifiers that are not significantly different ({procedure}); no bar spans a "
            "rejected pair.")
    if lay.cd is not None:
        text += f" CD = {lay.cd:.3f} is the critical difference: mean ranks at least that far apart differ."
    links = sorted(lay.links, key=lambda x: (x.low, x.high, x.a, x.b))
    if not links:
        return text + " Every pair without a common bar is significantly different."
    named = [f"{x.a} and {x.b} are not significantly different (adjusted p = {format_p(x.p_adj)}), though no bar "
             "joins them" for x in links[:CD_CAPTION_PAIRS]]
    more = len(links) - len(named)
    text += " " + "; ".join(named)
    if more:
        text += f"; and {more} more pair{'s' if more > 1 else ''} likewise"
    return text + (" (dashed line" + ("s" if len(links) > 1 else "") + ": a bar spanning both would span a "
                   "rejected pair).")


def cd_diagram(result: pd.DataFrame, *, width: int | None = None, orientation: str = "auto") -> go.Figure:
    """Interactive critical-difference diagram of a post-hoc result.

    The axis shows mean ranks with the best on the right. All pairs: a thick bar joins each group of
    classifiers not significantly different under the result's own procedure (a bar never spans a
    rejected pair), a thin dashed line each pair that is not rejected though no bar can join it
    (:func:`compare_lib.unjoined_pairs`, issue 28; :func:`cd_caption` names them), and the CD is drawn
    where the procedure has one (Nemenyi). Versus a
    control (Demšar's Figure 1b): the control is highlighted, classifiers the procedure finds
    different from it are marked, and with Bonferroni-Dunn the interval of one CD on either side of
    the control is drawn. Tap or hover a name for its mean rank, a bar for the largest APV inside the group.

    ``orientation="horizontal"`` is Demšar's figure; ``"vertical"`` turns it for a narrow screen: the rank
    axis runs down with the best at the top, the names are stacked to its right at their mean ranks (long
    ones wrapped at word boundaries), the group bars and the CD are vertical bars beside the axis, and the
    whole fits about 320 px. ``"auto"`` (the default) draws the horizontal one unless ``width`` is given and
    narrower than the horizontal one's ``layout.meta["min_width"]``. ``layout.meta["orientation"]`` says
    which was drawn; ``layout.meta["min_width"]`` how narrow it can go without crowding its labels.
    """
    if orientation not in _CD_ORIENTATIONS:
        raise InputError(f"orientation must be one of {', '.join(_CD_ORIENTATIONS)}; got {orientation!r}.")
    result = as_frame(result)
    lay = cd_layout(result)
    if orientation != "vertical":
        fig = _cd_horizontal(result, lay, width)
        if orientation == "horizontal" or width is None or width >= fig.layout.meta["min_width"]:
            return fig
    return _cd_vertical(result, lay, width)


def _cd_style(lay: CDLayout, ln: CDLine, effect_hover: dict[str, str]) -> tuple[str, str, bool]:
    """(colour, hover text, bold) of one classifier's line and name."""
    color = LINE_COLOR
    if lay.control is not None:
        color = CONTROL_COLOR if ln.name == lay.control else DIFFERENT_COLOR if ln.name in lay.different_from_control else LINE_COLOR
    hover = f"<b>{_h(ln.name)}</b><br>mean rank {ln.mean_rank:.3f}"
    if lay.control is not None and ln.name != lay.control:
        hover += "<br>" + ("different from " if ln.name in lay.different_from_control else "not shown different from ") + _h(lay.control)
    hover += effect_hover.get(ln.name, "")
    return color, hover, lay.control is not None and ln.name == lay.control


def _cd_horizontal(result: pd.DataFrame, lay: CDLayout, width: int | None) -> go.Figure:
    k = lay.k
    lo, hi = _cd_axis(lay)
    span = hi - lo
    ext = 0.06 * span + 0.15
    x_left, x_right = hi + ext, lo - ext
    # Vertical positions in pixels: the axis at 0, positive upwards.
    bar_rows = lay.rows  # the bars', then the dashed links' rows
    first_line = -(16 + 11 * bar_rows + (8 if bar_rows else 0))
    step = 24
    n_levels = max((ln.level for ln in lay.lines), default=0) + 1
    bottom = first_line - step * (n_levels - 1) - 14
    top = 62 if lay.cd is not None else 34
    # Plain dicts and one unvalidated Figure: building a figure trace by trace through plotly's
    # validators costs ~40 ms, most of an analysis.
    traces: list[dict] = []

    def line_trace(xs, ys, *, name, color=LINE_COLOR, width_px=1.2, hover=None, meta=None, opacity=1.0):
        traces.append(
            dict(
                type="scatter", x=xs, y=ys, mode="lines", name=name, meta=meta, opacity=opacity,
                line=dict(color=color, width=width_px), hoverinfo="text" if hover else "skip", hovertext=hover,
                showlegend=False,
            )
        )

    # Axis and ticks.
    line_trace([lo, hi], [0, 0], name="axis", width_px=1.5)
    ticks_x, ticks_y = [], []
    for r in range(lo, hi + 1):
        ticks_x += [r, r, None]
        ticks_y += [0, 6, None]
    line_trace(ticks_x, ticks_y, name="ticks", width_px=1.2)
    traces.append(dict(type="scatter", x=list(range(lo, hi + 1)), y=[16] * (span + 1), mode="text",
                       text=[str(r) for r in range(lo, hi + 1)], textfont=dict(size=FONT_PX), hoverinfo="skip",
                       showlegend=False, name="tick labels"))

    # Control interval (Bonferroni-Dunn) under everything else.
    if lay.control_interval is not None:
        c_lo, c_hi = lay.control_interval
        line_trace(
            [max(c_lo, lo), min(c_hi, hi)], [0, 0], name="control interval", color=CONTROL_COLOR,  # within the axis
            width_px=9, hover=f"{_h(lay.control)} ± CD: mean ranks {c_lo:.3f} to {c_hi:.3f}", meta=[c_lo, c_hi], opacity=0.35,
        )

    # Classifier elbows (one trace per colour) and names.
    annotations = []
    elbows: dict[str, tuple[list, list]] = {}
    marker_x, marker_color, marker_hover = [], [], []
    effect_hover = _effect_hover(result)
    for ln in lay.lines:
        y = first_line - step * ln.level
        edge = x_right if ln.side == "right" else x_left
        color, hover, bold = _cd_style(lay, ln, effect_hover)
        xs, ys = elbows.setdefault(color, ([], []))
        xs += [ln.mean_rank, ln.mean_rank, edge, None]
        ys += [0, y, y, None]
        marker_x.append(ln.mean_rank)
        marker_color.append(color)
        marker_hover.append(hover)
        label = _short(ln.name)
        text = f"<b>{_h(label)}</b>" if bold else _h(label)
        annotations.append(
            dict(
                x=edge, y=y, xref="x", yref="y", text=f"{text}  <span style='font-size:{FONT_PX}px'>({ln.mean_rank:.2f})</span>"
                if ln.side == "left" else f"<span style='font-size:{FONT_PX}px'>({ln.mean_rank:.2f})</span>  {text}",
                showarrow=False, xanchor="right" if ln.side == "left" else "left", yanchor="middle",
                font=dict(size=14), hovertext=_h(ln.name) if label != ln.name else None,
            )
        )
    for color, (xs, ys) in elbows.items():
        line_trace(xs, ys, name="classifiers", color=color)
    traces.append(dict(type="scatter", x=marker_x, y=[0] * len(marker_x), mode="markers", name="mean ranks",
                       marker=dict(size=7, color=marker_color), hoverinfo="text", hovertext=marker_hover,
                       meta=[ln.name for ln in lay.lines], showlegend=False))

    # Group bars.
    for bar in lay.bars:
        y = -(14 + 11 * bar.row)
        pad = 0.02 * max(k - 1, 1)
        hover = (
            f"<b>not significantly different</b><br>{_h(', '.join(bar.members))}"
            f"<br>largest adjusted p inside: {bar.max_apv:.4g}"
        )
        line_trace([bar.low - pad, bar.high + pad], [y, y], name="group", color=GROUP_COLOR, width_px=6, hover=hover,
                   meta=list(bar.members))
    # Pairs not rejected that no bar joins: a thin dashed line between the two mean ranks (issue 28).
    for link in lay.links:
        y = -(14 + 11 * link.row)
        traces.append(_unjoined_trace([link.low, link.high], [y, y], link))

    # The critical difference, above the axis at the left end (as in Demšar's Figure 1).
    if lay.cd is not None:
        start = hi
        end = hi - lay.cd
        line_trace([start, end], [44, 44], name="cd", color=GROUP_COLOR, width_px=2.5,
                   hover=f"critical difference {lay.cd:.3f}", meta=lay.cd)
        line_trace([start, start, None, end, end], [39, 49, None, 39, 49], name="cd ends", color=GROUP_COLOR, width_px=2)
        annotations.append(dict(x=(start + end) / 2, y=54, xref="x", yref="y", text=f"CD = {lay.cd:.3f}",
                                showarrow=False, yanchor="bottom", font=dict(size=FONT_PX)))

    max_left = max((len(_short(ln.name)) for ln in lay.lines if ln.side == "left"), default=0) + 8
    max_right = max((len(_short(ln.name)) for ln in lay.lines if ln.side == "right"), default=0) + 8
    margin = dict(l=int(max_left * _CHAR_PX) + 12, r=int(max_right * _CHAR_PX) + 12, t=46, b=8)
    min_width = int(margin["l"] + margin["r"] + max(220, 44 * (span + 2 * ext)))
    if lay.links:  # the legend of the dashed lines, centred under the diagram (on two lines if it is narrow)
        one_line = _text_px("- - -  " + UNJOINED_NOTE, FONT_PX) <= min_width - 20
        room = 28 if one_line else 46
        traces.append(_note_trace((x_left + x_right) / 2, bottom - 2 - room / 2, one_line, FONT_PX, "middle center"))
        bottom -= room
    height = int(top - bottom) + margin["t"] + margin["b"]
    layout = dict(
        annotations=annotations,
        xaxis=dict(range=[x_left, x_right], visible=False, fixedrange=True),
        yaxis=dict(range=[bottom, top], visible=False, fixedrange=True),
        height=height,
        width=width,
        margin=margin,
        title=dict(text=lay.title, font=dict(size=FONT_PX), x=0, xanchor="left"),
        hovermode="closest",
        showlegend=False,
        # The narrowest width at which the axis keeps ~44 px per rank and the names their margins: an app
        # can scroll sideways below it instead of squeezing the diagram (or draw the vertical diagram).
        meta=dict(min_width=min_width, orientation="horizontal"),
    )
    return _figure(traces, layout)


def _unjoined_trace(xs, ys, link: CDLink) -> dict:
    return dict(type="scatter", x=xs, y=ys, mode="lines+markers", name="unjoined", meta=[link.a, link.b],
                line=dict(color=GROUP_COLOR, width=1.5, dash="dash"), marker=dict(size=5, color=GROUP_COLOR),
                hoverinfo="text", hovertext=_unjoined_hover(link), showlegend=False)


def _note_trace(x: float, y: float, one_line: bool, size: int, position: str) -> dict:
    """The legend of the dashed lines as a text trace (not an annotation: those are the names and the CD)."""
    text = "- - -  " + (UNJOINED_NOTE if one_line else UNJOINED_NOTE.replace(", ", ",<br>"))
    return dict(type="scatter", x=[x], y=[y], mode="text", text=[text], textposition=position, cliponaxis=False,
                textfont=dict(size=size, color=INK), hoverinfo="skip", showlegend=False, name="unjoined note")


# The vertical diagram, for a narrow screen. Its x coordinates are pixels of a design width (the chart may be
# stretched wider, never narrower than meta.min_width); its y coordinates are mean ranks, best at the top.
_V_WIDTH = 320  # px: fits the 328 px column of a 360 px phone
_V_MARGIN = 4
_V_SIZE = 13  # px: the names
_V_RANK_SIZE = 11  # px: the mean rank after a name, the tick labels
_V_LINE = 1.3 * _V_SIZE  # plotly's line spacing in multi-line text
_V_GAP = 5.0  # px between two stacked names (their boxes, with plotly's padding, do not touch)
_V_PAD = 12.0  # px: names may reach this far beyond either end of the axis


def _stack(centres: list[float], heights: list[float], gap: float, low: float, high: float) -> list[float]:
    """Centres of labels kept in their order, at least ``gap`` apart and within [low, high], as near as
    possible (least squares) to the wanted ``centres``: isotonic regression (pool adjacent violators) of the
    wanted top edges minus the room the labels above need."""
    offsets, room = [], 0.0
    for h in heights:
        offsets.append(room)
        room += h + gap
    targets = [c - h / 2 - o for c, h, o in zip(centres, heights, offsets)]
    blocks: list[list[float]] = []  # [sum, count]
    for t in targets:
        blocks.append([t, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            s, n = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    fitted = [b[0] / b[1] for b in blocks for _ in range(int(b[1]))]
    upper = high - offsets[-1] - heights[-1] if heights else high
    return [min(max(s, low), max(upper, low)) + o + h / 2 for s, o, h in zip(fitted, offsets, heights)]


def _cd_vertical(result: pd.DataFrame, lay: CDLayout, width: int | None) -> go.Figure:
    k = lay.k
    lo, hi = _cd_axis(lay)
    span = hi - lo
    total = max(240, int(width)) if width else _V_WIDTH
    plot_w = total - 2 * _V_MARGIN
    # x positions (px): [CD bar] tick labels | axis | group bars | elbows | names.
    axis_x = 48.0 if lay.cd is not None else 34.0
    bar_rows = lay.rows  # the bars', then the dashed links' columns
    row_step = min(8.0, max(2.0, 80.0 / bar_rows)) if bar_rows else 0.0
    bar_px = max(1.5, min(5.0, row_step - 2))

    def bar_x(row: int) -> float:
        return axis_x + 9 + row_step * row

    bars_end = bar_x(bar_rows - 1) if bar_rows else axis_x
    elbow_a = bars_end + 8
    elbow_b = elbow_a + 14
    label_x = elbow_b + 4
    budget = max(120.0, plot_w - label_x)

    # The names, wrapped to the room right of the elbows, best first.
    order = sorted(lay.lines, key=lambda ln: (ln.mean_rank, ln.name))
    effect_hover = _effect_hover(result)
    labels, heights, widths = [], [], []
    for ln in order:
        lines = _wrap(_short(ln.name), budget, _V_SIZE)
        rank = f"({ln.mean_rank:.2f})"
        rank_px = _text_px(rank, _V_RANK_SIZE)
        bold = _cd_style(lay, ln, effect_hover)[2]
        html_lines = [f"<b>{_h(x)}</b>" if bold else _h(x) for x in lines]
        rank_html = f"<span style='font-size:{_V_RANK_SIZE}px'>{rank}</span>"
        line_px = [_text_px(x, _V_SIZE) for x in lines]
        if line_px[-1] + 6 + rank_px <= budget:  # the mean rank after the name, else on a line of its own
            html_lines[-1] += "  " + rank_html
            line_px[-1] += 6 + rank_px
        else:
            html_lines.append(rank_html)
            line_px.append(rank_px)
        labels.append("<br>".join(html_lines))
        heights.append(len(html_lines) * _V_LINE)
        widths.append(max(line_px))

    # Pixels per rank: at least 40 (26 on a long axis), more when the stacked names need more room.
    need = sum(heights) + _V_GAP * (k - 1)
    ppr = max(40.0 if span <= 12 else 26.0, (need - 2 * _V_PAD) / max(span, 1))
    cd_room = 34.0 if lay.cd is not None else 0.0
    plot_h = cd_room + 2 * _V_PAD + span * ppr
    r_top = lo - (cd_room + _V_PAD) / ppr
    r_bottom = hi + _V_PAD / ppr
    centres = _stack([(ln.mean_rank - r_top) * ppr for ln in order], heights, _V_GAP, cd_room, plot_h)
    label_ranks = [r_top + c / ppr for c in centres]
    note_lines = ["- - -  " + UNJOINED_NOTE.split(", ")[0] + ",", UNJOINED_NOTE.split(", ")[1]] if lay.links else []
    if note_lines:  # the legend of the dashed lines, under the names
        note_room = len(note_lines) * _V_LINE + 8
        note_rank = r_bottom + (note_room / 2) / ppr
        plot_h += note_room
        r_bottom += note_room / ppr

    traces: list[dict] = []

    def line_trace(xs, ys, *, name, color=LINE_COLOR, width_px=1.2, hover=None, meta=None, opacity=1.0):
        traces.append(dict(type="scatter", x=xs, y=ys, mode="lines", name=name, meta=meta, opacity=opacity,
                           line=dict(color=color, width=width_px), hoverinfo="text" if hover else "skip",
                           hovertext=hover, showlegend=False))

    # Axis, ticks to its left, every integer rank labelled.
    line_trace([axis_x, axis_x], [lo, hi], name="axis", width_px=1.5)
    ticks_x, ticks_y = [], []
    for r in range(lo, hi + 1):
        ticks_x += [axis_x - 6, axis_x, None]
        ticks_y += [r, r, None]
    line_trace(ticks_x, ticks_y, name="ticks", width_px=1.2)
    traces.append(dict(type="scatter", x=[axis_x - 8] * (span + 1), y=list(range(lo, hi + 1)), mode="text",
                       text=[str(r) for r in range(lo, hi + 1)], textposition="middle left",
                       textfont=dict(size=_V_RANK_SIZE + 1), hoverinfo="skip", showlegend=False, name="tick labels"))

    if lay.control_interval is not None:
        c_lo, c_hi = lay.control_interval
        line_trace([axis_x, axis_x], [max(c_lo, lo), min(c_hi, hi)], name="control interval", color=CONTROL_COLOR,
                   width_px=9, hover=f"{_h(lay.control)} ± CD: mean ranks {c_lo:.3f} to {c_hi:.3f}", meta=[c_lo, c_hi],
                   opacity=0.35)

    # Elbows: across from the axis past the group bars, then slanting to the stacked name (names keep the
    # order of the mean ranks, so that no two elbows cross).
    annotations = []
    elbows: dict[str, tuple[list, list]] = {}
    marker_y, marker_color, marker_hover = [], [], []
    for ln, text, y_label in zip(order, labels, label_ranks):
        color, hover, _ = _cd_style(lay, ln, effect_hover)
        xs, ys = elbows.setdefault(color, ([], []))
        xs += [axis_x, elbow_a, elbow_b, None]
        ys += [ln.mean_rank, ln.mean_rank, y_label, None]
        marker_y.append(ln.mean_rank)
        marker_color.append(color)
        marker_hover.append(hover)
        annotations.append(dict(x=label_x, y=y_label, xref="x", yref="y", text=text, showarrow=False, xanchor="left",
                                yanchor="middle", align="left", font=dict(size=_V_SIZE),
                                hovertext=_h(ln.name) if _short(ln.name) != ln.name else None))
    for color, (xs, ys) in elbows.items():
        line_trace(xs, ys, name="classifiers", color=color)
    traces.append(dict(type="scatter", x=[axis_x] * len(order), y=marker_y, mode="markers", name="mean ranks",
                       marker=dict(size=7, color=marker_color), hoverinfo="text", hovertext=marker_hover,
                       meta=[ln.name for ln in order], showlegend=False))

    pad = 0.02 * max(k - 1, 1)
    for bar in lay.bars:
        hover = (f"<b>not significantly different</b><br>{_h(', '.join(bar.members))}"
                 f"<br>largest adjusted p inside: {bar.max_apv:.4g}")
        x = bar_x(bar.row)
        line_trace([x, x], [bar.low - pad, bar.high + pad], name="group", color=GROUP_COLOR, width_px=bar_px,
                   hover=hover, meta=list(bar.members))
    for link in lay.links:  # issue 28: not rejected, yet no bar joins them
        x = bar_x(link.row)
        traces.append(_unjoined_trace([x, x], [link.low, link.high], link))
    if note_lines:
        traces.append(_note_trace(0, note_rank, False, _V_SIZE, "middle right"))

    # The critical difference: a vertical bar left of the tick labels from the best end, labelled above it.
    if lay.cd is not None:
        start, end = lo, lo + lay.cd
        line_trace([8, 8], [start, end], name="cd", color=GROUP_COLOR, width_px=2.5,
                   hover=f"critical difference {lay.cd:.3f}", meta=lay.cd)
        line_trace([4, 12, None, 4, 12], [start, start, None, end, end], name="cd ends", color=GROUP_COLOR, width_px=2)
        annotations.append(dict(x=0, y=r_top + (cd_room - 4) / ppr, xref="x", yref="y", text=f"CD = {lay.cd:.3f}",
                                showarrow=False, xanchor="left", yanchor="bottom", font=dict(size=12)))

    # "α = 0.05" stays on one line (no-break spaces, drawn as spaces).
    title_lines = _wrap(html.unescape(lay.title).replace(" = ", "\u00a0=\u00a0"), plot_w, 13)
    margin = dict(l=_V_MARGIN, r=_V_MARGIN, t=int(14 + 18 * len(title_lines)), b=6)
    need_w = max([label_x + w for w in widths] + [_text_px(x, 13) for x in title_lines]
                 + [_text_px(x, _V_SIZE) for x in note_lines])
    layout = dict(
        annotations=annotations,
        xaxis=dict(range=[0, plot_w], visible=False, fixedrange=True),
        yaxis=dict(range=[r_bottom, r_top], visible=False, fixedrange=True),  # best at the top
        height=int(math.ceil(plot_h)) + margin["t"] + margin["b"],
        width=width,
        margin=margin,
        title=dict(text="<br>".join(_hs(title_lines)), font=dict(size=13), x=0, xanchor="left"),
        hovermode="closest",
        showlegend=False,
        meta=dict(orientation="vertical", min_width=int(math.ceil(need_w)) + 2 * _V_MARGIN, px_per_rank=ppr,
                  line_px=_V_LINE, gap_px=_V_GAP),
    )
    return _figure(traces, layout)


def cd_svg(result, *, width: int | None = None, font_family: str = "Helvetica, Arial, sans-serif") -> str:
    """The CD diagram of :func:`cd_diagram` as a standalone SVG document, written without a browser
    (paper-ready: black on white, names escaped); see :mod:`compare_lib.render._cd_static`."""
    from compare_lib.render._cd_static import cd_svg as render

    return render(result, width=width, font_family=font_family)


def cd_png(result, *, scale: float = 2.0) -> bytes:
    """The CD diagram as PNG, rasterized from :func:`cd_svg` by resvg (a small library, no browser: ~60 ms and
    no memory kept); where resvg is not installed, by kaleido like any figure (:func:`figure_image`)."""
    try:
        import resvg_py
    except ImportError:
        return figure_image(cd_diagram(result), "png", scale=scale)
    return bytes(resvg_py.svg_to_bytes(svg_string=cd_svg(result), zoom=float(scale), background="#ffffff"))


def cd_tikz(result, *, width_cm: float = 12.0) -> str:
    """The CD diagram as a TikZ picture for ``\\input`` in a paper (needs ``\\usepackage{tikz}``)."""
    from compare_lib.render._cd_static import cd_tikz as render

    return render(result, width_cm=width_cm)
