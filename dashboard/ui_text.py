"""Escaping and error plumbing: user text made inert, library errors and warnings turned into messages.

Text that comes from a user or a link (names, file names, link values, messages that quote them) is never
rendered as Markdown or HTML: :func:`esc` escapes it, and the one place that turns the library's errors and
warnings into Streamlit messages (:func:`call`) escapes them too.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import secrets
import string
import warnings
from typing import Any, Callable

import streamlit as st

import compare_lib as cl
import state

__all__ = ["esc", "display_math", "words", "show_notes", "call", "guarded", "guarded_callback", "report_bug", "caption"]


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


def display_math(latex: str) -> str:
    """A display formula as Markdown (what ``st.latex`` sends: the expression between ``$$`` lines), to be joined
    with the text around it into one ``st.markdown``: one element instead of several. Our own constant formulas
    only, never user text."""
    return f"$$\n{latex.strip()}\n$$"


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


#: The server's log of unexpected errors (the traceback and the error's id; the page shows only the id).
LOG = logging.getLogger("dashboard")


def report_bug(err: BaseException, where: str) -> str:
    """An unexpected exception: its traceback goes to the server's log with a short id, and the page shows one
    plain message with that id (never the traceback, the exception's type or its message, which can name server
    paths). Returns the id."""
    error_id = secrets.token_hex(4)
    LOG.error("unexpected error %s in %s", error_id, where, exc_info=(type(err), err, err.__traceback__),
              extra={"error_id": error_id})
    st.error(
        f"Something went wrong here (an internal error, error id {error_id}, logged on the server). Try another "
        "choice, or reload the page; if it persists, please report what you did and this id."
    )
    return error_id


def guarded(run: Callable[..., Any], *args: Any, where: str = "a page") -> None:
    """Run a page (or the app's frame, or a widget callback): an InputError that escaped becomes one escaped error
    message; any other exception (a bug, Streamlit's own API errors included) becomes :func:`report_bug`'s message
    with an id, its traceback only in the server log. Under Community Cloud's forced
    ``client.showErrorDetails = false`` Streamlit would print the traceback of anything that escapes.
    Streamlit's control flow passes through: stop and rerun are BaseExceptions (``except Exception`` never sees
    them) and a fragment's FragmentHandledException is re-raised. ``COMPARE_DASHBOARD_RAISE=1`` (the tests)
    re-raises bugs, so that they surface as exceptions."""
    try:
        run(*args)
    except cl.InputError as err:
        st.error(esc(words(err)))
    except Exception as err:
        if type(err).__name__ == "FragmentHandledException" or os.environ.get("COMPARE_DASHBOARD_RAISE") == "1":
            raise
        report_bug(err, where)


def guarded_callback(fn: Callable[..., Any]) -> Callable[..., None]:
    """A widget callback (``on_change``/``on_click``) run inside :func:`guarded`: Streamlit calls callbacks before
    the script, outside the page's guard."""

    @functools.wraps(fn)
    def callback(*args: Any, **kwargs: Any) -> None:
        guarded(lambda: fn(*args, **kwargs), where=f"the callback {fn.__name__}")

    return callback


def caption(table: cl.ScoreTable) -> None:
    st.caption(esc(state.table_caption(table)))
