"""Guessing the format of an uploaded or pasted table: spreadsheet, LaTeX, Markdown, CSV or text.

:func:`sniff_format` trusts the file name's extension when it is a spreadsheet, LaTeX or Markdown one
(.xlsx/.xlsm, .xls, .ods, .tex/.latex, .md/.markdown); otherwise it looks at the content, in this order:
zip magic (``xl/`` inside: xlsx; the OpenDocument spreadsheet mimetype or ``content.xml``: ods), OLE2
magic (xls, or an encrypted xlsx, which :func:`~compare_lib.io._excel.read_spreadsheet` recognises and
explains), ``\\begin{tabular}`` or rows with ``&`` ending in ``\\\\`` (latex), a pipe table with a
``|---|`` row (markdown), a delimiter (tab, ``;``, ``,``, ``|``) splitting the first lines into the
same number (2 or more) of fields (csv), runs of spaces splitting them (text). Anything else is "csv",
whose reader gives the most specific messages about a malformed file.

Limits: only the first 64 KB are looked at, and lines longer than
:data:`~compare_lib.limits.MAX_SNIFF_LINE` characters are not tested for LaTeX or Markdown rows; a
first line that differs (a caption) is allowed for the delimiter test; a CSV file whose lines all have
a different number of fields (ragged) is "text" when spaces split it and "csv" otherwise.

Cost (issue 27): linear in the bounded prefix, whatever it holds. The LaTeX-row test is a scan from
the line's end (no pattern with adjacent repetitions), the alignment-row pattern is possessive.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile

from compare_lib.limits import MAX_SNIFF_LINE

__all__ = ["sniff_format", "FORMATS"]

FORMATS = ("xlsx", "xls", "ods", "latex", "markdown", "text", "csv")
_SAMPLE = 64 * 1024
_EXTENSIONS = {
    ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls", ".ods": "ods", ".tex": "latex",
    ".latex": "latex", ".md": "markdown", ".markdown": "markdown",
}
_ZIP_MAGIC = b"PK\x03\x04"
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_LATEX_ENV = re.compile(r"\\begin\s*\{(?:tabular\*?|tabularx|tabulary|longtable\*?)\}")
_AMPERSAND = re.compile(r"(?<!\\)&")
_ROW_RULES = ("\\hline", "\\midrule", "\\bottomrule")
# Possessive: every part is followed by something it cannot match, so nothing is ever given back and a
# line costs one pass (the greedy form took seconds on "|---" and a run of spaces).
_MD_ALIGN = re.compile(r"\s*+\|?\s*+:?-++:?\s*+(?:\|\s*+:?-++:?\s*+)*+\|?\s*+")
_SPACES = re.compile(r"[ \t]*\t[ \t]*| {2,}")


def _zip_kind(data: bytes) -> str:
    head = data[:_SAMPLE]
    if b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet" in head:
        return "ods"
    if b"xl/" in head:
        return "xlsx"
    try:  # reading the zip directory is cheap: it sits at the end and decompresses nothing
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return "xlsx"  # a damaged workbook: the spreadsheet reader says what is wrong
    if any(n.startswith("xl/") for n in names):
        return "xlsx"
    if "content.xml" in names:
        return "ods"
    return "xlsx"


def _decode(head: bytes) -> str:
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if head.startswith(bom):
            return head[len(bom) :].decode(codec, errors="replace")
    return head.decode("utf-8", errors="replace")


def _space_before(line: str, end: int) -> int:
    """Index where the run of whitespace ending at ``end`` starts (``end`` itself when there is none)."""
    while end > 0 and line[end - 1].isspace():
        end -= 1
    return end


def _latex_row(line: str) -> bool:
    r"""True for a LaTeX row: an unescaped ``&``, later a ``\\`` that ends the line, optionally followed
    by ``[<length>]`` and ``\hline``/``\midrule``/``\bottomrule`` (whitespace anywhere between).

    The same lines as ``(?<!\\)&.*\\\\\s*(?:\[[^\]]*\])?\s*(?:\\hline|\\midrule|\\bottomrule)?\s*$``,
    which backtracked cubically on "a &\\" and spaces (issue 27): found by walking back from the end of
    the line, at most two rule endings and, for each, the ``[`` candidates before its ``]`` from the
    right; every character is looked at a bounded number of times.
    """
    amp = _AMPERSAND.search(line)
    if amp is None:
        return False
    first = amp.start()
    end = _space_before(line, len(line))
    ends = [end]
    for rule in _ROW_RULES:
        if line.endswith(rule, 0, end):
            ends.append(_space_before(line, end - len(rule)))
    best = -1  # the latest "\\\\" after which the rest of the line is a row ending
    for e in ends:
        if line.endswith("\\\\", 0, e):
            best = max(best, e - 2)
        if e and line[e - 1] == "]":
            stop = line.rfind("]", 0, e - 1) + 1  # "[...]" holds no "]"
            k = line.rfind("[", stop, e - 1)
            while k >= 0:
                before = _space_before(line, k)
                if line.endswith("\\\\", 0, before):
                    best = max(best, before - 2)
                    break
                k = line.rfind("[", stop, before)
    return best > first


def _consistent(counts: list[int]) -> bool:
    """Same number (2 or more) of fields on every line, or on every line but the first (a caption)."""
    if len(counts) >= 1 and len(set(counts)) == 1 and counts[0] >= 2:
        return True
    rest = counts[1:]
    return len(rest) >= 2 and len(set(rest)) == 1 and rest[0] >= 2 and counts[0] < rest[0]


def sniff_format(data: bytes | str, name: str | None) -> str:
    """One of "xlsx", "xls", "ods", "latex", "markdown", "text", "csv" for ``data`` named ``name``."""
    if name:
        lower = name.lower()
        for ext, kind in _EXTENSIONS.items():
            if lower.endswith(ext):
                return kind
    if isinstance(data, bytes):
        if data[:4] == _ZIP_MAGIC:
            return _zip_kind(data)
        if data[:8] == _OLE2_MAGIC:
            return "xls"
        text = _decode(data[:_SAMPLE])
        truncated = len(data) > _SAMPLE
    else:
        text = data[:_SAMPLE]
        truncated = len(data) > _SAMPLE
    lines = text.splitlines()
    if truncated and lines:
        lines = lines[:-1]  # the last line may be cut in the middle
    lines = [line for line in lines if line.strip()]
    if not lines:
        return "csv"

    short = [line for line in lines if len(line) <= MAX_SNIFF_LINE]
    if _LATEX_ENV.search(text) or any(_latex_row(line) for line in short):
        return "latex"
    for k in range(1, len(lines)):
        if ("-" in lines[k] and "|" in lines[k - 1] and len(lines[k]) <= MAX_SNIFF_LINE
                and _MD_ALIGN.fullmatch(lines[k])):
            if "|" in lines[k] or lines[k - 1].strip().startswith("|"):
                return "markdown"

    first = lines[:20]
    for delim in ("\t", ";", ",", "|"):
        if not any(delim in line for line in first):
            continue
        try:
            counts = [len(row) for row in csv.reader(first, delimiter=delim)]
        except csv.Error:
            continue
        if _consistent(counts):
            return "csv"
    counts = [len(_SPACES.split(line.strip())) for line in first]
    if max(counts) >= 2:
        return "text"
    counts = [len(line.split()) for line in first]
    if max(counts) >= 2:
        return "text"
    return "csv"
