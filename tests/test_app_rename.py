"""Renaming classifiers and data sets on Load data (issue 28): the new names reach every page and the link."""

from __future__ import annotations

from .apptest_helpers import by_label, goto, new_app, open_page, texts


def _rename(at, classifiers: str = "", datasets: str = ""):
    goto(at, "load_data")
    by_label(at.text_area, "Classifiers").set_value(classifiers)
    by_label(at.text_area, "Data sets").set_value(datasets)
    at.run()
    at.button(key="w_rename_go").click()
    at.run()
    assert not at.exception, at.exception
    return at


def test_renames_reach_the_analysis_the_report_and_the_selection():
    at = new_app()
    goto(at, "load_data")
    # leave one classifier out first: the selection must follow the rename
    by_label(at.multiselect, "Classifiers").set_value(["C4.5", "C4.5+m", "C4.5+m+cf"])
    at.run()
    _rename(at, "C4.5+m+cf = Pruned tree\nC4.5 = Plain tree", "cmc = CMC")
    assert any("Renamed 3 name(s)." in t for t in texts(at.success))
    table = at.session_state["table"]
    assert table.classifiers == ["Plain tree", "C4.5+m", "C4.5+cf", "Pruned tree"]
    assert "CMC" in table.datasets and "cmc" not in table.datasets
    assert at.session_state["keep_classifiers"] == ["Plain tree", "C4.5+m", "Pruned tree"]
    assert any("Renamed classifiers" in n for n in table.notes)
    # the analysis of every page uses the new names
    goto(at, "posthoc")
    at.segmented_control(key="w_ph_view").set_value("Report")
    at.run()
    paragraph = at.code[0].value
    assert "Pruned tree" in paragraph and "C4.5+m+cf" not in paragraph
    # the link of a sample carries the renames and a fresh session applies them
    params = {k: at.query_params[k] for k in at.query_params}
    assert "rename" in params and params.get("sample") == "demsar2006"
    receiver = open_page("load_data", **params)
    assert receiver.session_state["table"].classifiers == ["Plain tree", "C4.5+m", "C4.5+cf", "Pruned tree"]
    assert receiver.session_state["keep_classifiers"] == ["Plain tree", "C4.5+m", "Pruned tree"]


def test_a_bad_rename_is_refused_with_the_names_and_changes_nothing():
    at = new_app()
    _rename(at, "C4.5 = C4.5+m")
    errors = texts(at.error)
    assert any("same name" in e and "C4.5+m" in e and "Nothing was renamed" in e for e in errors), errors
    assert at.session_state["table"].classifiers == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    _rename(at, "no such classifier = X")
    assert any("Cannot rename 'no such classifier'" in e for e in texts(at.error))
    _rename(at, "just a name without an equals sign")
    assert any("has no '='" in e for e in texts(at.error))


def test_renamed_names_are_shown_as_text_and_undo_restores_them():
    at = new_app()
    _rename(at, "C4.5 = [click](https://evil.example/) **bold**")
    caption = [str(c.value) for c in at.caption if "Renamed:" in str(c.value)]
    assert caption and "[click](https://evil.example/)" not in caption[0]  # escaped: no link is formed
    assert "[click](https://evil.example/) **bold**" in at.session_state["table"].classifiers
    at.button(key="w_rename_undo").click()
    at.run()
    assert at.session_state["table"].classifiers == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    assert "rename" not in {k for k in at.query_params}
