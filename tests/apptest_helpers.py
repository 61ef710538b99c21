"""Helpers for Streamlit AppTest tests."""

from __future__ import annotations

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


def texts(elements) -> list[str]:
    return [str(e.value) for e in elements]


def by_label(widgets, label: str):
    for w in widgets:
        if w.label == label:
            return w
    raise AssertionError(f"no widget labelled {label!r}; have {[w.label for w in widgets]}")
