"""Exhaustive sets of pairwise hypotheses (Bergmann & Hommel 1988; García & Herrera 2008, §2.1).

For all pairwise comparisons of k classifiers, a set of hypotheses "a = b" can be exactly the set
of true ones only if equality is transitive inside it: the true hypotheses are the pairs inside the
blocks of a partition of the classifiers. So the exhaustive sets are the set partitions of the k
classifiers other than the one into singletons: Bell(k) - 1 of them (García & Herrera's Table 1:
14, 51, 202, 876, 4139, 21146 for k = 4..9).

Partitions are enumerated once per k as restricted-growth strings (``labels[p, i]`` is the block of
classifier i in partition p; the first classifier is in block 0 and each next one joins an existing
block or opens the next) and cached.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

from .errors import InputError

#: Enumerating partitions beyond this k takes too much memory and time (Bell(13) = 27.6 million).
MAX_ENUMERATED_K = 12


def bell_number(k: int) -> int:
    """Bell(k), the number of set partitions of k elements (Bell triangle, exact integers)."""
    if k < 0:
        raise InputError(f"k must be >= 0, got {k}.")
    row = [1]
    for _ in range(k):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[0]


def n_exhaustive_sets(k: int) -> int:
    """Number of non-empty exhaustive sets for all pairwise comparisons of k classifiers: Bell(k) - 1."""
    return bell_number(k) - 1


@lru_cache(maxsize=4)
def set_partitions(k: int) -> np.ndarray:
    """All set partitions of k classifiers as restricted-growth strings, shape (Bell(k), k), int8.

    The returned array is read-only and shared (cached per k).
    """
    if k < 1:
        raise InputError(f"k must be >= 1, got {k}.")
    if k > MAX_ENUMERATED_K:
        raise InputError(
            f"Enumerating the {bell_number(k):,} set partitions of k = {k} classifiers is too large "
            f"(the limit is k = {MAX_ENUMERATED_K}). Use Shaffer's procedure for this many classifiers."
        )
    labels = np.zeros((1, 1), dtype=np.int8)
    highest = np.zeros(1, dtype=np.int8)
    for _ in range(1, k):
        choices = highest.astype(np.int64) + 2  # join blocks 0..highest, or open block highest+1
        labels = np.repeat(labels, choices, axis=0)
        starts = np.repeat(np.cumsum(choices) - choices, choices)
        value = (np.arange(int(choices.sum())) - starts).astype(np.int8)
        highest = np.maximum(np.repeat(highest, choices), value)
        labels = np.concatenate([labels, value[:, None]], axis=1)
    labels.setflags(write=False)
    return labels


@lru_cache(maxsize=4)
def partition_sizes(k: int) -> np.ndarray:
    """|I| for every partition: the number of pairs inside its blocks, sum over blocks of C(size, 2)."""
    labels = set_partitions(k)
    sizes = np.zeros(labels.shape[0], dtype=np.int32)
    for block in range(k):
        count = (labels == block).sum(axis=1, dtype=np.int32)
        sizes += count * (count - 1) // 2
    sizes.setflags(write=False)
    return sizes


def exhaustive_sets(k: int) -> list[frozenset[tuple[int, int]]]:
    """The exhaustive sets as sets of index pairs (i, j), i < j, excluding the empty set."""
    out = []
    for row in set_partitions(k):
        pairs = frozenset((i, j) for i, j in combinations(range(k), 2) if row[i] == row[j])
        if pairs:
            out.append(pairs)
    return out
