"""Several metrics of one results file side by side: does the conclusion hold across metrics?

For each metric of a :class:`compare_lib.io.Results` (accuracy, AUC, F1, run time, ...), the mean ranks,
the omnibus test and the classifiers the post-hoc procedure cannot tell apart from the best-ranked one.
A researcher who reports one metric sees at a glance whether another would have told a different story.
"""

from __future__ import annotations

import math
import warnings

import pandas as pd

from compare_lib.multiple._adjust import DEFAULT_CORRECTION
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST
from compare_lib.core._validation import check_alpha
from compare_lib.errors import ApproximationWarning, DataWarning, InputError, worded


def compare_metrics(results, *, test: str = RECOMMENDED_TEST, correction: str = DEFAULT_CORRECTION, alpha: float = 0.05,
                    metrics=None, directions: dict | None = None, missing: str = "error",
                    aggregate: str = "mean", classifiers=None, datasets=None) -> pd.DataFrame:
    """One row per metric: its direction, the mean ranks, the omnibus test and the post-hoc verdict.

    Parameters
    ----------
    results : compare_lib.io.Results
        What :func:`compare_lib.read_results` read.
    test, correction, alpha : the post-hoc statistic, the correction and the level (as in :func:`compare_lib.posthoc`).
    metrics : list of str, optional
        The metrics to compare (default: all of them, in file order).
    directions : dict, optional
        metric -> higher_is_better for the metrics whose direction is not to be inferred from the names.
    missing, aggregate : as in :meth:`compare_lib.io.Results.table`.
    classifiers, datasets : list of str, optional
        Keep only these classifiers and data sets (those of a metric's table that are in the lists).

    Returns
    -------
    DataFrame with columns ``metric``, ``higher_is_better``, ``direction_reason``, ``datasets``, ``best``
    (the classifiers with the best mean rank, joined by ", "), ``tied_for_best`` (the classifiers the
    procedure does not find different from the best, joined by ", "), ``omnibus_p`` (Iman-Davenport's F_F,
    or the exact Friedman p where the table is small enough for it; Skillings-Mack's p for a table that
    keeps missing cells), ``omnibus_rejects``, ``rejected_pairs`` and one column of mean ranks per
    classifier ("rank: <name>"). A metric whose table cannot be built (too few data sets, cells that are
    not numbers) gets its reason in ``problem`` and empty results.
    """
    from compare_lib.stats._omnibus import friedman, iman_davenport
    from compare_lib.analyses._posthoc import posthoc
    from compare_lib.stats._skillings_mack import skillings_mack

    check_alpha(alpha)
    chosen = list(results.metrics) if metrics is None else list(metrics)
    unknown = [m for m in chosen if m not in results.metrics]
    if unknown:
        raise InputError(f"No metric named {unknown[0]!r}; the file has {', '.join(map(str, results.metrics))}.")
    directions = directions or {}
    rows = []
    for metric in chosen:
        row: dict = {"metric": metric, "higher_is_better": None, "direction_reason": "", "datasets": 0, "best": "",
                     "tied_for_best": "", "omnibus_p": math.nan, "omnibus_rejects": False, "rejected_pairs": 0,
                     "problem": ""}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", (DataWarning, ApproximationWarning))
                table = results.table(metric, higher_is_better=directions.get(metric), missing=missing,
                                      aggregate=aggregate)
                if classifiers is not None or datasets is not None:
                    keep_c = [c for c in table.classifiers if classifiers is None or c in set(classifiers)]
                    keep_d = [d for d in table.datasets if datasets is None or d in set(datasets)]
                    table = table.subset(keep_c, keep_d)
                if table.has_missing:  # holes kept ("pairwise"): Friedman's test for them
                    omnibus_p = skillings_mack(table).pvalue
                else:
                    exact = friedman(table, method="auto")
                    omnibus_p = exact.pvalue if exact.method == "exact" else iman_davenport(table).pvalue
                res = posthoc(table, test=test, correction=correction, alpha=alpha, as_result=True)
        except InputError as err:
            row["problem"] = worded(err)  # Python's words; in_words(cell, "app") gives the dashboard's
            rows.append(row)
            continue
        ranks = table.mean_ranks
        best = [c for c in ranks.index if ranks[c] == ranks.min()]  # equal mean ranks share first place
        frame = res.frame
        rejected = {frozenset(p) for p in frame.loc[frame["reject"], ["a", "b"]].to_numpy().tolist()}
        # Tied for best: not significantly different from (at least one of) the best-ranked classifiers.
        tied = [c for c in ranks.sort_values(kind="stable").index
                if c in best or any(frozenset((b, c)) not in rejected for b in best)]
        row.update(higher_is_better=table.higher_is_better, datasets=table.n_datasets, best=", ".join(best),
                   direction_reason=results.direction_reason(metric) if directions.get(metric) is None
                   else "given", tied_for_best=", ".join(tied), omnibus_p=float(omnibus_p),
                   omnibus_rejects=bool(omnibus_p <= alpha), rejected_pairs=int(frame["reject"].sum()))
        row.update({f"rank: {c}": float(r) for c, r in ranks.items()})
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs.update(test=test, correction=correction, alpha=float(alpha), missing=missing, aggregate=aggregate)
    return out
