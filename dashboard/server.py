"""The dashboard's server: ``streamlit run dashboard/server.py`` (what ``scripts/run.sh`` starts, and the main file
path to give Community Cloud).

It serves ``app.py`` (the app itself; ``streamlit run dashboard/app.py`` serves it too, without this file's
additions) through ``st.App``, Streamlit's documented ASGI entry point, with four additions:

- Streamlit's own front-end files answered by :class:`static_assets.StaticAssets`, 0.12 s of the server's CPU per
  new visitor instead of 0.45 s (``bench/static_files.py``);
- a longer GIL switch interval for the server's threads (:data:`compare_lib.limits.SERVER_SWITCH_INTERVAL`);
- allocators set for a server of many short-lived threads that hold large tables (:mod:`allocator`,
  :data:`compare_lib.limits.ALLOCATOR_ARENA_MAX`);
- Streamlit's event loop sending a batch of messages between its turns, not one (:mod:`delivery`,
  :data:`compare_lib.limits.SERVER_FLUSH_YIELD_EVERY`).

Streamlit's ``streamlit run`` finds ``app`` below and serves it with its own uvicorn runner, the configuration in
``.streamlit/config.toml`` and the command line's options.
"""

import sys

import allocator

allocator.arrow_from_glibc()  # before compare_lib imports pandas, and with it pyarrow

import streamlit as st  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402

import delivery  # noqa: E402
from compare_lib import limits  # noqa: E402
from static_assets import StaticAssets  # noqa: E402

# At most two glibc heaps for the threads of page runs (limits.ALLOCATOR_ARENA_MAX), before the server starts them.
allocator.limit_heaps(limits.ALLOCATOR_ARENA_MAX)

# A thread may hold the GIL 20 ms instead of Python's 5 before it is asked to let another have it: with a class's
# page runs in threads beside Streamlit's event loop, the loop then waits less for the GIL to start runs and send
# their elements (limits.SERVER_SWITCH_INTERVAL: N = 100, median answer 0.14-0.37 s instead of 0.61-1.41 s).
sys.setswitchinterval(limits.SERVER_SWITCH_INTERVAL)

# The elements of a class's page runs sent in batches, each loop turn (which gives up the GIL) after up to this many
# messages instead of after each one (limits.SERVER_FLUSH_YIELD_EVERY).
delivery.batch_flushes(limits.SERVER_FLUSH_YIELD_EVERY)

app = st.App("app.py", middleware=[Middleware(StaticAssets)])
