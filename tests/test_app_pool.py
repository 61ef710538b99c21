"""AppTest tests of the Pool sensitivity page: explorer, one pair, all pairs, the three demos."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from .apptest_helpers import open_page, by_label, texts


PAIR, DEMOS = "One pair in every pool", "Teaching demos"


def _pool_app(**query) -> AppTest:
    """The page, on the tab of ``ptab`` (the subset explorer without it): only the open tab runs."""
    return open_page("pool", **query)


def _open_tab(at: AppTest, label: str) -> AppTest:
    """Switch tabs as the tab bar does (it reruns the page), through the page's own request slot."""
    at.session_state["pool_tab_request"] = label
    at.run()
    assert not at.exception, at.exception
    return at


def _changed_line(at) -> str:
    return next(m for m in texts(at.markdown) if m.startswith("**Verdicts that differ"))


def _members(at):
    return next(w for w in at.multiselect if w.label.startswith("Classifiers in the pool"))


def test_explorer_shows_a_verdict_flip_when_a_classifier_is_removed():
    at = _pool_app(sample="benavoli2016")
    assert "mean ranks 0, Wilcoxon 0, sign test 0 of 21 pairs" in _changed_line(at)
    _members(at).set_value(["C1", "C2", "C3", "C4", "C5", "C7"])  # remove C6
    at.run()
    assert not at.exception
    assert "mean ranks 1, Wilcoxon 0, sign test 0 of 15 pairs" in _changed_line(at)
    frame = at.dataframe[0].value
    row = frame[(frame["a"] == "C2") & (frame["b"] == "C4")].iloc[0]
    assert not row["mean ranks: significant"] and row["… in the full pool"]
    assert len(at.get("plotly_chart")) >= 1


def test_explorer_needs_two_classifiers():
    at = _pool_app()
    _members(at).set_value(["C4.5"])
    at.run()
    assert any("at least 2" in e for e in texts(at.error))


def test_one_pair_tab_and_smallest_flip():
    at = _pool_app(sample="benavoli2016", ptab=PAIR)
    by_label(at.selectbox, "Classifier A").set_value("C2")
    at.run()
    by_label(at.selectbox, "Classifier B").set_value("C4")
    at.run()
    text = " ".join(texts(at.markdown))
    assert "In the full pool C2 vs C4 is **significant**" in text
    assert "Remove C3" in text and "Remove C6" in text


def test_all_pairs_reproduces_table1():
    at = _pool_app(sample="benavoli2016", ptab="All pairs")
    dep = next(d.value for d in at.dataframe if "2 others" in d.value.columns)
    c2c4 = dep[(dep["a"] == "C2") & (dep["b"] == "C4")].iloc[0]
    assert (c2c4["2 others"], c2c4["3 others"], c2c4["4 others"]) == ("7/10", "9/10", "3/5")


def test_procedures_and_friedman_gate():
    at = _pool_app(sample="benavoli2016")
    for label in ("Nemenyi (studentized range)", "Holm within the pool", "Bonferroni (as in the paper)"):
        by_label(at.radio, "Correction for the pool's m(m−1)/2 comparisons").set_value(label)
        at.run()
        assert not at.exception and not at.error
    by_label(at.checkbox, "Friedman must reject first").check()
    at.run()
    assert not at.exception and not at.error


def test_demo_example1_button():
    """Issue 23: the example opens the subset explorer on A and B alone, where the mean-ranks verdict differs from
    the full pool's; a message says the loaded table was replaced, and a button brings it back."""
    at = _pool_app(ptab=DEMOS)
    at.button(key="demo1").click()
    at.run()
    assert not at.exception
    assert any("Example 1" in c for c in texts(at.caption))
    assert any("Example 1 is loaded: it replaced your table (sample: Demšar 2006" in m for m in texts(at.success))
    line = _changed_line(at)
    assert "mean ranks 1," in line and "of 1 pairs" in line  # A vs B: significant only in the full pool of five
    back = at.button(key="pool_back")
    assert "Back to my table" in back.label
    back.click()
    at.run()
    assert not at.exception
    assert any("Demšar 2006, Table 6" in c for c in texts(at.caption))
    assert not [b for b in at.button if b.key == "pool_back"]


def test_demo_example2_simulation_runs_with_progress():
    at = _pool_app(ptab=DEMOS)
    form_inputs = [w for w in at.number_input if w.label in ("Mean of B", "Data sets", "Repetitions", "Seed")]
    assert [w.label for w in form_inputs] == ["Mean of B", "Data sets", "Repetitions", "Seed"]
    by_label(at.number_input, "Repetitions").set_value(400)
    at.button(key="FormSubmitter:demo2-Run the simulation").click()
    at.run()
    assert not at.exception, at.exception
    sim = next(d.value for d in at.dataframe if "power" in d.value.columns)
    power = dict(zip(sim["test"], sim["power"]))
    assert power["sign test"] > 0.8 and power["mean-ranks z"] < 0.2


def test_demo_example2_bad_means():
    at = _pool_app(ptab=DEMOS)
    at.text_input[0].set_value("5, six, 7")
    at.button(key="FormSubmitter:demo2-Run the simulation").click()
    at.run()
    assert any("Give at most 20 numbers" in e for e in texts(at.error))


def test_demo_example3_button():
    at = _pool_app(ptab=DEMOS)
    at.button(key="demo3").click()
    at.run()
    assert any("54 data sets × 7 classifiers" in c for c in texts(at.caption))
    # It opens All pairs (Benavoli et al.'s counts), and the explorer holds the example's pool of four.
    assert any("2 others" in d.value.columns for d in at.dataframe)
    _open_tab(at, "Subset explorer")
    assert "of 6 pairs" in _changed_line(at)


def test_explorer_shows_the_other_pool_dependent_statistics():
    """Issue 13: the exact rank-sum test shares the mean-ranks paradox (Benavoli et al.'s Example 1: A vs B
    significant with C, D and E in the pool, not alone)."""
    import compare_lib as cl

    from .conftest import SAMPLES

    at = _pool_app(sample="benavoli2016-example1", pstat="rank-sum-exact")
    assert by_label(at.selectbox, "Also show another pool-dependent statistic").value == 1
    _members(at).set_value(["A", "B"])
    at.run()
    assert not at.exception
    expected = cl.pool_verdicts(cl.load_scores(SAMPLES / "benavoli2016_example1.csv", higher_is_better=True), ["A", "B"],
                               statistic="rank-sum-exact")
    assert bool(expected["changed_rank_sum_exact"].iloc[0])
    assert "exact rank-sum difference 1," in _changed_line(at)
    frame = at.dataframe[0].value
    assert not frame["exact rank-sum difference: significant"].iloc[0]
    assert frame["exact rank-sum difference: … in the full pool"].iloc[0]
    assert at.query_params["pstat"] in ("rank-sum-exact", ["rank-sum-exact"])


def test_multiple_comparisons_demo_matches_the_library():
    """Issue 23: the family-wise error of equal classifiers, uncorrected, Bonferroni and Holm, as k grows; the sentence
    and the charts come from cl.familywise_error."""
    import compare_lib as cl

    at = _pool_app(ptab=DEMOS)
    by_label(at.number_input, "Largest k").set_value(4)
    by_label(at.number_input, "Tables per k").set_value(200)
    at.button(key="FormSubmitter:fwer_demo-Run the simulation").click()
    at.run(timeout=120)
    assert not at.exception, at.exception
    expected = cl.familywise_error(4, 20, procedures=("none", "bonferroni", "holm"), test=cl.RECOMMENDED_TEST,
                                   reps=200, seed=0).set_index("procedure")
    sentence = next(m for m in texts(at.markdown) if m.startswith("With k = 4 equal classifiers"))
    assert f"{expected.loc['none', 'fwer']:.0%} of the simulated tables" in sentence
    assert f"with Holm, {expected.loc['holm', 'fwer']:.0%}" in sentence
    keys = [c.proto.id for c in at.get("plotly_chart")]
    assert any(k.endswith("fwer_fig") for k in keys) and any(k.endswith("fwer_power_fig") for k in keys)


def test_a_link_opens_the_pool_tab():
    at = _pool_app(ptab="All pairs")
    assert not at.exception
    assert at.query_params["ptab"] in ("All pairs", ["All pairs"])
    at = _pool_app(ptab="Nowhere")
    assert any("is not on this page" in w for w in texts(at.warning))


def test_only_the_open_tab_runs_and_the_pool_is_kept_across_tabs():
    """Issue 31: a page run draws the open tab only (the others' widgets, tables and charts are not made); the
    explorer's pool and the pair stay as chosen when the reader switches tabs and back."""
    at = _pool_app(sample="benavoli2016")
    assert [m.label for m in at.multiselect] == ["Classifiers in the pool (add or remove and watch the verdicts)"]
    assert not [s for s in at.selectbox if s.label in ("Classifier A", "Classifier B")]
    assert not at.button and not any("2 others" in d.value.columns for d in at.dataframe)
    _members(at).set_value(["C1", "C2", "C3", "C4", "C5", "C7"])
    at.run()
    _open_tab(at, PAIR)
    assert not at.multiselect and not any(d.value.columns[0] == "a" and "z (this pool)" in d.value.columns
                                          for d in at.dataframe)
    by_label(at.selectbox, "Classifier A").set_value("C2")
    at.run()
    by_label(at.selectbox, "Classifier B").set_value("C4")
    at.run()
    # The smallest flip starts from the explorer's pool, although the explorer did not run.
    text = " ".join(texts(at.markdown))
    assert "From the explorer's pool (not significant there)" in text
    _open_tab(at, "Subset explorer")
    assert _members(at).value == ["C1", "C2", "C3", "C4", "C5", "C7"]
    assert "mean ranks 1, Wilcoxon 0, sign test 0 of 15 pairs" in _changed_line(at)
    _open_tab(at, PAIR)
    assert by_label(at.selectbox, "Classifier A").value == "C2" and by_label(at.selectbox, "Classifier B").value == "C4"
