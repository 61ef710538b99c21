"""Sessions that speak Streamlit's own websocket protocol, many from one asyncio process (issue 31).

The browser's side of a Streamlit session, without the browser: connect to ``ws://host:port/_stcore/stream`` with
the subprotocol ``streamlit`` (this server needs no XSRF token or cookie for a session without login: it checks
those only to read an auth cookie), send ``BackMsg.rerun_script`` with a ``ClientState`` (the page's
``page_script_hash`` learnt from the ``navigation`` ForwardMsg, the widget states, the hashes of the cacheable
messages already received), and read ForwardMsgs until ``script_finished``.
A run that the page cuts short with ``st.rerun()`` (``FINISHED_EARLY_FOR_RERUN``) is followed by the run it asked for:
the answer time runs to the end of that one, as in the browser. A run is an error when it rendered an exception element
(``delta.new_element.exception``), the app's own guard message ("an internal error, error id ..."), a
``page_not_found``, a compile error, or took longer than the timeout.

What a browser asks of the server, and so does a session here (``browser=True``, the default; calibrated against
``bench/load.py --mode browser`` at N = 1, see :func:`calibration_notes`): recorded from chromium's traffic
(its requests and websocket frames) with streamlit 1.67:

* on arrival, the page and the static files it loads (``/``, ``/_stcore/health``, ``/_stcore/host-config``, and
  the scripts, styles and fonts of ``BROWSER_STATIC``: ~11.5 MB, ~145 requests, by far the largest part of a
  first visit's server work after the runs themselves);
* after every run, ``/favicon.png`` again (the page config sets it on each run; answered 304 from the second on);
* on a widget change, the states of every widget of the page (the sidebar's α too) and the page's query string
  (the view the app wrote into the address, ``page_info_changed``); on a visit to another page, the sidebar's
  widget states and no query string;
* the ForwardMsg cache of the browser: the hashes of cacheable messages received, each forgotten after
  ``max_cached_message_age`` runs without use (the frontend's ForwardMsgCache; the server sends a reference
  instead of a message the client says it has).

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
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import streamlit
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

PAGES = ["Load data", "Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis"]
WIDGETS = ("radio", "checkbox", "selectbox", "number_input")
GUARD_MESSAGE = "an internal error, error id"
SUCCESS = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
#: The HTTP requests of a browser's visit (recorded, see the file's header), fetched on a session's arrival.
BROWSER_REQUESTS = Path(__file__).with_name("browser_requests.txt")
_STATIC = Path(streamlit.__file__).parent / "static"
_MAIN, _SIDEBAR = 0, 1  # the first index of a delta's path: the page's main area or the sidebar


def browser_requests() -> tuple[list[str], list[str]]:
    """The paths a browser fetches on its first visit, each found in this Streamlit's static files (a hashed name
    that changed with the version is looked up by its stem), and those not found."""
    found, missing = [], []
    for line in BROWSER_REQUESTS.read_text(encoding="utf-8").splitlines():
        path = line.strip()
        if not path or path.startswith("#"):
            continue
        if path.startswith("static/") and not (_STATIC / path).exists():
            name = Path(path).name
            stem, suffix = name.split(".")[0], Path(name).suffix
            same = sorted((_STATIC / path).parent.glob(f"{stem}.*{suffix}"))
            if not same:
                missing.append(path)
                continue
            path = str(same[0].relative_to(_STATIC))
        found.append(path)
    return found, missing


def _get(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """One GET as the browser makes it (the body read and dropped); 304 and 404 are answers, not errors."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers or {})


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
    http_requests: int = 0  # what the sessions fetched over HTTP besides the websocket (browser=True)

    @property
    def errors(self) -> list[Run]:
        return [r for r in self.runs if r.error]


def widget_state(etype: str, w) -> WidgetState | None:
    """The state a browser reports for a widget as it is now drawn (its value, or its default), for the simple
    widgets; None for another kind (the server then keeps its own value, as for a widget the browser has not
    touched)."""
    state = WidgetState(id=w.id)
    if etype == "checkbox":
        state.bool_value = w.value if w.set_value else w.default
    elif etype in ("radio", "selectbox"):
        value = w.raw_value if w.set_value and w.raw_value else (w.options[w.default] if w.HasField("default") and
                                                                  w.default < len(w.options) else None)
        if value is None:
            return None
        state.string_value = value
    elif etype == "number_input":
        value = w.value if w.set_value else w.default
        if w.data_type == w.INT:
            state.int_value = int(value)
        else:
            state.double_value = value
    else:
        return None
    return state


class Session:
    """One protocol session: a reader task turns ForwardMsgs into the state of the current run."""

    def __init__(self, url: str, timeout: float, browser: bool = True):
        self.url, self.timeout, self.browser = url, timeout, browser
        self.http = url.replace("ws://", "http://", 1).removesuffix("/_stcore/stream")
        self.pages: dict[str, str] = {}  # page name -> page_script_hash
        # The browser's ForwardMsg cache: hash -> the count of finished runs when it was last received or used.
        self.cached: dict[str, int] = {}
        self.runs_finished = 0
        self.max_age = 2  # global.maxCachedMessageAge, sent by the server in new_session
        self.query_string = ""  # the address's query, as the app last wrote it (page_info_changed)
        self.current: str | None = None  # the page of the last run asked
        self.favicon: dict[str, str] = {}  # validators of /favicon.png for the browser's conditional request
        self.requests = 0
        self.finished: asyncio.Future | None = None
        self.problem: str | None = None
        # (type, element proto, area) of the current run's widgets; area is _MAIN or _SIDEBAR
        self.drawn: list[tuple[str, object, int]] = []
        self.ws = None
        self.reader: asyncio.Task | None = None

    @property
    def widgets(self) -> list[tuple[str, object]]:
        """The widgets of the current run's main area."""
        return [(t, w) for t, w, area in self.drawn if area == _MAIN]

    async def connect(self) -> None:
        if self.browser:  # the page and its static files first, as a browser loads them before opening the websocket
            await self.fetch_static()
        # max_size=None: a page's table or figure can be one large message; compression as the browser offers it
        self.ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=self.timeout,
                                           ping_interval=None)
        self.reader = asyncio.create_task(self._read())

    async def fetch_static(self) -> None:
        paths, _ = browser_requests()

        def fetch() -> None:
            for path in paths:
                _get(f"{self.http}/{path.lstrip('/')}", {})
        await asyncio.to_thread(fetch)
        self.requests += len(paths)

    async def fetch_favicon(self) -> None:
        """The favicon, asked again after each run as the browser does (conditional once it has it)."""
        headers = {}
        if "ETag" in self.favicon:
            headers["If-None-Match"] = self.favicon["ETag"]
        if "Last-Modified" in self.favicon:
            headers["If-Modified-Since"] = self.favicon["Last-Modified"]
        status, got = await asyncio.to_thread(_get, f"{self.http}/favicon.png", headers)
        if status == 200:
            self.favicon = {k: v for k, v in got.items() if k in ("ETag", "Last-Modified")}
        self.requests += 1

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
            self.cached[msg.hash] = self.runs_finished
        if kind == "ref_hash" and msg.ref_hash in self.cached:  # a message taken from the cache is used again
            self.cached[msg.ref_hash] = self.runs_finished
        if kind == "new_session":
            self.max_age = msg.new_session.config.max_cached_message_age or self.max_age
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "navigation":
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
                elif etype in WIDGETS and msg.metadata.delta_path[:1]:
                    self.drawn.append((etype, getattr(element, etype), int(msg.metadata.delta_path[0])))
        elif kind == "page_not_found" and self.problem is None:
            self.problem = f"page not found: {msg.page_not_found.page_name}"
        elif kind == "script_finished":
            self.runs_finished += 1
            if self.browser:  # the frontend forgets what no run used for max_age runs
                self.cached = {h: seen for h, seen in self.cached.items() if self.runs_finished - seen <= self.max_age}
            if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                # the page asked for a rerun itself (st.rerun): the answer is the run that follows
                self.drawn = []
                return
            if self.finished is not None and not self.finished.done():
                self.finished.set_result(msg.script_finished)

    def states(self, changed: WidgetState | None = None, areas: tuple[int, ...] = (_MAIN, _SIDEBAR)) -> list[WidgetState]:
        """What the browser sends with a rerun: the state of every widget drawn in these areas by the last run,
        with ``changed`` in place of its widget's (and added when it was not drawn)."""
        out, ids = [], set()
        for etype, w, area in self.drawn:
            if area not in areas or w.id in ids:
                continue
            state = changed if changed is not None and changed.id == w.id else widget_state(etype, w)
            if state is not None:
                out.append(state)
                ids.add(w.id)
        if changed is not None and changed.id not in ids:
            out.append(changed)
        return out

    async def rerun(self, page: str | None, states: list[WidgetState] = ()) -> tuple[float, str | None]:
        """Ask for a run of ``page`` (None: the app's default, as when the link is opened) with these widget
        states; wait for its end. Returns the seconds from the request to ``script_finished`` and the problem.
        A browser-like session sends the address's query with a rerun of the same page (a widget change) and
        none with a visit to another page, as the browser does."""
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = self.query_string if self.browser and page is not None and page == self.current else ""
        if page is not None:
            cs.page_script_hash = self.pages[page]
        cs.widget_states.widgets.extend(states)
        cs.cached_message_hashes.extend(sorted(self.cached))
        self.problem, self.drawn, self.current = None, [], page
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
        if self.browser:
            await self.fetch_favicon()
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
        elif w.data_type == w.INT:
            state.int_value = int(value)
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
                value = up if not w.has_max or up <= w.max else current - (w.step or 1)
                if w.data_type == w.INT:
                    state.int_value = int(value)
                else:
                    state.double_value = value
            return state, f"{etype}: {w.label}"
        return None


async def _session(url: str, stats: Stats, delay: float, timeout: float, browser: bool, visits) -> None:
    """One session from arrival to leaving, shared by both kinds: wait ``delay``, connect, land on the default
    page, then ``await visits(session, run)``, where ``run(page, kind, changed=None)`` asks for a run of ``page`` and
    records it (with ``changed``, a widget change: the browser's states of the page with that one changed; without,
    a visit: the sidebar's states). An exception ends the session and is reported; the others continue."""
    await asyncio.sleep(delay)
    s = Session(url, timeout, browser=browser)

    async def run(page: str | None, kind: str, changed: WidgetState | None = None) -> None:
        if not browser:
            states = [changed] if changed is not None else []
        elif changed is not None:
            states = s.states(changed)
        else:
            states = s.states(areas=(_SIDEBAR,)) if page is not None else []
        seconds, problem = await s.rerun(page, states)
        stats.runs.append(Run(page or "(default)", kind, seconds, problem))

    try:
        await s.connect()
        await run(None, "land")
        missing = [p for p in PAGES if p not in s.pages]
        if missing:
            raise RuntimeError(f"pages missing from the navigation message: {missing}")
        await visits(s, run)
    except Exception as err:  # a session that could not go on: reported, the others continue
        stats.sessions_failed.append(f"{type(err).__name__}: {err!r}")
    finally:
        stats.http_requests += s.requests
        await s.close()


async def one_session(url: str, stats: Stats, rounds: int, delay: float, think: tuple[float, float],
                      timeout: float, rng: random.Random, browser: bool = True) -> None:
    """A student: the six pages in random order, one widget changed on each, 2-4 s between clicks."""
    async def visits(s: Session, run) -> None:
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
                await run(page, "widget", state)

    await _session(url, stats, delay, timeout, browser, visits)


BROWSER_PAGES = ["Omnibus tests", "Post-hoc tests", "Pool sensitivity", "Replicability", "Bayesian analysis", "Load data"]


async def browser_like_session(url: str, stats: Stats, rounds: int, delay: float, timeout: float,
                               browser: bool = True) -> None:
    """What one session of bench/load.py's browser mode asks of the server, in protocol: the pages in the menu's
    order without pauses; on Post-hoc tests the family "Versus a control" then "All pairs", on Omnibus tests the
    tie correction clicked. For the calibration against the browser (same runs, same CPU per run)."""
    async def visits(s: Session, run) -> None:
        for _ in range(rounds):
            for page in BROWSER_PAGES:
                await run(page, "visit")
                if page == "Post-hoc tests":
                    await run(page, "widget", s.set_widget("Compare", "Versus a control"))
                    await run(page, "widget", s.set_widget("Compare", "All pairs"))
                if page == "Omnibus tests":
                    await run(page, "widget", s.set_widget("Correct the Friedman statistic for ties", None))

    await _session(url, stats, delay, timeout, browser, visits)


async def run_sessions(host: str, port: int, n: int, rounds: int = 2, arrival: float = 10.0,
                       think: tuple[float, float] = (2.0, 4.0), timeout: float = 300.0, seed: int = 31,
                       browser_like: bool = False, browser: bool = True) -> Stats:
    """N sessions arriving uniformly at random within ``arrival`` seconds; all their runs in one Stats.
    ``browser_like``: the browser mode's sessions instead (arriving 0.25 s apart, no pauses). ``browser=False``:
    the websocket alone (no static files, no favicon, only the changed widget's state, every cached hash kept),
    as this module did before its calibration."""
    url = f"ws://{host}:{port}/_stcore/stream"
    stats, rng = Stats(), random.Random(seed)
    if browser_like:
        await asyncio.gather(*(browser_like_session(url, stats, rounds, 0.25 * i, timeout, browser) for i in range(n)))
        return stats
    await asyncio.gather(*(one_session(url, stats, rounds, rng.uniform(0, arrival), think, timeout,
                                       random.Random(rng.random()), browser) for _ in range(n)))
    return stats
