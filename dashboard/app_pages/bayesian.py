"""Bayesian analysis and effect sizes: how likely is A better, by how much, and does it matter?"""

from __future__ import annotations

import streamlit as st

import compare_lib as cl
import state
import ui
from ui import esc

st.title("Bayesian analysis")
table = state.active_table()
token = state.active_token()
alpha = state.alpha()
ss = st.session_state
version = ss.get("table_version", 0)
ui.caption(table)
st.markdown(
    "A p-value does not say how probable it is that A is better, by how much, or whether the difference "
    "matters. The Bayesian tests of Benavoli, Corani, Demšar & Zaffalon (2017) answer that directly, with a "
    "**region of practical equivalence (ROPE)**: differences smaller than the ROPE do not matter. Each pair gets "
    "three probabilities: A practically better, practically equivalent, B practically better."
)

suggested, reason = cl.suggest_rope(table)
c1, c2, c3, c4 = st.columns(4)
TESTS = {"Signed-rank (Bayesian Wilcoxon)": "signed-rank", "Sign": "sign"}
test_codes = list(TESTS.values())
test = TESTS[c1.radio("Test", list(TESTS), key="w_bay_test",
                      index=test_codes.index(ss["bay_test"]) if ss.get("bay_test") in test_codes else 0)]
ss["bay_test"] = test
rope_max = max(suggested * 10, 1e-9)
rope = c2.number_input(
    "ROPE (in the units of the scores)", min_value=0.0, max_value=float(rope_max),
    value=float(state.remembered("bay_rope", suggested, lambda v: state.number(v, 0, rope_max))),
    step=float(suggested) / 10 or 0.001,
    format="%.4g", key=f"w_bay_rope_{version}", help=reason + " Differences within ±ROPE count as practically equivalent.",
)
ss["bay_rope"] = rope
prior_default = 0.6 if test == "signed-rank" else 1.0
if "bay_prior_link" in ss:  # a link's prior strength belongs to the link's test
    ss[f"bay_prior_{test}"] = ss.pop("bay_prior_link")
# The widgets start from the session (an earlier visit or a link), checked against what they offer.
SAMPLE_OPTIONS = [10_000, 20_000, 50_000, 100_000]
prior = c3.number_input("Prior strength", min_value=0.1, max_value=10.0,
                        value=float(state.remembered(f"bay_prior_{test}", prior_default, lambda v: 0.1 <= v <= 10.0)),
                        step=0.1, key=f"w_bay_prior_{test}",
                        help="The weight of the prior pseudo-observation, placed in the ROPE. The tutorial uses 0.6 for "
                             "the signed-rank test and 1 for the sign test; baycomp uses 0.5.")
ss[f"bay_prior_{test}"] = prior
decision = c4.slider("Decision threshold", min_value=0.8, max_value=0.99,
                     value=float(state.remembered("bay_decision", 0.95, lambda v: 0.8 <= v <= 0.99)),
                     step=0.01, key="w_bay_decision", help="A pair is decided when one region has at least this posterior "
                                                          "probability; otherwise it is undecided.")
ss["bay_decision"] = decision
d1, d2 = st.columns(2)
samples = d1.select_slider("Posterior samples per pair", options=SAMPLE_OPTIONS,
                           value=int(state.remembered("bay_samples", 50_000, lambda v: v in SAMPLE_OPTIONS)),
                           key="w_bay_samples")
ss["bay_samples"] = samples
seed = int(d2.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1,
                           value=state.remembered("bay_seed", 0, lambda v: state.whole(v, 0, 2**31 - 1)),
                           key="w_bay_seed"))
ss["bay_seed"] = seed
st.caption(esc(reason))

VIEWS = ["One pair", "All pairs", "Effect sizes", "Fold-level results", "Hierarchical (fold level)", "Who is best?",
         "Significance is not relevance"]
view = st.segmented_control("Show", VIEWS, default=ss.get("bay_view", VIEWS[0]) if ss.get("bay_view") in VIEWS else VIEWS[0],
                            key="w_bay_view") or VIEWS[0]
ss["bay_view"] = view
names = table.classifiers

if view == "One pair":
    p1, p2 = st.columns(2)
    a, b = ui.classifier_pair(names, p1, p2, "w_bay", remember="bay")
    used, budget_note = ui.bayes_samples(int(samples), test, table.n_datasets)
    if budget_note:
        st.info(budget_note)
    res = ui.call(ui.bayesian_pair, token, table, a, b, test, float(rope), float(prior), used, seed) if used else None
    if res is not None:
        ui.bayes_verdict(res, a, b, decision)
        simplex = ui.cached_figure(("simplex", token, a, b, test, float(rope), float(prior), used, seed),
                                   lambda: cl.plots.posterior_simplex(res, a, b))  # once for all sessions
        st.plotly_chart(simplex, width="stretch", key="bay_simplex", config=ui.CHART_CONFIG)
        ui.figure_downloads(simplex, "posterior_simplex", key="bay_simplex_dl")
        with st.expander("How to read the triangle"):
            st.markdown(
                "Each point is one sample of the posterior: the probabilities that a future data set falls in each "
                "region (for the signed-rank test: that the average of two differences does). A point near a corner "
                "means that region dominates; its colour is the region with the largest mass in that sample, and the "
                "probabilities above are the shares of the colours (the tutorial's definition)."
            )

elif view == "All pairs":
    if table.n_classifiers > ui.MAX_MATRIX_K:
        st.info(f"All pairs are analysed for up to {ui.MAX_MATRIX_K} classifiers; this table has {table.n_classifiers}.")
    else:
        k = table.n_classifiers
        used, budget_note = ui.bayes_samples(int(samples), test, table.n_datasets, k * (k - 1) // 2)
        if budget_note:
            st.info(budget_note)
        frame = None
        if used:
            bar = st.progress(0.0, text="Sampling the posteriors…")
            frame = ui.call(ui.bayesian_posthoc_memo, token, table, test, float(rope), float(prior), used, seed,
                            float(decision), lambda f: bar.progress(f, text=f"Sampling the posteriors… {f:.0%}"))
            bar.empty()
        if frame is not None:
            counts = frame["decision"].value_counts()
            st.markdown(
                f"**{counts.get('a better', 0) + counts.get('b better', 0)} pairs with a practically better classifier, "
                f"{counts.get('equivalent', 0)} practically equivalent, {counts.get('undecided', 0)} undecided** "
                f"(threshold {decision:g})."
            )
            matrix = ui.cached_figure(("bayes_matrix", token, test, float(rope), float(prior), used, seed, float(decision)),
                                      lambda: cl.plots.bayesian_matrix(frame, names))
            st.plotly_chart(matrix, width="stretch", key="bay_matrix", config=ui.CHART_CONFIG)
            ui.figure_downloads(matrix, "bayesian_matrix", key="bay_matrix_dl")
            procedure = ss.get("ph_correction", cl.DEFAULT_CORRECTION)
            if procedure not in cl.procedures_for("all-pairs", mean_ranks=False):
                procedure = cl.DEFAULT_CORRECTION
            freq = ui.call(ui.posthoc, token, table, cl.RECOMMENDED_TEST, procedure, None, alpha)
            if freq is not None:
                side = cl.report.bayes_vs_frequentist(frame, freq)
                st.markdown(
                    f"**Beside the frequentist verdict** (Wilcoxon with {cl.PROCEDURES[procedure].label}, α = {alpha:g}, "
                    "as on the Post-hoc page):"
                )
                flagged = side[side["note"] != ""]
                for row in flagged.itertuples():
                    st.warning(esc(f"{row.a} vs {row.b}: {row.note}"))
                st.dataframe(cl.report.with_p_text(side, ["p_adj"]), width="stretch", hide_index=True,
                             column_config=ui.plain_columns(side))
                ui.download_buttons(side, "bayesian_posthoc", caption="Bayesian and frequentist verdicts", key="bay_side")
            st.markdown("**For your paper**")
            st.code(cl.report.bayesian_paragraph(frame), language=None, wrap_lines=True)

elif view == "Effect sizes":
    if table.n_classifiers > ui.MAX_MATRIX_K:
        st.info(f"Effect sizes of all pairs are tabulated for up to {ui.MAX_MATRIX_K} classifiers.")
    else:
        eff = ui.call(ui.effect_sizes, token, table)
        if eff is not None:
            st.caption("Paired effect sizes, positive when a is better (whatever the direction of the scores), with 95% "
                       "intervals: mean difference (t), Hodges-Lehmann estimate (median of the Walsh averages, "
                       "signed-rank interval), Cohen's d_z (noncentral t), matched-pairs rank-biserial correlation, and "
                       "the probability of superiority (wins + ties/2 over N, Wilson interval).")
            labels = {code: label for code, (low, _, label) in cl.effect_size_measures().items() if low}
            measure = st.selectbox("Forest plot of", list(labels), format_func=lambda code: labels[code][0].upper()
                                   + labels[code][1:], key="w_bay_measure", index=list(labels).index(
                                       state.remembered("bay_measure", next(iter(labels)), lambda v: v in labels)))
            ss["bay_measure"] = measure
            if eff.attrs.get("note"):
                st.info(esc(eff.attrs["note"]))
            shown = eff
            if len(eff) > cl.limits.MAX_FOREST_PAIRS:
                focus = st.selectbox(f"More than {cl.limits.MAX_FOREST_PAIRS} pairs: plot the pairs of", names,
                                     key="w_bay_forest_focus", index=names.index(
                                         state.remembered("bay_forest_focus", names[0], lambda v: v in names)))
                ss["bay_forest_focus"] = focus
                shown = eff[(eff["a"] == focus) | (eff["b"] == focus)]
            forest = ui.cached_figure(("forest", token, measure, None if shown is eff else focus),
                                      lambda: cl.plots.effect_size_forest(shown, measure))
            st.plotly_chart(forest, width="stretch", key="bay_forest", config=ui.CHART_CONFIG)
            ui.figure_downloads(forest, "effect_size_forest", key="bay_forest_dl")
            st.dataframe(eff.round(4), width="stretch", hide_index=True, column_config=ui.plain_columns(eff))
            ui.download_buttons(eff, "effect_sizes", caption="Paired effect sizes", key="bay_eff")

elif view == "Fold-level results":
    st.markdown(
        "The **Bayesian correlated t-test** (Corani & Benavoli 2015) compares two classifiers on one data set from "
        "their cross-validation results: the posterior of the mean difference is a Student t whose scale is "
        "corrected for the overlapping training sets (Nadeau & Bengio). Run on every data set and seed, it also "
        "shows how often the Bayesian verdict repeats when the experiment is run again."
    )
    folds = ui.fold_level_source(table, "w_bfold")
    if folds is not None:
        f1, f2, f3, f4, f5 = st.columns(5)
        fa, fb = ui.classifier_pair(sorted(folds["classifier"].unique()), f1, f2, "w_bfold", remember="bfold")
        ratio = ui.ratio_input(f3, "w_bfold_ratio")
        higher = f4.toggle("Higher scores are better", value=bool(state.remembered("bfold_higher", True)),
                           key="w_bfold_higher")
        ss["bfold_higher"] = higher
        # The fold-level scores may be on another scale than the page's table: their own ROPE, suggested from them.
        fold_suggested, fold_reason = cl.suggest_rope(folds)
        fold_rope = f5.number_input("ROPE (fold-level scores)", min_value=0.0, value=float(state.remembered(
                                        "bfold_rope", fold_suggested, lambda v: 0 <= float(v) < 1e12)),
                                    step=float(fold_suggested) / 10 or 0.001, format="%.4g",
                                    key=f"w_bfold_rope_{fold_suggested:g}", help=fold_reason)
        ss["bfold_rope"] = float(fold_rope)
        if fold_rope != rope:
            st.caption(esc(f"This view uses its own ROPE, ±{fold_rope:g}, suggested from the fold-level scores "
                           f"({fold_reason.rstrip('.')}); the page's ROPE above is ±{rope:g}."))
        scale_warning = cl.rope_scale_warning(float(fold_rope), folds, what="the fold-level scores")
        if scale_warning:
            st.warning(esc(scale_warning))
        frame = ui.call(ui.bayesian_fold_tests, folds, fa, fb, float(fold_rope), ratio, bool(higher))
        if frame is not None and len(frame):
            schemes = list(dict.fromkeys(frame["scheme"]))
            g1, g2, g3 = st.columns(3)
            scheme = g1.selectbox("Scheme", schemes, key="w_bfold_scheme", index=schemes.index(
                state.remembered("bfold_scheme", schemes[0], lambda v: v in schemes)))
            rows = frame[frame["scheme"] == scheme]
            datasets = list(dict.fromkeys(rows["dataset"]))
            ds = g2.selectbox("Data set", datasets, key="w_bfold_ds", index=datasets.index(
                state.remembered("bfold_ds", datasets[0], lambda v: v in datasets)))
            seeds = list(dict.fromkeys(rows.loc[rows["dataset"] == ds, "seed"]))
            seed_texts = [str(x) for x in seeds]
            seed_shown = seeds[g3.selectbox("Seed", range(len(seeds)), format_func=lambda i: seed_texts[i], key="w_bfold_seed",
                                            index=seed_texts.index(state.remembered("bfold_seed", seed_texts[0],
                                                                                    lambda v: str(v) in seed_texts)))]
            ss.update(bfold_scheme=scheme, bfold_ds=ds, bfold_seed=str(seed_shown))
            for note in sorted(set(rows["note"]) - {""}):
                st.warning(esc(f"Some rows have no posterior: {note}."))
            groups = ui.call(cl.fold_groups, folds, fa, fb, test_train_ratio=ratio)
            chosen = next((g for g in groups or [] if g.label == scheme and g.dataset == ds and g.seed == seed_shown), None)
            if chosen is not None and chosen.test_train_ratio is not None and chosen.differences.size >= 2:
                d = chosen.differences if higher else -chosen.differences
                res = ui.call(cl.bayesian_correlated_ttest, d, rope=float(fold_rope), test_ratio=chosen.test_train_ratio)
                if res is not None:
                    fig = cl.plots.correlated_t_posterior(res, fa, fb)
                    st.plotly_chart(fig, width="stretch", key="bay_corr", config=ui.CHART_CONFIG)
                    ui.figure_downloads(fig, "correlated_t_posterior", key="bay_corr_dl")
                    st.caption(esc(f"{res.n} splits, n_test/n_train = {chosen.test_train_ratio:.3g}; P({fa} better) = "
                                   f"{res.p_x:.4g}, P(equivalent) = {res.p_rope:.4g}, P({fb} better) = {res.p_y:.4g}."))
            bars = ui.call(cl.plots.bayesian_fold_figure, frame, scheme)
            if bars is not None:
                st.plotly_chart(bars, width="stretch", key="bay_fold_bars", config=ui.CHART_CONFIG)
                ui.figure_downloads(bars, "bayesian_fold_tests", key="bay_fold_bars_dl")
            with st.expander("Every data set and seed"):
                st.dataframe(frame, width="stretch", hide_index=True)
            ui.download_buttons(frame, "bayesian_fold_tests", caption="Bayesian correlated t-tests per data set and seed",
                                key="bay_fold")

elif view == "Hierarchical (fold level)":  # issue 29: Corani et al. (2017), dashboard/view_hierarchical.py
    import view_hierarchical

    view_hierarchical.render(table, seed, float(decision))

elif view == "Who is best?":  # issue 29: the Bayesian ranking of all classifiers (dashboard/view_ranking.py)
    import view_ranking

    view_ranking.render(table, token, alpha, seed)

else:
    st.markdown(
        "**Significance is not relevance.** Classifier A beats B by a tiny true margin (well inside the ROPE) on "
        "every data set, with noise. With more and more data sets the Wilcoxon test becomes significant, as it "
        "should: the difference is real. But it does not matter, and the Bayesian posterior says so: it "
        "concentrates inside the ROPE."
    )
    # The form starts from the session (an earlier run or a link: links.CHOICES, issue 28).
    with st.form("relevance"):
        r1, r2, r3 = st.columns(3)
        delta = r1.number_input("True difference", step=0.001, format="%.4f", min_value=-1.0, max_value=1.0,
                                key="w_bdemo_delta", value=float(state.remembered("bdemo_delta", 0.003,
                                                                                  lambda v: state.number(v, -1, 1))))
        noise = r2.number_input("Noise (sd)", step=0.001, format="%.4f", min_value=0.0001, max_value=1.0,
                                key="w_bdemo_noise", value=float(state.remembered("bdemo_noise", 0.01,
                                                                                  lambda v: state.number(v, 0.0001, 1))))
        demo_rope = r3.number_input("ROPE", step=0.001, format="%.4f", min_value=0.0, max_value=1.0, key="w_bdemo_rope",
                                    value=float(state.remembered("bdemo_rope", 0.01, lambda v: state.number(v, 0, 1))))
        go = st.form_submit_button("Run the demo")
    ss.update(bdemo_delta=float(delta), bdemo_noise=float(noise), bdemo_rope=float(demo_rope))
    demo_config = (float(delta), float(noise), float(demo_rope), int(seed))
    demo = None
    if go:
        bar = st.progress(0.0, text="Simulating…")
        demo = ui.call(cl.relevance_demo, float(delta), float(noise), rope=float(demo_rope), seed=seed,
                       progress=lambda f: bar.progress(f, text=f"Simulating… {f:.0%}"))
        bar.empty()
    demo = ui.remembered_run("bay_demo", demo_config, demo, flag="bdemo_ran", what="the relevance demo",
                             button="Run the demo")
    if demo is not None:
        st.plotly_chart(cl.plots.relevance_figure(demo, alpha), width="stretch", key="bay_demo_fig", config=ui.CHART_CONFIG)
        st.dataframe(cl.report.with_p_text(demo, ["wilcoxon_p"]), width="stretch", hide_index=True,
                 column_config=ui.plain_columns(demo))

