"""Issue 27: every value of every link parameter is validated before use; none can raise.

A shared link sets the dashboard's state from its query parameters. ``dropz=[Infinity]`` raised an uncaught
OverflowError and a seed of 2**53 or more broke the Replicability page for the session. Now every value is
checked (of the right type, whole numbers read from their digits, finite, in the range or among the values the
page's widget offers, text and lists bounded), and a value that does not fit is reported by a warning naming
the parameter while the page's default stays in force.

The pages are opened with a hostile value in every parameter of the page at once, and in the global ones
(``alpha``, ``dropz``, ``drop``, ``classifier``, ``dir``, ``metric``, ``agg``, ``sample``, ``data``, ``fp``).
The fast part runs a few kinds of values; the full matrix is marked slow.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import compare_lib as cl

from .apptest_helpers import APP, by_label, texts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboard"))
import links  # noqa: E402

PAGES = ("load_data", "omnibus", "posthoc", "pool", "replicability", "bayesian")
LONG = "x" * 10_000
#: Every kind of hostile value, as the text of a parameter; for dropz the JSON ones are packed as the app packs.
HOSTILE = ["Infinity", "-Infinity", "NaN", "1e308", "9007199254740993", "-1", "1e400", LONG,
           "[Infinity]", '["a"]', "{}", "[1e300]"]
FAST = ["Infinity", "9007199254740993", LONG, "[Infinity]"]
PACKED = {"[Infinity]": [math.inf], '["a"]': ["a"], "{}": {}, "[1e300]": [1e300]}
#: Global parameters that can travel together (sample, data and fp exclude each other: one per page below).
GLOBALS = ("alpha", "dropz", "drop", "classifier", "dir", "metric", "agg")
EXCLUSIVE = {"load_data": "sample", "omnibus": "data", "posthoc": "sample", "pool": "data"}
#: Page choices that the page itself checks against what it shows, saying so in its own words...
PAGE_WORDS = {"family": "The family '", "test": "The test '", "effect": "The effect '", "pproc": "(pproc)",
              "ptab": "The link's tab", "rtab": "The link's tab"}
#: ... or silently (fold-level data the link cannot see): a link only bounds their length.
SILENT = {"fa", "fb", "fscheme", "ftest", "bfa", "bfb", "bfscheme", "bfds", "bfseed", "bha", "bhb", "bhscheme"}
#: Hostile texts that are valid values of a parameter (issue 28: Example 2's mean of B and other means, the
#: relevance demo's true difference, may be -1).
VALID = {("qdiff", "-1"), ("d2b", "-1"), ("d2others", "-1"), ("bddelta", "-1")}


PLAN, RUN = "How many data sets do I need?", "Run an experiment"  # tabs of the Replicability page


def _open_tab(at: AppTest, label: str) -> AppTest:
    """Open a tab of the Replicability page as its tab bar does (only the open tab runs, issue 31)."""
    at.session_state["rep_tab_request"] = label
    at.run()
    assert not at.exception, at.exception
    return at


def _dropz(value: str) -> str:
    return links._pack(PACKED[value]) if value in PACKED else value


def _query(page: str, value: str) -> dict[str, str]:
    query = {c.param: value for c in links.CHOICES if c.page == page}
    query.update({g: value for g in GLOBALS})
    query["dropz"] = _dropz(value)
    if page in EXCLUSIVE:
        query[EXCLUSIVE[page]] = value
    return query


def _open(page: str, query: dict | None = None, state: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    return at


def _get(at: AppTest, key: str):
    try:
        return at.session_state[key]
    except KeyError:
        return "<absent>"


def _keys(page: str) -> list[str]:
    keys = [c.key for c in links.CHOICES if c.page == page and c.key != "bay_prior_link"]
    if page == "bayesian":
        keys += ["bay_prior_signed-rank", "bay_prior_sign"]
    return keys + ["alpha", "keep_classifiers", "drop_datasets"]


@pytest.fixture(scope="module")
def baselines() -> dict[str, dict]:
    """What each page holds when opened without a link (the defaults)."""
    out = {}
    for page in PAGES:
        at = _open(page)
        assert not at.exception, at.exception
        out[page] = {key: _get(at, key) for key in _keys(page)} | {"origin": at.session_state["origin"]}
    return out


def _named(param: str, warnings: list[str]) -> bool:
    words = [f"link's {param} ", f"({param})", f"link's {param}:"] + ([PAGE_WORDS[param]] if param in PAGE_WORDS else [])
    if param == "classifier":
        words.append("classifiers (classifier)")
    return any(word in w for w in warnings for word in words)


def _check_page(page: str, value: str, baselines: dict) -> None:
    query = _query(page, value)
    at = _open(page, query)
    assert not at.exception, (page, value[:40], at.exception)
    warnings = texts(at.warning)
    for param in query:
        if (param, value) in VALID or (param in SILENT and value != LONG):
            continue
        assert _named(param, warnings), (page, param, value[:40], [w[:120] for w in warnings])
    assert all(len(w) < 1500 for w in warnings), "a value is shown shortened"
    base = baselines[page]
    for key in _keys(page):
        if any(c.key == key and (c.param, value) in VALID for c in links.CHOICES):
            continue
        if key in FOLD_VIEW_KEYS:
            continue  # used (and checked) only on the fold-level view or tab: test_fold_level_choices_...
        assert _get(at, key) == base[key], (page, key, value[:40], _get(at, key))
    assert at.session_state["origin"] == base["origin"]
    assert at.number_input(key="alpha").value == pytest.approx(0.05)


@pytest.mark.parametrize("value", FAST, ids=lambda v: v[:20])
@pytest.mark.parametrize("page", PAGES)
def test_hostile_values_open_every_page_with_a_warning_and_the_defaults(page, value, baselines):
    _check_page(page, value, baselines)


@pytest.mark.slow
@pytest.mark.parametrize("value", [v for v in HOSTILE if v not in FAST], ids=lambda v: v[:20])
@pytest.mark.parametrize("page", PAGES)
def test_every_kind_of_hostile_value_on_every_page(page, value, baselines):
    _check_page(page, value, baselines)


FOLD_VIEW_KEYS = {c.key for c in links.CHOICES if c.param in SILENT}
#: The views of fold-level results (the Bayesian page's two, the Replicability page's tab: only the open view or
#: tab runs, issue 31), and their silent choices.
FOLD_VIEWS = {("bayesian", "bview", "Fold-level results"): ("bfa", "bfb", "bfscheme", "bfds", "bfseed"),
              ("bayesian", "bview", "Hierarchical (fold level)"): ("bha", "bhb", "bhscheme"),
              ("replicability", "rtab", "Tests on fold-level results"): ("fa", "fb", "fscheme", "ftest")}


@pytest.mark.parametrize("view_name", list(FOLD_VIEWS), ids=lambda v: v[2])
@pytest.mark.parametrize("value", FAST, ids=lambda v: v[:20])
def test_fold_level_choices_of_a_link_fall_back_on_the_fold_view(value, view_name):
    """The fold-level choices name classifiers, schemes, data sets and seeds of fold-level results the link cannot
    see: the page checks them against the results it shows and falls back to its first entries."""
    page, param, name = view_name
    view = {param: name}
    keys = {c.key for c in links.CHOICES if c.param in FOLD_VIEWS[view_name]}
    assert keys <= FOLD_VIEW_KEYS
    base = _open(page, view)
    assert not base.exception, base.exception
    at = _open(page, view | {c.param: value for c in links.CHOICES if c.key in keys})
    assert not at.exception, at.exception
    for key in keys:
        assert _get(at, key) == _get(base, key) != "<absent>", key
    if value == LONG:
        assert all(any(f"link's {c.param} " in w for w in texts(at.warning))
                   for c in links.CHOICES if c.key in keys)


@pytest.mark.parametrize("value", ["Infinity", "0123456789abcdef0", LONG, "[Infinity]"], ids=lambda v: v[:20])
def test_a_bad_fingerprint_is_reported_and_no_view_waits(value, baselines):
    at = _open("load_data", {"fp": value, "rseed": "5", "alpha": "0.1"})
    assert not at.exception, at.exception
    assert any("(fp)" in w for w in texts(at.warning)), texts(at.warning)
    assert "pending_view" not in at.session_state
    assert at.session_state["origin"] == baselines["load_data"]["origin"]
    assert at.number_input(key="alpha").value == pytest.approx(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("payload", [[math.inf], {}, {"higher": True}, {"higher": True, "csv": "\ud800"},
                                     {"higher": True, "csv": 5}, "x", None], ids=repr)
def test_a_hostile_table_in_a_link_is_reported(payload, baselines):
    at = _open("load_data", {"data": links._pack(payload), "alpha": "0.1"})
    assert not at.exception, at.exception
    assert any("(data) could not be read" in w for w in texts(at.warning)), texts(at.warning)
    assert at.session_state["origin"] == baselines["load_data"]["origin"]
    assert at.number_input(key="alpha").value == pytest.approx(0.1)  # the rest of the view still applies


def test_a_link_table_with_odd_extras_is_read_without_them():
    payload = {"higher": True, "csv": "dataset,A,B\nd1,1,2\nd2,3,4\nd3,5,7\n", "notes": 5, "metric": ["m"],
               "missing": {}, "name": 7}
    at = _open("load_data", {"data": links._pack(payload)})
    assert not at.exception and not texts(at.warning), texts(at.warning)
    table = at.session_state["table"]
    assert table.classifiers == ["A", "B"] and table.metric is None and table.notes == ()


def test_dropz_in_range_leaves_out_those_data_sets_and_out_of_range_keeps_all():
    at = _open("load_data", {"sample": "demsar2006", "dropz": links._pack([0, 2])})
    assert not at.exception and not texts(at.warning)
    table = at.session_state["table"]
    assert at.session_state["drop_datasets"] == [table.datasets[0], table.datasets[2]]
    for bad in ([0, table.n_datasets], [0, -1], [True], [0.0], [[1]], list(range(table.n_datasets + 1))):
        at = _open("load_data", {"sample": "demsar2006", "dropz": links._pack(bad)})
        assert not at.exception
        assert any("dropz" in w for w in texts(at.warning)), (bad, texts(at.warning))
        assert at.session_state["drop_datasets"] == []


def test_seeds_are_read_exactly_from_their_digits():
    """The Replicability seed: 2**32 - 1 is taken as is; 2**32 and 2**53 + 1 (which a float rounds to 2**53) are
    refused with the range; 1e3 is not a whole number written with digits, so it is refused too."""
    at = _open("replicability", {"rseed": str(2**32 - 1), "qseed": "007"})
    assert not at.exception and not texts(at.warning)
    assert at.number_input(key="w_rep_seed").value == 2**32 - 1
    assert _open_tab(at, PLAN).number_input(key="w_plan_seed").value == 7
    at = _open("replicability", {"rseed": str(2**32), "qseed": "9007199254740993"})
    assert not at.exception
    shown = texts(at.warning)
    assert any(f"link's rseed '{2**32}' is not a whole number from 0 to 4,294,967,295" in w for w in shown), shown
    assert any("link's qseed '9007199254740993' is not a whole number" in w for w in shown), shown
    assert at.number_input(key="w_rep_seed").value == 0 and _open_tab(at, PLAN).number_input(key="w_plan_seed").value == 0
    at = _open("replicability", {"rsamples": "1e3", "rkmax": "5.0"})
    assert not at.exception
    assert at.number_input(key="w_rep_samples").value == 1000 and at.number_input(key="w_rep_kmax").value == 20
    assert any("link's rsamples '1e3' is not a whole number" in w for w in texts(at.warning))
    assert any("link's rkmax '5.0' is not a whole number" in w for w in texts(at.warning))


def test_valid_values_still_travel():
    at = _open("replicability", {"rsamples": "2000", "qdiff": "1e-3", "rkstep": "+3", "fratio": "0.25"})
    assert not at.exception and not texts(at.warning)
    assert at.number_input(key="w_rep_samples").value == 2000 and at.number_input(key="w_rep_kstep").value == 3
    assert _open_tab(at, PLAN).number_input(key="w_plan_diff").value == pytest.approx(0.001)
    at = _open("bayesian", {"rope": "0.05", "bsamples": "20000", "bseed": str(2**31 - 1), "bdec": "0.99"})
    assert not at.exception and not texts(at.warning)
    assert by_label(at.number_input, "Seed").value == 2**31 - 1
    assert at.select_slider(key="w_bay_samples").value == 20000


def test_the_bayesian_seed_agrees_with_its_widget():
    """The Bayesian page's seed widget offers 0 to 2**31 - 1: a link beyond is refused, not clamped."""
    at = _open("bayesian", {"bseed": str(2**31)})
    assert not at.exception
    assert any("link's bseed '2147483648' is not a whole number from 0 to 2,147,483,647" in w for w in texts(at.warning))
    assert by_label(at.number_input, "Seed").value == 0


@pytest.mark.parametrize("value", [math.inf, -1, 2**60, 2.5, "7", None, math.nan], ids=repr)
def test_a_remembered_number_out_of_range_never_reaches_a_number_input(value):
    """Whatever the session holds (a link, an older version of the app), a page builds its number widgets only
    from values they offer."""
    keys = ["rep_samples", "rep_kmax", "rep_kstep", "rep_seed", "rep_nsets", "plan_nmax", "plan_reps", "plan_seed",
            "plan_diff"]
    at = _open("replicability", state={key: value for key in keys})
    assert not at.exception, at.exception
    assert at.number_input(key="w_rep_seed").value == 0 and at.number_input(key="w_rep_samples").value == 1000
    _open_tab(at, PLAN)  # the planning tab's widgets, drawn when it opens (issue 31: only the open tab runs)
    assert at.number_input(key="w_plan_seed").value == 0 and at.number_input(key="w_plan_reps").value == 500
    at = _open("bayesian", state={"bay_rope": value, "bay_seed": value, "bay_prior_signed-rank": value})
    assert not at.exception, at.exception
    assert by_label(at.number_input, "Seed").value == 0
    assert by_label(at.number_input, "ROPE (in the units of the scores)").value == pytest.approx(0.01)


# -- the checks themselves, without the app ------------------------------------------------------------


@pytest.fixture(scope="module")
def table(demsar) -> cl.ScoreTable:
    return demsar


@pytest.mark.parametrize("choice", links.CHOICES, ids=lambda c: c.param)
def test_every_choice_refuses_every_hostile_value_with_its_name(choice, table):
    for value in HOSTILE:
        ok, got, problem = links.check_value(choice, [value], table)
        if (choice.param, value) in VALID or (choice.param in SILENT | set(PAGE_WORDS) and value != LONG):
            assert ok
            continue
        assert not ok and got is None, (choice.param, value[:40])
        assert problem.startswith(f"The link's {choice.param} ") and len(problem) < 400
        assert "is used" in problem  # what is used instead


@pytest.mark.parametrize("choice", [c for c in links.CHOICES if c.lo is not None or c.hi is not None or
                                    (c.kind == "int" and c.options)], ids=lambda c: c.param)
def test_numbers_at_the_edges_of_the_widgets_range(choice, table):
    lo = choice.lo(table) if callable(choice.lo) else choice.lo
    hi = choice.hi(table) if callable(choice.hi) else choice.hi
    if choice.options:
        assert all(links.check_value(choice, [str(o)], table)[0] for o in choice.options)
        assert not links.check_value(choice, [str(choice.options[0] + 1)], table)[0]
        return
    text = str if choice.kind == "int" else repr
    assert links.check_value(choice, [text(lo)], table)[0] is not choice.lo_open
    assert links.check_value(choice, [text(hi)], table)[0] is not choice.hi_open
    step = 1 if choice.kind == "int" else max(abs(hi), 1) * 1e-6
    assert not links.check_value(choice, [text(lo - step)], table)[0]
    assert not links.check_value(choice, [text(hi + step)], table)[0]


@pytest.mark.parametrize("page", ["replicability", "bayesian"])
def test_the_widgets_offer_the_range_a_link_accepts(page):
    """Each number widget's min and max are the Choice's lo and hi (so a link is refused exactly where the widget
    would refuse the value), and the posterior samples are the select slider's options."""
    at = _open(page)
    assert not at.exception, at.exception
    table = at.session_state["table"]
    widgets = list(at.number_input) + list(at.slider)
    if page == "replicability":  # only the open tab runs (issue 31): each tab's widgets, drawn when it opens
        for tab in (PLAN, RUN):
            widgets += list(_open_tab(at, tab).number_input)
    checked = 0
    for choice in links.CHOICES:
        if choice.page != page or (choice.lo is None and choice.hi is None):
            continue
        found = [w for w in widgets if w.key and w.key.startswith(choice.widget)]
        if not found or (found[0].min is None and found[0].max is None):
            continue  # a text input (the ratio), or a widget without bounds (the difference: its page checks it)
        lo = choice.lo(table) if callable(choice.lo) else choice.lo
        hi = choice.hi(table) if callable(choice.hi) else choice.hi
        assert (found[0].min, found[0].max) == (pytest.approx(lo), pytest.approx(hi)), choice.param
        checked += 1
    # rnsets ... qseed and the experiment's seeds (issue 28); rope, bprior, bdec, bseed (the relevance demo's inputs
    # are drawn on its own view only)
    assert checked == {"replicability": 9, "bayesian": 4}[page]
    if page == "bayesian":
        samples = next(c for c in links.CHOICES if c.param == "bsamples")
        assert tuple(int(o) for o in at.select_slider(key="w_bay_samples").options) == samples.options


def test_seed_choices_are_bounded_by_max_seed():
    seeds = [c for c in links.CHOICES if c.param.endswith("seed") and c.kind == "int"]
    # d2seed: Example 2's form (issue 28); iseed: the Per-task comparison's random tests (issue 30)
    assert {c.param for c in seeds} == {"rseed", "qseed", "bseed", "d2seed", "iseed"}
    assert all(0 == c.lo and c.hi <= cl.limits.MAX_SEED for c in seeds)


@pytest.mark.parametrize("text, expected", [("9007199254740993", 9007199254740993), ("-1", -1), ("+5", 5),
                                            ("1e3", None), ("5.0", None), ("1_000", None), ("٣", None), ("", None),
                                            (" 12 ", 12), ("1" * 41, None), ("0x10", None)])
def test_parse_int_reads_digits_only(text, expected):
    assert links.parse_int(text) == expected


@pytest.mark.parametrize("text, expected", [("0.05", 0.05), ("1e3", 1000.0), ("-.5", -0.5), ("1e308", 1e308),
                                            ("1e400", None), ("Infinity", None), ("nan", None), ("1_0", None),
                                            ("٣", None), ("0x1p3", None), ("1" * 41, None)])
def test_parse_float_reads_finite_decimals_only(text, expected):
    assert links.parse_float(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60) | st.from_regex(r"[+-]?[0-9]{0,25}(\.[0-9]{0,5})?(e[+-]?[0-9]{1,4})?", fullmatch=True))
def test_no_text_makes_a_check_raise(text):
    t = _TABLE
    for choice in links.CHOICES:
        ok, value, problem = links.check_value(choice, [text], t)
        assert ok != (problem is not None)
        if ok and choice.kind in ("int", "float"):
            assert isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


json_values = st.recursive(st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                                      max_size=3), max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_no_packed_value_makes_dropz_raise(value):
    positions, problem = links._positions(links._pack(value), 14)
    if problem is None:
        assert all(type(i) is int and 0 <= i < 14 for i in positions)
    else:
        assert "dropz" in problem and len(problem) < 400 and positions == []


_TABLE = cl.load_scores(Path(__file__).resolve().parents[1] / "sample_data" / "demsar2006_table6_auc_untied.csv",
                        higher_is_better=True)
