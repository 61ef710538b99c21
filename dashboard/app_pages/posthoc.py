"""Post-hoc tests: CD diagram, adjusted p-values of every procedure, disagreements, exports, sharing."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

st.title("Post-hoc tests")
table = state.active_table()
token = state.active_token()
alpha = state.alpha()
ui.caption(table)
ss = st.session_state

FAMILIES = {"All pairs": "all-pairs", "Versus a control": "control"}
# The statistics that look at the two classifiers only come first (Benavoli et al. 2016 recommend them); a table
# with holes offers those that compare each pair on the data sets both classifiers have.
TESTS = {spec.choice: name for name, spec in sorted(cl.PAIRWISE_TESTS.items(), key=lambda kv: kv[1].pool_dependent)
         if spec.handles_missing or not table.has_missing}
TEST_HELP = "The statistic compared for each pair. " + " ".join(
    f"{spec.choice}: {'only the two classifiers' if not spec.pool_dependent else 'ranks among the whole pool'}."
    for spec in cl.PAIRWISE_TESTS.values()
) + " Benavoli et al. (2016) recommend the tests that look at the two classifiers only."
DEFAULT_TEST = cl.RECOMMENDED_TEST


def _remembered(key: str, options: list[str], default: str) -> int:
    """Index of the value remembered under ``ph_<key>`` (from this session or a shared link)."""
    value = ss.get(f"ph_{key}", default)
    if value in options:
        return options.index(value)
    st.warning(esc(f"The {key} {links.shown(value)} is not available here; using {default!r}."))
    ss[f"ph_{key}"] = default
    return options.index(default)


# -- choices -------------------------------------------------------------------------------------------
c1, c2, c3 = st.columns([1.1, 1.2, 1.2])
family_codes = list(FAMILIES.values())
family = family_codes[
    c1.radio(
        "Compare", range(len(FAMILIES)), format_func=lambda i: list(FAMILIES)[i],
        index=_remembered("family", family_codes, "all-pairs"), key="w_ph_family",
    )
]
ss["ph_family"] = family

control = None
if family == "control":
    stored = ss.get("ph_control")
    if stored is not None and stored not in set(table.classifiers):
        st.error(
            f"The control {esc(repr(stored))} is not among the classifiers being compared (it was deselected or is not "
            "in this table). Pick a control from the list, or add it back on the Load data page."
        )
        stored = None
    best = str(table.mean_ranks.idxmin())  # opens on the best classifier by mean rank; usually your proposed method
    control = c1.selectbox(
        "Control classifier", table.classifiers,
        index=table.classifiers.index(stored or best), key="w_ph_control",
        help="Usually the method you propose: each other classifier is compared with it (k − 1 hypotheses). It opens "
             "on the classifier with the best mean rank.",
    )
    ss["ph_control"] = control

test_codes = list(TESTS.values())
test = test_codes[
    c2.radio(
        "Pairwise statistic", range(len(TESTS)), format_func=lambda i: list(TESTS)[i],
        index=_remembered("test", test_codes, DEFAULT_TEST), key="w_ph_test", help=TEST_HELP,
    )
]
ss["ph_test"] = test

spec = cl.PAIRWISE_TESTS[test]
n_hypotheses = table.n_classifiers - 1 if family == "control" else table.n_classifiers * (table.n_classifiers - 1) // 2
# One rule, asked of every procedure: available for this family and statistic, within its limits (and the app's).
reasons = {p: cl.PROCEDURES[p].unavailable(k=table.n_classifiers, m=n_hypotheses,
                                          exhaustive_max_k=cl.limits.APP_MAX_BERGMANN_HOMMEL_K)
           for p in cl.procedures_for(family, mean_ranks=spec.mean_ranks, include_uncorrected=True)}
allowed = sorted((p for p, reason in reasons.items() if reason is None),
                 key=lambda p: not cl.PROCEDURES[p].corrects)  # the uncorrected teaching choice last
for left_out in sorted({reason for reason in reasons.values() if reason}):
    c3.caption(esc(left_out))
default_proc = cl.PROCEDURES[cl.DEFAULT_CORRECTION].name
stored_proc = ss.get("ph_correction", default_proc)
if stored_proc not in allowed:
    if "ph_correction" in ss:
        label = cl.PROCEDURES[stored_proc].label if stored_proc in cl.PROCEDURES else repr(stored_proc)
        st.info(esc(f"{label} is not available for this choice; using {cl.PROCEDURES[default_proc].label}."))
    stored_proc = default_proc
procedure = c3.selectbox(
    "Procedure", allowed, index=allowed.index(stored_proc), format_func=lambda p: cl.PROCEDURES[p].label,
    key="w_ph_correction", help="How the family-wise error is controlled. The table below shows every procedure.",
)
ss["ph_correction"] = procedure
if not cl.PROCEDURES[procedure].corrects:
    st.warning(f"**No correction for multiple comparisons.** Each of the {n_hypotheses} pairs is tested at α = {alpha:g} "
               "on its own, so the chance of at least one false \"significant\" pair is much larger than α (Pool "
               "sensitivity → Teaching demos → Multiple comparisons shows how much). Use it to teach, not to report.")
c3.caption(cl.PROCEDURES[procedure].description + f" ${cl.PROCEDURES[procedure].formula}$")
EFFECTS = {code: label[0].upper() + label[1:] for code, (_, _, label) in cl.effect_size_measures().items()}
effect_codes = list(EFFECTS)
effect = effect_codes[
    c3.selectbox(
        "Effect size shown", range(len(EFFECTS)), format_func=lambda i: list(EFFECTS.values())[i],
        index=_remembered("effect", effect_codes, "hodges_lehmann"), key="w_ph_effect",
        help="Shown beside the p-values, when you tap or hover a name on the CD diagram, and in the paragraph: by how "
             "much the first "
             "classifier of a pair beats the second (positive), with a 95% interval. The Bayesian analysis page "
             "has all of them.",
    )
]
ss["ph_effect"] = effect


c2.caption(esc(spec.description) + f" ({esc(spec.reference)})")
if spec.pool_dependent:
    st.warning(
        f"**The {esc(cl.posthoc_labels[test])} verdict on a pair depends on which other classifiers are in the pool** "
        "(Benavoli, Corani & Mangili 2016): adding or removing a third classifier can make A vs B significant or "
        "not, with the scores of A and B unchanged. The Wilcoxon and sign tests do not have this problem."
    )
    st.page_link("app_pages/pool.py", label="See it on this table: pool sensitivity →")
advice = spec.advice(table) if spec.advice else None
if advice:
    st.caption(esc(advice))

# -- omnibus reminder ---------------------------------------------------------------------------------
omnibus, skillings_mack = None, None
if table.has_missing:
    st.caption("The table keeps missing cells: each pair is compared on the data sets both classifiers have (column "
               "n_datasets); the statistics of the ranks among all classifiers need a complete table and are not offered.")
    skillings_mack = ui.call(ui.skillings_mack, token, table)
    if skillings_mack is not None and not skillings_mack.pvalue <= alpha:
        st.info(f"The Skillings-Mack test does not reject equality at α = {alpha:g} (p = "
                f"{cl.report.format_p(skillings_mack.pvalue)}); read the results below with care.")
else:
    omnibus = ui.call(ui.omnibus, token, table, False)
exact = fr = ff = None
if omnibus is not None:
    fr, ff, _, exact = omnibus
    omnibus_p, which = (exact.pvalue, "exact Friedman") if exact is not None else (ff.pvalue, "Iman-Davenport")
    if not omnibus_p <= alpha:
        st.info(
            f"The {which} test does not reject equality at α = {alpha:g} (p = {cl.report.format_p(omnibus_p)}); "
            "Demšar (2006) proceeds to post-hoc tests only after it does, so read the results below with care."
        )

result = ui.call(ui.posthoc_effects, token, table, test, procedure, control, alpha, effect)
if result is None:
    st.stop()
n_rej = int(result["reject"].sum())
st.markdown(
    f"**{n_rej} of {len(result)} hypotheses rejected** at α = {alpha:g} by {cl.PROCEDURES[procedure].label} on the "
    f"{cl.posthoc_labels[test]}."
)

if result.attrs.get("approximate_pairs") and spec.approximate_note:
    st.info(spec.approximate_note.format(count=result.attrs["approximate_pairs"]))
elif spec.exact_note:
    st.caption(spec.exact_note)

VIEWS = ["CD diagram", "How sure is the ranking?", "Adjusted p-values", "Where procedures disagree", "Wins / ties / losses",
         "Report"]
# One view at a time (tabs would compute and draw all five on every click).
view = st.segmented_control("Show", VIEWS, default=VIEWS[0] if ss.get("ph_view") not in VIEWS else ss["ph_view"],
                            key="w_ph_view") or VIEWS[0]
ss["ph_view"] = view
link = links.link_info()  # app.py writes the view into the URL after the page ran

if view == "CD diagram":
    if table.n_classifiers > ui.MAX_CD_K:
        st.info(f"A CD diagram of {table.n_classifiers} classifiers cannot be read; it is drawn for up to "
                f"{ui.MAX_CD_K}. The adjusted p-values are in the next tab.")
    else:
        # Built once per view for all sessions (ui.cached_figure): everything the result depends on is in the key.
        view_key = (token, test, procedure, control, alpha, effect)
        fig = ui.cached_figure(("cd", *view_key), lambda: cl.plots.cd_diagram(result))
        ui.wide_chart(fig, "cd_diagram", config=ui.CHART_CONFIG,
                      narrow=ui.cached_figure(("cd_vertical", *view_key),
                                              lambda: cl.plots.cd_diagram(result, orientation="vertical")))
        # What the diagram shows, from the library (issue 28: it names each pair not rejected that no bar joins).
        if family == "all-pairs":
            st.caption("Mean ranks with the best on the right (on a narrow screen, at the top). "
                       + esc(cl.plots.cd_caption(result))
                       + " Tap or hover a bar for the largest adjusted p-value inside it, a name for its mean rank.")
        else:
            st.caption("Demšar's Figure 1b: the control is orange, the classifiers found different from it red. "
                       + esc(cl.plots.cd_caption(result))
                       + ("" if result.attrs["cd"] else " Only Bonferroni-Dunn has a single critical difference to draw."))
        ui.figure_downloads(fig, "cd_diagram", key="cd", svg=lambda: cl.plots.cd_svg(result),
                            png=lambda: cl.plots.cd_png(result))
    with st.expander("How to read a CD diagram"):
        st.markdown(
            "Each classifier hangs from its mean rank over the data sets (1 = best, on the right; at the top on a narrow "
            "screen). With Nemenyi, "
            "two classifiers differ when their mean ranks are at least one CD apart, "
            r"$CD = q_\alpha\sqrt{k(k+1)/(6N)}$ (Demšar 2006, §3.2.2). For the other procedures there is no single "
            "CD; the bars come straight from the procedure's decisions: each bar joins every classifier whose mean "
            "rank lies in its span, with no rejected pair among them. A classifier can belong to two bars: the data "
            "do not tell which group it belongs to. Classifiers with equal mean ranks are joined or left out together. "
            "So two classifiers may be not significantly different and yet share no bar (a rejected pair lies between "
            "them): a thin dashed line joins such a pair, and the caption under the diagram names it."
        )

elif view == "How sure is the ranking?":
    st.markdown(
        "A mean-rank order is not a ranking: two classifiers whose pair the procedure cannot tell apart may hold "
        "each other's places. Each bar spans the ranks a classifier **can** hold, for all classifiers at once at "
        f"{1 - alpha:.0%} confidence: from 1 + the number of classifiers significantly better to k − the number "
        "significantly worse, under the test and procedure chosen above (Mogstad, Romano, Shaikh & Wilhelm, 2024). "
        "Whether that confidence holds depends on the test: see the note under the table."
    )
    if family == "control":
        st.info("Rank sets and letters need every pair compared: choose **All pairs** above.")
    else:
        # Projected from the decisions this page already has (no second post-hoc run).
        sets = ui.call(cl.rank_sets_from_posthoc, result)
        if sets is not None:
            st.markdown(f"**{esc(cl.winners_sentence(sets))}**")
            letters = ui.call(cl.letters, result)
            shown = sets.sort_values("mean_rank", kind="stable")
            display = pd.DataFrame({
                "classifier": shown.index, "mean rank": shown["mean_rank"].round(3),
                "rank set": cl.rank_set_labels(shown),
                "significantly better than": shown["better_than"], "significantly worse than": shown["worse_than"],
                "letters": [(letters or {}).get(n, "") for n in shown.index],
            })
            if table.n_classifiers <= ui.MAX_CD_K:
                st.plotly_chart(ui.cached_figure(("rank_sets", token, test, procedure, control, alpha, effect),
                                                 lambda: cl.plots.rank_sets_figure(sets)),
                                width="stretch", key="rank_sets_chart", config=ui.CHART_CONFIG)
            st.dataframe(display, hide_index=True, width="stretch", column_config={
                "rank set": st.column_config.TextColumn(help="The ranks this classifier can hold (1 = best), "
                                                        "simultaneously for all classifiers."),
                "letters": st.column_config.TextColumn(help="Classifiers that share a letter were not found different "
                                                       "by the procedure (compact letter display, Piepho 2004)."),
            })
            ui.download_buttons(display, "rank_sets", caption=f"Simultaneous {1 - alpha:.0%} rank sets and letters "
                                f"({cl.posthoc_labels[test]}, {cl.PROCEDURES[procedure].label})", key="ranksets")
            # When the guarantee holds, as measured (issue 28): the library's words; a warning where it does not.
            (st.warning if sets.attrs.get("guaranteed") is False else st.caption)(esc(sets.attrs["guarantee"]))
            boot_on = st.toggle("Show marginal bootstrap intervals of the expected rank instead",
                                value=bool(ss.get("ph_boot", False)), key="w_ph_boot")
            ss["ph_boot"] = boot_on
            if boot_on:
                boot = ui.call(ui.bootstrap_ranks, token, table, alpha)
                if boot is not None:
                    st.plotly_chart(ui.cached_figure(("rank_boot", token, alpha), lambda: cl.plots.rank_sets_figure(boot)),
                                    width="stretch", key="rank_boot_chart", config=ui.CHART_CONFIG)
                    st.caption(f"Intervals of each classifier's expected rank ({esc(boot.attrs['interval'])}) from "
                               f"{boot.attrs['n_boot']:,} resamplings of the data sets (seed {boot.attrs['seed']}). "
                               + esc(boot.attrs["guarantee"]))

elif view == "Adjusted p-values":
    apvs = ui.call(ui.apv_effects, token, table, test, control, effect)
    if apvs is not None:
        shown = cl.report.label_effects(apvs)
        decided_by = procedure if procedure in apvs.columns else "p"  # uncorrected: the raw p decides
        shown.insert(4, f"reject ({cl.PROCEDURES[procedure].label})", shown[decided_by] <= alpha)
        procs = [c for c in apvs.columns if c in cl.PROCEDURES]
        shown = cl.report.with_p_text(shown, ["p", *procs])
        shown = shown.rename(columns={name: f"APV {p.label}" for name, p in cl.PROCEDURES.items()})
        st.caption(
            "Hypotheses ordered by p (García & Herrera's Table 5). Each procedure's column holds its adjusted "
            f"p-values (APVs); a hypothesis is rejected when its APV ≤ α = {alpha:g}. Bergmann-Hommel appears twice: "
            "made monotone as in García & Herrera's table, and as defined by closed testing (APV ≤ α is then exactly "
            "its decision)."
        )
        if apvs.attrs.get("effect_note"):
            st.info(esc(apvs.attrs["effect_note"]))
        st.dataframe(shown, width="stretch", hide_index=True)
        export = cl.report.label_effects(apvs).rename(columns={name: f"APV {p.label}" for name, p in cl.PROCEDURES.items()})
        # The paper's table: the chosen procedure only (the CSV keeps every procedure's column).
        chosen = [c for c in cl.report.label_effects(apvs).columns if c not in cl.PROCEDURES or c == procedure]
        paper = cl.report.label_effects(apvs)[chosen].rename(columns={procedure: f"APV {cl.PROCEDURES[procedure].label}"})
        paper.attrs["p_columns"] = ("p", f"APV {cl.PROCEDURES[procedure].label}")
        ui.download_buttons(export, "adjusted_p_values", caption=f"Adjusted p-values ({cl.posthoc_labels[test]}, "
                            f"{cl.PROCEDURES[procedure].label})", key="apv", latex_frame=paper)
        st.caption(f"The CSV has every procedure's column; the LaTeX table only {cl.PROCEDURES[procedure].label}'s, the "
                   "procedure chosen above.")
        if apvs.attrs.get("skipped"):
            st.caption(f"Bergmann-Hommel is left out with {table.n_classifiers} classifiers (too slow); see Shaffer.")
    if table.n_classifiers <= ui.MAX_MATRIX_K:
        st.plotly_chart(ui.cached_figure(("apv_heatmap", token, test, procedure, control, alpha, effect),
                                         lambda: cl.plots.apv_heatmap(result)),
                        width="stretch", key="apv_heatmap", config=ui.CHART_CONFIG)

elif view == "Where procedures disagree":
    ver = ui.call(ui.verdicts, token, table, alpha, control)
    if ver is not None:
        n_dis = int((~ver["agree"]).sum())
        st.markdown(
            f"**{n_dis} of {len(ver)} pairs get different verdicts** from the procedures below. A cell names the "
            "better classifier where the pair is rejected and is empty where it is not."
        )
        st.dataframe(ver.head(5000), width="stretch", hide_index=True, column_config=ui.plain_columns(ver))
        if len(ver) > 5000:
            st.caption(f"The first 5,000 of {len(ver):,} pairs (disagreements first); the download has all of them.")
        for skipped in ver.attrs.get("skipped", []):
            st.caption(f"{skipped} is left out: too many classifiers to enumerate its exhaustive sets.")
        reasons: dict[str, list[str]] = {}
        for method, reason in ver.attrs.get("undefined", {}).items():
            reasons.setdefault(reason, []).append(method)
        for reason, methods in reasons.items():  # one caption per reason, however many methods share it
            st.caption(esc(f"{', '.join(methods)}: left out. {ui.words(reason)}"))
        ui.download_buttons(ver, "verdicts", caption="Verdicts of several post-hoc procedures", key="verdicts")

elif view == "Wins / ties / losses":
    if table.n_classifiers <= ui.MAX_MATRIX_K:
        st.plotly_chart(ui.cached_figure(("wtl", token), lambda: cl.plots.win_tie_loss_figure(table)), width="stretch",
                        key="wtl_posthoc", config=ui.CHART_CONFIG)
    else:
        st.info(f"The wins/ties/losses matrix is drawn for up to {ui.MAX_MATRIX_K} classifiers.")
        ui.download_buttons(table.win_tie_loss_frame(), "wins_ties_losses", caption="Wins, ties and losses", key="wtl")

else:
    if omnibus is not None or skillings_mack is not None:
        paragraph = cl.report.results_paragraph(table, result, fr, ff, exact=exact, skillings_mack=skillings_mack)
        st.markdown("A paragraph for your paper:")
        st.code(paragraph, language=None, wrap_lines=True)
        st.download_button("⬇ Paragraph (.txt)", paragraph.encode("utf-8"), file_name="results.txt", mime="text/plain",
                           key="dl_paragraph", on_click="ignore")
        data_text = cl.report.data_sentence(table).strip().removeprefix("Data: ")
        if data_text:  # issue 28: kept out of the paragraph, said here for the data section of the paper
            st.caption("Not in the paragraph, for your paper's data section: " + esc(data_text))
    st.markdown("**The whole analysis of this view** (the choices above, α and the classifiers and data sets kept):")
    ui.report_downloads(table, alpha=alpha, test=test, correction=procedure, control=control, effect=effect)
    if link.get("pending"):
        where = ("The address still holds the link you opened, which awaits its table (see above): it becomes this "
                 "view's link once that table is loaded.")
    elif link["carries_data"]:
        where = "It carries your table itself (compressed): whoever has the link has the data."
    elif link["fingerprint_only"]:
        where = ("Your table is too large to travel in a link: the link records its fingerprint, and whoever opens it "
                 "is asked to load the same file first.")
    else:
        where = "It names the sample."
    st.markdown("**This view as a link:** copy the address bar. It records the classifiers and data sets kept, α and "
                "the choices above. " + where)
