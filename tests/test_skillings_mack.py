"""Tests of :mod:`compare_lib.stats._skillings_mack` (Skillings & Mack 1981, Technometrics 23(2):171-177).

Where the expected numbers come from is said in each test. The paper itself and Hollander, Wolfe &
Chicken (3rd ed.) were not available in readable form: the published statistics of their worked
examples could not be checked, so the worked-example tests pin the values printed by (or recorded
from) the R implementations that carry those data sets as their examples.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.sparse.csgraph import connected_components

from compare_lib.stats._skillings_mack import SkillingsMackResult, skillings_mack_statistic
from compare_lib.errors import InputError

nan = np.nan

# Brady (1969) stuttering data as used for the Skillings-Mack test in Hollander, Wolfe & Chicken,
# copied from the NSM3 example (`pSkilMack`, "Hollander, Wolfe, Chicken Example 7.8 Effect of
# Rhythmicity of a Metronome on Speech Fluency", cran/NSM3 man/pSkilMack.Rd) and identical to the
# PMCMRplus example (R/skillingsMackTest.R, "Example from Hollander and Wolfe 1999, originally
# appeared in Brady 1969", columns R, A, B). 8 subjects (blocks) x 3 conditions; subject 4 has no
# score under condition A.
BRADY = np.array(
    [
        [3, 5, 15],
        [1, 3, 18],
        [5, 4, 21],
        [2, nan, 6],
        [0, 2, 17],
        [0, 2, 10],
        [0, 3, 8],
        [0, 2, 13],
    ],
    dtype=float,
)

# Skillings & Mack (1981) Table 1 (p. 173), comparison of four methods (A-D) of assembling a product
# by nine workers (blocks), as typed into the example of the R package Skillings.Mack (`Ski.Mack`,
# man/Ski.Mack.Rd: "## Skillings and Mack (1981), Table 1 page 173"). The package's vector y lists
# the blocks one after the other (blocks <- rep(1:9, each = 4), groups <- rep(c('A','B','C','D'), 9)).
SM_TABLE1 = np.array(
    [
        [3.2, 4.1, 3.8, 4.2],
        [3.1, 3.9, 3.4, 4.0],
        [4.3, 3.5, 4.6, 4.8],
        [3.5, 3.6, 3.9, 4.0],
        [3.6, 4.2, 3.7, 3.9],
        [4.5, 4.7, 3.7, nan],
        [nan, 4.2, 3.4, nan],
        [4.3, 4.6, 4.4, 4.9],
        [3.5, nan, 3.7, 3.9],
    ]
)


# --------------------------------------------------------------------------------------------------
# Independent reference: plain Python loops straight from the paper's formulas.
# --------------------------------------------------------------------------------------------------


def _reference(scores, higher_is_better=True):
    """Skillings-Mack from the formulas, cell by cell (no vectorisation, pinv as the g-inverse).

    Returns (statistic, A, statistic_ties) where statistic_ties uses the covariance of A obtained by
    enumerating, block by block, every permutation of the observed midranks over the present cells
    (the conditional permutation null), which shares no formula with the implementation."""
    rows = [list(r) for r in np.asarray(scores, dtype=float)]
    k = len(rows[0])
    blocks = []
    for row in rows:
        cells = [j for j in range(k) if not math.isnan(row[j])]
        if len(cells) >= 2:
            blocks.append((row, cells))
    a = [0.0] * k
    lam = [[0] * k for _ in range(k)]
    cov_ties = np.zeros((k, k))
    for row, cells in blocks:
        n_i = len(cells)
        ranks = {}
        for j in cells:
            if higher_is_better:
                better = sum(1 for s in cells if row[s] > row[j])
            else:
                better = sum(1 for s in cells if row[s] < row[j])
            equal = sum(1 for s in cells if row[s] == row[j])
            ranks[j] = better + (equal + 1) / 2.0  # average of ranks better+1 .. better+equal
        w = math.sqrt(12.0 / (n_i + 1))
        for j in range(k):
            r = ranks.get(j, (n_i + 1) / 2.0)  # missing cell: the average rank
            a[j] += w * (r - (n_i + 1) / 2.0)
        for s in cells:
            for t in cells:
                if s != t:
                    lam[s][t] += 1
        # exact covariance of this block's contribution under permutations of its midranks
        values = [w * (ranks[j] - (n_i + 1) / 2.0) for j in cells]
        perms = list(itertools.permutations(values))
        for p_idx, s in enumerate(cells):
            for q_idx, t in enumerate(cells):
                cov_ties[s, t] += sum(p[p_idx] * p[q_idx] for p in perms) / len(perms)
    sigma = np.zeros((k, k))
    for s in range(k):
        for t in range(k):
            sigma[s, t] = -lam[s][t] if s != t else sum(lam[s][u] for u in range(k) if u != s)
    a_vec = np.array(a)
    statistic = float(a_vec @ np.linalg.pinv(sigma) @ a_vec)
    statistic_ties = float(a_vec @ np.linalg.pinv(cov_ties) @ a_vec)
    return statistic, a_vec, statistic_ties


def _random_table(rng, n, k, missing=0.3, ties=False):
    """A random connected table with holes (every row keeps >= 2 scores, every column some)."""
    while True:
        x = rng.integers(0, 4, size=(n, k)).astype(float) if ties else rng.normal(size=(n, k))
        holes = rng.random((n, k)) < missing
        x[holes] = nan
        present = ~np.isnan(x)
        if (present.sum(axis=1) >= 2).all() and present.any(axis=0).all():
            pairs = present.T.astype(int) @ present.astype(int)
            count, _ = connected_components(pairs > 0, directed=False)
            if count == 1:
                return x


def _friedman_no_tie_correction(x, higher_is_better=True):
    """12/(N k (k+1)) sum_j R_j^2 - 3 N (k+1) on a complete table, ties averaged, no correction."""
    n, k = x.shape
    ranks = stats.rankdata(-x if higher_is_better else x, axis=1)
    r = ranks.sum(axis=0)
    return 12.0 / (n * k * (k + 1)) * float((r**2).sum()) - 3.0 * n * (k + 1)


# --------------------------------------------------------------------------------------------------
# Published worked examples
# --------------------------------------------------------------------------------------------------


def test_skillings_mack_1981_table1_assembly_methods():
    """Skillings & Mack (1981), Table 1: four assembly methods, nine workers, four holes.

    Data: the example of the R package Skillings.Mack 1.10 (man/Ski.Mack.Rd, "Skillings and Mack
    (1981), Table 1 page 173"). Expected: the output of that example as printed in the README of
    github.com/ZacWarham/Skillings.Mack (a fork of the CRAN package), "Skillings-Mack Statistic =
    15.493049 , p-value = 0.001440 / Note: the p-value is based on the chi-squared distribution with
    d.f. = 3". The statistic printed in the paper itself could not be read here (paper not
    available), so this pins the R package's value, not the paper's.
    """
    res = skillings_mack_statistic(SM_TABLE1, higher_is_better=False)
    assert isinstance(res, SkillingsMackResult)
    assert res.statistic == pytest.approx(15.493049, abs=5e-7)
    assert res.pvalue == pytest.approx(0.001440, abs=5e-7)
    assert res.df == 3 and res.k == 4 and res.n == 9 and res.n_missing == 4
    # no ties in any block: the tie-exact version is the same number
    assert res.statistic_ties == res.statistic
    # the long (vector) layout of the R example gives the same table
    y = SM_TABLE1.reshape(-1)
    blocks = np.repeat(np.arange(9), 4)
    groups = np.tile(np.arange(4), 9)
    rebuilt = np.full((9, 4), nan)
    rebuilt[blocks, groups] = y
    assert skillings_mack_statistic(rebuilt, False).statistic == res.statistic


def test_brady_1969_as_in_hollander_wolfe_chicken():
    """Brady (1969) metronome data, the Skillings-Mack example of Hollander, Wolfe & Chicken.

    Data: NSM3 `pSkilMack` example ("Hollander, Wolfe, Chicken Example 7.8"; the NSM3 help pages number
    it Example 7.8 and place Mack-Skillings at 7.9) = PMCMRplus `skillingsMackTest` example.
    Expected: SM = 13.28095, p = 0.001306405, df = 2 and the adjusted sums A_R = -11.392304845413262,
    A_A = -1.7320508075688772, A_B = 13.124355652982139, the values tlsfuzzer's test suite pins for
    this example ("check if it produces the same values as the example from PMCMRplus R module
    documentation", tlsfuzzer/tlsfuzzer tests/test_tlsfuzzer_utils_stats.py, test_PMCMRplus_example and
    test_summarise_chunk). The statistic printed in Hollander, Wolfe & Chicken could not be read here
    (book not available); these are the R package's values.

    R ranks in ascending order (rank 1 = fewest stuttering episodes), which is this library's rank
    1 = best with higher_is_better=False: the A_j then agree in sign too.
    """
    res = skillings_mack_statistic(BRADY, higher_is_better=False)
    assert res.statistic == pytest.approx(13.28095, rel=1e-6)
    assert res.pvalue == pytest.approx(0.001306405, rel=1e-6)
    assert res.df == 2 and res.k == 3 and res.n == 8 and res.n_missing == 1
    np.testing.assert_allclose(
        res.adjusted_rank_sums,
        [-11.392304845413262, -1.7320508075688772, 13.124355652982139],
        rtol=1e-12,
    )
    # higher_is_better=True: same statistic, A negated (the R packages' sign flips)
    flipped = skillings_mack_statistic(BRADY, higher_is_better=True)
    assert flipped.statistic == pytest.approx(res.statistic, rel=1e-13)
    np.testing.assert_allclose(flipped.adjusted_rank_sums, -res.adjusted_rank_sums, rtol=1e-13)


def test_tied_and_unbalanced_example_matches_the_no_ties_covariance_convention():
    """A 5-treatment design with a within-block tie and a treatment seen in one block only.

    Data and expected SM = 12.53551, p = 0.01378318, df = 4: tlsfuzzer/tlsfuzzer
    tests/test_tlsfuzzer_utils_stats.py, test_example_with_many_missing_values (long format there:
    block 3 has the tie 5, 5 between treatments 1 and 4). Matching it confirms the convention of the
    R implementations: midranks for ties and the no-ties covariance. The tie-exact version is larger.
    """
    vals = [3, 5, 15, 4, 1, 3, 5, 4, 21, 5, 2, 6, 0, 2, 17, 0, 2, 10, 0, 3, 5, 0, 2, 13]
    groups = [1, 2, 3, 5, 1, 2, 1, 2, 3, 4, 1, 3, 1, 2, 3, 1, 2, 3, 1, 2, 4, 1, 2, 3]
    blocks = [1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8]
    table = np.full((8, 5), nan)
    for v, g, b in zip(vals, groups, blocks):
        table[b - 1, g - 1] = v
    res = skillings_mack_statistic(table, higher_is_better=False)
    assert res.statistic == pytest.approx(12.53551, rel=1e-6)
    assert res.pvalue == pytest.approx(0.01378318, rel=1e-6)
    assert res.df == 4
    assert res.statistic_ties > res.statistic
    assert any("tied scores" in note for note in res.notes)
    ref_stat, ref_a, ref_ties = _reference(table, higher_is_better=False)
    assert res.statistic_ties == pytest.approx(ref_ties, rel=1e-10)


# --------------------------------------------------------------------------------------------------
# Reduction to Friedman (complete tables) and to Durbin (balanced incomplete blocks)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_complete_table_without_ties_is_friedman(seed):
    """Nothing missing, continuous scores (no ties): SM = scipy's Friedman chi-squared (whose tie
    correction is then 1), with the same chi-squared(k-1) p-value."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 40)), int(rng.integers(3, 9))  # scipy needs k >= 3
    x = rng.normal(size=(n, k))
    res = skillings_mack_statistic(x)
    expected = stats.friedmanchisquare(*x.T)
    assert res.statistic == pytest.approx(expected.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(expected.pvalue, rel=1e-9)
    assert res.df == k - 1 and res.n == n and res.n_missing == 0
    assert res.statistic_ties == res.statistic


def test_complete_table_with_two_classifiers_is_friedman_formula():
    """k = 2 (scipy's friedmanchisquare refuses it): compare with the textbook formula."""
    x = np.random.default_rng(9).normal(size=(25, 2))
    res = skillings_mack_statistic(x)
    assert res.statistic == pytest.approx(_friedman_no_tie_correction(x), rel=1e-10)
    assert res.df == 1


@pytest.mark.parametrize("seed", range(6))
def test_complete_table_with_ties(seed):
    """What ties do, nothing missing (documented finding):

    * ``statistic`` (the Skillings-Mack / R convention: midranks, no-ties covariance) equals
      Friedman's chi-squared WITHOUT tie correction, 12/(Nk(k+1)) sum R_j^2 - 3N(k+1) on midranks;
    * ``statistic_ties`` (exact covariance given the ties) equals Friedman's tie-CORRECTED
      chi-squared, i.e. scipy.stats.friedmanchisquare, which always applies the correction;
    * so statistic <= statistic_ties, the uncorrected p-value being the conservative one.
    """
    rng = np.random.default_rng(100 + seed)
    n, k = int(rng.integers(4, 30)), int(rng.integers(3, 7))
    x = rng.integers(0, 3, size=(n, k)).astype(float)
    x[0, :2] = [0.0, 1.0]  # at least one block that is not all tied
    res = skillings_mack_statistic(x)
    assert res.statistic == pytest.approx(_friedman_no_tie_correction(x), rel=1e-10)
    assert res.statistic_ties == pytest.approx(stats.friedmanchisquare(*x.T).statistic, rel=1e-10)
    assert res.statistic <= res.statistic_ties + 1e-12


def test_balanced_incomplete_block_design_is_durbin():
    """Fano plane BIBD: t = 7 treatments, b = 7 blocks of size 3, each pair together once (lambda = 1),
    r = 3 replicates. SM equals Durbin's D = 12(t-1)/(r t (k-1)(k+1)) sum_j (R_j - r(k+1)/2)^2
    (Chatfield & Mander 2009 state the equivalence)."""
    lines = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    rng = np.random.default_rng(7)
    x = np.full((7, 7), nan)
    for i, line in enumerate(lines):
        x[i, list(line)] = rng.normal(size=3) + np.array(line) * 0.3
    res = skillings_mack_statistic(x, higher_is_better=False)
    t, k_block, r = 7, 3, 3
    ranks = stats.rankdata(x, axis=1, nan_policy="omit")
    rank_sums = np.nansum(ranks, axis=0)
    durbin = 12 * (t - 1) / (r * t * (k_block - 1) * (k_block + 1)) * float(
        ((rank_sums - r * (k_block + 1) / 2) ** 2).sum()
    )
    assert res.statistic == pytest.approx(durbin, rel=1e-10)
    assert res.df == 6 and res.n_missing == 28


# --------------------------------------------------------------------------------------------------
# Independent computation on random tables with holes
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_agrees_with_plain_python_reference(seed, higher_is_better):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 12)), int(rng.integers(2, 6))
    x = _random_table(rng, n, k, missing=0.35, ties=seed % 2 == 1)
    res = skillings_mack_statistic(x, higher_is_better=higher_is_better)
    ref_stat, ref_a, ref_ties = _reference(x, higher_is_better=higher_is_better)
    assert res.statistic == pytest.approx(ref_stat, rel=1e-10, abs=1e-10)
    np.testing.assert_allclose(res.adjusted_rank_sums, ref_a, rtol=1e-10, atol=1e-10)
    assert res.statistic_ties == pytest.approx(ref_ties, rel=1e-10, abs=1e-10)
    assert res.pvalue == pytest.approx(stats.chi2.sf(ref_stat, k - 1), rel=1e-9, abs=1e-12)
    assert res.n_missing == int(np.isnan(x).sum())


@pytest.mark.parametrize("seed", range(5))
def test_generalized_inverse_and_dropping_any_treatment_agree(seed):
    """A sums to 0 and Sigma's rows sum to 0, so A' pinv(Sigma) A equals A_(-j)' Sigma_(-j)^-1 A_(-j)
    for every dropped treatment j (the implementation drops the last one)."""
    rng = np.random.default_rng(50 + seed)
    x = _random_table(rng, 15, 6, missing=0.4)
    res = skillings_mack_statistic(x)
    a = res.adjusted_rank_sums
    assert abs(a.sum()) < 1e-9
    present = (~np.isnan(x)).astype(float)
    lam = present.T @ present
    np.fill_diagonal(lam, 0.0)
    sigma = np.diag(lam.sum(axis=1)) - lam
    assert np.linalg.matrix_rank(sigma) == 5
    assert float(a @ np.linalg.pinv(sigma) @ a) == pytest.approx(res.statistic, rel=1e-10)
    for j in range(6):
        keep = [c for c in range(6) if c != j]
        reduced = float(a[keep] @ np.linalg.solve(sigma[np.ix_(keep, keep)], a[keep]))
        assert reduced == pytest.approx(res.statistic, rel=1e-10)


# --------------------------------------------------------------------------------------------------
# Invariances
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_invariances(seed):
    rng = np.random.default_rng(200 + seed)
    x = _random_table(rng, 20, 5, missing=0.3, ties=seed % 2 == 0)
    res = skillings_mack_statistic(x)

    rows = rng.permutation(x.shape[0])
    by_rows = skillings_mack_statistic(x[rows])
    assert by_rows.statistic == pytest.approx(res.statistic, rel=1e-12)
    assert by_rows.statistic_ties == pytest.approx(res.statistic_ties, rel=1e-12)
    np.testing.assert_allclose(by_rows.adjusted_rank_sums, res.adjusted_rank_sums, rtol=1e-12, atol=1e-12)

    cols = rng.permutation(x.shape[1])
    by_cols = skillings_mack_statistic(x[:, cols])
    assert by_cols.statistic == pytest.approx(res.statistic, rel=1e-12)
    assert by_cols.statistic_ties == pytest.approx(res.statistic_ties, rel=1e-12)
    np.testing.assert_allclose(by_cols.adjusted_rank_sums, res.adjusted_rank_sums[cols], rtol=1e-12, atol=1e-12)

    flipped = skillings_mack_statistic(x, higher_is_better=False)
    assert flipped.statistic == pytest.approx(res.statistic, rel=1e-12)
    assert flipped.statistic_ties == pytest.approx(res.statistic_ties, rel=1e-12)
    np.testing.assert_allclose(flipped.adjusted_rank_sums, -res.adjusted_rank_sums, rtol=1e-12, atol=1e-12)
    # negating the scores and the direction together changes nothing at all
    mirrored = skillings_mack_statistic(-x, higher_is_better=False)
    np.testing.assert_array_equal(mirrored.adjusted_rank_sums, res.adjusted_rank_sums)
    assert mirrored.statistic == res.statistic


def test_adjusted_rank_sums_sign_follows_rank_one_is_best():
    """Classifier 0 best everywhere, 2 worst: negative A for the best (low ranks), positive for the worst."""
    x = np.array([[0.9, 0.8, 0.1], [0.95, nan, 0.2], [0.7, 0.6, 0.5], [nan, 0.9, 0.3]])
    a = skillings_mack_statistic(x, higher_is_better=True).adjusted_rank_sums
    assert a[0] < 0 < a[2]
    assert skillings_mack_statistic(x, higher_is_better=False).adjusted_rank_sums[0] > 0


# --------------------------------------------------------------------------------------------------
# Blocks that carry no information
# --------------------------------------------------------------------------------------------------


def test_blocks_with_fewer_than_two_scores_are_dropped_with_a_note():
    """A single score, or none, adds nothing to A or Sigma (NSM3 / PMCMRplus keep such rows with no
    effect; Ski.Mack refuses them): dropping them leaves the statistic unchanged."""
    extra = np.array([[nan, 7.0, nan], [nan, nan, nan], [1.0, nan, nan]])
    x = np.vstack([BRADY, extra])
    res = skillings_mack_statistic(x, higher_is_better=False)
    base = skillings_mack_statistic(BRADY, higher_is_better=False)
    assert res.statistic == base.statistic
    np.testing.assert_array_equal(res.adjusted_rank_sums, base.adjusted_rank_sums)
    assert res.n == 8 and res.n_missing == base.n_missing
    assert any("fewer than two scores" in note and "row 8" in note for note in res.notes)


def test_all_tied_block_counts_for_sigma_but_not_for_the_tie_exact_covariance():
    x = np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 3.0], [5.0, 5.0, 5.0], [3.0, 1.0, nan]])
    res = skillings_mack_statistic(x)
    without = skillings_mack_statistic(np.delete(x, 2, axis=0))
    np.testing.assert_allclose(res.adjusted_rank_sums, without.adjusted_rank_sums, atol=1e-12)
    assert res.statistic < without.statistic  # the tied block inflates the no-ties Sigma
    assert res.statistic_ties == pytest.approx(without.statistic, rel=1e-12)


def test_tie_exact_statistic_undefined_when_ties_disconnect_the_design():
    x = np.array([[1.0, 2.0, nan], [2.0, 1.0, nan], [nan, 4.0, 4.0], [3.0, 1.0, nan]])
    res = skillings_mack_statistic(x)
    assert math.isfinite(res.statistic)
    assert math.isnan(res.statistic_ties) and math.isnan(res.pvalue_ties)
    assert any("tie-exact statistic is undefined" in note for note in res.notes)


# --------------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------------


def test_disconnected_design_names_the_groups():
    x = pd.DataFrame(
        [[1, 2, nan, nan], [2, 1, nan, nan], [3, 4, nan, nan], [nan, nan, 1, 2], [nan, nan, 4, 3]],
        columns=["svm", "knn", "tree", "forest"],
        dtype=float,
    )
    with pytest.raises(InputError, match="disconnected") as info:
        skillings_mack_statistic(x)
    message = str(info.value)
    assert "{svm, knn}" in message and "{tree, forest}" in message


def test_classifier_never_present_is_named():
    x = pd.DataFrame([[1, 2, nan], [2, 1, nan], [3, 4, nan]], columns=["a", "b", "c"], dtype=float)
    with pytest.raises(InputError, match=r"classifier\(s\) c have no score"):
        skillings_mack_statistic(x)


def test_classifier_only_in_single_score_rows_counts_as_never_present():
    x = np.array([[1.0, 2.0, nan], [2.0, 1.0, nan], [nan, nan, 5.0]])
    with pytest.raises(InputError, match=r"column 2 have no score"):
        skillings_mack_statistic(x)


def test_fewer_than_two_usable_blocks():
    x = np.array([[1.0, 2.0, 3.0], [nan, 4.0, nan], [nan, nan, nan]])
    with pytest.raises(InputError, match="only 1 data set"):
        skillings_mack_statistic(x)


@pytest.mark.parametrize(
    "bad, pattern",
    [
        (np.ones((5, 1)), "at least 2 classifiers"),
        (np.ones(5), "2-D table"),
        ([["a", "b"], ["c", "d"]], "must be numbers"),
    ],
)
def test_other_bad_inputs(bad, pattern):
    with pytest.raises(InputError, match=pattern):
        skillings_mack_statistic(bad)


# --------------------------------------------------------------------------------------------------
# Result object, notes and speed
# --------------------------------------------------------------------------------------------------


def test_result_is_frozen_and_serialisable():
    res = skillings_mack_statistic(SM_TABLE1, higher_is_better=False)
    with pytest.raises(AttributeError):
        res.statistic = 0.0  # type: ignore[misc]
    d = res.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["df"] == 3 and len(d["adjusted_rank_sums"]) == 4 and d["higher_is_better"] is False
    assert any("chi-squared approximation" in note for note in d["notes"])
    assert any("missing score" in note for note in d["notes"])


def test_large_complete_design_has_no_notes():
    rng = np.random.default_rng(3)
    res = skillings_mack_statistic(rng.normal(size=(40, 8)))
    assert res.notes == ()


def test_twenty_thousand_by_fifty_with_ties_and_holes():
    """Large and tied: every block is used and the statistic is finite (the time is measured in bench/)."""
    rng = np.random.default_rng(11)
    x = np.round(rng.random((20_000, 50)), 2)  # rounding makes ties, the slower path
    x[rng.random(x.shape) < 0.2] = nan
    res = skillings_mack_statistic(x)
    assert res.n == 20_000 and res.k == 50 and np.isfinite(res.statistic)
