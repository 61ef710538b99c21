"""Error and warning types raised by :mod:`compare_lib`.

Everything the user can get wrong (a malformed file, an unknown option, a table too small for a
test) raises :class:`InputError`, a ``ValueError`` subclass whose message names what was seen and
says what to do. Anything else escaping the library is a bug.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message names the file, row, column or argument, the value, and the fix."""


class ApproximationWarning(UserWarning):
    """A large-sample approximation is used where the sample may be too small for it."""


class DataWarning(UserWarning):
    """The loaded data was changed visibly (e.g. a duplicate data-set name was made unique)."""
