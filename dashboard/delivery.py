"""How Streamlit's event loop sends the elements of page runs to the browsers, batched (issue 31).

Streamlit's runtime sends what every session's page runs enqueued in one loop (``Runtime._loop_coroutine`` in
``streamlit/runtime/runtime.py``) and, after each message, yields to the event loop with ``await asyncio.sleep(0)``.
Each such turn of the loop polls its sockets (``epoll_wait``), which gives up the GIL; while a class's page runs hold
it, the loop then waits up to :data:`compare_lib.limits.SERVER_SWITCH_INTERVAL` to get it back. A page run is 40-50
messages, so its last element reached the browser long after the run ended: at N = 100 the server's own timings
put 0.82 s (median) between the end of a run and its last message sent, against 0.044 s for the run itself.

:func:`batch_flushes` makes the runtime module's ``asyncio.sleep(0)`` (that yield, its only zero-second sleep; the
other names of ``asyncio`` it uses are asyncio's own) yield once every ``every`` messages instead: the loop still
serves sockets and other tasks between batches, after at most ``every`` messages (each a buffered, non-blocking
write to the session's send queue, which the session's sender task empties when the loop turns; so a batch must
stay well below that queue's bound, past which Streamlit disconnects the session). ``bench/load.py --mode protocol
--sessions 100``: see :data:`compare_lib.limits.SERVER_FLUSH_YIELD_EVERY`.

It is a change to a pinned dependency's module (``requirements.txt``), checked before it is made: if the runtime's
source no longer has exactly that one zero-second sleep inside its flush loop, nothing is changed and the server
logs why. ``tests/test_delivery.py`` fails on such a Streamlit, so an upgrade of the pins meets it.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any

#: The statement of Streamlit's flush loop that this module batches, as it reads in the runtime's source.
YIELD_STATEMENT = "await asyncio.sleep(0)"

_LOG = logging.getLogger(__name__)


async def _no_turn() -> None:
    """Awaited in place of ``asyncio.sleep(0)``: finishes at once, without a turn of the event loop."""


class BatchedAsyncio:
    """What ``streamlit.runtime.runtime`` sees as ``asyncio``: every name is asyncio's, except that ``sleep(0)``
    lets the event loop turn once every ``every`` calls. Used only by the event loop's own thread (the runtime's
    loop coroutine), so its counter needs no lock."""

    def __init__(self, every: int) -> None:
        if every < 1:
            raise ValueError(f"every must be at least 1, not {every}")
        self.every = every
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    def sleep(self, delay: float, *args: Any, **kwargs: Any) -> Any:
        if delay == 0:
            self.calls += 1
            if self.calls % self.every:
                return _no_turn()
        return asyncio.sleep(delay, *args, **kwargs)


def flush_loop_check(runtime_module: Any) -> str | None:
    """None when ``runtime_module`` (``streamlit.runtime.runtime``) is as this module expects: ``asyncio`` imported
    as a module, exactly one ``asyncio.sleep(0)`` in its source, inside ``Runtime._loop_coroutine``; else why not."""
    if getattr(runtime_module, "asyncio", None) is not asyncio:
        return "streamlit.runtime.runtime has no module-level asyncio import"
    source = inspect.getsource(runtime_module)
    if source.count("asyncio.sleep(0)") != 1:
        return f"streamlit.runtime.runtime has {source.count('asyncio.sleep(0)')} zero-second sleeps, not 1"
    loop = getattr(getattr(runtime_module, "Runtime", None), "_loop_coroutine", None)
    if loop is None or YIELD_STATEMENT not in inspect.getsource(loop):
        return "the zero-second sleep is not in Runtime._loop_coroutine"
    return None


def batch_flushes(every: int) -> bool:
    """Make Streamlit's flush loop yield once every ``every`` messages (see the module's docstring). Returns whether
    it was done; when Streamlit's runtime is not as expected, logs why and changes nothing."""
    import streamlit.runtime.runtime as runtime

    if isinstance(runtime.asyncio, BatchedAsyncio):
        runtime.asyncio.every = every
        return True
    problem = flush_loop_check(runtime)
    if problem is not None:
        _LOG.warning("Streamlit's message delivery left as it is: %s (dashboard/delivery.py)", problem)
        return False
    runtime.asyncio = BatchedAsyncio(every)
    return True
