"""Cached calls into compare_lib: results keyed by the active table's token and the choices, shared by
sessions (``st.cache_data``: each call unpickles its own copy), or remembered for one session where a progress bar
must be drawn (:func:`state.session_memo`). No statistics are computed here; every number comes from ``compare_lib``.

The results that pages read on every run and never change (frozen result dataclasses; frames that pages and
``compare_lib`` only read or copy: ``with_effect_sizes``, ``with_p_text`` and ``label_effects`` return copies) are
``st.cache_resource`` instead: one object shared by the sessions, no unpickled copy per call (issue 31: unpickling the
cached results was ~5 % of the page scripts' time at N = 30). A caller that wants
to change one takes a copy first.

What is kept, and its bounds (issue 31: a class of 100 on one process of 690 MB):

* shared by all sessions: every ``st.cache_data`` / ``st.cache_resource`` here has ``max_entries`` (the least
  recently used entry goes beyond it) and, where it holds results of a user's table, ``ttl=3600`` (an hour after
  its last use); built figures are in :func:`cached_figure` (:data:`FIGURE_CACHE_ENTRIES`). Keys are the table's
  token and the choices, so 100 students on the same table share one entry per view; :func:`shared_dataframe`
  keeps the Arrow table of each shared frame it showed only while that frame is alive (held by one of those caches);
* per session, in ``st.session_state`` only: one slot per kind, never one per view: :func:`state.session_memo`
  (a new key replaces the slot's value: ``_pool_matrix_memo``, ``_experiment_memo``, the state module's
  ``_active_memo`` ...), app.py's ``_pages`` (the navigation's st.Page objects), :func:`frame_token`'s ``_frame_token``, the Pool page's ``_pool_matrix_go``. Streamlit
  drops a session's state when the session ends (its websocket closed and, for a reconnect, its
  ``server.disconnectedSessionTTL`` passed), and with it everything of this list; nothing here keeps a
  reference to a session's objects elsewhere (the shared caches take only the token and the choices, and
  the results). tests/test_figure_cache.py measures the figure cache's bound.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import warnings
import weakref

import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

import compare_lib as cl
import state
from ui_text import call

__all__ = ["selection_glance", "analysis_report", "bootstrap_ranks", "cached_figure", "cached_table", "SentFigure", "FIGURE_CACHE_ENTRIES", "shared_dataframe", "frame_token", "compare_metrics", "skillings_mack", "omnibus", "omnibus_more", "omnibus_summary", "posthoc", "posthoc_effects", "apv_effects", "DASHBOARD_MAX_BH_K", "MAX_MATRIX_K", "MAX_CD_K", "MAX_LISTED_POOL_K", "apv_table", "verdicts", "pool_verdicts", "pool_sensitivity", "pool_counts", "pool_matrix", "pool_matrix_with_progress", "pool_dependence", "BAYES_PAIR_WORK", "BAYES_ALL_WORK", "BAYES_SIGN_ALL_WORK", "BAYES_MIN_SAMPLES", "bayes_samples", "bayesian_pair", "bayesian_posthoc_memo", "effect_sizes", "fold_sample", "bayesian_fold_tests", "fold_tests", "run_experiment", "pool_subset", "smallest_flip", "replicability_table", "scores_with_ranks"]


def _by_name(cache):
    """``cache`` (``st.cache_data(...)`` or ``st.cache_resource(...)``) applied to a function that is then called
    with its arguments by name: Streamlit names each positional argument of a cached call with
    ``inspect.signature`` of the function, once per argument and call (~0.9-3.8 % of the server's CPU at N = 30,
    issue 31); the names are taken here once. The keys, the bounds and ``clear()`` are the cache's own."""
    def wrap(func):
        cached = cache(func)
        names = tuple(inspect.signature(func).parameters)

        @functools.wraps(func)
        def call(*args, **kwargs):
            return cached(**dict(zip(names, args)), **kwargs)

        call.clear = cached.clear
        return call
    return wrap


# Keyed by the active table's token (the table itself is not hashed on every rerun).


@_by_name(st.cache_data(show_spinner="Drawing data sets at random…", max_entries=64, ttl=3600))
def selection_glance(token: str, _table: cl.ScoreTable, a: str, b: str, n_sets: int, alpha_: float) -> str:
    """The replicability page's first answer: Wilcoxon on 1,000 unbiased draws of ``n_sets`` data sets (seed 0)."""
    result = cl.selection_experiment(_table, a, b, n_sets=n_sets, biases=[0], samples=1000, alpha=alpha_, seed=0,
                                     tests=["Wilcoxon"])
    return cl.report.selection_sentence(result, a, b, _table.n_datasets)


@_by_name(st.cache_data(show_spinner="Resampling the data sets…", max_entries=64, ttl=3600))
def bootstrap_ranks(token: str, _table: cl.ScoreTable, alpha_: float):
    """Marginal bootstrap intervals of the mean ranks (2,000 resamples, seed 0)."""
    return cl.rank_sets(_table, alpha=alpha_, method="bootstrap")


@_by_name(st.cache_data(show_spinner="Writing the report…", max_entries=16, ttl=3600))
def analysis_report(token: str, _table: cl.ScoreTable, _source, source_key: str, alpha_: float, test: str,
                    correction: str, control: str | None, effect: str, fmt: str) -> bytes:
    """The whole analysis of the current view as a report (``fmt``: html, markdown, latex, python)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)
        analysis = cl.analyze(_table, alpha=alpha_, test=test, correction=correction, control=control,
                              effect_measure=effect, source=_source)
    render = {"html": analysis.to_html, "markdown": analysis.to_markdown, "latex": analysis.to_latex,
              "python": analysis.to_python}[fmt]
    return render().encode("utf-8")


@_by_name(st.cache_resource(show_spinner="Running the omnibus tests…", max_entries=64, ttl=3600))
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


@_by_name(st.cache_resource(show_spinner=False, max_entries=32, ttl=3600))
def omnibus_more(token: str, _table: cl.ScoreTable):
    """(Friedman aligned ranks, Quade): the omnibus tests of García et al. (2010)."""
    return cl.friedman_aligned_ranks(_table), cl.quade(_table)


@_by_name(st.cache_resource(show_spinner=False, max_entries=64, ttl=3600))
def omnibus_summary(token: str, _table: cl.ScoreTable, tie_correction: bool, alpha_: float):
    """The omnibus page's table (cl.report.omnibus_frame of :func:`omnibus` and :func:`omnibus_more`), and its
    display copy with the p-values as text, made once per table and choice for all sessions."""
    fr, ff, an, exact = omnibus(token, _table, tie_correction)
    aligned, quade = omnibus_more(token, _table)
    summary = cl.report.omnibus_frame(fr, ff, an, alpha_, exact, aligned, quade)
    return summary, cl.report.with_p_text(summary, ["p"])


@_by_name(st.cache_resource(show_spinner="Running the post-hoc tests…", max_entries=128, ttl=3600))
def posthoc(token: str, _table: cl.ScoreTable, test: str, correction: str, control: str | None, alpha_: float):
    return cl.posthoc(_table, test, correction, control, alpha_)


@_by_name(st.cache_data(show_spinner="Computing the effect sizes…", max_entries=64, ttl=3600))
def posthoc_effects(token: str, _table: cl.ScoreTable, test: str, correction: str, control: str | None, alpha_: float,
                    measure: str):
    """The post-hoc result with the effect size of each pair (cl.with_effect_sizes)."""
    return cl.with_effect_sizes(posthoc(token, _table, test, correction, control, alpha_), _table, measure)


@_by_name(st.cache_data(show_spinner="Computing the effect sizes…", max_entries=64, ttl=3600))
def apv_effects(token: str, _table: cl.ScoreTable, test: str, control: str | None, measure: str):
    """The APV table with the effect size of each pair."""
    return cl.with_effect_sizes(apv_table(token, _table, test, control), _table, measure)


#: Bergmann-Hommel takes ~2 s at k = 14 and 6 s at 15 (bench/bergmann_hommel.py); the pages offer it up to here.
DASHBOARD_MAX_BH_K = cl.limits.APP_MAX_BERGMANN_HOMMEL_K
#: Figures drawn per classifier or per pair stop being readable (and cheap) beyond these sizes.
MAX_MATRIX_K = cl.limits.APP_MAX_MATRIX_K
MAX_CD_K = cl.limits.APP_MAX_CD_K
#: Pools of one pair are listed (one row per pool) up to this many classifiers: 16,384 pools.
MAX_LISTED_POOL_K = cl.limits.APP_MAX_LISTED_POOL_K


@_by_name(st.cache_data(show_spinner="Adjusting the p-values of every procedure…", max_entries=64, ttl=3600))
def apv_table(token: str, _table: cl.ScoreTable, test: str, control: str | None):
    return cl.apv_table(_table, test, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@_by_name(st.cache_data(show_spinner="Comparing the procedures…", max_entries=64, ttl=3600))
def verdicts(token: str, _table: cl.ScoreTable, alpha_: float, control: str | None):
    return cl.verdicts(_table, alpha_, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@_by_name(st.cache_resource(show_spinner=False, max_entries=64, ttl=3600))
def pool_verdicts(token: str, _table: cl.ScoreTable, members: tuple, alpha_: float, procedure: str,
                  statistic: str = cl.DEFAULT_TEST):
    return cl.pool_verdicts(_table, list(members), alpha_, correction=procedure, statistic=statistic)


@_by_name(st.cache_data(show_spinner="Listing the pools…", max_entries=32, ttl=3600))
def pool_sensitivity(token: str, _table: cl.ScoreTable, a: str, b: str, alpha_: float, procedure: str,
                     require_friedman: bool):
    return cl.pool_sensitivity(_table, a, b, alpha_, correction=procedure, require_friedman=require_friedman)


@_by_name(st.cache_data(show_spinner=False, max_entries=64, ttl=3600))
def pool_counts(token: str, _table: cl.ScoreTable, a: str, b: str, alpha_: float, procedure: str):
    return cl.pool_counts(_table, a, b, alpha_, correction=procedure)


@_by_name(st.cache_data(show_spinner="Counting the pools of every pair…", max_entries=16, ttl=3600))
def pool_matrix(token: str, _table: cl.ScoreTable, alpha_: float, procedure: str):
    return cl.pool_sensitivity_matrix(_table, alpha_, correction=procedure)


def pool_matrix_with_progress(token: str, table: cl.ScoreTable, alpha_: float, procedure: str):
    """The same matrix for large tables, with a progress bar (a cached function cannot draw one); the
    result is kept for the session. Each step reports progress, so a closed session stops at the next."""
    def compute():
        bar = st.progress(0.0, text="Counting the pools of every pair…")
        result = call(cl.pool_sensitivity_matrix, table, alpha_, correction=procedure,
                      progress=lambda f: bar.progress(f, text=f"Counting the pools of every pair… {f:.0%}"))
        bar.empty()
        return result

    return state.session_memo("_pool_matrix_memo", (token, alpha_, procedure), compute)


@_by_name(st.cache_data(show_spinner=False, max_entries=16, ttl=3600))
def pool_dependence(token: str, _table: cl.ScoreTable, alpha_: float, procedure: str):
    return cl.pool_dependence(_table, alpha_, correction=procedure)


#: Work budgets of the Bayesian page, about a second each (units as in compare_lib.stats._bayesian): the
#: signed-rank test of one pair (samples x data sets), of all pairs (samples x data sets x pairs), and
#: the sign test of all pairs (samples x pairs).
BAYES_PAIR_WORK = cl.limits.APP_BAYES_PAIR_WORK
BAYES_ALL_WORK = cl.limits.APP_BAYES_ALL_WORK
BAYES_SIGN_ALL_WORK = cl.limits.APP_BAYES_SIGN_ALL_WORK
#: Fewer posterior samples than this are not worth showing (Monte Carlo error above ±0.016).
BAYES_MIN_SAMPLES = cl.limits.APP_BAYES_MIN_SAMPLES


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


@_by_name(st.cache_resource(show_spinner="Sampling the posterior…", max_entries=64, ttl=3600))
def bayesian_pair(token: str, _table: cl.ScoreTable, a: str, b: str, test: str, rope: float, prior: float, samples: int,
                  seed: int):
    fn = cl.bayesian_signed_rank if test == "signed-rank" else cl.bayesian_sign_test
    return fn(_table.scores[a], _table.scores[b], rope=rope, prior_strength=prior, samples=samples, seed=seed,
              higher_is_better=_table.higher_is_better)


def bayesian_posthoc_memo(token: str, table: cl.ScoreTable, test: str, rope: float, prior: float, samples: int,
                          seed: int, decision: float, progress=None):
    """All pairs, remembered for the session (a cached function cannot draw the progress bar)."""
    return state.session_memo(
        "_bayes_memo", (token, test, rope, prior, samples, seed, decision),
        lambda: cl.bayesian_posthoc(table, rope=rope, test=test, decision=decision, seed=seed, prior_strength=prior,
                                    samples=samples, progress=progress))


@_by_name(st.cache_resource(show_spinner="Running the Skillings-Mack test…", max_entries=32, ttl=3600))
def skillings_mack(token: str, _table: cl.ScoreTable):
    return cl.skillings_mack(_table)


@_by_name(st.cache_data(show_spinner="Analysing every metric…", max_entries=16, ttl=3600))
def compare_metrics(token: str, _results: cl.Results, alpha_: float, missing: str, aggregate: str, classifiers: tuple,
                    datasets: tuple):
    """Every metric of the loaded file analysed the same way (keyed by the file's token and the selection)."""
    return cl.compare_metrics(_results, alpha=alpha_, missing=missing, aggregate=aggregate,
                              classifiers=list(classifiers), datasets=list(datasets))


@_by_name(st.cache_data(show_spinner="Computing the effect sizes…", max_entries=32, ttl=3600))
def effect_sizes(token: str, _table: cl.ScoreTable):
    return cl.effect_size_table(_table)


@_by_name(st.cache_resource(show_spinner=False, max_entries=4))
def fold_sample(path: str) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        return cl.load_scores(path, layout="long", higher_is_better=True).folds  # the sample's accuracies


def frame_token(frame: pd.DataFrame) -> str:
    """A key for a fold-level table, computed once per table object and session: the cached functions below
    are keyed by it instead of hashing thousands of rows on every rerun."""
    slot = st.session_state.get("_frame_token")
    if slot is not None and slot[0] is frame:
        return slot[1]
    token = hashlib.sha256(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes()
                           + repr(list(frame.columns)).encode("utf-8")).hexdigest()[:20]
    st.session_state["_frame_token"] = (frame, token)
    return token


@_by_name(st.cache_data(show_spinner="Computing the posteriors on every data set and seed…", max_entries=32, ttl=3600))
def _bayesian_fold_tests(token: str, _folds: pd.DataFrame, a: str, b: str, rope: float, ratio: float | None,
                         higher: bool):
    return cl.bayesian_fold_tests(_folds, a, b, rope, test_train_ratio=ratio, higher_is_better=higher)


def bayesian_fold_tests(folds: pd.DataFrame, a: str, b: str, rope: float, ratio: float | None, higher: bool):
    return _bayesian_fold_tests(frame_token(folds), folds, a, b, rope, ratio, higher)


@_by_name(st.cache_data(show_spinner="Running the tests on every data set and seed…", max_entries=32, ttl=3600))
def _fold_tests(token: str, _folds: pd.DataFrame, a: str, b: str, alpha_: float, ratio: float | None):
    results = cl.fold_level_tests(_folds, a, b, alpha=alpha_, test_train_ratio=ratio)
    return results, (cl.fold_replicability(results) if len(results) else None)


def fold_tests(folds: pd.DataFrame, a: str, b: str, alpha_: float, ratio: float | None):
    """The fold-level tests of a pair and their replicability (Bouckaert & Frank), cached together."""
    return _fold_tests(frame_token(folds), folds, a, b, alpha_, ratio)


class SentFigure(go.Figure):
    """A plotly figure held in the server-wide figure cache, with the dict that ``st.plotly_chart`` sends made once.

    ``st.plotly_chart(fig)`` asks ``fig.to_dict()`` on every run: a deep copy of the figure and the base64
    encoding of its arrays (~2.5 ms for a CD diagram), then encodes that dict as JSON (~0.5 ms). A dict given
    instead of a figure is worse: Streamlit validates it by building a ``go.Figure`` from it (tens of ms). So the
    cached figure answers ``to_dict()`` from the dict made when it was built: fresh top-level containers (a caller
    that pops a key, as plotly's ``to_json`` pops trace uids, changes nothing shared), the same values underneath,
    which nothing in Streamlit or plotly writes to. ``to_json()`` (the figure downloads ask it on every run) is
    made once too. The figure itself is unchanged: its layout, traces and every other method are plotly's.
    """

    def to_dict(self) -> dict:
        sent = self._sent_dict
        out = {"data": [dict(trace) for trace in sent["data"]], "layout": dict(sent["layout"])}
        if "frames" in sent:
            out["frames"] = list(sent["frames"])
        return out

    def to_json(self, *args, **kwargs) -> str:
        if args or kwargs:
            return super().to_json(*args, **kwargs)
        return self._sent_json


def _sent(fig):
    """``fig`` as a :class:`SentFigure` (the same object: its class changed, its dict and JSON made now); an
    object that is not a plotly figure is returned as it is."""
    if not isinstance(fig, go.Figure):
        return fig
    sent = go.Figure.to_dict(fig)
    for trace in sent["data"]:
        trace.pop("uid", None)  # as plotly's to_json drops it
    fig.__class__ = SentFigure
    fig._sent_dict = sent
    fig._sent_json = go.Figure.to_json(fig)
    return fig


#: The Arrow tables of the shared frames shown by :func:`shared_dataframe`: id(frame) -> (a weak reference to the
#: frame, its table). An entry goes when its frame is collected (the cache that held it dropped it), so nothing is
#: kept longer, or for more frames, than the caches' own bounds.
_ARROW_TABLES: dict[int, tuple[weakref.ref, pa.Table]] = {}


def _forget_arrow(frame_id: int, ref: weakref.ref) -> None:
    entry = _ARROW_TABLES.get(frame_id)
    if entry is not None and entry[0] is ref:
        del _ARROW_TABLES[frame_id]


def _arrow_table(frame: pd.DataFrame) -> pa.Table | None:
    """The Arrow table ``st.dataframe`` makes of ``frame`` (``pa.Table.from_pandas``), made once per frame object;
    None when Arrow cannot take the frame as it is (Streamlit then fixes its column types itself, on every run)."""
    entry = _ARROW_TABLES.get(id(frame))
    if entry is not None and entry[0]() is frame:
        return entry[1]
    try:
        table = pa.Table.from_pandas(frame)
    except (pa.ArrowTypeError, pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    ref = weakref.ref(frame, lambda r, key=id(frame): _forget_arrow(key, r))
    _ARROW_TABLES[id(frame)] = (ref, table)
    return table


def shared_dataframe(frame: pd.DataFrame, **kwargs) -> None:
    """``st.dataframe(frame, **kwargs)`` for a frame that a shared cache holds (one read-only object for every run
    of every session, as :func:`cached_table` and :func:`scores_with_ranks` return): given a pandas frame,
    st.dataframe converts it to Arrow on every run; given the Arrow table made the first time (the same
    ``pa.Table.from_pandas``), it only serialises it, so the browser receives the same bytes (issue 31: the
    conversions were ~4 % of the server's CPU at N = 100). A frame made anew on each run gains nothing here."""
    table = _arrow_table(frame)
    st.dataframe(frame if table is None else table, **kwargs)


#: Figures kept for all sessions together: a CD diagram of the sample is ~0.1 MB in memory, a large heatmap a few
#: MB; entries unused for an hour go (ttl), and the least recently used beyond this many.
FIGURE_CACHE_ENTRIES = 128


@_by_name(st.cache_resource(show_spinner=False, max_entries=FIGURE_CACHE_ENTRIES, ttl=3600))
def _figure(key: tuple, _build):
    return _sent(_build())


def cached_figure(key: tuple, build):
    """A figure built once for ``key`` (everything it depends on: the table's token and the choices) and shared
    by the sessions (``st.cache_resource``: one object, never copied; plotly figures are not changed by drawing
    them), as a :class:`SentFigure`, so that drawing it again costs no figure building and no serialisation: a
    page visited again, or by another student, sends the same figure for ~0.5 ms of JSON encoding instead of
    ~20-60 ms of building (issue 31). Bounded for the whole server: :data:`FIGURE_CACHE_ENTRIES` figures, none
    kept more than an hour after its last use; nothing is kept per session."""
    return _figure(key, build)


@_by_name(st.cache_resource(show_spinner=False, max_entries=64, ttl=3600))
def _display_table(key: tuple, _build):
    return _build()


def cached_table(key: tuple, build):
    """What ``build`` returns (a page's display table, and its column configs), made once for ``key`` (everything
    it depends on: the table's token and the choices) and shared by the sessions, like :func:`cached_figure`:
    read-only (``st.dataframe`` does not change what it is given). At most 64 entries, none kept more than an
    hour after its last use."""
    return _display_table(key, build)


@_by_name(st.cache_resource(show_spinner=False, max_entries=64, ttl=3600))
def pool_subset(token: str, _table: cl.ScoreTable, members: tuple) -> cl.ScoreTable:
    """The active table restricted to a pool of classifiers, made once per pool for all sessions (read-only: a
    ScoreTable is never changed in place)."""
    return _table.subset(list(members))


@_by_name(st.cache_data(show_spinner=False, max_entries=64, ttl=3600))
def smallest_flip(token: str, _frame: pd.DataFrame, a: str, b: str, alpha_: float, procedure: str,
                  require_friedman: bool, current: tuple) -> tuple[pd.DataFrame, bool]:
    """The smallest changes of the pool ``current`` that flip the verdict on a versus b (keyed like
    :func:`pool_sensitivity`, whose ``_frame`` it reads), and that verdict in ``current``."""
    members = set(current)
    verdict = bool(_frame[_frame["pool"].map(set) == members]["reject"].iloc[0])
    return cl.smallest_flip(_frame, list(current)), verdict


@_by_name(st.cache_data(show_spinner=False, max_entries=4))
def replicability_table(path: str) -> pd.DataFrame:
    """Bouckaert & Frank's (2004) Table 1 draws read and counted once (cl.replicability_counts per pair)."""
    draws = pd.read_csv(path)
    rows = []
    for col in [c for c in draws.columns if c.startswith("draws_")]:
        res = cl.replicability_counts(10 - draws[col].to_numpy(), 10)
        rows.append({"pair": col.removeprefix("draws_").replace("_vs_", " vs "), **res.to_dict()})
    return pd.DataFrame(rows)


@_by_name(st.cache_resource(show_spinner=False, max_entries=16, ttl=3600))
def scores_with_ranks(token: str, _table: cl.ScoreTable, max_rows: int) -> pd.DataFrame:
    """Demšar's Table 6 layout of the active table (cl.report.scores_with_ranks), made once per table for all
    sessions; read-only (st.dataframe does not change what it is given)."""
    return cl.report.scores_with_ranks(_table, max_rows=max_rows)


def run_experiment(classifiers: tuple, datasets: tuple, schemes: tuple, n_seeds: int, n_jobs: int, progress=None):
    """Remembered per configuration for the session (a cached function cannot draw the progress bar);
    the experiment reports progress after every task, so a closed session stops at the next one."""
    return state.session_memo(
        "_experiment_memo", (classifiers, datasets, schemes, n_seeds),
        lambda: cl.run_experiment(list(classifiers), list(datasets), schemes=list(schemes), seeds=range(n_seeds),
                                  n_jobs=n_jobs, progress=progress))
