"""Widgets and layout helpers shared by the pages: wide charts, fold-level data pickers, classifier pairs.

Issue 28: a fold-level source a link asks for but this session cannot show (an experiment not run here, fold-level
rows that did not travel, a file) is said to be missing, never replaced by the sample; and :func:`run_flag` tells
the receiver of a link whose view showed a run's results to press Run (the form is filled in from the link)."""

from __future__ import annotations

import math

import pandas as pd
from pathlib import Path

import streamlit as st

import compare_lib as cl
import state
from ui_cache import fold_sample
from ui_text import esc, words

__all__ = ["bayes_verdict", "wide_chart", "remembered_tabs", "preload_chart_code", "warm_up", "fold_level_source", "classifier_pair", "ratio_input",
           "run_flag", "remembered_run", "STALE_RUN"]


def wide_chart(fig, key: str, *, narrow=None, **kwargs) -> None:
    """A plotly chart that stretches to the page but never below the figure's ``meta.min_width``.

    With ``narrow`` (another figure of the same content for a narrow column, e.g. the vertical CD diagram),
    both are sent and the browser shows one: ``fig`` where its column is at least ``meta.min_width`` wide,
    ``narrow`` below (a CSS container query on the column's own width, not the window's, so that a sidebar
    or a layout column counts). Without it, or in a browser without container queries, ``fig`` keeps its
    size in a narrow window (a phone) and scrolls sideways rather than crowding its labels. The wide chart
    keeps the key ``<key>_chart``; the narrow one is ``<key>_narrow_chart``.
    """
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    min_width = int(meta.get("min_width", 0))
    if narrow is None or not min_width:
        if min_width:
            # Our own constant CSS (no user text), scoped to this chart's element by its key.
            st.markdown(
                f"<style>.st-key-{key}{{overflow-x:auto}} .st-key-{key} > div{{min-width:{min_width}px}}</style>",
                unsafe_allow_html=True,
            )
        with st.container(key=key):
            st.plotly_chart(fig, width="stretch", key=f"{key}_chart", **kwargs)
        return
    st.markdown(f"<style>{_switch_css(key, min_width, _min_width(narrow))}</style>", unsafe_allow_html=True)
    with st.container(key=key):
        with st.container(key=f"{key}_wide"):
            st.plotly_chart(fig, width="stretch", key=f"{key}_chart", **kwargs)
        with st.container(key=f"{key}_narrow"):
            st.plotly_chart(narrow, width="stretch", key=f"{key}_narrow_chart", **kwargs)


def _min_width(fig) -> int:
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    return int(meta.get("min_width", 0))


def _switch_css(key: str, min_width: int, narrow_min_width: int) -> str:
    """Constant CSS (keys and numbers from our code, never user text) that shows ``.st-key-<key>_wide`` where
    the container ``.st-key-<key>`` is at least ``min_width`` px wide and ``.st-key-<key>_narrow`` below;
    where container queries are not supported, only the wide one, scrolling sideways."""
    box, wide, narrow = f".st-key-{key}", f".st-key-{key}_wide", f".st-key-{key}_narrow"
    name = f"wide-chart-{key}"
    return (
        f"{box}{{container:{name} / inline-size}}"
        f"@container {name} (max-width:{min_width - 0.02:.2f}px){{{wide}{{display:none}}}}"
        f"@container {name} (min-width:{min_width}px){{{narrow}{{display:none}}}}"
        f"{narrow}{{overflow-x:auto}} {narrow} > div{{min-width:{narrow_min_width}px}}"
        f"@supports not (container-type:inline-size){{{narrow}{{display:none}} {wide}{{overflow-x:auto}} "
        f"{wide} > div{{min-width:{min_width}px}}}}"
    )


def remembered_tabs(labels: list[str], key: str, remember: str):
    """Tabs whose open tab lives in the session under ``remember`` (and so in links, links.CHOICES): back on the
    page, or from a link, the tab that was open is opened again; a request left under ``<remember>_request``
    (a teaching example) opens its tab once. The tab bar reruns the page on a switch, so the choice is stored."""
    ss = st.session_state
    if f"{remember}_request" in ss:
        ss[key] = ss.pop(f"{remember}_request")
    elif key not in ss and ss.get(remember) is not None:
        if ss[remember] in labels:
            ss[key] = ss[remember]
        else:
            st.warning(esc(f"The link's tab {ss[remember]!r} is not on this page; the first tab is shown."))
            ss[remember] = labels[0]
    tabs = st.tabs(labels, key=key, on_change="rerun")
    ss[remember] = ss.get(key) or labels[0]
    return tabs


@st.cache_resource(show_spinner=False)
def _chart_chunks() -> tuple[str, ...]:
    """The browser-side chunks of Streamlit's plotly chart and code highlighter (file names carry a build hash)."""
    static = Path(st.__file__).parent / "static" / "static" / "js"
    return tuple(f"./static/js/{p.name}" for pattern in ("PlotlyChart.*.js", "StreamlitSyntaxHighlighter.*.js")
                 for p in sorted(static.glob(pattern))[:1])


def preload_chart_code() -> None:
    """Let the browser load and run the code of plotly's charts (a 4.7 MB chunk, ~1.5 s of a slow CPU) and of the
    code highlighter while the reader is on a page without charts, so that the first page with a chart (Omnibus)
    does not wait for it: an empty chart, hidden, after everything else on the page."""
    links = "".join(f'<link rel="modulepreload" href="{href}">' for href in _chart_chunks())  # constant file names
    # Our own constant CSS and links (no user text).
    st.markdown(f"<style>.st-key-{PRELOAD_KEY}{{display:none}}</style>{links}", unsafe_allow_html=True)
    with st.container(key=PRELOAD_KEY):
        st.plotly_chart(_empty_figure(), key=f"{PRELOAD_KEY}_chart", config={"staticPlot": True})


#: The key of the hidden chart that loads plotly's code early (tests leave it out of their counts).
PRELOAD_KEY = "chart_code_preload"


@st.cache_resource(show_spinner=False)
def _empty_figure():
    import plotly.graph_objects as go

    from ui_cache import _sent  # its dict made once: drawn on every run of the Load data page

    return _sent(go.Figure(layout=dict(width=10, height=10, margin=dict(l=0, r=0, t=0, b=0))))


@st.cache_resource(show_spinner=False)
def warm_up() -> None:
    """Once per server process, after the first page was drawn: import in the background what the other
    pages need (scipy's statistics, the tests, plotly's figures), so that a first visit does not wait."""
    import importlib
    import threading

    global _warmed
    if _warmed:
        return
    _warmed = True

    def load() -> None:
        for name in ("compare_lib.stats._omnibus", "compare_lib.analyses._posthoc", "compare_lib.analyses._pool", "compare_lib.analyses._replicability",
                     "compare_lib.stats._resampling", "compare_lib.plots", "plotly.subplots"):
            importlib.import_module(name)
        cl.io._isolate.warm_up()  # the process that forks the readers of uploaded files

    threading.Thread(target=load, name="warm-up", daemon=True).start()


_warmed = False


#: The fold-level sources a page offers (links.FOLD_SOURCES lists them for links).
FOLD_OWN = "The fold-level rows of the loaded table"
FOLD_SAMPLE = "Sample (3 classifiers, 6 data sets, 10 seeds)"
FOLD_UPLOAD = "Upload a fold-level file"
FOLD_EXPERIMENT = "The experiment run on the Replicability page"


def fold_level_source(table: cl.ScoreTable, key: str) -> pd.DataFrame | None:
    """Let the user pick fold-level data: the sample, an upload, the experiment of the Replicability page
    or the fold-level rows of the loaded table. Returns the long table, or None (with a message shown).

    A source chosen by a link that this session cannot show (an experiment not run here, fold-level rows that did
    not travel, a file) is offered and said to be missing, never replaced by the sample (issue 28)."""
    ss = st.session_state
    remember = key.removeprefix("w_") + "_source"  # kept in the session and in links (links.CHOICES)
    kept = ss.get(remember)
    options = [FOLD_SAMPLE, FOLD_UPLOAD]
    if "experiment_folds" in ss or kept == FOLD_EXPERIMENT:
        options.append(FOLD_EXPERIMENT)
    if table.folds is not None or kept == FOLD_OWN:
        # The user's own fold rows come first (only the classifiers and data sets kept on Load data).
        options.insert(0, FOLD_OWN)
    source = st.radio("Fold-level data", options, horizontal=True, key=f"{key}_source",
                      index=options.index(kept) if kept in options else 0)
    ss[remember] = source
    if source == FOLD_SAMPLE:
        return fold_sample(str(state.SAMPLE_DIR / "fold_level_example.csv"))
    if source == FOLD_EXPERIMENT:
        if "experiment_folds" in ss:
            return ss["experiment_folds"]
        st.warning(esc("This view came from a run: the fold-level results of the experiment on the Replicability page "
                       "(tab 'Run an experiment'), whose settings are filled in from the link. Press Run there and come "
                       "back: nothing is shown here until then (not the sample)."))
        return None
    if source == FOLD_OWN:
        if table.folds is not None:
            return table.folds
        where = state.origin()
        why = ("the link carried its scores without them (they were too large to travel)" if where.kind == "link"
               else "it has one score per data set and classifier")
        st.warning(esc(f"This view shows the fold-level rows of the loaded table, but the loaded table "
                       f"({where.describe()}) has none: {why}. Load the file with its fold-level rows on the Load data "
                       "page, or choose another source above; nothing is shown here until then (not the sample)."))
        return None
    up = st.file_uploader("Fold-level CSV", type=["csv", "tsv", "txt"], key=f"{key}_upload")
    read = state.read_upload_once(up, f"{key}_upload", _read_fold_file)
    if read is None:
        if remember in ss.get("link_keys", ()):
            st.info("The link's view was made with an uploaded fold-level file; files do not travel in links: upload "
                    "the same file to see it.")
        return None
    if isinstance(read, cl.errors.Words):  # the file was refused
        st.error(esc(words(read)))
        return None
    return read.folds


def _read_fold_file(data: cl.io.Spooled) -> cl.ScoreTable:
    """The table of an uploaded file that has fold-level rows (read once per upload: :func:`state.read_upload_once`;
    the session keeps the table, so that the sessions given the same file share it); an
    :class:`~compare_lib.InputError` says why it has none."""
    try:
        loaded = state.load_upload(data, data.name, "long")
    except cl.InputError as err:
        try:  # a wide table (one column per classifier) gets a message about what it is for
            wide = state.load_upload(data, data.name, "wide")
        except cl.InputError:
            raise cl.InputError(cl.errors.marked(err)) from None
        raise cl.InputError(
            f"{data.name} is a wide table: one row per data set and one column per classifier "
            f"({wide.n_datasets} × {wide.n_classifiers}), so it holds one score per data set and "
            "classifier and no folds or seeds. The tests here need one row per split, with the columns "
            "dataset, classifier, seed (or run), fold and score. This file can be compared over data sets: "
            "load it on the Load data page."
        ) from None
    if loaded.folds is None:
        raise cl.InputError(f"{data.name} has one score per data set and classifier: there are no folds or seeds to "
                            "test. The tests here need one row per split (dataset, classifier, seed, fold, score).")
    return loaded


def classifier_pair(names: list[str], first, second, key: str, *, remember: str | None = None,
                    labels: tuple[str, str] = ("Classifier A", "Classifier B")) -> tuple[str, str]:
    """Two different classifiers picked in two columns (B's list leaves out A). With ``remember``, the
    pair is kept in session state under ``<remember>_a`` / ``<remember>_b`` (where links put it too) and
    the widgets start over when another table is loaded."""
    ss = st.session_state
    if remember is not None:
        key = f"{key}_{ss.get('table_version', 0)}"
    kept_a = ss.get(f"{remember}_a") if remember else None
    a = first.selectbox(labels[0], names, index=names.index(kept_a) if kept_a in names else 0, key=f"{key}_a")
    others = [c for c in names if c != a]
    kept_b = ss.get(f"{remember}_b") if remember else None
    b = second.selectbox(labels[1], others, index=others.index(kept_b) if kept_b in others else 0, key=f"{key}_b")
    if remember is not None:
        ss[f"{remember}_a"], ss[f"{remember}_b"] = a, b
    return a, b


def ratio_input(column, key: str) -> float | None:
    """The optional test/train ratio n2/n1 typed by the user (None when blank or not a number)."""
    remember = key.removeprefix("w_")  # kept in the session and in links (links.CHOICES)
    kept = st.session_state.get(remember)
    text = column.text_input("Test/train ratio n2/n1 (blank: from the file)", key=key,
                             value="" if kept is None else f"{float(kept):g}",
                             help="For the corrected tests; e.g. 0.111 for 90/10 splits. Blank uses the "
                                  "n_train/n_test columns, or 1/(k-1) for k-fold cv.")
    st.session_state[remember] = None
    if not text.strip():
        return None
    try:
        ratio = float(text)
    except ValueError:
        ratio = math.nan
    if not (math.isfinite(ratio) and 0 < ratio <= 100):
        st.error(esc(f"The ratio {text!r} is not a positive number up to 100; leave it blank or give e.g. 0.111."))
        return None
    st.session_state[remember] = ratio
    return ratio


def run_flag(flag: str, have: bool, what: str, button: str) -> None:
    """Keep under ``flag`` (links.CHOICES: it travels in links) whether this view shows the results of a run
    (``have``). When a link says its view did but this session has not made the run, say so: the run's settings are
    filled in from the link, and its results come only when the user presses ``button`` (issue 28: a run is never
    made without the user, and nothing else is shown in its place)."""
    ss = st.session_state
    from_link = flag in ss.get("link_keys", ()) and bool(ss.get(flag))
    if have and from_link:
        ss["link_keys"].discard(flag)  # the user made the run: the flag is theirs again
        from_link = False
    ss[flag] = bool(have or from_link)
    if from_link:
        st.info(esc(f"This view came from a run: {what}. Its settings are filled in from the link; press "
                    f"'{button}' to see its results (they are not computed without you)."))


def bayes_verdict(res, a: str, b: str, decision: float, where: str = "") -> None:
    """A Bayesian result's three probabilities as metrics (with their Monte Carlo errors) and the verdict at the
    ``decision`` threshold; ``where`` qualifies what they are about (" on the next data set")."""
    m1, m2, m3 = st.columns(3)
    m1.metric(f"P({esc(a)} better{where})", f"{res.p_x:.3f}", f"± {res.mc_se[0]:.3f} (Monte Carlo)", delta_color="off",
              delta_arrow="off", border=True)
    m2.metric("P(practically equivalent)", f"{res.p_rope:.3f}", f"± {res.mc_se[1]:.3f}", delta_color="off",
              delta_arrow="off", border=True)
    m3.metric(f"P({esc(b)} better{where})", f"{res.p_y:.3f}", f"± {res.mc_se[2]:.3f}", delta_color="off",
              delta_arrow="off", border=True)
    best = max(((res.p_x, f"{a} is practically better than {b}"), (res.p_rope, f"{a} and {b} are practically equivalent"),
                (res.p_y, f"{b} is practically better than {a}")))
    st.markdown(f"**Decided:** {esc(best[1] + where)} with posterior probability {best[0]:.3f} ≥ {decision:g}."
                if best[0] >= decision else
                f"**Undecided** at {decision:g}: the most probable reading ({esc(best[1])}) has probability "
                f"{best[0]:.3f}.")


#: What a page says under results whose settings were changed since they were run.
STALE_RUN = "The results below are from an earlier run with other settings; press Run to update."


def remembered_run(key: str, config: tuple, result: object = None, *, flag: str, what: str, button: str,
                   stale: str = STALE_RUN) -> object:
    """The result of a simulation the user ran on a page, kept for the session under ``key`` with the settings
    (``config``) it was run with: ``result`` is this run's (None: not run now). Returns the kept result, or None if
    there is none; keeps :func:`run_flag` (``flag``, ``what``, ``button``) true only while the settings are those of
    the kept result, and says ``stale`` above it otherwise (the result stays shown until the user runs again)."""
    ss = st.session_state
    if result is not None:
        ss[f"{key}_result"], ss[f"{key}_config"] = result, config
    kept = ss.get(f"{key}_result")
    current = kept is not None and ss.get(f"{key}_config") == config
    run_flag(flag, current, what, button)  # travels in links (links.CHOICES, issue 28)
    if kept is not None and not current:
        st.caption(stale)
    return kept
