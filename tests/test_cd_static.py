"""Static CD diagrams (SVG text and TikZ code): what they draw agrees with cd_layout and the paper.

Demšar (2006), Table 6 / Figure 1: mean ranks C4.5 3.143, C4.5+m 2.000, C4.5+cf 2.893, C4.5+m+cf 1.964;
the Nemenyi CD is 1.254 at alpha .05 (one group) and 1.118 at alpha .10 (two groups); Bonferroni-Dunn
with control C4.5 has CD 1.168 and only C4.5+m+cf lies outside the control's interval.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl
from compare_lib.render._cd_static import _axis_span, cd_svg, cd_tikz
from compare_lib.limits import MAX_CD_K, MAX_NAME_CHARS
from compare_lib.plots import DIFFERENT_COLOR, cd_diagram, cd_layout

from .conftest import SAMPLES

SVG = "{http://www.w3.org/2000/svg}"
DEMSAR_RANKS = {"C4.5": "(3.14)", "C4.5+m": "(2.00)", "C4.5+cf": "(2.89)", "C4.5+m+cf": "(1.96)"}
BEST_TO_WORST = ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
#: Every element the renderer writes: anything else (a <b>, a <script>) came from a name.
SVG_TAGS = {"svg", "title", "rect", "g", "line", "text", "tspan", "path", "circle"}
HOSTILE = ['<b>&"x\'', "n" * 200, "Demšar 日本語 🙂", "<script>alert(1)</script>", "a\x01b", "line\u2028sep"]


@pytest.fixture(scope="module")
def demsar_table() -> cl.ScoreTable:
    # The untied variant of Table 6 reproduces the paper's ranks (see sample_data/README.md).
    return cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)


def _random_table(names, seed=0, n=25) -> cl.ScoreTable:
    rng = np.random.default_rng(seed)
    k = len(names)
    return cl.ScoreTable(pd.DataFrame(rng.normal(size=(n, k)) + np.linspace(0, 2, k), columns=names), True)


# -- reading the SVG back ---------------------------------------------------------------------------

def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def _tags(root) -> set[str]:
    return {el.tag.removeprefix(SVG) for el in root.iter()}


def _classifiers(root) -> list[dict]:
    """Per classifier group: its label's name and rank texts, its mean-rank marker's x, colours, bold."""
    out = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "classifier":
            continue
        text = g.find(SVG + "text")
        name = next(t for t in text.iter(SVG + "tspan") if t.get("class") == "name")
        rank = next(t for t in text.iter(SVG + "tspan") if t.get("class") == "rank")
        tip = text.find(SVG + "title")
        out.append(dict(
            name=name.text, rank=rank.text, bold=name.get("font-weight") == "bold", fill=text.get("fill"),
            stroke=g.find(SVG + "path").get("stroke"), cx=float(g.find(SVG + "circle").get("cx")),
            x=float(text.get("x")), anchor=text.get("text-anchor"), tip=None if tip is None else tip.text,
        ))
    return out


def _by_class(root, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(SVG + tag) if el.get("class") == cls]


def _ticks(root) -> dict[int, float]:
    """Labelled rank -> x in pixels."""
    return {int(t.text): float(t.get("x")) for t in _by_class(root, "text", "tick-label")}


def _to_rank(root):
    """Pixels -> mean rank, from the tick labels (the axis is linear)."""
    ticks = _ticks(root)
    (r1, x1), (r2, x2) = min(ticks.items()), max(ticks.items())
    return lambda x: r1 + (x - x1) * (r2 - r1) / (x2 - x1)


def _texts(root) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


# -- SVG ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("alpha,cd_text,n_bars", [(0.05, "CD = 1.254", 1), (0.10, "CD = 1.118", 2)])
def test_svg_of_demsar_nemenyi(demsar_table, alpha, cd_text, n_bars):
    res = cl.posthoc(demsar_table, "mean-ranks", "nemenyi", alpha=alpha, as_result=True)
    lay = cd_layout(res)
    root = _parse(cd_svg(res))
    title = f"Nemenyi on the mean-ranks z, all pairs, α = {alpha:g}"
    assert root.find(SVG + "title").text == title
    assert root.get("role") == "img" and root.get("aria-label") == title

    labels = _classifiers(root)
    assert {c["name"]: c["rank"] for c in labels} == DEMSAR_RANKS  # one label per classifier
    assert [c["name"] for c in sorted(labels, key=lambda c: -c["cx"])] == BEST_TO_WORST  # best on the right
    ticks = _ticks(root)
    assert sorted(ticks) == [1, 2, 3, 4] and ticks[1] > ticks[2] > ticks[3] > ticks[4]
    to_rank = _to_rank(root)
    ranks = demsar_table.mean_ranks
    for c in labels:
        assert to_rank(c["cx"]) == pytest.approx(ranks[c["name"]], abs=0.01)
    # The worse half is named on the left, right-aligned; the better half on the right.
    for c in labels:
        left = c["name"] in ("C4.5", "C4.5+cf")
        assert c["anchor"] == ("end" if left else "start")
        assert (c["x"] < min(d["cx"] for d in labels)) if left else (c["x"] > max(d["cx"] for d in labels))

    bars = _by_class(root, "line", "group")
    assert len(bars) == len(lay.bars) == n_bars
    for line, bar in zip(bars, lay.bars):
        xs = sorted(float(line.get(a)) for a in ("x1", "x2"))
        covered = {c["name"] for c in labels if xs[0] <= c["cx"] <= xs[1]}
        assert covered == set(bar.members)

    assert cd_text in _texts(root)
    cd_line = _by_class(root, "line", "cd-bar")[0]
    ends = sorted(to_rank(float(cd_line.get(a))) for a in ("x1", "x2"))
    assert ends[1] == pytest.approx(4) and ends[1] - ends[0] == pytest.approx(lay.cd, abs=0.01)  # from the worst end


def test_svg_of_demsar_holm_has_groups_and_no_cd(demsar_table):
    res = cl.posthoc(demsar_table, "mean-ranks", "holm", as_result=True)
    root = _parse(cd_svg(res))
    assert root.find(SVG + "title").text == "Holm on the mean-ranks z, all pairs, α = 0.05"
    assert len(_by_class(root, "line", "group")) == len(cd_layout(res).bars) == 1
    assert not _by_class(root, "g", "cd") and not any(t.startswith("CD") for t in _texts(root))
    assert {c["name"]: c["rank"] for c in _classifiers(root)} == DEMSAR_RANKS


def test_svg_of_demsar_bonferroni_dunn_control(demsar_table):
    res = cl.posthoc(demsar_table, "mean-ranks", "bonferroni-dunn", control="C4.5", as_result=True)
    lay = cd_layout(res)
    root = _parse(cd_svg(res))
    assert root.get("aria-label") == "Bonferroni-Dunn on the mean-ranks z, versus control C4.5, α = 0.05"
    labels = {c["name"]: c for c in _classifiers(root)}
    assert [n for n, c in labels.items() if c["bold"]] == ["C4.5"]
    assert [n for n, c in labels.items() if c["fill"] == DIFFERENT_COLOR] == ["C4.5+m+cf"]
    assert labels["C4.5+m+cf"]["stroke"] == DIFFERENT_COLOR and labels["C4.5+m"]["stroke"] != DIFFERENT_COLOR
    assert not _by_class(root, "line", "group") and not lay.bars
    assert "CD = 1.168" in _texts(root)
    (band,) = _by_class(root, "line", "control-interval")
    assert float(band.get("stroke-opacity")) < 1
    to_rank = _to_rank(root)
    lo, hi = sorted(to_rank(float(band.get(a))) for a in ("x1", "x2"))
    # 3.143 - 1.168 = 1.975 to 4.311, clipped to the axis at 4.
    assert lo == pytest.approx(lay.control_interval[0], abs=0.01) and lo == pytest.approx(1.975, abs=0.01)
    assert hi == pytest.approx(4.0, abs=0.01)


@pytest.mark.parametrize("correction", ["nemenyi", "bonferroni-dunn"])
def test_svg_with_hostile_names_is_valid_xml_and_shows_them_as_text(correction):
    table = _random_table(HOSTILE + ["plain"], seed=1)
    control = HOSTILE[0] if correction == "bonferroni-dunn" else None
    res = cl.posthoc(table, "mean-ranks", correction, control=control, as_result=True)
    svg = cd_svg(res, font_family='"Times" & <serif>')
    root = _parse(svg)
    assert _tags(root) <= SVG_TAGS
    assert "<b>" not in svg and "<script" not in svg
    assert root.get("font-family") == '"Times" & <serif>'
    labels = {c["name"]: c for c in _classifiers(root)}
    shown = {'<b>&"x\'', "n" * (MAX_NAME_CHARS - 1) + "…", "Demšar 日本語 🙂", "<script>alert(1)</script>",
             "a\ufffdb",  # a control character XML cannot hold
             "line sep", "plain"}
    assert set(labels) == shown
    assert labels["n" * (MAX_NAME_CHARS - 1) + "…"]["tip"] == "n" * 200  # the full name on hover
    assert labels["plain"]["tip"] is None
    if control:
        title = f"Bonferroni-Dunn on the mean-ranks z, versus control {control}, α = 0.05"
        assert root.find(SVG + "title").text == title and root.get("aria-label") == title  # not "&amp;lt;"
        assert labels[control]["bold"]


@pytest.mark.parametrize("k", [2, 30])
def test_svg_for_few_and_many_classifiers_matches_the_plotly_axis(k):
    names = [f"classifier number {i} with a long name" if i % 4 == 0 else f"C{i}" for i in range(k)]
    table = _random_table(names, seed=k)
    res = cl.posthoc(table, "mean-ranks", "nemenyi", as_result=True)
    lay = cd_layout(res)
    root = _parse(cd_svg(res))
    labels = _classifiers(root)
    assert sorted(c["name"] for c in labels) == sorted(names)
    ranks = table.mean_ranks
    by_x = [c["name"] for c in sorted(labels, key=lambda c: -c["cx"])]
    assert [ranks[n] for n in by_x] == sorted(ranks[n] for n in by_x)  # best (lowest) rank rightmost
    assert len(_by_class(root, "line", "group")) == len(lay.bars)
    # The same axis as cd_diagram: for k > 8 only the occupied integers.
    fig = cd_diagram(res)
    (plotly_ticks,) = [tr for tr in fig.data if tr.name == "tick labels"]
    assert sorted(_ticks(root)) == [int(t) for t in plotly_ticks.text]
    assert f"CD = {lay.cd:.3f}" in _texts(root)


def test_svg_width_is_kept_and_a_narrow_one_scales_the_drawing(demsar_table):
    res = cl.posthoc(demsar_table, as_result=True)
    wide = _parse(cd_svg(res, width=900))
    assert wide.get("width") == "900" and wide.get("viewBox").split()[2] == "900"
    narrow = _parse(cd_svg(res, width=120))
    vb_w, vb_h = (float(v) for v in narrow.get("viewBox").split()[2:])
    assert narrow.get("width") == "120" and vb_w > 120  # the names keep their size: the whole drawing shrinks
    assert float(narrow.get("height")) == pytest.approx(120 * vb_h / vb_w, abs=0.01)


def test_more_classifiers_than_a_cd_diagram_holds_are_refused():
    res = cl.posthoc(_random_table([f"c{i}" for i in range(MAX_CD_K + 1)], n=8), "mean-ranks", "holm",
                     as_result=True)
    with pytest.raises(cl.InputError, match=f"up to {MAX_CD_K}"):
        cd_svg(res)
    with pytest.raises(cl.InputError, match=f"up to {MAX_CD_K}"):
        cd_tikz(res)


# -- TikZ -----------------------------------------------------------------------------------------

_ELBOW = re.compile(r"^\\draw\[cdline[^\]]*\] \(([-\d.]+),0\) \|- \(([-\d.]+),([-\d.]+)\) "
                    r"node\[[^\]]*anchor=(east|west)\] \{(.*)\};$", re.M)


def _elbows(tikz: str) -> list[tuple[float, str, str]]:
    """(mean rank, anchor, node text) of every classifier."""
    return [(float(m[1]), m[4], m[5]) for m in _ELBOW.finditer(tikz)]


def test_tikz_of_demsar_nemenyi(demsar_table):
    res = cl.posthoc(demsar_table, "mean-ranks", "nemenyi", alpha=0.10, as_result=True)
    lay = cd_layout(res)
    tikz = cd_tikz(res)
    head, sep, body = tikz.partition(r"\begin{tikzpicture}")
    assert sep and body.rstrip().endswith(r"\end{tikzpicture}")
    assert all(line.startswith("%") for line in head.splitlines())
    assert "% Nemenyi on the mean-ranks z, all pairs, α = 0.1" in head and r"\usepackage{tikz}" in head
    assert r"\usepackage" not in body and r"\documentclass" not in body
    assert re.search(r"\[x=-[\d.]+cm", body)  # a negative unit: the best (lowest) rank on the right
    elbows = _elbows(body)
    ranks = demsar_table.mean_ranks
    assert len(elbows) == 4
    for rank, anchor, text in elbows:
        name = next(n for n in DEMSAR_RANKS if text.endswith("{}" + n) or text.startswith(n + r"\enspace"))
        assert rank == pytest.approx(ranks[name], abs=1e-4)
        assert DEMSAR_RANKS[name] in text
        assert anchor == ("east" if name in ("C4.5", "C4.5+cf") else "west")  # the worse half on the left
    assert body.count(r"\draw[cdbar]") == len(lay.bars) == 2
    assert "{CD = 1.118}" in body


def test_tikz_escapes_names_and_keeps_the_title_in_one_comment_line():
    names = ['<b>&"x\'', "a\\b_{1} 50% $#~^|", "x" * 60, "plain"]
    control = "evil\n\\input{/etc/passwd}"
    res = cl.posthoc(_random_table(names + [control], seed=2), "mean-ranks", "bonferroni-dunn", control=control,
                     as_result=True)
    tikz = cd_tikz(res)
    head, _, body = tikz.partition(r"\begin{tikzpicture}")
    assert all(line.startswith("%") for line in head.splitlines())  # the newline did not end the comment
    assert "% Bonferroni-Dunn on the mean-ranks z, versus control evil \\input{/etc/passwd}, α = 0.05" in head
    texts = [t for _, _, t in _elbows(body)]
    assert len(texts) == 5
    expected = [r"\textless{}b\textgreater{}\&{\ttfamily\char34}x'",
                r"a\textbackslash{}b\_\{1\} 50\% \$\#\textasciitilde{}\textasciicircum{}\textbar{}",
                "x" * (MAX_NAME_CHARS - 1) + r"\ldots{}", r"\textbf{evil \textbackslash{}input\{/etc/passwd\}}"]
    for e in expected:
        assert sum(e in t for t in texts) == 1, e
    assert "<b>" not in body and "\\input{" not in body


def _require_latex() -> None:
    """Skip without pdflatex or TikZ, unless REQUIRE_LATEX=1 (as tests/test_hostile.py does for tables)."""
    missing = None
    if shutil.which("pdflatex") is None:
        missing = "pdflatex is not installed (apt-get install texlive-latex-base)"
    elif shutil.which("kpsewhich") and not subprocess.run(["kpsewhich", "tikz.sty"], capture_output=True,
                                                          text=True).stdout.strip():
        missing = "tikz.sty is not installed (apt-get install texlive-pictures)"
    if missing:
        if os.environ.get("REQUIRE_LATEX") == "1":
            raise RuntimeError(f"REQUIRE_LATEX=1 but {missing}.")
        pytest.skip(missing)


def test_tikz_compiles_with_pdflatex_and_has_about_the_asked_width(tmp_path, demsar_table):
    _require_latex()
    latin = ['<b>&"x\'', "a\\b_{1} 50% $#~^|", "y" * 200, "Demšar é ü"]
    pictures = {
        "nemenyi": cd_tikz(cl.posthoc(demsar_table, "mean-ranks", "nemenyi", alpha=0.10, as_result=True)),
        "holm": cd_tikz(cl.posthoc(demsar_table, "mean-ranks", "holm", as_result=True), width_cm=16),
        "control": cd_tikz(cl.posthoc(demsar_table, "mean-ranks", "bonferroni-dunn", control="C4.5",
                                      as_result=True)),
        "hostile": cd_tikz(cl.posthoc(_random_table(latin + ["ok"], seed=3), "mean-ranks", "bonferroni-dunn",
                                      control=latin[0], as_result=True)),
        "k2": cd_tikz(cl.posthoc(_random_table(["A", "B"]), "mean-ranks", "nemenyi", as_result=True)),
        "k30": cd_tikz(cl.posthoc(_random_table([f"C{i}" for i in range(30)], seed=30), "mean-ranks", "nemenyi",
                                  as_result=True)),
    }
    for key, tikz in pictures.items():
        (tmp_path / f"{key}.tex").write_text(tikz, encoding="utf-8")
    # Each picture measured in a box, then set: the log reports its width.
    body = "".join(rf"\sbox0{{\input{{{key}.tex}}}}\typeout{{WIDTH {key}=\the\wd0}}\noindent\usebox0\par" "\n"
                   for key in pictures)
    doc = "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n" + body + "\\end{document}\n"
    (tmp_path / "t.tex").write_text(doc, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                         capture_output=True, text=True, errors="replace", timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "t.pdf").stat().st_size > 1000
    widths_cm = {m[1]: float(m[2]) / 72.27 * 2.54 for m in re.finditer(r"WIDTH (\w+)=([\d.]+)pt", run.stdout)}
    assert set(widths_cm) == set(pictures)
    # Short names: the picture is about as wide as asked (the names' widths are estimated).
    assert widths_cm["nemenyi"] == pytest.approx(12, abs=1.5)
    assert widths_cm["holm"] == pytest.approx(16, abs=1.5)


def test_widths_must_be_positive(demsar_table):
    res = cl.posthoc(demsar_table, as_result=True)
    for bad in (0, -5, float("nan")):
        with pytest.raises(cl.InputError, match="positive"):
            cd_svg(res, width=bad)
        with pytest.raises(cl.InputError, match="positive"):
            cd_tikz(res, width_cm=bad)


def test_a_squeezed_tikz_axis_labels_fewer_ranks_but_keeps_every_tick():
    names = [f"a rather long classifier name {i:02d}" for i in range(40)]
    res = cl.posthoc(_random_table(names, seed=4, n=6), "mean-ranks", "nemenyi", as_result=True)
    lo, hi = _axis_span(cd_layout(res))
    body = cd_tikz(res, width_cm=8)
    loops = re.findall(r"\\foreach \\rank in \{([\d,]+)\}", body)
    labelled, plain = ([int(v) for v in loop.split(",")] for loop in loops)
    assert len(labelled) < hi - lo + 1 and all(r % 5 == 0 for r in labelled)  # 4 cm for ~30 ranks: every 5th
    assert sorted(labelled + plain) == list(range(lo, hi + 1))


def test_cd_png_is_rasterized_without_a_browser(monkeypatch, demsar_table):
    """cl.plots.cd_png: resvg renders the SVG (a PNG of the right size); kaleido is not called."""
    import struct

    import compare_lib as cl
    import compare_lib.plots as plots

    def no_browser(*args, **kwargs):
        raise AssertionError("kaleido was called")

    monkeypatch.setattr(plots, "figure_image", no_browser)
    result = cl.posthoc(demsar_table, "mean-ranks", "nemenyi", as_result=True)
    png = plots.cd_png(result, scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    svg_width = float(plots.cd_svg(result).split('width="')[1].split('"')[0])
    assert abs(width - 2 * svg_width) <= 2 and height > 100
