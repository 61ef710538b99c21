"""Load data: the loaded table first (never replaced without an explicit action), then the ways to load
another one (a sample, an upload, pasted text), what to keep, and a preview with ranks."""

from __future__ import annotations

import hashlib

import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

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
SOURCES = ["Sample", "Upload a file", "Paste"]
ss = st.session_state


def _loaded(table: cl.ScoreTable, origin: state.Origin) -> None:
    state.set_table(table, origin)
    message = links.check_pending_view(origin.kind)
    if message:
        ss["link_message"] = message


def _try_load(data: bytes, name: str, origin: state.Origin, higher: bool) -> bool:
    try:
        table = state.load_bytes(data, name, higher, origin.layout, origin.missing)
    except cl.InputError as err:
        ss["load_error"] = f"{err}\n\nThe table loaded before ({state.origin().describe()}) is still in use."
        return False
    _loaded(table, origin)
    return True


def _on_sample_change() -> None:
    label = ss.get("w_sample")
    if label in state.SAMPLES and state.origin() != state.Origin("sample", label):
        state.use_sample(label)
        message = links.check_pending_view("sample")
        if message:
            ss["link_message"] = message


# -- the loaded table --------------------------------------------------------------------------------
table = state.full_table()
origin = state.origin()
version = ss.get("table_version", 0)
st.success("Loaded: " + esc(state.table_caption(table)))
if origin.kind in ("file", "paste"):
    st.caption(esc(f"Read as layout '{origin.layout}', missing cells: {origin.missing}."))
for key in ("link_message",):
    if ss.get(key):
        st.info(esc(ss.pop(key)))
if ss.get("pending_view"):
    st.warning(
        "A shared link is waiting for its table: load the file it was made with and its view will be applied "
        f"(the link's table fingerprint is {esc(ss['pending_view'].get('fp', [''])[0])})."
    )
ui.show_notes(table.notes)
higher = DIRECTION[
    st.radio(
        "The scores are",
        list(DIRECTION),
        index=0 if table.higher_is_better else 1,
        horizontal=True,
        key=f"w_direction_{version}",
        help="How the loaded table is read. Ranks are 1 = best on every page. Choose 'lower is better' for error "
        "rates, losses or run times.",
    )
]
if higher != table.higher_is_better:
    state.set_direction(higher)
    st.rerun()  # every message above describes the table as it is now read

# -- load another table -------------------------------------------------------------------------------
st.subheader("Load another table")
default_source = {"sample": "Sample", "file": "Upload a file", "paste": "Paste"}.get(origin.kind, "Sample")
source = st.radio("Source", SOURCES, index=SOURCES.index(ss.get("load_source", default_source)), horizontal=True,
                  key="w_source")
ss["load_source"] = source

if source == "Sample":
    labels = list(state.SAMPLES)
    current = labels.index(origin.label) if origin.kind == "sample" and origin.label in labels else None
    if "w_sample" not in ss or ss.get("w_sample") not in labels:
        ss.pop("w_sample", None)
    choice = st.selectbox("Sample", labels, index=current, key="w_sample", on_change=_on_sample_change,
                          placeholder="Choose a sample to load it (replaces the loaded table)")
    if choice:
        st.caption(state.SAMPLES[choice].about)
else:
    with st.container(border=True):
        c1, c2, c3 = st.columns([1.2, 1, 1])
        new_higher = DIRECTION[c1.radio("In the new table, scores are", list(DIRECTION),
                                        index=0 if ss.get("load_higher", True) else 1, key="w_new_direction")]
        ss["load_higher"] = new_higher
        layout_label = c2.selectbox("Layout", list(LAYOUTS), index=list(LAYOUTS.values()).index(ss.get("load_layout", "auto")),
                                    key="w_layout")
        missing_label = c3.selectbox("Missing cells", list(MISSING),
                                     index=list(MISSING.values()).index(ss.get("load_missing", "error")), key="w_missing")
        ss["load_layout"], ss["load_missing"] = LAYOUTS[layout_label], MISSING[missing_label]
        layout, missing = ss["load_layout"], ss["load_missing"]
        if source == "Upload a file":
            uploaded = st.file_uploader("CSV or TSV file", type=["csv", "tsv", "txt"], key="w_upload")
            st.caption(
                f"Files up to 50 MB (the browser refuses larger ones) and tables up to {state.MAX_CELLS:,} scores with at "
                f"most {state.MAX_CLASSIFIERS} classifiers (e.g. 20,000 data sets × 50 classifiers). For bigger tables "
                "use compare_lib.load_scores in a notebook."
            )
            if uploaded is not None:
                data = uploaded.getvalue()
                token = (uploaded.name, hashlib.sha256(data).hexdigest(), layout, missing, new_higher)
                if ss.get("upload_token") != token:
                    ss["upload_token"] = token
                    if _try_load(data, uploaded.name, state.Origin("file", uploaded.name, layout, missing), new_higher):
                        ss["upload_token"] = token
                        st.rerun()  # draw the page again with widgets keyed to the new table
        else:
            text = st.text_area(
                "Paste a table (e.g. copied from a spreadsheet: tab-separated)",
                height=180,
                key="w_paste",
                placeholder="dataset,A,B,C\niris,0.95,0.93,0.96\nwine,0.97,0.99,0.94\n...",
                max_chars=2_000_000,
            )
            if st.button("Use the pasted table", type="primary", key="w_paste_load"):
                if not text.strip():
                    ss["load_error"] = "The text box is empty: paste a table with a header row first."
                elif _try_load(text.encode("utf-8"), "pasted text", state.Origin("paste", "pasted text", layout, missing),
                               new_higher):
                    st.rerun()

if ss.get("load_error"):
    st.error(esc(ss["load_error"]))

table = state.full_table()
version = ss.get("table_version", 0)

# -- what to keep ----------------------------------------------------------------------------------
st.subheader("Classifiers and data sets to compare")
keep_c = st.multiselect(
    "Classifiers", table.classifiers, default=state.kept_classifiers(), key=f"w_keep_c_{version}",
)
if len(keep_c) < 2:
    st.error("Keep at least 2 classifiers: a comparison needs two. The previous selection is still in use.")
else:
    state.set_selection(keep_classifiers=keep_c)

if table.n_datasets <= state.MAX_LISTED_DATASETS:
    leave_out = st.multiselect(
        "Data sets to leave out", table.datasets, default=state.dropped_datasets(), key=f"w_leave_out_{version}",
        help="Every data set is used unless you leave it out here.",
    )
else:
    typed = st.text_area(
        "Data sets to leave out (one name per line)",
        value="\n".join(state.dropped_datasets()),
        key=f"w_leave_out_text_{version}",
        help=f"With more than {state.MAX_LISTED_DATASETS} data sets the names are typed rather than picked from a list.",
    )
    names = [line.strip() for line in typed.splitlines() if line.strip()]
    present = set(table.datasets)
    unknown = [n for n in names if n not in present]
    if unknown:
        st.warning(esc(f"Not in the table (ignored): {', '.join(repr(n) for n in unknown[:8])}"
                       + (f" and {len(unknown) - 8} more" if len(unknown) > 8 else "")))
    leave_out = [n for n in dict.fromkeys(names) if n in present]
if table.n_datasets - len(set(leave_out)) < 2:
    st.error("Keep at least 2 data sets. The previous selection is still in use.")
else:
    state.set_selection(drop_datasets=leave_out)

active = state.active_table()
dropped_c = [c for c in table.classifiers if c not in set(active.classifiers)]
dropped_d = state.dropped_datasets()
if dropped_c or dropped_d:
    parts = []
    if dropped_c:
        parts.append("classifiers " + ", ".join(dropped_c[:20]) + (f" and {len(dropped_c) - 20} more" if len(dropped_c) > 20 else ""))
    if dropped_d:
        parts.append("data sets " + ", ".join(dropped_d[:20]) + (f" and {len(dropped_d) - 20} more" if len(dropped_d) > 20 else ""))
    st.info("Left out by your selection: " + esc("; ".join(parts)) + ". Ranks below are recomputed without them.")
links.share_view()

# -- preview ---------------------------------------------------------------------------------------
st.subheader("Preview")
PREVIEW_ROWS = 1000
views = ["Scores (rank)", "Ranks", "Wins / ties / losses"] + (["Fold-level rows"] if active.folds is not None else [])
# One view at a time (not tabs, which draw everything): the first page stays light to load.
view = st.segmented_control("Show", views, default=views[0], key="w_preview_view") or views[0]
if view == "Scores (rank)":
    st.caption("Each cell: score (rank on that data set; 1 = best, ties share the average rank), as in Demšar's Table 6."
               + (f" The first {PREVIEW_ROWS:,} data sets are shown; the average rank uses all of them."
                  if active.n_datasets > PREVIEW_ROWS else ""))
    st.dataframe(cl.report.scores_with_ranks(active, max_rows=PREVIEW_ROWS), width="stretch")
elif view == "Ranks":
    st.plotly_chart(cl.plots.rank_heatmap(active), width="stretch", key="ranks_heatmap_load")
elif view == "Wins / ties / losses":
    if active.n_classifiers <= ui.MAX_MATRIX_K:
        st.plotly_chart(cl.plots.win_tie_loss_figure(active), width="stretch", key="wtl_load")
    else:
        st.info(f"The wins/ties/losses matrix is drawn for up to {ui.MAX_MATRIX_K} classifiers; this table has "
                f"{active.n_classifiers}. Download it as a table:")
        ui.download_buttons(active.win_tie_loss_frame(), "wins_ties_losses", caption="Wins, ties and losses", key="wtl")
else:
    st.caption("Kept for the replicability analysis; the tables above use their average per cell.")
    st.dataframe(active.folds.head(PREVIEW_ROWS), width="stretch", height=300)

st.download_button(
    "⬇ Download the selected table (CSV)",
    lambda: cl.report.to_csv(active.scores, index=True).encode("utf-8"),
    file_name="scores.csv",
    mime="text/csv",
    key="dl_scores",
    on_click="ignore",
)
st.page_link("app_pages/omnibus.py", label="Next: omnibus tests →")
