"""Helpers shared by the pages: the loaded table in session state, cached calls into compare_lib,
and the one place where the library's errors and warnings become Streamlit messages.

No statistics are computed here; every number comes from ``compare_lib``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd
import streamlit as st

import compare_lib as cl

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "sample_data"


@dataclass(frozen=True)
class Sample:
    file: str
    higher_is_better: bool
    about: str


SAMPLES: dict[str, Sample] = {
    "Demšar 2006, Table 6 (AUC, 14 data sets × 4 C4.5 variants)": Sample(
        "demsar2006_table6_auc_untied.csv", True,
        "Demšar's worked example. Voting/C4.5+cf is 0.9751 (printed 0.975) so that the ranks match the paper: "
        "χ²_F = 9.28, F_F = 3.69.",
    ),
    "Demšar 2006, Table 6 exactly as printed": Sample(
        "demsar2006_table6_auc.csv", True,
        "As printed, voting ties C4.5+cf and C4.5+m+cf, giving χ²_F = 9.857 instead of the paper's 9.28.",
    ),
    "García & Herrera 2008, Table 2 (accuracy, 30 × 5)": Sample(
        "garcia_herrera2008_table2_accuracy.csv", True,
        "The all-pairwise case study: Holm, Shaffer and Bergmann-Hommel reject 5, 6 and 8 hypotheses.",
    ),
    "Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)": Sample(
        "benavoli2016_table2_accuracy.csv", True,
        "Seven WEKA classifiers on 54 UCI data sets; two rows are both named 'credit'.",
    ),
    "Benavoli et al. 2016, Example 1 (20 × 5)": Sample(
        "benavoli2016_example1.csv", True,
        "A and B win 10 data sets each, yet C, D and E make the mean-ranks test call them different.",
    ),
}
DEFAULT_SAMPLE = next(iter(SAMPLES))


# ---------------------------------------------------------------------------------------------
# messages


def show_notes(notes, *, title: str = "What was done to the data") -> None:
    if notes:
        with st.container(border=True):
            st.markdown(f"**{title}**")
            for note in notes:
                st.markdown(f"- {note}")


def call(fn: Callable[..., Any], *args, **kwargs) -> Any | None:
    """Call the library; its InputError becomes st.error (None returned), its warnings st.warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except cl.InputError as err:
            st.error(str(err))
            return None
    for w in caught:
        if issubclass(w.category, (cl.ApproximationWarning, cl.DataWarning)):
            st.warning(str(w.message))
    return result


# ---------------------------------------------------------------------------------------------
# loading (cached: a file or sample is parsed once)


@st.cache_data(show_spinner=False, max_entries=32)
def load_bytes(data: bytes, name: str, higher_is_better: bool, layout: str, missing: str) -> cl.ScoreTable:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)  # the notes carry the same text
        return cl.load_scores(data, name=name, higher_is_better=higher_is_better, layout=layout, missing=missing)


def load_sample(label: str) -> cl.ScoreTable:
    sample = SAMPLES[label]
    data = (SAMPLE_DIR / sample.file).read_bytes()
    return load_bytes(data, sample.file, sample.higher_is_better, "auto", "error")


def set_table(table: cl.ScoreTable, *, origin: str) -> None:
    """Make ``table`` the loaded table; keep every classifier and data set."""
    st.session_state["table"] = table
    st.session_state["origin"] = origin
    st.session_state["keep_classifiers"] = table.classifiers
    st.session_state["keep_datasets"] = table.datasets
    st.session_state["table_version"] = st.session_state.get("table_version", 0) + 1


def set_direction(higher_is_better: bool) -> None:
    """Read the loaded scores with the other direction; the selection is kept."""
    st.session_state["table"] = st.session_state["table"].with_direction(higher_is_better)


def ensure_table() -> None:
    if "table" not in st.session_state:
        set_table(load_sample(DEFAULT_SAMPLE), origin=f"sample: {DEFAULT_SAMPLE}")


def full_table() -> cl.ScoreTable:
    ensure_table()
    return st.session_state["table"]


def active_table() -> cl.ScoreTable:
    """The loaded table restricted to the classifiers and data sets the user kept."""
    table = full_table()
    keep_c = [c for c in st.session_state.get("keep_classifiers", table.classifiers) if c in table.classifiers]
    keep_d = [d for d in st.session_state.get("keep_datasets", table.datasets) if d in table.datasets]
    if len(keep_c) < 2 or len(keep_d) < 2:
        return table
    if keep_c == table.classifiers and keep_d == table.datasets:
        return table
    return _subset(table.scores, table.higher_is_better, tuple(keep_c), tuple(keep_d), table.source)


@st.cache_data(show_spinner=False, max_entries=64)
def _subset(scores: pd.DataFrame, higher: bool, classifiers: tuple, datasets: tuple, source: str | None) -> cl.ScoreTable:
    return cl.ScoreTable(scores.loc[list(datasets), list(classifiers)], higher, source=source)


def alpha() -> float:
    return float(st.session_state.get("alpha", 0.05))


def table_caption(table: cl.ScoreTable) -> str:
    direction = "higher is better" if table.higher_is_better else "lower is better"
    return (
        f"{st.session_state.get('origin', table.source)} · {table.n_datasets} data sets × "
        f"{table.n_classifiers} classifiers · {direction}"
    )


# ---------------------------------------------------------------------------------------------
# cached statistics


@st.cache_data(show_spinner="Running the omnibus tests…", max_entries=64)
def omnibus(scores: pd.DataFrame, higher: bool, tie_correction: bool):
    table = cl.ScoreTable(scores, higher)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)  # carried in FriedmanResult.notes
        fr = cl.friedman(table, tie_correction=tie_correction)
        ff = cl.iman_davenport(table, tie_correction=tie_correction)
    an = cl.rm_anova(table)
    return fr, ff, an


def download_buttons(frame: pd.DataFrame, stem: str, *, caption: str, key: str) -> None:
    """CSV and LaTeX downloads of a table, side by side."""
    row = st.container(horizontal=True)
    row.download_button(
        "⬇ CSV", frame.to_csv(index=False).encode("utf-8"), file_name=f"{stem}.csv", mime="text/csv", key=f"{key}_csv"
    )
    row.download_button(
        "⬇ LaTeX", cl.report.to_latex(frame, caption=caption, label=f"tab:{stem}").encode("utf-8"),
        file_name=f"{stem}.tex", mime="text/x-tex", key=f"{key}_tex",
    )
