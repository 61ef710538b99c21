"""Time the pool-sensitivity computations (run by hand).

    .venv/bin/python bench/pool_sensitivity.py

- "matrix": every pair and every pool containing it, counted exactly without listing pools
  (pool_sensitivity_matrix); k = 20 covers 190 pairs x 262,144 pools each.
- "list one pair": pool_sensitivity(), one row per pool (262,144 rows at k = 20).
"""

from __future__ import annotations



import compare_lib as cl
from common import best_of, random_table


def table(k: int, n: int, seed: int = 0) -> cl.ScoreTable:
    return random_table(k, n, seed)


def main() -> None:
    bench = cl.load_scores("sample_data/benavoli2016_table2_accuracy.csv", higher_is_better=True)
    print(f"{'case':<44} {'seconds':>9}")
    print(f"{'Benavoli 54 x 7: matrix (21 pairs x 32 pools)':<44} {best_of(lambda: cl.pool_sensitivity_matrix(bench)):>9.4f}")
    print(f"{'Benavoli 54 x 7: list one pair':<44} {best_of(lambda: cl.pool_sensitivity(bench, 'C2', 'C4')):>9.4f}")
    for k, n in ((20, 54), (20, 200), (30, 54), (40, 54), (40, 200)):
        t = table(k, n)
        print(f"{f'k = {k}, N = {n}: matrix (exact counts)':<44} {best_of(lambda: cl.pool_sensitivity_matrix(t), 1):>9.3f}")
    t = table(20, 54)
    print(f"{'k = 20, N = 54: list one pair (262,144 rows)':<44} {best_of(lambda: cl.pool_sensitivity(t, 'C0', 'C1'), 1):>9.3f}")


if __name__ == "__main__":
    main()
