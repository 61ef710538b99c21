"""bench/protocol.py's browser traffic (issue 31): the recorded requests of a browser's visit are found in this
Streamlit's static files, and the widget states it sends are the widgets' own values."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit
from streamlit.proto.Checkbox_pb2 import Checkbox
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Radio_pb2 import Radio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import protocol  # noqa: E402

STATIC = Path(streamlit.__file__).parent / "static"


def test_every_recorded_request_is_served_by_this_streamlit():
    found, missing = protocol.browser_requests()
    assert not missing
    recorded = [line for line in protocol.BROWSER_REQUESTS.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    assert len(found) == len(recorded) > 100
    for path in found:
        if path.startswith("static/"):
            assert (STATIC / path).is_file(), path
    # what a browser loads for this app's pages: plotly's chart code and the data frame's are among them
    assert any(Path(p).name.startswith("PlotlyChart.") for p in found)
    assert any(Path(p).name.startswith("DataFrame.") for p in found)


def test_widget_states_are_the_drawn_values():
    alpha = NumberInput(id="a", label="α", data_type=NumberInput.FLOAT, default=0.05)
    assert protocol.widget_state("number_input", alpha).double_value == 0.05
    alpha.value, alpha.set_value = 0.1, True
    assert protocol.widget_state("number_input", alpha).double_value == 0.1
    seed = NumberInput(id="s", label="Seed", data_type=NumberInput.INT, default=3)
    state = protocol.widget_state("number_input", seed)
    assert state.WhichOneof("value") == "int_value" and state.int_value == 3
    radio = Radio(id="r", label="Compare", options=["All pairs", "Versus a control"], default=1)
    assert protocol.widget_state("radio", radio).string_value == "Versus a control"
    radio.raw_value, radio.set_value = "All pairs", True
    assert protocol.widget_state("radio", radio).string_value == "All pairs"
    box = Checkbox(id="c", label="ties", default=False)
    assert protocol.widget_state("checkbox", box).bool_value is False
    assert protocol.widget_state("slider", box) is None  # kinds it does not know are left to the server


def test_a_rerun_sends_every_drawn_widget_with_the_changed_one_replaced():
    session = protocol.Session("ws://127.0.0.1:1/_stcore/stream", timeout=1)
    alpha = NumberInput(id="alpha", label="α", data_type=NumberInput.FLOAT, default=0.05)
    family = Radio(id="fam", label="Compare", options=["All pairs", "Versus a control"], default=0)
    session.drawn = [("number_input", alpha, protocol._SIDEBAR), ("radio", family, protocol._MAIN)]
    changed = session.set_widget("Compare", "Versus a control")
    states = {s.id: s for s in session.states(changed)}
    assert set(states) == {"alpha", "fam"}
    assert states["fam"].string_value == "Versus a control" and states["alpha"].double_value == 0.05
    assert [s.id for s in session.states(areas=(protocol._SIDEBAR,))] == ["alpha"]  # a visit: the sidebar only
