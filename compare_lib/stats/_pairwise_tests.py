"""The registry of pairwise statistics for post-hoc comparisons: one entry per statistic.

An entry holds the kernel that computes the statistic for m pairs of one score table and everything
the rest of the library and the dashboard say about it: its label, what its ``statistic`` column
holds, its reference, a description, the clause of the results paragraph, and whether its verdict on
a pair depends on the other classifiers in the table (Benavoli, Corani & Mangili 2016). The post-hoc
functions, the verdicts view, the report, the pool page and the post-hoc page read this registry;
:func:`register_pairwise_test` adds a statistic to all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from compare_lib.core._result import PairwiseStatistics
from compare_lib.core._validation import check_choice, check_new_name
from compare_lib.errors import InputError, arg, register_option_labels

if TYPE_CHECKING:
    from compare_lib.core._table import ScoreTable


@dataclass(frozen=True)
class PairwiseTest:
    """A pairwise statistic for :func:`compare_lib.posthoc`: one registry entry.

    ``compute(table, pairs, **options)`` gets the :class:`~compare_lib.ScoreTable` and an (m, 2) integer
    array of classifier indices and returns an object with ``statistic`` and ``pvalue`` arrays of
    length m (optionally ``better``, the index of the better classifier or -1, and ``exact``); the
    statistic is positive when the first classifier of the pair is better unless ``better`` says
    otherwise. ``options`` names the keyword options ``compute`` accepts (Wilcoxon's zero handling).
    ``pool_dependent``: whether the verdict on a pair can change when other classifiers are added to or
    removed from the table. ``statistic``: what the ``statistic`` column holds. ``report``: the clause
    naming the method in the results paragraph (text, or a function of the post-hoc result).
    ``mean_ranks``: this is the Friedman mean-ranks z, on which Nemenyi's studentized range and the
    critical differences are defined. ``choice_label``: how the dashboard lists it. ``advice``: a
    function of the table giving a hint for it (or None). ``exact_note`` and ``approximate_note``: what
    to say when all p-values are exact, or when ``{count}`` pairs fell back to an approximation.
    ``handles_missing``: the kernel accepts NaN cells (a table with holes) and uses, for each pair, the data
    sets both classifiers have.
    """

    name: str
    label: str
    compute: Callable[..., Any] = field(repr=False, compare=False)
    reference: str = ""
    description: str = ""
    pool_dependent: bool = False
    statistic: str = "statistic"
    report: str | Callable[[Any], str] = field(default="", repr=False, compare=False)
    mean_ranks: bool = False
    choice_label: str = ""
    options: tuple[str, ...] = ()
    advice: Callable[["ScoreTable"], str | None] | None = field(default=None, repr=False, compare=False)
    exact_note: str = ""
    approximate_note: str = ""
    #: Works on a table with holes ("pairwise" missing-data policy), each pair on the data sets it shares.
    handles_missing: bool = False
    #: What the test compares, as the true order of rank sets names it ("each pair's pseudo-median difference"),
    #: and the assumption of its own that a guarantee needs (empty when there is none beyond independence).
    estimand: str = ""
    assumption: str = ""

    @property
    def choice(self) -> str:
        return self.choice_label or self.label[:1].upper() + self.label[1:]

    def run(self, table: "ScoreTable", pairs, **options) -> PairwiseStatistics:
        """The kernel on m pairs, checked and completed: float arrays of length m, ``better`` from the sign
        of the statistic where the kernel gives none, ``exact`` all True where it gives none."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        out = self.compute(table, pairs, **{k: v for k, v in options.items() if k in self.options})
        m = pairs.shape[0]
        stat = np.asarray(getattr(out, "statistic"), dtype=float).reshape(-1)
        p = np.asarray(getattr(out, "pvalue"), dtype=float).reshape(-1)
        if stat.size != m or p.size != m:
            raise InputError(f"The pairwise statistic {self.name!r} returned {stat.size} statistics and {p.size} "
                             f"p-values for {m} pairs; it must return one of each per pair.")
        better = getattr(out, "better", None)
        if better is None:
            better = np.where(stat > 0, pairs[:, 0], np.where(stat < 0, pairs[:, 1], -1))
        exact = getattr(out, "exact", None)
        exact = np.ones(m, dtype=bool) if exact is None else np.asarray(exact, dtype=bool)
        n = getattr(out, "n", None)
        if n is None and table.has_missing:
            present = ~np.isnan(table.scores.to_numpy(dtype=float))
            n = (present[:, pairs[:, 0]] & present[:, pairs[:, 1]]).sum(axis=0)
        return PairwiseStatistics(stat, p, np.asarray(better, dtype=np.int64), exact, n)

    def sentence(self, result) -> str:
        """The results paragraph's clause for this statistic."""
        return self.report(result) if callable(self.report) else (self.report or f"the {self.label} ({self.reference})")


PAIRWISE_TESTS: dict[str, PairwiseTest] = {}
# the dashboard's labels of the "test" option, for messages phrased in its words (compare_lib.errors.OPTIONS)
register_option_labels("test", lambda: {name: spec.choice for name, spec in PAIRWISE_TESTS.items()})


def register_pairwise_test(name: str, compute: Callable[..., Any], *, label: str, reference: str,
                           description: str = "", pool_dependent: bool = False, replace: bool = False,
                           **fields) -> PairwiseTest:
    """Add a pairwise statistic: it then appears in :func:`compare_lib.posthoc`, the APV table, the verdicts
    view, the results paragraph, the command line's help and the dashboard's post-hoc choices, with no
    other change.

    ``compute(table, pairs)`` gets the score table and an (m, 2) integer array of classifier indices and
    returns an object with ``statistic`` and ``pvalue`` arrays of length m (a positive statistic favours
    the first classifier of the pair). Other keywords are the fields of :class:`PairwiseTest`
    (``statistic``, ``report``, ``choice_label``, ...).

    >>> import numpy as np, compare_lib as cl
    >>> from types import SimpleNamespace
    >>> def mean_difference(table, pairs):
    ...     d = (table.oriented_scores[:, pairs[:, 0]] - table.oriented_scores[:, pairs[:, 1]]).mean(axis=0)
    ...     return SimpleNamespace(statistic=d, pvalue=np.where(np.abs(d) > 1, 0.001, 0.5))
    >>> _ = cl.register_pairwise_test("toy", mean_difference, label="toy difference", reference="a toy")
    >>> t = cl.as_table([[1, 5, 2], [2, 9, 3]], higher_is_better=True)
    >>> cl.posthoc(t, test="toy", correction="holm")[["a", "b", "reject", "better"]].values.tolist()
    [['C1', 'C2', True, 'C2'], ['C2', 'C3', True, 'C2'], ['C1', 'C3', False, 'C3']]
    >>> cl.unregister_pairwise_test("toy")
    """
    name = check_new_name(name, PAIRWISE_TESTS, "pairwise statistic", replace=replace)
    test = PairwiseTest(name, label, compute, reference, description, pool_dependent, **fields)
    PAIRWISE_TESTS[name] = test
    return test


def unregister_pairwise_test(name: str) -> None:
    """Remove a statistic added with :func:`register_pairwise_test`."""
    PAIRWISE_TESTS.pop(name, None)


def lookup_test(name: str) -> PairwiseTest:
    return PAIRWISE_TESTS[check_choice(name, PAIRWISE_TESTS, "test")]  # check_choice raises for an unknown name


def test_names() -> tuple[str, ...]:
    """The registered statistics, in registry order (``compare_lib.TESTS``)."""
    return tuple(PAIRWISE_TESTS)


def test_labels() -> dict[str, str]:
    """Name -> label of every registered statistic (``compare_lib.posthoc_labels``)."""
    return {name: x.label for name, x in PAIRWISE_TESTS.items()}


def pool_dependent_names() -> tuple[str, ...]:
    """The statistics whose verdicts depend on the other classifiers in the table."""
    return tuple(name for name, x in PAIRWISE_TESTS.items() if x.pool_dependent)


def mean_ranks_test() -> PairwiseTest:
    """The entry of the Friedman mean-ranks z (the statistic of Demšar's CD diagrams)."""
    return next(x for x in PAIRWISE_TESTS.values() if x.mean_ranks)


def exact_rank_sum_test() -> PairwiseTest | None:
    """The entry of the exact rank-sum difference (Eisinga et al. 2017), which messages offer where a rank
    statistic's approximation is rough or undefined; None if it was unregistered."""
    return PAIRWISE_TESTS.get("rank-sum-exact")


# ---------------------------------------------------------------------------------------------
# kernels of the statistics computed here (the rank statistics live in _rank_tests)

#: Differences held in memory at once when the pairwise tests are vectorized over pairs.
_CHUNK_CELLS = 2_000_000


def mean_ranks_z(t: "ScoreTable", pairs) -> PairwiseStatistics:
    """z = (R_b - R_a) / sqrt(k(k+1)/(6N)) for index pairs (a, b), its normal p and the better classifier.

    Computed from the exact integer difference of doubled rank sums, so that two pairs whose rank sums
    differ by the same amount get bit-identical |z| (and p), whatever the order of rows and columns.
    """
    from scipy import stats

    from compare_lib.stats._critical import rank_standard_error

    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    doubled = t.doubled_rank_sums.to_numpy()
    diff = doubled[pairs[:, 1]] - doubled[pairs[:, 0]]  # > 0 when a has the smaller (better) rank sum
    z = diff / (2 * t.n_datasets * rank_standard_error(t.n_classifiers, t.n_datasets))
    better = np.where(diff > 0, pairs[:, 0], np.where(diff < 0, pairs[:, 1], -1))
    return PairwiseStatistics(z, np.minimum(1.0, 2 * stats.norm.sf(np.abs(z))), better, np.ones(len(z), dtype=bool))


def _chunks(t: "ScoreTable", pairs: np.ndarray):
    """(slice, a, b, differences) over chunks of pairs: differences > 0 where b is better."""
    scores = t.oriented_scores
    step = max(1, _CHUNK_CELLS // max(1, t.n_datasets))
    for lo in range(0, pairs.shape[0], step):
        part = slice(lo, lo + step)
        a, b = pairs[part, 0], pairs[part, 1]
        yield part, a, b, (scores[:, b] - scores[:, a]).T


def wilcoxon_pairs(t: "ScoreTable", pairs, *, zero_method: str = "demsar", wilcoxon_method: str = "auto"
                   ) -> PairwiseStatistics:
    """Wilcoxon signed-ranks T = min(R+, R-) and p of each pair, vectorized over pairs."""
    from compare_lib.stats._two_classifiers import EXACT_WILCOXON_MAX_N, wilcoxon_rows

    m = pairs.shape[0]
    stat, p, better, exact = np.empty(m), np.empty(m), np.empty(m, dtype=np.int64), np.ones(m, dtype=bool)
    for part, a, b, d in _chunks(t, pairs):
        r = wilcoxon_rows(d, zero_method=zero_method, method=wilcoxon_method)
        stat[part], p[part] = r["statistic"], r["p"]
        # Pairs whose exact distribution was left out by the work budget (not those with > 50 differences).
        exact[part] = r["exact"] | (r["n_free"] > EXACT_WILCOXON_MAX_N) | (wilcoxon_method != "auto")
        # R+ collects the ranks where b is better.
        better[part] = np.where(r["r_plus"] > r["r_minus"], b, np.where(r["r_minus"] > r["r_plus"], a, -1))
    return PairwiseStatistics(stat, p, better, exact)


def sign_pairs(t: "ScoreTable", pairs) -> PairwiseStatistics:
    """Sign test of each pair: wins of a (ties split) and the exact binomial p, vectorized over pairs."""
    from compare_lib.stats._two_classifiers import sign_test_rows

    m = pairs.shape[0]
    stat, p, better = np.empty(m), np.empty(m), np.empty(m, dtype=np.int64)
    for part, a, b, d in _chunks(t, pairs):
        r = sign_test_rows(-d)  # wins of a, ties split
        stat[part], p[part] = r["statistic"], r["p"]
        better[part] = np.where(r["wins"] > r["losses"], a, np.where(r["losses"] > r["wins"], b, -1))
    return PairwiseStatistics(stat, p, better, np.ones(m, dtype=bool))


def _rank_kernel(name: str) -> Callable[..., PairwiseStatistics]:
    def compute(t, pairs):
        from compare_lib.stats import _rank_tests

        try:
            return getattr(_rank_tests, name)(t, pairs)
        except _rank_tests.ZeroResidualError as exc:
            exact = exact_rank_sum_test()
            if exact is None:
                raise
            advice = f"Use the exact rank-sum test ({arg('test', exact.name)}) instead."
            raise InputError(exc.args[0].replace(exc.ADVICE, advice)) from None

    return compute


def _small_n_advice(t: "ScoreTable") -> str | None:
    if t.n_datasets > 30:
        return None
    exact = PAIRWISE_TESTS.get("rank-sum-exact")
    if exact is None:
        return None
    return (f"With N = {t.n_datasets} data sets the normal approximation of the z's p-values is rough in the "
            f"tails; the pairwise statistic \"{exact.label[:1].upper() + exact.label[1:]}\" tests the same rank sums "
            "with exact p-values (Eisinga et al. 2017).")


#: The statistic used where none is chosen (Demšar's post-hoc, the historical default of cl.posthoc).
DEFAULT_TEST = "mean-ranks"
#: The statistic the dashboard and the summaries choose first: it looks at the two classifiers only
#: (Benavoli, Corani & Mangili 2016 recommend it over the pool-dependent rank statistics).
RECOMMENDED_TEST = "wilcoxon"

register_pairwise_test(
    "mean-ranks", mean_ranks_z, label="mean-ranks z", reference="Demšar 2006, §3.2.2", pool_dependent=True,
    statistic="z", mean_ranks=True, choice_label="Mean-ranks z (Friedman)", advice=_small_n_advice,
    description="Friedman mean ranks, z = (R_a − R_b)/sqrt(k(k+1)/(6N)), normal p-value.",
    report="the mean-ranks statistic z = (R_a − R_b)/√(k(k+1)/(6N)) (Demšar, 2006)",
)
register_pairwise_test(
    "rank-sum-exact", _rank_kernel("rank_sum_exact"), label="exact rank-sum difference", pool_dependent=True,
    reference="Eisinga, Heskes, Pelzer & Te Grotenhuis 2017", statistic="R_b − R_a (rank sums)",
    choice_label="Exact rank-sum difference (Friedman)",
    description="The same Friedman ranks, with the exact p-value of the rank-sum difference instead of the normal "
                "approximation (the normal one, with the exact variance, beyond a work budget, flagged).",
    report=lambda r: ("the exact p-values of the differences of Friedman rank sums (Eisinga et al., 2017)"
                      + (", with the normal approximation for pairs beyond the exact computation's budget"
                         if r.approximate_pairs else "")),
    exact_note="p-values: **exact** (the permutation distribution of the rank-sum difference, Eisinga et al. "
               "2017, ties included).",
    approximate_note="The exact distribution of the rank-sum difference is too large to compute for this table within "
                     "a second; the p-values come from the normal approximation with the exact permutation variance.",
)
register_pairwise_test(
    "aligned-ranks", _rank_kernel("aligned_ranks_z"), label="aligned-ranks z", pool_dependent=True, statistic="z",
    reference="Hodges & Lehmann 1962; García et al. 2010, §3.2", choice_label="Aligned-ranks z",
    description="Scores minus their data set's mean, ranked over all kN; z of the mean aligned ranks with the "
                "exact permutation variance (García et al.'s printed standard error is wrong).",
    report="the Friedman aligned-ranks statistic (Hodges & Lehmann, 1962; García et al., 2010) with its exact "
           "permutation standard error",
)
register_pairwise_test(
    "quade", _rank_kernel("quade_z"), label="Quade z", pool_dependent=True, statistic="z",
    reference="Quade 1979; García et al. 2010, §3.2",
    description="Ranks weighted by the rank of each data set's range; z with the exact permutation variance "
                "(García et al.'s printed standard error is too large for k > 3).",
    report="Quade's weighted-ranks statistic (Quade, 1979; García et al., 2010) with its exact permutation "
           "standard error",
)
register_pairwise_test(
    "conover", _rank_kernel("conover_t"), label="Conover t", pool_dependent=True, statistic="t",
    reference="Conover 1999, §5.8", choice_label="Conover t (Friedman)",
    description="Friedman rank sums with Conover's t, which estimates the rank variance from the data, "
                "(N−1)(k−1) df: more powerful than the z, and still pool-dependent.",
    report=lambda r: (f"Conover's t statistic on the Friedman rank sums ((N-1)(k-1) = {(r.n - 1) * (r.k - 1)} df; "
                      "Conover, 1999)"),
)
register_pairwise_test(
    "wilcoxon", wilcoxon_pairs, label="Wilcoxon signed-ranks", reference="Wilcoxon 1945; Demšar 2006, §3.1.3",
    statistic="T = min(R+, R−)", options=("zero_method", "wilcoxon_method"), handles_missing=True,
    description="The two classifiers' differences only (Demšar's zero handling).",
    report="pairwise Wilcoxon signed-ranks tests (Wilcoxon, 1945; Benavoli et al., 2016)",
    estimand="each pair's pseudo-median difference",
    assumption="differences symmetric about their pseudo-median (the Wilcoxon test's own assumption)",
    approximate_note="For {count:,} pairs with tied differences the Wilcoxon p-value comes from the normal "
                     "approximation (with the tie correction): their exact distributions are too many to enumerate "
                     "here. compare_lib.wilcoxon gives the exact value of any one pair.",
)
register_pairwise_test(
    "sign", sign_pairs, label="sign test", reference="Demšar 2006, §3.1.2", statistic="wins of a (ties split)",
    handles_missing=True,
    description="Wins and losses of the two classifiers only, exact binomial.",
    report="pairwise sign tests (ties split evenly; Demšar, 2006; Benavoli et al., 2016)",
    estimand="each pair's median difference (who beats whom on more than half of the data sets)",
)
