"""Entry point: page config, shared sidebar settings, navigation.

Run with ``streamlit run dashboard/app.py`` after ``pip install -e .``.
"""

from __future__ import annotations

import streamlit as st

import ui

st.set_page_config(page_title="Compare classifiers over data sets", layout="wide")

ui.apply_query_params()
ui.ensure_table()
st.session_state.setdefault("alpha", 0.05)

pages = [
    st.Page("app_pages/load_data.py", title="Load data", default=True),
    st.Page("app_pages/omnibus.py", title="Omnibus tests"),
    st.Page("app_pages/posthoc.py", title="Post-hoc tests"),
    st.Page("app_pages/pool.py", title="Pool sensitivity"),
    st.Page("app_pages/replicability.py", title="Replicability"),
]
page = st.navigation(pages)

with st.sidebar:
    st.markdown("### Settings")
    st.number_input(
        "Significance level α",
        min_value=0.001,
        max_value=0.5,
        step=0.01,
        format="%.3f",
        key="alpha",
        help="Used by every test and procedure on every page. A hypothesis is rejected when its (adjusted) "
        "p-value is at most α.",
    )
    st.caption(
        "Methods: Demšar (2006), García & Herrera (2008), Benavoli, Corani & Mangili (2016). "
        "Rank 1 = best; ties get average ranks; all tests two-sided."
    )

for problem in st.session_state.pop("query_problems", []):
    st.warning(problem)
page.run()

with st.sidebar:
    # After the page ran, so that a change made on the page is already reflected.
    st.caption(f"**Data:** {ui.table_caption(ui.active_table())}")
