"""Replicability measures (the kernels; the data-set-selection experiment is in
:mod:`compare_lib.analyses._replicability`): Bouckaert's R(e) over repeated outcomes,
(p(p-1) + q(q-1)) / (n(n-1)); Demšar's variance form R(p) = 1 - 2 var(p) (Demšar 2006, §4.1.2); Bouckaert &
Frank's consistency (all outcomes equal), almost consistency (at most one differs) and replicability R averaged
over data sets (Bouckaert & Frank 2004, §2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from compare_lib.core._result import Result
from compare_lib.errors import InputError


def replicability_e(outcomes) -> float:
    """Bouckaert's R(e): the probability that two repetitions agree, estimated without bias.

    With p acceptances and q rejections out of n, R(e) = (p(p-1) + q(q-1)) / (n(n-1)) = 1 - 2 var(e)
    with the n-1 denominator (Demšar 2006, §4.1.2). 0.5 when p = q = n/2, 1 when all agree.
    """
    e = np.asarray(outcomes, dtype=bool).ravel()
    n = e.size
    if n < 2:
        raise InputError("R(e) needs at least 2 repeated outcomes.")
    q = int(e.sum())
    p = n - q
    return (p * (p - 1) + q * (q - 1)) / (n * (n - 1))


def replicability_p(pvalues) -> float:
    """Demšar's R(p) = 1 - 2 var(p) with the n-1 denominator (Demšar 2006, §4.1.2)."""
    p = np.asarray(pvalues, dtype=float).ravel()
    if p.size < 2:
        raise InputError("R(p) needs at least 2 p-values.")
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise InputError("p-values must lie in [0, 1].")
    return float(1 - 2 * p.var(ddof=1))


@dataclass(frozen=True)
class ReplicabilityResult(Result):
    """Bouckaert & Frank's summary over data sets of n repeated outcomes each.

    ``consistent``: data sets whose n outcomes are all equal; ``almost_consistent``: at most one
    differs; ``R``: mean over data sets of R(e); ``per_dataset``: R(e) of each data set.
    """

    consistent: int
    almost_consistent: int
    R: float
    n_datasets: int
    n_repetitions: int
    per_dataset: tuple[float, ...] = field(metadata={"to_dict": False})


def replicability(outcomes) -> ReplicabilityResult:
    """Consistency, almost consistency and replicability R (Bouckaert & Frank 2004, §2).

    ``outcomes``: a data sets x repetitions boolean array (True = the test rejected).
    Bouckaert & Frank's Table 1 (5x2cv, 27 data sets, 10 repetitions): consistent 9, 12, 13; almost
    consistent 14, 17, 17; R = 0.737, 0.783, 0.816.
    """
    e = np.asarray(outcomes)
    if e.ndim != 2:
        raise InputError(f"outcomes must be a data sets x repetitions array, got shape {e.shape}.")
    if e.dtype != bool:
        if not np.isin(e, [0, 1]).all():
            raise InputError("outcomes must be booleans (True = rejected) or 0/1.")
        e = e.astype(bool)
    m, n = e.shape
    if n < 2:
        raise InputError("Replicability needs at least 2 repetitions per data set.")
    rejections = e.sum(axis=1)
    return replicability_counts(rejections, n)


def replicability_counts(rejections, n: int) -> ReplicabilityResult:
    """:func:`replicability` from the number of rejections (or of acceptances) per data set out of n."""
    r = np.asarray(rejections, dtype=int).ravel()
    if np.any(r < 0) or np.any(r > n):
        raise InputError(f"Counts must lie between 0 and n = {n}.")
    if n < 2:
        raise InputError("Replicability needs at least 2 repetitions per data set.")
    a = n - r
    per = (r * (r - 1) + a * (a - 1)) / (n * (n - 1))
    consistent = int(np.sum((r == 0) | (r == n)))
    almost = int(np.sum((r <= 1) | (r >= n - 1)))
    return ReplicabilityResult(consistent, almost, float(per.mean()), int(r.size), int(n), tuple(map(float, per)))
