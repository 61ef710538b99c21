"""p-value adjustments against independent implementations of their definitions."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest

import compare_lib as cl
from compare_lib.multiple._adjust import PROCEDURES, procedures_for


def _holm(p):
    m = len(p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    running = 0.0
    for j, idx in enumerate(order):
        running = max(running, (m - j) * p[idx])
        out[idx] = min(1.0, running)
    return out


def _hochberg(p):
    m = len(p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    running = 1.0
    for j in range(m - 1, -1, -1):
        idx = order[j]
        running = min(running, (m - j) * p[idx])
        out[idx] = running
    return out


def _simes(ps):
    ps = np.sort(ps)
    n = len(ps)
    return min(1.0, np.min(n * ps / np.arange(1, n + 1)))


def _hommel_closed_testing(p):
    """Hommel (1988) = closed testing with Simes tests: APV_i = max over subsets I containing i of Simes(I)."""
    m = len(p)
    out = np.zeros(m)
    for size in range(1, m + 1):
        for subset in combinations(range(m), size):
            s = _simes(p[list(subset)])
            for i in subset:
                out[i] = max(out[i], s)
    return out


def _hommel_garcia_figure3(p):
    """García & Herrera 2008, Figure 3 (indices 1-based, p sorted, m = k - 1 hypotheses)."""
    order = np.argsort(p, kind="stable")
    ps = p[order]
    m = len(ps)
    k = m + 1
    apv = ps.copy()
    for j in range(k - 1, 1, -1):
        c = [j * ps[i - 1] / (j + i - k + 1) for i in range(1, m + 1) if i > (k - 1 - j)]
        c_min = min(c)
        for i in range(1, m + 1):
            if i > k - 1 - j:
                apv[i - 1] = max(apv[i - 1], c_min)
            else:
                apv[i - 1] = max(apv[i - 1], min(c_min, j * ps[i - 1]))
    out = np.empty(m)
    out[order] = np.minimum(apv, 1.0)
    return out


def _exhaustive_by_definition(k):
    """Every non-empty set of pairs in which equality is transitive (no triangle with exactly 2 sides)."""
    pairs = list(combinations(range(k), 2))
    out = []
    for mask in range(1, 2 ** len(pairs)):
        members = [h for h in range(len(pairs)) if mask >> h & 1]
        chosen = {pairs[h] for h in members}
        if all(sum(q in chosen for q in combinations(tri, 2)) != 2 for tri in combinations(range(k), 3)):
            out.append(members)
    return out


def _bergmann_hommel_brute(p, k, monotone=True):
    """APV_i = max over exhaustive I containing i of |I| min_{j in I} p_j; exhaustive sets by definition."""
    pairs = list(combinations(range(k), 2))
    out = np.zeros(len(pairs))
    for mask in range(1, 2 ** len(pairs)):
        members = [h for h in range(len(pairs)) if mask >> h & 1]
        chosen = {pairs[h] for h in members}
        ok = all(
            sum(q in chosen for q in combinations(tri, 2)) != 2 for tri in combinations(range(k), 3)
        )
        if not ok:
            continue
        value = len(members) * min(p[h] for h in members)
        for h in members:
            out[h] = max(out[h], value)
    out = np.minimum(out, 1.0)
    if monotone:
        order = np.argsort(p, kind="stable")
        out[order] = np.maximum.accumulate(out[order])
    return out


def _random_p(rng, m):
    return np.sort(rng.uniform(0, 0.1, m) ** rng.uniform(1, 3))[rng.permutation(m)]


def test_holm_hochberg_bonferroni_match_definitions():
    rng = np.random.default_rng(1)
    for _ in range(50):
        p = _random_p(rng, int(rng.integers(1, 15)))
        assert np.allclose(cl.adjust(p, "holm"), _holm(p))
        assert np.allclose(cl.adjust(p, "hochberg"), _hochberg(p))
        assert np.allclose(cl.adjust(p, "bonferroni"), np.minimum(1, len(p) * p))


def test_hommel_matches_closed_testing_and_garcia_figure3():
    rng = np.random.default_rng(2)
    for _ in range(60):
        p = _random_p(rng, int(rng.integers(1, 9)))
        ours = cl.adjust(p, "hommel")
        assert np.allclose(ours, _hommel_closed_testing(p), rtol=1e-12, atol=1e-15)
        assert np.allclose(ours, _hommel_garcia_figure3(p), rtol=1e-12, atol=1e-15)


def test_hommel_demsar_decision_rule(demsar):
    """Demšar: find the largest j with p_{n-j+k} > k alpha / j for all k = 1..j; reject p_i <= alpha / j.

    The paper says j = 2 here, but p_2 = 0.019 < 0.05/2 fails the condition at k = 1, so j = 1; both
    reject exactly the first two hypotheses, as Demšar reports.
    """
    res = cl.posthoc(demsar, "mean-ranks", "hommel", control="C4.5")
    p = np.sort(res["p"].to_numpy())
    n, alpha = len(p), 0.05
    js = [j for j in range(1, n + 1) if all(p[n - j + kk - 1] > kk * alpha / j for kk in range(1, j + 1))]
    assert max(js) == 1
    assert res["reject"].tolist() == list(p <= alpha / max(js)) == [True, True, False]


@pytest.mark.parametrize("k", [3, 4, 5])
def test_bergmann_hommel_matches_brute_force(k):
    rng = np.random.default_rng(k)
    m = k * (k - 1) // 2
    for _ in range(25 if k < 5 else 6):
        p = _random_p(rng, m)
        assert np.allclose(cl.adjust(p, "bergmann-hommel"), _bergmann_hommel_brute(p, k), rtol=1e-12)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_bergmann_hommel_closed_is_the_definition_and_its_decision(k):
    """Issue 9: the closed form's APV is García & Herrera's formula with no monotone step, and
    APV <= alpha is exactly their decision: reject H_j iff j lies outside the acceptance set
    A = union of the exhaustive I with min_{i in I} p_i > alpha / |I|."""
    rng = np.random.default_rng(10 + k)
    sets = _exhaustive_by_definition(k)
    m = k * (k - 1) // 2
    for _ in range(25 if k < 5 else 8):
        p = _random_p(rng, m)
        closed = cl.adjust(p, "bergmann-hommel-closed")
        assert np.allclose(closed, _bergmann_hommel_brute(p, k, monotone=False), rtol=1e-12)
        assert (closed <= cl.adjust(p, "bergmann-hommel") + 1e-15).all()
        for alpha in (0.01, 0.05, 0.1, 0.2):
            accepted = set().union(*(set(I) for I in sets if min(p[i] for i in I) > alpha / len(I)))
            assert [h not in accepted for h in range(m)] == (closed <= alpha).tolist()


def test_bergmann_hommel_two_definitions_documented_example():
    """The example in adjust()'s docstring and the README: 0.06 (monotone) against 0.04 (closed)."""
    p = [0.02, 0.02, 0.0001, 0.02, 0.0001, 0.03]
    assert cl.adjust(p, "bergmann-hommel")[-1] == pytest.approx(0.06)
    assert cl.adjust(p, "bergmann-hommel-closed")[-1] == pytest.approx(0.04)
    assert cl.adjust(p, "bergmann-hommel-closed").tolist() == pytest.approx([0.06, 0.06, 0.0006, 0.06, 0.0006, 0.04])


def test_bergmann_hommel_pair_order_is_respected():
    rng = np.random.default_rng(11)
    k = 5
    pairs = list(combinations(range(k), 2))
    p = _random_p(rng, len(pairs))
    perm = rng.permutation(len(pairs))
    shuffled_pairs = [pairs[i] for i in perm]
    shuffled = cl.adjust(p[perm], "bergmann-hommel", pairs=shuffled_pairs)
    assert np.allclose(shuffled, cl.adjust(p, "bergmann-hommel")[perm])
    with pytest.raises(cl.InputError, match="every pair"):
        cl.adjust(p, "bergmann-hommel", pairs=pairs[:-1] + [(0, 1)])


def test_shaffer_possible_true_counts_and_t():
    assert cl.possible_true_counts(3) == {0, 1, 3}
    assert cl.possible_true_counts(4) == {0, 1, 2, 3, 6}
    assert cl.possible_true_counts(5) == {0, 1, 2, 3, 4, 6, 10}
    assert cl.shaffer_t(4) == (6, 3, 3, 3, 2, 1)
    rng = np.random.default_rng(3)
    p = _random_p(rng, 6)
    order = np.argsort(p)
    expected = np.empty(6)
    expected[order] = np.minimum(1, np.maximum.accumulate(np.array([6, 3, 3, 3, 2, 1]) * p[order]))
    assert np.allclose(cl.adjust(p, "shaffer"), expected)


def test_ties_get_the_same_apv_whatever_the_order():
    p = np.array([0.01, 0.02, 0.01, 0.03, 0.02, 0.5])
    for method in ("bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann-hommel"):
        apv = cl.adjust(p, method)
        assert apv[0] == apv[2] and apv[1] == apv[4], method
        perm = np.array([5, 3, 4, 1, 2, 0])
        assert np.allclose(cl.adjust(p[perm], method), apv[perm]), method


def test_adjust_errors():
    with pytest.raises(cl.InputError, match="Unknown procedure"):
        cl.adjust([0.1], "tukey")
    with pytest.raises(cl.InputError, match=r"\[0, 1\]"):
        cl.adjust([0.1, 1.5], "holm")
    with pytest.raises(cl.InputError, match="k\\(k-1\\)/2"):
        cl.adjust([0.1, 0.2], "shaffer")
    with pytest.raises(cl.InputError, match="studentized range"):
        cl.adjust([0.1, 0.2, 0.3], "nemenyi")
    assert cl.adjust([], "holm").size == 0


def test_registry_drives_families():
    assert procedures_for("control") == ["bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner",
                                         "rom", "li"]
    assert procedures_for("all-pairs") == [
        "nemenyi", "bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "shaffer", "bergmann-hommel",
        "bergmann-hommel-closed",
    ]
    assert all(p.reference for p in PROCEDURES.values())


def test_holm_hochberg_hommel_match_statsmodels():
    """Independent implementation: statsmodels' multipletests."""
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(7)
    for _ in range(100):
        p = _random_p(rng, int(rng.integers(1, 30)))
        for ours, theirs in (("holm", "holm"), ("hochberg", "simes-hochberg"), ("hommel", "hommel")):
            assert np.allclose(cl.adjust(p, ours), multipletests(p, method=theirs)[1], rtol=1e-12, atol=1e-15)


# -- issue 13: Holland, Finner, Li, Rom (García, Fernández, Luengo & Herrera 2010, §3.3) --------------


def _step_down_decisions(p, alpha, critical):
    """Reject H_(1..j-1) where j is the first i with p_(i) > critical(i, m) (the definition, one level)."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    reject = np.zeros(m, dtype=bool)
    for i, idx in enumerate(order, start=1):
        if p[idx] > critical(i, m, alpha):
            break
        reject[idx] = True
    return reject


def _rom_decisions(p, alpha):
    """Rom's step-up at one level from its definition: from the largest p down, reject it and everything
    smaller at the first p_(j) <= c_{m-j+1}(alpha)."""
    m = len(p)
    c = cl.rom_critical_values(alpha, m)[:, 0]
    order = np.argsort(p, kind="stable")
    reject = np.zeros(m, dtype=bool)
    for j in range(m, 0, -1):
        if p[order[j - 1]] <= c[m - j]:
            reject[order[:j]] = True
            break
    return reject


def _li_decisions(p, alpha):
    largest = p.max()
    if largest <= alpha:
        return np.ones(len(p), dtype=bool)
    return p <= alpha * (1 - largest) / (1 - alpha)


DEFINITIONS = {
    "holland": lambda p, a: _step_down_decisions(p, a, lambda i, m, al: 1 - (1 - al) ** (1 / (m - i + 1))),
    "finner": lambda p, a: _step_down_decisions(p, a, lambda i, m, al: 1 - (1 - al) ** (i / m)),
    "rom": _rom_decisions,
    "li": _li_decisions,
}


@pytest.mark.parametrize("method", list(DEFINITIONS))
def test_new_procedures_reject_exactly_when_apv_is_at_most_alpha(method):
    """On random p-values and at several levels, "APV <= alpha" is the procedure's own decision."""
    rng = np.random.default_rng(13)
    for _ in range(150):
        m = int(rng.integers(1, 12))
        p = rng.random(m) ** rng.uniform(1, 6)
        apv = cl.adjust(p, method)
        assert (apv >= p - 1e-15).all() and (apv <= 1).all()
        order = np.argsort(p, kind="stable")
        assert (np.diff(apv[order]) >= -1e-15).all()  # monotone in the raw p-values
        for alpha in (0.01, 0.05, 0.1, 0.2):
            expected = DEFINITIONS[method](p, alpha)
            decided = apv <= alpha
            # Only p-values within rounding of a boundary may differ.
            near = np.abs(apv - alpha) < 1e-9
            assert ((decided == expected) | near).all(), (method, p, alpha, apv)


def test_holland_is_statsmodels_holm_sidak_and_finner_formula():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(17)
    for m in (2, 5, 10, 40):
        p = rng.random(m) ** 3
        assert cl.adjust(p, "holland") == pytest.approx(multipletests(p, method="holm-sidak")[1], rel=1e-12)
        order = np.argsort(p)
        raw = 1 - (1 - p[order]) ** (m / np.arange(1, m + 1))
        expected = np.empty(m)
        expected[order] = np.maximum.accumulate(raw)
        assert cl.adjust(p, "finner") == pytest.approx(expected, rel=1e-12)
    # p = 1 gives APV 1 without a floating-point warning (log1p(-1) = -inf).
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cl.adjust([1.0, 0.5, 0.01], "holland")[0] == 1.0 and cl.adjust([1.0, 0.5, 0.01], "finner")[0] == 1.0
    # Tiny p-values keep their digits: 1 - (1 - 1e-20)^5 is 0 in floating point, the APV is 5e-20.
    assert cl.adjust([1e-20, 0.5, 0.6, 0.7, 0.8], "holland")[0] == pytest.approx(5e-20, rel=1e-12)


def test_rom_critical_values_give_exactly_alpha_under_independence():
    """Rom's constants make the family-wise error exactly alpha for independent uniform p-values (400,000
    simulated families per case, within 4 binomial standard deviations); the printed r_l of García et al.
    (1, 2, 3, 3.814, 4.755) are not what the recursion gives."""
    rng = np.random.default_rng(21)
    for m, alpha in [(3, 0.05), (5, 0.05), (8, 0.1)]:
        c = cl.rom_critical_values(alpha, m)[:, 0]
        u = np.sort(rng.random((400_000, m)), axis=1)[:, ::-1]  # largest first, as c_1, c_2, ...
        fwer = (u <= c[None, :]).any(axis=1).mean()
        assert fwer == pytest.approx(alpha, abs=4 * math.sqrt(alpha * (1 - alpha) / 400_000))
    assert (0.05 / cl.rom_critical_values(0.05, 5)[:, 0]).round(3).tolist() == [1.0, 2.0, 2.963, 3.933, 4.905]


def test_li_and_rom_refused_for_all_pairs_and_rom_bounded():
    with pytest.raises(cl.InputError, match="not defined for all pairwise comparisons"):
        cl.adjust([0.01, 0.02, 0.03], "li", family="all-pairs")
    with pytest.raises(cl.InputError, match="Rom's procedure is offered for up to 100"):
        cl.adjust(np.linspace(0.001, 0.5, 101), "rom")
