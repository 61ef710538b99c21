"""Report text: formatted p-values, LaTeX, the results paragraph, the verdicts table."""

from __future__ import annotations

import compare_lib as cl


def test_format_p():
    assert cl.report.format_p(0.0258) == "0.026"
    assert cl.report.format_p(4.487e-8) == "4.49e-08"
    assert cl.report.format_p(1.0) == "1.000"
    assert cl.report.format_p(0.0) == "< 1e-300"


def test_omnibus_sentence_matches_the_issue_example(demsar):
    text = cl.report.omnibus_sentence(cl.friedman(demsar), cl.iman_davenport(demsar))
    # Unicode and p-values as journals print them (three significant digits), issue 21.
    assert text == "Friedman's χ²(3) = 9.28, p = 0.0258; Iman–Davenport's F(3, 39) = 3.69, p = 0.0198"


def test_results_paragraph_names_procedure_alpha_and_references(demsar):
    res = cl.posthoc(demsar, "mean-ranks", "holm", control="C4.5", alpha=0.05)
    text = cl.report.results_paragraph(demsar, res, cl.friedman(demsar), cl.iman_davenport(demsar), metric="AUC")
    assert "k = 4 classifiers on N = 14 data sets by their AUC (higher is better)" in text
    assert "Friedman's χ²(3) = 9.28, p = 0.0258" in text
    assert "Holm's procedure (Holm, 1979; García & Herrera, 2008, §3)" in text and "α = 0.05" in text
    assert "against the control C4.5" in text
    # Both significant pairs share their worse classifier: one sentence.
    assert "C4.5+m+cf (adjusted p = 0.0472) and C4.5+m (adjusted p = 0.0472) are significantly better than C4.5." in text
    assert "The remaining comparison was not significant." in text


def test_results_paragraph_without_rejections(demsar):
    res = cl.posthoc(demsar, "sign", "bonferroni", alpha=0.01)
    text = cl.report.results_paragraph(demsar, res, cl.friedman(demsar), cl.iman_davenport(demsar))
    assert "No pair differed significantly." in text and "pairwise sign tests" in text


def test_latex_table(garcia):
    tex = cl.report.to_latex(cl.apv_table(garcia), caption="APVs & more", label="tab:apv")
    assert tex.startswith("% Needs \\usepackage{booktabs}") and "\\toprule" in tex and "\\bottomrule" in tex
    assert "APVs \\& more" in tex and "\\label{tab:apv}" in tex
    # p-values as journals print them: 4.49e-07 is "<0.001", 0.0319 keeps three significant digits.
    assert "bergmann-hommel" in tex and "$<0.001$" in tex and "0.0319" in tex and "cdot" not in tex
    assert tex.count("\\\\") == 11  # header + 10 hypotheses


def test_verdicts_table(garcia):
    ver = cl.verdicts(garcia, 0.05)
    assert len(ver) == 10 and ver["agree"].is_monotonic_increasing  # disagreements first
    bh = ver.set_index(["a", "b"])["mean-ranks z / Bergmann-Hommel"]
    assert (bh != "").sum() == 8
    nem = ver.set_index(["a", "b"])["mean-ranks z / Nemenyi"]
    assert (nem != "").sum() == 4
    control = cl.verdicts(garcia, 0.05, control="C4.5")
    assert len(control) == 4 and "mean-ranks z / Bonferroni-Dunn" in control.columns


def test_results_paragraph_with_effect_sizes_oriented_to_the_better_classifier(demsar):
    res = cl.with_effect_sizes(cl.posthoc(demsar, "mean-ranks", "holm", control="C4.5"), demsar)
    text = cl.report.results_paragraph(demsar, res, cl.friedman(demsar), cl.iman_davenport(demsar), metric="AUC")
    e = cl.effect_sizes(demsar, "C4.5+m+cf", "C4.5")  # the better one first: positive
    assert e.hodges_lehmann > 0
    assert (f"C4.5+m+cf (adjusted p = 0.0472; HL {e.hodges_lehmann:.3g}, 95% CI "
            f"[{e.hodges_lehmann_ci[0]:.3g}, {e.hodges_lehmann_ci[1]:.3g}])") in text
    assert "HL is the Hodges-Lehmann estimate of the median difference" in text
    ps = cl.with_effect_sizes(res, demsar, "prob_superiority")
    text = cl.report.results_paragraph(demsar, ps, cl.friedman(demsar), cl.iman_davenport(demsar))
    assert f"PS {e.prob_superiority:.3g}, 95% CI [{e.prob_superiority_ci[0]:.3g}" in text


def test_label_effects_names_the_columns(demsar):
    res = cl.with_effect_sizes(cl.posthoc(demsar, "wilcoxon", "holm"), demsar, "rank_biserial")
    labelled = cl.report.label_effects(res)
    assert "r_rb (a vs b)" in labelled.columns and "r_rb 95% low" not in labelled.columns  # no interval
    assert "effect" in res.columns  # the input is unchanged


def test_bayes_vs_frequentist_flags_follow_the_decision():
    """Issue 23: the flag and the decision use the same rule (the decision threshold), never the most probable
    region: an undecided pair is never flagged."""
    import pandas as pd

    bayes = pd.DataFrame({"a": ["A", "A", "B"], "b": ["B", "C", "C"], "p_a": [0.05, 0.92, 0.2],
                          "p_rope": [0.6, 0.03, 0.79], "p_b": [0.35, 0.05, 0.01],
                          "decision": ["undecided", "undecided", "undecided"]})
    freq = pd.DataFrame({"a": ["A", "A", "B"], "b": ["B", "C", "C"], "p_adj": [0.01, 0.2, 0.03],
                         "reject": [True, False, True], "better": ["A", "A", "B"]})
    out = cl.report.bayes_vs_frequentist(bayes, freq)
    assert (out["note"] == "").all()  # the most probable region alone flags nothing
    bayes["decision"] = ["equivalent", "a better", "undecided"]
    out = cl.report.bayes_vs_frequentist(bayes, freq)
    assert out["note"].tolist() == ["significant but practically equivalent",
                                    "not significant but practically better (A)", ""]


def test_scores_with_ranks_is_demsars_table_6(demsar):
    """Demšar (2006), Table 6: each cell "score (rank)", tied ranks averaged, then the average ranks (of every data
    set, also when only the first rows are shown). Scores in 6 significant digits: the paper's 1.000 is "1"."""
    t = cl.report.scores_with_ranks(demsar)
    assert t.loc["adult (sample)"].tolist() == ["0.763 (4)", "0.768 (3)", "0.771 (2)", "0.798 (1)"]
    assert t.loc["iris"].tolist() == ["0.936 (1)", "0.931 (2.5)", "0.916 (4)", "0.931 (2.5)"]
    assert t.loc["lung cancer"].tolist() == ["0.583 (2.5)", "0.583 (2.5)", "0.563 (4)", "0.625 (1)"]
    assert t.loc["mushroom"].tolist() == ["1 (2.5)"] * 4
    assert t.loc["average rank"].tolist() == ["3.143", "2.000", "2.893", "1.964"]
    head = cl.report.scores_with_ranks(demsar, max_rows=2)
    assert list(head.index) == ["adult (sample)", "breast cancer", "average rank"]
    assert head.loc["average rank"].tolist() == t.loc["average rank"].tolist()
    assert head.loc["breast cancer"].tolist() == ["0.599 (1)", "0.591 (2)", "0.59 (3)", "0.569 (4)"]
