"""The delimited-text reader (CSV, TSV, semicolon- and pipe-separated) -> :class:`RawTable`.

Cost grows linearly with the size of the file: records are found in one pass (vectorized over the
bytes when the file has no quote characters, else one streaming pass of the csv module that keeps two
integers per record), the cells are split by pandas' C parser, and every check is vectorized; messages
name at most a few cells ("and N more").
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from array import array
from typing import Any, Callable, Iterator

import numpy as np
import pandas as pd

from compare_lib.core._table_validation import _MISSING_TOKENS
from compare_lib.errors import InputError, arg
from compare_lib.limits import MAX_TABLE_COLUMNS
from compare_lib.io._raw import RawTable

_NA_VALUES = sorted({v for t in _MISSING_TOKENS for v in (t, t.upper(), t.capitalize())} | {"NaN", "N/A"})

_DELIMITERS = ("\t", ";", ",", "|")
#: The csv module refuses fields above 128 KiB by default; a 50 MB upload may hold one long line.
_FIELD_LIMIT = 1 << 30


def _allow_long_fields() -> None:
    if csv.field_size_limit() < _FIELD_LIMIT:
        csv.field_size_limit(_FIELD_LIMIT)  # only ever raised, never lowered: safe across sessions


_BLANK_LINES = re.compile(r"^[ \t\f\v]+$", re.MULTILINE)
# A line holding a character that is not whitespace (as str.strip sees it); "." stops at \n only.
_NONBLANK_LINES = re.compile(r"^.*\S.*$", re.MULTILINE)
# Byte-order marks at the start of a line (files joined with `cat`): removed, so that a line holding only
# one is blank for the record scan and for pandas alike (pandas drops a BOM at the start of the body: the
# two counts differed, and a body of one such line raised pandas' EmptyDataError; issue 27).
_LINE_BOMS = re.compile(r"^\ufeff++", re.MULTILINE)


def _detect_delimiter(sample: list[str]) -> str:
    _allow_long_fields()
    best, best_fields = ",", 1
    for delim in _DELIMITERS:
        counts = {len(row) for row in csv.reader(sample[:50], delimiter=delim, skipinitialspace=True) if row}
        if len(counts) == 1:
            fields = counts.pop()
            if fields > best_fields:
                best, best_fields = delim, fields
    if best_fields == 1:
        # Inconsistent rows: take the delimiter that splits the header most; ragged rows are reported later.
        header = sample[0]
        best = max(_DELIMITERS, key=lambda d: len(next(csv.reader([header], delimiter=d))))
    return best


def check_sep(sep: Any) -> str | None:
    if sep is None:
        return None
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n" or sep.isalnum():
        raise InputError(
            f"{arg('sep', sep)} is not a delimiter: give one character such as ',', ';', '\\t' or '|' (or leave it "
            "out to detect it)."
        )
    return sep


def _lines(text: str, chunk: int = 1 << 20) -> Iterator[str]:
    """The lines of a text split at \\n only, read through a StringIO of about ``chunk`` characters at a time: a
    StringIO holds 4 bytes per character, so one over the whole text would cost four times its size (issue 31: 35 MB
    for a 10 MB file, the peak of a read)."""
    start, size = 0, len(text)
    while start < size:
        cut = start + chunk
        if cut >= size:
            end = size
        else:
            newline = text.find("\n", cut)
            end = size if newline < 0 else newline + 1
        yield from io.StringIO(text[start:end], newline="")
        start = end


def _scan_records(text: str, delim: str, display: str) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """One streaming pass of the csv module over the text: for each non-blank record, its first line
    number (1-based, a quoted field may span lines) and its number of fields; and the header cells.

    Nothing but two integer arrays is kept, so memory stays small for any file size. The csv module
    splits records only at \\n (the text is normalized), never at U+2028 or other characters that
    ``str.splitlines`` would split at.
    """
    if '"' not in text:
        return _scan_unquoted(text, delim, display)
    _allow_long_fields()
    reader = csv.reader(_lines(text), delimiter=delim, skipinitialspace=True)
    starts, counts = array("q"), array("q")
    header: list[str] | None = None
    previous_end = 0
    try:
        for row in reader:
            if row:
                if header is None:
                    header = row
                starts.append(previous_end + 1)
                counts.append(len(row))
            previous_end = reader.line_num
    except csv.Error as err:
        raise InputError(
            f"File '{display}', line {reader.line_num}: the file cannot be read as CSV ({err}). Check for a stray "
            "quote character or a binary file."
        ) from None
    if header is None:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    return np.frombuffer(starts, dtype=np.int64), np.frombuffer(counts, dtype=np.int64), header, previous_end


def _byte_positions(buf: np.ndarray, byte: int, chunk: int = 1 << 22) -> np.ndarray:
    """Where ``byte`` is in ``buf``, compared a few megabytes at a time (a comparison of the whole buffer is a
    temporary as large as the file), as 32-bit positions when they fit (half the memory of numpy's 64-bit ones)."""
    dtype = np.int32 if buf.size < 2 ** 31 else np.int64
    parts = [np.flatnonzero(buf[i:i + chunk] == byte).astype(dtype) + i for i in range(0, buf.size, chunk)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def _scan_unquoted(text: str, delim: str, display: str) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """:func:`_scan_records` for a text without quote characters, vectorized over its bytes: records are
    the non-empty lines and their fields are separated by every delimiter (the delimiter is ASCII, so
    counting its bytes in UTF-8 is exact)."""
    buf = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    breaks = _byte_positions(buf, 10)
    seps = _byte_positions(buf, ord(delim))
    n_lines = int(breaks.size + 1)
    starts = np.concatenate([np.zeros(1, breaks.dtype), breaks + 1])
    ends = np.concatenate([breaks, np.array([buf.size], breaks.dtype)])
    del breaks
    lines = np.flatnonzero(ends > starts)  # the non-empty lines, from 0
    if lines.size == 0:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    first = bytes(buf[starts[lines[0]] : ends[lines[0]]]).decode("utf-8")
    del buf  # the encoded text is not needed to count the fields
    counts = np.searchsorted(seps, ends[lines]) - np.searchsorted(seps, starts[lines]) + 1
    header = first.split(delim)
    header = [h.lstrip(" ") for h in header]  # as skipinitialspace
    return lines + 1, counts.astype(np.int64), header, n_lines


def _split_text(text: str, display: str, sep: str | None) -> tuple[list[str], bytes, np.ndarray, np.ndarray, int, str]:
    """Header cells, the body (after the header record, as UTF-8 bytes), the body records' first line numbers and
    field counts, the header's line number and the delimiter (detected on the first non-blank lines
    unless given)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\ufeff" in text:
        text = _LINE_BOMS.sub("", text)
    text = _BLANK_LINES.sub("", text)  # whitespace-only lines are blank
    # The first 50 non-blank lines, found without a StringIO (which holds 4 bytes per character of the whole text).
    sample = [m.group() for m in itertools.islice(_NONBLANK_LINES.finditer(text), 50)]
    if not sample:
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    delim = sep or _detect_delimiter(sample)
    starts, counts, header, _ = _scan_records(text, delim, display)
    header = [c.strip() for c in header]
    header_line = int(starts[0])
    # The body begins after the header record's last line.
    body_from = int(starts[1]) - 1 if starts.size > 1 else None
    offset = 0
    if body_from is not None:
        for _ in range(body_from):
            offset = text.index("\n", offset) + 1
    # The C parser reads bytes (1 per ASCII character, not 4); the body is never kept as a second str beside them.
    body = text[offset:].encode("utf-8") if body_from is not None else b""
    return header, body, starts[1:], counts[1:], header_line, delim


def _ragged(display: str, line: int, fields: int, header: list[str], header_line: int, delim: str) -> InputError:
    return InputError(
        f"File '{display}', line {line}: {fields} field(s) where the header (line {header_line}) has {len(header)}. "
        f"Every row needs one value per column; check for a missing or extra {_delim_name(delim)}."
    )


def _parse_body(
    header: list[str], body_bytes: bytes, line_numbers: np.ndarray, counts: np.ndarray, header_line: int, delim: str,
    display: str, numeric_from: int | frozenset | None = None,
) -> tuple[list[str], pd.DataFrame]:
    """The body as a DataFrame of stripped strings (the C parser of pandas does the splitting), and the
    header without a trailing empty column. With ``numeric_from`` an int, columns from that one on come
    back as floats when they all parse as numbers (else every column is text); with a set of column
    numbers, each of those columns comes back as floats when it parses as numbers, else as its text
    (missing-value tokens as NaN), and the other columns as stripped text."""
    bad = np.flatnonzero(counts != len(header))
    trailing = header[-1] == "" and len(header) > 1
    if bad.size and (not trailing or (counts[bad] > len(header)).any()):
        i = int(bad[0]) if not trailing else int(bad[np.flatnonzero(counts[bad] > len(header))[0]])
        raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim)
    common = dict(sep=delim, header=None, engine="c", skip_blank_lines=True, skipinitialspace=True,
                  quotechar='"', encoding="utf-8")

    def read(*args, **kw) -> pd.DataFrame:
        try:
            return pd.read_csv(*args, **kw)
        except pd.errors.ParserError:  # rows of different lengths (a trailing empty header let them through)
            i = int(bad[0]) if bad.size else 0
            raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim) from None
        except pd.errors.EmptyDataError:  # the records found hold nothing pandas reads as a row
            if bad.size:
                i = int(bad[0])
                raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim) from None
            raise InputError(
                f"File '{display}': the lines after the header (from line {int(line_numbers[0])}) hold no cells that "
                "can be read. Check the file's encoding and its line breaks."
            ) from None

    def as_written(frame: pd.DataFrame, columns: list[int], dtype) -> pd.DataFrame:
        """``frame`` with ``columns`` as written in the file (no missing-value tokens): the missing-value
        tokens are given to pandas once for all the columns (a dict of them per column cost pandas
        milliseconds per column), so the columns that must keep them are read again, when they hold one."""
        if columns and frame[columns].isna().to_numpy().any():
            again = read(io.BytesIO(body_bytes), usecols=columns, dtype=dtype, keep_default_na=False, na_filter=False,
                         **common)
            for j in columns:
                frame[j] = again[j]
        return frame

    grid = None
    if isinstance(numeric_from, frozenset) and not trailing:
        # Long tables: names as text, every other column read as numbers by the C parser where it can.
        names = [j for j in range(len(header)) if j not in numeric_from]
        grid = read(io.BytesIO(body_bytes), dtype={j: str for j in names}, keep_default_na=False,
                    na_values=_NA_VALUES, **common)
        if grid.shape[1] == len(header):
            grid = as_written(grid, names, str)
            for j in names:
                grid[j] = grid[j].fillna("").str.strip()
        else:
            grid = None
    elif numeric_from is not None and not isinstance(numeric_from, frozenset) and not trailing:
        # Fast path for large wide tables: let the C parser read the numbers directly. Anything it
        # cannot read as a number sends the table down the string path, which names the bad cell.
        fast = read(io.BytesIO(body_bytes), dtype={0: str}, keep_default_na=False, na_values=_NA_VALUES, **common)
        scores = fast.iloc[:, numeric_from:]
        if fast.shape[1] == len(header) and all(pd.api.types.is_float_dtype(t) or pd.api.types.is_integer_dtype(t)
                                                for t in scores.dtypes):
            grid = as_written(fast, list(range(numeric_from)), {0: str})  # never a data-set name
            grid[0] = grid[0].fillna("").astype(str).str.strip()
    if grid is None:
        grid = read(io.BytesIO(body_bytes), dtype=str, keep_default_na=False, na_filter=False, **common)
        grid = _strip_all(grid)
    if len(grid) != line_numbers.size:
        raise InputError(
            f"File '{display}': the rows could not be told apart consistently ({len(grid)} rows read, "
            f"{line_numbers.size} records found); check the quoting of the file."
        )
    # A trailing delimiter on every line makes an empty last column: not data.
    if trailing and grid.shape[1] == len(header) and (grid.iloc[:, -1] == "").all():
        header, grid = header[:-1], grid.iloc[:, :-1]
    elif bad.size:
        i = int(bad[0])
        raise _ragged(display, line_numbers[i], counts[i], header, header_line, delim)
    grid.columns = range(grid.shape[1])
    return header, grid


def _strip_all(grid: pd.DataFrame) -> pd.DataFrame:
    """Every cell of a frame of text columns stripped, with one call for all of them when they share their
    dtype (one call per column cost about a millisecond: seconds for a table of thousands of columns)."""
    if grid.shape[1] < 2 or len(set(grid.dtypes)) != 1:
        return grid.apply(lambda col: col.str.strip())
    dtype = grid.dtypes.iloc[0]
    flat = pd.Series(grid.to_numpy(dtype=object).ravel(), dtype=dtype).str.strip()
    return pd.DataFrame(flat.to_numpy(dtype=object).reshape(grid.shape), index=grid.index, columns=grid.columns,
                        dtype=dtype)


def _delim_name(delim: str) -> str:
    return {"\t": "tab", ";": "semicolon", ",": "comma", "|": "pipe"}.get(delim, repr(delim))


def read_delimited(
    text: str, display: str, *, sep: str | None = None,
    plan: Callable[[list[str], int], int | frozenset | None] | None = None,
) -> RawTable:
    """Read delimited text into a :class:`RawTable` (header, positional string columns, line numbers).

    ``sep`` forces the delimiter (default: detected among tab, semicolon, comma and pipe on the first
    non-blank lines). ``plan(header, n_rows)``, called once the records are counted and before the cells
    are split, may refuse the table (size limits) and returns the first column that may be read directly
    as numbers by the C parser (a wide table: 1), the set of columns that may be (a long table: all but
    the names), or None to read every cell as text.
    """
    sep = check_sep(sep)
    header, body, line_numbers, counts, header_line, delim = _split_text(text, display, sep)
    notes: list[str] = []
    if len(header) < 2:
        raise InputError(
            f"File '{display}' has a single column (header: {header[0]!r}). Expected the data-set names in the first "
            "column and one column per classifier, separated by commas, semicolons or tabs."
        )
    width = len(header) - (header[-1] == "")  # a trailing delimiter makes no column
    if width > MAX_TABLE_COLUMNS:
        raise InputError(
            f"File '{display}', line {header_line}: the header has {width:,} columns; text tables are read up to "
            f"{MAX_TABLE_COLUMNS:,} columns. Check the delimiter ({_delim_name(delim)}), or keep fewer columns."
        )
    if delim != ",":
        notes.append(f"Columns are separated by {_delim_name(delim)}s.")
    if not line_numbers.size:
        raise InputError(f"File '{display}' has a header but no data rows. Add one row per data set.")
    numeric_from = plan(header, int(line_numbers.size)) if plan is not None else None
    header, grid = _parse_body(header, body, line_numbers, counts, header_line, delim, display, numeric_from)
    return RawTable(header=header, grid=grid, line_numbers=line_numbers, display=display, format="csv",
                    notes=tuple(notes), delimiter=delim)
