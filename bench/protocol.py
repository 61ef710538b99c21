"""Sessions that speak Streamlit's own websocket protocol, many from one asyncio process (issue 31).

The browser's side of a Streamlit session, without the browser: connect to ``ws://host:port/_stcore/stream`` with
the subprotocol ``streamlit`` (this server needs no XSRF token or cookie for a session without login: it checks
those only to read an auth cookie), send ``BackMsg.rerun_script`` with a ``ClientState`` (the page's
``page_script_hash`` learnt from the ``navigation`` ForwardMsg, the widget states, the hashes of the cacheable
messages already received, as the browser's ForwardMsg cache does), and read ForwardMsgs until ``script_finished``.
A run that the page cuts short with ``st.rerun()`` (``FINISHED_EARLY_FOR_RERUN``) is followed by the run it asked for:
the answer time runs to the end of that one, as in the browser. A run is an error when it rendered an exception element (``delta.new_element.exception``), the app's own guard
message ("an internal error, error id ..."), a ``page_not_found``, a compile error, or took longer than the timeout.

Each session: arrives at a random moment in the first ``arrival`` seconds, lands on the default page, then
``rounds`` times visits the six pages in random order; on each page it waits for the run to end, thinks 2-4 s,
changes one widget of that page (the first radio, checkbox, selectbox or number input of the page's main area,
learnt from the page's deltas: a radio or selectbox to another option, a checkbox toggled, a number one step up),
waits for that run, thinks 2-4 s again. One click every ~3 s, as the issue's arithmetic assumes.

Used by ``bench/load.py --mode protocol``; importable on its own::

    stats = asyncio.run(run_sessions("127.0.0.1", port, n=30))
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

PAGES = ["Load data", "Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis"]
WIDGETS = ("radio", "checkbox", "selectbox", "number_input")
GUARD_MESSAGE = "an internal error, error id"
SUCCESS = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


@dataclass
class Run:
    page: str
    kind: str  # "land", "visit" or "widget"
    seconds: float
    error: str | None = None


@dataclass
class Stats:
    runs: list[Run] = field(default_factory=list)
    sessions_failed: list[str] = field(default_factory=list)
    widgets: dict[str, str] = field(default_factory=dict)  # page -> the widget changed there (type: label)

    @property
    def errors(self) -> list[Run]:
        return [r for r in self.runs if r.error]


class Session:
    """One protocol session: a reader task turns ForwardMsgs into the state of the current run."""

    def __init__(self, url: str, timeout: float):
        self.url, self.timeout = url, timeout
        self.pages: dict[str, str] = {}  # page name -> page_script_hash
        self.cached: set[str] = set()  # hashes of cacheable messages received (the browser's ForwardMsg cache)
        self.finished: asyncio.Future | None = None
        self.problem: str | None = None
        self.widgets: list[tuple[str, object]] = []  # (type, element proto) in the main area of the current run
        self.ws = None
        self.reader: asyncio.Task | None = None

    async def connect(self) -> None:
        # max_size=None: a page's table or figure can be one large message; compression as the browser offers it
        self.ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=self.timeout,
                                           ping_interval=None)
        self.reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self._handle(msg)
        except (websockets.ConnectionClosed, asyncio.CancelledError):
            pass
        finally:
            if self.finished is not None and not self.finished.done():
                self.finished.set_exception(ConnectionError("websocket closed during a run"))

    def _handle(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if msg.metadata.cacheable and msg.hash:
            self.cached.add(msg.hash)
        if kind == "navigation":
            self.pages = {p.page_name: p.page_script_hash for p in msg.navigation.app_pages}
        elif kind == "delta":
            delta = msg.delta
            if delta.WhichOneof("type") == "new_element":
                element = delta.new_element
                etype = element.WhichOneof("type")
                if etype == "exception" and self.problem is None:
                    self.problem = f"exception element: {element.exception.type}: {element.exception.message[:200]}"
                elif etype == "alert" and GUARD_MESSAGE in element.alert.body and self.problem is None:
                    self.problem = "guard message: " + element.alert.body[:200]
                elif etype in WIDGETS and list(msg.metadata.delta_path[:1]) == [0]:  # the main area, not the sidebar
                    self.widgets.append((etype, getattr(element, etype)))
        elif kind == "page_not_found" and self.problem is None:
            self.problem = f"page not found: {msg.page_not_found.page_name}"
        elif kind == "script_finished":
            if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                # the page asked for a rerun itself (st.rerun): the answer is the run that follows
                self.widgets = []
                return
            if self.finished is not None and not self.finished.done():
                self.finished.set_result(msg.script_finished)

    async def rerun(self, page: str | None, states: list[WidgetState] = ()) -> tuple[float, str | None]:
        """Ask for a run of ``page`` (None: the app's default, as when the link is opened) with these widget
        states; wait for its end. Returns the seconds from the request to ``script_finished`` and the problem."""
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = ""
        if page is not None:
            cs.page_script_hash = self.pages[page]
        cs.widget_states.widgets.extend(states)
        cs.cached_message_hashes.extend(sorted(self.cached))
        self.problem, self.widgets = None, []
        self.finished = asyncio.get_running_loop().create_future()
        t0 = time.perf_counter()
        await self.ws.send(back.SerializeToString())
        try:
            status = await asyncio.wait_for(self.finished, self.timeout)
        except asyncio.TimeoutError:
            return time.perf_counter() - t0, f"no script_finished within {self.timeout:.0f} s"
        seconds = time.perf_counter() - t0
        if status not in SUCCESS and self.problem is None:
            self.problem = f"script finished with status {ForwardMsg.ScriptFinishedStatus.Name(status)}"
        return seconds, self.problem

    def set_widget(self, label: str, value: object) -> WidgetState:
        """The state of the current page's widget with this label set to ``value`` (an option's text for a radio
        or selectbox, ``None`` to toggle a checkbox)."""
        etype, w = next((t, w) for t, w in self.widgets if w.label == label)
        state = WidgetState(id=w.id)
        if etype == "checkbox":
            state.bool_value = not (w.value if w.set_value else w.default) if value is None else bool(value)
        elif etype in ("radio", "selectbox"):
            state.string_value = str(value)
        else:
            state.double_value = float(value)
        return state

    def change_one_widget(self) -> tuple[WidgetState, str] | None:
        """The new state of the first widget of the current page that can be changed simply, and a description."""
        for etype, w in self.widgets:
            if getattr(w, "disabled", False):
                continue
            state = WidgetState(id=w.id)
            if etype == "checkbox":
                state.bool_value = not (w.value if w.set_value else w.default)
            elif etype in ("radio", "selectbox"):
                if len(w.options) < 2:
                    continue
                current = w.raw_value if w.set_value and w.raw_value else (
                    w.options[w.default] if w.HasField("default") else None)
                state.string_value = next(o for o in w.options if o != current)
            elif etype == "number_input":
                current = w.value if w.set_value else w.default
                up = current + (w.step or 1)
                state.double_value = up if not w.has_max or up <= w.max else current - (w.step or 1)
            return state, f"{etype}: {w.label}"
        return None


async def one_session(url: str, stats: Stats, rounds: int, delay: float, think: tuple[float, float],
                      timeout: float, rng: random.Random) -> None:
    await asyncio.sleep(delay)
    s = Session(url, timeout)

    async def run(page: str | None, kind: str, states=()) -> None:
        seconds, problem = await s.rerun(page, states)
        stats.runs.append(Run(page or "(default)", kind, seconds, problem))

    try:
        await s.connect()
        await run(None, "land")
        missing = [p for p in PAGES if p not in s.pages]
        if missing:
            raise RuntimeError(f"pages missing from the navigation message: {missing}")
        for _ in range(rounds):
            order = PAGES[:]
            rng.shuffle(order)
            for page in order:
                await asyncio.sleep(rng.uniform(*think))
                await run(page, "visit")
                change = s.change_one_widget()
                if change is None:
                    continue
                state, what = change
                stats.widgets.setdefault(page, what)
                await asyncio.sleep(rng.uniform(*think))
                await run(page, "widget", [state])
    except Exception as err:  # a session that could not go on: reported, the others continue
        stats.sessions_failed.append(f"{type(err).__name__}: {err}")
    finally:
        await s.close()


BROWSER_PAGES = ["Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis", "Load data"]


async def browser_like_session(url: str, stats: Stats, rounds: int, delay: float, timeout: float) -> None:
    """What one session of bench/load.py's browser mode asks of the server, in protocol: the pages in the menu's
    order without pauses; on Post-hoc tests the family "Versus a control" then "All pairs", on Omnibus tests the
    tie correction clicked. For the calibration against the browser (same runs, same CPU per run)."""
    await asyncio.sleep(delay)
    s = Session(url, timeout)

    async def run(page: str | None, kind: str, states=()) -> None:
        seconds, problem = await s.rerun(page, states)
        stats.runs.append(Run(page or "(default)", kind, seconds, problem))

    try:
        await s.connect()
        await run(None, "land")
        for _ in range(rounds):
            for page in BROWSER_PAGES:
                await run(page, "visit")
                if page == "Post-hoc tests":
                    await run(page, "widget", [s.set_widget("Compare", "Versus a control")])
                    await run(page, "widget", [s.set_widget("Compare", "All pairs")])
                if page == "Omnibus tests":
                    await run(page, "widget", [s.set_widget("Correct the Friedman statistic for ties", None)])
    except Exception as err:
        stats.sessions_failed.append(f"{type(err).__name__}: {err!r}")
    finally:
        await s.close()


async def run_sessions(host: str, port: int, n: int, rounds: int = 2, arrival: float = 10.0,
                       think: tuple[float, float] = (2.0, 4.0), timeout: float = 300.0, seed: int = 31,
                       browser_like: bool = False) -> Stats:
    """N sessions arriving uniformly at random within ``arrival`` seconds; all their runs in one Stats.
    ``browser_like``: the browser mode's sessions instead (arriving 0.25 s apart, no pauses)."""
    url = f"ws://{host}:{port}/_stcore/stream"
    stats, rng = Stats(), random.Random(seed)
    if browser_like:
        await asyncio.gather(*(browser_like_session(url, stats, rounds, 0.25 * i, timeout) for i in range(n)))
        return stats
    await asyncio.gather(*(one_session(url, stats, rounds, rng.uniform(0, arrival), think, timeout,
                                       random.Random(rng.random())) for _ in range(n)))
    return stats
