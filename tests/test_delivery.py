"""Issue 31: ``dashboard/delivery.py`` batches the yields of Streamlit's flush loop, and only on the Streamlit it was
written for: the pinned runtime has the one zero-second sleep it replaces, the replacement lets the event loop turn
once every ``every`` calls and is asyncio otherwise, an unexpected runtime is left alone, and the server sets it."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
import streamlit.runtime.runtime as runtime

from compare_lib import limits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "dashboard"))
import delivery  # noqa: E402


@pytest.fixture
def restore_runtime():
    original = runtime.asyncio
    yield
    runtime.asyncio = original


def test_the_pinned_streamlit_has_the_flush_loop_that_is_batched():
    """A Streamlit whose runtime changed (an upgrade of requirements.txt) fails here: read the new flush loop, then
    change delivery.py or drop it."""
    assert not isinstance(runtime.asyncio, delivery.BatchedAsyncio)  # the test process runs app.py, never server.py
    assert delivery.flush_loop_check(runtime) is None


def _turns_while_sleeping(sleep, calls: int) -> list[str]:
    """The order in which a task calling ``sleep(0)`` ``calls`` times and a task that counts loop turns run."""
    order: list[str] = []

    async def sender() -> None:
        for i in range(calls):
            order.append(f"send {i}")
            await sleep(0)

    async def other() -> None:
        for _ in range(calls + 1):
            order.append("other")
            await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(sender(), other())

    asyncio.run(main())
    return order


@pytest.mark.parametrize("every", [1, 5, 64])
def test_sleep_zero_lets_the_loop_turn_once_every_n_calls(every):
    batched = delivery.BatchedAsyncio(every)
    order = _turns_while_sleeping(batched.sleep, 10)
    sends = [i for i, what in enumerate(order) if what.startswith("send")]
    # Another task runs between two messages only where the sender let the loop turn: after calls every, 2 every...
    between = order[sends[0]:sends[-1]].count("other")
    assert between == 9 // every  # 1: after each of the first 9 messages (Streamlit's own); 5: once; 64: never
    assert batched.calls == 10
    assert _turns_while_sleeping(asyncio.sleep, 10)[:4] == ["send 0", "other", "send 1", "other"]  # asyncio's own


def test_everything_else_is_asyncio():
    batched = delivery.BatchedAsyncio(64)
    assert batched.Event is asyncio.Event and batched.wait is asyncio.wait and batched.create_task is asyncio.create_task

    async def nonzero() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await batched.sleep(0.05)
        return loop.time() - start

    assert asyncio.run(nonzero()) >= 0.04  # a real sleep: the flush interval between passes is Streamlit's
    with pytest.raises(ValueError):
        delivery.BatchedAsyncio(0)


def _module(tmp_path: Path, name: str, source: str) -> types.ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("source,problem", [
    ("import asyncio\nclass Runtime:\n    async def _loop_coroutine(self):\n        await asyncio.sleep(0.005)\n",
     "0 zero-second sleeps"),
    ("import asyncio\nclass Runtime:\n    async def _loop_coroutine(self):\n        pass\n"
     "async def elsewhere():\n    await asyncio.sleep(0)\n", "not in Runtime._loop_coroutine"),
    ("from asyncio import sleep\nclass Runtime:\n    async def _loop_coroutine(self):\n        await sleep(0)\n",
     "no module-level asyncio import"),
])
def test_a_changed_flush_loop_is_recognised(tmp_path, source, problem):
    assert problem in delivery.flush_loop_check(_module(tmp_path, f"runtime_{abs(hash(source))}", source))


def test_an_unexpected_runtime_is_left_alone(restore_runtime, monkeypatch, caplog):
    monkeypatch.setattr(delivery, "flush_loop_check", lambda module: "a changed flush loop")
    with caplog.at_level(logging.WARNING, logger="delivery"):
        assert delivery.batch_flushes(64) is False
    assert runtime.asyncio is asyncio
    assert "a changed flush loop" in caplog.text


def test_batch_flushes_sets_the_runtime_once(restore_runtime):
    assert delivery.batch_flushes(8) is True
    batched = runtime.asyncio
    assert isinstance(batched, delivery.BatchedAsyncio) and batched.every == 8
    assert delivery.batch_flushes(16) is True and runtime.asyncio is batched and batched.every == 16


def test_a_batch_cannot_fill_a_sessions_send_queue():
    """Between two turns of the loop one session's sender task sends nothing, so a batch goes into its send queue
    whole; Streamlit disconnects a session whose queue is full."""
    from streamlit.web.server.starlette.starlette_server_config import WEBSOCKET_MAX_SEND_QUEUE_SIZE

    assert 1 <= limits.SERVER_FLUSH_YIELD_EVERY <= WEBSOCKET_MAX_SEND_QUEUE_SIZE // 2


def test_the_server_batches_with_the_limit():
    """What ``streamlit run dashboard/server.py`` imports sets the runtime (and the switch interval) before serving."""
    code = ("import server, sys, streamlit.runtime.runtime as r; "
            "print(type(r.asyncio).__name__, r.asyncio.every, sys.getswitchinterval())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "dashboard", capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT / "dashboard")})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["BatchedAsyncio", str(limits.SERVER_FLUSH_YIELD_EVERY),
                                  str(limits.SERVER_SWITCH_INTERVAL)]
