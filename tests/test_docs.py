"""Issue 32: the documentation. The user guide and the API reference (docs/, Sphinx + MyST) build with no warning,
document every public name, and the README, the front door, stays short, links to pages that exist and shows
code that runs."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import compare_lib

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def _conf():
    """docs/conf.py as a module (it holds the rule for which members of a public module are documented)."""
    spec = importlib.util.spec_from_file_location("compare_lib_docs_conf", DOCS / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _need(module: str) -> None:
    """The docs tools come with the ``docs`` extra (scripts/test.sh installs it): skipped without them locally,
    a failure in CI (as REQUIRE_BROWSER does for the browser test)."""
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed: scripts/test.sh installs the docs extra (pip install -e '.[docs]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Build the HTML once, with warnings as errors (the command docs/conf.py and the README state)."""
    _need("sphinx")
    _need("myst_parser")
    out = tmp_path_factory.mktemp("docs")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(out / "doctrees"),
         str(DOCS), str(out / "html")],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    return proc, out / "html"


@pytest.mark.slow
def test_docs_build_with_no_warning(built):
    proc, html = built
    assert proc.returncode == 0, f"sphinx-build -W failed:\n{proc.stderr[-6000:]}"
    assert "WARNING" not in proc.stderr and "ERROR" not in proc.stderr, proc.stderr[-6000:]
    pages = {p.stem for p in DOCS.glob("*.md")} | {p.stem for p in DOCS.glob("*.rst")}
    for page in pages:
        assert (html / f"{page}.html").is_file(), f"docs/{page} was not built"


@pytest.mark.slow
def test_every_public_name_documented_in_the_built_reference(built):
    """Every name of the lazy registry and every documented member of a public module has its entry (an HTML id)
    on the API page, with text: a name whose docstring is missing, or that autodoc could not import, fails."""
    proc, html = built
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = (html / "api.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'<dt class="sig sig-object py" id="([^"]+)"', page))
    missing = sorted(f"compare_lib.{n}" for n in compare_lib._WHERE if f"compare_lib.{n}" not in ids)
    assert not missing, f"not on the API page: {missing}"
    conf = _conf()
    for module in compare_lib._MODULES:
        members = conf.public_module_members(module)
        if members is None:
            members = list(importlib.import_module(f"compare_lib.{module}").__all__)
        absent = sorted(n for n in members if n not in compare_lib._WHERE and f"compare_lib.{module}.{n}" not in ids)
        assert not absent, f"members of compare_lib.{module} not on the API page: {absent}"
    # each registry entry has a description (its <dd> holds text): a docstring, a #: comment or api.rst's own text
    empty = []
    for chunk in page.split('<dt class="sig sig-object py" id="')[1:]:
        name = chunk.split('"', 1)[0]
        body = chunk.split("</dt>", 1)[1].split("</dd>", 1)[0]
        if name.startswith("compare_lib.") and name[len("compare_lib."):] in compare_lib._WHERE \
                and not re.sub(r"<[^>]+>|\s", "", body):
            empty.append(name)
    assert not empty, f"entries with no description: {empty}"


def test_api_page_names_each_public_name_once():
    """docs/api.rst, read as text (no build needed): one autodoc entry per registry name, none for a name that is
    not public. A new public name without its entry fails here first."""
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    entries = re.findall(r"^\.\. auto(?:function|class|data|exception):: compare_lib\.(\w+)$", text, re.M)
    dupes = sorted({n for n in entries if entries.count(n) > 1})
    assert not dupes, f"documented twice in docs/api.rst: {dupes}"
    assert set(entries) == set(compare_lib._WHERE), (
        f"missing: {sorted(set(compare_lib._WHERE) - set(entries))}; not public: {sorted(set(entries) - set(compare_lib._WHERE))}")


def test_every_guide_page_is_in_the_table_of_contents():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([a-z][\w-]*)$", index, re.M))
    pages = {p.stem for p in [*DOCS.glob("*.md"), *DOCS.glob("*.rst")]} - {"index"}
    assert pages <= listed, f"pages not in docs/index.md's toctree: {sorted(pages - listed)}"


def test_readme_is_a_short_front_door_whose_links_exist():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/") for link in local), "the README links to no docs page"
    broken = [link for link in local if not (ROOT / link).exists()]
    assert not broken, f"README links to missing files: {broken}"
    # every guide page is reachable from the front door
    pages = {f"docs/{p.name}" for p in [*DOCS.glob("*.md"), *DOCS.glob("*.rst")]} - {"docs/index.md"}
    assert pages <= set(local), f"docs pages the README does not link: {sorted(pages - set(local))}"


def test_readme_two_commands_are_the_scripts_ci_runs():
    """The two commands the README gives are the scripts that exist, and CI runs the test command."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    assert "bash scripts/run.sh\n" in blocks and "bash scripts/test.sh\n" in blocks
    assert (ROOT / "scripts/run.sh").is_file() and (ROOT / "scripts/test.sh").is_file()
    assert re.search(r"^bash scripts/test\.sh", (ROOT / ".ci/run").read_text(), re.M)
    # The README names the command that starts the dashboard, and it is the one scripts/run.sh runs.
    assert ".venv/bin/python -m streamlit run dashboard/server.py\n" in blocks
    assert "-m streamlit run dashboard/server.py" in (ROOT / "scripts/run.sh").read_text()


def test_docs_links_between_pages_exist():
    """A relative link in a guide page names a page or file that exists (Sphinx checks the anchors)."""
    for page in DOCS.glob("*.md"):
        for link in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in link:
                assert (DOCS / link).exists(), f"{page.name} links to a missing {link}"


@pytest.mark.slow
def test_readme_python_examples_run(tmp_path):
    """The README's Python blocks run as shown, in a fresh interpreter (in an empty folder where the sample files
    are reachable, since one block writes report.html), and print the numbers their comments state."""
    text = README.read_text(encoding="utf-8")
    code = "\n".join(re.findall(r"```python\n(.*?)```", text, re.S))
    assert code.strip()
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    (tmp_path / "tests" / "data").mkdir(parents=True)
    (tmp_path / "tests" / "data" / "results").symlink_to(ROOT / "tests" / "data" / "results")
    probe = code + "\nprint(repr((round(cl.friedman(t).statistic, 3), round(cl.iman_davenport(t).statistic, 3), " \
                   "cl.groups(res), results.metrics[:2], cl.guess_direction('wer')[0])))\n"
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert (tmp_path / "report.html").is_file()
    # the comments' numbers (Demšar 2006: chi2_F = 9.28, F_F = 3.69), recomputed here from the ranks
    t = compare_lib.load_scores(ROOT / "sample_data/demsar2006_table6_auc_untied.csv", higher_is_better=True)
    r = t.mean_ranks.to_numpy()
    k, n = len(r), t.scores.shape[0]
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(r ** 2) - k * (k + 1) ** 2 / 4)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert f"({round(chi2, 3)}, {round(ff, 3)}, " in proc.stdout.strip().splitlines()[-1]
    assert round(chi2, 2) == 9.28 and round(ff, 2) == 3.69
    assert "'fit_time', 'score_time'" in proc.stdout and proc.stdout.strip().endswith("False)")


def test_no_page_wide_table_cells():
    """A Markdown table cell holds a phrase, not a page (issue 32: the README's dashboard table had cells of a
    thousand words); longer text belongs in sections."""
    for page in [README, *DOCS.glob("*.md")]:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("|") and line.rstrip().endswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
                longest = max(len(c) for c in cells)
                assert longest <= 160, f"{page.name}:{number}: a table cell of {longest} characters"
