"""Post-hoc comparisons after a Friedman test: a pairwise statistic plus a p-value adjustment.

The pairwise statistic comes from the registry :data:`compare_lib.PAIRWISE_TESTS` (the mean-ranks z of
Demšar 2006, §3.2.2, its exact form and the other rank statistics, whose verdicts depend on the pool of
classifiers; the Wilcoxon signed-ranks and sign tests, which look at the two classifiers only, as
Benavoli, Corani & Mangili 2016 recommend); the correction from the registry
:data:`compare_lib.PROCEDURES`. The family is either all k(k-1)/2 pairs or the k-1 comparisons with a
control classifier.

Results are tidy DataFrames, one row per hypothesis ordered by p (the layout of García & Herrera's
Tables 3 and 5), carrying in ``.attrs`` what produced them; with ``as_result=True`` the functions return
the result objects (:class:`PosthocResult`, :class:`ApvResult`, :class:`VerdictsResult`) whose
``to_frame()`` is that DataFrame.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from compare_lib.multiple._adjust import (
    DEFAULT_CORRECTION, PROCEDURES, Hypotheses, _deprecated, apply_procedure, lookup_procedure, procedures_for,
)
from compare_lib.stats._critical import critical_difference
from compare_lib.stats._pairwise_tests import DEFAULT_TEST, PAIRWISE_TESTS, PairwiseTest, lookup_test, test_labels
from compare_lib.core._result import FrameResult
from compare_lib.core._validation import check_alpha
from compare_lib.core._table import ScoreTable, as_table
from compare_lib.errors import InputError, worded

COLUMNS = ["a", "b", "statistic", "p", "p_adj", "reject", "better", "mean_rank_a", "mean_rank_b"]


def __getattr__(name: str):
    # Views of the registry that stay current when statistics are registered at run time.
    if name == "TESTS":
        return tuple(PAIRWISE_TESTS)
    if name == "TEST_LABELS":
        return test_labels()
    if name == "POOL_DEPENDENT_TESTS":
        return tuple(x for x, v in PAIRWISE_TESTS.items() if v.pool_dependent)
    raise AttributeError(name)


@dataclass(frozen=True)
class _Family:
    """The hypotheses of a post-hoc analysis and their raw pairwise statistics (computed once)."""

    family: str
    k: int
    pairs: np.ndarray
    stat: np.ndarray
    p: np.ndarray
    better: np.ndarray
    #: False for pairs whose p-value fell back to an approximation because its exact computation exceeded
    #: the work budget of one call (Wilcoxon with tied differences, the exact rank-sum difference).
    exact: np.ndarray
    #: Data sets each pair shares, in a table with holes (None when complete).
    n: np.ndarray | None = None

    def hypotheses(self) -> Hypotheses:
        all_pairs = self.family == "all-pairs"
        return Hypotheses(self.p, self.family, self.k, self.pairs if all_pairs else None, self.stat)


def _family(t: ScoreTable, test: str, control: str | None, zero_method: str = "demsar",
            wilcoxon_method: str = "auto") -> _Family:
    """The family's pairwise statistics, computed once per table (posthoc, apv_table and verdicts share them)."""
    spec = lookup_test(test)
    key = ("family", spec, control, zero_method, wilcoxon_method)
    memo = t.memo
    if key not in memo:
        memo[key] = _compute_family(t, spec, control, zero_method, wilcoxon_method)
    return memo[key]


def _compute_family(t: ScoreTable, spec: PairwiseTest, control: str | None, zero_method: str,
                    wilcoxon_method: str) -> _Family:
    names = t.classifiers
    k = len(names)
    if control is not None:
        if control not in names:
            raise InputError(
                f"The control {control!r} is not among the classifiers in the table ({', '.join(names)}); "
                "pick one of them or compare all pairs."
            )
        c = names.index(control)
        pairs = np.array([(c, j) for j in range(k) if j != c], dtype=np.int64).reshape(-1, 2)
    else:
        pairs = np.array(list(combinations(range(k), 2)), dtype=np.int64).reshape(-1, 2)
    out = spec.run(t, pairs, zero_method=zero_method, wilcoxon_method=wilcoxon_method)
    return _Family("control" if control is not None else "all-pairs", k, pairs, out.statistic, out.pvalue,
                   out.better, out.exact, out.n)


def _adjusted(fam: _Family, correction: str, spec: PairwiseTest) -> np.ndarray:
    proc = lookup_procedure(correction, fam.family)  # refuses a procedure not defined for the family
    if proc.unavailable(mean_ranks=spec.mean_ranks) is not None:
        allowed = procedures_for(fam.family, mean_ranks=spec.mean_ranks)
        raise InputError(f"{proc.label} is defined on the mean-ranks statistic only; with the {spec.label} choose "
                         f"{', '.join(allowed)}.")
    reason = proc.unavailable(k=fam.k, m=fam.p.size)
    if reason:
        raise InputError(reason)
    return apply_procedure(proc, fam.hypotheses())


@dataclass(frozen=True, eq=False)
class PosthocResult(FrameResult):
    """A post-hoc analysis: the table of :func:`posthoc` and what produced it.

    ``test`` and ``correction`` name the registry entries; ``cd`` is the critical difference where the
    procedure has one (Nemenyi, Bonferroni-Dunn on the mean-ranks z); ``approximate_pairs`` counts the
    pairs whose p-value fell back to an approximation. ``metric`` names the scores' metric when known.
    """

    test: str = ""
    correction: str = ""
    alpha: float = 0.05
    control: str | None = None
    k: int = 0
    n: int = 0
    higher_is_better: bool = True
    mean_ranks: dict | None = None
    cd: float | None = None
    approximate_pairs: int = 0
    metric: str | None = None

    @property
    def test_entry(self) -> PairwiseTest:
        return lookup_test(self.test)

    @property
    def procedure(self):
        return PROCEDURES[self.correction]


@dataclass(frozen=True, eq=False)
class ApvResult(FrameResult):
    """The APVs of several corrections side by side (:func:`apv_table`); ``skipped`` lists the
    corrections left out by their limits."""

    test: str = ""
    control: str | None = None
    k: int = 0
    n: int = 0
    skipped: list | None = None


@dataclass(frozen=True, eq=False)
class VerdictsResult(FrameResult):
    """Each pair's verdict under several statistic/correction combinations (:func:`verdicts`)."""

    alpha: float = 0.05
    control: str | None = None
    skipped: list | None = None
    undefined: dict | None = None


def as_posthoc_result(result) -> PosthocResult:
    """A :class:`PosthocResult` from itself or from the DataFrame :func:`posthoc` returns (its ``attrs``)."""
    if isinstance(result, PosthocResult):
        return result
    if isinstance(result, pd.DataFrame) and "test" in result.attrs:
        fields = {k: v for k, v in result.attrs.items() if k in PosthocResult.__dataclass_fields__}
        return PosthocResult(frame=result, **fields)
    raise InputError("Expected the result of compare_lib.posthoc (a PosthocResult or its DataFrame).")


def posthoc(
    table,
    test: str = DEFAULT_TEST,
    correction: str = DEFAULT_CORRECTION,
    control: str | None = None,
    alpha: float = 0.05,
    *,
    zero_method: str = "demsar",
    wilcoxon_method: str = "auto",
    higher_is_better: bool | None = None,
    as_result: bool = False,
):
    """Pairwise comparisons with adjusted p-values (Demšar 2006, §3.2.2; García & Herrera 2008, §2-3).

    Parameters
    ----------
    table : ScoreTable (or DataFrame with ``higher_is_better``)
    test : str
        The pairwise statistic, a name of :data:`compare_lib.PAIRWISE_TESTS` ("mean-ranks", "rank-sum-exact",
        "aligned-ranks", "quade", "conover", "wilcoxon", "sign", or one added with
        :func:`compare_lib.register_pairwise_test`); each entry says whether it depends on the pool.
    correction : str
        A name of :data:`compare_lib.PROCEDURES`. All pairs: "nemenyi" (studentized range, mean-ranks
        only; consistent with the Nemenyi CD), "bonferroni" (m p, García & Herrera's "Nemenyi"), "holm",
        "hochberg", "hommel", "shaffer", "bergmann-hommel" (APVs made monotone, García & Herrera's
        Table 5) or "bergmann-hommel-closed" (the APVs as defined: APV <= alpha is exactly the
        procedure's decision), "holland", "finner". With a control: "bonferroni-dunn", "holm",
        "hochberg", "hommel", "holland", "finner", "rom", "li".
    control : str, optional
        Compare every classifier with this one (k-1 hypotheses) instead of all pairs.
    alpha : float
        Level at which ``reject`` is decided (reject where p_adj <= alpha).
    as_result : bool
        Return a :class:`PosthocResult` (the table plus its provenance as fields) instead of the DataFrame.

    Returns
    -------
    DataFrame, one row per hypothesis ordered by p, with columns ``a``, ``b``, ``statistic`` (z for
    mean ranks, aligned ranks and Quade, t for Conover, the rank-sum difference R_b - R_a for the exact
    test: all positive when a is the better; T = min(R+, R-) for Wilcoxon; wins of a with ties split
    for the sign test), ``p``, ``p_adj``, ``reject``, ``better`` (the better
    classifier of the pair, "" if tied), ``mean_rank_a``, ``mean_rank_b`` (and ``n_datasets``, the data sets
    the pair shares, when the table has holes: "pairwise" missing-data policy). ``attrs`` holds test,
    correction, alpha, control, k, n, higher_is_better, mean_ranks, cd (the critical difference
    where the procedure has one) and approximate_pairs: the pairs whose p-value fell back to a normal
    approximation because the exact computation exceeded its budget (Wilcoxon with tied differences;
    "rank-sum-exact" beyond :data:`compare_lib.limits.EXACT_RANK_SUM_CELLS`), 0 when all are exact
    or the statistic is defined by its approximation (z and t statistics).
    """
    t = as_table(table, higher_is_better)
    check_alpha(alpha)
    fam = _family(t, test, control, zero_method, wilcoxon_method)
    spec = lookup_test(test)
    proc = lookup_procedure(correction, fam.family)
    p_adj = _adjusted(fam, proc.name, spec)
    names, k = t.classifiers, t.n_classifiers
    labels = np.asarray(names + [""], dtype=object)  # index -1 (a tie) names nobody
    ranks = t.mean_ranks.to_numpy()
    order = np.argsort(fam.p, kind="stable")  # rows ordered by p (ties keep the pairs' order), built once
    a, b, p_adj = fam.pairs[order, 0], fam.pairs[order, 1], p_adj[order]
    frame = pd.DataFrame(
        {
            "a": labels[a], "b": labels[b], "statistic": fam.stat[order], "p": fam.p[order], "p_adj": p_adj,
            "reject": p_adj <= alpha, "better": labels[fam.better[order]], "mean_rank_a": ranks[a],
            "mean_rank_b": ranks[b],
        },
        columns=COLUMNS,
    )
    notes: tuple[str, ...] = ()
    if fam.n is not None:  # a table with holes: each pair on the data sets it shares
        frame["n_datasets"] = fam.n[order]
        notes = (f"The table has missing cells: each pair is compared on the data sets both classifiers have "
                 f"({int(fam.n.min())} to {int(fam.n.max())} of {t.n_datasets}; column n_datasets).",)
        alone = int((fam.n == 0).sum())
        if alone:
            notes += (f"{alone} pair(s) share no data set: nothing can be said of them (p = 1).",)
    cd = None
    if spec.mean_ranks and proc.critical_difference is not None:
        cd = critical_difference(k, t.n_datasets, alpha, proc.critical_difference)
    result = PosthocResult(
        frame=frame, test=spec.name, correction=proc.name, alpha=float(alpha), control=control, k=k,
        n=t.n_datasets, higher_is_better=t.higher_is_better, mean_ranks=dict(zip(names, map(float, ranks))), cd=cd,
        approximate_pairs=int((~fam.exact).sum()), metric=t.metric, notes=notes,
    )
    return result if as_result else result.to_frame(copy=False)


def apv_table(
    table,
    test: str = DEFAULT_TEST,
    control: str | None = None,
    corrections: list[str] | None = None,
    *,
    zero_method: str = "demsar",
    wilcoxon_method: str = "auto",
    higher_is_better: bool | None = None,
    bergmann_hommel_max_k: int | None = None,
    procedures: list[str] | None = None,
    as_result: bool = False,
):
    """The APVs of several corrections side by side (García & Herrera 2008, Table 5 layout).

    One row per hypothesis ordered by p: ``a``, ``b``, ``statistic``, ``p`` and one column per
    correction (default: every correction that applies to the family and the test and whose limits the
    table is within; the exhaustive ones, Bergmann-Hommel, only up to ``bergmann_hommel_max_k``
    classifiers, by default the library's limit; ``attrs["skipped"]`` lists what was left out).
    ``procedures`` is the former name of ``corrections`` (deprecated).
    """
    if procedures is not None:
        _deprecated("apv_table(procedures=...)", "apv_table(corrections=...)")
        corrections = procedures
    t = as_table(table, higher_is_better)
    fam = _family(t, test, control, zero_method, wilcoxon_method)
    spec = lookup_test(test)
    skipped = []
    if corrections is None:
        corrections = procedures_for(fam.family, mean_ranks=spec.mean_ranks)
        skipped = [x for x in corrections
                   if PROCEDURES[x].unavailable(k=t.n_classifiers, m=fam.p.size,
                                                     exhaustive_max_k=bergmann_hommel_max_k)]
        corrections = [x for x in corrections if x not in skipped]
    labels = np.asarray(t.classifiers, dtype=object)
    order = np.argsort(fam.p, kind="stable")  # rows ordered by p, built once
    columns = {"a": labels[fam.pairs[order, 0]], "b": labels[fam.pairs[order, 1]], "statistic": fam.stat[order],
               "p": fam.p[order]}
    columns.update({name: _adjusted(fam, name, spec)[order] for name in corrections})
    base = pd.DataFrame(columns)
    result = ApvResult(frame=base, test=spec.name, control=control, k=t.n_classifiers, n=t.n_datasets,
                       skipped=skipped)
    return result if as_result else result.to_frame(copy=False)


def groups(result) -> list[tuple[str, ...]]:
    """Groups of classifiers not significantly different, for CD diagrams.

    A group is the set of all classifiers whose mean rank lies in an interval [lo, hi] of mean-rank
    values, with no pair inside rejected by the procedure of ``result`` (any procedure, not only
    Nemenyi); the groups are the maximal such intervals, best first. Classifiers with equal mean
    ranks sit at one point of the diagram, so they are always in or out of an interval together:
    the groups do not depend on the order of the columns or on the names (a bar drawn from lo to hi
    never covers a rejected pair). Groups of one classifier are included (drawings usually omit
    them). Only for all-pairs results: a control family does not test the other pairs.
    """
    result = as_posthoc_result(result)
    if result.control is not None:
        raise InputError(
            "Groups need all pairwise comparisons; a comparison with a control does not test the other pairs. "
            "Use the control's critical interval instead."
        )
    mean_ranks = result.mean_ranks
    if not mean_ranks:
        raise InputError("The result has no mean ranks in its attrs; pass a table returned by posthoc().")
    frame = result.frame
    reject = frame["reject"].to_numpy(dtype=bool)
    rejected = zip(frame["a"].to_numpy()[reject], frame["b"].to_numpy()[reject])
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


def verdict_methods(family: str) -> list[tuple[str, str]]:
    """The (statistic, correction) pairs the verdicts view compares, from the registries: the mean-ranks z
    with every correction that showcases it for the family, and every other statistic with the default
    correction."""
    out = []
    for name, spec in PAIRWISE_TESTS.items():
        if spec.mean_ranks:
            out += [(name, p) for p, proc in PROCEDURES.items() if family in proc.showcase]
        else:
            out.append((name, DEFAULT_CORRECTION))
    return out


def verdicts(table, alpha: float = 0.05, control: str | None = None, *, higher_is_better: bool | None = None,
             bergmann_hommel_max_k: int | None = None, as_result: bool = False):
    """Each pair's verdict under several statistic/correction combinations, disagreements first.

    One row per hypothesis (a, b); one column per method named "<test> / <procedure>" holding the
    better classifier's name when the pair is rejected at ``alpha`` and "" otherwise; ``agree`` is
    True when every method says the same. The methods are :func:`verdict_methods`. A correction beyond
    its limits (Bergmann-Hommel beyond ``bergmann_hommel_max_k`` classifiers, default
    :data:`compare_lib.limits.MAX_BERGMANN_HOMMEL_K`) is left out and ``attrs["skipped"]`` says so; a
    statistic undefined on the table (Conover's t when every data set ranks the classifiers the same
    way) is left out with the reason in ``attrs["undefined"]``.
    """
    t = as_table(table, higher_is_better)
    check_alpha(alpha)
    family = "control" if control is not None else "all-pairs"
    names = np.asarray(t.classifiers + [""], dtype=object)  # index -1 (a tie) names nobody
    skipped = []
    undefined: dict[str, str] = {}
    columns: dict[str, np.ndarray] = {}
    first = None
    labels = test_labels()
    for test, correction in verdict_methods(family):
        proc = PROCEDURES[correction]
        column = f"{labels[test]} / {proc.label}"
        n_hyp = t.n_classifiers - 1 if control is not None else t.n_classifiers * (t.n_classifiers - 1) // 2
        if proc.unavailable(k=t.n_classifiers, m=n_hyp, exhaustive_max_k=bergmann_hommel_max_k):
            skipped.append(f"{test} / {correction}")
            continue
        try:
            fam = _family(t, test, control)  # memoized per table: each statistic once
        except InputError as err:  # undefined on this table (e.g. Conover's t when every data set agrees)
            undefined[column] = worded(err)  # Python's words; in_words(reason, "app") gives the dashboard's
            continue
        first = first or fam
        columns[column] = np.where(_adjusted(fam, correction, PAIRWISE_TESTS[test]) <= alpha, names[fam.better], "")
    assert first is not None
    pairs = first.pairs
    order = np.argsort(first.p, kind="stable")  # by the first method's p, as in posthoc()
    verdict = np.column_stack(list(columns.values()))[order]
    agree = (verdict == verdict[:, :1]).all(axis=1)
    base = pd.DataFrame({"a": names[pairs[order, 0]], "b": names[pairs[order, 1]]})
    for j, name in enumerate(columns):
        base[name] = verdict[:, j]
    base["agree"] = agree
    base = base.iloc[np.argsort(agree, kind="stable")].reset_index(drop=True)  # disagreements first
    result = VerdictsResult(frame=base, alpha=float(alpha), control=control, skipped=skipped, undefined=undefined)
    return result if as_result else result.to_frame(copy=False)
