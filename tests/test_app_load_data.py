"""AppTest tests of the Load data page."""

from __future__ import annotations

from .apptest_helpers import answer_direction, by_label, charts, goto, new_app, texts, upload

GOOD = b"dataset,A,B,C\nd1,0.8,0.7,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\nd4,0.7,0.8,0.9\n"



def test_starts_with_demsar_sample():
    at = new_app()
    assert any("Demšar 2006, Table 6" in s and "14 data sets × 4 classifiers" in s for s in texts(at.success))
    assert not at.error
    frame = at.dataframe[0].value
    assert frame.loc["adult (sample)", "C4.5"] == "0.763 (4)"
    assert frame.loc["average rank", "C4.5+m+cf"] == "1.964"
    assert len(charts(at)) == 0  # one preview at a time: the first page draws no chart (but loads its code)
    for view in ("Ranks", "Wins / ties / losses"):
        at.segmented_control(key="w_preview_view").set_value(view)
        at.run()
        assert len(charts(at)) == 1


def test_switch_sample_shows_cleaning_notes():
    at = new_app()
    by_label(at.selectbox, "Sample").set_value("Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)")
    at.run()
    assert any("54 data sets × 7 classifiers" in s for s in texts(at.success))
    assert any("'credit'" in m and "credit (2)" in m for m in texts(at.markdown))


def test_upload_good_file():
    at = upload(new_app(), "mine.csv", GOOD)
    assert any("file: mine.csv" in s and "4 data sets × 3 classifiers" in s for s in texts(at.success))
    assert not at.error


def test_bad_upload_names_the_cell_and_keeps_the_previous_table():
    bad = b"dataset,A,B\nd1,0.8,oops\nd2,0.5,0.6\n"
    at = upload(new_app(), "bad.csv", bad)
    assert len(at.error) == 1
    message = texts(at.error)[0]
    assert "bad.csv" in message and "line 2" in message and "column 'B'" in message and "'oops'" in message
    assert "still in use" in message
    assert any("Demšar 2006, Table 6" in s for s in texts(at.success))


def test_binary_and_empty_uploads_are_refused_cleanly():
    at = upload(new_app(), "picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert "binary" in texts(at.error)[0]
    at.file_uploader[0].set_value(("empty.csv", b"", "text/csv"))
    at.run()
    assert not at.exception
    assert "empty" in texts(at.error)[0]


def test_paste_and_direction():
    at = new_app()
    by_label(at.radio, "Source").set_value("Paste")
    at.run()
    at.text_area[0].set_value("data\tX\tY\none\t1\t2\ntwo\t3\t1\nthree\t2\t2\n")
    at.button[0].click()
    at.run()
    assert any("pasted text: which is better" in s for s in texts(at.markdown))  # asked, not yet loaded
    answer_direction(at)
    assert any("pasted text" in s and "3 data sets × 2 classifiers" in s for s in texts(at.success))
    by_label(at.radio, "The scores are").set_value("Lower is better (error, loss, time)")
    at.run()
    assert any("lower is better" in s for s in texts(at.success))
    assert at.dataframe[0].value.loc["one", "X"] == "1 (1)"


def test_selection_and_its_limits():
    at = new_app()
    by_label(at.multiselect, "Classifiers").set_value(["C4.5"])
    at.run()
    assert any("at least 2 classifiers" in e for e in texts(at.error))
    by_label(at.multiselect, "Classifiers").set_value(["C4.5", "C4.5+m"])
    by_label(at.multiselect, "Data sets to leave out").set_value(["mushroom"])
    at.run()
    assert not at.error
    assert any("mushroom" in i for i in texts(at.info))
    goto(at, "omnibus")
    assert any("13 data sets × 2 classifiers" in c for c in texts(at.caption))
