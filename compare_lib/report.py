"""Tables and sentences for reports: formatted p-values, LaTeX tables, plain-language verdicts.

Everything the dashboard writes in words is produced here, so a notebook gets the same text.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ._result import as_frame

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the statistics are not needed to format them (keeps the import light)
    from ._omnibus import AnovaResult, FriedmanResult, ImanDavenportResult


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


def omnibus_sentence(friedman: FriedmanResult, iman_davenport: ImanDavenportResult,
                     exact: FriedmanResult | None = None) -> str:
    """'Friedman chi2_F(3) = 9.28, p = 0.026; Iman-Davenport F_F(3, 39) = 3.69, p = 0.020' for a paper,
    with '; exact permutation p = 0.014' when the exact p-value is given."""
    ff_p = format_p(iman_davenport.pvalue)
    if iman_davenport.method == "exact":
        ff_p += " (exact)"
    text = (
        f"Friedman chi2_F({friedman.df}) = {friedman.statistic:.2f}, p = {format_p(friedman.pvalue)}"
        f"{' (exact)' if friedman.method == 'exact' else ''}; "
        f"Iman-Davenport F_F({iman_davenport.df1}, {iman_davenport.df2}) = {iman_davenport.statistic:.2f}, p = {ff_p}"
    )
    if exact is not None and exact.method == "exact" and friedman.method != "exact":
        text += f"; exact permutation p = {format_p(exact.pvalue)}"
    return text


def rank_omnibus_sentence(aligned, quade) -> str:
    """'Friedman aligned-ranks T(3) = 11.56, p = 0.009; Quade F(3, 39) = 4.52, p = 0.008' for a paper
    (García et al. 2010's omnibus tests; results of :func:`compare_lib.friedman_aligned_ranks` and
    :func:`compare_lib.quade`)."""
    def stat(value: float) -> str:
        return "undefined" if value != value else "infinite" if value == float("inf") else f"{value:.2f}"

    quade_p = format_p(quade.pvalue) + (" (exact)" if quade.method == "exact" else "")
    return (f"Friedman aligned-ranks T({aligned.df}) = {stat(aligned.statistic)}, p = {format_p(aligned.pvalue)}; "
            f"Quade F({quade.df1}, {quade.df2}) = {stat(quade.statistic)}, p = {quade_p}")


def skillings_mack_sentence(result) -> str:
    """'Skillings-Mack SM(3) = 3.07, p = 0.381 (chi-squared approximation; 2 missing cells)' for a paper
    (a :func:`compare_lib.skillings_mack` result)."""
    return (f"Skillings-Mack SM({result.df}) = {result.statistic:.2f}, p = {format_p(result.pvalue)} "
            f"(chi-squared approximation; {result.n} data sets, {result.n_missing} missing cell(s))")


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


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "|": r"\textbar{}", '"': r"\textquotedbl{}",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")


def _latex_escape(text: str) -> str:
    """Text for a LaTeX table cell: each special character replaced once (one pass, so the braces of
    \\textbackslash{} are not escaped again), control characters and line separators made spaces."""
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], _CONTROL_RE.sub(" ", str(text)))


#: Cells a spreadsheet would run as a formula (OWASP's CSV injection list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def _neutral(value):
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_csv(frame: pd.DataFrame, *, index: bool = False) -> str:
    """CSV text of a table for download: text cells that a spreadsheet would execute (starting with =, +,
    -, @, tab or a line break) get a leading apostrophe; numbers stay numbers."""
    out = frame.reset_index() if index else frame.copy()
    out.columns = [_neutral(str(c)) for c in out.columns]
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(_neutral)
    return out.to_csv(index=False)


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


def to_latex(frame: pd.DataFrame, *, caption: str | None = None, label: str | None = None, digits: int = 3,
             index: bool = False) -> str:
    """A booktabs LaTeX table (no jinja2 needed); p-value-like columns keep small values readable."""
    data = frame.reset_index() if index else frame
    cols = list(data.columns)

    def cell(value) -> str:
        if isinstance(value, (bool, np.bool_)):
            return r"\checkmark" if value else ""
        if isinstance(value, (int, np.integer)):
            return str(int(value))
        if isinstance(value, (float, np.floating)):
            if math.isnan(value):
                return "--"
            if math.isinf(value):
                return r"$\infty$" if value > 0 else r"$-\infty$"
            if value != 0 and abs(value) < 10 ** (-digits):
                mant, exp = f"{value:.2e}".split("e")
                return f"${mant} \\cdot 10^{{{int(exp)}}}$"
            return f"{value:.{digits}f}"
        return _latex_escape(value)

    align = "".join("r" if pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c]) else "l" for c in cols)
    lines = [r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{_latex_escape(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines += [rf"\begin{{tabular}}{{{align}}}", r"\toprule", " & ".join(_latex_escape(c) for c in cols) + r" \\", r"\midrule"]
    for row in data.itertuples(index=False):
        lines.append(" & ".join(cell(v) for v in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def scores_with_ranks(table, *, max_rows: int | None = None) -> pd.DataFrame:
    """Demšar's Table 6 layout: each cell 'score (rank)', with a final 'average rank' row (strings).

    ``max_rows`` shows only the first data sets (the average ranks always use all of them)."""
    scores, ranks = table.scores, table.ranks
    if max_rows is not None:
        scores, ranks = scores.iloc[:max_rows], ranks.iloc[:max_rows]
    text = np.char.add(np.char.add(np.char.mod("%.6g", scores.to_numpy()), " ("),
                       np.char.add(np.char.mod("%g", ranks.to_numpy()), ")"))
    cells = pd.DataFrame(text.astype(object), index=scores.index, columns=scores.columns)
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


def data_sentence(table) -> str:
    """What was done to the data that a reader of the paper should know, in a paper's words: the runs each
    cell averages, the data sets or classifiers dropped, the missing cells kept; empty when there is
    nothing to say. (How a file was read — formatting removed, rows skipped — stays in the notes.)"""
    from ._table_validation import PAIRWISE_NOTE

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


def results_paragraph(table, result, friedman: FriedmanResult | None, iman_davenport: ImanDavenportResult | None,
                      *, metric: str | None = None, exact: FriedmanResult | None = None, skillings_mack=None) -> str:
    """A paragraph ready to paste into a paper, naming the metric and its direction, the exact procedure,
    alpha, statistics and references, and what was done to the data. ``metric`` defaults to the table's
    metric ("score" when unnamed); a table with missing cells passes its :func:`compare_lib.skillings_mack`
    result instead of the Friedman and Iman-Davenport results."""
    metric = metric or getattr(table, "metric", None) or "score"
    from ._adjust import PROCEDURES
    from ._pairwise_tests import lookup_test
    from ._posthoc import as_posthoc_result

    result = as_frame(result)
    attrs = result.attrs
    alpha = attrs["alpha"]
    k, n = attrs["k"], attrs["n"]
    direction = "higher is better" if attrs["higher_is_better"] else "lower is better"
    ranks = sorted(attrs["mean_ranks"].items(), key=lambda kv: kv[1])
    rank_text = ", ".join(f"{name} {r:.2f}" for name, r in ranks)
    proc = PROCEDURES[attrs["correction"]]
    stat_text = lookup_test(attrs["test"]).sentence(as_posthoc_result(result))
    family = (
        f"each classifier against the control {attrs['control']} ({k - 1} hypotheses)"
        if attrs.get("control") else ("the two classifiers" if k == 2 else f"all {k * (k - 1) // 2} pairs of classifiers")
    )
    rejected = result[result["reject"]]
    if rejected.empty:
        finding = "No pair differed significantly."
    else:
        parts = []
        has_effect = "effect" in result.columns
        for row in rejected.itertuples():
            worse = row.b if row.better == row.a else row.a
            effect = ""
            if has_effect and row.effect == row.effect:  # not NaN
                # Oriented to favour the better classifier of the pair.
                value, low, high = (row.effect, row.effect_low, row.effect_high) if row.better == row.a else (
                    _mirror(row.effect, attrs), _mirror(row.effect_high, attrs), _mirror(row.effect_low, attrs))
                effect = f"; {EFFECT_SHORT.get(attrs.get('effect_measure'), 'effect')} {value:.3g}"
                if low == low:
                    effect += f", {attrs.get('effect_level', 0.95):.0%} CI [{low:.3g}, {high:.3g}]"
            parts.append(f"{row.better} over {worse} (adjusted p = {format_p(row.p_adj)}{effect})")
        finding = "Significant differences: " + "; ".join(parts) + "."
        n_other = len(result) - len(rejected)
        if n_other == 1:
            finding += " The remaining comparison was not significant."
        elif n_other > 1:
            finding += f" The other {n_other} comparisons were not significant."
    omnibus = (skillings_mack_sentence(skillings_mack) if skillings_mack is not None
               else omnibus_sentence(friedman, iman_davenport, exact))
    cd_text = f" The critical difference is CD = {attrs['cd']:.3f}." if attrs.get("cd") else ""
    if "effect" in result.columns and not rejected.empty:
        finding += f" Effect sizes: {_EFFECT_SENTENCE.get(attrs.get('effect_measure'), 'the effect size')}."
    return (
        f"We compared k = {k} classifiers on N = {n} data sets ({metric}, {direction}) following Demšar (2006). "
        f"Mean ranks (1 = best): {rank_text}. {omnibus}. "
        f"Post-hoc, we compared {family} with {stat_text}, controlling the family-wise error with "
        f"{proc.label}'s procedure ({proc.reference}) at α = {alpha:g}.{cd_text} {finding}{data_sentence(table)}"
    ).replace("..", ".")


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
    result (all pairs), with a note where they tell different stories: "significant but practically
    equivalent" (the test rejects, yet the posterior puts the difference inside the ROPE) and "not
    significant but probably better" (no rejection, yet one classifier is practically better with
    posterior probability at least 0.9)."""
    key = {frozenset((a, b)): (p, r, better) for a, b, p, r, better in
           zip(freq["a"], freq["b"], freq["p_adj"], freq["reject"], freq["better"])}
    rows = []
    for row in bayes.itertuples():
        p_adj, reject, better = key[frozenset((row.a, row.b))]
        note = ""
        if reject and row.p_rope >= max(row.p_a, row.p_b):
            note = "significant but practically equivalent"
        elif not reject and max(row.p_a, row.p_b) >= 0.9:
            note = "not significant but probably better (" + (row.a if row.p_a > row.p_b else row.b) + ")"
        rows.append({"a": row.a, "b": row.b, "p_a": row.p_a, "p_rope": row.p_rope, "p_b": row.p_b,
                     "bayesian": row.decision, "p_adj": p_adj, "significant": bool(reject),
                     "better (frequentist)": better if reject else "", "note": note})
    return pd.DataFrame(rows)
