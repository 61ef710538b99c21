"""Checks of a workbook before its native reader sees the bytes (issue 27).

calamine (Rust) expands what a workbook declares: an .xlsx cell at ``XFD1048576`` makes it allocate the
dense used range (1,048,576 x 16,384 cells, 512 GiB: the process aborts), an OpenDocument
``<text:s text:c="1000000000"/>`` becomes a billion spaces, ``table:number-rows-repeated`` and
``table:number-columns-repeated`` are expanded cell by cell, a shared-string table's ``uniqueCount`` is
reserved up front, and a corrupt OLE2 header or sector chain of an .xls makes it reserve gigabytes or
follow a chain forever. This module reads what would be expanded, without expanding it, and refuses
with an :class:`~compare_lib.errors.InputError` before anything is allocated.

How: each XML part is streamed out of the zip (whose directory was checked before) in blocks of about
1 MB that cut no tag. In each block numpy finds the tags of interest (the positions of "<", their names
read as 8-byte words) and their attributes (found by their "=", quote-aware), with no DOM and no Python
code per element; a block written unusually (a ">" or "<" inside a quoted value, spaces around "=" of an
attribute) is split instead by one compiled regular expression whose every repetition has one way to match
(linear), up to 16 MB per workbook. The tags' attributes become arrays, and positions are computed with
cumulative sums the way the reader counts them:

- .xlsx, every sheet part (each ``.xml`` member, and whatever the relationships name as a worksheet):
  a cell's position is its ``r`` reference or, where ``r`` is left out, the place after the previous
  cell or row. The used range is the span of the cells that hold a value (a ``<v>`` or ``<is>``
  child). A reference that is no cell of a sheet (beyond ``XFD1048576``, not letters then digits, or
  given twice) is refused. A shared-string cell (``t="s"``) must hold a plain index below the number of
  strings (calamine reads a negative or malformed index as string 0, silently). The shared-string table
  may not declare (``uniqueCount``) more than 1,000,000 strings beyond those it holds (calamine
  reserves what it declares) nor hold more strings than ``max_cells``.
- .ods (``content.xml``): the rows and cells that hold a value (an ``office:*value`` attribute, a string
  cell, a formula) are placed with their repeat counts, per table. The empty rows and cells repeated to
  the end of the sheet that every LibreOffice file has hold nothing and cost nothing (as in calamine).
  The ``text:c`` counts of ``<text:s/>`` may add at most ``max_repeated`` spaces in all.
- Both: the used range of each sheet, rows x columns, is at most ``max_cells`` and its columns at most
  ``max_columns``; the text that repetition adds (a shared string referenced again, a repeated cell's
  text) is at most ``max_expanded`` characters.
- .xls (OLE2): the header's counts (FAT, mini-FAT, DIFAT sectors) must fit in the file, and the DIFAT,
  FAT, directory and stream sector chains must end without a loop. The BIFF records inside are read by
  calamine in a child process with limits (see :mod:`compare_lib.io._excel`).

Limits: the scan errs on the side of refusing: a cell reference inside an XML comment counts, a cell
with a formula and no cached value counts as a value, text is measured in bytes of XML.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from posixpath import basename
from typing import IO

import numpy as np

from compare_lib import limits
from compare_lib.errors import InputError

__all__ = ["check_workbook", "check_ole2", "MAX_EXPANDED_CHARACTERS"]

#: Characters that repetition may add to the cells of a workbook (a shared string referenced again, a
#: repeated OpenDocument cell's text). compare_lib.limits.MAX_SHEET_EXPANDED_CHARACTERS.
MAX_EXPANDED_CHARACTERS: int = limits.MAX_SHEET_EXPANDED_CHARACTERS
#: A shared-string table may declare (uniqueCount) this many strings more than it holds.
_DECLARED_SLACK = 1_000_000

_CHUNK = 1 << 20  # bytes decompressed at a time
_SHORT_TAIL = 1 << 16  # a block ends before its last "<" when what follows is shorter than this
_MAX_TAG = 1 << 20  # a start tag longer than this is refused
_EXCEL_ROWS = 1_048_576
_EXCEL_COLUMNS = 16_384
_REF_WIDTH = 24  # bytes of a cell reference or shared-string index looked at
_HUGE = 1 << 40  # repeat counts are clipped here (everything this large is refused)

# One attribute list, quotes respected ('>' may stand in a quoted value). Each position has one way to
# match, so these are linear. _LAZY finds one attribute in a lookahead; like calamine, an attribute may
# follow a closing quote without a space.
_ATTRS = rb"""(?:[^>"'/]|/(?!>)|"[^"]*"|'[^']*')*"""
_LAZY = rb"""(?:[^>"']|"[^"]*"|'[^']*')*?(?<=[\s"'])"""
_PREFIX = rb"(?:[A-Za-z_][\w.\-]{0,63}:)?"
_Q = rb"""["']"""


def _attr_value(name: bytes, value: bytes) -> bytes:
    """A lookahead capturing an attribute's value: group 1 the value, group 2 the closing quote ("": cut)."""
    return rb"(?:(?=" + _LAZY + name + rb"\s*=\s*" + _Q + value + rb"(" + _Q + rb"?)))?"


# .xlsx sheet parts: <row>, </row>, <c>, <v>, <is> (any prefix: calamine matches local names). Groups:
# 1 "/" of an end tag and 2 its name (an end tag counts only with nothing but spaces before ">": calamine
# does not see "</row x>"); 3 the name of a start tag, 4 its r value, 5 r's closing quote ("" when longer
# than _REF_WIDTH), 6 "" when r is given twice (calamine takes the last), 7 "" when t="s", 8 "/" of an
# empty element.
_XLSX_TOKEN = re.compile(
    rb"<(?:(/)" + _PREFIX + rb"(row|c|v|is)\s*|" + _PREFIX + rb"(row|c|v|is)(?=[\s/>])"
    + _attr_value(rb"r", rb"([^\"'<>]{0,%d})" % _REF_WIDTH)
    + rb"(?:(?=" + _LAZY + rb"r\s*=" + _LAZY + rb"r\s*=()))?"
    + rb"(?:(?=" + _LAZY + rb"""t\s*=\s*(?:"s"|'s')()))?"""
    + _ATTRS + rb"(/?))>"
)
_XLSX_GROUPS = 8

# sharedStrings.xml: each <si> start (calamine keeps one string per <si>, empty or not).
_SI_TOKEN = re.compile(rb"<" + _PREFIX + rb"si(?=[\s/>])" + _ATTRS + rb"/?>")
_SST_TAG = re.compile(rb"<" + _PREFIX + rb"sst(?=[\s/>])(" + _ATTRS + rb")/?>")
_UNIQUE_COUNT = re.compile(rb"(?:^|[\s\"'])uniqueCount\s*=\s*[\"']\s*\+?(\d{1,30})")

# content.xml of an .ods (calamine matches these qualified names literally). Groups: 1 "" for a table,
# 2 its name; 3 "/" of an end tag, 4 row or cell kind, 5 rows repeated, 6 columns repeated (digits),
# 7 "" when the cell holds a value, 8 "" when it holds text (a string, date, time or formula), 9 its
# attributes, 10 "/" of an empty element; 11 "" for <text:s>, 12 its text:c count; 13 "" for </table:table>.
_ODS_VALUE = rb"(?:office:(?:value|string-value|date-value|time-value|boolean-value)|table:formula)\s*="
_ODS_STRING = (rb"(?:office:(?:string-value|date-value|time-value)\s*=|table:formula\s*="
               rb"""|office:value-type\s*=\s*(?:"string"|'string'))""")
_DIGITS = rb"\+?(\d{1,30})[\"']"
_ODS_TOKEN = re.compile(
    rb"<table:table(?=[\s/>])()(?:(?=" + _LAZY + rb"table:name\s*=\s*" + _Q + rb"([^\"'<>]{0,200})))?"
    + _ATTRS + rb"/?>"
    rb"|<(/?)table:(table-row|table-cell|covered-table-cell)(?=[\s/>])(?!(?<=/table:table-row)[^>]*[^\s>])"
    rb"(?!(?<=/table:table-cell)[^>]*[^\s>])(?!(?<=/table:covered-table-cell)[^>]*[^\s>])"
    rb"(?:(?=" + _LAZY + rb"table:number-rows-repeated\s*=\s*" + _Q + _DIGITS + rb"))?"
    rb"(?:(?=" + _LAZY + rb"table:number-columns-repeated\s*=\s*" + _Q + _DIGITS + rb"))?"
    rb"(?:(?=" + _LAZY + _ODS_VALUE + rb"()))?"
    rb"(?:(?=" + _LAZY + _ODS_STRING + rb"()))?"
    rb"(" + _ATTRS + rb")(/?)>"
    rb"|<text:s(?=[\s/>])()(?:(?=" + _LAZY + rb"text:c\s*=\s*" + _Q + _DIGITS + rb"))?" + _ATTRS + rb"/?>"
    rb"|</table:table\s*>()"
)
_ODS_GROUPS = 13
_TAG_END = re.compile(rb"<" + _ATTRS + rb"/?>")


# -- messages ------------------------------------------------------------------------------------------


def _col_letters(j: int) -> str:
    letters = ""
    j += 1
    while j > 0:
        j, r = divmod(j - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def _cell_name(row: int, col: int) -> str:
    """A1-style name of a 0-based cell (beyond Excel's last column: row and column numbers)."""
    if col < _EXCEL_COLUMNS:
        return f"{_col_letters(col)}{row + 1}"
    return f"row {row + 1:,}, column {col + 1:,}"


def _refused(display: str, what: str, fix: str) -> InputError:
    return InputError(
        f"File '{display}' was refused before it was read: {what}. {fix} (A workbook is checked before anything "
        "in it is expanded, so that a few kilobytes cannot ask the server for gigabytes.)"
    )


_RESAVE = ("Open it in Excel or LibreOffice and save it again (or export the sheet with the results as CSV), and "
           "upload that copy.")
_TRIM = ("Delete the far or repeated cells (or copy the table alone to a new sheet) and save the file again, or "
         "export the sheet with the results as CSV.")


def _shown(value: bytes | None, limit: int = 40) -> str:
    text = (value or b"").decode("utf-8", "replace")
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- streaming XML in blocks ---------------------------------------------------------------------------


def _blocks(stream: IO[bytes], display: str, part: str) -> Iterator[bytes]:
    """The part in blocks that cut no tag: each ends just before a "<", or after a complete tag followed by
    a text longer than _SHORT_TAIL (the next block then continues that text)."""
    carry = b""
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            if carry:
                yield carry
            return
        buf = carry + chunk if carry else chunk
        p = buf.rfind(b"<")
        if p < 0:
            carry = b""
            yield buf  # text only: it continues the text before it
            continue
        tail = len(buf) - p
        if tail <= _SHORT_TAIL:
            carry = buf[p:]
            if p:
                yield buf[:p]
            continue
        if _TAG_END.match(buf, p, p + _MAX_TAG) is not None:
            carry = b""
            yield buf  # a complete tag, then a long text
            continue
        if tail > _MAX_TAG:
            raise _refused(display, f"its part '{part}' holds an XML tag longer than {_MAX_TAG:,} bytes", _RESAVE)
        carry = buf[p:]
        if p:
            yield buf[:p]


def _split(pattern: re.Pattern, block: bytes, groups: int) -> tuple[list, list[list]]:
    """(texts, group columns) of a block: texts[i + 1] follows token i (texts[0] precedes the first)."""
    parts = pattern.split(block)
    step = groups + 1
    return parts[0::step], [parts[1 + g :: step] for g in range(groups)]


def _present(column: list) -> np.ndarray:
    """True where the group took part in the match."""
    return np.array(column, dtype=object) != None  # noqa: E711 - elementwise on an object array


def _filled(column: list) -> np.ndarray:
    arr = np.array(column, dtype=object)
    arr[arr == None] = b""  # noqa: E711
    return arr


def _lengths(values) -> np.ndarray:
    return np.fromiter(map(len, values), dtype=np.int64, count=len(values))


def _leading_int(raw: np.ndarray, n_digits: np.ndarray) -> np.ndarray:
    """The integers written by the first ``n_digits`` bytes of each fixed-width bytes value (<= 18 digits)."""
    b = raw.view(np.uint8).reshape(raw.size, raw.dtype.itemsize).astype(np.int64)
    out = np.zeros(raw.size, dtype=np.int64)
    for j in range(min(int(n_digits.max()), 18) if n_digits.size else 0):
        out = np.where(j < n_digits, out * 10 + (b[:, j] - 48), out)
    return out


def _counts(column: list, default: int) -> np.ndarray:
    """Digit groups as numbers (``default`` where absent), clipped to _HUGE."""
    raw = _filled(column).astype("S32")
    n = np.char.str_len(raw)
    value = _leading_int(raw, np.minimum(n, 13))
    value = np.where(n > 12, _HUGE, np.minimum(value, _HUGE))
    return np.where(_present(column), value, default)


def _parse_refs(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(n_letters, valid form, row, column), 0-based, of A1 references in fixed-width bytes, as calamine reads
    them (letters, then digits). Valid form: at most 3 letters for a column up to XFD, then 1-7 digits for a
    row from 1 to 1,048,576 (a cell needs a letter too; a row's letters calamine skips)."""
    n = raw.shape[0]
    b = np.ascontiguousarray(raw).view(np.uint8).reshape(n, raw.dtype.itemsize)[:, :12]
    upper = b & 0xDF
    letter = (upper >= 65) & (upper <= 90)
    digit = (b >= 48) & (b <= 57)
    length = np.ascontiguousarray(raw).view(np.uint8).reshape(n, raw.dtype.itemsize).astype(bool).sum(axis=1)
    n_letters = np.where(letter.all(axis=1), 12, (~letter).argmax(axis=1))
    rows = np.arange(n)
    col = np.zeros(n, dtype=np.int64)
    for j in range(3):
        col = np.where(j < n_letters, col * 26 + (upper[:, j].astype(np.int64) - 64), col)
    n_digits = np.zeros(n, dtype=np.int64)
    row = np.zeros(n, dtype=np.int64)
    going = np.ones(n, dtype=bool)
    for j in range(8):
        ch = b[rows, np.minimum(n_letters + j, 11)]
        going &= (ch >= 48) & (ch <= 57) & (n_letters + j < 12)
        row = np.where(going, row * 10 + (ch.astype(np.int64) - 48), row)
        n_digits += going
    valid = ((n_letters + n_digits == length) & (n_letters <= 3) & (n_digits >= 1) & (n_digits <= 7)
             & (row >= 1) & (row <= _EXCEL_ROWS) & (col <= _EXCEL_COLUMNS))
    return n_letters, valid, row - 1, col - 1


def _last_index(mask: np.ndarray) -> np.ndarray:
    """For each position, the index of the last True at or before it (-1: none)."""
    idx = np.where(mask, np.arange(mask.size), -1)
    return np.maximum.accumulate(idx) if idx.size else idx


def _counter(before: int, set_mask: np.ndarray, set_to: np.ndarray, inc: np.ndarray) -> np.ndarray:
    """A counter through the tokens: token i sets it to set_to[i] (where set_mask) or adds inc[i] (inc must
    be 0 where set_mask). Returns its value after each token; ``before`` is its value before the first."""
    csum = np.cumsum(inc)
    last = _last_index(set_mask)
    at = np.maximum(last, 0)
    return np.where(last >= 0, set_to[at] + csum - csum[at], before + csum)


# -- tokens of a block: a numpy fast path, and the regular expressions as the fallback --------------------

_SLOW_BYTES = 16 << 20  # XML read through the fallback (unusual syntax) beyond this is refused
_FAST = True  # the numpy tokenizers (False: the regular expressions only, which the tests compare them with)
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_QUOTE = np.zeros(256, dtype=bool)
_QUOTE[[34, 39]] = True
_ATTR_START = _WS | _QUOTE  # what may stand before an attribute's name (calamine needs no space after a quote)
_NAME_END = _WS.copy()
_NAME_END[[47, 62]] = True  # "/", ">"


@dataclass
class _Budget:
    """Bytes read through the slow fallback so far (unusual XML: a ">" in a quoted value, "r = ...")."""

    display: str
    used: int = 0

    def spend(self, block: bytes, part: str) -> None:
        self.used += len(block)
        if self.used > _SLOW_BYTES:
            raise _refused(self.display, f"its part '{part}' is written in an unusual way (quoted values holding "
                           "'>' or '<', spaces around '=' of cell attributes) over more than "
                           f"{_SLOW_BYTES >> 20} MB, which is checked only slowly", _RESAVE)


@dataclass
class _Tags:
    """The start tags ("<" positions) of a block with a known name, where each ends, and its bytes."""

    a: np.ndarray  # the block, and the block padded with zeros (for windows that run past its end)
    pad: np.ndarray
    pos: np.ndarray  # position of each tag's "<"
    end: np.ndarray  # position of its ">"
    code: np.ndarray  # index (1-based) of its name in the names asked for
    slash: np.ndarray  # an end tag "</..."
    name_end: np.ndarray  # position after its name
    quotes: np.ndarray  # quote characters before each byte (cumulative), to tell values from the tag's text


def _words(pad: np.ndarray) -> np.ndarray:
    """Overlapping little-endian 8-byte words: word i is the bytes i to i + 7 of ``pad``."""
    return np.ndarray((pad.size - 8,), dtype="<u8", buffer=pad, strides=(1,))


def _name_mask(words: np.ndarray, pad: np.ndarray, base: np.ndarray, name: bytes) -> np.ndarray:
    """Tags whose name, starting at ``base``, is ``name`` followed by a space, "/" or ">"."""
    ok = _NAME_END[pad[base + len(name)]]
    for k in range(0, len(name), 8):
        chunk = name[k:k + 8]
        key = int.from_bytes(chunk, "little")
        mask = np.uint64((1 << (8 * len(chunk))) - 1)
        ok &= (words[base + k] & mask) == np.uint64(key)
    return ok


_PREFIXED: dict[tuple[bytes, ...], re.Pattern[bytes]] = {}


def _prefixed(names: list[bytes]) -> re.Pattern[bytes]:
    key = tuple(names)
    if key not in _PREFIXED:
        _PREFIXED[key] = re.compile(rb":(?:" + b"|".join(map(re.escape, names)) + rb")[\s/>]")
    return _PREFIXED[key]


def _find_tags(block: bytes, names: list[bytes], local: bool, ends: tuple[bytes, ...] = ()) -> _Tags | None:
    """The start tags named ``names`` (with any namespace prefix when ``local``) and the end tags named
    ``ends``; None when the block needs the slow path: a tag of interest holding "<", an odd number of
    quotes (a ">" inside a quoted value), or both kinds of quotes."""
    a = np.frombuffer(block, dtype=np.uint8)
    pad = np.concatenate((a, np.zeros(80, dtype=np.uint8)))
    lt = np.flatnonzero(a == 60)
    slash = pad[lt + 1] == 47
    if local and _prefixed(names).search(block):
        code, name_end = _find_names_prefixed(pad, lt, slash, names, block)
        if code is None:
            return None
        code[slash & ~np.isin(code, [k for k, name in enumerate(names, 1) if name in ends])] = 0
    else:
        words = _words(pad)
        first = pad[lt + 1 + slash]
        want = np.zeros(256, dtype=bool)
        want[[name[0] for name in names]] = True
        cand = np.flatnonzero(want[first] & (~slash | np.isin(first, [n[0] for n in ends])))
        base = lt[cand] + 1 + slash[cand]
        code = np.zeros(lt.size, dtype=np.int64)
        name_end = np.zeros(lt.size, dtype=np.int64)
        for k, name in enumerate(names, 1):
            ok = _name_mask(words, pad, base, name)
            if name not in ends:
                ok &= ~slash[cand]
            code[cand[ok]] = k
            name_end[cand[ok]] = base[ok] + len(name)
    # Every tag must close before the next "<" (quick-xml would read "</c/<c r=...>" as one tag).
    gt = np.append(np.flatnonzero(a == 62), a.size)
    tag_ends = gt[np.searchsorted(gt, lt)]
    if lt.size > 1 and np.any(tag_ends[:-1] > lt[1:]):
        return None
    # An end tag is read as one only with nothing but spaces before its ">" (quick-xml takes "</row x>" for an
    # end tag named "row x", which calamine ignores); a longer one sends the block to the slow path.
    closing = np.flatnonzero((code > 0) & slash)
    if closing.size:
        gap = tag_ends[closing] - name_end[closing]
        if np.any(gap > 8):
            return None
        w = pad[name_end[closing][:, None] + np.arange(8)]
        blank = np.all(_WS[w] | (np.arange(8)[None, :] >= gap[:, None]), axis=1)
        code[closing[~blank]] = 0
    keep = np.flatnonzero(code > 0)
    pos = lt[keep]
    end = tag_ends[keep]
    quotes = np.zeros(a.size + 1, dtype=np.int32)
    np.cumsum(a == 34, dtype=np.int32, out=quotes[1:])
    n_dq = quotes[end] - quotes[pos]
    if block.find(b"'") >= 0:
        sq = np.zeros(a.size + 1, dtype=np.int32)
        np.cumsum(a == 39, dtype=np.int32, out=sq[1:])
        n_sq = sq[end] - sq[pos]
        if np.any((n_sq % 2 == 1) | ((n_dq > 0) & (n_sq > 0))):
            return None
        quotes += sq
    if np.any(n_dq % 2 == 1):
        return None
    return _Tags(a, pad, pos, end, code[keep], slash[keep], name_end[keep], quotes)


def _find_names_prefixed(pad: np.ndarray, lt: np.ndarray, slash: np.ndarray, names: list[bytes], block: bytes):
    """Names with any namespace prefix ("<x:c ..."): (code, name end) of each "<", or (None, None) when a
    name is too long to be read here (the block then takes the slow path)."""
    code = np.zeros(lt.size, dtype=np.int64)
    name_end = np.zeros(lt.size, dtype=np.int64)
    width = 48
    w = pad[(lt + 1)[:, None] + np.arange(width)]
    stop = _NAME_END[w]
    stop[:, 0] &= ~slash
    found = stop.any(axis=1)
    if not found.all():
        return None, None
    end = stop.argmax(axis=1)
    colon = (w == 58) & (np.arange(width)[None, :] < end[:, None])
    start = np.where(colon.any(axis=1), width - colon[:, ::-1].argmax(axis=1), slash.astype(np.int64))
    rows = np.arange(lt.size)
    for k, name in enumerate(names, 1):
        ok = end - start == len(name)
        for j, ch in enumerate(name):
            ok &= w[rows, np.minimum(start + j, width - 1)] == ch
        code[ok] = k
    name_end[:] = lt + 1 + end
    return code, name_end


def _next_lt(a: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Position of the first "<" at or after each start (the block's length when none)."""
    lts = np.append(np.flatnonzero(a == 60), a.size)
    return lts[np.searchsorted(lts, start)]


def _owner_tag(tags: _Tags, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(tag index, inside) of byte positions: the tag of interest whose "<" precedes, if they are inside it."""
    k = np.searchsorted(tags.pos, at, side="right") - 1
    if tags.pos.size == 0:
        return k, np.zeros(at.size, dtype=bool)
    inside = (k >= 0) & (at < tags.end[np.maximum(k, 0)]) & (at > tags.name_end[np.maximum(k, 0)] - 1)
    return k, inside


def _attribute_positions(tags: _Tags, names: list[bytes]) -> tuple[list, bool]:
    """For each attribute name, (tag index, position of its value's first byte, quote) inside the start tags.

    The second value is False when an attribute is written in a way the fast path does not read (a space
    around "=", no quotes): the block then takes the slow path."""
    a, pad = tags.a, tags.pad
    eq = np.flatnonzero(a == 61) if tags.pos.size else np.zeros(0, dtype=np.int64)
    k, inside = _owner_tag(tags, eq)
    at = np.maximum(k, 0)
    inside &= ~tags.slash[at] & ((tags.quotes[eq] - tags.quotes[tags.pos[at]]) % 2 == 0)  # not in a value
    eq, k = eq[inside], k[inside]
    if eq.size == 0:
        return [(np.zeros(0, dtype=np.int64),) * 3 for _ in names], True
    if np.any(_WS[pad[eq - 1]]) or not np.all(_QUOTE[pad[eq + 1]]):
        return [], False
    width = max(map(len, names)) + 1
    back = pad[np.maximum(eq[:, None] - width + np.arange(width), 0)]
    out = []
    for name in names:
        n = len(name)
        ok = np.all(back[:, width - n:] == np.frombuffer(name, dtype=np.uint8), axis=1)
        ok &= _ATTR_START[back[:, width - n - 1]]
        out.append((k[ok], eq[ok] + 2, pad[eq[ok] + 1]))
    return out, True


def _first_per_tag(k: np.ndarray, *values: np.ndarray, last: bool = False):
    """The first (or last) occurrence per tag: (tags, values...)."""
    if last:
        k_rev = k[::-1]
        tags, idx = np.unique(k_rev, return_index=True)
        idx = k.size - 1 - idx
    else:
        tags, idx = np.unique(k, return_index=True)
    return (tags, *(v[idx] for v in values))


def _value_window(pad: np.ndarray, start: np.ndarray, quote: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(bytes up to the closing quote as fixed-width values, closed within ``width``)."""
    w = pad[start[:, None] + np.arange(width)]
    is_quote = w == quote[:, None]
    closed = is_quote.any(axis=1)
    w *= np.cumsum(is_quote, axis=1, dtype=np.uint8) == 0  # the bytes before the closing quote
    return w.view(f"S{width}").ravel(), closed


def _plain_count(raw: np.ndarray) -> np.ndarray:
    """Repeat counts written as digits (a leading "+" allowed, as Rust parses them); -1 when not a number."""
    b = raw.view(np.uint8).reshape(raw.size, raw.dtype.itemsize)
    plus = (b[:, 0] == 43).astype(np.int64)
    digit = (b >= 48) & (b <= 57)
    digit[np.arange(raw.size), 0] |= plus.astype(bool)
    n = np.cumprod(digit, axis=1).sum(axis=1) - plus
    length = (b != 0).sum(axis=1)
    shifted = np.ascontiguousarray(np.where(plus[:, None].astype(bool), np.roll(b, -1, axis=1), b)).view(
        raw.dtype).ravel()
    value = _leading_int(shifted, np.minimum(n, 13))
    value = np.where(n > 12, _HUGE, value)
    return np.where((n >= 1) & (n + plus == length), value, -1)


@dataclass
class _XlsxTokens:
    kind: np.ndarray  # 1 row, 2 c, 3 v, 4 is
    slash: np.ndarray
    empty: np.ndarray  # an empty element "<.../>"
    r_given: np.ndarray
    r_raw: np.ndarray  # S24
    r_closed: np.ndarray
    twice: np.ndarray
    shared: np.ndarray
    text: np.ndarray  # S24: the text after the tag
    text_len: np.ndarray  # its length up to the next tag of interest (or "<" in the fast path)


_XLSX_NAMES = [b"row", b"c", b"v", b"is"]


def _xlsx_tokens_slow(block: bytes) -> _XlsxTokens:
    texts, g = _split(_XLSX_TOKEN, block, _XLSX_GROUPS)
    slash = _filled(g[0]) == b"/"
    names = np.where(slash, _filled(g[1]), _filled(g[2])).astype("S3")
    kind = np.searchsorted([b"c", b"is", b"row", b"v"], names)
    kind = np.array([2, 4, 1, 3])[np.minimum(kind, 3)]
    return _XlsxTokens(
        kind=kind, slash=slash, empty=_filled(g[7]) == b"/", r_given=_present(g[3]),
        r_raw=_filled(g[3]).astype(f"S{_REF_WIDTH}"), r_closed=_filled(g[4]).astype("S1") != b"",
        twice=_present(g[5]), shared=_present(g[6]), text=np.array(texts[1:], dtype=f"S{_REF_WIDTH}"),
        text_len=_lengths(texts[1:]))


def _xlsx_tokens_fast(block: bytes) -> _XlsxTokens | None:
    tags = _find_tags(block, _XLSX_NAMES, local=True, ends=(b"row",))
    if tags is None:
        return None
    n = tags.pos.size
    pad = tags.pad
    # Attributes r and t, found by their "=" inside the start tags.
    found, ok = _attribute_positions(tags, [b"r", b"t"])
    if not ok:
        return None
    (rk, rv, rq), (tk, tv, tq) = found
    r_given = np.zeros(n, dtype=bool)
    r_raw = np.zeros(n, dtype=f"S{_REF_WIDTH}")
    r_closed = np.zeros(n, dtype=bool)
    twice = np.zeros(n, dtype=bool)
    if rk.size:
        values, closed = _value_window(pad, rv, rq, 12)  # the longest reference, XFD1048576, has 10 bytes
        counts = np.bincount(rk, minlength=n)
        twice = counts > 1
        # A cell takes its last r (calamine's get_attrs), a row its first.
        last_k, last_v, last_c = _first_per_tag(rk, values, closed, last=True)
        first_k, first_v, first_c = _first_per_tag(rk, values, closed)
        is_row = tags.code == 1
        take_first = is_row[first_k]
        r_given[first_k] = True
        r_raw[last_k] = last_v
        r_closed[last_k] = last_c
        r_raw[first_k[take_first]] = first_v[take_first]
        r_closed[first_k[take_first]] = first_c[take_first]
    shared = np.zeros(n, dtype=bool)
    if tk.size:
        values, closed = _value_window(pad, tv, tq, 2)
        last_k, last_v, last_c = _first_per_tag(tk, values, closed, last=True)
        shared[last_k] = (last_v == b"s") & last_c
    empty = pad[np.maximum(tags.end - 1, 0)] == 47
    # The text after a <v> runs to the next "<" (an index has none); other tags' text is not needed.
    text = np.zeros(n, dtype=f"S{_REF_WIDTH}")
    text_len = np.zeros(n, dtype=np.int64)
    vs = np.flatnonzero((tags.code == 3) & ~tags.slash)
    if vs.size:
        start = tags.end[vs] + 1
        text_len[vs] = _next_lt(tags.a, start) - start
        text[vs] = np.ascontiguousarray(pad[np.minimum(start, tags.a.size)[:, None] + np.arange(_REF_WIDTH)]).view(
            f"S{_REF_WIDTH}").ravel()
    return _XlsxTokens(kind=tags.code, slash=tags.slash, empty=empty, r_given=r_given, r_raw=r_raw,
                       r_closed=r_closed, twice=twice, shared=shared, text=text, text_len=text_len)


@dataclass
class _OdsTokens:
    is_table: np.ndarray
    names: list  # the table name of each table token (None elsewhere)
    kind: np.ndarray  # 1 row, 2 cell, 3 text:s (0 table)
    slash: np.ndarray
    empty: np.ndarray
    row_rep: np.ndarray  # -1 when not given
    col_rep: np.ndarray
    holds_value: np.ndarray
    holds_text: np.ndarray
    attr_len: np.ndarray
    spaces: np.ndarray  # text:c (-1 when not given)
    seg: np.ndarray  # length of the text before each token (n + 1 values: the last is after the last token)
    table_end: np.ndarray  # </table:table>


_ODS_NAMES = [b"table:table", b"table:table-row", b"table:table-cell", b"table:covered-table-cell", b"text:s"]
_ODS_ATTRS = [b"table:number-rows-repeated", b"table:number-columns-repeated", b"office:value",
              b"office:string-value", b"office:date-value", b"office:time-value", b"office:boolean-value",
              b"table:formula", b"office:value-type", b"text:c", b"table:name"]


def _ods_tokens_slow(block: bytes) -> _OdsTokens:
    texts, g = _split(_ODS_TOKEN, block, _ODS_GROUPS)
    kind_names = _filled(g[3])
    is_table = _present(g[0])
    is_space = _present(g[10])
    kind = np.select([kind_names == b"table-row", (kind_names == b"table-cell") | (kind_names == b"covered-table-cell"),
                      is_space], [1, 2, 3], 0)
    holds_text = _present(g[7])
    return _OdsTokens(
        is_table=is_table, names=list(g[1]), kind=kind, slash=_filled(g[2]) == b"/", empty=_filled(g[9]) == b"/",
        row_rep=_counts(g[4], -1), col_rep=_counts(g[5], -1), holds_value=_present(g[6]) | holds_text,
        holds_text=holds_text, attr_len=_lengths(_filled(g[8])), spaces=_counts(g[11], -1), seg=_lengths(texts),
        table_end=_present(g[12]))


def _ods_tokens_fast(block: bytes) -> _OdsTokens | None:
    tags = _find_tags(block, _ODS_NAMES, local=False, ends=(b"table:table", b"table:table-row", b"table:table-cell",
                                                             b"table:covered-table-cell"))
    if tags is None:
        return None
    n = tags.pos.size
    pad = tags.pad
    found, ok = _attribute_positions(tags, _ODS_ATTRS)
    if not ok:
        return None

    def count_of(i: int) -> np.ndarray:
        k, v, q = found[i]
        out = np.full(n, -1, dtype=np.int64)
        if k.size:
            raw, closed = _value_window(pad, v, q, 32)
            first_k, first_raw, first_closed = _first_per_tag(k, raw, closed)
            long_number = np.char.isdigit(first_raw) & ~first_closed  # 32 digits and more: huge
            out[first_k] = np.where(first_closed, _plain_count(first_raw), np.where(long_number, _HUGE, -1))
        return out

    def given(*indices: int) -> np.ndarray:
        out = np.zeros(n, dtype=bool)
        for i in indices:
            out[found[i][0]] = True
        return out

    k, v, q = found[8]  # office:value-type="string"
    is_string = np.zeros(n, dtype=bool)
    if k.size:
        raw, closed = _value_window(pad, v, q, 8)
        first_k, first_raw, first_closed = _first_per_tag(k, raw, closed)
        is_string[first_k] = (first_raw == b"string") & first_closed
    holds_text = given(3, 4, 5, 7) | is_string
    code = tags.code
    names: list = [None] * n
    for i in np.flatnonzero(code == 1).tolist():
        kk, vv, qq = found[10]
        hit = np.flatnonzero(kk == i)
        if hit.size:
            start = int(vv[hit[0]])
            stop = block.find(bytes([int(qq[hit[0]])]), start)
            names[i] = block[start:stop if stop >= 0 else start + 200][:200]
    empty = pad[np.maximum(tags.end - 1, 0)] == 47
    seg_start = np.concatenate(([0], tags.end + 1))
    seg_stop = np.append(tags.pos, tags.a.size)
    kind = np.select([code == 2, (code == 3) | (code == 4), code == 5], [1, 2, 3], 0)
    return _OdsTokens(
        is_table=(code == 1) & ~tags.slash, names=names, kind=kind, slash=tags.slash,
        empty=empty, row_rep=count_of(0), col_rep=count_of(1),
        holds_value=given(2, 3, 4, 5, 6, 7) | is_string, holds_text=holds_text,
        attr_len=np.maximum(tags.end - tags.name_end - empty, 0), spaces=count_of(9),
        seg=np.maximum(seg_stop - seg_start, 0), table_end=(code == 1) & tags.slash)


# -- extent of the cells that hold a value --------------------------------------------------------------


@dataclass
class _Limits:
    max_cells: int
    max_columns: int
    max_repeated: int
    max_expanded: int


@dataclass
class _Extent:
    """The span of a sheet's cells that hold a value, and the cells that set its far bounds."""

    row_min: int = 1 << 62
    row_max: int = -1
    col_min: int = 1 << 62
    col_max: int = -1
    far_row: str = ""
    far_col: str = ""

    def add(self, rows: np.ndarray, cols: np.ndarray, row_ends: np.ndarray, col_ends: np.ndarray,
            label: Callable[[int], str]) -> None:
        if rows.size == 0:
            return
        self.row_min = min(self.row_min, int(rows.min()))
        self.col_min = min(self.col_min, int(cols.min()))
        i = int(np.argmax(row_ends))
        if row_ends[i] > self.row_max:
            self.row_max, self.far_row = int(row_ends[i]), label(i)
        j = int(np.argmax(col_ends))
        if col_ends[j] > self.col_max:
            self.col_max, self.far_col = int(col_ends[j]), label(j)

    def check(self, display: str, sheet: str, lim: _Limits) -> None:
        """Refuse beyond the limits; ``sheet`` names the sheet in the message ("sheet 'Results'")."""
        rows = self.row_max - self.row_min + 1
        cols = self.col_max - self.col_min + 1
        if rows <= 0 or cols <= 0:
            return
        if cols <= lim.max_columns and rows * cols <= lim.max_cells:
            return
        last_col = _col_letters(self.col_max) if self.col_max < _EXCEL_COLUMNS else f"{self.col_max + 1:,}"
        span = f"rows {self.row_min + 1:,}-{self.row_max + 1:,}, columns {_col_letters(self.col_min)}-{last_col}"
        far = (f"the last value is {self.far_row}" if self.far_row == self.far_col
               else f"the lowest value is {self.far_row}, the rightmost {self.far_col}")
        if cols > lim.max_columns:
            what = f"{sheet} holds values in {cols:,} columns ({span}: {far}); the limit is {lim.max_columns:,}"
        else:
            what = (f"{sheet} would be read as {rows:,} rows x {cols:,} columns = {rows * cols:,} cells ({span}: "
                    f"{far}); the limit is {lim.max_cells:,} cells")
        raise _refused(display, what, _TRIM)


# -- .xlsx -----------------------------------------------------------------------------------------------


@dataclass
class _SharedStrings:
    count: int = 0
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    part: str = ""


def _read_shared_strings(zf: zipfile.ZipFile, name: str, display: str, lim: _Limits) -> _SharedStrings:
    """The number of strings and an upper bound of each one's length (the bytes up to the next <si>)."""
    pieces: list[np.ndarray] = []
    count = 0
    declared = None
    with zf.open(name) as stream:
        for block in _blocks(stream, display, name):
            if declared is None:
                tag = _SST_TAG.search(block)
                if tag is not None:
                    m = _UNIQUE_COUNT.search(tag.group(1))
                    declared = int(m.group(1)) if m else -1
            lens = _lengths(_SI_TOKEN.split(block))
            if pieces:
                pieces[-1][-1] += lens[0]  # the text before the first <si> ends the previous block's last one
            if lens.size > 1:
                pieces.append(lens[1:].copy())
                count += lens.size - 1
            if count > lim.max_cells:
                raise _refused(display, f"its shared-string table '{name}' holds more than {lim.max_cells:,} strings "
                               "(more than the cells a sheet may have)", _RESAVE)
    if declared is not None and declared > count + _DECLARED_SLACK:
        raise _refused(display, f"its shared-string table '{name}' declares uniqueCount=\"{declared}\" strings but "
                       f"holds {count:,} (the reader would reserve memory for all it declares)", _RESAVE)
    lengths = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)
    return _SharedStrings(count, lengths, name)


@dataclass
class _Pending:
    """The last cell of a block when no row or cell tag followed it: later values may still be its own."""

    row: int
    col: int
    name: str
    shared: bool


def _scan_xlsx_sheet(zf: zipfile.ZipFile, part: str, sheet: str, display: str, lim: _Limits,
                     sst: _SharedStrings, used: np.ndarray, budget: _Budget) -> int:
    """Check one sheet part; returns the characters its shared-string cells hold in all."""
    ext = _Extent()
    row_state, col_state = 0, 0  # calamine's counters (0-based) after the tokens so far
    pending: _Pending | None = None
    characters = 0
    with zf.open(part) as stream:
        for block in _blocks(stream, display, part):
            t = _xlsx_tokens_fast(block) if _FAST else None
            if t is None:
                budget.spend(block, part)
                t = _xlsx_tokens_slow(block)
            n = t.kind.size
            if n == 0:
                continue
            is_row = t.kind == 1
            row_start = is_row & ~t.slash
            row_end = is_row & (t.slash | t.empty)
            cell = (t.kind == 2) & ~t.slash
            value = ((t.kind == 3) | (t.kind == 4)) & ~t.slash
            ref_row = np.zeros(n, dtype=np.int64)
            ref_col = np.zeros(n, dtype=np.int64)
            form_ok = np.zeros(n, dtype=bool)
            letters = np.zeros(n, dtype=np.int64)
            given = np.flatnonzero(t.r_given)
            if given.size:
                letters[given], form_ok[given], ref_row[given], ref_col[given] = _parse_refs(t.r_raw[given])
            cell_ok = form_ok & (letters >= 1)
            row_ok, row_r = form_ok, ref_row
            bad = t.r_given & (cell | row_start) & ~(t.r_closed & np.where(cell, cell_ok & ~t.twice, row_ok))
            if bad.any():
                i = int(np.argmax(bad))
                shown = _shown(t.r_raw[i])
                what = ("a cell gives its reference r twice (the reader would take the last one)"
                        if cell[i] and t.twice[i] else
                        f"a {'cell' if cell[i] else 'row'} has r=\"{shown}{'' if t.r_closed[i] else '...'}\", "
                        "which is no cell of a sheet (A1 to XFD1048576)")
                raise _refused(display, f"{sheet}: {what}", _RESAVE)
            # Rows: <row r="n"> sets the row counter to n - 1, each </row> (or <row/>) adds one.
            row_set = row_start & t.r_given
            row_inc = row_end.astype(np.int64)
            row_after = _counter(row_state, row_set, row_r + row_inc, np.where(row_set, 0, row_inc))
            row_before = np.concatenate(([row_state], row_after[:-1]))
            # Columns: </row> sets 0, <c r="..."> its column + 1, a <c> without r adds one.
            explicit = cell & t.r_given
            col_after = _counter(col_state, row_end | explicit, np.where(explicit, ref_col + 1, 0),
                                 (cell & ~t.r_given).astype(np.int64))
            col_before = np.concatenate(([col_state], col_after[:-1]))
            pos_row = np.where(explicit, ref_row, row_before)
            pos_col = np.where(explicit, ref_col, col_before)
            # A value belongs to the last cell when no row or cell tag stands between them; values before
            # the block's first row or cell tag belong to the previous block's last cell.
            last_boundary = _last_index(cell | is_row)
            owner = np.where(value & (last_boundary >= 0) & cell[np.maximum(last_boundary, 0)], last_boundary, -1)
            orphan = value & (last_boundary < 0)
            has_value = np.zeros(n, dtype=bool)
            has_value[owner[owner >= 0]] = True
            holders = np.flatnonzero(cell & has_value)

            def cell_label(i: int, t=t, pos_row=pos_row, pos_col=pos_col) -> str:
                if t.r_given[i]:
                    return f"the cell {_shown(t.r_raw[i])}"
                return f"the cell at {_cell_name(int(pos_row[i]), int(pos_col[i]))} (placed after the ones before it)"

            def holder_label(k: int, holders=holders, cell_label=cell_label) -> str:
                return cell_label(int(holders[k]))

            rows, cols = pos_row[holders], pos_col[holders]
            ext.add(rows, cols, rows, cols, holder_label)
            if pending is not None and orphan.any():
                p = pending
                ext.add(np.array([p.row]), np.array([p.col]), np.array([p.row]), np.array([p.col]), lambda k: p.name)
            ext.check(display, sheet, lim)
            # Shared-string indices: the text right after the <v> of a t="s" cell.
            owner_shared = np.zeros(n, dtype=bool)
            owned = owner >= 0
            owner_shared[owned] = t.shared[owner[owned]]
            if pending is not None and pending.shared:
                owner_shared |= orphan
            check = np.flatnonzero(value & (t.kind == 3) & owner_shared)
            if check.size:
                raw = t.text[check]
                b = np.ascontiguousarray(raw).view(np.uint8).reshape(check.size, _REF_WIDTH)
                n_digits = np.cumprod((b >= 48) & (b <= 57), axis=1).sum(axis=1)
                following = b[np.arange(check.size), np.minimum(n_digits, _REF_WIDTH - 1)]
                ok = (n_digits >= 1) & (n_digits <= 18) & ((n_digits == t.text_len[check]) | (following == ord("<")))
                index = np.where(ok, _leading_int(raw, np.where(ok, n_digits, 0)), -1)
                ok &= index < sst.count
                if not ok.all():
                    k = int(np.argmin(ok))
                    i = int(check[k])
                    # a value outside the block's cells is checked only when it is the pending cell's
                    orphan_name = pending.name if pending is not None else ""
                    where = (cell_label(int(owner[i])) if owner[i] >= 0 else orphan_name).removeprefix("the cell ")
                    have = (f"the workbook has {sst.count:,} shared strings, numbered 0 to {sst.count - 1:,}"
                            if sst.count else "the workbook has no shared-string table")
                    raise _refused(display, f"{sheet}, cell {where} refers to shared string "
                                   f"<v>{_shown(bytes(raw[k]).split(b'<', 1)[0], 24)}</v>, which does not exist ({have}); "
                                   "the reader would show another cell's text there, or nothing", _RESAVE)
                used[index] = True
                characters += int(sst.lengths[index].sum())
            # Carry the counters, and the last cell if no row or cell tag followed it.
            row_state, col_state = int(row_after[-1]), int(col_after[-1])
            lb = int(last_boundary[-1])
            if lb >= 0:
                pending = None
                if cell[lb]:
                    pending = _Pending(int(pos_row[lb]), int(pos_col[lb]), cell_label(lb), bool(t.shared[lb]))
    return characters


_SHEET_ENTRY = re.compile(rb"<" + _PREFIX + rb"sheet(?=[\s/>])(" + _ATTRS + rb")/?>")
_REL_ENTRY = re.compile(rb"<" + _PREFIX + rb"Relationship(?=[\s/>])(" + _ATTRS + rb")/?>")


def _attribute(attrs: bytes, name: bytes) -> str | None:
    m = re.search(rb"(?:^|[\s\"'])" + name + rb"""\s*=\s*(?:"([^"]*)"|'([^']*)')""", attrs)
    if m is None:
        return None
    return (m.group(1) if m.group(1) is not None else m.group(2)).decode("utf-8", "replace")


def _small_part(zf: zipfile.ZipFile, name: str) -> bytes:
    return zf.read(name) if zf.getinfo(name).file_size <= 16 * _CHUNK else b""


def _xlsx_sheet_parts(zf: zipfile.ZipFile, names: list[str]) -> dict[str, str]:
    """part -> what messages call it: its sheet's name where the workbook says so, else the part's name.

    Every .xml member is scanned (whatever the workbook's relationships say), and so is any other member
    a relationship names as a worksheet."""
    lower = {n.lower(): n for n in names}
    parts: dict[str, str] = {}
    by_id: dict[str, str] = {}
    for name in names:
        if not name.lower().endswith(".rels"):
            continue
        folder = name.rsplit("_rels/", 1)[0] if "_rels/" in name else ""
        for m in _REL_ENTRY.finditer(_small_part(zf, name)):
            target = _attribute(m.group(1), rb"Target")
            kind = _attribute(m.group(1), rb"Type") or ""
            if not target or not kind.endswith("/worksheet"):
                continue
            path = target[1:] if target.startswith("/") else folder + target
            found = lower.get(path.lower()) or next(
                (n for n in names if basename(n).lower() == basename(path).lower()), None)
            if found is not None:
                parts[found] = f"the sheet in part '{found}'"
                rid = _attribute(m.group(1), rb"Id")
                if rid:
                    by_id[rid] = found
    for name in names:
        if basename(name).lower() == "workbook.xml":
            for m in _SHEET_ENTRY.finditer(_small_part(zf, name)):
                sheet = _attribute(m.group(1), rb"name")
                rid = _attribute(m.group(1), rb"[\w.\-]+:id")
                if sheet and rid in by_id:
                    parts[by_id[rid]] = f"sheet '{sheet}'"
    for name in names:
        if name.lower().endswith(".xml"):
            parts.setdefault(name, f"the sheet in part '{name}'")
    return parts


def _check_xlsx(zf: zipfile.ZipFile, display: str, lim: _Limits) -> None:
    names = [i.filename for i in zf.infolist() if not i.is_dir()]
    tables = [n for n in names if basename(n).lower() == "sharedstrings.xml"]
    sst = _SharedStrings()
    if tables:
        sst = _read_shared_strings(zf, next((n for n in tables if n.lower() == "xl/sharedstrings.xml"), tables[0]),
                                   display, lim)
    used = np.zeros(sst.count, dtype=bool)
    characters = 0
    budget = _Budget(display)
    for part, sheet in _xlsx_sheet_parts(zf, names).items():
        if part in tables:
            continue
        characters += _scan_xlsx_sheet(zf, part, sheet, display, lim, sst, used, budget)
        added = characters - int(sst.lengths[used].sum())
        if added > lim.max_expanded:
            raise _refused(display, f"its cells refer to the same shared strings again and again: read, they would hold "
                           f"{added:,} characters more than the file's strings (counted up to {sheet}); the "
                           f"limit is {lim.max_expanded:,}", _TRIM)


# -- .ods ------------------------------------------------------------------------------------------------


@dataclass
class _OdsState:
    table: str = "1"
    tables: int = 0
    row_next: int = 0  # first row of the next row element, within the table
    row_first: int = 0  # the current row element: its first row and its repeat count
    row_repeat: int = 1
    col_next: int = 0  # first column of the next cell element, within the row
    owner: int = 0  # repeat count (columns x rows) of the text-holding cell whose content follows, else 0
    spaces: int = 0
    added: int = 0
    extent: _Extent = field(default_factory=_Extent)
    depth: int = 0  # cells open (a table inside a cell is refused)
    open_table: bool = False  # a table, or a row of it, not yet followed by </table:table>
    offset: int = 0  # bytes of content.xml before the current block
    annotation_start: int = -1  # where the last <office:annotation> starts, and the last one ends
    annotation_end: int = -1


def _repeats_text(rows: int, cols: int) -> str:
    parts = []
    if rows > 1:
        parts.append(f'its row has table:number-rows-repeated="{rows}"')
    if cols > 1:
        parts.append(f'table:number-columns-repeated="{cols}"')
    return f" ({', '.join(parts)})" if parts else ""


def _check_ods(zf: zipfile.ZipFile, display: str, lim: _Limits) -> None:
    st = _OdsState()
    budget = _Budget(display)
    with zf.open("content.xml") as stream:
        for block in _blocks(stream, display, "content.xml"):
            t = _ods_tokens_fast(block) if _FAST else None
            if t is None:
                budget.spend(block, "content.xml")
                t = _ods_tokens_slow(block)
            _ods_endings(st, block)
            seg = t.seg
            if st.owner > 1:  # the text that starts the block is the content of the previous block's last cell
                st.added += int(seg[0]) * (st.owner - 1)
            n = t.kind.size
            if n == 0:
                continue
            _ods_structure(st, t, display)
            is_table = t.is_table
            is_row = t.kind == 1
            is_cell = t.kind == 2
            row_rep = np.where(t.row_rep < 0, 1, t.row_rep)
            col_rep = np.where(t.col_rep < 0, 1, t.col_rep)
            is_space = (t.kind == 3) & ~t.slash
            spaces = np.where(is_space, np.where(t.spaces < 0, 1, t.spaces), 0)
            row_start = is_row & ~t.slash
            row_end = is_row & (t.slash | t.empty)
            cell = is_cell & ~t.slash
            cell_end = is_cell & (t.slash | t.empty)
            # Rows: the first row of each row element within its table (a table starts again at 0).
            rows_here = np.where(row_start, row_rep, 0)
            row_first = _counter(st.row_next, is_table, np.zeros(n, dtype=np.int64), rows_here) - rows_here
            last_row = _last_index(row_start | is_table)
            at = np.maximum(last_row, 0)
            in_row = last_row >= 0
            cur_first = np.where(in_row, np.where(is_table[at], 0, row_first[at]), st.row_first)
            cur_rep = np.where(in_row, np.where(is_table[at], 1, row_rep[at]), st.row_repeat)
            # Cells: the first column of each cell element within its row.
            cols_here = np.where(cell, col_rep, 0)
            col_first = _counter(st.col_next, row_start | is_table, np.zeros(n, dtype=np.int64), cols_here) - cols_here
            # The extent of the cells that hold a value, per table.
            holders = np.flatnonzero(cell & t.holds_value)
            starts = np.flatnonzero(is_table)
            for k, members in enumerate(np.split(holders, np.searchsorted(holders, starts))):
                if k:
                    st.extent.check(display, f"sheet '{st.table}'", lim)
                    st.tables += 1
                    st.table = _shown(t.names[int(starts[k - 1])], 200) or str(st.tables)
                    st.extent = _Extent()
                if members.size == 0:
                    continue
                rows, cols = cur_first[members], col_first[members]

                def label(j: int, members=members, rows=rows, cols=cols, cur_rep=cur_rep, col_rep=col_rep) -> str:
                    m = int(members[j])
                    return (f"the cell at {_cell_name(int(rows[j]), int(cols[j]))}"
                            f"{_repeats_text(int(cur_rep[m]), int(col_rep[m]))}")

                st.extent.add(rows, cols, rows + cur_rep[members] - 1, cols + col_rep[members] - 1, label)
                st.extent.check(display, f"sheet '{st.table}'", lim)
            # Spaces of <text:s text:c="n"/>, in all.
            total = st.spaces + np.cumsum(spaces)
            if total[-1] > lim.max_repeated:
                i = int(np.argmax(total > lim.max_repeated))
                raise _refused(display, f"sheet '{st.table}' asks for {int(total[-1]):,} repeated spaces in all (the "
                               f"cells' <text:s text:c=\"...\"/>, one of {int(spaces[i]):,} near row "
                               f"{int(cur_first[i]) + 1:,}); the limit is {lim.max_repeated:,}", _RESAVE)
            st.spaces = int(total[-1])
            # Text that repetition adds: a repeated cell's text (its attributes, the text and the spaces inside
            # it) once more for each repeated column and row.
            mult = np.where(cell & t.holds_text, col_rep * cur_rep, 0)
            owner = _counter(st.owner, cell | cell_end | row_start | row_end | is_table,
                             np.where(cell & ~t.empty, mult, 0), np.zeros(n, dtype=np.int64))
            content = (seg[1:] + spaces).astype(np.float64)
            added = float((np.maximum(owner - 1, 0) * content).sum())
            added += float((np.maximum(mult - 1, 0) * t.attr_len.astype(np.float64)).sum())
            st.added += int(min(added, 1e18))
            if st.added > lim.max_expanded:
                raise _refused(display, f"sheet '{st.table}' repeats cells that hold text: read, they would add "
                               f"{st.added:,} characters; the limit is {lim.max_expanded:,}", _TRIM)
            # Carry the counters into the next block.
            if int(last_row[-1]) >= 0:
                st.row_first, st.row_repeat = int(cur_first[-1]), int(cur_rep[-1])
            st.row_next = int(row_first[-1] + rows_here[-1])
            st.col_next = int(col_first[-1] + cols_here[-1])
            st.owner = int(owner[-1])
    st.extent.check(display, f"sheet '{st.table}'", lim)
    if st.open_table:
        raise _refused(display, f"sheet '{st.table}' is not closed: no </table:table> follows its last row (the reader "
                       "would wait for it forever)", _RESAVE)
    if st.annotation_start > st.annotation_end:
        raise _refused(display, f"a comment (<office:annotation>) in sheet '{st.table}' is not closed (the reader would "
                       "wait for its end forever)", _RESAVE)


def _ods_endings(st: _OdsState, block: bytes) -> None:
    """Where the last comment starts and ends (calamine reads a comment until its end tag, whatever comes)."""
    starts = max(block.rfind(b"<office:annotation" + c) for c in (b">", b" ", b"\t", b"\n", b"\r"))
    ends = max(block.rfind(b"</office:annotation" + c) for c in (b">", b" ", b"\t", b"\n", b"\r"))
    if starts >= 0:
        st.annotation_start = st.offset + starts
    if ends >= 0:
        st.annotation_end = st.offset + ends
    st.offset += len(block)


def _ods_structure(st: _OdsState, t: _OdsTokens, display: str) -> None:
    """Tables inside cells are refused, and each table must end after its last row: calamine waits for
    </table:table> without looking for the end of the file."""
    is_cell = t.kind == 2
    opens = (is_cell & ~t.slash & ~t.empty).astype(np.int64)
    closes = (is_cell & t.slash).astype(np.int64)
    depth = st.depth + np.cumsum(opens - closes)
    before = depth - opens + closes
    if np.any(t.is_table & (before > 0)):
        raise _refused(display, f"sheet '{st.table}' has a table inside a cell, which the reader does not read as "
                       "a sheet", _RESAVE)
    st.depth = max(int(depth[-1]), 0)
    marks = int(_last_index(t.is_table | (t.kind == 1))[-1])
    ends = int(_last_index(t.table_end)[-1])
    if marks > ends:
        st.open_table = True
    elif ends >= 0:
        st.open_table = False


# -- entry points ----------------------------------------------------------------------------------------


def check_workbook(data: bytes, display: str, kind: str, *, max_cells: int = limits.MAX_SHEET_CELLS,
                   max_columns: int = limits.MAX_SHEET_COLUMNS, max_repeated: int = limits.MAX_REPEATED_CHARACTERS,
                   max_expanded: int = MAX_EXPANDED_CHARACTERS) -> None:
    """Refuse an .xlsx (``kind`` "xlsx") or .ods ("ods") workbook that would expand beyond the limits.

    The zip directory must have been checked before (``_excel._check_zip``): the members are decompressed
    here as streams, within the sizes it allowed."""
    lim = _Limits(max_cells, max_columns, max_repeated, max_expanded)
    ext = ".ods" if kind == "ods" else ".xlsx"
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            if kind == "ods":
                _check_ods(zf, display, lim)
            else:
                _check_xlsx(zf, display, lim)
    except InputError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, KeyError, RuntimeError,
            NotImplementedError, zlib.error) as exc:
        raise InputError(
            f"File '{display}' cannot be read as an {ext} workbook: a part of it does not unpack "
            f"({type(exc).__name__}: {str(exc)[:120]}); the file is damaged or truncated. Upload it again, or open "
            f"it in a spreadsheet program and save it again as {ext}."
        ) from None


# -- .xls (OLE2 compound file) ---------------------------------------------------------------------------

_ENDOFCHAIN = 0xFFFFFFFE
_DIFSECT = 0xFFFFFFFC
_MAX_REGSECT = 0xFFFFFFFA


def check_ole2(data: bytes, display: str) -> None:
    """Refuse an OLE2 compound file (.xls) whose header or sector chains would make the reader reserve more
    than the file holds or follow a chain forever. A file that is not OLE2 is left to the reader."""
    size = len(data)
    if size < 512 or data[:8] != b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return

    def bad(what: str) -> InputError:
        return _refused(display, f"its OLE2 structure (the container of an .xls file) is inconsistent: {what}; the "
                        "file is damaged or crafted", _RESAVE)

    def u16(off: int) -> int:
        return int.from_bytes(data[off:off + 2], "little")

    def u32(off: int) -> int:
        return int.from_bytes(data[off:off + 4], "little")

    shift = u16(30)
    if shift not in (9, 12) or u16(32) != 6:
        return  # the reader refuses an unknown sector size itself
    sector = 1 << shift
    n_sectors = size // sector  # as calamine counts them
    fat_len, dir_start, mini_start, mini_len, difat_start, difat_len = (u32(o) for o in (44, 48, 60, 64, 68, 72))
    for count, what in ((fat_len, "FAT"), (mini_len, "mini-FAT"), (difat_len, "DIFAT")):
        if count > n_sectors:
            raise bad(f"the header counts {count:,} {what} sectors, but the file of {size:,} bytes holds "
                      f"{n_sectors:,} sectors")
    # calamine reserves a DIFAT of the u32 read at byte 62 (the high half of the first mini-FAT sector and the
    # low half of the mini-FAT count): 4 bytes each.
    reserved = u32(62)
    if reserved > max(128 * n_sectors + 109, 1 << 20):
        raise bad(f"its mini-FAT fields (first sector {mini_start:,}, {mini_len:,} sectors) would make the reader "
                  f"reserve {4 * reserved:,} bytes")
    header = 512 if sector == 512 else 4096

    def sector_bytes(sid: int) -> bytes | None:
        start = header + sid * sector
        return data[start:start + sector] if sid < n_sectors and start < size else None

    # DIFAT: 109 entries in the header, then a chain of DIFAT sectors (the last entry of each is the next).
    difat = np.frombuffer(data[76:512], dtype="<u4").tolist()
    sid, seen = difat_start, set()
    while sid < _MAX_REGSECT:
        if sid in seen:
            raise bad(f"its DIFAT chain comes back to sector {sid:,} (a loop)")
        seen.add(sid)
        raw = sector_bytes(sid)
        if raw is None:
            raise bad(f"its DIFAT chain points to sector {sid:,}, past the end of the file")
        entries = np.frombuffer(raw[: len(raw) // 4 * 4], dtype="<u4").tolist()
        if not entries:
            break
        difat.extend(entries[:-1])
        sid = entries[-1]
    fat_ids = [x for x in difat if x < _DIFSECT]
    if len(fat_ids) > n_sectors:
        raise bad(f"it lists {len(fat_ids):,} FAT sectors in a file of {n_sectors:,} sectors")
    pieces = []
    for fid in fat_ids:
        raw = sector_bytes(fid)
        if raw is None:
            raise bad(f"a FAT sector is numbered {fid:,}, past the end of the file")
        pieces.append(np.frombuffer(raw[: len(raw) // 4 * 4], dtype="<u4"))
    fat = np.concatenate(pieces).astype(np.int64) if pieces else np.zeros(0, dtype=np.int64)

    def walk(start: int, what: str, length: int | None) -> list[int]:
        """The sectors of a chain; calamine stops a chain of known length once it holds the length."""
        chain: list[int] = []
        sid = start
        visited = np.zeros(fat.size, dtype=bool)
        while sid != _ENDOFCHAIN:
            if length is not None and len(chain) * sector >= length:
                break
            if sid >= fat.size:
                raise bad(f"the chain of {what} points to sector {sid:,}, beyond the FAT ({fat.size:,} entries)")
            if visited[sid]:
                raise bad(f"the chain of {what} comes back to sector {sid:,} (a loop)")
            visited[sid] = True
            chain.append(sid)
            sid = int(fat[sid])
        return chain

    directory = b"".join(sector_bytes(s) or b"" for s in walk(dir_start, "the directory", None))
    for k in range(len(directory) // 128):
        entry = directory[k * 128:(k + 1) * 128]
        kind = entry[66]
        if kind not in (2, 5):  # a stream, the root (whose chain is the mini stream)
            continue
        name = entry[: max(min(int.from_bytes(entry[64:66], "little"), 64) - 2, 0)].decode("utf-16-le", "replace")
        name = name or f"entry {k}"
        start = int.from_bytes(entry[116:120], "little")
        length = int.from_bytes(entry[120:128] if sector == 4096 else entry[120:124], "little")
        if kind == 2 and length < 4096:
            continue  # in the mini stream: calamine reads at most the declared length (< 4 KB)
        if length > size:
            raise bad(f"its stream '{name}' declares {length:,} bytes in a file of {size:,} bytes")
        if start < _MAX_REGSECT:
            walk(start, f"the stream '{name}'", length)
