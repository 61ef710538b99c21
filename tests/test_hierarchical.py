"""The hierarchical Bayesian test (Corani et al. 2017): the closed-form likelihood against the dense one, the
NUTS posterior against an independent Gibbs sampler (both presets), the tutorial's printed result, invariants
and bad input."""

from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl
from compare_lib.stats import _hierarchical as H
from compare_lib.errors import InputError

from .hierarchical_gibbs import gibbs

#: One sampler configuration for the quick tests (6 data sets each): JAX compiles it once for the whole module.
QUICK = dict(chains=2, samples=500, warmup=300)
#: The tutorial's 10 × 10-fold cv accuracies of NBC and HNB (from ../shared/data/bayes_tutorial/uci_cv_10x10.csv).
TUTORIAL = os.path.join(os.path.dirname(__file__), "data", "bayes_tutorial", "uci_cv_10x10_nbc_hnb.csv")


def _need_numpyro():
    problem = cl.hierarchical_available()
    if problem is not None:
        if os.environ.get("CI"):  # CI installs the test extras, which include the sampler: missing is a failure
            pytest.fail(problem)
        pytest.skip(problem)


@pytest.fixture(scope="module")
def small():
    """Six data sets × 10 folds whose answer for the next data set is uncertain (no region near 0 or 1)."""
    rng = np.random.default_rng(5)
    true = np.array([0.02, 0.01, -0.005, 0.015, 0.0, 0.03])
    x = 0.8 + true[:, None] + rng.normal(0, 0.02, (6, 10))
    return x, np.full((6, 10), 0.8)


def test_closed_form_likelihood_is_the_dense_mvn():
    rng = np.random.default_rng(0)
    for n, rho in ((2, 0.5), (10, 0.1), (15, 1 / 3), (100, 0.1)):
        x = rng.normal(0.1, 0.3, n)
        for delta, sigma in ((0.0, 1.0), (0.25, 0.4), (-1.0, 2.5)):
            cov = sigma ** 2 * ((1 - rho) * np.eye(n) + rho * np.ones((n, n)))
            dense = stats.multivariate_normal(np.full(n, delta), cov).logpdf(x)
            closed = H.loglik(x.mean(), ((x - x.mean()) ** 2).sum(), float(n), rho, delta, sigma)
            assert closed == pytest.approx(dense, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("prior", ["paper", "baycomp"])
def test_agrees_with_an_independent_gibbs_sampler(small, prior):
    """NUTS on the closed form (the library) and a Gibbs sampler on the dense pieces (tests/hierarchical_gibbs.py)
    draw from the same posterior: the next data set's probabilities and masses, P(δ0 > 0) and the shrunk δ_i agree
    within Monte Carlo error (about 4 standard errors)."""
    _need_numpyro()
    x, y = small
    rope = 0.01
    res = cl.bayesian_hierarchical(x, y, rope, prior=prior, seed=3)
    bounds = cl.HIERARCHICAL_PRIORS[prior]
    g = gibbs(list(x - y), 0.1, alpha=bounds["alpha"], beta=bounds["beta"], iterations=10_000, burn=1_000, seed=1)
    above = stats.t.sf(rope, g["nu"], g["delta0"], g["std0"])
    below = stats.t.cdf(-rope, g["nu"], g["delta0"], g["std0"])
    masses = np.column_stack([above, 1 - above - below, below])
    shares = np.bincount(masses.argmax(axis=1), minlength=3) / len(masses)
    assert 0.2 < res.p_x < 0.7 and 0.2 < res.p_rope < 0.7  # an uncertain case, so the comparison means something
    assert np.allclose([res.p_x, res.p_rope, res.p_y], shares, atol=0.07)
    assert np.allclose(res.mean_masses, masses.mean(axis=0), atol=0.035)
    assert res.p_delta0_positive == pytest.approx((g["delta0"] > 0).mean(), abs=0.05)
    assert np.allclose(res.datasets["delta"], g["delta"].mean(axis=0), atol=0.0015)
    # The diagnostics are reported, and a warning exactly when they are poor (this small, weakly informed case
    # may give a few divergent transitions in 4,000 draws, as Stan does on it).
    assert res.max_rhat < 1.02 and res.divergences < 40 and res.min_ess > 400
    assert bool(res.diagnostics["warnings"]) == (res.divergences > 0 or res.max_rhat > 1.01)
    assert any(n.startswith("The sampler may not") for n in res.notes) == bool(res.diagnostics["warnings"])
    # The preset's bounds are the ones sampled.
    for name, key in (("gamma_alpha", "alpha"), ("gamma_beta", "beta")):
        draws = res.posterior[name]
        assert bounds[key][0] <= draws.min() and draws.max() <= bounds[key][1]


def _tutorial_matrix(classifier: str) -> np.ndarray:
    cv = pd.read_csv(TUTORIAL)
    rows = cv[cv["classifier"] == classifier].sort_values(["dataset_id", "run", "fold"])
    return rows["accuracy"].to_numpy().reshape(54, 100)


def test_tutorial_hierarchical_notebook():
    """Benavoli et al. (2017) tutorial, Python/"Hierarchical test.ipynb": NBC vs HNB, 54 data sets × 10 runs of
    10-fold cv, rope 0.01, rho 1/10, the Python code's prior (baycomp's): printed P(HNB > NBC) = 0.998,
    P(rope) = 0.002, P(NBC > HNB) = 0.0 (its text, from another run: 0.9965 and 0.002)."""
    _need_numpyro()
    nbc, hnb = _tutorial_matrix("nbc"), _tutorial_matrix("hnb")
    res = cl.bayesian_hierarchical(nbc, hnb, 0.01, runs=10, prior="baycomp", seed=0)
    assert res.rho == pytest.approx(0.1) and res.n == 54
    assert res.p_y >= 0.99 and res.p_rope <= 0.01 and res.p_x <= 0.002
    assert res.p_delta0_positive < 0.01  # the mean difference over data sets favours HNB


def test_same_seed_same_result_and_swaps(small):
    _need_numpyro()
    x, y = small
    kw = dict(rope=0.01, **QUICK)
    a = cl.bayesian_hierarchical(x, y, seed=11, **kw)
    b = cl.bayesian_hierarchical(x, y, seed=11, **kw)
    assert (a.p_x, a.p_rope, a.p_y, a.mean_masses) == (b.p_x, b.p_rope, b.p_y, b.mean_masses)
    pd.testing.assert_frame_equal(a.datasets, b.datasets)
    swapped = cl.bayesian_hierarchical(y, x, seed=12, **kw)
    assert swapped.p_x == pytest.approx(a.p_y, abs=0.08) and swapped.p_y == pytest.approx(a.p_x, abs=0.08)
    assert np.allclose(swapped.datasets["delta"], -a.datasets["delta"], atol=0.002)
    flipped = cl.bayesian_hierarchical(x, y, seed=11, higher_is_better=False, **kw)  # lower is better: y is ahead
    assert flipped.p_x == pytest.approx(a.p_y, abs=0.08) and flipped.p_y == pytest.approx(a.p_x, abs=0.08)


def test_fold_rows_form_equals_the_array_form(small):
    _need_numpyro()
    x, y = small
    rows = [{"dataset": f"d{i}", "classifier": c, "run": 1, "fold": j + 1, "score": m[i, j]}
            for c, m in (("A", x), ("B", y)) for i in range(6) for j in range(10)]
    kw = dict(rope=0.01, seed=4, **QUICK)
    long = cl.bayesian_hierarchical(pd.DataFrame(rows), ("A", "B"), **kw)
    wide = cl.bayesian_hierarchical(x, y, names=[f"d{i}" for i in range(6)], **kw)
    assert long.rho == pytest.approx(0.1) and long.runs == 1
    assert (long.p_x, long.p_rope, long.p_y) == pytest.approx((wide.p_x, wide.p_rope, wide.p_y), abs=1e-12)
    assert list(long.datasets["dataset"]) == [f"d{i}" for i in range(6)]


def test_zero_variance_and_one_data_set():
    _need_numpyro()
    rng = np.random.default_rng(2)
    x = 0.8 + rng.normal(0.01, 0.02, (6, 10))
    y = np.full((6, 10), 0.8)
    x[2] = y[2] + 0.005  # the same difference on every fold
    res = cl.bayesian_hierarchical(x, y, 0.01, seed=1, **QUICK)
    assert "data set 3" in " ".join(res.notes)
    assert res.datasets["mean_difference"][2] == pytest.approx(0.005, abs=1e-12)  # the fix keeps the mean
    one = cl.bayesian_hierarchical(x[:1], y[:1], 0.01, seed=1, **QUICK)
    assert one.n == 1 and abs(one.p_x + one.p_rope + one.p_y - 1) < 1e-12


def test_statistics_of_ragged_data_sets_match_a_per_row_computation():
    """_prepare works on all data sets at once (their folds end to end); each data set's mean, centred sum of squares
    and the largest |difference| equal numpy's per row, and only an exactly constant row gets the authors' noise."""
    rng = np.random.default_rng(8)
    rows = [rng.normal(0.01, 0.03, k) for k in (10, 2, 15, 100, 7)] + [np.full(6, 0.001 + 0.002)]  # a constant row, small beside the others
    keep = [r.copy() for r in rows]
    d = H._prepare(list(rows), [0.1] * len(rows), [f"d{i}" for i in range(len(rows))], 0.01, np.random.default_rng(0))
    for i, r in enumerate(keep[:-1]):
        assert d.n[i] == r.size and d.mean[i] == pytest.approx(r.mean(), rel=1e-12, abs=1e-15)
        assert d.css[i] == pytest.approx(((r - r.mean()) ** 2).sum(), rel=1e-10)
    assert d.max_abs == pytest.approx(max(np.abs(r).max() for r in keep), rel=1e-12)
    assert d.mean[-1] == pytest.approx(0.003, abs=1e-12) and d.css[-1] > 0  # noise added, mean kept
    assert len(d.notes) == 1 and "'d5'" in d.notes[0] and "'d0'" not in d.notes[0]


def test_size_buckets():
    """The sampler is compiled for a bucket of slots: at least q, at most 1.5 times q (from 8 up), 8 at least."""
    sizes = [H._bucket(q) for q in range(1, H.MAX_DATASETS + 1)]
    assert sizes[0] == 8 and H._bucket(50) == 64 and H._bucket(60) == 64 and H._bucket(H.MAX_DATASETS) == 2048
    assert all(s >= q and (q < 8 or s <= 1.5 * q) for q, s in enumerate(sizes, 1))
    assert len(set(sizes)) == 17  # 8, 12, 16, 24, ..., 1536, 2048


def test_new_data_and_another_number_of_data_sets_reuse_the_compiled_sampler(small):
    """A repeated call with new data, and one with another number of data sets in the same bucket, run the compiled
    program again (no new compilation); the padded slots leave the data sets' answer a proper one."""
    _need_numpyro()
    x, y = small
    kw = dict(rope=0.01, **QUICK)
    cl.bayesian_hierarchical(x, y, seed=21, **kw)
    before = dict(H._SAMPLERS)
    rng = np.random.default_rng(3)
    res = cl.bayesian_hierarchical(x[:5] + rng.normal(0, 0.01, (5, 10)), y[:5], seed=22, **kw)
    assert H._SAMPLERS.keys() == before.keys() and all(H._SAMPLERS[k] is v for k, v in before.items())
    assert res.n == 5 and len(res.datasets) == 5 and res.posterior["delta0"].shape == (2 * 500,)


def test_a_chain_does_not_depend_on_how_many_run_at_once(small):
    """Chain j's draws depend only on the seed and j: one chain alone (one device) and the first of two chains (in
    parallel where the machine has two cores) are the same draws, bit for bit."""
    _need_numpyro()
    x, y = small
    one = cl.bayesian_hierarchical(x, y, 0.01, seed=5, chains=1, samples=500, warmup=300)
    two = cl.bayesian_hierarchical(x, y, 0.01, seed=5, chains=2, samples=500, warmup=300)
    for name in ("delta0", "std0", "nu"):
        assert np.array_equal(one.posterior[name], two.posterior[name][:500])
    assert not np.array_equal(two.posterior["delta0"][:500], two.posterior["delta0"][500:])  # two different chains


@pytest.mark.parametrize("call, words", [
    (lambda: cl.bayesian_hierarchical([0.1, 0.2], [0.1, 0.3]), "2-D"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.ones((3, 9))), "paired"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), runs=3), "run(s) of k >= 2"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10))), "constant"),
    (lambda: cl.bayesian_hierarchical(np.full((3, 10), np.nan), np.zeros((3, 10))), "data set 1, fold 1"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 1)), np.zeros((3, 1))), "k >= 2"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), prior="flat"), "'paper'"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), samples=10), "samples"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), seed=-1), "seed"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), rope=-0.1), "rope"),
    (lambda: cl.bayesian_hierarchical(np.ones((3, 10)), np.zeros((3, 10)), target_accept=1.0), "target_accept"),
    (lambda: cl.bayesian_hierarchical(pd.DataFrame({"dataset": ["a"], "classifier": ["A"], "score": [1.0]}), "A"),
     "(a, b)"),
])
def test_bad_input_gets_a_message(call, words):
    with pytest.raises(InputError, match=None) as err:
        call()
    assert words in str(err.value)


def test_without_the_sampler_the_message_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpyro", None)  # import numpyro now raises ImportError
    assert "compare-lib[bayes]" in cl.hierarchical_available()
    rng = np.random.default_rng(0)
    with pytest.raises(InputError, match=r"compare-lib\[bayes\]"):
        cl.bayesian_hierarchical(rng.normal(size=(3, 10)), rng.normal(size=(3, 10)))


def test_sensitivity_table_has_both_presets(small):
    _need_numpyro()
    x, y = small
    table = cl.hierarchical_sensitivity(x, y, 0.01, seed=2, **QUICK)
    assert list(table["prior"]) == ["paper", "baycomp"]
    assert table.loc[0, "alpha"] == "U(0.5, 5)" and table.loc[1, "beta"] == "U(0.01, 0.1)"
    assert np.allclose(table[["p_x", "p_rope", "p_y"]].sum(axis=1), 1.0)


def test_the_script_holds_hostile_names_only_as_data():
    """Names that try to leave their string (quotes, line breaks, a call) stay string constants in the reproducing
    script: its only names are the script's own, and the CSV text reads back to the same rows."""
    import ast
    import io

    evil = ['x"\n__import__("os").system("echo pwned")#', "a'''b", "c\\\u2028d", "=cmd|' /C calc'!A0"]
    folds = pd.DataFrame({"dataset": [evil[0], evil[0], evil[3], evil[3]] * 2,
                          "classifier": [evil[1]] * 4 + [evil[2]] * 4, "fold": [1, 2, 1, 2] * 2,
                          "score": [0.8, 0.7, 0.6, 0.5, 0.7, 0.6, 0.5, 0.4]})
    code = cl.hierarchical_script(folds, evil[1], evil[2], rope=0.01, seed=3)
    tree = ast.parse(code)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert names <= {"io", "pd", "cl", "FOLDS", "folds", "pair", "res", "print", "str"}, names
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not any("system" in c or "__import__" in c or "eval" in c for c in calls), calls
    scope: dict = {}
    exec(compile("\n".join(line for line in code.splitlines() if not line.startswith(("res =", "print("))),
                 "script.py", "exec"), scope)  # noqa: S102 - our own generated code, without the sampling
    back = scope["folds"]
    assert list(back["dataset"]) == list(folds["dataset"]) and list(back["classifier"]) == list(folds["classifier"])
    assert scope["pair"] == (evil[1], evil[2])
