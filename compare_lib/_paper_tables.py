"""Paper-ready tables: booktabs LaTeX with one number format per column, and the scores-with-ranks table.

Conventions (as journals print them): p-values with three significant digits and "< 0.001" below;
integers as integers (a Wilcoxon T is 4, not 4.000); statistics in math mode ($\\chi^2_F$, $F_F$);
other numbers with a fixed number of decimals per column, or in scientific notation for a whole column
whose values are too small for them. Text from the data is escaped, never interpreted: a cell starting
with "[" or "*" cannot become an option of the "\\\\" before it. A fragment holding characters pdflatex
cannot typeset (Greek, Cyrillic, CJK, emoji) says at its top that it needs lualatex or xelatex with
fontspec, and names them (:func:`engine_note`); Latin text stays with pdflatex (T1, utf8).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ._result import as_frame

BOOKTABS_COMMENT = "% Needs \\usepackage{booktabs} in the preamble (a table in the booktabs style)."

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "|": r"\textbar{}", '"': r"\textquotedbl{}",
}
_LATEX_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
#: A cell starting with "[" or "*" (after spaces) would be read as the optional argument of the "\\\\" that
#: ends the row before it ("\\\\[2pt]", "\\\\*") or of booktabs' "\\midrule[...]", and vanish.
_OPTION_START = re.compile(r"\s*[\[*]")


def latex_escape(text) -> str:
    """Text for a LaTeX cell: each special character replaced once (one pass, so the braces of
    \\textbackslash{} are not escaped again), control characters and line separators made spaces, lone
    surrogates (which no file can hold) U+FFFD, and a leading "[" or "*" shielded by "{}" (issue 27: after a
    row's "\\\\" or a "\\midrule" it would be read as an option and the text eaten)."""
    clean = _SURROGATE_RE.sub("\ufffd", _CONTROL_RE.sub(" ", str(text)))
    out = _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], clean)
    return "{}" + out if _OPTION_START.match(out) else out


def latex_row(cells) -> str:
    """One tabular row ending in "\\\\": a first cell that starts with "[" or "*" gets "{}" in front, so that
    neither the previous row's "\\\\" nor a rule reads it as an optional argument (cells from
    :func:`latex_escape` already have it; this covers headings and symbols given as LaTeX)."""
    cells = list(cells)
    if cells and _OPTION_START.match(cells[0]):
        cells[0] = "{}" + cells[0]
    return " & ".join(cells) + r" \\"


# -- which engine: pdflatex for Latin text, lualatex/xelatex for the rest (issue 27) ---------------------------

#: Code points (beyond printable ASCII) that pdflatex typesets with \\usepackage[T1]{fontenc} and the
#: default utf8 input (T1 and TS1 as in TeX Live 2022; each was compiled one by one to make this list).
_PDFLATEX_RANGES = (
    (0x00A0, 0x0125), (0x0128, 0x0137), (0x0139, 0x013E), (0x0141, 0x0148), (0x014A, 0x0165), (0x0168, 0x017E),
    (0x0192, 0x0192), (0x01C4, 0x01D4), (0x01E2, 0x01E3), (0x01E6, 0x01EB), (0x01F0, 0x01F0), (0x01F4, 0x01F5),
    (0x0218, 0x021B), (0x0232, 0x0233), (0x0237, 0x0237), (0x02C6, 0x02C7), (0x02D8, 0x02D9), (0x02DB, 0x02DD),
    (0x0E3F, 0x0E3F), (0x1E02, 0x1E03), (0x1E0D, 0x1E0D), (0x1E1E, 0x1E21), (0x1E25, 0x1E25), (0x1E30, 0x1E31),
    (0x1E37, 0x1E37), (0x1E43, 0x1E43), (0x1E45, 0x1E45), (0x1E47, 0x1E47), (0x1E5B, 0x1E5B), (0x1E63, 0x1E63),
    (0x1E6D, 0x1E6D), (0x1E8E, 0x1E91), (0x1E9E, 0x1E9E), (0x1EF2, 0x1EF3), (0x2010, 0x2016), (0x2018, 0x201A),
    (0x201C, 0x201E), (0x2020, 0x2022), (0x2026, 0x2026), (0x2030, 0x2031), (0x2039, 0x203B), (0x203D, 0x203D),
    (0x2044, 0x2044), (0x204E, 0x204E), (0x2052, 0x2052), (0x20A1, 0x20A1), (0x20A4, 0x20A4), (0x20A6, 0x20A6),
    (0x20A9, 0x20A9), (0x20AB, 0x20AC), (0x20B1, 0x20B1), (0x2103, 0x2103), (0x2116, 0x2117), (0x211E, 0x211E),
    (0x2120, 0x2120), (0x2122, 0x2122), (0x2126, 0x2127), (0x212E, 0x212E), (0x2190, 0x2193), (0x2329, 0x232A),
    (0x2422, 0x2423), (0x25E6, 0x25E6), (0x25EF, 0x25EF), (0x266A, 0x266A), (0x27E8, 0x27E9),
)
_PDFLATEX_OK = frozenset(chr(c) for lo, hi in _PDFLATEX_RANGES for c in range(lo, hi + 1)) | frozenset(
    map(chr, range(0x20, 0x7F))) | {"\n", "\t"}
#: Every line of the note on the engine starts with this (a report says it once, at the top).
ENGINE_NOTE_MARK = "% Engine: "
_SHOWN_CHARS = 8


def pdflatex_unsupported(text: str) -> list[str]:
    """The characters of ``text`` (in order of appearance, once each) that pdflatex cannot typeset with
    T1 fonts and utf8 input: Greek, Cyrillic, CJK, emoji, most symbols. Comment lines are skipped."""
    seen = {}
    for line in text.split("\n"):
        if line.lstrip().startswith("%"):
            continue
        for ch in line:
            if ch not in _PDFLATEX_OK:
                seen.setdefault(ch, None)
    return list(seen)


def _char_label(ch: str) -> str:
    import unicodedata

    code = f"U+{ord(ch):04X}"
    # Only visible characters go into the comment as themselves (no separator, control or combining mark).
    return f"{ch}\x01({code})" if unicodedata.category(ch)[0] in "LNPS" else code  # \x01: not split by wrap


def engine_note(text: str) -> str:
    """Comment lines saying that ``text`` needs lualatex or xelatex, and how to set up the preamble, when it
    has characters pdflatex cannot typeset; "" when pdflatex (T1, utf8) is enough. The note names the
    characters (with their code points: a Cyrillic "а" looks like a Latin "a"), so that an author can also
    decide to rename them."""
    import textwrap

    chars = pdflatex_unsupported(text)
    if not chars:
        return ""
    shown = ", ".join(_char_label(c) for c in chars[:_SHOWN_CHARS]) + (
        f" and {len(chars) - _SHOWN_CHARS} more" if len(chars) > _SHOWN_CHARS else "")
    words = (f"Compile with lualatex or xelatex: pdflatex cannot typeset {shown}. In the preamble, "
             "\\usepackage{fontspec} instead of \\usepackage[T1]{fontenc}, and a main font that has these characters, "
             "e.g. \\setmainfont{DejaVu Serif} (Greek, Cyrillic) or \\setmainfont{Noto Serif CJK SC} (Chinese, "
             "Japanese, Korean). Or rename them with Latin letters to stay with pdflatex.")
    lines = textwrap.wrap(words, width=100, break_long_words=False, break_on_hyphens=False)
    return "".join(ENGINE_NOTE_MARK + line.replace("\x01", " ") + "\n" for line in lines)


def with_engine_note(text: str) -> str:
    """``text`` with :func:`engine_note` after its first line (a fragment's first comment stays first)."""
    note = engine_note(text)
    if not note:
        return text
    first, _, rest = text.partition("\n")
    return first + "\n" + note + rest


def strip_engine_notes(text: str) -> str:
    """``text`` without the lines of :func:`engine_note` (to say it once for a whole document)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith(ENGINE_NOTE_MARK))


def journal_p(p, digits: int = 3) -> str:
    """A p-value as journals print it: three significant digits ("0.0258", "0.200", "1.00"), "< 0.001"
    below 0.001, "undefined" for NaN."""
    if p is None or (isinstance(p, (float, np.floating)) and math.isnan(p)):
        return "undefined"
    if p < 0.001:
        return "< 0.001"
    return f"{p:#.{digits}g}".rstrip(".")


def p_clause(p, name: str = "p") -> str:
    """"p = 0.0258" or "p < 0.001" (Unicode text); ``name`` for another p ("adjusted p = 0.0469")."""
    text = journal_p(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


#: Column names of result frames shown as a paper would head them (LaTeX).
LATEX_HEADERS = {
    "a": "$a$", "b": "$b$", "p": "$p$", "p_adj": "adjusted $p$", "pvalue": "$p$", "statistic": "statistic",
    "reject": "rejected", "better": "better", "mean_rank_a": "mean rank $a$", "mean_rank_b": "mean rank $b$",
    "n_datasets": "$N$", "symbol": "", "df": "df", "test": "test", "mean_rank": "mean rank",
    "rank_low": "best rank", "rank_high": "worst rank", "letters": "group",
}
#: Statistic symbols of the omnibus table in math mode.
LATEX_SYMBOLS = {"chi2_F": r"$\chi^2_F$", "F_F": r"$F_F$", "F": r"$F$", "T": r"$T$", "SM": r"$\mathit{SM}$",
                 "z": r"$z$", "t": r"$t$"}
#: Columns that hold p-values (and adjusted p-values) whatever the frame.
P_COLUMNS = ("p", "p_adj", "pvalue", "p_value", "adjusted p")


def _is_p_column(name, frame: pd.DataFrame) -> bool:
    from ._adjust import PROCEDURES

    return name in P_COLUMNS or name in frame.attrs.get("p_columns", ()) or name in PROCEDURES


def _column_format(values: np.ndarray, digits: int, is_p: bool, *, plain: bool = False):
    """One formatter for a numeric column (LaTeX; ``plain``: the same formats as plain text)."""
    finite = values[np.isfinite(values)]
    if is_p:
        return journal_p if plain else (lambda v: "$<0.001$" if v < 0.001 else journal_p(v))
    if finite.size and np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15):
        return lambda v: str(int(v))
    nonzero = np.abs(finite[finite != 0])
    if nonzero.size and nonzero.min() < 10 ** (-digits) and nonzero.max() < 10 ** (-digits + 2):
        def scientific(v):
            if v == 0:
                return "0"
            mant, exp = f"{v:.2e}".split("e")
            return f"{mant}e{int(exp)}" if plain else f"${mant} \\times 10^{{{int(exp)}}}$"
        return scientific
    places = _decimals(finite, None, cap=digits)  # 12.0 and 14.5, not 12.000 and 14.500
    return lambda v: f"{v:.{places}f}"


def _numeric_cells(series: pd.Series, digits: int, is_p: bool, *, plain: bool = False) -> list[str]:
    """A numeric column's cells in one format (LaTeX, or ``plain`` text for HTML and Markdown)."""
    values = series.to_numpy(dtype=float)
    fmt = _column_format(values, digits, is_p, plain=plain)
    out = []
    for v in values:
        if math.isnan(v):
            out.append("–" if plain else "--")
        elif math.isinf(v):
            out.append(("∞" if v > 0 else "−∞") if plain else (r"$\infty$" if v > 0 else r"$-\infty$"))
        else:
            out.append(fmt(v))
    return out


def to_latex(frame, *, caption: str | None = None, label: str | None = None, digits: int = 3,
             index: bool = False, columns=None, headers: dict | None = None) -> str:
    """A booktabs table for a paper (the comment at the top says what the preamble needs).

    One format per column: p-value columns (``p``, ``p_adj``, a procedure's APVs, ``attrs["p_columns"]``)
    as journals print them (three significant digits, ``$<0.001$`` below); integer-valued columns as
    integers; other numbers with ``digits`` decimals, or in scientific notation for a column too small for
    them; booleans as "yes"/"no"; the omnibus symbols in math mode. ``columns`` keeps only those columns
    (in that order); ``headers`` renames columns (LaTeX, used as given); known result columns get a paper's
    heading. Text cells and other headings are escaped.
    """
    frame = as_frame(frame)
    data = frame.reset_index() if index else frame
    if columns is not None:
        data = data[[c for c in columns if c in data.columns]]
    headers = {**LATEX_HEADERS, **(headers or {})}
    cells: list[list[str]] = []
    align = []
    for name in data.columns:
        col = data[name]
        if pd.api.types.is_bool_dtype(col):
            cells.append(["yes" if v else "no" for v in col])
            align.append("c")
        elif pd.api.types.is_numeric_dtype(col):
            cells.append(_numeric_cells(col, digits, _is_p_column(name, frame)))
            align.append("r")
        elif name == "symbol":
            cells.append([LATEX_SYMBOLS.get(v, latex_escape(v)) for v in col])
            align.append("c")
        else:
            cells.append(["--" if v is None or (isinstance(v, float) and math.isnan(v)) else latex_escape(v) for v in col])
            align.append("l")
    head = [headers[c] if isinstance(c, str) and c in headers else latex_escape(c) for c in data.columns]
    lines = [BOOKTABS_COMMENT, r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{latex_escape(caption)}}}")
    if label:
        lines.append(rf"\label{{{_label(label)}}}")
    lines += [rf"\begin{{tabular}}{{{''.join(align)}}}", r"\toprule", latex_row(head), r"\midrule"]
    lines += [latex_row(row) for row in zip(*cells)] if cells else []
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return with_engine_note("\n".join(lines) + "\n")


def _label(label: str) -> str:
    """A \\label key: letters, digits and :-_. only (anything else would break the document)."""
    return re.sub(r"[^A-Za-z0-9:._-]", "-", str(label))


# -- the scores-with-ranks table (Demšar 2006, Table 6) ------------------------------------------------------

def _decimals(scores: np.ndarray, digits: int | None, *, cap: int = 4) -> int:
    """``digits`` if given, else the fewest decimals (up to ``cap``) that keep every score as written."""
    if digits is not None:
        return digits
    finite = scores[np.isfinite(scores)]
    for d in range(cap + 1):
        if np.allclose(finite, np.round(finite, d), rtol=0, atol=1e-9 * 10 ** -d):
            return d
    return cap


def _rank_text(r: float) -> str:
    return "--" if math.isnan(r) else (f"{r:.0f}" if r == round(r) else f"{r:g}")


def scores_table(table, *, format: str = "latex", digits: int | None = None, caption: str | None = None,
                 label: str | None = None, max_rows: int | None = None):
    """The table every such paper has (Demšar 2006, Table 6): each classifier's score on each data set with
    its rank on that data set in brackets, the best of each data set in bold, and a final row of average
    ranks (1 = best; the table's direction decides what "best" is; ties get average ranks).

    ``format``: "latex" (booktabs), "markdown", "csv" (a score column and a rank column per classifier,
    average ranks in the last row) or "frame" (the CSV's DataFrame). ``digits``: decimals of the scores
    (default: as few as keep every score as written, at most 4). ``max_rows`` shows only the first data
    sets; the average ranks always use all of them.
    """
    from ._validation import check_choice

    check_choice(format, ("latex", "markdown", "csv", "frame"), "format")
    scores, ranks = table.scores, table.ranks
    mean_ranks = table.mean_ranks
    shown_scores, shown_ranks = (scores, ranks) if max_rows is None else (scores.iloc[:max_rows], ranks.iloc[:max_rows])
    values = shown_scores.to_numpy(dtype=float)
    rank_values = shown_ranks.to_numpy(dtype=float)
    d = _decimals(values, digits)
    best = rank_values == np.nanmin(np.where(np.isnan(rank_values), np.inf, rank_values), axis=1, keepdims=True)
    names = list(scores.columns)
    if format in ("csv", "frame"):
        out = {}
        for j, name in enumerate(names):
            out[f"{name}"] = list(np.round(values[:, j], d)) + [np.nan]
            out[f"{name} rank"] = list(rank_values[:, j]) + [float(mean_ranks.iloc[j])]
        frame = pd.DataFrame(out, index=[*map(str, shown_scores.index), "average rank"])
        frame.index.name = "data set"
        if format == "frame":
            return frame
        from .report import to_csv

        return to_csv(frame, index=True)
    score_text = np.where(np.isnan(values), "--", np.char.mod(f"%.{d}f", np.nan_to_num(values)))
    if format == "latex":
        cell = lambda i, j: (rf"\textbf{{{score_text[i, j]}}}" if best[i, j] else score_text[i, j]) + f" ({_rank_text(rank_values[i, j])})"
        lines = [BOOKTABS_COMMENT, r"\begin{table}[ht]", r"\centering"]
        if caption:
            lines.append(rf"\caption{{{latex_escape(caption)}}}")
        if label:
            lines.append(rf"\label{{{_label(label)}}}")
        lines += [rf"\begin{{tabular}}{{l{'r' * len(names)}}}", r"\toprule",
                  latex_row(["data set", *map(latex_escape, names)]), r"\midrule"]
        for i, ds in enumerate(shown_scores.index):
            lines.append(latex_row([latex_escape(ds), *(cell(i, j) for j in range(len(names)))]))
        if max_rows is not None and max_rows < len(scores):
            lines.append(rf"\multicolumn{{{len(names) + 1}}}{{l}}{{\dots\ {len(scores) - max_rows} more data sets}} \\")
        lines += [r"\midrule", " & ".join(["average rank", *(f"{r:.3f}" for r in mean_ranks)]) + r" \\",
                  r"\bottomrule", r"\end{tabular}", r"\end{table}"]
        return with_engine_note("\n".join(lines) + "\n")
    from ._markdown_text import md_cell

    cell = lambda i, j: (f"**{score_text[i, j]}**" if best[i, j] else score_text[i, j]) + f" ({_rank_text(rank_values[i, j])})"
    lines = ["| data set | " + " | ".join(md_cell(n) for n in names) + " |",
             "|---|" + "---:|" * len(names)]
    for i, ds in enumerate(shown_scores.index):
        lines.append("| " + md_cell(ds) + " | " + " | ".join(cell(i, j) for j in range(len(names))) + " |")
    if max_rows is not None and max_rows < len(scores):
        lines.append(f"| … {len(scores) - max_rows} more data sets |" + " |" * len(names))
    lines.append("| *average rank* | " + " | ".join(f"{r:.3f}" for r in mean_ranks) + " |")
    return "\n".join(lines) + "\n"
