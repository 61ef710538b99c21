"""What a critical-difference diagram draws, computed once for every renderer (no drawing here).

Demšar (2006, §3.2.4, Figure 1) joins by a thick bar the classifiers that are not significantly different.
:func:`cd_layout` places the names, the group bars (the groups of :func:`compare_lib.groups`, stacked in rows)
and the critical difference; :func:`compare_lib.plots.cd_diagram` (plotly), and :func:`compare_lib.plots.cd_svg`
and :func:`compare_lib.plots.cd_tikz` (:mod:`compare_lib.render._cd_static`) all draw this one layout.

Issue 28: a bar spans every classifier between its ends, so with pairwise tests (Wilcoxon + Holm, ...) a pair
may be NOT rejected and yet share no bar: every span that holds both also holds a rejected pair (Demšar's
Table 6, Wilcoxon + Holm: C4.5+m+cf and C4.5, adjusted p = 0.062). Readers take "no bar" as "different", so
each such pair is a :class:`CDLink` of the layout, drawn as a thin dashed line in every renderer, listed by
:func:`unjoined_pairs` and named by :func:`compare_lib.plots.cd_caption`. The bars that decide which pairs
are unjoined are the very bars the diagram draws (:func:`_bars`).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import pandas as pd

from compare_lib.core._result import as_frame
from compare_lib.errors import InputError
from compare_lib.limits import MAX_CD_K, MAX_NAME_CHARS

__all__ = ["CDBar", "CDLayout", "CDLine", "CDLink", "cd_layout", "unjoined_pairs"]


def _h(text) -> str:
    """A name as plotly text (plotly renders a subset of HTML): < > & as entities (as compare_lib.plots._h)."""
    return html.escape(str(text), quote=False)


@dataclass(frozen=True)
class CDLine:
    name: str
    mean_rank: float
    side: str  # "left" (worse half) or "right" (better half)
    level: int  # 0 = the line nearest the axis


@dataclass(frozen=True)
class CDBar:
    members: tuple[str, ...]
    low: float  # smallest mean rank in the group (best)
    high: float
    row: int
    max_apv: float  # the largest adjusted p-value among pairs inside the group


@dataclass(frozen=True)
class CDLink:
    """A pair the procedure does not reject that no bar joins (issue 28), drawn as a thin dashed line between
    the two mean ranks, in a row below the bars' rows."""

    a: str  # the better of the two (lower mean rank; ties by name)
    b: str
    low: float  # the mean rank of a
    high: float  # the mean rank of b
    row: int
    p_adj: float


@dataclass(frozen=True)
class CDLayout:
    """Everything a CD diagram draws, computed from a post-hoc result (no drawing)."""

    k: int
    lines: tuple[CDLine, ...]
    bars: tuple[CDBar, ...]
    cd: float | None
    control: str | None
    control_interval: tuple[float, float] | None
    different_from_control: tuple[str, ...]
    title: str
    links: tuple[CDLink, ...] = ()

    @property
    def rows(self) -> int:
        """Rows under the axis taken by the bars and then the dashed links (the names' lines start below)."""
        return max((*(b.row for b in self.bars), *(link.row for link in self.links)), default=-1) + 1


def _procedure_title(result: pd.DataFrame) -> str:
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import test_labels

    attrs = as_frame(result).attrs
    proc = PROCEDURES[attrs["correction"]].label
    test = test_labels()[attrs["test"]]
    family = f"versus control {_h(attrs['control'])}" if attrs.get("control") else "all pairs"
    return f"{proc} on the {test}, {family}, α = {attrs['alpha']:g}"


def _order(mean_ranks: dict[str, float]) -> list[str]:
    return sorted(mean_ranks, key=lambda n: (mean_ranks[n], n))  # ties by name: never by column order


def _pack(spans, gap: float, first_row: int = 0) -> list[int]:
    """Rows for spans (low, high) taken in order, so that spans in one row never overlap (greedy, first fit)."""
    ends: list[float] = []
    rows = []
    for low, high in spans:
        row = next((r for r, end in enumerate(ends) if end + gap < low), len(ends))
        if row == len(ends):
            ends.append(high)
        else:
            ends[row] = high
        rows.append(first_row + row)
    return rows


def _gap(k: int) -> float:
    return 0.02 * max(k - 1, 1)


def _bars(result: pd.DataFrame) -> tuple[CDBar, ...]:
    """The group bars of an all-pairs result, in rows: the groups of :func:`compare_lib.groups` with two or
    more members (the only place the bars are computed: every renderer and :func:`unjoined_pairs` use it)."""
    from compare_lib.analyses._posthoc import groups

    mean_ranks = result.attrs["mean_ranks"]
    apv = {frozenset((a, b)): p for a, b, p in zip(result["a"], result["b"], result["p_adj"])}
    found = [members for members in groups(result) if len(members) >= 2]
    spans = [(mean_ranks[m[0]], mean_ranks[m[-1]]) for m in found]
    bars = []
    for members, (low, high), row in zip(found, spans, _pack(spans, _gap(len(mean_ranks)))):
        inside = [apv[frozenset((a, b))] for i, a in enumerate(members) for b in members[i + 1:]]
        bars.append(CDBar(tuple(members), low, high, row, float(max(inside))))
    return tuple(bars)


def _unjoined(result: pd.DataFrame, bars: tuple[CDBar, ...]) -> list[tuple[str, str, float]]:
    """(better, worse, adjusted p) of every pair not rejected that no bar joins, by the mean rank of the
    better, then of the worse."""
    mean_ranks = result.attrs["mean_ranks"]
    joined = {frozenset((x, y)) for bar in bars for i, x in enumerate(bar.members) for y in bar.members[i + 1:]}
    out = []
    for a, b, p, rejected in zip(result["a"], result["b"], result["p_adj"], result["reject"]):
        if bool(rejected) or frozenset((a, b)) in joined:
            continue
        a, b = sorted((a, b), key=lambda n: (mean_ranks[n], n))
        out.append((a, b, float(p)))
    out.sort(key=lambda t: (mean_ranks[t[0]], mean_ranks[t[1]], t[0], t[1]))
    return out


def cd_layout(result: pd.DataFrame) -> CDLayout:
    """Place names, group bars, dashed links and the CD for :func:`compare_lib.plots.cd_diagram` (Demšar 2006,
    Figure 1).

    The best ceil(k/2) classifiers are labelled on the right, the others on the left; on each side
    the classifier nearest the axis end gets the line nearest the axis, so that no lines cross. Bars
    join the classifiers of each group of :func:`compare_lib.groups` (size >= 2), stacked in rows so
    that bars in one row never overlap. Each pair that is not rejected but that no bar joins
    (:func:`unjoined_pairs`) is a :class:`CDLink`, in rows below the bars (issue 28).
    """
    result = as_frame(result)
    mean_ranks = result.attrs["mean_ranks"]
    order = _order(mean_ranks)
    k = len(order)
    if k > MAX_CD_K:
        raise InputError(f"The CD diagram is drawn for up to {MAX_CD_K} classifiers; this result has {k}. "
                         "Use the table instead.")
    n_right = (k + 1) // 2
    lines = [CDLine(name, mean_ranks[name], "right", i) for i, name in enumerate(order[:n_right])]
    left = order[n_right:][::-1]  # worst first: it sits at the left end
    lines += [CDLine(name, mean_ranks[name], "left", i) for i, name in enumerate(left)]

    control = result.attrs.get("control")
    bars: tuple[CDBar, ...] = ()
    links: list[CDLink] = []
    interval = None
    different: tuple[str, ...] = ()
    cd = result.attrs.get("cd")
    if control is None:
        bars = _bars(result)
        pairs = _unjoined(result, bars)
        spans = sorted(((mean_ranks[a], mean_ranks[b], a, b, p) for a, b, p in pairs))
        first = max((bar.row for bar in bars), default=-1) + 1
        rows = _pack([(lo, hi) for lo, hi, *_ in spans], _gap(k), first)
        links = [CDLink(a, b, lo, hi, row, p) for (lo, hi, a, b, p), row in zip(spans, rows)]
    else:
        if cd is not None:
            rc = mean_ranks[control]
            interval = (rc - cd, rc + cd)
        different = tuple(
            (b if a == control else a) for a, b, r in zip(result["a"], result["b"], result["reject"]) if r
        )
    return CDLayout(k, tuple(lines), bars, cd, control, interval, different, _procedure_title(result), tuple(links))


def unjoined_pairs(result) -> pd.DataFrame:
    """The pairs a CD diagram could be misread on (issue 28): not significantly different under the result's
    procedure, yet joined by no bar of the diagram.

    A bar of the diagram joins every classifier whose mean rank lies in its span, so it can never hold a
    rejected pair; a pair that is not rejected but whose span holds a rejected pair (with pairwise tests such
    as Wilcoxon + Holm the decisions need not follow the mean ranks) is joined by no bar. Readers take "no
    bar" as "different": the diagram draws each such pair as a thin dashed line and
    :func:`compare_lib.plots.cd_caption` names it. The bars are exactly those the diagram draws.

    ``result`` is a :func:`compare_lib.posthoc` result (or its DataFrame) for all pairs. Returns a DataFrame with
    one row per pair, ``a`` (the better of the two by mean rank), ``b`` and ``p_adj`` (the pair's adjusted
    p-value), ordered by the mean ranks of a, then b; empty when every pair not rejected shares a bar, and
    for a comparison with a control (its diagram draws no bars: the classifiers found different from the
    control are marked, every other one is not). Demšar's Table 6 with Wilcoxon + Holm gives one pair,
    C4.5+m+cf and C4.5.
    """
    frame = as_frame(result)
    if not isinstance(frame, pd.DataFrame) or not {"a", "b", "p_adj", "reject"} <= set(frame.columns):
        raise InputError("unjoined_pairs needs a post-hoc result (compare_lib.posthoc) or its DataFrame.")
    if not frame.attrs.get("mean_ranks"):
        raise InputError("The result has no mean ranks in its attrs; pass a table returned by posthoc().")
    rows = [] if frame.attrs.get("control") is not None else _unjoined(frame, _bars(frame))
    out = pd.DataFrame(rows, columns=["a", "b", "p_adj"]).astype({"a": object, "b": object, "p_adj": float})
    out.attrs.update({k: frame.attrs[k] for k in ("test", "correction", "alpha", "control") if k in frame.attrs})
    return out


def _short(name: str) -> str:
    return name if len(name) <= MAX_NAME_CHARS else name[: MAX_NAME_CHARS - 1] + "…"


#: The legend of the dashed lines (issue 28), in every renderer.
UNJOINED_NOTE = "not significantly different, though no bar joins them"


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
