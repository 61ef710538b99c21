"""Post-hoc comparisons after a Friedman test: a pairwise statistic plus a p-value adjustment.

The pairwise statistic is chosen by the user:

* ``"mean-ranks"``: z = (R_a - R_b) / sqrt(k(k+1)/(6N)) on the Friedman mean ranks (Demšar 2006,
  §3.2.2). Its verdict on a pair depends on which other classifiers are in the pool (Benavoli,
  Corani & Mangili 2016);
* ``"wilcoxon"``: the Wilcoxon signed-ranks test of the pair (Demšar's zero handling by default);
* ``"sign"``: the sign test of the pair.

The last two depend only on the two classifiers compared, which is why Benavoli et al. recommend
them. The family is either all k(k-1)/2 pairs or the k-1 comparisons with a control classifier; the
procedures come from :mod:`compare_lib.adjust` (plus Nemenyi's studentized range for mean ranks).

Results are tidy DataFrames, one row per hypothesis ordered by p (the layout of García & Herrera's
Tables 3 and 5), carrying in ``.attrs`` what produced them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .adjust import MAX_ROM_HYPOTHESES, PROCEDURES, _finish, _lookup, adjust, procedures_for
from .exhaustive import bergmann_hommel_raw
from .critical import critical_difference, rank_standard_error, studentized_range_sf_many
from .data import ScoreTable, as_table
from .errors import InputError
from .two_classifiers import EXACT_WILCOXON_MAX_N, _check_alpha, sign_test_rows, wilcoxon_rows


@dataclass(frozen=True)
class PairwiseTest:
    """A pairwise statistic for :func:`posthoc`.

    ``pool_dependent``: whether the verdict on a pair can change when other classifiers are added to or
    removed from the table (Benavoli, Corani & Mangili 2016): true for every statistic computed from
    ranks among all k classifiers, false for the tests that look at the two classifiers only.
    ``statistic``: what the ``statistic`` column holds (always positive when the first classifier is better,
    except T and wins, which carry no sign).
    """

    name: str
    label: str
    pool_dependent: bool
    statistic: str
    reference: str
    description: str


PAIRWISE_TESTS: dict[str, PairwiseTest] = {
    x.name: x
    for x in (
        PairwiseTest("mean-ranks", "mean-ranks z", True, "z", "Demšar 2006, §3.2.2",
                     "Friedman mean ranks, z = (R_a − R_b)/sqrt(k(k+1)/(6N)), normal p-value."),
        PairwiseTest("rank-sum-exact", "exact rank-sum difference", True, "R_b − R_a (rank sums)",
                     "Eisinga, Heskes, Pelzer & Te Grotenhuis 2017",
                     "The same Friedman ranks, with the exact p-value of the rank-sum difference instead of the normal "
                     "approximation (the normal one, with the exact variance, beyond a work budget, flagged)."),
        PairwiseTest("aligned-ranks", "aligned-ranks z", True, "z", "Hodges & Lehmann 1962; García et al. 2010, §3.2",
                     "Scores minus their data set's mean, ranked over all kN; z of the mean aligned ranks with the "
                     "exact permutation variance (García et al.'s printed standard error is wrong)."),
        PairwiseTest("quade", "Quade z", True, "z", "Quade 1979; García et al. 2010, §3.2",
                     "Ranks weighted by the rank of each data set's range; z with the exact permutation variance "
                     "(García et al.'s printed standard error is too large for k > 3)."),
        PairwiseTest("conover", "Conover t", True, "t", "Conover 1999, §5.8",
                     "Friedman rank sums with Conover's t, which estimates the rank variance from the data, "
                     "(N−1)(k−1) df: more powerful than the z, and still pool-dependent."),
        PairwiseTest("wilcoxon", "Wilcoxon signed-ranks", False, "T = min(R+, R−)", "Wilcoxon 1945; Demšar 2006, §3.1.3",
                     "The two classifiers' differences only (Demšar's zero handling)."),
        PairwiseTest("sign", "sign test", False, "wins of a (ties split)", "Demšar 2006, §3.1.2",
                     "Wins and losses of the two classifiers only, exact binomial."),
    )
}
TESTS = tuple(PAIRWISE_TESTS)
TEST_LABELS = {name: x.label for name, x in PAIRWISE_TESTS.items()}
#: The statistics whose verdicts depend on the other classifiers in the table.
POOL_DEPENDENT_TESTS = tuple(name for name, x in PAIRWISE_TESTS.items() if x.pool_dependent)
COLUMNS = ["a", "b", "statistic", "p", "p_adj", "reject", "better", "mean_rank_a", "mean_rank_b"]


#: Pairwise statistics computed in :mod:`compare_lib.rank_tests` (name of the function there).
_RANK_STATISTICS = {"aligned-ranks": "aligned_ranks_z", "quade": "quade_z", "conover": "conover_t",
                    "rank-sum-exact": "rank_sum_exact"}

#: Differences held in memory at once when the pairwise tests are vectorized over pairs.
_CHUNK_CELLS = 2_000_000


def _pairwise(t: ScoreTable, pairs, test: str, zero_method: str, wilcoxon_method: str):
    """Raw statistic, p and the better classifier (index or -1) of every pair (a, b), vectorized over pairs."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if test == "mean-ranks":
        stat, better = mean_ranks_z(t, pairs)
        return stat, np.minimum(1.0, 2 * stats.norm.sf(np.abs(stat))), better, np.ones(len(stat), dtype=bool)
    if test in _RANK_STATISTICS:
        from . import rank_tests

        return getattr(rank_tests, _RANK_STATISTICS[test])(t, pairs)
    scores = t.oriented_scores
    m = pairs.shape[0]
    stat, p, better = np.empty(m), np.empty(m), np.empty(m, dtype=np.int64)
    exact = np.ones(m, dtype=bool)
    step = max(1, _CHUNK_CELLS // max(1, t.n_datasets))
    for lo in range(0, m, step):
        a, b = pairs[lo : lo + step, 0], pairs[lo : lo + step, 1]
        d = (scores[:, b] - scores[:, a]).T  # > 0 where b is better
        if test == "wilcoxon":
            r = wilcoxon_rows(d, zero_method=zero_method, method=wilcoxon_method)
            stat[lo : lo + step], p[lo : lo + step] = r["statistic"], r["p"]
            # Pairs whose exact distribution was left out by the work budget (not those with > 50 differences).
            exact[lo : lo + step] = r["exact"] | (r["n_free"] > EXACT_WILCOXON_MAX_N) | (wilcoxon_method != "auto")
            # R+ collects the ranks where b is better.
            better[lo : lo + step] = np.where(r["r_plus"] > r["r_minus"], b, np.where(r["r_minus"] > r["r_plus"], a, -1))
        else:
            r = sign_test_rows(-d)  # wins of a, ties split
            stat[lo : lo + step], p[lo : lo + step] = r["statistic"], r["p"]
            wins, losses = r["wins"], r["losses"]
            better[lo : lo + step] = np.where(wins > losses, a, np.where(losses > wins, b, -1))
    return stat, p, better, exact


def mean_ranks_z(t: ScoreTable, pairs) -> tuple[np.ndarray, np.ndarray]:
    """z = (R_b - R_a) / sqrt(k(k+1)/(6N)) for index pairs (a, b), and the better classifier (-1 if tied).

    Computed from the exact integer difference of doubled rank sums, so that two pairs whose rank sums
    differ by the same amount get bit-identical |z| (and p), whatever the order of rows and columns.
    """
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    doubled = t.doubled_rank_sums.to_numpy()
    diff = doubled[pairs[:, 1]] - doubled[pairs[:, 0]]  # > 0 when a has the smaller (better) rank sum
    denom = 2 * t.n_datasets * rank_standard_error(t.n_classifiers, t.n_datasets)
    z = diff / denom
    better = np.where(diff > 0, pairs[:, 0], np.where(diff < 0, pairs[:, 1], -1))
    return z, better


@dataclass(frozen=True)
class _Family:
    """The hypotheses of a post-hoc analysis and their raw pairwise statistics (computed once)."""

    family: str
    k: int
    pairs: list
    stat: np.ndarray
    p: np.ndarray
    better: np.ndarray
    #: False for Wilcoxon pairs that used the normal approximation because their exact distributions
    #: exceeded the work budget of one call (see two_classifiers._within_exact_budget).
    exact: np.ndarray
    #: Bergmann-Hommel's raw APVs, shared by its two forms (the expensive part is computed once).
    cache: dict = field(default_factory=dict, compare=False, repr=False)


def _family(t: ScoreTable, test: str, control: str | None, zero_method: str, wilcoxon_method: str) -> _Family:
    """The family's pairwise statistics, computed once per table (posthoc, apv_table and verdicts share them)."""
    key = ("family", test, control, zero_method, wilcoxon_method)
    memo = t.memo
    if key not in memo:
        memo[key] = _compute_family(t, test, control, zero_method, wilcoxon_method)
    return memo[key]


def _compute_family(t: ScoreTable, test: str, control: str | None, zero_method: str, wilcoxon_method: str) -> _Family:
    if test not in TESTS:
        raise InputError(f"test={test!r} is not known; choose one of {', '.join(TESTS)}.")
    names = t.classifiers
    k = len(names)
    if control is not None:
        if control not in names:
            raise InputError(
                f"The control {control!r} is not among the classifiers in the table ({', '.join(names)}); "
                "pick one of them or compare all pairs."
            )
        c = names.index(control)
        pairs = [(c, j) for j in range(k) if j != c]
    else:
        pairs = list(combinations(range(k), 2))
    stat, p, better, exact = _pairwise(t, pairs, test, zero_method, wilcoxon_method)
    return _Family("control" if control is not None else "all-pairs", k, pairs, stat, p, better, exact)


def _adjusted(fam: _Family, procedure: str, test: str) -> np.ndarray:
    proc = _lookup(procedure, fam.family)
    if proc.mean_ranks_only and test != "mean-ranks":
        raise InputError(
            f"{proc.label} is defined on the mean-ranks statistic only; with the {TEST_LABELS[test]} choose "
            f"{', '.join(x for x in procedures_for(fam.family) if not PROCEDURES[x].mean_ranks_only)}."
        )
    k = fam.k
    if proc.name == "nemenyi":
        return _finish(fam.p, studentized_range_sf_many(np.abs(fam.stat) * math.sqrt(2), k))
    all_pairs = fam.family == "all-pairs"
    if proc.exhaustive:
        if "bergmann-hommel" not in fam.cache:
            fam.cache["bergmann-hommel"] = bergmann_hommel_raw(fam.p, k, [tuple(x) for x in np.asarray(fam.pairs).tolist()])
        return _finish(fam.p, fam.cache["bergmann-hommel"], monotone=proc.name == "bergmann-hommel")
    return adjust(fam.p, proc.name, k=k if all_pairs else None, pairs=fam.pairs if all_pairs else None)


def posthoc(
    table,
    test: str = "mean-ranks",
    correction: str = "holm",
    control: str | None = None,
    alpha: float = 0.05,
    *,
    zero_method: str = "demsar",
    wilcoxon_method: str = "auto",
    higher_is_better: bool | None = None,
) -> pd.DataFrame:
    """Pairwise comparisons with adjusted p-values (Demšar 2006, §3.2.2; García & Herrera 2008, §2-3).

    Parameters
    ----------
    table : ScoreTable (or DataFrame with ``higher_is_better``)
    test : {"mean-ranks", "rank-sum-exact", "aligned-ranks", "quade", "conover", "wilcoxon", "sign"}
        The pairwise statistic (:data:`PAIRWISE_TESTS` describes each and whether it depends on the pool).
    correction : str
        All pairs: "nemenyi" (studentized range, mean-ranks only; consistent with the Nemenyi CD),
        "bonferroni" (m p, García & Herrera's "Nemenyi"), "holm", "hochberg", "hommel", "shaffer",
        "bergmann-hommel" (APVs made monotone, García & Herrera's Table 5) or "bergmann-hommel-closed" (the
        APVs as defined: APV <= alpha is exactly the procedure's decision), "holland", "finner". With a
        control: "bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "rom", "li".
    control : str, optional
        Compare every classifier with this one (k-1 hypotheses) instead of all pairs.
    alpha : float
        Level at which ``reject`` is decided (reject where p_adj <= alpha).

    Returns
    -------
    DataFrame, one row per hypothesis ordered by p, with columns ``a``, ``b``, ``statistic`` (z for
    mean ranks, aligned ranks and Quade, t for Conover, the rank-sum difference R_b - R_a for the exact
    test: all positive when a is the better; T = min(R+, R-) for Wilcoxon; wins of a with ties split
    for the sign test), ``p``, ``p_adj``, ``reject``, ``better`` (the better
    classifier of the pair, "" if tied), ``mean_rank_a``, ``mean_rank_b``. ``attrs`` holds test,
    correction, alpha, control, k, n, higher_is_better, mean_ranks, cd (the critical difference
    where the procedure has one) and approximate_pairs: the pairs whose p-value fell back to a normal
    approximation because the exact computation exceeded its budget (Wilcoxon with tied differences;
    "rank-sum-exact" beyond :data:`compare_lib.rank_tests.EXACT_RANK_SUM_CELLS`), 0 when all are exact
    or the statistic is defined by its approximation (z and t statistics).
    """
    t = as_table(table, higher_is_better)
    _check_alpha(alpha)
    fam = _family(t, test, control, zero_method, wilcoxon_method)
    proc = _lookup(correction, fam.family)
    p_adj = _adjusted(fam, proc.name, test)
    names, pairs, k = t.classifiers, fam.pairs, t.n_classifiers
    stat, p, better = fam.stat, fam.p, fam.better
    ranks = t.mean_ranks.to_numpy()
    frame = pd.DataFrame(
        {
            "a": [names[a] for a, _ in pairs],
            "b": [names[b] for _, b in pairs],
            "statistic": stat,
            "p": p,
            "p_adj": p_adj,
            "reject": p_adj <= alpha,
            "better": [names[x] if x >= 0 else "" for x in better],
            "mean_rank_a": [ranks[a] for a, _ in pairs],
            "mean_rank_b": [ranks[b] for _, b in pairs],
        },
        columns=COLUMNS,
    )
    frame = frame.sort_values("p", kind="stable").reset_index(drop=True)
    cd = None
    if test == "mean-ranks" and proc.name == "nemenyi":
        cd = critical_difference(k, t.n_datasets, alpha, "nemenyi")
    elif test == "mean-ranks" and control is not None and proc.name == "bonferroni-dunn":
        cd = critical_difference(k, t.n_datasets, alpha, "bonferroni-dunn")
    frame.attrs.update(
        test=test,
        correction=proc.name,
        alpha=float(alpha),
        control=control,
        k=k,
        n=t.n_datasets,
        higher_is_better=t.higher_is_better,
        mean_ranks=dict(zip(names, map(float, ranks))),
        cd=cd,
        approximate_pairs=int((~fam.exact).sum()),
    )
    return frame


def _bergmann_hommel_limit(requested: int | None) -> int:
    from .exhaustive import MAX_BERGMANN_HOMMEL_K

    return MAX_BERGMANN_HOMMEL_K if requested is None else requested


def apv_table(
    table,
    test: str = "mean-ranks",
    control: str | None = None,
    procedures: list[str] | None = None,
    *,
    zero_method: str = "demsar",
    wilcoxon_method: str = "auto",
    higher_is_better: bool | None = None,
    bergmann_hommel_max_k: int | None = None,
) -> pd.DataFrame:
    """The APVs of several procedures side by side (García & Herrera 2008, Table 5 layout).

    One row per hypothesis ordered by p: ``a``, ``b``, ``statistic``, ``p`` and one column per
    procedure (default: every procedure that applies to the family and the test; Bergmann-Hommel
    only up to ``bergmann_hommel_max_k`` classifiers, by default the library's limit, which
    ``attrs["skipped"]`` reports).
    """
    t = as_table(table, higher_is_better)
    fam = _family(t, test, control, zero_method, wilcoxon_method)
    skipped = []
    if procedures is None:
        limit = _bergmann_hommel_limit(bergmann_hommel_max_k)
        procedures = [x for x in procedures_for(fam.family) if test == "mean-ranks" or not PROCEDURES[x].mean_ranks_only]
        if t.n_classifiers > limit:
            skipped = [x for x in procedures if PROCEDURES[x].exhaustive]
            procedures = [x for x in procedures if not PROCEDURES[x].exhaustive]
        if len(fam.pairs) > MAX_ROM_HYPOTHESES and "rom" in procedures:
            skipped.append("rom")
            procedures = [x for x in procedures if x != "rom"]
    names = t.classifiers
    base = pd.DataFrame(
        {"a": [names[a] for a, _ in fam.pairs], "b": [names[b] for _, b in fam.pairs], "statistic": fam.stat, "p": fam.p}
    )
    for name in procedures:
        base[name] = _adjusted(fam, name, test)
    base = base.sort_values("p", kind="stable").reset_index(drop=True)
    base.attrs.update(test=test, control=control, k=t.n_classifiers, n=t.n_datasets, skipped=skipped)
    return base


def groups(result: pd.DataFrame) -> list[tuple[str, ...]]:
    """Groups of classifiers not significantly different, for CD diagrams.

    A group is the set of all classifiers whose mean rank lies in an interval [lo, hi] of mean-rank
    values, with no pair inside rejected by the procedure of ``result`` (any procedure, not only
    Nemenyi); the groups are the maximal such intervals, best first. Classifiers with equal mean
    ranks sit at one point of the diagram, so they are always in or out of an interval together:
    the groups do not depend on the order of the columns or on the names (a bar drawn from lo to hi
    never covers a rejected pair). Groups of one classifier are included (drawings usually omit
    them). Only for all-pairs results: a control family does not test the other pairs.
    """
    if result.attrs.get("control") is not None:
        raise InputError(
            "Groups need all pairwise comparisons; a comparison with a control does not test the other pairs. "
            "Use the control's critical interval instead."
        )
    mean_ranks = result.attrs.get("mean_ranks")
    if not mean_ranks:
        raise InputError("The result has no mean ranks in its attrs; pass a table returned by posthoc().")
    reject = result["reject"].to_numpy(dtype=bool)
    rejected = zip(result["a"].to_numpy()[reject], result["b"].to_numpy()[reject])
    return not_different_groups(mean_ranks, rejected)


def not_different_groups(mean_ranks: dict[str, float], rejected) -> list[tuple[str, ...]]:
    """:func:`groups` from mean ranks and the rejected pairs: maximal intervals of mean-rank values
    containing no rejected pair, each as a tuple of names ordered by mean rank (then by name).

    O(k log k + number of rejected pairs): with the distinct mean-rank values as positions 0..L-1, an
    interval [i, j] is free when i > worst[j], where worst[j] is the largest lower position of a
    rejected pair whose upper position is <= j; worst never decreases, so each interval's end is
    found by one search.
    """
    names = sorted(mean_ranks, key=lambda name: (mean_ranks[name], name))
    values = np.array([mean_ranks[name] for name in names], dtype=float)
    levels, level_of = np.unique(values, return_inverse=True)
    index = {name: i for i, name in enumerate(names)}
    count = levels.size
    worst = np.full(count, -1, dtype=np.int64)
    pairs = np.array([(index[a], index[b]) for a, b in rejected], dtype=np.int64).reshape(-1, 2)
    if pairs.size:
        lv = level_of[pairs]
        np.maximum.at(worst, lv.max(axis=1), lv.min(axis=1))
    worst = np.maximum.accumulate(worst)
    # end[i] = the last level j with worst[j] < i (a rejected pair inside one level leaves it alone).
    end = np.searchsorted(worst, np.arange(count), side="left") - 1
    start_of_level = np.searchsorted(level_of, np.arange(count), side="left")
    stop_of_level = np.searchsorted(level_of, np.arange(count), side="right")
    out: list[tuple[str, ...]] = []
    previous_end = -1
    for i in range(count):
        j = int(end[i])
        if j < i:  # a rejected pair within the level: its members stand alone
            out.extend((names[x],) for x in range(start_of_level[i], stop_of_level[i]))
            continue
        if j > previous_end:
            out.append(tuple(names[start_of_level[i] : stop_of_level[j]]))
            previous_end = j
    return out


#: The procedures compared side by side in :func:`verdicts` (pairwise statistic, procedure).
VERDICT_METHODS_ALL_PAIRS = (
    ("mean-ranks", "nemenyi"),
    ("mean-ranks", "holm"),
    ("mean-ranks", "shaffer"),
    ("mean-ranks", "bergmann-hommel"),
    ("rank-sum-exact", "holm"),
    ("aligned-ranks", "holm"),
    ("quade", "holm"),
    ("conover", "holm"),
    ("wilcoxon", "holm"),
    ("sign", "holm"),
)
VERDICT_METHODS_CONTROL = (
    ("mean-ranks", "bonferroni-dunn"),
    ("mean-ranks", "holm"),
    ("mean-ranks", "finner"),
    ("mean-ranks", "li"),
    ("rank-sum-exact", "holm"),
    ("aligned-ranks", "holm"),
    ("quade", "holm"),
    ("conover", "holm"),
    ("wilcoxon", "holm"),
    ("sign", "holm"),
)


def verdicts(table, alpha: float = 0.05, control: str | None = None, *, higher_is_better: bool | None = None,
             bergmann_hommel_max_k: int | None = None) -> pd.DataFrame:
    """Each pair's verdict under several statistic/procedure combinations, disagreements first.

    One row per hypothesis (a, b); one column per method named "<test> / <procedure>" holding the
    better classifier's name when the pair is rejected at ``alpha`` and "" otherwise; ``agree`` is
    True when every method says the same. Bergmann-Hommel is left out beyond
    ``bergmann_hommel_max_k`` classifiers (default :data:`compare_lib.exhaustive.MAX_BERGMANN_HOMMEL_K`;
    ``attrs["skipped"]`` says so); a statistic undefined on the table (Conover's t when every data set
    ranks the classifiers the same way) is left out with the reason in ``attrs["undefined"]``.
    """
    t = as_table(table, higher_is_better)
    _check_alpha(alpha)
    limit = _bergmann_hommel_limit(bergmann_hommel_max_k)
    methods = VERDICT_METHODS_CONTROL if control is not None else VERDICT_METHODS_ALL_PAIRS
    names = np.asarray(t.classifiers + [""], dtype=object)  # index -1 (a tie) names nobody
    skipped = []
    undefined: dict[str, str] = {}
    columns: dict[str, np.ndarray] = {}
    first = None
    for test, correction in methods:
        if PROCEDURES[correction].exhaustive and t.n_classifiers > limit:
            skipped.append(f"{test} / {correction}")
            continue
        try:
            fam = _family(t, test, control, "demsar", "auto")  # memoized per table: each statistic once
        except InputError as err:  # undefined on this table (e.g. Conover's t when every data set agrees)
            undefined[f"{TEST_LABELS[test]} / {PROCEDURES[correction].label}"] = str(err)
            continue
        first = first or fam
        columns[f"{TEST_LABELS[test]} / {PROCEDURES[correction].label}"] = np.where(
            _adjusted(fam, correction, test) <= alpha, names[fam.better], ""
        )
    assert first is not None
    pairs = np.asarray(first.pairs, dtype=np.int64).reshape(-1, 2)
    order = np.argsort(first.p, kind="stable")  # by the first method's p, as in posthoc()
    verdict = np.column_stack(list(columns.values()))[order]
    agree = (verdict == verdict[:, :1]).all(axis=1)
    base = pd.DataFrame({"a": names[pairs[order, 0]], "b": names[pairs[order, 1]]})
    for j, name in enumerate(columns):
        base[name] = verdict[:, j]
    base["agree"] = agree
    base = base.iloc[np.argsort(agree, kind="stable")].reset_index(drop=True)  # disagreements first
    base.attrs.update(alpha=float(alpha), control=control, skipped=skipped, undefined=undefined)
    return base
