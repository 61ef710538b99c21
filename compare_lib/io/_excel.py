"""Reading one sheet of a spreadsheet (.xlsx, .xls, .ods) into a :class:`RawTable`.

The workbook is read with pandas' ``calamine`` engine (the Rust reader of python-calamine: fast, and it
expands no XML entities). Entirely empty rows and columns are dropped (leading ones silently, others
with a note); the first remaining row is the header and the others are the body, numbered by their
1-based row in the sheet. A column whose non-empty cells are all numbers is stored as ``float64``
(``NaN`` for empty cells) with the numbers exactly as stored in the file; any other column holds text,
with ``""`` for empty cells and numbers written by ``repr`` (shortest text that reads back as the same
float); dates are written in ISO format.

Safety, since the dashboard reads files from strangers: an .xlsx or .ods is a zip file, and its
directory is checked before anything is decompressed: more than 200 MB uncompressed in total, more
than 10,000 members, or a member over 1 MB with a compression ratio above 100 is refused as a
possible zip bomb. Encrypted (password-protected) workbooks, corrupt or truncated files and files that
are not spreadsheets raise :class:`~compare_lib.errors.InputError` with the file name and what to do;
no exception from calamine or zipfile escapes.

Issue 27 (a crafted workbook must not take the process down): before calamine sees an .xlsx or .ods,
:func:`~compare_lib.io._workbook_check.check_workbook` streams its XML and refuses what would expand
beyond the limits (a far cell, huge repeat counts, ``text:c`` spaces, bad shared-string indices; see that
module). An .xls (OLE2/BIFF) has its container checked
(:func:`~compare_lib.io._workbook_check.check_ole2`) and is then read by calamine in a child process with
memory and time limits (:func:`compare_lib.io._isolate.run_isolated`), since its records cannot be
checked as cheaply: a child that dies becomes an ``InputError``. A panic of the native reader
(``pyo3_runtime.PanicException``, a ``BaseException``) is caught at every call and becomes an
``InputError`` too. The cells are converted with whole-array operations (a sheet of 16,384 columns
reads in about a second).

Limits: the zip checks trust the sizes written in the zip directory (calamine itself reads members as
streams); formulas are read as their cached values (a file saved by a program that does not store
them, e.g. some generators, reads as empty cells); merged cells give their value to the top-left
cell only; a workbook with several non-empty sheets needs ``sheet=``.
"""

from __future__ import annotations

import io
import itertools
import re
import zipfile
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from typing import Any

import numpy as np
import pandas as pd

from compare_lib import limits
from compare_lib.errors import InputError, arg
from compare_lib.io._raw import RawTable
from compare_lib.io._workbook_check import check_ole2, check_workbook

__all__ = ["read_spreadsheet", "sheet_names", "MAX_UNCOMPRESSED", "MAX_RATIO"]

MAX_UNCOMPRESSED = 200 * 1024 * 1024
MAX_RATIO = 100
MAX_MEMBERS = 10_000
_RATIO_FLOOR = 1024 * 1024  # small members (styles, shared strings) may compress very well

_ZIP_MAGIC = b"PK\x03\x04"
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_KINDS = {"xlsx": ".xlsx", "xls": ".xls", "ods": ".ods"}


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):,.0f} MB"


def _looks_like_text(data: bytes) -> bool:
    head = data[:4096]
    if not head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # a character cut at the end of the sample is fine
            return False
    return b"\x00" not in head


def _not_a(kind: str, display: str, data: bytes, why: str) -> InputError:
    ext = _KINDS[kind]
    hint = (
        " Its first bytes look like text: if it is a CSV or text table, give it a .csv or .txt name."
        if _looks_like_text(data)
        else f" Open it in a spreadsheet program and save it again as {ext}, or export the sheet as CSV."
    )
    return InputError(f"File '{display}' cannot be read as an {ext} workbook: {why}.{hint}")


def _check_zip(data: bytes, display: str, kind: str) -> None:
    """Refuse corrupt zips, zip bombs and encrypted .ods files before calamine sees them."""
    ext = _KINDS[kind]
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                raise InputError(
                    f"File '{display}' was refused: its zip directory lists {len(infos):,} files (a {ext} "
                    f"workbook holds a few dozen; the limit is {MAX_MEMBERS:,}). Export the sheet as CSV."
                )
            total = sum(i.file_size for i in infos)
            if total > MAX_UNCOMPRESSED:
                raise InputError(
                    f"File '{display}' was refused: it would unpack to {_mb(total)}, over the limit of "
                    f"{_mb(MAX_UNCOMPRESSED)} (this protects the server from zip bombs). "
                    "Export the sheet with the results as CSV, or remove other sheets and images."
                )
            for i in infos:
                ratio = i.file_size / max(i.compress_size, 1)
                if i.file_size > _RATIO_FLOOR and ratio > MAX_RATIO:
                    raise InputError(
                        f"File '{display}' was refused: its part '{i.filename}' is compressed {ratio:,.0f} "
                        f"times ({_mb(i.file_size)} unpacked), over the limit of {MAX_RATIO} (a sign "
                        "of a zip bomb). Export the sheet with the results as CSV."
                    )
                if i.flag_bits & 0x1:
                    raise _encrypted(display, kind)
            names = {i.filename for i in infos}
            if kind == "ods" and "META-INF/manifest.xml" in names:
                manifest = zf.read("META-INF/manifest.xml")
                if b"encryption-data" in manifest:
                    raise _encrypted(display, kind)
            if kind == "xlsx" and not any(n.startswith("xl/") for n in names):
                raise _not_a(kind, display, data, "it is a zip file without the xl/ folder of a workbook")
            if kind == "ods" and "content.xml" not in names:
                raise _not_a(kind, display, data, "it is a zip file without the content.xml of a spreadsheet")
    except InputError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, KeyError) as exc:
        if data[:4] == _ZIP_MAGIC:
            raise InputError(
                f"File '{display}' cannot be read as an {ext} workbook: the file is corrupt or truncated "
                f"({_reason(exc)}); the upload may have been cut short. Upload it again, or open it "
                f"in a spreadsheet program and save it again as {ext}."
            ) from None
        raise _not_a(kind, display, data, "it is not a zip file, as every " + ext + " file is") from None


def _encrypted(display: str, kind: str) -> InputError:
    return InputError(
        f"File '{display}' is password-protected (encrypted), so its cells cannot be read. Open it in your "
        f"spreadsheet program, remove the password (in Excel: File > Info > Protect Workbook > "
        f"Encrypt with Password, clear it), save it as {_KINDS[kind]} again and upload that copy, or "
        "export the sheet as CSV."
    )


def _prepare(data: bytes, display: str, kind: str) -> tuple[str, list[str]]:
    """Security checks; returns the kind to read with (an .xls named .xlsx is read as .xls)."""
    if kind not in _KINDS:
        raise InputError(f"File '{display}': unknown spreadsheet kind {kind!r}; use 'xlsx', 'xls' or 'ods'.")
    if not data:
        raise InputError(f"File '{display}' is empty (0 bytes). Upload the file again.")
    notes: list[str] = []
    if data[:8] == _OLE2_MAGIC:
        # An OLE2 compound file: an old .xls, or an encrypted .xlsx/.ods wrapped by Office.
        if b"E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e" in data:
            raise _encrypted(display, kind)
        if kind != "xls":
            notes.append("the file is an old Excel .xls workbook despite its name; read it as .xls")
        return "xls", notes
    if data[:4] == _ZIP_MAGIC and kind == "xls":
        notes.append("the file is a zip-based workbook despite its .xls name; read it as .xlsx")
        kind = "ods" if b"opendocument.spreadsheet" in data[:200] else "xlsx"
    if kind == "xls":
        raise _not_a(kind, display, data, "it is not an Excel 97-2003 file (no OLE2 header)")
    _check_zip(data, display, kind)
    return kind, notes


def _is_panic(exc: BaseException) -> bool:
    """A panic of native code raised through pyo3 (``pyo3_runtime.PanicException``, a ``BaseException``:
    it is not importable by name, so it is recognised by its class name and module)."""
    return any(c.__name__ == "PanicException" and c.__module__ == "pyo3_runtime"
               for c in type(exc).__mro__)


@contextmanager
def _native(display: str, kind: str, sheet: str | None = None):
    """Around every call into calamine: its errors and its panics become an InputError naming the file.
    KeyboardInterrupt, SystemExit and other BaseExceptions pass through."""
    ext = _KINDS[kind]
    try:
        yield
    except InputError:
        raise
    except Exception as exc:  # calamine's errors have no stable type; none may escape as a traceback
        if sheet is None:
            raise InputError(
                f"File '{display}' cannot be read as an {ext} workbook ({_reason(exc)}). If it is "
                "password-protected, remove the password; otherwise open it in a spreadsheet program, save it "
                f"again as {ext} and upload that copy, or export the sheet as CSV."
            ) from None
        raise InputError(
            f"File '{display}', sheet '{sheet}' cannot be read ({_reason(exc)}). Open the file in a spreadsheet "
            f"program, save it again as {ext}, or export the sheet as CSV."
        ) from None
    except BaseException as exc:
        if not _is_panic(exc):
            raise
        where = f", sheet '{sheet}'," if sheet is not None else ""
        raise InputError(
            f"File '{display}'{where} cannot be read as an {ext} workbook: the reader stopped on an internal error "
            f"({_reason(exc)}), so the file is damaged or was not written by a spreadsheet program. Open it in "
            f"Excel or LibreOffice, save it again as {ext} and upload that copy, or export the sheet as CSV."
        ) from None


def _open(data: bytes, display: str, kind: str):
    from python_calamine import load_workbook

    with _native(display, kind):
        return load_workbook(io.BytesIO(data))


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def _check(data: bytes, display: str, kind: str, max_sheet_cells: int) -> None:
    """The pre-check of an .xlsx/.ods (its XML) or an .xls (its OLE2 container), before calamine reads it."""
    if kind == "xls":
        check_ole2(data, display)
    else:
        check_workbook(data, display, kind, max_cells=max_sheet_cells)


def _isolated(func, *args, display: str, memory_mb: int | None, seconds: float | None):
    """``func(*args)`` in a child process with limits (an .xls: its records are checked by reading them)."""
    from compare_lib.io._isolate import run_isolated

    options: dict[str, Any] = {}
    if memory_mb is not None:
        options["memory_mb"] = memory_mb
    if seconds is not None:
        options["seconds"] = seconds
    return run_isolated(func, *args, display=display, **options)


def sheet_names(data: bytes, kind: str, display: str = "the workbook", *,
                max_sheet_cells: int | None = None, memory_mb: int | None = None,
                seconds: float | None = None) -> list[str]:
    """The names of the sheets of a workbook, after the same safety checks as :func:`read_spreadsheet`."""
    read_kind, _ = _prepare(data, display, kind)
    cells = limits.MAX_SHEET_CELLS if max_sheet_cells is None else max_sheet_cells
    _check(data, display, read_kind, cells)
    if read_kind == "xls":
        return _isolated(_sheet_names_here, data, display, read_kind, display=display, memory_mb=memory_mb,
                         seconds=seconds)
    return _sheet_names_here(data, display, read_kind)


def _sheet_names_here(data: bytes, display: str, kind: str) -> list[str]:
    book = _open(data, display, kind)
    with _native(display, kind):
        return [str(n) for n in book.sheet_names]


def _column_letter(j: int) -> str:
    letters = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def read_spreadsheet(
    data: bytes, display: str, *, sheet: str | int | None = None, kind: str, max_sheet_cells: int | None = None,
    memory_mb: int | None = None, seconds: float | None = None,
) -> RawTable:
    """Read one sheet of a workbook (``kind`` "xlsx", "xls" or "ods") into a :class:`RawTable`.

    ``sheet`` is a sheet name or a 0-based position; it may be left out only when the workbook has
    one non-empty sheet. ``display`` names the file in messages. ``max_sheet_cells`` bounds a sheet's used
    range, rows x columns (default :data:`compare_lib.limits.MAX_SHEET_CELLS`; the dashboard passes
    ``APP_MAX_SHEET_CELLS``); ``memory_mb`` and ``seconds`` are the limits of the child process that reads
    an .xls (default: those of :func:`compare_lib.io._isolate.run_isolated`).
    """
    read_kind, notes = _prepare(data, display, kind)
    cells = limits.MAX_SHEET_CELLS if max_sheet_cells is None else max_sheet_cells
    _check(data, display, read_kind, cells)
    if read_kind == "xls":
        return _isolated(_read_here, data, display, sheet, read_kind, tuple(notes), cells, display=display,
                         memory_mb=memory_mb, seconds=seconds)
    return _read_here(data, display, sheet, read_kind, tuple(notes), cells)


def _choose_sheet(book, display: str, kind: str, sheet: str | int | None, notes: list[str]) -> str:
    with _native(display, kind):
        names = [str(n) for n in book.sheet_names]
    if not names:
        raise InputError(f"File '{display}' has no sheets. Open it in a spreadsheet program and check it.")
    listed = ", ".join(f"'{n}'" for n in names)
    if sheet is None:
        if len(names) == 1:
            return names[0]
        non_empty = [n for n in names if _sheet_has_cells(book, n, display, kind)]
        if len(non_empty) == 1:
            notes.append(f"the workbook has {len(names)} sheets and only '{non_empty[0]}' holds cells; read it")
            return non_empty[0]
        raise InputError(
            f"File '{display}' has {len(names)} sheets ({listed}); say which one holds the results with "
            f"{arg('sheet')}, e.g. {_sheet_example(book, non_empty or names, display, kind)}."
        )
    if isinstance(sheet, (int, np.integer)) and not isinstance(sheet, bool):
        if not 0 <= int(sheet) < len(names):
            raise InputError(
                f"File '{display}' has {len(names)} sheet{'s' if len(names) > 1 else ''} ({listed}); "
                f"{arg('sheet', int(sheet))} is out of range: give a name or a position from 0 to "
                f"{len(names) - 1}."
            )
        return names[int(sheet)]
    if str(sheet) not in names:
        raise InputError(
            f"File '{display}' has no sheet '{sheet}'; its sheets are {listed}. Give one of these names with "
            f"{arg('sheet')}, e.g. {_sheet_example(book, names, display, kind)}."
        )
    return str(sheet)


def _read_here(data: bytes, display: str, sheet: str | int | None, read_kind: str, notes_in: tuple,
               max_sheet_cells: int) -> RawTable:
    """Read the chosen sheet with calamine (in this process: after the pre-check, or in an isolated child)."""
    notes = list(notes_in)
    book = _open(data, display, read_kind)
    name = _choose_sheet(book, display, read_kind, sheet, notes)
    with _native(display, read_kind, name):
        sh = book.get_sheet_by_name(name)
        height, width = int(sh.height), int(sh.width)
        if height * width > max_sheet_cells:  # the pre-check's bound, checked again before Python objects are made
            raise InputError(
                f"File '{display}', sheet '{name}' spans {height:,} rows x {width:,} columns = {height * width:,} "
                f"cells; the limit is {max_sheet_cells:,}. Delete the cells far from the table (or copy the table "
                "to a new sheet) and save the file again, or export the sheet with the results as CSV."
            )
        first_row, first_col = sh.start or (0, 0)
        rows = sh.to_python(skip_empty_area=True)
    values = _grid(rows)
    del rows
    cells = _Cells(values)
    empty = cells.empty
    rows_used = np.flatnonzero(~empty.all(axis=1))
    cols_used = np.flatnonzero(~empty.all(axis=0))
    if rows_used.size == 0:
        raise InputError(f"File '{display}', sheet '{name}' is empty. Choose the sheet that holds the results.")
    # A title typed above the table ("Table 2. AUC of ...") is one cell alone on its row; the
    # header is the first row with two or more cells.
    filled = (~empty).sum(axis=1)
    titles: list[int] = []
    for used in rows_used:
        if filled[used] >= 2:
            break
        titles.append(int(used))
    title_texts: list[str] = []
    if titles and len(titles) < rows_used.size:
        for r in titles:
            c = int(np.flatnonzero(~empty[r])[0])
            text = cells.header_text(r, np.array([c]))[0]
            title_texts.append(text)
            text = text if len(text) <= 60 else text[:57] + "..."
            notes.append(f"skipped row {r + first_row + 1} ('{text}'): a single cell above the table, a title")
        empty = empty.copy()
        empty[titles, :] = True
        rows_used = np.flatnonzero(~empty.all(axis=1))
        cols_used = np.flatnonzero(~empty.all(axis=0))
    # Blank rows/columns between the first and last used ones are dropped too, with a note.
    inner_rows = (rows_used[-1] - rows_used[0] + 1) - rows_used.size
    inner_cols = (cols_used[-1] - cols_used[0] + 1) - cols_used.size
    sheet_rows = rows_used + first_row + 1

    header = cells.header_text(int(rows_used[0]), cols_used)
    body_rows = rows_used[1:]
    if not body_rows.size:
        raise InputError(
            f"File '{display}', sheet '{name}' has a header (row {sheet_rows[0]}) but no rows below it."
        )
    grid = cells.body(body_rows, cols_used)

    first_letter, last_letter = _column_letter(int(cols_used[0]) + first_col), _column_letter(int(cols_used[-1]) + first_col)
    notes.insert(
        0,
        f"read sheet '{name}' of the {_KINDS[read_kind]} workbook (rows {sheet_rows[0]}-{sheet_rows[-1]}, "
        f"columns {first_letter}-{last_letter}); the header is row {sheet_rows[0]}",
    )
    if inner_rows:
        notes.append(f"skipped {inner_rows} empty row{'s' if inner_rows > 1 else ''} inside the table")
    if inner_cols:
        notes.append(f"skipped {inner_cols} empty column{'s' if inner_cols > 1 else ''} inside the table")
    return RawTable(
        header=header,
        grid=grid,
        line_numbers=np.asarray(sheet_rows[1:], dtype=np.int64),
        display=display,
        format=read_kind,
        row_word="row",
        sheet=name,
        notes=tuple(notes),
        title=" ".join(title_texts) or None,
    )


#: How many rows of a sheet are looked at to tell whether it holds a table of scores (for a message's example).
_EXAMPLE_ROWS = 200
_NUMBER_TEXT = re.compile(r"\s*[-+]?(\d+([.,]\d*)?|[.,]\d+)")


def _numbers_in(book, name: str, display: str, kind: str) -> int:
    """How many cells of the first rows of sheet ``name`` hold a number (or text starting with one)."""
    try:
        with _native(display, kind, name):
            count = 0
            for row in itertools.islice(book.get_sheet_by_name(name).iter_rows(), _EXAMPLE_ROWS):
                for v in row:
                    if isinstance(v, bool):
                        continue
                    if isinstance(v, (int, float)) or (isinstance(v, str) and _NUMBER_TEXT.match(v)):
                        count += 1
            return count
    except InputError:
        return 0


def _sheet_example(book, candidates: list[str], display: str, kind: str) -> str:
    """``sheet='Results'``, in the interface's words, naming the sheet that most looks like the results (the one
    with the most numbers in its first rows), not merely the first one (often a sheet of notes); with the
    sheets that hold numbers when that is not all of them."""
    counts = {n: _numbers_in(book, n, display, kind) for n in candidates}
    holding = sorted((n for n in candidates if counts[n]), key=lambda n: -counts[n])  # stable: ties in sheet order
    if not holding:
        return arg("sheet", candidates[0])
    if len(holding) == len(candidates):
        return arg("sheet", holding[0])
    if len(holding) == 1:
        return f"{arg('sheet', holding[0])} (the only sheet holding numbers)"
    shown = ", ".join(f"'{n}'" for n in sorted(holding, key=candidates.index))
    return f"{arg('sheet', holding[0])} (the sheets holding numbers: {shown})"


def _sheet_has_cells(book, name: str, display: str, kind: str) -> bool:
    try:
        with _native(display, kind, name):
            sheet = book.get_sheet_by_name(name)
            return bool(sheet.height and sheet.width)
    except InputError:  # unknown: treat as non-empty, so the user is asked to choose
        return True


def _grid(rows: list) -> np.ndarray:
    """The rows calamine gives (lists of equal length) as a 2-D object array."""
    if not rows:
        return np.empty((0, 0), dtype=object)
    width = max(map(len, rows))
    try:
        values = np.array(rows, dtype=object)
        if values.shape == (len(rows), width):
            return values
    except ValueError:
        pass
    values = np.full((len(rows), width), "", dtype=object)
    for i, row in enumerate(rows):
        values[i, : len(row)] = row
    return values


_type_of = np.frompyfunc(type, 1, 1)
_strip = np.frompyfunc(str.strip, 1, 1)


def _cell_text(value: object) -> str:
    """The text of a cell that is not a string, as the earlier pandas-based reader wrote it: a whole float
    as an integer, a date as a datetime (ISO format)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day).isoformat()
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return str(value)


_text_of = np.frompyfunc(_cell_text, 1, 1)


class _Cells:
    """The cells of a sheet as arrays: which are empty ("" or blank text, NaN), which are numbers, and the
    stripped text of the strings; every operation works on whole arrays (no Python loop per column)."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        shape = values.shape
        flat = values.ravel()
        types = _type_of(flat) if flat.size else np.zeros(0, dtype=object)
        is_str = (types == str).astype(bool)
        is_float = (types == float).astype(bool)
        self.is_number = (is_float | (types == int)).astype(bool).reshape(shape)
        self.is_str = is_str.reshape(shape)
        stripped = np.empty(flat.size, dtype=object)
        stripped[is_str] = _strip(flat[is_str]) if is_str.any() else []
        empty = np.zeros(flat.size, dtype=bool)
        empty[is_str] = (stripped[is_str] == "").astype(bool)
        if is_float.any():
            empty[is_float] = np.isnan(flat[is_float].astype(np.float64))
        self.empty = empty.reshape(shape)
        self.stripped = stripped.reshape(shape)

    def header_text(self, r: int, cols: np.ndarray) -> list[str]:
        out = []
        for c in cols.tolist():
            if self.empty[r, c]:
                out.append("")
            elif self.is_str[r, c]:
                out.append(self.stripped[r, c])
            else:
                out.append(_cell_text(self.values[r, c]).strip())
        return out

    def body(self, rows: np.ndarray, cols: np.ndarray) -> pd.DataFrame:
        """The body as positional columns: float64 where every non-empty cell is a number (NaN for empty
        cells), else text ("" for empty cells, stripped strings, other values written by _cell_text)."""
        sub = np.ix_(rows, cols)
        values, empty = self.values[sub], self.empty[sub]
        is_number, is_str = self.is_number[sub], self.is_str[sub]
        numeric = np.all(is_number | empty, axis=0) & np.any(~empty, axis=0)
        frames = []
        index = pd.RangeIndex(rows.size)
        num_idx = np.flatnonzero(numeric)
        if num_idx.size:
            block = np.full((rows.size, num_idx.size), np.nan)
            part = values[:, num_idx]
            keep = ~empty[:, num_idx]
            block[keep] = part[keep].astype(np.float64)
            frames.append(pd.DataFrame(block, columns=num_idx, index=index))
        txt_idx = np.flatnonzero(~numeric)
        if txt_idx.size:
            part = values[:, txt_idx]
            out = np.full(part.shape, "", dtype=object)
            strs = is_str[:, txt_idx] & ~empty[:, txt_idx]
            out[strs] = self.stripped[sub][:, txt_idx][strs]
            others = ~is_str[:, txt_idx] & ~empty[:, txt_idx]
            if others.any():
                out[others] = _text_of(part[others])
            frames.append(pd.DataFrame(out, columns=txt_idx, index=index, dtype=object))
        grid = frames[0] if len(frames) == 1 else pd.concat(frames, axis=1)
        return grid.reindex(columns=pd.RangeIndex(cols.size))
