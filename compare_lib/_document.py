"""The report of an :class:`~compare_lib._analysis.Analysis` in HTML, Markdown, LaTeX, JSON and as a script.

Every renderer takes only the analysis (its results and provenance) and shows the same sections: what was
loaded and how, the methods with one sentence and a reference each, the results (omnibus tests, mean ranks,
CD diagram, the post-hoc table of the chosen procedure with effect sizes, the scores with their ranks), a
paragraph for a paper, the references as BibTeX, and the code that reproduces it. Text from the data is
escaped in every format.
"""

from __future__ import annotations

import datetime as _dt
import html
import re

import numpy as np
import pandas as pd

from ._markdown_text import frame_to_html, frame_to_markdown, md_text
from ._paper_tables import BOOKTABS_COMMENT, engine_note, latex_escape, scores_table, strip_engine_notes, to_latex
from ._references import cite
from .errors import InputError

RANK_SET_NOTE = ("Rank set: the ranks each classifier can hold, simultaneously for all, at 1 − α (by projection from "
                 "the post-hoc decisions; Mogstad, Romano, Shaikh & Wilhelm, 2024); letters: classifiers sharing a "
                 "letter were not found different (Piepho, 2004).")

#: Data sets shown in the scores-with-ranks table of a report (the average ranks use all of them).
REPORT_MAX_ROWS = 60


# -- the content, shared by the formats ------------------------------------------------------------------------

def _title(a) -> str:
    return (f"Comparison of {a.table.n_classifiers} classifiers on {a.table.n_datasets} data sets "
            f"({a.metric}, {'higher' if a.table.higher_is_better else 'lower'} is better)")


def _data_lines(a) -> list[str]:
    t = a.table
    lines = []
    if a.source is not None:
        lines.append(f"Source: {a.source.path}" + (f" (sheet {a.source.read['sheet']})" if a.source.read.get("sheet") else ""))
    elif t.source:
        lines.append(f"Source: {t.source}")
    lines.append(f"Metric: {a.metric}; {'higher' if t.higher_is_better else 'lower'} is better.")
    lines.append(f"{t.n_classifiers} classifiers: {', '.join(t.classifiers)}.")
    lines.append(f"{t.n_datasets} data sets" + (f"; {int(np.isnan(t.scores.to_numpy(dtype=float)).sum())} missing "
                                               "cell(s) kept as missing (each pair compared where both have a score)"
                                               if t.has_missing else "") + ".")
    if a.source is not None and (a.source.classifiers is not None or a.source.datasets is not None):
        lines.append("A selection of the file's classifiers and data sets was analysed (see the code below).")
    lines += [f"Note: {n}" for n in t.notes]
    return lines


def _method_lines(a) -> list[str]:
    from ._adjust import PROCEDURES
    from ._pairwise_tests import lookup_test

    proc = PROCEDURES[a.correction]
    spec = lookup_test(a.test)
    lines = ["Ranks: on each data set the classifiers are ranked, 1 = best, ties sharing the average rank "
             "(Demšar, 2006)."]
    if "skillings_mack" in a.omnibus:
        lines.append("Omnibus test: Skillings–Mack's generalisation of the Friedman test to a table with missing "
                     "cells (Skillings & Mack, 1981), referred to χ².")
    else:
        lines.append("Omnibus tests: Friedman's χ² on the mean ranks (Friedman, 1937) and Iman–Davenport's F, its "
                     "less conservative form (Iman & Davenport, 1980)"
                     + ("; the exact permutation p-value of the Friedman statistic, computable for this table size"
                        if "exact" in a.omnibus else "")
                     + "; the repeated-measures ANOVA is shown for comparison (Demšar, 2006, §3.2.1).")
    family = (f"each classifier against the control {a.control}" if a.control else "all pairs of classifiers")
    if getattr(proc, "corrects", True):
        lines.append(f"Post hoc: {family} with {cite(spec.sentence(a.posthoc_result))}; the family-wise error is "
                     f"controlled at α = {a.alpha:g} by {proc.label}'s procedure ({cite(proc.reference)}).")
    else:
        lines.append(f"Post hoc: {family} with {cite(spec.sentence(a.posthoc_result))}, each at α = {a.alpha:g}; the "
                     "p-values are NOT corrected for multiple comparisons (a teaching choice: the chance of a false "
                     "'significant' pair grows with the number of pairs).")
    if "effect" in a.posthoc.columns:
        from .report import _EFFECT_SENTENCE

        lines.append("Effect sizes: " + _EFFECT_SENTENCE.get(a.effect_measure, a.effect_measure) + ".")
    if a.bayesian is not None:
        b = a.bayesian.attrs
        lines.append(f"Bayesian comparison: the Bayesian signed-rank test (Benavoli et al., 2017) with a region of "
                     f"practical equivalence of ±{b['rope']:g}, {b['samples']:,} posterior samples (seed {b['seed']}) "
                     f"and a decision threshold of {b['decision']:g}.")
    return lines


def omnibus_table(a) -> pd.DataFrame:
    rows = []
    names = {"friedman": ("Friedman", "chi2_F"), "iman_davenport": ("Iman-Davenport", "F_F"),
             "exact": ("Friedman, exact permutation p", "chi2_F"), "anova": ("Repeated-measures ANOVA", "F"),
             "skillings_mack": ("Skillings-Mack", "SM")}
    for key, r in a.omnibus.items():
        label, symbol = names[key]
        df = f"{r.df1}, {r.df2}" if hasattr(r, "df1") else ("exact" if key == "exact" else f"{r.df}")
        rows.append({"test": label, "symbol": symbol, "statistic": float(r.statistic), "df": df, "p": float(r.pvalue),
                     "reject": bool(r.pvalue <= a.alpha)})
    return pd.DataFrame(rows)


def mean_rank_table(a) -> pd.DataFrame:
    """Mean ranks, best first, with (all pairs) the simultaneous rank set of each classifier (Mogstad et al.
    2024: the ranks it can hold at 1 − α) and its letters (share a letter = not found different)."""
    ranks = a.mean_ranks.sort_values(kind="stable")
    out = pd.DataFrame({"classifier": ranks.index, "mean rank": ranks.to_numpy()})
    sets = a.rank_sets
    if sets is not None:
        from ._rank_sets import rank_set_labels

        out["rank set"] = rank_set_labels(sets.reindex(ranks.index))
    if a.letters:
        out["letters"] = [a.letters.get(n, "") for n in ranks.index]
    return out


def winners_text(a) -> str | None:
    if a.rank_sets is None:
        return None
    from ._rank_sets import winners_sentence

    return winners_sentence(a.rank_sets)


def posthoc_table(a) -> pd.DataFrame:
    """The post-hoc rows of the chosen procedure, with paper headings."""
    from ._adjust import PROCEDURES

    r = a.posthoc
    proc = PROCEDURES[a.correction]
    adjusted = f"adjusted p ({proc.label})" if getattr(proc, "corrects", True) else "p (not corrected)"
    out = pd.DataFrame({"a": r["a"], "b": r["b"], "statistic": r["statistic"], "p": r["p"],
                        adjusted: r["p_adj"], "significant": r["reject"],
                        "better": np.where(r["reject"], r["better"], "")})
    if "effect" in r.columns:
        from .report import EFFECT_SHORT

        short = EFFECT_SHORT.get(a.effect_measure, "effect")
        out[f"{short} (a vs b)"] = r["effect"]
        if r["effect_low"].notna().any():
            level = f"{r.attrs.get('effect_level', 0.95):.0%}"
            out[f"{level} CI low"] = r["effect_low"]
            out[f"{level} CI high"] = r["effect_high"]
    if "n_datasets" in r.columns:
        out["N"] = r["n_datasets"]
    out.attrs["p_columns"] = ("p", adjusted)
    return out.reset_index(drop=True)


def bayesian_table(a) -> pd.DataFrame:
    b = a.bayesian
    return pd.DataFrame({"a": b["a"], "b": b["b"], "P(a better)": b["p_a"], "P(equivalent)": b["p_rope"],
                         "P(b better)": b["p_b"], "decision": b["decision"]})


def _cd_svg(a) -> str | None:
    try:
        from ._cd_static import cd_svg
    except ImportError:
        return None
    return cd_svg(a.posthoc)


def _cd_tikz(a) -> str | None:
    try:
        from ._cd_static import cd_tikz
    except ImportError:
        return None
    return cd_tikz(a.posthoc)


def _cd_caption(a) -> str:
    """What the CD diagram shows, as under the dashboard's diagram (issue 28: it names every pair that is not
    rejected though no bar joins it)."""
    from .plots import cd_caption

    return cd_caption(a.posthoc)


def _provenance_lines(a) -> list[str]:
    v = a.versions
    return [f"Made with compare_lib {v.get('compare_lib', '?')} (Python {v.get('python', '?')}, numpy {v.get('numpy', '?')}, "
            f"pandas {v.get('pandas', '?')}, scipy {v.get('scipy', '?')}, statsmodels {v.get('statsmodels', '?')}).",
            "Choices: " + ", ".join(f"{k} = {v!r}" for k, v in a.choices().items()) + "."]


# -- dict / JSON ---------------------------------------------------------------------------------------------------

def analysis_dict(a) -> dict:
    t = a.table
    post = a.posthoc
    rows = post.to_dict(orient="records")
    out = {
        "title": _title(a),
        "versions": dict(a.versions),
        "choices": a.choices(),
        "data": {"metric": t.metric, "higher_is_better": t.higher_is_better, "k": t.n_classifiers, "n": t.n_datasets,
                 "classifiers": list(t.classifiers), "datasets": [str(d) for d in t.datasets],
                 "missing_cells": int(np.isnan(t.scores.to_numpy(dtype=float)).sum()), "notes": list(t.notes),
                 "source": None if a.source is None else {"path": a.source.path, "read": a.source.read,
                                                          "table": a.source.table}},
        "omnibus": {k: r.to_dict() for k, r in a.omnibus.items()},
        "mean_ranks": {str(k): float(v) for k, v in a.mean_ranks.items()},
        "posthoc": {"test": a.test, "correction": a.correction, "alpha": a.alpha, "control": a.control,
                    "cd": post.attrs.get("cd"), "effect_measure": a.effect_measure, "rows": rows},
        "paragraph": a.paragraph(),
        "notes": list(a.notes),
    }
    if a.letters:
        out["letters"] = a.letters
    for result in out["omnibus"].values():
        result.pop("mean_ranks", None)  # the same as "mean_ranks" above
    if a.bayesian is not None:
        out["bayesian"] = {"settings": {k: v for k, v in a.bayesian.attrs.items()},
                           "rows": a.bayesian.to_dict(orient="records")}
    return out


# -- plain text ------------------------------------------------------------------------------------------------------

def _omnibus_text(a) -> str:
    from .report import omnibus_sentence, skillings_mack_sentence

    if "skillings_mack" in a.omnibus:
        return skillings_mack_sentence(a.omnibus["skillings_mack"])
    return omnibus_sentence(a.omnibus["friedman"], a.omnibus["iman_davenport"], a.omnibus.get("exact"))


def summary_text(a) -> str:
    from ._adjust import PROCEDURES
    from ._pairwise_tests import lookup_test

    ranks = mean_rank_table(a)
    width = max(len(str(n)) for n in ranks["classifier"])
    lines = [_title(a), _omnibus_text(a), "Mean ranks (1 = best):"]
    for row in ranks.itertuples(index=False):
        lines.append(f"  {str(row.classifier):<{width}}  {row[1]:.3f}" + (f"  {row.letters}" if "letters" in ranks.columns else ""))
    lines.append(f"Post hoc: {lookup_test(a.test).label}, {PROCEDURES[a.correction].label}, α = {a.alpha:g}"
                 + (f", control {a.control}" if a.control else ""))
    table = posthoc_table(a)
    for row in table.itertuples(index=False):
        lines.append(f"  {row.a} vs {row.b}: p = {row.p:.6g}, adjusted p = {row[4]:.6g}"
                     + (f", significant: {row.better} is better" if row.significant else ""))
    return "\n".join(lines)


# -- Markdown ---------------------------------------------------------------------------------------------------------

def markdown_report(a, *, figures: bool = True) -> str:
    import base64

    out = [f"# {md_text(_title(a))}", "", "## Data", ""]
    out += [f"- {md_text(line)}" for line in _data_lines(a)]
    out += ["", "## Methods", ""] + [f"- {md_text(line)}" for line in _method_lines(a)]
    out += ["", "## Results", "", "### Omnibus tests", "",
            frame_to_markdown(omnibus_table(a).drop(columns="symbol"), p_columns=("p",))]
    out += ["### Mean ranks", "", frame_to_markdown(mean_rank_table(a))]
    if winners_text(a):
        out += [md_text(winners_text(a) + " " + RANK_SET_NOTE + " " + a.rank_sets.attrs["guarantee"]), ""]  # issue 28
    svg = _cd_svg(a) if figures else None
    if svg is not None:
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        out += ["### Critical-difference diagram", "", f"![CD diagram](data:image/svg+xml;base64,{data})", "",
                md_text(_cd_caption(a)), ""]
    table = posthoc_table(a)
    out += ["### Post-hoc comparisons", "", frame_to_markdown(table, p_columns=table.attrs["p_columns"])]
    if a.bayesian is not None:
        out += ["### Bayesian comparisons", "", frame_to_markdown(bayesian_table(a))]
    out += ["### Scores and ranks", "", scores_table(a.table, format="markdown", max_rows=REPORT_MAX_ROWS)]
    out += ["## Paragraph for a paper", ""] + [md_text(p) for p in a.paragraph().split("\n\n")]
    out += ["", "## References", ""] + _fenced(a.bibtex(), "bibtex") + ["", "## Reproduce", ""]
    out += _fenced(python_script(a), "python") + ["", "---", ""]
    out += [md_text(line) + "  " for line in _provenance_lines(a)]
    return "\n".join(out) + "\n"


def _fenced(text: str, language: str) -> list[str]:
    """A code block whose fence is longer than any run of backticks inside it (a name cannot close it)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + language, text.rstrip(), fence]


# -- HTML -------------------------------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:60rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1.2rem}th,td{padding:.2rem .6rem;border-bottom:1px solid #ddd;
text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums}thead th{border-bottom:2px solid #333}
pre{background:#f6f6f6;padding:.8rem;overflow:auto;font-size:.85rem}.paragraph{background:#f3f7fb;padding:.8rem;
border-left:3px solid #4C78A8}figure{margin:0;overflow-x:auto}.meta{color:#666;font-size:.85rem}
@media print{pre{white-space:pre-wrap}}
"""


def html_report(a, *, figures: bool = True, fragment: bool = False) -> str:
    e = html.escape
    body = [f"<h1>{e(_title(a))}</h1>", "<h2>Data</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in _data_lines(a)) + "</ul>",
            "<h2>Methods</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in _method_lines(a)) + "</ul>",
            "<h2>Results</h2><h3>Omnibus tests</h3>" + frame_to_html(omnibus_table(a).drop(columns="symbol"), p_columns=("p",)),
            "<h3>Mean ranks</h3>" + frame_to_html(mean_rank_table(a))
            + (f"<p>{html.escape(winners_text(a) + ' ' + RANK_SET_NOTE + ' ' + a.rank_sets.attrs['guarantee'])}</p>"
               if winners_text(a) else "")]
    svg = _cd_svg(a) if figures else None
    if svg is not None:
        svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
        body.append(f"<h3>Critical-difference diagram</h3><figure>{svg}<figcaption>{e(_cd_caption(a))}</figcaption></figure>")
    table = posthoc_table(a)
    body.append("<h3>Post-hoc comparisons</h3>" + frame_to_html(table, p_columns=table.attrs["p_columns"]))
    if a.bayesian is not None:
        body.append("<h3>Bayesian comparisons</h3>" + frame_to_html(bayesian_table(a)))
    body.append("<h3>Scores and ranks</h3>" + _scores_html(a.table))
    body.append("<h2>Paragraph for a paper</h2>" + "".join(f"<p class=paragraph>{e(p)}</p>" for p in a.paragraph().split("\n\n")))
    body.append(f"<h2>References</h2><pre>{e(a.bibtex())}</pre>")
    body.append(f"<h2>Reproduce</h2><pre>{e(python_script(a))}</pre>")
    body.append("<p class=meta>" + "<br>".join(e(x) for x in _provenance_lines(a)) + "</p>")
    content = "\n".join(body)
    if fragment:
        return f"<div class=compare-lib-report>{content}</div>"
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width,"
            f"initial-scale=1\"><title>{e(_title(a))}</title><style>{_CSS}</style></head><body>\n{content}\n"
            "<p class=meta>To make a PDF, print this page from the browser (Save as PDF).</p></body></html>\n")


def _scores_html(t) -> str:
    frame = scores_table(t, format="frame", max_rows=REPORT_MAX_ROWS)
    names = list(t.classifiers)
    e = html.escape
    rows = []
    ranks = frame[[f"{n} rank" for n in names]].to_numpy(dtype=float)
    for i, (ds, row) in enumerate(frame.iterrows()):
        last = i == len(frame) - 1
        cells = []
        finite = ranks[i][~np.isnan(ranks[i])]
        for j, n in enumerate(names):
            r = ranks[i, j]
            if last:
                cells.append(f"<td class=num><b>{r:.3f}</b></td>")
                continue
            score = row[n]
            text = "–" if score != score else f"{score:g}"
            rank = "–" if r != r else f"{r:g}"
            best = finite.size and r == finite.min()
            cells.append(f"<td class=num>{'<b>' if best else ''}{e(text)}{'</b>' if best else ''} ({rank})</td>")
        rows.append(f"<tr><th>{e(str(ds))}</th>{''.join(cells)}</tr>")
    more = t.n_datasets - (len(frame) - 1)
    note = f"<p class=meta>… {more} more data sets (the average ranks use all).</p>" if more > 0 else ""
    head = "".join(f"<th>{e(n)}</th>" for n in names)
    return f"<table><thead><tr><th>data set</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{note}"


# -- LaTeX ------------------------------------------------------------------------------------------------------------

_UNICODE_LATEX = {"χ²": r"$\chi^2$", "α": r"$\alpha$", "–": "--", "−": "$-$", "≤": r"$\le$", "≥": r"$\ge$",
                  "±": r"$\pm$", "…": r"\dots{}", "§": r"\S{}", "√": r"$\surd$", "×": r"$\times$"}
_UNICODE_RE = re.compile("|".join(map(re.escape, _UNICODE_LATEX)))


_MATH_WORDS = [(re.compile(r"(?<![\w\\])p = "), "$p$ = "), (re.compile(r"(?<![\w\\])p \\textless\{\} "), "$p<$ "),
               (re.compile(r"(?<![\w\\])([kN]) = "), r"$\1$ = "), (re.compile(r"(?<![\w\\])(F|T)\("), r"$\1$("),
               (re.compile(r"(?<![\w\\])SM\("), r"$\\mathit{SM}$(")]


def latex_text(text: str) -> str:
    """Running text for LaTeX: special characters escaped, the report's Unicode symbols and the statistics'
    letters (p, F, k, N) in math mode."""
    out = _UNICODE_RE.sub(lambda m: _UNICODE_LATEX[m.group(0)], latex_escape(text))
    for pattern, repl in _MATH_WORDS:
        out = pattern.sub(repl, out)
    return out


def latex_report(a) -> str:
    stem = "compare"
    out = ["% compare_lib report: \\input{} this file in a document. It needs in the preamble:",
           "%   \\usepackage[T1]{fontenc}  \\usepackage{booktabs}  \\usepackage{tikz}",
           "% " + latex_escape(_title(a)).replace("\n", " "),
           "% " + _provenance_lines(a)[0], ""]
    out.append(latex_text(" ".join(a.paragraph().split("\n\n"))))
    out.append("")
    out.append(to_latex(omnibus_table(a), caption=f"Omnibus tests ({a.metric}).", label=f"tab:{stem}-omnibus",
                        columns=["test", "symbol", "statistic", "df", "p"]))
    out.append(to_latex(mean_rank_table(a), caption="Mean ranks (1 = best).", label=f"tab:{stem}-ranks"))
    tikz = _cd_tikz(a)
    if tikz is not None:
        out += [r"\begin{figure}[ht]", r"\centering", tikz.rstrip(),
                rf"\caption{{Critical-difference diagram: {latex_escape(a.posthoc_title())}. {latex_text(_cd_caption(a))}}}"
                if hasattr(a, "posthoc_title") else rf"\caption{{Critical-difference diagram. {latex_text(_cd_caption(a))}}}",
                rf"\label{{fig:{stem}-cd}}", r"\end{figure}", ""]
    table = posthoc_table(a)
    out.append(to_latex(table, caption=f"Post-hoc comparisons (α = {a.alpha:g}).".replace("α", "alpha"),
                        label=f"tab:{stem}-posthoc"))
    if a.bayesian is not None:
        out.append(to_latex(bayesian_table(a), caption="Bayesian signed-rank comparisons.", label=f"tab:{stem}-bayes"))
    out.append(scores_table(a.table, format="latex", caption=f"{a.metric}: scores with their ranks in brackets; the "
                            "best of each data set in bold.", label=f"tab:{stem}-scores", max_rows=REPORT_MAX_ROWS))
    text = strip_engine_notes("\n".join(out).replace(BOOKTABS_COMMENT + "\n", ""))  # said once, at the top
    note = engine_note(text)  # Greek, Cyrillic, CJK, emoji: lualatex or xelatex (issue 27)
    if note:  # after the two lines on the preamble
        head = text.split("\n", 2)
        text = head[0] + "\n" + head[1] + "\n" + note + head[2]
    return text


# -- the reproducing script --------------------------------------------------------------------------------------------
# Issue 27: a metric name once closed the script's docstring and ran a shell command on the reader's machine. The
# script's prose (docstring and comments) is now made of our own words only; every value that comes from the data
# or from the caller (names, metric, file name, sheet, notes, versions, choices) appears only inside a Python
# literal written by _literal(), which checks that the text it writes reads back as exactly that value.

_SCRIPT_HEADER = '''"""Reproduces a comparison of classifiers made with compare_lib.

Every name, the metric, the file name and the notes are written below as Python literals and are only
ever used as data. Run it with the library alone:
    python this_script.py
"""'''


def _plain(value):
    """``value`` as plain Python data (str, int, float, bool, None, lists, tuples, dicts of them); numpy
    scalars become Python numbers. Anything else is refused: its repr() might not be a literal."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return str(value)  # a subclass (numpy's str_) has a repr that is a call, not a literal
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if value != value or value in (float("inf"), float("-inf")):
            raise InputError(f"{value!r} cannot be written into the reproducing script (it has no Python literal).")
        return value
    if isinstance(value, (list, tuple)):
        items = [_plain(v) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    raise InputError(f"A {type(value).__name__} cannot be written into the reproducing script (it has no Python "
                     "literal): give names and options as text or numbers.")


def _literal(value) -> str:
    """A Python literal for ``value`` (see :func:`_plain`): repr() escapes every quote, backslash, line break,
    line separator, control character and lone surrogate, so the text can never leave its string; checked by
    reading it back with :func:`ast.literal_eval`."""
    import ast

    plain = _plain(value)
    text = repr(plain)
    if not text.isprintable() or ast.literal_eval(text) != plain:
        raise InputError("A value could not be written into the reproducing script.")  # never expected
    return text


def _call(options: dict, *, first: bool = False) -> str:
    """Keyword arguments: names of our own (identifiers), values as literals."""
    for key in options:
        if not (isinstance(key, str) and key.isidentifier() and key.isascii()):
            raise InputError(f"{key!r} is not a keyword argument name.")  # never expected: our own names
    text = ", ".join(f"{k}={_literal(v)}" for k, v in options.items())
    if not text:
        return ""
    return text if first else ", " + text


def _score_rows(t) -> list[list]:
    return [[None if v != v else float(v) for v in row] for row in t.scores.to_numpy(dtype=float)]


def _labels(values) -> list:
    """Classifier or data-set labels as literals can hold them: text and numbers as they are, anything else
    (a date, NaN) as its text, so that the script still runs."""
    out = []
    for v in values:
        try:
            out.append(_plain(v))
        except InputError:
            out.append(str(v))
    return out


def python_script(a) -> str:
    t = a.table
    date = _dt.date.today().isoformat()
    lines = [_SCRIPT_HEADER.rstrip("\n")]
    lines += ["import compare_lib as cl", "import pandas as pd"] if a.source is None else [
        "from pathlib import Path", "", "import compare_lib as cl"]
    lines += ["", "# What this reproduces, and how it was made (data, not code).",
              f"TITLE = {_literal(_title(a))}",
              f"MADE_WITH = {_literal({'compare_lib': str(a.versions.get('compare_lib', '')), 'date': date})}",
              f"NOTES = {_literal(tuple(str(n) for n in t.notes))}", ""]
    if a.source is not None:
        read = {k: v for k, v in a.source.read.items() if v is not None and not (k in ("format", "layout") and v == "auto")}
        options = {"metric": t.metric, "higher_is_better": t.higher_is_better, "missing": t.missing}
        options.update({k: v for k, v in a.source.table.items() if k == "aggregate" and v != "mean"})
        lines.append("# The data file, next to this script (a Path: a name is never taken for the table's text).")
        lines.append(f"DATA_FILE = {_literal(str(a.source.path))}")
        lines.append(f"results = cl.read_results(Path(DATA_FILE){_call(read)})")
        lines.append(f"table = results.table({_call(options, first=True)})")
        if a.source.classifiers is not None or a.source.datasets is not None:
            selection = {"classifiers": list(a.source.classifiers) if a.source.classifiers else None,
                         "datasets": list(a.source.datasets) if a.source.datasets else None}
            lines.append(f"table = table.subset({_call(selection, first=True)})")
    else:
        lines += ["# The scores, written into the script (no data file was recorded): one row per data set, one",
                  "# column per classifier, None for a missing score.",
                  f"CLASSIFIERS = {_literal(_labels(t.classifiers))}",
                  f"DATASETS = {_literal(_labels(t.datasets))}",
                  "SCORES = [", *(f"    {_literal(row)}," for row in _score_rows(t)), "]",
                  "table = cl.ScoreTable(pd.DataFrame(SCORES, index=DATASETS, columns=CLASSIFIERS, dtype=float)"
                  + _call({"higher_is_better": t.higher_is_better, "missing": t.missing, "metric": t.metric}) + ")"]
    call = {"alpha": a.alpha, "test": a.test, "correction": a.correction}
    if a.control is not None:
        call["control"] = a.control
    if a.rope is not None:
        call.update(rope=a.rope, seed=a.seed)
    if a.effect_measure != "hodges_lehmann":
        call["effect_measure"] = a.effect_measure
    lines += ["", "# The whole analysis in one call (report: analysis.to_html(), .to_latex(), .to_markdown()).",
              f"analysis = cl.analyze(table{_call(call)})", "print(analysis.summary())", "",
              "# The same steps one by one."]
    if t.has_missing:
        lines += ["print(cl.skillings_mack(table))"]
    else:
        lines += ["print(cl.report.omnibus_sentence(cl.friedman(table), cl.iman_davenport(table)))",
                  "print(table.mean_ranks.sort_values().round(3).to_string())"]
    post = {"test": a.test, "correction": a.correction, "alpha": a.alpha}
    if a.control is not None:
        post["control"] = a.control
    lines += [f"result = cl.posthoc(table{_call(post)})",
              f"result = cl.with_effect_sizes(result, table, {_literal(a.effect_measure)})",
              'print(result[["a", "b", "statistic", "p", "p_adj", "reject", "better", "effect"]].to_string(index=False))',
              "# cl.plots.cd_diagram(result).show()  # the CD diagram (plotly)"]
    return "\n".join(lines) + "\n"
