"""Where a table comes from: the bytes or text of a path, bytes, text or file object, its display name,
the checks that refuse what is no table at all (a binary file read as text, an HTML page, an empty
file), and the size limits checked before the heavy work."""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path
from typing import Any

from compare_lib.errors import InputError
from compare_lib.limits import MAX_INPUT_BYTES


def _too_large(display: str, size: int) -> InputError:
    return InputError(
        f"File '{display}' holds {size:,} bytes or more; the library reads files up to {MAX_INPUT_BYTES:,} bytes "
        f"({MAX_INPUT_BYTES // (1 << 20):,} MB). Keep only the results in the file, or split it."
    )


def _short_path(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text):,} characters)"


def read_source(source: Any, name: str | None) -> tuple[bytes | str, str]:
    """(content, display name) from a path, bytes, text or a file-like object.

    A ``str`` containing a newline is the table's text itself (pasted data); any other ``str`` or
    ``PathLike`` is a path. The content stays bytes when it was bytes, so that a binary format
    (a spreadsheet) can be recognised before anything is decoded. A path must name a regular file
    (a FIFO, a device such as ``/dev/zero`` or a socket is refused before it is opened for reading),
    and at most :data:`~compare_lib.limits.MAX_INPUT_BYTES` are read from a path or a file object.
    """
    display = name
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        path = Path(source)
        display = display or path.name
        shown = _short_path(str(path))
        try:
            info = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            raise InputError(f"File '{shown}' does not exist. Check the path.") from None
        except (OSError, ValueError) as err:  # ValueError: a NUL in the path; OSError: a name too long, no access
            reason = getattr(err, "strerror", None) or str(err)
            raise InputError(f"'{shown}' cannot be read as a file ({reason}). Check the path; to read a table "
                             "given as text, include its line breaks.") from None
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"'{path}' is a folder, not a file. Give the path of a CSV/TSV file.")
        if not stat.S_ISREG(info.st_mode):
            kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(info.st_mode) else "a device" if
                    stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "a socket" if
                    stat.S_ISSOCK(info.st_mode) else "not a regular file")
            raise InputError(f"'{path}' is {kind}, not a file: give the path of a results file saved on disk.")
        if info.st_size > MAX_INPUT_BYTES:
            raise _too_large(str(path), info.st_size)
        try:
            with path.open("rb") as f:
                raw: bytes | str = f.read(MAX_INPUT_BYTES + 1)
        except OSError as err:
            raise InputError(f"File '{path}' cannot be read ({err.strerror or err}).") from None
        if len(raw) > MAX_INPUT_BYTES:
            raise _too_large(str(path), len(raw))
    elif isinstance(source, str):
        raw = source
        display = display or "pasted text"
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
    elif hasattr(source, "read"):
        display = display or getattr(source, "name", None)
        try:
            raw = source.read(MAX_INPUT_BYTES + 1)
        except TypeError:  # a reader without a size argument
            raw = source.read()
        if not isinstance(raw, (str, bytes, bytearray)):
            raise InputError(
                f"Reading {type(source).__name__} gave a {type(raw).__name__}, not text or bytes; give a file path, "
                "bytes, text or a file object opened for reading."
            )
        if len(raw) > MAX_INPUT_BYTES:
            raise _too_large(str(display or type(source).__name__), len(raw))
        raw = raw if isinstance(raw, str) else bytes(raw)
    else:
        raise InputError(
            f"Cannot read scores from a {type(source).__name__}; give a file path, bytes, text or a file object."
        )
    return raw, str(display or "uploaded file")


def _place(text: str, index: int) -> str:
    """ "line 3, column 7" of the character at ``index`` (both 1-based)."""
    line = text.count("\n", 0, index) + 1
    start = text.rfind("\n", 0, index) + 1
    return f"line {line}, column {index - start + 1}"


def _byte_place(raw: bytes, index: int) -> str:
    line = raw.count(b"\n", 0, index) + 1
    start = raw.rfind(b"\n", 0, index) + 1
    return f"line {line}, byte {index - start + 1} of the line"


_SURROGATE = re.compile(rb"\xed[\xa0-\xbf][\x80-\xbf]")
#: Whitespace as str.strip sees it (re's \s for str patterns is str.isspace).
_LEADING_SPACE = re.compile(r"\s*")


def _latin1_fallback(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeDecodeError):  # registered for decoding only
        raise err
    return err.object[err.start:err.end].decode("latin-1"), err.end


# Windows-1252 leaves five bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) undefined: they read as their Latin-1
# control characters, so that every byte has a character.
codecs.register_error("compare_lib.latin1", _latin1_fallback)


def _legacy(raw: bytes) -> str:
    return raw.decode("cp1252", errors="compare_lib.latin1")


def _refuse_characters(text: str, display: str) -> None:
    """Lone surrogates (not characters: a broken copy or a crafted text) and NULs are refused with their place."""
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(
            f"File '{display}', {_place(text, nul)}: the text holds a NUL character (code 0), which no table "
            "contains; the file is binary or damaged. Export the scores as CSV or TSV text."
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputError(
            f"File '{display}', {_place(text, err.start)}: the text holds a lone surrogate "
            f"(U+{ord(text[err.start]):04X}), half of a character that was cut in two; copy the table again "
            "or save it as UTF-8 text."
        ) from None


def decode_text(raw: bytes | str, display: str) -> tuple[str, list[str]]:
    """The text of a text format, and a note when it was not plain UTF-8.

    The decoding rule, in this order: a byte-order mark decides (UTF-8, UTF-16 LE or BE, as Excel's
    "Unicode text" is); valid UTF-8 is UTF-8; bytes that are not UTF-8 anywhere (no valid multi-byte
    sequence: a file saved in a Western legacy encoding) are Windows-1252, with a note naming the first
    such character; a UTF-8 file with a few invalid bytes keeps its UTF-8 and each invalid byte becomes
    U+FFFD, with a note naming how many and where the first is. Lone surrogates (an encoded surrogate
    half in UTF-8, or one in a ``str``) and NUL characters are refused with their line and column;
    HTML/XML pages and empty files are refused.
    """
    notes: list[str] = []
    if isinstance(raw, str):
        text = raw[1:] if raw.startswith("\ufeff") else raw
    else:
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            codec = "utf-16-le" if raw.startswith(b"\xff\xfe") else "utf-16-be"
            try:
                text = raw[2:].decode(codec)
            except UnicodeDecodeError as err:
                raise InputError(
                    f"File '{display}' starts with a UTF-16 byte-order mark but byte {err.start + 3:,} is not UTF-16 "
                    f"({err.reason}); the file is damaged. Save it again as UTF-8 (or CSV) and load that copy."
                ) from None
            notes.append(f"The file is UTF-16 text ({codec.upper()}, with a byte-order mark); read as such.")
        else:
            if b"\x00" in raw[:4096]:
                raise InputError(
                    f"File '{display}' looks binary (it contains NUL bytes), not a text table. "
                    "Export the scores as CSV or TSV (e.g. from a spreadsheet: File > Save as > CSV)."
                )
            body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as err:
                text = _decode_invalid(body, err, display, notes)
    _refuse_characters(text, display)
    # Only the first characters after leading whitespace are looked at: a lowered copy of the whole text cost two
    # copies of a 10 MB file at once (issue 31).
    leading = _LEADING_SPACE.match(text)  # always matches (maybe nothing)
    first = leading.end() if leading is not None else 0
    opening = text[first:first + 16].lower()
    if opening.startswith(("<!doctype html", "<html", "<?xml")):
        raise InputError(
            f"File '{display}' is an HTML/XML page, not a CSV table. Download the raw CSV file instead."
        )
    if first == len(text):
        raise InputError(f"File '{display}' is empty. It needs a header row and one row per data set.")
    return text, notes


def _decode_invalid(body: bytes, err: UnicodeDecodeError, display: str, notes: list[str]) -> str:
    """Bytes that are not valid UTF-8: see :func:`decode_text` for the rule."""
    first = err.start
    # A surrogate half encoded as UTF-8 (ED A0-BF 80-BF): three bytes that legacy Western text never has in a row.
    surrogate = _SURROGATE.search(body)
    if surrogate is not None:
        raise InputError(
            f"File '{display}', {_byte_place(body, surrogate.start())}: the text holds an encoded lone surrogate "
            "(half of a character that was cut in two); copy the table again or save it as UTF-8 text."
        )
    replaced = body.decode("utf-8", errors="replace")
    # A valid multi-byte sequence anywhere means the file is UTF-8 with damage, not a legacy encoding.
    utf8_elsewhere = not replaced.replace("\ufffd", "").isascii()
    if utf8_elsewhere:
        bad = replaced.count("\ufffd") - body.decode("utf-8", errors="ignore").count("\ufffd")
        notes.append(
            f"The file is UTF-8 text with {bad:,} byte sequence{'s' if bad != 1 else ''} that {'are' if bad != 1 else 'is'} "
            f"not UTF-8 (the first at {_byte_place(body, first)}); each was read as the replacement character '\ufffd'. "
            "Check those cells, or save the file again as UTF-8."
        )
        return replaced
    text = _legacy(body)
    char = text[first] if first < len(text) else "?"
    notes.append(
        f"The file is not UTF-8 text: read as Windows-1252 (Western European), the encoding of older Excel exports "
        f"(the first non-ASCII character, at {_byte_place(body, first)}, reads as '{char}'). If names look wrong, "
        "save the file as UTF-8 and load it again."
    )
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
