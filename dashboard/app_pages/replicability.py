"""Replicability: would the verdict repeat with other data sets, another seed, another resampling?"""

from __future__ import annotations

import os

import numpy as np
import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

st.title("Replicability")
table = state.active_table()
alpha = state.alpha()
ss = st.session_state
ui.caption(table)
st.markdown(
    "A verdict that flips with the random seed or with the choice of data sets is not a finding. Two measures "
    "(Demšar 2006, §4.1.2): Bouckaert's **R(e)**, the probability that two repetitions agree on reject/retain, "
    "and **R(p)** $= 1 - 2\\,\\mathrm{var}(p)$, from the spread of the p-values. Both are 1 for a perfectly "
    "repeatable test and 0.5 at worst."
)

REP_TABS = ["How replicable is my verdict?", "How many data sets do I need?", "Tests on fold-level results",
            "Run an experiment"]
tab_sel, tab_plan, tab_folds, tab_run = ui.remembered_tabs(REP_TABS, "w_rep_tab", "rep_tab")

GROUPS = {
    "Two classifiers": ["t-test", "t-test (relative)", "Wilcoxon", "sign test"],
    "All classifiers (omnibus)": ["Friedman", "ANOVA"],
    "The pair among all pairs": ["Nemenyi", "Tukey"],
    "The pair versus the control": ["Bonferroni-Dunn", "Holm", "Hochberg", "Hommel", "Dunnett"],
}

# -- 1. data-set selection experiment -------------------------------------------------------------
with tab_sel:
    if tab_sel.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        st.markdown(
            "Demšar's experiment on **your** table: draw many samples of n data sets, favouring with bias k the data "
            "sets on which classifier A beats B (with probability proportional to $1/(1 + e^{-k d})$, $d$ the score "
            "of A minus that of B), run every test on every sample and watch how often it rejects, its mean p, and how "
            "repeatable the verdict is. $k = 0$ is an unbiased random choice of data sets."
        )
        names = table.classifiers
        c1, c2, c3 = st.columns(3)
        a, b = ui.classifier_pair(names, c1, c2, "w_rep", remember="rep", labels=("A (also the control)", "B"))
        max_sets = table.n_datasets - 1
        if max_sets < 2:
            st.error(f"The table has {table.n_datasets} data sets; drawing samples needs at least 3.")
        else:
            remembered = state.remembered
            # Each widget starts from the session (an earlier visit or a link) only when it offers that value: a value
            # out of its range, or a float for a whole number, would make st.number_input raise.
            n_sets = c3.number_input("Data sets per sample", min_value=2, max_value=max_sets,
                                     value=remembered("rep_nsets", min(10, max_sets), lambda v: state.whole(v, 2, max_sets)),
                                     step=1, key="w_rep_nsets")
            d1, d2, d3 = st.columns(3)
            samples = d1.number_input("Samples per k", min_value=50, max_value=20000,
                                      value=remembered("rep_samples", 1000, lambda v: state.whole(v, 50, 20000)), step=50,
                                      key="w_rep_samples")
            k_max = d2.number_input("Largest bias k", min_value=0, max_value=50,
                                    value=remembered("rep_kmax", 20, lambda v: state.whole(v, 0, 50)), step=1,
                                    key="w_rep_kmax")
            k_step = d3.number_input("Step of k", min_value=1, max_value=10,
                                     value=remembered("rep_kstep", 2, lambda v: state.whole(v, 1, 10)), step=1,
                                     key="w_rep_kstep")
            chosen = st.multiselect("Tests", list(cl.SELECTION_TESTS),
                                    default=remembered("rep_tests", list(cl.SELECTION_TESTS),
                                                       lambda v: set(v) <= set(cl.SELECTION_TESTS)), key="w_rep_tests")
            seed = st.number_input("Seed", min_value=0, max_value=cl.limits.MAX_SEED, step=1, key="w_rep_seed",
                                   value=remembered("rep_seed", 0, lambda v: state.whole(v, 0, cl.limits.MAX_SEED)))
            ss.update(rep_nsets=int(n_sets), rep_samples=int(samples), rep_kmax=int(k_max), rep_kstep=int(k_step),
                      rep_tests=list(chosen), rep_seed=int(seed))
            glance = ui.call(ui.selection_glance, state.active_token(), table, a, b, int(n_sets), alpha)
            if glance:
                st.markdown(f"**{esc(glance)}** The experiment below shows how that changes when the choice of data sets "
                            "is biased towards A.")
            if table.n_datasets < 2 * n_sets:
                st.info(
                    f"With {table.n_datasets} data sets and samples of {n_sets}, the samples overlap a lot, so the "
                    "results vary less than in Demšar's setting (samples of 10 from 40)."
                )
            config = (tuple(table.classifiers), tuple(table.datasets), a, b, int(n_sets), int(samples), int(k_max),
                      int(k_step), tuple(chosen), float(alpha), int(seed), table.higher_is_better)
            if st.button("Run the experiment", type="primary", key="w_rep_run", disabled=not chosen):
                bar = st.progress(0.0, text="Drawing samples…")
                result = ui.call(
                    cl.selection_experiment, table, a, b, n_sets=int(n_sets), biases=range(0, int(k_max) + 1, int(k_step)),
                    samples=int(samples), alpha=alpha, seed=int(seed), tests=chosen,
                    progress=lambda f: bar.progress(f, text=f"Running the tests… {f:.0%}"),
                )
                bar.empty()
                if result is not None:
                    st.session_state["selection_result"] = (config, result)
            stored = st.session_state.get("selection_result")
            ui.run_flag("rep_ran", stored is not None and stored[0] == config, "the selection experiment",
                        "Run the experiment")  # travels in links (links.CHOICES, issue 28)
            if stored is not None:
                cfg, result = stored
                if cfg != config:
                    st.caption("The results below are from an earlier run with other settings; press Run to update.")
                scale = result.attrs["difference_scale"]
                if scale != 1:
                    st.caption(f"Scores look like percentages: d = (A − B)/{scale:g}, as Demšar's d are accuracy differences in [0, 1].")
                for group, members in GROUPS.items():
                    present = [m for m in members if m in set(result["test"])]
                    if present:
                        st.plotly_chart(cl.plots.selection_figure(result, present, title=group), width="stretch",
                                        key=f"sel_{group}", config=ui.CHART_CONFIG)
                undefined = result.groupby("test")["undefined"].sum()
                undefined = undefined[undefined > 0]
                if len(undefined):
                    st.caption("Undefined (zero error variance, never counted as a rejection): "
                               + ", ".join(f"{name} in {int(n):,} samples" for name, n in undefined.items()) + ".")
                # The reading of the curves on screen, from their own numbers (issue 28): with A the worse of the two,
                # rejections fall with k.
                st.markdown(esc(cl.selection_trend_sentence(result)))
                ui.download_buttons(result, "selection_experiment", caption="Data-set selection experiment", key="sel")
                with st.expander("How to read these curves"):
                    st.markdown(
                        "A larger k draws more of the data sets on which A beats B: rejections grow with k when A is the "
                        "better of the two, and fall when B is (the sentence above reads this run). R(e) is lowest where a test "
                        "rejects about half of the samples: a test whose p-values sit near α looks unreliable by R(e) "
                        "even if its p-values barely vary; R(p) measures that variation directly. Demšar found the "
                        "Wilcoxon test more powerful than the t-tests and the sign test the weakest, and Friedman "
                        "ahead of ANOVA for similar classifiers."
                    )

# -- planning: power by simulation -----------------------------------------------------------------
PLAN_MAX_REPS = 5000  # per size on the shared app (the library allows more)
PLAN_MAX_N = 200  # the largest study size the app simulates
with tab_plan:
    if tab_plan.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        st.markdown(
            "Before the experiment: how many data sets does it take to find classifier A better than B by a given "
            "difference? Each simulated study draws data sets from **your** table (with the classifiers shuffled within "
            "each data set, so that the difference you state is the whole effect), adds the difference to A's scores "
            "and runs the post-hoc test and procedure; the power is the share of studies that reject A vs B."
        )
        names = table.classifiers
        p1, p2, p3 = st.columns(3)
        pa, pb = ui.classifier_pair(names, p1, p2, "w_plan", remember="plan", labels=("A (shifted)", "B"))
        difference = p3.number_input("Difference (score units)",
                                     value=float(state.remembered("plan_diff", cl.suggest_rope(table)[0],
                                                                  lambda v: state.number(v, -1e12, 1e12) and abs(v) < 1e12)),
                                     format="%.4g",
                                     key="w_plan_diff", help="How much better A is, in the units of the scores.")
        q1, q2, q3, q4 = st.columns(4)
        plan_tests = {spec.choice: name for name, spec in cl.PAIRWISE_TESTS.items() if not table.has_missing or spec.handles_missing}
        plan_codes = list(plan_tests.values())
        plan_default = cl.RECOMMENDED_TEST if cl.RECOMMENDED_TEST in plan_codes else plan_codes[0]
        plan_test = plan_tests[q1.selectbox("Test", list(plan_tests), key="w_plan_test", index=plan_codes.index(
            state.remembered("plan_test", plan_default, lambda v: v in plan_codes)))]
        n_max = int(q2.number_input("Largest N", min_value=5, max_value=PLAN_MAX_N,
                                    value=state.remembered("plan_nmax", min(PLAN_MAX_N, max(30, table.n_datasets)),
                                                           lambda v: state.whole(v, 5, PLAN_MAX_N)), step=5, key="w_plan_nmax",
                                    help=f"At most {PLAN_MAX_N} data sets here."))
        reps = int(q3.number_input("Studies per N", min_value=100, max_value=PLAN_MAX_REPS, step=100,
                                   value=state.remembered("plan_reps", 500, lambda v: state.whole(v, 100, PLAN_MAX_REPS)),
                                   key="w_plan_reps", help=f"At most {PLAN_MAX_REPS:,} here."))
        plan_seed = int(q4.number_input("Seed", min_value=0, max_value=cl.limits.MAX_SEED, step=1, key="w_plan_seed",
                                        value=state.remembered("plan_seed", 0,
                                                               lambda v: state.whole(v, 0, cl.limits.MAX_SEED))))
        ss.update(plan_diff=float(difference), plan_test=plan_test, plan_nmax=n_max, plan_reps=reps, plan_seed=plan_seed)
        sizes = sorted({int(x) for x in np.linspace(5, n_max, num=min(10, n_max - 4))})
        plan_config = (state.active_token(), pa, pb, float(difference), plan_test, sizes, reps, plan_seed, float(alpha))
        if st.button("Compute the power curve", type="primary", key="w_plan_run"):
            bar = st.progress(0.0, text="Simulating studies…")
            result = ui.call(cl.plan, table, n_datasets=sizes, difference=float(difference), classifier=pa, against=pb,
                             test=plan_test, alpha=alpha, reps=reps, seed=plan_seed, baseline="exchangeable",
                             progress=lambda f: bar.progress(min(1.0, f), text=f"Simulating studies… {f:.0%}"))
            smallest = None
            if result is not None:
                bar.progress(1.0, text="The smallest difference this table's N could detect…")
                smallest = ui.call(cl.detectable_difference, table, n_datasets=table.n_datasets, classifier=pa, against=pb,
                                   test=plan_test, alpha=alpha, reps=min(reps, 1000), seed=plan_seed, power=0.8)
            bar.empty()
            if result is not None:
                ss["plan_result"] = (plan_config, result, smallest)
        stored = ss.get("plan_result")
        ui.run_flag("plan_ran", stored is not None and stored[0] == plan_config, "the power curve",
                    "Compute the power curve")  # travels in links (links.CHOICES, issue 28)
        if stored is not None:
            cfg, result, smallest = stored
            if cfg != plan_config:
                st.caption("The results below are from an earlier run with other settings; press the button to update.")
            st.markdown(f"**{esc(cl.plan_sentence(result, target=0.8))}**")
            if smallest is not None:
                st.markdown(esc(cl.plan_sentence(smallest, target=0.8)))
            curve = result.to_frame()
            st.plotly_chart(cl.plots.plan_figure(curve, alpha=alpha), width="stretch", key="plan_curve", config=ui.CHART_CONFIG)
            ui.download_buttons(curve, "power_curve", caption="Power by number of data sets", key="plan")
            st.caption("Power to reject A vs B with the chosen test and Holm's procedure over all pairs, from "
                       f"{reps:,} simulated studies per N (band: ± 2 Monte Carlo standard errors); dashed line: 80%.")

# -- 2. fold-level results ------------------------------------------------------------------------
with tab_folds:
    if tab_folds.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        st.markdown(
            "Two classifiers on one data set, compared on resampled splits (Bouckaert & Frank 2004): run the same "
            "experiment with several seeds and count how often each test's verdict repeats. A file needs the "
            "columns dataset, classifier, score and seed, run, fold (random subsampling: no fold column)."
        )
        folds = ui.fold_level_source(table, "w_fold")
        if folds is not None:
            f1, f2, f3 = st.columns(3)
            fa, fb = ui.classifier_pair(sorted(folds["classifier"].unique()), f1, f2, "w_fold", remember="fold")
            ratio = ui.ratio_input(f3, "w_fold_ratio")
            tested = ui.call(ui.fold_tests, folds, fa, fb, alpha, ratio)
            results, rep = tested if tested is not None else (None, None)
            if results is not None and len(results):
                st.markdown("**How often does each test's verdict repeat over the seeds?** (Bouckaert & Frank's measures)")
                st.dataframe(rep, width="stretch", hide_index=True,
                             column_config={"R": st.column_config.NumberColumn("R", format="%.3f"),
                                            "rejection_rate": st.column_config.NumberColumn("rejection rate", format="%.3f")})
                ui.download_buttons(rep, "fold_replicability", caption="Replicability of tests on fold-level results", key="foldrep")
                h1, h2 = st.columns(2)
                scheme_names = list(dict.fromkeys(results["scheme"]))
                shown_scheme = h1.selectbox("Resampling scheme", scheme_names, key="w_fold_scheme", index=scheme_names.index(
                    state.remembered("fold_scheme", scheme_names[0], lambda v: v in scheme_names)))
                test_names = list(dict.fromkeys(results.loc[results["scheme"] == shown_scheme, "test"]))
                shown_test = h2.selectbox("p-values of", test_names, key="w_fold_test", index=test_names.index(
                    state.remembered("fold_test", test_names[0], lambda v: v in test_names)))
                ss.update(fold_scheme=shown_scheme, fold_test=shown_test)
                fold_key = ("fold_p", ui.frame_token(folds), fa, fb, alpha, ratio, shown_test, shown_scheme)
                st.plotly_chart(ui.cached_figure(fold_key, lambda: cl.plots.fold_pvalues_figure(results, shown_test,
                                                                                               shown_scheme)), width="stretch",
                                key="fold_p", config=ui.CHART_CONFIG)
                with st.expander("All p-values"):
                    st.dataframe(results, width="stretch", hide_index=True)
        with st.expander("Bouckaert & Frank's Table 1 (5x2cv on 27 UCI data sets)"):
            st.dataframe(ui.replicability_table(str(state.SAMPLE_DIR / "bouckaert_frank2004_table1_5x2cv_draws.csv")),
                         hide_index=True, width="stretch")  # read and counted once per server
            st.caption("The paper: consistent 9, 12, 13; almost consistent 14, 17, 17; R = 0.737, 0.783, 0.816.")

# -- 3. run an experiment -------------------------------------------------------------------------
with tab_run:
    if tab_run.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        st.markdown(
            "Train real classifiers (scikit-learn) on data sets that ship with it, with several resampling schemes "
            "and seeds; every classifier sees the same splits. The fold-level results feed the previous tab, and "
            "their averages can replace the table on every other page."
        )
        # The form starts from the session (an earlier run or a link: links.CHOICES, issue 28) and stores what it ran.
        remembered = state.remembered
        with st.form("experiment"):
            e1, e2 = st.columns(2)
            clf_choice = e1.multiselect("Classifiers", list(cl.BUILTIN_CLASSIFIERS), key="w_exp_classifiers",
                                        default=remembered("exp_classifiers", list(links.EXPERIMENT_CLASSIFIERS),
                                                           lambda v: set(v) <= set(cl.BUILTIN_CLASSIFIERS)))
            extra = e1.text_input("Another scikit-learn classifier (optional)", key="w_exp_extra",
                                  value=remembered("exp_extra", "", lambda v: isinstance(v, str)),
                                  max_chars=links.MAX_CLASSIFIER_SPEC, placeholder='sklearn.svm.SVC {"C": 10}')
            data_choice = e2.multiselect("Data sets", list(cl.BUILTIN_DATASETS), key="w_exp_datasets",
                                         default=remembered("exp_datasets", list(links.EXPERIMENT_DATASETS),
                                                            lambda v: set(v) <= set(cl.BUILTIN_DATASETS)))
            scheme_choice = e2.multiselect("Schemes", list(links.EXPERIMENT_SCHEMES), key="w_exp_schemes",
                                           default=remembered("exp_schemes", ["5x2cv"],
                                                              lambda v: set(v) <= set(links.EXPERIMENT_SCHEMES)))
            g1, g2 = st.columns(2)
            n_seeds = g1.number_input("Seeds (repetitions of the whole experiment)", min_value=2,
                                      max_value=links.EXPERIMENT_MAX_SEEDS, key="w_exp_seeds",
                                      value=remembered("exp_seeds", 10, lambda v: state.whole(v, 2, links.EXPERIMENT_MAX_SEEDS)))
            n_jobs = g2.number_input("Parallel jobs (-1 = all cores)", min_value=-1, max_value=64, value=-1, key="w_exp_jobs")
            go_run = st.form_submit_button("Run", type="primary")
        ss.update(exp_classifiers=list(clf_choice), exp_extra=extra, exp_datasets=list(data_choice),
                  exp_schemes=list(scheme_choice), exp_seeds=int(n_seeds))
        if go_run:
            clfs = clf_choice + ([extra.strip()] if extra.strip() else [])
            bar = st.progress(0.0, text="Training…")
            folds_run = ui.call(ui.run_experiment, tuple(clfs), tuple(data_choice), tuple(scheme_choice), int(n_seeds),
                                int(n_jobs), progress=lambda f: bar.progress(f, text=f"Training… {f:.0%}"))
            bar.empty()
            if folds_run is not None:
                st.session_state["experiment_folds"] = folds_run
                st.rerun()  # the fold-level tab, drawn earlier in this run, can now offer the results
        ui.run_flag("exp_ran", "experiment_folds" in ss, "the experiment (its fold-level results feed the fold-level "
                    "views)", "Run")  # travels in links (links.CHOICES, issue 28)
        if "experiment_folds" in st.session_state:
            folds_run = st.session_state["experiment_folds"]
            st.success(
                f"{len(folds_run):,} fold-level results: {folds_run['classifier'].nunique()} classifiers, "
                f"{folds_run['dataset'].nunique()} data sets, {folds_run['scheme'].nunique()} scheme(s), "
                f"{folds_run['seed'].nunique()} seeds."
            )
            st.dataframe(folds_run.head(200), width="stretch", height=260)
            st.download_button("⬇ Fold-level results (CSV)", folds_run.to_csv(index=False).encode("utf-8"),
                               file_name="fold_level_results.csv", mime="text/csv", key="dl_folds", on_click="ignore")
            if st.button("Use the averaged scores on every page", key="w_use_experiment"):
                if folds_run["dataset"].nunique() < 2:
                    st.error("The other pages compare classifiers over data sets: run the experiment on at least 2 data sets.")
                else:
                    averaged = ui.call(state.load_bytes, folds_run.to_csv(index=False).encode("utf-8"), "experiment.csv",
                                       True, "long", "error")
                    if averaged is not None:
                        state.set_table(averaged, state.Origin("experiment", "experiment"))
                        st.rerun()
        st.caption(
            "On a Dask cluster: `from dask.distributed import Client; Client('tcp://scheduler:8786')`, then "
            "`cl.run_experiment(..., backend='dask')` runs the same grid on the cluster (`pip install -e .[dask]`). "
            f"This server has {os.cpu_count()} cores."
        )
