"""Time the Bayesian tests and the effect sizes (run by hand; goals from issue 12).

    .venv/bin/python bench/bayesian.py

- bayesian_signed_rank / bayesian_sign_test of one pair, 54 data sets, 50,000 samples (goal: well under 0.5 s);
- bayesian_posthoc on 54 x 7 and 100 x 20 at 50,000 samples per pair (goal: under 1 s for 100 x 20);
- effect_size_table (every pair, every measure) and with_effect_sizes (one measure, the post-hoc table).
The best of three runs is reported.
"""

from __future__ import annotations

import warnings


import compare_lib as cl
from common import best_of, random_table


def table(k: int, n: int, seed: int = 0) -> cl.ScoreTable:
    return random_table(k, n, seed, spread=0.02, base=0.8, noise=0.05)


def main() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tutorial = cl.load_scores("sample_data/benavoli2017_tutorial_accuracy.csv", higher_is_better=True)
        benavoli = cl.load_scores("sample_data/benavoli2016_table2_accuracy.csv", higher_is_better=True)
    x, y = tutorial.scores["nbc"], tutorial.scores["aode"]
    rows = [
        ("signed-rank, one pair, 54 data sets, 50k samples",
         lambda: cl.bayesian_signed_rank(x, y, rope=0.01, samples=50_000, seed=0)),
        ("sign test, one pair, 54 data sets, 50k samples",
         lambda: cl.bayesian_sign_test(x, y, rope=0.01, samples=50_000, seed=0)),
        ("posthoc signed-rank 54 x 7 (21 pairs), 50k", lambda: cl.bayesian_posthoc(benavoli, rope=1.0, samples=50_000)),
        ("posthoc signed-rank 100 x 20 (190 pairs), 50k", lambda: cl.bayesian_posthoc(table(20, 100), samples=50_000)),
        ("posthoc sign 100 x 20 (190 pairs), 50k",
         lambda: cl.bayesian_posthoc(table(20, 100), test="sign", samples=50_000)),
        ("effect_size_table 54 x 7", lambda: cl.effect_size_table(benavoli)),
        ("effect_size_table 100 x 20", lambda: cl.effect_size_table(table(20, 100))),
        ("effect_size_table 30 x 60 (1,770 pairs)", lambda: cl.effect_size_table(table(60, 30))),
        ("with_effect_sizes HL, posthoc 100 x 20", lambda: cl.with_effect_sizes(cl.posthoc(table(20, 100)), table(20, 100))),
    ]
    print(f"{'case':<52} {'seconds':>9}")
    for label, fn in rows:
        print(f"{label:<52} {best_of(fn):>9.3f}")


if __name__ == "__main__":
    main()
