"""Downloads: figures (SVG, PNG, self-contained HTML) and tables (CSV with formulas neutralized, LaTeX)."""

from __future__ import annotations

import threading

import pandas as pd
import streamlit as st

import compare_lib as cl
import state

__all__ = ["CHART_CONFIG", "image_export_available", "figure_image", "figure_downloads", "download_buttons", "p_columns"]


#: The toolbar of every chart saves the figure in the reader's own browser (plotly.js, no server work):
#: SVG for papers. PNG and the other downloads are the buttons under a figure.
CHART_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "svg", "scale": 2}}


@st.cache_resource(show_spinner=False)
def image_export_available() -> str | None:
    """None when the server can render figures (a Chrome/Chromium is installed), else the reason.

    The server renders an SVG/PNG only when a download asks for one, with a browser started for that
    export and ended after it (kaleido without its persistent server): nothing stays in the server's
    memory between exports (a kept browser made the process tree ~330 MB larger, for good).
    """
    try:
        from choreographer.browsers.chromium import Chromium

        if Chromium.find_browser(skip_local=False) is None:
            return "no Chrome or Chromium found on the server"
    except Exception:  # an unexpected layout of kaleido's helper package: try when asked
        pass
    return None


#: One server-side export at a time: each starts a browser for itself, so this bounds the memory that many
#: sessions exporting at once can take (one browser, ended after its export).
_EXPORT_LOCK = threading.Lock()


@st.cache_data(show_spinner=False, max_entries=32, ttl=3600)
def figure_image(fig_json: str, fmt: str) -> bytes:
    import plotly.io as pio

    with _EXPORT_LOCK:
        return cl.plots.figure_image(pio.from_json(fig_json), fmt)


def figure_downloads(fig, stem: str, *, key: str) -> None:
    """SVG and PNG (kaleido, made on click) and a self-contained HTML of a figure.

    The image exporter starts only when a download is asked for: the page itself never waits for it."""
    row = st.container(horizontal=True)
    fig_json = fig.to_json()
    stem = state.file_stem(stem)

    def image(fmt: str) -> bytes:
        problem = image_export_available()
        if problem is not None:
            raise RuntimeError(f"SVG/PNG export is not available on this server ({problem}); use the HTML download.")
        return figure_image(fig_json, fmt)

    row.download_button("⬇ SVG", lambda: image("svg"), file_name=f"{stem}.svg", mime="image/svg+xml",
                        key=f"{key}_svg", on_click="ignore")
    row.download_button("⬇ PNG", lambda: image("png"), file_name=f"{stem}.png", mime="image/png",
                        key=f"{key}_png", on_click="ignore")
    row.download_button("⬇ HTML (interactive)", lambda: cl.plots.figure_html(fig), file_name=f"{stem}.html",
                        mime="text/html", key=f"{key}_html", on_click="ignore")


def download_buttons(frame: pd.DataFrame, stem: str, *, caption: str, key: str) -> None:
    """CSV (cells a spreadsheet would run as formulas are neutralized) and LaTeX downloads of a table; the
    file names and the LaTeX caption name the metric and the direction of the active table."""
    row = st.container(horizontal=True)
    stem = state.file_stem(stem)
    caption = f"{caption} ({state.table_label()})"
    row.download_button(
        "⬇ CSV", lambda: cl.report.to_csv(frame).encode("utf-8"), file_name=f"{stem}.csv", mime="text/csv",
        key=f"{key}_csv", on_click="ignore",
    )
    row.download_button(
        "⬇ LaTeX", lambda: cl.report.to_latex(frame, caption=caption, label=f"tab:{stem}").encode("utf-8"),
        file_name=f"{stem}.tex", mime="text/x-tex", key=f"{key}_tex", on_click="ignore",
    )


def p_columns(frame: pd.DataFrame, columns) -> dict:
    """Column configs that show p-values in one readable format (0.0312, 4.49e-08; never a bare 0)."""
    return {c: st.column_config.NumberColumn(c, format="%.3g") for c in columns if c in frame.columns}
