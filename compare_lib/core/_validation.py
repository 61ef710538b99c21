"""Checks shared by every module: levels, seeds, choices among named options, listings in messages.

Each check raises :class:`~compare_lib.errors.InputError` with a message that says what was given and
what to give instead; the computing modules call these instead of writing their own.
"""

from __future__ import annotations

from typing import Iterable, Literal, Sequence, overload

import numpy as np

from compare_lib.errors import InputError, arg
from compare_lib.limits import MAX_SEED

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
        raise InputError(f"{arg('alpha', bare=True)} must be a number between 0 and 1 (e.g. 0.05), got {alpha!r}.")
    return float(alpha)


@overload
def check_seed(seed, what: str = ..., *, hi: int = ..., allow_none: Literal[False]) -> int: ...
@overload
def check_seed(seed, what: str = ..., *, hi: int = ..., allow_none: bool = ...) -> int | None: ...
def check_seed(seed, what: str = "seed", *, hi: int = MAX_SEED, allow_none: bool = True) -> int | None:
    """A random seed as a Python int between 0 and ``hi`` (default :data:`compare_lib.limits.MAX_SEED`,
    2**32 - 1: what every numpy generator, and scikit-learn's ``random_state``, accepts), or None when
    ``allow_none``. Python and numpy integers are accepted, and so is a float with no fraction (``1e3`` is
    1000); bools, floats with a fraction, non-finite numbers, text and anything else are refused (issue 27:
    a negative seed or one beyond the range used to surface as a numpy traceback). ``what`` names the
    argument in the message."""
    if seed is None and allow_none:
        return None
    value = None
    if isinstance(seed, (bool, np.bool_)):
        value = None
    elif isinstance(seed, (int, np.integer)):
        value = int(seed)
    elif isinstance(seed, (float, np.floating)) and np.isfinite(seed) and float(seed).is_integer():
        value = int(seed)
    if value is None or not 0 <= value <= hi:
        if value is not None and value.bit_length() > 128:  # repr of a huge int is slow, or refused beyond 4300 digits
            shown = f"{'a negative' if value < 0 else 'an'} integer of {value.bit_length():,} bits"
        else:
            shown = _short_repr(seed)
        none = " or None (a fresh seed each time)" if allow_none else ""
        raise InputError(f"{arg(what, bare=True)} must be a whole number between 0 and {hi:,}{none}, got {shown}.")
    return value


def _short_repr(value, limit: int = 60) -> str:
    try:
        shown = repr(value)
    except Exception:  # a hostile object's repr
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


def check_new_name(name, registry: dict, what: str, *, replace: bool = False) -> str:
    """A name for a new registry entry: lower-case text without surrounding spaces, not taken unless
    ``replace``. ``what`` names the kind of entry in the messages ("pairwise statistic", "procedure")."""
    name = str(name)
    if not name or name != name.strip() or name.lower() != name:
        raise InputError(f"A {what}'s name must be lower-case text without surrounding spaces; got {name!r}.")
    if name in registry and not replace:
        raise InputError(f"A {what} named {name!r} is already registered; pass {arg('replace', True)} to replace it.")
    return name


def check_choice(value, choices: Iterable[str], what: str, *, verb: str = "is not known") -> str:
    """``value`` when it is one of ``choices``; otherwise an :class:`InputError` that lists them.

    ``what`` names the argument in the message (``"test"``, ``"missing"``; ``"tables.format"`` for an option
    whose flag or control is not the one of that name, see :func:`compare_lib.errors.arg`): "test='x' is not
    known; choose one of a, b, c." (``--test x`` on the command line).
    """
    choices = list(choices)
    if value not in choices:
        raise InputError(f"{arg(what, value)} {verb}; choose one of {', '.join(map(str, choices))}.")
    return value
