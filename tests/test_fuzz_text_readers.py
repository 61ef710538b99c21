"""Fuzzing of the text readers (issue 27): any text ends in a result or an InputError, quickly.

Every text reader (csv, latex, markdown, text) and ``format="auto"`` (with the format detection) gets
texts built by hypothesis from an alphabet rich in the characters the readers' patterns look at
(``& \\ | ( ) + ± ! [ ] { } * _ ^ ~ $ %``, blanks, byte-order marks, minus signs), the fragments of
their syntax (``\\\\``, ``|---|``, ``\\multicolumn{``, ``![``, ``](``, ``^{``, ``+/-``), runs of these
repeated up to thousands of times (where a super-linear pattern takes seconds), and arbitrary unicode;
some are shaped as tables of the reader's format, so that they reach the cell cleaning. Only the
outcome is asserted: a :class:`~compare_lib.results.Results` (whose ``table()`` is a score table or
an InputError too) or an :class:`~compare_lib.errors.InputError`, never any other exception, within
the deadline of each example.
"""

from __future__ import annotations

import warnings
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import compare_lib as cl
from compare_lib.errors import InputError
from compare_lib.io import sniff_format

READERS = ("csv", "latex", "markdown", "text", "auto")

DANGEROUS = list(" \t\n&\\|()+±∓![]{}*_^~$%-:`<>#,;\"'.0123456789") + [
    "\ufeff", "\u00a0", "\u2212", "\u2003", "\r\n", "\\\\", "&\\\\", " & ", "|---", "|:--:|", "---|", "\\hline",
    "\\multicolumn{", "\\multicolumn{2}{c}{", "\\begin{tabular}{lcc}", "\\end{tabular}", "\\caption[", "\\textbf{",
    "$\\pm$", "**", "__", "~~", "![", "](", "][", "<br>", "<a", "^{", "\\\\[", "\\foo[", "+/-", "1+", "(1", "1^{",
    "86.4", "1.0", "86.4 ± 1.0", "(1.0)", "[2]", "n/a", "-", "iris", "SVM", "Table 3:", "\\%", "\\&", "\\|",
]
_fragment = st.one_of(
    st.sampled_from(DANGEROUS),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=4),  # arbitrary unicode
)
_run = st.tuples(st.sampled_from(DANGEROUS), st.integers(1, 3000)).map(lambda t: t[0] * t[1])
_free_text = st.lists(st.one_of(_fragment, _fragment, _fragment, _run), max_size=40).map("".join)
_cell = st.lists(st.one_of(_fragment, _run), min_size=0, max_size=4).map("".join)
_SEPARATORS = {"csv": (",", "\n"), "latex": (" & ", " \\\\\n"), "markdown": (" | ", " |\n"), "text": ("  ", "\n")}


@st.composite
def _table(draw, fmt: str) -> str:
    """Rows of cells in the layout of ``fmt`` (a Markdown table with its |---| row), dangerous cells."""
    sep, end = _SEPARATORS[fmt if fmt in _SEPARATORS else draw(st.sampled_from(sorted(_SEPARATORS)))]
    width = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(_cell, min_size=width, max_size=width), min_size=1, max_size=6))
    lines = [sep.join(row) + end for row in rows]
    if sep == " | ":
        lines = ["| " + line for line in lines]
        lines.insert(1, "|" + "---|" * width + "\n")
    return "".join(lines)


def _texts(fmt: str):
    return st.one_of(_free_text, _table(fmt))


def _outcome(fmt: str, text: str, as_bytes: bool) -> str:
    source = text.encode("utf-8") if as_bytes else text + "\n"  # a str without a line break is a path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # DataWarning: names made unique, and the like
        try:
            results = cl.read_results(source, format=fmt, name="fuzz")
        except InputError:
            return "InputError"
        try:
            results.table(higher_is_better=True)  # unnamed metrics: the direction is stated (issue 28)
        except InputError:
            return "result, no table"
    return "result"


cl.read_results("a,b,c\nx,1,2\n", format="csv")  # the first read imports pandas: not part of a deadline

_SETTINGS = settings(max_examples=120, deadline=timedelta(seconds=3), database=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("fmt", READERS)
def test_any_text_is_read_or_refused_quickly(fmt):
    outcomes: dict[str, int] = {}

    @_SETTINGS
    @given(text=_texts(fmt), as_bytes=st.booleans())
    def fuzz(text, as_bytes):
        outcome = _outcome(fmt, text, as_bytes)  # any other exception fails the test
        outcomes[outcome] = outcomes.get(outcome, 0) + 1

    fuzz()
    assert sum(outcomes.values()) >= 100
    assert outcomes.get("InputError", 0) > 0  # the fuzzing reached the readers' refusals


@_SETTINGS
@given(text=_free_text)
def test_format_detection_of_any_text_is_one_of_the_formats(text):
    assert sniff_format(text.encode("utf-8")) in ("csv", "latex", "markdown", "text")
    assert sniff_format(text) in ("csv", "latex", "markdown", "text")


@pytest.mark.parametrize("fmt", ["csv", "latex", "markdown", "text"])
def test_the_fuzzed_tables_can_be_read(fmt):
    """The table strategy does reach the readers' happy path: a table of plain cells of its format is read."""
    text = {
        "csv": "data set,A,B\niris,1,2\nwine,3,4\n",
        "latex": "data set & A & B \\\\\niris & 1 & 2 \\\\\nwine & 3 & 4 \\\\\n",
        "markdown": "| data set | A | B |\n|---|---|---|\n| iris | 1 | 2 |\n| wine | 3 | 4 |\n",
        "text": "data set  A  B\niris  1  2\nwine  3  4\n",
    }[fmt]
    assert _outcome(fmt, text, as_bytes=False) == "result"
    assert _outcome("auto", text, as_bytes=True) == "result"
