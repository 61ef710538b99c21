"""Item-level results (issue 30): read time, all pairs' McNemar, a paired bootstrap.

    .venv/bin/python bench/items.py [--models 10] [--tasks 60] [--items 1000]

Writes a seeded long CSV of models x tasks x items binary outcomes (600,000 rows by default) and an
lm-evaluation-harness folder of the same size, then times (best of 3):

* ``cl.read_items`` of the CSV and of the lm-eval folder (models x tasks samples files);
* ``cl.item_comparison_all(test="mcnemar")``: every pair of models on every task, one Holm family;
* ``cl.item_comparison(test="bootstrap", reps=10_000)`` on one task of ``--items`` items.

The issue's targets: read < 3 s, all pairs' McNemar < 2 s, bootstrap < 1 s. Never a timed assertion.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import compare_lib as cl


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", type=int, default=10)
    ap.add_argument("--tasks", type=int, default=60)
    ap.add_argument("--items", type=int, default=1000)
    args = ap.parse_args()
    m, t, n = args.models, args.tasks, args.items
    rng = np.random.default_rng(0)
    skill = np.linspace(0.4, 0.7, m)
    outcome = (rng.random((m, t, n)) < skill[:, None, None]).astype(np.int8)
    frame = pd.DataFrame({
        "model": np.repeat([f"model-{i}" for i in range(m)], t * n),
        "task": np.tile(np.repeat([f"task_{j}" for j in range(t)], n), m),
        "item": np.tile(np.arange(n), m * t),
        "correct": outcome.ravel(),
    })
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "items.csv"
        frame.to_csv(path, index=False)
        folder = Path(tmp) / "lm"
        for i in range(m):
            (folder / f"model-{i}").mkdir(parents=True)
            for j in range(t):
                with open(folder / f"model-{i}" / f"samples_task_{j}_2024-01-01T00-00-00.000000.jsonl", "w") as f:
                    f.write("".join(json.dumps({"doc_id": k, "doc": {"q": "?"}, "target": "A", "filter": "none",
                                                "acc": float(outcome[i, j, k])}) + "\n" for k in range(n)))
        size = path.stat().st_size / 1e6
        t_csv, items = best_of(lambda: cl.read_items(path))
        t_lm, items_lm = best_of(lambda: cl.read_items(folder))
    assert len(items.frame) == m * t * n == len(items_lm.frame)
    t_pairs, out = best_of(lambda: cl.item_comparison_all(items, test="mcnemar"))
    one = cl.Items(items.frame[items.frame["task"] == "task_0"].reset_index(drop=True), metric="correct")
    t_boot, _ = best_of(lambda: cl.item_comparison(one, "model-0", "model-9", test="bootstrap", reps=10_000, seed=0))
    t_table, _ = best_of(lambda: items.task_table())
    print(f"{m} models x {t} tasks x {n} items = {m * t * n:,} rows ({size:.1f} MB CSV)")
    print(f"read_items, long CSV:                       {t_csv:6.2f} s   (target < 3 s)")
    print(f"read_items, lm-eval folder ({m * t} files):     {t_lm:6.2f} s")
    print(f"task_table:                                 {t_table:6.2f} s")
    print(f"item_comparison_all, McNemar ({len(out):,} tests): {t_pairs:6.2f} s   (target < 2 s)")
    print(f"paired bootstrap, 10,000 x {n} items:        {t_boot:6.2f} s   (target < 1 s)")


if __name__ == "__main__":
    main()
