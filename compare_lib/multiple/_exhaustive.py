"""Exhaustive sets of pairwise hypotheses (Bergmann & Hommel 1988; García & Herrera 2008, §2.1).

For all pairwise comparisons of k classifiers, a set of hypotheses "a = b" can be exactly the set
of true ones only if equality is transitive inside it: the true hypotheses are the pairs inside the
blocks of a partition of the classifiers. So the exhaustive sets are the set partitions of the k
classifiers other than the one into singletons: Bell(k) - 1 of them (García & Herrera's Table 1:
14, 51, 202, 876, 4139, 21146 for k = 4..9).

Partitions are enumerated once per k as restricted-growth strings (``labels[p, i]`` is the block of
classifier i in partition p; the first classifier is in block 0 and each next one joins an existing
block or opens the next) and cached.

Bergmann-Hommel's adjusted p-value of pair h is the largest |I| * min_{j in I} p_j over exhaustive
sets I containing h (García & Herrera 2008, §3). :func:`bergmann_hommel_raw` computes it two ways:

* "enumerate": over all Bell(k) - 1 partitions, vectorized (fast up to k = 10, possible to 12);
* "cliques": without listing partitions. The optimal I has some minimum t = min_{j in I} p_j, and its
  blocks are then cliques of the graph G_t whose edges are the pairs with p >= t. So
  APV_h = max over thresholds t <= p_h of t * C_h(t), where C_h(t) is the largest number of
  within-block pairs of a partition of the classifiers into cliques of G_t that keeps h's two
  classifiers together. C_h(t) is found by a memoized search over vertex subsets (isolated
  vertices dropped, components solved apart, a clique solved at once, branching on the vertex of
  least degree), and thresholds whose bound t * (edges of G_t) cannot beat the current value are
  skipped. It equals the enumeration exactly (tested on hundreds of tables) and handles k = 15 in a
  few seconds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Sequence

import numpy as np

from compare_lib.core._validation import check_choice
from compare_lib.errors import InputError

#: Enumerating partitions beyond this k takes too much memory and time (Bell(13) = 27.6 million).
from compare_lib.limits import MAX_ENUMERATED_K  # noqa: E402
#: Up to this k the enumeration is the faster of the two Bergmann-Hommel methods.
ENUMERATE_UP_TO_K = 10
#: The clique search takes (worst of seeded tables, bench/bergmann_hommel.py) 0.26 s at k = 12, 0.7 s at 13,
#: 2.1 s at 14, 6.3 s at 15 and 22 s at 16: beyond 15 Shaffer's procedure is the practical choice.
from compare_lib.limits import MAX_BERGMANN_HOMMEL_K  # noqa: E402
BERGMANN_HOMMEL_METHODS = ("auto", "enumerate", "cliques")


#: Bell(k) by the Bell triangle costs k^2/2 additions of integers of up to ~k log k bits.
from compare_lib.limits import MAX_BELL_K  # noqa: E402


def bell_number(k: int) -> int:
    """Bell(k), the number of set partitions of k elements (Bell triangle, exact integers; k <= 2000)."""
    if int(k) != k or k < 0:
        raise InputError(f"k must be a whole number >= 0, got {k!r}.")
    if k > MAX_BELL_K:
        raise InputError(f"bell_number is computed up to k = {MAX_BELL_K} (Bell({k}) has thousands of digits).")
    k = int(k)
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


# ---------------------------------------------------------------------------------------------
# Bergmann-Hommel adjusted p-values


def _by_enumeration(p: np.ndarray, k: int, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """APV_h = max over partitions with h inside a block of |I| * (smallest p inside the blocks)."""
    labels = set_partitions(k)
    sizes = partition_sizes(k).astype(float)
    n_parts = labels.shape[0]
    columns = [np.ascontiguousarray(labels[:, i]) for i in range(k)]
    # Smallest within-block p of every partition: visit pairs by increasing p; the first pair found
    # inside a partition's blocks sets its minimum.
    min_p = np.full(n_parts, np.inf)
    unset = np.ones(n_parts, dtype=bool)
    for h in np.argsort(p, kind="stable"):
        a, b = pairs[h]
        inside = columns[a] == columns[b]
        min_p[inside & unset] = p[h]
        unset &= ~inside
    value = np.where(sizes > 0, sizes * np.where(np.isinf(min_p), 0.0, min_p), 0.0)
    out = np.empty_like(p)
    for h, (a, b) in enumerate(pairs):
        out[h] = np.max(np.where(columns[a] == columns[b], value, 0.0))
    return out


def _bits(x: int):
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class _CliquePartition:
    """Largest sum over blocks of C(|B|, 2) for partitions of vertex sets into cliques of one graph."""

    def __init__(self, adj: list[int]):
        self.adj = adj
        self.memo: dict[int, int] = {}

    def _edges(self, s: int) -> int:
        total, rest = 0, s
        for v in _bits(s):
            rest &= ~(1 << v)
            total += (self.adj[v] & rest).bit_count()
        return total

    def cliques(self, candidates: int) -> list[int]:
        """Every non-empty clique inside ``candidates`` (bitmasks), largest first."""
        out: list[int] = []

        def extend(current: int, cand: int) -> None:
            for u in _bits(cand):
                cand &= ~(1 << u)
                grown = current | (1 << u)
                out.append(grown)
                extend(grown, cand & self.adj[u])

        extend(0, candidates)
        out.sort(key=int.bit_count, reverse=True)
        return out

    def best(self, s: int) -> int:
        key = s
        if key in self.memo:
            return self.memo[key]
        adj = self.adj
        s = sum(1 << v for v in _bits(s) if adj[v] & s)  # isolated vertices add nothing
        n = s.bit_count()
        edges = self._edges(s)
        if s == 0 or edges == n * (n - 1) // 2:  # empty, or one clique: a single block
            self.memo[key] = edges
            return edges
        component = frontier = s & -s
        while frontier:
            reach = 0
            for v in _bits(frontier):
                reach |= adj[v]
            frontier = reach & s & ~component
            component |= frontier
        if component != s:
            value = self.best(component) + self.best(s & ~component)
            self.memo[key] = value
            return value
        v = min(_bits(s), key=lambda u: (adj[u] & s).bit_count())
        rest = s & ~(1 << v)
        value = self.best(rest)  # v on its own
        for clique in self.cliques(adj[v] & s):
            size = clique.bit_count() + 1
            value = max(value, size * (size - 1) // 2 + self.best(rest & ~clique))
            if value == edges:  # no partition has more within-block pairs than the graph has edges
                break
        self.memo[key] = value
        return value

    def best_with_pair(self, a: int, b: int, everything: int) -> int:
        """Largest value among partitions that put a and b in one block (a clique containing both)."""
        both = (1 << a) | (1 << b)
        value = 1 + self.best(everything & ~both)
        for clique in self.cliques(self.adj[a] & self.adj[b] & everything):
            size = clique.bit_count() + 2
            value = max(value, size * (size - 1) // 2 + self.best(everything & ~(both | clique)))
        return value


def _by_cliques(p: np.ndarray, k: int, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    best = p.copy()  # I = {h} alone gives |I| min p = p_h
    everything = (1 << k) - 1
    for t in np.unique(p)[::-1]:
        on = np.flatnonzero(p >= t)
        bound = t * on.size  # no partition of G_t has more within-block pairs than G_t has edges
        todo = [h for h in on if best[h] < min(1.0, bound)]
        if not todo:
            continue
        adj = [0] * k
        for h in on:
            a, b = pairs[int(h)]
            adj[a] |= 1 << b
            adj[b] |= 1 << a
        solver = _CliquePartition(adj)
        unconstrained = solver.best(everything)
        for h in todo:
            if best[h] >= t * unconstrained:
                continue
            a, b = pairs[int(h)]
            best[h] = max(best[h], t * solver.best_with_pair(a, b, everything))
    return best


def bergmann_hommel_raw(p, k: int, pairs: Sequence[tuple[int, int]], method: str = "auto") -> np.ndarray:
    """Bergmann-Hommel APVs before the monotone and tie steps: max over exhaustive I containing h of
    |I| * min_{j in I} p_j, capped at 1 (García & Herrera 2008, §3). ``method``: "enumerate",
    "cliques" or "auto" (enumeration up to k = 10, then the clique search). The last few results are
    cached by value, so the post-hoc table, the APV table and the verdicts share one computation."""
    p = np.ascontiguousarray(p, dtype=float)
    pairs_array = np.ascontiguousarray(np.asarray(pairs, dtype=np.int64).reshape(-1, 2))
    out = _cached_raw(p.tobytes(), int(k), pairs_array.tobytes(), method)
    return out.copy()


@lru_cache(maxsize=16)
def _cached_raw(p_bytes: bytes, k: int, pairs_bytes: bytes, method: str) -> np.ndarray:
    p = np.frombuffer(p_bytes, dtype=float).copy()
    pairs = [(a, b) for a, b in np.frombuffer(pairs_bytes, dtype=np.int64).reshape(-1, 2).tolist()]
    check_choice(method, BERGMANN_HOMMEL_METHODS, "method")
    if k > MAX_BERGMANN_HOMMEL_K:
        raise InputError(
            f"Bergmann-Hommel with k = {k} classifiers would take too long (the limit is k = "
            f"{MAX_BERGMANN_HOMMEL_K}); use Shaffer's procedure, the next most powerful."
        )
    if method == "enumerate" or (method == "auto" and k <= ENUMERATE_UP_TO_K):
        return np.minimum(_by_enumeration(p, k, pairs), 1.0)
    return np.minimum(_by_cliques(p, k, pairs), 1.0)
