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
