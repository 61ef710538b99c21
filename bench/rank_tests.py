"""Time the issue-13 statistics: the exact rank-sum distribution over a grid of N and k, Rom's APVs, and
the aligned-ranks / Quade / Conover tests on large tables.

    .venv/bin/python bench/rank_tests.py

The exact rank-sum distribution is one chain of direct convolutions shared by all pairs; its budget
(compare_lib.stats._rank_tests.EXACT_RANK_SUM_CELLS) decides where the normal approximation takes over. The
table printed says, for each k, the largest N computed exactly and its time.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

import compare_lib as cl
from compare_lib.stats import _rank_tests as rt


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def table(n: int, k: int, seed: int = 0) -> cl.ScoreTable:
    rng = np.random.default_rng(seed)
    x = rng.normal(0.8, 0.05, size=(n, k)) + np.linspace(0, 0.04, k)
    return cl.ScoreTable(pd.DataFrame(x, index=[f"d{i}" for i in range(n)], columns=[f"c{j}" for j in range(k)]), True)


def exact_grid() -> None:
    print("exact rank-sum distribution (all pairs share it): largest N computed exactly per k, and its time")
    for k in (3, 5, 10, 20, 50, 100):
        lo, hi = 2, 100_000
        while lo < hi:  # largest N within the budget
            mid = (lo + hi + 1) // 2
            width = 2 * (2 * k - 2) + 1
            if mid * width * width * mid / 2 <= rt.EXACT_RANK_SUM_CELLS:
                lo = mid
            else:
                hi = mid - 1
        doubled = np.rint(2 * table(lo, k).ranks.to_numpy()).astype(np.int64)
        elapsed = best_of(lambda: rt.rank_sum_difference_distribution(doubled), 1)
        print(f"  k = {k:3d}: N <= {lo:5d}  ({elapsed:.2f} s at N = {lo})")


def rom() -> None:
    rng = np.random.default_rng(1)
    for m in (10, 50, 100):
        p = rng.random(m) ** 3
        print(f"Rom's APVs, {m} hypotheses: {best_of(lambda: cl.adjust(p, 'rom')):.3f} s")


def big_tables() -> None:
    for n, k in ((54, 7), (1000, 50), (20_000, 50)):
        def run(n=n, k=k):
            t = table(n, k)
            cl.friedman_aligned_ranks(t)
            cl.quade(t)
            for test in ("aligned-ranks", "quade", "conover", "rank-sum-exact"):
                cl.posthoc(t, test, "holm")
        print(f"aligned + Quade omnibus and four post-hocs (Holm), {n} x {k}: {best_of(run, 1):.2f} s")


if __name__ == "__main__":
    exact_grid()
    rom()
    big_tables()
