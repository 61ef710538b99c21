"""Helpers shared by the benchmark scripts (run as ``python bench/<script>.py``, so importable as ``common``)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

import compare_lib as cl


def random_table(k: int, n: int, seed: int = 0, *, spread: float = 1.0, base: float = 0.0, noise: float = 1.0) -> cl.ScoreTable:
    """A seeded n x k higher-is-better table whose classifiers differ by up to ``spread``."""
    rng = np.random.default_rng(seed)
    scores = base + noise * rng.normal(size=(n, k)) + np.linspace(0, spread, k)
    return cl.ScoreTable(pd.DataFrame(scores, columns=[f"C{i}" for i in range(k)]), True)


def best_of(fn, repeat: int = 3) -> float:
    """The best wall time of ``repeat`` calls, in seconds."""
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
