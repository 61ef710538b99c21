"""The figures' common style: fonts, palette, margins that fit a phone, label sizing, the figure factory and
export (PNG/SVG through kaleido, standalone HTML). Every plotly figure of the library is built with :func:`_figure`."""

from __future__ import annotations

import html
import math
import re
import warnings

import plotly.graph_objects as go

from compare_lib.errors import InputError


def _h(text) -> str:
    """Names from the user as plotly text: plotly renders a subset of HTML (<a href>, <b>, <br>) in
    every label, title and hover, so < > & are written as entities and nothing can form a tag."""
    return html.escape(str(text), quote=False)


def _hs(items) -> list[str]:
    return [_h(x) for x in items]


def _check_size(k: int, limit: int, what: str, unit: str = "classifiers") -> None:
    if k > limit:
        raise InputError(f"The {what} is drawn for up to {limit} {unit}; this result has {k}. Use the table instead.")


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


def _matrix_axes(order, row_px: float, *, what: str = "classifier") -> dict:
    """x and y axes of a k x k heatmap of classifiers: every name on both, rows top-down."""
    chars, size = _phone_labels(len(order))
    return dict(xaxis=_label_axis(order, title=f"{what} (column)", max_chars=chars, size=size),
                yaxis=_label_axis(order, title=f"{what} (row)", max_chars=chars,
                                  size=min(size, math.floor(row_px / _LABEL_LINE)), autorange="reversed"))


GROUP_COLOR = "#4C78A8"
LINE_COLOR = "#8c8c8c"
CONTROL_COLOR = "#F58518"
DIFFERENT_COLOR = "#E45756"
_CHAR_PX = 8.0  # average width of a 14 px sans-serif character, to size the margins
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


_REGION_COLORS = ("#4C78A8", "#9D9D9D", "#F58518")
