"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import compare_lib as cl


@st.composite
def score_tables(draw, min_k: int = 2, max_k: int = 6, min_n: int = 2, max_n: int = 25, ties: bool = True):
    """Random score tables; small integer scores make ties (in rows and between pairs) common."""
    k = draw(st.integers(min_k, max_k))
    n = draw(st.integers(min_n, max_n))
    levels = draw(st.integers(2, 8)) if ties else 10**6
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    shift = rng.normal(0, draw(st.floats(0, 2)), size=k)
    values = np.round(rng.normal(size=(n, k)) + shift, 0 if levels < 10**6 else 6)
    values = np.clip(values, -levels, levels)
    higher = draw(st.booleans())
    return cl.as_table(values, higher_is_better=higher)


@st.composite
def tied_score_tables(draw, min_k: int = 3, max_k: int = 7, max_n: int = 60):
    """Tables with many exact ties: 2-4 score levels per cell, up to 60 data sets, so that pairs often
    have equal rank-sum differences, equal Wilcoxon and sign statistics, and tied mean ranks."""
    k = draw(st.integers(min_k, max_k))
    n = draw(st.integers(3, max_n))
    levels = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, size=(n, k)).astype(float) / 4  # exact binary fractions
    return cl.as_table(values, higher_is_better=draw(st.booleans()))
