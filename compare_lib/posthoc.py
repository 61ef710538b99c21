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
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .adjust import PROCEDURES, _finish, _lookup, adjust, procedures_for
from .critical import critical_difference, rank_standard_error, studentized_range_sf_many
from .data import ScoreTable, as_table
from .errors import InputError
from .two_classifiers import _check_alpha, sign_test, wilcoxon

TESTS = ("mean-ranks", "wilcoxon", "sign")
TEST_LABELS = {"mean-ranks": "mean-ranks z", "wilcoxon": "Wilcoxon signed-ranks", "sign": "sign test"}
COLUMNS = ["a", "b", "statistic", "p", "p_adj", "reject", "better", "mean_rank_a", "mean_rank_b"]


def _pairwise(t: ScoreTable, pairs: list[tuple[int, int]], test: str, zero_method: str, wilcoxon_method: str):
    """Raw statistic, p and the better classifier (index or -1) of every pair (a, b)."""
    scores = t.scores.to_numpy()
    ranks = t.mean_ranks.to_numpy()
    stat = np.empty(len(pairs))
    p = np.empty(len(pairs))
    better = np.empty(len(pairs), dtype=int)
    if test == "mean-ranks":
        se = rank_standard_error(t.n_classifiers, t.n_datasets)
        for h, (a, b) in enumerate(pairs):
            stat[h] = (ranks[b] - ranks[a]) / se
            better[h] = a if ranks[a] < ranks[b] else b if ranks[b] < ranks[a] else -1
        p[:] = np.minimum(1.0, 2 * stats.norm.sf(np.abs(stat)))
        return stat, p, better
    for h, (a, b) in enumerate(pairs):
        if test == "wilcoxon":
            res = wilcoxon(
                scores[:, a], scores[:, b], zero_method=zero_method, method=wilcoxon_method,
                higher_is_better=t.higher_is_better,
            )
            stat[h], p[h] = res.statistic, res.pvalue
            # R+ collects the ranks where b is better.
            better[h] = b if res.r_plus > res.r_minus else a if res.r_minus > res.r_plus else -1
        else:
            res = sign_test(scores[:, b], scores[:, a], higher_is_better=t.higher_is_better)
            stat[h], p[h] = res.statistic, res.pvalue  # statistic: wins of a, ties split
            better[h] = a if res.wins > res.losses else b if res.losses > res.wins else -1
    return stat, p, better


@dataclass(frozen=True)
class _Family:
    """The hypotheses of a post-hoc analysis and their raw pairwise statistics (computed once)."""

    family: str
    k: int
    pairs: list
    stat: np.ndarray
    p: np.ndarray
    better: np.ndarray


def _family(t: ScoreTable, test: str, control: str | None, zero_method: str, wilcoxon_method: str) -> _Family:
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
    stat, p, better = _pairwise(t, pairs, test, zero_method, wilcoxon_method)
    return _Family("control" if control is not None else "all-pairs", k, pairs, stat, p, better)


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
    test : {"mean-ranks", "wilcoxon", "sign"}
        The pairwise statistic.
    correction : str
        All pairs: "nemenyi" (studentized range, mean-ranks only; consistent with the Nemenyi CD),
        "bonferroni" (m p, García & Herrera's "Nemenyi"), "holm", "hochberg", "hommel", "shaffer",
        "bergmann-hommel". With a control: "bonferroni-dunn", "holm", "hochberg", "hommel".
    control : str, optional
        Compare every classifier with this one (k-1 hypotheses) instead of all pairs.
    alpha : float
        Level at which ``reject`` is decided (reject where p_adj <= alpha).

    Returns
    -------
    DataFrame, one row per hypothesis ordered by p, with columns ``a``, ``b``, ``statistic`` (z for
    mean ranks, positive when a has the better mean rank; T = min(R+, R-) for Wilcoxon; wins of a
    with ties split for the sign test), ``p``, ``p_adj``, ``reject``, ``better`` (the better
    classifier of the pair, "" if tied), ``mean_rank_a``, ``mean_rank_b``. ``attrs`` holds test,
    correction, alpha, control, k, n, higher_is_better, mean_ranks and cd (the critical difference
    where the procedure has one).
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
        if t.n_classifiers > limit and "bergmann-hommel" in procedures:
            procedures.remove("bergmann-hommel")
            skipped.append("bergmann-hommel")
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

    Each group is a maximal set of classifiers adjacent in mean-rank order (best first) in which no
    pair is rejected by the procedure of ``result`` (any procedure, not only Nemenyi). Groups of one
    classifier are included (a classifier different from all its neighbours); drawings usually omit
    them. Only for all-pairs results: a control family does not test the other pairs.
    """
    if result.attrs.get("control") is not None:
        raise InputError(
            "Groups need all pairwise comparisons; a comparison with a control does not test the other pairs. "
            "Use the control's critical interval instead."
        )
    mean_ranks = result.attrs.get("mean_ranks")
    if not mean_ranks:
        raise InputError("The result has no mean ranks in its attrs; pass a table returned by posthoc().")
    rejected = [(a, b) for a, b, rej in zip(result["a"], result["b"], result["reject"]) if rej]
    return not_different_groups(mean_ranks, rejected)


def not_different_groups(mean_ranks: dict[str, float], rejected) -> list[tuple[str, ...]]:
    """:func:`groups` from mean ranks and the rejected pairs: maximal runs of classifiers adjacent in
    mean-rank order (best first) that contain no rejected pair."""
    order = sorted(mean_ranks, key=lambda name: mean_ranks[name])
    position = {name: i for i, name in enumerate(order)}
    k = len(order)
    blocked = np.zeros((k, k), dtype=bool)
    for a, b in rejected:
        i, j = sorted((position[a], position[b]))
        blocked[i, j] = True
    # end[i]: the furthest j such that no pair inside order[i..j] is rejected; it never decreases.
    end = np.zeros(k, dtype=int)
    j = 0
    for i in range(k):
        j = max(j, i)
        while j + 1 < k and not blocked[i : j + 2, j + 1].any():
            j += 1
        end[i] = j
    out = []
    for i in range(k):
        if i == 0 or end[i] > end[i - 1]:
            out.append(tuple(order[i : end[i] + 1]))
    return out


#: The procedures compared side by side in :func:`verdicts` (pairwise statistic, procedure).
VERDICT_METHODS_ALL_PAIRS = (
    ("mean-ranks", "nemenyi"),
    ("mean-ranks", "holm"),
    ("mean-ranks", "shaffer"),
    ("mean-ranks", "bergmann-hommel"),
    ("wilcoxon", "holm"),
    ("sign", "holm"),
)
VERDICT_METHODS_CONTROL = (
    ("mean-ranks", "bonferroni-dunn"),
    ("mean-ranks", "holm"),
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
    ``attrs["skipped"]`` says so).
    """
    t = as_table(table, higher_is_better)
    _check_alpha(alpha)
    limit = _bergmann_hommel_limit(bergmann_hommel_max_k)
    methods = VERDICT_METHODS_CONTROL if control is not None else VERDICT_METHODS_ALL_PAIRS
    names = t.classifiers
    families: dict[str, _Family] = {}  # each pairwise statistic is computed once
    skipped = []
    base = None
    for test, correction in methods:
        if correction == "bergmann-hommel" and t.n_classifiers > limit:
            skipped.append(f"{test} / {correction}")
            continue
        fam = families.get(test) or families.setdefault(test, _family(t, test, control, "demsar", "auto"))
        if base is None:
            base = pd.DataFrame({"a": [names[a] for a, _ in fam.pairs], "b": [names[b] for _, b in fam.pairs]})
            order = np.argsort(fam.p, kind="stable")
        better = np.array([names[x] if x >= 0 else "" for x in fam.better], dtype=object)
        base[f"{TEST_LABELS[test]} / {PROCEDURES[correction].label}"] = np.where(
            _adjusted(fam, correction, test) <= alpha, better, ""
        )
    assert base is not None
    base = base.iloc[order].reset_index(drop=True)  # by the first method's p, as in posthoc()
    cols = [c for c in base.columns if c not in ("a", "b")]
    base["agree"] = base[cols].nunique(axis=1) == 1
    base = base.sort_values("agree", kind="stable").reset_index(drop=True)
    base.attrs.update(alpha=float(alpha), control=control, skipped=skipped)
    return base
