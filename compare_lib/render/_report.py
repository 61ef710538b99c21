"""Tables and sentences for reports: formatted p-values, LaTeX tables, plain-language verdicts.

Everything the dashboard writes in words is produced here, so a notebook gets the same text.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from compare_lib.core._result import as_frame
from compare_lib.render._paper_tables import p_clause
from compare_lib.render._references import cite

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the statistics are not needed to format them (keeps the import light)
    from compare_lib.stats._omnibus import AnovaResult, FriedmanResult, ImanDavenportResult


def format_p(p: float, digits: int = 3) -> str:
    """A p-value for text: 3 decimals, scientific below 0.001 (never '0.000'); NaN is 'undefined'."""
    if p is None or (isinstance(p, (float, np.floating)) and math.isnan(p)):
        return "undefined"
    if p == 0:
        return "< 1e-300"
    if p < 10 ** (-digits):
        return f"{p:.2e}"
    return f"{p:.{digits}f}"


def omnibus_frame(
    friedman: FriedmanResult, iman_davenport: ImanDavenportResult, anova: AnovaResult | None, alpha: float,
    exact: FriedmanResult | None = None, aligned=None, quade=None,
) -> pd.DataFrame:
    """The omnibus tests side by side: test, statistic, degrees of freedom, p, reject at alpha.

    ``exact`` (a :func:`compare_lib.friedman` result with method "exact") adds the exact permutation
    p-value of the Friedman statistic, which is also the exact p of Iman-Davenport's F_F. ``aligned``
    and ``quade`` (results of :func:`compare_lib.friedman_aligned_ranks` and :func:`compare_lib.quade`)
    add those tests. An undefined test (p NaN) is never marked as rejecting.
    """
    rows = [
        {
            "test": "Friedman" + (" (tie-corrected)" if friedman.tie_correction else ""),
            "symbol": "chi2_F",
            "statistic": friedman.statistic,
            "df": f"{friedman.df}",
            "p": friedman.pvalue,
        },
        {
            "test": "Iman-Davenport",
            "symbol": "F_F",
            "statistic": iman_davenport.statistic,
            "df": f"{iman_davenport.df1}, {iman_davenport.df2}",
            "p": iman_davenport.pvalue,
        },
    ]
    if anova is not None:
        rows.append(
            {
                "test": "Repeated-measures ANOVA",
                "symbol": "F",
                "statistic": anova.statistic,
                "df": f"{anova.df1}, {anova.df2}",
                "p": anova.pvalue,
            }
        )
    if exact is not None and exact.method == "exact":
        rows.insert(2, {
            "test": "Friedman, exact (permutation)",
            "symbol": "chi2_F",
            "statistic": exact.statistic,
            "df": "exact",
            "p": exact.pvalue,
        })
    if aligned is not None:
        rows.append({"test": "Friedman aligned ranks", "symbol": "T", "statistic": aligned.statistic,
                     "df": f"{aligned.df}", "p": aligned.pvalue})
    if quade is not None:
        rows.append({"test": "Quade" + (" (exact)" if quade.method == "exact" else ""), "symbol": "F",
                     "statistic": quade.statistic, "df": f"{quade.df1}, {quade.df2}", "p": quade.pvalue})
    frame = pd.DataFrame(rows)
    frame["reject"] = frame["p"] <= alpha
    return frame


def _stat_text(value: float) -> str:
    return "undefined" if value != value else "∞" if value == float("inf") else f"{value:.2f}"


def omnibus_sentence(friedman: FriedmanResult, iman_davenport: ImanDavenportResult,
                     exact: FriedmanResult | None = None) -> str:
    """"Friedman's χ²(3) = 9.28, p = 0.0258; Iman–Davenport's F(3, 39) = 3.69, p = 0.0200" for a paper (p-values
    as journals print them: three significant digits, "p < 0.001" below), with "; exact permutation
    p = 0.0136" when the exact p-value is given."""
    ff_p = p_clause(iman_davenport.pvalue) + (" (exact)" if iman_davenport.method == "exact" else "")
    text = (
        f"Friedman's χ²({friedman.df}) = {_stat_text(friedman.statistic)}, {p_clause(friedman.pvalue)}"
        f"{' (exact)' if friedman.method == 'exact' else ''}; "
        f"Iman–Davenport's F({iman_davenport.df1}, {iman_davenport.df2}) = {_stat_text(iman_davenport.statistic)}, {ff_p}"
    )
    if exact is not None and exact.method == "exact" and friedman.method != "exact":
        text += f"; exact permutation {p_clause(exact.pvalue)}"
    return text


def rank_omnibus_sentence(aligned, quade) -> str:
    """"Friedman aligned-ranks T(3) = 11.56, p = 0.00906; Quade F(3, 39) = 4.52, p = 0.00818" for a paper
    (García et al. 2010's omnibus tests; results of :func:`compare_lib.friedman_aligned_ranks` and
    :func:`compare_lib.quade`)."""
    quade_p = p_clause(quade.pvalue) + (" (exact)" if quade.method == "exact" else "")
    return (f"Friedman aligned-ranks T({aligned.df}) = {_stat_text(aligned.statistic)}, {p_clause(aligned.pvalue)}; "
            f"Quade F({quade.df1}, {quade.df2}) = {_stat_text(quade.statistic)}, {quade_p}")


def skillings_mack_sentence(result) -> str:
    """"Skillings–Mack SM(3) = 3.07, p = 0.381 (χ² approximation; 14 data sets, 2 missing cells)" for a paper
    (a :func:`compare_lib.skillings_mack` result)."""
    return (f"Skillings–Mack SM({result.df}) = {_stat_text(result.statistic)}, {p_clause(result.pvalue)} "
            f"(χ² approximation; {result.n} data sets, {result.n_missing} missing cell(s))")


def skillings_mack_verdict(result, alpha: float) -> str:
    """A plain-language reading of the Skillings-Mack test at level alpha (Markdown)."""
    if result.pvalue <= alpha:
        return (f"**The {result.k} classifiers do not all perform equally** (α = {alpha:g}): the Skillings-Mack test, "
                f"Friedman's test for a table with missing cells, gives p = {format_p(result.pvalue)}. Post-hoc, the "
                "Wilcoxon and sign tests compare each pair on the data sets both classifiers have.")
    return (f"**No significant difference among the {result.k} classifiers** at α = {alpha:g}: the Skillings-Mack "
            f"test gives p = {format_p(result.pvalue)}. This does not show that they are equal.")


def omnibus_verdict(
    friedman: FriedmanResult, iman_davenport: ImanDavenportResult, anova: AnovaResult | None, alpha: float,
    exact: FriedmanResult | None = None,
) -> str:
    """A plain-language reading of the omnibus tests at level alpha (Markdown).

    With an exact p-value (``exact``, method "exact") the verdict rests on it: it is the p-value of
    both rank statistics without any approximation.
    """
    k, n = friedman.k, friedman.n
    fr_rej = friedman.pvalue <= alpha
    ff_rej = iman_davenport.pvalue <= alpha
    lines = []
    if exact is not None and exact.method == "exact":
        if exact.pvalue <= alpha:
            lines.append(
                f"**The {k} classifiers do not all perform equally** (α = {alpha:g}): the exact permutation p-value "
                f"of the Friedman statistic is {format_p(exact.pvalue)}, computed from the distribution of the ranks "
                "without approximation (available for this table size; it is also the exact p of Iman-Davenport's "
                "F_F). Post-hoc tests can now say which pairs differ."
            )
        else:
            lines.append(
                f"**No significant difference among the {k} classifiers** at α = {alpha:g}: the exact permutation "
                f"p-value of the Friedman statistic is {format_p(exact.pvalue)} (no approximation; available for this "
                f"table size). This does not show that they are equal; with N = {n} data sets the test may lack power."
            )
        if (exact.pvalue <= alpha) != ff_rej or (exact.pvalue <= alpha) != fr_rej:
            lines.append(
                f"The approximations disagree with it (χ²: p = {format_p(friedman.pvalue)}, F: "
                f"p = {format_p(iman_davenport.pvalue)}); trust the exact value."
            )
    elif fr_rej and ff_rej:
        lines.append(
            f"**The {k} classifiers do not all perform equally** (α = {alpha:g}): both the Friedman test "
            f"(p = {format_p(friedman.pvalue)}) and the Iman-Davenport test (p = {format_p(iman_davenport.pvalue)}) "
            "reject the hypothesis that their mean ranks are equal. Post-hoc tests can now say which pairs differ."
        )
    elif ff_rej:
        lines.append(
            f"**The classifiers differ according to Iman-Davenport** (p = {format_p(iman_davenport.pvalue)} ≤ "
            f"α = {alpha:g}), while Friedman's more conservative χ² approximation does not reject "
            f"(p = {format_p(friedman.pvalue)}). Demšar (2006) recommends Iman-Davenport's F_F here."
        )
    elif fr_rej:
        lines.append(
            f"**The Friedman test rejects equality** (p = {format_p(friedman.pvalue)}) but Iman-Davenport does not "
            f"(p = {format_p(iman_davenport.pvalue)}); treat the difference as borderline."
        )
    else:
        lines.append(
            f"**No significant difference among the {k} classifiers** at α = {alpha:g}: Friedman "
            f"p = {format_p(friedman.pvalue)}, Iman-Davenport p = {format_p(iman_davenport.pvalue)}. "
            "This does not show that they are equal; with N = "
            f"{n} data sets the tests may lack power. Post-hoc comparisons are not warranted."
        )
    if k == 2:
        lines.append(
            "With two classifiers the Friedman test is a sign test with ties counted as half wins; Demšar (2006) "
            "recommends the Wilcoxon signed-ranks test for comparing two classifiers (see the post-hoc page)."
        )
    if anova is not None and math.isnan(anova.pvalue):
        lines.append(
            "The repeated-measures ANOVA is **undefined** for this table: its residual variance is zero (every data "
            "set shifts all classifiers by the same amount, or all scores are equal), so F divides by zero."
        )
    elif anova is not None and (anova.pvalue <= alpha) != ff_rej:
        verb = "rejects" if anova.pvalue <= alpha else "does not reject"
        lines.append(
            f"The parametric repeated-measures ANOVA {verb} (p = {format_p(anova.pvalue)}); it assumes normal, "
            "commensurable scores with equal variances across classifiers, which Demšar (2006, §3.2.1) warns are "
            "rarely met by results on different data sets."
        )
    return "\n\n".join(lines)




def p_text(p: float) -> str:
    """A p-value for a table cell, in one format: 4 decimals from 0.001 up ("0.0319", "1.0000"), 3
    significant digits in scientific notation below ("4.49e-08"), "< 1e-300" for an underflow to 0 and
    "undefined" for NaN; never a bare 0 or a 30-digit decimal."""
    if p is None or (isinstance(p, (float, np.floating)) and math.isnan(p)):
        return "undefined"
    if p == 0:
        return "< 1e-300"
    if p < 1e-3:
        return f"{p:.2e}"
    return f"{p:.4f}"


def with_p_text(frame: pd.DataFrame, columns) -> pd.DataFrame:
    """A copy of ``frame`` for display with the given p-value columns as :func:`p_text` strings."""
    out = frame.copy()
    for col in columns:
        if col in out.columns:
            out[col] = [p_text(v) for v in out[col].to_numpy(dtype=float)]
    return out


def scores_with_ranks(table, *, max_rows: int | None = None) -> pd.DataFrame:
    """Demšar's Table 6 layout: each cell 'score (rank)', with a final 'average rank' row (strings).

    ``max_rows`` shows only the first data sets (the average ranks always use all of them)."""
    if max_rows is None:
        scores, ranks = table.scores, table.ranks
    else:
        scores, ranks = table.scores.iloc[:max_rows], table.head_ranks(max_rows)
    # One %-format per cell over flat lists (the rows are bounded by max_rows): numpy's np.char.mod and np.char.add
    # format element by element too, and slower (a large upload's preview of 1,000 x 50 cells: 0.152 s with them,
    # 0.040 s so), with the same strings.
    text = ["%.6g (%g)" % cell for cell in zip(scores.to_numpy(dtype=float).ravel().tolist(),
                                              ranks.to_numpy(dtype=float).ravel().tolist())]
    cells = pd.DataFrame(np.array(text, dtype=object).reshape(scores.shape), index=scores.index, columns=scores.columns)
    avg = pd.DataFrame([[f"{r:.3f}" for r in table.mean_ranks]], index=["average rank"], columns=scores.columns)
    return pd.concat([cells, avg])


EFFECT_SHORT = {"hodges_lehmann": "HL", "mean_difference": "mean difference", "cohens_dz": "d_z",
                 "rank_biserial": "r_rb", "prob_superiority": "PS"}
_EFFECT_SENTENCE = {
    "hodges_lehmann": "HL is the Hodges-Lehmann estimate of the median difference in the units of the scores (the "
                      "median of the Walsh averages), with the confidence interval of the signed-rank test",
    "mean_difference": "the mean difference in the units of the scores, with its t interval",
    "cohens_dz": "d_z is Cohen's standardized mean difference of the paired differences, with the noncentral-t interval",
    "rank_biserial": "r_rb is the matched-pairs rank-biserial correlation (Kerby, 2014)",
    "prob_superiority": "PS is the share of data sets on which the better classifier wins (ties counted half), "
                        "with a Wilson interval",
}


def label_effects(frame: pd.DataFrame) -> pd.DataFrame:
    """The effect columns of a :func:`compare_lib.with_effect_sizes` frame renamed for a table or a
    paper: e.g. "HL", "HL 95% low", "HL 95% high" (positive favours a)."""
    if "effect" not in frame.columns:
        return frame.copy()
    short = EFFECT_SHORT.get(frame.attrs.get("effect_measure"), "effect")
    level = f"{frame.attrs.get('effect_level', 0.95):.0%}"
    out = frame.rename(columns={"effect": f"{short} (a vs b)", "effect_low": f"{short} {level} low",
                                "effect_high": f"{short} {level} high"})
    if out[f"{short} {level} low"].isna().all():
        out = out.drop(columns=[f"{short} {level} low", f"{short} {level} high"])
    return out


def _mirror(value: float, attrs: dict) -> float:
    """The effect of b over a from that of a over b."""
    return 1 - value if attrs.get("effect_measure") == "prob_superiority" else -value


#: Words of the data notes a paper should repeat (what was averaged, dropped or left out).
_DATA_NOTE_WORDS = ("averag", "mean of", "median of", "dropped", "left out", "took the median")


def _missing_sentence(table) -> str:
    """How the tests treated missing scores (a method of the analysis, not a note on the file): " 3 missing
    score(s) were kept as missing: each pair ..." for a table that keeps holes, else ""."""
    if not getattr(table, "has_missing", False):
        return ""
    holes = int(np.isnan(table.scores.to_numpy(dtype=float)).sum())
    return (f" {holes} missing score(s) were kept as missing: each pair of classifiers was compared on the data sets "
            "where both have a score.")


def data_sentence(table) -> str:
    """What was done to the data, in a paper's words, for a methods or data section: the runs each cell
    averages, the data sets or classifiers dropped, the missing cells kept; empty when there is nothing to
    say. (How a file was read — formatting removed, rows skipped — stays in the notes.) Never part of
    :func:`results_paragraph` (issue 28: the paragraph is pasted into a paper as it is; what was done to the
    data stays in the report's data section)."""
    from compare_lib.core._table_validation import PAIRWISE_NOTE

    notes = []
    for note in getattr(table, "notes", ()):
        note = note.strip()
        if note.startswith(PAIRWISE_NOTE):
            holes = int(np.isnan(table.scores.to_numpy(dtype=float)).sum())
            notes.append(f"{holes} missing score(s) were kept as missing: each pair of classifiers was compared on the "
                         "data sets where both have a score.")
        elif any(w in note.lower() for w in _DATA_NOTE_WORDS):
            note = re.sub(r" \((first )?on line \d+\)|, line \d+| \(line \d+\)", "", note)  # file lines mean nothing there
            notes.append(note[:1].upper() + note[1:] + ("" if note.endswith(".") else "."))
    return (" Data: " + " ".join(notes)) if notes else ""


def _join(items: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pair_detail(row, attrs: dict, p_name: str) -> str:
    """"adjusted p = 0.0469; HL 0.0120, 95% CI [0.00400, 0.0200]": the pair's p and its effect size, oriented
    to favour the better classifier of the pair."""
    text = p_clause(row.p_adj, p_name)
    effect = getattr(row, "effect", float("nan"))
    if effect == effect:  # not NaN
        value, low, high = (row.effect, row.effect_low, row.effect_high) if row.better == row.a else (
            _mirror(row.effect, attrs), _mirror(row.effect_high, attrs), _mirror(row.effect_low, attrs))
        text += f"; {EFFECT_SHORT.get(attrs.get('effect_measure', ''), 'effect')} {value:.3g}"
        if low == low:
            text += f", {attrs.get('effect_level', 0.95):.0%} CI [{low:.3g}, {high:.3g}]"
    return text


def grouped_findings(result, *, p_name: str = "adjusted p") -> list[str]:
    """One sentence per classifier for the significant pairs of a post-hoc result, grouped so that k
    classifiers never need more than k − 1 sentences: "A is significantly better than B (adjusted p = 0.0120),
    C (…) and D (…)." When more pairs share their worse classifier than their better one, the sentences
    name the worse one instead: "A (…) and B (…) are significantly better than C." Groups and the
    classifiers in them go from the best mean rank to the worst."""
    result = as_frame(result)
    attrs = result.attrs
    ranks = attrs["mean_ranks"]
    rows = [r for r in result.itertuples() if r.reject]
    if not rows:
        return []
    rank_of = lambda name: (ranks.get(name, float("inf")), name)
    tied = [r for r in rows if not r.better]
    rows = [r for r in rows if r.better]
    worse_of = lambda r: r.b if r.better == r.a else r.a
    by_better: dict[str, list] = {}
    by_worse: dict[str, list] = {}
    for r in rows:
        by_better.setdefault(r.better, []).append(r)
        by_worse.setdefault(worse_of(r), []).append(r)
    sentences = []
    if len(by_worse) < len(by_better):
        for worse in sorted(by_worse, key=rank_of):
            items = sorted(by_worse[worse], key=lambda r: rank_of(r.better))
            parts = [f"{r.better} ({_pair_detail(r, attrs, p_name)})" for r in items]
            verb = "is" if len(parts) == 1 else "are"
            sentences.append(f"{_join(parts)} {verb} significantly better than {worse}.")
    else:
        for better in sorted(by_better, key=rank_of):
            items = sorted(by_better[better], key=lambda r: rank_of(worse_of(r)))
            parts = [f"{worse_of(r)} ({_pair_detail(r, attrs, p_name)})" for r in items]
            sentences.append(f"{better} is significantly better than {_join(parts)}.")
    for r in tied:
        sentences.append(f"{r.a} and {r.b} differ significantly ({_pair_detail(r, attrs, p_name)}).")
    return sentences


def results_paragraph(table, result, friedman: FriedmanResult | None, iman_davenport: ImanDavenportResult | None,
                      *, metric: str | None = None, exact: FriedmanResult | None = None, skillings_mack=None) -> str:
    """A paragraph ready to paste into a paper (Unicode: χ², α, p as journals print it), naming the metric and
    its direction, the test and the procedure with their references in one author-year style, α, the
    omnibus statistics, the significant pairs grouped by classifier (:func:`grouped_findings`), the effect
    sizes when the result carries them, and how missing scores were treated. Notes on the data (decoding,
    rows dropped, runs averaged: :func:`data_sentence`) stay out of it, in the report's data section.
    ``metric`` defaults to the table's metric ("score" when unnamed); a table with missing cells passes its
    :func:`compare_lib.skillings_mack` result instead of the Friedman and Iman-Davenport results."""
    metric = metric or getattr(table, "metric", None) or "score"
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import lookup_test
    from compare_lib.analyses._posthoc import as_posthoc_result

    result = as_frame(result)
    attrs = result.attrs
    alpha = attrs["alpha"]
    k, n = attrs["k"], attrs["n"]
    direction = "higher is better" if attrs["higher_is_better"] else "lower is better"
    ranks = sorted(attrs["mean_ranks"].items(), key=lambda kv: kv[1])
    rank_text = ", ".join(f"{name} {r:.2f}" for name, r in ranks)
    proc = PROCEDURES[attrs["correction"]]
    stat_text = cite(lookup_test(attrs["test"]).sentence(as_posthoc_result(result)))
    family = (
        f"each classifier against the control {attrs['control']} ({k - 1} hypotheses)"
        if attrs.get("control") else ("the two classifiers" if k == 2 else f"all {k * (k - 1) // 2} pairs of classifiers")
    )
    corrected = getattr(proc, "corrects", True)
    found = grouped_findings(result, p_name="adjusted p" if corrected else "p")
    n_rejected = int(result["reject"].sum())
    if not found:
        finding = "No pair differed significantly."
    else:
        finding = " ".join(found)
        n_other = len(result) - n_rejected
        if n_other == 1:
            finding += " The remaining comparison was not significant."
        elif n_other > 1:
            finding += f" The other {n_other} comparisons were not significant."
        if "effect" in result.columns:
            finding += f" Effect sizes: {_EFFECT_SENTENCE.get(attrs.get('effect_measure'), 'the effect size')}."
    if skillings_mack is not None:
        omnibus = skillings_mack_sentence(skillings_mack)
    elif friedman is None or iman_davenport is None:
        raise TypeError("results_paragraph needs the Friedman and Iman-Davenport results, or skillings_mack")
    else:
        omnibus = omnibus_sentence(friedman, iman_davenport, exact)
    cd_text = f" The critical difference is CD = {attrs['cd']:.3f}." if attrs.get("cd") else ""
    return (
        f"We compared k = {k} classifiers on N = {n} data sets by their {metric} ({direction}), following "
        f"Demšar (2006). Mean ranks (1 = best): {rank_text}. {omnibus}. "
        f"Post hoc, we compared {family} with {stat_text}, " + (
            f"controlling the family-wise error with {proc.label}'s procedure ({cite(proc.reference)}) at α = {alpha:g}."
            if corrected else
            f"each at α = {alpha:g} on its own: the p-values are not corrected for multiple comparisons, so the chance "
            f"of at least one false 'significant' pair among the {len(result)} is larger than α.")
        + f"{cd_text} {finding}{_missing_sentence(table)}"
    ).replace("..", ".")


def selection_sentence(result: pd.DataFrame, a: str, b: str, n_total: int) -> str:
    """One sentence for "how replicable is my verdict?" from an unbiased (bias 0) row of
    :func:`compare_lib.selection_experiment`: "Drawing 10 of your 14 data sets at random (1,000 draws), Wilcoxon
    rejects A vs B at α = 0.05 in 59% of draws; two draws agree with probability R(e) = 0.59." (plain text)."""
    row = result[result["bias"] == 0].iloc[0]
    attrs = result.attrs
    n_sets, samples = attrs.get("n_sets"), attrs.get("samples")
    alpha = attrs.get("alpha", 0.05)
    return (f"Drawing {n_sets} of your {n_total} data sets at random ({samples:,} draws), {row['test']} rejects {a} vs {b} "
            f"at α = {alpha:g} in {row['rejection_rate']:.0%} of draws; two draws agree on the verdict with probability "
            f"R(e) = {row['R_e']:.2f}.")


def bayesian_paragraph(frame: pd.DataFrame, *, metric: str = "score") -> str:
    """A paragraph for a paper from a :func:`compare_lib.bayesian_posthoc` result: the test, the ROPE,
    the prior, the number of samples and the seed, and the decisions."""
    attrs = frame.attrs
    test = "Bayesian signed-rank test" if attrs["test"] == "signed-rank" else "Bayesian sign test"
    ref = "Benavoli et al., 2014, 2017" if attrs["test"] == "signed-rank" else "Benavoli et al., 2017"
    place = {"rope": "the region of practical equivalence", "x": "the first classifier", "y": "the second"}[attrs["prior_place"]]
    decided = frame[frame["decision"] != "undecided"]
    parts = []
    for row in decided.itertuples():
        if row.decision == "a better":
            parts.append(f"{row.a} is practically better than {row.b} (P = {row.p_a:.3f})")
        elif row.decision == "b better":
            parts.append(f"{row.b} is practically better than {row.a} (P = {row.p_b:.3f})")
        else:
            parts.append(f"{row.a} and {row.b} are practically equivalent (P = {row.p_rope:.3f})")
    undecided = len(frame) - len(decided)
    found = ("; ".join(parts) + "." if parts else "No pair reached the decision threshold.")
    if undecided and parts:
        found += f" The other {undecided} pair(s) remain undecided."
    return (
        f"We compared each pair of the k = {attrs['k']} classifiers over N = {attrs['n']} data sets ({metric}) with the "
        f"{test} ({ref}), with a region of practical equivalence (ROPE) of ±{attrs['rope']:g} in the units of the "
        f"{metric}, a Dirichlet-process prior of strength {attrs['prior_strength']:g} placed in {place}, "
        f"{attrs['samples']:,} posterior samples per pair (random seed {attrs['seed']}), and a decision threshold of "
        f"{attrs['decision']:g} on the posterior probability of a region. {found}"
    )


def bayes_vs_frequentist(bayes: pd.DataFrame, freq: pd.DataFrame) -> pd.DataFrame:
    """Each pair's Bayesian decision beside the frequentist verdict of a :func:`compare_lib.posthoc`
    result (all pairs), with a note where they tell different stories, by the Bayesian decision itself (the
    posterior probability of a region reaching the decision threshold, as in the ``decision`` column):
    "significant but practically equivalent" (the test rejects, the decision is "equivalent") and "not
    significant but practically better" (no rejection, the decision names a better classifier)."""
    key = {frozenset((a, b)): (p, r, better) for a, b, p, r, better in
           zip(freq["a"], freq["b"], freq["p_adj"], freq["reject"], freq["better"])}
    rows = []
    for row in bayes.itertuples():
        p_adj, reject, better = key[frozenset((row.a, row.b))]
        note = ""
        if reject and row.decision == "equivalent":
            note = "significant but practically equivalent"
        elif not reject and row.decision in ("a better", "b better"):
            note = "not significant but practically better (" + (row.a if row.decision == "a better" else row.b) + ")"
        rows.append({"a": row.a, "b": row.b, "p_a": row.p_a, "p_rope": row.p_rope, "p_b": row.p_b,
                     "bayesian": row.decision, "p_adj": p_adj, "significant": bool(reject),
                     "better (frequentist)": better if reject else "", "note": note})
    return pd.DataFrame(rows)
