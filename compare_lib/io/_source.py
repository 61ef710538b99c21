"""Where a table comes from: the bytes or text of a path, bytes, text or file object, its display name,
the checks that refuse what is no table at all (a binary file read as text, an HTML page, an empty
file), and the size limits checked before the heavy work."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import InputError


def read_source(source: Any, name: str | None) -> tuple[bytes | str, str]:
    """(content, display name) from a path, bytes, text or a file-like object.

    A ``str`` containing a newline is the table's text itself (pasted data); any other ``str`` or
    ``PathLike`` is a path. The content stays bytes when it was bytes, so that a binary format
    (a spreadsheet) can be recognised before anything is decoded.
    """
    display = name
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        path = Path(source)
        display = display or path.name
        if not path.exists():
            raise InputError(f"File '{path}' does not exist. Check the path.")
        if path.is_dir():
            raise InputError(f"'{path}' is a folder, not a file. Give the path of a CSV/TSV file.")
        raw: bytes | str = path.read_bytes()
    elif isinstance(source, str):
        raw = source
        display = display or "pasted text"
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
    elif hasattr(source, "read"):
        raw = source.read()
        display = display or getattr(source, "name", None)
        if not isinstance(raw, (str, bytes, bytearray)):
            raise InputError(
                f"Reading {type(source).__name__} gave a {type(raw).__name__}, not text or bytes; give a file path, "
                "bytes, text or a file object opened for reading."
            )
        raw = raw if isinstance(raw, str) else bytes(raw)
    else:
        raise InputError(
            f"Cannot read scores from a {type(source).__name__}; give a file path, bytes, text or a file object."
        )
    return raw, str(display or "uploaded file")


def decode_text(raw: bytes | str, display: str) -> str:
    """The text of a text format: refuses binary content and HTML/XML pages, decodes UTF-8 (with or
    without a byte-order mark) or else Windows-1252, and refuses an empty file."""
    if isinstance(raw, str):
        text = raw.lstrip("\ufeff")
    else:
        if b"\x00" in raw[:4096]:
            raise InputError(
                f"File '{display}' looks binary (it contains NUL bytes), not a text table. "
                "Export the scores as CSV or TSV (e.g. from a spreadsheet: File > Save as > CSV)."
            )
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
    stripped = text.lstrip().lower()
    if stripped.startswith("<!doctype html") or stripped.startswith("<html") or stripped.startswith("<?xml"):
        raise InputError(
            f"File '{display}' is an HTML/XML page, not a CSV table. Download the raw CSV file instead."
        )
    if not text.strip():
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    return text


def check_size(display: str, n: int, k: int, max_cells: int | None, max_classifiers: int | None) -> None:
    """Refuse a table of ``n`` data sets x ``k`` classifiers beyond the limits (the dashboard's)."""
    if max_classifiers is not None and k > max_classifiers:
        raise InputError(
            f"File '{display}' has {k:,} classifiers; this app compares at most {max_classifiers:,}. Keep the "
            "classifiers you want to compare, or use compare_lib in a notebook for larger tables."
        )
    if max_cells is not None and n * k > max_cells:
        raise InputError(
            f"File '{display}' holds {n:,} data sets x {k:,} classifiers = {n * k:,} scores; this app accepts up to "
            f"{max_cells:,} scores (e.g. 20,000 data sets x 50 classifiers). Keep fewer data sets or classifiers, or "
            "use compare_lib.load_scores in a notebook for larger tables."
        )
