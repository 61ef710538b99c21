"""AppTest tests of the Omnibus page."""

from __future__ import annotations

from .apptest_helpers import by_label, goto, new_app, texts


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_demsar_numbers_and_verdict():
    at = goto(new_app(), "omnibus")
    metrics = _metrics(at)
    assert metrics["Friedman χ²_F (3 df)"] == "9.279"
    assert metrics["Iman-Davenport F_F (3, 39 df)"] == "3.686"
    assert any("do not all perform equally" in m for m in texts(at.markdown))
    assert any("N > 10 and k > 5" in w for w in texts(at.warning))
    assert len(at.get("plotly_chart")) == 2
    summary = at.dataframe[0].value
    assert summary["reject"].tolist() == [True, True, True]
    assert any("chi2_F(3) = 9.28" in c for c in texts(at.code))


def _omnibus_on_sample(label: str):
    at = new_app()
    by_label(at.selectbox, "Sample").set_value(label)
    at.run()
    return goto(at, "omnibus")


def test_tie_correction_and_alpha():
    at = _omnibus_on_sample("Demšar 2006, Table 6 exactly as printed")
    assert _metrics(at)["Friedman χ²_F (3 df)"] == "9.857"
    by_label(at.toggle, "Correct the Friedman statistic for ties").set_value(True)
    at.run()
    assert _metrics(at)["Friedman χ²_F (3 df)"] == "10.952"
    at.number_input(key="alpha").set_value(0.001)
    at.run()
    assert any("No significant difference" in m for m in texts(at.markdown))


def test_large_table_has_no_approximation_warning():
    at = _omnibus_on_sample("Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)")
    assert not [w for w in texts(at.warning) if "N > 10" in w]
    assert float(_metrics(at)["Friedman χ²_F (6 df)"]) > 0
