"""AppTest tests of issue 28 on the dashboard: every guessed direction is shown with its reason and can be changed;
an unknown direction is a question answered before anything is analysed; a choice reaches every output."""

from __future__ import annotations

import warnings

import compare_lib as cl

from .apptest_helpers import by_label, goto, new_app, texts, upload

WER = b"dataset,model,wer\n" + b"".join(
    f"d{d},{m},{0.10 + 0.05 * j + 0.01 * d:.2f}\n".encode() for d in range(5) for j, m in enumerate(["A", "B", "C"]))
UNNAMED = b"dataset,A,B,C\nd1,0.8,0.7,0.6\nd2,0.5,0.9,0.7\nd3,0.6,0.6,0.6\nd4,0.7,0.8,0.9\nd5,0.4,0.5,0.3\n"
LOWER, HIGHER = "Lower is better (error, loss, time)", "Higher is better (accuracy, AUC, F1)"


def _success(at) -> str:
    return " ".join(texts(at.success))


def _report(at) -> str:
    """The report the Report download makes of the analysed table (the app's session table)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)
        a = cl.analyze(at.session_state["table"])
    return "\n".join([a.to_markdown(), a.to_html(), a.to_latex()])


def test_a_wer_file_asks_nothing_shows_its_guess_with_the_reason_and_can_be_switched():
    at = upload(new_app(), "asr_scores.csv", WER)
    assert "file: asr_scores.csv" in _success(at)
    assert "lower is better (guessed from the metric's name)" in _success(at)
    assert not [w for w in texts(at.warning) if "Which is better" in w or "which is better" in w]
    assert by_label(at.radio, "The scores are").value == LOWER
    assert any("Guessed from the metric's name: lower is better: 'wer' is word error rate (ASR, Hugging Face "
               "evaluate)" in c for c in texts(at.caption))
    assert "guessed from the metric's name" in _report(at)
    by_label(at.radio, "The scores are").set_value(HIGHER)
    at.run()
    assert not at.exception
    assert "higher is better (stated by you)" in _success(at)
    assert not any("Guessed from" in c for c in texts(at.caption))


def test_confirming_a_guess_makes_it_stated():
    at = upload(new_app(), "asr.csv", WER)
    at.button(key=f"w_direction_ok_{at.session_state['table_version']}").click()
    at.run()
    assert "lower is better (stated by you)" in _success(at)
    assert "stated by you" in _report(at) and "guessed" not in _report(at)


def test_an_unknown_metric_blocks_the_analysis_with_a_question_until_it_is_answered():
    at = upload(new_app(), "mine.csv", UNNAMED, direction=None)
    assert "Demšar" in _success(at)  # nothing of mine.csv is analysed yet
    assert any("mine.csv: which is better for" in m for m in texts(at.markdown))
    assert by_label(at.radio, "Which is better?").value is None
    assert at.button(key="w_pending_use").disabled
    for page in ("omnibus", "posthoc"):
        goto(at, page)
        assert any("Choose the direction on Load data" in w for w in texts(at.warning)), page
    goto(at, "load_data")
    by_label(at.radio, "Which is better?").set_value(LOWER)
    at.run()
    assert not at.button(key="w_pending_use").disabled
    at.button(key="w_pending_use").click()
    at.run()
    assert not at.exception
    assert "file: mine.csv" in _success(at) and "lower is better (stated by you)" in _success(at)
    goto(at, "omnibus")
    assert not any("Choose the direction" in w for w in texts(at.warning))
    report = _report(at)
    assert "assumed" not in report.lower() and "stated by you" in report


def test_after_choosing_no_output_says_assumed():
    at = upload(new_app(), "asr.csv", WER)
    by_label(at.radio, "The scores are").set_value(HIGHER)
    at.run()
    by_label(at.radio, "The scores are").set_value(LOWER)
    at.run()
    report = _report(at)
    assert "assumed" not in report.lower() and "lower is better (stated by you)" in report
    assert all("assumed" not in t.lower() for t in texts(at.caption) + texts(at.success) + texts(at.markdown))
