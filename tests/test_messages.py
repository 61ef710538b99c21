"""One message source, each interface's words (issue 28): an option named in an :class:`InputError` is the
keyword argument in Python (``sheet='Results'``), the flag on the command line (``--sheet Results``) and the
control on the dashboard (``the "Sheet" box set to "Results"``); never Python syntax in the app or the CLI,
never an option forged by text from a file, and never the wrong thing (a sheet of notes offered as the one
holding the results)."""

from __future__ import annotations

import ast
import pickle
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import compare_lib as cl
from compare_lib.errors import OPTIONS, InputError, Words, arg, in_words, marked, worded

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "compare_lib"
DASHBOARD = ROOT / "dashboard"
PYTHON_SYNTAX = re.compile(r"(?<![\w.\-\\])([a-z_][a-z0-9_]*)=(?![=\"])")


def words(err) -> dict[str, str]:
    return {i: in_words(err, i) for i in ("python", "cli", "app")}


# -- (a) the mechanism --------------------------------------------------------------------------------

def test_an_option_in_each_interface():
    err = InputError(f"File 'x.csv': {arg('metric', 'log_loss')} is not in the file; pass {arg('sheet')}.")
    assert str(err) == "File 'x.csv': metric='log_loss' is not in the file; pass sheet=."
    assert in_words(err, "cli") == "File 'x.csv': --metric log_loss is not in the file; pass --sheet."
    assert in_words(err, "app") == ('File \'x.csv\': the "Metric" box set to "log_loss" is not in the file; '
                                    'pass the "Sheet" box.')
    assert in_words(err) == str(err)  # python is the default


def test_bare_names_values_with_labels_and_lists():
    # A registry's value is checked against the registry before a message names it, so its labels are registered by
    # then (compare_lib.errors.register_option_labels): as here. Run alone, this test used to find them missing.
    assert "rank-sum-exact" in cl.PAIRWISE_TESTS and "holm" in cl.PROCEDURES
    text = (f"{arg('alpha', bare=True)} must be; {arg('missing', 'pairwise')}; {arg('test', 'rank-sum-exact')}; "
            f"{arg('correction', 'holm')}; {arg('format', 'csv')}; {arg('classifiers', ['a', 'b c'])}; "
            f"{arg('seed', 3)}")
    w = words(text)
    assert w["python"] == ("alpha must be; missing='pairwise'; test='rank-sum-exact'; correction='holm'; "
                           "format='csv'; classifiers=['a', 'b c']; seed=3")
    assert w["cli"] == ("--alpha must be; --missing pairwise; --test rank-sum-exact; --correction holm; "
                        "--input-format csv; --classifiers 'a,b c'; --seed 3")
    # the app names each control and the label it shows for the value
    assert w["app"] == (
        'the "Significance level α" box (sidebar) must be; the "Missing cells" box set to "Keep the holes (each '
        'pair on the data sets both have)"; the "Pairwise statistic" choice set to "Exact rank-sum difference '
        '(Friedman)"; the "Procedure" box set to "Holm"; the "Format" box set to "CSV / TSV (delimited)"; the '
        '"Classifiers" box set to "a", "b c"; the "Seed" box set to 3')


def test_numpy_scalars_read_as_numbers():
    np = pytest.importorskip("numpy")
    assert words(arg("seed", np.int64(7))) == {"python": "seed=7", "cli": "--seed 7", "app": 'the "Seed" box set to 7'}


def test_an_option_of_one_function_is_not_taken_for_another_flag_or_control():
    # scores_table(format=...) is the format written, not read_results' --input-format
    assert words(arg("tables.format", "pdf")) == {
        "python": "format='pdf'", "cli": "--format pdf",
        "app": "format='pdf' (a Python argument: the dashboard has no control for it)"}
    assert words(arg("datasets", ["iris"]))["cli"] == \
        "datasets=['iris'] (a Python argument: the command line has no option for it)"
    # a name the interfaces do not know is Python's keyword everywhere
    assert set(words(arg("n_datasets", 30)).values()) == {"n_datasets=30"}


@pytest.mark.parametrize("value", ["log loss", "it's", 'say "hi"', "Résultats 2024", "数据", "a;rm -rf ~", "-x",
                                   "", " padded ", "tab\there", "new\nline", "bell\x07", "rs\x1eus\x1f", "zw\u200bsp"])
def test_values_with_quotes_spaces_unicode_and_control_characters(value):
    w = words(f"use {arg('sheet', value)}.")
    assert w["python"] == f"use sheet={value!r}."
    cli = w["cli"][len("use --sheet "):-1]
    if value.isprintable():
        assert shlex.split(cli) == [value]  # what the shell gives back is the value
    else:
        assert cli.startswith("$'") and all(ch.isprintable() for ch in cli)  # control characters escaped
        bash = shutil.which("bash")
        if bash:
            out = subprocess.run([bash, "-c", f"printf %s {cli}"], capture_output=True,
                                 env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}).stdout
            assert out.decode("utf-8") == value.replace("\x00", "")
    app = w["app"][len('use the "Sheet" box set to '):-1]
    assert app.startswith('"') and all(ch.isprintable() for ch in app)
    assert "\x1e" not in "".join(w.values()) and "\x1f" not in "".join(w.values())


@pytest.mark.parametrize("forged", ["\x1emetric\x1e", "\x1emetric\x1f'x'\x1e", "\x1esheet!\x1e",
                                    "\x1e0123456789abcdefmetric\x1e"])
def test_text_from_a_file_cannot_forge_an_option(forged):
    """Markup carries a key drawn by this process: a file name, a cell or a sheet name that holds the record
    separators is inserted as text and never rendered as an option."""
    err = InputError(f"File '{forged}.csv' has no sheet '{forged}'; give {arg('sheet', forged)}.")
    for interface, text in words(err).items():
        assert text.count("--") == (1 if interface == "cli" else 0)
        assert text.count('"Sheet" box') == (1 if interface == "app" else 0)
        assert "Metric" not in text and "--metric" not in text and f"'{forged}.csv'" in text
    # the value the option is set to is shown escaped, never as markup
    assert str(err).endswith(f"give sheet={forged!r}.")


def test_a_forged_name_in_a_real_file_and_metric(tmp_path):
    bad = "\x1emetric\x1f'acc'\x1e"
    path = tmp_path / "runs.csv"
    path.write_text("dataset,classifier,fold,acc,f1\nd1,A,1,0.5,0.4\nd1,B,1,0.6,0.3\nd2,A,1,0.5,0.3\n"
                    "d2,B,1,0.5,0.3\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        cl.read_results(path).table(bad, higher_is_better=True)
    cli = in_words(err.value, "cli")
    assert cli.count("--metric") == 1 and "\\x1emetric" in cli


def test_pickled_errors_keep_their_options_in_another_process():
    err = InputError(f"File 'a.xlsx': give {arg('sheet', 'Results')}; {arg('alpha', bare=True)} must be set.")
    note = worded(err)
    assert isinstance(note, Words) and note == str(err) and marked(note) == marked(err)
    code = ("import pickle, sys; from compare_lib.errors import in_words; err, note = pickle.load(sys.stdin.buffer); "
            "print(in_words(err, 'cli')); print(in_words(note, 'app')); print(type(err).__name__, repr(err))")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps((err, note)), capture_output=True,
                         cwd=ROOT, check=True).stdout.decode("utf-8").splitlines()
    assert out[0] == in_words(err, "cli") == "File 'a.xlsx': give --sheet Results; --alpha must be set."
    assert out[1] == in_words(err, "app")
    assert out[2] == f"InputError {err!r}" and "\x1e" not in out[2]


def test_an_error_raised_in_an_isolated_reader_keeps_its_options():
    """An .xls is read in a worker process: the error comes back pickled and still names --sheet."""
    with pytest.raises(InputError) as err:
        cl.read_results(ROOT / "tests" / "data" / "formats" / "results.xls", sheet="Nope")
    w = words(err.value)
    assert "--sheet AUC" in w["cli"] and "sheet=" not in w["cli"]
    assert 'the "Sheet" box set to "AUC"' in w["app"]


def test_an_error_put_inside_another_keeps_its_options():
    text = b"| data | A | B |\n|---|---|---|\n| x | 1 | 2 | 3 |\n| y | 2 | 1 |\n"
    with pytest.raises(InputError) as err:
        cl.read_results(text, name="pasted text")
    w = words(err.value)
    assert "recognised as a Markdown table" in w["python"] and "format='csv'" in w["python"]
    assert "--input-format csv" in w["cli"] and 'the "Format" box set to "CSV / TSV (delimited)"' in w["app"]


# -- the vocabulary matches the interfaces --------------------------------------------------------------

def _dashboard_labels() -> set[str]:
    """Labels of every input widget the dashboard draws (the first argument of st.selectbox, st.radio...)."""
    kinds = {"selectbox", "radio", "multiselect", "number_input", "text_input", "text_area", "slider",
             "select_slider", "toggle", "checkbox", "segmented_control", "file_uploader"}
    labels = set()
    for path in DASHBOARD.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in kinds
                    and node.args and isinstance(node.args[0], ast.Constant)):
                labels.add(node.args[0].value)
    return labels


def _page_dict(name: str) -> dict:
    tree = ast.parse((DASHBOARD / "app_pages" / "load_data.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(name)


def test_every_widget_named_in_messages_exists_with_its_labels():
    labels = _dashboard_labels()
    for name, option in OPTIONS.items():
        if option.widget is not None:
            label = re.match(r'"([^"]+)"', option.widget).group(1)
            assert label in labels, (name, label)
    # the values' labels are those the Load data boxes offer
    for option, page in (("layout", "LAYOUTS"), ("missing", "MISSING"), ("format", "FORMATS"),
                         ("aggregate", "AGGREGATES")):
        assert OPTIONS[option].labels == {v: k for k, v in _page_dict(page).items()}, option


def test_every_flag_named_in_messages_exists():
    from compare_lib.cli import main

    flags = {opt for command in main.commands.values() for p in command.params for opt in p.opts}
    for name, option in OPTIONS.items():
        if option.flag is not None:
            assert option.flag in flags, (name, option.flag)
    for value in OPTIONS["format"].labels:
        assert value in next(p for p in main.commands["report"].params if p.name == "input_format").type.choices


# -- (b) no Python syntax left in the library's messages -----------------------------------------------

# Option-like text that is not an option: none today. An entry needs a reason.
ALLOWED: dict[str, str] = {}


def _message_texts(paths=None):
    """(place, literal text) of every string literal inside the arguments of an InputError(...) or of a call
    that makes one (helpers that return an InputError), with what precedes a '=' when it is a {value}."""
    makers = {"InputError", "_NestingError", "_refused", "bad"}
    for path in sorted(paths or PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in makers:
                continue
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                for part in ast.walk(argument):
                    place = f"{path.name}:{getattr(part, 'lineno', node.lineno)}"
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        yield place, part.value
                    elif isinstance(part, ast.JoinedStr):  # "{what}=": a name formatted before an '='
                        for a, b in zip(part.values, part.values[1:]):
                            if (isinstance(a, ast.FormattedValue) and isinstance(b, ast.Constant)
                                    and str(b.value).startswith("=")):
                                yield place, f"{{{ast.unparse(a.value)}}}{b.value}"


def _python_syntax(paths=None) -> list[str]:
    found = []
    for place, text in _message_texts(paths):
        for m in PYTHON_SYNTAX.finditer(text):
            if m.group(0) not in ALLOWED:
                found.append(f"{place}: {text[max(0, m.start() - 30):m.end() + 20]!r}")
        if re.match(r"\{[^}]+\}=", text):
            found.append(f"{place}: {text!r}")
    return found


def test_no_input_error_names_an_option_in_python_syntax():
    found = _python_syntax()
    assert not found, "write these options with compare_lib.errors.arg():\n" + "\n".join(found)


def test_the_scan_finds_what_it_is_meant_to_find(tmp_path):
    """Not vacuous: a module with Python syntax in its messages is caught, and one written with arg() is not."""
    bad = tmp_path / "bad.py"
    bad.write_text('''
def f(name, what, value):
    raise InputError(f"pass sheet={name!r}")
def g(what, value):
    raise InputError(f"{what}={value!r} is not known")
def h(err):
    return _refused("x", "y", "give metric= and layout='wide'")
''')
    assert len(_python_syntax([bad])) == 4
    good = tmp_path / "good.py"
    good.write_text('''
def f(name, what, value):
    raise InputError(f"pass {arg('sheet', name)}; {arg(what, value)} is not known; N = {n}, k = 3")
''')
    assert _python_syntax([good]) == []


# Warnings and notes are plain text (they go into reports, JSON and links as written): no keyword arguments.
# Files that write code or markup (scripts, SVG/TikZ, HTML) and the warnings of renamed arguments (addressed to
# Python callers) are not messages of this kind.
NOT_MESSAGES = {"_document.py", "_cd_static.py", "plots.py", "_provenance.py", "_scripts.py"}


def test_warnings_and_notes_name_no_keyword_argument():
    params = set()
    trees = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        trees[path] = tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params |= {x.arg for x in a.args + a.kwonlyargs + a.posonlyargs}
    params -= {"self", "cls"}
    keyword = re.compile(r"(?<![\w.\-\\])(" + "|".join(sorted(params, key=len, reverse=True)) + r")=(?![=\"])")
    found = []
    for path, tree in trees.items():
        if path.name in NOT_MESSAGES:
            continue
        skip = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)):
                skip.add(id(body[0].value))  # docstrings
            if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
                skip |= {id(c) for c in ast.walk(node)}
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_deprecated":
                skip |= {id(c) for c in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                for m in keyword.finditer(node.value):
                    shown = node.value[max(0, m.start() - 30):m.end() + 20]
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {shown!r}")
    assert not found, "\n".join(found)


# -- (c) the command line -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def notes_then_results(tmp_path_factory) -> Path:
    """A workbook whose first sheet is notes: the results are on the second."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    notes = book.active
    notes.title = "Notes"
    notes.append(["Results of the 2024 runs; see the sheet Results."])
    notes.append(["Contact", "me"])
    results = book.create_sheet("Results")
    results.append(["dataset", "A", "B", "C"])
    for i in range(6):
        results.append([f"d{i}", 0.80 + i / 100, 0.78 + (i % 3) / 100, 0.75])
    book.create_sheet("Empty")
    path = tmp_path_factory.mktemp("book") / "runs.xlsx"
    book.save(path)
    return path


def _cli(*args) -> tuple[int, str]:
    from compare_lib.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_cli_a_workbook_without_the_sheet_names_the_flag_and_the_sheet_with_numbers(notes_then_results):
    code, out = _cli("ranks", notes_then_results, "--higher-is-better")
    assert code == 1
    assert "--sheet Results" in out and "sheet=" not in out and "'Notes'" in out  # listed, not offered
    assert "--sheet Notes" not in out
    code, out = _cli("ranks", notes_then_results, "--sheet", "Summary", "--higher-is-better")
    assert code == 1 and "has no sheet 'Summary'" in out and "--sheet Results" in out and "sheet=" not in out
    code, out = _cli("ranks", notes_then_results, "--sheet", "Results", "--higher-is-better")
    assert code == 0, out


def test_library_offers_the_sheet_with_numbers_not_the_first(notes_then_results):
    with pytest.raises(InputError) as err:
        cl.read_results(notes_then_results)
    assert str(err.value).endswith("with sheet=, e.g. sheet='Results' (the only sheet holding numbers).")


def test_cli_an_unknown_metric_names_the_flag(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("dataset,classifier,fold,fit_time,accuracy,f1\n" + "".join(
        f"d{d},{c},{f},1.0,0.{5 + d}{f},0.{4 + d}{f}\n" for d in range(3) for c in "AB" for f in range(2)),
        encoding="utf-8")
    code, out = _cli("ranks", path, "--metric", "log_loss", "--higher-is-better")
    assert code == 1 and "--metric log_loss is not in the file" in out and "metric=" not in out
    code, out = _cli("ranks", path, "--higher-is-better")
    assert code == 1 and "with --metric (e.g. --metric accuracy)" in out and "metric=" not in out  # not fit_time


def test_cli_other_options_are_flags(tmp_path):
    demsar = ROOT / "sample_data" / "demsar2006_table6_auc_untied.csv"
    code, out = _cli("posthoc", demsar, "--test", "nope", "--higher-is-better")
    assert code == 1 and "--test nope is not known" in out and "test=" not in out
    code, out = _cli("posthoc", demsar, "--alpha", "1.5", "--higher-is-better")
    assert code == 1 and "--alpha must be a number between 0 and 1" in out
    holes = tmp_path / "holes.csv"
    holes.write_text("dataset,A,B,C\nd1,0.8,,0.7\nd2,0.5,0.6,0.4\nd3,0.5,0.7,0.6\n", encoding="utf-8")
    code, out = _cli("ranks", holes, "--higher-is-better")
    assert code == 1 and "(--missing drop-datasets)" in out and "missing=" not in out


# -- (d) the dashboard --------------------------------------------------------------------------------

def test_the_sheet_and_metric_errors_in_the_dashboards_words(notes_then_results, tmp_path):
    """The app reads a workbook only after its Sheet box is set, and a file of several metrics only after its
    Metric box is: these two library errors are worded for the app as it would show them."""
    with pytest.raises(InputError) as err:
        cl.read_results(notes_then_results)
    app = in_words(err.value, "app")
    assert 'with the "Sheet" box, e.g. the "Sheet" box set to "Results"' in app and "=" not in app
    path = tmp_path / "runs.csv"
    path.write_text("dataset,classifier,fold,acc,f1\nd1,A,1,0.5,0.4\nd1,B,1,0.6,0.3\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        cl.read_results(path).table("log_loss", higher_is_better=True)
    app = in_words(err.value, "app")
    assert 'the "Metric" box set to "log_loss" is not in the file' in app and "=" not in app


@pytest.fixture(scope="module")
def app_helpers():
    pytest.importorskip("streamlit")
    from . import apptest_helpers

    return apptest_helpers


def test_load_data_speaks_of_the_boxes(app_helpers):
    h = app_helpers
    at = h.upload(h.new_app(), "holes.csv", b"dataset,A,B,C\nd1,0.8,,0.7\nd2,0.5,0.6,0.4\nd3,0.5,0.7,0.6\n")
    errors = h.texts(at.error)
    assert len(errors) == 1
    message = errors[0]
    assert 'the "Missing cells" box set to "Drop data sets with a missing cell"' in message
    assert "missing=" not in message and "drop-datasets" not in message and "\x1e" not in message
    # pasted text taken for a Markdown table: the Format box, with the label it shows for CSV
    h.by_label(at.radio, "Source").set_value("Paste")
    at.run()
    at.text_area[0].set_value("| data | A | B |\n|---|---|---|\n| x | 1 | 2 | 3 |\n| y | 2 | 1 |\n")
    h.by_label(at.button, "Use the pasted table").click()
    at.run()
    assert not at.exception, at.exception
    message = h.texts(at.error)[0]
    assert 'give its format, e.g. the "Format" box set to "CSV / TSV (delimited)"' in message
    assert "format=" not in message and "--" not in message.replace("---", "")


def _unworded_uses(path: Path) -> list[str]:
    """Uses of a caught InputError that do not go through in_words()/words() (str(err), esc(err), f"{err}")."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for handler in ast.walk(tree):
        if not (isinstance(handler, ast.ExceptHandler) and handler.name and handler.type is not None
                and "InputError" in ast.unparse(handler.type)):
            continue
        ok = set()
        for node in ast.walk(handler):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in ("words", "in_words", "isinstance", "marked", "worded", "_refused"):
                    ok |= {id(n) for a in node.args for n in ast.walk(a)}
        for node in ast.walk(handler):
            if isinstance(node, ast.Name) and node.id == handler.name and id(node) not in ok:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_interface_words_the_errors_it_catches():
    """The dashboard shows a caught InputError through ui.words (the app's words), the command line through
    in_words(err, "cli"): never str(err), which is Python's."""
    paths = [*DASHBOARD.rglob("*.py"), PACKAGE / "cli.py"]
    found = [place for path in paths for place in _unworded_uses(path)]
    assert not found, found
