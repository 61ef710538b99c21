"""Pool sensitivity: how the mean-ranks verdict on a pair changes with the other classifiers in the pool."""

from __future__ import annotations

import streamlit as st

import compare_lib as cl
import ui

st.title("Pool sensitivity")
table = ui.active_table()
alpha = ui.alpha()
version = st.session_state.get("table_version", 0)  # widgets listing classifiers restart with a new table
st.caption(ui.table_caption(table))
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
c1, c2 = st.columns([2, 1])
procedure = PROCEDURES[
    c1.radio("Correction for the pool's m(m−1)/2 comparisons", list(PROCEDURES), horizontal=True, key="w_pool_proc")
]
require_friedman = c2.checkbox(
    "Friedman must reject first", value=False, key="w_pool_friedman",
    help="Count a pool's verdict as significant only if that pool's Friedman test rejects at α.",
)

tab_explore, tab_pair, tab_matrix, tab_demo = st.tabs(
    ["Subset explorer", "One pair in every pool", "All pairs", "Teaching demos"]
)

# -- subset explorer ------------------------------------------------------------------------------
with tab_explore:
    stored = [c for c in st.session_state.get("pool_members", table.classifiers) if c in table.classifiers]
    members = st.multiselect(
        "Classifiers in the pool (add or remove and watch the verdicts)", table.classifiers,
        default=stored if len(stored) >= 2 else table.classifiers, key=f"w_pool_members_{version}",
    )
    if len(members) < 2:
        st.error("Keep at least 2 classifiers in the pool.")
    else:
        st.session_state["pool_members"] = members
        pool_table = table.subset(members)
        ver = ui.call(ui.pool_verdicts, table.scores, table.higher_is_better, tuple(members), alpha,
                      "nemenyi" if procedure == "nemenyi" else "bonferroni")
        fr = ui.call(ui.omnibus, pool_table.scores, pool_table.higher_is_better, False)
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
            st.markdown(
                f"**Verdicts that differ from the full pool of {table.n_classifiers}:** mean ranks {n_mr}, "
                f"Wilcoxon {n_w}, sign test {n_s} of {len(ver)} pairs."
                + (" The Wilcoxon and sign p-values never change; their verdicts move only because fewer pairs "
                   "are corrected for." if (n_w or n_s) else "")
            )
            labels = {
                "z_mean_ranks": "z (this pool)", "z_mean_ranks_full": "z (full pool)",
                "reject_mean_ranks": "mean ranks: significant", "reject_mean_ranks_full": "… in the full pool",
                "p_wilcoxon": "Wilcoxon p", "reject_wilcoxon": "Wilcoxon: significant",
                "p_sign": "sign test p", "reject_sign": "sign test: significant",
            }
            shown = ver[["a", "b", *labels]].rename(columns=labels)
            changed = ver[["changed_mean_ranks", "changed_wilcoxon", "changed_sign"]]

            def _highlight(frame):
                styles = frame.copy().astype(str).map(lambda _: "")
                for col, flag in (("mean ranks: significant", "changed_mean_ranks"),
                                  ("Wilcoxon: significant", "changed_wilcoxon"),
                                  ("sign test: significant", "changed_sign")):
                    styles[col] = ["background-color: rgba(228, 87, 86, 0.35)" if c else "" for c in changed[flag]]
                return styles

            st.dataframe(shown.style.apply(_highlight, axis=None).format(precision=4), width="stretch", hide_index=True)
            st.caption("Highlighted: the verdict differs from the one in the full pool.")
        res = ui.call(ui.posthoc, pool_table.scores, pool_table.higher_is_better, "mean-ranks",
                      "holm" if procedure == "holm" else procedure, None, alpha)
        if res is not None:
            st.plotly_chart(cl.plots.cd_diagram(res), width="stretch", key="pool_cd")

# -- one pair ------------------------------------------------------------------------------------------
with tab_pair:
    names = table.classifiers
    p1, p2 = st.columns(2)
    a = p1.selectbox("Classifier A", names, index=0, key=f"w_pool_a_{version}")
    b = p2.selectbox("Classifier B", [n for n in names if n != a], index=0, key=f"w_pool_b_{version}")
    if table.n_classifiers <= cl.pool.MAX_ENUMERATED_POOL_K and (procedure != "holm" or table.n_classifiers <= cl.pool.MAX_HOLM_POOL_K):
        frame = ui.call(ui.pool_sensitivity, table.scores, table.higher_is_better, a, b, alpha, procedure, require_friedman)
        if frame is not None:
            st.plotly_chart(cl.plots.pool_z_figure(frame), width="stretch", key="pool_z")
            full = bool(frame["reject"].iloc[-1])
            share = frame["reject"].mean()
            st.markdown(
                f"In the full pool {a} vs {b} is **{'significant' if full else 'not significant'}**; "
                f"{share:.0%} of the {len(frame):,} pools containing both call it significant."
            )
            current = st.session_state.get("pool_members", names)
            if a in current and b in current:
                flips = cl.smallest_flip(frame, current)
                verdict = "significant" if frame[frame["pool"].map(set) == set(current)]["reject"].iloc[0] else "not significant"
                if flips.empty:
                    st.success(f"No pool changes the verdict on {a} vs {b}: it is {verdict} in all of them.")
                else:
                    lines = []
                    for row in flips.head(5).itertuples():
                        parts = []
                        if row.removed:
                            parts.append("remove " + ", ".join(row.removed))
                        if row.added:
                            parts.append("add " + ", ".join(row.added))
                        change = " and ".join(parts)
                        lines.append(f"- {change[0].upper()}{change[1:]}")
                    st.markdown(
                        f"From the explorer's pool ({verdict} there), the smallest changes that flip the verdict "
                        f"({int(flips['changes'].iloc[0])} classifier(s)):\n" + "\n".join(lines)
                    )
            else:
                st.info("Put both classifiers in the explorer's pool to see the smallest change that flips the verdict.")
    else:
        st.info(f"With {table.n_classifiers} classifiers the pools are counted, not listed.")
    counts = ui.call(ui.pool_counts, table.scores, table.higher_is_better, a, b, alpha,
                     "bonferroni" if procedure == "holm" and table.n_classifiers > cl.pool.MAX_HOLM_POOL_K else procedure)
    if counts is not None:
        st.plotly_chart(cl.plots.pool_counts_figure(counts, a, b), width="stretch", key="pool_counts")

# -- all pairs --------------------------------------------------------------------------------------
with tab_matrix:
    if procedure == "holm":
        st.info("The matrix is counted exactly for Bonferroni and Nemenyi; showing Bonferroni.")
    matrix_proc = "bonferroni" if procedure == "holm" else procedure
    bar = st.progress(0.0, text="Counting the pools of every pair…") if table.n_classifiers > 20 else None
    matrix = ui.call(ui.pool_matrix, table.scores, table.higher_is_better, alpha, matrix_proc)
    if bar is not None:
        bar.empty()
    if matrix is not None:
        st.plotly_chart(cl.plots.sensitivity_heatmap(matrix), width="stretch", key="pool_matrix")
        dep = ui.call(ui.pool_dependence, table.scores, table.higher_is_better, alpha, matrix_proc)
        if dep is not None and len(dep):
            st.markdown("**Pairs whose verdict depends on the pool** (significant pools / pools, by number of other "
                        "classifiers; '-' = every pool of that size agrees):")
            st.dataframe(dep, width="stretch", hide_index=True)
            ui.download_buttons(dep, "pool_dependence", caption="Pairs whose mean-ranks verdict depends on the pool",
                                key="dep")
        elif dep is not None:
            st.success("No pair's mean-ranks verdict depends on the pool for this table.")

# -- teaching demos ---------------------------------------------------------------------------------
with tab_demo:
    st.markdown("#### Example 1: A and B tie, yet C, D and E make them 'different'")
    st.markdown(
        "A and B each win 10 of 20 data sets: every two-sample test gives p = 1. Add C, D and E and the "
        "mean-ranks test with Bonferroni calls A and B significantly different (Benavoli et al., §4.1)."
    )
    if st.button("Load Example 1", key="demo1"):
        ui.load_sample_by_id("benavoli2016-example1")
        st.session_state["pool_members"] = ["A", "B", "C", "D", "E"]
        st.rerun()
    st.markdown("#### Example 2: the pool can hide a real difference")
    st.markdown(
        "A ~ N(0, 1) and B ~ N(1.5, 1) on 20 data sets: the sign test finds the difference 94% of the time. Add "
        "C, D, E ~ N(5, 1), N(6, 1), N(7, 1), always better than both, and the mean-ranks test finds it about 5% "
        "of the time: the ranks of A and B do not change, but the variance the test assumes grows with the pool."
    )
    with st.form("demo2"):
        d1, d2, d3 = st.columns(3)
        mean_b = d1.number_input("Mean of B", value=1.5, step=0.1)
        n_sets = d2.number_input("Data sets", min_value=5, max_value=500, value=20, step=1)
        reps = d3.number_input("Repetitions", min_value=100, max_value=100000, value=2000, step=100)
        others = st.text_input("Means of the other algorithms", value="5, 6, 7")
        seed = st.number_input("Seed", min_value=0, value=0, step=1)
        run = st.form_submit_button("Run the simulation")
    if run:
        try:
            extra = [float(x) for x in others.replace(";", ",").split(",") if x.strip()]
        except ValueError:
            st.error(f"Could not read the means {others!r}: give numbers separated by commas, e.g. 5, 6, 7.")
        else:
            progress = st.progress(0.0, text="Simulating…")
            sim = ui.call(cl.pool_power_simulation, (0.0, float(mean_b), *extra), n=int(n_sets), reps=int(reps),
                          alpha=alpha, seed=int(seed), progress=lambda f: progress.progress(f, text=f"Simulating… {f:.0%}"))
            progress.empty()
            if sim is not None:
                st.session_state["demo2_result"] = sim
    if "demo2_result" in st.session_state:
        sim = st.session_state["demo2_result"]
        paper = {"sign test": 0.94, "mean-ranks z": 0.046} if sim.attrs["means"] == (0.0, 1.5, 5.0, 6.0, 7.0) and sim.attrs["n"] == 20 else None
        st.plotly_chart(cl.plots.power_figure(sim, paper), width="stretch", key="demo2_fig")
        st.dataframe(sim, hide_index=True, width="stretch")
    st.markdown("#### Example 3: seven real classifiers on 54 UCI data sets")
    st.markdown(
        "Benavoli et al.'s Table 1: for four pairs the verdict depends on which other classifiers are included. "
        "Load their table and open **All pairs** to see the same counts."
    )
    if st.button("Load Example 3", key="demo3"):
        ui.load_sample_by_id("benavoli2016")
        st.session_state["pool_members"] = ["C1", "C2", "C3", "C4"]
        st.rerun()
