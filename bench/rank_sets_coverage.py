"""The coverage of the rank sets, measured in full (issue 28; run by hand, a few minutes).

    .venv/bin/python bench/rank_sets_coverage.py [--reps 10000] [--boot-reps 4000]

The simulation of tests/test_rank_sets_coverage.py (scenarios, estimands and the batched rank sets are defined
there) with more tables: for each scenario and N = 10, 20, 50,

* the simultaneous coverage of rank_sets for each statistic / procedure (the share of tables whose sets hold
  every classifier's true ranks at once), with its Monte Carlo standard error;
* the marginal coverage of the bootstrap intervals of the expected rank: the interval of rank_sets
  (method="bootstrap") and, on the same resamples, the percentile interval it replaced; the lowest coverage of
  any classifier, the mean over classifiers, and the Monte Carlo standard error of one classifier's coverage.

The numbers in the docstring of compare_lib.rank_sets and in its ``guarantee`` text come from this run.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.test_rank_sets_coverage import (  # noqa: E402
    PROCEDURES, SCENARIOS, SIZES, bootstrap_coverage, percentile_intervals, simultaneous_coverage,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=10_000, help="tables per cell (simultaneous)")
    parser.add_argument("--boot-reps", type=int, default=4_000, help="tables per cell (bootstrap)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    print(f"Simultaneous coverage (nominal 0.95), {args.reps:,} tables per cell: coverage (MC SE)")
    print(f"{'scenario':<22}{'N':>4}  " + "  ".join(f"{t + ' + ' + c:>22}" for t, c in PROCEDURES))
    for name, scenario in SCENARIOS.items():
        for n in SIZES:
            cells = [simultaneous_coverage(scenario, n, t, c, args.reps, 1000 * n + q)
                     for q, (t, c) in enumerate(PROCEDURES)]
            print(f"{name:<22}{n:>4}  " + "  ".join(f"{p:>14.4f} ({se:.4f})" for p, se in cells), flush=True)
    print()
    print(f"Bootstrap intervals of the expected rank (nominal 0.95, marginal), {args.boot_reps:,} tables per cell:")
    print("lowest coverage of any classifier / mean over classifiers (MC SE of one classifier's coverage)")
    print(f"{'scenario':<22}{'N':>4}  {'rank_sets interval':>34}  {'percentile (before)':>34}")
    for name, scenario in SCENARIOS.items():
        for n in SIZES:
            new, se = bootstrap_coverage(scenario, n, args.boot_reps, 7 * n)
            old, old_se = bootstrap_coverage(scenario, n, args.boot_reps, 7 * n, interval=percentile_intervals)
            print(f"{name:<22}{n:>4}  {new.min():>14.4f} / {new.mean():.4f} ({se.max():.4f})"
                  f"  {old.min():>14.4f} / {old.mean():.4f} ({old_se.max():.4f})", flush=True)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
