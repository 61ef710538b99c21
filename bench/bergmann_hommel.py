"""Time the Bergmann-Hommel adjusted p-values for k = 8..12 classifiers (run by hand).

    .venv/bin/python bench/bergmann_hommel.py [--repeat 5] [--kmax 12]

"cold" includes enumerating the Bell(k) set partitions (cached afterwards, per process);
"warm" is a further call with other p-values. For reference, scmamp's implementation was measured
at 0.25 s (k = 7), 2.1 s (k = 8), 18.6 s (k = 9) and refuses k = 10.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import compare_lib as cl
from compare_lib.exhaustive import partition_sizes, set_partitions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--kmin", type=int, default=8)
    ap.add_argument("--kmax", type=int, default=12)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'k':>3} {'pairs':>6} {'partitions':>11} {'cold (s)':>10} {'warm median (s)':>16}")
    for k in range(args.kmin, args.kmax + 1):
        m = k * (k - 1) // 2
        set_partitions.cache_clear()
        partition_sizes.cache_clear()
        p = rng.uniform(0, 0.3, m) ** 2
        t0 = time.perf_counter()
        cl.adjust(p, "bergmann-hommel")
        cold = time.perf_counter() - t0
        warm = []
        for _ in range(args.repeat):
            p = rng.uniform(0, 0.3, m) ** 2
            t0 = time.perf_counter()
            cl.adjust(p, "bergmann-hommel")
            warm.append(time.perf_counter() - t0)
        print(f"{k:>3} {m:>6} {cl.bell_number(k):>11,} {cold:>10.3f} {np.median(warm):>16.3f}")


if __name__ == "__main__":
    main()
