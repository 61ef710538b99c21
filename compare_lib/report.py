"""Tables and sentences for reports: formatted p-values, LaTeX tables, plain-language verdicts.

Everything the dashboard writes in words is produced here, so a notebook gets the same text.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the statistics are not needed to format them (keeps the import light)
    from .omnibus import AnovaResult, FriedmanResult, ImanDavenportResult


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
    exact: FriedmanResult | None = None,
) -> pd.DataFrame:
    """The omnibus tests side by side: test, statistic, degrees of freedom, p, reject at alpha.

    ``exact`` (a :func:`compare_lib.friedman` result with method "exact") adds the exact permutation
    p-value of the Friedman statistic, which is also the exact p of Iman-Davenport's F_F. An undefined
    test (p NaN) is never marked as rejecting.
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


def results_paragraph(table, result: pd.DataFrame, friedman: FriedmanResult, iman_davenport: ImanDavenportResult,
                      *, metric: str = "score", exact: FriedmanResult | None = None) -> str:
    """A paragraph ready to paste into a paper, naming the exact procedure, alpha, statistics and references."""
    from .adjust import PROCEDURES

    attrs = result.attrs
    alpha = attrs["alpha"]
    k, n = attrs["k"], attrs["n"]
    direction = "higher is better" if attrs["higher_is_better"] else "lower is better"
    ranks = sorted(attrs["mean_ranks"].items(), key=lambda kv: kv[1])
    rank_text = ", ".join(f"{name} {r:.2f}" for name, r in ranks)
    proc = PROCEDURES[attrs["correction"]]
    if attrs["test"] == "mean-ranks":
        stat_text = "the mean-ranks statistic z = (R_a - R_b) / sqrt(k(k+1)/(6N)) (Demšar, 2006)"
    elif attrs["test"] == "wilcoxon":
        stat_text = "pairwise Wilcoxon signed-ranks tests (Wilcoxon, 1945; Benavoli et al., 2016)"
    else:
        stat_text = "pairwise sign tests (ties split evenly; Demšar, 2006; Benavoli et al., 2016)"
    family = (
        f"each classifier against the control {attrs['control']} ({k - 1} hypotheses)"
        if attrs.get("control") else f"all {k * (k - 1) // 2} pairs of classifiers"
    )
    rejected = result[result["reject"]]
    if rejected.empty:
        finding = "No pair differed significantly."
    else:
        parts = []
        for row in rejected.itertuples():
            worse = row.b if row.better == row.a else row.a
            parts.append(f"{row.better} over {worse} (adjusted p = {format_p(row.p_adj)})")
        finding = "Significant differences: " + "; ".join(parts) + "."
        n_other = len(result) - len(rejected)
        if n_other == 1:
            finding += " The remaining comparison was not significant."
        elif n_other > 1:
            finding += f" The other {n_other} comparisons were not significant."
    omnibus = omnibus_sentence(friedman, iman_davenport, exact)
    cd_text = f" The critical difference is CD = {attrs['cd']:.3f}." if attrs.get("cd") else ""
    return (
        f"We compared k = {k} classifiers on N = {n} data sets ({metric}, {direction}) following Demšar (2006). "
        f"Mean ranks (1 = best): {rank_text}. {omnibus}. "
        f"Post-hoc, we compared {family} with {stat_text}, controlling the family-wise error with "
        f"{proc.label}'s procedure ({proc.reference}) at α = {alpha:g}.{cd_text} {finding}"
    ).replace("..", ".")
