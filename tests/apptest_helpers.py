"""Helpers for Streamlit AppTest tests."""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


def new_app() -> AppTest:
    st.cache_data.clear()
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    return at


def open_page(page: str, **query: str) -> AppTest:
    """A fresh app, opened with the given URL query parameters, switched to ``page``."""
    st.cache_data.clear()
    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return goto(at, page)


def goto(at: AppTest, page: str) -> AppTest:
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def upload(at: AppTest, name: str, data: bytes, direction: str | None = "higher", mime: str = "text/csv") -> AppTest:
    """Upload a file on the Load data page (the app stays there). A file whose metric's direction the catalogue
    does not know is a question (issue 28): ``direction`` ("higher" or "lower") answers it, None leaves it open."""
    goto(at, "load_data")
    by_label(at.radio, "Source").set_value("Upload a file")
    at.run()
    at.file_uploader[0].set_value((name, data, mime))
    at.run()
    assert not at.exception, at.exception
    return answer_direction(at, direction)


DIRECTION_LABELS = {"higher": "Higher is better (accuracy, AUC, F1)", "lower": "Lower is better (error, loss, time)"}


def answer_direction(at: AppTest, direction: str | None = "higher") -> AppTest:
    """Answer the Load data page's "Which is better?" question, when it is asked, and load the table."""
    asked = [w for w in at.radio if w.label == "Which is better?"]
    if direction is None or not asked:
        return at
    asked[0].set_value(DIRECTION_LABELS[direction])
    at.run()
    at.button(key="w_pending_use").click()
    at.run()
    assert not at.exception, at.exception
    return at


def unescape(text: str) -> str:
    """What the reader sees of a Markdown source escaped by ui.esc (backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", text)


def texts(elements) -> list[str]:
    """The text of elements as displayed (escapes of user text removed)."""
    return [unescape(str(e.value)) for e in elements]


def raw_texts(elements) -> list[str]:
    """The Markdown source of elements, as Streamlit receives it."""
    return [str(e.value) for e in elements]


def by_label(widgets, label: str):
    for w in widgets:
        if w.label == label:
            return w
    raise AssertionError(f"no widget labelled {label!r}; have {[w.label for w in widgets]}")


def charts(at: AppTest) -> list:
    """The page's plotly charts, without the hidden empty chart with which Load data lets the browser load plotly's
    code early (ui_widgets.preload_chart_code)."""
    return [c for c in at.get("plotly_chart") if not c.proto.id.endswith("chart_code_preload_chart")]


def uploads_as_a_browser_sends_them(monkeypatch) -> None:
    """Make AppTest send a file uploader's state as the browser does (issue 31, ``state.read_upload_once``).

    The browser sends the file's id on every run for as long as the uploader shows the file; once the server has
    freed the bytes, Streamlit gives a ``DeletedFile`` with that id (tests/test_browser.py, the sheet chosen after an
    upload). AppTest sends a file only while the session state holds its bytes (an ``UploadedFile``), so after one run
    with a ``DeletedFile`` the uploader would look emptied by the user. With this, it sends the id of a
    ``DeletedFile`` too."""
    from streamlit.runtime.uploaded_file_manager import DeletedFile
    from streamlit.testing.v1.element_tree import FileUploader, InitialValue

    sends = FileUploader._widget_state.fget

    def widget_state(self):
        ws = sends(self)
        if not isinstance(self._files, InitialValue):  # set or cleared by the test: as AppTest sends it
            return ws
        held = self.root.session_state[self.id] if self.root.session_state and self.id in self.root.session_state else None
        if not ws.HasField("file_uploader_state_value") and isinstance(held, DeletedFile):
            info = ws.file_uploader_state_value.uploaded_file_info.add()
            info.file_id = held.file_id
            info.file_urls.file_id = held.file_id
        return ws

    monkeypatch.setattr(FileUploader, "_widget_state", property(widget_state))
