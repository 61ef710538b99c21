"""Time reading results files (issue 19): a 50 MB long CSV with several metrics, and a 20,000-row .xlsx.

    .venv/bin/python bench/read_results.py [--mb 50] [--xlsx-rows 20000]

The files are generated in a temporary folder (nothing is written to the repository):

* a scikit-learn style long CSV: 100 data sets x 20 classifiers x 10 folds x enough seeds to reach the
  size asked for, with the columns dataset, estimator, seed, fold, fit_time, score_time, test_accuracy,
  test_roc_auc, test_f1_macro;
* a wide .xlsx (written with openpyxl when it is installed): 20,000 data sets x 10 classifiers.

Printed for each: the file size, the time of ``read_results`` (reading and laying out every metric),
of ``Results.table(metric)`` (aggregating the folds of one metric) and of the old-style shortcut
``load_scores(..., metric=...)``; each the best of a few runs.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from compare_lib.io import load_scores, read_results


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def make_long_csv(path: Path, mb: float, n_datasets: int = 100, n_classifiers: int = 20, n_folds: int = 10) -> int:
    """Write rows until the file holds ``mb`` megabytes; returns the number of rows."""
    rng = np.random.default_rng(0)
    header = "dataset,estimator,seed,fold,fit_time,score_time,test_accuracy,test_roc_auc,test_f1_macro\n"
    per_seed = n_datasets * n_classifiers * n_folds
    rows = 0
    with path.open("w") as f:
        f.write(header)
        seed = 0
        while f.tell() < mb * 1_000_000:
            d = np.repeat(np.arange(n_datasets), n_classifiers * n_folds)
            c = np.tile(np.repeat(np.arange(n_classifiers), n_folds), n_datasets)
            k = np.tile(np.arange(n_folds), n_datasets * n_classifiers)
            v = rng.random((per_seed, 5))
            f.write("".join(
                f"openml-{d[i]},clf-{c[i]},{seed},{k[i]},{v[i, 0]:.5f},{v[i, 1]:.5f},{v[i, 2]:.5f},{v[i, 3]:.5f},{v[i, 4]:.5f}\n"
                for i in range(per_seed)
            ))
            rows += per_seed
            seed += 1
    return rows


def make_xlsx(path: Path, n_rows: int, n_classifiers: int = 10) -> bool:
    try:
        from openpyxl import Workbook
    except ImportError:
        return False
    rng = np.random.default_rng(1)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("accuracy")
    ws.append(["dataset", *[f"clf-{j}" for j in range(n_classifiers)]])
    values = rng.uniform(0.5, 1.0, (n_rows, n_classifiers)).round(4)
    for i in range(n_rows):
        ws.append([f"data set {i}", *values[i].tolist()])
    wb.save(path)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the long CSV in MB (default 50)")
    parser.add_argument("--xlsx-rows", type=int, default=20_000, help="rows of the .xlsx (default 20,000)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "cv_results.csv"
        start = time.perf_counter()
        rows = make_long_csv(path, args.mb)
        print(f"long CSV: {path.stat().st_size / 1e6:.1f} MB, {rows:,} rows (written in {time.perf_counter() - start:.1f} s)")
        t_read, results = best_of(lambda: read_results(path), args.repeat)
        print(f"  read_results                      {t_read:6.2f} s   metrics: {', '.join(results.metrics)}")
        t_table, table = best_of(lambda: results.table("test_accuracy"), args.repeat)
        print(f"  .table('test_accuracy')           {t_table:6.2f} s   {table.n_datasets} x {table.n_classifiers}")
        t_median, _ = best_of(lambda: results.table("test_accuracy", aggregate="median"), args.repeat)
        print(f"  .table(..., aggregate='median')   {t_median:6.2f} s")
        t_load, _ = best_of(lambda: load_scores(path, metric="test_roc_auc"), args.repeat)
        print(f"  load_scores(metric='test_roc_auc') {t_load:5.2f} s")

        xlsx = folder / "results.xlsx"
        start = time.perf_counter()
        if not make_xlsx(xlsx, args.xlsx_rows):
            print("xlsx: openpyxl is not installed; skipped")
            return
        print(f"xlsx: {xlsx.stat().st_size / 1e6:.1f} MB, {args.xlsx_rows:,} rows x 10 classifiers "
              f"(written in {time.perf_counter() - start:.1f} s)")
        t_read, results = best_of(lambda: read_results(xlsx), args.repeat)
        print(f"  read_results                      {t_read:6.2f} s   format: {results.format}")
        t_table, table = best_of(lambda: results.table(higher_is_better=True), args.repeat)
        print(f"  .table()                          {t_table:6.2f} s   {table.n_datasets} x {table.n_classifiers}")


if __name__ == "__main__":
    main()
