"""Bayesian comparison of two classifiers with a region of practical equivalence (ROPE).

Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for comparing multiple
classifiers through Bayesian analysis", JMLR 18(77); Benavoli et al. (2014), "A Bayesian Wilcoxon
signed-rank test based on the Dirichlet process", ICML; Corani & Benavoli (2015), "A Bayesian
approach for comparing cross-validated algorithms on multiple data sets", Machine Learning 100.

Conventions (every function):

* ``x`` and ``y`` are the two classifiers' scores; ``higher_is_better`` says which direction is
  better. The differences are oriented so that a positive difference favours ``x``:
  d = x - y for higher-is-better scores and d = y - x for lower-is-better ones. "x is practically
  better" means d > rope, "equivalent" means |d| <= rope and "y is practically better" d < -rope,
  whatever the sign convention of the scores.
* The ROPE is in the units of the scores (0.01 = one accuracy point for accuracies in [0, 1]).
* ``p_x``, ``p_rope``, ``p_y`` sum to 1. For the Dirichlet-process tests they are, as in the
  tutorial, the shares of posterior samples in which that region has the largest posterior mass,
  with their Monte Carlo standard errors; the correlated t-test is in closed form.

Prior strength: the tutorial's signed-rank test uses 0.6 (its published numbers need it), baycomp
uses 0.5; the default here is 0.6 so that the tutorial's examples reproduce with the defaults, and
``prior_strength=0.5`` gives baycomp's prior. The sign test's default is 1, as in the tutorial.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.core._table import ScoreTable, as_table
from compare_lib.core._result import Result
from compare_lib.core._validation import check_seed
from compare_lib.errors import InputError, arg
from compare_lib.limits import MAX_SEED

PRIOR_PLACES = ("rope", "x", "y")
#: Bounds of one call (each stated in its error message).
from compare_lib.limits import MAX_POSTERIOR_SAMPLES as MAX_SAMPLES  # noqa: E402
#: The signed-rank test costs O(samples x data sets) per pair (about 25 ns each for one pair, 1-2 ns
#: per pair when all pairs share the weights): one call does at most this many units (tens of seconds).
from compare_lib.limits import MAX_SIGNED_RANK_WORK  # noqa: E402
#: The sign test of all pairs draws samples x pairs Dirichlet vectors (about 150 ns each).
from compare_lib.limits import MAX_SIGN_POSTHOC_WORK  # noqa: E402
DECISIONS = ("better", "equivalent", "undecided")


@dataclass(frozen=True)
class BayesianResult(Result):
    """The posterior probabilities of the three regions and what produced them.

    ``samples`` (n x 3, columns x better / rope / y better) are the posterior masses of the regions
    in each Monte Carlo sample (None for the closed-form correlated t-test); ``mc_se`` the Monte Carlo
    standard errors of ``p_x``, ``p_rope``, ``p_y`` (zeros in closed form).
    """

    p_x: float
    p_rope: float
    p_y: float
    test: str
    rope: float
    prior_strength: float | None
    prior_place: str | None
    n_samples: int = field(metadata={"key": "samples"})
    seed: int | None
    higher_is_better: bool = field(metadata={"to_dict": False})
    n: int
    mc_se: tuple[float, float, float] = field(default=(0.0, 0.0, 0.0), metadata={"to_dict": False})
    samples: np.ndarray | None = field(default=None, repr=False, compare=False, metadata={"to_dict": False})
    posterior: dict | None = field(default=None, repr=False, compare=False, metadata={"to_dict": False})


def _differences(x, y, higher_is_better: bool) -> np.ndarray:
    a = np.asarray(x, dtype=float).ravel()
    b = np.asarray(y, dtype=float).ravel()
    if a.shape != b.shape:
        raise InputError(f"x and y have {a.size} and {b.size} scores; a paired comparison needs one each per data set.")
    if a.size < 1:
        raise InputError("No scores: a comparison needs at least one data set.")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InputError("The scores must be finite numbers.")
    return (a - b) if higher_is_better else (b - a)


def _check(rope, prior_strength, prior_place, samples) -> None:
    if not (isinstance(rope, (int, float, np.floating)) and math.isfinite(rope) and rope >= 0):
        raise InputError(f"{arg('rope', bare=True)} must be a number >= 0 in the units of the scores (e.g. 0.01), "
                         f"got {rope!r}.")
    if prior_strength is not None and not (math.isfinite(prior_strength) and prior_strength > 0):
        raise InputError(f"prior_strength must be a positive number, got {prior_strength!r}.")
    if prior_place is not None and prior_place not in PRIOR_PLACES:
        raise InputError(f"prior_place must be one of {', '.join(PRIOR_PLACES)}, got {prior_place!r}.")
    if samples is not None and (int(samples) != samples or not 100 <= samples <= MAX_SAMPLES):
        raise InputError(f"samples must be a whole number between 100 and {MAX_SAMPLES:,}, got {samples!r}.")


def signed_rank_max_samples(n_datasets: int, n_pairs: int = 1, work: int | None = None) -> int:
    """The most posterior samples the signed-rank test can draw for ``n_pairs`` pairs of ``n_datasets``
    data sets within ``work`` units of samples x data sets x pairs (a caller with a time budget, such
    as the dashboard, passes a smaller ``work``)."""
    work = MAX_SIGNED_RANK_WORK if work is None else work
    return int(min(MAX_SAMPLES, work // max(1, n_datasets * n_pairs)))


def _check_work(n: int, samples: int, pairs: int = 1) -> None:
    if int(samples) * n * pairs > MAX_SIGNED_RANK_WORK:
        most = signed_rank_max_samples(n, pairs)
        raise InputError(
            f"The signed-rank test on {n:,} data sets{f' x {pairs:,} pairs' if pairs > 1 else ''} with {int(samples):,} "
            f"samples is {int(samples) * n * pairs:,} units of work, above the limit of {MAX_SIGNED_RANK_WORK:,} "
            f"(samples x data sets x pairs); use at most {most:,} samples"
            + (" or fewer classifiers." if pairs > 1 else ", or the sign test (its cost does not grow with the data sets)."))


def _winners(theta: np.ndarray) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Share of samples in which each region has the largest mass, and the Monte Carlo errors."""
    counts = np.bincount(np.argmax(theta, axis=1), minlength=3)
    p = counts / theta.shape[0]
    se = np.sqrt(p * (1 - p) / theta.shape[0])
    return (float(p[0]), float(p[1]), float(p[2])), (float(se[0]), float(se[1]), float(se[2]))


def _gamma(rng: np.random.Generator, shape, size: tuple[int, ...]) -> np.ndarray:
    """Gamma draws of the given shapes (broadcast over ``size``), exactly 0 where the shape is 0 (a
    Dirichlet component without mass: the region has no observation and no prior)."""
    shape = np.broadcast_to(np.asarray(shape, dtype=float), size)
    positive = shape > 0
    draws = rng.gamma(np.where(positive, shape, 1.0))
    return np.where(positive, draws, 0.0)


# ---------------------------------------------------------------------------------------------
# Bayesian sign test


def bayesian_sign_test(x, y, rope: float = 0.0, prior_strength: float = 1.0, prior_place: str = "rope",
                       samples: int = 50_000, seed: int | None = None, *,
                       higher_is_better: bool = True) -> BayesianResult:
    """Bayesian sign test (Benavoli et al. 2017, §3.1): a Dirichlet process on the differences.

    With n_x differences above the ROPE, n_rope inside it (``|d| <= rope``) and n_y below, the posterior
    probabilities of the three regions are Dirichlet(n_x, n_rope, n_y) plus ``prior_strength`` in the
    region ``prior_place`` ("rope", "x" or "y"). ``p_x`` is the share of posterior samples in which
    x's region has the largest mass (likewise ``p_rope``, ``p_y``). Direction: see the module docstring.

    Tutorial (naive Bayes vs AODE, 54 data sets, rope 0.01): P(NBC) = 0, P(rope) = 0.71, P(AODE) = 0.29.
    """
    seed = check_seed(seed)
    _check(rope, prior_strength, prior_place, samples)
    d = _differences(x, y, higher_is_better)
    n_x, n_y = int((d > rope).sum()), int((d < -rope).sum())
    alpha = np.array([n_x, d.size - n_x - n_y, n_y], dtype=float)
    alpha[{"x": 0, "rope": 1, "y": 2}[prior_place]] += prior_strength
    rng = np.random.default_rng(seed)
    g = _gamma(rng, alpha, (int(samples), 3))
    theta = g / g.sum(axis=1, keepdims=True)
    p, se = _winners(theta)
    return BayesianResult(*p, "sign", float(rope), float(prior_strength), prior_place, int(samples), seed,
                          bool(higher_is_better), int(d.size), se, theta,
                          {"counts": (n_x, int(d.size) - n_x - n_y, n_y), "dirichlet": tuple(map(float, alpha))})


# ---------------------------------------------------------------------------------------------
# Bayesian signed-rank test


def _signed_rank_theta(d: np.ndarray, rope: float, w0: np.ndarray, wd: np.ndarray, prior_place: str) -> np.ndarray:
    """Posterior masses (S x 3) of x better / rope / y better for the Walsh averages of the differences.

    With pseudo-observation z0 (weight w0) and the differences d (weights wd, S x n, assigned to the
    sorted differences: the weights of the data are exchangeable), theta_x = sum_{i,j} w_i w_j
    [z_i + z_j > 2 rope] and theta_y = sum_{i,j} w_i w_j [z_i + z_j < -2 rope] over all ordered pairs
    including i = j (Benavoli et al. 2014). In sorted order each i's partners form a suffix (or a
    prefix), so each mass is sum_i w_i T[k_i] with T the suffix (prefix) sums of the weights: O(n) per
    sample instead of O(n^2). The reference implementation of :func:`_signed_rank_blocks`.
    """
    theta = _signed_rank_blocks(np.asarray(d, float)[:, None], rope, None, prior_place, None, None, np.float64,
                                weights=(w0, wd))
    return theta[0]


def _signed_rank_blocks(diffs: np.ndarray, rope: float, strength: float | None, prior_place: str, samples: int | None,
                        rng: np.random.Generator | None, dtype, *, weights=None, block: int | None = None,
                        keep: bool = True, progress: Callable[[float], None] | None = None):
    """The signed-rank posterior of every column of ``diffs`` (n x P pairs) from one set of Dirichlet
    weights per block of samples (the weights of the data sets are the same draw for every pair; each
    pair's estimate is a valid posterior sample). Arrays are laid out (n, samples) so that the gathers
    are contiguous rows; blocks of ``block`` samples stay in cache. Returns the masses (P, S, 3) when
    ``keep``, else the argmax counts (P, 3)."""
    n, pairs = diffs.shape
    if block is None:  # each (n, block) array within about 1M numbers: in cache, and no memory spike for large n
        block = int(min(4000, max(16, 1_000_000 // max(n, 1))))
    order = np.sort(diffs, axis=0)
    k_up = np.empty((n, pairs), dtype=np.intp)
    k_down = np.empty((n, pairs), dtype=np.intp)
    k0_up = np.empty(pairs, dtype=np.intp)
    k0_down = np.empty(pairs, dtype=np.intp)
    for h in range(pairs):
        col = order[:, h]
        k_up[:, h] = np.searchsorted(col, 2 * rope - col, side="right")  # partners with d_i + d_j > 2 rope
        k_down[:, h] = np.searchsorted(col, -2 * rope - col, side="left")  # partners with d_i + d_j < -2 rope
        k0_up[h] = np.searchsorted(col, 2 * rope, side="right")
        k0_down[h] = np.searchsorted(col, -2 * rope, side="left")
    if weights is not None:
        blocks = [(np.asarray(weights[0], dtype), np.asarray(weights[1], dtype).T)]
        total_samples = weights[1].shape[0]
    else:
        if samples is None or rng is None or strength is None:
            raise TypeError("without weights, give samples, rng and strength to draw them")
        blocks = None
        total_samples = int(samples)
    kept = np.empty((pairs, total_samples, 3), dtype=dtype) if keep else None
    counts = np.zeros((pairs, 3), dtype=np.int64)
    start = 0
    while start < total_samples:
        if blocks is not None:
            w0, wd = blocks[0]
        else:
            size = min(block, total_samples - start)
            assert rng is not None and strength is not None  # checked above when no weights are given
            g0 = rng.gamma(strength, size=size)
            gd = rng.standard_exponential(size=(n, size))
            norm = g0 + gd.sum(axis=0)
            w0, wd = (g0 / norm).astype(dtype), (gd / norm).astype(dtype)
        size = wd.shape[1]
        suffix = np.zeros((n + 1, size), dtype=dtype)
        suffix[:n] = np.cumsum(wd[::-1], axis=0)[::-1]
        prefix = np.zeros((n + 1, size), dtype=dtype)
        prefix[1:] = np.cumsum(wd, axis=0)
        for h in range(pairs):
            theta_x = np.einsum("ij,ij->j", wd, suffix[k_up[:, h]])
            theta_y = np.einsum("ij,ij->j", wd, prefix[k_down[:, h]])
            if prior_place == "rope":  # z0 = 0: z0 + d_j beyond the rope when d_j is; z0 + z0 = 0 is inside
                theta_x = theta_x + 2 * w0 * suffix[k0_up[h]]
                theta_y = theta_y + 2 * w0 * prefix[k0_down[h]]
            elif prior_place == "x":  # z0 = +inf: every sum with z0 favours x
                theta_x = theta_x + w0 * w0 + 2 * w0 * prefix[n]
            else:
                theta_y = theta_y + w0 * w0 + 2 * w0 * prefix[n]
            theta = np.column_stack([theta_x, np.clip(1 - theta_x - theta_y, 0, 1), theta_y])
            counts[h] += np.bincount(np.argmax(theta, axis=1), minlength=3)
            if kept is not None:  # keep
                kept[h, start : start + size] = theta
        start += size
        if progress is not None:
            progress(start / total_samples)
    return kept if keep else counts


def _dp_weights(rng: np.random.Generator, prior_strength: float, n: int, samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Dirichlet(prior_strength, 1, ..., 1) weights (S samples): the pseudo-observation's and the data's."""
    g0 = rng.gamma(prior_strength, size=samples)
    gd = rng.standard_exponential(size=(samples, n))  # Gamma(1)
    total = g0 + gd.sum(axis=1)
    return g0 / total, gd / total[:, None]


def bayesian_signed_rank(x, y, rope: float = 0.0, prior_strength: float = 0.6, prior_place: str = "rope",
                         samples: int = 50_000, seed: int | None = None, *,
                         higher_is_better: bool = True) -> BayesianResult:
    """Bayesian signed-rank test (Benavoli et al. 2014; 2017, §3.2): the Dirichlet-process posterior of
    the Walsh averages (d_i + d_j)/2 of the differences, with a pseudo-observation of strength
    ``prior_strength`` at 0 (``prior_place="rope"``), at +inf ("x") or at -inf ("y").

    Each posterior sample gives the masses of the three regions of the Walsh averages; ``p_x`` is the
    share of samples in which x's region is the largest. Vectorized (no loop over samples, O(n) per
    sample). Tutorial (naive Bayes vs AODE, 54 data sets, rope 0.01, prior 0.6): P(NBC) = 0,
    P(rope) = 0.12, P(AODE) = 0.88.
    """
    seed = check_seed(seed)
    _check(rope, prior_strength, prior_place, samples)
    d = _differences(x, y, higher_is_better)
    _check_work(d.size, samples)
    rng = np.random.default_rng(seed)
    theta = _signed_rank_blocks(d[:, None], float(rope), float(prior_strength), prior_place, int(samples), rng,
                                np.float64)[0]
    p, se = _winners(theta)
    return BayesianResult(*p, "signed-rank", float(rope), float(prior_strength), prior_place, int(samples), seed,
                          bool(higher_is_better), int(d.size), se, theta)


# ---------------------------------------------------------------------------------------------
# Bayesian correlated t-test (fold-level results on one data set)


def bayesian_correlated_ttest(x, y=None, rope: float = 0.0, test_ratio: float | None = None, *, folds: int | None = None,
                              higher_is_better: bool = True) -> BayesianResult:
    """Bayesian correlated t-test (Corani & Benavoli 2015) on the fold-level results of one data set.

    ``x`` and ``y`` are the two classifiers' scores on the same splits (any shape, e.g. runs x folds),
    or ``x`` alone a difference per split (then ``y`` is None and a positive value favours x). The
    posterior of the mean difference is a Student t with n - 1 df, location the mean difference and
    scale sqrt((1/n + n_test/n_train) var), the variance corrected for the overlap of the training sets
    (Nadeau & Bengio). ``test_ratio`` = n_test / n_train; with ``folds`` = k of k-fold cross-validation
    it is 1/(k - 1). Closed form, no sampling: ``samples`` is None.

    Tutorial (naive Bayes vs AODE on anneal, 10 x 10-fold cv, rope 0.01): P(AODE) = 0.9543,
    P(rope) = 0.0457, P(NBC) = 3.0e-07.
    """
    if test_ratio is None:
        if folds is None:
            raise InputError("Give test_ratio (n_test / n_train, e.g. 1/9 for 10-fold cv) or folds (k of k-fold cv).")
        if int(folds) != folds or folds < 2:
            raise InputError(f"folds must be a whole number >= 2, got {folds!r}.")
        test_ratio = 1.0 / (int(folds) - 1)
    if not (math.isfinite(test_ratio) and test_ratio > 0):
        raise InputError(f"test_ratio must be a positive number (n_test / n_train), got {test_ratio!r}.")
    _check(rope, None, None, None)
    if y is None:
        d = np.asarray(x, dtype=float).ravel()
        if not np.isfinite(d).all() or d.size < 2:
            raise InputError("The correlated t-test needs at least 2 finite differences.")
    else:
        d = _differences(x, y, higher_is_better)
        if d.size < 2:
            raise InputError("The correlated t-test needs at least 2 splits.")
    n = d.size
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    scale = math.sqrt((1.0 / n + test_ratio) * var)
    if scale <= 1e-12 * max(abs(mean), 1e-300):
        # No spread: the posterior is a point mass at the mean difference.
        p = (1.0 * (mean > rope), 1.0 * (abs(mean) <= rope), 1.0 * (mean < -rope))
    else:
        t = stats.t(n - 1, loc=mean, scale=scale)
        p_y, p_x = float(t.cdf(-rope)), float(t.sf(rope))
        p = (p_x, max(0.0, 1.0 - p_x - p_y), p_y)
    return BayesianResult(*p, "correlated t-test", float(rope), None, None, 0, None, bool(higher_is_better), n,
                          posterior={"df": n - 1, "loc": mean, "scale": scale, "test_ratio": float(test_ratio)})


def bayesian_fold_tests(folds: pd.DataFrame, a: str, b: str, rope: float = 0.0, *,
                        test_train_ratio: float | None = None, higher_is_better: bool = True,
                        seed_col: str | None = None, run_col: str | None = None,
                        fold_col: str | None = None) -> pd.DataFrame:
    """:func:`bayesian_correlated_ttest` of ``a`` versus ``b`` on every data set, scheme and repetition
    (seed) of a long fold-level table, the tables of the replicability page (see
    :func:`compare_lib.fold_groups` for the columns and where the test/train ratio comes from).

    One row per (dataset, scheme, seed): runs, folds, splits, test_ratio, mean_difference (positive
    favours a), scale of the posterior, ``p_a``, ``p_rope``, ``p_b``. Random subsampling without a
    ratio (no ``n_train``/``n_test`` columns, none given) cannot be corrected: its probabilities are
    NaN and ``note`` says so.
    """
    from compare_lib.stats._resampling import fold_groups

    _check(rope, None, None, None)
    rows = []
    groups = fold_groups(folds, a, b, test_train_ratio=test_train_ratio, seed_col=seed_col, run_col=run_col,
                         fold_col=fold_col)
    for g in groups:
        runs, nfold = g.differences.shape
        row = {"dataset": g.dataset, "scheme": g.label, "seed": g.seed, "runs": runs, "folds": nfold,
               "splits": runs * nfold, "test_ratio": g.test_train_ratio, "mean_difference": math.nan,
               "scale": math.nan, "p_a": math.nan, "p_rope": math.nan, "p_b": math.nan, "note": ""}
        d = g.differences.ravel() if higher_is_better else -g.differences.ravel()
        row["mean_difference"] = float(d.mean())
        if g.test_train_ratio is None:
            row["note"] = "random splits without n_train/n_test: give the test/train ratio"
        elif d.size < 2:
            row["note"] = "one split: no variance to estimate"
        else:
            res = bayesian_correlated_ttest(d, rope=rope, test_ratio=g.test_train_ratio)
            assert res.posterior is not None  # the correlated t-test always gives its posterior
            row.update(scale=res.posterior["scale"], p_a=res.p_x, p_rope=res.p_rope, p_b=res.p_y)
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.attrs.update(a=a, b=b, rope=float(rope), test_train_ratio=test_train_ratio,
                       higher_is_better=bool(higher_is_better), notes=tuple(groups.notes))
    return frame


# ---------------------------------------------------------------------------------------------
# ROPE, all pairs


def suggest_rope(table) -> tuple[float, str]:
    """A default ROPE in the units of the scores, with the reason.

    Accuracies, AUCs and error rates in [0, 1]: 0.01, one percentage point, the tutorial's choice.
    Scores in percent (0 to 100): 1. Anything else: 1% of the median absolute score. Always a choice
    to state in a report (the result records it). ``table`` is a score table, or any array or Series of
    scores (the fold-level scores of one experiment); missing cells are ignored.
    """
    if isinstance(table, ScoreTable):
        values = table.scores.to_numpy(dtype=float)
    elif isinstance(table, pd.DataFrame) and "score" in table.columns:  # fold-level rows
        values = table["score"].to_numpy(dtype=float)
    elif isinstance(table, pd.DataFrame):
        values = as_table(table, True).scores.to_numpy(dtype=float)
    else:
        values = np.asarray(table, dtype=float)
    values = np.abs(values[np.isfinite(values)])
    top = float(values.max()) if values.size else 0.0
    if top <= 1.0:
        return 0.01, "Scores in [0, 1] (accuracy, AUC, error): one percentage point, 0.01, as in the tutorial."
    if top <= 100.0:
        return 1.0, "Scores look like percentages (0 to 100): one percentage point, 1."
    rope = float(np.median(values)) * 0.01
    return rope, f"Scores on their own scale: 1% of the median absolute score, {rope:.4g}."


def rope_scale_warning(rope: float, scores, *, what: str = "these scores") -> str | None:
    """A warning when a ROPE is on another scale than ``scores`` (at least 10 times the ROPE
    :func:`suggest_rope` gives them, or a tenth of it): a ROPE of 1 percentage point written for accuracies in
    percent makes every pair of accuracies in [0, 1] "equivalent"; None when the scales agree."""
    suggested, _ = suggest_rope(scores)
    if rope <= 0 or suggested <= 0:
        return None
    ratio = rope / suggested
    if ratio >= 10 or ratio <= 0.1:
        return (f"The ROPE ±{rope:g} is {'larger' if ratio >= 10 else 'smaller'} than {what} suggest (±{suggested:g}, "
                f"one percentage point on their scale) by a factor of {max(ratio, 1 / ratio):.3g}: it is probably on "
                "another scale. Check it before reading P(equivalent).")
    return None


def bayesian_posthoc(table, rope: float | None = None, test: str = "signed-rank", decision: float = 0.95,
                     seed: int | None = 0, *, prior_strength: float | None = None, prior_place: str = "rope",
                     samples: int = 50_000, higher_is_better: bool | None = None,
                     progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """The Bayesian counterpart of :func:`compare_lib.posthoc`: every pair of classifiers.

    One row per pair (a, b): ``p_a`` (a practically better), ``p_rope``, ``p_b``, their Monte Carlo
    errors, and ``decision``: "a better" / "b better" / "equivalent" when that probability is at least
    ``decision``, else "undecided". ``test``: "signed-rank" (default) or "sign". ``rope`` defaults to
    :func:`suggest_rope`. The signed-rank test shares one set of posterior weights across pairs (the
    weights of the data sets are the same Dirichlet draw; each pair's estimate is a valid posterior
    sample), so 190 pairs of 100 data sets take about a second at 50,000 samples. ``attrs`` records the
    ROPE, prior, samples, seed and decision threshold for a report.
    """
    seed = check_seed(seed)
    t = as_table(table, higher_is_better)
    t.require_complete("The Bayesian analysis of all pairs")
    if test not in ("signed-rank", "sign"):
        raise InputError(f"{arg('bayesian.test', test)} is not known; choose 'signed-rank' or 'sign'.")
    if not (0.5 < decision < 1):
        raise InputError(f"decision must be a probability between 0.5 and 1 (e.g. 0.95), got {decision!r}.")
    reason = None
    if rope is None:
        rope, reason = suggest_rope(t)
    strength = (0.6 if test == "signed-rank" else 1.0) if prior_strength is None else float(prior_strength)
    _check(rope, strength, prior_place, samples)
    k = t.n_classifiers
    i, j = np.triu_indices(k, 1)
    if test == "signed-rank":
        _check_work(t.n_datasets, samples, i.size)
    elif i.size * int(samples) > MAX_SIGN_POSTHOC_WORK:
        raise InputError(f"The sign test on {i.size:,} pairs with {int(samples):,} samples each is above the limit of "
                         f"{MAX_SIGN_POSTHOC_WORK:,} pairs x samples; use at most {MAX_SIGN_POSTHOC_WORK // i.size:,} "
                         "samples, or fewer classifiers.")
    scores = t.oriented_scores
    diffs = scores[:, i] - scores[:, j]
    rng = np.random.default_rng(seed)
    p = np.zeros((i.size, 3))
    se = np.zeros((i.size, 3))
    if test == "signed-rank":
        # float32 halves the memory traffic; the Monte Carlo error (~0.002) dwarfs its rounding.
        counts = _signed_rank_blocks(diffs, float(rope), strength, prior_place, int(samples), rng, np.float32,
                                     keep=False, progress=progress)
        p = counts / int(samples)
        se = np.sqrt(p * (1 - p) / int(samples))
    else:
        n_x = (diffs > rope).sum(axis=0)
        n_y = (diffs < -rope).sum(axis=0)
        alpha = np.column_stack([n_x, t.n_datasets - n_x - n_y, n_y]).astype(float)
        alpha[:, {"x": 0, "rope": 1, "y": 2}[prior_place]] += strength
        for h in range(i.size):
            g = _gamma(rng, alpha[h], (int(samples), 3))
            p[h], se[h] = _winners(g / g.sum(axis=1, keepdims=True))
            if progress is not None and h % 10 == 9:
                progress((h + 1) / i.size)
    names = np.asarray(t.classifiers, dtype=object)
    verdict = np.where(p[:, 0] >= decision, "a better", np.where(p[:, 2] >= decision, "b better",
                                                                  np.where(p[:, 1] >= decision, "equivalent", "undecided")))
    frame = pd.DataFrame({"a": names[i], "b": names[j], "p_a": p[:, 0], "p_rope": p[:, 1], "p_b": p[:, 2],
                          "se_a": se[:, 0], "se_rope": se[:, 1], "se_b": se[:, 2], "decision": verdict})
    frame.attrs.update(test=test, rope=float(rope), rope_reason=reason, prior_strength=strength, prior_place=prior_place,
                       samples=int(samples), seed=seed, decision=float(decision), k=k, n=t.n_datasets,
                       higher_is_better=t.higher_is_better)
    if progress is not None:
        progress(1.0)
    return frame


#: Bounds of relevance_demo (each stated in its error message).
from compare_lib.limits import MAX_RELEVANCE_DEMO_N as MAX_DEMO_N  # noqa: E402


def relevance_demo(delta: float = 0.003, sd: float = 0.01, sizes=(10, 20, 50, 100, 200, 500, 1000),
                   rope: float = 0.01, seed: int = 0, samples: int = 10_000,
                   progress: Callable[[float], None] | None = None) -> pd.DataFrame:
    """Teaching demo, "significance is not relevance": classifier x beats y by a tiny true difference
    ``delta`` (well inside the ROPE) with noise ``sd`` on every data set. As the number of data sets
    grows, the Wilcoxon test becomes significant while the Bayesian signed-rank posterior concentrates
    inside the ROPE. The data sets are nested (the first n of one seeded draw), so each row adds data
    to the previous one. Returns per n: ``wilcoxon_p``, ``p_x``, ``p_rope``, ``p_y``, ``mean_difference``.
    """
    seed = check_seed(seed, allow_none=False)
    sizes = [int(n) for n in sizes]
    if not sizes or min(sizes) < 2 or max(sizes) > MAX_DEMO_N:
        raise InputError(f"sizes must be numbers of data sets between 2 and {MAX_DEMO_N:,}.")
    if not (math.isfinite(delta) and math.isfinite(sd) and sd > 0):
        raise InputError("delta must be a number and sd a positive number.")
    _check(rope, 0.6, "rope", samples)
    from compare_lib.stats._two_classifiers import wilcoxon

    rng = np.random.default_rng(seed)
    d = delta + sd * rng.standard_normal(max(sizes))
    rows = []
    for step, n in enumerate(sizes):
        part = d[:n]
        w = wilcoxon(np.zeros(n), part)  # y - x = d: positive favours the second argument
        b = bayesian_signed_rank(part, np.zeros(n), rope=rope, samples=samples, seed=(seed + step) % (MAX_SEED + 1))
        rows.append({"n": n, "mean_difference": float(part.mean()), "wilcoxon_p": w.pvalue, "p_x": b.p_x,
                     "p_rope": b.p_rope, "p_y": b.p_y})
        if progress is not None:
            progress((step + 1) / len(sizes))
    frame = pd.DataFrame(rows)
    frame.attrs.update(delta=delta, sd=sd, rope=rope, seed=seed, samples=samples)
    return frame
