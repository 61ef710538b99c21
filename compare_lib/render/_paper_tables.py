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
from typing import Sequence

import numpy as np
import pandas as pd

from compare_lib.core._format import _column_format, _decimals, _numeric_cells, journal_p  # noqa: F401  (journal_p public here)
from compare_lib.core._result import as_frame
from compare_lib.errors import InputError, arg

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
    seen: dict[str, None] = {}  # an ordered set
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
    from compare_lib.multiple._adjust import PROCEDURES

    return name in P_COLUMNS or name in frame.attrs.get("p_columns", ()) or name in PROCEDURES



def to_latex(frame, *, caption: str | None = None, label: str | None = None, digits: int = 3,
             index: bool = False, columns=None, headers: dict | None = None, caption_is_latex: bool = False,
             width: float | None = None, wide: str | None = None) -> str:
    """A booktabs table for a paper (the comment at the top says what the preamble needs).

    One format per column: p-value columns (``p``, ``p_adj``, a procedure's APVs, ``attrs["p_columns"]``)
    as journals print them (three significant digits, ``$<0.001$`` below); integer-valued columns as
    integers; other numbers with ``digits`` decimals, or in scientific notation for a column too small for
    them; booleans as "yes"/"no"; the omnibus symbols in math mode. ``columns`` keeps only those columns
    (in that order); ``headers`` renames columns (LaTeX, used as given); known result columns get a paper's
    heading. Text cells and other headings are escaped; so is ``caption``, unless ``caption_is_latex`` (a
    caption already in LaTeX, e.g. with citations). With ``width`` (pt) or ``wide``, the table fits the width
    as :func:`posthoc_latex` does (smaller type, codes for classifier names, floats or longtables of at most
    :data:`LONG_TABLE_ROWS` rows).
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
    if width is not None or wide is not None:
        name_columns = [c for c in data.columns if c in _NAME_COLUMNS]
        fitted = [_Column(h, _latex_plain(h), col, [_latex_plain(x) for x in col], a, names=name in _NAME_COLUMNS)
                  for name, h, col, a in zip(data.columns, head, cells, align)]
        names = list(dict.fromkeys(str(v) for c in name_columns for v in data[c]))
        return _fitted_table(fitted, names=names, caption=caption, label=label, width=_check_wide(wide, width),
                             wide=wide, caption_is_latex=caption_is_latex)
    lines = [BOOKTABS_COMMENT, r"\begin{table}[ht]", r"\centering"]
    if caption:
        lines.append(rf"\caption{{{caption if caption_is_latex else latex_escape(caption)}}}")
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


def _rank_text(r: float) -> str:
    return "--" if math.isnan(r) else (f"{r:.0f}" if r == round(r) else f"{r:g}")


def scores_table(table, *, format: str = "latex", digits: int | None = None, caption: str | None = None,
                 label: str | None = None, max_rows: int | None = None, wide: str | None = None,
                 width: float | None = None, caption_is_latex: bool = False):
    """The table every such paper has (Demšar 2006, Table 6): each classifier's score on each data set with
    its rank on that data set in brackets, the best of each data set in bold, and a final row of average
    ranks (1 = best; the table's direction decides what "best" is; ties get average ranks).

    ``format``: "latex" (booktabs), "markdown", "csv" (a score column and a rank column per classifier,
    average ranks in the last row) or "frame" (the CSV's DataFrame). ``digits``: decimals of the scores
    (default: as few as keep every score as written, at most 4). ``max_rows`` shows only the first data
    sets; the average ranks always use all of them.

    The LaTeX table fits ``width`` (pt; default: the article class's text width, 345 pt): it takes the first
    layout that fits (``\\small``, ``\\footnotesize``, classifier names as codes defined in a note), and a table
    too wide for any is split into blocks of classifiers stacked in the same table, each with its data sets and
    average ranks. ``wide="table*"`` makes a ``table*`` across both columns of a two-column document (469 pt by
    default), ``wide="landscape"`` a table on a page turned sideways (pdflscape; 550 pt): fewer blocks. More
    than :data:`LONG_TABLE_ROWS` rows make longtables that break across pages (the first comment line names
    the packages).
    """
    from compare_lib.core._validation import check_choice

    check_choice(format, ("latex", "markdown", "csv", "frame"), "tables.format")  # not read_results' format
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
        from compare_lib.core._format import to_csv

        return to_csv(frame, index=True)
    score_text = np.where(np.isnan(values), "--", np.char.mod(f"%.{d}f", np.nan_to_num(values)))
    if format == "latex":
        return _scores_latex(table, shown_scores, score_text, rank_values, best, mean_ranks, caption=caption,
                             label=label, more=(len(scores) - max_rows) if max_rows is not None and max_rows < len(scores)
                             else 0, width=_check_wide(wide, width), wide=wide, caption_is_latex=caption_is_latex)
    from compare_lib.core._format import md_cell

    cell = lambda i, j: (f"**{score_text[i, j]}**" if best[i, j] else str(score_text[i, j])) + f" ({_rank_text(rank_values[i, j])})"
    lines = ["| data set | " + " | ".join(md_cell(n) for n in names) + " |",
             "|---|" + "---:|" * len(names)]
    for i, ds in enumerate(shown_scores.index):
        lines.append("| " + md_cell(ds) + " | " + " | ".join(cell(i, j) for j in range(len(names))) + " |")
    if max_rows is not None and max_rows < len(scores):
        lines.append(f"| … {len(scores) - max_rows} more data sets |" + " |" * len(names))
    lines.append("| *average rank* | " + " | ".join(f"{r:.3f}" for r in mean_ranks) + " |")
    return "\n".join(lines) + "\n"


# -- tables that fit the page (issue 28) -----------------------------------------------------------------------
# A table for a paper must fit the text width: the report's post-hoc table used to be 250-500 pt wider than an
# article's. The widths of the cells are estimated with the widths of the Computer Modern (EC) characters, and a
# table takes the first layout that fits: a smaller font and narrower column gaps, then optional columns left out
# (each one said in a note), then classifier names replaced by short codes defined in a note; a scores table too
# wide for any of them is split into blocks of classifiers. Long tables break across pages (longtable).

#: Widths of the printable ASCII characters in Computer Modern / EC Roman at 10 pt, in pt (measured with pdflatex).
_CHAR_PT = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    (3.33, 2.78, 5.0, 8.33, 5.0, 8.33, 7.78, 2.78, 3.89, 3.89, 5.0, 7.78, 2.78, 3.33, 2.78, 5.0, 5.0, 5.0, 5.0, 5.0,
     5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 2.78, 2.78, 7.78, 7.78, 7.78, 4.72, 7.78, 7.5, 7.08, 7.22, 7.64, 6.8, 6.53, 7.85,
     7.5, 3.61, 5.14, 7.78, 6.25, 9.16, 7.5, 7.78, 6.8, 7.78, 7.36, 5.55, 7.22, 7.5, 7.5, 10.28, 7.5, 7.5, 6.11, 2.78,
     5.0, 2.78, 6.11, 7.78, 2.78, 5.0, 5.55, 4.44, 5.55, 4.44, 3.05, 5.0, 5.55, 2.78, 3.05, 5.28, 2.78, 8.33, 5.55,
     5.0, 5.55, 5.28, 3.92, 3.94, 3.89, 5.55, 5.28, 7.22, 5.28, 5.28, 4.44, 5.0, 2.78, 5.0, 6.11)))
_SYMBOL_PT = {"−": 7.78, "±": 7.78, "–": 5.0, "—": 10.0, "…": 10.0, "≠": 7.78, "α": 6.4, "χ": 6.3, "²": 3.6}
#: Bold digits are about 15% wider.
_BOLD = 1.15
#: The text width of LaTeX's standard article class (10 pt, one column): what every table fits by default.
ARTICLE_WIDTH_PT = 345.0
#: The default width a ``wide`` table may take: a two-column article's full text width (the narrowest of the usual
#: two-column styles) for ``table*``, the article's text height for a landscape page.
WIDE_WIDTH_PT = {"table*": 469.0, "landscape": 550.0}
WIDE_OPTIONS = (None, "table*", "landscape")
#: A width below this (pt) is a column of a two-column document, where longtable cannot be used.
TWO_COLUMN_BELOW_PT = 300.0
#: Rows above which a table breaks across pages (longtable): about a page of \small rows.
LONG_TABLE_ROWS = 40
#: The estimate must fit this share of the width (kerning and rounding are not estimated).
_MARGIN = 0.97


def text_width_pt(text: str, size: float = 10.0, *, bold: bool = False) -> float:
    """The width of ``text`` typeset in Computer Modern at ``size`` pt, estimated from the characters' widths
    (plain text, not LaTeX; accented Latin letters as their base letter)."""
    import unicodedata

    total = 0.0
    for ch in str(text):
        w = _CHAR_PT.get(ch)
        if w is None:
            w = _SYMBOL_PT.get(ch)
        if w is None:  # an accented Latin letter as its base letter; a wide (CJK) character 1 em; else 5.5 pt
            wide_char = unicodedata.east_asian_width(ch) in "WF"
            w = 10.0 if wide_char else _CHAR_PT.get(unicodedata.normalize("NFD", ch)[:1], 5.5)
        total += w * (_BOLD if bold and ch.isdigit() else 1.0)
    return total * size / 10.0


def _check_wide(wide, width):
    if wide not in WIDE_OPTIONS:
        raise InputError(f"{arg('wide', wide)}: give None (a table at the text width), 'table*' (a table across both "
                         "columns of a two-column document) or 'landscape' (a page turned sideways).")
    if width is None:
        return ARTICLE_WIDTH_PT if wide is None else WIDE_WIDTH_PT[wide]
    if not (isinstance(width, (int, float)) and not isinstance(width, bool) and 50 <= float(width) <= 2000):
        raise InputError(f"{arg('width', width)}: give the text width in points (pt) from 50 to 2000, e.g. 345 for the "
                         "article class, 229.5 for a column of a two-column article.")
    return float(width)


def needs_comment(packages) -> str:
    """The comment that opens a fragment: the packages its preamble needs."""
    packages = list(dict.fromkeys(packages))
    listed = " and ".join(f"\\usepackage{{{p}}}" for p in packages)
    return f"% Needs {listed} in the preamble (a table in the booktabs style)."


#: Every first line of a table fragment starts with this (a report says it once, at the top).
NEEDS_MARK = "% Needs \\usepackage"


#: Columns of result frames that hold classifier names (shown as codes when the names do not fit).
_NAME_COLUMNS = ("classifier", "a", "b", "better", "control")
_PLAIN_SYMBOLS = {r"\chi": "χ", r"\alpha": "α", r"\times": "×", r"\pm": "±", r"\infty": "∞", r"\neq": "≠",
                  r"\dots": "…", r"\approx": "≈"}


def _latex_plain(tex: str) -> str:
    """About the text a LaTeX cell prints (for its width): commands and math markers removed."""
    text = str(tex)
    for command, symbol in _PLAIN_SYMBOLS.items():
        text = text.replace(command, symbol)
    text = re.sub(r"\\(?:textbf|emph|mathit|mathrm|text)\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\([%&#_${}])", r"\1", text)
    text = re.sub(r"\\[A-Za-z]+\*?", "", text)
    return text.replace("$", "").replace("{", "").replace("}", "").replace("^", "").replace("--", "–").replace("~", " ")


class _Column:
    """One column of a table that must fit: LaTeX cells and the plain text they print (for the widths)."""

    def __init__(self, header: str, plain_header: str, cells: list[str], plain: list[str], align: str = "l", *,
                 drop: int = 0, names: bool = False, bold: list[bool] | None = None, dropped_as: str = "",
                 name_header: bool = False):
        self.header, self.plain_header, self.cells, self.plain, self.align = header, plain_header, cells, plain, align
        self.drop, self.names, self.bold, self.dropped_as = drop, names, bold, dropped_as
        self.name_header = name_header  # the heading is a classifier's name (a scores table)

    def head(self, codes: dict | None) -> str:
        return latex_escape(codes.get(self.plain_header, self.plain_header)) if codes and self.name_header else self.header

    def width(self, size: float, codes: dict | None = None) -> float:
        plain = [codes.get(c, c) for c in self.plain] if (codes and self.names) else self.plain
        header = codes.get(self.plain_header, self.plain_header) if (codes and self.name_header) else self.plain_header
        bold = self.bold or [False] * len(plain)
        widest = max((text_width_pt(c, size, bold=b) for c, b in zip(plain, bold) if not c.startswith(_SPAN)),
                     default=0.0)
        return max(widest, text_width_pt(header, size))


#: A cell starting with this spans its row (its text follows); its width is not counted.
_SPAN = "\x00span:"
#: Layouts tried in turn: font size command, its size in pt, the gap between columns (\tabcolsep, pt).
_SIZES = ((r"\small", 9.0, 4.0), (r"\footnotesize", 8.0, 3.0))


def _table_width(columns: list[_Column], size: float, gap: float, codes: dict | None) -> float:
    return sum(c.width(size, codes) for c in columns) + 2 * gap * max(len(columns) - 1, 0)


def classifier_codes(names) -> dict[str, str]:
    """Short codes for classifier names that do not fit a table: "C1", "C2", ... in the table's order (another
    letter when a classifier is itself named like a code)."""
    names = [str(n) for n in names]
    for prefix in ("C", "M", "A", "K"):
        codes = {n: f"{prefix}{i + 1}" for i, n in enumerate(names)}
        if not set(codes.values()) & set(names):
            return codes
    return {n: f"C{i + 1}'" for i, n in enumerate(names)}


def _choose_layout(columns: list[_Column], width: float, names: list[str]):
    """The first layout (font size, gap, codes for the names or None, columns kept) whose estimated width fits
    ``width``; the last one tried when none does."""
    codes_all = classifier_codes(names)
    has_names = any(c.names or c.name_header for c in columns)
    levels = sorted({c.drop for c in columns if c.drop})
    tried = None
    for command, size, gap in _SIZES:
        for codes in (None, codes_all) if has_names else (None,):
            if codes is not None and _table_width(columns, size, gap, codes) >= _table_width(columns, size, gap, None):
                continue  # the codes are no shorter than the names
            for n_drop in range(len(levels) + 1):
                kept = [c for c in columns if not c.drop or c.drop not in levels[:n_drop]]
                tried = (command, size, gap, codes, kept)
                if _table_width(kept, size, gap, codes) <= width * _MARGIN:
                    return tried
    return tried


def _fitted_table(columns: list[_Column], *, names: list[str], caption: str | None, label: str | None,
                  width: float, wide: str | None, notes: Sequence[str] = (), caption_is_latex: bool = False) -> str:
    """A booktabs table of ``columns`` in the first layout that fits ``width`` (a longtable when it has more
    rows than :data:`LONG_TABLE_ROWS`, except across two columns), with its notes below it."""
    command, size, gap, codes, kept = _choose_layout(columns, width, names)
    dropped = [c.dropped_as for c in columns if c not in kept and c.dropped_as]
    notes = list(notes)
    if dropped:
        words = _join_words(dropped)
        notes.append(words[:1].upper() + words[1:] + " are left out to fit the text width (the HTML and JSON reports "
                     "have them).")
    return _render([kept], command=command, gap=gap, codes=codes, caption=caption, label=label, wide=wide,
                   notes=notes, caption_is_latex=caption_is_latex, in_column=width < TWO_COLUMN_BELOW_PT)


def _render(blocks: list[list[_Column]], *, command: str | None, gap: float | None, codes: dict | None,
            caption: str | None, label: str | None, wide: str | None, notes: Sequence[str] = (),
            caption_is_latex: bool = False, in_column: bool = False, rule_before: tuple[int, ...] = ()) -> str:
    """The LaTeX of a table made of one or more blocks of columns (each its own tabular, stacked), in a
    ``table`` (``table*`` across two columns; on a landscape page), or as longtables when it has more rows
    than :data:`LONG_TABLE_ROWS` (not across two columns, nor ``in_column``, a column of a two-column document,
    where longtable cannot be: then in floats of at most that many rows). ``codes`` replace the classifier names
    of the name columns (defined in the first note); a rule goes before the rows ``rule_before`` (the average
    ranks of a scores table)."""
    n_rows = max((len(c.cells) for block in blocks for c in block), default=0)
    total_rows = n_rows * len(blocks)  # blocks are stacked
    long = total_rows > LONG_TABLE_ROWS and wide != "table*" and not in_column
    packages = ["booktabs"] + (["longtable"] if long else []) + (["pdflscape"] if wide == "landscape" else [])
    notes = list(notes)
    if codes:
        notes.insert(0, "Abbreviations: " + "; ".join(f"{latex_escape(code)} = {latex_escape(name)}"
                                                       for name, code in codes.items()) + ".")
    cap = None if not caption else (caption if caption_is_latex else latex_escape(caption))
    note_par = (r"{\footnotesize\raggedright " + " ".join(notes) + r"\par}") if notes else ""
    font = ([command] if command else []) + ([rf"\setlength{{\tabcolsep}}{{{gap:g}pt}}"] if gap is not None else [])

    def body(block):
        head = [c.head(codes) for c in block]
        rows = [[(latex_escape(codes.get(c.plain[i], c.plain[i])) if (codes and c.names) else c.cells[i])
                 for c in block] for i in range(n_rows)]
        rows = [[rf"\multicolumn{{{len(block)}}}{{@{{}}l}}{{{r[0][len(_SPAN):]}}}"] if r[0].startswith(_SPAN) else r
                for r in rows]
        spec = "@{}" + "".join(c.align for c in block) + "@{}"
        return head, rows, spec

    lines = [needs_comment(packages)]
    if wide == "landscape":
        lines.append(r"\begin{landscape}")
    if long:
        lines += [r"\begingroup", *font]
        for k, block in enumerate(blocks):
            head, rows, spec = body(block)
            lines.append(rf"\begin{{longtable}}{{{spec}}}")
            if k == 0 and cap:
                lines.append(rf"\caption{{{cap}}}" + (rf"\label{{{_label(label)}}}" if label else "") + r"\\")
            elif k > 0:
                lines.append(rf"\multicolumn{{{len(block)}}}{{@{{}}l}}{{\footnotesize (continued)}}\\")
            lines += [r"\toprule", latex_row(head), r"\midrule", r"\endfirsthead",
                      rf"\multicolumn{{{len(block)}}}{{@{{}}l}}{{\footnotesize (continued)}}\\", r"\toprule",
                      latex_row(head), r"\midrule", r"\endhead", r"\bottomrule", r"\endfoot"]
            lines += [(r"\midrule" + "\n" if i in rule_before else "") + latex_row(r) for i, r in enumerate(rows)]
            lines.append(r"\end{longtable}")
        if note_par:
            lines.append(note_par)
        lines.append(r"\endgroup")
    else:
        # Floats of at most LONG_TABLE_ROWS rows each (a float cannot break across pages; table* cannot be a
        # longtable): the blocks, and the rows of a block too long for one float, are shared out among them.
        env = "table*" if wide == "table*" else "table"
        pieces = []  # (block, first row, end row)
        for block in blocks:
            for start in range(0, max(n_rows, 1), LONG_TABLE_ROWS):
                pieces.append((block, start, min(start + LONG_TABLE_ROWS, n_rows)))
        floats: list[list[tuple[list[_Column], int, int]]] = []
        current: list[tuple[list[_Column], int, int]] = []
        used = 0
        for piece in pieces:
            size = piece[2] - piece[1]
            if current and used + size > LONG_TABLE_ROWS:
                floats.append(current)
                current, used = [], 0
            current.append(piece)
            used += size
        floats.append(current)
        for f, pieces_here in enumerate(floats):
            lines += [rf"\begin{{{env}}}[ht]", r"\centering"]
            if cap:
                lines.append(rf"\caption{{{cap}}}" if f == 0 else rf"\caption{{{cap} (continued)}}")
            if label and f == 0:
                lines.append(rf"\label{{{_label(label)}}}")
            lines += font
            for k, (block, start, end) in enumerate(pieces_here):
                head, rows, spec = body(block)
                if k:
                    lines.append(r"\par\medskip")
                lines += [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", latex_row(head), r"\midrule",
                          *((r"\midrule" + "\n" if start + i in rule_before else "") + latex_row(r)
                            for i, r in enumerate(rows[start:end])), r"\bottomrule", r"\end{tabular}"]
            if note_par and f == len(floats) - 1:
                lines.append(r"\par\smallskip" + note_par)
            lines.append(rf"\end{{{env}}}")
    if wide == "landscape":
        lines.append(r"\end{landscape}")
    return with_engine_note("\n".join(lines) + "\n")


def _join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_MINUS = re.compile(r"(?<![\w$-])-(?=[\d.])")


def _math_minus(text: str) -> str:
    """The minus signs of numbers as LaTeX's minus ($-$), not hyphens ("--" for a missing value stays)."""
    return text if "$" in text else _MINUS.sub("$-$", text)


def _p_cells(values) -> tuple[list[str], list[str]]:
    """p-values as journals print them (three significant digits, "< 0.001" below): LaTeX and plain."""
    plain = [journal_p(v) for v in values]
    return [("$<$0.001" if t.startswith("<") else t) for t in plain], plain


#: The effect measures' headings in a LaTeX table (short: the effect column must stay narrow).
LATEX_EFFECT = {"hodges_lehmann": ("HL", "HL"), "mean_difference": ("MD", "MD"), "cohens_dz": ("$d_z$", "dz"),
                "rank_biserial": (r"$r_{\mathrm{rb}}$", "rrb"), "prob_superiority": ("PS", "PS")}
_EFFECT_MEANING = {
    "hodges_lehmann": "the Hodges--Lehmann estimate of the median difference $a - b$",
    "mean_difference": "the mean difference $a - b$", "cohens_dz": "Cohen's $d_z$ of $a - b$",
    "rank_biserial": "the matched-pairs rank-biserial correlation", "prob_superiority": "the share of data sets $a$ wins",
}


def posthoc_latex(result, *, caption: str | None = None, label: str | None = None, width: float | None = None,
                  wide: str | None = None, digits: int = 3, caption_is_latex: bool = False) -> str:
    """The post-hoc table of a paper, compact enough for the text width (issue 28): one row per pair with
    $a$, $b$, the statistic, $p$, the adjusted $p$, the better classifier of each pair found different (empty
    where the pair is not significant) and, when the result carries them (:func:`compare_lib.with_effect_sizes`),
    the effect size with its confidence interval in one narrow column.

    The table takes the first layout whose estimated width fits ``width`` (pt; default: the article class's text
    width, 345 pt, or the ``wide`` width): ``\\small`` then ``\\footnotesize``, then without the statistic and the
    unadjusted $p$ (said in a note), then with the classifiers as codes defined in a note. ``wide``: None (a
    ``table``), "table*" (across both columns of a two-column document, 469 pt by default) or "landscape" (a
    page turned sideways with pdflscape, 550 pt). More than :data:`LONG_TABLE_ROWS` pairs make a longtable that
    breaks across pages (``\\usepackage{longtable}``, said in the first comment line).
    """
    from compare_lib.multiple._adjust import PROCEDURES

    width = _check_wide(wide, width)
    frame = as_frame(result)
    attrs = frame.attrs
    names = list(attrs.get("mean_ranks", {}).keys()) or list(dict.fromkeys([*frame["a"], *frame["b"]]))
    proc = PROCEDURES.get(attrs.get("correction"))
    corrects = getattr(proc, "corrects", True) if proc is not None else True
    a = [str(x) for x in frame["a"]]
    b = [str(x) for x in frame["b"]]
    columns: list[_Column | None] = [_Column("$a$", "a", [latex_escape(x) for x in a], a, names=True),
                                     _Column("$b$", "b", [latex_escape(x) for x in b], b, names=True)]
    stat = frame["statistic"].to_numpy(dtype=float)
    stat_plain = _numeric_cells(frame["statistic"], digits, False, plain=True)
    columns.append(_Column("stat.", "stat.", [_math_minus(t) for t in _numeric_cells(frame["statistic"], digits, False)],
                           [t.replace("-", "−") for t in stat_plain], "r", drop=1, dropped_as="the test statistics")
                   if np.isfinite(stat).any() else None)
    p_latex, p_plain = _p_cells(frame["p"].to_numpy(dtype=float))
    adj_latex, adj_plain = _p_cells(frame["p_adj"].to_numpy(dtype=float))
    if corrects:
        columns.append(_Column("$p$", "p", p_latex, p_plain, "r", drop=2, dropped_as="the unadjusted p-values"))
        columns.append(_Column(r"adj.\ $p$", "adj. p", adj_latex, adj_plain, "r"))
    else:
        columns.append(_Column("$p$", "p", p_latex, p_plain, "r"))
    better = []
    for reject, name in zip(frame["reject"], frame["better"]):
        better.append("" if not reject else (str(name) if name else "≠"))
    columns.append(_Column("better", "better", [(r"$\neq$" if x == "≠" else latex_escape(x)) for x in better], better,
                           names=True))
    notes = []
    if "effect" in frame.columns:
        measure = attrs.get("effect_measure")
        head, head_plain = LATEX_EFFECT.get(measure, ("effect", "effect"))
        values = frame["effect"].to_numpy(dtype=float)
        low = frame["effect_low"].to_numpy(dtype=float) if "effect_low" in frame.columns else np.full(len(frame), np.nan)
        high = frame["effect_high"].to_numpy(dtype=float) if "effect_high" in frame.columns else low
        everything = np.concatenate([values, low, high])
        fmt = _column_format(everything, digits, False, plain=True)
        text = lambda v: "–" if v != v else fmt(v)
        level = f"{attrs.get('effect_level', 0.95):.0%}"
        with_ci = bool(np.isfinite(low).any())
        plain = [f"{text(v)} [{text(lo)}, {text(hi)}]" if with_ci else text(v) for v, lo, hi in zip(values, low, high)]
        cells = [_math_minus(t.replace("–", "--")) for t in plain]
        plain = [t.replace("-", "−") for t in plain]
        header = f"{head} [{level.replace('%', chr(92) + '%')} CI]" if with_ci else head
        columns.append(_Column(header, f"{head_plain} [{level} CI]" if with_ci else head_plain, cells, plain, "r"))
        notes.append(f"{head}: {_EFFECT_MEANING.get(measure, 'the effect size')}" + (
            f", with its {level.replace('%', chr(92) + '%')} confidence interval" if with_ci else "")
            + " (positive favours $a$).")
    if "n_datasets" in frame.columns:
        n = frame["n_datasets"].to_numpy()
        columns.append(_Column("$N$", "N", [str(int(v)) for v in n], [str(int(v)) for v in n], "r"))
    what = (f"adj.\\ $p$: adjusted by {latex_escape(proc.label)}'s procedure; " if corrects and proc is not None else
            "$p$: not corrected for multiple comparisons; " if not corrects else "")
    notes.insert(0, what + "better: the better classifier of each pair found different at "
                 + rf"$\alpha = {attrs.get('alpha', 0.05):g}$ (empty: not significant).")
    return _fitted_table([c for c in columns if c is not None], names=names, caption=caption, label=label, width=width,
                         wide=wide, notes=notes, caption_is_latex=caption_is_latex)


def pair_probabilities_latex(frame: pd.DataFrame, *, caption: str | None = None, label: str | None = None,
                             width: float | None = None, wide: str | None = None, caption_is_latex: bool = False) -> str:
    """The Bayesian comparisons (a :func:`compare_lib.bayesian_posthoc` frame) as a table that fits the text width
    (the layouts of :func:`posthoc_latex`)."""
    width = _check_wide(wide, width)
    a = [str(x) for x in frame["a"]]
    b = [str(x) for x in frame["b"]]
    names = list(dict.fromkeys([*a, *b]))
    columns = [_Column("$a$", "a", [latex_escape(x) for x in a], a, names=True),
               _Column("$b$", "b", [latex_escape(x) for x in b], b, names=True)]
    for col, head, plain in (("p_a", r"$P(a>b)$", "P(a>b)"), ("p_rope", r"$P(a\approx b)$", "P(a≈b)"),
                             ("p_b", r"$P(b>a)$", "P(b>a)")):
        cells = [f"{v:.3f}" for v in frame[col].to_numpy(dtype=float)]
        columns.append(_Column(head, plain, cells, cells, "r"))
    decision = [str(d) for d in frame["decision"]]
    columns.append(_Column("decision", "decision", [latex_escape(d) for d in decision], decision))
    return _fitted_table(columns, names=names, caption=caption, label=label, width=width, wide=wide,
                         notes=[r"$P(a \approx b)$: the posterior probability of practical equivalence (the ROPE)."],
                         caption_is_latex=caption_is_latex)


def _scores_latex(table, shown_scores, score_text, rank_values, best, mean_ranks, *, caption, label, more: int,
                  width: float, wide: str | None, caption_is_latex: bool) -> str:
    """The LaTeX of :func:`scores_table`: the first layout that fits ``width``, else blocks of classifiers."""
    names = [str(n) for n in shown_scores.columns]
    n_rows = len(shown_scores)
    datasets = [str(d) for d in shown_scores.index]
    rows_plain = datasets + ([_SPAN] if more else []) + ["average rank"]  # the "more" row spans the block
    first_cells = [latex_escape(d) for d in datasets] + ([_SPAN + rf"\dots\ {more} more data sets"] if more else []) + [
        "average rank"]
    first = _Column("data set", "data set", first_cells, rows_plain)
    columns = []
    for j, name in enumerate(names):
        plain = [f"{score_text[i, j]} ({_rank_text(rank_values[i, j])})" for i in range(n_rows)]
        cells = [(rf"\textbf{{{score_text[i, j]}}}" if best[i, j] else score_text[i, j])
                 + f" ({_rank_text(rank_values[i, j])})" for i in range(n_rows)]
        bold = [bool(best[i, j]) for i in range(n_rows)]
        rank = f"{mean_ranks.iloc[j]:.3f}"
        filler = [""] if more else []
        columns.append(_Column(latex_escape(name), name, cells + filler + [rank], plain + filler + [rank], "r",
                               name_header=True, bold=bold + [False] * (len(filler) + 1)))
    codes_all = classifier_codes(names)
    sizes = ((None, 10.0, None), *_SIZES)
    fits = lambda size, gap, codes: (first.width(size) + sum(c.width(size, codes) for c in columns)
                                     + 2 * (6.0 if gap is None else gap) * len(columns)) <= width * _MARGIN
    for command, size, gap in sizes:
        for codes in (None, codes_all):
            if fits(size, gap, codes):
                return _scores_blocks([columns], first, more, command, gap, codes, caption, label, wide,
                                      caption_is_latex, width)
    command, size, gap = _SIZES[0]
    best_split: tuple[list[list[_Column]], dict | None] | None = None
    for codes in (None, codes_all):
        blocks: list[list[_Column]] = []
        current: list[_Column] = []
        used = first.width(size)
        for column in columns:
            w = column.width(size, codes) + 2 * gap
            if current and used + w > width * _MARGIN:
                blocks.append(current)
                current, used = [], first.width(size)
            current.append(column)
            used += w
        blocks.append(current)
        if best_split is None or len(blocks) < len(best_split[0]):
            best_split = (blocks, codes)
    assert best_split is not None  # set on the loop's first pass
    return _scores_blocks(best_split[0], first, more, command, gap, best_split[1], caption, label, wide,
                          caption_is_latex, width)


def _scores_blocks(blocks, first, more, command, gap, codes, caption, label, wide, caption_is_latex, width) -> str:
    tex = _render([[first, *block] for block in blocks], command=command, gap=gap, codes=codes, caption=caption,
                  label=label, wide=wide, caption_is_latex=caption_is_latex, in_column=width < TWO_COLUMN_BELOW_PT,
                  rule_before=(len(first.cells) - 1,),
                  notes=[] if len(blocks) == 1 else [f"The {sum(map(len, blocks))} classifiers are shown in "
                                                     f"{len(blocks)} blocks to fit the text width."])
    return tex
