"""Benchmark of the hierarchical Bayesian test (issue 29): the first call (JAX compiles the sampler) and a repeated
call with new data of the same shape, for q data sets × n folds, 4 chains × 1,000 draws after 1,000 warm-up
iterations; the process's peak memory; the diagnostics.

    .venv/bin/python bench/hierarchical.py [--datasets 50] [--folds 10] [--repeats 3]

Goals (issue 29, 50 data sets × 10 folds on the 2-core machine): first call <= 20 s, a repeated call <= 5 s.
Run it on an idle machine: the times are wall-clock.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=50)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()

    t0 = time.perf_counter()
    import compare_lib as cl

    problem = cl.hierarchical_available()
    if problem:
        sys.exit(problem)
    import jax  # noqa: F401  (its import is part of the first call's cost on a fresh server)

    t_import = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    q, n = args.datasets, args.folds
    print(f"{q} data sets x {n} folds, 4 chains x {args.samples} draws (+1,000 warm-up); "
          f"import of compare_lib + JAX: {t_import:.1f} s; load average {os.getloadavg()[0]:.1f}")
    for i in range(args.repeats):
        true = rng.normal(0.01, 0.02, (q, 1))
        x = 0.8 + true + rng.normal(0, 0.03, (q, n))
        y = np.full((q, n), 0.8)
        t = time.perf_counter()
        res = cl.bayesian_hierarchical(x, y, 0.01, samples=args.samples, seed=i)
        elapsed = time.perf_counter() - t
        print(f"  call {i + 1} ({'first: compiles' if i == 0 else 'new data, same shape'}): {elapsed:5.1f} s   "
              f"p = ({res.p_x:.3f}, {res.p_rope:.3f}, {res.p_y:.3f})   max R-hat {res.max_rhat:.4f}   "
              f"min ESS {res.min_ess:,.0f}   divergences {res.divergences}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
