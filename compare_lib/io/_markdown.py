"""Reading a Markdown pipe table (a leaderboard, a README table) into a :class:`RawTable`.

The table is the line before the first alignment row (``|---|:--:|``) and the lines with pipes that
follow it; without an alignment row, the first run of lines starting with ``|`` is read with its first
line as the header. Outer pipes are optional; ``\\|`` is a literal pipe inside a cell. Text before and
after the table (a title, a caption, footnotes) is skipped with a note. Inline formatting is removed
from cells: ``**bold**``, ``__bold__``, ``*italic*``, ``_italic_``, ``~~struck~~``, backticks, links
(``[RF](https://...)`` gives ``RF``), images (their alt text), HTML tags and entities
(``&plusmn;`` gives ``±``).

Limits: only the first table is read (a note says when there are more); a row with a different number
of cells from the header raises :class:`~compare_lib.errors.InputError` naming the line (GitHub would
pad or cut such a row silently; here it is more likely a ``|`` inside a name). Pipes inside backticks
must be escaped as on GitHub. Tables over 200,000 lines, and tables of more than
:data:`~compare_lib.limits.MAX_TABLE_COLUMNS` columns, are refused.

Cost (issue 27): linear in the text's length. The alignment-row pattern is possessive; links, images and
HTML tags are removed by small scanners that remember where the next ``]``, ``)`` or ``>`` is (the
patterns ``\\[([^\\]]*)\\]\\([^)]*\\)`` and ``</?[A-Za-z][^>]*>`` scanned to the cell's end from every ``[``
or ``<`` of a cell without a closing one: quadratic); the cells of all columns are cleaned in one
vectorised pass.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.io._raw import MAX_TEXT_TABLE_LINES, RawTable, table_lines
from compare_lib.limits import MAX_TABLE_COLUMNS

__all__ = ["read_markdown", "MAX_LINES"]

MAX_LINES = MAX_TEXT_TABLE_LINES

# Possessive: each part is followed by something it cannot match, so nothing is given back (the greedy
# form backtracked quadratically on "|---" followed by spaces).
_ALIGN = re.compile(r"\s*+\|?\s*+:?-++:?\s*+(?:\|\s*+:?-++:?\s*+)*+\|?\s*+")
_PIPE = re.compile(r"(?<!\\)\|")



class _NextChar:
    """``s.find(ch, j)`` for a growing ``j``: the last answer per character is remembered, so a run of
    openers that share one closing character scans the text once, not once per opener."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.last: dict[str, tuple[int, int]] = {}

    def __call__(self, ch: str, j: int) -> int:
        seen = self.last.get(ch)
        if seen is not None and seen[0] <= j and (seen[1] < 0 or j <= seen[1]):
            return seen[1]
        k = self.s.find(ch, j)
        self.last[ch] = (j, k)
        return k


def _links(opener: str, middle: str, close: str):
    """A replacement of ``opener + [^\\]]* + "]" + middle + [^close]* + close`` by the text in the first
    brackets, as ``re.sub`` does it (leftmost first, no overlaps), in one pass."""

    def replace(s: str) -> str:
        p = s.find(opener)
        if p < 0:
            return s
        find = _NextChar(s)
        out: list[str] = []
        pos = 0
        while p >= 0:
            r = find("]", p + len(opener))
            if r < 0:
                break  # no "]" after this opener, nor after any later one
            if s.startswith(middle, r + 1):
                c = find(close, r + 1 + len(middle))
                if c < 0:
                    break  # later openers close at this "]" or after it: none has its end either
                out.append(s[pos:p])
                out.append(s[p + len(opener) : r])
                pos = c + 1
                p = s.find(opener, pos)
            else:
                p = s.find(opener, p + 1)
        out.append(s[pos:])
        return "".join(out)

    return replace


def _tags(s: str) -> str:
    """``re.sub(r"</?[A-Za-z][^>]*>", "", s)`` in one pass (HTML tags removed)."""
    p = s.find("<")
    if p < 0:
        return s
    find = _NextChar(s)
    out: list[str] = []
    pos = 0
    while p >= 0:
        q = p + 2 if s.startswith("/", p + 1) else p + 1
        if q < len(s) and s[q].isascii() and s[q].isalpha():
            g = find(">", q + 1)
            if g < 0:
                break  # no ">" after this tag's start, nor after any later one
            out.append(s[pos:p])
            pos = g + 1
            p = s.find("<", pos)
        else:
            p = s.find("<", p + 1)
    out.append(s[pos:])
    return "".join(out)


# Inline formatting, applied in this order; each keeps the text inside. A pattern is applied with
# ``.str.replace``; a function (a scanner, for the patterns that would backtrack) with ``.map``.
_INLINE = [
    (_links("![", "(", ")"), None),  # image: its alt text
    (_links("[", "(", ")"), None),  # link: its text
    (_links("[", "[", "]"), None),  # reference link
    (re.compile(r"`+([^`]*)`+"), r"\1"),
    (re.compile(r"<br\s*/?>", re.I), " "),
    (_tags, None),
    (re.compile(r"(\*\*|__)(.+?)\1"), r"\2"),
    (re.compile(r"~~(.+?)~~"), r"\1"),
    (re.compile(r"(?<![\w*\\])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w\\])_(?=\S)([^_]+?)(?<=\S)_(?!\w)"), r"\1"),
]
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_FORMATTING = re.compile(r"[*_`~<\[&\\]")


def _cells(line: str) -> list[str]:
    """Raw cells of one table line (outer pipes dropped, escaped pipes kept in the cell)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return _PIPE.split(s)


def _plain(cells: pd.Series) -> pd.Series:
    """The cells' text without inline formatting (vectorised over the column)."""
    text = cells.str.strip()
    # Only cells with a formatting character need the regexes (most cells are plain numbers).
    todo = text.str.contains(_FORMATTING).to_numpy(dtype=bool)
    if not todo.any():
        return text
    sub = text[todo]
    for pattern, repl in _INLINE:
        if callable(pattern):
            sub = sub.map(pattern)
        else:
            sub = sub.str.replace(pattern, repl, regex=True)
    sub = sub.str.replace(_ESCAPED, r"\1", regex=True)
    if sub.str.contains("&", regex=False).any():
        sub = sub.map(html.unescape)  # only cells with entities reach here; there is no .str form
    sub = sub.str.replace(r"\s+", " ", regex=True).str.strip()
    text = text.astype(object)
    text[todo] = sub.to_numpy()
    return text


def line_list(numbers: list[int]) -> str:
    """ "line 4", "lines 1-3", "lines 1, 3 and 5-7": consecutive numbers shown as ranges."""
    runs: list[str] = []
    start = prev = numbers[0]
    for k in [*numbers[1:], None]:
        if k is not None and k == prev + 1:
            prev = k
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if k is not None:
            start = prev = k
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    body = runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]
    return f"lines {body}"


def _span_note(what: str, numbers: list[int], lines: list[str]) -> str:
    first = lines[numbers[0] - 1].strip()
    first = first if len(first) <= 50 else first[:47] + "..."
    where = line_list(numbers)
    count = f"{len(numbers)} line{'s' if len(numbers) > 1 else ''}"
    return f"skipped {count} {what} the table ({where}, starting '{first}')"


def read_markdown(text: str, display: str) -> RawTable:
    """Read the first Markdown pipe table in ``text`` (named ``display`` in messages)."""
    lines = table_lines(text, display, "Markdown tables")
    notes: list[str] = []
    has_pipe = [bool(_PIPE.search(line)) for line in lines]
    align_at = next(
        (
            k
            for k, line in enumerate(lines)
            if k > 0 and has_pipe[k - 1] and "-" in line and _ALIGN.fullmatch(line)
        ),
        None,
    )
    header_at: int | None
    if align_at is not None:
        header_at = align_at - 1
        body_from = align_at + 1
    else:
        header_at = next((k for k, line in enumerate(lines) if line.lstrip().startswith("|")), None)
        if header_at is None:
            raise InputError(
                f"File '{display}': found no Markdown table; expected lines such as '| Data set | SVM | RF |' "
                "followed by '|---|---|---|'. Paste the table with its header line."
            )
        body_from = header_at + 1
        notes.append(f"found no |---| alignment row; took line {header_at + 1} as the header")

    end = body_from
    while end < len(lines) and lines[end].strip() and has_pipe[end]:
        end += 1
    notes.insert(0, f"read a Markdown table (lines {header_at + 1}-{end})")

    before = [k + 1 for k in range(header_at) if lines[k].strip()]
    if before:
        notes.append(_span_note("before", before, lines))
    after = [k + 1 for k in range(end, len(lines)) if lines[k].strip()]
    if after:
        notes.append(_span_note("after", after, lines))
        more = sum(
            1
            for k in range(end + 1, len(lines))
            if has_pipe[k - 1] and "-" in lines[k] and _ALIGN.fullmatch(lines[k])
        )
        if more:
            notes.append(
                f"the text holds {more + 1} tables; read only the first; paste one table at a time "
                "to read another"
            )

    header_raw = _cells(lines[header_at])
    m = len(header_raw)
    if m > MAX_TABLE_COLUMNS:
        raise InputError(
            f"File '{display}', line {header_at + 1} (the header) has {m:,} cells; Markdown tables are read up to "
            f"{MAX_TABLE_COLUMNS:,} columns. Check that the text is one table, or save it as a CSV file."
        )
    if align_at is not None:
        n_align = len(_cells(lines[align_at]))
        if n_align != m:
            raise InputError(
                f"File '{display}', line {align_at + 1} (the |---| row) has {n_align} cells where the "
                f"header (line {header_at + 1}) has {m}: make both rows list the same columns."
            )
    rows: list[list[str]] = []
    numbers: list[int] = []
    for k in range(body_from, end):
        raw = _cells(lines[k])
        if len(raw) != m:
            raise InputError(
                f"File '{display}', line {k + 1} has {len(raw)} cells separated by | where the header "
                f"(line {header_at + 1}) has {m}: check for a missing | or a | inside a name "
                "(write \\| for a literal pipe)."
            )
        rows.append(raw)
        numbers.append(k + 1)
    if not rows:
        raise InputError(
            f"File '{display}': the Markdown table has a header (line {header_at + 1}) but no rows."
        )

    header = list(_plain(pd.Series(header_raw, dtype=object)))
    # All the cells in one column: one vectorised pass, not one per column (a wide table has thousands).
    flat_raw = pd.Series([cell for row in rows for cell in row], dtype=object)
    flat = _plain(flat_raw)
    formatted = int((flat.to_numpy() != flat_raw.str.strip().to_numpy()).sum())
    grid = pd.DataFrame(np.asarray(flat.to_numpy(), dtype=object).reshape(len(rows), m), columns=range(m), dtype=object)
    if formatted:
        notes.append(
            f"removed Markdown formatting (bold, italics, code, links, HTML) from {formatted} "
            f"cell{'s' if formatted != 1 else ''}"
        )
    return RawTable(
        header=header,
        grid=grid.astype(object),
        line_numbers=np.asarray(numbers, dtype=np.int64),
        display=display,
        format="markdown",
        row_word="line",
        notes=tuple(notes),
        title=" ".join(lines[k - 1].strip() for k in before) or None,
    )
