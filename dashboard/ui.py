"""Helpers shared by the pages: safe messages, cached calls into compare_lib, downloads.

No statistics are computed here; every number comes from ``compare_lib``. Text that comes from a user
or a link (names, file names, link values, messages that quote them) is never rendered as Markdown or
HTML: :func:`esc` escapes it, and the one place that turns the library's errors and warnings into
Streamlit messages (:func:`call`) escapes them too.
"""

from __future__ import annotations

import math

import os
import re
import string
import warnings
from typing import Any, Callable

import pandas as pd
import streamlit as st

import compare_lib as cl
import state

_MARKDOWN_SPECIALS = re.compile(f"([{re.escape(string.punctuation)}])")


_ZWSP = "\u200b"


def esc(text: Any) -> str:
    """User text made inert for Streamlit's Markdown: every ASCII punctuation character is escaped with a
    backslash, so no link, image, HTML tag, LaTeX ($), emoji or colour directive (:red[...]) can form.
    Bare URLs and e-mail addresses are turned into links *after* escapes are resolved (GFM's literal
    autolinks work on the text), so an invisible zero-width space is put inside '://', 'www.' and after
    '@'; the text still reads the same on the page."""
    text = str(text).replace("://", f":{_ZWSP}//").replace("@", f"@{_ZWSP}")
    text = re.sub(r"(?i)\bwww\.", lambda m: m.group(0)[:3] + _ZWSP + ".", text)
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text)


def show_notes(notes, *, title: str = "What was done to the data") -> None:
    if notes:
        with st.container(border=True):
            st.markdown(f"**{title}**")
            for note in notes:
                st.markdown(f"- {esc(note)}")


def call(fn: Callable[..., Any], *args, **kwargs) -> Any | None:
    """Call the library; its InputError becomes st.error (None returned), its warnings st.warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except cl.InputError as err:
            st.error(esc(err))
            return None
    for w in caught:
        if issubclass(w.category, (cl.ApproximationWarning, cl.DataWarning)):
            st.warning(esc(w.message))
    return result


def guarded(run: Callable[[], Any]) -> None:
    """Run a page: an InputError that escaped a page becomes one escaped error message; any other
    exception (a bug) is logged on the server and shown without its traceback, which would name server
    paths. Streamlit's own control-flow exceptions (stop, rerun) pass through."""
    try:
        run()
    except cl.InputError as err:
        st.error(esc(err))
    except Exception as err:
        if type(err).__module__.startswith("streamlit") or os.environ.get("COMPARE_DASHBOARD_RAISE") == "1":
            raise  # Streamlit's control flow; and the tests want bugs to surface as exceptions
        import logging

        logging.getLogger("dashboard").exception("unexpected error on a page")
        st.error(
            "Something went wrong on this page (an internal error, logged on the server). Try another choice, or "
            "reload the page; if it persists, please report what you did."
        )


def wide_chart(fig, key: str, **kwargs) -> None:
    """A plotly chart that stretches to the page but never below the figure's ``meta.min_width``: in a
    narrow window (a phone) it keeps its size and scrolls sideways rather than crowding its labels."""
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    min_width = int(meta.get("min_width", 0))
    if min_width:
        # Our own constant CSS (no user text), scoped to this chart's element by its key.
        st.markdown(
            f"<style>.st-key-{key}{{overflow-x:auto}} .st-key-{key} > div{{min-width:{min_width}px}}</style>",
            unsafe_allow_html=True,
        )
    with st.container(key=key):
        st.plotly_chart(fig, width="stretch", key=f"{key}_chart", **kwargs)


@st.cache_resource(show_spinner=False)
def warm_up() -> None:
    """Once per server process, after the first page was drawn: import in the background what the other
    pages need (scipy's statistics, the tests, plotly's figures), so that a first visit does not wait."""
    import importlib
    import threading

    def load() -> None:
        for name in ("compare_lib.omnibus", "compare_lib.posthoc", "compare_lib.pool", "compare_lib.replicability",
                     "compare_lib.resampling", "compare_lib.plots", "plotly.subplots"):
            importlib.import_module(name)

    threading.Thread(target=load, name="warm-up", daemon=True).start()


def caption(table: cl.ScoreTable) -> None:
    st.caption(esc(state.table_caption(table)))


# ---------------------------------------------------------------------------------------------
# cached statistics: keyed by the active table's token (the table itself is not hashed on every rerun)


@st.cache_data(show_spinner="Running the omnibus tests…", max_entries=64, ttl=3600)
def omnibus(token: str, _table: cl.ScoreTable, tie_correction: bool):
    """(Friedman, Iman-Davenport, RM-ANOVA, exact Friedman or None): the exact permutation p-value
    wherever the library can compute it within its budget (method="auto")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)  # carried in FriedmanResult.notes
        fr = cl.friedman(_table, tie_correction=tie_correction)
        ff = cl.iman_davenport(_table, tie_correction=tie_correction)
        auto = cl.friedman(_table, tie_correction=tie_correction, method="auto")
    an = cl.rm_anova(_table)
    return fr, ff, an, (auto if auto.method == "exact" else None)


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def omnibus_more(token: str, _table: cl.ScoreTable):
    """(Friedman aligned ranks, Quade): the omnibus tests of García et al. (2010)."""
    return cl.friedman_aligned_ranks(_table), cl.quade(_table)


@st.cache_data(show_spinner="Running the post-hoc tests…", max_entries=128, ttl=3600)
def posthoc(token: str, _table: cl.ScoreTable, test: str, correction: str, control: str | None, alpha_: float):
    return cl.posthoc(_table, test, correction, control, alpha_)


@st.cache_data(show_spinner="Computing the effect sizes…", max_entries=64, ttl=3600)
def posthoc_effects(token: str, _table: cl.ScoreTable, test: str, correction: str, control: str | None, alpha_: float,
                    measure: str):
    """The post-hoc result with the effect size of each pair (cl.with_effect_sizes)."""
    return cl.with_effect_sizes(posthoc(token, _table, test, correction, control, alpha_), _table, measure)


@st.cache_data(show_spinner="Computing the effect sizes…", max_entries=64, ttl=3600)
def apv_effects(token: str, _table: cl.ScoreTable, test: str, control: str | None, measure: str):
    """The APV table with the effect size of each pair."""
    return cl.with_effect_sizes(apv_table(token, _table, test, control), _table, measure)


#: Bergmann-Hommel takes ~2 s at k = 14 and 6 s at 15 (bench/bergmann_hommel.py); the pages offer it up to here.
DASHBOARD_MAX_BH_K = 14
#: Figures drawn per classifier or per pair stop being readable (and cheap) beyond these sizes.
MAX_MATRIX_K = 60
MAX_CD_K = 100
#: Pools of one pair are listed (one row per pool) up to this many classifiers: 16,384 pools.
MAX_LISTED_POOL_K = 16


@st.cache_data(show_spinner="Adjusting the p-values of every procedure…", max_entries=64, ttl=3600)
def apv_table(token: str, _table: cl.ScoreTable, test: str, control: str | None):
    return cl.apv_table(_table, test, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@st.cache_data(show_spinner="Comparing the procedures…", max_entries=64, ttl=3600)
def verdicts(token: str, _table: cl.ScoreTable, alpha_: float, control: str | None):
    return cl.verdicts(_table, alpha_, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def pool_verdicts(token: str, _table: cl.ScoreTable, members: tuple, alpha_: float, procedure: str,
                  statistic: str = "mean-ranks"):
    return cl.pool_verdicts(_table, list(members), alpha_, procedure=procedure, statistic=statistic)


@st.cache_data(show_spinner="Listing the pools…", max_entries=32, ttl=3600)
def pool_sensitivity(token: str, _table: cl.ScoreTable, a: str, b: str, alpha_: float, procedure: str,
                     require_friedman: bool):
    return cl.pool_sensitivity(_table, a, b, alpha_, procedure=procedure, require_friedman=require_friedman)


@st.cache_data(show_spinner=False, max_entries=64, ttl=3600)
def pool_counts(token: str, _table: cl.ScoreTable, a: str, b: str, alpha_: float, procedure: str):
    return cl.pool_counts(_table, a, b, alpha_, procedure=procedure)


@st.cache_data(show_spinner="Counting the pools of every pair…", max_entries=16, ttl=3600)
def pool_matrix(token: str, _table: cl.ScoreTable, alpha_: float, procedure: str):
    return cl.pool_sensitivity_matrix(_table, alpha_, procedure=procedure)


def pool_matrix_with_progress(token: str, table: cl.ScoreTable, alpha_: float, procedure: str):
    """The same matrix for large tables, with a progress bar (a cached function cannot draw one); the
    result is kept for the session. Each step reports progress, so a closed session stops at the next."""
    key = ("pool_matrix", token, alpha_, procedure)
    memo = st.session_state.setdefault("_pool_matrix_memo", {})
    if key not in memo:
        bar = st.progress(0.0, text="Counting the pools of every pair…")
        result = call(cl.pool_sensitivity_matrix, table, alpha_, procedure=procedure,
                      progress=lambda f: bar.progress(f, text=f"Counting the pools of every pair… {f:.0%}"))
        bar.empty()
        if result is None:
            return None
        memo.clear()  # one large matrix per session is enough
        memo[key] = result
    return memo[key]


@st.cache_data(show_spinner=False, max_entries=16, ttl=3600)
def pool_dependence(token: str, _table: cl.ScoreTable, alpha_: float, procedure: str):
    return cl.pool_dependence(_table, alpha_, procedure=procedure)


#: Work budgets of the Bayesian page, about a second each (units as in compare_lib.bayesian): the
#: signed-rank test of one pair (samples x data sets), of all pairs (samples x data sets x pairs), and
#: the sign test of all pairs (samples x pairs).
BAYES_PAIR_WORK = 40_000_000
BAYES_ALL_WORK = 1_000_000_000
BAYES_SIGN_ALL_WORK = 10_000_000
#: Fewer posterior samples than this are not worth showing (Monte Carlo error above ±0.016).
BAYES_MIN_SAMPLES = 1_000


def bayes_samples(requested: int, test: str, n_datasets: int, n_pairs: int = 1) -> tuple[int, str | None]:
    """The posterior samples the page draws within its budget, and a message when that is fewer than
    requested (or 0 with the reason when even the minimum does not fit)."""
    if test == "sign":
        most = BAYES_SIGN_ALL_WORK // n_pairs if n_pairs > 1 else requested
        unit, budget = "pairs × samples", BAYES_SIGN_ALL_WORK
    else:
        budget = BAYES_PAIR_WORK if n_pairs == 1 else BAYES_ALL_WORK
        most = cl.signed_rank_max_samples(n_datasets, n_pairs, budget)
        unit = "samples × data sets" + (" × pairs" if n_pairs > 1 else "")
    if requested <= most:
        return requested, None
    what = f"{n_pairs:,} pairs" if n_pairs > 1 else "one pair"
    if most < BAYES_MIN_SAMPLES:
        return 0, (f"Not offered here for {what} of {n_datasets:,} data sets: even {BAYES_MIN_SAMPLES:,} posterior samples "
                   f"exceed this page's budget of {budget:,} {unit}. Keep fewer classifiers or data sets on the Load "
                   "data page, use the sign test, or call compare_lib in a notebook.")
    used = most // 1000 * 1000
    return used, (f"{used:,} posterior samples instead of {requested:,}: {what} of {n_datasets:,} data sets would exceed "
                  f"this page's budget of {budget:,} {unit}. The Monte Carlo errors shown grow accordingly.")


@st.cache_data(show_spinner="Sampling the posterior…", max_entries=64, ttl=3600)
def bayesian_pair(token: str, _table: cl.ScoreTable, a: str, b: str, test: str, rope: float, prior: float, samples: int,
                  seed: int):
    fn = cl.bayesian_signed_rank if test == "signed-rank" else cl.bayesian_sign_test
    return fn(_table.scores[a], _table.scores[b], rope=rope, prior_strength=prior, samples=samples, seed=seed,
              higher_is_better=_table.higher_is_better)


def bayesian_posthoc_memo(token: str, table: cl.ScoreTable, test: str, rope: float, prior: float, samples: int,
                          seed: int, decision: float, progress=None):
    """All pairs, remembered for the session (a cached function cannot draw the progress bar)."""
    key = (token, test, rope, prior, samples, seed, decision)
    memo = st.session_state.setdefault("_bayes_memo", {})
    if key not in memo:
        memo.clear()
        memo[key] = cl.bayesian_posthoc(table, rope=rope, test=test, decision=decision, seed=seed, prior_strength=prior,
                                        samples=samples, progress=progress)
    return memo[key]


@st.cache_data(show_spinner="Computing the effect sizes…", max_entries=32, ttl=3600)
def effect_sizes(token: str, _table: cl.ScoreTable):
    return cl.effect_size_table(_table)


@st.cache_data(show_spinner=False, max_entries=4)
def fold_sample(path: str) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        return cl.load_scores(path, layout="long").folds


def fold_level_source(table: cl.ScoreTable, key: str) -> pd.DataFrame | None:
    """Let the user pick fold-level data: the sample, an upload, the experiment of the Replicability page
    or the fold-level rows of the loaded table. Returns the long table, or None (with a message shown)."""
    options = ["Sample (3 classifiers, 6 data sets, 10 seeds)", "Upload a fold-level file"]
    if "experiment_folds" in st.session_state:
        options.append("The experiment run on the Replicability page")
    if table.folds is not None:
        options.append("The fold-level rows of the loaded table")
    source = st.radio("Fold-level data", options, horizontal=True, key=f"{key}_source")
    if source == options[0]:
        return fold_sample(str(state.SAMPLE_DIR / "fold_level_example.csv"))
    if source == "The experiment run on the Replicability page":
        return st.session_state["experiment_folds"]
    if source == "The fold-level rows of the loaded table":
        return table.folds
    up = st.file_uploader("Fold-level CSV", type=["csv", "tsv", "txt"], key=f"{key}_upload")
    if up is None:
        return None
    data = up.getvalue()
    try:
        loaded = state.load_bytes(data, up.name, True, "long", "error")
    except cl.InputError as err:
        try:  # a wide table (one column per classifier) gets a message about what it is for
            wide = state.load_bytes(data, up.name, True, "wide", "error")
        except cl.InputError:
            st.error(esc(err))
        else:
            st.error(esc(
                f"{up.name} is a wide table: one row per data set and one column per classifier "
                f"({wide.n_datasets} × {wide.n_classifiers}), so it holds one score per data set and "
                "classifier and no folds or seeds. The tests here need one row per split, with the columns "
                "dataset, classifier, seed (or run), fold and score. This file can be compared over data sets: "
                "load it on the Load data page."
            ))
        return None
    if loaded.folds is None:
        st.error(esc(f"{up.name} has one score per data set and classifier: there are no folds or seeds to "
                     "test. The tests here need one row per split (dataset, classifier, seed, fold, score)."))
        return None
    return loaded.folds


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
    text = column.text_input("Test/train ratio n2/n1 (blank: from the file)", value="", key=key,
                             help="For the corrected tests; e.g. 0.111 for 90/10 splits. Blank uses the "
                                  "n_train/n_test columns, or 1/(k-1) for k-fold cv.")
    if not text.strip():
        return None
    try:
        ratio = float(text)
    except ValueError:
        ratio = math.nan
    if not (math.isfinite(ratio) and 0 < ratio <= 100):
        st.error(esc(f"The ratio {text!r} is not a positive number up to 100; leave it blank or give e.g. 0.111."))
        return None
    return ratio


@st.cache_data(show_spinner="Computing the posteriors on every data set and seed…", max_entries=32, ttl=3600)
def bayesian_fold_tests(folds: pd.DataFrame, a: str, b: str, rope: float, ratio: float | None, higher: bool):
    return cl.bayesian_fold_tests(folds, a, b, rope, test_train_ratio=ratio, higher_is_better=higher)


@st.cache_data(show_spinner="Running the tests on every data set and seed…", max_entries=32, ttl=3600)
def fold_tests(folds: pd.DataFrame, a: str, b: str, alpha_: float, ratio: float | None):
    return cl.fold_level_tests(folds, a, b, alpha=alpha_, test_train_ratio=ratio)


def run_experiment(classifiers: tuple, datasets: tuple, schemes: tuple, n_seeds: int, n_jobs: int, progress=None):
    """Remembered per configuration for the session (a cached function cannot draw the progress bar);
    the experiment reports progress after every task, so a closed session stops at the next one."""
    key = (classifiers, datasets, schemes, n_seeds)
    memo = st.session_state.setdefault("_experiment_memo", {})
    if key not in memo:
        memo.clear()
        memo[key] = cl.run_experiment(list(classifiers), list(datasets), schemes=list(schemes), seeds=range(n_seeds),
                                      n_jobs=n_jobs, progress=progress)
    return memo[key]


# ---------------------------------------------------------------------------------------------
# downloads


@st.cache_resource(show_spinner=False)
def image_export_available() -> str | None:
    """Start kaleido's browser once per server; return None if it works, else the reason it does not.

    Without a Chrome/Chromium on the machine kaleido's server waits forever, so the browser is looked
    up first, and the start is given at most 30 s in a helper thread.
    """
    try:
        from choreographer.browsers.chromium import Chromium

        if Chromium.find_browser(skip_local=False) is None:
            return "no Chrome or Chromium found on the server"
    except Exception:  # an unexpected layout of kaleido's helper package: try anyway
        pass
    import threading

    outcome: list[str | None] = []

    def start() -> None:
        try:
            import kaleido
            import plotly.graph_objects as go

            kaleido.start_sync_server()
            cl.plots.figure_image(go.Figure(layout=dict(width=10, height=10)), "svg")
            outcome.append(None)
        except Exception as err:  # kaleido raises several types when the browser fails
            outcome.append(f"{type(err).__name__}: {err}")

    worker = threading.Thread(target=start, daemon=True)
    worker.start()
    worker.join(timeout=30)
    return outcome[0] if outcome else "the image exporter did not start within 30 s"


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def figure_image(fig_json: str, fmt: str) -> bytes:
    import plotly.io as pio

    return cl.plots.figure_image(pio.from_json(fig_json), fmt)


def figure_downloads(fig, stem: str, *, key: str) -> None:
    """SVG and PNG (kaleido, made on click) and a self-contained HTML of a figure.

    The image exporter starts only when a download is asked for: the page itself never waits for it."""
    row = st.container(horizontal=True)
    fig_json = fig.to_json()

    def image(fmt: str) -> bytes:
        problem = image_export_available()
        if problem is not None:
            raise RuntimeError(f"SVG/PNG export is not available on this server ({problem}); use the HTML download.")
        return figure_image(fig_json, fmt)

    row.download_button("⬇ SVG", lambda: image("svg"), file_name=f"{stem}.svg", mime="image/svg+xml",
                        key=f"{key}_svg", on_click="ignore")
    row.download_button("⬇ PNG", lambda: image("png"), file_name=f"{stem}.png", mime="image/png",
                        key=f"{key}_png", on_click="ignore")
    row.download_button("⬇ HTML (interactive)", lambda: cl.plots.figure_html(fig), file_name=f"{stem}.html",
                        mime="text/html", key=f"{key}_html", on_click="ignore")


def download_buttons(frame: pd.DataFrame, stem: str, *, caption: str, key: str) -> None:
    """CSV (cells a spreadsheet would run as formulas are neutralized) and LaTeX downloads of a table."""
    row = st.container(horizontal=True)
    row.download_button(
        "⬇ CSV", lambda: cl.report.to_csv(frame).encode("utf-8"), file_name=f"{stem}.csv", mime="text/csv",
        key=f"{key}_csv", on_click="ignore",
    )
    row.download_button(
        "⬇ LaTeX", lambda: cl.report.to_latex(frame, caption=caption, label=f"tab:{stem}").encode("utf-8"),
        file_name=f"{stem}.tex", mime="text/x-tex", key=f"{key}_tex", on_click="ignore",
    )


def p_columns(frame: pd.DataFrame, columns) -> dict:
    """Column configs that show p-values in one readable format (0.0312, 4.49e-08; never a bare 0)."""
    return {c: st.column_config.NumberColumn(c, format="%.3g") for c in columns if c in frame.columns}
