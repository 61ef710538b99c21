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
:class:`~compare_lib.errors.InputError` names the line. Tables over 200,000 lines are refused.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.io._cells import clean_score_cells
from compare_lib.io._markdown import line_list
from compare_lib.io._raw import MAX_TEXT_TABLE_LINES, RawTable, table_lines

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


def _skip_space(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\n":
        i += 1
    return i


def _group_end(s: str, i: int) -> int:
    """Index just after the group opening at ``s[i] == '{'`` (or the end of ``s`` if unbalanced)."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def _read_arg(s: str, i: int) -> tuple[str | None, int]:
    """One mandatory argument at ``i`` (a braced group or a single token); ``None`` at the end."""
    i = _skip_space(s, i)
    if i >= len(s):
        return None, i
    if s[i] == "{":
        end = _group_end(s, i)
        return s[i + 1 : end - 1], end
    m = _COMMAND.match(s, i)
    if m:
        return m.group(0), m.end()
    return s[i], i + 1


def _skip_optional(s: str, i: int, parens: bool = False) -> int:
    """Skip ``[...]`` option groups (``\\multirow[t]``), and ``(...)`` ones too (``\\cmidrule(lr)``)."""
    opening = "[(" if parens else "["
    while True:
        j = _skip_space(s, i)
        if j < len(s) and s[j] in opening:
            close = "]" if s[j] == "[" else ")"
            k = s.find(close, j)
            if k < 0:
                return i
            i = k + 1
        else:
            return i


def latex_to_text(s: str) -> str:
    """Plain text of one LaTeX cell: formatting commands removed, symbols turned into characters."""
    out: list[str] = []
    _convert(s, out)
    text = "".join(out)
    text = text.replace("---", "—").replace("--", "-")
    return re.sub(r"\s+", " ", text).strip()


def _convert(s: str, out: list[str]) -> None:
    i = 0
    n = len(s)
    while i < n:
        m = _TEXT_RUN.match(s, i)
        if m:
            out.append(m.group(0))
            i = m.end()
            continue
        c = s[i]
        if c == "{":
            end = _group_end(s, i)
            _convert(s[i + 1 : end - 1], out)
            i = end
        elif c in "}$":
            # Math delimiters are dropped; a stray closing brace too.
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        elif c in "^_":
            arg, i = _read_arg(s, i + 1)
            inner: list[str] = []
            if arg is not None:
                _convert(arg, inner)
            text = "".join(inner).strip()
            if c == "^" and _MARK_ONLY.fullmatch(text):
                out.append(text)  # ^\dagger, ^{*}: the marker itself
            elif text.startswith(("±", "(")):
                out.append(" " + text)  # 86.4_{\pm 1.0}: a spread set small, not a subscript
            else:
                out.append(c + text)
        else:  # backslash
            m = _COMMAND.match(s, i)
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
                    i = _skip_optional(s, i)
                    _, i = _read_arg(s, i)
            elif name == "textsuperscript":
                arg, i = _read_arg(s, i)
                inner = []
                _convert(arg or "", inner)
                text = "".join(inner).strip()
                out.append(text if _MARK_ONLY.fullmatch(text) else "^" + text)
            elif name == "textsubscript":
                arg, i = _read_arg(s, i)
                out.append("_")
                _convert(arg or "", out)
            elif name in _KEEP_LAST:
                arg = None
                for _ in range(_KEEP_LAST[name]):
                    i = _skip_optional(s, i)
                    arg, i = _read_arg(s, i)
                _convert(arg or "", out)
            elif name in ("SI", "qty"):
                arg, i = _read_arg(s, i)
                _, i = _read_arg(s, i)
                _convert(arg or "", out)
            else:
                # Unknown macro (\best{86.4}, \textbf, \emph, \mathbf, \underline ...): keep its
                # braced arguments' text, drop the name.
                i = _skip_optional(s, i)
                j = _skip_space(s, i)
                while j < n and s[j] == "{":
                    end = _group_end(s, j)
                    _convert(s[j + 1 : end - 1], out)
                    i = end
                    j = _skip_space(s, i)
                    if j < n and s[j] == "{":
                        out.append(" ")


def _strip_comments(lines: list[str]) -> list[str]:
    pattern = re.compile(r"^((?:[^\\%]|\\.)*)%.*$")
    return [pattern.sub(r"\1", line) if "%" in line else line for line in lines]


def _split_rows(body: str, offset: int) -> list[tuple[list[tuple[str, int]], int]]:
    """Rows of a tabular body: a list of (cells as (text, start offset), row start offset)."""
    rows: list[tuple[list[tuple[str, int]], int]] = []
    tokens = re.compile(r"\\\\\*?(?:\s*\[[^\]\n]*\])?|\\tabularnewline\b|\\.|[{}&]", re.S)
    depth = 0
    cells: list[tuple[str, int]] = []
    cell_start = 0
    for m in tokens.finditer(body):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(depth - 1, 0)
        elif depth:
            continue
        elif tok == "&":
            cells.append((body[cell_start : m.start()], offset + cell_start))
            cell_start = m.end()
        elif tok.startswith("\\\\") or tok.startswith("\\tabularnewline"):
            cells.append((body[cell_start : m.start()], offset + cell_start))
            rows.append((cells, offset + cell_start))
            cells = []
            cell_start = m.end()
    cells.append((body[cell_start:], offset + cell_start))
    rows.append((cells, offset + cell_start))
    return rows


_MULTICOLUMN = re.compile(r"\s*\\multicolumn\s*\{\s*(\d+)\s*\}")


def _expand(cells: list[tuple[str, int]]) -> tuple[list[str], list[int], list[str]]:
    """Cells of one row as text, with the span of each written cell and the raw LaTeX."""
    texts: list[str] = []
    spans: list[int] = []
    raws: list[str] = []
    for raw, _ in cells:
        m = _MULTICOLUMN.match(raw)
        span = int(m.group(1)) if m else 1
        texts.append(latex_to_text(raw))
        spans.append(max(span, 1))
        raws.append(raw)
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
    line_starts = np.cumsum([0] + [len(line) + 1 for line in lines[:-1]]) if lines else np.array([0])

    def line_of(offset: int) -> int:
        return int(np.searchsorted(line_starts, offset, side="right"))

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
        for m in begin_end.finditer(src, body_start):
            depth += 1 if m.group(1) == "begin" else -1
            if depth == 0:
                body_end, end_tag_end = m.start(), m.end()
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

    caption = re.search(r"\\caption\*?\s*(?:\[[^\]]*\])?\s*\{", src)
    cap_text = None
    if caption:
        cap_end = _group_end(src, caption.end() - 1)
        cap_text = latex_to_text(src[caption.end() : cap_end - 1])
        short = cap_text if len(cap_text) <= 60 else cap_text[:57] + "..."
        notes.append(f"ignored the caption on line {line_of(caption.start())} ('{short}')")

    body = src[body_start:body_end]
    body = _blank_rules(body)
    rows = _split_rows(body, body_start)

    parsed: list[tuple[list[str], list[int], list[str], int]] = []
    for cells, _ in rows:
        if all(not raw.strip() for raw, _ in cells):
            continue
        first_offset = next(off + len(raw) - len(raw.lstrip()) for raw, off in cells if raw.strip())
        texts, spans, raws = _expand(cells)
        parsed.append((texts, spans, raws, line_of(first_offset)))
    if not parsed:
        raise InputError(f"File '{display}': the LaTeX table has no rows; paste the table with its rows.")

    formatted = sum(
        1 for _, _, raws, _ in parsed for raw in raws if re.search(r"[\\${}~^]", raw.strip())
    )
    kinds = Counter(
        k for _, _, raws, _ in parsed for raw in raws for k in re.findall(r"\\[A-Za-z]+|\$", raw)
    )

    header_texts, header_spans, header_raws, header_line = parsed[0]
    m = sum(header_spans)
    body_rows = parsed[1:]
    header = _flat(header_texts, header_spans)
    spanning = any(k > 1 for k in header_spans) or any("\\multirow" in r for r in header_raws)
    if spanning and body_rows:
        second_texts, second_spans, _, second_line = body_rows[0]
        if sum(second_spans) == m and not _is_numberish(second_texts):
            top = _spread(header_texts, header_spans)
            bottom = _flat(second_texts, second_spans)
            header = [" ".join(p for p in (a, b) if p) for a, b in zip(top, bottom)]
            body_rows = body_rows[1:]
            notes.append(
                f"combined the two header rows (lines {header_line}-{second_line}) into one: "
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


def _blank_rules(body: str) -> str:
    """The body with rules, captions and labels replaced by spaces (line offsets unchanged)."""
    pieces: list[str] = []
    pos = 0
    for m in _RULE.finditer(body):
        if m.start() < pos:  # inside the arguments of the previous rule
            continue
        parens = m.group(1) in ("cmidrule", "cdashline")  # \cmidrule(lr){2-3}
        end = _skip_optional(body, m.end(), parens=parens)
        for _ in range(_RULE_ARGS[m.group(1)]):
            j = _skip_space(body, end)
            if j < len(body) and body[j] == "{":
                end = _group_end(body, j)
            end = _skip_optional(body, end, parens=parens)
        pieces.append(body[pos : m.start()])
        pieces.append(re.sub(r"[^\n]", " ", body[m.start() : end]))
        pos = end
    pieces.append(body[pos:])
    return "".join(pieces)
