"""Invariants of every procedure on random tables with ties (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import compare_lib as cl

from .strategies import score_tables

ALL_PAIRS = ["bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer", "bergmann-hommel"]
#: Statistics that are undefined on some degenerate tables (they divide by a variance that can be zero).
MAY_BE_UNDEFINED = ("conover", "aligned-ranks", "quade")


def _defined(table, test) -> bool:
    """False (and only for the statistics above) when the table leaves the statistic undefined: the library
    refuses with an InputError naming why."""
    try:
        cl.posthoc(table, test, "holm")
    except cl.InputError:
        assert test in MAY_BE_UNDEFINED
        return False
    return True


@settings(max_examples=80, deadline=None)
@given(score_tables(), st.sampled_from(cl.TESTS), st.floats(0.001, 0.3))
def test_pvalues_in_range_apv_at_least_p_and_reject_iff_apv_le_alpha(table, test, alpha):
    assume(_defined(table, test))
    for correction in ALL_PAIRS + (["nemenyi"] if test == "mean-ranks" else []):
        res = cl.posthoc(table, test, correction, alpha=alpha)
        assert ((res["p"] >= 0) & (res["p"] <= 1)).all()
        assert ((res["p_adj"] >= 0) & (res["p_adj"] <= 1)).all()
        assert (res["p_adj"] >= res["p"] - 1e-15).all()
        assert (res["reject"] == (res["p_adj"] <= alpha)).all()
        # Monotone in the raw p-values.
        assert np.all(np.diff(res["p_adj"].to_numpy()) >= -1e-15)


@settings(max_examples=80, deadline=None)
@given(score_tables(min_k=2, max_k=7), st.sampled_from(cl.TESTS))
def test_power_ordering_of_all_pairs_procedures(table, test):
    assume(_defined(table, test))
    apv = {c: cl.posthoc(table, test, c).set_index(["a", "b"])["p_adj"] for c in ALL_PAIRS}
    tol = 1e-12
    assert (apv["bergmann-hommel"] <= apv["shaffer"] + tol).all()
    assert (apv["shaffer"] <= apv["holm"] + tol).all()
    assert (apv["holm"] <= apv["bonferroni"] + tol).all()
    assert (apv["hochberg"] <= apv["holm"] + tol).all()
    assert (apv["hommel"] <= apv["hochberg"] + tol).all()
    assert (apv["holland"] <= apv["holm"] + tol).all()
    assert (apv["finner"] <= apv["holland"] + tol).all()


@settings(max_examples=50, deadline=None)
@given(score_tables(min_k=3, max_k=6), st.sampled_from(cl.TESTS), st.randoms(use_true_random=False))
def test_results_permute_with_columns_and_rows(table, test, random):
    assume(_defined(table, test))
    cols = table.classifiers[:]
    rows = table.datasets[:]
    random.shuffle(cols)
    random.shuffle(rows)
    shuffled = table.subset(cols, rows)
    for correction in ("holm", "shaffer", "bergmann-hommel", "hommel"):
        a = cl.posthoc(table, test, correction)
        b = cl.posthoc(shuffled, test, correction)
        key = lambda r: frozenset((r.a, r.b))  # noqa: E731
        pa = {key(r): (r.p, r.p_adj) for r in a.itertuples()}
        pb = {key(r): (r.p, r.p_adj) for r in b.itertuples()}
        assert pa.keys() == pb.keys()
        for h in pa:
            assert np.allclose(pa[h], pb[h], rtol=1e-12, atol=0), (correction, h)
    assert np.isclose(cl.friedman(table).statistic, cl.friedman(shuffled).statistic)


@settings(max_examples=40, deadline=None)
@given(score_tables(min_k=4, max_k=7), st.sampled_from(["wilcoxon", "sign"]))
def test_pairwise_tests_do_not_depend_on_the_pool(table, test):
    """Benavoli et al.: the Wilcoxon and sign p-values of a pair do not change when classifiers are added."""
    small = table.subset(table.classifiers[:2])
    raw_small = cl.posthoc(small, test, "bonferroni").iloc[0]
    full = cl.posthoc(table, test, "bonferroni")
    a, b = table.classifiers[:2]
    row = full[(full["a"] == a) & (full["b"] == b)].iloc[0]
    assert row["p"] == raw_small["p"] and row["statistic"] == raw_small["statistic"]


@settings(max_examples=60, deadline=None)
@given(score_tables(min_k=2, max_k=8))
def test_ranks_are_a_permutation_average(table):
    ranks = table.ranks.to_numpy()
    k = table.n_classifiers
    assert np.allclose(ranks.sum(axis=1), k * (k + 1) / 2)
    assert np.isclose(table.mean_ranks.sum(), k * (k + 1) / 2)
    w = cl.ranks.win_fraction(table.scores.to_numpy(), higher_is_better=table.higher_is_better)
    assert np.allclose(table.mean_ranks.to_numpy(), 1 + w.sum(axis=0))


@settings(max_examples=60, deadline=None)
@given(score_tables(min_k=2, max_k=8), st.integers(1, 40), st.booleans())
def test_ranks_by_blocks_of_rows_equal_the_ranks_of_the_whole_table(table, block_cells, higher):
    """Issue 31: ranking a block of rows at a time (to bound a large table's temporary arrays) gives the values of
    ranking the whole array at once, whatever the block size (a block of fewer cells than a row: one row)."""
    values = table.scores.to_numpy(dtype=float)
    whole = cl.ranks.doubled_ranks(cl.ranks.rank_scores(values, higher_is_better=higher))
    blocks = cl.ranks.doubled_rank_rows(values, higher_is_better=higher, dtype=np.int16, block_cells=block_cells)
    assert blocks.dtype == np.int16
    np.testing.assert_array_equal(blocks, whole)


CELLS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda x: f"{x:.4g}"),
    st.sampled_from(["", "NA", "nan", "?", "-", "inf", "-inf", "abc", "0,5", "1.5%", '"0.25"', "  0.3 ", "1e-3", "∞"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=6),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(CELLS, min_size=1, max_size=5), min_size=0, max_size=6),
    st.sampled_from([",", ";", "\t", "|"]),
    st.sampled_from(["auto", "wide", "long"]),
    st.sampled_from([m for m in cl.MISSING_POLICIES if m != "pairwise"]),  # "pairwise" keeps holes: fuzzed below
)
def test_loader_never_crashes(rows, sep, layout, missing):
    """Fuzzing: any text gives a valid ScoreTable or one InputError, never another exception."""
    header = sep.join(["dataset"] + [f"c{j}" for j in range(max((len(r) for r in rows), default=1))])
    text = header + "\n" + "\n".join(sep.join([f"d{i}"] + r) for i, r in enumerate(rows))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            t = cl.load_scores(text.encode("utf-8", "surrogatepass"), name="fuzz.csv", layout=layout, missing=missing, higher_is_better=True)
        except cl.InputError as err:
            assert "fuzz.csv" in str(err) or "policy" in str(err) or "layout" in str(err)
            return
    values = t.scores.to_numpy()
    assert np.isfinite(values).all() and values.shape[0] >= 2 and values.shape[1] >= 2
    assert t.scores.index.is_unique and t.scores.columns.is_unique
    cl.friedman(t)


# -- issue 9: verdicts never depend on the order of rows and columns or on rounding -------------------

from .strategies import tied_score_tables  # noqa: E402

_P_VALUE_PROCEDURES = ["bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer", "bergmann-hommel",
                       "bergmann-hommel-closed"]
EVERY_PROCEDURE = {test: (["nemenyi"] if test == "mean-ranks" else []) + _P_VALUE_PROCEDURES for test in cl.TESTS}
CONTROL_PROCEDURES = ["bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "rom", "li"]



def _by_pair(res):
    return {frozenset((r.a, r.b)): (abs(r.statistic) if r.statistic == r.statistic else r.statistic, r.p, r.p_adj,
                                    r.reject, r.better) for r in res.itertuples()}


@settings(max_examples=60, deadline=None)
@given(tied_score_tables(), st.sampled_from(cl.TESTS), st.randoms(use_true_random=False))
def test_every_apv_and_verdict_is_identical_under_row_and_column_permutations(table, test, random):
    cols, rows = table.classifiers[:], table.datasets[:]
    random.shuffle(cols)
    random.shuffle(rows)
    shuffled = table.subset(cols, rows)
    if not _defined(table, test):
        assert not _defined(shuffled, test)
        return
    for correction in EVERY_PROCEDURE[test]:
        a = _by_pair(cl.posthoc(table, test, correction, alpha=0.1))
        b = _by_pair(cl.posthoc(shuffled, test, correction, alpha=0.1))
        # Sign-test statistics are wins of the first-named classifier: compare everything else exactly.
        if test == "sign":
            a = {h: v[1:] for h, v in a.items()}
            b = {h: v[1:] for h, v in b.items()}
        assert a == b, correction  # equality of floats, not closeness
        assert cl.groups(cl.posthoc(table, test, correction, alpha=0.1)) == cl.groups(
            cl.posthoc(shuffled, test, correction, alpha=0.1)
        )
    control = random.choice(cols)
    for correction in CONTROL_PROCEDURES:
        a = _by_pair(cl.posthoc(table, test, correction, control=control))
        b = _by_pair(cl.posthoc(shuffled, test, correction, control=control))
        if test == "sign":
            a = {h: v[1:] for h, v in a.items()}
            b = {h: v[1:] for h, v in b.items()}
        assert a == b, correction
    assert cl.friedman(table).statistic == cl.friedman(shuffled).statistic
    assert cl.iman_davenport(table).pvalue == cl.iman_davenport(shuffled).pvalue
    va = cl.verdicts(table, alpha=0.1)
    vb = cl.verdicts(shuffled, alpha=0.1)
    key = lambda frame: {frozenset((r["a"], r["b"])): tuple(r.drop(["a", "b"])) for _, r in frame.iterrows()}  # noqa: E731
    assert key(va) == key(vb)


@settings(max_examples=60, deadline=None)
@given(tied_score_tables(), st.sampled_from(cl.TESTS))
def test_exactly_tied_pairs_get_identical_apvs(table, test):
    """Pairs whose statistic is exactly tied (equal rank-sum difference, or equal Wilcoxon/sign outcome)
    get bit-identical p-values and APVs under every procedure."""
    if not _defined(table, test):
        return
    for correction in EVERY_PROCEDURE[test]:
        res = cl.posthoc(table, test, correction)
        if test in ("mean-ranks", "rank-sum-exact", "conover"):
            sums = table.doubled_rank_sums
            key = [abs(int(sums[a]) - int(sums[b])) for a, b in zip(res["a"], res["b"])]
        elif test in ("aligned-ranks", "quade"):
            key = list(res["statistic"].abs())
        else:
            key = list(res["p"])
        seen: dict = {}
        for h, p, apv in zip(key, res["p"], res["p_adj"]):
            if correction == "bergmann-hommel-closed":
                seen.setdefault(h, set()).add(p)  # the definition may give tied p different APVs
            else:
                seen.setdefault(h, set()).add((p, apv))
        assert all(len(v) == 1 for v in seen.values()), correction
