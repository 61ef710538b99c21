"""Issue 30: a task table made from item-level results replays from the item file.

``cl.read_items(path, ...)`` records where and how it read (:attr:`Items.provenance`, loader "read_items"),
``Items.task_table`` carries it into :attr:`ScoreTable.provenance`, and the reproducing script
(:meth:`Analysis.to_python`) reads the item file (or the folder of lm-evaluation-harness samples files) again with
the same options and builds the same task table: the numbers it prints at full precision equal the analysis' own.
The script is run alone in a fresh empty folder, so it can only have read the file by its recorded path."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl

from .test_scripts_replay import _printed_numbers

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "tests" / "data" / "items"


def _run(script: str, folder: Path) -> subprocess.CompletedProcess:
    folder.mkdir()
    (folder / "reproduce.py").write_text(script, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "reproduce.py"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


def _same(printed: dict, expected: dict) -> None:
    assert expected and set(expected) <= set(printed), set(expected) - set(printed)
    for key, value in expected.items():
        got = printed[key]
        assert got == value or (math.isnan(value) and math.isnan(got)) or abs(got - value) <= 1e-12, (key, got, value)


def _long_file(folder: Path) -> Path:
    """5 models x 4 tasks x 30 items of 0/1 outcomes with a passage column, in a folder of its own."""
    rng = np.random.default_rng(30)
    rows = [(f"m{m}", f"task {t}", f"q{i}", int(rng.random() < 0.4 + 0.1 * m), f"p{i // 3}")
            for m in range(5) for t in range(4) for i in range(30)]
    path = folder / "items.csv"
    pd.DataFrame(rows, columns=["system", "benchmark", "question_id", "is_correct", "passage_id"]).to_csv(path, index=False)
    return path


def test_task_table_records_how_it_was_read(tmp_path):
    path = _long_file(tmp_path)
    items = cl.read_items(path, score_col="is_correct")
    record = items.provenance
    assert record.loader == "read_items" and record.kind == "file" and Path(record.path) == path.resolve()
    assert record.read == {"score_col": "is_correct"}
    import hashlib

    assert record.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    table = items.task_table(statistic="median", higher_is_better=True)
    assert table.provenance.table == {"metric": "is_correct", "higher_is_better": True, "missing": "error",
                                      "aggregate": "median"}
    # bytes have no path: nothing to read again (the script carries the table)
    assert cl.read_items(path.read_bytes()).provenance is None


@pytest.mark.parametrize("case", ["long csv, median, a selection", "lm-eval folder", "every_eval_ever"])
def test_script_replays_the_item_file(case, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    if case == "long csv, median, a selection":
        items = cl.read_items(_long_file(data), score_col="is_correct", cluster_col="passage_id")
        table = items.task_table(statistic="median", higher_is_better=True).subset(["m0", "m2", "m3", "m4"])
    elif case == "lm-eval folder":
        shutil.copytree(ITEMS / "lm_eval", data / "lm_eval")
        items = cl.read_items(data / "lm_eval", score_col="acc_norm")
        table = items.task_table()
    else:
        shutil.copy(ITEMS / "every_eval_ever.jsonl", data / "eee.jsonl")
        items = cl.read_items(data / "eee.jsonl")
        table = items.task_table(higher_is_better=True)
    analysis = cl.analyze(table)
    script = analysis.to_python()
    assert "cl.read_items(DATA_FILE" in script and "items.task_table(" in script
    assert "SCORES = [" not in script  # read again, not carried
    run = _run(script, tmp_path / "run")
    assert run.returncode == 0, run.stderr[-3000:]
    _same(_printed_numbers(run.stdout), analysis.numbers())
    # the table the script built is the table analysed: its cells are the per-task means (medians) of the file
    frame = items.frame
    stat = "median" if case.startswith("long") else "mean"
    expected = frame.groupby(["task", "model"])["score"].agg(stat).unstack()
    expected = expected.loc[table.datasets, table.classifiers].to_numpy()
    np.testing.assert_allclose(table.scores.to_numpy(), expected, rtol=0, atol=1e-15)


def test_script_stops_cleanly_when_the_item_folder_is_gone(tmp_path):
    shutil.copytree(ITEMS / "lm_eval", tmp_path / "lm_eval")
    table = cl.read_items(tmp_path / "lm_eval", score_col="acc").task_table()
    script = cl.analyze(table).to_python()
    shutil.rmtree(tmp_path / "lm_eval")
    run = _run(script, tmp_path / "run")
    assert run.returncode != 0 and "is gone" in run.stderr and "Traceback" not in run.stderr


def _dashboard_item_app():
    """Run by AppTest: the dashboard's own steps for an uploaded item file (state.read_items_upload, the task table
    made the loaded table with its items, a selection, report_source, ui_cache.analysis_report)."""
    import sys
    from pathlib import Path

    import streamlit as st

    import compare_lib as cl

    sys.path.insert(0, str(Path(cl.__file__).resolve().parents[1] / "dashboard"))
    import state
    from ui_cache import analysis_report

    ss = st.session_state
    job = ss["job"]
    items = state.read_items_upload(job["data"], job["name"])
    table = items.task_table(higher_is_better=True)
    state.set_table(table, state.Origin("file", job["name"], "auto", "error", items.metric))
    state.set_items(items, state.items_token(job["data"], job["name"]))
    state.set_selection(job["keep"], job["drop"])
    active, source = state.active_table(), state.report_source()
    script = analysis_report(state.active_token(), active, source, repr(source), 0.1, "wilcoxon", "holm", None,
                             "hodges_lehmann", "python").decode("utf-8")
    analysis = cl.analyze(active, alpha=0.1, test="wilcoxon", correction="holm", source=source)
    ss["made"] = (script, analysis.numbers(), source)


def test_dashboard_upload_of_an_item_file_replays_from_the_file_beside_the_script(tmp_path):
    from streamlit.testing.v1 import AppTest

    data = (ROOT / "sample_data" / "items_synthetic.csv").read_bytes()
    at = AppTest.from_function(_dashboard_item_app, default_timeout=180)
    at.session_state["job"] = {"data": data, "name": "my items.csv", "keep": ["llm-base", "llm-large", "llm-tuned"],
                               "drop": ["boolq"]}
    at.run()
    assert not at.exception, at.exception
    script, numbers, source = at.session_state["made"]
    assert source.loader == "read_items" and source.path == "my items.csv"
    assert "cl.read_items(DATA_FILE)" in script and "SCORES = [" not in script
    folder = tmp_path / "run"
    run = _run(script, folder)  # the file is not beside the script yet: a clear message, no traceback
    assert run.returncode != 0 and "is gone" in run.stderr and "Traceback" not in run.stderr
    (folder / "my items.csv").write_bytes(data)
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=folder, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"})
    assert run.returncode == 0, run.stderr[-3000:]
    _same(_printed_numbers(run.stdout), numbers)


@pytest.mark.parametrize("pair", [True, False], ids=["one pair", "all pairs"])
def test_per_task_comparison_script_prints_the_same_table(pair, tmp_path):
    """cl.item_comparison_script (the Per-task comparison page's download): run beside a copy of the item file, with
    a rename and a selection, it prints the table of item_comparison(_all) on the same items, to full precision."""
    data = (ROOT / "sample_data" / "items_synthetic.csv").read_bytes()
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "my items.csv").write_bytes(data)
    source = cl.Source("my items.csv", loader="read_items")
    renames = {"classifiers": {"llm-base": "base <b>'x'</b>"}, "datasets": {}}
    models, tasks = ["base <b>'x'</b>", "llm-large", "llm-tuned"], ["arc_easy", "boolq", "piqa"]
    settings = dict(test="t", cluster=True, alpha=0.1, correction="hochberg", reps=500, seed=3)
    a, b = ("llm-large", "base <b>'x'</b>") if pair else (None, None)
    script = cl.item_comparison_script(source, a=a, b=b, models=models, tasks=tasks, renames=renames, **settings)
    (folder / "reproduce.py").write_text(script, encoding="utf-8")
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=folder, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"})
    assert run.returncode == 0, run.stderr[-3000:]
    # the same items made here another way: renamed and selected with pandas, then compared by the library
    frame = pd.read_csv(folder / "my items.csv", dtype={"item": str})
    frame = frame.rename(columns={"correct": "score", "passage_id": "cluster"})
    frame["model"] = frame["model"].replace({"llm-base": "base <b>'x'</b>"})
    frame = frame[frame["model"].isin(models) & frame["task"].isin(tasks)].reset_index(drop=True)
    items = cl.Items(frame.astype({"score": float}), metric="correct")
    expected = (cl.item_comparison(items, a, b, **settings) if pair else cl.item_comparison_all(items, **settings))
    lines = run.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:1] in (["task"], ["a"]))
    assert len(lines) - header - 1 == len(expected)
    rows = [line.split() for line in lines[header + 1:]]
    if pair:  # task names without spaces: columns by position
        for col in ("diff", "p_adj", "ci_low"):
            got = [float(r[list(expected.columns).index(col)]) for r in rows]
            np.testing.assert_allclose(got, expected[col].to_numpy(), rtol=0, atol=0)
    else:  # model names with spaces: p_adj counted from the end (reject, left_out_a, left_out_b, clusters follow)
        assert "base <b>'x'</b>" in run.stdout  # names printed as data
        assert list(expected.columns[-5:]) == ["p_adj", "reject", "left_out_a", "left_out_b", "clusters"]
        p_adj = sorted(float(r[-5]) for r in rows)
        np.testing.assert_allclose(p_adj, sorted(expected["p_adj"].to_numpy()), rtol=0, atol=0)
