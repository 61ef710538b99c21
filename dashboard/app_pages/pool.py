"""Pool sensitivity: how the mean-ranks verdict on a pair changes with the other classifiers in the pool."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

st.title("Pool sensitivity")
table = state.active_table()
token = state.active_token()
alpha = state.alpha()
ss = st.session_state
#: The Friedman mean-ranks statistic, whose pool dependence this page shows.
MEAN_RANKS = next(name for name, spec in cl.PAIRWISE_TESTS.items() if spec.mean_ranks)
version = ss.get("table_version", 0)  # widgets listing classifiers restart with a new table
ui.caption(table)
st.markdown(
    "The mean-ranks post-hoc test compares the Friedman mean ranks of A and B, and those ranks depend on "
    "every other classifier in the experiment. So the verdict on **A vs B can change when C is added or "
    "removed, with the scores of A and B untouched** (Benavoli, Corani & Mangili 2016). The Wilcoxon and "
    "sign tests look at A and B only. Inside a pool S, the mean rank of classifier i is "
    r"$R_i(S) = 1 + \sum_{j \in S,\, j \neq i} W_{ji}$, with $W_{ji}$ the fraction of data sets on which "
    "j beats i, so every pool below is computed exactly, without re-ranking."
)

PROCEDURES = {
    "Bonferroni (as in the paper)": "bonferroni",
    "Nemenyi (studentized range)": "nemenyi",
    "Holm within the pool": "holm",
}
codes = list(PROCEDURES.values())
stored_proc = ss.get("pool_correction", "bonferroni")
if stored_proc not in codes:
    st.warning(esc(f"The link's procedure (pproc) {links.shown(stored_proc)} is not offered here; using Bonferroni."))
    stored_proc = "bonferroni"
c1, c2 = st.columns([2, 1])
procedure = PROCEDURES[
    c1.radio("Correction for the pool's m(m−1)/2 comparisons", list(PROCEDURES), index=codes.index(stored_proc),
             horizontal=True, key="w_pool_proc")
]
ss["pool_correction"] = procedure
require_friedman = c2.checkbox(
    "Friedman must reject first", value=bool(ss.get("pool_friedman", False)), key="w_pool_friedman",
    help="Count a pool's verdict as significant only if that pool's Friedman test rejects at α.",
)
ss["pool_friedman"] = require_friedman

names = table.classifiers
present = set(names)
stored = [c for c in ss.get("pool_members", names) if c in present]
members_default = list(dict.fromkeys(stored)) if len(set(stored)) >= 2 else names

FWER_MAX_K = links.FWER_MAX_K  # the multiple-comparisons demo's largest k on the shared app
FWER_MAX_REPS = links.FWER_MAX_REPS
TABS = ["Subset explorer", "One pair in every pool", "All pairs", "Teaching demos"]
#: The subset explorer's column naming the statistics whose verdict flips; Example 1's message points at it by name.
FLIP_COLUMN = "verdict differs from the full pool"
# Pools are counted exactly for Bonferroni and Nemenyi (Holm within each pool is counted as Bonferroni).
matrix_proc = "bonferroni" if procedure == "holm" else procedure


def _heavy(table) -> bool:
    """Counting every pool of every pair takes seconds beyond this size: it then starts on request."""
    return table.n_classifiers ** 2 * table.n_datasets > 2_000_000


example = ss.pop("example_loaded", None)
if example is not None:
    name, replaced, hint = example
    st.success(esc(f"{name} is loaded: it replaced your table ({replaced}). {hint}"))
if state.before_example() is not None:
    if st.button(esc(f"↩ Back to my table ({state.before_example().describe()})"), key="pool_back"):
        state.restore_before_example()
        st.rerun()
tab_explore, tab_pair, tab_matrix, tab_demo = ui.remembered_tabs(TABS, "w_pool_tab", "pool_tab")

# -- subset explorer ------------------------------------------------------------------------------
with tab_explore:
    if tab_explore.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        members = st.multiselect(
            "Classifiers in the pool (add or remove and watch the verdicts)", names,
            default=members_default, key=f"w_pool_members_{version}",
        )
        EXTRA = {"none": "—", **{x: spec.label for x, spec in cl.PAIRWISE_TESTS.items() if spec.pool_dependent and not spec.mean_ranks}}
        extra_codes = list(EXTRA)
        stored_extra = ss.get("pool_statistic", "none")
        extra = extra_codes[st.selectbox(
            "Also show another pool-dependent statistic", range(len(EXTRA)), format_func=lambda i: list(EXTRA.values())[i],
            index=extra_codes.index(stored_extra) if stored_extra in extra_codes else 0, key="w_pool_statistic",
            help="The exact rank-sum p-value, the aligned ranks, Quade's weighted ranks and Conover's t all rank the "
                 "classifiers among the whole pool, so they share the mean-ranks paradox: recomputed in this pool with "
                 "Bonferroni over its pairs. To see it: Benavoli et al.'s Example 1 without E (Quade changes 4 verdicts, "
                 "Wilcoxon none), or García & Herrera's table without Kernel (mean ranks and exact rank sums 3, Quade 2).",
        )]
        ss["pool_statistic"] = extra
        if len(members) < 2:
            st.error("Keep at least 2 classifiers in the pool.")
        else:
            ss["pool_members"] = members
            pool_table = ui.pool_subset(token, table, tuple(members))  # once per pool for all sessions
            ver = ui.call(ui.pool_verdicts, token, table, tuple(members), alpha,
                          "nemenyi" if procedure == "nemenyi" else "bonferroni",
                          MEAN_RANKS if extra == "none" else extra)
            pool_token = f"{token}|pool|{','.join(members)}"
            fr = ui.call(ui.omnibus, pool_token, pool_table, False)
            if fr is not None:
                exact_text = f" (exact p = {cl.report.format_p(fr[3].pvalue)})" if fr[3] is not None else ""
                st.markdown(
                    f"Friedman test in this pool: χ²_F = {fr[0].statistic:.3f}, p = {cl.report.format_p(fr[0].pvalue)}"
                    + exact_text
                )
            if ver is not None:
                n_mr = int(ver["changed_mean_ranks"].sum())
                n_w = int(ver["changed_wilcoxon"].sum())
                n_s = int(ver["changed_sign"].sum())
                extra_key = extra.replace("-", "_")
                extra_text = (f"{EXTRA[extra]} {int(ver[f'changed_{extra_key}'].sum())}, " if extra != "none" else "")
                st.markdown(
                    f"**Verdicts that differ from the full pool of {table.n_classifiers}:** mean ranks {n_mr}, "
                    f"{extra_text}Wilcoxon {n_w}, sign test {n_s} of {len(ver)} pairs."
                    + (" The Wilcoxon and sign p-values never change; their verdicts move only because fewer pairs "
                       "are corrected for." if (n_w or n_s) else "")
                )

                def verdict_table():
                    labels = {
                        "z_mean_ranks": "z (this pool)", "z_mean_ranks_full": "z (full pool)",
                        "reject_mean_ranks": "mean ranks: significant", "reject_mean_ranks_full": "… in the full pool",
                    }
                    highlighted = [("mean ranks: significant", "changed_mean_ranks")]
                    if extra != "none":  # beside the mean ranks: the other statistics that share the paradox
                        labels.update({
                            f"stat_{extra_key}": f"{EXTRA[extra]} (this pool)",
                            f"p_{extra_key}": f"{EXTRA[extra]}: p (this pool)",
                            f"reject_{extra_key}": f"{EXTRA[extra]}: significant",
                            f"reject_{extra_key}_full": f"{EXTRA[extra]}: … in the full pool",
                        })
                        highlighted.append((f"{EXTRA[extra]}: significant", f"changed_{extra_key}"))
                    labels.update({"p_wilcoxon": "Wilcoxon p", "reject_wilcoxon": "Wilcoxon: significant",
                                   "p_sign": "sign test p", "reject_sign": "sign test: significant"})
                    highlighted += [("Wilcoxon: significant", "changed_wilcoxon"),
                                    ("sign test: significant", "changed_sign")]
                    shown = ver[["a", "b", *labels]].rename(columns=labels)
                    changed = ver[[flag for _, flag in highlighted]]
                    p_cols = ["Wilcoxon p", "sign test p"] + ([f"{EXTRA[extra]}: p (this pool)"] if extra != "none" else [])
                    shown = cl.report.with_p_text(shown, p_cols)

                    # Which statistics' verdicts flip, named in a column (a styled table costs a tenth of a second
                    # a run).
                    flipped = np.full(len(shown), "", dtype=object)
                    for col, flag in highlighted:
                        name = col.split(":")[0]
                        add = np.where(changed[flag].to_numpy(), name, "")
                        flipped = np.where((flipped != "") & (add != ""), flipped + ", " + add, flipped + add)
                    shown.insert(2, FLIP_COLUMN, flipped)
                    return shown, ui.p_columns(shown, [])

                # Made once per pool and choice for all sessions: a page revisited or a widget changed elsewhere
                # on it costs no relabelling (issue 31).
                shown, column_config = ui.cached_table(
                    ("pool_verdicts", token, tuple(members), alpha, procedure, extra), verdict_table)
                if len(shown) <= 2000:
                    ui.shared_dataframe(shown, width="stretch", hide_index=True, column_config=column_config)
                    st.caption("'Verdict differs from the full pool' names the statistics whose verdict on the pair "
                               "changes when the other classifiers are removed.")
                else:
                    st.dataframe(shown.head(2000), width="stretch", hide_index=True)
                    st.caption(f"The first 2,000 of {len(shown):,} pairs; the download has all of them.")
                ui.download_buttons(ver, "pool_verdicts", caption="Verdicts in the chosen pool and in the full pool",
                                    key="poolver")
            if len(members) <= ui.MAX_CD_K:
                res = ui.call(ui.posthoc, pool_token, pool_table, MEAN_RANKS,
                              "holm" if procedure == "holm" else procedure, None, alpha)
                if res is not None:
                    # Built once per pool and choice for all sessions (ui.cached_figure).
                    cd_key = (pool_token, procedure, alpha)
                    ui.wide_chart(ui.cached_figure(("pool_cd", *cd_key), lambda: cl.plots.cd_diagram(res)), "pool_cd",
                                  narrow=ui.cached_figure(("pool_cd_vertical", *cd_key),
                                                          lambda: cl.plots.cd_diagram(res, orientation="vertical")))

# -- one pair ------------------------------------------------------------------------------------------
with tab_pair:
    if tab_pair.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        p1, p2 = st.columns(2)
        stored_a, stored_b = ss.get("pool_a"), ss.get("pool_b")
        if stored_a not in present and table.n_classifiers <= ui.MAX_MATRIX_K and not _heavy(table):
            # Open on a pair whose verdict depends on the pool, where there is one (the point of this tab).
            dep = ui.call(ui.pool_dependence, token, table, alpha, matrix_proc)
            if dep is not None and len(dep):
                stored_a, stored_b = str(dep["a"].iloc[0]), str(dep["b"].iloc[0])
                st.caption(esc(f"Opened on {stored_a} vs {stored_b}: its mean-ranks verdict depends on the pool."))
        a = p1.selectbox("Classifier A", names, index=names.index(stored_a) if stored_a in present else 0,
                         key=f"w_pool_a_{version}")
        others = [n for n in names if n != a]
        b = p2.selectbox("Classifier B", others, index=others.index(stored_b) if stored_b in others else 0,
                         key=f"w_pool_b_{version}")
        ss["pool_a"], ss["pool_b"] = a, b
        if table.n_classifiers <= ui.MAX_LISTED_POOL_K and (procedure != "holm" or table.n_classifiers <= cl.limits.MAX_HOLM_POOL_K):
            frame = ui.call(ui.pool_sensitivity, token, table, a, b, alpha, procedure, require_friedman)
            if frame is not None:
                z_key = ("pool_z", token, a, b, alpha, procedure, require_friedman)
                st.plotly_chart(ui.cached_figure(z_key, lambda: cl.plots.pool_z_figure(frame)), width="stretch",
                                key="pool_z", config=ui.CHART_CONFIG)
                full = bool(frame["reject"].iloc[-1])
                share = frame["reject"].mean()
                st.markdown(
                    f"In the full pool {esc(a)} vs {esc(b)} is **{'significant' if full else 'not significant'}**; "
                    f"{share:.0%} of the {len(frame):,} pools containing both call it significant."
                )
                current = ss.get("pool_members", names)
                if a in current and b in current:
                    flips, significant = ui.smallest_flip(token, frame, a, b, alpha, procedure, require_friedman, tuple(current))
                    verdict = "significant" if significant else "not significant"
                    if flips.empty:
                        st.success(f"No pool changes the verdict on {esc(a)} vs {esc(b)}: it is {verdict} in all of them.")
                    else:
                        lines = []
                        for row in flips.head(5).itertuples():
                            parts = []
                            if row.removed:
                                parts.append("remove " + ", ".join(row.removed))
                            if row.added:
                                parts.append("add " + ", ".join(row.added))
                            change = " and ".join(parts)
                            lines.append("- " + esc(f"{change[0].upper()}{change[1:]}"))
                        st.markdown(
                            f"From the explorer's pool ({verdict} there), the smallest changes that flip the verdict "
                            f"({int(flips['changes'].iloc[0])} classifier(s)):\n" + "\n".join(lines)
                        )
                else:
                    st.info("Put both classifiers in the explorer's pool to see the smallest change that flips the verdict.")
        else:
            st.info(f"With {table.n_classifiers} classifiers the pools are counted, not listed (they are listed one by one "
                    f"for up to {ui.MAX_LISTED_POOL_K} classifiers, {2 ** (ui.MAX_LISTED_POOL_K - 2):,} pools per pair).")
        counts = ui.call(ui.pool_counts, token, table, a, b, alpha,
                         "bonferroni" if procedure == "holm" and table.n_classifiers > cl.limits.MAX_HOLM_POOL_K else procedure)
        if counts is not None:
            counts_key = ("pool_counts", token, a, b, alpha, procedure)
            st.plotly_chart(ui.cached_figure(counts_key, lambda: cl.plots.pool_counts_figure(counts, a, b)), width="stretch",
                            key="pool_counts", config=ui.CHART_CONFIG)


# -- all pairs --------------------------------------------------------------------------------------
with tab_matrix:
    if tab_matrix.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        if table.n_classifiers > ui.MAX_MATRIX_K:
            st.info(f"The all-pairs view counts every pool of every pair: it is offered for up to {ui.MAX_MATRIX_K} "
                    f"classifiers (this table has {table.n_classifiers}). Use the explorer and the one-pair tab.")
        else:
            if procedure == "holm":
                st.info("The matrix is counted exactly for Bonferroni and Nemenyi; showing Bonferroni.")
            heavy = _heavy(table)
            # One slot per session, holding the view the count was asked for (a key per view grew without bound).
            key = (token, alpha, matrix_proc)
            if heavy and ss.get("_pool_matrix_go") != key:
                st.info(f"Counting every pool of all {table.n_classifiers * (table.n_classifiers - 1) // 2:,} pairs of this "
                        f"{table.n_datasets:,} × {table.n_classifiers} table takes a while; it starts on request.")
                if st.button("Count the pools of every pair", key="w_pool_matrix_go"):
                    ss["_pool_matrix_go"] = key
                    st.rerun()
                matrix = None
            elif heavy:
                matrix = ui.pool_matrix_with_progress(token, table, alpha, matrix_proc)
            else:
                matrix = ui.call(ui.pool_matrix, token, table, alpha, matrix_proc)
            if matrix is not None:
                st.plotly_chart(ui.cached_figure(("pool_matrix", token, alpha, matrix_proc),
                                                 lambda: cl.plots.sensitivity_heatmap(matrix)),
                                width="stretch", key="pool_matrix", config=ui.CHART_CONFIG)
                dep = ui.call(ui.pool_dependence, token, table, alpha, matrix_proc)
                if dep is not None and len(dep):
                    st.markdown("**Pairs whose verdict depends on the pool** (significant pools / pools, by number of other "
                                "classifiers; '-' = every pool of that size agrees):")
                    st.dataframe(dep, width="stretch", hide_index=True, column_config=ui.plain_columns(dep))
                    ui.download_buttons(dep, "pool_dependence", caption="Pairs whose mean-ranks verdict depends on the pool",
                                        key="dep")
                elif dep is not None:
                    st.success("No pair's mean-ranks verdict depends on the pool for this table.")

# -- teaching demos ---------------------------------------------------------------------------------
def _example(title: str, text: str, key: str, sample_id: str, members: list[str], pair: tuple[str, str], *,
             tab: str, hint: str) -> None:
    """One teaching example: what it shows, and a button that loads its table and opens the view that shows
    the point (``tab``, with the pool and the pair set), saying what it replaced (``hint``: what to look at)."""
    st.markdown(f"#### {title}")
    st.markdown(text)
    if st.button(f"Load {title.split(':')[0]}", key=key, help="Replaces the loaded table with this sample; you can "
                 "go back to yours afterwards."):
        replaced = state.use_example(state.SAMPLE_BY_ID[sample_id])
        ss["pool_members"] = members
        ss["pool_a"], ss["pool_b"] = pair
        ss["pool_tab_request"] = tab  # opened by ui.remembered_tabs on the next run
        ss["example_loaded"] = (title.split(":")[0], replaced, hint)
        st.rerun()


with tab_demo:
    if tab_demo.open:  # only the open tab runs (the tab bar reruns the page on a switch)
        _example("Example 1: A and B tie, yet C, D and E make them 'different'",
                 "A and B each win 10 of 20 data sets: every two-sample test gives p = 1. Add C, D and E and the "
                 "mean-ranks test with Bonferroni calls A and B significantly different (Benavoli et al., §4.1).",
                 "demo1", "benavoli2016-example1", ["A", "B"], ("A", "B"), tab=TABS[0],
                 hint="The subset explorer below keeps only A and B: their mean-ranks verdict differs from the full "
                      f"pool's (A, B, C, D, E), flagged in the column \"{FLIP_COLUMN}\".")
        st.markdown("#### Example 2: the pool can hide a real difference")
        st.markdown(
            "A ~ N(0, 1) and B ~ N(1.5, 1) on 20 data sets: the sign test finds the difference 94% of the time. Add "
            "C, D, E ~ N(5, 1), N(6, 1), N(7, 1), always better than both, and the mean-ranks test finds it about 5% "
            "of the time (at the paper's α = 0.05; the simulation below uses the sidebar's α): the ranks of A and B do "
            "not change, but the variance the test assumes grows with the pool."
        )
        # The demos' forms start from the session (an earlier run or a link: links.CHOICES, issue 28).
        remembered = state.remembered
        with st.form("demo2"):
            d1, d2, d3 = st.columns(3)
            mean_b = d1.number_input("Mean of B", step=0.1, min_value=-100.0, max_value=100.0, key="w_d2_mean_b",
                                     value=float(remembered("d2_mean_b", 1.5, lambda v: state.number(v, -100, 100))))
            n_sets = d2.number_input("Data sets", min_value=5, max_value=links.DEMO2_MAX_N, step=1, key="w_d2_n",
                                     value=remembered("d2_n", 20, lambda v: state.whole(v, 5, links.DEMO2_MAX_N)))
            reps = d3.number_input("Repetitions", min_value=100, max_value=links.DEMO2_MAX_REPS, step=100, key="w_d2_reps",
                                   value=remembered("d2_reps", 2000, lambda v: state.whole(v, 100, links.DEMO2_MAX_REPS)))
            others_text = st.text_input("Means of the other algorithms (up to 20)", max_chars=links.MAX_CLASSIFIER_SPEC,
                                        key="w_d2_others", value=remembered("d2_others", "5, 6, 7", lambda v: isinstance(v, str)))
            seed = st.number_input("Seed", min_value=0, max_value=2**31 - 1, step=1, key="w_d2_seed",
                                   value=remembered("d2_seed", 0, lambda v: state.whole(v, 0, 2**31 - 1)))
            run = st.form_submit_button("Run the simulation")
        demo2_config = (float(mean_b), int(n_sets), int(reps), others_text, int(seed), float(alpha))
        ss.update(d2_mean_b=float(mean_b), d2_n=int(n_sets), d2_reps=int(reps), d2_others=others_text, d2_seed=int(seed))
        sim = None
        if run:
            try:
                extra = [float(x) for x in others_text.replace(";", ",").split(",") if x.strip()]
                if len(extra) > 20 or not all(abs(x) <= 100 for x in extra):
                    raise ValueError
            except ValueError:
                st.error("Give at most 20 numbers between −100 and 100 separated by commas, e.g. 5, 6, 7.")
            else:
                progress = st.progress(0.0, text="Simulating…")
                sim = ui.call(cl.pool_power_simulation, (0.0, float(mean_b), *extra), n=int(n_sets), reps=int(reps),
                              alpha=alpha, seed=int(seed), progress=lambda f: progress.progress(f, text=f"Simulating… {f:.0%}"))
                progress.empty()
        sim = ui.remembered_run("demo2", demo2_config, sim, flag="d2_ran", what="Example 2's simulation",
                                button="Run the simulation")
        if sim is not None:
            paper = {"sign test": 0.94, "mean-ranks z": 0.046} if sim.attrs["means"] == (0.0, 1.5, 5.0, 6.0, 7.0) and sim.attrs["n"] == 20 else None
            st.plotly_chart(cl.plots.power_figure(sim, paper), width="stretch", key="demo2_fig", config=ui.CHART_CONFIG)
            st.dataframe(sim, hide_index=True, width="stretch")
        st.markdown("#### Multiple comparisons: why a correction is needed")
        st.markdown(
            "k classifiers that are all **equally good**, compared pair by pair on N data sets (simulated). Without a "
            f"correction each of the m = k(k−1)/2 pairs has a {alpha * 100:g}% chance (α = {alpha:g}, the sidebar's) of a "
            "false \"significant\" verdict, and the chance "
            "of at least one grows quickly with k. Bonferroni and Holm keep it at or below α. The pairs of one table are "
            "not independent (they share classifiers and data sets), so the uncorrected rate stays below the "
            "independent-tests curve 1 − (1 − α)^m; and a discrete test such as the sign test cannot reach α exactly, "
            "so its rate is lower still. When all are equal, Holm and Bonferroni reject the same tables: they differ "
            "only in power, which the second chart shows with some classifiers truly better."
        )
        with st.form("fwer_demo"):
            w1, w2, w3, w4 = st.columns(4)
            fw_kmax = int(w1.number_input("Largest k", min_value=3, max_value=FWER_MAX_K, step=1, key="w_fw_kmax",
                                          value=remembered("fw_kmax", 10, lambda v: state.whole(v, 3, FWER_MAX_K)),
                                          help=f"At most {FWER_MAX_K} here."))
            fw_n = int(w2.number_input("Data sets (N)", min_value=5, max_value=links.FWER_MAX_N, step=5, key="w_fw_n",
                                       value=remembered("fw_n", 20, lambda v: state.whole(v, 5, links.FWER_MAX_N)),
                                       help="At most 200 here."))
            fw_reps = int(w3.number_input("Tables per k", min_value=100, max_value=FWER_MAX_REPS, step=100, key="w_fw_reps",
                                          value=remembered("fw_reps", 500, lambda v: state.whole(v, 100, FWER_MAX_REPS)),
                                          help=f"At most {FWER_MAX_REPS:,} here."))
            fw_tests = {spec.choice: name for name, spec in cl.PAIRWISE_TESTS.items() if not spec.pool_dependent}
            fw_codes = list(fw_tests.values())
            fw_test = fw_tests[w4.selectbox("Pairwise test", list(fw_tests), key="w_fw_test", index=fw_codes.index(
                remembered("fw_test", fw_codes[0], lambda v: v in fw_codes)))]
            v1, v2 = st.columns(2)
            fw_better = int(v1.number_input("Classifiers truly better (second chart)", min_value=1, max_value=5,
                                            key="w_fw_better", value=remembered("fw_better", 2, lambda v: state.whole(v, 1, 5))))
            fw_shift = float(v2.number_input("By how much (in noise standard deviations)", min_value=0.1, max_value=5.0,
                                             step=0.1, key="w_fw_shift",
                                             value=float(remembered("fw_shift", 1.0, lambda v: state.number(v, 0.1, 5.0)))))
            run_fwer = st.form_submit_button("Run the simulation", type="primary")
        ss.update(fw_kmax=fw_kmax, fw_n=fw_n, fw_reps=fw_reps, fw_test=fw_test, fw_better=fw_better, fw_shift=fw_shift)
        # The run uses the post-hoc procedure chosen on the Post-hoc page too (a link of this tab carries it: CROSS_PAGE).
        fwer_config = (fw_kmax, fw_n, fw_reps, fw_test, fw_better, fw_shift, ss.get("ph_correction", cl.DEFAULT_CORRECTION),
                       float(alpha))
        ran = None
        if run_fwer:
            chosen_proc = ss.get("ph_correction", cl.DEFAULT_CORRECTION)
            procs = tuple(dict.fromkeys([cl.UNCORRECTED, "bonferroni", cl.DEFAULT_CORRECTION]
                                        + ([chosen_proc] if chosen_proc in cl.procedures_for("all-pairs", mean_ranks=False) else [])))
            bar = st.progress(0.0, text="Simulating tables…")
            ks = list(range(3, fw_kmax + 1))
            parts, partial = [], []
            for i, k in enumerate(ks):
                done = i / len(ks)
                null = ui.call(cl.familywise_error, k, fw_n, procedures=procs, alpha=alpha, test=fw_test, reps=fw_reps, seed=0)
                alt = ui.call(cl.familywise_error, k, fw_n, procedures=procs, alpha=alpha, test=fw_test, reps=fw_reps, seed=1,
                              better=min(fw_better, k - 1), shift=fw_shift)
                if null is None or alt is None:
                    break
                parts.append(null.assign(k=k))
                partial.append(alt.assign(k=k))
                bar.progress(done + 1 / len(ks), text=f"Simulating tables… k = {k}")
            bar.empty()
            if len(parts) == len(ks):
                ran = (pd.concat(parts, ignore_index=True), pd.concat(partial, ignore_index=True), fw_n, fw_reps)
        kept = ui.remembered_run("fwer_demo", fwer_config, ran, flag="fw_ran", what="the multiple-comparisons simulation",
                                 button="Run the simulation",
                                 stale="The results below are from an earlier run with other settings (here or on the "
                                       "Post-hoc page); press Run to update.")
        if kept is not None:
            null, alt, fw_n_shown, fw_reps_shown = kept
            last = null[null["k"] == null["k"].max()].set_index("procedure")
            st.markdown(esc(f"With k = {int(null['k'].max())} equal classifiers on N = {fw_n_shown} data sets, "
                            f"{last.loc[cl.UNCORRECTED, 'fwer']:.0%} of the simulated tables had at least one \"significant\" "
                            f"pair without a correction ({last.loc[cl.UNCORRECTED, 'analytic']:.0%} for independent tests); "
                            f"with Holm, {last.loc[cl.DEFAULT_CORRECTION, 'fwer']:.0%}."))
            st.plotly_chart(cl.plots.familywise_figure(null, alpha=alpha), width="stretch", key="fwer_fig", config=ui.CHART_CONFIG)
            st.markdown("With some classifiers truly better (a partial null), the corrections keep the false verdicts rare "
                        "and differ in how many true differences they find:")
            st.plotly_chart(cl.plots.familywise_figure(alt, alpha=alpha, y="power"), width="stretch", key="fwer_power_fig",
                            config=ui.CHART_CONFIG)
            ui.download_buttons(pd.concat([null.assign(design="all equal"), alt.assign(design="some better")]),
                                "familywise_error", caption="Family-wise error and power by number of classifiers", key="fwer")
            st.caption(f"{fw_reps_shown:,} simulated tables per k (seeded); bars: ± 2 Monte Carlo standard errors.")

        _example("Example 3: seven real classifiers on 54 UCI data sets",
                 "Benavoli et al.'s Table 1: for four pairs the verdict depends on which other classifiers are included. "
                 "Load their table and open **All pairs** to see the same counts.",
                 "demo3", "benavoli2016", ["C1", "C2", "C3", "C4"], ("C1", "C2"), tab=TABS[2],
                 hint="The All pairs tab below counts, for every pair, the pools in which its verdict changes.")
