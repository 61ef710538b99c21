"""Skillings-Mack test: Friedman's test for a score table with holes.

Skillings, J. H. & Mack, G. A. (1981), "On the use of a Friedman-type statistic in balanced and
unbalanced block designs", Technometrics 23(2), 171-177.

Blocks are data sets (rows), treatments are classifiers (columns); ``np.nan`` marks a classifier
that was not run on a data set. For block i with n_i >= 2 scores:

* the present scores are ranked 1..n_i, rank 1 = best (library convention), ties averaged;
* a missing cell gets the average rank (n_i + 1)/2, i.e. contributes nothing;
* A_j = sum_i sqrt(12/(n_i + 1)) (r_ij - (n_i + 1)/2)        (adjusted rank sums, sum_j A_j = 0);
* lambda_st = number of blocks where both s and t are present (M'M for the 0/1 presence matrix M);
* Sigma_st = -lambda_st (s != t), Sigma_tt = sum_{s != t} lambda_st: the null covariance of A when
  there are no ties (a weighted graph Laplacian, rank k - 1 exactly when the design is connected);
* SM = A' Sigma^- A, referred to chi-squared with k - 1 degrees of freedom.

With nothing missing SM is Friedman's chi-squared without tie correction; for a balanced incomplete
block design it is Durbin's statistic.

Conventions matched with the public implementations (R ``Skillings.Mack::Ski.Mack``,
``NSM3::pSkilMack``, ``PMCMRplus::skillingsMackTest`` and Stata ``skilmack``, Chatfield & Mander 2009):
ties get average ranks and the statistic keeps the no-ties covariance above (none of them corrects
Sigma for ties); blocks with a single score contribute nothing to A or Sigma, so dropping them
(as here) gives the NSM3 / PMCMRplus / Stata values (``Ski.Mack`` refuses such blocks instead). The
R and Stata codes rank in ascending order (rank 1 = smallest score), so their A_j equal the
``adjusted_rank_sums`` here with ``higher_is_better=False`` and their negatives with
``higher_is_better=True``; the statistic itself does not depend on the direction.

``statistic_ties`` replaces the no-ties Sigma by the exact covariance of A under the permutation
null given the ties actually present (within each block the observed midranks are equally likely
in any order): block i then contributes u_i = 1 - sum(t^3 - t)/(n_i(n_i^2 - 1)) instead of 1 to
each lambda_st (t: sizes of the tie groups in block i). This is the quantity Stata's ``skilmack,
covariance`` estimates by simulation; with nothing missing it equals Friedman's tie-corrected
chi-squared, and without ties it equals ``statistic``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats
from scipy.sparse.csgraph import connected_components

from compare_lib.core._result import RankTestResult
from compare_lib.errors import InputError

__all__ = ["SkillingsMackResult", "skillings_mack_statistic"]

# The chi-squared reference is rough below these sizes (the same rule of thumb the library uses for
# Friedman's test, Demsar 2006); the R package Skillings.Mack and Stata's skilmack then advise a
# p-value simulated from the permutation distribution.
_SMALL_N = 10
_SMALL_K = 5


@dataclass(frozen=True)
class SkillingsMackResult(RankTestResult):
    """Skillings-Mack statistic SM with its chi-squared (k - 1 df) p-value.

    ``n`` is the number of usable data sets (those with at least two scores); ``n_missing`` counts
    the missing cells within them (the cells given the average rank). ``adjusted_rank_sums`` holds
    A_j, one per classifier in column order, with rank 1 = best: a negative A_j means better than
    average ranks, a positive one worse (the opposite sign to the R packages when
    ``higher_is_better`` is true, see the module docstring). ``statistic_ties`` / ``pvalue_ties``
    use the tie-exact covariance (equal to ``statistic`` / ``pvalue`` when there are no ties; NaN
    when the ties leave the design without information on some classifier, see ``notes``).
    """

    n_missing: int
    adjusted_rank_sums: np.ndarray = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()
    statistic_ties: float = float("nan")
    pvalue_ties: float = float("nan")
    higher_is_better: bool = True

    def to_dict(self) -> dict:
        """Plain Python values (floats, ints, lists, strings), ready for JSON."""
        return {
            "statistic": float(self.statistic),
            "pvalue": float(self.pvalue),
            "df": int(self.df),
            "k": int(self.k),
            "n": int(self.n),
            "n_missing": int(self.n_missing),
            "adjusted_rank_sums": [float(a) for a in self.adjusted_rank_sums],
            "notes": list(self.notes),
            "statistic_ties": float(self.statistic_ties),
            "pvalue_ties": float(self.pvalue_ties),
            "higher_is_better": bool(self.higher_is_better),
        }


def _labels(scores, axis: int, size: int) -> list[str]:
    """Column (axis=1) or row (axis=0) names of a DataFrame, else 'column 3' / 'row 7'."""
    index = getattr(scores, "columns" if axis == 1 else "index", None)
    if index is not None and len(index) == size:
        return [str(v) for v in index]
    word = "column" if axis == 1 else "row"
    return [f"{word} {i}" for i in range(size)]


def _show(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _laplacian(weights: np.ndarray) -> np.ndarray:
    """Sigma from pair weights: -w_st off the diagonal, sum_{s != t} w_st on it."""
    off = weights - np.diag(np.diag(weights))
    return np.diag(off.sum(axis=1)) - off


def _quadratic_form(a: np.ndarray, sigma: np.ndarray) -> float:
    """a' Sigma^- a for a Laplacian Sigma of a connected graph and sum(a) = 0.

    Dropping the last classifier leaves a positive definite (k-1) x (k-1) block, and because
    sum(a) = 0 (and Sigma's rows sum to 0) the result equals a' pinv(Sigma) a (tested)."""
    head = a[:-1]
    return float(head @ np.linalg.solve(sigma[:-1, :-1], head))


def _components(weights: np.ndarray) -> list[np.ndarray]:
    count, label = connected_components(weights > 0, directed=False)
    return [np.flatnonzero(label == c) for c in range(count)]


def skillings_mack_statistic(scores: np.ndarray, higher_is_better: bool = True) -> SkillingsMackResult:
    """Skillings-Mack test on an N x k score table (data sets x classifiers) with NaN for holes.

    Data sets with fewer than two scores carry no information and are dropped (``notes`` says
    which). ``higher_is_better`` only fixes the sign of ``adjusted_rank_sums`` (rank 1 = best);
    the statistic does not depend on it. Scores are compared exactly as given (round first if tiny
    differences should count as ties); infinite scores are ordinary, extreme values.

    Raises :class:`~compare_lib.errors.InputError` when there are fewer than two classifiers or two
    usable data sets, when a classifier has no score on any usable data set, or when the design is
    disconnected (some classifiers are never compared with the others, directly or through a chain
    of shared data sets), naming the classifiers concerned.
    """
    try:
        x = np.array(scores, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"Skillings-Mack test: the scores must be numbers (NaN for a missing score); got {exc}."
        ) from None
    if x.ndim != 2:
        raise InputError(
            f"Skillings-Mack test: the scores must be a 2-D table (data sets in rows, classifiers in "
            f"columns); got an array with {x.ndim} dimension(s) of shape {x.shape}."
        )
    n_rows, k = x.shape
    col_names = _labels(scores, 1, k)
    if k < 2:
        raise InputError(
            f"Skillings-Mack test: it compares at least 2 classifiers, the table has {k} column(s). "
            "Add the scores of the other classifiers as columns."
        )

    present = ~np.isnan(x)
    n_i = present.sum(axis=1)
    usable = n_i >= 2
    notes: list[str] = []
    if not usable.all():
        row_names = _labels(scores, 0, n_rows)
        dropped = [row_names[i] for i in np.flatnonzero(~usable)]
        notes.append(
            f"{len(dropped)} data set(s) with fewer than two scores were left out (a single score "
            f"cannot be ranked against anything): {_show(dropped)}."
        )
    n = int(usable.sum())
    if n < 2:
        raise InputError(
            f"Skillings-Mack test: only {n} data set(s) have scores for at least two classifiers "
            f"(out of {n_rows}); it needs at least 2. Add data sets, or fill in the missing scores."
        )
    x, present, n_i = x[usable], present[usable], n_i[usable].astype(float)

    never = np.flatnonzero(~present.any(axis=0))
    if never.size:
        names = [col_names[j] for j in never]
        raise InputError(
            f"Skillings-Mack test: classifier(s) {_show(names)} have no score on any data set that has "
            "at least one other classifier, so nothing can be said about them. Drop these columns or "
            "add their scores."
        )

    # Within-block ranks, rank 1 = best, ties averaged; missing cells stay NaN (all blocks at once).
    oriented = -x if higher_is_better else x
    ranks = stats.rankdata(oriented, axis=1, nan_policy="omit")
    mid = (n_i + 1.0) / 2.0
    centred = np.where(present, ranks - mid[:, None], 0.0)  # missing cell: rank (n_i+1)/2
    weight = np.sqrt(12.0 / (n_i + 1.0))
    a = weight @ centred  # A_j = sum_i w_i (r_ij - (n_i+1)/2)

    m = present.astype(float)
    pairs = m.T @ m  # lambda_st (diagonal: blocks containing t)
    parts = _components(pairs - np.diag(np.diag(pairs)))
    if len(parts) > 1:
        groups = "; ".join("{" + _show([col_names[j] for j in part]) + "}" for part in parts)
        raise InputError(
            "Skillings-Mack test: the design is disconnected - these groups of classifiers never share "
            f"a data set, directly or through other classifiers: {groups}. Their ranks cannot be "
            "compared across groups; add data sets on which classifiers of different groups were both "
            "run, or test each group separately."
        )
    sigma = _laplacian(pairs)
    statistic = _quadratic_form(a, sigma)
    df = k - 1
    pvalue = float(stats.chi2.sf(statistic, df))

    # Ties: sum over tie groups of (t^3 - t), exactly, from the integer doubled ranks:
    # sum_j (2 r_ij - (n_i + 1))^2 = (n_i (n_i^2 - 1) - sum (t^3 - t)) / 3 over the present cells.
    doubled = np.rint(2.0 * centred)
    tie_term = n_i * (n_i**2 - 1.0) - 3.0 * (doubled**2).sum(axis=1)
    tie_term = np.where(np.abs(tie_term) < 0.5, 0.0, tie_term)
    tied_blocks = int((tie_term > 0).sum())
    if tied_blocks == 0:
        statistic_ties, pvalue_ties = statistic, pvalue
    else:
        u = 1.0 - tie_term / (n_i * (n_i**2 - 1.0))  # 0 for a block whose scores all tie
        pairs_u = m.T @ (m * u[:, None])
        if len(_components(pairs_u - np.diag(np.diag(pairs_u)))) > 1:
            statistic_ties = pvalue_ties = float("nan")
            notes.append(
                "The tie-exact statistic is undefined: once data sets whose scores all tie are set "
                "aside, some classifiers are no longer compared with the others."
            )
        else:
            statistic_ties = _quadratic_form(a, _laplacian(pairs_u))
            pvalue_ties = float(stats.chi2.sf(statistic_ties, df))
        notes.append(
            f"{tied_blocks} data set(s) have tied scores: ties get average ranks and, as in the R packages "
            "and Stata's skilmack, the statistic keeps the covariance of untied ranks, so its chi-squared p-value is "
            "conservative; the tie-corrected statistic (statistic_ties in the library) uses the exact covariance "
            "given the ties (with nothing missing it is Friedman's tie-corrected chi-squared)."
        )

    n_missing = int((~present).sum())
    if n_missing:
        notes.append(
            f"{n_missing} missing score(s) in the {n} data sets used. The test assumes that whether a "
            "score is missing does not depend on how good it would have been (missing by design or "
            "completely at random); a classifier that failed on hard data sets breaks this."
        )
    if n <= _SMALL_N or k <= _SMALL_K:
        notes.append(
            f"With k = {k} classifiers and N = {n} usable data sets the chi-squared approximation "
            f"(k - 1 = {df} df) is rough; for small designs (and many ties) the R package Skillings.Mack and "
            "Stata's skilmack recommend a p-value simulated from the permutation distribution of the "
            "ranks within data sets."
        )

    return SkillingsMackResult(
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        k=k,
        n=n,
        n_missing=n_missing,
        adjusted_rank_sums=a,
        notes=tuple(notes),
        statistic_ties=statistic_ties,
        pvalue_ties=pvalue_ties,
        higher_is_better=bool(higher_is_better),
    )


def skillings_mack(table, *, higher_is_better: bool | None = None) -> SkillingsMackResult:
    """The Skillings-Mack test of a score table (Skillings & Mack 1981): Friedman's test for a table with
    holes, the omnibus test of the "pairwise" missing-data policy (equal to Friedman's chi2_F without tie
    correction when nothing is missing). ``table``: a :class:`~compare_lib.ScoreTable` (missing cells NaN),
    or a DataFrame/array with ``higher_is_better``. The p-value is the chi-squared approximation with k - 1
    degrees of freedom; ``notes`` say when it is rough and what the holes assume.
    """
    from compare_lib.core._table import ScoreTable, as_table

    if isinstance(table, pd.DataFrame) and higher_is_better is not None:
        table = ScoreTable(table, bool(higher_is_better), missing="pairwise")  # holes are what this test is for
    t = as_table(table, higher_is_better)
    return skillings_mack_statistic(t.scores, t.higher_is_better)
