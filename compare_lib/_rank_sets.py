"""How sure is the ranking? Confidence sets for the ranks of k classifiers over N data sets.

Two answers:

* ``method="simultaneous"`` (default): the confidence sets of Mogstad, Romano, Shaikh & Wilhelm,
  "Inference for ranks with applications to mobility across neighbourhoods and academic achievement
  across countries", Review of Economic Studies 91(1), 2024, built by projection from the all-pairs
  decisions of a pairwise test and a family-wise procedure (:func:`compare_lib.posthoc`). With
  B_i the classifiers found significantly better than i and W_i those found significantly worse,

      rank_low_i = 1 + |B_i|,        rank_high_i = k - |W_i|,

  the simultaneous sets of Mogstad et al. (the lower end counts the populations found better, the upper
  end those found worse), with the rejections of a post-hoc test and family-wise procedure in place of
  their bootstrap step-down test of the pairwise differences. The sets hold *all* true ranks *at once*
  with probability at least 1 - alpha.
* ``method="bootstrap"``: percentile intervals of each classifier's mean rank from resampling the data
  sets (rows) with replacement: *marginal* intervals (each holds its own mean rank with about
  1 - alpha, not all at once), of the expected mean rank, not of a rank.

:func:`best_set` and :func:`worst_set` name the classifiers that could be first or last, and
:func:`winners_sentence` says it in a sentence.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._adjust import DEFAULT_CORRECTION
from ._pairwise_tests import RECOMMENDED_TEST
from ._posthoc import posthoc
from ._table import as_table
from ._validation import check_alpha, check_choice
from .errors import InputError

METHODS = ("simultaneous", "bootstrap")
#: Most bootstrap resamples one call draws (the message of the refusal states it).
MAX_BOOTSTRAP = 100_000
#: Most resampled cells (resamples x data sets x classifiers) one bootstrap call gathers (a few seconds).
MAX_BOOTSTRAP_WORK = 1_000_000_000
#: Resampled cells held in memory at once.
_CHUNK_CELLS = 4_000_000
#: Columns of a rank-sets frame.
COLUMNS = ("mean_rank", "rank_low", "rank_high")


def _check_n_boot(n_boot: Any, n: int, k: int) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or not 100 <= n_boot <= MAX_BOOTSTRAP:
        raise InputError(f"n_boot must be a whole number of resamples between 100 and {MAX_BOOTSTRAP:,} "
                         f"(the limit of one call), got {n_boot!r}.")
    work = int(n_boot) * n * k
    if work > MAX_BOOTSTRAP_WORK:
        raise InputError(f"{int(n_boot):,} resamples of this {n:,} x {k} table are {work:,} cells, above the limit of "
                         f"{MAX_BOOTSTRAP_WORK:,} (resamples x data sets x classifiers); use at most "
                         f"{max(1, MAX_BOOTSTRAP_WORK // (n * k)):,} resamples.")
    return int(n_boot)


def _decision_counts(frame: pd.DataFrame, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(better_than, worse_than): for each classifier, how many classifiers it was found significantly
    better / worse than in a post-hoc frame (columns a, b, reject, better). Vectorized over the pairs: the
    winner and loser of every rejected pair are counted with one bincount each. A rejected pair without a
    better classifier (a tied statistic: possible only for a registered statistic) says nothing of the order
    and is not counted."""
    k = len(names)
    index = pd.Index(names)
    a = index.get_indexer(frame["a"].to_numpy())
    b = index.get_indexer(frame["b"].to_numpy())
    better = index.get_indexer(frame["better"].to_numpy())  # -1 for "" (a tie)
    rejected = frame["reject"].to_numpy(dtype=bool) & (better >= 0)
    winner = better[rejected]
    loser = np.where(winner == a[rejected], b[rejected], a[rejected])
    return np.bincount(winner, minlength=k), np.bincount(loser, minlength=k)


def rank_sets(
    table,
    *,
    alpha: float = 0.05,
    test: str = RECOMMENDED_TEST,
    correction: str = DEFAULT_CORRECTION,
    method: str = "simultaneous",
    n_boot: int = 2000,
    seed: int | None = 0,
    higher_is_better: bool | None = None,
) -> pd.DataFrame:
    """Confidence sets for the ranks of the classifiers (rank 1 = best).

    Parameters
    ----------
    table : ScoreTable (or DataFrame / array with ``higher_is_better``)
    alpha : float
        1 - alpha is the confidence level (simultaneous for ``method="simultaneous"``, marginal for
        ``"bootstrap"``).
    test, correction : str
        The pairwise statistic and the family-wise procedure of :func:`compare_lib.posthoc` (all pairs)
        whose decisions the simultaneous sets are projected from. Ignored by the bootstrap.
    method : {"simultaneous", "bootstrap"}
    n_boot, seed : int
        Resamples of the data sets (at most :data:`MAX_BOOTSTRAP`) and the seed of the bootstrap.

    Returns
    -------
    DataFrame indexed by classifier (the table's order).

    ``method="simultaneous"``: columns ``mean_rank``, ``rank_low``, ``rank_high`` (integers),
    ``better_than`` and ``worse_than`` (how many classifiers this one was found significantly better /
    worse than). With B_i the classifiers significantly better than i and W_i those significantly worse,
    rank_low = 1 + |B_i| and rank_high = k - |W_i| (Mogstad, Romano, Shaikh & Wilhelm 2024, "Inference for
    ranks with applications to mobility across neighbourhoods and academic achievement across
    countries", Review of Economic Studies 91(1): their simultaneous sets, with the all-pairs decisions of
    the post-hoc test and procedure in place of their bootstrap step-down test). They agree exactly with
    ``posthoc(table, test, correction, alpha=alpha)``.

    *Guarantee.* With probability at least 1 - alpha, every classifier's true rank lies in its set, all
    classifiers at once. The true order is the one the pairwise test's parameter defines: the median of
    the differences for the sign test, their pseudo-median (the median of the Walsh averages) for
    Wilcoxon, the expected difference of mean ranks within this pool of classifiers for the mean-ranks
    statistics (mean-ranks z, exact rank sums, aligned ranks, Quade, Conover). With ties in the true
    order, every rank a tied classifier could take (from 1 + #truly better to k - #truly worse) is in
    the set. *Assumptions:* (1) the procedure controls the family-wise error strongly, directional errors
    included: with probability >= 1 - alpha no pair is declared different when equal, nor in the wrong
    direction. Every set covers whenever no such error occurs, so the guarantee is exactly as good as that
    control: Bonferroni (single step) has it whenever each two-sided test has its level in each tail; for
    the stepwise procedures (Holm, Shaffer, Bergmann-Hommel) the control of directional errors is known
    under conditions (e.g. independent statistics, Shaffer 1980) or asymptotically, and is assumed here;
    Hochberg and Hommel also rely on the Simes inequality. (2) The pairwise orders are consistent
    (transitive, so that a true rank is defined): the pseudo-medians of Wilcoxon can in principle be
    intransitive.

    ``method="bootstrap"``: columns ``mean_rank``, ``rank_low``, ``rank_high`` (floats): the
    alpha/2 and 1 - alpha/2 percentiles of each classifier's mean rank over ``n_boot`` resamples of the
    data sets (rows) with replacement (Efron's percentile interval). *Marginal*: each interval holds its
    classifier's expected mean rank with about 1 - alpha, not all of them together, and a mean rank is
    not a rank; ``attrs["marginal"]`` is True. Needs a complete table.

    ``attrs``: alpha, test, correction (None for the bootstrap), method, marginal, k, n,
    higher_is_better (and n_boot, seed for the bootstrap; notes of the post-hoc analysis).
    """
    t = as_table(table, higher_is_better)
    alpha = check_alpha(alpha)
    check_choice(method, METHODS, "method")
    k, n = t.n_classifiers, t.n_datasets
    names = t.classifiers
    mean_ranks = t.mean_ranks.to_numpy(dtype=float)
    if method == "bootstrap":
        t.require_complete("The bootstrap of the mean ranks")
        n_boot = _check_n_boot(n_boot, n, k)
        low, high = _bootstrap_intervals(t.ranks.to_numpy(dtype=float), alpha, n_boot, seed)
        frame = pd.DataFrame({"mean_rank": mean_ranks, "rank_low": low, "rank_high": high},
                             index=pd.Index(names, name="classifier"))
        frame.attrs.update(alpha=alpha, test=None, correction=None, method=method, marginal=True, k=k, n=n,
                           higher_is_better=t.higher_is_better, n_boot=n_boot, seed=seed)
        return frame
    return rank_sets_from_posthoc(posthoc(t, test=test, correction=correction, alpha=alpha, as_result=True))


def rank_sets_from_posthoc(result) -> pd.DataFrame:
    """The simultaneous rank sets of :func:`rank_sets` projected from a post-hoc result already computed (a
    :class:`~compare_lib.PosthocResult` or the DataFrame of :func:`compare_lib.posthoc`, all pairs), so that a
    report or a page that shows both does not run the post-hoc twice."""
    from ._posthoc import as_posthoc_result

    result = as_posthoc_result(result)
    if result.control is not None:
        raise InputError("Rank sets need every pair compared: the post-hoc result compares against a control "
                         f"({result.control!r}). Run it over all pairs.")
    names = list(result.mean_ranks)
    k = len(names)
    better_than, worse_than = _decision_counts(result.frame, names)
    frame = pd.DataFrame({"mean_rank": np.fromiter(result.mean_ranks.values(), dtype=float, count=k),
                          "rank_low": 1 + worse_than, "rank_high": k - better_than,
                          "better_than": better_than, "worse_than": worse_than},
                         index=pd.Index(names, name="classifier"))
    frame.attrs.update(alpha=result.alpha, test=result.test, correction=result.correction, method="simultaneous",
                       marginal=False, k=k, n=result.n, higher_is_better=result.higher_is_better)
    if result.notes:
        frame.attrs["notes"] = tuple(result.notes)
    return frame


def rank_set_labels(frame: pd.DataFrame) -> list[str]:
    """Each classifier's simultaneous rank set as text for a table: "2" for a single rank, "1–3" for a range."""
    return [f"{lo}" if lo == hi else f"{lo}–{hi}" for lo, hi in zip(frame["rank_low"], frame["rank_high"])]


def _bootstrap_intervals(ranks: np.ndarray, alpha: float, n_boot: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of the mean ranks over resampled rows: the table is ranked once (``ranks``, per
    data set, ties averaged); a resample's mean ranks are the mean of the gathered rows, in chunks of
    resamples that keep the gathered cells within :data:`_CHUNK_CELLS`."""
    n, k = ranks.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    means = np.empty((n_boot, k))
    step = max(1, _CHUNK_CELLS // (n * k))
    for lo in range(0, n_boot, step):
        means[lo : lo + step] = ranks[idx[lo : lo + step]].mean(axis=1)
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


# ---------------------------------------------------------------------------------------------
# who could be first, who could be last


def _is_rank_sets(obj) -> bool:
    return isinstance(obj, pd.DataFrame) and set(COLUMNS) <= set(obj.columns) and "method" in obj.attrs


def _simultaneous(table_or_sets, what: str, **kwargs) -> pd.DataFrame:
    """The simultaneous rank sets of a table (computed) or a rank-sets frame (as given)."""
    if _is_rank_sets(table_or_sets):
        if kwargs:
            raise InputError(f"{what} got a rank-sets frame and options {sorted(kwargs)}: the frame already fixes them; "
                             "pass the score table to choose them.")
        frame = table_or_sets
    else:
        frame = rank_sets(table_or_sets, **kwargs)
    if frame.attrs.get("method") != "simultaneous":
        raise InputError(f"{what} needs the simultaneous rank sets (method='simultaneous'): bootstrap intervals are "
                         "marginal intervals of mean ranks, and say nothing of who can be first or last.")
    return frame


def _by_mean_rank(frame: pd.DataFrame, mask: np.ndarray) -> list[str]:
    part = frame.loc[mask]
    order = np.lexsort((np.arange(len(part)), part["mean_rank"].to_numpy()))  # mean rank, then table order
    return [str(x) for x in part.index.to_numpy()[order]]


def best_set(table, **kwargs) -> list[str]:
    """The classifiers that could be the best (rank_low = 1 in :func:`rank_sets`), ordered by mean rank.

    With probability at least 1 - alpha the truly best classifier is among them (under the assumptions of
    :func:`rank_sets`). ``table`` is a score table (``kwargs`` are those of :func:`rank_sets`) or a frame
    returned by :func:`rank_sets`.
    """
    frame = _simultaneous(table, "best_set", **kwargs)
    return _by_mean_rank(frame, frame["rank_low"].to_numpy() == 1)


def worst_set(table, **kwargs) -> list[str]:
    """The classifiers that could be the worst (rank_high = k in :func:`rank_sets`), ordered by mean rank."""
    frame = _simultaneous(table, "worst_set", **kwargs)
    k = int(frame.attrs.get("k", len(frame)))
    return _by_mean_rank(frame, frame["rank_high"].to_numpy() == k)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winners_sentence(table_or_sets, **kwargs) -> str:
    """The set of possible winners in one plain-text sentence, e.g. "C4.5+m+cf and C4.5+m could each be the
    best; the data cannot tell them apart at 95% confidence." or "X is the best with confidence 95%: every
    other classifier is significantly worse than some classifier."

    ``table_or_sets``: a frame returned by :func:`rank_sets` (simultaneous) or a score table (``kwargs`` are
    those of :func:`rank_sets`). Names are listed by mean rank.
    """
    frame = _simultaneous(table_or_sets, "winners_sentence", **kwargs)
    best = best_set(frame)
    level = f"{100 * (1 - float(frame.attrs.get('alpha', 0.05))):g}%"
    k = len(frame)
    if len(best) == 1:
        return (f"{best[0]} is the best with confidence {level}: every other classifier is significantly worse than "
                "some classifier.")
    if len(best) == k:
        if k == 2:
            return f"{best[0]} and {best[1]} could each be the best; the data cannot tell them apart at {level} confidence."
        return (f"Any of the {k} classifiers could be the best; the data cannot tell which at {level} confidence "
                f"(best mean rank: {best[0]}).")
    return f"{_and(best)} could each be the best; the data cannot tell them apart at {level} confidence."
