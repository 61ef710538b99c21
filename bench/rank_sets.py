"""Time the issue-22 computations: rank confidence sets, letter displays and planning (run by hand).

    .venv/bin/python bench/rank_sets.py

Goals: rank sets and letters for k = 50 (N = 30) well under 1 s; a plan of 1,000 simulated studies for
k = 5, N = 30 under 5 s. Every timed call gets a fresh table (the post-hoc statistics are memoized per
table, so a repeated call on one table would time the cache). The best of three runs is reported.

- "rank sets": rank_sets (Wilcoxon + Holm, all 1,225 pairs) and the bootstrap (2,000 resamples);
- "letters": letters of the post-hoc result (insert-and-absorb over the rejected pairs);
- "plan": 1,000 studies resampled from a table (tied resampled rows: the exact Wilcoxon distribution of
  each tie pattern dominates) and from stated effects (no ties), for the Wilcoxon, sign and mean-ranks
  statistics with Holm, and the Bayesian signed-rank decision.
"""

from __future__ import annotations

import itertools
import warnings

import compare_lib as cl
from common import best_of, random_table
from compare_lib.analyses._letters import letter_matrix, letters
from compare_lib.analyses._plan import datasets_for_power, plan
from compare_lib.analyses._rank_sets import best_set, rank_sets

_seeds = itertools.count()


def fresh(k: int, n: int, spread: float) -> cl.ScoreTable:
    return random_table(k, n, next(_seeds), spread=spread)


def main() -> None:
    warnings.simplefilter("ignore", cl.ApproximationWarning)
    rows = []
    rows.append(("rank_sets k = 50, N = 30 (Wilcoxon + Holm)", lambda: rank_sets(fresh(50, 30, 4.0))))
    rows.append(("rank_sets k = 50, N = 30 (mean-ranks + Nemenyi)",
                 lambda: rank_sets(fresh(50, 30, 4.0), test="mean-ranks", correction="nemenyi")))
    rows.append(("rank_sets k = 50, N = 30 (bootstrap, 2,000)", lambda: rank_sets(fresh(50, 30, 4.0), method="bootstrap")))
    results = [cl.posthoc(fresh(50, 30, 4.0), "wilcoxon", "holm", as_result=True) for _ in range(3)]
    rows.append(("letters k = 50 (posthoc result given)", lambda: letters(results[next(_seeds) % 3])))
    rows.append(("rank_sets + letters k = 50, N = 30",
                 lambda: (lambda t: (rank_sets(t), letters(cl.posthoc(t, "wilcoxon", "holm", as_result=True))))(
                     fresh(50, 30, 4.0))))
    table = random_table(5, 30, 0, spread=0.5)
    for test in ("wilcoxon", "sign", "mean-ranks"):
        rows.append((f"plan 1,000 x (k = 5, N = 30), table, {test}",
                     lambda test=test: plan(table, n_datasets=30, reps=1000, test=test, difference=0.2)))
        rows.append((f"plan 1,000 x (k = 5, N = 30), effects, {test}",
                     lambda test=test: plan(k=5, n_datasets=30, reps=1000, test=test, difference=0.5)))
    rows.append(("plan 1,000 x (k = 2, N = 30), Bayesian signed-rank",
                 lambda: plan(n_datasets=30, reps=1000, test="bayesian-signed-rank", rope=0.1, difference=0.5)))
    rows.append(("datasets_for_power k = 5 (effects, 1,000 reps)",
                 lambda: datasets_for_power(k=5, difference=0.8, reps=1000, max_n=200)))
    print(f"{'case':<56} {'seconds':>9}")
    for label, fn in rows:
        print(f"{label:<56} {best_of(fn):>9.3f}")
    t = fresh(50, 30, 4.0)
    result = cl.posthoc(t, "wilcoxon", "holm", as_result=True)
    columns = letter_matrix(t.classifiers, result.frame.loc[result.frame["reject"], ["a", "b"]].map(
        t.classifiers.index).to_numpy(), t.mean_ranks.to_numpy())
    print(f"(k = 50, N = 30: {int(result.frame['reject'].sum())} of 1,225 pairs rejected, {columns.shape[1]} letters, "
          f"best set of {len(best_set(rank_sets(t)))} classifiers)")


if __name__ == "__main__":
    main()
