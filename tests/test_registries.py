"""The registries dispatch (issue 18): a statistic or a procedure registered at run time reaches every
place that lists them, with no other change; one result protocol; each name in one library place."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import compare_lib as cl
from compare_lib.multiple import _adjust
from compare_lib.stats import _pairwise_tests

from .apptest_helpers import by_label, open_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_data"


def _toy_difference(table, pairs):
    """Mean difference of the oriented scores; 'significant' when it exceeds 0.02 (a toy rule)."""
    s = table.oriented_scores
    d = (s[:, pairs[:, 0]] - s[:, pairs[:, 1]]).mean(axis=0)
    return SimpleNamespace(statistic=d, pvalue=np.where(np.abs(d) > 0.02, 0.001, 0.6))


@pytest.fixture
def toy_test():
    spec = cl.register_pairwise_test(
        "toy-difference", _toy_difference, label="toy mean difference", reference="A teaching toy 2026",
        description="The mean difference, thresholded.", report="a toy thresholded mean difference (Toy, 2026)",
    )
    yield spec
    cl.unregister_pairwise_test("toy-difference")


@pytest.fixture
def toy_procedure():
    proc = cl.register_procedure("toy-double", lambda h: 2 * h.p, label="Toy doubling", reference="A toy 2026",
                                 description="Doubles each p-value.")
    yield proc
    cl.unregister_procedure("toy-double")


@pytest.fixture
def demsar():
    return cl.load_scores(SAMPLES / "demsar2006_table6_auc.csv")


def test_registered_statistic_reaches_posthoc_and_every_list(toy_test, demsar):
    res = cl.posthoc(demsar, test="toy-difference", correction="holm")
    scores = demsar.scores
    by_pair = {(r.a, r.b): r for r in res.itertuples()}
    expected = (scores["C4.5+m+cf"] - scores["C4.5"]).mean()
    row = by_pair.get(("C4.5", "C4.5+m+cf"))
    assert row.statistic == pytest.approx(-expected, abs=1e-15)
    assert row.better == "C4.5+m+cf"
    assert row.p_adj == pytest.approx(min(1.0, 0.001 * len(res)) if abs(expected) > 0.02 else 1.0)
    assert "toy-difference" in cl.TESTS and cl.posthoc_labels["toy-difference"] == "toy mean difference"
    assert "toy mean difference / Holm" in cl.verdicts(demsar).columns
    paragraph = cl.report.results_paragraph(demsar, res, cl.friedman(demsar), cl.iman_davenport(demsar))
    assert "a toy thresholded mean difference (Toy, 2026)" in paragraph
    apv = cl.apv_table(demsar, "toy-difference")
    assert "nemenyi" not in apv.columns and "holm" in apv.columns  # the mean-ranks-only rule applies to it


def test_registered_statistic_is_a_choice_on_the_posthoc_page(toy_test):
    at = open_page("posthoc", test="toy-difference")
    radio = by_label(at.radio, "Pairwise statistic")
    assert "Toy mean difference" in list(radio.options), radio.options  # the options as displayed
    assert not at.error
    assert any("hypotheses rejected" in m.value and "toy mean difference" in m.value for m in at.markdown)


def test_registered_statistic_is_gone_after_unregistering(demsar):
    cl.register_pairwise_test("toy-gone", _toy_difference, label="gone", reference="-")
    cl.unregister_pairwise_test("toy-gone")
    with pytest.raises(cl.InputError, match="test='toy-gone' is not known"):
        cl.posthoc(demsar, test="toy-gone")


def test_registering_twice_needs_replace(toy_test):
    with pytest.raises(cl.InputError, match="already registered"):
        cl.register_pairwise_test("toy-difference", _toy_difference, label="x", reference="y")
    with pytest.raises(cl.InputError, match="lower-case"):
        cl.register_pairwise_test("Toy", _toy_difference, label="x", reference="y")


def test_a_kernel_returning_the_wrong_length_is_refused(demsar):
    cl.register_pairwise_test("toy-bad", lambda t, pairs: SimpleNamespace(statistic=[1.0], pvalue=[0.5]),
                              label="bad", reference="-")
    try:
        with pytest.raises(cl.InputError, match="returned 1 statistics and 1 p-values for 6 pairs"):
            cl.posthoc(demsar, test="toy-bad")
    finally:
        cl.unregister_pairwise_test("toy-bad")


def test_registered_procedure_reaches_adjust_posthoc_and_the_page(toy_procedure, demsar):
    p = np.array([0.01, 0.2, 0.3])
    assert cl.adjust(p, "toy-double").tolist() == [0.02, 0.4, 0.6]
    assert "toy-double" in cl.procedures_for("all-pairs") and "toy-double" in cl.procedures_for("control")
    res = cl.posthoc(demsar, "wilcoxon", "toy-double")
    assert np.allclose(res["p_adj"], np.maximum.accumulate(np.minimum(1, 2 * res["p"])))
    assert "toy-double" in cl.apv_table(demsar, "wilcoxon").columns
    at = open_page("posthoc", correction="toy-double")
    assert by_label(at.selectbox, "Procedure").value == "toy-double"
    assert "Toy doubling" in list(by_label(at.selectbox, "Procedure").options)


def test_old_link_parameter_procedure_still_works():
    at = open_page("posthoc", test="mean-ranks", procedure="nemenyi")
    assert by_label(at.selectbox, "Procedure").value == "nemenyi"


def test_docstring_examples_run():
    for module in (_adjust, _pairwise_tests):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried >= 3 and failures == 0, module.__name__


@pytest.mark.parametrize("fn,args,kwargs", [
    (cl.posthoc, ("wilcoxon", "holm"), {}),
    (cl.posthoc, ("mean-ranks", "nemenyi"), {}),
    (cl.posthoc, ("mean-ranks", "bonferroni-dunn"), {"control": "C4.5"}),
    (cl.apv_table, ("wilcoxon",), {}),
    (cl.verdicts, (), {}),
    (cl.pool_verdicts, (["C4.5", "C4.5+m", "C4.5+cf"],), {}),
])
def test_result_object_gives_exactly_the_dataframe(demsar, fn, args, kwargs):
    frame = fn(demsar, *args, **kwargs)
    result = fn(demsar, *args, **kwargs, as_result=True)
    assert isinstance(result, cl.FrameResult)
    again = result.to_frame()
    pd.testing.assert_frame_equal(again, frame)
    assert again.attrs == frame.attrs
    d = result.to_dict()
    assert len(d["rows"]) == len(frame) and isinstance(result.notes, tuple)
    for key, value in frame.attrs.items():
        assert d[key] == value


def test_downstream_takes_the_result_object(demsar):
    result = cl.posthoc(demsar, "mean-ranks", "nemenyi", as_result=True)
    frame = result.to_frame()
    assert cl.groups(result) == cl.groups(frame)
    assert cl.plots.cd_layout(result) == cl.plots.cd_layout(frame)
    fr, ff = cl.friedman(demsar), cl.iman_davenport(demsar)
    assert cl.report.results_paragraph(demsar, result, fr, ff) == cl.report.results_paragraph(demsar, frame, fr, ff)
    assert result.cd == pytest.approx(1.2536, abs=1e-4)  # Demšar 2006, §3.2.4: CD = 1.25 for k = 4, N = 14


def test_every_result_speaks_the_protocol(demsar):
    a, b = demsar.scores["C4.5"], demsar.scores["C4.5+m"]
    results = [cl.friedman(demsar), cl.iman_davenport(demsar), cl.rm_anova(demsar), cl.friedman_aligned_ranks(demsar),
               cl.quade(demsar), cl.wilcoxon(a, b), cl.sign_test(a, b), cl.paired_ttest(a, b),
               cl.bayesian_sign_test(a, b, rope=0.01, samples=2000, seed=0),
               cl.effect_sizes(demsar, "C4.5", "C4.5+m"), cl.replicability(np.ones((3, 4), dtype=bool)),
               cl.cv_ttest(np.array([0.1, 0.2, 0.05]))]
    for r in results:
        assert isinstance(r, cl.Result), type(r)
        assert isinstance(r.notes, tuple) and all(isinstance(n, str) for n in r.notes)
        d = r.to_dict()
        assert isinstance(d, dict) and len(r.to_frame()) == 1
        assert not any(isinstance(v, (pd.Series, pd.DataFrame, np.ndarray)) for v in d.values())


def _string_constants(path: Path) -> list[tuple[str, int]]:
    """String constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(n.value, n.lineno) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_each_statistic_and_procedure_is_named_in_one_library_place():
    """A pairwise statistic's name stands in the library only in its registry entry; a procedure's only in
    its entry (and the default), except the pool sensitivity's own critical values (Benavoli et al.'s
    Bonferroni z*, Nemenyi's q, Holm within each pool) and the two critical differences of CD diagrams."""
    public_functions = {n for names in cl._PUBLIC.values() for n in names}
    tests, procedures = set(cl.PAIRWISE_TESTS), set(cl.PROCEDURES)
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "compare_lib").rglob("*.py")):
        for value, line in _string_constants(path):
            if value in tests | procedures and not (path.name == "__init__.py" and value in public_functions):
                found.setdefault(value, []).append(f"{path.name}:{line}")
    for name in tests:
        files = {place.split(":")[0] for place in found.get(name, [])}
        assert files <= {"_pairwise_tests.py", "_bayesian.py"}, (name, found[name])  # _bayesian: its own sign test
    own_sets = {"_pool.py": {"bonferroni", "nemenyi", "holm"}, "_critical.py": {"nemenyi", "bonferroni-dunn"},
                # "none" the missing-cell marker and the English word, not the uncorrected procedure:
                "_table_validation.py": {"none"}, "_cells.py": {"none"}, "_direction.py": {"none"},
                # the direction catalogue's "no better direction" (issue 28):
                "_catalogue.py": {"none"},
                # the coverage measured for rank sets with these two procedures (issue 28):
                "_rank_sets.py": {"nemenyi", "holm"}}
    for name in procedures:
        for place in found.get(name, []):
            file = place.split(":")[0]
            assert file == "_adjust.py" or name in own_sets.get(file, set()), (name, place)
