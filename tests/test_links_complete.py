"""Links carry the whole view (issue 23): every keyed widget of every page and view is declared once in
links.CHOICES (or, with a reason, in links.NOT_IN_LINKS), and a link made after changing the choices, opened in a
fresh session, shows the same numbers."""

from __future__ import annotations

import re
import sys
from pathlib import Path

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
    """(keys of the input widgets, labels of input widgets without a key outside a form)."""
    keyed, unkeyed = set(), []

    def walk(node, in_form: bool) -> None:
        kind, key = getattr(node, "type", None), getattr(node, "key", None)
        in_form = in_form or kind == "form"
        if kind in INPUTS:
            if key:
                keyed.add(key)
            elif not in_form:
                unkeyed.append(f"{kind} {getattr(node, 'label', '')!r}")
        children = getattr(node, "children", None)
        for child in (children.values() if isinstance(children, dict) else children or []):
            walk(child, in_form)

    walk(at._tree, False)
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
                                    "Significance is not relevance"]),
             "omnibus": ("ochart", ["Mean ranks", "Ranks per data set"])}
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
        assert not unkeyed, f"{page}: input widgets without a key (outside a form): {unkeyed}"


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
    at = open_page("replicability", rtab="How many data sets do I need?")
    at.number_input(key="w_plan_nmax").set_value(40)
    at.number_input(key="w_rep_seed").set_value(5)
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
