"""Compact letter display (compare_lib.analyses._letters, Piepho 2004 insert-and-absorb).

What is asserted:

* the defining property, two classifiers share a letter if and only if their pair was not rejected, on
  random patterns of decisions (hypothesis, up to 12 classifiers, tied mean ranks included) and on the
  decisions of ``cl.posthoc`` on random tables; every letter is maximal (none inside another), the letters
  used are the first m of the alphabet, each string is sorted, and "a" goes to the best classifier;
* hand-worked displays (an interval pattern, a non-interval one, none and all rejected), Demšar's Table 6;
* k = 50 tables from posthoc, fixed-width codes beyond 26 letters, independence of the rows' order;
* refusals: a comparison with a control, a result without mean ranks, a pattern needing too many letters.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compare_lib as cl
from compare_lib.analyses._letters import MAX_LETTERS, letters
from compare_lib.analyses._posthoc import PosthocResult

from .strategies import score_tables


def _result(names, mean_ranks, rejected) -> PosthocResult:
    """A post-hoc result with the given rejected pairs (all pairs listed)."""
    rejected = {frozenset(p) for p in rejected}
    rows = [{"a": a, "b": b, "reject": frozenset((a, b)) in rejected} for a, b in combinations(names, 2)]
    return PosthocResult(frame=pd.DataFrame(rows, columns=["a", "b", "reject"]), test="wilcoxon", correction="holm",
                         k=len(names), mean_ranks=dict(zip(names, map(float, mean_ranks))))


def _split(code: str, width: int) -> list[str]:
    return [code[i : i + width] for i in range(0, len(code), width)]


def _width(display: dict) -> int:
    """1 for single letters (no string repeats a character); 2 for the codes beyond 26 letters (the best
    classifier's string starts with "aa")."""
    return 1 if all(len(set(s)) == len(s) for s in display.values()) else 2


def _maximal_sets(names, rejected: set) -> set[frozenset]:
    """Brute force: the maximal sets of classifiers containing no rejected pair (every subset tried)."""
    k = len(names)
    bad = [[frozenset((names[i], names[j])) in rejected for j in range(k)] for i in range(k)]
    free = [mask for mask in range(1, 2**k)
            if not any(mask >> i & 1 and mask >> j & 1 and bad[i][j] for i in range(k) for j in range(i + 1, k))]
    maximal = [m for m in free if not any(other != m and other & m == m for other in free)]
    return {frozenset(names[i] for i in range(k) if m >> i & 1) for m in maximal}


def _check(display: dict, names, rejected: set, mean_ranks, *, brute_force: bool = True) -> None:
    """Every property of a letter display, for the decisions ``rejected`` (a set of frozensets)."""
    assert list(display) == list(names)
    width = _width(display)
    codes = sorted({c for s in display.values() for c in _split(s, width)})
    members = {c: frozenset(x for x in names if c in _split(display[x], width)) for c in codes}
    for a, b in combinations(names, 2):
        shares = bool(set(_split(display[a], width)) & set(_split(display[b], width)))
        assert shares == (frozenset((a, b)) not in rejected), (a, b)
    for x in names:  # every classifier has a letter, its letters sorted, no letter twice
        parts = _split(display[x], width)
        assert parts and parts == sorted(parts) and len(set(parts)) == len(parts)
    for c, d in combinations(codes, 2):  # absorbed: no letter inside another
        assert not members[c] <= members[d] and not members[d] <= members[c]
    # The letters are the first m codes (single letters up to 26), "a" held by the best classifier.
    m = len(codes)
    assert (m <= 26) == (width == 1)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    expected = list(alphabet[:m]) if width == 1 else [x + y for x in alphabet for y in alphabet][:m]
    assert codes == expected
    best = min(range(len(names)), key=lambda i: (mean_ranks[i], i))
    assert codes[0] in _split(display[names[best]], width)
    if brute_force:  # the letters are exactly the maximal sets of classifiers not found different
        assert set(members.values()) == _maximal_sets(list(names), rejected)


def test_hand_worked_displays():
    names = ["A", "B", "C", "D"]
    ranks = [1.0, 2.0, 3.0, 4.0]
    # Interval pattern: A < C, A < D, B < D: {A, B}, {B, C}, {C, D}.
    assert letters(_result(names, ranks, [("A", "C"), ("A", "D"), ("B", "D")])) == \
        {"A": "a", "B": "ab", "C": "bc", "D": "c"}
    # Only the extremes differ: {A, B, C}, {B, C, D}.
    assert letters(_result(names, ranks, [("A", "D")])) == {"A": "a", "B": "ab", "C": "ab", "D": "b"}
    # Not an interval: only B and C differ: {A, B, D}, {A, C, D}; "a" is the letter holding A and B.
    assert letters(_result(names, ranks, [("B", "C")])) == {"A": "ab", "B": "a", "C": "b", "D": "ab"}
    assert letters(_result(names, ranks, [])) == {x: "a" for x in names}
    assert letters(_result(names, ranks, list(combinations(names, 2)))) == {"A": "a", "B": "b", "C": "c", "D": "d"}
    # The letters follow the mean ranks, not the table's order: D best, then C, B, A.
    assert letters(_result(names, ranks[::-1], [("A", "C"), ("A", "D"), ("B", "D")])) == \
        {"A": "c", "B": "bc", "C": "ab", "D": "a"}
    # ... and mean_ranks= overrides the result's.
    assert letters(_result(names, ranks, [("A", "D")]), mean_ranks={"A": 4, "B": 3, "C": 2, "D": 1}) == \
        {"A": "b", "B": "ab", "C": "ab", "D": "a"}


def test_demsar_table6(demsar):
    # Wilcoxon + Holm at 0.10 rejects C4.5 vs C4.5+m and C4.5 vs C4.5+m+cf (see test_rank_sets).
    result = cl.posthoc(demsar, "wilcoxon", "holm", alpha=0.10, as_result=True)
    assert letters(result) == {"C4.5": "b", "C4.5+m": "a", "C4.5+cf": "ab", "C4.5+m+cf": "a"}
    # The DataFrame posthoc returns works too (its attrs hold the mean ranks).
    assert letters(cl.posthoc(demsar, "wilcoxon", "holm", alpha=0.10)) == letters(result)


@st.composite
def decisions(draw, max_k: int = 12):
    k = draw(st.integers(2, max_k))
    names = [f"c{i}" for i in range(k)]
    pairs = list(combinations(names, 2))
    bits = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    ranks = draw(st.lists(st.integers(1, k), min_size=k, max_size=k))  # small integers: tied mean ranks
    rejected = {frozenset(p) for p, bit in zip(pairs, bits) if bit}
    return names, [float(r) for r in ranks], rejected


@settings(max_examples=300, deadline=None)
@given(decisions())
def test_defining_property_on_random_decisions(case):
    names, ranks, rejected = case
    display = letters(_result(names, ranks, [tuple(p) for p in rejected]))
    _check(display, names, rejected, ranks)


@settings(max_examples=60, deadline=None)
@given(score_tables(max_k=8), st.sampled_from(["wilcoxon", "sign", "mean-ranks"]),
       st.sampled_from(["holm", "bonferroni", "shaffer"]), st.sampled_from([0.05, 0.2, 0.5]))
def test_defining_property_on_posthoc_results(table, test, correction, alpha):
    result = cl.posthoc(table, test, correction, alpha=alpha, as_result=True)
    rejected = {frozenset((r.a, r.b)) for r in result.frame.itertuples() if r.reject}
    _check(letters(result), table.classifiers, rejected, table.mean_ranks.to_numpy())


def test_fifty_classifiers():
    rng = np.random.default_rng(0)
    for seed in range(3):
        scores = rng.normal(size=(30, 50)) + np.linspace(0, 4, 50)
        table = cl.as_table(scores, higher_is_better=True)
        result = cl.posthoc(table, "wilcoxon", "holm", as_result=True)
        rejected = {frozenset((r.a, r.b)) for r in result.frame.itertuples() if r.reject}
        assert 0 < len(rejected) < 1225
        _check(letters(result), table.classifiers, rejected, table.mean_ranks.to_numpy(), brute_force=False)


def test_more_than_26_letters_use_fixed_width_codes():
    names = [f"c{i}" for i in range(30)]
    display = letters(_result(names, range(30), list(combinations(names, 2))))  # all differ: 30 letters
    assert display["c0"] == "aa" and display["c1"] == "ab" and display["c26"] == "ba" and display["c29"] == "bd"
    # Two classifiers kept together: 29 letters, still two characters each.
    rejected = {frozenset(p) for p in combinations(names, 2)} - {frozenset(("c0", "c1"))}
    display = letters(_result(names, range(30), [tuple(p) for p in rejected]))
    assert display["c0"] == display["c1"] == "aa" and display["c2"] == "ab"
    _check(display, names, rejected, list(range(30)), brute_force=False)


def test_order_of_rows_does_not_matter(demsar):
    result = cl.posthoc(demsar, "wilcoxon", "holm", alpha=0.10, as_result=True)
    shuffled = PosthocResult(frame=result.frame.iloc[::-1].reset_index(drop=True), test=result.test,
                             correction=result.correction, k=result.k, mean_ranks=result.mean_ranks)
    assert letters(shuffled) == letters(result)


def test_refusals(demsar):
    control = cl.posthoc(demsar, "wilcoxon", "holm", control="C4.5", as_result=True)
    with pytest.raises(cl.InputError, match="all pairwise comparisons"):
        letters(control)
    with pytest.raises(cl.InputError, match="result of compare_lib.posthoc"):
        letters(pd.DataFrame({"a": ["x"], "b": ["y"], "reject": [True]}))
    bare = PosthocResult(frame=pd.DataFrame({"a": ["x"], "b": ["y"], "reject": [True]}), test="wilcoxon")
    with pytest.raises(cl.InputError, match="no mean ranks"):
        letters(bare)
    assert letters(bare, mean_ranks={"x": 1, "y": 2}) == {"x": "a", "y": "b"}
    with pytest.raises(cl.InputError, match="without a mean rank"):
        letters(bare, mean_ranks={"x": 1, "z": 2})


def test_too_many_letters_is_refused():
    """Rejected pairs = disjoint triples: the classifiers not found different form 3^(k/3) maximal sets
    (Moon & Moser), 3^8 = 6561 for k = 24."""
    names = [f"c{i}" for i in range(24)]
    triples = [names[i : i + 3] for i in range(0, 24, 3)]
    rejected = [p for t in triples for p in combinations(t, 2)]
    with pytest.raises(cl.InputError, match=f"more than {MAX_LETTERS:,} letters"):
        letters(_result(names, range(24), rejected))
    # Four triples are fine: 3^4 = 81 letters, each classifier with 27.
    small = names[:12]
    rejected = [p for t in triples[:4] for p in combinations(t, 2)]
    display = letters(_result(small, range(12), rejected))
    _check(display, small, {frozenset(p) for p in rejected}, list(range(12)))
    assert {len(s) for s in display.values()} == {27 * 2}
