"""Time the Bayesian rankings (issue 29; run by hand):

    .venv/bin/python bench/bayes_ranking.py

Plackett-Luce: 50 data sets x 10 classifiers, 4 chains x 2,000 draws (1,000 warmup iterations a chain), with and
without ties and missing cells; 100 data sets that all give one order (the hard case for mixing); 200 data sets x
20 classifiers and 20 data sets x 200 classifiers (large k); the sampler alone against the reference sampler
(whole-likelihood block moves, as before the vectorisation) per iteration; where the rest of the time goes.
Bradley-Terry-Davidson: the same tables. Times are wall seconds (best of three, one run for the long ones); the
per-iteration comparison is CPU seconds (less sensitive to other load on the machine).
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

import compare_lib as cl
from compare_lib.stats import _bayes_ranking as br
from common import best_of, random_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the reference sampler lives with the tests
from tests.test_bayes_ranking import _reference_gibbs  # noqa: E402


def reference_gibbs_iterations(remaining, size, counts, order, chains: int, iterations: int, seed: int = 0) -> None:
    """The sampler as before the vectorisation (k - 1 block moves, each evaluating the whole target): the reference
    kept in tests/test_bayes_ranking.py, run for ``iterations`` without warm-up."""
    _reference_gibbs(remaining, size, counts, 1.0, chains, iterations, 0, np.random.default_rng(seed), order)


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def stages_of(table):
    remaining, size, counts, _ = br._stages(np.asarray(table.oriented_scores))
    remaining, inverse = np.unique(remaining, axis=0, return_inverse=True)  # as bayesian_ranking does
    return remaining, np.bincount(inverse.ravel(), weights=size), counts, np.argsort(table.ranks.mean().to_numpy())


def show(name: str, seconds: float) -> None:
    print(f"{name:<70} {seconds:9.4f} s", flush=True)


def main() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = random_table(10, 50, 0, spread=1.0)
        frame = plain.scores.round(1)  # ties
        frame = frame.mask(np.random.default_rng(1).random(frame.shape) < 0.1)  # 10 % missing
        holes = cl.ScoreTable(frame, True, missing="pairwise")
        tall = random_table(20, 200, 2, spread=1.0)   # 200 data sets x 20 classifiers
        wide = random_table(200, 20, 2, spread=1.0)   # 20 data sets x 200 classifiers
    t0 = time.perf_counter()
    r = cl.bayesian_ranking(plain, samples=8000, chains=4, seed=0)
    first = time.perf_counter() - t0
    show("first call (imports included), 50 x 10, 4 x 2000", first)
    show("50 x 10, 4 x 2000 draws", best_of(lambda: cl.bayesian_ranking(plain, samples=8000, seed=0)))
    show("50 x 10 rounded (ties) + 10 % missing, 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(holes, samples=8000, seed=0)))
    import pandas as pd
    same = cl.ScoreTable(pd.DataFrame(np.tile(np.arange(10.0), (100, 1)), columns=[f"C{j}" for j in range(10)]), True)
    t0 = time.perf_counter()
    s = cl.bayesian_ranking(same, seed=0)
    show(f"100 x 10, one order everywhere, 4 x 1000 (R-hat {s.max_rhat:.3f}, ESS {s.min_ess:.0f})",
                 time.perf_counter() - t0)
    show("200 data sets x 20 classifiers, 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(tall, samples=8000, seed=0), repeat=1))
    t0 = time.perf_counter()
    wr = cl.bayesian_ranking(wide, samples=8000, seed=0)
    show(f"20 data sets x 200 classifiers, 4 x 2000 (R-hat {wr.max_rhat:.3f})", time.perf_counter() - t0)
    for label, table in (("200 x 20", tall), ("20 x 200", wide)):
        remaining, size, counts, order = stages_of(table)
        n_new, n_old = 100, 100 if table is tall else 5
        new = cpu(lambda: br._gibbs(remaining, size, counts, 1.0, 4, n_new, 0, np.random.default_rng(0), order))
        old = cpu(lambda: reference_gibbs_iterations(remaining, size, counts, order, 4, n_old))
        show(f"  sampler CPU per iteration, {label}: vectorised (s)", new / n_new)
        show(f"  sampler CPU per iteration, {label}: reference (s)", old / n_old)
    pi = r.weights.to_numpy()
    show("  exact rank probabilities, k = 10, 8000 draws", best_of(lambda: br._rank_probabilities_exact(pi)))
    logs = np.log(pi).reshape(4, 2000, 10)
    show("  R-hat + ESS, 10 classifiers",
                 best_of(lambda: [(br._rhat(logs[:, :, j]), br._ess(logs[:, :, j])) for j in range(10)]))
    btd = "bradley-terry-davidson"
    show("Bradley-Terry-Davidson, 50 x 10, 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(plain, model=btd, samples=8000, seed=0)))
    show("Bradley-Terry-Davidson, 200 data sets x 20, 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(tall, model=btd, samples=8000, seed=0), repeat=1))
    t0 = time.perf_counter()
    wb = cl.bayesian_ranking(wide, model=btd, samples=8000, seed=0)
    show(f"Bradley-Terry-Davidson, 20 x 200, 4 x 2000 (R-hat {wb.max_rhat:.3f})", time.perf_counter() - t0)
    print(f"(50 x 10: max R-hat {r.max_rhat:.4f}, min ESS {r.min_ess:.0f} of 8000)")


if __name__ == "__main__":
    main()
