"""Checks shared by every module: levels, choices among named options, listings in messages.

Each check raises :class:`~compare_lib.errors.InputError` with a message that says what was given and
what to give instead; the computing modules call these instead of writing their own.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .errors import InputError

#: How many items a message lists before it says "and N more".
MAX_LISTED = 8


def listing(items: Sequence[str], limit: int = MAX_LISTED, *, total: int | None = None) -> str:
    """'a; b; c; and 5 more': at most ``limit`` items of a long list, for messages. ``total``: how many
    there are when ``items`` holds only the first few."""
    items = list(items)
    shown = "; ".join(items[:limit])
    more = (len(items) if total is None else total) - min(limit, len(items))
    return shown + (f"; and {more} more" if more > 0 else "")


def check_alpha(alpha) -> float:
    """The significance level as a float strictly between 0 and 1."""
    if not (isinstance(alpha, (int, float, np.floating)) and not isinstance(alpha, bool) and 0 < float(alpha) < 1):
        raise InputError(f"alpha must be a number between 0 and 1 (e.g. 0.05), got {alpha!r}.")
    return float(alpha)


def check_new_name(name, registry: dict, what: str, *, replace: bool = False) -> str:
    """A name for a new registry entry: lower-case text without surrounding spaces, not taken unless
    ``replace``. ``what`` names the kind of entry in the messages ("pairwise statistic", "procedure")."""
    name = str(name)
    if not name or name != name.strip() or name.lower() != name:
        raise InputError(f"A {what}'s name must be lower-case text without surrounding spaces; got {name!r}.")
    if name in registry and not replace:
        raise InputError(f"A {what} named {name!r} is already registered; pass replace=True to replace it.")
    return name


def check_choice(value, choices: Iterable[str], what: str, *, verb: str = "is not known") -> str:
    """``value`` when it is one of ``choices``; otherwise an :class:`InputError` that lists them.

    ``what`` names the argument in the message (``"test"``, ``"missing"``): "test='x' is not known;
    choose one of a, b, c."
    """
    choices = list(choices)
    if value not in choices:
        raise InputError(f"{what}={value!r} {verb}; choose one of {', '.join(map(str, choices))}.")
    return value
