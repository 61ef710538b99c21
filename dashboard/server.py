"""The dashboard's server: ``streamlit run dashboard/server.py`` (what ``scripts/run.sh`` starts, and the main file
path to give Community Cloud).

It serves ``app.py`` (the app itself; ``streamlit run dashboard/app.py`` serves it too, without this file's
additions) through ``st.App``, Streamlit's documented ASGI entry point, with one addition: Streamlit's own
front-end files answered by :class:`static_assets.StaticAssets`, 0.12 s of the server's CPU per new visitor instead
of 0.45 s (``bench/static_files.py``). Streamlit's ``streamlit run`` finds ``app`` below and serves it with its own
uvicorn runner, the configuration in ``.streamlit/config.toml`` and the command line's options.
"""

import streamlit as st
from starlette.middleware import Middleware

from static_assets import StaticAssets

app = st.App("app.py", middleware=[Middleware(StaticAssets)])
