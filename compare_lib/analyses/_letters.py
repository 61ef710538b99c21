"""Compact letter display of all-pairwise decisions (Piepho 2004, insert-and-absorb).

Piepho, H.-P. (2004), "An algorithm for a letter-based representation of all-pairwise comparisons",
Journal of Computational and Graphical Statistics 13(2):456-466. Each letter is a set of
classifiers (a column of a k x m boolean matrix); two classifiers share a letter exactly when the
procedure did not find them different.

* Start with one letter holding every classifier.
* *Insert*: for each rejected pair (i, j), every letter holding both is split in two, one without i and
  one without j.
* *Absorb*: a new letter contained in another letter is dropped (of equal ones the earliest stays).
  Only the new letters need the check: an old letter was not contained in the letter split (absorption
  would have dropped it), so it is not contained in either half. The check is one boolean matrix
  product (new letters x all letters).

Splitting keeps every pair other than (i, j) together in one of the halves and absorbing drops only
letters whose pairs another letter holds, so at the end two classifiers share a letter if and only if
their pair was not rejected. More: every set of classifiers with no rejected pair stays inside some
letter, and no letter is inside another, so the letters are exactly the maximal sets of classifiers
none of which were found different (the tests check this by brute force). Piepho's optional "sweep"
(removing letters redundant for the display) is not applied.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from compare_lib.analyses._posthoc import as_posthoc_result
from compare_lib.errors import InputError, arg

#: Most letters held during the construction: a display needing more cannot be read (the number of
#: letters can grow exponentially with k for contrived patterns of decisions).
MAX_LETTERS = 2_000
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def _split_and_absorb(columns: np.ndarray, i: int, j: int) -> np.ndarray:
    """One insert-and-absorb step for the rejected pair (i, j) on the k x m letter matrix."""
    hit = columns[i] & columns[j]
    if not hit.any():
        return columns
    keep = columns[:, ~hit]
    parent = columns[:, hit]
    without_i, without_j = parent.copy(), parent.copy()
    without_i[i] = False
    without_j[j] = False
    new = np.concatenate([without_i, without_j], axis=1)
    every = np.concatenate([keep, new], axis=1)
    # contained[c, d]: new letter c is a subset of letter d (no member of c outside d).
    outside = new.T.astype(np.float32) @ (~every).astype(np.float32)
    contained = outside == 0
    sizes = every.sum(axis=0)
    own = keep.shape[1] + np.arange(new.shape[1])
    position = np.arange(every.shape[1])
    # Dropped: contained in a larger letter, or equal to an earlier one.
    larger_or_earlier = (sizes[None, :] > sizes[own][:, None]) | (position[None, :] < own[:, None])
    drop = (contained & larger_or_earlier & (position[None, :] != own[:, None])).any(axis=1)
    return np.concatenate([keep, new[:, ~drop]], axis=1)


def _codes(m: int) -> list[str]:
    """Names of m letters: a..z up to 26, then fixed-width codes (aa, ab, ..., zz for up to 676; aaa, ... beyond)
    so that a classifier's string splits into codes of equal width."""
    if m <= len(_ALPHABET):
        return list(_ALPHABET[:m])
    width = max(2, math.ceil(math.log(m, 26) - 1e-12))
    digits = (np.arange(m)[:, None] // 26 ** np.arange(width - 1, -1, -1)[None, :]) % 26
    return ["".join(_ALPHABET[d] for d in row) for row in digits]


def letter_matrix(names: list[str], rejected: np.ndarray, mean_ranks: np.ndarray) -> np.ndarray:
    """The k x m letter matrix (columns = letters, in display order) from the rejected pairs (an (r, 2) array of
    indices into ``names``) and the mean ranks. Letters are ordered by their members in mean-rank order
    (ties: the table's order): "a" is the first letter holding the best classifier, and so on."""
    k = len(names)
    rank_order = np.lexsort((np.arange(k), mean_ranks))
    position = np.empty(k, dtype=np.int64)
    position[rank_order] = np.arange(k)
    pairs = np.asarray(rejected, dtype=np.int64).reshape(-1, 2)
    if pairs.size:  # a fixed order of insertion (by rank positions): the result never depends on the rows' order
        pos = np.sort(position[pairs], axis=1)
        pairs = pairs[np.lexsort((pos[:, 1], pos[:, 0]))]
    columns = np.ones((k, 1), dtype=bool)
    for i, j in pairs.tolist():
        if i == j:
            continue
        columns = _split_and_absorb(columns, i, j)
        if columns.shape[1] > MAX_LETTERS:
            raise InputError(f"These decisions need more than {MAX_LETTERS:,} letters; a letter display that large "
                             "cannot be read. Show the groups (compare_lib.groups) or the matrix of decisions instead.")
    ranked = columns[rank_order]  # rows in mean-rank order
    order = np.lexsort((~ranked)[::-1])  # primary key: holds the best classifier (True first), then the next, ...
    return columns[:, order]


def letters(posthoc_result, *, mean_ranks=None) -> dict[str, str]:
    """Compact letter display of an all-pairs post-hoc analysis (Piepho 2004, insert-and-absorb).

    Parameters
    ----------
    posthoc_result : PosthocResult or DataFrame
        What :func:`compare_lib.posthoc` returns (all pairs; its ``attrs`` hold the mean ranks).
    mean_ranks : dict or Series, optional
        Classifier -> mean rank (lower = better), to order the letters; default the result's.

    Returns
    -------
    dict classifier -> letters (the table's order). Two classifiers share a letter exactly when the
    procedure did not reject their pair. "a" is the first letter holding the classifier with the best mean
    rank, "b" the next letter in that order, and so on; each classifier's letters are in alphabetical order.
    Up to 26 letters are a..z; beyond, every letter is a fixed-width code of lower-case letters ("aa", "ab",
    ..., "zz" for up to 676), so that a string splits into codes of equal width ("aaab" = "aa" + "ab").
    """
    result = as_posthoc_result(posthoc_result)
    if result.control is not None:
        raise InputError("A letter display needs all pairwise comparisons; a comparison with a control "
                         f"({result.control!r}) does not test the other pairs. Run posthoc without control.")
    ranks = result.mean_ranks if mean_ranks is None else dict(pd.Series(mean_ranks))
    if not ranks:
        raise InputError("The post-hoc result has no mean ranks (attrs['mean_ranks']); pass the result of "
                         f"compare_lib.posthoc, or give {arg('mean_ranks')}{{classifier: mean rank}}.")
    names = [str(x) for x in ranks]
    values = np.array([float(ranks[x]) for x in ranks])
    frame = result.frame
    index = pd.Index(names)
    a = index.get_indexer(frame["a"].astype(str).to_numpy())
    b = index.get_indexer(frame["b"].astype(str).to_numpy())
    if (a < 0).any() or (b < 0).any():
        unknown = sorted({str(x) for x, i in zip(np.r_[frame["a"], frame["b"]], np.r_[a, b]) if i < 0})
        raise InputError(f"The post-hoc result names classifiers without a mean rank: {', '.join(unknown)}.")
    reject = frame["reject"].to_numpy(dtype=bool)
    columns = letter_matrix(names, np.column_stack([a[reject], b[reject]]), values)
    codes = np.array(_codes(columns.shape[1]), dtype=object)
    return {name: "".join(codes[row]) for name, row in zip(names, columns)}
