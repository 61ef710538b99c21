"""compare_lib.core._table: a large complete table keeps its ranks compactly (issue 31), with the same values."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

import compare_lib as cl
from compare_lib.core import _table


def _scores(n: int, k: int, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = np.round(rng.uniform(0.5, 1.0, size=(n, k)), 2)  # two decimals: many ties within a row
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"c{j}" for j in range(k)])


@pytest.mark.parametrize("higher", [True, False])
def test_compact_ranks_equal_scipys_average_ranks_and_the_uncompacted_table(monkeypatch, higher):
    scores = _scores(1_000, 250)  # 250,000 scores: above COMPACT_RANKS_ABOVE
    assert scores.size > _table.COMPACT_RANKS_ABOVE
    table = cl.ScoreTable(scores, higher_is_better=higher)
    expected = rankdata(-scores.to_numpy() if higher else scores.to_numpy(), method="average", axis=1)
    assert table._compact
    np.testing.assert_array_equal(table.ranks.to_numpy(), expected)  # exact: halves of integers
    assert list(table.ranks.index) == list(scores.index) and list(table.ranks.columns) == list(scores.columns)
    doubled = table.doubled_ranks
    assert doubled.dtype == np.int64 and not doubled.flags.writeable
    np.testing.assert_array_equal(doubled, (2 * expected).astype(np.int64))
    # What it keeps: 2 bytes a score (250 classifiers), instead of 8 (float ranks) + 8 (int64 doubled ranks).
    assert table._doubled_compact.dtype == np.int16 and table._doubled_compact.nbytes == 2 * scores.size
    assert "_ranks" not in vars(table) and "_doubled" not in vars(table)
    # Making the ranks frame allocates its float array once (8 bytes a score), not a second copy of it.
    tracemalloc.start()
    try:
        table.ranks
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 8 * scores.size <= peak < 1.5 * 8 * scores.size
    # Every statistic is the same as from a table that keeps both.
    friedman = cl.friedman(table)
    monkeypatch.setattr(_table, "COMPACT_RANKS_ABOVE", 10**9)
    full = cl.ScoreTable(scores, higher_is_better=higher)
    assert not full._compact
    pd.testing.assert_series_equal(table.mean_ranks, full.mean_ranks)
    pd.testing.assert_series_equal(table.doubled_rank_sums, full.doubled_rank_sums)
    assert (friedman.statistic, friedman.pvalue) == (cl.friedman(full).statistic, cl.friedman(full).pvalue)


def test_a_small_table_and_a_table_with_holes_keep_their_float_ranks():
    small = cl.ScoreTable(_scores(20, 5))
    assert not small._compact and small.ranks is small.ranks  # kept, not made again
    assert small.doubled_ranks is small.doubled_ranks
    holes = _scores(1_000, 250)
    holes.iloc[0, 0] = np.nan
    with pytest.warns(cl.DataWarning):
        table = cl.ScoreTable(holes, missing="pairwise")
    assert not table._compact and np.isnan(table.ranks.iloc[0, 0])


def test_the_compact_type_widens_when_twice_the_classifiers_do_not_fit_16_bits(monkeypatch):
    table = cl.ScoreTable(_scores(30, 4))
    monkeypatch.setattr(type(table), "n_classifiers", property(lambda self: 20_000))
    assert table._doubled_compact.dtype == np.int32


@pytest.mark.parametrize("k, kind", [(63, np.int8), (64, np.int16)])
def test_up_to_63_classifiers_the_compact_ranks_take_one_byte_a_score_with_the_same_values(monkeypatch, k, kind):
    """Issue 31: a class's 19,305 x 50 tables keep 1 byte a score of ranks (2k = 126 fits int8; 2 x 64 does not), and
    every statistic reads them as before: the extreme doubled ranks (1 and 2k - 1 ... 2k) come back exact."""
    scores = _scores(cl.core._table.COMPACT_RANKS_ABOVE // k + 1, k)
    scores.iloc[0] = np.arange(k, dtype=float)  # ranks 1..k without ties: 2k reached exactly
    table = cl.ScoreTable(scores)
    assert table._compact and table._doubled_compact.dtype == kind
    assert table._doubled_compact.nbytes == np.dtype(kind).itemsize * scores.size
    assert table.doubled_ranks[0].max() == 2 * k and table.doubled_ranks.dtype == np.int64
    monkeypatch.setattr(_table, "COMPACT_RANKS_ABOVE", 10**9)
    full = cl.ScoreTable(scores)
    np.testing.assert_array_equal(table.ranks.to_numpy(), full.ranks.to_numpy())
    np.testing.assert_array_equal(table.doubled_ranks, full.doubled_ranks)
    pd.testing.assert_series_equal(table.doubled_rank_sums, full.doubled_rank_sums)
    assert cl.friedman(table).statistic == cl.friedman(full).statistic


def _peak_bytes(make) -> int:
    tracemalloc.start()
    try:
        make()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_ranking_a_large_table_holds_a_blocks_temporary_arrays_not_the_whole_tables():
    """Issue 31: the compact ranks, mean ranks, a preview's ranks and the rank heat map of a table of a million
    scores (the size of a class's uploads) held 64, 8, 15 and 17 MB of temporary arrays (ranked all at once, an int64
    copy of the ranks to sum them, the whole table's ranks for 1,000 or 400 rows); now each holds what it keeps and
    a few MB, with the same values as the uncompacted table's."""
    scores = _scores(20_000, 50)
    size = scores.size  # 1,000,000 scores: 8 MB as floats
    table = cl.ScoreTable(scores)
    assert _peak_bytes(lambda: table._doubled_compact) < size + 6_000_000  # 1 byte a score kept, was 64 MB at peak
    assert _peak_bytes(lambda: table.mean_ranks) < 2_000_000  # was 8 MB (an int64 copy of the ranks)
    assert _peak_bytes(lambda: table.head_ranks(1_000)) < 1_000_000
    # The 1,000 rows' text cells take about 7 MB (numpy's fixed-width strings); the whole table's ranks were 8 more.
    assert _peak_bytes(lambda: cl.report.scores_with_ranks(table, max_rows=1_000)) < 10_000_000
    from compare_lib.render._table_figures import rank_heatmap

    rank_heatmap(table)  # plotly's validators load on first use
    assert _peak_bytes(lambda: rank_heatmap(table)) < 4_000_000
    np.testing.assert_array_equal(table.doubled_ranks, cl.ranks.doubled_ranks(cl.ranks.rank_scores(
        scores.to_numpy(), higher_is_better=True)))


@pytest.mark.parametrize("kind", ["compact", "small", "holes"])
def test_the_ranks_of_the_first_data_sets_are_the_first_rows_of_the_ranks(kind):
    scores = _scores(5_000, 50) if kind != "small" else _scores(30, 6)
    if kind == "holes":
        scores.iloc[2, 3] = np.nan
        with pytest.warns(cl.DataWarning):
            table = cl.ScoreTable(scores, missing="pairwise")
    else:
        table = cl.ScoreTable(scores, higher_is_better=False)
    assert table._compact == (kind == "compact")
    for n in (0, 1, 7, len(scores), len(scores) + 5):
        pd.testing.assert_frame_equal(table.head_ranks(n), table.ranks.iloc[:n])


def test_a_tables_names_are_plain_stripped_strings_and_reused_when_they_already_are():
    """Names are stripped and made ``str``; a name that already is one is kept as the same object (issue 31: the
    index shares a read file's names instead of a second copy of each), any other (padded, a number, numpy's
    ``str_``, whose repr is ``np.str_('b')``) becomes a new plain string."""
    padded, plain, np_name = " a ", "b_" + "x" * 3, np.str_("c")
    frame = pd.DataFrame(np.arange(8.0).reshape(4, 2), index=np.array([padded, plain, np_name, 7], dtype=object),
                         columns=["P", "Q"])
    table = cl.ScoreTable(frame, higher_is_better=True)
    index = list(table.scores.index)
    assert index == ["a", plain, "c", "7"]
    assert all(type(name) is str for name in index)
    assert index[1] is plain and index[2] is not np_name
