"""Downloads: figures (SVG, PNG, self-contained HTML) and tables (CSV with formulas neutralized, LaTeX)."""

from __future__ import annotations

import threading

import pandas as pd
import streamlit as st

import compare_lib as cl
import state

__all__ = ["plain_columns", "report_downloads", "CHART_CONFIG", "image_export_available", "figure_image", "figure_downloads", "download_buttons", "p_columns"]


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


def figure_downloads(fig, stem: str, *, key: str, svg=None, png=None) -> None:
    """SVG and PNG (made on click) and a self-contained HTML of a figure.

    ``svg``, ``png``: functions that write the figure without a browser (the CD diagram's own renderers,
    :func:`compare_lib.plots.cd_svg` and :func:`compare_lib.plots.cd_png`); other figures are rendered by
    kaleido in a browser started for that export and ended after it. Nothing is rendered until a download
    asks."""
    row = st.container(horizontal=True)
    fig_json = fig.to_json()
    stem = state.file_stem(stem)

    def image(fmt: str) -> bytes:
        if fmt == "svg" and svg is not None:
            return svg().encode("utf-8")
        if fmt == "png" and png is not None:
            return png()
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


def download_buttons(frame: pd.DataFrame, stem: str, *, caption: str, key: str,
                     latex_frame: pd.DataFrame | None = None) -> None:
    """CSV (cells a spreadsheet would run as formulas are neutralized) and LaTeX downloads of a table; the
    file names and the LaTeX caption name the metric and the direction of the active table. ``latex_frame``:
    what the paper-ready LaTeX shows when it should hold less than the CSV (the chosen procedure only)."""
    latex_source = frame if latex_frame is None else latex_frame
    row = st.container(horizontal=True)
    stem = state.file_stem(stem)
    caption = f"{caption} ({state.table_label()})"
    row.download_button(
        "⬇ CSV", lambda: cl.report.to_csv(frame).encode("utf-8"), file_name=f"{stem}.csv", mime="text/csv",
        key=f"{key}_csv", on_click="ignore",
    )
    row.download_button(
        "⬇ LaTeX", lambda: cl.report.to_latex(latex_source, caption=caption, label=f"tab:{stem}",
                                             width=cl.report.ARTICLE_WIDTH_PT).encode("utf-8"),  # fits (issue 28)
        file_name=f"{stem}.tex", mime="text/x-tex", key=f"{key}_tex", on_click="ignore",
    )


def report_downloads(table: cl.ScoreTable, *, alpha: float, test: str, correction: str, control: str | None,
                     effect: str) -> None:
    """The whole analysis of this view as one report (HTML, Markdown, LaTeX, and the Python script that
    reproduces it), made on click; and the scores-with-ranks table of papers."""
    source = state.report_source()
    token = state.active_token()
    stem = state.file_stem("report")
    row = st.container(horizontal=True)
    formats = (("⬇ Report (HTML)", "html", "html", "text/html"), ("⬇ Report (Markdown)", "markdown", "md", "text/markdown"),
               ("⬇ LaTeX tables and figure", "latex", "tex", "text/x-tex"),
               ("⬇ Python script", "python", "py", "text/x-python"))
    from ui_cache import analysis_report

    for label, fmt, suffix, mime in formats:
        row.download_button(
            label, lambda fmt=fmt: analysis_report(token, table, source, repr(source), alpha, test, correction, control,
                                                   effect, fmt),
            file_name=f"{stem}.{suffix}", mime=mime, key=f"report_{fmt}", on_click="ignore",
        )
    st.caption("The report holds what was loaded and how, the methods with their references, the results, the paragraph, "
               "BibTeX and the code that reproduces it. For a PDF, open the HTML report and print it from the browser "
               "(Save as PDF). The script carries the table as analysed (an upload, a paste or a sample has no path on "
               "your disk), so it runs from any folder and prints the same numbers. An uploaded item-level file is read "
               "again instead (compare_lib.read_items, then the per-task means): put the file next to the script.")
    ranks_stem = state.file_stem("scores_with_ranks")
    caption = f"{state.table_label()}: scores with their ranks in brackets (1 = best); the best of each data set in bold."
    row = st.container(horizontal=True)
    row.download_button("⬇ Scores with ranks (LaTeX)", lambda: cl.report.scores_table(table, caption=caption,
                        label="tab:scores").encode("utf-8"), file_name=f"{ranks_stem}.tex", mime="text/x-tex",
                        key="ranks_tex", on_click="ignore")
    row.download_button("⬇ Markdown", lambda: cl.report.scores_table(table, format="markdown").encode("utf-8"),
                        file_name=f"{ranks_stem}.md", mime="text/markdown", key="ranks_md", on_click="ignore")
    row.download_button("⬇ CSV", lambda: cl.report.scores_table(table, format="csv").encode("utf-8"),
                        file_name=f"{ranks_stem}.csv", mime="text/csv", key="ranks_csv", on_click="ignore")


#: Plain-language headers (and the help shown on hovering or tapping them) for the code names of result tables.
PLAIN_COLUMNS = {
    "p_a": ("P(a better)", "Posterior probability that a is practically better than b (by more than the ROPE)."),
    "p_rope": ("P(equivalent)", "Posterior probability that the difference lies inside the ROPE."),
    "p_b": ("P(b better)", "Posterior probability that b is practically better than a."),
    "se_a": ("MC error P(a)", "Monte Carlo standard error of P(a better)."),
    "se_rope": ("MC error P(eq.)", "Monte Carlo standard error of P(equivalent)."),
    "se_b": ("MC error P(b)", "Monte Carlo standard error of P(b better)."),
    "decision": ("decision", "The region whose posterior probability reaches the decision threshold, else undecided."),
    "bayesian": ("Bayesian decision", "The region whose posterior probability reaches the decision threshold."),
    "p": ("p", "Two-sided p-value of the pair's test, before any correction."),
    "p_adj": ("adjusted p", "The p-value adjusted for the family of comparisons by the chosen procedure."),
    "reject": ("rejected", "Adjusted p ≤ α."), "significant": ("significant", "Adjusted p ≤ α."),
    "mean_rank_a": ("mean rank of a", "1 = best."), "mean_rank_b": ("mean rank of b", "1 = best."),
    "n_datasets": ("data sets", "The data sets both classifiers have (a table with missing cells)."),
    "mean_difference": ("mean difference", "Mean of a − b over the data sets, in score units (positive: a better)."),
    "hodges_lehmann": ("Hodges–Lehmann", "Median of the Walsh averages of a − b, in score units (positive: a better)."),
    "cohens_dz": ("Cohen's d_z", "Mean difference over its standard deviation."),
    "rank_biserial": ("rank-biserial r", "Matched-pairs rank-biserial correlation (Kerby 2014)."),
    "prob_superiority": ("P(a wins)", "Share of data sets on which a wins, ties counted half."),
    "wilcoxon_p": ("Wilcoxon p", "p-value of the Wilcoxon signed-ranks test."),
    "almost_consistent": ("almost consistent", "Verdicts agree in all but one repetition."),
    "agree": ("procedures agree", "Whether every procedure gives the same verdict on the pair."),
}


def plain_columns(frame: pd.DataFrame, **extra) -> dict:
    """Column configs that give a table's code-named columns a plain header and help (``extra``: more configs,
    which win). The data keep their names (downloads and notebooks see the same columns)."""
    config = {}
    for col in frame.columns:
        if not isinstance(col, str):
            continue
        label, help_text = PLAIN_COLUMNS.get(col, (col.replace("_", " "), None))
        if label != col or help_text:
            config[col] = st.column_config.Column(label, help=help_text)
    config.update(extra)
    return config


def p_columns(frame: pd.DataFrame, columns) -> dict:
    """Column configs that show p-values in one readable format (0.0312, 4.49e-08; never a bare 0)."""
    return {c: st.column_config.NumberColumn(c, format="%.3g") for c in columns if c in frame.columns}
