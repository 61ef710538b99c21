"""Tests of the "pairwise" missing-data policy: score tables that keep their holes (NaN cells).

``cl.ScoreTable(frame, higher_is_better, missing="pairwise")`` (and ``load_scores`` / ``Results.table``
with ``missing="pairwise"``) keeps every data set and classifier; a comparison of two classifiers uses
the data sets both have a score on. What is asserted here:

* the pairwise Wilcoxon and sign post-hoc tables give, for every pair, exactly what ``cl.wilcoxon`` /
  ``cl.sign_test`` give on the complete cases of that pair, with ``n_datasets`` their number, and
  adjusted p-values equal to ``cl.adjust`` of those raw p-values (seeded tables and a hypothesis
  property); and, independently, what ``scipy.stats.wilcoxon`` (zsplit, no zeros, no ties) and
  ``scipy.stats.binomtest`` give;
* without holes the policy changes nothing (same table, same results as ``missing="error"``);
* ranks in a table with holes rank the present classifiers among themselves, NaN in the holes;
* every statistic that needs a complete table refuses with an ``InputError`` naming Skillings-Mack and
  the pairwise Wilcoxon/sign alternative;
* ``cl.skillings_mack`` on a ScoreTable equals its kernel, and Friedman's chi2_F on a complete table;
* derived tables (``subset``, ``with_direction``) keep the holes and the policy;
* loading a long file with a missing run: a hole with "pairwise", a named error with "error", a dropped
  data set (with a note) with "drop-datasets";
* fuzzing: any text loaded with "pairwise" gives a table or one InputError, and the tests run on it give
  results (p-values in [0, 1]) or an InputError, nothing else.

The Skillings-Mack kernel itself is tested in tests/test_skillings_mack.py.
"""

from __future__ import annotations

import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import compare_lib as cl
from compare_lib.stats._skillings_mack import skillings_mack_statistic

ALL_PAIRS_CORRECTIONS = ["bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer",
                         "bergmann-hommel", "bergmann-hommel-closed"]
CONTROL_CORRECTIONS = ["bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "rom", "li"]
PAIR_TESTS = ["wilcoxon", "sign"]


# -- helpers -------------------------------------------------------------------------------------------

def quiet(fn, *args, **kwargs):
    """Call ``fn`` without showing the DataWarning notes (and nanmean's empty-slice warnings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


def make_scores(seed: int, n: int = 14, k: int = 5, *, levels: int | None = 4, hole_rate: float = 0.25
                ) -> pd.DataFrame:
    """A random N x k frame with NaN holes; ``levels`` small integers make ties, None gives distinct floats."""
    rng = np.random.default_rng(seed)
    shift = rng.normal(0, 0.7, size=k)
    if levels is None:
        values = rng.normal(size=(n, k)) + shift
    else:
        values = np.clip(np.round(rng.normal(size=(n, k)) * 1.5 + shift), -levels, levels)
    values[rng.random((n, k)) < hole_rate] = np.nan
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"C{j}" for j in range(k)])


def holed_table(seed: int, higher_is_better: bool = True, **kwargs) -> cl.ScoreTable:
    return quiet(cl.ScoreTable, make_scores(seed, **kwargs), higher_is_better, missing="pairwise")


def shared(t: cl.ScoreTable, a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
    """The scores of a and b on the data sets where both have one (complete cases of the pair)."""
    x, y = t.scores[a].to_numpy(), t.scores[b].to_numpy()
    both = ~np.isnan(x) & ~np.isnan(y)
    return x[both], y[both]


def by_pair(frame: pd.DataFrame) -> dict[tuple[str, str], pd.Series]:
    return {(row["a"], row["b"]): row for _, row in frame.iterrows()}


def reference_pair(t: cl.ScoreTable, test: str, a: str, b: str) -> dict:
    """What the two-classifier function gives on the complete cases of (a, b): p, statistic (in posthoc's
    convention: T for Wilcoxon, wins of a with ties split for the sign test), the better one, n."""
    x, y = shared(t, a, b)
    if x.size == 0:  # nothing shared: no evidence either way
        return {"p": 1.0, "statistic": 0.0, "better": "", "n": 0}
    if test == "wilcoxon":
        r = cl.wilcoxon(x, y, higher_is_better=t.higher_is_better)  # R+ collects the data sets where b is better
        better = b if r.r_plus > r.r_minus else a if r.r_minus > r.r_plus else ""
        return {"p": r.pvalue, "statistic": r.statistic, "better": better, "n": x.size}
    r = cl.sign_test(y, x, higher_is_better=t.higher_is_better)  # statistic: wins of x = a
    better = a if r.wins > r.losses else b if r.losses > r.wins else ""
    return {"p": r.pvalue, "statistic": r.statistic, "better": better, "n": x.size}


def assert_posthoc_is_complete_case(t: cl.ScoreTable, test: str, correction: str, control: str | None = None):
    """Every row of the post-hoc table is the two-classifier test on the pair's shared data sets, and the
    adjusted p-values are cl.adjust of those p-values."""
    res = quiet(cl.posthoc, t, test, correction, control=control, as_result=True)
    frame = res.frame
    assert res.approximate_pairs == 0  # small tables: every p-value exact, as the single-pair function gives it
    names = t.classifiers
    if control is None:
        pairs = list(combinations(range(len(names)), 2))
        family = "all-pairs"
    else:
        c = names.index(control)
        pairs = [(c, j) for j in range(len(names)) if j != c]
        family = "control"
    rows = by_pair(frame)
    assert len(rows) == len(pairs) == len(frame)
    ref_p = []
    for i, j in pairs:
        a, b = names[i], names[j]
        ref = reference_pair(t, test, a, b)
        row = rows[(a, b)]
        assert row["p"] == ref["p"], (a, b)
        assert row["statistic"] == ref["statistic"], (a, b)
        assert row["better"] == ref["better"], (a, b)
        assert row["n_datasets"] == ref["n"], (a, b)
        ref_p.append(ref["p"])
    expected = cl.adjust(ref_p, correction, k=len(names), pairs=pairs if control is None else None, family=family)
    for (i, j), apv in zip(pairs, expected):
        assert rows[(names[i], names[j])]["p_adj"] == pytest.approx(apv, rel=1e-12, abs=1e-15)
    assert (frame["reject"] == (frame["p_adj"] <= res.alpha)).all()
    n = frame["n_datasets"]
    assert res.notes and f"({int(n.min())} to {int(n.max())} of {t.n_datasets}; column n_datasets)" in res.notes[0]
    return res


# -- the pairwise Wilcoxon and sign tests use each pair's shared data sets ------------------------------------

@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("test", PAIR_TESTS)
def test_posthoc_pairs_equal_the_two_classifier_test_on_shared_datasets(test, seed, higher_is_better):
    t = holed_table(seed, higher_is_better, n=12 + 3 * seed, k=4 + seed % 3, hole_rate=0.15 + 0.05 * seed)
    assert t.has_missing
    assert_posthoc_is_complete_case(t, test, "holm")


@pytest.mark.parametrize("correction", ALL_PAIRS_CORRECTIONS)
@pytest.mark.parametrize("test", PAIR_TESTS)
def test_all_pairs_adjusted_pvalues_equal_adjust_of_the_complete_case_pvalues(test, correction):
    for seed in (11, 12):
        assert_posthoc_is_complete_case(holed_table(seed, seed % 2 == 0, n=16, k=5), test, correction)


@pytest.mark.parametrize("correction", CONTROL_CORRECTIONS)
@pytest.mark.parametrize("test", PAIR_TESTS)
def test_control_adjusted_pvalues_equal_adjust_of_the_complete_case_pvalues(test, correction):
    for seed in (21, 22):
        t = holed_table(seed, seed % 2 == 1, n=15, k=5)
        assert_posthoc_is_complete_case(t, test, correction, control="C2")


@pytest.mark.parametrize("test", PAIR_TESTS)
def test_pairs_without_holes_between_them_keep_their_complete_table_result(test):
    """A pair both of whose columns are complete gets the same p as in the table without the other columns."""
    t = holed_table(3, n=18, k=5, hole_rate=0.3)
    full = t.scores.copy()
    full[["C0", "C1"]] = make_scores(3, n=18, k=5, hole_rate=0.0)[["C0", "C1"]]
    t = quiet(cl.ScoreTable, full, True, missing="pairwise")
    alone = cl.ScoreTable(full[["C0", "C1"]], True)
    got = by_pair(quiet(cl.posthoc, t, test, "holm"))[("C0", "C1")]
    want = cl.posthoc(alone, test, "holm").iloc[0]
    assert got["p"] == want["p"] and got["statistic"] == want["statistic"] and got["n_datasets"] == 18


def test_a_pair_sharing_no_dataset_has_p_one_and_n_zero():
    frame = pd.DataFrame({"A": [1, 2, np.nan, np.nan], "B": [np.nan, np.nan, 4, 1], "C": [3, 1, 2, 5.0]},
                         index=list("wxyz"))
    t = quiet(cl.ScoreTable, frame, True, missing="pairwise")
    for test in PAIR_TESTS:
        rows = by_pair(quiet(cl.posthoc, t, test, "holm"))
        assert rows[("A", "B")]["n_datasets"] == 0
        assert rows[("A", "B")]["p"] == 1.0 and not rows[("A", "B")]["reject"] and rows[("A", "B")]["better"] == ""
        assert rows[("A", "C")]["n_datasets"] == 2 and rows[("B", "C")]["n_datasets"] == 2


@st.composite
def holed_tables(draw, max_k: int = 5, max_n: int = 12):
    """Small random tables (ties common) with random holes, either direction."""
    k = draw(st.integers(2, max_k))
    n = draw(st.integers(2, max_n))
    levels = draw(st.sampled_from([1, 2, 3, 6, None]))
    rate = draw(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.8]))
    seed = draw(st.integers(0, 2**32 - 1))
    frame = make_scores(seed, n=n, k=k, levels=levels, hole_rate=rate)
    # A classifier with no score at all is refused (nothing to compare); give each at least one.
    frame = frame.apply(lambda column: column if column.notna().any() else column.fillna(0.5, limit=1))
    return quiet(cl.ScoreTable, frame, draw(st.booleans()), missing="pairwise")


@settings(max_examples=60, deadline=None)
@given(holed_tables(), st.sampled_from(PAIR_TESTS), st.sampled_from(["holm", "hommel", "shaffer", "finner"]))
def test_property_posthoc_is_the_complete_case_test_of_each_pair(t, test, correction):
    if not t.has_missing:  # no holes: no n_datasets column, and the complete-table path is tested below
        frame = cl.posthoc(t, test, correction)
        assert "n_datasets" not in frame.columns
        for (a, b), row in by_pair(frame).items():
            assert row["p"] == reference_pair(t, test, a, b)["p"]
        return
    assert_posthoc_is_complete_case(t, test, correction)


# -- the same against scipy ---------------------------------------------------------------------------------

@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed,n", [(0, 12), (1, 20), (2, 35), (3, 80)])
def test_wilcoxon_pairs_equal_scipy_zsplit_without_zeros_or_ties(seed, n, higher_is_better):
    """Distinct continuous scores: no zero and no tied |difference|, where every zero method agrees; scipy
    exact up to 50 shared data sets, its normal approximation (no continuity correction) beyond."""
    t = holed_table(seed, higher_is_better, n=n, k=4, levels=None, hole_rate=0.2)
    rows = by_pair(quiet(cl.posthoc, t, "wilcoxon", "holm"))
    beyond_50 = 0
    for a, b in combinations(t.classifiers, 2):
        x, y = shared(t, a, b)
        d = np.abs(x - y)
        assert d.min() > 0 and np.unique(d).size == d.size  # the premise: no zeros, no ties
        method = "exact" if x.size <= 50 else "asymptotic"
        beyond_50 += x.size > 50
        ref = stats.wilcoxon(x, y, zero_method="zsplit", method=method)
        row = rows[(a, b)]
        assert row["n_datasets"] == x.size
        assert row["statistic"] == pytest.approx(ref.statistic, abs=1e-9)  # min(R+, R-), either direction
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15), (a, b, x.size)
    if n == 80:
        assert beyond_50  # the normal approximation was exercised


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_sign_pairs_equal_scipy_binomtest(seed, higher_is_better):
    """Wins of a, ties split evenly with one dropped when odd (Demšar), against scipy's exact binomial test."""
    t = holed_table(seed, higher_is_better, n=10 + 6 * seed, k=4, levels=2, hole_rate=0.2)
    rows = by_pair(quiet(cl.posthoc, t, "sign", "holm"))
    for a, b in combinations(t.classifiers, 2):
        x, y = shared(t, a, b)
        d = (x - y) if higher_is_better else (y - x)  # > 0: a wins
        wins, losses, ties = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
        n = wins + losses + 2 * (ties // 2)
        w = wins + ties // 2
        row = rows[(a, b)]
        assert row["n_datasets"] == x.size and row["statistic"] == w
        expected = stats.binomtest(w, n, 0.5).pvalue if n else 1.0
        assert row["p"] == pytest.approx(expected, rel=1e-12), (a, b)


# -- without holes, "pairwise" changes nothing ------------------------------------------------------------------

@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_without_holes_pairwise_equals_error(seed, higher_is_better):
    frame = make_scores(seed, n=12, k=5, levels=3, hole_rate=0.0)
    strict = cl.ScoreTable(frame, higher_is_better, missing="error")
    with warnings.catch_warnings():
        warnings.simplefilter("error", cl.DataWarning)  # nothing to say: no note, no warning
        kept = cl.ScoreTable(frame, higher_is_better, missing="pairwise")
    assert not kept.has_missing and not strict.has_missing
    pd.testing.assert_frame_equal(kept.scores, strict.scores)
    assert kept.notes == strict.notes == ()
    pd.testing.assert_frame_equal(kept.ranks, strict.ranks)
    pd.testing.assert_series_equal(kept.mean_ranks, strict.mean_ranks)
    for test in cl.TESTS:
        for control in (None, "C1"):
            try:
                want = cl.posthoc(strict, test, "holm", control=control, as_result=True)
            except cl.InputError:  # undefined on this table (Conover, aligned ranks, Quade): the same for both
                with pytest.raises(cl.InputError):
                    cl.posthoc(kept, test, "holm", control=control)
                continue
            got = cl.posthoc(kept, test, "holm", control=control, as_result=True)
            pd.testing.assert_frame_equal(got.frame, want.frame)
            assert "n_datasets" not in got.frame.columns and got.notes == want.notes
    for omnibus in (cl.friedman, cl.iman_davenport, cl.quade, cl.friedman_aligned_ranks, cl.skillings_mack):
        a, b = omnibus(kept), omnibus(strict)
        np.testing.assert_equal((a.statistic, a.pvalue), (b.statistic, b.pvalue))  # NaN == NaN here


def test_loading_a_complete_file_with_pairwise_equals_error():
    text = b"dataset,A,B,C\nd1,0.8,0.7,0.9\nd2,0.6,0.65,0.6\nd3,0.5,0.4,0.55\n"
    strict = cl.load_scores(text, name="s.csv", missing="error", higher_is_better=True)
    kept = cl.load_scores(text, name="s.csv", missing="pairwise", higher_is_better=True)
    pd.testing.assert_frame_equal(kept.scores, strict.scores)
    assert kept.notes == strict.notes and not kept.has_missing and kept.missing == "pairwise"


# -- ranks of a table with holes ------------------------------------------------------------------------------

@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_ranks_rank_the_present_classifiers_among_themselves(seed, higher_is_better):
    t = holed_table(seed, higher_is_better, n=15, k=5, levels=2, hole_rate=0.3)
    values = t.scores.to_numpy()
    ranks = t.ranks.to_numpy()
    assert t.ranks.index.equals(t.scores.index) and t.ranks.columns.equals(t.scores.columns)
    for i in range(t.n_datasets):
        present = ~np.isnan(values[i])
        assert np.isnan(ranks[i, ~present]).all()
        if present.any():
            oriented = -values[i, present] if higher_is_better else values[i, present]
            np.testing.assert_array_equal(ranks[i, present], stats.rankdata(oriented))  # 1 = best, ties averaged
            n_i = int(present.sum())
            assert ranks[i, present].sum() == n_i * (n_i + 1) / 2


@pytest.mark.parametrize("seed", range(4))
def test_mean_ranks_are_the_nanmean_of_the_ranks(seed):
    t = holed_table(seed, n=14, k=4, levels=3, hole_rate=0.3)
    expected = np.nanmean(t.ranks.to_numpy(), axis=0)
    np.testing.assert_allclose(t.mean_ranks.to_numpy(), expected, rtol=1e-15)
    assert list(t.mean_ranks.index) == t.classifiers


def test_ranks_follow_the_direction():
    frame = pd.DataFrame({"A": [0.9, 0.5, np.nan], "B": [0.7, np.nan, 0.2], "C": [np.nan, 0.8, 0.2],
                          "D": [0.7, 0.1, 0.6]}, index=["x", "y", "z"])
    higher = quiet(cl.ScoreTable, frame, True, missing="pairwise")
    lower = higher.with_direction(False)
    nan = np.nan
    np.testing.assert_array_equal(higher.ranks.to_numpy(), [[1, 2.5, nan, 2.5], [2, nan, 1, 3], [nan, 2.5, 2.5, 1]])
    np.testing.assert_array_equal(lower.ranks.to_numpy(), [[3, 1.5, nan, 1.5], [2, nan, 3, 1], [nan, 1.5, 1.5, 3]])
    np.testing.assert_allclose(higher.mean_ranks.to_numpy(), [1.5, 2.5, 1.75, 13 / 6])
    # Reversing the direction maps rank r to n_i + 1 - r among the n_i present classifiers.
    n_i = (~np.isnan(frame.to_numpy())).sum(axis=1)[:, None]
    np.testing.assert_array_equal(lower.ranks.to_numpy(), n_i + 1 - higher.ranks.to_numpy())


# -- statistics that need a complete table refuse it ---------------------------------------------------------

REFUSING = {
    "friedman": lambda t: cl.friedman(t),
    "iman_davenport": lambda t: cl.iman_davenport(t),
    "posthoc mean-ranks": lambda t: cl.posthoc(t, "mean-ranks", "holm"),
    "posthoc mean-ranks nemenyi": lambda t: cl.posthoc(t, "mean-ranks", "nemenyi"),
    "posthoc mean-ranks control": lambda t: cl.posthoc(t, "mean-ranks", "holm", control="C0"),
    "posthoc conover": lambda t: cl.posthoc(t, "conover", "holm"),
    "posthoc rank-sum-exact": lambda t: cl.posthoc(t, "rank-sum-exact", "holm"),
    "posthoc quade": lambda t: cl.posthoc(t, "quade", "holm"),
    "quade": lambda t: cl.quade(t),
    "friedman_aligned_ranks": lambda t: cl.friedman_aligned_ranks(t),
    # Beyond the brief: other statistics that need every cell.
    "posthoc aligned-ranks": lambda t: cl.posthoc(t, "aligned-ranks", "holm"),
    "aligned_ranks": lambda t: cl.aligned_ranks(t),
    "rm_anova": lambda t: cl.rm_anova(t),
    "tukey_hsd": lambda t: cl.tukey_hsd(t),
    "dunnett": lambda t: cl.dunnett(t, control="C0"),
    "pool_verdicts": lambda t: cl.pool_verdicts(t),
}



@pytest.mark.parametrize("name", list(REFUSING))
def test_statistics_needing_a_complete_table_refuse_holes_naming_the_alternatives(name):
    t = holed_table(5, n=12, k=4, levels=None, hole_rate=0.15)
    assert t.has_missing
    with pytest.raises(cl.InputError) as err:  # any other exception propagates and fails the test
        quiet(REFUSING[name], t)
    message = str(err.value)
    assert "Skillings-Mack" in message and "compare_lib.skillings_mack" in message
    assert "Wilcoxon or sign test" in message and "missing cell" in message


def test_the_refusal_counts_the_holes():
    frame = pd.DataFrame({"A": [1, 2, np.nan, 4], "B": [np.nan, 2, 3, 1], "C": [3, 1, 2, 5.0]}, index=list("wxyz"))
    t = quiet(cl.ScoreTable, frame, True, missing="pairwise")
    with pytest.raises(cl.InputError, match=r"keeps 2 missing cell\(s\)"):
        cl.friedman(t)


# -- Skillings-Mack on a ScoreTable ----------------------------------------------------------------------------

def _same_skillings_mack(got, want):
    assert got.statistic == pytest.approx(want.statistic, rel=1e-12, abs=1e-12)
    assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12, abs=1e-15)
    assert (got.df, got.k, got.n, got.n_missing, got.higher_is_better) == (
        want.df, want.k, want.n, want.n_missing, want.higher_is_better)
    np.testing.assert_allclose(got.adjusted_rank_sums, want.adjusted_rank_sums, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.statistic_ties, want.statistic_ties, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_skillings_mack_of_a_table_with_holes_equals_its_kernel(seed, higher_is_better):
    t = holed_table(seed, higher_is_better, n=12 + 4 * seed, k=4 + seed % 3, levels=3, hole_rate=0.2)
    assert t.has_missing
    got = cl.skillings_mack(t)
    _same_skillings_mack(got, skillings_mack_statistic(t.scores.to_numpy(), t.higher_is_better))


def test_skillings_mack_of_a_dataframe_with_holes_equals_that_of_the_pairwise_table():
    t = holed_table(0, n=12, k=4, levels=3, hole_rate=0.2)
    _same_skillings_mack(cl.skillings_mack(t.scores, higher_is_better=True), cl.skillings_mack(t))


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_skillings_mack_of_a_complete_table_is_friedman_without_tie_correction(seed, higher_is_better):
    untied = cl.ScoreTable(make_scores(seed, n=10 + 5 * seed, k=3 + seed, levels=None, hole_rate=0.0),
                           higher_is_better)
    sm = cl.skillings_mack(untied)
    assert sm.statistic == pytest.approx(cl.friedman(untied).statistic, rel=1e-10)
    assert sm.pvalue == pytest.approx(cl.friedman(untied).pvalue, rel=1e-8)
    assert sm.statistic_ties == sm.statistic and sm.n == untied.n_datasets and sm.n_missing == 0
    # With ties: Demšar's chi2_F (no tie correction) from the mean ranks; the tie-exact one is the corrected chi2_F.
    tied = cl.ScoreTable(make_scores(seed, n=10 + 5 * seed, k=3 + seed, levels=2, hole_rate=0.0), higher_is_better)
    n, k = tied.n_datasets, tied.n_classifiers
    chi2_f = 12 * n / (k * (k + 1)) * (np.sum(tied.mean_ranks.to_numpy() ** 2) - k * (k + 1) ** 2 / 4)
    sm = cl.skillings_mack(tied)
    assert sm.statistic == pytest.approx(chi2_f, rel=1e-10, abs=1e-10)
    assert sm.statistic == pytest.approx(cl.friedman(tied).statistic, rel=1e-10, abs=1e-10)
    assert sm.statistic_ties == pytest.approx(cl.friedman(tied, tie_correction=True).statistic, rel=1e-10, abs=1e-10)


def test_skillings_mack_is_the_omnibus_that_accepts_the_holes_friedman_refuses():
    t = holed_table(7, n=20, k=5, levels=None, hole_rate=0.2)
    with pytest.raises(cl.InputError):
        cl.friedman(t)
    r = cl.skillings_mack(t)
    assert r.n_missing == int(np.isnan(t.scores.to_numpy()).sum()) and 0 <= r.pvalue <= 1
    assert any("missing score(s)" in note for note in r.notes)


# -- derived tables keep the holes and the policy -------------------------------------------------------------

def test_subset_keeps_the_holes_and_the_policy():
    t = holed_table(4, n=12, k=5, levels=3, hole_rate=0.3)
    rows, cols = t.datasets[::2][::-1], ["C4", "C1", "C2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", cl.DataWarning)  # a derived table does not show the notes again
        sub = t.subset(cols, rows)
    assert sub.missing == "pairwise" and sub.datasets == rows and sub.classifiers == cols
    pd.testing.assert_frame_equal(sub.scores, t.scores.loc[rows, cols])
    assert sub.has_missing == bool(np.isnan(sub.scores.to_numpy()).any()) and sub.has_missing
    assert sum(note.startswith("Missing-data policy 'pairwise'") for note in sub.notes) == 1
    # The pairwise tests do not depend on the other classifiers: the subset's pairs keep their p and n.
    full = by_pair(quiet(cl.posthoc, t.subset(datasets=rows), "wilcoxon", "holm"))
    for (a, b), row in by_pair(quiet(cl.posthoc, sub, "wilcoxon", "holm")).items():
        other = full.get((a, b), full.get((b, a)))
        assert row["p"] == other["p"] and row["n_datasets"] == other["n_datasets"]


def test_subset_without_holes_keeps_the_policy_and_behaves_as_complete():
    frame = make_scores(9, n=10, k=4, levels=3, hole_rate=0.0)
    frame.loc["d3", "C3"] = np.nan
    t = quiet(cl.ScoreTable, frame, True, missing="pairwise")
    sub = t.subset(["C0", "C1", "C2"])
    assert sub.missing == "pairwise" and not sub.has_missing
    assert not any(note.startswith("Missing-data policy 'pairwise'") for note in sub.notes)
    assert cl.friedman(sub).statistic == cl.friedman(cl.ScoreTable(frame[["C0", "C1", "C2"]], True)).statistic


@pytest.mark.parametrize("higher_is_better", [True, False])
def test_with_direction_keeps_the_holes_and_the_policy(higher_is_better):
    t = holed_table(6, higher_is_better, n=12, k=4, levels=3, hole_rate=0.25)
    flipped = t.with_direction(not higher_is_better)
    assert flipped.missing == "pairwise" and flipped.has_missing and flipped.higher_is_better is (not higher_is_better)
    pd.testing.assert_frame_equal(flipped.scores, t.scores)
    np.testing.assert_array_equal(np.isnan(flipped.ranks.to_numpy()), np.isnan(t.scores.to_numpy()))
    assert flipped.with_direction(higher_is_better).ranks.equals(t.ranks)
    # The p-values are two-sided: the same in both directions; the better one swaps.
    for test in PAIR_TESTS:
        a = by_pair(quiet(cl.posthoc, t, test, "holm"))
        b = by_pair(quiet(cl.posthoc, flipped, test, "holm"))
        for pair in a:
            assert a[pair]["p"] == b[pair]["p"] and a[pair]["n_datasets"] == b[pair]["n_datasets"]
            if a[pair]["better"]:
                assert b[pair]["better"] in pair and b[pair]["better"] != a[pair]["better"]
    assert cl.skillings_mack(flipped).statistic == pytest.approx(cl.skillings_mack(t).statistic, rel=1e-12)


# -- loading a long file with a missing run ---------------------------------------------------------------------

DATASETS = ["iris", "wine", "adult", "credit"]
CLASSIFIERS = ["RF", "SVC", "KNN"]


def _long_csv(tmp_path, skip=("wine", "SVC")):
    """Three folds per data set and classifier; the cell ``skip`` has no row at all (a run never made)."""
    lines = ["dataset,classifier,fold,accuracy"]
    for i, d in enumerate(DATASETS):
        for j, c in enumerate(CLASSIFIERS):
            if (d, c) == skip:
                continue
            for f in (1, 2, 3):
                lines.append(f"{d},{c},{f},{0.5 + 0.05 * i + 0.01 * j + 0.002 * f:.3f}")
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _expected_cell(d: str, c: str) -> float:
    i, j = DATASETS.index(d), CLASSIFIERS.index(c)
    return float(np.mean([round(0.5 + 0.05 * i + 0.01 * j + 0.002 * f, 3) for f in (1, 2, 3)]))


def test_long_file_with_a_missing_run_gives_one_hole_with_pairwise(tmp_path):
    path = _long_csv(tmp_path)
    with pytest.warns(cl.DataWarning, match="pairwise"):
        t = cl.read_results(path).table("accuracy", missing="pairwise")
    assert t.missing == "pairwise" and t.has_missing and t.metric == "accuracy" and t.higher_is_better
    assert t.datasets == DATASETS and t.classifiers == CLASSIFIERS
    holes = np.argwhere(np.isnan(t.scores.to_numpy()))
    assert holes.tolist() == [[DATASETS.index("wine"), CLASSIFIERS.index("SVC")]]
    for d in DATASETS:
        for c in CLASSIFIERS:
            if (d, c) != ("wine", "SVC"):
                assert t.scores.loc[d, c] == pytest.approx(_expected_cell(d, c), abs=1e-12)
    note = next(n for n in t.notes if n.startswith("Missing-data policy 'pairwise'"))
    assert "kept 1 missing score(s)" in note and "wine / SVC" in note
    # The shortcut gives the same table, and the pairs with SVC use the 3 other data sets.
    same = quiet(cl.load_scores, path, missing="pairwise")
    pd.testing.assert_frame_equal(same.scores, t.scores)
    rows = by_pair(quiet(cl.posthoc, t, "wilcoxon", "holm"))
    assert rows[("RF", "SVC")]["n_datasets"] == 3 and rows[("RF", "KNN")]["n_datasets"] == 4


def test_long_file_with_a_missing_run_is_refused_naming_the_cell_with_error(tmp_path):
    with pytest.raises(cl.InputError) as err:
        cl.read_results(_long_csv(tmp_path)).table("accuracy", missing="error")
    message = str(err.value)
    assert "wine" in message and "SVC" in message and "no row for wine / SVC" in message
    assert "missing='pairwise'" in message


def test_long_file_with_a_missing_run_drops_the_dataset_with_drop_datasets(tmp_path):
    with pytest.warns(cl.DataWarning, match="Dropped 1 data set"):
        t = cl.read_results(_long_csv(tmp_path)).table("accuracy", missing="drop-datasets")
    assert t.datasets == ["iris", "adult", "credit"] and t.classifiers == CLASSIFIERS and not t.has_missing
    assert any(n.startswith("Dropped 1 data set(s) with missing cells: 'wine'") for n in t.notes)
    assert t.scores.loc["adult", "SVC"] == pytest.approx(_expected_cell("adult", "SVC"), abs=1e-12)


def test_wide_file_with_empty_cells_keeps_them_as_holes(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text("dataset,A,B,C\nd1,0.8,,0.9\nd2,0.6,0.65,NA\nd3,0.5,0.4,0.55\nd4,0.7,0.75,0.72\n")
    t = quiet(cl.load_scores, path, missing="pairwise", higher_is_better=True)
    assert np.isnan(t.scores.loc["d1", "B"]) and np.isnan(t.scores.loc["d2", "C"])
    assert int(np.isnan(t.scores.to_numpy()).sum()) == 2
    assert by_pair(quiet(cl.posthoc, t, "sign", "holm"))[("B", "C")]["n_datasets"] == 2


# -- fuzzing -------------------------------------------------------------------------------------------------

CELLS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda x: f"{x:.4g}"),
    st.sampled_from(["", "NA", "nan", "?", "-", "inf", "abc", "0,5", "1.5%", "  0.3 ", "1e-3", "0", "1", "1"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=6),
)


def _pvalues_in_unit_interval(values) -> None:
    p = np.asarray(values, dtype=float)
    p = p[np.isfinite(p)]
    assert ((p >= 0) & (p <= 1)).all(), p


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(CELLS, min_size=1, max_size=5), min_size=0, max_size=7),
    st.sampled_from([",", ";", "\t", "|"]),
    st.sampled_from(["auto", "wide", "long"]),
)
def test_loader_with_pairwise_never_crashes_and_its_tests_give_results_or_input_errors(rows, sep, layout):
    """Any text gives a ScoreTable or one InputError; on a table, Skillings-Mack and the pairwise Wilcoxon and
    sign tests give a result (finite p-values in [0, 1]) or an InputError, never another exception."""
    header = sep.join(["dataset"] + [f"c{j}" for j in range(max((len(r) for r in rows), default=1))])
    text = header + "\n" + "\n".join(sep.join([f"d{i}"] + r) for i, r in enumerate(rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t = cl.load_scores(text.encode("utf-8", "surrogatepass"), name="fuzz.csv", layout=layout, higher_is_better=True,
                               missing="pairwise")
        except cl.InputError as err:
            assert "fuzz.csv" in str(err) or "layout" in str(err)
            return
        values = t.scores.to_numpy()
        assert values.shape[0] >= 2 and values.shape[1] >= 2 and t.missing == "pairwise"
        assert not np.isinf(values).any() and t.has_missing == bool(np.isnan(values).any())
        assert t.scores.index.is_unique and t.scores.columns.is_unique
        try:
            sm = cl.skillings_mack(t)
        except cl.InputError:
            pass
        else:
            _pvalues_in_unit_interval([sm.pvalue, sm.pvalue_ties])
        for test in PAIR_TESTS:
            try:
                frame = cl.posthoc(t, test, "holm")
            except cl.InputError:
                continue
            _pvalues_in_unit_interval(frame["p"])
            _pvalues_in_unit_interval(frame["p_adj"])
            if t.has_missing:
                assert (frame["n_datasets"] <= t.n_datasets).all() and (frame["n_datasets"] >= 0).all()
