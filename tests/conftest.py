from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

import compare_lib as cl

ROOT = Path(__file__).resolve().parents[1]
# AppTest runs the pages in this process: let a bug surface as an exception instead of the page's
# generic "something went wrong" message (the browser tests' server does not set it).
os.environ["COMPARE_DASHBOARD_RAISE"] = "1"
SAMPLES = ROOT / "sample_data"
DATA = Path(__file__).resolve().parent / "data"


def _uploads_like_a_browser() -> None:
    """AppTest sends an uploaded file's bytes again before every run (it re-registers the uploader's value from the
    session state), while a browser sends them once and then only the file's id. Once the app has freed an upload
    (dashboard/state.free_upload empties the value the session keeps, issue 31), this sends its id alone, as the
    browser does: the server no longer has the file, and the uploader gives what Streamlit gives then (None)."""
    from streamlit.runtime.uploaded_file_manager import UploadedFile
    from streamlit.testing.v1 import element_tree
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    freed: set[str] = set()
    original = element_tree.FileUploader._get_files_to_register
    register = LocalScriptRunner.register_file

    def files_to_register(self):
        if isinstance(self._files, element_tree.InitialValue) and self.root.session_state:
            try:
                value = self.root.session_state[self.id]
            except KeyError:
                value = None
            files = [f for f in (value if isinstance(value, list) else [value]) if isinstance(f, UploadedFile)]
            emptied = {f.file_id for f in files if f.closed or (f.size and not f.getvalue())}  # freed by the app
            if emptied:
                freed.update(emptied)
                # The widget's state says the file's size, as the browser's does (its bytes are never registered).
                return [(f.file_id, f.name, bytes(f.size) if f.file_id in emptied else f.getvalue(), f.type)
                        for f in files]
        return original(self)

    def register_file(self, file_rec):
        if file_rec.file_id not in freed:
            register(self, file_rec)

    element_tree.FileUploader._get_files_to_register = files_to_register
    LocalScriptRunner.register_file = register_file


_uploads_like_a_browser()


def _load(name: str, **kw) -> cl.ScoreTable:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        kw.setdefault("higher_is_better", True)  # the published tables' AUC and accuracies (issue 28: no default)
        return cl.load_scores(SAMPLES / name, **kw)


@pytest.fixture(scope="session")
def demsar() -> cl.ScoreTable:
    """Demšar 2006, Table 6 with voting/C4.5+cf = 0.9751 (reproduces the paper's ranks)."""
    return _load("demsar2006_table6_auc_untied.csv")


@pytest.fixture(scope="session")
def demsar_printed() -> cl.ScoreTable:
    """Demšar 2006, Table 6 exactly as printed (voting ties C4.5+cf and C4.5+m+cf)."""
    return _load("demsar2006_table6_auc.csv")


@pytest.fixture(scope="session")
def garcia() -> cl.ScoreTable:
    """García & Herrera 2008, Table 2."""
    return _load("garcia_herrera2008_table2_accuracy.csv")


@pytest.fixture(scope="session")
def benavoli() -> cl.ScoreTable:
    """Benavoli, Corani & Mangili 2016, appendix Table 2 (54 data sets x C1..C7)."""
    return _load("benavoli2016_table2_accuracy.csv")


@pytest.fixture(scope="session")
def benavoli_example1() -> cl.ScoreTable:
    return _load("benavoli2016_example1.csv")


@pytest.fixture
def server(tmp_path):
    """A fresh dashboard server for one browser test (no state shared between tests); tests/browser_helpers.py."""
    from .browser_helpers import free_port, start_server, stop_server

    port = free_port()
    proc = start_server(port, tmp_path / "streamlit.log")
    yield f"http://127.0.0.1:{port}"
    stop_server(proc)
