"""Load data: the loaded table first (never replaced without an explicit action), what was recognised in its
file and the choices made from it (metric, direction, aggregation, missing cells), then the ways to load
another one (a sample, an upload, pasted text), what to keep, and a preview with ranks."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

st.title("Load data")
st.markdown(
    "Your results as they are: a table with **one row per data set and one column per classifier** (wide), a long "
    "file with data-set, classifier, fold and metric columns (several metrics are fine), a tidy "
    "`metric`/`value` file, a scikit-learn `cross_validate` export, an Excel or OpenDocument sheet, a LaTeX or "
    "Markdown table from a paper (`86.4 ± 1.0` and bold cells keep the mean), or text copied from a PDF. "
    "Reading and choosing are separate: after reading, choose the metric, the direction, how folds are averaged "
    "and what to do with missing cells. **Item-level results** (one outcome per model, task and question: a long "
    "model/task/item/score table, lm-evaluation-harness `samples_<task>_<date>.jsonl` files or a zip of their folder, "
    "every_eval_ever instance-level JSON) are recognised too: the table analysed is then each task's mean, and the "
    "Per-task comparison page tests the models question by question."
)

LAYOUTS = {"Detect": "auto", "Wide (data sets × classifiers)": "wide", "Long (data set, classifier, metrics)": "long",
           "Tidy (metric and value columns)": "tidy", "scikit-learn cross_validate export": "sklearn"}
MISSING = {
    "Refuse missing cells (list them)": "error",
    "Drop data sets with a missing cell": "drop-datasets",
    "Drop classifiers with a missing cell": "drop-classifiers",
    "Keep the holes (each pair on the data sets both have)": "pairwise",
}
DIRECTION = {"Higher is better (accuracy, AUC, F1)": True, "Lower is better (error, loss, time)": False}
NEW_DIRECTION = {"Detect from the metric's name": None, **DIRECTION}
AGGREGATES = {"Mean": "mean", "Median": "median"}
FORMATS = {"Detect": "auto", "CSV / TSV (delimited)": "csv", "LaTeX table": "latex", "Markdown table": "markdown",
           "Text copied from a PDF": "text", "Excel (.xlsx)": "xlsx", "Excel 97-2003 (.xls)": "xls",
           "OpenDocument (.ods)": "ods"}
SOURCES = ["Sample", "Upload a file", "Paste"]
#: The rename boxes take this many characters at most (thousands of "old = new" lines).
RENAME_MAX_CHARS = 200_000
UPLOAD_TYPES = ["csv", "tsv", "txt", "tab", "xlsx", "xls", "ods", "tex", "md", "markdown",
                "jsonl", "ndjson", "json", "parquet", "zip"]  # the last five: item-level results (issue 30)
ss = st.session_state


def _metric_label(metric) -> str:
    return "(the table's one metric)" if metric is None else str(metric)


def _refused(err: cl.InputError) -> None:
    """A file that cannot be used: its message, and that nothing was replaced."""
    ss["load_error"] = f"{ui.words(err)}\n\nThe table loaded before ({state.origin().describe()}) is still in use."


def _loaded(table: cl.ScoreTable, origin: state.Origin) -> None:
    state.set_table(table, origin)
    message = links.check_pending_view(origin.kind)
    if message:
        ss["link_message"] = message


def _use(results: cl.Results, token: str, origin: state.Origin, higher: bool | None, *,
         keep_selection: bool = False) -> bool:
    """Build the table of ``origin.metric`` from a read file and make it the loaded table. ``higher``: the direction
    the user chose (the outputs say "stated by you"), or None for the catalogue's guess; a metric the catalogue
    does not know waits for the user's answer (issue 28: nothing is analysed in an unknown direction)."""
    try:
        if higher is None and results.direction(origin.metric) is None:
            # the cells' own problems first (as the library reports them), then the question
            state.results_table(token, results, origin.metric, True, origin.missing, origin.aggregate)
            ss["pending_read"] = {"token": token, "origin": origin, "higher": None, "results": results,
                                  "direction": True, "keep_selection": keep_selection}
            return False
        table = state.results_table(token, results, origin.metric, higher, origin.missing, origin.aggregate)
    except cl.InputError as err:
        _refused(err)
        return False
    if higher is not None:
        table = table.with_direction(higher, stated_by=state.STATED_BY_YOU)
    if keep_selection:
        state.set_table(table, origin, keep_selection=True)
    else:
        _loaded(table, origin)
    state.set_results(results, token)
    ss.pop("pending_read", None)
    ss["loaded_upload"] = ss.get("reading_upload") if origin.kind == "file" else None
    return True


def _typed_names(typed: str, table: cl.ScoreTable) -> tuple[list[str], list[str]]:
    """The data sets named one per line in ``typed``: those in the table (each once, in typed order) and the others.
    A function, not page code: the set of a large table's names (0.25 MB for 20,000) would otherwise stay in the
    page's globals, kept with the session until its next run (issue 31)."""
    names = [line.strip() for line in typed.splitlines() if line.strip()]
    present = set(table.datasets)
    return [n for n in dict.fromkeys(names) if n in present], [n for n in names if n not in present]


def _read(data: bytes | cl.io.Spooled, name: str, kind: str, layout: str, missing: str, higher: bool | None, sheet,
          fmt: str = "auto") -> bool:
    """Read a file; load it at once when one metric leaves nothing to choose, else wait for the choice."""
    ss.pop("pending_items", None)  # a question about items read before no longer applies
    if layout == "auto" and fmt in ("auto", "csv") and state.looks_like_items(data, name):
        return _read_items(data, name, kind, missing, higher)  # item-level results (issue 30)
    try:
        results = state.read_results(data, name, layout, sheet, fmt)
    except cl.InputError as err:
        _refused(err)
        return False
    token = state.results_token(data, name, layout, sheet, fmt)
    origin = state.Origin(kind, name, layout, missing, None, "mean", sheet)
    if len(results.metrics) == 1:
        return _use(results, token, replace(origin, metric=results.metrics[0]), higher)
    ss["pending_read"] = {"token": token, "origin": origin, "higher": higher, "results": results}
    return False


def _read_items(data: bytes | cl.io.Spooled, name: str, kind: str, missing: str, higher: bool | None) -> bool:
    """Item-level results (issue 30): read in the isolated reader, their task table made the loaded table; a score
    whose direction nothing states waits for the user's answer (pending_items)."""
    try:
        items = state.read_items_upload(data, name)
    except cl.InputError as err:
        _refused(err)
        return False
    origin = state.Origin(kind, name, "auto", missing, items.metric)
    if higher is None:
        try:
            items.task_table(missing=missing)
        except cl.InputError:
            try:  # is it the direction that is unknown? then ask (issue 28), else say what is wrong
                items.task_table(higher_is_better=True, missing=missing)
            except cl.InputError as err:
                _refused(err)
                return False
            ss["pending_items"] = {"items": items, "token": state.items_token(data, name), "origin": origin}
            return False
    return _use_items(items, state.items_token(data, name), origin, higher)


def _use_items(items: cl.Items, token: str, origin: state.Origin, higher: bool | None) -> bool:
    try:
        table = items.task_table(higher_is_better=higher, missing=origin.missing)
    except cl.InputError as err:
        _refused(err)
        return False
    if higher is not None:
        table = table.with_direction(higher, stated_by=state.STATED_BY_YOU)
    _loaded(table, origin)
    state.set_results(None, None)
    state.set_items(items, token)
    for key in ("pending_items", "pending_read"):
        ss.pop(key, None)
    ss["loaded_upload"] = ss.get("reading_upload") if origin.kind == "file" else None
    return True


@ui.guarded_callback  # Streamlit runs callbacks before the script, outside the page's guard
def _on_upload_change() -> None:
    """The user removed the file (or chose another): a message about the old one no longer applies. Not when the
    same file comes back as Streamlit's DeletedFile (the server freed its bytes once spooled): its spooled copy is
    still wanted, for a sheet to choose."""
    held = ss.get("upload_spool")
    if held is not None and getattr(ss.get("w_upload"), "file_id", None) == held[0]:
        return
    state.drop_upload_spool()  # removed or replaced: the file it spooled is no longer wanted
    if ss.get("w_upload") is None:
        ss.pop("load_error", None)
        ss.pop("upload_token", None)


@ui.guarded_callback  # Streamlit runs callbacks before the script, outside the page's guard
def _on_sample_change() -> None:
    label = ss.get("w_sample")
    if label in state.SAMPLES and state.origin() != state.Origin("sample", label):
        state.use_sample(label)
        message = links.check_pending_view("sample")
        if message:
            ss["link_message"] = message


def _recognised(results: cl.Results) -> str:
    """One plain sentence on what the reader recognised (escape before rendering)."""
    shown = {"dataset": "data sets", "classifier": "classifiers", "folds": "runs/folds", "metric": "metric names",
             "value": "values"}
    roles = ", ".join(f"{shown[role]} in {', '.join(map(repr, col)) if isinstance(col, list) else repr(col)}"
                      for role, col in results.columns.items() if role in shown and col)
    metrics = [m for m in results.metrics if m is not None]
    parts = [f"Read as {results.format} ({results.layout} layout)", f"{len(results.datasets):,} data sets",
             f"{len(results.classifiers):,} classifiers"]
    if results.has_folds:
        parts.append("several runs/folds per data set and classifier")
    if metrics:
        parts.append(f"{len(metrics)} metric(s): {', '.join(metrics[:12])}" + (" …" if len(metrics) > 12 else ""))
    return "; ".join(parts) + (f". Columns: {roles}." if roles else ".")


# -- the loaded table --------------------------------------------------------------------------------
table = state.full_table()
origin = state.origin()
version = ss.get("table_version", 0)
st.success("Loaded: " + esc(state.table_caption(table)) + " (the whole file; the pages analyse the classifiers and "
           "data sets kept below)")
for key in ("link_message",):
    if ss.get(key):
        st.info(esc(ss.pop(key)))
# A fingerprint link awaiting its table is named on every page (app.py); here it can be dismissed.
if ss.get("pending_view") and st.button("Forget the link's view (keep this table)", key="w_pending_forget"):
    links.forget_pending_view()
    st.rerun()
loaded = state.loaded_results()
if loaded is not None:
    results, token = loaded
    with st.container(border=True):
        st.markdown("**What was recognised**")
        st.caption(esc(_recognised(results)))  # the reader's notes are among the table's, below
        metrics = list(results.metrics)
        c1, c2, c3 = st.columns([1.4, 1, 1.4])
        metric = origin.metric
        if len(metrics) > 1:
            metric = c1.selectbox("Metric", metrics, index=metrics.index(origin.metric) if origin.metric in metrics else 0,
                                  format_func=_metric_label, key=f"w_metric_{version}",
                                  help="The file holds several metrics; the pages analyse one at a time. The view "
                                       "'Across metrics' below compares them.")
        else:
            c1.caption(esc(f"Metric: {_metric_label(metric)}"))
        aggregate = origin.aggregate
        if results.has_folds:
            aggregate = AGGREGATES[c2.radio("Runs/folds per cell", list(AGGREGATES),
                                            index=list(AGGREGATES.values()).index(origin.aggregate),
                                            key=f"w_aggregate_{version}", horizontal=True,
                                            help="Each cell of the table is the mean (or median) of its runs/folds.")]
        missing_label = c3.selectbox("Missing cells", list(MISSING), index=list(MISSING.values()).index(origin.missing),
                                     key=f"w_loaded_missing_{version}")
        missing = MISSING[missing_label]
        if (metric, aggregate, missing) != (origin.metric, origin.aggregate, origin.missing):
            new_origin = replace(origin, missing=missing, metric=metric, aggregate=aggregate)
            # the same metric keeps a direction the user stated; another one is guessed (or asked) anew
            higher_now = table.higher_is_better if metric == origin.metric and table.direction_stated else None
            if _use(results, token, new_origin, higher_now, keep_selection=True):
                st.rerun()
if (item_level := state.loaded_items()) is not None:  # issue 30: say what the table was made from
    # grouped once per loaded file (up to APP_MAX_ITEM_ROWS rows), not on every rerun
    about, gaps = state.session_memo("_items_about_memo", item_level[1],
                                     lambda: (item_level[0].describe(), item_level[0].missing()))
    with st.container(border=True):
        st.markdown("**" + esc(about) + "**")
        if len(gaps):
            st.caption("Items some models lack (each pair is compared on the items both have; the cells are means "
                       "over the items each model has):")
            st.dataframe(gaps.head(200), hide_index=True, width="stretch")
        st.page_link("app_pages/items.py", label="Compare the models task by task, item by item →")
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
if table.direction_stated:
    st.caption(esc(f"Direction: {state.direction_words(table)}."))
else:  # issue 28: every guess, "higher" included, is shown with its reason and can be changed
    st.caption(esc(f"Guessed from the metric's name: {table.direction_reason}. If that is wrong, choose the other "
                   "direction above: every rank and conclusion depends on it."))
    if st.button("That is right", key=f"w_direction_ok_{version}"):
        state.set_direction(table.higher_is_better)  # the outputs now say "stated by you"
        st.rerun()
if higher != table.higher_is_better:
    state.set_direction(higher)
    st.rerun()  # every message above describes the table as it is now read

# -- load another table -------------------------------------------------------------------------------
st.subheader("Load another table")
default_source = {"sample": "Sample", "file": "Upload a file", "paste": "Paste"}.get(origin.kind, "Sample")
source = st.radio("Source", SOURCES, index=SOURCES.index(ss.get("load_source", default_source)), horizontal=True,
                  key="w_source")
if source != ss.get("load_source"):
    ss.pop("load_error", None)  # a message about another source's input no longer applies
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
        directions = list(NEW_DIRECTION)
        stored = ss.get("load_higher", None)
        new_higher = NEW_DIRECTION[c1.radio("In the new table, scores are", directions,
                                            index=list(NEW_DIRECTION.values()).index(stored), key="w_new_direction",
                                            help="Detect: from the metric's name, with the library's direction "
                                                 "catalogue (accuracy, AUC, BLEU: higher; error, loss, WER, time: "
                                                 "lower); the guess is shown with its reason and can be changed. A "
                                                 "metric the catalogue does not know is asked before anything is "
                                                 "analysed. The file's name never decides.")]
        ss["load_higher"] = new_higher
        layout_label = c2.selectbox("Layout", list(LAYOUTS), index=list(LAYOUTS.values()).index(ss.get("load_layout", "auto")),
                                    key="w_layout")
        missing_label = c3.selectbox("Missing cells", list(MISSING),
                                     index=list(MISSING.values()).index(ss.get("load_missing", "error")), key="w_missing")
        ss["load_layout"], ss["load_missing"] = LAYOUTS[layout_label], MISSING[missing_label]
        layout, missing = ss["load_layout"], ss["load_missing"]
        fmt = FORMATS[c2.selectbox("Format", list(FORMATS), index=list(FORMATS.values()).index(ss.get("load_format", "auto")),
                                   key="w_format", help="Detect: from the file's name and content. Choose one when a "
                                                        "table was taken for another kind.")]
        ss["load_format"] = fmt
        if source == "Upload a file":
            uploaded = st.file_uploader("Results file (CSV, TSV, Excel, OpenDocument, LaTeX, Markdown or text)",
                                        type=UPLOAD_TYPES, key="w_upload", on_change=_on_upload_change)
            st.caption(
                f"Files up to 50 MB (the browser refuses larger ones) and tables up to {state.MAX_CELLS:,} scores with at "
                f"most {state.MAX_CLASSIFIERS} classifiers (e.g. 20,000 data sets × 50 classifiers). For bigger tables "
                "use compare_lib.read_results in a notebook."
            )
            # On disk from here on, the upload's bytes freed (issue 31); None once it was read and dropped.
            data = state.upload_spool(uploaded, key="w_upload")
            if uploaded is not None and data is None:  # read, then freed (state.drop_upload_spool)
                st.caption(esc(state.FREED_UPLOAD))
            elif data is not None:
                sheet = None
                # A workbook is one by its content or the chosen format, whatever its name says.
                kind = fmt if fmt != "auto" else cl.io.sniff_format(data.head, data.name)
                if fmt == "auto" and data.name.lower().endswith(".zip"):
                    kind = "items"  # a zip of lm-evaluation-harness samples files, not a workbook (issue 30)
                if kind in ("xlsx", "xls", "ods"):
                    try:
                        sheets = state.sheet_names(data, kind, data.name)
                    except cl.InputError as err:
                        sheets = []
                        _refused(err)
                    if len(sheets) > 1:
                        sheet = st.selectbox("Sheet", sheets, index=None, key="w_sheet",
                                             placeholder="The workbook has several sheets: choose the one to read",
                                             help="The table is read from this sheet; nothing is read before you choose.")
                ready = kind not in ("xlsx", "xls", "ods") or len(sheets) == 1 or sheet is not None
                read_token = (data.name, data.sha256, layout, sheet, fmt)
                token = (*read_token, missing, new_higher)
                # The file already loaded is changed with the controls above, not read again.
                already = ss.get("loaded_upload") == read_token and state.origin().kind == "file"
                if ss.get("upload_token") != token and ready and not already:
                    ss["upload_token"] = token
                    ss["reading_upload"] = read_token
                    loaded_now = _read(data, data.name, "file", layout, missing, new_higher, sheet, fmt)
                    if not ss.get("load_error"):  # read (a refused file stays, to be read another way)
                        state.drop_upload_spool()
                    if loaded_now:
                        st.rerun()  # draw the page again with widgets keyed to the new table
        else:
            text = st.text_area(
                "Paste a table (copied from a spreadsheet, a LaTeX or Markdown table, or a PDF)",
                height=180,
                key="w_paste",
                placeholder="dataset,A,B,C\niris,0.95,0.93,0.96\nwine,0.97,0.99,0.94\n...",
                max_chars=2_000_000,
            )
            if st.button("Use the pasted table", type="primary", key="w_paste_load"):
                if not text.strip():
                    ss["load_error"] = "The text box is empty: paste a table with a header row first."
                elif _read(text.encode("utf-8", "surrogatepass"), "pasted text", "paste", layout, missing, new_higher, None, fmt):
                    st.rerun()

pending = ss.get("pending_read")
if pending is not None:
    results = pending["results"]
    asking = bool(pending.get("direction"))  # one metric, whose direction the catalogue does not know
    with st.container(border=True):
        if asking:
            metric = pending["origin"].metric
            st.markdown(f"**{esc(pending['origin'].label)}: which is better for {esc(_metric_label(metric))}?** "
                        "Nothing is analysed until you answer.")
        else:
            st.markdown(f"**{esc(pending['origin'].label)} holds {len(results.metrics)} metrics: choose one.** "
                        "Nothing is analysed until you do.")
        st.caption(esc(_recognised(results)))
        ui.show_notes(results.notes, title="What the reader did")
        aggregate = pending["origin"].aggregate
        if not asking:
            metric = st.selectbox("Metric", results.metrics, index=None, format_func=_metric_label,
                                  key="w_pending_metric", placeholder="Choose the metric to analyse")
            if results.has_folds:
                aggregate = AGGREGATES[st.radio("Runs/folds per cell", list(AGGREGATES), horizontal=True,
                                                key="w_pending_aggregate")]
        answer, unanswered = pending["higher"], False
        picked = asking or metric is not None  # a wide table's one metric may have no name (None)
        if picked and answer is None:
            if results.direction(metric) is None:  # a question, never an assumption (issue 28)
                st.warning(esc(f"Nothing says whether a higher or a lower {_metric_label(metric)} is better "
                               f"({results.direction_reason(metric).removeprefix('unknown: ')}). Choose the "
                               "direction: every rank and conclusion depends on it."))
                choice = st.radio("Which is better?", list(DIRECTION), index=None, horizontal=True,
                                  key="w_pending_direction")
                answer, unanswered = (None, True) if choice is None else (DIRECTION[choice], False)
            else:
                st.caption(esc(f"Direction guessed from the metric's name: {results.direction_reason(metric)}. "
                               "It can be changed once the table is loaded."))
        if st.button("Use this table", type="primary", key="w_pending_use", disabled=not picked or unanswered):
            chosen = replace(pending["origin"], metric=metric, aggregate=aggregate)
            if _use(results, pending["token"], chosen, answer,  # clears the pending read
                    keep_selection=bool(pending.get("keep_selection"))):
                st.rerun()

pending_items = ss.get("pending_items")
if pending_items is not None:  # item-level results whose score's direction nothing states (issues 28, 30)
    with st.container(border=True):
        st.markdown(f"**{esc(pending_items['origin'].label)}: which is better for "
                    f"{esc(_metric_label(pending_items['origin'].metric))}?** Nothing is analysed until you answer.")
        st.caption(esc(pending_items["items"].describe()))
        ui.show_notes(pending_items["items"].notes, title="What the reader did")
        choice = st.radio("Which is better?", list(DIRECTION), index=None, horizontal=True,
                          key="w_pending_items_direction")
        if st.button("Use these results", type="primary", key="w_pending_items_use", disabled=choice is None):
            if _use_items(pending_items["items"], pending_items["token"], pending_items["origin"], DIRECTION[choice]):
                st.rerun()

if ss.get("load_error"):
    st.error(esc(ss["load_error"]))

table = state.full_table()
version = ss.get("table_version", 0)

# -- what to keep ----------------------------------------------------------------------------------
st.subheader("Classifiers and data sets to compare")
# Renaming (issue 28): the loaded table itself takes the new names, so every page, download, report and link
# shows them. Names are typed as text and shown escaped (never as Markdown).
renamed = state.renames()
with st.expander("Rename classifiers or data sets", expanded=bool(ss.get("rename_error"))):
    st.caption("One rename per line, as `old name = new name` (e.g. a paper's short names). Every page, download, "
               "report and link then uses the new names; the file is not changed.")
    r1, r2 = st.columns(2)
    rename_c = r1.text_area("Classifiers", key=f"w_rename_c_{version}", height=110, max_chars=RENAME_MAX_CHARS,
                            placeholder=f"{table.classifiers[0]} = new name")
    rename_d = r2.text_area("Data sets", key=f"w_rename_d_{version}", height=110, max_chars=RENAME_MAX_CHARS,
                            placeholder=f"{table.datasets[0]} = new name")
    b1, b2 = st.columns([1, 3])
    if b1.button("Rename", key="w_rename_go", type="primary", disabled=not (rename_c.strip() or rename_d.strip())):
        try:
            done = state.apply_renames(cl.parse_renames(rename_c, what="classifiers"),
                                       cl.parse_renames(rename_d, what="data sets"))
        except cl.InputError as err:
            ss["rename_error"] = ui.words(err)
        else:
            ss.pop("rename_error", None)
            count = len(done["classifiers"]) + len(done["datasets"])
            ss["rename_message"] = f"Renamed {count} name(s)." if count else "Nothing to rename: the names are the same."
            st.rerun()
    if renamed["classifiers"] or renamed["datasets"]:
        if b2.button("Undo the renames (names as read)", key="w_rename_undo"):
            state.undo_renames()
            ss["rename_message"] = "The names are as read again."
            st.rerun()
        pairs = [f"{old} → {new}" for old, new in [*renamed["classifiers"].items(), *renamed["datasets"].items()]]
        st.caption("Renamed: " + esc("; ".join(pairs[:30]) + (f" and {len(pairs) - 30} more" if len(pairs) > 30 else "")))
    if ss.get("rename_error"):
        st.error(esc(ss["rename_error"]) + " Nothing was renamed.")
if ss.get("rename_message"):
    st.success(esc(ss.pop("rename_message")))
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
    leave_out, unknown = _typed_names(typed, table)
    if unknown:
        st.warning(esc(f"Not in the table (ignored): {', '.join(repr(n) for n in unknown[:8])}"
                       + (f" and {len(unknown) - 8} more" if len(unknown) > 8 else "")))
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

# -- preview ---------------------------------------------------------------------------------------
st.subheader("Preview")
PREVIEW_ROWS = 1000
loaded = state.loaded_results()
several_metrics = loaded is not None and len(loaded[0].metrics) > 1
views = (["Scores (rank)", "Ranks", "Wins / ties / losses"] + (["Fold-level rows"] if active.folds is not None else [])
         + (["Across metrics"] if several_metrics else []))
wanted = ss.get("load_preview")
if wanted in links.LOAD_VIEWS and wanted not in views and "load_preview" in ss.get("link_keys", ()):
    # A link's view that needs what did not travel with its table is said to be missing, not swapped (issue 28).
    needs = "the fold-level rows" if wanted == "Fold-level rows" else "the other metrics of the file"
    st.info(esc(f"The link's view '{wanted}' shows {needs}, which did not travel with the table: load the file to see "
                f"it. Shown instead: '{views[0]}'."))
    ss["link_keys"].discard("load_preview")
# One view at a time (not tabs, which draw everything): the first page stays light to load.
view = st.segmented_control("Show", views, default=st.session_state.get("load_preview") if st.session_state.get(
    "load_preview") in views else views[0], key="w_preview_view") or views[0]
st.session_state["load_preview"] = view
if view == "Scores (rank)":
    st.caption("Each cell: score (rank on that data set; 1 = best, ties share the average rank), as in Demšar's Table 6."
               + (f" The first {PREVIEW_ROWS:,} data sets are shown; the average rank uses all of them."
                  if active.n_datasets > PREVIEW_ROWS else ""))
    ui.shared_dataframe(ui.scores_with_ranks(state.active_token(), active, PREVIEW_ROWS), width="stretch")
elif view == "Ranks":
    st.plotly_chart(ui.cached_figure(("rank_heatmap", state.active_token()), lambda: cl.plots.rank_heatmap(active)),
                    width="stretch", key="ranks_heatmap_load", config=ui.CHART_CONFIG)
elif view == "Wins / ties / losses":
    if active.n_classifiers <= ui.MAX_MATRIX_K:
        st.plotly_chart(ui.cached_figure(("wtl", state.active_token()), lambda: cl.plots.win_tie_loss_figure(active)),
                        width="stretch", key="wtl_load", config=ui.CHART_CONFIG)
    else:
        st.info(f"The wins/ties/losses matrix is drawn for up to {ui.MAX_MATRIX_K} classifiers; this table has "
                f"{active.n_classifiers}. Download it as a table:")
        ui.download_buttons(active.win_tie_loss_frame(), "wins_ties_losses", caption="Wins, ties and losses", key="wtl")
elif view == "Fold-level rows":
    st.caption("Kept for the replicability and Bayesian pages; the tables above use their "
               f"{origin.aggregate} per cell.")
    shown = active.folds.head(PREVIEW_ROWS)
    # As text: a categorical column would send every category to the browser, not only the shown rows' names.
    st.dataframe(shown.astype({c: str for c in ("dataset", "classifier") if c in shown.columns}), width="stretch",
                 height=300)
else:
    results, token = loaded
    alpha = state.alpha()
    st.caption(
        f"Each metric of the file analysed the same way (Wilcoxon signed-ranks with Holm's correction at α = "
        f"{alpha:g}; missing cells: {state.MISSING_LABELS[origin.missing]}): does the conclusion hold "
        "across metrics? 'Tied for best' lists the classifiers the procedure cannot tell apart from the one with "
        "the best mean rank."
    )
    summary = ui.call(ui.compare_metrics, token, results, alpha, origin.missing, origin.aggregate,
                      tuple(active.classifiers), tuple(active.datasets))
    if summary is not None:
        shown = cl.report.with_p_text(summary, ["omnibus_p"])
        if not shown["problem"].astype(bool).any():
            shown = shown.drop(columns="problem")
        else:
            shown["problem"] = shown["problem"].map(ui.words)  # options named by their controls
        shown = shown.rename(columns={
            "metric": "Metric", "higher_is_better": "Higher is better", "direction_reason": "Direction: why",
            "datasets": "Data sets", "best": "Best mean rank", "tied_for_best": "Tied for best",
            "omnibus_p": "Omnibus p", "omnibus_rejects": "Omnibus rejects", "rejected_pairs": "Pairs that differ",
            "problem": "Could not be analysed", **{c: f"Mean rank: {c[6:]}" for c in summary.columns if c.startswith("rank: ")},
        })
        front = ["Metric", "Best mean rank", "Tied for best", "Omnibus p", "Higher is better"]
        st.dataframe(shown[front + [c for c in shown.columns if c not in front]], width="stretch", hide_index=True)
        ui.download_buttons(summary, "across_metrics", caption="The conclusion for each metric", key="across")

st.download_button(
    "⬇ Download the selected table (CSV)",
    lambda: cl.report.to_csv(active.scores, index=True).encode("utf-8"),
    file_name=f"scores_{active.metric}.csv" if active.metric else "scores.csv",
    mime="text/csv",
    key="dl_scores",
    on_click="ignore",
)
st.page_link("app_pages/omnibus.py", label="Next: omnibus tests →")
ui.preload_chart_code()  # the next page draws charts: let the browser load their code while this one is read
