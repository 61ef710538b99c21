"""Running real classifiers into fold-level tables (scikit-learn, joblib, optional Dask)."""

from __future__ import annotations

import numpy as np
import pytest

import compare_lib as cl
from compare_lib.analyses._experiments import make_classifier, parse_scheme


def test_small_experiment_is_paired_and_seeded():
    kwargs = dict(schemes=["5x2cv", "subsampling 3 x 20%"], seeds=[0, 1], n_jobs=1)
    folds = cl.run_experiment(["naive Bayes", "decision tree"], ["iris", "wine"], **kwargs)
    assert len(folds) == 2 * 2 * 2 * (10 + 3)
    assert set(folds.columns) == {"dataset", "classifier", "scheme", "seed", "run", "fold", "score", "n_train", "n_test"}
    sizes = folds.groupby(["dataset", "scheme", "seed", "run", "fold"])[["n_train", "n_test"]].nunique()
    assert (sizes == 1).all().all()  # both classifiers saw the same split
    iris = folds[(folds.dataset == "iris") & (folds.scheme == "5x2cv")]
    assert set(iris["n_test"]) == {75}
    again = cl.run_experiment(["naive Bayes", "decision tree"], ["iris", "wine"], **kwargs)
    assert np.array_equal(folds["score"].to_numpy(), again["score"].to_numpy())
    res = cl.fold_level_tests(folds, "naive Bayes", "decision tree")
    assert {"5x2cv (Dietterich)", "corrected resampled t-test"} <= set(res["test"])


def test_parallel_equals_serial():
    args = (["naive Bayes", "k-NN"], ["iris"])
    serial = cl.run_experiment(*args, schemes=["10-fold cv"], seeds=[3], n_jobs=1)
    parallel = cl.run_experiment(*args, schemes=["10-fold cv"], seeds=[3], n_jobs=2)
    assert np.array_equal(serial["score"].to_numpy(), parallel["score"].to_numpy())


def test_custom_estimator_and_progress():
    seen = []
    folds = cl.run_experiment(["naive Bayes", 'sklearn.linear_model.LogisticRegression {"max_iter": 500}'], ["iris"],
                              schemes=["2-fold cv"], seeds=[0, 1], n_jobs=1, progress=seen.append)
    assert seen[-1] == 1.0 and len(seen) == 2
    assert folds["classifier"].nunique() == 2


@pytest.mark.parametrize(
    "spec,expected",
    [("5x2cv", (5, 2, None)), ("10-fold cv", (1, 10, None)), ("10x10-fold cv", (10, 10, None)),
     ("subsampling 30 x 10%", (30, 1, 0.1))],
)
def test_parse_scheme(spec, expected):
    s = parse_scheme(spec)
    assert (s.runs, s.folds, s.test_fraction) == expected


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: parse_scheme("bootstrap"), "Unknown scheme"),
        (lambda: make_classifier("magic forest"), "Unknown classifier"),
        (lambda: make_classifier("sklearn.svm.NoSuchThing"), "Cannot find"),
        (lambda: make_classifier('sklearn.svm.SVC {"C": }'), "JSON"),
        (lambda: cl.run_experiment(["naive Bayes"], ["iris"]), "at least 2 classifiers"),
        (lambda: cl.run_experiment(["naive Bayes", "k-NN"], ["mnist"]), "Unknown data set"),
    ],
)
def test_bad_requests(call, message):
    with pytest.raises(cl.InputError, match=message):
        call()


def test_dask_backend_with_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster):
            folds = cl.run_experiment(["naive Bayes", "decision tree"], ["iris"], schemes=["5x2cv"], seeds=[0],
                                      backend="dask")
    local = cl.run_experiment(["naive Bayes", "decision tree"], ["iris"], schemes=["5x2cv"], seeds=[0], n_jobs=1)
    assert np.array_equal(folds["score"].to_numpy(), local["score"].to_numpy())
