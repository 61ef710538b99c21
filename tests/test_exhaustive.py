"""Set partitions / exhaustive sets against brute force."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import compare_lib as cl


def test_bell_numbers():
    assert [cl.bell_number(k) for k in range(0, 13)] == [
        1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975, 678570, 4213597,
    ]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 7])
def test_partitions_are_distinct_restricted_growth_strings(k):
    labels = cl.set_partitions(k)
    assert labels.shape == (cl.bell_number(k), k)
    assert len({tuple(r) for r in labels}) == labels.shape[0]
    assert (labels[:, 0] == 0).all()
    running_max = np.maximum.accumulate(labels, axis=1)
    assert (labels[:, 1:] <= running_max[:, :-1] + 1).all()


def _transitively_closed(pairs: frozenset, k: int) -> bool:
    """A set of 'equal' pairs is possible (exhaustive) iff equality inside it is transitive."""
    # In every triple, two equalities force the third: exactly two present is impossible.
    for triple in combinations(range(k), 3):
        present = sum(frozenset(p) in pairs for p in combinations(triple, 2))
        if present == 2:
            return False
    return True


@pytest.mark.parametrize("k", [3, 4, 5])
def test_exhaustive_sets_equal_brute_force_definition(k):
    all_pairs = [frozenset(p) for p in combinations(range(k), 2)]
    brute = set()
    for mask in range(1, 2 ** len(all_pairs)):
        subset = frozenset(p for i, p in enumerate(all_pairs) if mask >> i & 1)
        if _transitively_closed(subset, k):
            brute.add(subset)
    ours = {frozenset(frozenset(p) for p in s) for s in cl.exhaustive_sets(k)}
    assert ours == brute


def test_partitions_are_cached_and_read_only():
    assert cl.set_partitions(6) is cl.set_partitions(6)
    with pytest.raises(ValueError):
        cl.set_partitions(6)[0, 0] = 1


def test_enumeration_limit_message():
    with pytest.raises(cl.InputError, match="Shaffer"):
        cl.set_partitions(13)


# -- Bergmann-Hommel: the clique search equals the enumeration -------------------------------------

from compare_lib.multiple._exhaustive import MAX_BERGMANN_HOMMEL_K, bergmann_hommel_raw  # noqa: E402


def _pvalues(rng, k: int) -> np.ndarray:
    """p-values of all pairs from a random score table (real structure: ties, tiny and large p)."""
    n = int(rng.integers(5, 40))
    shift = rng.normal(0, 1, k) * rng.uniform(0, 1.5)
    table = cl.as_table(np.round(rng.normal(size=(n, k)) + shift, int(rng.integers(0, 3))), higher_is_better=True)
    test = ["mean-ranks", "wilcoxon", "sign"][int(rng.integers(0, 3))]
    res = cl.apv_table(table, test, procedures=["bonferroni"])
    index = {name: i for i, name in enumerate(table.classifiers)}
    pmap = {(index[a], index[b]): p for a, b, p in zip(res["a"], res["b"], res["p"])}
    return np.array([pmap[pair] for pair in combinations(range(k), 2)])


def test_clique_search_equals_enumeration_on_hundreds_of_tables():
    rng = np.random.default_rng(2024)
    checked = 0
    for _ in range(300):
        k = int(rng.integers(3, 10))
        pairs = list(combinations(range(k), 2))
        p = _pvalues(rng, k)
        enumerated = bergmann_hommel_raw(p, k, pairs, method="enumerate")
        searched = bergmann_hommel_raw(p, k, pairs, method="cliques")
        assert np.allclose(enumerated, searched, rtol=1e-13, atol=0), (k, p)
        checked += 1
    assert checked == 300


@pytest.mark.parametrize("k", [10, 11])
def test_clique_search_equals_enumeration_for_larger_k(k):
    rng = np.random.default_rng(k)
    pairs = list(combinations(range(k), 2))
    for _ in range(3):
        p = _pvalues(rng, k)
        assert np.allclose(bergmann_hommel_raw(p, k, pairs, method="enumerate"),
                           bergmann_hommel_raw(p, k, pairs, method="cliques"), rtol=1e-13, atol=0)


def test_bergmann_hommel_beyond_enumeration():
    rng = np.random.default_rng(14)
    k = 14
    table = cl.as_table(rng.normal(size=(30, k)) + np.linspace(0, 1.5, k), higher_is_better=True)
    res = cl.apv_table(table, "wilcoxon", procedures=["shaffer", "bergmann-hommel"])
    assert (res["bergmann-hommel"] <= res["shaffer"] + 1e-12).all()
    assert (res["bergmann-hommel"] >= res["p"]).all()
    with pytest.raises(cl.InputError, match="Shaffer"):
        bergmann_hommel_raw(np.full(171, 0.5), MAX_BERGMANN_HOMMEL_K + 1, list(combinations(range(19), 2)))
