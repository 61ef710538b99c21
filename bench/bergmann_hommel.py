"""Time the Bergmann-Hommel adjusted p-values (run by hand).

    .venv/bin/python bench/bergmann_hommel.py [--repeat 3] [--kmax 15]

Two exact methods (compare_lib.multiple._exhaustive.bergmann_hommel_raw): "enumerate" lists the Bell(k) set
partitions (cold = first call, which builds and caches them), "cliques" searches clique partitions of
the threshold graphs without listing partitions. The p-values come from Wilcoxon tests on seeded
random tables with a spread of differences (realistic ties and tiny p). For reference, scmamp's
Bergmann-Hommel was measured at 0.25 s (k = 7), 2.1 s (k = 8), 18.6 s (k = 9) and refuses k = 10.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations

import numpy as np
import pandas as pd

import compare_lib as cl
from compare_lib.multiple._exhaustive import MAX_ENUMERATED_K, bergmann_hommel_raw, partition_sizes, set_partitions


def pvalues(k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = cl.ScoreTable(pd.DataFrame(rng.normal(size=(50, k)) + np.linspace(0, 1.5, k) * rng.uniform(0.3, 1.5)), True)
    res = cl.apv_table(table, "wilcoxon", procedures=["bonferroni"])
    index = {name: i for i, name in enumerate(table.classifiers)}
    pmap = {(index[a], index[b]): p for a, b, p in zip(res["a"], res["b"], res["p"])}
    return np.array([pmap[pair] for pair in combinations(range(k), 2)])


def timed(fn, pvalue_sets, k, pairs, method) -> list[float]:
    out = []
    for p in pvalue_sets:
        t0 = time.perf_counter()
        fn(p, k, pairs, method=method)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kmin", type=int, default=8)
    ap.add_argument("--kmax", type=int, default=15)
    args = ap.parse_args()
    print(f"{'k':>3} {'pairs':>6} {'partitions':>11} {'enumerate cold':>15} {'enumerate warm':>15} {'cliques (max of runs)':>22}")
    for k in range(args.kmin, args.kmax + 1):
        pairs = list(combinations(range(k), 2))
        ps = [pvalues(k, seed) for seed in range(args.repeat)]
        cold = warm = "-"
        if k <= MAX_ENUMERATED_K:
            set_partitions.cache_clear()
            partition_sizes.cache_clear()
            cold = f"{timed(bergmann_hommel_raw, ps[:1], k, pairs, 'enumerate')[0]:.3f}"
            warm = f"{np.median(timed(bergmann_hommel_raw, ps, k, pairs, 'enumerate')):.3f}"
        times = timed(bergmann_hommel_raw, ps, k, pairs, "cliques")
        print(f"{k:>3} {len(pairs):>6} {cl.bell_number(k):>11,} {cold:>15} {warm:>15} {max(times):>22.3f}")


if __name__ == "__main__":
    main()
