"""Tests of two classifiers on one data set from resampled (fold-level) results (Bouckaert & Frank 2004, §3).

Inputs are differences x = a - b of the two classifiers' scores on the same train/test splits:

* :func:`cv_ttest`: the plain paired t-test on k-fold (or r x k-fold) differences, which treats the
  folds as independent (its Type I error is inflated);
* :func:`dietterich_5x2cv_ttest`: Dietterich's 5x2cv paired t-test, t = x_11 / sqrt(mean_j s_j^2), 5 df;
* :func:`corrected_resampled_ttest`: Nadeau & Bengio's corrected resampled t-test,
  t = mean / sqrt((1/n + n2/n1) var), n - 1 df;
* :func:`corrected_repeated_cv_ttest`: the corrected repeated k-fold cv test,
  t = mean / sqrt((1/(k r) + n2/n1) var), k r - 1 df.

:func:`fold_level_tests` runs every test that fits the resampling scheme of a fold-level table, per
data set and per repetition (seed), and :func:`fold_replicability` summarises how often each test's
verdict repeats across the seeds (consistency, almost consistency, R).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from compare_lib.core._validation import MAX_LISTED, check_alpha, listing
from compare_lib.core._result import TestResult
from compare_lib.errors import InputError
from compare_lib.stats._replicability_measures import replicability_counts
from compare_lib.stats._two_classifiers import ZERO_ERROR_NOTE, t_from_moments


@dataclass(frozen=True)
class ResamplingTestResult(TestResult):
    df: int
    mean_difference: float
    method: str
    note: str = ""  # why the test is undefined (p = NaN) when the differences do not vary

    @property
    def notes(self) -> tuple[str, ...]:  # type: ignore[override]  # Result.notes is a plain attribute (a field in most results); here it is derived from ``note``
        return (self.note,) if self.note else ()


def _t_result(mean: float, se2: float, df: int, method: str) -> ResamplingTestResult:
    t, p = t_from_moments(float(mean), float(se2), int(df))
    return ResamplingTestResult(t, p, int(df), float(mean), method, ZERO_ERROR_NOTE if np.isnan(p) else "")


def _diffs(x, what: str, min_size: int = 2) -> np.ndarray:
    d = np.asarray(x, dtype=float)
    if d.size < min_size or np.any(~np.isfinite(d)):
        raise InputError(f"{what} needs at least {min_size} finite differences; got {d.size}.")
    return d


def cv_ttest(differences) -> ResamplingTestResult:
    """Paired t-test treating all fold differences as independent: t = mean / sqrt(var / n), n - 1 df."""
    d = _diffs(differences, "The paired t-test").ravel()
    n = d.size
    return _t_result(d.mean(), d.var(ddof=1) / n, n - 1, "paired t-test on folds")


def dietterich_5x2cv_ttest(differences) -> ResamplingTestResult:
    """Dietterich's 5x2cv paired t-test (Bouckaert & Frank 2004, §3.1).

    ``differences`` has shape (5, 2): run j, fold i. With xbar_j = (x_1j + x_2j)/2 and
    s_j^2 = (x_1j - xbar_j)^2 + (x_2j - xbar_j)^2, t = x_11 / sqrt((1/5) sum_j s_j^2), 5 df.
    Only the first fold's difference enters the numerator, which makes the test sensitive to the
    partitioning.
    """
    d = np.asarray(differences, dtype=float)
    if d.shape != (5, 2) or np.any(~np.isfinite(d)):
        raise InputError(f"The 5x2cv test needs 5 runs x 2 folds of finite differences; got shape {d.shape}.")
    xbar = d.mean(axis=1, keepdims=True)
    s2 = ((d - xbar) ** 2).sum(axis=1)
    return _t_result(d[0, 0], s2.mean(), 5, "5x2cv paired t-test (Dietterich)")


def corrected_resampled_ttest(differences, test_train_ratio: float) -> ResamplingTestResult:
    """Nadeau & Bengio's corrected resampled t-test (Bouckaert & Frank 2004, §3.2).

    ``differences``: one per random train/test split; ``test_train_ratio`` = n2/n1 (e.g. 10/90).
    t = mean / sqrt((1/n + n2/n1) var), n - 1 df.
    """
    d = _diffs(differences, "The corrected resampled t-test").ravel()
    if not test_train_ratio > 0:
        raise InputError(f"test_train_ratio = n_test / n_train must be positive, got {test_train_ratio!r}.")
    n = d.size
    return _t_result(d.mean(), (1 / n + test_train_ratio) * d.var(ddof=1), n - 1, "corrected resampled t-test")


def corrected_repeated_cv_ttest(differences, test_train_ratio: float | None = None) -> ResamplingTestResult:
    """The corrected repeated k-fold cv test (Bouckaert & Frank 2004, §3.3).

    ``differences`` has shape (r, k): run j, fold i. t = mean / sqrt((1/(k r) + n2/n1) var), k r - 1
    df; n2/n1 defaults to 1/(k-1), the test/train ratio of k-fold cross-validation.
    """
    d = np.asarray(differences, dtype=float)
    if d.ndim != 2 or d.shape[1] < 2 or d.size < 2 or np.any(~np.isfinite(d)):
        raise InputError(f"The corrected repeated cv test needs runs x folds (k >= 2) of differences; got shape {d.shape}.")
    r, k = d.shape
    ratio = 1 / (k - 1) if test_train_ratio is None else float(test_train_ratio)
    n = r * k
    return _t_result(d.mean(), (1 / n + ratio) * d.var(ddof=1), n - 1, "corrected repeated k-fold cv test")


# ---------------------------------------------------------------------------------------------
# fold-level tables

SEED_NAMES = ("seed", "repetition", "rep", "trial", "experiment")
RUN_NAMES = ("run", "repeat", "iteration")
FOLD_NAMES = ("fold", "split")


def _column(frame: pd.DataFrame, names, given: str | None) -> str | None:
    if given is not None:
        if given not in frame.columns:
            raise InputError(f"No column {given!r} in the fold-level table; it has {list(frame.columns)}.")
        return given
    lower = {c.lower(): c for c in frame.columns}
    return next((lower[n] for n in names if n in lower), None)


@dataclass(frozen=True)
class FoldGroup:
    """The paired differences a - b of one data set, scheme and repetition (seed), runs x folds, with
    the test/train ratio n2/n1 that applies to them (None when nothing gives it)."""

    dataset: object
    scheme: str
    seed: object
    differences: np.ndarray
    test_train_ratio: float | None

    @property
    def label(self) -> str:
        runs, nfold = self.differences.shape
        if self.scheme:
            return self.scheme
        if nfold >= 2:
            return "5x2cv" if (runs, nfold) == (5, 2) else f"{runs}x{nfold}-fold cv"
        return f"{runs} random splits"


class FoldGroups(list[FoldGroup]):
    """The :class:`FoldGroup` list of :func:`fold_groups`, with ``notes`` saying which splits were left out."""

    def __init__(self, groups=(), notes: list[str] | None = None):
        super().__init__(groups)
        self.notes = notes if notes is not None else []


def fold_groups(
    folds: pd.DataFrame,
    a: str,
    b: str,
    *,
    test_train_ratio: float | None = None,
    seed_col: str | None = None,
    run_col: str | None = None,
    fold_col: str | None = None,
) -> FoldGroups:
    """Split a long fold-level table into the paired differences a - b of each (dataset, scheme, seed).

    ``folds``: columns ``dataset``, ``classifier``, ``score`` and the identifiers of the repetition
    (seed), run and fold (recognised by name, or given). The test/train ratio n2/n1 is, in this order:
    ``test_train_ratio`` if given, the mean ``n_test / n_train`` if the table has those columns, else
    1/(k-1) for k-fold cv (None for random subsampling without sizes). A split that only one of the two
    classifiers has is left out, and so is the rest of its run (the cv tests need whole runs); the
    result's ``notes`` list them.
    """
    for needed in ("dataset", "classifier", "score"):
        if needed not in folds.columns:
            raise InputError(f"The fold-level table needs a {needed!r} column; it has {list(folds.columns)}.")
    if test_train_ratio is not None and not (math.isfinite(test_train_ratio) and test_train_ratio > 0):
        raise InputError(f"The test/train ratio must be a positive number (n_test / n_train), got {test_train_ratio!r}.")
    seed_c = _column(folds, SEED_NAMES, seed_col)
    run_c = _column(folds, RUN_NAMES, run_col)
    fold_c = _column(folds, FOLD_NAMES, fold_col)
    present = set(folds["classifier"])
    for name in (a, b):
        if name not in present:
            raise InputError(f"Classifier {name!r} is not in the fold-level table ({sorted(present)}).")
    if a == b:
        raise InputError("Pick two different classifiers.")
    pair = folds[folds["classifier"].isin([a, b])].copy()
    pair["_seed"] = pair[seed_c] if seed_c else 0
    pair["_run"] = pair[run_c] if run_c else 0
    pair["_fold"] = pair[fold_c] if fold_c else 0
    pair["_scheme"] = pair["scheme"] if "scheme" in pair.columns else ""
    key = ["dataset", "_scheme", "_seed", "_run", "_fold"]
    # Only the splits that occur (a pivot with dropna=False would build every combination of the keys).
    wide = pair.groupby([*key, "classifier"], sort=True)["score"].mean().unstack("classifier").reindex(columns=[a, b])
    notes: list[str] = []
    incomplete = wide[[a, b]].isna().any(axis=1).to_numpy()
    if incomplete.any():
        # A split one of the two lacks cannot be paired: leave it out, and say which ones.
        gone = wide.index[incomplete]
        named = [f"{d} / seed {s} / run {r} / fold {f}" for d, _, s, r, f in gone[:MAX_LISTED]]
        notes.append(f"{gone.size} split(s) have a score for only one of {a} and {b} and were left out: "
                     f"{listing(named, total=gone.size)}.")
        wide = wide[~incomplete]
    diffs = (wide[a] - wide[b]).rename("d").reset_index()  # sorted by data set, scheme, seed, run, fold
    sizes = None
    if {"n_train", "n_test"} <= set(pair.columns):
        sizes = pair.groupby(["dataset", "_scheme", "_seed"], sort=False)[["n_test", "n_train"]].mean()
    # The folds of each scheme as run (either classifier), so that a lost split does not shrink the scheme.
    expected_folds = pair.groupby(["dataset", "_scheme", "_seed"], sort=False)["_fold"].nunique()
    groups = FoldGroups(notes=notes)
    for (dataset, scheme, seed), group in diffs.groupby(["dataset", "_scheme", "_seed"], sort=False):
        nfold = int(expected_folds.loc[(dataset, scheme, seed)])
        per_run = group.groupby("_run", sort=False)["_fold"].transform("size")
        if (per_run < nfold).any():
            # The corrected tests need whole runs: a run that lost a split is left out as a whole.
            short = sorted(group.loc[per_run < nfold, "_run"].unique().tolist())
            notes.append(f"Data set {dataset!r}, seed {seed}: run(s) {', '.join(map(str, short))} lack a fold and were "
                         "left out (the cv tests need every fold of a run).")
            group = group[per_run == nfold]
            if group.empty:
                continue
        runs = group["_run"].nunique()
        if len(group) != runs * nfold:
            raise InputError(f"Data set {dataset!r}, seed {seed}: every run needs the same folds.")
        d = group["d"].to_numpy().reshape(runs, nfold)  # rows are sorted by run, then fold
        ratio = test_train_ratio
        if ratio is None and sizes is not None:
            n_test, n_train = sizes.loc[(dataset, scheme, seed)]
            ratio = float(n_test / n_train)
        if ratio is None and nfold >= 2:
            ratio = 1 / (nfold - 1)
        groups.append(FoldGroup(dataset, scheme, seed, d, ratio))
    if not groups:
        raise InputError(f"No split has scores for both {a} and {b}: they were never run on the same folds.")
    return groups


def fold_level_tests(
    folds: pd.DataFrame,
    a: str,
    b: str,
    *,
    alpha: float = 0.05,
    test_train_ratio: float | None = None,
    seed_col: str | None = None,
    run_col: str | None = None,
    fold_col: str | None = None,
) -> pd.DataFrame:
    """Run every test that fits the resampling scheme, per data set and repetition (seed).

    ``folds``: long table with columns ``dataset``, ``classifier``, ``score`` and the identifiers of
    the repetition (seed), run and fold (recognised by name, or given). Schemes, per data set:

    * k-fold cv repeated r times (fold column with k >= 2 values): the plain paired t-test on the
      r k differences, the corrected repeated k-fold cv test, and with r = 5, k = 2 Dietterich's 5x2cv;
    * random subsampling (no fold column, or one fold): the plain resampled t-test and, given
      ``test_train_ratio`` (n_test / n_train), the corrected resampled t-test.

    The test/train ratio n2/n1 of the corrected tests is, in this order: ``test_train_ratio`` if
    given, the mean ``n_test / n_train`` if the table has those columns, else 1/(k-1) for k-fold cv.
    Random subsampling needs one of the first two.

    Returns one row per (dataset, seed, test): scheme, runs, folds, statistic, p, reject.
    """
    check_alpha(alpha)
    rows = []
    groups = fold_groups(folds, a, b, test_train_ratio=test_train_ratio, seed_col=seed_col, run_col=run_col,
                         fold_col=fold_col)
    for g in groups:
        d = g.differences
        runs, nfold = d.shape
        results = []
        if nfold >= 2:
            results.append(("paired t-test (cv folds)", cv_ttest(d)))
            results.append(("corrected repeated cv", corrected_repeated_cv_ttest(d, g.test_train_ratio)))
            if d.shape == (5, 2):
                results.append(("5x2cv (Dietterich)", dietterich_5x2cv_ttest(d)))
        else:
            results.append(("resampled t-test", cv_ttest(d.ravel())))
            if g.test_train_ratio is not None:
                results.append(("corrected resampled t-test", corrected_resampled_ttest(d.ravel(), g.test_train_ratio)))
        for name, res in results:
            rows.append(
                {
                    "dataset": g.dataset, "scheme": g.label, "seed": g.seed, "test": name, "runs": runs,
                    "folds": nfold, "mean_difference": res.mean_difference, "statistic": res.statistic,
                    "p": res.pvalue, "reject": bool(res.pvalue <= alpha),  # undefined (NaN) never rejects
                }
            )
    frame = pd.DataFrame(rows)
    frame.attrs.update(a=a, b=b, alpha=float(alpha), test_train_ratio=test_train_ratio, notes=tuple(groups.notes))
    return frame


def fold_replicability(results: pd.DataFrame) -> pd.DataFrame:
    """Per scheme and test: Bouckaert & Frank's consistent / almost consistent counts and R over data sets,
    using the seeds as the repetitions (needs at least 2 seeds per data set)."""
    rows = []
    for (scheme, test), group in results.groupby(["scheme", "test"], sort=False):
        per = group.groupby("dataset")["reject"].agg(["sum", "count"])
        if per["count"].min() < 2:
            continue
        if per["count"].nunique() != 1:
            raise InputError(f"{test} ({scheme}): data sets have different numbers of seeds; keep the same number.")
        res = replicability_counts(per["sum"].to_numpy(), int(per["count"].iloc[0]))
        rows.append(
            {
                "scheme": scheme, "test": test, "datasets": res.n_datasets, "repetitions": res.n_repetitions,
                "consistent": res.consistent, "almost_consistent": res.almost_consistent, "R": res.R,
                "rejection_rate": float(group["reject"].mean()),
            }
        )
    return pd.DataFrame(rows, columns=["scheme", "test", "datasets", "repetitions", "consistent",
                                       "almost_consistent", "R", "rejection_rate"])
