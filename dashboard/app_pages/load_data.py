"""Load data: a sample, an uploaded CSV/TSV, or pasted text; choose what to keep; preview with ranks."""

from __future__ import annotations

import hashlib

import streamlit as st

import compare_lib as cl
import ui

st.title("Load data")
st.markdown(
    "A table of scores: **one row per data set, one column per classifier** (wide), or a long table with "
    "data-set, classifier and score columns (and optional fold/repetition columns, averaged per cell). "
    "Commas, semicolons and tabs are detected, and so are decimal commas."
)

LAYOUTS = {"Detect": "auto", "Wide (data sets × classifiers)": "wide", "Long (data set, classifier, score)": "long"}
MISSING = {
    "Refuse missing cells (list them)": "error",
    "Drop data sets with a missing cell": "drop-datasets",
    "Drop classifiers with a missing cell": "drop-classifiers",
}
DIRECTION = {"Higher is better (accuracy, AUC, F1)": True, "Lower is better (error, loss, time)": False}

current = ui.full_table()
version = st.session_state.get("table_version", 0)

source = st.radio("Source", ["Sample", "Upload a file", "Paste"], horizontal=True, key="w_source")
higher = DIRECTION[
    st.radio(
        "The scores are",
        list(DIRECTION),
        index=0 if current.higher_is_better else 1,
        horizontal=True,
        key=f"w_direction_{version}",
        help="Ranks are 1 = best on every page. Choose 'lower is better' for error rates, losses or run times.",
    )
]
if higher != current.higher_is_better:
    ui.set_direction(higher)
    current = ui.full_table()
with st.expander("Reading options", expanded=False):
    c1, c2 = st.columns(2)
    layout = LAYOUTS[c1.selectbox("Layout", list(LAYOUTS), key="w_layout")]
    missing = MISSING[c2.selectbox("Missing cells", list(MISSING), key="w_missing")]


def _try_load(data: bytes, name: str) -> None:
    try:
        table = ui.load_bytes(data, name, higher, layout, missing)
    except cl.InputError as err:
        st.session_state["load_error"] = (
            f"{err}\n\nThe table loaded before ({st.session_state.get('origin')}) is still in use."
        )
        return
    st.session_state.pop("load_error", None)
    ui.set_table(table, origin=f"file: {name}")
    st.rerun()  # draw the page again with widgets keyed to the new table


if source == "Sample":
    labels = list(ui.SAMPLES)
    origin = st.session_state.get("origin", "")
    index = next((i for i, label in enumerate(labels) if origin == f"sample: {label}"), 0)
    choice = st.selectbox("Sample", labels, index=index, key="w_sample")
    st.caption(ui.SAMPLES[choice].about)
    if origin != f"sample: {choice}":
        ui.use_sample(choice)
        st.session_state.pop("load_error", None)
        st.rerun()
elif source == "Upload a file":
    uploaded = st.file_uploader(
        "CSV or TSV file", type=["csv", "tsv", "txt"], key="w_upload",
    )
    st.caption(
        "Files up to 50 MB (server.maxUploadSize in .streamlit/config.toml); the browser refuses larger ones. "
        "For bigger tables keep only the columns you compare, or use compare_lib.load_scores in a notebook."
    )
    if uploaded is not None:
        data = uploaded.getvalue()
        token = (uploaded.name, hashlib.sha1(data).hexdigest(), layout, missing)
        if st.session_state.get("upload_token") != token:
            st.session_state["upload_token"] = token
            _try_load(data, uploaded.name)
else:
    text = st.text_area(
        "Paste a table (e.g. copied from a spreadsheet: tab-separated)",
        height=180,
        key="w_paste",
        placeholder="dataset,A,B,C\niris,0.95,0.93,0.96\nwine,0.97,0.99,0.94\n...",
    )
    if st.button("Use the pasted table", type="primary", key="w_paste_load"):
        if not text.strip():
            st.session_state["load_error"] = "The text box is empty: paste a table with a header row first."
        else:
            _try_load(text.encode("utf-8"), "pasted table")

if st.session_state.get("load_error"):
    st.error(st.session_state["load_error"])

table = ui.full_table()
version = st.session_state.get("table_version", 0)
st.success(f"Loaded: {ui.table_caption(table)}")
ui.show_notes(table.notes)

# -- what to keep ----------------------------------------------------------------------------------
st.subheader("Classifiers and data sets to compare")
keep_c = st.multiselect(
    "Classifiers", table.classifiers, default=[c for c in st.session_state["keep_classifiers"] if c in table.classifiers],
    key=f"w_keep_c_{version}",
)
leave_out = st.multiselect(
    "Data sets to leave out",
    table.datasets,
    default=[d for d in table.datasets if d not in st.session_state["keep_datasets"]],
    key=f"w_leave_out_{version}",
    help="Every data set is used unless you leave it out here.",
)
keep_d = [d for d in table.datasets if d not in set(leave_out)]
if len(keep_c) < 2:
    st.error("Keep at least 2 classifiers: a comparison needs two. The previous selection is still in use.")
else:
    st.session_state["keep_classifiers"] = keep_c
if len(keep_d) < 2:
    st.error("Keep at least 2 data sets. The previous selection is still in use.")
else:
    st.session_state["keep_datasets"] = keep_d

active = ui.active_table()
dropped_c = [c for c in table.classifiers if c not in active.classifiers]
dropped_d = [d for d in table.datasets if d not in active.datasets]
if dropped_c or dropped_d:
    st.info(
        "Left out by your selection: "
        + (f"classifiers {', '.join(dropped_c)}" if dropped_c else "")
        + ("; " if dropped_c and dropped_d else "")
        + (f"data sets {', '.join(dropped_d)}" if dropped_d else "")
        + ". Ranks below are recomputed without them."
    )

# -- preview ---------------------------------------------------------------------------------------
st.subheader("Preview")
tabs = st.tabs(["Scores (rank)", "Ranks", "Wins / ties / losses"] + (["Fold-level rows"] if active.folds is not None else []))
with tabs[0]:
    st.caption("Each cell: score (rank on that data set; 1 = best, ties share the average rank), as in Demšar's Table 6.")
    st.dataframe(cl.report.scores_with_ranks(active), width="stretch")
with tabs[1]:
    st.plotly_chart(cl.plots.rank_heatmap(active), width="stretch", key="ranks_heatmap_load")
with tabs[2]:
    st.plotly_chart(cl.plots.win_tie_loss_figure(active), width="stretch", key="wtl_load")
if active.folds is not None:
    with tabs[3]:
        st.caption("Kept for the replicability analysis; the tables above use their average per cell.")
        st.dataframe(active.folds, width="stretch", height=300)

st.download_button(
    "⬇ Download the selected table (CSV)",
    active.scores.to_csv().encode("utf-8"),
    file_name="scores.csv",
    mime="text/csv",
    key="dl_scores",
)
st.page_link("app_pages/omnibus.py", label="Next: omnibus tests →")
