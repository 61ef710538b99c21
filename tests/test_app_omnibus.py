"""AppTest tests of the Omnibus page."""

from __future__ import annotations

from .apptest_helpers import answer_direction, by_label, goto, new_app, texts


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_demsar_numbers_and_verdict():
    at = goto(new_app(), "omnibus")
    metrics = _metrics(at)
    assert metrics["Friedman $\\chi^2_F$ (3 df)"] == "9.279"
    assert metrics["Iman-Davenport $F_F$ (3, 39 df)"] == "3.686"
    assert any("do not all perform equally" in m for m in texts(at.markdown))
    # N = 14, k = 4 is small: the exact permutation p is shown and the verdict rests on it (issue 9).
    assert metrics["Exact p (permutation)"] == "0.014"
    assert any("exact permutation p-value" in m and "0.014" in m for m in texts(at.markdown))
    assert any("N > 10 and k > 5" in w and "exact p-value is available" in w for w in texts(at.info))
    assert len(at.get("plotly_chart")) == 1
    at.segmented_control(key="w_om_chart").set_value("Ranks per data set")
    at.run()
    assert len(at.get("plotly_chart")) == 1 and not at.exception
    summary = at.dataframe[0].value
    assert summary["test"].tolist()[2] == "Friedman, exact (permutation)"
    assert summary["test"].tolist()[4:] == ["Friedman aligned ranks", "Quade"]
    assert summary["reject"].tolist() == [True] * 6
    # Issue 13: the aligned-ranks and Quade tests in the cards (values from tests/test_rank_tests.py).
    assert metrics["Friedman aligned ranks $T$ (3 df)"] == "11.559"
    assert metrics["Quade $F$ (3, 39 df)"] == "4.523"
    assert any("Quade test" in m and "range" in m for m in texts(at.markdown))
    assert any("Friedman aligned-ranks T(3) = 11.56, p = 0.009" in c and "Quade F(3, 39) = 4.52, p = 0.008" in c
               for c in texts(at.code)), texts(at.code)
    assert any("χ²(3) = 9.28" in c and "exact permutation p = 0.0136" in c for c in texts(at.code))


def test_tiny_table_with_identical_rankings_is_not_significant():
    """Issue 9: 2 data sets x 3 classifiers ranked the same: F_F is infinite, the exact p is 1/6."""
    at = new_app()
    by_label(at.radio, "Source").set_value("Paste")
    at.run()
    at.text_area(key="w_paste").set_value("dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.6,0.5,0.4\n")
    at.button(key="w_paste_load").click()
    at.run()
    answer_direction(at)  # an unnamed metric: its direction is asked (issue 28)
    at = goto(at, "omnibus")
    metrics = _metrics(at)
    assert metrics["Exact p (permutation)"] == "0.167"
    assert metrics["Iman-Davenport $F_F$ (2, 2 df)"] == "∞"
    assert any("No significant difference" in m for m in texts(at.markdown))
    assert not any("1e-300" in m for m in texts(at.markdown))
    assert metrics["RM-ANOVA $F$ (2, 2 df)"] == "undefined"
    assert any("undefined" in m for m in texts(at.markdown))


def _omnibus_on_sample(label: str):
    at = new_app()
    by_label(at.selectbox, "Sample").set_value(label)
    at.run()
    return goto(at, "omnibus")


def test_tie_correction_and_alpha():
    at = _omnibus_on_sample("Demšar 2006, Table 6 exactly as printed")
    assert _metrics(at)["Friedman $\\chi^2_F$ (3 df)"] == "9.857"
    by_label(at.toggle, "Correct the Friedman statistic for ties").set_value(True)
    at.run()
    assert _metrics(at)["Friedman $\\chi^2_F$ (3 df)"] == "10.952"
    at.number_input(key="alpha").set_value(0.001)
    at.run()
    assert any("No significant difference" in m for m in texts(at.markdown))


def test_large_table_has_no_approximation_warning():
    at = _omnibus_on_sample("Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)")
    assert not [w for w in texts(at.warning) if "N > 10" in w]
    assert float(_metrics(at)["Friedman $\\chi^2_F$ (6 df)"]) > 0
