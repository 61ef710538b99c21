"""Planning a comparison: power by simulation, the data sets needed, the smallest detectable difference.

:func:`plan` simulates ``reps`` studies of ``n_datasets`` data sets and runs on each the analysis the
study would run (:func:`compare_lib.posthoc` with the chosen pairwise test and family-wise procedure,
all pairs; or the Bayesian signed-rank test of Benavoli et al. 2014/2017), counting how often it finds
what it looks for. Two sources of simulated studies:

* **your own table** (``table_or_effects`` a score table): its data sets (rows) are resampled with
  replacement to ``n_datasets`` rows (the nonparametric bootstrap of the population of data sets the
  table stands for), and ``difference``, in the units of the scores and in the direction of "better"
  (added for higher-is-better scores, subtracted for lower-is-better ones), is added to ``classifier``.
  ``baseline="table"`` keeps the differences the table already shows (power at ``difference=0`` is the
  chance that a new study of that size finds them again); ``baseline="exchangeable"`` shuffles the
  classifiers' scores within each resampled data set first, which removes every difference between
  them and keeps the spread of scores within and between data sets, so that ``difference`` is the
  whole effect;
* **stated effects** (``table_or_effects`` None, a list or a mapping of mean scores): scores are
  mean + ``spread`` x N(0, 1), independently on every data set, for ``k`` classifiers.

Power is estimated by the share of the ``reps`` simulated studies in which:

* with ``against`` named: the pair (``classifier``, ``against``) is rejected (either direction);
* without ``against``: at least one pair of ``classifier`` with another classifier is rejected
  ("classifier is found different from at least one other");
* for ``test="bayesian-signed-rank"``: the posterior probability that ``classifier`` is practically
  better than ``against`` (by more than ``rope``) is at least ``decision``.

``power_better`` counts only the rejections that name ``classifier`` the better one. The Monte Carlo
standard error is sqrt(p (1 - p) / reps). Simulations are seeded (the same seed gives the same numbers;
every point of a curve uses ``seed``, so the curve's points are the plans of each size alone, and
close sizes share their randomness), bounded (:data:`MAX_PLAN_REPS`, :data:`MAX_PLAN_DATASETS`,
:data:`MAX_PLAN_WORK`, :data:`MAX_PLAN_BAYES_WORK`; each refusal states its limit) and report progress
through ``progress(fraction)``.

Speed: the Wilcoxon, sign and mean-ranks statistics are computed for all studies at once (the library's
vectorized kernels, bit-identical to posthoc's); the other statistics build each study's table. The
family-wise procedure is applied study by study, exactly as posthoc applies it. 1,000 studies of 5
classifiers on 30 data sets take about 0.05 s from stated effects and about 1.3 s resampled from a table
with Wilcoxon (resampled rows repeat, so every study has its own tie pattern and its own exact null
distribution); see bench/rank_sets.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from compare_lib.multiple._adjust import DEFAULT_CORRECTION, lookup_procedure
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST, lookup_test, mean_ranks_z, sign_pairs, test_names, wilcoxon_pairs
from compare_lib.analyses._posthoc import _adjusted, _Family
from compare_lib.core._result import Result
from compare_lib.core._table import ScoreTable, as_table
from compare_lib.stats._two_classifiers import EXACT_WILCOXON_MAX_N, sign_test_rows, wilcoxon_rows
from compare_lib.core._validation import check_alpha, check_choice, check_seed
from compare_lib.errors import InputError, arg
from compare_lib.limits import EXACT_WILCOXON_WORK
from compare_lib.ranks import average_ranks

#: Most simulated studies per point of a plan.
MAX_PLAN_REPS = 100_000
#: Most data sets of one simulated study.
MAX_PLAN_DATASETS = 10_000
#: Most units of work of one call: simulated studies x pairs tested x data sets, over every point evaluated.
MAX_PLAN_WORK = 200_000_000
#: Most units of work of one call with the Bayesian test: studies x posterior samples x data sets (seconds).
MAX_PLAN_BAYES_WORK = 4_000_000_000
#: Most classifiers of stated effects.
MAX_PLAN_CLASSIFIERS = 100
#: The Bayesian test of the plan (a name beside the post-hoc statistics).
BAYESIAN_TEST = "bayesian-signed-rank"
BASELINES = ("table", "exchangeable")
#: Simulated cells held in memory at once.
_CHUNK_CELLS = 2_000_000


@dataclass(frozen=True)
class PlanResult(Result):
    """What :func:`plan`, :func:`datasets_for_power` and :func:`detectable_difference` return.

    ``question``: "power", "datasets" or "difference". ``power``, ``mc_se`` (its Monte Carlo standard
    error) and ``power_better`` (the rejections naming ``classifier`` the better) are floats, or tuples
    aligned with ``n_datasets`` when :func:`plan` was given several sizes. ``equivalent``: for the Bayesian
    test, the share of studies declaring the pair practically equivalent. ``target_power`` and ``reached``:
    the inverse questions' target and whether it was reached within the search (``n_datasets`` or
    ``difference`` is then the answer; None when not reached). ``curve``: one row per point evaluated
    (columns ``n_datasets``, ``difference``, ``power``, ``mc_se``, ``power_better``, ``rejections``, and
    ``equivalent`` for the Bayesian test), what :meth:`to_frame` returns.
    """

    question: str
    power: Any
    mc_se: Any
    power_better: Any
    n_datasets: Any
    difference: Any
    classifier: str
    against: str | None
    test: str
    correction: str | None
    alpha: float | None
    reps: int
    seed: int | None
    source: str
    k: int
    baseline: str | None = None
    spread: float | None = None
    rope: float | None = None
    decision: float | None = None
    equivalent: Any = None
    target_power: float | None = None
    reached: bool | None = None
    curve: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    notes: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """The evaluated points (the power curve), with the settings in ``attrs``."""
        frame = self.curve.copy() if self.curve is not None else pd.DataFrame([self.to_dict()])
        frame.attrs.update({key: value for key, value in self.to_dict().items()
                            if key not in ("power", "mc_se", "power_better", "equivalent")})
        return frame


# ---------------------------------------------------------------------------------------------
# the design: where the simulated studies come from


@dataclass(frozen=True)
class _Design:
    names: list[str]
    source: str  # "table" or "effects"
    scores: np.ndarray | None  # table: oriented (higher = better) N0 x k
    means: np.ndarray | None  # effects: mean score per classifier
    spread: float | None
    baseline: str | None
    c: int
    other: int | None  # the index of `against`
    rope: float | None = None
    notes: tuple[str, ...] = ()

    @property
    def k(self) -> int:
        return len(self.names)

    def table_scores(self) -> np.ndarray:
        """The table's oriented scores, for a design made from a table."""
        if self.scores is None:
            raise TypeError("a design of stated effects has no table")
        return self.scores

    def effects(self) -> tuple[np.ndarray, float]:
        """The stated mean scores and their spread, for a design of stated effects."""
        if self.means is None or self.spread is None:
            raise TypeError("a design made from a table has no stated effects")
        return self.means, self.spread


def _is_table(obj) -> bool:
    if isinstance(obj, (ScoreTable, pd.DataFrame)):
        return True
    if obj is None or isinstance(obj, (dict, pd.Series)):
        return False
    return np.ndim(obj) == 2


def _design(table_or_effects, *, classifier, against, k, spread, baseline, higher_is_better, test, rope) -> _Design:
    notes: list[str] = []
    check_choice(baseline, BASELINES, "baseline")
    if _is_table(table_or_effects):
        if k is not None:
            raise InputError("k is the number of classifiers of stated effects; a table has its own classifiers.")
        if spread is not None:
            raise InputError("spread is the noise of stated effects; resampling a table keeps the table's own spread.")
        t = as_table(table_or_effects, higher_is_better)
        t.require_complete("Planning by resampling the data sets")
        names, scores, means, source = t.classifiers, np.array(t.oriented_scores, dtype=float), None, "table"
        if baseline == "table":
            notes.append("The simulated studies keep the differences the table shows: power at difference 0 is the "
                         "chance of finding them again, not a false-positive rate (the 'exchangeable' baseline removes them).")
        if test == BAYESIAN_TEST and rope is None:
            from compare_lib.stats._bayesian import suggest_rope

            rope, reason = suggest_rope(t)
            notes.append(f"ROPE: {reason}")
    else:
        if higher_is_better is not None:
            raise InputError("higher_is_better describes a table; stated effects are mean scores where higher is better.")
        if table_or_effects is None:
            k = 2 if k is None else k
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= MAX_PLAN_CLASSIFIERS:
                raise InputError(f"k must be a whole number of classifiers between 2 and {MAX_PLAN_CLASSIFIERS}, got {k!r}.")
            names, means = [f"C{j + 1}" for j in range(int(k))], np.zeros(int(k))
        else:
            effects = pd.Series(table_or_effects) if not isinstance(table_or_effects, pd.Series) else table_or_effects
            if not isinstance(table_or_effects, (dict, pd.Series)):
                effects.index = [f"C{j + 1}" for j in range(len(effects))]
            try:
                means = effects.to_numpy(dtype=float)
            except (TypeError, ValueError):
                raise InputError("Stated effects must be numbers: one mean score per classifier.") from None
            names = [str(x) for x in effects.index]
            if not 2 <= means.size <= MAX_PLAN_CLASSIFIERS or not np.isfinite(means).all():
                raise InputError(f"Give between 2 and {MAX_PLAN_CLASSIFIERS} finite mean scores, one per classifier.")
            if len(set(names)) != len(names):
                raise InputError("The classifiers of the stated effects need distinct names.")
            if k is not None and k != means.size:
                raise InputError(f"k = {k!r} but {means.size} effects were given; leave k out.")
        spread = 1.0 if spread is None else spread
        if isinstance(spread, bool) or not isinstance(spread, (int, float, np.floating)) or not (
                math.isfinite(spread) and spread > 0):
            raise InputError(f"spread (the standard deviation of a score around its mean) must be a positive number, "
                             f"got {spread!r}.")
        scores, source, baseline, spread = None, "effects", None, float(spread)
        if test == BAYESIAN_TEST and rope is None:
            raise InputError("The Bayesian test needs a region of practical equivalence in the units of the scores: "
                             f"pass {arg('plan.rope')} (e.g. {arg('plan.rope', 0.01)} for accuracies in [0, 1]).")
    c = _index(names, names[0] if classifier is None else classifier, "classifier")
    other = None if against is None else _index(names, against, "against")
    if other == c:
        raise InputError(f"classifier and against are both {names[c]!r}; name two different classifiers.")
    if test == BAYESIAN_TEST and other is None:
        if len(names) != 2:
            raise InputError(f"The Bayesian signed-rank test compares two classifiers: name the second one with "
                             f"{arg('against')}.")
        other = 1 - c
    return _Design(names, source, scores, means, spread, baseline, c, other, rope, tuple(notes))


def _index(names: list[str], name, what: str) -> int:
    if name not in names:
        shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
        raise InputError(f"{arg(what, name)} is not among the classifiers ({shown}); pick one of them.")
    return names.index(name)


def _simulate(design: _Design, n: int, difference: float, reps: int, rng: np.random.Generator) -> np.ndarray:
    """``reps`` simulated studies of ``n`` data sets: (reps, n, k) scores oriented so that higher is better."""
    if design.source == "table":
        scores = design.table_scores()
        rows = rng.integers(0, scores.shape[0], size=(reps, n))
        x = scores[rows]
        if design.baseline == "exchangeable":
            x = rng.permuted(x, axis=2)
    else:
        means, spread = design.effects()
        x = means + spread * rng.standard_normal((reps, n, design.k))
    x[:, :, design.c] += difference
    return x


# ---------------------------------------------------------------------------------------------
# the analysis of every simulated study


def _pairwise(x: np.ndarray, pairs: np.ndarray, test: str, names: list[str]):
    """Statistic, p-value and better classifier (index, -1 if tied) of every pair in every study: (R, m) each,
    bit-identical to what the post-hoc kernel gives on the study's table (vectorized for the Wilcoxon, sign and
    mean-ranks statistics, one table at a time for the others), and which studies leave the statistic undefined
    (R,): their p-values are 1 (no rejection)."""
    reps, n, k = x.shape
    m = pairs.shape[0]
    a, b = pairs[:, 0], pairs[:, 1]
    kernel = lookup_test(test).compute  # the registry entries whose kernels have a vectorized form over studies
    if kernel is wilcoxon_pairs or kernel is sign_pairs:
        d = (x[:, :, b] - x[:, :, a]).transpose(0, 2, 1).reshape(reps * m, n)  # > 0 where b is better
        aa, bb = np.tile(a, reps), np.tile(b, reps)
        if kernel is wilcoxon_pairs:
            r = wilcoxon_rows(d)
            better = np.where(r["r_plus"] > r["r_minus"], bb, np.where(r["r_minus"] > r["r_plus"], aa, -1))
        else:
            r = sign_test_rows(-d)  # wins of a, ties split
            better = np.where(r["wins"] > r["losses"], aa, np.where(r["losses"] > r["wins"], bb, -1))
        return r["statistic"].reshape(reps, m), r["p"].reshape(reps, m), better.reshape(reps, m), np.zeros(reps, bool)
    if kernel is mean_ranks_z:
        from compare_lib.stats._critical import rank_standard_error

        ranks = average_ranks(-x.reshape(reps * n, k)).reshape(reps, n, k)
        doubled = np.rint(2 * ranks).astype(np.int64).sum(axis=1)
        diff = doubled[:, b] - doubled[:, a]  # > 0 when a has the smaller (better) rank sum
        z = diff / (2 * n * rank_standard_error(k, n))
        better = np.where(diff > 0, a, np.where(diff < 0, b, -1))
        return z, np.minimum(1.0, 2 * stats.norm.sf(np.abs(z))), better, np.zeros(reps, bool)
    spec = lookup_test(test)
    stat, p, better = np.zeros((reps, m)), np.ones((reps, m)), np.full((reps, m), -1, dtype=np.int64)
    undefined = np.zeros(reps, dtype=bool)
    for study in range(reps):
        t = ScoreTable(pd.DataFrame(x[study], columns=names), True)
        try:
            out = spec.run(t, pairs)
        except InputError:  # undefined on this study (e.g. Conover's t when every data set ranks alike)
            undefined[study] = True
            continue
        stat[study], p[study], better[study] = out.statistic, out.pvalue, out.better
    return stat, p, better, undefined


def _decide(x: np.ndarray, pairs: np.ndarray, test: str, correction: str, alpha: float, names: list[str]):
    """Rejections (R, m) and better classifiers (R, m) of :func:`compare_lib.posthoc` on every simulated study:
    the study's pairwise statistics, then the procedure's adjusted p-values exactly as posthoc computes them;
    and the studies (R,) on which the statistic is undefined (posthoc refuses them; here nothing is rejected)."""
    spec = lookup_test(test)
    stat, p, better, undefined = _pairwise(x, pairs, test, names)
    k = x.shape[2]
    reject = np.zeros(p.shape, dtype=bool)
    exact = np.ones(pairs.shape[0], dtype=bool)
    for r in np.flatnonzero(~undefined):
        fam = _Family("all-pairs", k, pairs, stat[r], p[r], better[r], exact)
        reject[r] = _adjusted(fam, correction, spec) <= alpha
    return reject, better, undefined


def _bayes_decisions(x: np.ndarray, design: _Design, samples: int, decision: float, rng) -> np.ndarray:
    """(R, 3) booleans: the Bayesian signed-rank test declares classifier better / equivalent / worse, for
    each study. The studies of one call share the Dirichlet weights of the posterior (each study's estimate
    is a valid posterior sample, as in :func:`compare_lib.bayesian_posthoc`)."""
    from compare_lib.stats._bayesian import _signed_rank_blocks

    if design.rope is None:
        raise TypeError("a Bayesian plan has a rope (given, or suggested from the table)")
    diffs = (x[:, :, design.c] - x[:, :, design.other]).T  # n x R, > 0 where classifier is better
    counts = _signed_rank_blocks(diffs, float(design.rope), 0.6, "rope", samples, rng, np.float64, keep=False)
    return counts / samples >= decision


def _chunk(reps: int, n: int, k: int, m: int, test: str) -> int:
    """Studies simulated and analysed at once: within the memory chunk, and for Wilcoxon within the work budget
    of its exact distributions (so that every study gets the exact p-values it gets from posthoc)."""
    size = _CHUNK_CELLS // max(1, n * max(k, m))
    if lookup_test(test).compute is wilcoxon_pairs and n <= EXACT_WILCOXON_MAX_N:
        size = min(size, EXACT_WILCOXON_WORK // max(1, m * n * n * (n + 1)))
    return int(max(1, min(reps, size)))


def _power_point(design: _Design, n: int, difference: float, *, test: str, correction: str | None, alpha: float | None,
                 reps: int, seed, samples: int, decision: float, progress=None) -> dict:
    """One point of a plan: the counts of ``reps`` simulated studies of ``n`` data sets."""
    rng = np.random.default_rng(seed)
    k = design.k
    if test == BAYESIAN_TEST:
        from compare_lib.stats._bayesian import MAX_SIGNED_RANK_WORK, _check_work

        step = max(1, min(reps, _CHUNK_CELLS // max(1, n * k), 5_000, MAX_SIGNED_RANK_WORK // (n * samples)))
        _check_work(n, samples, step)
    else:
        i, j = np.triu_indices(k, 1)
        pairs = np.column_stack([i, j]).astype(np.int64)
        step = _chunk(reps, n, k, pairs.shape[0], test)
        mine = (pairs == design.c).any(axis=1) if design.other is None else (
            ((pairs[:, 0] == design.c) & (pairs[:, 1] == design.other))
            | ((pairs[:, 1] == design.c) & (pairs[:, 0] == design.other)))
    hits = better_hits = equivalent = undefined = 0
    done = 0
    while done < reps:
        size = min(step, reps - done)
        x = _simulate(design, n, difference, size, rng)
        if test == BAYESIAN_TEST:
            declared = _bayes_decisions(x, design, samples, decision, rng)
            hits += int(declared[:, 0].sum())
            better_hits += int(declared[:, 0].sum())
            equivalent += int(declared[:, 1].sum())
        else:
            assert correction is not None and alpha is not None  # None only for the Bayesian test
            reject, better, missing = _decide(x, pairs, test, correction, alpha, design.names)
            undefined += int(missing.sum())
            hits += int(reject[:, mine].any(axis=1).sum())
            better_hits += int((reject & (better == design.c))[:, mine].any(axis=1).sum())
        done += size
        if progress is not None:
            progress(done / reps)
    power = hits / reps
    row = {"n_datasets": int(n), "difference": float(difference), "power": power,
           "mc_se": math.sqrt(power * (1 - power) / reps), "power_better": better_hits / reps, "rejections": hits}
    if test == BAYESIAN_TEST:
        row["equivalent"] = equivalent / reps
    row["undefined"] = undefined
    return row


# ---------------------------------------------------------------------------------------------
# checks shared by the three questions


def _whole(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise InputError(f"{what} must be a whole number between {low:,} and {high:,}, got {value!r}.")
    return int(value)


def _sizes(n_datasets, design: _Design) -> list[int]:
    if n_datasets is None:
        if design.source == "effects":
            raise InputError(f"Say how many data sets the planned study has: {arg('n_datasets', 30)} (or a list of "
                             "sizes for a power curve).")
        n_datasets = design.table_scores().shape[0]
    values = [n_datasets] if np.ndim(n_datasets) == 0 else list(n_datasets)
    if not values:
        raise InputError("n_datasets is an empty list; give at least one number of data sets.")
    return [_whole(v, "n_datasets (data sets of a simulated study)", 2, MAX_PLAN_DATASETS) for v in values]


def _finite(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value):
        raise InputError(f"{what} must be a finite number, got {value!r}.")
    return float(value)


@dataclass(frozen=True)
class _Settings:
    design: _Design
    test: str
    correction: str | None
    alpha: float | None
    reps: int
    seed: Any
    samples: int
    decision: float


def _settings(table_or_effects, *, classifier, against, test, correction, alpha, reps, seed, spread, k, rope,
              decision, samples, baseline, higher_is_better) -> _Settings:
    seed = check_seed(seed)  # every public function of this module passes its arguments here first
    if test != BAYESIAN_TEST:
        try:
            spec = lookup_test(test)
        except InputError:
            raise InputError(f"{arg('plan.test', test)} is not known; choose one of the post-hoc statistics "
                             f"({', '.join(test_names())}) or '{BAYESIAN_TEST}'.") from None
        lookup_procedure(correction, "all-pairs")
        alpha = check_alpha(alpha)
        if rope is not None:
            raise InputError(f"rope is the region of practical equivalence of the Bayesian test; pass "
                             f"{arg('plan.test', BAYESIAN_TEST)} to use it.")
        test = spec.name
    else:
        from compare_lib.stats._bayesian import _check

        correction, alpha = None, None
        if rope is not None:
            _check(rope, 0.6, "rope", samples)
        if isinstance(decision, bool) or not isinstance(decision, (int, float, np.floating)) or not 0.5 < decision < 1:
            raise InputError(f"decision must be a probability between 0.5 and 1 (e.g. 0.95), got {decision!r}.")
    reps = _whole(reps, "reps (simulated studies)", 10, MAX_PLAN_REPS)
    design = _design(table_or_effects, classifier=classifier, against=against, k=k, spread=spread, baseline=baseline,
                     higher_is_better=higher_is_better, test=test, rope=rope)
    if test == BAYESIAN_TEST:
        from compare_lib.stats._bayesian import _check

        _check(design.rope, 0.6, "rope", samples)
    return _Settings(design, test, correction, alpha, reps, seed, int(samples), float(decision))


def _check_work(s: _Settings, sizes: list[int], points: int = 1) -> None:
    if s.test == BAYESIAN_TEST:
        work = points * sum(s.reps * s.samples * n for n in sizes)
        if work > MAX_PLAN_BAYES_WORK:
            raise InputError(f"This plan draws {work:,} units of posterior work (studies x posterior samples x data sets, "
                             f"over every size evaluated), above the limit of {MAX_PLAN_BAYES_WORK:,}; use fewer reps, "
                             "samples or sizes.")
        return
    m = s.design.k * (s.design.k - 1) // 2
    work = points * sum(s.reps * m * n for n in sizes)
    if work > MAX_PLAN_WORK:
        raise InputError(f"This plan simulates {work:,} units of work (studies x pairs x data sets, over every size "
                         f"evaluated), above the limit of {MAX_PLAN_WORK:,}; use fewer reps, sizes or classifiers.")


def _result(s: _Settings, question: str, rows: list[dict], *, n_datasets, difference, power, mc_se, power_better,
            equivalent=None, target=None, reached=None, notes=()) -> PlanResult:
    d = s.design
    curve = pd.DataFrame(rows)
    undefined = int(curve.pop("undefined").sum())
    if undefined:
        notes = tuple(notes) + (f"The {lookup_test(s.test).label} is undefined on {undefined:,} simulated "
                                "stud(ies) (posthoc refuses such a table): they count as finding nothing.",)
    return PlanResult(
        question=question, power=power, mc_se=mc_se, power_better=power_better, n_datasets=n_datasets,
        difference=difference, classifier=d.names[d.c], against=None if d.other is None else d.names[d.other],
        test=s.test, correction=s.correction, alpha=s.alpha, reps=s.reps, seed=s.seed, source=d.source, k=d.k,
        baseline=d.baseline, spread=d.spread, rope=d.rope, decision=s.decision if s.test == BAYESIAN_TEST else None,
        equivalent=equivalent, target_power=target, reached=reached, curve=curve, notes=d.notes + tuple(notes))


def _point(s: _Settings, n: int, difference: float, progress=None) -> dict:
    return _power_point(s.design, n, difference, test=s.test, correction=s.correction, alpha=s.alpha, reps=s.reps,
                        seed=s.seed, samples=s.samples, decision=s.decision, progress=progress)


def _scaled(progress, lo: float, hi: float):
    if progress is None:
        return None
    return lambda f: progress(min(1.0, lo + (hi - lo) * f))


# ---------------------------------------------------------------------------------------------
# the three questions


def plan(
    table_or_effects=None,
    *,
    n_datasets: int | Sequence[int] | None = None,
    difference: float = 0.0,
    classifier: str | None = None,
    against: str | None = None,
    test: str = RECOMMENDED_TEST,
    correction: str = DEFAULT_CORRECTION,
    alpha: float = 0.05,
    reps: int = 1000,
    seed: int | None = 0,
    spread: float | None = None,
    k: int | None = None,
    rope: float | None = None,
    decision: float = 0.95,
    samples: int = 2000,
    baseline: str = "table",
    higher_is_better: bool | None = None,
    progress: Callable[[float], None] | None = None,
) -> PlanResult:
    """Power of a planned comparison, by simulation (see the module's description for the design).

    Parameters
    ----------
    table_or_effects : ScoreTable, DataFrame, dict, sequence or None
        A score table to resample (a DataFrame or 2-D array needs ``higher_is_better``), or stated
        effects: None (``k`` classifiers of equal mean, default 2), or the mean score of each classifier
        (a list, named C1, C2, ..., or a mapping name -> mean), each score being mean + ``spread`` x N(0, 1).
    n_datasets : int or sequence of int
        Data sets of a simulated study (default: the table's); a sequence gives a power curve.
    difference : float
        Added to ``classifier``'s scores, in score units, in the direction of "better" (negative: worse).
    classifier, against : str
        The classifier shifted (default: the first) and the one it is compared with (default: every other
        one; power is then the chance to find ``classifier`` different from at least one of them).
    test, correction, alpha
        The analysis of each study: :func:`compare_lib.posthoc` over all pairs, or
        ``test="bayesian-signed-rank"`` (Benavoli et al. 2014; the pair ``classifier`` vs ``against``, with
        ``rope``, prior strength 0.6 at the ROPE, ``samples`` posterior samples; power is the chance that
        P(classifier practically better) >= ``decision``, and ``equivalent`` the chance that
        P(practically equivalent) >= ``decision``; a table's ROPE defaults to
        :func:`compare_lib.suggest_rope`).
    reps, seed : int
        Simulated studies per size (at most :data:`MAX_PLAN_REPS`) and the seed.
    spread : float
        Stated effects only: the standard deviation of each score around its mean (default 1: then
        ``difference`` is in units of it). The pairwise difference has standard deviation sqrt(2) spread.
    baseline : {"table", "exchangeable"}
        Tables only: keep the table's differences, or shuffle the classifiers within each data set first.
    progress : callable, optional
        Called with the fraction done (0 to 1).

    Returns
    -------
    PlanResult: ``power``, ``mc_se``, ``power_better`` (floats, or tuples aligned with a sequence
    ``n_datasets``), the settings, and ``curve`` (``to_frame()``), one row per size.

    The analysis of each study is :func:`compare_lib.posthoc` itself (the same kernels and adjustment; the
    Wilcoxon, sign and mean-ranks statistics vectorized over the studies), so the verdicts are those the
    study would publish.
    """
    s = _settings(table_or_effects, classifier=classifier, against=against, test=test, correction=correction,
                  alpha=alpha, reps=reps, seed=seed, spread=spread, k=k, rope=rope, decision=decision, samples=samples,
                  baseline=baseline, higher_is_better=higher_is_better)
    sizes = _sizes(n_datasets, s.design)
    difference = _finite(difference, "difference")
    _check_work(s, sizes)
    rows = []
    for step, n in enumerate(sizes):
        rows.append(_point(s, n, difference, _scaled(progress, step / len(sizes), (step + 1) / len(sizes))))
    single = n_datasets is None or np.ndim(n_datasets) == 0

    def pick(key):
        values = [row[key] for row in rows]
        return values[0] if single else tuple(values)

    return _result(s, "power", rows, n_datasets=sizes[0] if single else tuple(sizes), difference=difference,
                   power=pick("power"), mc_se=pick("mc_se"), power_better=pick("power_better"),
                   equivalent=pick("equivalent") if s.test == BAYESIAN_TEST else None)


def _target(power) -> float:
    if isinstance(power, bool) or not isinstance(power, (int, float, np.floating)) or not 0 < power < 1:
        raise InputError(f"power must be a probability between 0 and 1 (e.g. 0.8), got {power!r}.")
    return float(power)


def datasets_for_power(table_or_effects=None, *, power: float = 0.8, min_n: int = 5, max_n: int = 200,
                       difference: float = 0.0, progress: Callable[[float], None] | None = None,
                       **options) -> PlanResult:
    """How many data sets for a given power: the smallest N in [``min_n``, ``max_n``] whose simulated power
    (as :func:`plan` defines it, same options) reaches ``power``.

    Searched by doubling N from ``min_n`` until the power is reached (or ``max_n``), then by bisection
    between the last size short of it and the first reaching it. Every size uses the same seed (common
    random numbers), which keeps the estimated curve close to monotone; it is still an estimate, within
    about two Monte Carlo standard errors of the target near the answer. Returns a :class:`PlanResult`
    with ``n_datasets`` the answer (None and ``reached=False`` when even ``max_n`` falls short), its
    power, and every size evaluated in ``curve``.
    """
    target = _target(power)
    s = _settings(table_or_effects, **_plan_options(options))
    min_n = _whole(min_n, "min_n", 2, MAX_PLAN_DATASETS)
    max_n = _whole(max_n, "max_n", min_n, MAX_PLAN_DATASETS)
    difference = _finite(difference, "difference")
    grid = [min_n]
    while grid[-1] < max_n:
        grid.append(min(max_n, grid[-1] * 2))
    expected = len(grid) + max(1, math.ceil(math.log2(max(2, max_n - min_n))))
    _check_work(s, [max_n], points=expected)
    rows: dict[int, dict] = {}

    def evaluate(n: int) -> dict:
        if n not in rows:
            done = len(rows)
            rows[n] = _point(s, n, difference, _scaled(progress, min(done / expected, 0.99),
                                                       min((done + 1) / expected, 0.99)))
        return rows[n]

    low, high = None, None
    for n in grid:
        if evaluate(n)["power"] >= target:
            high = n
            break
        low = n
    if high is not None and low is not None:
        high = _bisect(evaluate, low, high, target, lambda lo, hi: hi - lo <= 1, lambda lo, hi: (lo + hi) // 2)
    if progress is not None:
        progress(1.0)
    curve = [rows[n] for n in sorted(rows)]
    answer = rows[high] if high is not None else rows[max(rows)]
    return _result(s, "datasets", curve, n_datasets=high, difference=difference, power=answer["power"],
                   mc_se=answer["mc_se"], power_better=answer["power_better"], equivalent=answer.get("equivalent"),
                   target=target, reached=high is not None,
                   notes=() if high is not None else (f"Even {max_n} data sets do not reach power {target:g}.",))


def detectable_difference(table_or_effects=None, *, n_datasets: int | None = None, power: float = 0.8,
                          max_difference: float | None = None, tol: float | None = None, baseline: str = "exchangeable",
                          progress: Callable[[float], None] | None = None, **options) -> PlanResult:
    """The smallest difference a study of ``n_datasets`` data sets detects with the given power: bisection over
    ``difference`` in :func:`plan` (same options) for the smallest shift whose simulated power reaches ``power``.

    ``baseline`` defaults to "exchangeable" here: the classifiers of a table are shuffled within each data set,
    so that the answer is a property of the study's size and noise, not of the differences it already shows
    (``baseline="table"`` keeps them). The search starts from ``max_difference`` (default: 4 standard
    deviations of the differences between ``classifier`` and the others, or 4 sqrt(2) ``spread`` for stated
    effects), doubled up to 8 times until the power is reached, then halves the bracket until it is narrower
    than ``tol`` (default: 1/200 of the start). Every difference uses the same seed (common random numbers:
    the same simulated studies, shifted). Returns a :class:`PlanResult` with ``difference`` the answer (None
    and ``reached=False`` if not reached) and every difference evaluated in ``curve``.
    """
    target = _target(power)
    s = _settings(table_or_effects, **{**_plan_options(options), "baseline": baseline})
    sizes = _sizes(n_datasets, s.design)
    if len(sizes) != 1:
        raise InputError("detectable_difference answers for one study size: give n_datasets as one number.")
    n = sizes[0]
    d = s.design
    if max_difference is None:
        if d.source == "table":
            scores = d.table_scores()
            diffs = scores[:, [d.c]] - np.delete(scores, d.c, axis=1)
            hi = 4 * float(np.std(diffs)) or 1.0
        else:
            hi = 4 * math.sqrt(2) * d.effects()[1]
    else:
        hi = _finite(max_difference, "max_difference")
        if hi <= 0:
            raise InputError(f"max_difference must be positive (the search runs from 0 to it), got {max_difference!r}.")
    tol = hi / 200 if tol is None else _finite(tol, "tol")
    if tol <= 0:
        raise InputError(f"tol must be positive, got {tol!r}.")
    expected = 9 + max(1, math.ceil(math.log2(hi / tol)))
    _check_work(s, [n], points=expected)
    rows: dict[float, dict] = {}

    def evaluate(x: float) -> dict:
        if x not in rows:
            done = len(rows)
            rows[x] = _point(s, n, x, _scaled(progress, min(done / expected, 0.99), min((done + 1) / expected, 0.99)))
        return rows[x]

    low = 0.0
    reached = evaluate(hi)["power"] >= target
    for _ in range(8):
        if reached:
            break
        low, hi = hi, 2 * hi
        reached = evaluate(hi)["power"] >= target
    if reached:
        if evaluate(0.0)["power"] >= target:
            hi = 0.0
        hi = _bisect(evaluate, low, hi, target, lambda lo, up: up - lo <= tol, lambda lo, up: (lo + up) / 2)
    if progress is not None:
        progress(1.0)
    curve = [rows[x] for x in sorted(rows)]
    answer = rows[hi] if reached else rows[max(rows)]
    return _result(s, "difference", curve, n_datasets=n, difference=hi if reached else None, power=answer["power"],
                   mc_se=answer["mc_se"], power_better=answer["power_better"], equivalent=answer.get("equivalent"),
                   target=target, reached=reached,
                   notes=() if reached else (f"Even a difference of {hi:g} does not reach power {target:g}.",))


_PLAN_OPTIONS = ("classifier", "against", "test", "correction", "alpha", "reps", "seed", "spread", "k", "rope",
                 "decision", "samples", "baseline", "higher_is_better")


def _plan_options(options: dict) -> dict:
    """The options of :func:`plan` passed through the inverse questions, with plan's defaults."""
    unknown = sorted(set(options) - set(_PLAN_OPTIONS))
    if unknown:
        raise InputError(f"Unknown option(s) {', '.join(unknown)}; the options are those of plan(): "
                         f"{', '.join(_PLAN_OPTIONS)}.")
    defaults = {"classifier": None, "against": None, "test": RECOMMENDED_TEST, "correction": DEFAULT_CORRECTION, "alpha": 0.05,
                "reps": 1000, "seed": 0, "spread": None, "k": None, "rope": None, "decision": 0.95, "samples": 2000,
                "baseline": "table", "higher_is_better": None}
    return {**defaults, **options}


def _bisect(evaluate, low, high, target: float, close, middle):
    """The smallest point of [low, high] (up to ``close``) whose power reaches ``target``, given that ``high``
    reaches it and ``low`` does not: the search of both inverse questions (N over integers, the difference
    over reals)."""
    while not close(low, high):
        mid = middle(low, high)
        if evaluate(mid)["power"] >= target:
            high = mid
        else:
            low = mid
    return high


def plan_sentence(result: PlanResult, *, target: float = 0.8) -> str:
    """A plan's answer in one plain sentence (no markup): the power of the planned study and the number of data
    sets the target power needs (a power curve), or the smallest detectable difference, or the N needed."""
    from compare_lib.multiple._adjust import PROCEDURES

    who = f"{result.classifier} better than {result.against}" if result.against else f"{result.classifier} different from another classifier"
    how = lookup_test(result.test).label if result.test in test_names() else result.test
    if result.correction:
        how += f", {PROCEDURES[result.correction].label}, α = {result.alpha:g}"
    if result.question == "difference":
        if result.reached:
            return (f"With N = {result.n_datasets} data sets, the smallest difference that finds {who} with "
                    f"{result.target_power:.0%} power is about {result.difference:.3g} in score units ({how}).")
        return f"No difference searched reaches {result.target_power:.0%} power with N = {result.n_datasets} data sets ({how})."
    if result.question == "datasets":
        if result.reached:
            return (f"Finding {who} by {result.difference:.3g} with {result.target_power:.0%} power takes at least "
                    f"N = {result.n_datasets} data sets ({how}).")
        return f"{result.target_power:.0%} power is not reached within the data-set counts searched ({how})."
    curve = result.to_frame()
    last = curve.iloc[-1]
    text = (f"With N = {int(last['n_datasets'])} data sets the power to find {who} by {result.difference:.3g} is "
            f"{last['power']:.2f} ({how}; {result.reps:,} simulated studies per N)")
    enough = curve[curve["power"] >= target]
    if len(enough):
        text += f"; {target:.0%} power needs about N = {int(enough['n_datasets'].iloc[0])} data sets."
    else:
        text += f"; {target:.0%} power is not reached up to N = {int(last['n_datasets'])}."
    return text
