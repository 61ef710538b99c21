"""Issue 27 (exports): generated code never executes data; exports are inert and correct; the CLI is careful.

- The reproduce script (:meth:`Analysis.to_python`) once wrote the metric into its docstring: a shared link made
  the downloaded script run a shell command. Every path that makes a script (a ScoreTable, a DataFrame, a pasted
  text, a file with its ``Source``, the CLI) is generated here from hostile names, metric, file name and notes,
  checked with ``ast``/``tokenize`` (the hostile text is only ever inside string literals) and run in an empty
  folder: it exits 0, prints the analysis' own numbers and creates no file.
- LaTeX: a cell starting with "[" or "*" was eaten by the "\\\\" (or "\\midrule") before it; names that pdflatex
  cannot typeset make the fragment say it needs lualatex/xelatex (and it compiles with lualatex + fontspec).
- CSV: "x;=2+5" was written unquoted; a spreadsheet splitting on ";" ran "=2+5".
- CLI: ``-o`` overwrote silently; a FIFO blocked it and /dev/zero was read without end.

Compilers: pdflatex (texlive-latex-base, -recommended, -pictures) and lualatex with fontspec (texlive-luatex, for
luaotfload) with the DejaVu fonts (fonts-dejavu-core); a test skips when its engine is missing, unless
REQUIRE_LATEX=1, which makes it fail instead.
"""

from __future__ import annotations

import ast
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import compare_lib as cl
from compare_lib.render._paper_tables import ENGINE_NOTE_MARK, engine_note, latex_escape, pdflatex_unsupported
from compare_lib.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEMSAR = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"

# -- hostile strings ---------------------------------------------------------------------------------------------

#: Each would run "touch PWNED..." if it escaped its string: through a docstring, a comment or a line break.
PAYLOAD = "import os;os.system('touch PWNED{}')#"
DOCSTRING_BREAK = '"""\nimport os; os.system("touch PWNED0")\n"""'
HOSTILE_NAMES = [
    DOCSTRING_BREAK,
    "\n" + PAYLOAD.format(1),  # a line break ends a comment
    "\r" + PAYLOAD.format(2),  # so does a carriage return for Python's tokenizer
    "\u2028" + PAYLOAD.format(3),  # a line separator: not a Python line break, but many editors show one
    "\x0c" + PAYLOAD.format(4),  # form feed
    "\x00" + PAYLOAD.format(5),  # NUL
    "\x85" + PAYLOAD.format(6),  # NEL
    "'''\n" + PAYLOAD.format(7) + "\n'''",
    "\\\n" + PAYLOAD.format(8),  # a backslash continuing a line
    "back\\slash' quote\" {} {0} %s %(x)s",
]
#: The metric and the notes may also hold a lone surrogate (names cannot: pandas refuses them).
HOSTILE_METRIC = '"""\nimport os; os.system("touch PWNED9")\n"""\ud800 %s {}'
HOSTILE_NOTES = ("\n" + PAYLOAD.format(10), "\r\u2028" + PAYLOAD.format(11) + "\udfff", "%s {} \\")
#: Raw characters that must never reach the script's text (repr() escapes them).
RAW_FORBIDDEN = ["\r", "\u2028", "\u2029", "\x0c", "\x00", "\x85", "\ud800", "\udfff"]
#: Names that survive every reader (no NUL: the text decoder refuses it; no lone surrogate).
FILE_NAMES = [DOCSTRING_BREAK, "'''\n" + PAYLOAD.format(7) + "\n'''", "\\\n" + PAYLOAD.format(8),
              "back\\slash' quote\" {} {0} %s %(x)s"]
HOSTILE_FILE = '"""\nimport os; os.system("touch PWNED12")\n"""#.csv'
SCRIPT_NAMES = {"cl", "pd", "Path", "print", "float", "table", "results", "analysis", "result", "TITLE", "MADE_WITH", "NOTES",
                "DATA_FILE", "CLASSIFIERS", "DATASETS", "SCORES",
                # issue 28: the file's check (gone: a message; changed: a warning), the numbers printed, a source's name
                "DATA_SHA256", "hashlib", "sys", "SystemExit", "__file__", "name", "value", "SOURCE"}
#: What a script may import (hashlib and sys: the data file's SHA-256 check and its warning on stderr).
SCRIPT_IMPORTS = {"compare_lib", "pandas", "pathlib", "hashlib", "sys"}


def _scores(n_rows: int, n_cols: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(0.5, 0.95, (n_rows, n_cols)) + np.linspace(0, 0.1, n_cols), 4)


def _hostile_table(missing: bool = False) -> cl.ScoreTable:
    names = HOSTILE_NAMES[:6]
    datasets = [f"d{i}" for i in range(4)] + HOSTILE_NAMES[5:]
    values = _scores(len(datasets), len(names))
    if missing:
        values[1, 2] = np.nan
    frame = pd.DataFrame(values, index=datasets, columns=names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cl.ScoreTable(frame, True, missing="pairwise" if missing else "error", metric=HOSTILE_METRIC,
                             notes=HOSTILE_NOTES)


def _csv_text(names: list[str], datasets: list[str]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["dataset", *names])
    for ds, row in zip(datasets, _scores(len(datasets), len(names), seed=4)):
        writer.writerow([ds, *(f"{x:.4f}" for x in row)])
    return buf.getvalue()


# -- the script: only data, never code ---------------------------------------------------------------------------

def _table_values(table: cl.ScoreTable) -> list[str]:
    """What a script that carries its scores must hold: the names, the metric and the notes."""
    return [*map(str, table.classifiers), *map(str, table.datasets), *table.notes, *([table.metric] if table.metric
                                                                                     else [])]


def _assert_data_only(script: str, expected_values) -> None:
    """The script compiles; it imports only SCRIPT_IMPORTS; it names only its own variables;
    every "PWNED" sits in a string literal (tokenize); its docstring and comments are our own words; and each of
    ``expected_values`` (names, metric, notes, file name, sheet) is there, exactly, as a literal."""
    compile(script, "reproduce.py", "exec")
    tree = ast.parse(script)
    for raw in RAW_FORBIDDEN:
        assert raw not in script, repr(raw)
    script.encode("utf-8")  # no lone surrogate in the text itself
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= SCRIPT_IMPORTS, imported
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert names <= SCRIPT_NAMES, names - SCRIPT_NAMES
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not attributes & {"system", "popen", "exec", "eval", "run", "remove", "unlink"}, attributes
    doc = ast.get_docstring(tree)
    assert doc.startswith("Reproduces a comparison of classifiers made with compare_lib.") and "PWNED" not in doc
    tokens = list(tokenize.generate_tokens(io.StringIO(script).readline))
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            assert "PWNED" not in tok.string and "import" not in tok.string, tok.string
        elif tok.type != tokenize.STRING:
            assert "PWNED" not in tok.string, tok
    pwned_in_strings = sum(tok.string.count("PWNED") for tok in tokens if tok.type == tokenize.STRING)
    assert pwned_in_strings == script.count("PWNED") > 0  # every occurrence is inside a string literal
    constants = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    expected = list(expected_values)
    assert any("PWNED" in v for v in expected)  # the check below is about hostile text
    for value in expected:
        assert value in constants, value  # kept exactly, as data


def _run_script(script: str, folder: Path, data: dict[str, bytes] | None = None) -> subprocess.CompletedProcess:
    """Run the script in an empty folder (holding only the data file it reads) and check that nothing appeared."""
    folder.mkdir()
    for name, content in (data or {}).items():
        (folder / name).write_bytes(content)
    (folder / "reproduce.py").write_text(script, encoding="utf-8")
    before = sorted(os.listdir(folder))
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:backslashreplace", "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([sys.executable, "reproduce.py"], cwd=folder, capture_output=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")[-3000:]
    assert sorted(os.listdir(folder)) == before  # no PWNED*, nothing at all
    assert not list(folder.parent.glob("PWNED*")) and not list(Path.cwd().glob("PWNED*"))
    return run


def _out(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


def _assert_same_numbers(run: subprocess.CompletedProcess, a) -> None:
    """The script prints the analysis' own summary (Friedman or Skillings-Mack statistic and p-values, mean ranks,
    each pair's p and adjusted p) and its post-hoc table."""
    out = run.stdout
    assert _out(a.summary()) in out
    first = next(iter(a.omnibus.values()))
    assert f"{first.statistic:.2f}".encode() in out
    cols = ["a", "b", "statistic", "p", "p_adj", "reject", "better", "effect"]
    assert _out(a.posthoc[cols].to_string(index=False)) in out
    for p in a.posthoc["p_adj"]:
        assert f"{p:.6g}".encode() in out


def test_script_from_a_hostile_table_is_data_only_and_reproduces(tmp_path):
    table = _hostile_table()
    assert table.metric == HOSTILE_METRIC and set(HOSTILE_NOTES) <= set(table.notes)
    a = cl.analyze(table, control=table.classifiers[0], correction="holm", effect_measure="cohens_dz")
    script = a.to_python()
    _assert_data_only(script, _table_values(table))
    assert "SCORES = [" in script and "control=" in script
    run = _run_script(script, tmp_path / "run")
    _assert_same_numbers(run, a)


def test_script_with_missing_cells(tmp_path):
    table = _hostile_table(missing=True)
    a = cl.analyze(table, test="sign", correction="hochberg")
    script = a.to_python()
    _assert_data_only(script, _table_values(table))
    assert "None" in script and "skillings_mack" in script
    run = _run_script(script, tmp_path / "run")
    _assert_same_numbers(run, a)


def test_script_from_a_dataframe(tmp_path):
    frame = pd.DataFrame(_scores(8, 4, seed=2), index=[f"set {i}" for i in range(4)] + HOSTILE_NAMES[6:],
                         columns=HOSTILE_NAMES[:4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = cl.analyze(frame, higher_is_better=False, rope=0.01, seed=3, bayesian_samples=2000)
    script = a.to_python()
    _assert_data_only(script, _table_values(a.table))
    assert "rope=0.01, seed=3" in script
    run = _run_script(script, tmp_path / "run")
    _assert_same_numbers(run, a)


def test_script_from_a_pasted_text(tmp_path):
    text = _csv_text(FILE_NAMES, [f"d{i}" for i in range(5)] + FILE_NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = cl.load_scores(text, higher_is_better=True)
    assert table.classifiers == FILE_NAMES  # read as written
    a = cl.analyze(table)
    script = a.to_python()
    _assert_data_only(script, _table_values(table))
    _assert_same_numbers(_run_script(script, tmp_path / "run"), a)


def test_script_from_a_file_with_a_hostile_name_and_selection(tmp_path):
    """The file name and the selection (as the dashboard records them) are literals; the script reads the file
    next to it, by a Path, even though its name holds line breaks."""
    data = _csv_text(FILE_NAMES, [f"d{i}" for i in range(5)] + FILE_NAMES).encode("utf-8")
    (tmp_path / HOSTILE_FILE).write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = cl.load_scores(tmp_path / HOSTILE_FILE, higher_is_better=True)
        keep = tuple(FILE_NAMES[:3])
        datasets = tuple(full.datasets[1:])
        sub = full.subset(classifiers=keep, datasets=datasets)
        source = cl.Source(HOSTILE_FILE, read={"format": "csv", "sep": ","},
                           table={"metric": None, "higher_is_better": True, "missing": "error", "aggregate": "mean"},
                           classifiers=keep, datasets=datasets)
        a = cl.analyze(sub, source=source)
    script = a.to_python()
    _assert_data_only(script, [HOSTILE_FILE, *keep, *datasets, *sub.notes])
    assert "DATA_FILE = " in script and "SCORES" not in script
    run = _run_script(script, tmp_path / "run", data={HOSTILE_FILE: data})
    _assert_same_numbers(run, a)


def test_script_keeps_a_hostile_sheet_and_read_options_as_literals():
    """Read options (a sheet's name, a separator) are literals too; checked without running (no such workbook)."""
    table = _hostile_table()
    sheet = HOSTILE_NAMES[0] + "\u2028" + PAYLOAD.format(13)
    source = cl.Source(HOSTILE_FILE + "\r\x0c.xlsx", read={"sheet": sheet, "sep": "\t", "fold_cols": ["\n#x", "y"]},
                       table={"metric": HOSTILE_METRIC, "aggregate": "median"})
    script = cl.analyze(table, source=source).to_python()
    _assert_data_only(script, [sheet, HOSTILE_FILE + "\r\x0c.xlsx", "\n#x", HOSTILE_METRIC, *table.notes])
    assert "aggregate='median'" in script and "sep='\\t'" in script


def test_script_made_by_the_cli_from_a_hostile_file(tmp_path):
    data = _csv_text(FILE_NAMES, [f"d{i}" for i in range(5)] + FILE_NAMES).encode("utf-8")
    (tmp_path / HOSTILE_FILE).write_bytes(data)
    out = tmp_path / "reproduce.py"
    result = CliRunner().invoke(main, ["report", str(tmp_path / HOSTILE_FILE), "--higher-is-better", "-o", str(out)])
    assert result.exit_code == 0, result.output
    script = out.read_text(encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = cl.load_scores(tmp_path / HOSTILE_FILE, higher_is_better=True)
    # issue 28: the file is read again where it was read (its absolute path), from any folder
    _assert_data_only(script, [str((tmp_path / HOSTILE_FILE).resolve()), *table.notes])
    run = _run_script(script, tmp_path / "run")
    assert _out(cl.analyze(table).summary()) in run.stdout


def test_script_refuses_a_value_that_has_no_literal():
    """A value whose repr() is not a literal (an object, NaN) is refused rather than written as code."""
    from compare_lib.render._document import _literal

    assert _literal("a\u2028b\r\x00") == "'a\\u2028b\\r\\x00'"
    assert _literal(np.float64(0.5)) == "0.5" and _literal(np.str_("x")) == "'x'" and _literal(np.int64(3)) == "3"
    for bad in (float("nan"), object(), {1, 2}, np.datetime64("2020-01-01")):
        with pytest.raises(ValueError):
            _literal(bad)


# -- LaTeX ---------------------------------------------------------------------------------------------------------

OPTION_NAMES = ["[2pt] x", "*star", "[", "*", " [lead", "*[both]"]


def _latex_or_skip(engine: str = "pdflatex", packages: tuple[str, ...] = ("booktabs.sty", "tikz.sty")) -> None:
    missing = None
    if shutil.which(engine) is None:
        missing = f"{engine} is not installed (apt-get install texlive-latex-base)"
    else:
        for sty in packages:
            found = subprocess.run(["kpsewhich", sty], capture_output=True, text=True).stdout.strip()
            if not found:
                missing = f"{sty} is not installed" + (" (apt-get install texlive-luatex)" if sty.startswith("luaotf")
                                                       else " (apt-get install texlive-latex-recommended texlive-pictures)")
                break
    if missing:
        if os.environ.get("REQUIRE_LATEX") == "1":
            raise RuntimeError(f"REQUIRE_LATEX=1 but {missing}.")
        pytest.skip(missing)


def _compile(tmp_path: Path, preamble: str, parts: list[str], engine: str = "pdflatex") -> subprocess.CompletedProcess:
    for i, part in enumerate(parts):
        (tmp_path / f"p{i}.tex").write_text(part, encoding="utf-8")
    doc = ("\\documentclass{article}\n" + preamble + "\\usepackage{booktabs}\n\\usepackage{tikz}\n"
           "\\begin{document}\n" + "".join(f"\\input{{p{i}.tex}}\n\\clearpage\n" for i in range(len(parts)))
           + "\\end{document}\n")
    (tmp_path / "doc.tex").write_text(doc, encoding="utf-8")
    run = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, errors="replace", timeout=600)
    assert run.returncode == 0, run.stdout[-3000:]
    return run


def _pdflatex_preamble() -> str:
    """T1 fonts, in Latin Modern when it is there (fonts-lmodern): pdftotext then reads the accents back."""
    lmodern = subprocess.run(["kpsewhich", "lmodern.sty"], capture_output=True, text=True).stdout.strip()
    return "\\usepackage[T1]{fontenc}\n" + ("\\usepackage{lmodern}\n" if lmodern else "")


def _pdf_text(pdf: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          timeout=60).stdout


def _body_rows(tex: str) -> list[str]:
    """The data rows of the first tabular: between \\midrule and the next rule."""
    body = tex.split("\\midrule\n", 1)[1].split("\n\\midrule")[0].split("\n\\bottomrule")[0]
    return [line for line in body.splitlines() if line.endswith("\\\\")]


def _option_table() -> cl.ScoreTable:
    frame = pd.DataFrame(_scores(len(OPTION_NAMES) + 2, len(OPTION_NAMES), seed=5),
                         index=[*OPTION_NAMES, "plain", "last"], columns=OPTION_NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cl.ScoreTable(frame, True, metric="[acc]")


def test_latex_cells_starting_with_a_bracket_or_star_are_shielded():
    t = _option_table()
    assert [n.strip() for n in t.classifiers] == [n.strip() for n in OPTION_NAMES]
    scores = cl.report.scores_table(t)
    rows = _body_rows(scores)
    assert len(rows) == t.n_datasets
    for row in rows[:len(OPTION_NAMES)]:
        assert row.startswith("{}"), row  # the first cell after "\\" and after \midrule
    post = cl.report.to_latex(cl.posthoc(t, "wilcoxon", "holm"))
    for row in _body_rows(post):
        if re.match(r"\s*[\[*]", row.split(" & ")[0].removeprefix("{}")):
            assert row.startswith("{}"), row
    assert latex_escape("*x") == "{}*x" and latex_escape(" [x") == "{} [x"
    assert latex_escape("x[2pt]") == "x[2pt]"  # only at the start
    report = cl.analyze(t).to_latex()
    assert "\n[" not in report and "\n*" not in report and "\n [" not in report
    from compare_lib.render._cd_static import cd_tikz

    tikz = cd_tikz(cl.posthoc(t, as_result=True))
    assert "{}[2pt] x" in tikz and "{}*star" in tikz


def test_latex_with_bracket_and_star_names_compiles_and_keeps_them(tmp_path):
    """pdflatex typesets every name whole; without the "{}" the same table loses them (the check can fail)."""
    _latex_or_skip()
    from compare_lib.render._cd_static import cd_tikz

    t = _option_table()
    a = cl.analyze(t, test="mean-ranks", correction="nemenyi")
    scores = cl.report.scores_table(t, caption="Scores")
    parts = [scores, a.to_latex(), cl.report.to_latex(cl.posthoc(t, "wilcoxon", "holm"), caption="Pairs"),
             cd_tikz(cl.posthoc(t, as_result=True))]
    _compile(tmp_path, _pdflatex_preamble(), parts)
    text = _pdf_text(tmp_path / "doc.pdf")
    if text is not None:
        lines = text.splitlines()
        for name in ("[2pt] x", "*star", "*[both]", "[lead"):
            assert name in text, name
        # The scores table: each data set's row starts with its name.
        for name in OPTION_NAMES:
            assert any(line.strip().startswith(name.strip() + " ") for line in lines), name
    # The same table without the shield: the names are eaten (or the file does not compile).
    unshielded = scores.replace("\n{}", "\n")
    assert unshielded != scores
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "p0.tex").write_text(unshielded, encoding="utf-8")
    (bare / "doc.tex").write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
                                  "\\begin{document}\n\\input{p0.tex}\n\\end{document}\n", encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=bare,
                         capture_output=True, text=True, errors="replace", timeout=300)
    broken_text = _pdf_text(bare / "doc.pdf") if (bare / "doc.pdf").exists() else ""
    assert run.returncode != 0 or (broken_text is not None and "[2pt] x" not in broken_text)


NON_LATIN = ["αβγ-Net", "Случайный лес", "中文模型", "😀 emoji"]
LATIN = ["Demšar é ü", "Straße ø", "Łódź Ÿ", "naïve–Bayes"]


def _named_table(names, seed=6) -> cl.ScoreTable:
    frame = pd.DataFrame(_scores(6, len(names), seed=seed), index=[*names[:2], "d3", "d4", "d5", "d6"], columns=names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cl.ScoreTable(frame, True, metric="accuracy")


def _all_latex(t: cl.ScoreTable) -> dict[str, str]:
    from compare_lib.render._cd_static import cd_tikz

    return {"scores": cl.report.scores_table(t), "posthoc": cl.report.to_latex(cl.posthoc(t, "wilcoxon", "holm")),
            "report": cl.analyze(t).to_latex(), "tikz": cd_tikz(cl.posthoc(t, as_result=True))}


def test_non_latin_names_make_the_fragment_name_its_engine():
    """pdflatex (T1, utf8) stays the engine for Latin text; Greek, Cyrillic, CJK or emoji make every LaTeX export
    say at its top that it needs lualatex or xelatex with fontspec, and which characters."""
    for key, tex in _all_latex(_named_table(LATIN)).items():
        assert ENGINE_NOTE_MARK not in tex, key
        assert pdflatex_unsupported(tex) == [], key
    for key, tex in _all_latex(_named_table(NON_LATIN)).items():
        head = tex.split("\n\\begin{")[0]
        assert tex.count("Compile with lualatex or xelatex") == 1, key  # once, near the top
        assert "\\usepackage{fontspec}" in head and re.search(r"and \d+ more", head), key
        shown = re.findall(r"(\S) \(U\+([0-9A-F]{4,5})\)", head)
        assert len(shown) == 8 and all(ord(ch) == int(code, 16) for ch, code in shown), key
        assert {ch for ch, _ in shown} <= set("".join(NON_LATIN)), key
        first = tex.splitlines()[0]
        assert not first.startswith(ENGINE_NOTE_MARK)  # the fragment's own first comment stays first
    assert engine_note("plain ascii & Demšar") == ""
    # Comment lines never carry a separator or a control character from the data.
    note = engine_note("x\u2028y\u0301z中😀")
    assert "\u2028" not in note and "\u0301" not in note and "U+2028" in note and "中 (U+4E2D)" in note
    assert "😀 (U+1F600)" in note and all(line.startswith(ENGINE_NOTE_MARK) for line in note.splitlines())


def test_latin_names_compile_with_pdflatex(tmp_path):
    _latex_or_skip()
    parts = list(_all_latex(_named_table(LATIN)).values())
    _compile(tmp_path, _pdflatex_preamble(), parts)
    text = _pdf_text(tmp_path / "doc.pdf")
    if text is not None and "lmodern" in _pdflatex_preamble():
        for name in ("Demšar é ü", "Straße ø", "Łódź Ÿ"):
            assert name in text, name


def test_greek_and_cyrillic_names_compile_with_lualatex_and_fontspec(tmp_path):
    """The preamble the note asks for (fontspec and a font with the characters) compiles every export with
    lualatex, and the names are in the PDF (no "Missing character")."""
    _latex_or_skip("lualatex", ("fontspec.sty", "luaotfload.sty", "booktabs.sty", "tikz.sty"))
    if not any(Path(d).glob("**/DejaVuSerif.ttf") for d in ("/usr/share/fonts", "/usr/local/share/fonts")
               if Path(d).exists()):
        if os.environ.get("REQUIRE_LATEX") == "1":
            raise RuntimeError("REQUIRE_LATEX=1 but the DejaVu fonts are missing (apt-get install fonts-dejavu-core).")
        pytest.skip("the DejaVu fonts are missing (apt-get install fonts-dejavu-core)")
    names = NON_LATIN[:2] + LATIN[:2]
    parts = list(_all_latex(_named_table(names)).values())
    assert all(ENGINE_NOTE_MARK in p for p in parts)
    run = _compile(tmp_path, "\\usepackage{fontspec}\n\\setmainfont{DejaVu Serif}\n", parts, engine="lualatex")
    log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    assert "Missing character" not in log, [line for line in log.splitlines() if "Missing character" in line][:5]
    assert run.returncode == 0
    text = _pdf_text(tmp_path / "doc.pdf")
    if text is not None:
        for name in names:
            assert name in text, name


def test_non_latin_names_stop_pdflatex_which_is_why_the_note_is_there(tmp_path):
    _latex_or_skip()
    tex = cl.report.scores_table(_named_table(NON_LATIN[:1] + LATIN[:1]))
    (tmp_path / "p.tex").write_text(tex, encoding="utf-8")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
                                      "\\begin{document}\n\\input{p.tex}\n\\end{document}\n", encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, errors="replace", timeout=300)
    assert run.returncode != 0 and "U+03B1" in run.stdout


# -- CSV -----------------------------------------------------------------------------------------------------------

CSV_CELLS = ["x;=2+5", "a,b=1", "a\t=1", "a|=1", "=1+1", " +cmd", "a, @SUM(1)", "x\n-2+3", "plain", "C4.5+m"]
FORMULA = ("=", "+", "-", "@")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_csv_cells_with_a_formula_after_a_separator_are_quoted_and_neutralised():
    frame = pd.DataFrame({"name": CSV_CELLS, "p": [0.5, -0.25, 1e-9, 2.0, -3.0, 0.1, 0.2, 0.3, 0.4, 0.6],
                          "n": list(range(-5, 5))})
    text = cl.report.to_csv(frame)
    lines = text.split("\n")
    assert lines[0] == "name,p,n"
    assert "\"x;'=2+5\",0.5,-5" in text and "\"a|'=1\",2.0,-2" in text and "\"a,b=1\"," in text
    assert "plain,0.4,3" in text and "C4.5+m,0.6,4" in text  # nothing to protect: written as before
    # Read back as CSV: the text cells, neutralised; the numbers, numbers.
    rows = list(csv.reader(io.StringIO(text)))
    assert [r[0] for r in rows[1:]] == ["x;'=2+5", "a,b=1", "a\t'=1", "a|'=1", "'=1+1", " '+cmd", "a, '@SUM(1)",
                                        "x\n'-2+3", "plain", "C4.5+m"]
    assert [float(r[1]) for r in rows[1:]] == list(frame["p"]) and [int(r[2]) for r in rows[1:]] == list(frame["n"])
    # A spreadsheet splitting on another separator (honouring quotes or not) finds no cell that starts a formula.
    for delimiter in (",", ";", "\t", "|"):
        fields = [f for row in csv.reader(io.StringIO(text), delimiter=delimiter) for f in row]
        naive = [f for line in text.splitlines() for f in line.split(delimiter)]
        for field in fields + naive:
            cell = field.strip().strip('"').strip()
            assert _is_number(cell) or not cell.startswith(FORMULA), (delimiter, field)


def test_scores_csv_keeps_numbers_and_neutralises_names():
    frame = pd.DataFrame(_scores(3, 2, seed=8), index=["x;=2+5", "a|=1", "ok"], columns=["=evil", "b;@x"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = cl.ScoreTable(frame, True)
    text = cl.report.scores_table(t, format="csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["data set", "'=evil", "'=evil rank", "b;'@x", "b;'@x rank"]
    assert [r[0] for r in rows[1:]] == ["x;'=2+5", "a|'=1", "ok", "average rank"]
    assert all(_is_number(c) for r in rows[1:-1] for c in r[1:])


# -- CLI -----------------------------------------------------------------------------------------------------------

def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The command in a child process, bounded in time: a hang fails the test instead of blocking it."""
    return subprocess.run([sys.executable, "-m", "compare_lib.cli", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_cli_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "ranks.tex"
    out.write_text("my paper's table", encoding="utf-8")
    runner = CliRunner()
    refused = runner.invoke(main, ["ranks", str(DEMSAR), "-o", str(out)])
    assert refused.exit_code == 1 and "already exists" in refused.output and "--force" in refused.output
    assert out.read_text(encoding="utf-8") == "my paper's table"
    for command in (["posthoc", str(DEMSAR)], ["report", str(DEMSAR), "--metric", "auc"]):
        target = tmp_path / ("x.md" if command[0] == "report" else "x.csv")
        target.write_text("keep", encoding="utf-8")
        result = runner.invoke(main, [*command, "-o", str(target)])
        assert result.exit_code == 1 and "already exists" in result.output, result.output
        assert target.read_text(encoding="utf-8") == "keep"
        forced = runner.invoke(main, [*command, "-o", str(target), "--force"])
        assert forced.exit_code == 0, forced.output
        assert target.read_text(encoding="utf-8") != "keep"
    forced = runner.invoke(main, ["ranks", str(DEMSAR), "-o", str(out), "--force"])
    assert forced.exit_code == 0 and "\\toprule" in out.read_text(encoding="utf-8")
    new = tmp_path / "new.tex"
    created = runner.invoke(main, ["ranks", str(DEMSAR), "-o", str(new)])
    assert created.exit_code == 0 and new.exists()  # a new file needs no --force


def test_cli_never_writes_over_its_input_or_a_special_file(tmp_path):
    data = tmp_path / "results.csv"
    shutil.copy(DEMSAR, data)
    result = CliRunner().invoke(main, ["ranks", str(data), "--format", "csv", "-o", str(data), "--force"])
    assert result.exit_code == 1 and "results file being read" in result.output
    assert data.read_bytes() == DEMSAR.read_bytes()
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    done = _cli("ranks", str(DEMSAR), "-o", str(fifo), "--force", timeout=60)
    assert done.returncode == 1 and "Error:" in done.stderr and "not a regular file" in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_cli_refuses_a_fifo_at_once(tmp_path):
    fifo = tmp_path / "results.csv"
    os.mkfifo(fifo)  # nobody writes to it: opening it for reading would block forever
    for command in ("ranks", "posthoc", "report"):
        done = _cli(command, str(fifo), timeout=60)
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith("Error:") and "named pipe (FIFO)" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_cli_refuses_dev_zero_at_once():
    for command in ("ranks", "posthoc", "report"):
        done = _cli(command, "/dev/zero", timeout=60)
        assert done.returncode == 1 and done.stderr.startswith("Error:") and "a device" in done.stderr, done.stderr


def test_cli_refuses_a_directory_and_a_dash(tmp_path):
    done = _cli("ranks", str(tmp_path))
    assert done.returncode != 0 and "Error" in done.stderr and "Traceback" not in done.stderr
    dash = _cli("ranks", "-")  # no stdin support: '-' is a path that does not exist
    assert dash.returncode != 0 and "Error" in dash.stderr and "Traceback" not in dash.stderr
