"""Item-level results (issue 30): paired tests of two models per task, the task table, planning.

References
----------
McNemar, Q. (1947). Note on the sampling error of the difference between correlated proportions or
percentages. Psychometrika 12(2), 153-157.
Miller, E. (2024). Adding error bars to evals: a statistical approach to language model evaluations.
arXiv:2411.00640.
Dror, R., Baumer, G., Shlomov, S. & Reichart, R. (2018). The hitchhiker's guide to testing statistical
significance in natural language processing. ACL 2018, 1383-1392.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from compare_lib.multiple._adjust import DEFAULT_CORRECTION
from compare_lib.core._validation import check_alpha, check_choice, check_seed, listing
from compare_lib.errors import InputError, arg
from compare_lib.io._item_table import Items
from compare_lib.limits import ITEM_RESAMPLE_CHUNK, MAX_ITEM_REPS, MAX_ITEM_RESAMPLE_WORK

ITEM_TESTS = ("auto", "mcnemar", "t", "permutation", "bootstrap")




# -- pairing -------------------------------------------------------------------------------------------
def _check_items(items) -> Items:
    if not isinstance(items, Items):
        raise InputError(f"items must be the result of compare_lib.read_items, got {type(items).__name__}.")
    return items


def _wide(items: Items) -> pd.DataFrame:
    """Scores with one row per (task, item) and one column per model (NaN where a model lacks the item)."""
    memo = items.__dict__.setdefault("_wide_memo", {})
    if "wide" not in memo:
        memo["wide"] = items.frame.set_index(["task", "item", "model"])["score"].unstack("model").sort_index()
    return memo["wide"]


def _clusters(items: Items, wide: pd.DataFrame, cluster) -> np.ndarray | None:
    if cluster is None:
        return None
    if cluster is True:
        cluster = "cluster"
    if cluster not in items.frame.columns:
        raise InputError(f"{arg('cluster', cluster)}: the items have no such column (columns: "
                         f"{', '.join(items.frame.columns)}). Read the file with {arg('cluster_col')}.")
    per = items.frame.groupby(["task", "item"])[cluster]
    if (per.nunique() > 1).any():
        bad = per.nunique()
        t, i = bad[bad > 1].index[0]
        raise InputError(f"Item {i!r} of task {t!r} is in different clusters for different models; an item's "
                         "cluster must be the same for every model.")
    return per.first().reindex(wide.index).to_numpy()


def _check_model(items: Items, name, option: str) -> str:
    if name not in set(items.frame["model"]):
        raise InputError(f"{arg(option, name)} is not a model of the items; they are {listing(items.models)}.")
    return name


# -- the tests -----------------------------------------------------------------------------------------
def _binom_two_sided(k: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Exact two-sided binomial p at probability 1/2 (the distribution is symmetric: 2 P(X <= min))."""
    from scipy.stats import binom

    low = np.minimum(k, n - k)
    with np.errstate(invalid="ignore"):
        p = np.minimum(1.0, 2 * binom.cdf(low, n, 0.5))
    return np.where(n == 0, 1.0, p)


def _resample_means(d: np.ndarray, reps: int, rng, kind: str) -> np.ndarray:
    """Means of ``reps`` sign-flipped (permutation) or resampled (bootstrap) copies of ``d``, in chunks."""
    n = d.size
    out = np.empty(reps)
    chunk = max(1, ITEM_RESAMPLE_CHUNK // max(n, 1))
    for start in range(0, reps, chunk):
        m = min(chunk, reps - start)
        if kind == "permutation":
            signs = rng.integers(0, 2, size=(m, n), dtype=np.int8) * 2 - 1
            out[start:start + m] = signs @ d / n
        else:
            idx = rng.integers(0, n, size=(m, n))
            out[start:start + m] = d[idx].mean(axis=1)
    return out


def _exact_signflip(d: np.ndarray) -> np.ndarray:
    n = d.size
    bits = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1).astype(np.int8) * 2 - 1
    return bits @ d / n


def _compare(xa: np.ndarray, xb: np.ndarray, codes: np.ndarray, n_tasks: int, *, test: str, clusters, alpha: float,
             reps: int, rng, task_names) -> dict:
    """Per-task statistics of the paired differences d = a - b over the items both have (vectorised over tasks)."""
    from scipy import stats

    both = ~np.isnan(xa) & ~np.isnan(xb)
    only_a = np.bincount(codes[~np.isnan(xa) & np.isnan(xb)], minlength=n_tasks)
    only_b = np.bincount(codes[np.isnan(xa) & ~np.isnan(xb)], minlength=n_tasks)
    c, a, b = codes[both], xa[both], xb[both]
    d = a - b
    n = np.bincount(c, minlength=n_tasks).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_a = np.bincount(c, a, n_tasks) / n
        mean_b = np.bincount(c, b, n_tasks) / n
        diff = np.bincount(c, d, n_tasks) / n
        centred = d - diff[c]
        ss = np.bincount(c, centred ** 2, n_tasks)
        sd = np.sqrt(ss / (n - 1))
        se = sd / np.sqrt(n)
    p = np.full(n_tasks, np.nan)
    low = np.full(n_tasks, np.nan)
    high = np.full(n_tasks, np.nan)
    extra: dict = {}
    z = stats.norm.ppf(1 - alpha / 2)
    if test == "mcnemar":
        wins = np.bincount(c, (a > b).astype(float), n_tasks)   # a right, b wrong
        losses = np.bincount(c, (a < b).astype(float), n_tasks)
        p = _binom_two_sided(wins, wins + losses)
        with np.errstate(invalid="ignore", divide="ignore"):
            se = np.sqrt(np.maximum(wins + losses - (wins - losses) ** 2 / n, 0)) / n  # Wald se of paired proportions
        low, high = diff - z * se, diff + z * se
        extra = {"a_only_correct": wins.astype(int), "b_only_correct": losses.astype(int)}
    elif clusters is not None:
        cl = clusters[both]
        key = pd.factorize(pd.MultiIndex.from_arrays([c, cl]))[0]
        sums = np.bincount(key, centred)
        task_of = np.zeros(sums.size, dtype=int)
        task_of[key] = c
        n_clusters = np.bincount(task_of, minlength=n_tasks)
        with np.errstate(invalid="ignore", divide="ignore"):
            se = np.sqrt(np.bincount(task_of, sums ** 2, n_tasks)) / n
            df = n_clusters - 1.0
            t = stats.t.ppf(1 - alpha / 2, df)
            p = 2 * stats.t.sf(np.abs(diff / se), df)
        low, high = diff - t * se, diff + t * se
        extra = {"clusters": n_clusters}
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            t = stats.t.ppf(1 - alpha / 2, n - 1)
            p = 2 * stats.t.sf(np.abs(diff / se), n - 1)
        low, high = diff - t * se, diff + t * se
        if test in ("permutation", "bootstrap"):
            order = np.argsort(c, kind="stable")
            bounds = np.searchsorted(c[order], np.arange(n_tasks + 1))
            ds = d[order]
            for j in range(n_tasks):
                dj = ds[bounds[j]:bounds[j + 1]]
                if dj.size < 2:
                    continue
                if test == "permutation":
                    exact = 2 ** dj.size <= reps
                    null = _exact_signflip(dj) if exact else _resample_means(dj, reps, rng, "permutation")
                    obs = abs(dj.mean())
                    hits = np.count_nonzero(np.abs(null) >= obs * (1 - 1e-12) - 1e-15)
                    p[j] = hits / null.size if exact else (hits + 1) / (reps + 1)
                else:
                    boot = _resample_means(dj, reps, rng, "bootstrap")
                    low[j], high[j] = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
                    se[j] = boot.std(ddof=1)
                    below = np.count_nonzero(boot <= 0)
                    above = np.count_nonzero(boot >= 0)
                    p[j] = min(1.0, 2 * (min(below, above) + 1) / (reps + 1))
    constant = (ss == 0) & (n >= 2)  # every difference equal: no spread
    if test != "mcnemar" and constant.any():
        p = np.where(constant, np.where(diff == 0, 1.0, 0.0), p)
        low, high = np.where(constant, diff, low), np.where(constant, diff, high)
        se = np.where(constant, 0.0, se)
    few = (n > 0) & (n < (1 if test == "mcnemar" else 2))  # n = 0: no shared item, the task is left out
    if few.any():
        bad = [task_names[j] for j in np.flatnonzero(few)]
        need = "an item" if test == "mcnemar" else "2 items"
        raise InputError(f"The {test} test needs at least {need} both models have on each task; "
                         f"{listing(bad)} {'has' if len(bad) == 1 else 'have'} fewer "
                         f"(items per task: {', '.join(f'{task_names[j]}: {int(n[j])}' for j in np.flatnonzero(few)[:5])}). "
                         "Leave such tasks out or use more items.")
    return {"n": n.astype(int), "mean_a": mean_a, "mean_b": mean_b, "diff": diff, "se": se, "ci_low": low,
            "ci_high": high, "p": p, "left_out_a": only_a, "left_out_b": only_b, **extra}


def _setup(items, test, cluster, alpha, correction, reps, seed):
    from compare_lib.multiple._adjust import lookup_procedure

    items = _check_items(items)
    test = check_choice(test, ITEM_TESTS, "test")
    alpha = check_alpha(alpha)
    lookup_procedure(correction)
    seed = check_seed(seed)
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or not 100 <= int(reps) <= MAX_ITEM_REPS:
        raise InputError(f"{arg('reps', bare=True)} must be a whole number between 100 and {MAX_ITEM_REPS:,}, got {reps!r}.")
    if test == "auto":
        test = "mcnemar" if items.binary and cluster is None else "t"
    if test == "mcnemar" and not items.binary:
        raise InputError(f"McNemar's test needs scores of 0 or 1 (correct or not); these have other values. Use "
                         f"{arg('test', 't')}, 'permutation' or 'bootstrap'.")
    if cluster is not None and test != "t":
        raise InputError(f"Clustered standard errors are computed for the paired t test only: use "
                         f"{arg('test', 't')} (or 'auto') with {arg('cluster', bare=True)}.")
    return items, test, alpha, int(reps), np.random.default_rng(seed)


_DOC = """
    Tests (two-sided, on d = score_a - score_b over the items both models have):

    * ``"mcnemar"`` (McNemar 1947): the exact binomial test of the discordant pairs (items one model gets right
      and the other wrong), p = min(1, 2 P(X <= min(b, c))) with X ~ Binomial(b + c, 1/2); the interval is the
      Wald interval of the paired difference of proportions, se = sqrt(b + c - (b - c)^2 / n) / n.
    * ``"t"``: the paired t test, se = sd(d, ddof=1) / sqrt(n), t distribution with n - 1 degrees of freedom.
      With ``cluster`` (a column of the items, e.g. the passage; ``True`` for the column read as the cluster):
      the cluster-robust se of Miller (2024, clustered standard errors, applied to d), se^2 = (1/n^2) sum_c (sum_{i in c} (d_i - mean d))^2,
      with the t distribution on C - 1 degrees of freedom (C clusters). statsmodels' OLS ``cov_type="cluster"``
      gives the same se times sqrt(C / (C - 1)) (its small-sample correction).
    * ``"permutation"``: the paired sign-flip test of the mean difference (Dror et al. 2018): exact over all
      2^n sign vectors when 2^n <= reps, else ``reps`` random flips with p = (hits + 1) / (reps + 1);
      the interval is the paired t interval.
    * ``"bootstrap"``: the paired bootstrap (Dror et al. 2018) of the mean difference: the percentile interval of
      ``reps`` resampled means; se is their standard deviation; p = min(1, 2 (min(#{<= 0}, #{>= 0}) + 1) /
      (reps + 1)), the smallest level at which the percentile interval excludes 0.
    * ``"auto"``: McNemar when every score is 0 or 1 (and no cluster), else t.

    A task whose differences are all equal gets p = 1 (all zero) or 0 and a zero-width interval.
    ``p_adj`` adjusts the p-values of the family (the tasks; for :func:`item_comparison_all`, every pair on every
    task) with ``correction`` (:func:`compare_lib.adjust`); ``reject`` is ``p_adj <= alpha``. ``left_out_a`` /
    ``left_out_b``: items of the task only model a / only model b has (left out of the comparison); a task the
    two models share no item of is left out (``attrs["tasks_left_out"]`` names them).
    Random tests use ``numpy.random.default_rng(seed)``: the same seed gives the same result.
"""


def _check_work(test: str, rows: int, pairs: int, reps: int) -> None:
    work = rows * pairs * reps
    if test in ("permutation", "bootstrap") and work > MAX_ITEM_RESAMPLE_WORK:
        raise InputError(f"The {test} test of {pairs:,} pair(s) over {rows:,} items with {reps:,} replicates draws "
                         f"{work:,} values; one call draws at most {MAX_ITEM_RESAMPLE_WORK:,} "
                         f"(compare_lib.limits.MAX_ITEM_RESAMPLE_WORK). Lower {arg('reps', bare=True)}, compare fewer "
                         f"pairs, or use {arg('test', 't')}.")


def item_comparison(items, a: str, b: str, *, test: str = "auto", cluster=None, alpha: float = 0.05,
                    correction: str = DEFAULT_CORRECTION, reps: int = 10_000, seed: int | None = None) -> pd.DataFrame:
    """Paired comparison of models ``a`` and ``b`` on each task: one row per task with
    ``task, n, mean_a, mean_b, diff, se, ci_low, ci_high, p, p_adj, reject, left_out_a, left_out_b``.
    """
    from compare_lib.multiple._adjust import adjust

    items, test, alpha, reps, rng = _setup(items, test, cluster, alpha, correction, reps, seed)
    a, b = _check_model(items, a, "a"), _check_model(items, b, "b")
    if a == b:
        raise InputError(f"{arg('a', a)} and {arg('b', b)} are the same model; compare two different models.")
    wide = _wide(items)
    _check_work(test, len(wide), 1, reps)
    codes, names = pd.factorize(wide.index.get_level_values("task"), sort=True)
    clusters = _clusters(items, wide, cluster)
    res = _compare(wide[a].to_numpy(float), wide[b].to_numpy(float), codes, len(names), test=test, clusters=clusters,
                   alpha=alpha, reps=reps, rng=rng, task_names=list(names))
    out = pd.DataFrame({"task": list(names), **res})
    unshared = out.loc[(out["n"] == 0) & (out["left_out_a"] + out["left_out_b"] > 0), "task"].tolist()
    out = out[out["n"] > 0].reset_index(drop=True)
    if out.empty:
        raise InputError(f"Models {a!r} and {b!r} share no item on any task; a paired comparison needs the same items.")
    out.insert(list(out.columns).index("p") + 1, "p_adj", adjust(out["p"].to_numpy(), correction))
    out.insert(list(out.columns).index("p_adj") + 1, "reject", out["p_adj"] <= alpha)
    out.attrs.update(test=test, a=a, b=b, alpha=alpha, correction=correction, cluster=cluster,
                     left_out=int(out["left_out_a"].sum() + out["left_out_b"].sum()), tasks_left_out=unshared)
    return out


def item_comparison_all(items, *, test: str = "auto", cluster=None, alpha: float = 0.05, correction: str = DEFAULT_CORRECTION,
                        reps: int = 10_000, seed: int | None = None) -> pd.DataFrame:
    """Every pair of models on every task (the columns of :func:`item_comparison` with ``a`` and ``b``), with
    one family-wise adjustment across all pairs and tasks."""
    from compare_lib.multiple._adjust import adjust

    items, test, alpha, reps, rng = _setup(items, test, cluster, alpha, correction, reps, seed)
    wide = _wide(items)
    k = wide.shape[1]
    _check_work(test, len(wide), k * (k - 1) // 2, reps)
    codes, names = pd.factorize(wide.index.get_level_values("task"), sort=True)
    clusters = _clusters(items, wide, cluster)
    values = {m: wide[m].to_numpy(float) for m in wide.columns}
    parts = []
    for a, b in combinations(list(wide.columns), 2):
        res = _compare(values[a], values[b], codes, len(names), test=test, clusters=clusters, alpha=alpha, reps=reps,
                       rng=rng, task_names=list(names))
        part = pd.DataFrame({"a": a, "b": b, "task": list(names), **res})
        parts.append(part[part["n"] > 0])  # a pair with no shared item on a task: that task is left out for the pair
    if not parts:
        raise InputError("Comparing pairs needs at least two models; the items have one.")
    out = pd.concat(parts, ignore_index=True)
    out.insert(list(out.columns).index("p") + 1, "p_adj", adjust(out["p"].to_numpy(), correction))
    out.insert(list(out.columns).index("p_adj") + 1, "reject", out["p_adj"] <= alpha)
    out.attrs.update(test=test, alpha=alpha, correction=correction, cluster=cluster)
    return out


item_comparison.__doc__ = (item_comparison.__doc__ or "") + _DOC  # None under python -OO
item_comparison_all.__doc__ = (item_comparison_all.__doc__ or "") + _DOC


# -- planning ------------------------------------------------------------------------------------------
def _check_positive(value, name: str, *, upper: float | None = None) -> float:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) and np.isfinite(value) \
        and value > 0 and (upper is None or value < upper)
    if not ok:
        bound = f" and below {upper}" if upper is not None else ""
        raise InputError(f"{arg(name, bare=True)} must be a number above 0{bound}, got {value!r}.")
    return float(value)


def _t_power(n, effect, alpha):
    """Power of the two-sided one-sample (paired) t test, as statsmodels' TTestPower computes it."""
    from scipy import stats

    df = n - 1
    crit = stats.t.ppf(1 - alpha / 2, df)
    nc = effect * np.sqrt(n)
    lower = np.nan_to_num(stats.nct.cdf(-crit, df, nc), nan=0.0)  # scipy gives NaN where it underflows
    return stats.nct.sf(crit, df, nc) + lower


def _spread(d, sd, discordance) -> tuple[float, str]:
    if (sd is None) == (discordance is None):
        raise InputError(f"Give either {arg('sd', bare=True)} (the standard deviation of the per-item differences) or "
                         f"{arg('discordance', bare=True)} (the share of items exactly one model gets right).")
    if sd is not None:
        return _check_positive(sd, "sd"), "t"
    psi = _check_positive(discordance, "discordance", upper=1.0 + 1e-12)
    if abs(d) >= psi:
        raise InputError(f"A difference of {d} needs a discordance above it (the difference of two proportions is at "
                         f"most the share of discordant items); got {arg('discordance', discordance)}.")
    return psi, "mcnemar"


def items_needed(d: float, *, power: float = 0.8, alpha: float = 0.05, sd: float | None = None,
                 discordance: float | None = None) -> int:
    """The number of items a task needs to detect a mean paired difference ``d`` with ``power`` (two-sided).

    With ``sd`` (the standard deviation of the per-item differences): the smallest n at which the paired t test
    has the power (noncentral t, as statsmodels' ``TTestPower``). With ``discordance`` (psi, the share of items
    exactly one model gets right; binary scores): Connor's (1987) normal approximation for McNemar's test,
    n = (z_{1-alpha/2} sqrt(psi) + z_power sqrt(psi - d^2))^2 / d^2, rounded up.
    """
    from scipy import stats

    d = _check_positive(abs(d) if isinstance(d, (int, float, np.number)) and not isinstance(d, bool) else d, "d")
    power = _check_positive(power, "power", upper=1.0)
    alpha = check_alpha(alpha)
    spread, kind = _spread(d, sd, discordance)
    za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    if kind == "mcnemar":
        return int(np.ceil((za * np.sqrt(spread) + zb * np.sqrt(spread - d ** 2)) ** 2 / d ** 2))
    effect = d / spread
    n = max(2, int(np.floor(((za + zb) / effect) ** 2)))  # the normal approximation, then up to the t answer
    while _t_power(n, effect, alpha) < power:
        n += 1
    while n > 2 and _t_power(n - 1, effect, alpha) >= power:
        n -= 1
    return n


def items_detectable(n: int, *, power: float = 0.8, alpha: float = 0.05, sd: float | None = None,
                     discordance: float | None = None) -> float:
    """The smallest mean paired difference ``n`` items detect with ``power`` (two-sided): the inverse of
    :func:`items_needed` (noncentral t with ``sd``; Connor's McNemar approximation with ``discordance``)."""
    from scipy import optimize, stats

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise InputError(f"{arg('n', bare=True)} must be a whole number of items, at least 2, got {n!r}.")
    power = _check_positive(power, "power", upper=1.0)
    alpha = check_alpha(alpha)
    if sd is not None and discordance is None:
        sd = _check_positive(sd, "sd")
        za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
        hi = (za + zb) / np.sqrt(n)
        while _t_power(n, hi, alpha) < power:
            hi *= 1.5
        return float(optimize.brentq(lambda e: _t_power(n, e, alpha) - power, 1e-9, hi) * sd)
    if discordance is None or sd is not None:
        _spread(1.0, sd, discordance)  # the message
    psi = _check_positive(discordance, "discordance", upper=1.0 + 1e-12)
    za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    f = lambda d: (za * np.sqrt(psi) + zb * np.sqrt(psi - d ** 2)) ** 2 / d ** 2 - n  # noqa: E731
    if f(psi * (1 - 1e-9)) > 0:
        return float("nan")  # not even the largest possible difference
    return float(optimize.brentq(f, 1e-9, psi * (1 - 1e-9)))


def _item_corrections() -> tuple[str, ...]:
    """The p-value adjustments that make sense for a family of tasks (or pairs x tasks): those the registry defines
    for both families (all pairs and versus a control) and the single-step one of all pairs, i.e. those that take
    any family of p-values (Shaffer's and Bergmann-Hommel's use the logic of all-pairs comparisons of one data set;
    Rom's and Li's are for comparisons with a control; Nemenyi's needs mean ranks). The default first, the
    uncorrected choice last."""
    from compare_lib.multiple._adjust import PROCEDURES

    names = [n for n, p in PROCEDURES.items() if not p.mean_ranks_only and (
        {"all-pairs", "control"} <= set(p.families) or (p.kind == "single-step" and "all-pairs" in p.families))]
    names.sort(key=lambda n: (n != DEFAULT_CORRECTION, not PROCEDURES[n].corrects))
    return tuple(names)


ITEM_CORRECTIONS = _item_corrections()


def item_plan(items, a: str, b: str, d: float, *, power: float = 0.8, alpha: float = 0.05,
              test: str = "auto") -> pd.DataFrame:
    """Planning numbers of each task for models ``a`` and ``b``, from the spread observed on the items both have:
    one row per task with ``task, n, spread, sd, discordance, items_needed, detectable, note``.

    With McNemar (binary scores, ``test="auto"`` or ``"mcnemar"``) the spread is the observed discordance psi (the
    share of items exactly one of the two models gets right) and the numbers are Connor's (1987) approximation
    (:func:`items_needed` / :func:`items_detectable` with ``discordance``); otherwise the standard deviation of the
    per-item differences (ddof = 1) and the paired t test's noncentral t (``sd``). ``items_needed``: the items a
    task needs to detect a mean difference ``d`` with ``power``; ``detectable``: the smallest difference the
    task's current ``n`` detects. A task whose spread is 0 (the models agree on every item) or whose discordance
    does not exceed ``d`` gets NaN with the reason in ``note``.
    """
    items = _check_items(items)
    test = check_choice(test, ITEM_TESTS, "test")
    alpha = check_alpha(alpha)
    d = _check_positive(abs(d) if isinstance(d, (int, float, np.number)) and not isinstance(d, bool) else d, "d")
    power = _check_positive(power, "power", upper=1.0)
    a, b = _check_model(items, a, "a"), _check_model(items, b, "b")
    if a == b:
        raise InputError(f"{arg('a', a)} and {arg('b', b)} are the same model; compare two different models.")
    mcnemar = test == "mcnemar" or (test == "auto" and items.binary)
    if test == "mcnemar" and not items.binary:
        raise InputError("McNemar's planning needs scores of 0 or 1 (correct or not); use "
                         f"{arg('test', 't')}.")
    wide = _wide(items)
    codes, names = pd.factorize(wide.index.get_level_values("task"), sort=True)
    xa, xb = wide[a].to_numpy(float), wide[b].to_numpy(float)
    both = ~np.isnan(xa) & ~np.isnan(xb)
    c, diff = codes[both], xa[both] - xb[both]
    k = len(names)
    n = np.bincount(c, minlength=k).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(c, diff, k) / n
        sd = np.sqrt(np.bincount(c, (diff - mean[c]) ** 2, k) / (n - 1))
        psi = np.bincount(c, (diff != 0).astype(float), k) / n
    rows = []
    for j, task in enumerate(names):
        if n[j] == 0:
            continue  # no shared item: the task is left out, as in item_comparison
        spread = {"discordance": float(psi[j])} if mcnemar else {"sd": float(sd[j])}
        needed, detectable, note = np.nan, np.nan, ""
        try:
            needed = items_needed(d, power=power, alpha=alpha, **spread)
        except InputError as err:
            note = str(err)
        if n[j] >= 2:
            try:
                detectable = items_detectable(int(n[j]), power=power, alpha=alpha, **spread)
            except InputError as err:
                note = note or str(err)
        else:
            note = note or "one item: no detectable difference."
        if mcnemar and np.isnan(detectable) and not note:
            note = "even the largest difference the discordance allows is not detected with this many items."
        rows.append({"task": task, "n": int(n[j]), "spread": "discordance" if mcnemar else "sd",
                     "sd": float(sd[j]) if not mcnemar else np.nan, "discordance": float(psi[j]) if mcnemar else np.nan,
                     "items_needed": needed, "detectable": detectable, "note": note})
    if not rows:
        raise InputError(f"Models {a!r} and {b!r} share no item on any task; planning needs the items both have.")
    out = pd.DataFrame(rows)
    out.attrs.update(a=a, b=b, d=d, power=power, alpha=alpha, test="mcnemar" if mcnemar else "t")
    return out
