"""Regenerate sample_data/fold_level_example.csv with real classifiers (scikit-learn), seeded.

    .venv/bin/python scripts/make_fold_level_sample.py
"""

from __future__ import annotations

from pathlib import Path

from compare_lib.analyses._experiments import run_experiment

OUT = Path(__file__).resolve().parents[1] / "sample_data" / "fold_level_example.csv"

if __name__ == "__main__":
    folds = run_experiment(
        ["naive Bayes", "decision tree", "k-NN"],
        ["iris", "wine", "breast cancer", "digits", "synthetic (easy)", "synthetic (hard)"],
        schemes=["5x2cv", "10-fold cv", "subsampling 20 x 10%"],
        seeds=range(10),
        n_jobs=-1,
    )
    folds.to_csv(OUT, index=False, float_format="%.6g")
    print(f"{len(folds)} rows -> {OUT}")
