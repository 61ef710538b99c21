"""The Bayesian page's "Who is best?" view (issue 29): a Bayesian ranking of all classifiers
(:func:`compare_lib.bayesian_ranking`: Plackett-Luce or Bradley-Terry-Davidson), beside the frequentist rank sets
(:func:`compare_lib.rank_sets`, the Post-hoc page's simultaneous sets with its default test and procedure).

The page calls :func:`render`; every number comes from ``compare_lib`` (the sampler and the rank sets), cached by
the table's token and the choices (``st.cache_data``, as in :mod:`ui_cache`). Every setting is a widget whose value
is kept in the session under a key that :mod:`links` declares (``rank_*``), so it travels in links.
"""

from __future__ import annotations

import warnings

import pandas as pd
import streamlit as st

import compare_lib as cl
import state
import ui
from ui import esc

MODELS = {"Plackett-Luce": "plackett-luce", "Bradley-Terry-Davidson": "bradley-terry-davidson"}
#: Posterior draws offered (kept in all, over 4 chains, after 1,000 warmup iterations a chain).
SAMPLE_OPTIONS = (1000, 2000, 4000, 8000)
CHAINS, WARMUP = 4, 1000
#: The Plackett-Luce Dirichlet concentration and the Bradley-Terry-Davidson prior standard deviations the widgets
#: offer (the library accepts wider ranges).
PRIOR_MIN, PRIOR_MAX = 0.1, 100.0
SD_MIN, SD_MAX = 0.1, 100.0
#: The view's work budget, in the library's units (iterations x chains x stages x classifiers for Plackett-Luce,
#: iterations x chains x leapfrog steps x pairs for Bradley-Terry-Davidson): about half a minute on one core.
APP_RANKING_WORK = 2_000_000_000


def work_units(table: cl.ScoreTable, model: str, samples: int) -> int:
    """An upper bound of the sampler's work for ``table`` (what the library bounds with MAX_RANKING_WORK)."""
    from compare_lib.stats import _bayes_ranking as br

    k, n = table.n_classifiers, table.n_datasets
    iterations = (WARMUP + -(-samples // CHAINS)) * CHAINS
    if model == "bradley-terry-davidson":
        return iterations * br.BTD_LEAPFROG * max(k * (k - 1) // 2, k)
    return iterations * n * (k - 1) * k


@st.cache_data(show_spinner="Sampling the posterior of the ranking…", max_entries=32, ttl=3600)
def ranking(token: str, _table: cl.ScoreTable, model: str, samples: int, seed: int, prior: float | None,
            strength_sd: float | None, tie_sd: float | None):
    """The Bayesian ranking for the table (``token``) and the choices; warnings (a poor R-hat) are re-raised by
    ``ui.call`` from the result's notes, so they are kept in ``notes`` only here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)  # carried in the result's notes
        return cl.bayesian_ranking(_table, model=model, samples=samples, seed=seed, prior=prior, chains=CHAINS,
                                   warmup=WARMUP, strength_sd=strength_sd, tie_sd=tie_sd)


@st.cache_data(show_spinner="Computing the rank sets…", max_entries=32, ttl=3600)
def frequentist_sets(token: str, _table: cl.ScoreTable, alpha: float) -> pd.DataFrame:
    """The simultaneous rank sets (Post-hoc page: Wilcoxon with the default procedure)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)
        return cl.rank_sets(_table, alpha=alpha)


def summary_frame(result, sets: pd.DataFrame | None) -> pd.DataFrame:
    """One row per classifier, best first by expected rank: the Bayesian summaries beside the frequentist rank set."""
    order = result.expected_rank.sort_values(kind="stable").index
    rp = result.rank_probabilities.loc[order]
    frame = pd.DataFrame({
        "classifier": [str(c) for c in order],
        "P(best)": result.p_best.loc[order].round(4).to_numpy(),
        "expected rank": result.expected_rank.loc[order].round(3).to_numpy(),
        "most probable rank": rp.to_numpy().argmax(axis=1) + 1,
    })
    if sets is not None:
        frame["rank set (frequentist)"] = [cl.rank_set_labels(sets.loc[[c]])[0] for c in order]
        frame["mean rank"] = sets.loc[order, "mean_rank"].round(3).to_numpy()
    return frame


def render(table: cl.ScoreTable, token: str, alpha: float, seed: int) -> None:
    """The view: settings, the sampler's result (P(best) bars, rank probabilities, P(before), expected ranks, the
    diagnostics) and the frequentist rank sets beside it."""
    ss = st.session_state
    st.markdown(
        "**Who is best?** A Bayesian model of the whole ranking gives each classifier a probability of being the "
        "best and a distribution over its rank. **Plackett-Luce** (Calvo, Ceberio & Lozano 2018) treats each data "
        "set's order of the classifiers as a draw from weights w: P(best) is the probability of being ranked first "
        "on a new data set. **Bradley-Terry-Davidson** (Davidson 1970) models every pair's wins, ties and losses; "
        "P(best) is the probability of having the largest strength. A missing score leaves that classifier out of "
        "that data set; ties follow a fixed rule (no random tie-break)."
    )
    c1, c2, c3, c4 = st.columns(4)
    labels = list(MODELS)
    codes = list(MODELS.values())
    model = MODELS[c1.radio("Model", labels, key="w_rank_model", index=codes.index(
        state.remembered("rank_model", codes[0], lambda v: v in codes)))]
    ss["rank_model"] = model
    samples = int(c2.select_slider("Posterior draws", options=list(SAMPLE_OPTIONS), key="w_rank_samples",
                                   value=int(state.remembered("rank_samples", 4000, lambda v: v in SAMPLE_OPTIONS)),
                                   help=f"Kept in all, over {CHAINS} chains, after {WARMUP:,} warmup iterations a "
                                        "chain."))
    ss["rank_samples"] = samples
    prior = strength_sd = tie_sd = None
    if model == "plackett-luce":
        prior = float(c3.number_input(
            "Dirichlet prior concentration", min_value=PRIOR_MIN, max_value=PRIOR_MAX, step=0.1, key="w_rank_prior",
            value=float(state.remembered("rank_prior", 1.0, lambda v: state.number(v, PRIOR_MIN, PRIOR_MAX))),
            help=f"The prior of the normalised weights: Dirichlet with this concentration ({PRIOR_MIN:g} to "
                 f"{PRIOR_MAX:g}); 1 is uniform on the simplex, larger values pull the weights together."))
        ss["rank_prior"] = prior
    else:
        strength_sd = float(c3.number_input(
            "Prior sd of the log strengths", min_value=SD_MIN, max_value=SD_MAX, step=0.1, key="w_rank_ssd",
            value=float(state.remembered("rank_ssd", 2.0, lambda v: state.number(v, SD_MIN, SD_MAX))),
            help=f"log strength ~ Normal(0, sd²) for each classifier ({SD_MIN:g} to {SD_MAX:g}); large values are "
                 "nearly flat."))
        tie_sd = float(c4.number_input(
            "Prior sd of log ν (ties)", min_value=SD_MIN, max_value=SD_MAX, step=0.1, key="w_rank_tsd",
            value=float(state.remembered("rank_tsd", 2.0, lambda v: state.number(v, SD_MIN, SD_MAX))),
            help=f"Davidson's tie parameter ν: log ν ~ Normal(0, sd²) ({SD_MIN:g} to {SD_MAX:g})."))
        ss["rank_ssd"], ss["rank_tsd"] = strength_sd, tie_sd
    st.caption(f"Seed {seed} (the page's seed above): the same settings give the same numbers.")

    work = work_units(table, model, samples)
    if work > APP_RANKING_WORK:
        st.info(f"This table needs about {work:,} units of sampler work for {samples:,} draws; the dashboard runs up "
                f"to {APP_RANKING_WORK:,} (about half a minute). Choose fewer draws, or run "
                "`compare_lib.bayesian_ranking` in Python.")
        return
    result = ui.call(ranking, token, table, model, samples, int(seed), prior, strength_sd, tie_sd)
    if result is None:
        return
    sets = ui.call(frequentist_sets, token, table, float(alpha))
    k = table.n_classifiers
    best = result.p_best.idxmax()
    st.markdown(f"**Most probably best: {esc(best)}** (P(best) = {result.p_best[best]:.3f}; expected rank "
                f"{result.expected_rank[best]:.2f} of {k}).")
    frame = summary_frame(result, sets)
    left, right = st.columns(2)
    with left:
        if k <= cl.limits.MAX_CD_K:
            bars = cl.p_best_figure(result)
            st.plotly_chart(bars, width="stretch", key="rank_pbest", config=ui.CHART_CONFIG)
            ui.figure_downloads(bars, "p_best", key="rank_pbest_dl")
    with right:
        st.markdown(f"**Beside the frequentist rank sets** (simultaneous, {1 - alpha:.0%}, as on the Post-hoc page "
                    "with its default test and procedure): the ranks each classifier can hold.")
        st.dataframe(frame, width="stretch", hide_index=True, column_config=ui.plain_columns(frame))
        ui.download_buttons(frame, "bayesian_ranking", caption="Bayesian ranking and frequentist rank sets",
                            key="rank_table")
        if sets is not None:
            st.caption(esc(sets.attrs.get("guarantee", "")))
    if k <= ui.MAX_MATRIX_K:
        heat = cl.rank_probability_figure(result)
        st.plotly_chart(heat, width="stretch", key="rank_heatmap", config=ui.CHART_CONFIG)
        ui.figure_downloads(heat, "rank_probabilities", key="rank_heatmap_dl")
        before = cl.p_before_figure(result)
        st.plotly_chart(before, width="stretch", key="rank_before", config=ui.CHART_CONFIG)
        ui.figure_downloads(before, "p_before", key="rank_before_dl")
    else:
        st.info(f"The rank-probability and P(before) heatmaps are drawn for up to {ui.MAX_MATRIX_K} classifiers; this "
                f"table has {k}. The downloads below hold every value.")
        ui.download_buttons(result.rank_probabilities.reset_index(names="classifier"), "rank_probabilities",
                            caption="Rank probabilities", key="rank_rp_table")
        ui.download_buttons(result.p_before.reset_index(names="classifier"), "p_before", caption="P(row before column)",
                            key="rank_before_table")
    if result.tie_parameter is not None:
        low, high = result.tie_interval
        st.markdown(f"**Ties:** Davidson's ν has posterior mean {result.tie_parameter:.3g} (95% interval {low:.3g} to "
                    f"{high:.3g}); the tie probability of two equally strong classifiers is ν / (2 + ν).")
    prior_words = (f"Dirichlet({result.prior:g}) on the normalised weights" if result.model == "plackett-luce"
                   else f"log strengths ~ N(0, {result.strength_sd:g}²), log ν ~ N(0, {result.tie_sd:g}²)")
    converged = result.max_rhat <= 1.01
    st.caption(esc(
        f"{result.n_samples:,} draws from {result.chains} chains ({result.warmup:,} warmup iterations each), seed "
        f"{result.seed}; prior: {prior_words}; ties: {result.ties}; rank probabilities: {result.rank_method}. "
        f"Largest R-hat {result.max_rhat:.4f}, smallest effective sample size {result.min_ess:,.0f}: "
        + ("the chains agree." if converged else "the chains may not have converged; choose more draws.")))
    for note in result.notes:
        (st.caption if converged else st.warning)(esc(note))
    st.markdown("**For your paper**")
    st.code(result.paragraph(), language=None, wrap_lines=True)
    script = ui.call(cl.ranking_script, table, model=model, samples=samples, seed=int(seed), prior=prior,
                     chains=CHAINS, warmup=WARMUP, strength_sd=strength_sd, tie_sd=tie_sd)
    if script is not None:
        st.download_button("⬇ Python script (reproduces these numbers)", script.encode("utf-8"),
                           file_name=state.file_stem("bayesian_ranking") + ".py", mime="text/x-python",
                           key="rank_script", on_click="ignore")
