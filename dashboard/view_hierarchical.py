"""The Bayesian page's view "Hierarchical (fold level)" (issue 29): the hierarchical test of Corani et al. (2017)
on the fold-level results of every data set at once. Reads state, calls compare_lib, renders."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import compare_lib as cl
import state
import ui
from ui import esc

#: Draws per chain offered (4 chains, 1,000 warm-up iterations each, as the authors' R code).
SAMPLE_OPTIONS = [500, 1000, 2000, 4000]
CHAINS = 4
WARMUP = 1000
PRIORS = tuple(cl.HIERARCHICAL_PRIORS)
#: NUTS's target acceptance rate: higher means smaller steps (slower, fewer divergent transitions).
ACCEPT_OPTIONS = [0.8, 0.9, 0.95, 0.99]


@st.cache_data(max_entries=16, show_spinner=False)  # across sessions: a class pressing Run on the same data waits once
def _run(folds: pd.DataFrame, a: str, b: str, rope: float, prior: str, samples: int, seed: int, higher: bool,
         sensitivity: bool, accept: float):
    res = cl.bayesian_hierarchical(folds, (a, b), rope, prior=prior, samples=samples, chains=CHAINS, warmup=WARMUP,
                                   seed=seed, higher_is_better=higher, target_accept=accept)
    table = (cl.hierarchical_sensitivity(folds, (a, b), rope, given=res, samples=samples, chains=CHAINS,
                                         warmup=WARMUP, seed=seed, higher_is_better=higher, target_accept=accept)
             if sensitivity else None)
    return res, table


def render(table: cl.ScoreTable, seed: int, decision: float) -> None:
    ss = st.session_state
    st.markdown(
        "The **hierarchical Bayesian test** (Corani, Benavoli, Demšar, Mangili & Zaffalon 2017) uses the results of "
        "every fold of every data set at once: each data set's mean difference δ_i is drawn from a common Student-t, "
        "so the data sets inform each other (their estimates are *shrunk* towards the mean), and the model answers "
        "**how likely is A practically better on the next data set?** The folds of one data set are correlated "
        "(ρ = 1/k for k-fold cross-validation)."
    )
    missing = cl.hierarchical_available()
    if missing is not None:
        st.info(esc(missing[0].upper() + missing[1:] + ". The other views of this page work without it."))
        return
    folds = ui.fold_level_source(table, "w_bhier")
    if folds is None:
        return
    h1, h2, h3 = st.columns(3)
    a, b = ui.classifier_pair(sorted(folds["classifier"].astype(str).unique()), h1, h2, "w_bhier", remember="bhier")
    higher = h3.toggle("Higher scores are better", value=bool(state.remembered("bhier_higher", True)),
                       key="w_bhier_higher", help="The direction of the fold-level scores (accuracy: higher; error: lower).")
    ss["bhier_higher"] = higher
    if "scheme" in folds.columns and folds["scheme"].nunique() > 1:
        schemes = [str(s) for s in dict.fromkeys(folds["scheme"].astype(str))]
        scheme = st.selectbox("Resampling scheme (one per data set: its folds share one correlation)", schemes,
                              key="w_bhier_scheme", index=schemes.index(
                                  state.remembered("bhier_scheme", schemes[0], lambda v: v in schemes)))
        ss["bhier_scheme"] = scheme
        folds = folds[folds["scheme"].astype(str) == scheme]
    suggested, reason = cl.suggest_rope(folds)
    with st.form("hierarchical"):
        f1, f2, f3, f4, f5 = st.columns(5)
        rope = f1.number_input("ROPE (fold-level scores)", min_value=0.0, max_value=1e12, format="%.4g",
                               step=float(suggested) / 10 or 0.001, key="w_bhier_rope", help=reason,
                               value=float(state.remembered("bhier_rope", suggested, lambda v: state.number(v, 0, 1e12))))
        prior = f2.selectbox("Prior (hyper-prior of ν)", PRIORS, key="w_bhier_prior",
                             index=PRIORS.index(state.remembered("bhier_prior", "paper", lambda v: v in PRIORS)),
                             format_func=lambda p: {"paper": "paper: α~U(0.5,5), β~U(0.05,0.15)",
                                                    "baycomp": "baycomp: α~U(1,2), β~U(0.01,0.1)"}[p],
                             help="The packages disagree on the prior of the Student-t's degrees of freedom: the "
                                  "paper's (and scmamp's) or baycomp's (and the tutorial's Python code).")
        samples = f3.select_slider("Draws per chain", SAMPLE_OPTIONS, key="w_bhier_samples",
                                   value=int(state.remembered("bhier_samples", 1000, lambda v: v in SAMPLE_OPTIONS)),
                                   help=f"{CHAINS} chains, each after {WARMUP:,} warm-up iterations.")
        accept = f4.select_slider("Target acceptance", ACCEPT_OPTIONS, key="w_bhier_accept",
                                  value=float(state.remembered("bhier_accept", 0.8, lambda v: v in ACCEPT_OPTIONS)),
                                  help="NUTS's target acceptance rate (Stan's default 0.8). Raise it when the "
                                       "diagnostics report divergent transitions: smaller steps, slower sampling.")
        sensitivity = f5.checkbox("Also under the other prior", key="w_bhier_sens",
                                  value=bool(state.remembered("bhier_sens", True)),
                                  help="Runs the test again with the other preset: the prior-sensitivity table.")
        go = st.form_submit_button("Run the hierarchical test")
    ss.update(bhier_rope=float(rope), bhier_prior=prior, bhier_samples=int(samples), bhier_sens=bool(sensitivity),
              bhier_accept=float(accept))
    config = (a, b, float(rope), prior, int(samples), int(seed), bool(higher), bool(sensitivity), float(accept),
              ss.get("bhier_scheme"), ss.get("bhier_source"), ss.get("table_version", 0))
    if go:
        with st.spinner(f"Sampling {CHAINS} chains × {WARMUP + int(samples):,} iterations"
                        f"{' under both priors' if sensitivity else ''}… (the first run on a new number of data sets "
                        "also compiles the sampler: about 20 s)"):
            out = ui.call(_run, folds, a, b, float(rope), prior, int(samples), int(seed), bool(higher), bool(sensitivity),
                          float(accept))
        if out is not None:
            ss["bhier_out"] = (config, out)
    have = "bhier_out" in ss and ss["bhier_out"][0] == config
    ui.run_flag("bhier_ran", have, "the hierarchical test", "Run the hierarchical test")
    if "bhier_out" not in ss:
        st.caption("Press Run: sampling takes a few seconds to a minute (it is not started without you).")
        return
    if not have:
        st.caption("The results below are from an earlier run with other settings; press Run to update.")
    (a, b, rope, prior, *_), (res, sens) = ss["bhier_out"]
    ui.bayes_verdict(res, a, b, decision, " on the next data set")
    st.caption(esc(f"Posterior mean of the next data set's masses: {a} better {res.mean_masses[0]:.3f}, equivalent "
                   f"{res.mean_masses[1]:.3f}, {b} better {res.mean_masses[2]:.3f}. P(the mean difference over data sets "
                   f"favours {a}) = P(δ0 > 0) = {res.p_delta0_positive:.3f}. {res.n} data sets."))
    for note in res.notes:
        (st.warning if note.startswith("The sampler may not") else st.caption)(esc(note))
    left, right = st.columns(2)
    simplex = cl.plots.posterior_simplex(res, a, b)
    left.plotly_chart(simplex, width="stretch", key="bhier_simplex", config=ui.CHART_CONFIG)
    with left:
        ui.figure_downloads(simplex, "hierarchical_simplex", key="bhier_simplex_dl")
    forest = ui.call(cl.hierarchical_forest_figure, res, a, b)
    if forest is not None:
        right.plotly_chart(forest, width="stretch", key="bhier_forest", config=ui.CHART_CONFIG)
        with right:
            ui.figure_downloads(forest, "hierarchical_forest", key="bhier_forest_dl")
    if sens is not None:
        st.markdown("**Does the answer depend on the prior?** The same data under both presets:")
        st.dataframe(sens, width="stretch", hide_index=True, column_config=ui.plain_columns(sens))
        spread = float((sens[["p_x", "p_rope", "p_y"]].max() - sens[["p_x", "p_rope", "p_y"]].min()).max())
        st.caption(f"The largest difference between the presets' probabilities is {spread:.3f}"
                   + (" (within Monte Carlo error: the prior does not matter here)." if spread < 0.05 else
                      ": the prior matters for these data; report both."))
    st.markdown("**Diagnostics:** " + esc(res.diagnosis()))
    with st.expander("Every data set: observed and shrunk differences"):
        st.dataframe(res.datasets, width="stretch", hide_index=True, column_config=ui.plain_columns(res.datasets))
        ui.download_buttons(res.datasets, "hierarchical_datasets", caption="Hierarchical test: per data set",
                            key="bhier_rows")
    st.markdown("**For your paper**")
    st.code(res.paragraph(a, b), language=None, wrap_lines=True)
    script = ui.call(cl.hierarchical_script, folds, a, b, rope=rope, prior=prior, samples=res.diagnostics["draws"],
                     chains=CHAINS, warmup=WARMUP, seed=res.seed, higher_is_better=res.higher_is_better,
                     sensitivity=sens is not None, target_accept=res.diagnostics.get("target_accept", 0.8))
    if script is not None:
        st.download_button("⬇ Python script (reproduces these numbers)", script.encode("utf-8"),
                           file_name=state.file_stem("hierarchical") + ".py", mime="text/x-python", key="bhier_script",
                           on_click="ignore")
    with st.expander("How to read this"):
        st.markdown(
            "The triangle: each point is one posterior draw of the probabilities that the *next* data set's difference "
            "lies in each region; the three probabilities above are the shares of draws in which each region is the "
            "largest (as in baycomp and the authors' code). The forest plot: open circles are each data set's own mean "
            "difference, filled points the model's estimate after borrowing strength from the other data sets "
            "(shrinkage: noisy data sets move most). Two packages use different priors for the degrees of freedom; "
            "the sensitivity table shows whether that changes the answer."
        )
