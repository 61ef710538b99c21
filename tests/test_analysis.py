"""cl.analyze and its report (issue 21): published numbers, the same numbers as the library's own calls, every
format escaped, the LaTeX compiles, the reproducing script prints the same results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl
from compare_lib.render._paper_tables import journal_p

ROOT = Path(__file__).resolve().parents[1]
DEMSAR = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"
HOSTILE = ["<script>alert(1)</script>", "a & b", "**bold** | pipe", "x_{1}^2 $ % #", "back\\slash"]


@pytest.fixture(scope="module")
def demsar_analysis():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cl.analyze(DEMSAR, test="mean-ranks", correction="nemenyi")


def test_analysis_holds_demsars_published_numbers(demsar_analysis):
    """Demšar 2006, §3.2.2 on Table 6: χ²_F = 9.28, F_F = 3.69, mean ranks 3.143, 2.000, 2.893, 1.964."""
    a = demsar_analysis
    assert round(a.omnibus["friedman"].statistic, 2) == 9.28
    assert round(a.omnibus["iman_davenport"].statistic, 2) == 3.69
    assert a.mean_ranks.round(3).to_dict() == {"C4.5": 3.143, "C4.5+m": 2.0, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    assert round(a.posthoc.attrs["cd"], 3) == 1.254  # Nemenyi's CD for k = 4, N = 14 (Demšar, §3.2.2)
    text = a.summary()
    for number in ("9.28", "3.69", "3.143", "2.000", "2.893", "1.964"):
        assert number in text


def test_analysis_posthoc_is_the_librarys_posthoc(demsar):
    a = cl.analyze(demsar, test="wilcoxon", correction="holm")
    direct = cl.posthoc(demsar, test="wilcoxon", correction="holm")
    assert a.posthoc["p_adj"].tolist() == direct["p_adj"].tolist()  # bit for bit
    assert a.posthoc[["a", "b"]].values.tolist() == direct[["a", "b"]].values.tolist()
    effects = cl.with_effect_sizes(direct, demsar)
    assert np.array_equal(a.posthoc["effect"].to_numpy(), effects["effect"].to_numpy(), equal_nan=True)


def test_json_keeps_full_precision(demsar):
    a = cl.analyze(demsar, test="wilcoxon", correction="holm")
    data = json.loads(a.to_json())
    direct = cl.posthoc(demsar, test="wilcoxon", correction="holm")
    assert [row["p_adj"] for row in data["posthoc"]["rows"]] == direct["p_adj"].tolist()
    assert data["omnibus"]["friedman"]["statistic"] == cl.friedman(demsar).statistic
    assert data["mean_ranks"] == demsar.mean_ranks.to_dict()
    assert data["choices"]["test"] == "wilcoxon" and data["choices"]["correction"] == "holm"
    assert data["versions"]["compare_lib"] == cl.__version__


def test_report_sections_and_choices(demsar_analysis):
    md = demsar_analysis.to_markdown()
    for section in ("## Data", "## Methods", "## Results", "### Omnibus tests", "### Mean ranks",
                    "### Post-hoc comparisons", "### Scores and ranks", "## Paragraph for a paper", "## References",
                    "## Reproduce"):
        assert section in md
    assert "@article{demsar2006" in md and "@phdthesis{nemenyi1963" in md  # the chosen procedure's reference
    assert "Nemenyi's procedure (Nemenyi, 1963; Demšar, 2006, §3.2.2)" in demsar_analysis.paragraph()
    html = demsar_analysis.to_html()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "<script" not in html  # figure inline, no JS


def test_paragraph_groups_pairs_by_classifier(garcia):
    """García & Herrera's Table 2 with Bergmann-Hommel: 8 rejected pairs become at most k − 1 = 4 sentences,
    each rejected pair named once."""
    a = cl.analyze(garcia, test="mean-ranks", correction="bergmann-hommel")
    rejected = a.posthoc[a.posthoc["reject"]]
    assert len(rejected) == 8
    sentences = cl.report.grouped_findings(a.posthoc)
    assert 1 <= len(sentences) <= garcia.n_classifiers - 1
    text = " ".join(sentences)
    assert text.count("adjusted p") == len(rejected)
    assert "is significantly better than" in text or "are significantly better than" in text
    assert ", " in sentences[0] and " and " in sentences[0]  # "A is significantly better than B, C and D"


def test_every_format_escapes_hostile_names(tmp_path):
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.uniform(0.5, 0.9, size=(8, len(HOSTILE))), columns=HOSTILE,
                          index=[f"d{i}" for i in range(7)] + ["<img src=x onerror=alert(1)>"])
    table = cl.ScoreTable(scores, higher_is_better=True)
    a = cl.analyze(table, test="sign", correction="holm")
    html = a.to_html()
    assert "<script>alert" not in html and "<img src" not in html and "&lt;script&gt;" in html
    md = a.to_markdown()
    prose = md.split("## References")[0]  # the code blocks below hold the names as Python/BibTeX text
    assert "<script>" not in prose and "\\*\\*bold\\*\\* \\| pipe" in prose
    tex = a.to_latex()
    assert "x\\_\\{1\\}\\textasciicircum{}2 \\$ \\% \\#" in tex
    script = a.to_python()  # no file: the scores travel in the script
    compile(script, "script.py", "exec")
    assert "SCORES = " in script


def test_reproducing_script_prints_the_same_results(tmp_path, demsar_analysis):
    """The report's code, run from the folder holding the data file, prints the published numbers."""
    shutil.copy(DEMSAR, tmp_path / DEMSAR.name)
    (tmp_path / "reproduce.py").write_text(demsar_analysis.to_python(), encoding="utf-8")
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert demsar_analysis.summary() in run.stdout
    for number in ("9.28", "3.69", "3.143", "2.893", "1.964"):
        assert number in run.stdout


def test_script_applies_the_selection(demsar, tmp_path):
    sub = demsar.subset(classifiers=["C4.5", "C4.5+m", "C4.5+m+cf"])
    source = cl.Source(DEMSAR.name, table={"higher_is_better": True}, classifiers=("C4.5", "C4.5+m", "C4.5+m+cf"))
    a = cl.analyze(sub, source=source)
    shutil.copy(DEMSAR, tmp_path / DEMSAR.name)
    (tmp_path / "r.py").write_text(a.to_python(), encoding="utf-8")
    run = subprocess.run([sys.executable, "r.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert a.summary() in run.stdout and "C4.5+cf" not in run.stdout.split("Mean ranks")[1].split("Post hoc")[0]


def test_bayesian_part_is_seeded_and_reported(demsar):
    a = cl.analyze(demsar, rope=0.01, seed=7, bayesian_samples=4000)
    b = cl.analyze(demsar, rope=0.01, seed=7, bayesian_samples=4000)
    assert a.bayesian["p_a"].tolist() == b.bayesian["p_a"].tolist()
    assert "ROPE" in a.paragraph() and "±0.01" in a.paragraph()
    assert "rope=0.01, seed=7" in a.to_python()


def test_bad_choices_are_refused_with_a_message(demsar):
    with pytest.raises(cl.InputError, match="control='nope' is not among the classifiers"):
        cl.analyze(demsar, control="nope")
    with pytest.raises(cl.InputError, match="alpha"):
        cl.analyze(demsar, alpha=2)
    with pytest.raises(cl.InputError, match="rope='wide'"):
        cl.analyze(demsar, rope="wide")


def test_journal_p_values():
    assert [journal_p(p) for p in (0.0258, 0.2, 1.0, 0.000999, 0.0136, float("nan"))] == [
        "0.0258", "0.200", "1.00", "< 0.001", "0.0136", "undefined"]


def test_latex_columns_have_one_format(demsar):
    frame = cl.posthoc(demsar, "wilcoxon", "holm")
    tex = cl.report.to_latex(frame)
    body = tex.split("\\midrule")[1].split("\\bottomrule")[0]
    stats = [line.split(" & ")[2] for line in body.strip().splitlines()]
    assert stats == ["12.0", "11.0", "14.5", "18.0", "33.5", "43.0"]  # one number of decimals, as few as needed
    ints = cl.report.to_latex(pd.DataFrame({"T": [4.0, 7.0], "p": [0.0004, 0.5]}))
    assert "4 & $<0.001$" in ints and "7 & 0.500" in ints  # integers as integers, p as journals print it
    omnibus = cl.report.omnibus_frame(cl.friedman(demsar), cl.iman_davenport(demsar), None, 0.05)
    tex = cl.report.to_latex(omnibus)
    assert "$\\chi^2_F$" in tex and "$F_F$" in tex and "chi2\\_F" not in tex


def test_scores_table_ranks_bold_and_direction(demsar):
    assert "0.7630 (4)" in cl.report.scores_table(demsar)  # default: as written (one cell is 0.9751)
    tex = cl.report.scores_table(demsar, digits=3)
    assert "adult (sample) & 0.763 (4) & 0.768 (3) & 0.771 (2) & \\textbf{0.798} (1)" in tex
    assert "average rank & 3.143 & 2.000 & 2.893 & 1.964" in tex
    lower = demsar.with_direction(False)
    assert "\\textbf{0.763} (1)" in cl.report.scores_table(lower, digits=3)  # lower is better: the smallest is bold
    md = cl.report.scores_table(demsar, format="markdown")
    assert "| *average rank* | 3.143 | 2.000 | 2.893 | 1.964 |" in md
    frame = cl.report.scores_table(demsar, format="frame")
    assert frame.loc["average rank", "C4.5 rank"] == pytest.approx(3.142857142857143)


def _pdflatex_or_skip():
    if shutil.which("pdflatex") is None:
        if os.environ.get("REQUIRE_LATEX") == "1":
            raise RuntimeError("REQUIRE_LATEX=1 but pdflatex is missing.")
        pytest.skip("pdflatex is not installed")


def test_every_latex_export_compiles(tmp_path, demsar, garcia):
    """The report fragment (tables + TikZ CD diagram), the post-hoc and APV tables and the scores-with-ranks
    table compile in a standard article with booktabs (and TikZ for the figure)."""
    a = cl.analyze(demsar, test="mean-ranks", correction="nemenyi")
    control = cl.analyze(garcia, test="mean-ranks", correction="holm", control="C4.5")
    parts = [a.to_latex(), control.to_latex(), cl.report.to_latex(cl.apv_table(garcia), caption="APVs"),
             cl.report.scores_table(garcia, caption="Accuracy", label="tab:acc"),
             cl.report.to_latex(cl.posthoc(demsar, "wilcoxon", "holm"), caption="Wilcoxon & Holm")]
    for part in parts:  # the structure, checked with or without a compiler
        assert part.count("\\begin{tabular}") == part.count("\\end{tabular}") >= 1
        assert part.count("\\toprule") == part.count("\\bottomrule") == part.count("\\begin{tabular}")
        assert "booktabs" in part.splitlines()[0] or "booktabs" in part.splitlines()[1]
    _pdflatex_or_skip()
    for i, part in enumerate(parts):
        (tmp_path / f"p{i}.tex").write_text(part, encoding="utf-8")
    doc = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n\\usepackage{tikz}\n"
           "\\begin{document}\n" + "".join(f"\\input{{p{i}.tex}}\n\\clearpage\n" for i in range(len(parts))) + "\\end{document}\n")
    (tmp_path / "doc.tex").write_text(doc, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 5000


def test_results_have_readable_notebook_views(demsar):
    html = cl.posthoc(demsar, as_result=True)._repr_html_()
    assert "PosthocResult" in html and "<table>" in html and "C4.5+m+cf" in html
    assert "FriedmanResult" in cl.friedman(demsar)._repr_html_()
    hostile = cl.ScoreTable(pd.DataFrame({"<b>x</b>": [1.0, 2, 3], "y": [2.0, 1, 1]}), higher_is_better=True)
    assert "<b>x</b>" not in cl.posthoc(hostile, as_result=True)._repr_html_()
    assert cl.analyze(demsar)._repr_html_().startswith("<div class=compare-lib-report>")
