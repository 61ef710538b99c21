"""Cleaning of score cells as papers print them, and recognition of summary rows.

:func:`clean_score_cells` turns cells such as ``'86.4 ± 1.0'``, ``'**86.4**'``, ``'86.4 (1.0)'`` or
``'86.4†'`` into the mean they show (``'86.4'``) and returns one note per kind of change, with a count
and an example. :func:`summary_row_mask` finds rows such as "Avg. rank" or "W/T/L" that summarise the
table instead of describing a data set.

Limits: a cell is changed only when the cleaned result is a plain number (optionally with a trailing
``%``, which another step removes and notes); anything else is left exactly as it was, so the step
that parses numbers reports the original text. Decorations are recognised by their shape, not by their
meaning: a number in brackets after the mean is dropped whether it is a standard deviation, a rank or a
count. Missing-value tokens ("", "-", "n/a", "—") are never touched. Everything is done with pandas
``.str`` methods on the cells that are not already plain numbers, so a million plain cells cost one
vectorised match.

Cost (issue 27): every pattern is linear in the cell's length. The patterns anchored at the cell's end
start at their sign or bracket, not at the whitespace before it (which the strip after each step
removes anyway), and their repetitions are possessive, so no run of spaces is scanned once per start
position; ``^{...}`` markers hold no brace, so each ``^{`` scans only up to the next brace.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["clean_score_cells", "summary_row_mask", "MISSING_TOKENS"]

#: Cells that mean "no value": left alone here, read as missing by the numeric step.
MISSING_TOKENS = frozenset({"", "-", "–", "—", "n/a", "na", "nan", "?", "none", "null", "n.a.", "--"})

_NUM = r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?"
# The same numbers, possessive: for the patterns that must not backtrack into a number (each part is
# followed by something it cannot match, so giving characters back never helps).
_NUM_P = r"[-+]?+(?:\d++(?:[.,]\d*+)?+|[.,]\d++)(?:[eE][-+]?+\d++)?+"
_PLAIN = re.compile(rf"\s*{_NUM}\s*")
# What a cleaned cell must look like for the cleaning to be kept.
_RESULT = re.compile(rf"{_NUM}%?")

# Minus-like characters that PDFs and Word put in front of negative numbers.
_MINUS = re.compile(r"[\u2212\u2012\u2013\ufe63\uff0d](?=\s?[\d.])")
# Markdown emphasis wrapped around (part of) a cell; single * or _ only around something that starts
# like a number, so that names such as "credit_g" and markers such as "86.4*" are not taken for it.
_BOLD = re.compile(r"(\*\*|__)(.+?)\1")
_ITALIC = re.compile(r"(?<![\w*])([*_])([-+.\d][^*_]*?)\1(?![\w*])")
# Significance / best-value markers written after a number (or after its closing bracket).
_MARK_CHARS = "*†‡§¶•◦∘○●▲▼△▽↑↓✓✗⋆⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵃᵇᶜᵈ"
# "^{...}" holds no brace: "[^}]*" scanned to the cell's end from every "^{" of "1^{1^{1^{..." (issue 27).
_MARKER = re.compile(
    rf"(?<=[\d%)\]])\s*+(?:[{re.escape(_MARK_CHARS)}]|\^(?:\{{[^{{}}]*+\}}|[A-Za-z0-9{re.escape(_MARK_CHARS)}]++))+"
)
# A spread after the mean: "± 1.0", "+- 1.0", "+/- 1.0", "∓ 1.0". It starts at the sign: a leading "\s*"
# was tried from every space of a run ("1" and 10,000 spaces: seconds), and "\s*%?\s*" backtracked
# quadratically; the whitespace before the sign goes with the strip that follows every step.
_PM = re.compile(rf"(?:±|∓|\+\s*+/?\s*+[-−])\s*+{_NUM_P}\s*+%?\s*+$")
# A number in brackets after the mean: "(1.0)", "[1.0]", "(±1.0)". Starts at the bracket (as _PM).
_BRACKET = re.compile(
    rf"(?:\(\s*+(?:±\s*+)?{_NUM_P}\s*+%?\s*+\)|\[\s*+(?:±\s*+)?{_NUM_P}\s*+%?\s*+\])\s*+$"
)

# (pattern, replacement, the note's wording, characters without which the pattern cannot match);
# applied in this order. The trigger lets each regex run only on the cells that may need it.
_STEPS: list[tuple[re.Pattern[str], str, str, re.Pattern[str]]] = [
    (_MINUS, "-", "replaced the unicode minus sign with '-' in {n} cell{s}",
     re.compile("[\u2212\u2012\u2013\ufe63\uff0d]")),
    (_BOLD, r"\2", "removed bold markers (** or __) from {n} cell{s}", re.compile(r"\*\*|__")),
    (_ITALIC, r"\2", "removed italic markers (* or _) from {n} cell{s}", re.compile(r"[*_]")),
    (_MARKER, "", "removed significance or best-value markers (*, †, ‡, §, •, ^a) from {n} cell{s}",
     re.compile(rf"[{re.escape(_MARK_CHARS)}^]")),
    (_PM, "", "removed ± standard deviations from {n} cell{s}", re.compile(r"[±∓+]")),
    (_BRACKET, "",
     "removed the bracketed number after the mean (a standard deviation or a rank) from {n} cell{s}",
     re.compile(r"[)\]]")),
]


def clean_score_cells(values: pd.Series) -> tuple[pd.Series, list[str]]:
    """Strip decorations from score cells so that each keeps only its mean.

    ``values`` holds cell strings (other objects, e.g. numbers from a spreadsheet, pass through). Returns
    the cleaned cells (same index; a cell is changed only when the result is a plain number, possibly
    followed by ``%``) and notes such as "removed ± standard deviations from 105 cells (e.g. '86.4 ± 1.0'
    read as 86.4)", one per kind of change that happened.
    """
    if not (pd.api.types.is_object_dtype(values.dtype) or pd.api.types.is_string_dtype(values.dtype)):
        return values.copy(), []
    if pd.api.types.infer_dtype(values, skipna=True) not in ("string", "mixed", "mixed-integer", "empty"):
        # Only numbers (e.g. a spreadsheet column stored as object): nothing to clean.
        return values.copy(), []
    lengths = values.str.len().to_numpy(dtype=float, na_value=np.nan)
    is_text = ~np.isnan(lengths)
    plain = values.str.fullmatch(_PLAIN).fillna(False).astype(bool).to_numpy()
    short = is_text & ~plain & (lengths <= 8)
    missing = np.zeros(len(values), dtype=bool)
    if short.any():
        missing[short] = values[short].str.strip().str.lower().isin(MISSING_TOKENS).to_numpy()
    candidates = is_text & ~plain & ~missing
    if not candidates.any():
        return values.copy(), []

    # Tables repeat cells ("-", "86.4 ± 1.0"): clean each distinct text once.
    codes, uniques = pd.factorize(values[candidates].astype(object))
    original = pd.Series(uniques, dtype=object)
    current = original.str.strip()
    changed: list[np.ndarray] = []
    for pattern, repl, _, trigger in _STEPS:
        flags = np.zeros(len(current), dtype=bool)
        may = current.str.contains(trigger).to_numpy(dtype=bool)
        if may.any():
            sub = current[may]
            new = sub.str.replace(pattern, repl, regex=True).str.strip()
            diff = (new != sub).to_numpy()
            flags[may] = diff
            if diff.any():
                current = current.copy()
                current[may] = new.to_numpy()
        changed.append(flags)
    accepted_u = current.str.fullmatch(_RESULT).fillna(False).astype(bool).to_numpy()

    out = values.copy()
    accepted = accepted_u[codes]
    if accepted.any():
        keep_index = values.index[candidates][accepted]
        out.loc[keep_index] = current.to_numpy()[codes[accepted]]
    notes = []
    for (_, _, wording, _), flags in zip(_STEPS, changed):
        hit = (flags & accepted_u)[codes]
        n = int(hit.sum())
        if n:
            u = codes[int(np.flatnonzero(hit)[0])]
            example = f"(e.g. '{original.iloc[u]}' read as {current.iloc[u]})"
            notes.append(wording.format(n=n, s="" if n == 1 else "s") + " " + example)
    return out, notes


# Labels of rows that summarise a table, after lower-casing and turning punctuation into spaces.
_STAT = r"(?:avg|ave|average|mean|median|med|std|stdev|std dev|sd|standard deviation|geometric mean|geo mean|harmonic mean|overall|total|sum|count)"
_WHAT = r"(?:rank|ranks|ranking|rankings|position|score|scores|accuracy|acc|auc|error|performance|value|values|result|results)"
_SUMMARY = re.compile(
    rf"""(?x)
    (?:{_STAT}(?:\s{_WHAT})?(?:\s(?:over|across)\s.*)?
    | rank | ranks | ranking | position
    | (?:friedman|average\sfriedman|mean\sfriedman)\s(?:rank|ranks|ranking|statistic|test)
    | (?:avg|average|mean)\s(?:friedman\s)?rank(?:s|ing)?\s.*
    | wins? | losses? | ties?
    | w\st\sl | w\sl\st | w\sl | win\stie\sloss | win\sloss | wins\sties\slosses | wins\slosses
    | win\sdraw\sloss | wins\sdraws\slosses | w\sd\sl
    | (?:number\sof|num|no|nb|n)\s(?:wins|best|times\sbest|firsts)
    | best | times\sbest | number\sbest
    | p\svalue | p\svalues | pvalue | p\sval | adjusted\sp\svalue | adj\sp\svalue
    | (?:friedman|iman\sdavenport|nemenyi|wilcoxon|sign)\s(?:test|p|p\svalue|statistic)
    | cd | critical\sdifference
    )"""
)


def summary_row_mask(labels: pd.Series) -> np.ndarray:
    """True for rows whose first-column label names a summary ("Avg. rank", "W/T/L", "p-value", ...).

    Case and punctuation are ignored ("Avg. rank", "avg rank", "AVG-RANK" are the same). The caller skips
    these rows and says so ("skipped the row 'Avg. rank' (line 14): a summary, not a data set").
    """
    text = labels.astype(object).where(labels.notna(), "").astype(str)
    norm = (
        text.str.lower()
        .str.replace(r"[\W_]+", " ", regex=True)
        .str.strip()
        .str.replace(r"\s+", " ", regex=True)
    )
    return norm.str.fullmatch(_SUMMARY).fillna(False).astype(bool).to_numpy()
