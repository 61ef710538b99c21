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
from pathlib import PurePath

import numpy as np
import pandas as pd

from compare_lib.core._format import frame_to_html, frame_to_markdown, md_text
from compare_lib.render._paper_tables import engine_note, latex_escape, scores_table, strip_engine_notes, to_latex
from compare_lib.render._references import cite
from compare_lib.core._table import direction_sentence
from compare_lib.errors import InputError

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
    lines.append(f"Metric: {a.metric}; {direction_sentence(t)}.")
    lines.append(f"{t.n_classifiers} classifiers: {', '.join(t.classifiers)}.")
    lines.append(f"{t.n_datasets} data sets" + (f"; {int(np.isnan(t.scores.to_numpy(dtype=float)).sum())} missing "
                                               "cell(s) kept as missing (each pair compared where both have a score)"
                                               if t.has_missing else "") + ".")
    if a.source is not None and (a.source.classifiers is not None or a.source.datasets is not None):
        lines.append("A selection of the file's classifiers and data sets was analysed (see the code below).")
    lines += [f"Note: {n}" for n in t.notes]
    return lines


def _method_lines(a) -> list[str]:
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import lookup_test

    proc = PROCEDURES[a.correction]
    spec = lookup_test(a.test)
    lines = ["Ranks: on each data set the classifiers are ranked, 1 = best, ties sharing the average rank "
             "(Demšar, 2006)."]
    if "skillings_mack" in a.omnibus:
        lines.append("Omnibus test: Skillings–Mack's generalisation of the Friedman test to a table with missing "
                     "cells (Skillings & Mack, 1981), referred to χ².")
    else:
        lines.append("Omnibus tests: Friedman's χ² on the mean ranks (Friedman, 1937, 1940) and Iman–Davenport's F, its "
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
        from compare_lib.render._report import _EFFECT_SENTENCE

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
        from compare_lib.analyses._rank_sets import rank_set_labels

        out["rank set"] = rank_set_labels(sets.reindex(ranks.index))
    if a.letters:
        out["letters"] = [a.letters.get(n, "") for n in ranks.index]
    return out


def winners_text(a) -> str | None:
    if a.rank_sets is None:
        return None
    from compare_lib.analyses._rank_sets import winners_sentence

    return winners_sentence(a.rank_sets)


def posthoc_table(a) -> pd.DataFrame:
    """The post-hoc rows of the chosen procedure, with paper headings."""
    from compare_lib.multiple._adjust import PROCEDURES

    r = a.posthoc
    proc = PROCEDURES[a.correction]
    adjusted = f"adjusted p ({proc.label})" if getattr(proc, "corrects", True) else "p (not corrected)"
    out = pd.DataFrame({"a": r["a"], "b": r["b"], "statistic": r["statistic"], "p": r["p"],
                        adjusted: r["p_adj"], "significant": r["reject"],
                        "better": np.where(r["reject"], r["better"], "")})
    if "effect" in r.columns:
        from compare_lib.render._report import EFFECT_SHORT

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
        from compare_lib.render._cd_static import cd_svg
    except ImportError:
        return None
    return cd_svg(a.posthoc)


def _cd_tikz(a) -> str | None:
    try:
        from compare_lib.render._cd_static import cd_tikz
    except ImportError:
        return None
    return cd_tikz(a.posthoc)


def _cd_caption(a) -> str:
    """What the CD diagram shows, as under the dashboard's diagram (issue 28: it names every pair that is not
    rejected though no bar joins it)."""
    from compare_lib.render._cd_figures import cd_caption

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
        "data": {"metric": t.metric, "higher_is_better": t.higher_is_better,
                 "direction_stated": bool(getattr(t, "direction_stated", True)),
                 "direction": direction_sentence(t), "k": t.n_classifiers, "n": t.n_datasets,
                 "classifiers": list(t.classifiers), "datasets": [str(d) for d in t.datasets],
                 "missing_cells": int(np.isnan(t.scores.to_numpy(dtype=float)).sum()), "notes": list(t.notes),
                 "source": None if a.source is None else {"path": a.source.path, "kind": a.source.kind,
                                                          "sha256": a.source.sha256, "read": a.source.read,
                                                          "table": a.source.table}},
        "omnibus": {k: r.to_dict() for k, r in a.omnibus.items()},
        "mean_ranks": {str(k): float(v) for k, v in a.mean_ranks.items()},
        "posthoc": {"test": a.test, "correction": a.correction, "alpha": a.alpha, "control": a.control,
                    "cd": post.attrs.get("cd"), "effect_measure": a.effect_measure, "rows": rows},
        "paragraph": a.paragraph(),
        "notes": list(a.notes),
        # the works the report cites (one list for every format): key, authors, year, title, venue, ...
        "references": [{k: v for k, v in r.items() if k != "text"} for r in a.references()],
    }
    if a.letters:
        out["letters"] = a.letters
    for result in out["omnibus"].values():
        result.pop("mean_ranks", None)  # the same as "mean_ranks" above
    if a.bayesian is not None:
        out["bayesian"] = {"settings": {k: v for k, v in a.bayesian.attrs.items()},
                           "rows": a.bayesian.to_dict(orient="records")}
    return out


def analysis_numbers(a) -> dict[str, float]:
    """The numbers the analysis shows, at full precision, by name (:meth:`Analysis.numbers`)."""
    out: dict[str, float] = {}
    for name, result in a.omnibus.items():
        out[f"{name} statistic"] = float(result.statistic)
        out[f"{name} p"] = float(result.pvalue)
    for classifier, rank in a.mean_ranks.items():
        out[f"mean rank {classifier}"] = float(rank)
    for row in a.posthoc.to_dict(orient="records"):
        pair = f"{row['a']} vs {row['b']}"
        out[f"{pair} statistic"] = float(row["statistic"])
        out[f"{pair} p"] = float(row["p"])
        out[f"{pair} adjusted p"] = float(row["p_adj"])
    if a.bayesian is not None:
        for row in a.bayesian.to_dict(orient="records"):
            pair = f"{row['a']} vs {row['b']}"
            for key in ("p_a", "p_rope", "p_b"):
                out[f"{pair} Bayesian {key}"] = float(row[key])
    return out


# -- plain text ------------------------------------------------------------------------------------------------------

def _omnibus_text(a) -> str:
    from compare_lib.render._report import omnibus_sentence, skillings_mack_sentence

    if "skillings_mack" in a.omnibus:
        return skillings_mack_sentence(a.omnibus["skillings_mack"])
    return omnibus_sentence(a.omnibus["friedman"], a.omnibus["iman_davenport"], a.omnibus.get("exact"))


def summary_text(a) -> str:
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import lookup_test

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
    winners = winners_text(a)
    if winners:
        out += [md_text(winners + " " + RANK_SET_NOTE + " " + a.rank_sets.attrs["guarantee"]), ""]  # issue 28
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
    refs = a.references()
    out += ["", "## References", ""] + [f"- {md_text(r['text'])}" for r in refs] + ["", "BibTeX:", ""]
    out += _fenced(a.to_bibtex(), "bibtex") + ["", "## Reproduce", ""]
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
    winners = winners_text(a)
    body = [f"<h1>{e(_title(a))}</h1>", "<h2>Data</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in _data_lines(a)) + "</ul>",
            "<h2>Methods</h2><ul>" + "".join(f"<li>{e(x)}</li>" for x in _method_lines(a)) + "</ul>",
            "<h2>Results</h2><h3>Omnibus tests</h3>" + frame_to_html(omnibus_table(a).drop(columns="symbol"), p_columns=("p",)),
            "<h3>Mean ranks</h3>" + frame_to_html(mean_rank_table(a))
            + (f"<p>{html.escape(winners + ' ' + RANK_SET_NOTE + ' ' + a.rank_sets.attrs['guarantee'])}</p>"
               if winners else "")]
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
    body.append("<h2>References</h2><ul>" + "".join(f"<li>{e(r['text'])}</li>" for r in a.references())
                + f"</ul><p>BibTeX:</p><pre>{e(a.to_bibtex())}</pre>")
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


def omnibus_caption(a) -> str:
    """The caption of the omnibus table, with the tests' references (plain text)."""
    if "skillings_mack" in a.omnibus:
        return (f"Omnibus test on the {a.metric}: Skillings–Mack's generalisation of the Friedman test to a table "
                "with missing cells (Skillings & Mack, 1981).")
    return (f"Omnibus tests on the {a.metric}: Friedman's test on the mean ranks (Friedman, 1937, 1940) and "
            "Iman–Davenport's F, its less conservative form (Iman & Davenport, 1980)"
            + ("; the exact permutation p-value of the Friedman statistic" if "exact" in a.omnibus else "")
            + "; the repeated-measures ANOVA for comparison (Demšar, 2006, §3.2.1).")


def cited_text(a) -> str:
    """Every sentence of the report that cites a work (methods, paragraph, captions), in the order shown."""
    return " ".join([*_method_lines(a), a.paragraph(), omnibus_caption(a), ranks_caption(a)])


def report_references(a) -> list[dict]:
    """The works the analysis cites, as plain data (:func:`compare_lib.render._references.reference`), alphabetically
    as an author-year list is: one list for every format."""
    from compare_lib.render._references import reference, work_keys

    known, _ = work_keys(cited_text(a), always=("Demšar 2006",))
    return [reference(w) for w in sorted(known, key=lambda work: (work[0].casefold(), work[1]))]


def ranks_caption(a) -> str:
    """The caption of the mean-ranks table: what its rank sets and letters mean, with their references."""
    return "Mean ranks (1 = best)." + (" " + RANK_SET_NOTE if a.rank_sets is not None else "")


def _latex_cited(text: str) -> str:
    """Plain text as LaTeX with its citations as natbib commands (``\\citet``, ``\\citep``)."""
    from compare_lib.render._references import latex_cites

    return latex_cites(text, latex_text)


_CITE_COMMAND = re.compile(r"\\cite(?:t|p|alp)(?:\[[^\]]*\])?\{([^}]*)\}")
_CD_BOX = (r"\ifdefined\compareCDbox\else\newsavebox{\compareCDbox}\fi",
           r"\ifdim\wd\compareCDbox>\linewidth\resizebox{\linewidth}{!}{\usebox{\compareCDbox}}"
           r"\else\usebox{\compareCDbox}\fi")


def latex_cited_works(tex: str) -> list[tuple[str, str]]:
    """The works a LaTeX text cites with natbib commands, as (first author, year), alphabetically (as an
    author-year bibliography lists them)."""
    from compare_lib.render._references import _ENTRIES, bibtex_key

    by_key = {bibtex_key(work): work for work in _ENTRIES}
    keys = [k.strip() for m in _CITE_COMMAND.finditer(tex) for k in m.group(1).split(",")]
    cited = [by_key[k] for k in dict.fromkeys(keys) if k in by_key]
    return sorted(cited, key=lambda work: (work[0].casefold(), work[1]))  # author-year lists are alphabetical


def latex_report(a, *, wide: str | None = None, width: float | None = None) -> str:
    """The report as a LaTeX fragment for ``\\input``: the paragraph with natbib citations, the tables (each fitting
    ``width`` pt, the article's 345 by default; ``wide``: "table*" or "landscape" for the post-hoc and scores
    tables), the CD diagram (TikZ, never wider than the line) and the bibliography (a natbib
    ``thebibliography``: pdflatex alone resolves it)."""
    from compare_lib.render._paper_tables import (ARTICLE_WIDTH_PT, NEEDS_MARK, _check_wide, pair_probabilities_latex,
                                posthoc_latex)
    from compare_lib.render._references import thebibliography

    _check_wide(wide, width)
    stem = "compare"
    body = [r"\providecommand{\citet}{\cite}\providecommand{\citep}{\cite}\providecommand{\citealp}{\cite}", "",
            r"\begin{sloppypar}", _latex_cited(" ".join(a.paragraph().split("\n\n"))), r"\end{sloppypar}", ""]
    narrow = width if width is not None and wide is None else None  # the small tables stay in the column
    fit = narrow if narrow is not None else ARTICLE_WIDTH_PT
    body.append(to_latex(omnibus_table(a), caption=_latex_cited(omnibus_caption(a)), label=f"tab:{stem}-omnibus",
                         columns=["test", "symbol", "statistic", "df", "p"], caption_is_latex=True, width=fit))
    body.append(to_latex(mean_rank_table(a), caption=_latex_cited(ranks_caption(a)), label=f"tab:{stem}-ranks",
                         caption_is_latex=True, width=fit))
    tikz = _cd_tikz(a)
    if tikz is not None:
        title = f"Critical-difference diagram: {latex_escape(a.posthoc_title())}." if hasattr(a, "posthoc_title") else (
            "Critical-difference diagram.")
        body += [r"\begin{figure}[ht]", r"\centering", _CD_BOX[0], r"\sbox{\compareCDbox}{%", tikz.rstrip() + "%", "}%",
                 _CD_BOX[1], rf"\caption{{{title} {latex_text(_cd_caption(a))}}}", rf"\label{{fig:{stem}-cd}}",
                 r"\end{figure}", ""]
    body.append(posthoc_latex(a.posthoc, caption=latex_text(f"Post-hoc comparisons ({a.metric}, α = {a.alpha:g})."),
                              caption_is_latex=True, label=f"tab:{stem}-posthoc", wide=wide, width=width))
    if a.bayesian is not None:
        body.append(pair_probabilities_latex(a.bayesian, caption="Bayesian signed-rank comparisons.",
                                             label=f"tab:{stem}-bayes", wide=wide, width=width))
    better = "higher" if a.table.higher_is_better else "lower"
    body.append(scores_table(a.table, format="latex", caption=f"{a.metric} ({better} is better): scores with their "
                             "ranks in brackets; the "
                             "best of each data set in bold.", label=f"tab:{stem}-scores", max_rows=REPORT_MAX_ROWS,
                             wide=wide, width=width))
    text = "\n".join(body)
    packages = ["booktabs", "tikz", "natbib"]
    for line in text.split("\n"):
        if line.startswith(NEEDS_MARK):
            packages += re.findall(r"\\usepackage\{([^}]+)\}", line)
    text = "\n".join(line for line in text.split("\n") if not line.startswith(NEEDS_MARK))  # said once, at the top
    cited = latex_cited_works(text)
    if cited:
        text += ("\n% The references cited above (natbib, author-year). To use your own BibTeX file instead, delete this\n"
                 "% environment and add the entries of analysis.to_bibtex() (the report's .bib) to your file.\n"
                 + thebibliography(cited))
    head = ["% compare_lib report: \\input{} this file in a document. It needs in the preamble:",
            "%   \\usepackage[T1]{fontenc}  " + "  ".join(f"\\usepackage{{{p}}}" for p in dict.fromkeys(packages)),
            "%   (natbib gives the author-year citations; without it they are printed as [Author(Year)].)",
            "% " + latex_escape(_title(a)).replace("\n", " "),
            "% " + latex_escape(f"Direction: {direction_sentence(a.table)}.").replace("\n", " "),
            "% " + _provenance_lines(a)[0], ""]
    text = strip_engine_notes(text)
    note = engine_note(text)  # Greek, Cyrillic, CJK, emoji: lualatex or xelatex (issue 27)
    return "\n".join(head[:2]) + "\n" + note + "\n".join(head[2:]) + "\n" + text


# -- the reproducing script --------------------------------------------------------------------------------------------
# Issue 27: a metric name once closed the script's docstring and ran a shell command on the reader's machine. The
# script's prose (docstring and comments) is now made of our own words only; every value that comes from the data
# or from the caller (names, metric, file name, sheet, notes, versions, choices) appears only inside a Python
# literal written by _literal(), which checks that the text it writes reads back as exactly that value.

_SCRIPT_HEADER = '''"""Reproduces a comparison of classifiers made with compare_lib.

Every name, the metric, the file name and the notes are written below as Python literals and are only
ever used as data. Run it with the library alone, from any folder:
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


def _score(x: float) -> float | None:
    """A score as the script writes it: the shortest text that reads back as the same double (``repr``: 0.763,
    never 0.76300000000000001), None for a missing cell (NaN); an infinity has no place in a score table."""
    x = float(x)
    if x != x:
        return None
    if x in (float("inf"), float("-inf")):
        raise InputError("An infinite score cannot be written into the reproducing script.")  # ScoreTable refuses them
    return x


def _score_rows(t) -> list[list]:
    return [[_score(v) for v in row] for row in t.scores.to_numpy(dtype=float)]


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


#: What the script says about where its table comes from, by Source.kind (None: no source recorded).
_EMBED_CASES = {
    None: ["# Case: a table built in memory (a DataFrame or a ScoreTable in a notebook): there is no file to read",
           "# again, so the table as analysed is written below."],
    "paste": ["# Case: pasted text. Nothing on disk can be read again, so the table as analysed (after the choice of",
              "# metric, the aggregation of runs, the missing-data policy and the selection) is written below."],
    "upload": ["# Case: an uploaded file (the dashboard's upload or a link's table, or bytes given to read_results):",
               "# it has no path on your disk, so the table as analysed (after the choice of metric, the aggregation",
               "# of runs, the missing-data policy and the selection) is written below. SOURCE is its name."],
    "sample": ["# Case: a sample table of the dashboard (SOURCE, in the sample_data folder of compare_lib's repository):",
               "# the table as analysed (after the selection) is written below."],
    "file": ["# Case: a file whose name or options cannot be written as Python literals: the table as analysed",
             "# is written below."],
}


def _replay_lines(t, src) -> list[str]:
    """The lines that read the data file again (a Source of kind "file"): its path, its SHA-256 check, the
    reader's options, the table's options and the selection. InputError when one has no literal."""
    read = {k: v for k, v in src.read.items() if v is not None and not (k in ("format", "layout") and v == "auto")}
    table = {"metric": src.table.get("metric", t.metric), "higher_is_better": t.higher_is_better,
             "missing": src.table.get("missing", t.missing)}
    if src.table.get("aggregate", "mean") != "mean":
        table["aggregate"] = src.table["aggregate"]
    if PurePath(src.path).is_absolute():
        lines = ["# Case: a file read from disk. The script reads it again where it was read (its absolute path: the",
                 "# script runs from any folder), with the same options, and checks that it is the same file.",
                 f"DATA_FILE = Path({_literal(str(src.path))})"]
    else:
        lines = ["# Case: a data file recorded by its name: it is looked up next to this script.",
                 f"DATA_FILE = Path(__file__).resolve().parent / {_literal(str(src.path))}"]
    if src.sha256 is not None:
        lines.append(f"DATA_SHA256 = {_literal(src.sha256)}  # the file's SHA-256 when the analysis read it")
    # item-level results may be a folder of lm-evaluation-harness samples files (issue 30)
    lines += [f"if not DATA_FILE.{'exists' if src.loader == 'read_items' else 'is_file'}():",
              '    raise SystemExit(f"the data file {DATA_FILE} is gone: put it back or edit DATA_FILE")']
    if src.sha256 is not None:
        lines += ["if hashlib.sha256(DATA_FILE.read_bytes()).hexdigest() != DATA_SHA256:",
                  '    print(f"warning: the data file {DATA_FILE} has changed since the analysis (its SHA-256 differs): "',
                  '          "the numbers may differ from the report.", file=sys.stderr)']
    if src.loader == "read_items":  # item-level results: each cell the mean (or median) over a task's items
        statistic = src.table.get("aggregate", "mean")
        table.pop("metric")
        table.pop("aggregate", None)
        lines.append(f"items = cl.read_items(DATA_FILE{_call(read)})")
        lines.append(f"table = items.task_table({_call({'statistic': statistic, **table}, first=True)})")
    elif src.loader == "load_scores" and table["metric"] is not None:
        # read knowing its metric (load_scores), which can decide how a long file is laid out
        lines.append(f"table = cl.load_scores(DATA_FILE{_call(read)}{_call(table)})")
    else:
        metric = table.pop("metric")
        lines.append(f"results = cl.read_results(DATA_FILE{_call(read)})")
        lines.append(f"table = results.table({_call(table, first=True)})" if metric is None
                     else f"table = results.table({_literal(metric)}{_call(table)})")
    if src.classifiers is not None or src.datasets is not None:
        selection = {"classifiers": None if src.classifiers is None else list(src.classifiers),
                     "datasets": None if src.datasets is None else list(src.datasets)}
        lines.append("# The classifiers and data sets kept (None: all of them).")
        lines.append(f"table = table.subset({_call(selection, first=True)})")
    return lines


def _embed_lines(t, src) -> list[str]:
    """The lines that rebuild the table as analysed from literals (no file to read again)."""
    lines = list(_EMBED_CASES[None if src is None else src.kind])
    if src is not None and src.kind != "file":
        lines.append(f"SOURCE = {_literal(str(src.path))}")
    lines += ["# One row per data set, one column per classifier, None for a missing score.",
              f"CLASSIFIERS = {_literal(_labels(t.classifiers))}",
              f"DATASETS = {_literal(_labels(t.datasets))}",
              "SCORES = [", *(f"    {_literal(row)}," for row in _score_rows(t)), "]",
              "table = cl.ScoreTable(pd.DataFrame(SCORES, index=DATASETS, columns=CLASSIFIERS, dtype=float)"
              + _call({"higher_is_better": t.higher_is_better, "missing": "pairwise" if t.has_missing else "error",
                       "metric": t.metric}) + ")"]
    return lines


def table_lines(t, src) -> tuple[list[str], bool]:
    """The script lines that make the table ``t`` again, and whether they read a file:
    a file on disk is read again (:func:`_replay_lines`), anything else, or a file whose name or options have no
    literal, is carried as literals (:func:`_embed_lines`)."""
    if src is not None and src.kind == "file":
        try:
            return _replay_lines(t, src), True
        except InputError:  # a name or an option with no literal: carry the table instead
            pass
    return _embed_lines(t, src), False


def python_script(a) -> str:
    """The script of :meth:`Analysis.to_python`: it replays the steps that made the table (a file on disk read
    again by its absolute path, checked by its SHA-256) or carries the table as analysed (pasted, uploaded or
    built in memory), runs the same analysis and prints its numbers. Every value from the data is a literal."""
    t = a.table
    src = a.source
    date = _dt.date.today().isoformat()
    body, replays = table_lines(t, src)
    lines = [_SCRIPT_HEADER.rstrip("\n")]
    if replays:
        lines += (["import hashlib", "import sys"] if src.sha256 is not None else []) + [
            "from pathlib import Path", "", "import compare_lib as cl"]
    else:
        lines += ["import compare_lib as cl", "import pandas as pd"]
    lines += ["", "# What this reproduces, and how it was made (data, not code).",
              f"TITLE = {_literal(_title(a))}",
              f"MADE_WITH = {_literal({'compare_lib': str(a.versions.get('compare_lib', '')), 'date': date})}",
              f"NOTES = {_literal(tuple(str(n) for n in t.notes))}", ""]
    lines += body
    call = {"alpha": a.alpha, "test": a.test, "correction": a.correction}
    if a.control is not None:
        call["control"] = a.control
    if a.rope is not None:
        call.update(rope=a.rope, seed=a.seed)
        samples = a.bayesian.attrs.get("samples") if a.bayesian is not None else None
        if samples is not None and int(samples) != 50_000:  # analyze's default
            call["bayesian_samples"] = int(samples)
    if a.effect_measure != "hodges_lehmann":
        call["effect_measure"] = a.effect_measure
    lines += ["", "# The whole analysis in one call (report: analysis.to_html(), .to_latex(), .to_markdown()).",
              f"analysis = cl.analyze(table{_call(call)})", "print(analysis.summary())", "",
              "# The numbers the analysis showed, at full precision: the omnibus statistics and p-values, the mean",
              "# ranks, each pair's statistic, p-value and adjusted p-value. Compare them with the report.",
              'print("\\nNumbers at full precision:")',
              "for name, value in analysis.numbers().items():",
              '    print(f"{name} = {value!r}")', "",
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
