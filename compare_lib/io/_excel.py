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

Limits: the zip checks trust the sizes written in the zip directory (calamine itself reads members as
streams); formulas are read as their cached values (a file saved by a program that does not store
them, e.g. some generators, reads as empty cells); merged cells give their value to the top-left
cell only; a workbook with several non-empty sheets needs ``sheet=``.
"""

from __future__ import annotations

import io
import math
import zipfile
from datetime import date, datetime, time, timedelta

import numpy as np
import pandas as pd

from compare_lib.errors import InputError
from compare_lib.io._raw import RawTable

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


def _open(data: bytes, display: str, kind: str) -> pd.ExcelFile:
    try:
        return pd.ExcelFile(io.BytesIO(data), engine="calamine")
    except Exception as exc:  # calamine's errors have no stable type; none may escape as a traceback
        raise InputError(
            f"File '{display}' cannot be read as an {_KINDS[kind]} workbook ({_reason(exc)}). If it is "
            "password-protected, remove the password; otherwise open it in a spreadsheet program, save "
            f"it again as {_KINDS[kind]} and upload that copy, or export the sheet as CSV."
        ) from None


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def sheet_names(data: bytes, kind: str, display: str = "the workbook") -> list[str]:
    """The names of the sheets of a workbook, after the same safety checks as :func:`read_spreadsheet`."""
    read_kind, _ = _prepare(data, display, kind)
    with _open(data, display, read_kind) as xf:
        return [str(n) for n in xf.sheet_names]


def _column_letter(j: int) -> str:
    letters = ""
    j += 1
    while j:
        j, r = divmod(j - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def read_spreadsheet(
    data: bytes, display: str, *, sheet: str | int | None = None, kind: str
) -> RawTable:
    """Read one sheet of a workbook (``kind`` "xlsx", "xls" or "ods") into a :class:`RawTable`.

    ``sheet`` is a sheet name or a 0-based position; it may be left out only when the workbook has
    one non-empty sheet. ``display`` names the file in messages.
    """
    read_kind, notes = _prepare(data, display, kind)
    with _open(data, display, read_kind) as xf:
        names = [str(n) for n in xf.sheet_names]
        if not names:
            raise InputError(f"File '{display}' has no sheets. Open it in a spreadsheet program and check it.")
        listed = ", ".join(f"'{n}'" for n in names)
        if sheet is None:
            if len(names) == 1:
                name = names[0]
            else:
                non_empty = [n for n in names if _sheet_has_cells(xf, n)]
                if len(non_empty) == 1:
                    name = non_empty[0]
                    notes.append(
                        f"the workbook has {len(names)} sheets and only '{name}' holds cells; read it"
                    )
                else:
                    raise InputError(
                        f"File '{display}' has {len(names)} sheets ({listed}); say which one holds the "
                        f"results by passing sheet= with its name, e.g. sheet='{names[0]}'."
                    )
        elif isinstance(sheet, (int, np.integer)) and not isinstance(sheet, bool):
            if not 0 <= int(sheet) < len(names):
                raise InputError(
                    f"File '{display}' has {len(names)} sheet{'s' if len(names) > 1 else ''} ({listed}); "
                    f"sheet={int(sheet)} is out of range: give a name or a position from 0 to "
                    f"{len(names) - 1}."
                )
            name = names[int(sheet)]
        else:
            if str(sheet) not in names:
                raise InputError(
                    f"File '{display}' has no sheet '{sheet}'; its sheets are {listed}. Pass one of these "
                    "names as sheet=."
                )
            name = str(sheet)
        try:
            # na_filter=False: "n/a" or "-" typed in a cell stays text, for the layout step to judge.
            df = pd.read_excel(
                xf, sheet_name=name, header=None, dtype=object, keep_default_na=False, na_filter=False
            )
        except Exception as exc:  # see _open
            raise InputError(
                f"File '{display}', sheet '{name}' cannot be read ({_reason(exc)}). Open the file in a "
                f"spreadsheet program, save it again as {_KINDS[read_kind]}, or export the sheet as CSV."
            ) from None

    empty = _empty_mask(df)
    rows_used = np.flatnonzero(~empty.all(axis=1))
    cols_used = np.flatnonzero(~empty.all(axis=0))
    if rows_used.size == 0:
        raise InputError(f"File '{display}', sheet '{name}' is empty. Choose the sheet that holds the results.")
    # A title typed above the table ("Table 2. AUC of ...") is one cell alone on its row; the
    # header is the first row with two or more cells.
    filled = (~empty).sum(axis=1)
    titles: list[int] = []
    for r in rows_used:
        if filled[r] >= 2:
            break
        titles.append(int(r))
    title_texts: list[str] = []
    if titles and len(titles) < rows_used.size:
        for r in titles:
            value = df.iat[r, int(np.flatnonzero(~empty[r])[0])]
            text = _header_text(value, False)
            title_texts.append(text)
            text = text if len(text) <= 60 else text[:57] + "..."
            notes.append(f"skipped row {r + 1} ('{text}'): a single cell above the table, a title")
        empty = empty.copy()
        empty[titles, :] = True
        rows_used = np.flatnonzero(~empty.all(axis=1))
        cols_used = np.flatnonzero(~empty.all(axis=0))
    # Blank rows/columns between the first and last used ones are dropped too, with a note.
    inner_rows = (rows_used[-1] - rows_used[0] + 1) - rows_used.size
    inner_cols = (cols_used[-1] - cols_used[0] + 1) - cols_used.size
    df = df.iloc[rows_used, cols_used]
    empty = empty[np.ix_(rows_used, cols_used)]
    sheet_rows = rows_used + 1

    header = [_header_text(v, e) for v, e in zip(df.iloc[0].tolist(), empty[0])]
    body = df.iloc[1:]
    body_empty = empty[1:]
    m = len(header)
    columns = {}
    for j in range(m):
        columns[j] = _column(body.iloc[:, j], body_empty[:, j])
    grid = pd.DataFrame(columns, index=pd.RangeIndex(len(body)))
    if not len(body):
        raise InputError(
            f"File '{display}', sheet '{name}' has a header (row {sheet_rows[0]}) but no rows below it."
        )

    first_col, last_col = _column_letter(int(cols_used[0])), _column_letter(int(cols_used[-1]))
    notes.insert(
        0,
        f"read sheet '{name}' of the {_KINDS[read_kind]} workbook (rows {sheet_rows[0]}-{sheet_rows[-1]}, "
        f"columns {first_col}-{last_col}); the header is row {sheet_rows[0]}",
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


def _sheet_has_cells(xf: pd.ExcelFile, name: str) -> bool:
    try:
        sheet = xf.book.get_sheet_by_name(name)
        return bool(sheet.height and sheet.width)
    except Exception:  # unknown: treat as non-empty, so the user is asked to choose
        return True


def _empty_mask(df: pd.DataFrame) -> np.ndarray:
    """True where a cell is empty: "" or whitespace-only text, or a missing value."""
    values = df.to_numpy(dtype=object)
    if values.size == 0:
        return np.zeros(values.shape, dtype=bool)
    blank = pd.DataFrame(values).apply(lambda c: c.astype(str).str.strip().eq("") | c.isna())
    return blank.to_numpy(dtype=bool)


def _text(value: object) -> str:
    """The text of one non-numeric-column cell (only called on cells that are not plain strings)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    return str(value)


def _header_text(value: object, is_empty: bool) -> str:
    if is_empty:
        return ""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))  # a year or a k written as a number
    return _text(value).strip() if not isinstance(value, str) else value.strip()


def _column(col: pd.Series, col_empty: np.ndarray) -> pd.Series:
    col = col.reset_index(drop=True)
    inferred = pd.api.types.infer_dtype(col[~col_empty], skipna=True)
    if inferred in ("floating", "integer", "mixed-integer-float", "decimal"):
        out = col.where(~col_empty, np.nan)
        return pd.to_numeric(out, errors="coerce").astype("float64")
    kinds = col.map(type)
    is_str = (kinds == str).to_numpy()
    out = col.astype(object).copy()
    out[col_empty] = ""
    others = ~is_str & ~col_empty
    if others.any():
        out[others] = col[others].map(_text).to_numpy()
    if is_str.any():
        out[is_str & ~col_empty] = col[is_str & ~col_empty].str.strip().to_numpy()
    return out
