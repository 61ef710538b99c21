"""Issue 27: seeds are bounded to what numpy accepts, checked at the entry of every public function that takes one.

A negative seed (with a ROPE) or one of 2**32 and more used to surface as a numpy traceback, or, in the dashboard,
to break a page for the session. Every public function with a seed now calls ``check_seed``: None or a whole
number from 0 to ``compare_lib.limits.MAX_SEED`` (2**32 - 1), numpy integers included; anything else is an
``InputError`` naming the argument. Valid seeds give exactly the numbers they gave before the check (the
reference values below were computed with the library as it was before issue 27's change).
"""

from __future__ import annotations

import numpy as np
import pytest

import compare_lib as cl
from compare_lib.analyses._experiments import MAX_EXPERIMENT_SEED
from compare_lib.core._validation import check_seed

MAX_SEED = cl.limits.MAX_SEED


@pytest.fixture(scope="module")
def table(demsar) -> cl.ScoreTable:
    return demsar


def _xy(t):
    return t.scores.iloc[:, 0].to_numpy(), t.scores.iloc[:, 1].to_numpy()


# Each public function with a seed, called cheaply with that seed, returning the numbers it published.
CALLS = {
    "bayesian_sign_test": lambda t, s: _probs(cl.bayesian_sign_test(*_xy(t), rope=0.01, samples=2000, seed=s)),
    "bayesian_signed_rank": lambda t, s: _probs(cl.bayesian_signed_rank(*_xy(t), rope=0.01, samples=2000, seed=s)),
    "bayesian_posthoc": lambda t, s: cl.bayesian_posthoc(t, rope=0.01, samples=2000, seed=s)["p_a"].tolist(),
    "relevance_demo": lambda t, s: (lambda f: f["p_rope"].tolist() + f["mean_difference"].tolist())(
        cl.relevance_demo(sizes=(10, 20), samples=2000, seed=s)),
    "plan": lambda t, s: (lambda p: [p.power, p.power_better])(cl.plan(t, n_datasets=10, difference=0.02, reps=50, seed=s)),
    "datasets_for_power": lambda t, s: (lambda p: [p.n_datasets, p.power])(
        cl.datasets_for_power(t, power=0.5, min_n=5, max_n=20, difference=0.05, reps=30, seed=s)),
    "detectable_difference": lambda t, s: (lambda p: [p.difference, p.power])(
        cl.detectable_difference(t, n_datasets=10, reps=30, seed=s)),
    "familywise_error": lambda t, s: cl.familywise_error(3, 10, reps=50, seed=s)["fwer"].tolist(),
    "pool_power_simulation": lambda t, s: cl.pool_power_simulation(n=10, reps=50, seed=s)["rejections"].tolist(),
    "rank_sets": lambda t, s: (lambda f: f["rank_low"].tolist() + f["rank_high"].tolist())(
        cl.rank_sets(t, method="bootstrap", n_boot=200, seed=s)),
    "selection_experiment": lambda t, s: cl.selection_experiment(
        t, t.classifiers[0], t.classifiers[1], n_sets=5, biases=[0, 5], samples=20, seed=s,
        tests=["Wilcoxon", "Friedman"])["mean_p"].tolist(),
    "analyze": lambda t, s: cl.analyze(t, rope=0.01, seed=s, bayesian_samples=2000).bayesian["p_a"].tolist(),
    # issue 30: the paired bootstrap of item-level results (items made from the table, see _items)
    "item_comparison": lambda t, s: cl.item_comparison(_items(t), t.classifiers[0], t.classifiers[1], test="bootstrap",
                                                       reps=200, seed=s)["se"].tolist()[:3],
    "item_comparison_all": lambda t, s: cl.item_comparison_all(_items(t, 3), test="permutation", reps=200,
                                                               seed=s)["p"].tolist()[:3],
    # issue 29: the Bayesian Plackett-Luce ranking
    # issue 29: the hierarchical test (NumPyro): 14 "data sets" of 2 "folds" made from the table's columns
    "bayesian_hierarchical": lambda t, s: (lambda r: [r.p_x, r.p_rope, r.p_y, *r.mean_masses])(
        cl.bayesian_hierarchical(t.scores.to_numpy()[:, :2], t.scores.to_numpy()[:, 2:], 0.01, chains=1, samples=100,
                                 warmup=100, seed=s)),
    "bayesian_ranking": lambda t, s: cl.bayesian_ranking(t, samples=400, seed=s).p_best.tolist(),
}


def _items(t, k: int = 2) -> cl.Items:
    """Item-level results from a table: each data set a task of 20 items scattered around its score."""
    import pandas as pd

    long = t.scores.iloc[:, :k].stack().rename("score").reset_index()
    long.columns = ["task", "model", "score"]
    frames = [long.assign(item=str(j), score=long["score"] + 0.01 * ((j * 7 + np.arange(len(long))) % 11 - 5))
              for j in range(20)]
    return cl.Items(pd.concat(frames, ignore_index=True), metric="auc")


def _probs(result) -> list[float]:
    return [result.p_x, result.p_rope, result.p_y]


#: What each call gave with seed=7 before the seed checks (Demšar's Table 6, the first two classifiers).
BEFORE_SEED_7 = {
    "bayesian_sign_test": [0.0, 0.8045, 0.1955],
    "bayesian_signed_rank": [0.0, 0.34, 0.66],
    "bayesian_posthoc": [0.0, 0.1155, 0.0, 0.4845, 0.003, 0.0005],
    "relevance_demo": [1.0, 1.0, 0.000976606086358978, -0.00016412903346108755],
    "plan": [0.26, 0.26],
    "datasets_for_power": [8, 0.5],
    "detectable_difference": [0.03908752991524261, 0.8],
    "familywise_error": [0.12, 0.06, 0.06],
    "pool_power_simulation": [32, 44, 0],
    # The bootstrap interval of issue 28 (expanded BCa joined with a floored score interval), seed 7.
    "rank_sets": [2.402564370585794, 1.5763168486208463, 2.313494954944372, 1.3928821762186185, 3.767480122353229,
                  2.4236831513791537, 3.5, 2.6268756928525496],
    "selection_experiment": [0.26875, 0.3160222507266526, 0.24375, 0.31008269280648365],
    "analyze": [0.0, 0.1155, 0.0, 0.4845, 0.003, 0.0005],
    # issue 30 (new functions: their values when they were added)
    "item_comparison": [0.008064300322935187, 0.005230561044880478, 0.007788135222969382],
    "item_comparison_all": [0.527363184079602, 0.3333333333333333, 0.03482587064676617],
    # Recomputed in issue 29 (2026-11-27): the sampler's block moves were vectorised and now scan the blocks from
    # the last to the first (the same posterior, other draws for a seed; tests/test_bayes_ranking.py checks both).
    "bayesian_ranking": [0.12026685770777813, 0.35483633689050215, 0.16070880418594066, 0.3641880012157792],
}
#: ... and with the largest seed, 2**32 - 1.
BEFORE_SEED_MAX = {
    "item_comparison": [0.007146491214814245, 0.0053953613987494506, 0.007538750396298349],
    "item_comparison_all": [0.47761194029850745, 0.3034825870646766, 0.08955223880597014],
    "bayesian_sign_test": [0.0, 0.775, 0.225],
    "bayesian_signed_rank": [0.0, 0.3365, 0.6635],
    "familywise_error": [0.1, 0.0, 0.0],
}

BAD_SEEDS = [-1, 2**32, 1.5, True, "3", float("nan"), float("inf"), -(10**400), [1]]


def test_every_function_with_a_seed_is_checked():
    """The table above lists every public function of the library that takes a seed (datasets_for_power and
    detectable_difference take plan's options, seed among them; run_experiment's seeds have their own test)."""
    import inspect

    with_seed = {name for name in cl.__all__ if callable(getattr(cl, name, None))
                 and not inspect.isclass(getattr(cl, name))
                 and "seed" in _parameters(getattr(cl, name))}
    assert with_seed | {"datasets_for_power", "detectable_difference"} == set(CALLS) | set(SCRIPTS)


#: Functions that write a seed into a reproducing script: they check it as the call they write would.
SCRIPTS = ("hierarchical_script", "item_comparison_script", "ranking_script")


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_scripts_refuse_a_bad_seed(table, seed):
    import pandas as pd

    folds = pd.DataFrame({"dataset": ["d"] * 4, "classifier": ["A", "A", "B", "B"], "fold": [1, 2, 1, 2],
                          "score": [0.8, 0.7, 0.6, 0.5]})
    with pytest.raises(cl.InputError, match=r"seed must be a whole number between 0 and 4,294,967,295"):
        cl.hierarchical_script(folds, "A", "B", seed=seed)
    with pytest.raises(cl.InputError, match=r"seed must be a whole number between 0 and 4,294,967,295"):
        cl.item_comparison_script(None, seed=seed)
    with pytest.raises(cl.InputError, match=r"seed must be a whole number between 0 and 4,294,967,295"):
        cl.ranking_script(table, seed=seed)
    assert "seed=7" in cl.hierarchical_script(folds, "A", "B", seed=np.int64(7))


def _parameters(fn) -> set[str]:
    import inspect

    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return set()


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_bad_seed_is_an_input_error_naming_the_argument(table, name, seed):
    with pytest.raises(cl.InputError, match=r"seed must be a whole number between 0 and 4,294,967,295"):
        CALLS[name](table, seed)


#: Functions new since the seed check, with no numbers from before it: a seed gives the same numbers in every call.
#: (The hierarchical test's draws come from JAX's compiled code, whose floating point may differ between processor
#: families: no stored numbers for it.)
NO_BEFORE = {"bayesian_hierarchical"}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_seeds_give_the_numbers_they_gave_before(table, name):
    if name in NO_BEFORE:
        BEFORE_SEED_7[name] = CALLS[name](table, 7)
    assert CALLS[name](table, 7) == BEFORE_SEED_7[name]
    assert CALLS[name](table, np.int64(7)) == BEFORE_SEED_7[name]
    assert CALLS[name](table, np.uint32(7)) == BEFORE_SEED_7[name]
    got = CALLS[name](table, 0)  # the smallest seed is accepted, and so is the largest
    assert got == CALLS[name](table, 0)
    top = CALLS[name](table, MAX_SEED)
    if name in BEFORE_SEED_MAX:
        assert top == BEFORE_SEED_MAX[name]


def test_none_draws_a_fresh_seed_where_it_did_and_the_seed_is_recorded_as_an_int(table):
    x, y = _xy(table)
    assert cl.bayesian_signed_rank(x, y, rope=0.01, samples=500, seed=None).seed is None
    result = cl.bayesian_signed_rank(x, y, rope=0.01, samples=500, seed=np.int64(3))
    assert result.seed == 3 and type(result.seed) is int
    assert cl.bayesian_posthoc(table, rope=0.01, samples=500, seed=np.uint16(3)).attrs["seed"] == 3
    with pytest.raises(cl.InputError, match="seed must be a whole number"):
        cl.relevance_demo(sizes=(10,), samples=500, seed=None)  # its seed numbers the steps: a number is needed


def test_a_negative_seed_with_a_rope_is_an_input_error_not_a_numpy_traceback(table):
    """The issue's case: the Bayesian tests with rope= and seed=-1."""
    x, y = _xy(table)
    for call in (lambda: cl.bayesian_signed_rank(x, y, rope=0.01, seed=-1),
                 lambda: cl.bayesian_sign_test(x, y, rope=0.01, seed=-1),
                 lambda: cl.bayesian_posthoc(table, rope=0.01, seed=-1),
                 lambda: cl.analyze(table, rope=0.01, seed=-1)):
        with pytest.raises(cl.InputError, match=r"seed must be a whole number between 0 and 4,294,967,295 .* got -1\."):
            call()


def test_relevance_demo_at_the_largest_seed_stays_within_the_range(table):
    """Its steps use seed + step, wrapped into the range, so the largest seed runs."""
    frame = cl.relevance_demo(sizes=(10, 20, 30), samples=500, seed=MAX_SEED)
    assert len(frame) == 3 and frame.attrs["seed"] == MAX_SEED


@pytest.mark.parametrize("seed", [-1, MAX_EXPERIMENT_SEED + 1, 2**32, 1.5, True, "3"], ids=repr)
def test_run_experiment_refuses_a_seed_its_splits_cannot_use(seed):
    """A split's random_state is seed * 1000 + run, which scikit-learn needs below 2**32: the seeds are bounded so
    that every run fits (MAX_EXPERIMENT_SEED), and the message says so."""
    with pytest.raises(cl.InputError, match=rf"seeds must be a whole number between 0 and {MAX_EXPERIMENT_SEED:,}, got"):
        cl.run_experiment(["naive Bayes", "decision tree"], ["iris"], schemes=["5x2cv"], seeds=[0, seed], n_jobs=1)


def test_run_experiment_accepts_its_largest_seed_and_numpy_ints_and_keeps_its_numbers():
    classifiers, data = ["naive Bayes", "decision tree"], ["iris"]
    before = [0.9333333333333333, 0.9466666666666667, 0.8933333333333333, 0.9466666666666667, 0.9733333333333334]
    frame = cl.run_experiment(classifiers, data, schemes=["5x2cv"], seeds=[np.int64(0), 3], n_jobs=1)
    assert frame["score"].tolist()[:5] == before
    assert frame.attrs["seeds"] == [0, 3] and all(type(s) is int for s in frame.attrs["seeds"])
    top = cl.run_experiment(classifiers, data, schemes=["5x2cv"], seeds=[MAX_EXPERIMENT_SEED], n_jobs=1)
    assert len(top) == 2 * 5 * 2 and set(top["seed"]) == {MAX_EXPERIMENT_SEED}


@pytest.mark.parametrize("seed, expected", [(0, 0), (MAX_SEED, MAX_SEED), (np.int32(5), 5), (np.uint64(9), 9),
                                            (3.0, 3), (np.float64(1e3), 1000), (None, None)], ids=repr)
def test_check_seed_accepts(seed, expected):
    got = check_seed(seed)
    assert got == expected and (got is None or type(got) is int)


@pytest.mark.parametrize("seed", BAD_SEEDS + [np.bool_(True), 2**32 + 0.0, "", b"3", object()], ids=repr)
def test_check_seed_refuses_with_the_name_value_and_range(seed):
    with pytest.raises(cl.InputError) as err:
        check_seed(seed, "my_seed")
    message = str(err.value)
    assert message.startswith("my_seed must be a whole number between 0 and 4,294,967,295")
    assert len(message) < 200  # the value is shown shortened, never a 400-digit number


def test_check_seed_bounds_and_none():
    assert check_seed(10, hi=10) == 10
    with pytest.raises(cl.InputError, match="between 0 and 10 or None .*, got 11"):
        check_seed(11, hi=10)
    with pytest.raises(cl.InputError, match="got None"):
        check_seed(None, allow_none=False)
