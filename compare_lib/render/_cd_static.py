"""Static critical-difference diagrams: SVG text and TikZ code, no browser needed.

The diagram is Demšar's (2006, "Statistical comparisons of classifiers over multiple data sets", JMLR 7,
§3.2.4, Figure 1): an axis of mean ranks with the best rank on the right, each classifier hung from its
mean rank by an elbow line to its name, thick bars joining the groups of classifiers not significantly
different, and the critical difference drawn above the axis. :func:`compare_lib.plots.cd_diagram` draws
it with plotly, whose static export needs a headless Chromium (kaleido); :func:`cd_svg` and
:func:`cd_tikz` draw the very same :class:`compare_lib.plots.CDLayout` as text, for a paper.

Both renderers share one geometry (:func:`_frame`) that repeats ``cd_diagram``'s choices (axis span,
line levels, bar rows, heights in pixels with the axis at 0 and y upwards), so the three drawings agree.

Issue 28: a pair that is not rejected but that no bar can join (:func:`compare_lib.unjoined_pairs`, the
layout's ``links``, from the very bars drawn) is a thin dashed line between the two mean ranks, in rows below
the bars, with a legend line under the diagram ("not significantly different, though no bar joins them");
the TikZ header names each such pair with its adjusted p-value.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from compare_lib.render._paper_tables import with_engine_note
from compare_lib.errors import InputError
from compare_lib.limits import MAX_NAME_CHARS
from compare_lib.render._style import CONTROL_COLOR, DIFFERENT_COLOR
from compare_lib.render._cd_layout import UNJOINED_NOTE, CDLayout, CDLine, _short, cd_layout
from compare_lib.render._cd_layout import _cd_axis as _axis_span
from compare_lib.render._paper_tables import latex_escape as _latex_escape

__all__ = ["cd_svg", "cd_tikz"]

# -- shared geometry ---------------------------------------------------------------------------------
# Heights in "pixels" with the axis at y = 0 and y upwards, exactly as in plots.cd_diagram; the SVG uses
# them as pixels, the TikZ picture as half points (y=0.5pt), so both keep the plotly proportions.
_TICK_LEN = 6
_TICK_LABEL_Y = 16
_CD_Y = 44
_CD_LABEL_Y = 54
_LINE_STEP = 24
_NOTE_ROOM = 26  # under the names: the legend line of the dashed links


@dataclass(frozen=True)
class _Frame:
    lo: int  # first and last integer rank on the axis
    hi: int
    x_left: float  # the rank at the left end of the plot area (worst), > x_right
    x_right: float
    first_line: float  # y of the lines at level 0
    top: float
    bottom: float

    @property
    def span(self) -> float:
        return self.x_left - self.x_right


def _bar_rows(lay: CDLayout) -> int:
    return lay.rows  # the bars', then the dashed links' rows


def _frame(lay: CDLayout) -> _Frame:
    lo, hi = _axis_span(lay)
    ext = 0.06 * (hi - lo) + 0.15  # room beyond the outer ticks for the elbows' horizontal runs
    rows = _bar_rows(lay)
    # Lines start below the stacked bars so that no name line cuts through a bar.
    first_line = -(16 + 11 * rows + (8 if rows else 0))
    n_levels = max((ln.level for ln in lay.lines), default=0) + 1
    bottom = first_line - _LINE_STEP * (n_levels - 1) - 14 - (_NOTE_ROOM if lay.links else 0)
    top = 62 if lay.cd is not None else 34  # the CD and its label need the band above the tick labels
    return _Frame(lo, hi, hi + ext, lo - ext, first_line, top, bottom)


def _line_y(frame: _Frame, ln: CDLine) -> float:
    return frame.first_line - _LINE_STEP * ln.level


def _bar_y(row: int) -> float:
    return -(14 + 11 * row)


def _bar_pad(lay: CDLayout) -> float:
    # A bar reaches a little beyond its outer members so that a one-point gap still reads as a bar.
    return 0.02 * max(lay.k - 1, 1)


def _edge(frame: _Frame, ln: CDLine) -> float:
    return frame.x_right if ln.side == "right" else frame.x_left


def _rank_text(ln: CDLine) -> str:
    return f"({ln.mean_rank:.2f})"


_LABEL_STEPS = (1, 2, 5, 10, 20, 50, 100)


def _tick_plan(frame: _Frame, per_rank: float, label_room: float, tick_room: float) -> tuple[list[int], list[int]]:
    """(labelled, plain) integer ranks on the axis. Every integer is labelled, as in cd_diagram, while the
    labels fit (``label_room`` apart, in the units of ``per_rank``, the length of one rank); on a squeezed
    axis only multiples of 2, 5, 10, ... are, the other integers keep a bare tick if ``tick_room`` allows."""
    every = next((n for n in _LABEL_STEPS if n * per_rank >= label_room), _LABEL_STEPS[-1])
    ranks = range(frame.lo, frame.hi + 1)
    labelled = [r for r in ranks if r % every == 0] if every > 1 else list(ranks)
    labelled = labelled or [frame.lo, frame.hi]  # never an unlabelled axis
    plain = [r for r in ranks if r % every != 0] if every > 1 and per_rank >= tick_room else []
    return labelled, plain


def _color(lay: CDLayout, ln: CDLine, default: str) -> str:
    """Many-to-one: the classifiers the procedure finds different from the control stand out."""
    return DIFFERENT_COLOR if lay.control is not None and ln.name in lay.different_from_control else default


def _is_control(lay: CDLayout, ln: CDLine) -> bool:
    return lay.control is not None and ln.name == lay.control


def _plain_title(lay: CDLayout) -> str:
    """The layout's title as plain text: cd_layout escapes the control's name for plotly's HTML labels
    (html.escape, reversed exactly by html.unescape), so undo that before escaping for another language."""
    return html.unescape(lay.title)


# -- SVG ---------------------------------------------------------------------------------------------
_NAME_PX = 14
_RANK_PX = 11
_TICK_PX = 12
_EM_PER_CHAR = 0.6  # average advance of a sans-serif character, to size the margins without a font
_BOLD_EM_PER_CHAR = 0.66
_GAP_PX = 6  # between a name and its mean rank
_END_PX = 4  # between the end of an elbow and its text
_PAD_PX = 10  # around the whole figure
_PX_PER_RANK = 60
_MIN_PLOT_PX = 280  # natural width of the rank axis
_MIN_SQUEEZED_PLOT_PX = 160  # below this the whole drawing is scaled instead of squeezing the axis
INK = "#000000"
LINE_INK = "#4d4d4d"  # elbows in dark grey: they recede behind the black axis and bars

# Characters XML 1.0 cannot carry at all, even escaped (C0 controls but tab/newline/return, lone
# surrogates, U+FFFE/U+FFFF): a name holding one would make the document unreadable.
_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_XML_QUOTES = {'"': "&quot;", "'": "&apos;"}


def _xml(text) -> str:
    """Text from the data as XML character data or an attribute value: unrepresentable characters
    become U+FFFD, line breaks spaces (a label is one line), then & < > " ' are escaped."""
    clean = _XML_INVALID.sub("\ufffd", str(text))
    clean = re.sub("[\t\n\r\x85\u2028\u2029]", " ", clean)
    return escape(clean, _XML_QUOTES)


def _num(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")  # short coordinates: a hundredth of a pixel is plenty
    return "0" if text == "-0" else text


def _text_px(n_chars: int, size_px: float, bold: bool = False) -> float:
    return n_chars * size_px * (_BOLD_EM_PER_CHAR if bold else _EM_PER_CHAR)


def _label_px(lay: CDLayout, ln: CDLine) -> float:
    name = _text_px(len(_short(ln.name)), _NAME_PX, _is_control(lay, ln))
    return _END_PX + name + _GAP_PX + _text_px(len(_rank_text(ln)), _RANK_PX)


def _margins_px(lay: CDLayout) -> tuple[float, float]:
    """Left and right margins sized from the longest label on each side (estimated: no font at hand)."""
    left = max((_label_px(lay, ln) for ln in lay.lines if ln.side == "left"), default=0.0)
    right = max((_label_px(lay, ln) for ln in lay.lines if ln.side == "right"), default=0.0)
    return left + _PAD_PX, right + _PAD_PX


@dataclass(frozen=True)
class _Canvas:
    """Maps the frame's (rank, y) to SVG pixels."""

    frame: _Frame
    left: float
    plot_w: float

    def x(self, rank: float) -> float:
        # Worst on the left, best on the right (Demšar's Figure 1).
        return self.left + (self.frame.x_left - rank) / self.frame.span * self.plot_w

    def y(self, y: float) -> float:
        return _PAD_PX + (self.frame.top - y)


def _line(x1, y1, x2, y2, *, cls: str, stroke: str, width: float, extra: str = "", body: str = "") -> str:
    attrs = (f'class="{cls}" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" stroke="{stroke}" '
             f'stroke-width="{_num(width)}"{extra}')
    return f"<line {attrs}>{body}</line>" if body else f"<line {attrs}/>"


def _svg_axis(c: _Canvas) -> list[str]:
    f = c.frame
    per_rank = c.plot_w / f.span
    labelled, plain = _tick_plan(f, per_rank, _text_px(len(str(f.hi)), _TICK_PX) + 6, 4)
    out = ['<g class="axis">', _line(c.x(f.lo), c.y(0), c.x(f.hi), c.y(0), cls="axis-line", stroke=INK, width=1.2)]
    for r in labelled:
        out.append(_line(c.x(r), c.y(0), c.x(r), c.y(_TICK_LEN), cls="tick", stroke=INK, width=1))
        out.append(f'<text class="tick-label" x="{_num(c.x(r))}" y="{_num(c.y(_TICK_LABEL_Y))}" dy="0.35em" '
                   f'text-anchor="middle" font-size="{_TICK_PX}">{r}</text>')
    for r in plain:
        out.append(_line(c.x(r), c.y(0), c.x(r), c.y(_TICK_LEN / 2), cls="tick", stroke=INK, width=0.8))
    out.append("</g>")
    return out


def _svg_control_interval(lay: CDLayout, c: _Canvas) -> list[str]:
    if lay.control_interval is None:
        return []
    c_lo, c_hi = lay.control_interval
    f = c.frame
    tip = f"<title>{_xml(lay.control)} ± CD: mean ranks {c_lo:.3f} to {c_hi:.3f}</title>"
    # Clipped to the axis, as in cd_diagram: the interval may reach beyond ranks 1..k.
    return [_line(c.x(max(c_lo, f.lo)), c.y(0), c.x(min(c_hi, f.hi)), c.y(0), cls="control-interval",
                  stroke=CONTROL_COLOR, width=9, extra=' stroke-opacity="0.35"', body=tip)]


def _svg_bars(lay: CDLayout, c: _Canvas) -> list[str]:
    pad = _bar_pad(lay)
    out = ['<g class="groups">']
    for bar in lay.bars:
        tip = (f"<title>not significantly different: {_xml(', '.join(bar.members))} "
               f"(largest adjusted p inside: {bar.max_apv:.4g})</title>")
        y = c.y(_bar_y(bar.row))
        out.append(_line(c.x(bar.low - pad), y, c.x(bar.high + pad), y, cls="group", stroke=INK, width=4,
                         extra=' stroke-linecap="round"', body=tip))
    out.append("</g>")
    return out


def _svg_links(lay: CDLayout, c: _Canvas) -> list[str]:
    """Issue 28: each pair not rejected that no bar joins, as a thin dashed line with a dot at either end."""
    if not lay.links:
        return []
    from compare_lib.render._report import format_p

    out = ['<g class="unjoined">']
    for link in lay.links:
        y = c.y(_bar_y(link.row))
        tip = (f"<title>{_xml(link.a)} and {_xml(link.b)}: {UNJOINED_NOTE} "
               f"(adjusted p = {format_p(link.p_adj)})</title>")
        out.append(_line(c.x(link.low), y, c.x(link.high), y, cls="unjoined", stroke=INK, width=1,
                         extra=' stroke-dasharray="4 3"', body=tip))
        out += [f'<circle class="unjoined-end" cx="{_num(c.x(r))}" cy="{_num(y)}" r="1.8" fill="{INK}"/>'
                for r in (link.low, link.high)]
    out.append("</g>")
    return out


def _svg_note(lay: CDLayout, c: _Canvas, natural_w: float) -> list[str]:
    """The legend of the dashed lines, under the names: a dashed sample and the words (on two lines when
    the drawing is narrower than one)."""
    if not lay.links:
        return []
    y = c.y(c.frame.bottom + _NOTE_ROOM / 2)
    x = _PAD_PX
    lines = [UNJOINED_NOTE]
    if x + 30 + _text_px(len(UNJOINED_NOTE), _TICK_PX) > natural_w - _PAD_PX:
        lines = [part + "," if i == 0 else part for i, part in enumerate(UNJOINED_NOTE.split(", "))]
    out = ['<g class="note">',
           _line(x, y, x + 24, y, cls="note-sample", stroke=INK, width=1, extra=' stroke-dasharray="4 3"')]
    for i, line in enumerate(lines):
        out.append(f'<text class="note" x="{_num(x + 30)}" y="{_num(y + i * (_TICK_PX + 2))}" dy="0.35em" '
                   f'font-size="{_TICK_PX}">{_xml(line)}</text>')
    out.append("</g>")
    return out


def _svg_cd(lay: CDLayout, c: _Canvas) -> list[str]:
    if lay.cd is None:
        return []
    start, end = c.frame.hi, c.frame.hi - lay.cd  # at the worst end, as in Demšar's Figure 1
    y = c.y(_CD_Y)
    return [
        '<g class="cd">',
        _line(c.x(start), y, c.x(end), y, cls="cd-bar", stroke=INK, width=1.5),
        _line(c.x(start), c.y(_CD_Y - 5), c.x(start), c.y(_CD_Y + 5), cls="cd-end", stroke=INK, width=1.2),
        _line(c.x(end), c.y(_CD_Y - 5), c.x(end), c.y(_CD_Y + 5), cls="cd-end", stroke=INK, width=1.2),
        f'<text class="cd-label" x="{_num(c.x((start + end) / 2))}" y="{_num(c.y(_CD_LABEL_Y))}" '
        f'text-anchor="middle" font-size="{_TICK_PX}">CD = {lay.cd:.3f}</text>',
        "</g>",
    ]


def _svg_label(lay: CDLayout, ln: CDLine, x: float, y: float, color: str) -> str:
    short = _short(ln.name)
    tip = f"<title>{_xml(ln.name)}</title>" if short != ln.name else ""  # the full name on hover
    weight = ' font-weight="bold"' if _is_control(lay, ln) else ""
    name = f'<tspan class="name"{weight}>{_xml(short)}</tspan>'
    rank = f'<tspan class="rank" font-size="{_RANK_PX}">{_rank_text(ln)}</tspan>'
    # Names read outwards from the elbow: "name (rank)" on the left, "(rank) name" on the right; the
    # gap is a dx, since SVG collapses spaces.
    if ln.side == "left":
        body, anchor, x = f'{name}<tspan dx="{_GAP_PX}"> </tspan>{rank}', "end", x - _END_PX
    else:
        body, anchor, x = f'{rank}<tspan dx="{_GAP_PX}"> </tspan>{name}', "start", x + _END_PX
    return (f'<text class="label" x="{_num(x)}" y="{_num(y)}" dy="0.35em" text-anchor="{anchor}" '
            f'font-size="{_NAME_PX}" fill="{color}">{tip}{body}</text>')


def _svg_classifier(lay: CDLayout, ln: CDLine, c: _Canvas) -> list[str]:
    x0, y = c.x(ln.mean_rank), c.y(_line_y(c.frame, ln))
    xe = c.x(_edge(c.frame, ln))
    line_color = _color(lay, ln, INK if _is_control(lay, ln) else LINE_INK)
    return [
        '<g class="classifier">',
        f'<path class="elbow" d="M{_num(x0)} {_num(c.y(0))}V{_num(y)}H{_num(xe)}" fill="none" '
        f'stroke="{line_color}" stroke-width="1"/>',
        f'<circle class="mean-rank" cx="{_num(x0)}" cy="{_num(c.y(0))}" r="2.5" fill="{line_color}"/>',
        _svg_label(lay, ln, xe, y, _color(lay, ln, INK)),
        "</g>",
    ]


def _svg_size(lay: CDLayout, frame: _Frame, width: int | None) -> tuple[float, float, float, float]:
    """(left margin, plot width, natural width, shown width). A requested width narrower than the names
    allow is met by scaling the whole drawing (viewBox) rather than squeezing the axis to nothing."""
    left, right = _margins_px(lay)
    natural_plot = max(_MIN_PLOT_PX, _PX_PER_RANK * frame.span)
    if width is None:
        plot_w = natural_plot
    else:
        plot_w = max(_MIN_SQUEEZED_PLOT_PX, width - left - right)
    natural = left + plot_w + right
    return left, plot_w, natural, float(width) if width is not None else natural


def cd_svg(result, *, width: int | None = None, font_family: str = "Helvetica, Arial, sans-serif") -> str:
    """The critical-difference diagram of a post-hoc result as a standalone SVG document (text).

    Demšar (2006), Figure 1: mean ranks with the best on the right; each classifier's mean rank in
    parentheses beside its name (the worse half on the left, the better half on the right); thick bars
    join the groups of classifiers the result's procedure does not find different; the CD is drawn
    above the axis where the procedure has one (Nemenyi, Bonferroni-Dunn). Versus a control, the
    control's name is bold, the classifiers found different from it are drawn in red, and the interval
    of one CD around it is a translucent band on the axis.

    ``result`` is a :func:`compare_lib.posthoc` result (or its DataFrame). ``width`` is the width in
    pixels (by default sized from the number of ranks and the names; narrower than the names allow, the
    drawing is scaled down). Black on white, no scripts, no external references; names longer than
    :data:`compare_lib.limits.MAX_NAME_CHARS` are shortened, the full name in a tooltip.
    """
    if width is not None and not width > 0:
        raise InputError(f"The width of the SVG must be a positive number of pixels, not {width!r}.")
    lay = cd_layout(result)
    frame = _frame(lay)
    left, plot_w, natural_w, shown_w = _svg_size(lay, frame, width)
    canvas = _Canvas(frame, left, plot_w)
    natural_h = 2 * _PAD_PX + frame.top - frame.bottom + (_TICK_PX + 2 if lay.links else 0)  # a second note line
    shown_h = natural_h * shown_w / natural_w
    title = _xml(_plain_title(lay))
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(shown_w)}" height="{_num(shown_h)}" '
        f'viewBox="0 0 {_num(natural_w)} {_num(natural_h)}" role="img" aria-label="{title}" '
        f'font-family="{_xml(font_family)}">',
        f"<title>{title}</title>",
        '<rect class="background" width="100%" height="100%" fill="#ffffff"/>',
    ]
    parts += _svg_control_interval(lay, canvas)  # first: everything else is drawn over the band
    parts += _svg_axis(canvas)
    parts += _svg_bars(lay, canvas)
    parts += _svg_links(lay, canvas)
    parts += _svg_cd(lay, canvas)
    for ln in lay.lines:
        parts += _svg_classifier(lay, ln, canvas)
    parts += _svg_note(lay, canvas, natural_w)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# -- TikZ --------------------------------------------------------------------------------------------
# Text in \footnotesize (8 pt in a 10 pt document) and \scriptsize (7 pt); 0.6 em per character again.
_NAME_CM_PER_CHAR = 0.6 * 8 / 72.27 * 2.54
_RANK_CM_PER_CHAR = 0.6 * 7 / 72.27 * 2.54
_TIKZ_END_CM = 0.15  # inner sep and the gap between elbow and text
_MIN_AXIS_CM = 4.0
_LINE_COMMENT = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def _comment(text: str) -> str:
    """Text for one TeX comment line: any line break would end the comment and run the rest as code; a lone
    surrogate could not be written to the file."""
    return re.sub("[\ud800-\udfff]", "\ufffd", _LINE_COMMENT.sub(" ", text))


def _tex(text: str) -> str:
    """A name as LaTeX text. _latex_escape writes '"' as \\textquotedbl{}, which exists only in the T1
    font encoding: a document with just tikz (OT1) stops on it, so take the typewriter straight quote,
    which sits at code 34 in both encodings."""
    return _latex_escape(text).replace(r"\textquotedbl{}", r"{\ttfamily\char34}")


def _tex_name(lay: CDLayout, ln: CDLine) -> str:
    if len(ln.name) <= MAX_NAME_CHARS:
        text = _tex(ln.name)
    else:  # shortened as plots._short, but with \ldots: pdflatex may not know the Unicode ellipsis
        text = _tex(ln.name[: MAX_NAME_CHARS - 1]) + r"\ldots{}"
    return rf"\textbf{{{text}}}" if _is_control(lay, ln) else text


def _tikz_label_cm(ln: CDLine) -> float:
    return (_TIKZ_END_CM + len(_short(ln.name)) * _NAME_CM_PER_CHAR
            + (len(_rank_text(ln)) + 1) * _RANK_CM_PER_CHAR)


def _tikz_axis_cm(lay: CDLayout, width_cm: float) -> float:
    """The axis gets what the names leave of width_cm, but never less than _MIN_AXIS_CM (then the
    picture is wider than asked: long names need the room)."""
    left = max((_tikz_label_cm(ln) for ln in lay.lines if ln.side == "left"), default=0.0)
    right = max((_tikz_label_cm(ln) for ln in lay.lines if ln.side == "right"), default=0.0)
    return max(_MIN_AXIS_CM, width_cm - left - right)


def _f(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def _tikz_classifier(lay: CDLayout, ln: CDLine, frame: _Frame) -> str:
    different = lay.control is not None and ln.name in lay.different_from_control
    line = "cdline, cddiff" if different else "cdline, black" if _is_control(lay, ln) else "cdline"
    text = "cdname, text=cddiff" if different else "cdname, text=black"  # not the line's grey
    rank = rf"{{\scriptsize{_rank_text(ln)}}}"
    name = _tex_name(lay, ln)
    # Names read outwards from the elbow, as in the SVG: "name (rank)" on the left, "(rank) name" on the right.
    node = (rf"node[{text}, anchor=east] {{{name}\enspace{{}}{rank}}}" if ln.side == "left"
            else rf"node[{text}, anchor=west] {{{rank}\enspace{{}}{name}}}")
    # |- draws the elbow: down from the mean rank, then out to the end of the axis.
    return rf"\draw[{line}] ({_f(ln.mean_rank)},0) |- ({_f(_edge(frame, ln))},{_f(_line_y(frame, ln))}) {node};"


def _tikz_body(lay: CDLayout, frame: _Frame, unit_cm: float) -> list[str]:
    out = []
    if lay.control_interval is not None:
        c_lo, c_hi = lay.control_interval
        out.append(rf"\draw[cdinterval] ({_f(max(c_lo, frame.lo))},0) -- ({_f(min(c_hi, frame.hi))},0);")
    out.append(rf"\draw[cdaxis] ({frame.lo},0) -- ({frame.hi},0);")
    labelled, plain = _tick_plan(frame, unit_cm, len(str(frame.hi)) * _RANK_CM_PER_CHAR + 0.2, 0.12)
    out.append(rf"\foreach \rank in {{{','.join(map(str, labelled))}}} {{\draw[cdaxis] (\rank,0) -- "
               rf"(\rank,{_TICK_LEN}); \node[cdtick] at (\rank,{_TICK_LABEL_Y}) {{\rank}};}}")
    if plain:  # bare ticks where the labels had to be thinned
        out.append(rf"\foreach \rank in {{{','.join(map(str, plain))}}} "
                   rf"{{\draw[cdaxis] (\rank,0) -- (\rank,{_TICK_LEN // 2});}}")
    pad = _bar_pad(lay)
    for bar in lay.bars:
        y = _bar_y(bar.row)
        out.append(rf"\draw[cdbar] ({_f(bar.low - pad)},{y}) -- ({_f(bar.high + pad)},{y});")
    for link in lay.links:  # issue 28: not rejected, yet no bar joins them
        y = _bar_y(link.row)
        out.append(rf"\draw[cdunjoined] ({_f(link.low)},{y}) -- ({_f(link.high)},{y});")
        out.append(rf"\fill ({_f(link.low)},{y}) circle (0.9pt) ({_f(link.high)},{y}) circle (0.9pt);")
    if lay.links:  # the legend, under the names: a 0.8 cm dashed sample, then the words
        y = frame.bottom + _NOTE_ROOM / 2
        out.append(rf"\draw[cdunjoined] ({_f(frame.x_left)},{_f(y)}) -- ++({_f(-0.8 / unit_cm)},0) "
                   rf"node[cdtick, anchor=west, font=\footnotesize] {{{_tex(UNJOINED_NOTE)}}};")
    if lay.cd is not None:
        start, end = frame.hi, frame.hi - lay.cd
        out.append(rf"\draw[cdcd] ({_f(start)},{_CD_Y}) -- ({_f(end)},{_CD_Y});")
        out.append(rf"\draw[cdaxis] ({_f(start)},{_CD_Y - 5}) -- ({_f(start)},{_CD_Y + 5}) "
                   rf"({_f(end)},{_CD_Y - 5}) -- ({_f(end)},{_CD_Y + 5});")
        out.append(rf"\node[cdtick, anchor=south] at ({_f((start + end) / 2)},{_CD_LABEL_Y}) "
                   rf"{{CD = {lay.cd:.3f}}};")
    out += [_tikz_classifier(lay, ln, frame) for ln in lay.lines]
    return out


def _tikz_link_comments(lay: CDLayout) -> list[str]:
    """Header lines naming each dashed pair (issue 28), for whoever writes the figure's caption."""
    from compare_lib.render._report import format_p

    return [f"% Dashed: {_comment(x.a)} and {_comment(x.b)} are not significantly different (adjusted p = "
            f"{format_p(x.p_adj)}), though no bar joins them." for x in lay.links]


def cd_tikz(result, *, width_cm: float = 12.0) -> str:
    """The critical-difference diagram of a post-hoc result as a ``tikzpicture`` for ``\\input{}``.

    The same drawing as :func:`cd_svg` (Demšar 2006, Figure 1), needing only ``\\usepackage{tikz}``.
    The picture is about ``width_cm`` wide with the names (their widths estimated), unless the names
    leave the axis less than 4 cm: then it is wider. Names are LaTeX-escaped (a name starting with "[" or
    "*" is shielded by "{}"); names with characters pdflatex cannot typeset (Greek, Cyrillic, CJK, emoji) make
    the picture's header say that it needs lualatex or xelatex with fontspec, naming the characters.
    """
    if not width_cm > 0:
        raise InputError(f"The width of the TikZ picture must be a positive number of centimetres, not {width_cm!r}.")
    lay = cd_layout(result)
    frame = _frame(lay)
    unit_cm = _tikz_axis_cm(lay, width_cm) / frame.span
    header = [
        "% Critical-difference diagram (Demsar 2006, Figure 1), drawn by compare_lib.",
        f"% {_comment(_plain_title(lay))}",
        "% Mean ranks with the best on the right; thick bars join classifiers not found different.",
        *_tikz_link_comments(lay),
        "% Needs \\usepackage{tikz} only; use it with \\input{} inside a figure. Names in scripts other than",
        "% Latin need xelatex or lualatex (or fonts that have them).",
    ]
    # x is in ranks with a negative unit, so the best (lowest) rank lands on the right; y in half points.
    opts = (rf"x=-{_f(unit_cm)}cm, y=0.5pt, cdaxis/.style={{line width=0.6pt}}, "
            r"cdline/.style={line width=0.5pt, black!70}, cdbar/.style={line width=2.5pt, line cap=round}, "
            r"cdcd/.style={line width=0.8pt}, cdunjoined/.style={line width=0.5pt, dash pattern=on 2pt off 1.5pt}, "
            r"cdinterval/.style={line width=4.5pt, draw opacity=0.35, cdcontrol}, "
            r"cdname/.style={font=\footnotesize, inner sep=2pt}, cdtick/.style={font=\scriptsize, inner sep=1pt}")
    body = [
        rf"\begin{{tikzpicture}}[{opts}]",
        rf"\definecolor{{cddiff}}{{HTML}}{{{DIFFERENT_COLOR.lstrip('#')}}}",
        rf"\definecolor{{cdcontrol}}{{HTML}}{{{CONTROL_COLOR.lstrip('#')}}}",
        *_tikz_body(lay, frame, unit_cm),
        r"\end{tikzpicture}",
    ]
    # Names in Greek, Cyrillic, CJK, emoji: the second line on says which engine and preamble (issue 27).
    return with_engine_note("\n".join(header + body) + "\n")
