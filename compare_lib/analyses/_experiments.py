"""Run real classifiers (scikit-learn) into a fold-level table for the replicability analysis.

:func:`run_experiment` trains every classifier on exactly the same train/test splits (so the
comparisons are paired) for every data set, resampling scheme and seed, in parallel with joblib:

    folds = run_experiment(["naive Bayes", "decision tree", "k-NN"], ["iris", "wine"],
                           schemes=["5x2cv", "10-fold cv"], seeds=range(10), n_jobs=-1)

The result has one row per (data set, classifier, scheme, seed, run, fold) with the accuracy and the
train/test sizes; :func:`compare_lib.fold_level_tests` reads it directly.

On a Dask cluster the same grid runs unchanged through joblib's Dask backend: create a
``dask.distributed.Client`` pointing at the cluster and pass ``backend="dask"``.
"""

from __future__ import annotations

import importlib
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np
import pandas as pd

from compare_lib.core._validation import check_seed
from compare_lib.errors import InputError

BUILTIN_CLASSIFIERS = ("naive Bayes", "decision tree", "k-NN", "logistic regression", "random forest")
#: scikit-learn modules whose classifiers may be named as 'sklearn.module.Class' (nothing else is imported).
ALLOWED_MODULES = (
    "sklearn.discriminant_analysis", "sklearn.dummy", "sklearn.ensemble", "sklearn.gaussian_process",
    "sklearn.linear_model", "sklearn.naive_bayes", "sklearn.neighbors", "sklearn.neural_network", "sklearn.svm",
    "sklearn.tree",
)
#: Bounds that keep one call from running for hours: every limit is stated in the error message.
from compare_lib.limits import MAX_EXPERIMENT_CLASSIFIERS as MAX_CLASSIFIERS, MAX_EXPERIMENT_FITS as MAX_FITS  # noqa: E402
from compare_lib.limits import MAX_EXPERIMENT_FOLDS as MAX_FOLDS, MAX_EXPERIMENT_RUNS as MAX_RUNS, MAX_EXPERIMENT_SEEDS as MAX_SEEDS  # noqa: E402
from compare_lib.limits import MAX_SEED  # noqa: E402

#: The largest seed of :func:`run_experiment`: a split's random_state, seed * 1000 + run (run < MAX_RUNS <= 1000),
#: stays within MAX_SEED (what scikit-learn accepts).
MAX_EXPERIMENT_SEED = (MAX_SEED - (MAX_RUNS - 1)) // 1000
#: Keyword arguments that set the amount of work, and their largest accepted values.
MAX_WORK_PARAMS = {"n_estimators": 2000, "max_iter": 100_000, "n_neighbors": 1000, "n_restarts_optimizer": 20}
BUILTIN_DATASETS = ("iris", "wine", "breast cancer", "digits", "synthetic (easy)", "synthetic (hard)")


@dataclass(frozen=True)
class Scheme:
    """A resampling scheme: ``runs`` repetitions of ``folds``-fold cv, or ``runs`` random splits."""

    name: str
    runs: int
    folds: int  # 1 = random subsampling
    test_fraction: float | None = None


def parse_scheme(spec: str | Scheme) -> Scheme:
    """'10-fold cv', '10x10-fold cv' (r x k), '5x2cv', 'subsampling 30 x 10%' (runs, test share)."""
    if isinstance(spec, Scheme):
        return spec
    text = str(spec).strip().lower()
    if text == "5x2cv":
        return Scheme("5x2cv", 5, 2)
    m = re.fullmatch(r"(?:(\d{1,9})\s*x\s*)?(\d{1,9})-fold cv", text)
    if m:
        runs = int(m.group(1) or 1)
        folds = int(m.group(2))
        if folds < 2 or runs < 1:
            raise InputError(f"Scheme {spec!r}: need at least 2 folds and 1 run.")
        if folds > MAX_FOLDS or runs > MAX_RUNS:
            raise InputError(f"Scheme {spec!r}: at most {MAX_RUNS} runs of at most {MAX_FOLDS} folds.")
        return Scheme(text, runs, folds)
    m = re.fullmatch(r"subsampling\s+(\d{1,9})\s*x\s*(\d{1,3}(?:\.\d{1,6})?)%", text)
    if m:
        runs, share = int(m.group(1)), float(m.group(2)) / 100
        if not 0 < share < 1 or runs < 2:
            raise InputError(f"Scheme {spec!r}: the test share must be between 0% and 100% and runs >= 2.")
        if runs > MAX_RUNS:
            raise InputError(f"Scheme {spec!r}: at most {MAX_RUNS} random splits.")
        return Scheme(text, runs, 1, share)
    raise InputError(
        f"Unknown scheme {spec!r}. Use '10-fold cv', 'R x K-fold cv' (e.g. '10x10-fold cv'), '5x2cv' or "
        "'subsampling N x P%' (e.g. 'subsampling 30 x 10%')."
    )


def make_classifier(name: str) -> Any:
    """A built-in classifier by name, or any scikit-learn estimator as 'sklearn.module.Class' with optional
    JSON keyword arguments, e.g. 'sklearn.svm.SVC {"C": 10}'."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    builtin = {
        "naive bayes": lambda: GaussianNB(),
        "decision tree": lambda: DecisionTreeClassifier(random_state=0),
        "k-nn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
        "logistic regression": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "random forest": lambda: RandomForestClassifier(n_estimators=100, random_state=0),
    }
    key = name.strip().lower()
    if key in builtin:
        return builtin[key]()
    m = re.fullmatch(r"(sklearn(?:\.\w+)+)\.(\w+)\s*(\{.*\})?", name.strip())
    if not m:
        raise InputError(
            f"Unknown classifier {name!r}: use one of {', '.join(BUILTIN_CLASSIFIERS)} or a scikit-learn class path "
            "such as 'sklearn.svm.SVC' (optionally followed by JSON arguments, e.g. 'sklearn.svm.SVC {\"C\": 10}')."
        )
    module_name, cls_name, kwargs = m.group(1), m.group(2), m.group(3)
    if module_name not in ALLOWED_MODULES:
        raise InputError(
            f"{module_name!r} is not offered: name a classifier from {', '.join(ALLOWED_MODULES)} "
            "(e.g. 'sklearn.svm.SVC')."
        )
    try:
        from sklearn.base import ClassifierMixin

        cls = getattr(importlib.import_module(module_name), cls_name)
        if not (isinstance(cls, type) and issubclass(cls, ClassifierMixin)) or cls_name.startswith("_"):
            raise InputError(f"{module_name}.{cls_name} is not a scikit-learn classifier.")
        params = json.loads(kwargs) if kwargs else {}
        if not isinstance(params, dict):
            raise InputError(f"The arguments of {name!r} must be a JSON object, e.g. {{\"C\": 10}}.")
        for key, limit in MAX_WORK_PARAMS.items():
            value = params.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > limit:
                raise InputError(f"{cls_name}: {key} = {value} is above the limit of {limit} (it sets the work done).")
        return cls(**params)
    except (ImportError, AttributeError) as err:
        raise InputError(f"Cannot find {module_name}.{cls_name}: {err}.") from None
    except (json.JSONDecodeError, TypeError, ValueError) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(f"Cannot build {name!r}: {err}. Check the JSON arguments.") from None


def load_dataset(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A data set that ships with scikit-learn, or a seeded synthetic one ('synthetic (easy)' / '(hard)')."""
    from sklearn import datasets

    key = name.strip().lower()
    loaders = {
        "iris": datasets.load_iris,
        "wine": datasets.load_wine,
        "breast cancer": datasets.load_breast_cancer,
        "digits": datasets.load_digits,
    }
    if key in loaders:
        bunch = loaders[key]()
        return bunch.data, bunch.target
    if key == "synthetic (easy)":
        return datasets.make_classification(n_samples=400, n_features=10, n_informative=5, class_sep=1.5,
                                            random_state=11)
    if key == "synthetic (hard)":
        return datasets.make_classification(n_samples=400, n_features=20, n_informative=3, n_redundant=5,
                                            flip_y=0.1, class_sep=0.6, random_state=12)
    raise InputError(f"Unknown data set {name!r}; choose from {', '.join(BUILTIN_DATASETS)}.")


def _splits(y: np.ndarray, scheme: Scheme, seed: int, run: int):
    from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

    state = seed * 1000 + run
    if scheme.folds >= 2:
        return list(StratifiedKFold(scheme.folds, shuffle=True, random_state=state).split(np.zeros(len(y)), y))
    splitter = StratifiedShuffleSplit(n_splits=1, test_size=scheme.test_fraction, random_state=state)
    return list(splitter.split(np.zeros(len(y)), y))


def _run_task(dataset: str, scheme: Scheme, seed: int, run: int, classifiers: list[str]) -> list[dict]:
    from sklearn.base import clone

    x, y = load_dataset(dataset)
    models = {name: make_classifier(name) for name in classifiers}
    rows = []
    for fold, (train, test) in enumerate(_splits(y, scheme, seed, run)):
        for name, model in models.items():
            fitted = clone(model).fit(x[train], y[train])
            rows.append(
                {
                    "dataset": dataset, "classifier": name, "scheme": scheme.name, "seed": seed, "run": run,
                    "fold": fold, "score": float((fitted.predict(x[test]) == y[test]).mean()),
                    "n_train": len(train), "n_test": len(test),
                }
            )
    return rows


def run_experiment(
    classifiers: Iterable[str],
    datasets: Iterable[str],
    *,
    schemes: Iterable[str | Scheme] = ("10-fold cv",),
    seeds: Iterable[int] = range(10),
    n_jobs: int = -1,
    backend: str | None = None,
    progress: Callable[[float], None] | None = None,
) -> pd.DataFrame:
    """Fold-level accuracies of the classifiers on the data sets, for every scheme and seed.

    Every classifier sees the same splits (stratified; a split depends on the seed and the run only).
    Runs in parallel with joblib over (data set, scheme, seed, run); ``backend="dask"`` uses joblib's
    Dask backend (a ``dask.distributed.Client`` must exist). ``progress`` gets the fraction done.
    """
    from joblib import Parallel, delayed, parallel_config

    classifiers = list(classifiers)
    datasets = list(datasets)
    plan = [parse_scheme(s) for s in schemes]
    # never materialize range(10**9); a split's random_state is seed * 1000 + run (run < MAX_RUNS <= 1000), which
    # scikit-learn needs at most MAX_SEED: the seeds are bounded so that every run of every seed fits.
    seeds = [check_seed(s, "seeds", hi=MAX_EXPERIMENT_SEED, allow_none=False)
             for s in itertools.islice(seeds, MAX_SEEDS + 1)]
    if len(seeds) > MAX_SEEDS:
        raise InputError(f"More than {MAX_SEEDS} seeds: at most {MAX_SEEDS} repetitions of the experiment are run.")
    if len(classifiers) > MAX_CLASSIFIERS:
        raise InputError(f"{len(classifiers)} classifiers: at most {MAX_CLASSIFIERS} are trained in one experiment.")
    fits = len(datasets) * len(seeds) * len(classifiers) * sum(s.runs * max(s.folds, 1) for s in plan)
    if fits > MAX_FITS:
        raise InputError(
            f"This experiment would train {fits:,} models; the limit is {MAX_FITS:,}. Use fewer seeds, schemes, data "
            "sets or classifiers."
        )
    if len(classifiers) < 2:
        raise InputError("Pick at least 2 classifiers to compare.")
    if not datasets or not plan or not seeds:
        raise InputError("Pick at least one data set, one scheme and one seed.")
    for name in classifiers:
        make_classifier(name)  # fail early with a clear message
    for name in datasets:
        if name.strip().lower() not in {d.lower() for d in BUILTIN_DATASETS}:
            raise InputError(f"Unknown data set {name!r}; choose from {', '.join(BUILTIN_DATASETS)}.")
    tasks = [(d, s, seed, run) for d in datasets for s in plan for seed in seeds for run in range(s.runs)]
    rows: list[dict] = []
    with parallel_config(backend=backend) if backend else parallel_config():
        results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(_run_task)(d, s, seed, run, classifiers) for d, s, seed, run in tasks
        )
        for done, chunk in enumerate(results, start=1):
            rows.extend(chunk)
            if progress is not None:
                progress(done / len(tasks))
    frame = pd.DataFrame(rows)
    frame = frame.sort_values(["dataset", "scheme", "seed", "run", "fold", "classifier"], kind="stable").reset_index(drop=True)
    frame.attrs.update(classifiers=classifiers, datasets=datasets, schemes=[s.name for s in plan], seeds=seeds)
    return frame
