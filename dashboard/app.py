"""Entry point: page config, a shared link's view, the sidebar settings, navigation.

Served by ``streamlit run dashboard/server.py`` (or ``streamlit run dashboard/app.py``) after ``pip install -e .``.
The whole run (this frame, and every page in its own) is inside :func:`ui.guarded`, and the pages' widget
callbacks inside :func:`ui.guarded_callback`, so neither an input nor a bug can put a traceback on the screen,
whatever ``client.showErrorDetails`` says (issue 31).
"""

from __future__ import annotations

import os
import time

import streamlit as st

import links
import state
import ui

_started = time.perf_counter()  # bench/load.py reads how long each run takes on the server (RUNLOG below)
page = None


def _pages() -> list:
    """The navigation's pages, made once per session: st.Page resolves its file's path and validates its title and
    icon on construction (~1 ms a run for the seven, issue 31). Not shared between sessions: st.navigation marks
    the page it returns as callable once, and another session's run would race on that flag."""
    pages = st.session_state.get("_pages")
    if pages is None:
        pages = st.session_state["_pages"] = [
            st.Page("app_pages/load_data.py", title="Load data", default=True),
            st.Page("app_pages/omnibus.py", title="Omnibus tests"),
            st.Page("app_pages/posthoc.py", title="Post-hoc tests"),
            st.Page("app_pages/pool.py", title="Pool sensitivity"),
            st.Page("app_pages/replicability.py", title="Replicability"),
            st.Page("app_pages/bayesian.py", title="Bayesian analysis"),
            st.Page("app_pages/items.py", title="Per-task comparison"),
        ]
    return pages


def main() -> None:
    """The app's frame around the page: a link's view, the sidebar, the navigation, the page (in its own guard,
    so that the sidebar still shows when the page failed)."""
    global page
    st.set_page_config(page_title="Compare classifiers over data sets", layout="wide")

    links.apply_query_params()
    state.ensure_table()
    if "_alpha_next" in st.session_state:  # α from a link applied during the previous run
        st.session_state["alpha"] = st.session_state.pop("_alpha_next")
    st.session_state.setdefault("alpha", state.ALPHA_DEFAULT)

    page = st.navigation(_pages())

    with st.sidebar:
        st.markdown("### Settings")
        st.number_input(
            "Significance level α",
            min_value=state.ALPHA_MIN,
            max_value=state.ALPHA_MAX,
            step=0.01,
            format="%.3f",
            key="alpha",
            help=f"Used by every test and procedure on every page (between {state.ALPHA_MIN:g} and {state.ALPHA_MAX:g}). "
            "A hypothesis is rejected when its (adjusted) p-value is at most α.",
        )
        st.caption(
            "Methods: Demšar (2006), García & Herrera (2008), García et al. (2010), Benavoli, Corani & Mangili (2016), "
            "Eisinga et al. (2017), Benavoli et al. (2017), Bouckaert & Frank (2004). "
            "Rank 1 = best; ties get average ranks; all tests two-sided."
        )

    for problem in st.session_state.pop("query_problems", []):
        st.warning(ui.esc(problem))
    if (notice := links.pending_notice()) is not None:  # a fingerprint link awaiting its table, on every page (issue 28)
        st.warning(ui.esc(notice))
    if page.title != "Load data" and (waiting := state.direction_waiting()) is not None:  # asked there (issue 28)
        st.warning(ui.esc(waiting))
    try:
        ui.guarded(page.run, where=f"the page {page.title}")
    finally:  # also when the page stopped early (st.stop): the URL always holds the view
        links.share_view(links.PAGES.get(page.title))

    with st.sidebar:
        # After the page ran, so that a change made on the page is already reflected.
        analysed, loaded = state.active_table(), state.full_table()
        selection = ("" if analysed.scores.shape == loaded.scores.shape else
                     f" (your selection of the loaded {loaded.n_datasets} × {loaded.n_classifiers} table)")
        # Which table the numbers describe: the one analysed on every page, after the selection made on Load data.
        st.caption("**Analysed:** " + ui.esc(state.table_caption(analysed) + selection))
    ui.warm_up()


# The whole run in one guard (issue 31): an unexpected exception anywhere, in the frame or on the page, is a short
# message with an id on the page and a traceback in the server log, whatever client.showErrorDetails says.
state.tune_allocator()  # once per server process: large buffers freed go back to the system (issue 31)
ui.guarded(main, where="the app")
state.note_run()  # a thread frees what finished runs and ended sessions left in reference cycles (issue 31)
if os.environ.get("COMPARE_DASHBOARD_RUNLOG"):
    # One line per page run: its page and the seconds from the rerun request reaching this script to its end.
    with open(os.environ["COMPARE_DASHBOARD_RUNLOG"], "a", encoding="utf-8") as log:
        log.write(f"{time.time():.3f}\t{getattr(page, 'title', '?')}\t{time.perf_counter() - _started:.4f}\n")
