"""The figures of a Bayesian ranking (issue 29, compare_lib/_ranking_figures.py): what they draw is the result's
values in the stated order, they validate as plotly figures, names are escaped, and sizes are bounded."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

import compare_lib as cl
from compare_lib import limits


@pytest.fixture(scope="module")
def result(demsar):
    return cl.bayesian_ranking(demsar, samples=400, seed=3, chains=2, warmup=200)


def _arr(value) -> np.ndarray:
    """A figure's array as numbers: a list, or plotly's typed-array form {"dtype", "bdata", "shape"} (base64)."""
    if isinstance(value, dict) and "bdata" in value:
        import base64

        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return out.reshape([int(s) for s in str(shape).split(",")] if shape else out.shape).astype(float)
    return np.array([[np.nan if v is None else v for v in row] for row in value], dtype=float) \
        if value and isinstance(value[0], (list, tuple)) else np.array([np.nan if v is None else v for v in value],
                                                                        dtype=float)


def _spec(fig) -> dict:
    go.Figure(fig.to_dict())  # validates every property
    return json.loads(fig.to_json())


def _title(spec) -> str:
    return spec["layout"]["title"]["text"].replace("<br>", " ")


def _best_first(result) -> list:
    frame = pd.DataFrame({"er": result.expected_rank, "pb": -result.p_best, "name": [str(n) for n in result.p_best.index]})
    return list(frame.sort_values(["er", "pb", "name"]).index)


def test_p_best_bars_are_the_results_values_best_on_top(result):
    spec = _spec(cl.p_best_figure(result))
    bar = spec["data"][0]
    assert bar["type"] == "bar" and bar["orientation"] == "h"
    order = _best_first(result)
    assert bar["y"] == order[::-1]  # plotly draws bottom-up
    np.testing.assert_allclose(_arr(bar["x"]), result.p_best.loc[order[::-1]].to_numpy())
    assert bar["text"] == [f"{v:.3f}" for v in result.p_best.loc[order[::-1]]]
    assert "ranked first on a new data set" in _title(spec)


def test_rank_probability_heatmap(result):
    spec = _spec(cl.rank_probability_figure(result))
    trace = spec["data"][0]
    order = _best_first(result)
    assert trace["y"] == order and trace["x"] == [str(r) for r in range(1, len(order) + 1)]
    z = _arr(trace["z"])
    np.testing.assert_allclose(z, result.rank_probabilities.loc[order].to_numpy())
    np.testing.assert_allclose(z.sum(axis=0), 1) and np.testing.assert_allclose(z.sum(axis=1), 1)
    assert trace["text"][0][0] == f"{z[0, 0]:.2f}"


def test_p_before_heatmap(result):
    spec = _spec(cl.p_before_figure(result))
    trace = spec["data"][0]
    order = _best_first(result)
    assert trace["x"] == order and trace["y"] == order
    z = _arr(trace["z"])
    np.testing.assert_allclose(z, result.p_before.loc[order, order].to_numpy())
    assert np.isnan(np.diag(z)).all() and trace["zmid"] == 0.5
    off = ~np.eye(len(order), dtype=bool)
    np.testing.assert_allclose((z + z.T)[off], 1)


def test_bradley_terry_davidson_titles(demsar):
    r = cl.bayesian_ranking(demsar, model="bradley-terry-davidson", samples=400, seed=1, chains=2, warmup=200)
    assert "largest strength" in _title(_spec(cl.p_best_figure(r)))
    assert "decisive comparison" in _title(_spec(cl.p_before_figure(r)))


def test_names_are_escaped_and_sizes_bounded():
    names = ["<b>x</b>", "a & b", "plain"]
    frame = pd.DataFrame([[0.9, 0.8, 0.7], [0.6, 0.7, 0.5], [0.8, 0.6, 0.7]], columns=names)
    r = cl.bayesian_ranking(cl.ScoreTable(frame, True), samples=200, seed=0, chains=2, warmup=100)
    for make in (cl.p_best_figure, cl.rank_probability_figure, cl.p_before_figure):
        text = json.dumps(_spec(make(r))["data"])
        assert "<b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    k = limits.MAX_MATRIX_K + 1
    rng = np.random.default_rng(0)
    wide = cl.ScoreTable(pd.DataFrame(rng.normal(size=(3, k)), columns=[f"C{j:03d}" for j in range(k)]), True)
    big = cl.bayesian_ranking(wide, samples=100, seed=0, chains=1, warmup=0)
    for make in (cl.rank_probability_figure, cl.p_before_figure):
        with pytest.raises(cl.InputError, match=f"up to {limits.MAX_MATRIX_K}"):
            make(big)
    assert len(_arr(_spec(cl.p_best_figure(big))["data"][0]["x"])) == k  # the bars go further (MAX_CD_K)
