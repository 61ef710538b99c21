"""Escaping and error plumbing: user text made inert, library errors and warnings turned into messages.

Text that comes from a user or a link (names, file names, link values, messages that quote them) is never
rendered as Markdown or HTML: :func:`esc` escapes it, and the one place that turns the library's errors and
warnings into Streamlit messages (:func:`call`) escapes them too.
"""

from __future__ import annotations

import os
import re
import string
import warnings
from typing import Any, Callable

import streamlit as st

import compare_lib as cl
import state

__all__ = ["esc", "words", "show_notes", "call", "guarded", "caption"]


_MARKDOWN_SPECIALS = re.compile(f"([{re.escape(string.punctuation)}])")


_ZWSP = "\u200b"


def esc(text: Any) -> str:
    """User text made inert for Streamlit's Markdown: every ASCII punctuation character is escaped with a
    backslash, so no link, image, HTML tag, LaTeX ($), emoji or colour directive (:red[...]) can form.
    Bare URLs and e-mail addresses are turned into links *after* escapes are resolved (GFM's literal
    autolinks work on the text), so an invisible zero-width space is put inside '://', 'www.' and after
    '@'; the text still reads the same on the page."""
    text = str(text).replace("://", f":{_ZWSP}//").replace("@", f"@{_ZWSP}")
    text = re.sub(r"(?i)\bwww\.", lambda m: m.group(0)[:3] + _ZWSP + ".", text)
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text)


def words(message: Any) -> str:
    """The library's message (an InputError, a warning, a note, a table cell) in the dashboard's words: an option
    is named by its control (the "Sheet" box set to "Results"), not as a keyword argument. Plain text: pass it
    through :func:`esc` before Markdown."""
    return cl.errors.in_words(message, "app")


def show_notes(notes, *, title: str = "What was done to the data") -> None:
    if notes:
        with st.container(border=True):
            st.markdown(f"**{title}**")
            for note in notes:
                st.markdown(f"- {esc(words(note))}")


def call(fn: Callable[..., Any], *args, **kwargs) -> Any | None:
    """Call the library; its InputError becomes st.error (None returned), its warnings st.warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except cl.InputError as err:
            st.error(esc(words(err)))
            return None
    for w in caught:
        if issubclass(w.category, (cl.ApproximationWarning, cl.DataWarning)):
            st.warning(esc(words(w.message)))
    return result


def guarded(run: Callable[[], Any]) -> None:
    """Run a page: an InputError that escaped a page becomes one escaped error message; any other
    exception (a bug) is logged on the server and shown without its traceback, which would name server
    paths. Streamlit's own control-flow exceptions (stop, rerun) pass through."""
    try:
        run()
    except cl.InputError as err:
        st.error(esc(words(err)))
    except Exception as err:
        if type(err).__module__.startswith("streamlit") or os.environ.get("COMPARE_DASHBOARD_RAISE") == "1":
            raise  # Streamlit's control flow; and the tests want bugs to surface as exceptions
        import logging

        logging.getLogger("dashboard").exception("unexpected error on a page")
        st.error(
            "Something went wrong on this page (an internal error, logged on the server). Try another choice, or "
            "reload the page; if it persists, please report what you did."
        )


def caption(table: cl.ScoreTable) -> None:
    st.caption(esc(state.table_caption(table)))
