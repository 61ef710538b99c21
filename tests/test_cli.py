"""The command line (issue 21): the same numbers as the library, every registry entry in --help, clear errors
and a non-zero exit status on bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import compare_lib as cl
from compare_lib.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEMSAR = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"
GARCIA = ROOT / "sample_data" / "garcia_herrera2008_table2_accuracy.csv"
DATA = ROOT / "tests" / "data"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_help_lists_every_test_and_procedure_from_the_registries():
    out = run("--help").output
    for name in [*cl.PAIRWISE_TESTS, *cl.PROCEDURES]:
        assert f"  {name} " in out, name


def test_a_registered_test_appears_in_help_without_other_change():
    from types import SimpleNamespace

    def toy(table, pairs):
        return SimpleNamespace(statistic=np.zeros(len(pairs)), pvalue=np.ones(len(pairs)))

    cl.register_pairwise_test("toy-cli", toy, label="toy statistic", reference="a toy")
    try:
        assert "toy-cli" in run("--help").output and "toy statistic" in run("--help").output
    finally:
        cl.unregister_pairwise_test("toy-cli")


def test_posthoc_json_equals_the_library_to_full_precision():
    result = run("posthoc", GARCIA, "--test", "wilcoxon", "--correction", "holm", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    table = cl.load_scores(GARCIA, higher_is_better=True)
    direct = cl.posthoc(table, test="wilcoxon", correction="holm")
    assert [r["p_adj"] for r in data["rows"]] == direct["p_adj"].tolist()  # == on doubles: every bit
    assert [r["p"] for r in data["rows"]] == direct["p"].tolist()
    assert [(r["a"], r["b"]) for r in data["rows"]] == list(zip(direct["a"], direct["b"]))
    assert data["test"] == "wilcoxon" and data["correction"] == "holm" and data["k"] == 5 and data["n"] == 30


@pytest.mark.parametrize("fmt,check", [("csv", "a,b,statistic,p,p_adj"), ("latex", "\\toprule"),
                                       ("markdown", "| a | b | statistic |")])
def test_posthoc_formats(fmt, check):
    result = run("posthoc", DEMSAR, "--test", "mean-ranks", "--correction", "nemenyi", "--format", fmt)
    assert result.exit_code == 0 and check in result.stdout


def test_report_on_demsar_has_the_published_numbers(tmp_path):
    """Demšar's Table 6 as he ranks it: Friedman 9.28, Iman-Davenport 3.69, mean ranks 3.143, 2.000, 2.893, 1.964;
    and the report's code, run from the data file's folder, prints the same results."""
    shutil.copy(DEMSAR, tmp_path / DEMSAR.name)
    for suffix in (".html", ".md", ".tex", ".json", ".py"):
        out = tmp_path / f"report{suffix}"
        result = run("report", tmp_path / DEMSAR.name, "--metric", "auc", "-o", out)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 500
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    for number in ("χ²(3) = 9.28", "F(3, 39) = 3.69", "3.143", "2.000", "2.893", "1.964"):
        assert number in md
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert round(data["omnibus"]["friedman"]["statistic"], 2) == 9.28
    assert round(data["omnibus"]["iman_davenport"]["statistic"], 2) == 3.69
    run_script = subprocess.run([sys.executable, "report.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run_script.returncode == 0, run_script.stderr[-2000:]
    for number in ("9.28", "3.69", "3.143", "2.000", "2.893", "1.964"):
        assert number in run_script.stdout
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<svg" in html and "Demšar (2006)" in html


def test_report_options_reach_the_analysis(tmp_path):
    out = tmp_path / "r.json"
    result = run("report", GARCIA, "--test", "sign", "--correction", "hochberg", "--alpha", "0.1", "-o", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["choices"]["test"] == "sign" and data["choices"]["correction"] == "hochberg"
    assert data["choices"]["alpha"] == 0.1
    table = cl.load_scores(GARCIA, higher_is_better=True)
    direct = cl.posthoc(table, test="sign", correction="hochberg", alpha=0.1)
    assert [r["p_adj"] for r in data["posthoc"]["rows"]] == direct["p_adj"].tolist()


def test_ranks_table():
    result = run("ranks", DEMSAR, "--format", "latex", "--digits", "3")
    assert result.exit_code == 0
    assert "\\textbf{0.798} (1)" in result.stdout and "average rank & 3.143" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["posthoc", DEMSAR, "--test", "nope"], "nope"),
    (["posthoc", DEMSAR, "--correction", "rom"], "Rom is not defined for all pairwise"),  # a control-only procedure on all pairs
    (["posthoc", DEMSAR, "--control", "C9"], "C9"),
    (["report", DEMSAR, "--metric", "accuracy"], "accuracy"),
    (["report", DEMSAR, "-o", "report.docx"], ".docx"),
    (["posthoc", DEMSAR, "--alpha", "1.5"], "alpha"),
])
def test_bad_input_fails_with_a_message_and_no_traceback(args, message):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code != 0
    assert message in result.output and "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_a_broken_file_names_the_file(tmp_path):
    bad = tmp_path / "broken.csv"
    bad.write_text("dataset,A,B\nd1,0.5,oops\nd2,0.6,0.7\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["posthoc", str(bad)])
    assert result.exit_code == 1 and "broken.csv" in result.output and "oops" in result.output


def test_the_installed_command_runs():
    exe = Path(sys.executable).with_name("compare-classifiers")
    if not exe.exists():
        pytest.skip("the package is not installed with its scripts (pip install -e .)")
    done = subprocess.run([str(exe), "posthoc", str(DEMSAR), "--format", "csv"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("a,b,statistic,p,p_adj")
    bad = subprocess.run([str(exe), "posthoc", str(DEMSAR), "--test", "nope"], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "Error" in bad.stderr and "Traceback" not in bad.stderr
