"""Links carry the whole view (issue 23): every keyed widget of every page and view is declared once in
links.CHOICES (or, with a reason, in links.NOT_IN_LINKS), and a link made after changing the choices, opened in a
fresh session, shows the same numbers.

Issue 28: the inputs of forms (runs and demos) are widgets like the others (keyed and declared); a page that reads
a choice kept by another page, or the result of another page's run, declares it in links.CROSS_PAGE; and for every
page, every choice it displays (its own, those made on other pages, the forms' inputs and the flags saying a view
showed a run's results) round-trips through a link: opened with it, the page writes it back into the address, and
that address opened in a fresh session shows the same choices and numbers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from .apptest_helpers import by_label, open_page, texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
import links  # noqa: E402

#: Widget types whose value is a choice (buttons, downloads and charts are not).
INPUTS = {"radio", "checkbox", "toggle", "multiselect", "selectbox", "number_input", "slider", "select_slider",
          "text_input", "text_area", "button_group", "tab_container", "date_input", "time_input", "color_picker"}
#: Keys that are not a page's: the sidebar's α travels as ?alpha=.
GLOBAL_KEYS = {"alpha"}


def _normal(key: str) -> str:
    """A widget key without the suffixes that make it unique per table or test (w_pool_a_3, w_plan_2_a,
    w_bay_prior_signed-rank, w_bfold_rope_0.01)."""
    key = re.sub(r"_\d+(?=_|$)", "", key)
    for stem in ("w_bay_prior", "w_bfold_rope", "w_bay_rope"):
        if key.startswith(stem):
            return stem
    return key


def _inputs(at) -> tuple[set[str], list[str]]:
    """(keys of the input widgets, labels of input widgets without a key). Inputs inside forms count too (issue 28:
    the settings of runs and demos travel in links)."""
    keyed, unkeyed = set(), []

    def walk(node) -> None:
        kind, key = getattr(node, "type", None), getattr(node, "key", None)
        if kind in INPUTS:
            if key:
                keyed.add(key)
            else:
                unkeyed.append(f"{kind} {getattr(node, 'label', '')!r}")
        children = getattr(node, "children", None)
        for child in (children.values() if isinstance(children, dict) else children or []):
            walk(child)

    walk(at._tree)
    return keyed, unkeyed


def _view_apps(page: str):
    at = open_page(page)
    yield at
    if page == "posthoc":
        yield open_page(page, family="control")
    views = {"load_data": ("lview", ["Scores (rank)", "Ranks", "Wins / ties / losses"]),
             "posthoc": ("view", ["CD diagram", "How sure is the ranking?", "Adjusted p-values", "Where procedures disagree",
                                  "Wins / ties / losses", "Report"]),
             "bayesian": ("bview", ["One pair", "All pairs", "Effect sizes", "Fold-level results",
                                    "Hierarchical (fold level)", "Who is best?", "Significance is not relevance"]),
             "omnibus": ("ochart", ["Mean ranks", "Ranks per data set"]),
             # only the open tab runs (issue 31): each tab's widgets
             "pool": ("ptab", ["One pair in every pool", "All pairs", "Teaching demos"]),
             "replicability": ("rtab", ["How many data sets do I need?", "Tests on fold-level results",
                                        "Run an experiment"])}
    if page in views:
        param, options = views[page]
        for option in options:
            yield open_page(page, **{param: option})


@pytest.mark.parametrize("page", ["load_data", "omnibus", "posthoc", "pool", "replicability", "bayesian"])
def test_every_widget_is_declared_for_links(page):
    declared = {c.widget for c in links.CHOICES} | set(links.NOT_IN_LINKS) | GLOBAL_KEYS
    for at in _view_apps(page):
        assert not at.exception, at.exception
        keyed, unkeyed = _inputs(at)
        missing = sorted(k for k in keyed if _normal(k) not in declared)
        assert not missing, f"{page}: widgets neither in links.CHOICES nor in links.NOT_IN_LINKS: {missing}"
        assert not unkeyed, f"{page}: input widgets without a key: {unkeyed}"


def test_choices_are_declared_once():
    params = [c.param for c in links.CHOICES]
    keys = [c.key for c in links.CHOICES]
    assert len(params) == len(set(params)) and len(keys) == len(set(keys))
    assert not set(params) & set(links.GLOBAL_PARAMS)


def _shown(at) -> dict:
    """Everything a page shows that a reader compares: text, metrics and the tables' values."""
    return {
        "markdown": texts(at.markdown), "caption": texts(at.caption), "code": texts(at.code),
        "metric": [(m.label, m.value) for m in at.metric],
        "tables": [d.value.to_csv() for d in at.dataframe],
        "warning": texts(at.warning), "info": texts(at.info),
    }


def _round_trip(at, page: str):
    params = {k: at.query_params[k] for k in at.query_params}
    fresh = open_page(page, **{k: v if isinstance(v, str) else v for k, v in params.items()})
    assert not fresh.exception, fresh.exception
    return params, fresh


def _fresh_equals(at, page: str) -> dict:
    params, fresh = _round_trip(at, page)
    before, after = _shown(at), _shown(fresh)
    for part in before:
        assert after[part] == before[part], (page, part, params)
    return params


def test_posthoc_link_round_trip():
    at = open_page("posthoc", sample="garcia2008")
    by_label(at.radio, "Compare").set_value(1)
    at.run()
    by_label(at.selectbox, "Control classifier").set_value(at.selectbox(key="w_ph_control").options[2])
    by_label(at.radio, "Pairwise statistic").set_value(1)
    at.run()
    by_label(at.selectbox, "Procedure").set_value(by_label(at.selectbox, "Procedure").options[2])
    by_label(at.selectbox, "Effect size shown").set_value(2)
    at.run()
    at.button_group(key="w_ph_view").set_value("Adjusted p-values")
    at.run()
    params = _fresh_equals(at, "posthoc")
    assert {"family", "test", "correction", "control", "view", "effect"} <= set(params)


def test_bayesian_link_round_trip_with_the_fold_level_view():
    at = open_page("bayesian", sample="benavoli2017")
    by_label(at.number_input, "Prior strength").set_value(1.2)
    at.slider(key="w_bay_decision").set_value(0.9)
    at.select_slider(key="w_bay_samples").set_value(20000)
    by_label(at.number_input, "Seed").set_value(3)
    at.run()
    at.button_group(key="w_bay_view").set_value("Fold-level results")
    at.run()
    scheme = by_label(at.selectbox, "Scheme")
    scheme.set_value(scheme.options[-1])
    at.run()
    by_label(at.selectbox, "Data set").set_value(by_label(at.selectbox, "Data set").options[1])
    at.run()
    params = _fresh_equals(at, "bayesian")
    assert {"bprior", "bdec", "bsamples", "bseed", "bview", "bfscheme", "bfds"} <= set(params)


def test_pool_and_replicability_links_keep_the_tab_and_settings():
    at = open_page("pool", ptab="All pairs", sample="benavoli2016")
    by_label(at.radio, "Correction for the pool's m(m−1)/2 comparisons").set_value("Holm within the pool")
    at.run()
    params = _fresh_equals(at, "pool")
    assert params.get("ptab") == "All pairs" and params.get("pproc") == "holm"
    at = open_page("replicability")
    at.number_input(key="w_rep_seed").set_value(5)
    at.run()
    at.session_state["rep_tab_request"] = "How many data sets do I need?"  # as the tab bar (only the open tab runs)
    at.run()
    at.number_input(key="w_plan_nmax").set_value(40)
    at.run()
    params = _fresh_equals(at, "replicability")
    assert params.get("qnmax") == "40" and params.get("rseed") == "5" and params.get("rtab") == "How many data sets do I need?"


def test_a_link_carries_the_file_name_and_the_data_notes():
    """The receiver of a link with an uploaded table sees the file's name and what was done to the data (folds
    averaged), as the sender did."""
    from .apptest_helpers import new_app, upload

    rows = ["dataset,classifier,fold,accuracy"]
    for d in range(4):
        for c, base in (("A", 0.7), ("B", 0.8), ("C", 0.75)):
            rows += [f"d{d},{c},{f},{base + 0.01 * d + 0.001 * f}" for f in range(3)]
    at = upload(new_app(), "my_results.csv", ("\n".join(rows) + "\n").encode())
    assert not at.exception
    params = {k: at.query_params[k] for k in at.query_params}
    assert "data" in params
    fresh = open_page("load_data", **params)
    assert not fresh.exception
    shown = " ".join(texts(fresh.caption) + texts(fresh.success) + texts(fresh.info) + texts(fresh.markdown))
    assert "my_results.csv" in shown
    assert "Averaged 3 rows per data set and classifier" in shown


def test_omnibus_and_load_data_links_round_trip():
    at = open_page("omnibus", sample="garcia2008")
    at.toggle(key="w_tie_correction").set_value(True)
    at.run()
    at.button_group(key="w_om_chart").set_value("Ranks per data set")
    at.run()
    params = _fresh_equals(at, "omnibus")
    assert params.get("tie") == "1" and params.get("ochart") == "Ranks per data set"
    at = open_page("load_data", sample="benavoli2016", drop="credit", alpha="0.1")
    at.button_group(key="w_preview_view").set_value("Ranks")
    at.run()
    params = _fresh_equals(at, "load_data")
    assert params.get("lview") == "Ranks" and params.get("alpha") == "0.1"


# -- issue 28: cross-page dependencies and forms ------------------------------------------------------------------

PAGES_DIR = Path(__file__).resolve().parents[1] / "dashboard" / "app_pages"
#: Results of a run kept in the session -> the page whose form makes the run, and the run's parameters.
RUN_RESULTS = {"experiment_folds": ("replicability", links.EXPERIMENT_PARAMS)}
#: Helpers that read a run's result on behalf of the page that calls them.
READS_RESULT = {"fold_level_source": "experiment_folds"}


def _cross_page_reads() -> set[tuple[str, str]]:
    """(page, param) for every choice of another page that a page's code reads by its session key, and every
    parameter of another page's run whose result the page shows."""
    found = set()
    for path in PAGES_DIR.glob("*.py"):
        page, text = path.stem, path.read_text(encoding="utf-8")
        for choice in links.CHOICES:
            if choice.page != page and re.search(rf"[\"']{re.escape(choice.key)}[\"']", text):
                found.add((page, choice.param))
        results = {name for name in RUN_RESULTS if re.search(rf"[\"']{name}[\"']", text)}
        results |= {result for helper, result in READS_RESULT.items() if re.search(rf"\b{helper}\(", text)}
        for result in results:
            owner, params = RUN_RESULTS[result]
            if owner != page:
                found |= {(page, param) for param in params}
    return found


def test_every_cross_page_dependency_is_declared():
    """A page that shows or uses another page's choice (the post-hoc procedure beside the Bayesian matrix and in the
    family-wise demo) or another page's run (the experiment behind a fold-level view) carries it in its links."""
    declared = {(page, param) for page, pairs in links.CROSS_PAGE.items() for param, _ in pairs}
    found = _cross_page_reads()
    assert {("bayesian", "correction"), ("pool", "correction"), ("bayesian", "eclf")} <= found  # the scan sees them
    assert found <= declared, f"read on a page but not carried by its links: {sorted(found - declared)}"
    params = {c.param for c in links.CHOICES}
    assert {param for _, param in declared} <= params


SAMPLE_FOLDS = "Sample (3 classifiers, 6 data sets, 10 seeds)"
EXPERIMENT_SOURCE = "The experiment run on the Replicability page"
#: For each page, views opened by a link that sets every choice the view displays to a value other than the
#: default (as the address writes it), including the choices of other pages it shows and its forms' inputs.
SCENARIOS: dict[str, list[dict[str, Any]]] = {
    "load_data": [{"sample": "demsar2006", "lview": "Ranks"}],
    "omnibus": [{"sample": "garcia2008", "tie": "1", "ochart": "Ranks per data set"}],
    "posthoc": [
        {"sample": "garcia2008", "family": "control", "control": "NaiveBayes", "test": "sign", "correction": "hochberg",
         "view": "Adjusted p-values", "effect": "cohens_dz"},
        {"sample": "garcia2008", "view": "How sure is the ranking?", "pboot": "1", "correction": "shaffer"},
    ],
    "pool": [{"sample": "garcia2008", "pproc": "holm", "pfriedman": "1", "pstat": "quade",
              "member": ["C4.5", "1-NN", "NaiveBayes"], "pa": "1-NN", "pb": "Kernel", "ptab": "Teaching demos",
              "correction": "hochberg", "fwk": "5", "fwn": "15", "fwreps": "200", "fwtest": "sign", "fwbetter": "1",
              "fwshift": "0.5", "fwran": "1", "d2b": "2.5", "d2n": "30", "d2reps": "300", "d2others": "4, 9",
              "d2seed": "5", "d2ran": "1"}],
    "replicability": [{"sample": "garcia2008", "ra": "1-NN", "rb": "CN2", "rnsets": "8", "rsamples": "200",
                       "rkmax": "4", "rkstep": "1", "rtest": ["Wilcoxon", "sign test"], "rseed": "3",
                       "rtab": "Tests on fold-level results", "rran": "1", "qa": "Kernel", "qb": "C4.5", "qdiff": "0.02",
                       "qtest": "sign", "qnmax": "20", "qreps": "200", "qseed": "2", "qran": "1",
                       "fsrc": SAMPLE_FOLDS, "fa": "k-NN", "fb": "naive Bayes", "fscheme": "5x2cv",
                       "ftest": "corrected repeated cv", "fratio": "0.25", "eclf": ["k-NN", "random forest"],
                       "eextra": 'sklearn.svm.SVC {"C": 10}', "eds": ["digits"], "escheme": ["10-fold cv"],
                       "eseeds": "3", "eran": "1"}],
    "bayesian": [
        {"sample": "benavoli2017", "btest": "sign", "rope": "0.02", "bprior": "1.5", "bdec": "0.9", "bsamples": "10000",
         "bseed": "3", "ba": "aode", "bb": "j48"},
        {"sample": "benavoli2017", "bview": "All pairs", "bsamples": "10000", "correction": "bonferroni"},
        {"sample": "benavoli2017", "bview": "Effect sizes", "bmeasure": "cohens_dz", "bfocus": "hnb"},
        {"sample": "benavoli2017", "bview": "Fold-level results", "bfsrc": SAMPLE_FOLDS, "bfa": "k-NN",
         "bfb": "naive Bayes", "bfratio": "0.2", "bfhigher": "0", "bfrope": "0.02", "bfscheme": "5x2cv",
         "bfds": "iris", "bfseed": "4"},
        {"sample": "benavoli2017", "bview": "Fold-level results", "bfsrc": EXPERIMENT_SOURCE,
         "eclf": ["naive Bayes", "decision tree"], "eextra": "sklearn.linear_model.Perceptron", "eseeds": "2",
         "eds": ["iris"], "escheme": ["5x2cv", "10-fold cv"], "eran": "1"},
        {"sample": "benavoli2017", "bview": "Significance is not relevance", "bddelta": "0.002", "bdnoise": "0.02",
         "bdrope": "0.005", "bdran": "1"},
        # Issue 29: the hierarchical test (a run: the receiver is asked to press Run) and the Bayesian rankings.
        {"sample": "benavoli2017", "bview": "Hierarchical (fold level)", "bhsrc": SAMPLE_FOLDS, "bha": "k-NN",
         "bhb": "naive Bayes", "bhhigher": "0", "bhscheme": "5x2cv", "bhrope": "0.02", "bhprior": "baycomp",
         "bhsamples": "2000", "bhsens": "0", "bhaccept": "0.9", "bhran": "1"},
        {"sample": "benavoli2017", "bview": "Who is best?", "bksamples": "1000", "bkprior": "2"},
        {"sample": "benavoli2017", "bview": "Who is best?", "bkmodel": "bradley-terry-davidson", "bksamples": "1000",
         "bkssd": "1.5", "bktsd": "1.5"},
    ],
}


def _first_run(page: str, query: dict):
    from streamlit.testing.v1 import AppTest

    from .apptest_helpers import APP

    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def _listed(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _address(at) -> dict:
    return {k: at.query_params[k] for k in at.query_params}


def test_the_scenarios_cover_every_choice_a_page_displays():
    """Every choice of a page, and every choice of another page that the page shows (CROSS_PAGE), is set by one of
    the page's scenarios: a new choice or dependency without a round trip fails here."""
    for page in SCENARIOS:
        covered = set().union(*(set(s) for s in SCENARIOS[page]))
        own = {c.param for c in links.CHOICES if c.page == page}
        shown = {param for param, _ in links.CROSS_PAGE.get(page, ())}
        assert own | shown <= covered, (page, sorted((own | shown) - covered))


@pytest.mark.parametrize("page, index", [(page, i) for page, scenarios in SCENARIOS.items()
                                          for i in range(len(scenarios))])
def test_every_choice_a_page_displays_round_trips_through_a_link(page, index):
    query = SCENARIOS[page][index]
    at = _first_run(page, query)
    problems = [w for w in texts(at.warning) if "The link's" in w]
    assert not problems, problems  # every value of the scenario is one the page offers
    address = _address(at)
    for param, value in query.items():
        written = address.get(param)
        assert _listed(written) == _listed(value), (page, param, written, value)
    fresh = _first_run(page, address)
    assert _address(fresh) == address
    before, after = _shown(at), _shown(fresh)
    for part in before:
        assert after[part] == before[part], (page, part)
    for choice in links.CHOICES:  # the same choices in the receiver's session
        if choice.param in query and choice.read is None:
            assert fresh.session_state[choice.key] == at.session_state[choice.key], choice.param
