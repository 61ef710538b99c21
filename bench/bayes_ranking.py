"""Time the Bayesian Plackett-Luce ranking (issue 29; run by hand):

    .venv/bin/python bench/bayes_ranking.py

50 data sets x 10 classifiers, 4 chains x 2,000 draws (1,000 warmup iterations a chain), with and without
ties and missing cells; 100 data sets that all give one order (the hard case for mixing); and where the time
goes (the sampler: Gibbs steps plus block moves, the exact rank probabilities for k = 10, the diagnostics).
The best of three runs is reported (one run for the first call, the one-order table and 200 x 20).
"""

from __future__ import annotations

import time
import warnings

import numpy as np

import compare_lib as cl
from compare_lib import _bayes_ranking as br
from common import best_of, random_table


def main() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = random_table(10, 50, 0, spread=1.0)
        frame = plain.scores.round(1)  # ties
        frame = frame.mask(np.random.default_rng(1).random(frame.shape) < 0.1)  # 10 % missing
        holes = cl.ScoreTable(frame, True, missing="pairwise")
        big = random_table(20, 200, 2, spread=1.0)
    t0 = time.perf_counter()
    r = cl.bayesian_ranking(plain, samples=8000, chains=4, seed=0)
    first = time.perf_counter() - t0
    rows = [("first call (imports included), 50 x 10, 4 x 2000", first)]
    rows.append(("50 x 10, 4 x 2000 draws", best_of(lambda: cl.bayesian_ranking(plain, samples=8000, seed=0))))
    rows.append(("50 x 10 rounded (ties) + 10 % missing, 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(holes, samples=8000, seed=0))))
    import pandas as pd
    same = cl.ScoreTable(pd.DataFrame(np.tile(np.arange(10.0), (100, 1)), columns=[f"C{j}" for j in range(10)]), True)
    t0 = time.perf_counter()
    s = cl.bayesian_ranking(same, seed=0)
    rows.append((f"100 x 10, one order everywhere, 4 x 1000 (R-hat {s.max_rhat:.3f}, ESS {s.min_ess:.0f})",
                 time.perf_counter() - t0))
    rows.append(("200 x 20 (Monte Carlo rank probabilities), 4 x 2000",
                 best_of(lambda: cl.bayesian_ranking(big, samples=8000, seed=0), repeat=1)))
    remaining, size, counts, _ = br._stages(np.asarray(plain.oriented_scores))
    remaining, inverse = np.unique(remaining, axis=0, return_inverse=True)  # as bayesian_ranking does
    size = np.bincount(inverse.ravel(), weights=size)
    rows.append(("  sampler alone, 50 x 10, 4 x 3000 iterations",
                 best_of(lambda: br._gibbs(remaining, size, counts, 1.0, 4, 2000, 1000, np.random.default_rng(0),
                                           np.argsort(plain.ranks.mean().to_numpy())))))
    pi = r.weights.to_numpy()
    rows.append(("  exact rank probabilities, k = 10, 8000 draws", best_of(lambda: br._rank_probabilities_exact(pi))))
    logs = np.log(pi).reshape(4, 2000, 10)
    rows.append(("  R-hat + ESS, 10 classifiers",
                 best_of(lambda: [(br._rhat(logs[:, :, j]), br._ess(logs[:, :, j])) for j in range(10)])))
    for name, seconds in rows:
        print(f"{name:<60} {seconds:8.3f} s")
    print(f"(50 x 10: max R-hat {r.max_rhat:.4f}, min ESS {r.min_ess:.0f} of 8000)")


if __name__ == "__main__":
    main()
