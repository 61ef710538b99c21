"""The server-wide figure cache of the dashboard (issue 31): a cached figure sends exactly what the figure built
afresh sends, costs no serialisation on a rerun, shares nothing a caller can change, and the cache is bounded."""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import plotly.io as pio
import plotly.tools
import pytest

import compare_lib as cl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
import ui_cache  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data" / "demsar2006_table6_auc.csv"


def _sent_spec(fig) -> str:
    """What st.plotly_chart puts in its message for ``fig`` (streamlit/elements/plotly_chart.py, 1.67)."""
    return pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)


@pytest.fixture(scope="module")
def table():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cl.load_scores(SAMPLE)


def _builders(table):
    result = cl.with_effect_sizes(cl.posthoc(table, cl.RECOMMENDED_TEST, cl.DEFAULT_CORRECTION, None, 0.05), table,
                                  "hodges_lehmann")
    return {
        "cd": lambda: cl.plots.cd_diagram(result),
        "cd_vertical": lambda: cl.plots.cd_diagram(result, orientation="vertical"),
        "mean_ranks": lambda: cl.plots.mean_ranks_figure(table.mean_ranks),
        "rank_heatmap": lambda: cl.plots.rank_heatmap(table),
        "wtl": lambda: cl.plots.win_tie_loss_figure(table),
    }


def test_sent_figure_sends_the_same_as_a_fresh_figure(table):
    for name, build in _builders(table).items():
        fresh, sent = build(), ui_cache._sent(build())
        assert isinstance(sent, ui_cache.SentFigure)
        assert _sent_spec(sent) == _sent_spec(fresh), name
        assert sent.to_json() == fresh.to_json(), name  # the figure downloads' JSON
        assert sent.layout.meta == fresh.layout.meta  # wide_chart reads the minimum width there


def test_sent_figure_shares_nothing_a_caller_changes(table):
    sent = ui_cache._sent(_builders(table)["cd"]())
    before = _sent_spec(sent)
    got = sent.to_dict()
    got["data"][0].pop("type")  # what plotly's to_json does to trace uids, and worse
    got["layout"].pop("title", None)
    got["data"].clear()
    assert _sent_spec(sent) == before


def test_sent_figure_costs_less_than_serialising_the_figure(table):
    """The point of the cache: drawing a cached CD diagram again asks no deep copy and no base64 encoding."""
    build = _builders(table)["cd"]
    fresh, sent = build(), ui_cache._sent(build())

    def cost(fig, n=30):
        t0 = time.process_time()
        for _ in range(n):
            _sent_spec(fig)
        return (time.process_time() - t0) / n

    assert cost(sent) < 0.6 * cost(fresh)


def test_cached_figure_is_built_once_per_key_and_the_cache_is_bounded():
    import plotly.graph_objects as go

    ui_cache._figure.clear()
    builds = []

    def build(i):
        builds.append(i)
        return go.Figure(layout={"title": {"text": str(i)}})

    first = ui_cache.cached_figure(("test", 0), lambda: build(0))
    assert ui_cache.cached_figure(("test", 0), lambda: build(0)) is first and builds == [0]
    for i in range(1, ui_cache.FIGURE_CACHE_ENTRIES + 1):  # one more than the cache keeps
        ui_cache.cached_figure(("test", i), lambda i=i: build(i))
    assert len(builds) == ui_cache.FIGURE_CACHE_ENTRIES + 1
    ui_cache.cached_figure(("test", 0), lambda: build(0))  # the oldest was dropped: built again
    assert builds[-1] == 0 and len(builds) == ui_cache.FIGURE_CACHE_ENTRIES + 2
    ui_cache._figure.clear()


def _display_frames(table) -> dict:
    """Frames the pages show through ui_cache.shared_dataframe, made as the shared caches make them."""
    fr, ff, an = cl.friedman(table), cl.iman_davenport(table), cl.rm_anova(table)
    summary = cl.report.omnibus_frame(fr, ff, an, 0.05)
    return {
        "preview": cl.report.scores_with_ranks(table, max_rows=1000),  # the data sets as its index, shown
        "omnibus": cl.report.with_p_text(summary, ["p"]),
        "mixed": cl.report.with_p_text(summary, ["p"]).assign(note=[1, "a", None, 2.5][: len(summary)]),
    }


def test_shared_dataframe_sends_what_st_dataframe_sends_for_the_frame(table):
    """st.dataframe serialises a pandas frame with convert_pandas_df_to_arrow_bytes and an Arrow table with
    convert_arrow_table_to_arrow_bytes (streamlit/elements/arrow.py, 1.67): the bytes must be the same, index and
    types included; a frame Arrow cannot take as it is (a column of mixed types) is left to Streamlit."""
    from streamlit import dataframe_util

    frames = _display_frames(table)
    for name in ("preview", "omnibus"):
        frame = frames[name]
        arrow = ui_cache._arrow_table(frame)
        assert arrow is not None, name
        assert (dataframe_util.convert_arrow_table_to_arrow_bytes(arrow)
                == dataframe_util.convert_pandas_df_to_arrow_bytes(frame)), name
    assert ui_cache._arrow_table(frames["mixed"]) is None
    dataframe_util.convert_pandas_df_to_arrow_bytes(frames["mixed"])  # Streamlit's own fix-up still takes it


def test_shared_dataframe_converts_a_frame_once_and_forgets_it_with_the_frame(table):
    import gc

    frame = _display_frames(table)["omnibus"]
    first = ui_cache._arrow_table(frame)
    assert ui_cache._arrow_table(frame) is first
    key = id(frame)
    assert key in ui_cache._ARROW_TABLES
    del frame
    gc.collect()
    assert key not in ui_cache._ARROW_TABLES  # nothing kept beyond the cache that held the frame
