"""Paper outputs that go in as they are (issue 28).

- Every LaTeX output (the report of ``Analysis.to_latex``/``report --to latex``, ``posthoc --format latex`` and
  ``ranks --format latex`` of the command line) compiles inside ``\\documentclass{article}`` (text width 345 pt)
  with exactly the packages its first comment lines name, for the sample data and for a 14-classifier table with
  long names, and the test FAILS on any ``Overfull \\hbox`` over 5 pt in the log (before issue 28 the report's
  post-hoc table was 247 pt too wide on the sample, the command line's 315 pt; with 14 long names 393 and 541 pt,
  and the scores table 1264 pt). The ``wide`` layouts compile in their settings (``table*`` in a two-column
  article, ``landscape`` with pdflscape).
- The LaTeX report cites with natbib (``\\citet``/``\\citep``) and carries its bibliography (``thebibliography``:
  pdflatex alone resolves it); ``Analysis.to_bibtex()`` has exactly the works it cites (it also works with
  BibTeX and plainnat); the JSON report lists them as data and the HTML/Markdown reports show the same list.
- A LaTeX header with group rows reads the last row as the names and the rows above as groups, said in a note.
- The paragraph for a paper holds no note on the data; the report's data section does.
- ``posthoc --format latex`` leaves "better" empty for the pairs that are not significant.
- ``ScoreTable.rename`` and ``parse_renames``.

Compilers: pdflatex (texlive-latex-base, -recommended, -extra for pdflscape, -pictures) and bibtex; without them
the compile steps are skipped, unless REQUIRE_LATEX=1, which makes them fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import compare_lib as cl
from compare_lib.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SAMPLE = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"
#: An overfull line may stick out this much (pt) at most.
TOLERANCE_PT = 5.0
LONG_NAMES = ["RandomForestClassifier", "GradientBoostingClassifier", "HistGradientBoosting", "ExtraTreesClassifier",
              "LogisticRegressionCV", "SupportVectorMachineRBF", "KNeighborsClassifier", "GaussianNaiveBayes",
              "MultiLayerPerceptron", "CatBoostClassifier", "XGBoostClassifier", "LightGBMClassifier",
              "TabNetClassifier", "SAINTTransformer"]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _long_table() -> cl.ScoreTable:
    """14 classifiers with long names on 20 data sets with long names; two clearly better (significant pairs)."""
    rng = np.random.default_rng(3)
    scores = rng.uniform(0.6, 0.9, size=(20, 14))
    scores[:, -2:] += 0.08
    datasets = [f"openml-dataset-{i:02d}-long-name" for i in range(20)]
    return cl.ScoreTable(pd.DataFrame(scores, index=datasets, columns=LONG_NAMES), True, metric="balanced_accuracy")


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict[str, tuple[cl.ScoreTable, Path]]:
    folder = tmp_path_factory.mktemp("tables")
    long = _long_table()
    path = folder / "long_names.csv"
    long.scores.to_csv(path, index_label="dataset")
    return {"sample": (_quiet(cl.load_scores, SAMPLE, higher_is_better=True), SAMPLE),
            "14 long names": (long, path)}


def _cli(*args: str) -> str:
    run = CliRunner().invoke(main, [*args, "--higher-is-better"])
    assert run.exit_code == 0, run.output
    return run.stdout


def _outputs(table: cl.ScoreTable, path: Path) -> dict[str, str]:
    """Every LaTeX output of one table: the report and the command line's post-hoc and scores tables."""
    a = _quiet(cl.analyze, table)
    return {
        "report": a.to_latex(),
        "report versus a control": _quiet(cl.analyze, table, control=table.classifiers[0]).to_latex(),
        "report with the Bayesian comparisons": _quiet(cl.analyze, table, rope=0.01, bayesian_samples=2000).to_latex(),
        "cli report": _cli("report", str(path), "--to", "latex"),
        "cli posthoc": _cli("posthoc", str(path), "--format", "latex", "--effect", "hodges_lehmann"),
        "cli posthoc, mean-ranks": _cli("posthoc", str(path), "--format", "latex", "--test", "mean-ranks",
                                        "--correction", "shaffer"),
        "cli ranks": _cli("ranks", str(path), "--format", "latex"),
    }


def _latex_or_skip(*packages: str) -> None:
    missing = None
    if shutil.which("pdflatex") is None:
        missing = "pdflatex is not installed (apt-get install texlive-latex-base)"
    else:
        for sty in packages:
            if not subprocess.run(["kpsewhich", sty], capture_output=True, text=True).stdout.strip():
                missing = f"{sty} is not installed (apt-get install texlive-latex-recommended texlive-latex-extra)"
                break
    if missing:
        if os.environ.get("REQUIRE_LATEX") == "1":
            raise RuntimeError(f"REQUIRE_LATEX=1 but {missing}.")
        pytest.skip(missing)


def _stated_packages(tex: str) -> list[str]:
    """The packages the fragment's opening comment lines say its preamble needs."""
    head = []
    for line in tex.splitlines():
        if not line.startswith("%"):
            break
        head.append(line)
    return re.findall(r"\\usepackage(?:\[[^\]]*\])?\{([^}]+)\}", "\n".join(head))


def _compile(folder: Path, tex: str, *, documentclass: str = "\\documentclass{article}", runs: int = 1,
             extra: str = "") -> str:
    """pdflatex on ``tex`` \\input in an article with the packages it names; the log of the last run."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "part.tex").write_text(tex, encoding="utf-8")
    packages = "".join(f"\\usepackage{{{p}}}\n" for p in dict.fromkeys(_stated_packages(tex)) if p != "fontenc")
    (folder / "doc.tex").write_text(f"{documentclass}\n\\usepackage[T1]{{fontenc}}\n{packages}{extra}"
                                    "\\begin{document}\n\\input{part.tex}\n\\end{document}\n", encoding="utf-8")
    for _ in range(runs):
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=folder,
                             capture_output=True, text=True, errors="replace", timeout=300)
        assert run.returncode == 0, run.stdout[-3000:]
    return (folder / "doc.log").read_text(errors="replace")


def overfull_pt(log: str) -> list[float]:
    """How far each overfull line of a LaTeX log sticks out ("Overfull \\hbox (12.3pt too wide)"), in pt."""
    return [float(v) for v in re.findall(r"Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)", log)]


def test_the_overfull_parser_reads_the_log():
    log = ("Overfull \\hbox (247.24594pt too wide) in paragraph at lines 71--83\nOverfull \\hbox (0.5pt too wide) "
           "detected at line 3\nUnderfull \\hbox (badness 10000)")
    assert overfull_pt(log) == [247.24594, 0.5]


@pytest.mark.parametrize("which", ["sample", "14 long names"])
def test_every_latex_output_fits_an_articles_text_width(tmp_path, tables, which):
    """Compiled one by one in \\documentclass{article} (345 pt) with the packages each names: no overfull line
    over 5 pt, no float taller than the page."""
    _latex_or_skip("booktabs.sty", "tikz.sty", "natbib.sty", "longtable.sty")
    table, path = tables[which]
    too_wide = {}
    for i, (name, tex) in enumerate(_outputs(table, path).items()):
        log = _compile(tmp_path / f"o{i}", tex)
        widths = [w for w in overfull_pt(log) if w > TOLERANCE_PT]
        if widths:
            too_wide[name] = widths
        assert "Float too large" not in log, name
    assert not too_wide, f"{which}: overfull by (pt) {too_wide}"


@pytest.mark.parametrize("wide,documentclass,width", [
    ("table*", "\\documentclass[twocolumn]{article}", None),
    ("landscape", "\\documentclass{article}", None),
    (None, "\\documentclass[twocolumn]{article}", 229.5),  # one column of a two-column article
])
def test_the_wide_layouts_fit_where_they_go(tmp_path, tables, wide, documentclass, width):
    _latex_or_skip("booktabs.sty", "tikz.sty", "natbib.sty", "longtable.sty", "pdflscape.sty")
    table, _ = tables["14 long names"]
    a = _quiet(cl.analyze, table)
    parts = {"scores": cl.report.scores_table(table, caption="Scores", wide=wide, width=width),
             "posthoc": cl.report.posthoc_latex(a.posthoc, caption="Pairs", wide=wide, width=width)}
    if wide is None:
        parts["report"] = a.to_latex(width=width)
    for name, tex in parts.items():
        if wide == "table*":
            assert "\\begin{table*}" in tex and "longtable" not in tex  # longtable cannot span two columns
        if wide == "landscape":
            assert "\\begin{landscape}" in tex and "pdflscape" in tex.splitlines()[0]
        log = _compile(tmp_path / name, tex, documentclass=documentclass)
        assert [w for w in overfull_pt(log) if w > TOLERANCE_PT] == [], (wide, name)


def test_a_table_too_wide_for_one_block_is_split_and_long_names_get_codes(tables):
    table, _ = tables["14 long names"]
    blocks = lambda tex: len(re.findall(r"\\begin\{(?:tabular|longtable)\}", tex))
    tex = cl.report.scores_table(table, caption="Scores")
    assert blocks(tex) > 1 and "blocks to fit the text width" in tex
    assert "Abbreviations: C1 = RandomForestClassifier" in tex
    assert tex.count("average rank") == blocks(tex)  # every block has its average ranks
    wide = cl.report.scores_table(table, caption="Scores", wide="landscape")
    assert blocks(wide) < blocks(tex)
    sample, _ = tables["sample"]
    small = cl.report.scores_table(sample, caption="Scores")
    assert small.count("\\begin{tabular}") == 1 and "Abbreviations" not in small
    with pytest.raises(cl.InputError, match="wide="):
        cl.report.scores_table(sample, wide="sideways")
    with pytest.raises(cl.InputError, match="width="):
        cl.report.scores_table(sample, width=10)


def test_the_posthoc_table_is_compact(tables):
    sample, _ = tables["sample"]
    frame = cl.with_effect_sizes(cl.posthoc(sample), sample, "hodges_lehmann")
    tex = cl.report.posthoc_latex(frame, caption="Pairs")
    header = next(line for line in tex.splitlines() if line.startswith("$a$"))
    assert header == "$a$ & $b$ & stat. & $p$ & adj.\\ $p$ & better & HL [95\\% CI] \\\\"
    assert "\\small" in tex and "adjusted by Holm's procedure" in tex and "Abbreviations" not in tex
    assert re.search(r"\$-\$0\.\d{3} \[\$-\$0\.\d{3}, \$-\$0\.\d{3}\]", tex)  # effect [CI] in one column, minus signs
    long, _ = tables["14 long names"]
    tex = cl.report.posthoc_latex(cl.posthoc(long), caption="Pairs")
    assert "\\begin{longtable}" in tex and "longtable" in tex.splitlines()[0]  # 91 rows break across pages
    assert "Abbreviations: C1 = RandomForestClassifier;" in tex


# -- citations -----------------------------------------------------------------------------------------------------

def _cited_keys(tex: str) -> list[str]:
    return sorted({k.strip() for m in re.finditer(r"\\cite(?:t|p|alp)(?:\[[^\]]*\])?\{([^}]*)\}", tex)
                   for k in m.group(1).split(",")})


def test_the_latex_report_cites_with_natbib_and_carries_exactly_its_bibliography(tables):
    sample, _ = tables["sample"]
    a = _quiet(cl.analyze, sample)
    tex = a.to_latex()
    assert "following \\citet{demsar2006}" in tex
    assert "\\citep{wilcoxon1945,benavoli2016}" in tex and "\\citep[\\S{}3]{holm1979,garcia2008}" in tex
    assert "\\citep{friedman1937,friedman1940}" in tex and "\\citep{iman1980}" in tex
    assert "natbib" in tex.splitlines()[1]
    bibliography = tex.split("\\begin{thebibliography}")[1]
    items = re.findall(r"\\bibitem\[[^\]]*\]\{([^}]+)\}", bibliography)
    references = a.references()
    assert sorted(items) == _cited_keys(tex) == sorted(r["key"] for r in references)
    assert items == [r["key"] for r in references]  # alphabetical, as an author-year list
    bib = a.to_bibtex()
    assert sorted(re.findall(r"@\w+\{([^,]+),", bib)) == sorted(items)
    assert "\\bibitem[Dem{\\v{s}}ar(2006)]{demsar2006}" in bibliography
    assert "\\bibitem[Benavoli et~al.(2016)Benavoli, Corani, and Mangili]{benavoli2016}" in bibliography
    # A Bayesian analysis cites the Bayesian tests too.
    bayes = _quiet(cl.analyze, sample, rope=0.01, bayesian_samples=2000)
    keys = [r["key"] for r in bayes.references()]
    assert "benavoli2017" in keys and "benavoli2014" in keys
    assert sorted(keys) == _cited_keys(bayes.to_latex())


def test_the_references_are_right_and_one_list_in_every_format(tables):
    sample, _ = tables["sample"]
    a = _quiet(cl.analyze, sample, correction="bergmann-hommel")
    refs = {r["key"]: r for r in a.references()}
    demsar = refs["demsar2006"]
    assert demsar["authors"] == ["Demšar, Janez"] and demsar["year"] == "2006"
    assert demsar["title"] == "Statistical Comparisons of Classifiers over Multiple Data Sets"
    assert (demsar["venue"], demsar["volume"], demsar["pages"]) == ("Journal of Machine Learning Research", "7", "1–30")
    garcia = refs["garcia2008"]
    assert garcia["authors"] == ["García, Salvador", "Herrera, Francisco"]
    assert (garcia["volume"], garcia["pages"]) == ("9", "2677–2694")
    assert refs["bergmann1988"]["type"] == "incollection" and refs["bergmann1988"]["pages"] == "100–115"
    payload = json.loads(a.to_json())
    assert [r["key"] for r in payload["references"]] == list(refs)
    for r in payload["references"]:
        assert {"key", "authors", "year", "title", "venue"} <= set(r) and r["authors"] and r["title"]
    html, markdown = a.to_html(figures=False), a.to_markdown(figures=False)
    for r in refs.values():
        assert r["text"].replace("&", "&amp;") in html
        assert r["bibtex"].splitlines()[0] in markdown
    # The library knows the works the brief names, with their details.
    known = {r["key"]: r for r in (cl.report.reference(w) for w in cl.report.works(
        "Benavoli et al. 2016; Benavoli et al. 2017; Bouckaert & Frank 2004; Holm 1979; Shaffer 1986; Hochberg 1988; "
        "Hommel 1988; Friedman 1937, 1940; Iman & Davenport 1980; Wilcoxon 1945; Nemenyi 1963"))}
    assert (known["benavoli2016"]["volume"], known["benavoli2016"]["number"], known["benavoli2016"]["pages"]) == (
        "17", "5", "1–10")
    assert (known["benavoli2017"]["volume"], known["benavoli2017"]["number"]) == ("18", "77")
    assert known["bouckaert2004"]["venue"].startswith("Advances in Knowledge Discovery and Data Mining (PAKDD 2004)")
    assert known["friedman1940"]["venue"] == "The Annals of Mathematical Statistics"
    assert len(known) == 12


def test_the_latex_report_compiles_with_natbib_and_without(tmp_path, tables):
    """With natbib: author-year, every citation resolved by pdflatex alone (two runs, no BibTeX). Without natbib
    the fragment still compiles (its citations fall back to \\cite). Its BibTeX works with bibtex and plainnat."""
    _latex_or_skip("booktabs.sty", "tikz.sty", "natbib.sty")
    sample, _ = tables["sample"]
    a = _quiet(cl.analyze, sample)
    tex = a.to_latex()
    log = _compile(tmp_path / "natbib", tex, runs=2)
    assert not re.search(r"Citation `[^']+' on page \d+ undefined", log)
    bare = tex.replace("\\usepackage{natbib}", "")  # the preamble without natbib
    assert "natbib" not in _stated_packages(bare)
    _compile(tmp_path / "bare", bare)
    if shutil.which("bibtex") is None:
        return
    folder = tmp_path / "bibtex"
    folder.mkdir()
    (folder / "refs.bib").write_text(a.to_bibtex(), encoding="utf-8")
    keys = ",".join(r["key"] for r in a.references())
    (folder / "doc.tex").write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{natbib}\n"
                                    f"\\begin{{document}}\n\\citep{{{keys}}}\n\\bibliographystyle{{plainnat}}\n"
                                    "\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
    for command in (["pdflatex", "-interaction=nonstopmode", "doc.tex"], ["bibtex", "doc"],
                    ["pdflatex", "-interaction=nonstopmode", "doc.tex"], ["pdflatex", "-interaction=nonstopmode", "doc.tex"]):
        run = subprocess.run(command, cwd=folder, capture_output=True, text=True, errors="replace", timeout=300)
        assert run.returncode == 0, (command, run.stdout[-2000:])
    blg = (folder / "doc.blg").read_text(errors="replace")
    assert "error message" not in blg and "Warning--" not in blg, blg
    assert not re.search(r"Citation `[^']+' on page \d+ undefined", (folder / "doc.log").read_text(errors="replace"))


def test_citations_of_unknown_works_stay_text():
    from compare_lib.render._document import latex_text
    from compare_lib.render._references import latex_cites

    text = "as Foo (2001) and (Bar, 1999; Holm, 1979) show (higher is better) (Demšar, 2006, §3.2.1)"
    out = latex_cites(text, latex_text)
    assert out == ("as Foo (2001) and (Bar, 1999; \\citealp{holm1979}) show (higher is better) "
                   "\\citep[\\S{}3.2.1]{demsar2006}")


# -- group header rows -------------------------------------------------------------------------------------------

def test_group_header_rows_are_read_as_groups_not_glued_to_the_names():
    results = _quiet(cl.read_results, DATA / "formats" / "paper_groups.tex")
    assert results.classifiers == ["CatBoost", "XGBoost", "LightGBM", "MLP", "SAINT"]
    assert len(results.datasets) == 10 and "Avg. rank" not in results.datasets
    note = next(n for n in results.notes if "column groups" in n)
    assert note.endswith("column groups: Tree ensembles (CatBoost, XGBoost, LightGBM); Neural (MLP, SAINT)")
    table = _quiet(results.table, higher_is_better=True)
    assert table.scores.loc["adult"].tolist() == [87.4, 87.1, 87.2, 85.0, 86.1]  # bold and ± std removed
    a = _quiet(cl.analyze, table)
    assert "Tree ensembles" not in a.paragraph() and "Tree ensembles" not in a.to_latex().split("\\begin{table}")[0]
    assert any("column groups" in n for n in table.notes)


@pytest.mark.parametrize("header,names,grouped", [
    # a heading over the measures of one classifier: combined, as before
    ("Data & \\multicolumn{2}{c}{SVM} \\\\\n & acc & f1 \\\\\n", ["SVM acc", "SVM f1"], False),
    # the same names under two headings: combined
    ("Data & \\multicolumn{2}{c}{Fold A} & \\multicolumn{2}{c}{Fold B} \\\\\n & SVM & RF & SVM & RF \\\\\n",
     ["Fold A SVM", "Fold A RF", "Fold B SVM", "Fold B RF"], False),
    # two levels of groups above the names
    ("Data & \\multicolumn{3}{c}{Models} \\\\\n & \\multicolumn{2}{c}{Trees} & Neural \\\\\n & RF & GBT & MLP \\\\\n",
     ["RF", "GBT", "MLP"], True),
])
def test_header_rows_groups_or_combined(header, names, grouped):
    width = len(names)
    text = header + "iris & " + " & ".join(str(0.9 - 0.01 * j) for j in range(width)) + " \\\\\n" + \
        "wine & " + " & ".join(str(0.8 + 0.01 * j) for j in range(width)) + " \\\\\n"
    results = _quiet(cl.read_results, text, format="latex")
    assert results.classifiers == names
    assert any("column groups" in n for n in results.notes) == grouped
    if grouped:
        note = next(n for n in results.notes if "column groups" in n)
        assert "Models (RF, GBT, MLP)" in note and "Trees (RF, GBT)" in note


# -- the paragraph holds no note on the data -----------------------------------------------------------------------

def test_the_paragraph_has_no_cleaning_notes_and_the_data_section_has_them(tmp_path):
    rows = ["dataset,classifier,fold,accuracy,"]  # a trailing empty column is left out with a note
    rng = np.random.default_rng(1)
    for d in ["iris", "wine", "glass", "vehicle", "sonar", "heart", "ionosphere", "diabetes"]:
        for c in ["Trees", "Kernels", "Bayes"]:
            for fold in range(3):
                rows.append(f"{d},{c},{fold},{0.7 + 0.1 * rng.random() + (0.05 if c == 'Trees' else 0):.4f},")
    rows.append("breast,Trees,0,0.9,")  # a data set with one classifier only: dropped with a note
    path = tmp_path / "cv results.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    table = _quiet(cl.read_results(path).table, "accuracy", higher_is_better=True, missing="drop-datasets")
    notes = list(table.notes)
    assert any("fold" in n.lower() for n in notes) and any("breast" in n for n in notes), notes
    a = _quiet(cl.analyze, table)
    paragraph = a.paragraph()
    for note in notes:
        assert note not in paragraph
        assert note[:40] not in paragraph
    for word in ("Averaged", "mean of 3", "Dropped", "dropped", "Data:", "breast", "fold"):
        assert word not in paragraph, word
    html = a.to_html(figures=False)
    data_section = html.split("<h2>Data</h2>")[1].split("<h2>")[0]
    import html as html_module

    for note in notes:
        assert html_module.escape(note) in data_section
    assert json.loads(a.to_json())["data"]["notes"] == notes
    tex = a.to_latex()
    assert all(note not in tex for note in notes)
    # missing scores kept as missing are a method, not a note: the paragraph says how the tests treat them
    holes = _quiet(cl.read_results(path).table, "accuracy", higher_is_better=True, missing="pairwise")
    assert "each pair of classifiers was compared on the data sets where both have a score" in _quiet(
        cl.analyze, holes).paragraph()


# -- the command line's LaTeX --------------------------------------------------------------------------------------

def _latex_rows(tex: str) -> tuple[list[str], list[list[str]]]:
    lines = tex.splitlines()
    start = lines.index("\\midrule")
    header = [c.strip() for c in lines[start - 1].removesuffix("\\\\").split(" & ")]
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("\\bottomrule"):
            break
        rows.append([c.strip() for c in line.removesuffix("\\\\").split(" & ")])
    return header, rows


def test_the_cli_latex_leaves_better_empty_where_nothing_is_significant(tmp_path):
    out = _cli("posthoc", str(SAMPLE), "--format", "latex")
    header, rows = _latex_rows(out)
    better, adjusted = header.index("better"), header.index("adj.\\ $p$")
    assert len(rows) == 6
    significant = [r for r in rows if float(r[adjusted].replace("$<$", "")) <= 0.05]
    assert [(r[0], r[1], r[better]) for r in significant] == [("C4.5", "C4.5+m", "C4.5+m")]
    assert all(r[better] == "" for r in rows if r not in significant)
    # A table where no pair differs: the column is empty on every row.
    flat = tmp_path / "flat.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame(rng.uniform(0.7, 0.8, size=(8, 3)), index=[f"d{i}" for i in range(8)],
                 columns=["A", "B", "C"]).to_csv(flat, index_label="dataset")
    header, rows = _latex_rows(_cli("posthoc", str(flat), "--format", "latex"))
    assert rows and all(r[header.index("better")] == "" for r in rows)
    assert "empty: not significant" in _cli("posthoc", str(flat), "--format", "latex")


def test_the_cli_writes_the_bibtex_and_takes_the_wide_options(tmp_path):
    bib = _cli("report", str(SAMPLE), "--to", "bibtex")
    assert "@article{demsar2006," in bib and "@article{holm1979," in bib
    out = _cli("ranks", str(SAMPLE), "--format", "latex", "--wide", "landscape")
    assert "\\begin{landscape}" in out
    out = _cli("posthoc", str(SAMPLE), "--format", "latex", "--text-width", "229.5")
    assert "\\begin{table}" in out


# -- renaming ------------------------------------------------------------------------------------------------------

def test_rename_returns_a_new_table_with_a_note_and_everything_else_kept():
    table = _quiet(cl.read_results(ROOT / "sample_data" / "fold_level_example.csv").table, higher_is_better=True)
    renamed = table.rename({table.classifiers[0]: "Mine"}, {table.datasets[0]: "First"})
    assert renamed is not table and table.classifiers[0] != "Mine"  # the original is unchanged
    assert renamed.classifiers[0] == "Mine" and renamed.datasets[0] == "First"
    assert renamed.scores.to_numpy().tolist() == table.scores.to_numpy().tolist()
    for field in ("higher_is_better", "metric", "missing", "source", "direction_stated", "direction_reason"):
        if hasattr(table, field):
            assert getattr(renamed, field) == getattr(table, field), field
    assert renamed.notes[:-1] == table.notes
    assert renamed.notes[-1] == (f"Renamed classifiers: {table.classifiers[0]!r} → 'Mine'; data sets: "
                                 f"{table.datasets[0]!r} → 'First'")
    if table.folds is not None:
        assert "Mine" in set(renamed.folds["classifier"]) and table.classifiers[0] not in set(renamed.folds["classifier"])
        assert "First" in set(renamed.folds["dataset"])
    assert cl.analyze(renamed).mean_ranks["Mine"] == cl.analyze(table).mean_ranks[table.classifiers[0]]
    assert table.rename() is table and table.rename({table.classifiers[0]: table.classifiers[0]}) is table
    # swapping two names is a rename like any other
    a, b = table.classifiers[:2]
    swapped = table.rename({a: b, b: a})
    assert swapped.classifiers[:2] == [b, a]


def test_rename_refuses_unknown_empty_and_duplicate_names_naming_them():
    table = _quiet(cl.load_scores, SAMPLE, higher_is_better=True)
    with pytest.raises(cl.InputError, match=r"Cannot rename 'C5\.0': not among the classifiers"):
        table.rename({"C5.0": "x"})
    with pytest.raises(cl.InputError, match=r"Cannot rename 'C4\.5' to an empty name"):
        table.rename({"C4.5": "  "})
    with pytest.raises(cl.InputError, match=r"'C4\.5\+m' would name 'C4\.5', 'C4\.5\+m'"):
        table.rename({"C4.5": "C4.5+m"})
    with pytest.raises(cl.InputError, match=r"two data sets the same name: 'X' would name 'cmc', 'iris'|"
                                            r"'X' would name"):
        table.rename(datasets={table.datasets[0]: "X", table.datasets[1]: "X"})
    with pytest.raises(cl.InputError, match="must be a dict"):
        table.rename(["C4.5"])
    with pytest.raises(cl.InputError, match="at most"):
        table.rename({"C4.5": "x" * (cl.limits.MAX_NAME_LENGTH + 1)})


def test_rename_keeps_a_pairwise_table_describing_its_holes_once():
    frame = pd.DataFrame({"A": [0.8, 0.7, np.nan, 0.9], "B": [0.7, 0.6, 0.5, 0.8], "C": [0.6, np.nan, 0.4, 0.7]},
                         index=["d1", "d2", "d3", "d4"])
    table = _quiet(cl.ScoreTable, frame, True, missing="pairwise")
    renamed = _quiet(table.rename, {"A": "Alpha"})
    assert renamed.has_missing and len(renamed.notes) == len(table.notes) + 1
    assert sum("missing" in n.lower() for n in renamed.notes) == sum("missing" in n.lower() for n in table.notes)


def test_parse_renames_reads_old_equals_new_lines():
    assert cl.parse_renames("A = Alpha\n\n# a comment\nB->Beta\nx=y=z\nC.5 = C 5 = five") == {
        "A": "Alpha", "B": "Beta", "x": "y=z", "C.5": "C 5 = five"}
    with pytest.raises(cl.InputError, match="Line 2 .* has no '='"):
        cl.parse_renames("A = B\nno separator")
    with pytest.raises(cl.InputError, match="Line 1 .* leaves a name empty"):
        cl.parse_renames(" = B")
    with pytest.raises(cl.InputError, match="renamed twice"):
        cl.parse_renames("A = B\nA = C")
