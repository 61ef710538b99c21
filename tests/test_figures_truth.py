"""Issue 28, "pictures that tell the whole truth": every figure of ``cl.plots`` as the browser receives it.

* Titles (figure, axes, colour bars, legends) in plotly's ``{"text": ...}`` form: the plotly.js shipped with
  Streamlit draws no bare-string axis title, so the rank-set chart, the power curve and the family-wise charts
  showed none. Every axis that is shown has a non-empty title, and every figure validates.
* Readable on a projector: text of at least 14 px, near black, on white; on a phone: heatmaps of 12 and 20
  classifiers list every name (all tick values given: plotly skips category labels otherwise), at a size that
  fits 400 px, with the full name in the hover; the title sits below the toolbar's band.
"""

from __future__ import annotations

import html
import inspect
import re
import warnings

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import compare_lib as cl
from compare_lib import plots
from compare_lib.render import _style

from .conftest import SAMPLES

DARK = 0.2  # the largest relative luminance of "near black" text
#: Figures built for a phone's narrow column only: the vertical CD diagram's names (13 px) and mean ranks (11 px)
#: are sized to fit 320 px (issue 23); everything else in it obeys the rules.
PHONE_ONLY = {"cd_diagram vertical"}


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _folds() -> pd.DataFrame:
    return pd.read_csv(SAMPLES / "fold_level_example.csv")


def _familywise(**kw) -> pd.DataFrame:
    return pd.concat([cl.familywise_error(k, 10, reps=100, seed=0, **kw).assign(k=k) for k in (3, 4)],
                     ignore_index=True)


def _figures(demsar, garcia, benavoli) -> dict[str, list[tuple[str, go.Figure]]]:
    """Every figure function of cl.plots, called on the sample tables (some in several variants)."""
    wilcoxon = cl.posthoc(demsar, "wilcoxon", "holm")
    control = cl.posthoc(demsar, "mean-ranks", "bonferroni-dunn", control="C4.5")
    folds = _folds()
    a, b = "k-NN", "naive Bayes"
    level = _quiet(cl.fold_level_tests, folds, a, b)
    sr = cl.bayesian_signed_rank(benavoli.scores["C1"], benavoli.scores["C2"], rope=0.01, samples=3000, seed=0)
    nbc = folds[(folds["classifier"] == a) & (folds["dataset"] == folds["dataset"].iloc[0])]["score"].to_numpy()
    other = folds[(folds["classifier"] == b) & (folds["dataset"] == folds["dataset"].iloc[0])]["score"].to_numpy()
    corr = cl.bayesian_correlated_ttest(nbc, other, rope=0.01, test_ratio=0.1)
    selection = cl.selection_experiment(benavoli, "C2", "C4", biases=[0, 10], samples=50, seed=1,
                                        tests=["Wilcoxon", "sign test"])
    return {
        "mean_ranks_figure": [("mean_ranks_figure", plots.mean_ranks_figure(demsar.mean_ranks))],
        "rank_heatmap": [("rank_heatmap", plots.rank_heatmap(demsar))],
        "win_tie_loss_figure": [("win_tie_loss_figure", plots.win_tie_loss_figure(demsar))],
        "cd_diagram": [("cd_diagram", plots.cd_diagram(wilcoxon)),
                       ("cd_diagram vertical", plots.cd_diagram(wilcoxon, orientation="vertical")),
                       ("cd_diagram nemenyi", plots.cd_diagram(cl.posthoc(demsar, "mean-ranks", "nemenyi", alpha=0.1))),
                       ("cd_diagram control", plots.cd_diagram(control))],
        "rank_sets_figure": [("rank_sets_figure", plots.rank_sets_figure(cl.rank_sets(demsar))),
                             ("rank_sets_figure bootstrap",
                              plots.rank_sets_figure(cl.rank_sets(demsar, method="bootstrap", n_boot=200)))],
        "plan_figure": [("plan_figure", plots.plan_figure(
            cl.plan(demsar, n_datasets=[10, 20], difference=0.02, reps=50, seed=0).to_frame(), alpha=0.05))],
        "familywise_figure": [("familywise_figure fwer", plots.familywise_figure(_familywise())),
                              ("familywise_figure power",
                               plots.familywise_figure(_familywise(better=1, shift=1.0), y="power"))],
        "apv_heatmap": [("apv_heatmap", plots.apv_heatmap(wilcoxon))],
        "pool_z_figure": [("pool_z_figure", plots.pool_z_figure(cl.pool_sensitivity(garcia, "C4.5", "CN2")))],
        "pool_counts_figure": [("pool_counts_figure",
                                plots.pool_counts_figure(cl.pool_counts(garcia, "C4.5", "CN2"), "C4.5", "CN2"))],
        "sensitivity_heatmap": [("sensitivity_heatmap", plots.sensitivity_heatmap(cl.pool_sensitivity_matrix(garcia)))],
        "power_figure": [("power_figure", plots.power_figure(cl.pool_power_simulation(reps=100, seed=0),
                                                             {"sign test": 0.94, "mean-ranks z": 0.046}))],
        "selection_figure": [("selection_figure", plots.selection_figure(selection, ["Wilcoxon", "sign test"],
                                                                         title="Two classifiers")),
                             ("selection_figure untitled", plots.selection_figure(selection, ["Wilcoxon"]))],
        "fold_pvalues_figure": [("fold_pvalues_figure", plots.fold_pvalues_figure(level, level["test"].iloc[0]))],
        "posterior_simplex": [("posterior_simplex", plots.posterior_simplex(sr, "C1", "C2"))],
        "correlated_t_posterior": [("correlated_t_posterior", plots.correlated_t_posterior(corr, a, b))],
        "bayesian_matrix": [("bayesian_matrix", plots.bayesian_matrix(
            cl.bayesian_posthoc(garcia, rope=0.01, samples=2000, seed=0), garcia.classifiers))],
        "bayesian_fold_figure": [("bayesian_fold_figure", plots.bayesian_fold_figure(
            cl.bayesian_fold_tests(folds, a, b, rope=0.01)))],
        "effect_size_forest": [("effect_size_forest", plots.effect_size_forest(cl.effect_size_table(demsar)))],
        "relevance_figure": [("relevance_figure", plots.relevance_figure(
            cl.relevance_demo(sizes=(10, 50), samples=2000), alpha=0.05))],
    }


@pytest.fixture(scope="module")
def figures(demsar, garcia, benavoli):
    return _quiet(_figures, demsar, garcia, benavoli)


@pytest.fixture(scope="module")
def every(figures):
    return [(label, fig) for variants in figures.values() for label, fig in variants]


def _figure_functions() -> set[str]:
    """The public functions of cl.plots that return a plotly figure (the walk below must call every one)."""
    return {name for name, fn in inspect.getmembers(plots, inspect.isfunction)
            if fn.__module__.startswith("compare_lib.render.") and not name.startswith("_")
            and str(inspect.signature(fn).return_annotation).endswith("Figure")}


def test_every_figure_function_is_walked(figures):
    assert _figure_functions() == set(figures)
    assert len(figures) >= 20


# -- reading the JSON --------------------------------------------------------------------------------------

def _luminance(colour: str) -> float:
    m = re.fullmatch(r"#([0-9a-fA-F]{6})", colour)
    assert m, colour
    r, g, b = (int(m.group(1)[i:i + 2], 16) / 255 for i in (0, 2, 4))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _titles(obj, path=""):
    """Every (path, value) of a key named title in a figure's JSON (data arrays and the template left out)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "template":
                continue
            if key == "title":
                yield f"{path}.{key}", value
            yield from _titles(value, f"{path}.{key}")
    elif isinstance(obj, list) and obj and isinstance(obj[0], (dict, list)):
        for i, value in enumerate(obj):
            yield from _titles(value, f"{path}[{i}]")


def _shown_axes(spec) -> dict[str, dict]:
    """The x/y axes a cartesian trace is drawn on and the ternary axes, unless hidden or without tick labels
    (an axis that shares its ticks with the one below it)."""
    layout = spec["layout"]
    names = set()
    for trace in spec["data"]:
        if trace.get("type", "scatter") in ("scatter", "scattergl", "bar", "heatmap", "box", "histogram"):
            names |= {"xaxis" + str(trace.get("xaxis", "x"))[1:], "yaxis" + str(trace.get("yaxis", "y"))[1:]}
    names |= {k for k in layout if re.fullmatch(r"[xy]axis\d*", k)}
    axes = {n: layout.get(n, {}) for n in names}
    if "ternary" in layout:
        axes |= {f"ternary.{k}": layout["ternary"].get(k, {}) for k in ("aaxis", "baxis", "caxis")}
    return {n: a for n, a in axes.items() if a.get("visible") is not False and a.get("showticklabels") is not False}


def _fonts(spec):
    """Every (where, font) of the figure's text: layout, title, axes (ticks and titles), colour bars, legend,
    annotations, text traces."""
    layout = spec["layout"]
    yield "layout.font", layout.get("font", {})
    if layout.get("title"):
        yield "title", layout["title"].get("font", {})
    for name, axis in _shown_axes(spec).items():
        yield f"{name}.tickfont", axis.get("tickfont", {})
        if axis.get("title"):
            yield f"{name}.title", axis["title"].get("font", {})
    for i, trace in enumerate(spec["data"]):
        if trace.get("colorbar"):
            yield f"data[{i}].colorbar.tickfont", trace["colorbar"].get("tickfont", {})
            yield f"data[{i}].colorbar.title", trace["colorbar"]["title"].get("font", {})
        if trace.get("textfont") and trace.get("type") != "heatmap":  # heatmap text is sized to its cells
            yield f"data[{i}].textfont", trace["textfont"]
    legend = layout.get("legend", {})
    yield "legend.font", legend.get("font", {})
    for i, note in enumerate(layout.get("annotations") or []):
        yield f"annotations[{i}]", note.get("font", {})


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if key not in ("template", "meta"):
                yield from _strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value)


# -- titles --------------------------------------------------------------------------------------------------

def test_every_title_is_a_dict_and_every_shown_axis_has_one(every):
    for label, fig in every:
        spec = fig.to_plotly_json()  # what Streamlit sends to the browser
        for path, value in _titles(spec):
            assert isinstance(value, dict), (label, path, value)  # never the bare string plotly.js ignores
        axes = _shown_axes(spec)
        assert axes or label.startswith("cd_diagram"), label  # the CD diagram draws its own axis
        for name, axis in axes.items():
            title = axis.get("title")
            assert isinstance(title, dict) and str(title.get("text", "")).strip(), (label, name, axis)
        for i, trace in enumerate(spec["data"]):
            if trace.get("colorbar") is not None:
                assert str(trace["colorbar"]["title"]["text"]).strip(), (label, i)
        go.Figure(spec)  # validates: a valid plotly structure


def test_the_charts_that_had_no_axis_titles_now_have_them(figures):
    expected = {"rank_sets_figure": ("rank (1 = best)", "classifier"), "plan_figure": ("data sets (N)", "power"),
                "familywise_figure": ("classifiers (k)", "P(at least one false 'significant' pair)")}
    for name, (x_title, y_title) in expected.items():
        layout = figures[name][0][1].to_plotly_json()["layout"]
        assert layout["xaxis"]["title"] == {"text": x_title, "font": {"size": 14, "color": plots.INK}}
        assert layout["yaxis"]["title"]["text"] == y_title
    power = figures["familywise_figure"][1][1].to_plotly_json()["layout"]
    assert power["yaxis"]["title"]["text"] == "share of true differences found"


def test_bare_string_titles_are_turned_into_dicts():
    fig = _style._figure([dict(type="heatmap", z=[[1, 2]], colorbar=dict(title="p"))],
                        dict(title="t", xaxis=dict(title="x"), yaxis=dict(title="y"), legend=dict(title="l")))
    spec = fig.to_plotly_json()
    assert spec["layout"]["xaxis"]["title"]["text"] == "x" and spec["layout"]["legend"]["title"]["text"] == "l"
    assert spec["data"][0]["colorbar"]["title"]["text"] == "p" and spec["layout"]["title"]["text"] == "t"


# -- projector: size and ink --------------------------------------------------------------------------------

def test_text_is_at_least_14_px_dark_on_white(every):
    for label, fig in every:
        spec = fig.to_plotly_json()
        layout = spec["layout"]
        assert layout["paper_bgcolor"] == layout["plot_bgcolor"] == "#ffffff", label
        dense = {name for name, axis in _shown_axes(spec).items() if axis.get("tickmode") == "array"
                 and axis.get("ticktext") is not None and len(axis["ticktext"]) > 12}
        for where, font in _fonts(spec):
            assert _luminance(font.get("color", "#000000")) <= DARK, (label, where, font)
            if label in PHONE_ONLY and where.startswith(("annotations", "title", "data")):
                continue
            if where.split(".")[0] in dense and where.endswith("tickfont"):
                continue  # sized to fit a phone: test_heatmaps_show_every_name
            assert font.get("size", 0) >= plots.FONT_PX, (label, where, font)
        if label not in PHONE_ONLY:  # sizes written inline in labels
            sizes = [int(s) for text in _strings(spec) for s in re.findall(r"font-size:\s*(\d+)px", text)]
            assert all(s >= plots.FONT_PX for s in sizes), (label, sizes)


def test_the_old_light_grey_12_px_is_gone(figures):
    """The CD diagram's tick labels were 12 px and its mean ranks 11 px; the theme's axis text light grey."""
    spec = figures["cd_diagram"][0][1].to_plotly_json()
    ticks = next(tr for tr in spec["data"] if tr.get("name") == "tick labels")
    assert ticks["textfont"]["size"] == 14 and ticks["textfont"]["color"] == plots.INK
    assert "font-size:11px" not in " ".join(_strings(spec))
    axis = figures["plan_figure"][0][1].to_plotly_json()["layout"]["xaxis"]
    assert axis["tickfont"] == {"size": 14, "color": plots.INK}


# -- the toolbar ---------------------------------------------------------------------------------------------

def test_titles_sit_below_the_toolbar(every):
    for label, fig in every:
        layout = fig.to_plotly_json()["layout"]
        title = layout.get("title")
        if not title or not title.get("text"):
            assert layout["margin"]["t"] >= plots.MODEBAR_PX, label
            continue
        assert title["yref"] == "container" and title["y"] == 1 and title["yanchor"] == "top", label
        assert title["pad"]["t"] >= plots.MODEBAR_PX, label
        lines = title["text"].split("<br>")
        assert layout["margin"]["t"] >= plots.MODEBAR_PX + len(lines) * title["font"]["size"] * 1.3, (label, layout["margin"])
        # Wrapped to fit a phone (plotly does not wrap a title: a long one ran off the screen).
        for line in lines:
            assert _style._text_px(html.unescape(line), title["font"]["size"]) * 1.1 <= plots.PHONE_PX - 24, (label, line)


def test_a_taller_top_margin_keeps_the_plot_height(demsar):
    """The title's room is added to the height, so that the plot area keeps its size."""
    fig = plots.rank_heatmap(demsar)
    layout = fig.to_plotly_json()["layout"]
    assert layout["height"] - layout["margin"]["t"] == max(320, 18 * 14 + 140) - 60  # as drawn with a 60 px top


# -- phone: every name on a heatmap -------------------------------------------------------------------------

def _table(k: int, n: int = 15) -> cl.ScoreTable:
    rng = np.random.default_rng(k)
    names = [f"Classifier number {i} with a long name" if i % 3 == 0 else f"C{i}" for i in range(k)]
    names[1] = "<b>tag</b> & co"
    datasets = [f"a data set with a long name {i}" for i in range(n)]
    return cl.ScoreTable(pd.DataFrame(rng.normal(size=(n, k)) + np.linspace(0, 2, k), columns=names, index=datasets), True)


def _heatmaps(k: int) -> list[tuple[str, go.Figure]]:
    t = _table(k)
    res = cl.posthoc(t, "wilcoxon", "holm")
    return [("apv_heatmap", plots.apv_heatmap(res)), ("win_tie_loss_figure", plots.win_tie_loss_figure(t)),
            ("rank_heatmap", plots.rank_heatmap(t)),
            ("bayesian_matrix", plots.bayesian_matrix(cl.bayesian_posthoc(t, rope=0.01, samples=500, seed=0),
                                                      t.classifiers))]


@pytest.mark.parametrize("k", [12, 20])
def test_heatmaps_show_every_name(k):
    for label, fig in _quiet(_heatmaps, k):
        spec = fig.to_plotly_json()
        trace = spec["data"][0]
        x_axis, y_axis = spec["layout"]["xaxis"], spec["layout"]["yaxis"]
        names = list(trace["x"])
        assert len(names) == k, label
        # Every tick value given (plotly skips overlapping category labels otherwise), one label each.
        assert x_axis["tickmode"] == "array" and list(x_axis["tickvals"]) == names, label
        assert len(x_axis["ticktext"]) == k and all(str(t).strip() for t in x_axis["ticktext"]), label
        # Shortened names end in an ellipsis; the hover shows the full (escaped) name from the data.
        for full, shown in zip(names, x_axis["ticktext"]):
            plain = html.unescape(shown)
            assert plain == html.unescape(full) or (plain.endswith("…") and html.unescape(full).startswith(plain[:-1]))
        assert "%{x}" in trace["hovertemplate"]
        assert "&lt;b&gt;tag&lt;/b&gt; &amp; co" in names and not any("<b>tag" in t for t in x_axis["ticktext"])
        # At 400 px, beside the row labels and a colour bar, the upright labels fit side by side.
        size = x_axis["tickfont"]["size"]
        assert plots.MIN_LABEL_PX <= size <= plots.FONT_PX
        row_labels = y_axis.get("ticktext") or x_axis["ticktext"]
        left = max(len(html.unescape(t)) for t in row_labels) * 0.7 * y_axis["tickfont"]["size"]
        assert size * 1.25 <= (plots.PHONE_PX - left - _style._SIDE_PX) / k + 1e-9, (label, size, left)
        # The colour bar lies across the top (not beside the plot, where the columns need the width).
        bar = trace["colorbar"]
        assert bar["orientation"] == "h" and bar["yref"] == "container" and bar["yanchor"] == "top", label
        assert (1 - bar["y"]) * spec["layout"]["height"] >= spec["layout"]["margin"]["t"] - _style._HBAR_PX, label
        if k == 12:
            assert size == plots.FONT_PX, label  # twelve names still at full size
        if label != "rank_heatmap":  # rows of classifiers: every name there too
            assert y_axis["tickmode"] == "array" and list(y_axis["tickvals"]) == list(trace["y"]), label
        assert 45 in x_axis["autotickangles"] or 90 in x_axis["autotickangles"]  # turned as far as needed


def test_names_and_data_sets_of_a_rank_heatmap(demsar):
    spec = plots.rank_heatmap(demsar).to_plotly_json()
    y_axis = spec["layout"]["yaxis"]
    assert y_axis["title"]["text"] == "data set"
    assert list(y_axis["tickvals"]) == list(spec["data"][0]["y"]) and len(y_axis["tickvals"]) == 14
    # Hundreds of data sets: rows too thin for a label each, plotly picks the labels.
    many = cl.ScoreTable(pd.DataFrame(np.random.default_rng(0).normal(size=(300, 4)), columns=list("ABCD")), True)
    assert "tickvals" not in plots.rank_heatmap(many).to_plotly_json()["layout"]["yaxis"]


def test_phone_label_sizes_shrink_only_when_needed():
    assert _style._phone_labels(4) == (20, 14)
    assert _style._phone_labels(12)[1] == 14
    chars, size = _style._phone_labels(20)
    assert chars == 10 and plots.MIN_LABEL_PX <= size < 14
    assert _style._phone_labels(80)[1] == plots.MIN_LABEL_PX


# -- the teaching texts follow the numbers on screen ----------------------------------------------------------

def _frame(counts: dict[str, list[int]], samples: int = 1000) -> pd.DataFrame:
    rows = [{"bias": float(k), "test": test, "rejections": c} for test, series in counts.items()
            for k, c in zip(range(0, 2 * len(series), 2), series)]
    frame = pd.DataFrame(rows)
    frame.attrs.update(a="A", b="B", samples=samples, alpha=0.05, a_wins=3, b_wins=10, n_datasets=14,
                       mean_difference=-0.02)
    return frame


def test_selection_trend_reads_each_curve():
    frame = _frame({"up": [100, 150, 300], "down": [600, 500, 300], "flat": [400, 420, 410],
                    "dip": [500, 200, 480], "peak": [100, 400, 120]})
    trend = cl.selection_trend(frame).set_index("test")["trend"]
    assert trend.to_dict() == {"up": "grow", "down": "fall", "flat": "flat", "dip": "fall, then grow",
                               "peak": "grow, then fall"}
    sentence = cl.selection_trend_sentence(frame)
    assert "for down they fall with k" in sentence and "for up they grow with k" in sentence
    assert "for flat they stay within the simulation's noise" in sentence
    assert "B is the better of the two on the whole table" in sentence
    # 30 more rejections of 1,000 is noise; of 100,000 it is not.
    assert cl.selection_trend(_frame({"t": [400, 430]}))["trend"].iloc[0] == "flat"
    assert cl.selection_trend(_frame({"t": [40000, 43000]}, samples=100000))["trend"].iloc[0] == "grow"


def test_selection_sentence_on_the_page_follows_the_run():
    """Issue 28: with the page's defaults (Demšar's table, A = C4.5, B = C4.5+m, the better one) the chart shows
    rejections falling with k; the text said they grow. Now the page shows the library's reading of the run."""
    from .apptest_helpers import by_label, open_page, texts

    at = open_page("replicability")
    table = cl.load_scores(SAMPLES / "demsar2006_table6_auc_untied.csv", higher_is_better=True)
    by_label(at.number_input, "Samples per k").set_value(300)
    by_label(at.number_input, "Step of k").set_value(10)
    at.run()
    sentences = []
    for a, b in (("C4.5", "C4.5+m"), ("C4.5+m", "C4.5")):
        by_label(at.selectbox, "A (also the control)").set_value(a)
        at.run()
        by_label(at.selectbox, "B").set_value(b)
        at.run()
        at.button(key="w_rep_run").click()
        at.run()
        assert not at.exception, at.exception
        expected = cl.selection_experiment(table, a, b, n_sets=10, biases=range(0, 21, 10), samples=300, seed=0)
        sentence = cl.selection_trend_sentence(expected)
        assert any(sentence in m for m in texts(at.markdown)), sentence
        assert not any("Rejections grow with k because" in m for m in texts(at.markdown))
        sentences.append(sentence)
    assert "they fall with k" in sentences[0] and "C4.5+m is the better of the two" in sentences[0]
    assert "favouring its data sets makes the difference plainer" in sentences[1]
    assert sentences[0] != sentences[1]


def test_familywise_text_states_the_alpha_in_force():
    from .apptest_helpers import by_label, open_page, texts

    at = open_page("pool", ptab="Teaching demos")  # only the open tab runs (issue 31)
    assert any("has a 5% chance (α = 0.05" in m for m in texts(at.markdown))
    by_label(at.number_input, "Significance level α").set_value(0.1)
    at.run()
    assert not at.exception
    text = texts(at.markdown)
    assert any("has a 10% chance (α = 0.1, the sidebar's)" in m for m in text)
    assert not any("has a 5% chance" in m for m in text)


def test_example_1_names_the_column_it_points_at():
    from .apptest_helpers import open_page, texts

    at = open_page("pool", ptab="Teaching demos")  # only the open tab runs (issue 31)
    at.button(key="demo1").click()
    at.run()
    assert not at.exception
    message = next(m for m in texts(at.success) if "Example 1 is loaded" in m)
    assert "last column" not in message
    column = re.search(r'flagged in the column "([^"]+)"', message).group(1)
    frame = at.dataframe[0].value
    assert column in frame.columns and list(frame.columns).index(column) < len(frame.columns) - 1  # not the last
    assert frame[column].iloc[0] != ""  # the A vs B verdict is flagged there


# -- in a browser (plotly.js, as shipped with plotly.py) ---------------------------------------------------------

@pytest.mark.browser
def test_in_a_browser_every_axis_title_is_drawn_and_every_name_shown(every):
    """What the JSON tests promise, checked where it matters: drawn by plotly.js in chromium at 400 px."""
    import json

    from .browser_helpers import browser_page, require_chromium

    require_chromium()
    from plotly.offline import get_plotlyjs

    heatmaps = [(f"{label} k=20", fig) for label, fig in _quiet(_heatmaps, 20)]
    with browser_page(400, 1400) as (page, errors):
        page.set_content(f"<html><body style='margin:0'><div id=g></div><script>{get_plotlyjs()}</script></body></html>")
        for label, fig in [*every, *heatmaps]:
            spec = json.loads(fig.to_json())
            layout = {**spec["layout"], "width": 400}
            page.evaluate("s => Plotly.newPlot('g', s.data, s.layout)", {"data": spec["data"], "layout": layout})
            drawn = page.evaluate("""() => [...document.querySelectorAll('#g text')]
                .filter(e => /^[xy][0-9]*title$/.test(e.getAttribute('class') || '')).map(e => e.textContent.trim())""")
            cartesian = [n for n in _shown_axes(spec) if not n.startswith("ternary")]
            assert len([t for t in drawn if t]) >= len(cartesian), (label, drawn, cartesian)
            if spec["layout"].get("title"):
                title, bar = page.evaluate("""() => [...['.gtitle', '.modebar']].map(s => {
                    const r = document.querySelector('#g ' + s).getBoundingClientRect(); return [r.top, r.bottom]; })""")
                plot_top = page.evaluate("() => document.getElementById('g')._fullLayout._size.t")
                assert title[0] >= bar[1], (label, title, bar)  # below the toolbar, at any number of lines
                assert title[1] <= plot_top, (label, title, plot_top)  # and above the plot
            if label.endswith("k=20"):
                ticks = page.evaluate("() => document.querySelectorAll('#g .xtick text').length")
                assert ticks == 20, (label, ticks)
        assert not errors, errors
