"""Plotly figures built only from result objects and tables (no statistics computed here).

Every figure is built by one function, :func:`_figure` (issue 28): titles of the figure, its axes, colour bars
and legends in plotly's ``{"text": ...}`` form (the plotly.js in the browser draws no bare-string axis title),
chart text at least :data:`FONT_PX` px and near black on white whatever the app's theme (12 px light grey washes
out on a projector; a white chart reads on a dark page too), the title below the toolbar's band at the top, and
heatmap axes that list every name (:func:`_label_axis`: all tick values given, shortened names with the full
name in the hover, the size chosen so that the labels fit a :data:`PHONE_PX`-wide phone).
"""

from __future__ import annotations

import html
import math
import re
import warnings

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ._table import ScoreTable
from ._result import as_frame
from .errors import InputError


def _h(text) -> str:
    """Names from the user as plotly text: plotly renders a subset of HTML (<a href>, <b>, <br>) in
    every label, title and hover, so < > & are written as entities and nothing can form a tag."""
    return html.escape(str(text), quote=False)


def _hs(items) -> list[str]:
    return [_h(x) for x in items]


#: Figures with one row or column per classifier stop being readable (and cheap to send) beyond this.
from .limits import MAX_MATRIX_K  # noqa: E402
#: A forest plot has one labelled row per pair.
from .limits import MAX_FOREST_PAIRS  # noqa: E402
#: A CD diagram has one labelled line per classifier.
from .limits import MAX_CD_K  # noqa: E402


def _check_size(k: int, limit: int, what: str, unit: str = "classifiers") -> None:
    if k > limit:
        raise InputError(f"The {what} is drawn for up to {limit} {unit}; this result has {k}. Use the table instead.")


# ---------------------------------------------------------------------------------------------
# The one way a figure is built (issue 28)

#: Chart text: at least this size (px) everywhere but in the phone-only vertical CD diagram and on a heatmap axis
#: too dense for it at PHONE_PX (see _label_axis), near black, on white.
FONT_PX = 14
TITLE_PX = 16
INK = "#1a1a1a"
PAPER = "#ffffff"
GRID = "#e6e6e6"
AXIS_LINE = "#8c8c8c"
#: The band at the top of a chart where plotly's toolbar (mode bar) appears: a title starts below it.
MODEBAR_PX = 34
#: The width (px) of a phone's chart at which a heatmap must still show every name.
PHONE_PX = 400
#: The smallest label size of a dense heatmap axis (the full name is in the hover).
MIN_LABEL_PX = 9
_EM_PER_CHAR = 0.7  # advance of a sans-serif character, in em (generous: names run wide in a browser)
_LABEL_LINE = 1.25  # a label's line height, in em: what a label turned upright needs along its axis
#: A title line's width: a phone's chart, less the title's pad, less a tenth (Streamlit draws the title bold).
_TITLE_LINE_PX = int((PHONE_PX - 24) / 1.1)
_SIDE_PX = 22  # a heatmap's left and right margins beside its row labels (its colour bar lies above the plot)
_HBAR_PX = 52  # a horizontal colour bar with its tick labels
_BAR_LABEL_CHARS = 20  # names beside the bars of a bar chart, shortened (in full in the hover)
_AXIS_KEY = re.compile(r"^[xy]axis[0-9]*$")
#: Trace types drawn on x/y axes (the others, e.g. scatterternary, have their own axes).
_CARTESIAN = {"scatter", "scattergl", "bar", "heatmap", "box", "violin", "histogram"}
#: Keys that hold data, never a title: not walked.
_DATA_KEYS = {"x", "y", "z", "text", "customdata", "hovertext", "meta", "template", "a", "b", "c", "base",
              "tickvals", "ticktext", "array", "arrayminus"}


def _title(title) -> dict:
    """A title in plotly's dict form: ``{"text": ...}`` from a bare string, a copy of a dict, ``{}`` for none."""
    if title is None:
        return {}
    if isinstance(title, str):
        return {"text": title}
    return dict(title)


def _titles_as_dicts(obj) -> None:
    """Every ``title`` written as a bare string, anywhere in a figure's dicts, in the ``{"text": ...}`` form."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "title" and isinstance(value, str):
                obj[key] = {"text": value}
            elif key not in _DATA_KEYS and isinstance(value, (dict, list)):
                _titles_as_dicts(value)
    elif isinstance(obj, list):
        for value in obj:
            if isinstance(value, (dict, list)):
                _titles_as_dicts(value)


def _font(given, size: int = FONT_PX) -> dict:
    font = dict(given or {})
    font.setdefault("size", size)
    font.setdefault("color", INK)
    return font


def _style_axis(axis, *, ternary: bool = False) -> dict:
    axis = dict(axis or {})
    title = _title(axis.get("title"))
    if title:
        title["font"] = _font(title.get("font"))
        axis["title"] = title
    axis["tickfont"] = _font(axis.get("tickfont"))
    for key, colour in (("gridcolor", GRID), ("zerolinecolor", AXIS_LINE), ("linecolor", AXIS_LINE),
                        ("tickcolor", AXIS_LINE)):
        if not (ternary and key == "zerolinecolor"):  # a ternary axis has no zero line
            axis.setdefault(key, colour)
    return axis


def _top_margin(layout: dict) -> int:
    """Room above the plot: the toolbar's band, the title's lines, and a row for subplot titles or a legend
    placed on top of the plot."""
    need = MODEBAR_PX
    title = layout.get("title") or {}
    if title.get("text"):
        lines = str(title["text"]).count("<br>") + 1
        need += math.ceil(lines * title["font"]["size"] * 1.3) + 8
    if any(a.get("yref") == "paper" and (a.get("y") or 0) >= 1 and a.get("yanchor") == "bottom"
           for a in layout.get("annotations") or ()):
        need += 26  # subplot titles
    legend = layout.get("legend") or {}
    if layout.get("showlegend") is not False and (legend.get("y") or 0) >= 1:
        need += 30
    return need


def _figure(data, layout: dict | None = None) -> go.Figure:
    """Every figure of this module, built one way (issue 28): ``data`` (trace dicts or plotly traces, or a
    whole ``go.Figure`` built with plotly's helpers) and ``layout`` become a figure whose titles (figure, axes,
    colour bars, legends) are all ``{"text": ...}`` dicts, with the project's style: text of at least FONT_PX px
    in INK on a white PAPER (so that it reads on a projector, and in a dark theme as a white card), axis
    titles and tick labels in that ink, the title placed below the toolbar's band (MODEBAR_PX) with the top
    margin grown to fit it (and the height with it, so that the plot keeps its size). Built unvalidated
    (validation costs ~40 ms on a CD diagram); the test suite validates every figure's JSON instead.
    """
    if isinstance(data, go.Figure):  # traces one by one: their arrays stay arrays (not base64 as in the figure's JSON)
        data, layout = list(data.data), {**data.layout.to_plotly_json(), **(layout or {})}
    traces = [t.to_plotly_json() if hasattr(t, "to_plotly_json") else dict(t) for t in data]
    layout = dict(layout or {})
    _titles_as_dicts(traces)
    _titles_as_dicts(layout)

    for trace in traces:  # every x/y axis a trace is drawn on gets the style, even one the layout leaves out
        if trace.get("type", "scatter") in _CARTESIAN:
            for letter in "xy":
                ref = str(trace.get(f"{letter}axis") or letter)
                layout.setdefault(f"{letter}axis{ref[1:]}", {})
        if trace.get("colorbar") is not None:
            bar = dict(trace["colorbar"])
            title = _title(bar.get("title"))
            if title:
                title["font"] = _font(title.get("font"))
                bar["title"] = title
            bar["tickfont"] = _font(bar.get("tickfont"))
            trace["colorbar"] = bar
        if trace.get("textfont") is not None and trace.get("type") != "heatmap":  # heatmap text fits its cells
            trace["textfont"] = _font(trace["textfont"])
    for key in [k for k in layout if _AXIS_KEY.match(k)]:
        layout[key] = _style_axis(layout[key])
    if layout.get("ternary") is not None:
        ternary = dict(layout["ternary"])
        for key in ("aaxis", "baxis", "caxis"):
            ternary[key] = _style_axis(ternary.get(key), ternary=True)
        layout["ternary"] = ternary

    layout["font"] = _font(layout.get("font"))
    legend = dict(layout.get("legend") or {})
    legend["font"] = _font(legend.get("font"))
    if legend.get("title") is not None:
        title = _title(legend["title"])
        title["font"] = _font(title.get("font"))
        legend["title"] = title
    layout["legend"] = legend
    hover = dict(layout.get("hoverlabel") or {})
    hover.setdefault("bgcolor", PAPER)
    hover.setdefault("bordercolor", AXIS_LINE)
    hover["font"] = _font(hover.get("font"))
    layout["hoverlabel"] = hover
    layout["paper_bgcolor"] = PAPER
    layout["plot_bgcolor"] = PAPER
    if layout.get("annotations"):
        layout["annotations"] = [{**a, "font": _font(a.get("font"))} for a in layout["annotations"]]

    title = _title(layout.get("title"))
    if title.get("text"):
        title["font"] = _font(title.get("font"), TITLE_PX)
        title["text"] = _wrap_title(str(title["text"]), title["font"]["size"])
        title.setdefault("x", 0)
        title.setdefault("xanchor", "left")
        # plotly.js lifts a title of several lines anchored at its top by about 0.7 em more than one line (measured
        # in chromium): the pad makes up for it, so that every title starts below the toolbar
        multiline = "<br>" in title["text"]
        pad_t = MODEBAR_PX + (math.ceil(0.75 * title["font"]["size"]) if multiline else 0)
        title.update(yref="container", y=1, yanchor="top", pad={"l": 4, **(title.get("pad") or {}), "t": pad_t})
        layout["title"] = title
    else:
        layout.pop("title", None)
    margin = dict(layout.get("margin") or {})
    old_top = int(margin.get("t", 100))  # plotly's default
    margin["t"] = max(old_top, _top_margin(layout))
    title_room = margin["t"]
    bars = [t["colorbar"] for t in traces if (t.get("colorbar") or {}).get("orientation") == "h"]
    if bars:
        margin["t"] += _HBAR_PX  # a horizontal colour bar lies between the title and the plot (_colorbar)
    if layout.get("height"):
        layout["height"] = int(layout["height"]) + margin["t"] - old_top
        for bar in bars:
            bar.update(yref="container", yanchor="top", y=1 - (title_room + 6) / layout["height"])
    layout["margin"] = margin
    return go.Figure(data=traces, layout=layout, _validate=False)


def _wrap_title(text: str, size: float) -> str:
    """A title in lines that fit a PHONE_PX-wide chart (plotly does not wrap titles: a long one ran off a phone's
    screen). Only plain text is rewrapped (names are entities; a part with markup other than <br> is kept);
    "α = 0.05" and the like stay on one line."""
    lines = []
    for part in text.split("<br>"):
        if re.search(r"<(?!br>)", part):
            lines.append(part)
            continue
        plain = html.unescape(part).replace(" = ", "\u00a0=\u00a0")
        lines += [_h(x).replace("\u00a0", " ") for x in _wrap(plain, _TITLE_LINE_PX, size)]
    return "<br>".join(lines)


def _clip(name, max_chars: int) -> str:
    name = str(name)
    return name if len(name) <= max_chars else name[: max_chars - 1] + "…"


def _fit_px(k: int, max_chars: int) -> int:
    """The label size s (px, at most FONT_PX) at which k labels side by side, turned upright, fit a PHONE_PX-wide
    heatmap beside row labels of max_chars characters of the same size (the colour bar lies above the plot):
    k * LINE * s + max_chars * EM * s + SIDE <= PHONE_PX."""
    room = PHONE_PX - _SIDE_PX
    return int(max(MIN_LABEL_PX, min(FONT_PX, math.floor(room / (k * _LABEL_LINE + max_chars * _EM_PER_CHAR)))))


def _phone_labels(k: int) -> tuple[int, int]:
    """(characters kept of each name, label size in px) for a heatmap with k columns: the longest names that
    keep FONT_PX at PHONE_PX, else names of 10 characters at the size that fits."""
    for chars in (20, 16, 12, 10):
        if _fit_px(k, chars) >= FONT_PX:
            return chars, FONT_PX
    return 10, _fit_px(k, 10)


def _colorbar(title: str, **extra) -> dict:
    """A heatmap's colour bar: thin, lying between the chart's title and the plot rather than beside the plot (on
    a phone the columns need that width), its title before it; _figure places it (in pixels from the top: a bar
    anchored to the plot pushes the margins, and plotly.js then draws the chart's title under the toolbar)."""
    return dict(title=dict(text=title, side="right"), orientation="h", thickness=12, len=0.6, x=0, xanchor="left",
                **extra)  # plotly.js draws a horizontal bar's title beside it, from x = 0


def _label_axis(names, *, title: str, max_chars: int, size: int, **extra) -> dict:
    """A heatmap axis that shows every name (issue 28): plotly skips category labels that would overlap
    unless every tick value is given, so all are, as the (escaped) names themselves; the labels are the names
    shortened to ``max_chars`` (the hover shows the full name), at ``size`` px, turned as far as plotly needs."""
    names = [str(n) for n in names]
    return dict(title=title, tickmode="array", tickvals=_hs(names), ticktext=[_h(_clip(n, max_chars)) for n in names],
                tickfont=dict(size=size), automargin=True, autotickangles=[0, 45, 90], **extra)


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


def _vline(x: float) -> dict:
    """A dotted grey vertical line across the plot at ``x``: the shape ``fig.add_vline(x, line_dash="dot",
    line_color="gray")`` adds, written directly."""
    return dict(type="line", line=dict(color="gray", dash="dot"), x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain")


def _row_axis(names, row_px: float, *, title: str, max_chars: int, size: int = FONT_PX, **extra) -> dict:
    """The row axis of a chart: every name (at most ``size`` px) while the rows are tall enough for a label of
    MIN_LABEL_PX, else plotly's own choice of labels (hundreds of data sets)."""
    size = min(size, math.floor(row_px / _LABEL_LINE))
    if size < MIN_LABEL_PX:
        return dict(title=title, automargin=True, **extra)
    return _label_axis(names, title=title, max_chars=max_chars, size=size, **extra)


def rank_heatmap(table: ScoreTable, *, max_rows: int = 400) -> go.Figure:
    """Ranks per data set and classifier (1 = best); hover shows the score. Columns by mean rank; every
    classifier's name is shown (shortened on a phone, in full in the hover)."""
    order = table.mean_ranks.sort_values().index
    ranks = table.ranks[order]
    scores = table.scores[order]
    if len(ranks) > max_rows:
        ranks, scores = ranks.iloc[:max_rows], scores.iloc[:max_rows]
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


def _matrix_axes(order, row_px: float, *, what: str = "classifier") -> dict:
    """x and y axes of a k x k heatmap of classifiers: every name on both, rows top-down."""
    chars, size = _phone_labels(len(order))
    return dict(xaxis=_label_axis(order, title=f"{what} (column)", max_chars=chars, size=size),
                yaxis=_label_axis(order, title=f"{what} (row)", max_chars=chars,
                                  size=min(size, math.floor(row_px / _LABEL_LINE)), autorange="reversed"))


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


# ---------------------------------------------------------------------------------------------
# Critical-difference diagram (Demšar 2006, §3.2.4, Figure 1)

GROUP_COLOR = "#4C78A8"
LINE_COLOR = "#8c8c8c"
CONTROL_COLOR = "#F58518"
DIFFERENT_COLOR = "#E45756"
from .limits import MAX_NAME_CHARS  # noqa: E402
_CHAR_PX = 8.0  # average width of a 14 px sans-serif character, to size the margins


from ._cd_layout import CDBar, CDLayout, CDLine, CDLink, cd_layout, unjoined_pairs  # noqa: E402,F401
from ._cd_layout import _procedure_title  # noqa: E402


def _short(name: str) -> str:
    return name if len(name) <= MAX_NAME_CHARS else name[: MAX_NAME_CHARS - 1] + "…"


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
#: The legend of the dashed lines (issue 28), in every renderer.
UNJOINED_NOTE = "not significantly different, though no bar joins them"
#: Pairs named one by one in :func:`cd_caption`; beyond, their number (:func:`compare_lib.unjoined_pairs` lists all).
CD_CAPTION_PAIRS = 6


def _unjoined_hover(link: CDLink) -> str:
    from .report import format_p

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
    from .report import format_p

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


def _cd_axis(lay: CDLayout) -> tuple[int, int]:
    """The integer ranks (lo, hi) spanned by the axis of either orientation."""
    k = lay.k
    ranks = [ln.mean_rank for ln in lay.lines]
    # The axis spans the whole ranks 1..k for small k; for many classifiers only the occupied integers,
    # so that the names get room (never shorter than the CD it must show).
    lo, hi = (1, k) if k <= 8 else (max(1, math.floor(min(ranks))), min(k, math.ceil(max(ranks))))
    if hi - lo < 1:
        lo, hi = max(1, lo - 1), min(k, hi + 1)
    if lay.cd is not None and hi - lo < lay.cd:
        lo = max(1, hi - math.ceil(lay.cd))
    return lo, hi


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
_V_BREAK_AFTER = "-_/.+:,;|)]"


def _text_px(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in a proportional sans-serif font of ``size`` px (wide
    letters counted wide, so that an estimate that fits, fits)."""
    import unicodedata

    em = 0.0
    for ch in text:
        if ch in "iIjlft.,:;'|!()[]{} -/\\r":
            em += 0.4
        elif ch in "mwMW@%":
            em += 0.95
        elif ch.isascii():
            em += 0.75 if ch.isupper() else 0.6
        else:
            em += 1.05 if unicodedata.east_asian_width(ch) in "WF" else 0.75
    return em * size


def _wrap(text: str, max_px: float, size: float) -> list[str]:
    """``text`` in lines of at most ``max_px`` (estimated): broken at spaces; a word wider than a line after
    its - _ / . + : and the like and between camelCase humps, and inside a part only where that part alone is
    still wider. Joining the lines gives back the text without the spaces at the breaks (no-break spaces hold)."""

    def fits(s: str) -> bool:
        return _text_px(s, size) <= max_px

    lines: list[str] = []
    line = ""
    for word in (w for w in text.split(" ") if w):
        if fits(f"{line} {word}" if line else word):
            line = f"{line} {word}" if line else word
            continue
        if line:
            lines.append(line)
            line = ""
        if fits(word):
            line = word
            continue
        parts, current = [], ""
        for ch in word:
            if ch.isupper() and current[-1:].islower():
                parts.append(current)
                current = ""
            current += ch
            if ch in _V_BREAK_AFTER:
                parts.append(current)
                current = ""
        if current:
            parts.append(current)
        for part in parts:
            if fits(line + part):
                line += part
                continue
            if line:
                lines.append(line)
            while not fits(part) and len(part) > 1:
                cut = len(part) - 1
                while cut > 1 and not fits(part[:cut]):
                    cut -= 1
                lines.append(part[:cut])
                part = part[cut:]
            line = part
    if line:
        lines.append(line)
    return lines or [text]


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
    (paper-ready: black on white, names escaped); see :mod:`compare_lib._cd_static`."""
    from ._cd_static import cd_svg as render

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
    from ._cd_static import cd_tikz as render

    return render(result, width_cm=width_cm)


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


def figure_image(fig: go.Figure, fmt: str = "png", *, scale: float = 2.0) -> bytes:
    """The figure as PNG or SVG via kaleido (needs Chrome/Chromium), on a white template for papers.

    Raises RuntimeError when no browser is available; callers should then offer :func:`figure_html`.
    """
    static = go.Figure(fig)
    static.update_layout(template="simple_white", paper_bgcolor="white", plot_bgcolor="white")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # plotly: "kopts is ignored if using a server"
        return static.to_image(format=fmt, scale=scale if fmt == "png" else 1, width=static.layout.width or 1000)


def figure_html(fig: go.Figure) -> bytes:
    """A self-contained interactive HTML file (plotly.js embedded; no internet needed)."""
    return fig.to_html(include_plotlyjs=True, full_html=True).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Pool sensitivity (Benavoli, Corani & Mangili 2016)


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


# ---------------------------------------------------------------------------------------------
# Replicability (Demšar 2006, §4; Bouckaert & Frank 2004)

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


# ---------------------------------------------------------------------------------------------
# Bayesian analysis (Benavoli et al. 2017) and effect sizes

_REGION_COLORS = ("#4C78A8", "#9D9D9D", "#F58518")


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
