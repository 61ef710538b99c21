"""Renaming the classifiers and data sets of a score table (issue 28): a paper's short names, a typo fixed.

:meth:`compare_lib.ScoreTable.rename` takes ``{old: new}`` mappings; :func:`parse_renames` reads them from
text, one ``old = new`` per line (what the dashboard's Rename box and a notebook user type). Every problem
is an :class:`~compare_lib.errors.InputError` that names the names: a name the table does not have, an
empty new name, two names becoming one, a new name another classifier (data set) already has.
"""

from __future__ import annotations

from typing import Any

from compare_lib.errors import InputError
from compare_lib.limits import MAX_NAME_LENGTH

#: Lines of renames read from text at most (a table has at most this many names worth renaming by hand).
MAX_RENAME_LINES = 5_000
#: Names listed in a message or a note at most.
_SHOWN = 8


def _shown(names) -> str:
    names = [repr(n) for n in names]
    return ", ".join(names[:_SHOWN]) + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def parse_renames(text: str, *, what: str = "names") -> dict[str, str]:
    """``{old: new}`` from text with one ``old = new`` per line (blank lines and lines starting with ``#`` are
    skipped; ``old -> new`` is read too). A name holding " = " is split at the first " = "; without spaces, at
    the first "=". A line without "=" (or "->"), an empty name or an old name given twice is an
    :class:`InputError` naming the line."""
    if not isinstance(text, str):
        raise InputError(f"The renames of the {what} must be text, one 'old = new' per line.")
    lines = text.splitlines()
    if len(lines) > MAX_RENAME_LINES:
        raise InputError(f"{len(lines):,} lines of renames of the {what}; at most {MAX_RENAME_LINES:,} are read.")
    out: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        for separator in (" = ", " -> ", "->", "="):
            if separator in stripped:
                old, new = (part.strip() for part in stripped.split(separator, 1))
                break
        else:
            raise InputError(f"Line {number} of the renames of the {what} ({stripped[:60]!r}) has no '=': write one "
                             "rename per line as 'old name = new name'.")
        if not old or not new:
            raise InputError(f"Line {number} of the renames of the {what} ({stripped[:60]!r}) leaves a name empty: "
                             "write 'old name = new name'.")
        if old in out and out[old] != new:
            raise InputError(f"Line {number}: {old!r} is renamed twice among the {what} ({out[old]!r} and {new!r}); "
                             "keep one.")
        out[old] = new
    return out


def checked_mapping(mapping: Any, present: list, what: str) -> dict:
    """``mapping`` ({old: new}) checked against the names ``present`` (classifiers or data sets): every old
    name among them, every new name a non-empty text of at most MAX_NAME_LENGTH characters (spaces at its
    ends removed), and the names after renaming all different. Returns {old: new} without the names left
    unchanged."""
    if mapping is None:
        return {}
    if not isinstance(mapping, dict):
        raise InputError(f"Renames of the {what} must be a dict {{old name: new name}}, got {type(mapping).__name__}.")
    known = set(present)
    unknown = [old for old in mapping if old not in known]
    if unknown:
        raise InputError(f"Cannot rename {_shown(unknown)}: not among the {what} of the table ({_shown(present)}).")
    out = {}
    empty = []
    for old, new in mapping.items():
        if not isinstance(new, str) or not new.strip():
            empty.append(old)
            continue
        new = new.strip()
        if len(new) > MAX_NAME_LENGTH:
            raise InputError(f"The new name of {old!r} has {len(new):,} characters; names have at most "
                             f"{MAX_NAME_LENGTH:,}.")
        if new != old:
            out[old] = new
    if empty:
        raise InputError(f"Cannot rename {_shown(empty)} to an empty name: give each a name.")
    after = [out.get(name, name) for name in present]
    seen: dict[str, list] = {}
    for old, new in zip(present, after):
        seen.setdefault(new, []).append(old)
    clashes = {new: olds for new, olds in seen.items() if len(olds) > 1}
    if clashes:
        parts = [f"{new!r} would name {_shown(olds)}" for new, olds in list(clashes.items())[:_SHOWN]]
        raise InputError(f"Renaming would give two {what} the same name: {'; '.join(parts)}. Each needs its own name.")
    return out


def rename_note(classifiers: dict, datasets: dict) -> str:
    """The note a renamed table carries: "renamed classifiers: 'A' → 'B', ...; data sets: ..."."""
    parts = []
    for what, mapping in (("classifiers", classifiers), ("data sets", datasets)):
        if mapping:
            pairs = [f"{old!r} → {new!r}" for old, new in mapping.items()]
            parts.append(f"{what}: " + ", ".join(pairs[:20]) + (f" and {len(pairs) - 20} more" if len(pairs) > 20 else ""))
    return "Renamed " + "; ".join(parts)
