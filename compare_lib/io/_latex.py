"""Reading a LaTeX ``tabular`` pasted from a paper into a :class:`RawTable`.

The reader finds the first ``tabular``, ``tabular*``, ``tabularx``, ``tabulary``, ``longtable`` or
``array`` environment (or, when there is none, the bare rows ending in ``\\\\`` with ``&`` separators),
splits it into rows at top-level ``\\\\`` and into cells at top-level ``&``, and turns each cell into
plain text with a small converter written here (brace matching plus a table of known commands), which
avoids a dependency and keeps the cells predictable: ``\\textbf{86.4}$\\pm$1.0`` becomes
``86.4 ± 1.0``, ``\\multicolumn{2}{c}{SVM}`` becomes a header cell spanning two columns, rules
(``\\hline``, ``\\toprule``, ``\\cmidrule{2-3}`` ...), ``\\caption``, ``\\label`` and comments are
dropped. A two-row header (a first row with ``\\multicolumn``/``\\multirow`` followed by a row without
numbers) is combined into one ("SVM acc", "SVM f1"). A row made of one ``\\multicolumn`` spanning the
whole table is a group heading and is skipped with a note.

Limits: only the first table of the text is read; macros the converter does not know are replaced by
their last argument (``\\best{86.4}`` gives ``86.4``) or dropped when they take none; math is flattened
to its characters (``$10^{-3}$`` gives ``10^-3``); headers of three or more rows are not combined;
rows must have as many cells as the header (spanned cells counted), otherwise an
:class:`~compare_lib.errors.InputError` names the line. Tables over 200,000 lines or rows, rows of more than
:data:`~compare_lib.limits.MAX_TABLE_COLUMNS` columns (``\\multicolumn`` spans counted, each span
checked before anything is allocated for it) and cells with braces nested more than
:data:`~compare_lib.limits.MAX_LATEX_NESTING` deep are refused, with the line.

Cost (issue 27): linear in the text's length. Where each brace closes is found in one pass per cell
(the converter used to rescan every group at every level, and recursed without a bound); the next
``]`` after an option's ``[`` is remembered, for commands, row ends (``\\\\[2pt]``) and the caption alike
(``\\foo[\\foo[...`` without a ``]`` scanned to the end once per ``[``); each row is checked against the
header as soon as it is read.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.io._cells import clean_score_cells
from compare_lib.io._markdown import _NextChar, line_list
from compare_lib.io._raw import MAX_TEXT_TABLE_LINES, RawTable, table_lines
from compare_lib.limits import MAX_LATEX_NESTING, MAX_TABLE_COLUMNS

__all__ = ["read_latex", "latex_to_text", "MAX_LINES"]

MAX_LINES = MAX_TEXT_TABLE_LINES

_ENV = re.compile(r"\\begin\s*\{(tabular\*?|tabularx|tabulary|longtable\*?|array)\}")
# Commands that draw rules or structure a longtable: dropped with their arguments.
_RULE_ARGS = {
    "hline": 0, "toprule": 0, "midrule": 0, "bottomrule": 0, "endhead": 0, "endfirsthead": 0,
    "endfoot": 0, "endlastfoot": 0, "cline": 1, "cmidrule": 1, "cmidrulewidth": 1, "addlinespace": 0,
    "specialrule": 3, "hhline": 1, "rowcolor": 1, "noalign": 1, "caption": 1, "label": 1,
    "centering": 0, "hdashline": 0, "cdashline": 1, "arrayrulecolor": 1, "morecmidrules": 0,
    "captionsetup": 1, "pagebreak": 0, "newpage": 0, "vspace": 1,
}
# Symbols and the text they stand for.
_SYMBOLS = {
    "pm": "±", "mp": "±", "textpm": "±", "dagger": "†", "textdagger": "†", "ddagger": "‡",
    "textdaggerdbl": "‡", "dag": "†", "ddag": "‡", "star": "*", "ast": "*", "S": "§", "P": "¶",
    "bullet": "•", "textbullet": "•", "circ": "◦", "uparrow": "↑", "downarrow": "↓",
    "Uparrow": "↑", "Downarrow": "↓", "checkmark": "✓", "times": "×", "cdot": "·", "approx": "≈",
    "sim": "~", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "infty": "∞", "textasteriskcentered": "*",
    "blacktriangle": "▲", "blacktriangledown": "▼", "triangle": "△", "triangledown": "▽",
    "bigstar": "*", "sharp": "#", "natural": "", "flat": "", "alpha": "α", "beta": "β",
    "gamma": "γ", "delta": "δ", "epsilon": "ε", "lambda": "λ", "mu": "μ", "sigma": "σ", "tau": "τ",
    "ldots": "...", "dots": "...", "cdots": "...", "textendash": "–", "textemdash": "—",
    "textminus": "-", "quad": " ", "qquad": " ", "hfill": " ", "ss": "ß", "o": "ø", "O": "Ø",
    "ae": "æ", "AE": "Æ", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "i": "i", "j": "j",
    "textbackslash": "\\", "textasciitilde": "~", "textunderscore": "_", "textbar": "|",
    "textless": "<", "textgreater": ">", "%": "%",
}
# Commands whose arguments (besides the last) are dropped; the last one is kept as text.
_KEEP_LAST = {
    "multirow": 3, "multicolumn": 3, "textcolor": 2, "colorbox": 2, "fcolorbox": 3, "makebox": 1,
    "parbox": 2, "resizebox": 3, "scalebox": 2, "rotatebox": 2, "raisebox": 2, "href": 2,
    "shortstack": 1, "makecell": 1, "thead": 1, "num": 1, "tablenum": 1,
}
# Commands dropped with all their arguments.
_DROP = {
    "cellcolor": 1, "color": 1, "label": 1, "cite": 1, "citep": 1, "citet": 1, "ref": 1,
    "footnote": 1, "footnotemark": 0, "hspace": 1, "vspace": 1, "phantom": 1, "hphantom": 1,
    "vphantom": 1, "rule": 2, "tnote": 1, "tablefootnote": 1, "index": 1, "caption": 1,
    "centering": 0, "raggedright": 0, "raggedleft": 0, "arraybackslash": 0, "strut": 0,
    "mathstrut": 0, "nobreak": 0, "relax": 0, "noindent": 0, "hline": 0, "left": 0, "right": 0,
    "big": 0, "Big": 0, "displaystyle": 0, "textstyle": 0, "scriptstyle": 0, "limits": 0,
    "nolimits": 0, "protect": 0,
}
# Font switches ({\bf x}, \bfseries x): dropped, their group's text stays.
_SWITCHES = {
    "bf", "it", "em", "sl", "sc", "rm", "sf", "tt", "bfseries", "itshape", "mdseries", "upshape",
    "scshape", "slshape", "rmfamily", "sffamily", "ttfamily", "normalfont", "boldmath", "unboldmath",
    "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large", "LARGE", "huge",
    "Huge", "cal", "mit",
}
_ESCAPES = {
    "%": "%", "_": "_", "&": "&", "#": "#", "$": "$", "{": "{", "}": "}", ",": " ", ";": " ",
    ":": " ", ">": " ", "!": "", " ": " ", "\\": " ", "-": "", "/": "", "|": "‖", "'": "", '"': "",
    "`": "", "^": "^", "~": "~", "(": "", ")": "", "[": "", "]": "",
}
_MARK_ONLY = re.compile(r"[*†‡§¶•◦]+")
_TEXT_RUN = re.compile(r"[^\\{}$^_~]+")
_COMMAND = re.compile(r"\\([A-Za-z]+)\*?|\\(.)", re.S)
_BLANKS = re.compile(r"[ \t\n]*+")
_SPECIAL = re.compile(r"[\\{}$^_~]")
# What _convert makes of a single character that is not a group: itself, or these.
_ONE_CHARACTER = {"{": "", "}": "", "$": "", "~": " ", "\\": "", "^": "^", "_": "_"}
_FORMATTED = re.compile(r"[\\${}~^]")
_FORMAT_KINDS = re.compile(r"\\[A-Za-z]+|\$")
_SPACE_RUNS = re.compile(r"\s+")
# What the brace matching looks at: an escaped character (skipped, with its backslash) or a brace.
_BRACE_TOKENS = re.compile(r"\\.|[{}]", re.S)


class _NestingError(InputError):
    """Braces nested more than MAX_LATEX_NESTING deep; ``position``: the index of the first brace too many."""

    def __init__(self, position: int) -> None:
        super().__init__(
            f"a LaTeX cell has braces nested more than {MAX_LATEX_NESTING} deep (at character {position + 1}); "
            f"cells are read up to {MAX_LATEX_NESTING} nested braces."
        )
        self.position = position


class _Source:
    """One string being converted: where each ``{`` closes (found in one pass, which refuses nesting deeper
    than :data:`~compare_lib.limits.MAX_LATEX_NESTING` before any conversion), and the next ``]`` or ``)``
    after a position (remembered). Nothing is scanned once per nesting level or once per opener, and the
    converter's recursion is as deep as the braces, so bounded."""

    __slots__ = ("s", "ends", "find")

    def __init__(self, s: str) -> None:
        self.s = s
        ends: dict[int, int] = {}
        stack: list[int] = []
        for m in _BRACE_TOKENS.finditer(s) if "{" in s else ():
            c = m.group()
            if c == "{":
                stack.append(m.start())
                if len(stack) > MAX_LATEX_NESTING:
                    raise _NestingError(m.start())
            elif c == "}" and stack:
                ends[stack.pop()] = m.end()
        self.ends = ends
        self.find = _NextChar(s)

    def group_end(self, i: int, stop: int) -> int:
        """Index just after the group opening at ``s[i] == '{'``, or ``stop`` when it does not close before."""
        end = self.ends.get(i)
        return stop if end is None or end > stop else end


def _skip_space(s: str, i: int, stop: int | None = None) -> int:
    m = _BLANKS.match(s, i, len(s) if stop is None else stop)
    return i if m is None else m.end()  # never None: the pattern matches the empty string


def _group_end(s: str, i: int) -> int:
    """Index just after the group opening at ``s[i] == '{'`` (or the end of ``s`` if unbalanced)."""
    depth = 0
    for m in _BRACE_TOKENS.finditer(s, i):
        c = m.group()
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    return len(s)


def _read_arg(src: _Source, i: int, stop: int) -> tuple[tuple[int, int] | None, int]:
    """One mandatory argument at ``i`` (a braced group or a single token) as its (start, end) in the
    string; ``None`` at ``stop``."""
    s = src.s
    i = _skip_space(s, i, stop)
    if i >= stop:
        return None, i
    if s[i] == "{":
        end = src.group_end(i, stop)
        return (i + 1, end - 1), end
    m = _COMMAND.match(s, i, stop)
    if m:
        return (i, m.end()), m.end()
    return (i, i + 1), i + 1


def _skip_optional(s: str, i: int, parens: bool = False, stop: int | None = None, find=None) -> int:
    """Skip ``[...]`` option groups (``\\multirow[t]``), and ``(...)`` ones too (``\\cmidrule(lr)``), before
    ``stop``. ``find(char, j)``: the next ``char`` from ``j`` (a remembering :class:`_NextChar`)."""
    stop = len(s) if stop is None else stop
    opening = "[(" if parens else "["
    while True:
        j = _skip_space(s, i, stop)
        if j < stop and s[j] in opening:
            close = "]" if s[j] == "[" else ")"
            k = find(close, j) if find is not None else s.find(close, j, stop)
            if k < 0 or k >= stop:
                return i
            i = k + 1
        else:
            return i


def latex_to_text(s: str) -> str:
    """Plain text of one LaTeX cell: formatting commands removed, symbols turned into characters.

    Braces nested more than :data:`~compare_lib.limits.MAX_LATEX_NESTING` deep raise
    :class:`~compare_lib.errors.InputError`."""
    if _SPECIAL.search(s) is None:
        text = s  # plain text (most cells): nothing to convert
    else:
        out: list[str] = []
        _convert(_Source(s), 0, len(s), out)
        text = "".join(out)
    text = text.replace("---", "—").replace("--", "-")
    return _SPACE_RUNS.sub(" ", text).strip()


def _convert(src: _Source, i: int, n: int, out: list[str]) -> None:
    """Convert ``src.s[i:n]`` into ``out``. A group is converted by a call for its inside, so the calls
    nest as deep as the braces (checked by :class:`_Source`)."""
    s = src.s
    while i < n:
        m = _TEXT_RUN.match(s, i, n)
        if m:
            out.append(m.group(0))
            i = m.end()
            continue
        c = s[i]
        if c == "{":
            end = src.group_end(i, n)
            _convert(src, i + 1, end - 1, out)
            i = end
        elif c in "}$":
            # Math delimiters are dropped; a stray closing brace too.
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        elif c in "^_":
            arg, i = _read_arg(src, i + 1, n)
            if arg is not None and arg[1] - arg[0] == 1:  # one character: what converting it gives
                text = _ONE_CHARACTER.get(s[arg[0]], s[arg[0]]).strip()
            else:
                inner: list[str] = []
                if arg is not None:
                    _convert(src, *arg, inner)
                text = "".join(inner).strip()
            if c == "^" and _MARK_ONLY.fullmatch(text):
                out.append(text)  # ^\dagger, ^{*}: the marker itself
            elif text.startswith(("±", "(")):
                out.append(" " + text)  # 86.4_{\pm 1.0}: a spread set small, not a subscript
            else:
                out.append(c + text)
        else:  # backslash
            m = _COMMAND.match(s, i, n)
            if m is None:
                i += 1
                continue
            i = m.end()
            name, char = m.group(1), m.group(2)
            if char is not None:
                out.append(_ESCAPES.get(char, char))
            elif name in _SYMBOLS:
                out.append(_SYMBOLS[name])
            elif name in _SWITCHES:
                pass
            elif name in _DROP:
                for _ in range(_DROP[name]):
                    i = _skip_optional(s, i, stop=n, find=src.find)
                    _, i = _read_arg(src, i, n)
            elif name == "textsuperscript":
                arg, i = _read_arg(src, i, n)
                inner = []
                if arg is not None:
                    _convert(src, *arg, inner)
                text = "".join(inner).strip()
                out.append(text if _MARK_ONLY.fullmatch(text) else "^" + text)
            elif name == "textsubscript":
                arg, i = _read_arg(src, i, n)
                out.append("_")
                if arg is not None:
                    _convert(src, *arg, out)
            elif name in _KEEP_LAST:
                arg = None
                for _ in range(_KEEP_LAST[name]):
                    i = _skip_optional(s, i, stop=n, find=src.find)
                    arg, i = _read_arg(src, i, n)
                if arg is not None:
                    _convert(src, *arg, out)
            elif name in ("SI", "qty"):
                arg, i = _read_arg(src, i, n)
                _, i = _read_arg(src, i, n)
                if arg is not None:
                    _convert(src, *arg, out)
            else:
                # Unknown macro (\best{86.4}, \textbf, \emph, \mathbf, \underline ...): keep its
                # braced arguments' text, drop the name.
                i = _skip_optional(s, i, stop=n, find=src.find)
                j = _skip_space(s, i, n)
                while j < n and s[j] == "{":
                    end = src.group_end(j, n)
                    _convert(src, j + 1, end - 1, out)
                    i = end
                    j = _skip_space(s, i, n)
                    if j < n and s[j] == "{":
                        out.append(" ")


def _strip_comments(lines: list[str]) -> list[str]:
    pattern = re.compile(r"^((?:[^\\%]|\\.)*)%.*$")
    return [pattern.sub(r"\1", line) if "%" in line else line for line in lines]


# Row ends, cell separators, braces and escaped characters. A row end's spacing option ("\\[2pt]", which
# may start on the next line and ends at the first "]" of its line) is found by _split_rows: as part of
# this pattern, "\s*\[[^\]\n]*\]", it was scanned to the line's end from every "\\[" of "\\[\\[\\[...".
_ROW_TOKENS = re.compile(r"\\\\\*?|\\tabularnewline\b|\\.|[{}&]", re.S)
_OPTION_START = re.compile(r"\s*+\[")


def _split_rows(
    body: str, offset: int, display: str = "the text", line_of=lambda offset: 0
) -> list[tuple[list[tuple[str, int]], int]]:
    """Rows of a tabular body: a list of (cells as (text, start offset), row start offset). Rows whose
    cells are all blank are left out; a row of more than MAX_TABLE_COLUMNS cells, or more rows than
    MAX_TEXT_TABLE_LINES (rows may share a line), are refused as soon as they are found
    (``line_of(offset)`` names the line)."""
    rows: list[tuple[list[tuple[str, int]], int]] = []
    depth = 0
    cells: list[tuple[str, int]] = []
    cell_start = 0
    find = _NextChar(body)
    pos = 0
    while (m := _ROW_TOKENS.search(body, pos)) is not None:
        tok = m.group(0)
        pos = m.end()
        if tok.startswith("\\\\"):
            option = _OPTION_START.match(body, pos)
            if option is not None:
                close = find("]", option.end())
                if close >= 0 and not 0 <= find("\n", option.end()) < close:
                    pos = close + 1  # "\\[2pt]": the option belongs to the row end
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(depth - 1, 0)
        elif depth:
            continue
        elif tok == "&":
            cells.append((body[cell_start : m.start()], offset + cell_start))
            cell_start = pos
            if len(cells) >= MAX_TABLE_COLUMNS:
                raise InputError(
                    f"File '{display}', line {line_of(offset + m.start())} has more than {MAX_TABLE_COLUMNS:,} cells "
                    f"separated by &; LaTeX tables are read up to {MAX_TABLE_COLUMNS:,} columns. Check that every row "
                    "ends in \\\\."
                )
        elif tok.startswith("\\\\") or tok.startswith("\\tabularnewline"):
            cells.append((body[cell_start : m.start()], offset + cell_start))
            if not _blank_row(cells):
                rows.append((cells, offset + cell_start))
                if len(rows) > MAX_TEXT_TABLE_LINES:
                    raise InputError(
                        f"File '{display}' has more than {MAX_TEXT_TABLE_LINES:,} rows (line "
                        f"{line_of(offset + m.start())}); LaTeX tables are read up to {MAX_TEXT_TABLE_LINES:,} rows. "
                        "Save the results as a CSV file instead."
                    )
            cells = []
            cell_start = pos
    cells.append((body[cell_start:], offset + cell_start))
    if not _blank_row(cells):
        rows.append((cells, offset + cell_start))
    return rows


def _blank_row(cells: list[tuple[str, int]]) -> bool:
    if len(cells) == 1:
        return not cells[0][0] or cells[0][0].isspace()
    return all(raw.isspace() or not raw for raw, _ in cells)


_MULTICOLUMN = re.compile(r"\s*+\\multicolumn\s*+\{\s*+(\d++)\s*+\}")
#: A \multicolumn span written with more digits than this (leading zeros aside) is not even converted.
_SPAN_DIGITS = 30


def _span(digits: str, display: str, line: int) -> int:
    """The number of columns ``\\multicolumn{digits}`` spans, refused beyond MAX_TABLE_COLUMNS before
    anything is allocated (a number of thousands of digits is not even converted)."""
    significant = digits.lstrip("0") if len(digits) > _SPAN_DIGITS else digits
    value = int(significant or "0") if len(significant) <= _SPAN_DIGITS else None
    if value is None or value > MAX_TABLE_COLUMNS:
        shown = (f"{value:,}" if value is not None
                 else f"{significant[:12]}... (a number of {len(significant):,} digits)")
        raise InputError(
            f"File '{display}', line {line}: \\multicolumn spans {shown} columns; LaTeX tables are read up to "
            f"{MAX_TABLE_COLUMNS:,} columns. Check the number of columns the cell spans."
        )
    return max(value, 1)


def _expand(
    cells: list[tuple[str, int]], display: str = "the text", line_of=lambda offset: 0
) -> tuple[list[str], list[int], list[str]]:
    """Cells of one row as text, with the span of each written cell and the raw LaTeX. Spans are checked
    (each, and the row's width) before the cells are converted; ``line_of(offset)`` names lines."""
    texts: list[str] = []
    spans: list[int] = []
    raws: list[str] = []
    width = 0
    for raw, offset in cells:
        m = _MULTICOLUMN.match(raw)
        span = _span(m.group(1), display, line_of(offset + m.start(1))) if m else 1
        width += span
        if width > MAX_TABLE_COLUMNS:
            raise InputError(
                f"File '{display}', line {line_of(offset)}: the row spans more than {MAX_TABLE_COLUMNS:,} columns "
                f"(counting \\multicolumn spans); LaTeX tables are read up to {MAX_TABLE_COLUMNS:,} columns."
            )
        spans.append(span)
        raws.append(raw)
    for raw, offset in cells:
        try:
            texts.append(latex_to_text(raw))
        except _NestingError as err:
            raise InputError(
                f"File '{display}', line {line_of(offset + err.position)}: braces are nested more than "
                f"{MAX_LATEX_NESTING} deep in a cell; LaTeX cells are read up to {MAX_LATEX_NESTING} nested braces. "
                "Check for a missing closing brace."
            ) from None
    return texts, spans, raws


def _flat(texts: list[str], spans: list[int]) -> list[str]:
    """The row's cells with each spanning cell followed by empty cells for the columns it covers."""
    out: list[str] = []
    for t, k in zip(texts, spans):
        out.append(t)
        out.extend([""] * (k - 1))
    return out


def _is_numberish(texts: list[str]) -> bool:
    """True when some cell of the row reads as a number once decorations are removed."""
    if not texts:
        return False
    cleaned, _ = clean_score_cells(pd.Series(texts, dtype=object))
    values = pd.to_numeric(cleaned.str.rstrip("%").str.replace(",", ".", regex=False), errors="coerce")
    return bool(values.notna().any())


def read_latex(text: str, display: str) -> RawTable:
    """Read the first LaTeX table in ``text`` (named ``display`` in messages) into a :class:`RawTable`."""
    lines = table_lines(text, display, "LaTeX tables")
    lines = _strip_comments(lines)
    src = "\n".join(lines)
    line_starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))

    def line_of(offset: int) -> int:
        return bisect.bisect_right(line_starts, offset)

    notes: list[str] = []
    envs = list(_ENV.finditer(src))
    if envs:
        env = envs[0]
        name = env.group(1)
        i = _skip_optional(src, env.end())
        n_args = 2 if name in ("tabular*", "tabularx", "tabulary") else 1
        for _ in range(n_args):
            j = _skip_space(src, i)
            i = _group_end(src, j) if j < len(src) and src[j] == "{" else j
        body_start = i
        # Nested environments of the same name (a tabular inside a cell) are matched by depth.
        begin_end = re.compile(r"\\(begin|end)\s*\{" + re.escape(name) + r"\}")
        depth = 1
        body_end = len(src)
        end_tag_end = len(src)
        for tag in begin_end.finditer(src, body_start):
            depth += 1 if tag.group(1) == "begin" else -1
            if depth == 0:
                body_end, end_tag_end = tag.start(), tag.end()
                break
        first_line, last_line = line_of(env.start()), line_of(max(end_tag_end - 1, env.start()))
        where = f"lines {first_line}-{last_line}"
        notes.append(f"read a LaTeX {name} (lines {first_line}-{last_line})")
        if len(envs) > 1:
            notes.append(
                f"the text holds {len(envs)} LaTeX table environments; read only the first "
                f"({where}); paste one table at a time to read another"
            )
    else:
        amp_lines = [k for k, line in enumerate(lines) if re.search(r"(?<!\\)&", line)]
        if not amp_lines:
            raise InputError(
                f"File '{display}': found no LaTeX table; expected \\begin{{tabular}} ... \\end{{tabular}} "
                "or rows with cells separated by & and ending in \\\\. Paste the whole tabular "
                "environment from the paper's source."
            )
        first, last = amp_lines[0], amp_lines[-1]
        # Rows may end on the line after the last '&' (a "\\" alone) — include trailing "\\" lines.
        while last + 1 < len(lines) and lines[last + 1].strip().startswith("\\\\"):
            last += 1
        body_start = int(line_starts[first])
        body_end = int(line_starts[last]) + len(lines[last])
        notes.append(
            f"read LaTeX rows separated by \\\\ and & (lines {first + 1}-{last + 1}); "
            "found no tabular environment"
        )
        skipped_before = [k + 1 for k in range(first) if lines[k].strip()]
        if skipped_before:
            notes.append(
                f"skipped {len(skipped_before)} line{'s' if len(skipped_before) > 1 else ''} before "
                f"the table ({line_list(skipped_before)})"
            )

    caption = _find_caption(src)
    cap_text = None
    if caption:
        cap_start, cap_open = caption
        cap_end = _group_end(src, cap_open - 1)
        try:
            cap_text = latex_to_text(src[cap_open : cap_end - 1])
        except _NestingError as err:
            raise InputError(
                f"File '{display}', line {line_of(cap_open + err.position)}: braces are nested more than "
                f"{MAX_LATEX_NESTING} deep in the caption; LaTeX is read up to {MAX_LATEX_NESTING} nested braces. "
                "Check for a missing closing brace."
            ) from None
        short = cap_text if len(cap_text) <= 60 else cap_text[:57] + "..."
        notes.append(f"ignored the caption on line {line_of(cap_start)} ('{short}')")

    body = src[body_start:body_end]
    body = _blank_rules(body)
    rows = _split_rows(body, body_start, display, line_of)

    if not rows:  # rows of blank cells are left out already
        raise InputError(f"File '{display}': the LaTeX table has no rows; paste the table with its rows.")
    formatted = 0
    kinds: Counter[str] = Counter()

    def parse(cells: list[tuple[str, int]]) -> tuple[list[str], list[int], list[str], int]:
        nonlocal formatted
        first_offset = next(off + len(raw) - len(raw.lstrip()) for raw, off in cells if raw.strip())
        texts, spans, raws = _expand(cells, display, line_of)
        for raw in raws:
            formatted += _FORMATTED.search(raw) is not None
            kinds.update(_FORMAT_KINDS.findall(raw))
        return texts, spans, raws, line_of(first_offset)

    # One row at a time: a row that does not fit the header is refused before the rows after it are read.
    parsed = (parse(cells) for cells, _ in rows)
    header_texts, header_spans, header_raws, header_line = next(parsed)
    m = sum(header_spans)
    second = next(parsed, None)
    body_rows: Iterator[tuple[list[str], list[int], list[str], int]] = itertools.chain(
        [] if second is None else [second], parsed)
    header = _flat(header_texts, header_spans)
    spanning = any(k > 1 for k in header_spans) or any("\\multirow" in r for r in header_raws)
    if spanning and second is not None:
        second_texts, second_spans, _, second_line = second
        if sum(second_spans) == m and not _is_numberish(second_texts):
            # Group rows above a row of names (issue 28): \multicolumn{3}{c}{Tree ensembles} over CatBoost, XGBoost
            # and LightGBM names three classifiers and their group, not "Tree ensembles CatBoost". More header rows are
            # read while the row just read spans columns (a group row over another group row), up to _MAX_HEADER_ROWS.
            levels = [(header_texts, header_spans)]
            last_texts, last_spans, last_raws, last_line = second
            pushed_back = None
            while len(levels) < _MAX_HEADER_ROWS - 1 and (
                    any(k > 1 for k in last_spans) or any("\\multirow" in r for r in last_raws)):
                following = next(parsed, None)
                if following is None:
                    break
                if sum(following[1]) != m or _is_numberish(following[0]):
                    pushed_back = following  # a data row: it stays the first body row
                    break
                levels.append((last_texts, last_spans))
                last_texts, last_spans, last_raws, last_line = following
            body_rows = parsed if pushed_back is None else itertools.chain([pushed_back], parsed)
            bottom = _flat(last_texts, last_spans)
            tops = [_spread(texts, spans) for texts, spans in levels]
            groups = _column_groups(levels, bottom)
            if groups is not None:
                header = [b or next((top[j] for top in reversed(tops) if top[j]), "") for j, b in enumerate(bottom)]
                notes.append(
                    f"read the header rows (lines {header_line}-{last_line}): the last one as the names, the "
                    "rows above as column groups: " + "; ".join(groups)
                )
            else:
                header = [" ".join(p for p in (*(top[j] for top in tops), bottom[j]) if p) for j in range(m)]
                rows_word = "two" if len(levels) == 1 else str(len(levels) + 1)
                notes.append(
                    f"combined the {rows_word} header rows (lines {header_line}-{last_line}) into one: "
                    + ", ".join(f"'{h}'" for h in header)
                )
        elif any(k > 1 for k in header_spans):
            top = _spread(header_texts, header_spans)
            header = _number_repeats(top)
            notes.append(
                f"header cells on line {header_line} span several columns and no second header row "
                "follows; named the columns " + ", ".join(f"'{h}'" for h in header)
            )

    grid_rows: list[list[str]] = []
    line_numbers: list[int] = []
    for texts, spans, raws, line in body_rows:
        width = sum(spans)
        if len(texts) == 1 and spans[0] == m and m > 1:
            notes.append(
                f"skipped line {line} ('{texts[0]}'): one cell spanning the whole table, a group "
                "heading, not a data row"
            )
            continue
        if width != m:
            written = len(texts)
            spanned = f" ({width} counting \\multicolumn spans)" if width != written else ""
            raise InputError(
                f"File '{display}', line {line} has {written} cells separated by &{spanned} where the "
                f"header (line {header_line}) has {m}: check for a missing & or an unescaped & in a "
                "name (write \\& for a literal ampersand)."
            )
        grid_rows.append(_flat(texts, spans))
        line_numbers.append(line)
    if not grid_rows:
        raise InputError(
            f"File '{display}': the LaTeX table has a header (line {header_line}) but no data rows."
        )
    if formatted:
        shown = []
        for k, _ in kinds.most_common():
            if k == "$" and "\\pm" in kinds:
                continue  # "$\pm$" already says it
            label = "$...$" if k == "$" else ("$\\pm$" if k == "\\pm" else k)
            if label not in shown:
                shown.append(label)
        notes.append(
            f"removed LaTeX formatting ({', '.join(shown[:6])}) from {formatted} "
            f"cell{'s' if formatted != 1 else ''}"
        )
    grid = pd.DataFrame(grid_rows, columns=range(m), dtype=object)
    return RawTable(
        header=[h.strip() for h in header],
        grid=grid,
        line_numbers=np.asarray(line_numbers, dtype=np.int64),
        display=display,
        format="latex",
        row_word="line",
        notes=tuple(notes),
        title=cap_text,
    )


#: Header rows read at most (group rows above the names).
_MAX_HEADER_ROWS = 4
#: Sub-headings that name what a column measures, not a classifier: "SVM" over "acc" and "f1" is two columns of SVM.
_MEASURE_WORDS = frozenset(
    "acc accuracy auc roc f1 f-1 f1-score fscore f-score prec precision rec recall mean avg average std sd stdev stddev "
    "var median min max rank ranks time train test valid val validation err error loss mse rmse mae r2 ap map ndcg "
    "bleu n # score best worst p p-value pvalue ± % top-1 top-5 top1 top5 runtime memory params size kappa mcc "
    "gmean g-mean bacc iou dice".split())


def _column_groups(levels: list[tuple[list[str], list[int]]], bottom: list[str]) -> list[str] | None:
    """The groups the header rows above the names make, as "Tree ensembles (CatBoost, XGBoost, LightGBM)" (one
    entry per group heading, from the top row down); None when the rows above are not groups of the names below
    (a heading over the measures of one classifier, "SVM" over "acc" and "f1", or names repeated under two headings,
    which are then combined instead). One pass over the cells."""
    groups: list[str] = []
    covered: list[str] = []
    for texts, spans in levels:
        start = 0
        for text, span in zip(texts, spans):
            names = [b for b in bottom[start:start + span] if b]
            if span > 1 and text:
                if len(names) != span:
                    return None  # a heading over empty cells: not a group of names
                covered += names
                groups.append(f"{text} ({', '.join(names)})")
            start += span
    if not covered:
        return None
    named = [b for b in bottom if b]
    if len(set(named)) != len(named):  # the same name under two headings: the headings tell them apart
        return None
    if any(name.casefold().strip(" .:()[]") in _MEASURE_WORDS for name in covered):
        return None
    return groups


def _spread(texts: list[str], spans: list[int]) -> list[str]:
    """The row's cells with each spanning cell's text repeated over the columns it covers."""
    out: list[str] = []
    for t, k in zip(texts, spans):
        out.extend([t] * k)
    return out


def _number_repeats(names: list[str]) -> list[str]:
    out: list[str] = []
    seen: Counter[str] = Counter()
    for name in names:
        seen[name] += 1
        out.append(name if seen[name] == 1 or not name else f"{name} {seen[name]}")
    return out


_RULE = re.compile(r"\\(" + "|".join(sorted(_RULE_ARGS, key=len, reverse=True)) + r")(?![A-Za-z])\*?")


def _find_caption(src: str) -> tuple[int, int] | None:
    """(start, index after its "{") of the first ``\\caption[...]{``: what
    ``re.search(r"\\\\caption\\*?\\s*(?:\\[[^\\]]*\\])?\\s*\\{", src)`` finds, without scanning to the
    next "]" again from every ``\\caption[`` (and the two "\\s*" around the optional part backtracked)."""
    find = _NextChar(src)
    n = len(src)
    for m in _CAPTION.finditer(src):
        j = _skip_any_space(src, m.end())
        if j < n and src[j] == "[":
            k = find("]", j + 1)
            if k < 0:
                continue  # without its "]", the option is not one, and "[" is not "{"
            j = _skip_any_space(src, k + 1)
        if j < n and src[j] == "{":
            return m.start(), j + 1
    return None


_CAPTION = re.compile(r"\\caption\*?")
_ANY_BLANKS = re.compile(r"\s*+")


def _skip_any_space(s: str, i: int) -> int:
    m = _ANY_BLANKS.match(s, i)
    return i if m is None else m.end()  # never None: the pattern matches the empty string


def _blank_rules(body: str) -> str:
    """The body with rules, captions and labels replaced by spaces (line offsets unchanged)."""
    pieces: list[str] = []
    pos = 0
    find = _NextChar(body)
    for m in _RULE.finditer(body):
        if m.start() < pos:  # inside the arguments of the previous rule
            continue
        parens = m.group(1) in ("cmidrule", "cdashline")  # \cmidrule(lr){2-3}
        end = _skip_optional(body, m.end(), parens=parens, find=find)
        for _ in range(_RULE_ARGS[m.group(1)]):
            j = _skip_space(body, end)
            if j < len(body) and body[j] == "{":
                end = _group_end(body, j)
            end = _skip_optional(body, end, parens=parens, find=find)
        pieces.append(body[pos : m.start()])
        pieces.append(re.sub(r"[^\n]", " ", body[m.start() : end]))
        pos = end
    pieces.append(body[pos:])
    return "".join(pieces)
