"""AppTest tests of the Post-hoc page: every control, a bad choice, and shareable links."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

import compare_lib as cl

from .apptest_helpers import by_label, goto, open_page, texts, upload


def _posthoc_app(**query) -> AppTest:
    return open_page("posthoc", **query)


def _cd_figure(at) -> dict:
    charts = at.get("plotly_chart")
    spec = json.loads(charts[0].proto.spec)
    return spec


def _groups(spec) -> set[frozenset]:
    return {frozenset(tr["meta"]) for tr in spec["data"] if tr.get("name") == "group"}


def _summary(at) -> str:
    return next(m for m in texts(at.markdown) if "hypotheses rejected" in m)


def test_default_is_wilcoxon_with_holm():
    at = _posthoc_app()
    assert by_label(at.radio, "Pairwise statistic").value == 0  # Wilcoxon first
    assert by_label(at.selectbox, "Procedure").value == "holm"
    assert "of 6 hypotheses rejected" in _summary(at)
    assert not at.error and not [w for w in texts(at.warning) if "pool" in w]
    # The CD diagram, horizontal and vertical (the browser shows the one that fits its column); the other views
    # are drawn when chosen.
    assert [c.key for c in at.get("plotly_chart")] == ["cd_diagram_chart", "cd_diagram_narrow_chart"]
    assert at.query_params["test"] in ("wilcoxon", ["wilcoxon"]) and at.query_params["sample"] in ("demsar2006", ["demsar2006"])


def test_mean_ranks_warns_about_the_pool():
    at = _posthoc_app()
    by_label(at.radio, "Pairwise statistic").set_value(2)
    at.run()
    assert any("depends on which other classifiers are in the pool" in w for w in texts(at.warning))
    assert any("With N = 14 data sets" in c and "Exact rank-sum difference" in c for c in texts(at.caption))
    assert "Nemenyi" in by_label(at.selectbox, "Procedure").options


@pytest.mark.parametrize("procedure", ["nemenyi", "bonferroni", "holm", "hochberg", "hommel", "shaffer", "bergmann-hommel"])
def test_every_all_pairs_procedure(procedure):
    at = _posthoc_app(sample="garcia2008", test="mean-ranks", procedure=procedure)
    assert by_label(at.selectbox, "Procedure").value == procedure
    expected = int(cl.posthoc(cl.load_scores(cl_path("garcia_herrera2008_table2_accuracy.csv")), "mean-ranks", procedure)["reject"].sum())
    assert f"{expected} of 10 hypotheses rejected" in _summary(at)
    if procedure == "bergmann-hommel":
        assert _groups(_cd_figure(at)) == {frozenset({"C4.5", "NaiveBayes"}), frozenset({"1-NN", "CN2"})}


def cl_path(name: str):
    from .conftest import SAMPLES

    return SAMPLES / name


# 8 procedures for a control, and "none (uncorrected)" last (issue 23: a teaching choice, marked as such)
@pytest.mark.parametrize("test_index,procs", [(0, 9), (1, 9), (2, 9), (3, 9), (4, 9), (5, 9), (6, 9)])
def test_control_family_every_control_and_procedure(test_index, procs):
    at = _posthoc_app()
    by_label(at.radio, "Compare").set_value(1)
    at.run()
    by_label(at.radio, "Pairwise statistic").set_value(test_index)
    at.run()
    proc_box = by_label(at.selectbox, "Procedure")
    assert len(proc_box.options) == procs and proc_box.options[-1] == "none (uncorrected)"
    for control in ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]:
        by_label(at.selectbox, "Control classifier").set_value(control)
        at.run()
        assert not at.exception
        assert "of 3 hypotheses rejected" in _summary(at)
        assert at.query_params["control"] in (control, [control])
    for proc in ["bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "rom", "li"]:
        by_label(at.selectbox, "Procedure").set_value(proc)
        at.run()
        assert not at.exception and not at.error


def test_demsar_control_view_from_a_link():
    at = _posthoc_app(sample="demsar2006", family="control", control="C4.5", test="mean-ranks", procedure="bonferroni-dunn")
    assert "1 of 3 hypotheses rejected" in _summary(at)
    spec = _cd_figure(at)
    band = [tr for tr in spec["data"] if tr.get("name") == "control interval"]
    lo, hi = band[0]["meta"]
    assert round(hi - lo, 3) == round(2 * 1.1681, 3)


def test_nemenyi_alpha_010_from_a_link():
    at = _posthoc_app(sample="demsar2006", test="mean-ranks", procedure="nemenyi", alpha="0.1")
    assert at.number_input(key="alpha").value == pytest.approx(0.1)
    assert _groups(_cd_figure(at)) == {frozenset({"C4.5", "C4.5+cf"}), frozenset({"C4.5+cf", "C4.5+m", "C4.5+m+cf"})}


def test_deselected_control_is_a_clear_error():
    at = _posthoc_app(family="control", control="C4.5")
    goto(at, "load_data")
    by_label(at.multiselect, "Classifiers").set_value(["C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    at.run()
    goto(at, "posthoc")
    assert any("control 'C4.5' is not among the classifiers" in e for e in texts(at.error))
    assert by_label(at.selectbox, "Control classifier").value == "C4.5+m"
    assert "of 2 hypotheses rejected" in _summary(at)


def test_bad_link_values_are_reported_not_raised():
    at = _posthoc_app(sample="nonexistent", test="t-test", procedure="tukey", alpha="2")
    messages = texts(at.warning) + texts(at.info)
    assert by_label(at.selectbox, "Procedure").value == "holm"
    assert any("'t-test' is not available" in m for m in messages)
    goto(at, "load_data")  # problems with the link were shown on the first page
    assert not at.exception


def _view(at, name: str):
    at.segmented_control(key="w_ph_view").set_value(name)
    at.run()
    assert not at.exception
    return at


def test_views_tables_and_downloads():
    at = _posthoc_app(sample="garcia2008")
    labels = [b.label for b in at.get("download_button")]
    assert {"⬇ SVG", "⬇ PNG", "⬇ HTML (interactive)"} <= set(labels)
    _view(at, "Adjusted p-values")
    apv = next(d.value for d in at.dataframe if "APV Bergmann-Hommel" in d.value.columns)
    assert len(apv) == 10 and "APV Bergmann-Hommel (closed testing)" in apv.columns
    import re

    assert re.fullmatch(r"\d\.\d\de-\d\d", apv["p"].iloc[0])  # one readable format, never a long decimal or a bare 0
    assert len(at.get("plotly_chart")) == 1  # the APV heatmap
    assert any("the LaTeX table only Holm's" in c for c in texts(at.caption))  # the chosen procedure's column
    _view(at, "Where procedures disagree")
    verdicts = next(d.value for d in at.dataframe if "agree" in d.value.columns)
    assert not verdicts["agree"].iloc[0]
    _view(at, "Report")
    paragraph = next(c for c in texts(at.code) if "We compared k = 5" in c)
    assert "Wilcoxon" in paragraph and "Holm" in paragraph
    labels = [b.label for b in at.get("download_button")]
    assert "⬇ Paragraph (.txt)" in labels
    # Issue 21: the whole analysis of this view as one report, and the scores-with-ranks table of papers.
    assert {"⬇ Report (HTML)", "⬇ Report (Markdown)", "⬇ LaTeX tables and figure", "⬇ Python script",
            "⬇ Scores with ranks (LaTeX)"} <= set(labels)
    assert any("print it from the browser" in c for c in texts(at.caption))
    assert at.query_params["view"] in ("Report", ["Report"])


def test_many_classifiers_leave_out_bergmann_hommel():
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.normal(size=(30, 20)) + np.linspace(0, 2, 20), columns=[f"M{j}" for j in range(20)],
                         index=[f"d{i}" for i in range(30)])
    at = upload(_posthoc_app(), "twenty.csv", frame.to_csv().encode())
    goto(at, "posthoc")
    by_label(at.radio, "Pairwise statistic").set_value(2)
    at.run()
    assert not at.exception and not at.error
    options = by_label(at.selectbox, "Procedure").options  # the displayed labels
    assert "Shaffer (static)" in options and "Bergmann-Hommel" not in options
    assert any("offered up to 14 classifiers" in c for c in texts(at.caption))
    _view(at, "Adjusted p-values")
    apv = next(d.value for d in at.dataframe if "APV Shaffer (static)" in d.value.columns)
    assert len(apv) == 190 and "APV Bergmann-Hommel" not in apv.columns


def test_effect_sizes_beside_the_p_values_in_the_hover_and_the_paragraph():
    at = _posthoc_app(sample="garcia2008")
    garcia = cl.load_scores(cl_path("garcia_herrera2008_table2_accuracy.csv"))
    assert by_label(at.selectbox, "Effect size shown").value == 0  # Hodges-Lehmann
    hover = next(tr for tr in _cd_figure(at)["data"] if tr.get("name") == "mean ranks")["hovertext"]
    assert any("Hodges-Lehmann median difference (95% interval)" in h for h in hover)
    _view(at, "Adjusted p-values")
    apv = next(d.value for d in at.dataframe if "APV Bergmann-Hommel" in d.value.columns)
    row = apv.iloc[0]
    expected = cl.effect_sizes(garcia, row["a"], row["b"])
    assert row["HL (a vs b)"] == pytest.approx(expected.hodges_lehmann)
    assert (row["HL 95% low"], row["HL 95% high"]) == pytest.approx(expected.hodges_lehmann_ci)
    by_label(at.selectbox, "Effect size shown").set_value(2)  # Cohen's d_z
    at.run()
    assert not at.exception and at.query_params["effect"] in ("cohens_dz", ["cohens_dz"])
    apv = next(d.value for d in at.dataframe if "APV Bergmann-Hommel" in d.value.columns)
    assert "d_z (a vs b)" in apv.columns and "d_z 95% low" in apv.columns
    _view(at, "Report")
    paragraph = next(c for c in texts(at.code) if "We compared k = 5" in c)
    assert "d_z" in paragraph and "Cohen's standardized mean difference" in paragraph


def test_effect_size_from_a_link_and_an_unknown_one():
    at = _posthoc_app(effect="prob_superiority")
    assert by_label(at.selectbox, "Effect size shown").value == 4
    at = _posthoc_app(effect="glass")
    assert by_label(at.selectbox, "Effect size shown").value == 0
    assert any("The effect 'glass' is not available here" in w for w in texts(at.warning))


# -- issue 13: the rest of the nonparametric toolbox on the page ---------------------------------------


@pytest.mark.parametrize("test", ["rank-sum-exact", "aligned-ranks", "quade", "conover"])
def test_new_statistics_from_a_link(test):
    at = _posthoc_app(sample="garcia2008", test=test, procedure="shaffer")
    assert at.query_params["test"] in (test, [test])
    expected = cl.posthoc(cl.load_scores(cl_path("garcia_herrera2008_table2_accuracy.csv")), test, "shaffer")
    assert f"{int(expected['reject'].sum())} of 10 hypotheses rejected" in _summary(at)
    assert any("depends on which other classifiers are in the pool" in w for w in texts(at.warning))
    assert "Nemenyi" not in by_label(at.selectbox, "Procedure").options  # Nemenyi is for the mean-ranks z only
    exact_caption = [c for c in texts(at.caption) if "p-values: **exact**" in c]
    assert bool(exact_caption) == (test == "rank-sum-exact")
    assert [c.key for c in at.get("plotly_chart")] == ["cd_diagram_chart", "cd_diagram_narrow_chart"] and not at.error
    at.segmented_control(key="w_ph_view").set_value("Adjusted p-values")
    at.run()
    apv = at.dataframe[0].value
    assert any("Finner" in c for c in apv.columns) and any("Holland" in c for c in apv.columns)
    at.segmented_control(key="w_ph_view").set_value("Where procedures disagree")
    at.run()
    assert not at.exception and not at.error
    frame = at.dataframe[0].value
    assert any("Conover t" in c for c in frame.columns) and any("Quade z" in c for c in frame.columns)
    at.segmented_control(key="w_ph_view").set_value("Report")
    at.run()
    assert not at.exception and not at.error
    label = {"rank-sum-exact": "Eisinga et al., 2017", "aligned-ranks": "Hodges & Lehmann, 1962",
             "quade": "Quade, 1979", "conover": "Conover, 1999"}[test]
    assert any(label in c for c in texts(at.code)), texts(at.code)


def test_rom_and_li_with_a_control_from_a_link():
    table = cl.load_scores(cl_path("demsar2006_table6_auc_untied.csv"))
    for procedure in ("rom", "li"):
        at = _posthoc_app(family="control", control="C4.5+m+cf", test="mean-ranks", procedure=procedure)
        assert by_label(at.selectbox, "Procedure").value == procedure
        expected = cl.posthoc(table, "mean-ranks", procedure, control="C4.5+m+cf")
        assert f"{int(expected['reject'].sum())} of 3 hypotheses rejected" in _summary(at)
    # For all pairs Li and Rom are not offered: the link's choice falls back to Holm, saying so.
    at = _posthoc_app(test="mean-ranks", procedure="li")
    assert by_label(at.selectbox, "Procedure").value == "holm"
    assert any("Li is not available" in i for i in texts(at.info))


def test_how_sure_is_the_ranking_view():
    """Issue 22: the rank sets of the chosen test and procedure, the possible winners named, letters in the table;
    the same numbers as cl.rank_sets and cl.letters."""
    at = _posthoc_app(sample="garcia2008")
    _view(at, "How sure is the ranking?")
    garcia = cl.load_scores(cl_path("garcia_herrera2008_table2_accuracy.csv"))
    sets = cl.rank_sets(garcia, test=cl.RECOMMENDED_TEST)
    assert any(cl.winners_sentence(sets) in m for m in texts(at.markdown))
    table = next(d.value for d in at.dataframe if "rank set" in d.value.columns)
    expected = cl.letters(cl.posthoc(garcia, test=cl.RECOMMENDED_TEST, as_result=True))
    for row in table.itertuples(index=False):
        lo, hi = sets.loc[row.classifier, ["rank_low", "rank_high"]]
        assert row[2] == (f"{lo}" if lo == hi else f"{lo}–{hi}")
        assert row.letters == expected[row.classifier]
    assert len(at.get("plotly_chart")) == 1
    at.toggle(key="w_ph_boot").set_value(True)
    at.run()
    assert not at.exception and len(at.get("plotly_chart")) == 2
    by_label(at.radio, "Compare").set_value(1)
    at.run()
    assert any("choose **All pairs**" in i for i in texts(at.info))


def test_uncorrected_choice_is_marked_everywhere():
    """Issue 23: "none (uncorrected)" is offered, with a warning; the paragraph says the p-values are not corrected."""
    at = _posthoc_app(sample="garcia2008", correction="none")
    assert not at.exception
    assert by_label(at.selectbox, "Procedure").value == "none"
    assert any("No correction for multiple comparisons" in w for w in texts(at.warning))
    _view(at, "Report")
    paragraph = next(c for c in texts(at.code) if "We compared k = 5" in c)
    assert "not corrected for multiple comparisons" in paragraph and "adjusted p" not in paragraph
    _view(at, "Adjusted p-values")
    assert not at.exception
