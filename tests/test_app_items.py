"""AppTest tests of item-level results in the dashboard (issue 30): Load data recognises item-level files (a long
table, a zip of lm-evaluation-harness samples files) and says so, the task table becomes the analysed table, the
Per-task comparison page shows its three views with the numbers of compare_lib (checked against independent
computations too), every setting is declared for links, and a link round-trips the view."""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import compare_lib as cl

from .apptest_helpers import by_label, charts, goto, new_app, open_page, texts, upload

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
import links  # noqa: E402

from .test_links_complete import _inputs, _normal  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "items_synthetic.csv"
LM_EVAL = ROOT / "tests" / "data" / "items" / "lm_eval"
SAMPLE_LABEL = "Item-level results, synthetic (4 models × 6 tasks × 60 questions)"


def _upload(at, name: str, data: bytes):
    """Upload an item-level file; a direction question stays open (the tests answer or check it)."""
    return upload(at, name, data, direction=None, mime="application/octet-stream")


def _with_sample(page: str = "items", **query):
    at = open_page(page, sample="items-synthetic", **query)
    assert at.session_state["items"] is not None
    return at


def _array(value):
    """A plotly array as sent: a list, or {"dtype", "bdata" (base64), "shape"} (plotly's typed arrays)."""
    if isinstance(value, dict) and "bdata" in value:
        import base64

        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return out.reshape([int(x) for x in str(value["shape"]).split(",")]) if "shape" in value else out
    return np.asarray(value)


class _Trace:
    def __init__(self, trace: dict):
        self._trace = trace

    def __getattr__(self, name):
        return _array(self._trace[name])


class _Figure:
    def __init__(self, spec: dict):
        self.data = [_Trace(t) for t in spec["data"]]


def _figure(chart):
    """The plotly figure a chart element sends (its arrays decoded)."""
    return _Figure(json.loads(chart.proto.spec))


def _lm_eval_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path in LM_EVAL.rglob("samples_*.jsonl"):
            z.write(path, "results/" + str(path.relative_to(LM_EVAL)))
    return buf.getvalue()


def test_page_without_items_explains_and_offers_the_sample():
    at = open_page("items")
    assert not at.error and not at.exception
    assert any("task by task, item by item" in s for s in texts(at.info))
    assert not charts(at)
    at.button(key="w_items_sample").click()
    at.run()
    assert not at.exception and not at.error
    assert len(charts(at)) == 1  # the heatmap of the sample


def test_upload_long_item_table_analyses_the_task_means():
    at = _upload(new_app(), "my_items.csv", SAMPLE.read_bytes())
    assert not at.exception and not at.error
    # 'correct' is 1 for a correct item: higher is better, said as guessed (and changeable)
    assert any("'correct' is 1 for a correct item" in s for s in texts(at.caption))
    shown = texts(at.markdown)
    assert any("Item-level results: 4 models × 6 tasks × 360 items (60 per task); the table analysed is the per-task "
               "mean of correct (each cell a mean over its items)" in s for s in shown), shown
    assert any("file: my_items.csv" in s and "6 data sets × 4 classifiers" in s for s in texts(at.success))
    assert any("cluster = passage_id" in s for s in shown)  # what was recognised
    # the analysed table is the per-task mean, computed here independently with pandas
    raw = pd.read_csv(SAMPLE)
    expected = raw.groupby(["task", "model"])["correct"].mean().unstack()
    table = at.session_state["table"]
    assert table.higher_is_better
    assert sorted(table.datasets) == sorted(expected.index) and sorted(table.classifiers) == sorted(expected.columns)
    np.testing.assert_allclose(table.scores.loc[list(expected.index), list(expected.columns)].to_numpy(float),
                               expected.to_numpy(float), rtol=0, atol=1e-15)
    # every other page runs on it: Friedman's statistic on the omnibus page is that of the task table
    goto(at, "omnibus")
    assert not at.exception and not at.error
    fr = cl.friedman(cl.ScoreTable(expected.rename_axis(index=None, columns=None), True))
    assert any(f"{fr.statistic:.3f}" in s for s in texts(at.markdown) + [str(m.value) for m in at.metric])


def test_a_score_of_unknown_direction_is_asked_before_anything_is_analysed():
    data = SAMPLE.read_text().replace("correct", "score", 1).encode()  # 'score' alone: no direction
    at = _upload(new_app(), "scores.csv", data)
    assert any("scores.csv: which is better for score" in s for s in texts(at.markdown))
    assert at.session_state["origin"].kind == "sample"  # nothing replaced yet
    by_label(at.radio, "Which is better?").set_value("Lower is better (error, loss, time)")
    at.run()
    at.button(key="w_pending_items_use").click()
    at.run()
    assert not at.exception and not at.error
    table = at.session_state["table"]
    assert not table.higher_is_better and table.direction_reason == "stated by you"
    assert at.session_state["items"][0].metric == "score"


def test_zip_of_lm_eval_samples_is_recognised():
    at = _upload(new_app(), "run.zip", _lm_eval_zip())
    assert not at.error, texts(at.error)
    items = at.session_state["items"][0]
    assert items.models == ["model-a", "model-b"] and items.tasks == ["arc_easy", "boolq"]
    assert items.metric == "acc"  # 'acc' of acc, acc_norm, said in the notes; accuracy: higher is better
    shown = texts(at.markdown)
    assert any("Item-level results: 2 models × 2 tasks" in s for s in shown)
    assert any("several metrics (acc, acc_norm)" in s for s in shown)
    direct = cl.read_items(LM_EVAL, score_col="acc").task_table().scores
    pd.testing.assert_frame_equal(at.session_state["table"].scores, direct)


def test_parquet_upload_reads_to_the_same_items_as_the_csv():
    pytest.importorskip("pyarrow")
    buf = io.BytesIO()
    pd.read_csv(SAMPLE, dtype={"item": str}).to_parquet(buf, index=False)
    at = _upload(new_app(), "items.parquet", buf.getvalue())
    assert not at.exception and not at.error, texts(at.error)
    items = at.session_state["items"][0]
    pd.testing.assert_frame_equal(items.frame, cl.read_items(SAMPLE).frame)


def test_pasted_every_eval_ever_lines_are_recognised():
    at = new_app()
    by_label(at.radio, "Source").set_value("Paste")
    at.run()
    text = (ROOT / "tests" / "data" / "items" / "every_eval_ever.jsonl").read_text()
    at.text_area(key="w_paste").set_value(text)
    at.button(key="w_paste_load").click()
    at.run()
    # 'score' alone says no direction: asked first
    by_label(at.radio, "Which is better?").set_value("Higher is better (accuracy, AUC, F1)")
    at.run()
    at.button(key="w_pending_items_use").click()
    at.run()
    assert not at.exception and not at.error, texts(at.error)
    items = at.session_state["items"][0]
    direct = cl.read_items(ROOT / "tests" / "data" / "items" / "every_eval_ever.jsonl")
    pd.testing.assert_frame_equal(items.frame, direct.frame)
    assert any("read as every_eval_ever instance-level rows" in s for s in texts(at.markdown))


def test_a_random_test_beyond_the_pages_budget_draws_fewer_replicates_and_says_so():
    at = _with_sample()
    by_label(at.selectbox, "Test").set_value("permutation")
    at.number_input(key="w_items_reps").set_value(100_000)
    at.run()
    # 6 pairs x 360 items x 100,000 replicates = 2.16e8 values: more than the page's 1e8
    assert not at.exception and not at.error
    message = " ".join(texts(at.warning))
    assert "46,200 replicates instead of 100,000" in message, message


def test_bad_item_file_names_file_line_and_value_and_keeps_the_table():
    bad = SAMPLE.read_text().splitlines()
    bad[3] = bad[3].replace(",1,", ",yes,").replace(",0,", ",yes,")
    at = _upload(new_app(), "bad_items.csv", ("\n".join(bad) + "\n").encode())
    message = texts(at.error)[0]
    assert "bad_items.csv" in message and "line 4" in message and "'yes'" in message and "still in use" in message
    assert at.session_state["origin"].kind == "sample" and "items" not in at.session_state


def test_three_views_show_the_library_numbers():
    at = _with_sample()
    items = cl.read_items(SAMPLE)
    assert not at.exception and not at.error
    # (a) the heatmap: one cell per pair and task, the differences of item_comparison_all
    full = cl.item_comparison_all(items, alpha=0.05)
    (heat,) = charts(at)
    spec = _figure(heat)
    z = np.array(spec.data[0].z, dtype=float)
    assert z.shape == (6, 6)
    pairs = list(dict.fromkeys(zip(full["a"], full["b"])))
    tasks = sorted(items.tasks)
    for row in full.itertuples():
        assert abs(z[pairs.index((row.a, row.b)), tasks.index(row.task)] - row.diff) < 1e-12
    marks = np.array(spec.data[0].text)
    assert (marks == "*").sum() == int(full["reject"].sum())
    # (b) one pair: the table equals item_comparison's, and McNemar's p is the exact binomial test of the
    # discordant items (scipy, computed here from the raw file)
    at.button_group(key="w_items_view").set_value("One pair, task by task")
    at.run()
    by_label(at.selectbox, "Model a").set_value("llm-large")
    at.run()
    by_label(at.selectbox, "Model b").set_value("llm-small")
    at.run()
    assert not at.exception and not at.error
    shown = at.dataframe[0].value
    lib = cl.item_comparison(items, "llm-large", "llm-small")
    for col in ["task", "n", "mean_a", "mean_b", "diff", "se", "ci_low", "ci_high", "p", "p_adj", "reject"]:
        assert list(shown.columns[:11]).count(col) == 1
        if col in ("task", "reject", "n"):
            assert list(shown[col]) == list(lib[col])
        else:
            np.testing.assert_allclose(shown[col].to_numpy(float), lib[col].to_numpy(float), rtol=0, atol=1e-15)
    raw = pd.read_csv(SAMPLE)
    wide = raw.pivot_table(index=["task", "item"], columns="model", values="correct")
    for task, rows in wide.groupby(level="task"):
        wins = int(((rows["llm-large"] == 1) & (rows["llm-small"] == 0)).sum())
        losses = int(((rows["llm-large"] == 0) & (rows["llm-small"] == 1)).sum())
        p = stats.binomtest(wins, wins + losses, 0.5).pvalue
        assert abs(float(shown.loc[shown["task"] == task, "p"].iloc[0]) - p) < 1e-12
    assert len(charts(at)) == 1  # the forest plot
    assert any("items_script" in str(e.proto.id) for e in at.get("download_button"))  # the reproducing script
    assert any("items_synthetic.csv (in the sample_data folder" in s for s in texts(at.caption))
    forest = _figure(charts(at)[0])
    xs = sorted(x for trace in forest.data for x in trace.x)
    np.testing.assert_allclose(xs, sorted(lib["diff"]), atol=1e-12)
    # (c) planning: the numbers of item_plan, and McNemar's n from Connor's formula written out here
    at.button_group(key="w_items_view").set_value("Planning")
    at.run()
    by_label(at.number_input, "Difference to detect d (0.0001 to 1e+06, in score units)").set_value(0.1)
    at.run()
    assert not at.exception and not at.error
    plan = at.dataframe[0].value
    lib_plan = cl.item_plan(items, "llm-large", "llm-small", 0.1)
    assert list(plan["items_needed"]) == list(lib_plan["items_needed"])
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    for task, rows in wide.groupby(level="task"):
        psi = float((rows["llm-large"] != rows["llm-small"]).mean())
        n = int(np.ceil((za * np.sqrt(psi) + zb * np.sqrt(psi - 0.01)) ** 2 / 0.01))
        assert int(plan.loc[plan["task"] == task, "items_needed"].iloc[0]) == n


def test_settings_change_the_numbers_as_the_library_does():
    at = _with_sample()
    by_label(at.selectbox, "Test").set_value("t")
    by_label(at.checkbox, "Clustered standard errors").check()
    by_label(at.selectbox, "Correction").set_value("hochberg")
    at.run()
    at.button_group(key="w_items_view").set_value("One pair, task by task")
    at.run()
    assert not at.exception and not at.error
    a, b = by_label(at.selectbox, "Model a").value, by_label(at.selectbox, "Model b").value
    lib = cl.item_comparison(cl.read_items(SAMPLE), a, b, test="t", cluster=True, correction="hochberg")
    np.testing.assert_allclose(at.dataframe[0].value["p_adj"].to_numpy(float), lib["p_adj"].to_numpy(float), atol=1e-15)
    # a random test draws at most the page's budget: bootstrap with the seed gives the library's numbers
    by_label(at.checkbox, "Clustered standard errors").uncheck()
    by_label(at.selectbox, "Test").set_value("bootstrap")
    at.number_input(key="w_items_reps").set_value(2000)
    at.number_input(key="w_items_seed").set_value(7)
    at.run()
    assert not at.exception and not at.error
    lib = cl.item_comparison(cl.read_items(SAMPLE), a, b, test="bootstrap", reps=2000, seed=7, correction="hochberg")
    np.testing.assert_allclose(at.dataframe[0].value["ci_low"].to_numpy(float), lib["ci_low"].to_numpy(float), atol=1e-15)


def test_every_setting_is_declared_for_links():
    declared = {c.widget for c in links.CHOICES} | set(links.NOT_IN_LINKS) | {"alpha"}
    at = open_page("items")
    for view in (None, *links.ITEM_VIEWS):
        if view is None:
            at = open_page("items")  # no items: the explanation and its button
        else:
            at = _with_sample(iview=view)
            assert at.session_state["items_view"] == view
        keyed, unkeyed = _inputs(at)
        missing = sorted(k for k in keyed if _normal(k) not in declared)
        assert not missing and not unkeyed, (view, missing, unkeyed)
    assert links.PAGES["Per-task comparison"] == "items"


def test_link_round_trip():
    at = _with_sample()
    by_label(at.selectbox, "Test").set_value("permutation")
    by_label(at.selectbox, "Correction").set_value("finner")
    at.number_input(key="w_items_reps").set_value(3000)
    at.number_input(key="w_items_seed").set_value(11)
    at.run()
    at.button_group(key="w_items_view").set_value("One pair, task by task")
    at.run()
    by_label(at.selectbox, "Model a").set_value("llm-tuned")
    at.run()
    assert not at.exception and not at.error
    params = {k: at.query_params[k] for k in at.query_params}
    assert {"sample", "iview", "ia", "ib", "itest", "icorr", "ireps", "iseed"} <= set(params), params
    fresh = open_page("items", **params)
    assert not fresh.exception and not fresh.error
    assert by_label(fresh.selectbox, "Model a").value == "llm-tuned"
    assert by_label(fresh.selectbox, "Test").value == "permutation"
    pd.testing.assert_frame_equal(fresh.dataframe[0].value, at.dataframe[0].value)
    assert texts(fresh.markdown) == texts(at.markdown)
    # a value the page does not offer is named and replaced by the default, never raised
    from streamlit.testing.v1 import AppTest

    from .apptest_helpers import APP

    bad = AppTest.from_file(APP, default_timeout=180)
    for k, v in {**params, "ireps": "10000000", "ia": "<b>nobody</b>"}.items():
        bad.query_params[k] = v
    bad.run()  # the problems are said on the first page shown
    assert not bad.exception
    problems = " ".join(texts(bad.warning))
    assert "The link's ireps '10000000' is not a whole number from 100 to 100,000" in problems, problems
    assert "The link's ia '<b>nobody</b>' is not offered on this page" in problems
    goto(bad, "items")
    assert bad.session_state["items_reps"] == 10_000  # the default, in place of the refused value
    assert by_label(bad.selectbox, "Test").value == "permutation"  # the rest of the link applies


def test_renamed_and_selected_models_follow_into_the_page():
    at = _with_sample("load_data")
    by_label(at.multiselect, "Classifiers").set_value(["llm-base", "llm-large", "llm-small"])
    at.run()
    goto(at, "items")
    assert not at.exception and not at.error
    spec = _figure(charts(at)[0])
    assert len(spec.data[0].y) == 3  # 3 pairs of the 3 models kept


def test_a_zip_beyond_the_apps_unzip_limit_is_refused_with_the_limit():
    """Issue 31: the app passes its own unpack limit (smaller than the library's 1 GiB) to the reader: a zip whose
    directory says its samples files unpack to more is refused before unpacking, with a message stating the
    limit, and the table in use stays."""
    limit = cl.limits.APP_MAX_UNZIP_BYTES
    assert limit < cl.limits.MAX_INPUT_BYTES
    data = bytearray(_lm_eval_zip())
    # Every member's uncompressed size in the central directory (offset 24 of each entry) set so that the
    # total is limit + 1: what a zip bomb's directory says, without making one.
    entries = [i for i in range(len(data)) if data.startswith(b"PK\x01\x02", i)]
    sizes = [limit // len(entries)] * len(entries)
    sizes[0] += limit + 1 - sum(sizes)
    for at_, size in zip(entries, sizes):
        data[at_ + 24:at_ + 28] = size.to_bytes(4, "little")
    at = _upload(new_app(), "bomb.zip", bytes(data))
    message = " ".join(texts(at.error))
    assert f"would unpack to {limit + 1:,} bytes" in message and f"at most {limit:,} bytes" in message, message
    assert "bomb.zip" in message
    assert at.session_state["origin"].kind == "sample" and "items" not in at.session_state
