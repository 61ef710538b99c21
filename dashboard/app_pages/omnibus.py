"""Omnibus tests: Friedman, Iman-Davenport, the exact permutation p where it exists, and RM-ANOVA."""

from __future__ import annotations

import streamlit as st

import compare_lib as cl
import state
import ui

st.title("Omnibus tests")
table = state.active_table()
alpha = state.alpha()
ui.caption(table)

if table.has_missing:
    # Friedman needs every classifier on every data set; Skillings-Mack is Friedman's test for holes.
    sm = ui.call(ui.skillings_mack, state.active_token(), table)
    if sm is None:
        st.stop()
    st.metric(f"Skillings-Mack $SM$ ({sm.df} df)", f"{sm.statistic:.3f}", f"p = {cl.report.format_p(sm.pvalue)}",
              delta_color="off", delta_arrow="off", border=True,
              help="Skillings & Mack (1981): ranks within each data set among the classifiers it has, weighted by "
                   "how many it has; equal to Friedman's statistic when nothing is missing.")
    st.markdown(cl.report.skillings_mack_verdict(sm, alpha))
    for note in sm.notes:  # they name data sets and classifiers of the user's file
        st.info(ui.esc(note))
    st.info("The table keeps missing cells (Load data: 'keep the holes'), so Friedman, Iman-Davenport, the "
            "repeated-measures ANOVA and the other rank tests, which need every classifier on every data set, are "
            "not shown. Choose a policy that drops the incomplete data sets or classifiers to see them.")
    st.markdown("**For your paper**")
    st.code(cl.report.skillings_mack_sentence(sm), language=None, wrap_lines=True)
    st.stop()
tie_correction = st.toggle(
    "Correct the Friedman statistic for ties",
    value=bool(st.session_state.get("om_tie", False)),
    key="w_tie_correction",
    help="Off: exactly Demšar's formula (his worked numbers). On: divided by 1 − Σ(t³ − t)/(N k (k² − 1)), "
    "as scipy and R's friedman.test compute it. The exact p-value is the same either way.",
)
st.session_state["om_tie"] = tie_correction
results = ui.call(ui.omnibus, state.active_token(), table, tie_correction)
if results is None:
    st.stop()
fr, ff, an, exact = results


def _stat(value: float) -> str:
    return "undefined" if value != value else "∞" if value == float("inf") else f"{value:.3f}"


cards = st.columns(4 if exact is not None else 3)
cards[0].metric(f"Friedman $\\chi^2_F$ ({fr.df} df)", _stat(fr.statistic), f"p = {cl.report.format_p(fr.pvalue)}",
                delta_color="off", delta_arrow="off", border=True)
ff_p = cl.report.format_p(ff.pvalue) + (" (exact)" if ff.method == "exact" else "")
cards[1].metric(f"Iman-Davenport $F_F$ ({ff.df1}, {ff.df2} df)", _stat(ff.statistic), f"p = {ff_p}",
                delta_color="off", delta_arrow="off", border=True)
if exact is not None:
    cards[2].metric("Exact p (permutation)", cl.report.format_p(exact.pvalue), "of χ² and F, no approximation",
                    delta_color="off", delta_arrow="off", border=True,
                    help="The probability, when all classifiers are equivalent, of a Friedman statistic at least as "
                         "large, from the exact distribution of the ranks (computed for tables of this size).")
cards[-1].metric(f"RM-ANOVA $F$ ({an.df1}, {an.df2} df)", _stat(an.statistic), f"p = {cl.report.format_p(an.pvalue)}",
                 delta_color="off", delta_arrow="off", border=True)

more = ui.call(ui.omnibus_more, state.active_token(), table)
aligned, quade = more if more is not None else (None, None)
if more is not None:
    cards2 = st.columns(3)
    cards2[0].metric(f"Friedman aligned ranks $T$ ({aligned.df} df)", _stat(aligned.statistic),
                     f"p = {cl.report.format_p(aligned.pvalue)}", delta_color="off", delta_arrow="off", border=True,
                     help="Scores minus each data set's mean, ranked over all data sets together (García et al. 2010).")
    quade_p = cl.report.format_p(quade.pvalue) + (" (exact)" if quade.method == "exact" else "")
    cards2[1].metric(f"Quade $F$ ({quade.df1}, {quade.df2} df)", _stat(quade.statistic), f"p = {quade_p}",
                     delta_color="off", delta_arrow="off", border=True,
                     help="Ranks weighted by how much each data set separates the classifiers (its range).")

st.markdown(cl.report.omnibus_verdict(fr, ff, an, alpha, exact))
for note in fr.notes:
    if exact is None:
        st.warning(note)
    else:
        st.info(note + " Here the exact p-value is available and the verdict above uses it.")
for note in ff.notes + an.notes + (aligned.notes + quade.notes if more is not None else ()):
    st.info(note)

if more is not None:  # both tables made once per table and choice for all sessions
    summary, shown = ui.omnibus_summary(state.active_token(), table, tie_correction, alpha)
else:
    summary = cl.report.omnibus_frame(fr, ff, an, alpha, exact, aligned, quade)
    shown = cl.report.with_p_text(summary, ["p"])
ui.shared_dataframe(shown, width="stretch", hide_index=True)
ui.download_buttons(summary, "omnibus", caption=f"Omnibus tests at alpha = {alpha:g}", key="omnibus")
st.markdown("**For your paper**")
st.code(cl.report.omnibus_sentence(fr, ff, exact), language=None, wrap_lines=True)
if more is not None:
    st.code(cl.report.rank_omnibus_sentence(aligned, quade), language=None, wrap_lines=True)

CHARTS = ["Mean ranks", "Ranks per data set"]
chart = st.segmented_control("Chart", CHARTS, default=ss_chart if (ss_chart := st.session_state.get("om_chart")) in CHARTS
                             else CHARTS[0], key="w_om_chart") or CHARTS[0]
st.session_state["om_chart"] = chart
# Built once per table for all sessions (ui.cached_figure): a visit that changes nothing builds no figure.
if chart == "Mean ranks":
    st.plotly_chart(ui.cached_figure(("mean_ranks", state.active_token()), lambda: cl.plots.mean_ranks_figure(table.mean_ranks)),
                    width="stretch", key="mean_ranks_chart", config=ui.CHART_CONFIG)
else:
    st.plotly_chart(ui.cached_figure(("rank_heatmap", state.active_token()), lambda: cl.plots.rank_heatmap(table)),
                    width="stretch", key="rank_heatmap", config=ui.CHART_CONFIG)

with st.expander("What do these tests do?"):
    # One markdown element, not nine (text and display formulas alternate): every element is a message the server
    # sends on every run, collapsed or not, and at 100 sessions the messages are what a run waits on (issue 31).
    st.markdown("\n\n".join([
        "Every test on this page (Friedman, Iman-Davenport, the aligned ranks, Quade and the repeated-measures ANOVA) "
        "tests the null hypothesis that the classifiers perform equally. The **Friedman test** "
        "ranks the classifiers on each data set (1 = best) and checks whether their mean ranks $R_j$ differ "
        "more than chance allows (Demšar 2006, §3.2.2):",
        ui.display_math(r"\chi^2_F = \frac{12N}{k(k+1)}\left[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\right]"
                        r" \sim \chi^2_{k-1}"),
        "Iman and Davenport showed this is too conservative and proposed",
        ui.display_math(r"F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F} \sim F_{k-1,\,(k-1)(N-1)}"),
        "Both are approximations. For small tables the app also computes the **exact p-value**: the share of "
        "all the ways the data sets could have ranked the classifiers, if they were equivalent, that give a "
        "statistic at least as large. It is the same for $\\chi^2_F$ and $F_F$ (one grows with the other), and "
        "needs no rule of thumb about N and k.",
        "The **Friedman aligned-ranks test** (Hodges & Lehmann 1962; García et al. 2010) first subtracts each "
        "data set's mean score, then ranks all $kN$ residuals together, so a data set where a classifier is far "
        "ahead counts more than one where all are close; it helps most when there are few classifiers. Its "
        "statistic $T$ is compared with $\\chi^2_{k-1}$.",
        "The **Quade test** (Quade 1979; Conover 1999) ranks the classifiers within each data set, as Friedman "
        "does, but weights each data set by the rank $Q_i$ of its range (best minus worst score): data sets that "
        "separate the classifiers more weigh more. It assumes ranges are comparable across data sets.",
        ui.display_math(r"S_{ij} = Q_i\left(r_{ij} - \tfrac{k+1}{2}\right),\quad "
                        r"F = \frac{(N-1)\,B}{A - B} \sim F_{k-1,\,(k-1)(N-1)},\quad A = \sum_{ij} S_{ij}^2,\ "
                        r"B = \tfrac{1}{N}\sum_j S_j^2"),
        "The **repeated-measures ANOVA** compares the mean scores instead of the ranks. It assumes normally "
        "distributed, commensurable scores and sphericity, which results on different data sets rarely "
        "satisfy; Demšar recommends the rank-based tests. The χ² approximation wants N > 10 and k > 5; "
        "below that, prefer F_F or the exact p-value.",
    ]))
