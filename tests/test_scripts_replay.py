"""Issue 28: the reproducing script (:meth:`Analysis.to_python`) replays from every path.

Every way a table reaches an analysis makes a script here: a file read by its path in each input format (CSV,
Excel .xlsx/.xls, OpenDocument, LaTeX, Markdown, text copied from a PDF, long and tidy files, a scikit-learn
``cross_validate`` export), with a sheet, a metric, the median of the runs, a missing-data policy and a selection;
``load_scores`` and ``analyze(path)``; the notebook's ``cl.analyze(cl.read_results(path).table(metric))``; a
pandas DataFrame; pasted text and an uploaded file as the dashboard reads them (its ``state`` module, run by
AppTest); the command line (``report --to python``). Each script is written alone into a fresh empty folder and
run there (one child interpreter runs them all, each in its own folder, to keep the test fast); the numbers it
prints at full precision (omnibus statistics and p-values, mean ranks, each pair's p and adjusted p) must equal
the analysis' own to 1e-12. A file read from disk is replayed from its absolute path (the folder the script runs
in holds nothing else); the script stops with a clear message, not a traceback, when the file is gone, and warns
when the file changed. Floats are written in their shortest round-trip form.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import compare_lib as cl
from compare_lib.cli import main

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ROOT / "tests" / "data" / "formats"
RESULTS = ROOT / "tests" / "data" / "results"
DEMSAR = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"
TOLERANCE = 1e-12

#: Runs each job's script in its own (otherwise empty) folder, as ``python reproduce.py`` would from there, and
#: records its exit status, output and the folder's files afterwards.
DRIVER = textwrap.dedent('''
    import contextlib, io, json, os, runpy, sys, traceback, warnings
    jobs, report = json.load(open(sys.argv[1], encoding="utf-8")), {}
    for name, folder in jobs:
        os.chdir(folder)
        out, err, code = io.StringIO(), io.StringIO(), 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("default")
            try:
                runpy.run_path(os.path.join(folder, "reproduce.py"), run_name="__main__")
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
                if not isinstance(stop.code, int):
                    print(stop.code, file=sys.stderr)
            except BaseException:
                code = 1
                traceback.print_exc()
        report[name] = {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "files": sorted(os.listdir(folder))}
    json.dump(report, open(sys.argv[2], "w", encoding="utf-8"))
''')


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"}


def _quiet(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


# -- the data ------------------------------------------------------------------------------------------------------

def _long_file(folder: Path) -> Path:
    """A long file of 8 data sets x 4 models x 3 folds with two metrics (log_loss, accuracy), a few values without a
    short decimal form, and one data set where one model has no row (a hole after aggregation)."""
    rng = np.random.default_rng(28)
    rows = []
    for d in range(8):
        for m, model in enumerate(["logreg", "forest", "boosting", "knn"]):
            if d == 7 and model == "knn":
                continue  # a hole: knn never ran on the last data set
            for fold in range(3):
                acc = round(0.6 + 0.04 * m + 0.03 * d + rng.normal(0, 0.02), 3)
                rows.append({"dataset": f"set{d}", "model": model, "fold": fold, "log_loss": round(1.1 - acc, 4),
                             "accuracy": acc})
    rows[0]["accuracy"] = 0.7 + 0.1 + 0.1  # 0.8999999999999999: full precision must survive
    path = folder / "cv_results.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(5)
    values = np.round(rng.uniform(0.6, 0.9, (9, 4)) + np.array([0, 0.02, 0.05, 0.08]), 3)
    values[0, 0] = 0.763  # written as 0.763, never 0.76300000000000001
    return pd.DataFrame(values, index=[f"data {i}" for i in range(9)], columns=["svm", "rf", "gbm", "mlp"])


# -- the cases -------------------------------------------------------------------------------------------------------

def _library_cases(data: Path) -> dict:
    """name -> the analysis; every table made as a user would make it."""
    long = _long_file(data)
    relative = os.path.relpath(RESULTS / "error_rates.csv")  # read by a relative path: recorded absolute
    cases = {
        # one per input format, read by path with read_results(...).table(...)
        "csv wide (relative path)": lambda: cl.analyze(cl.read_results(relative).table(higher_is_better=False)),
        "xlsx": lambda: cl.analyze(cl.read_results(FORMATS / "results.xlsx").table(higher_is_better=True,
                                                                                  missing="pairwise")),
        "ods": lambda: cl.analyze(cl.read_results(FORMATS / "results.ods").table(higher_is_better=True,
                                                                                missing="drop-datasets")),
        "xls": lambda: cl.analyze(cl.read_results(FORMATS / "results.xls", format="xls").table(
            higher_is_better=True, missing="drop-classifiers")),
        "xlsx with a sheet": lambda: cl.analyze(cl.read_results(FORMATS / "two_sheets.xlsx", sheet="F1").table(
            higher_is_better=True), test="sign"),
        "latex": lambda: cl.analyze(cl.read_results(FORMATS / "paper_table.tex").table(higher_is_better=True),
                                    correction="shaffer"),
        "markdown": lambda: cl.analyze(cl.read_results(FORMATS / "leaderboard.md", format="markdown").table(
            higher_is_better=True), test="mean-ranks", correction="nemenyi"),
        "pdf text": lambda: cl.analyze(cl.read_results(FORMATS / "pdf_copy.txt", format="text").table(
            higher_is_better=True), control="C4.5"),
        "long, a metric": lambda: cl.analyze(cl.read_results(RESULTS / "long_two_metrics.csv").table(
            "accuracy", higher_is_better=True)),
        "long, median": lambda: cl.analyze(cl.read_results(RESULTS / "long_with_sizes.csv").table(
            higher_is_better=True, aggregate="median")),
        "tidy": lambda: cl.analyze(cl.read_results(RESULTS / "tidy_metric_value.csv", layout="tidy").table(
            "auc", higher_is_better=True)),
        "sklearn export": lambda: cl.analyze(cl.read_results(RESULTS / "cross_validate_export.csv").table(
            "test_roc_auc", higher_is_better=True)),
        # the steps a notebook takes
        "notebook read_results.table(metric)": lambda: cl.analyze(cl.read_results(long).table(
            "log_loss", higher_is_better=False, missing="pairwise")),
        "median, a policy, a selection": lambda: cl.analyze(
            cl.read_results(long).table("accuracy", higher_is_better=True, missing="drop-datasets", aggregate="median")
            .subset(classifiers=["knn", "forest", "logreg"], datasets=[f"set{d}" for d in (5, 0, 1, 2, 3, 4)]),
            rope=0.01, seed=3, bayesian_samples=2000),
        "other direction after reading": lambda: cl.analyze(cl.read_results(long).table(
            "log_loss", higher_is_better=True, missing="drop-classifiers").with_direction(False)),
        "load_scores": lambda: cl.analyze(cl.load_scores(long, metric="accuracy", higher_is_better=True,
                                                         missing="drop-datasets")),
        "analyze(path)": lambda: cl.analyze(DEMSAR, higher_is_better=True, test="mean-ranks", correction="nemenyi"),
        # no file on disk: the table travels in the script
        "pandas DataFrame": lambda: cl.analyze(_frame(), higher_is_better=True),
        "ScoreTable in memory": lambda: cl.analyze(cl.ScoreTable(_frame(), False, metric="error"), correction="hommel"),
        "pasted text (library)": lambda: cl.analyze(cl.read_results(long.read_text(encoding="utf-8")).table(
            "log_loss", higher_is_better=False, missing="drop-datasets")),
        "bytes (library)": lambda: cl.analyze(cl.read_results((FORMATS / "results.xlsx").read_bytes(),
                                                              name="results.xlsx").table(higher_is_better=True,
                                                                                         missing="drop-datasets")),
    }
    return {name: _quiet(make) for name, make in cases.items()}


def _dashboard_app():
    """Run by AppTest: the dashboard's own steps (state.read_results, results_table, the selection, report_source,
    ui_cache.analysis_report) for each job in session_state["jobs"]; the scripts and the analyses come back."""
    import sys
    from pathlib import Path

    import streamlit as st

    import compare_lib as cl

    sys.path.insert(0, str(Path(cl.__file__).resolve().parents[1] / "dashboard"))
    import state
    from ui_cache import analysis_report

    ss = st.session_state
    out = {}
    for job in ss["jobs"]:
        data, name, kind = job["data"], job["name"], job["kind"]
        if kind == "sample":
            state.use_sample(name)
        else:
            results = state.read_results(data, name, "auto", None, "auto")
            token = state.results_token(data, name, "auto", None, "auto")
            origin = state.Origin(kind, name, "auto", job["missing"], job["metric"], job["aggregate"], None)
            table = state.results_table(token, results, origin.metric, job["higher"], origin.missing, origin.aggregate)
            state.set_table(table, origin)
            state.set_results(results, token)
        state.set_selection(job["keep"], job["drop"])
        active, source = state.active_table(), state.report_source()
        settings = dict(alpha=0.1, test="wilcoxon", correction="holm", control=None)
        script = analysis_report(state.active_token(), active, source, repr(source), *settings.values(),
                                 "hodges_lehmann", "python").decode("utf-8")
        out[job["label"]] = (script, cl.analyze(active, **settings, source=source))
    ss["made"] = out


def _dashboard_cases(data: Path) -> dict:
    from streamlit.testing.v1 import AppTest

    long_text = _long_file(data).read_bytes()
    jobs = [
        {"label": "dashboard paste", "kind": "paste", "name": "pasted text", "data": long_text, "metric": "log_loss",
         "higher": False, "missing": "pairwise", "aggregate": "mean", "keep": ["boosting", "knn", "logreg"],
         "drop": ["set1"]},
        {"label": "dashboard upload", "kind": "file", "name": "cv_results.csv", "data": long_text, "metric": "accuracy",
         "higher": True, "missing": "drop-datasets", "aggregate": "median", "keep": None, "drop": ["set0", "set2"]},
        {"label": "dashboard upload xlsx", "kind": "file", "name": "results.xlsx",
         "data": (FORMATS / "results.xlsx").read_bytes(), "metric": None, "higher": True, "missing": "drop-datasets",
         "aggregate": "mean", "keep": None, "drop": None},
        {"label": "dashboard sample", "kind": "sample", "name": "Demšar 2006, Table 6 (AUC, 14 data sets × 4 C4.5 variants)",
         "data": None, "keep": ["C4.5", "C4.5+m", "C4.5+m+cf"], "drop": ["adult (sample)"]},
    ]
    at = AppTest.from_function(_dashboard_app, default_timeout=180)
    at.session_state["jobs"] = jobs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        at.run()
    assert not at.exception, at.exception
    return at.session_state["made"]


def _cli_case(data: Path) -> tuple[str, dict]:
    """The command line's script and its JSON report (the numbers it shows) for the same choices."""
    long = _long_file(data)
    args = ["report", str(long), "--metric", "accuracy", "--higher-is-better", "--missing", "drop-datasets",
            "--aggregate", "median", "--classifiers", "forest,knn,boosting", "--correction", "hochberg"]
    runner = CliRunner()
    script = runner.invoke(main, [*args, "--to", "python"])
    report = runner.invoke(main, [*args, "--to", "json"])
    assert script.exit_code == 0 and report.exit_code == 0, script.output + report.output
    return script.stdout, json.loads(report.stdout)


def _json_numbers(report: dict) -> dict:
    """The numbers of a JSON report under the names Analysis.numbers() uses."""
    out = {}
    for name, result in report["omnibus"].items():
        out[f"{name} statistic"], out[f"{name} p"] = result["statistic"], result["pvalue"]
    out.update({f"mean rank {c}": r for c, r in report["mean_ranks"].items()})
    for row in report["posthoc"]["rows"]:
        pair = f"{row['a']} vs {row['b']}"
        out[f"{pair} statistic"], out[f"{pair} p"], out[f"{pair} adjusted p"] = row["statistic"], row["p"], row["p_adj"]
    return {k: (math.nan if v is None else float(v)) for k, v in out.items()}


# -- running -----------------------------------------------------------------------------------------------------

def _printed_numbers(stdout: str) -> dict:
    block = stdout.split("Numbers at full precision:\n", 1)[1]
    out = {}
    for line in block.splitlines():
        name, sep, value = line.rpartition(" = ")
        if not sep:
            break
        try:
            out[name] = float(value)
        except ValueError:
            break
    return out


def _same(printed: dict, expected: dict, case: str) -> None:
    assert expected and set(expected) <= set(printed), (case, set(expected) - set(printed))
    for key, value in expected.items():
        got = printed[key]
        same = got == value or (math.isnan(value) and math.isnan(got)) or abs(got - value) <= TOLERANCE
        assert same, (case, key, got, value)


def _run_all(scripts: dict, base: Path) -> dict:
    base.mkdir(exist_ok=True)
    jobs = []
    for i, (name, script) in enumerate(scripts.items()):
        folder = base / f"run{i}"
        folder.mkdir()  # fresh and empty: the script is all it holds
        (folder / "reproduce.py").write_text(script, encoding="utf-8")
        jobs.append((name, str(folder)))
    (base / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
    (base / "driver.py").write_text(DRIVER, encoding="utf-8")
    home = base / "cwd"
    home.mkdir()
    run = subprocess.run([sys.executable, str(base / "driver.py"), str(base / "jobs.json"), str(base / "report.json")],
                         cwd=home, env=_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads((base / "report.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    analyses = _library_cases(data)
    made = _dashboard_cases(tmp_path_factory.mktemp("dashboard_data"))
    scripts = {name: a.to_python() for name, a in analyses.items()}
    expected = {name: a.numbers() for name, a in analyses.items()}
    for name, (script, a) in made.items():
        scripts[name], expected[name] = script, a.numbers()
        analyses[name] = a
    cli_script, cli_report = _cli_case(tmp_path_factory.mktemp("cli_data"))
    scripts["cli report --to python"], expected["cli report --to python"] = cli_script, _json_numbers(cli_report)
    path, a = _file_analysis(tmp_path_factory.mktemp("changed") / "data")
    scripts[CHANGED], expected[CHANGED], analyses[CHANGED] = a.to_python(), a.numbers(), a
    with path.open("a", encoding="utf-8") as f:
        f.write("\n")  # another file (its bytes differ), the same table
    runs = _run_all(scripts, tmp_path_factory.mktemp("runs"))
    return scripts, expected, runs, analyses


CASES = ["csv wide (relative path)", "xlsx", "ods", "xls", "xlsx with a sheet", "latex", "markdown", "pdf text",
         "long, a metric", "long, median", "tidy", "sklearn export", "notebook read_results.table(metric)",
         "median, a policy, a selection", "other direction after reading", "load_scores", "analyze(path)",
         "pandas DataFrame", "ScoreTable in memory", "pasted text (library)", "bytes (library)", "dashboard paste",
         "dashboard upload", "dashboard upload xlsx", "dashboard sample", "cli report --to python"]
FROM_DISK = CASES[:17] + ["cli report --to python"]
#: A file changed after the analysis (checked by its own test).
CHANGED = "changed data file"


@pytest.mark.parametrize("case", CASES)
def test_the_script_replays_from_an_empty_folder(replayed, case):
    scripts, expected, runs, _ = replayed
    run = runs[case]
    assert run["code"] == 0, (case, run["stderr"][-3000:])
    assert run["files"] == ["reproduce.py"], run["files"]  # it read nothing from, and wrote nothing to, its folder
    assert "warning: the data file" not in run["stderr"]
    _same(_printed_numbers(run["stdout"]), expected[case], case)
    script = scripts[case]
    compile(script, case, "exec")
    assert "higher_is_better=" in script  # the direction is always stated, never left to a guess
    if case in FROM_DISK:
        assert "DATA_FILE = Path('/" in script and "DATA_SHA256 = '" in script and "SCORES" not in script, case
        assert "# Case: a file read from disk." in script
    else:
        assert "DATA_FILE" not in script and "SCORES = [" in script and "# Case: " in script, case


def test_each_case_says_which_case_applies(replayed):
    scripts = replayed[0]
    assert "# Case: pasted text." in scripts["dashboard paste"]
    assert "# Case: pasted text." in scripts["pasted text (library)"]
    assert "# Case: an uploaded file" in scripts["dashboard upload"]
    assert "# Case: an uploaded file" in scripts["bytes (library)"]
    assert "SOURCE = 'cv_results.csv'" in scripts["dashboard upload"]
    assert "# Case: a table built in memory" in scripts["pandas DataFrame"]
    assert "# Case: a sample table of the dashboard" in scripts["dashboard sample"]
    assert "SOURCE = 'demsar2006_table6_auc_untied.csv'" in scripts["dashboard sample"]
    assert "'C4.5+cf'" not in scripts["dashboard sample"].split("CLASSIFIERS = ")[1].split("\n")[0]


def test_the_recorded_steps_are_in_the_script(replayed):
    scripts, _, _, analyses = replayed
    sheet = scripts["xlsx with a sheet"]
    assert "sheet='F1'" in sheet and f"Path({str(FORMATS / 'two_sheets.xlsx')!r})" in sheet
    assert "format='text'" in scripts["pdf text"] and "format='markdown'" in scripts["markdown"]
    assert "layout='tidy'" in scripts["tidy"] and "results.table('auc'" in scripts["tidy"]
    chosen = scripts["median, a policy, a selection"]
    assert "results.table('accuracy', higher_is_better=True, missing='drop-datasets', aggregate='median')" in chosen
    assert "table.subset(classifiers=['knn', 'forest', 'logreg'], datasets=['set5', 'set0'" in chosen
    assert "rope=0.01, seed=3" in chosen
    assert "higher_is_better=False" in scripts["other direction after reading"]
    assert "cl.load_scores(DATA_FILE, metric='accuracy', higher_is_better=True" in scripts["load_scores"]
    assert "aggregate='median'" in scripts["cli report --to python"]
    assert "classifiers=['forest', 'knn', 'boosting']" in scripts["cli report --to python"]
    # the notebook's read_results(path).table(metric): the file again, not a "pasted text" with no such metric
    notebook = analyses["notebook read_results.table(metric)"]
    assert notebook.source.kind == "file" and Path(notebook.source.path).is_absolute()
    assert "results.table('log_loss', higher_is_better=False, missing='pairwise')" in scripts[
        "notebook read_results.table(metric)"]


def test_floats_are_written_shortest(replayed):
    """Each score is written as repr(float(x)): the shortest text that reads back as the same double."""
    scripts = replayed[0]
    frame = scripts["pandas DataFrame"]
    assert "[0.763, " in frame and "0.76300000000000001" not in frame
    written = 0
    for case, script in scripts.items():
        if "SCORES = [" not in script:
            continue
        block = script.split("SCORES = [\n", 1)[1].split("\n]\n", 1)[0]
        for token in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", block):
            assert repr(float(token)) == token, (case, token)
            written += 1
    assert written > 100


def _file_analysis(folder: Path):
    folder.mkdir()
    path = folder / "scores.csv"
    shutil.copy(DEMSAR, path)
    return path, _quiet(lambda: cl.analyze(cl.read_results(path).table(higher_is_better=True)))


def test_a_missing_data_file_stops_with_a_clear_message(tmp_path):
    path, a = _file_analysis(tmp_path / "data")
    path.rename(tmp_path / "moved.csv")
    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "reproduce.py").write_text(a.to_python(), encoding="utf-8")
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=folder, env=_env(), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip() == f"the data file {path} is gone: put it back or edit DATA_FILE"
    assert run.stdout == ""


def test_a_changed_data_file_is_a_warning_not_a_failure(replayed):
    _, expected, runs, analyses = replayed
    run = runs[CHANGED]
    assert run["code"] == 0, run["stderr"]
    path = analyses[CHANGED].source.path
    assert f"warning: the data file {path} has changed since the analysis (its SHA-256 differs)" in run["stderr"]
    _same(_printed_numbers(run["stdout"]), expected[CHANGED], CHANGED)
