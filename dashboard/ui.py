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
    id: str  # short name used in shareable URLs (?sample=...)
    file: str
    higher_is_better: bool
    about: str


SAMPLES: dict[str, Sample] = {
    "Demšar 2006, Table 6 (AUC, 14 data sets × 4 C4.5 variants)": Sample(
        "demsar2006", "demsar2006_table6_auc_untied.csv", True,
        "Demšar's worked example. Voting/C4.5+cf is 0.9751 (printed 0.975) so that the ranks match the paper: "
        "χ²_F = 9.28, F_F = 3.69.",
    ),
    "Demšar 2006, Table 6 exactly as printed": Sample(
        "demsar2006-printed", "demsar2006_table6_auc.csv", True,
        "As printed, voting ties C4.5+cf and C4.5+m+cf, giving χ²_F = 9.857 instead of the paper's 9.28.",
    ),
    "García & Herrera 2008, Table 2 (accuracy, 30 × 5)": Sample(
        "garcia2008", "garcia_herrera2008_table2_accuracy.csv", True,
        "The all-pairwise case study: Holm, Shaffer and Bergmann-Hommel reject 5, 6 and 8 hypotheses.",
    ),
    "Benavoli et al. 2016, Table 2 (accuracy, 54 × 7)": Sample(
        "benavoli2016", "benavoli2016_table2_accuracy.csv", True,
        "Seven WEKA classifiers on 54 UCI data sets; two rows are both named 'credit'.",
    ),
    "Benavoli et al. 2016, Example 1 (20 × 5)": Sample(
        "benavoli2016-example1", "benavoli2016_example1.csv", True,
        "A and B win 10 data sets each, yet C, D and E make the mean-ranks test call them different.",
    ),
}
DEFAULT_SAMPLE = next(iter(SAMPLES))
SAMPLE_BY_ID = {sample.id: label for label, sample in SAMPLES.items()}


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


def use_sample(label: str) -> None:
    """Make the sample with this label the loaded table."""
    set_table(load_sample(label), origin=f"sample: {label}")


def load_sample_by_id(sample_id: str) -> None:
    use_sample(SAMPLE_BY_ID[sample_id])


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
        use_sample(DEFAULT_SAMPLE)


def apply_query_params() -> None:
    """Once per session, restore a shared view from the URL: sample, classifiers, alpha, post-hoc choices.

    Unknown values are reported on the page (``st.session_state["query_problems"]``), never raised.
    """
    if st.session_state.get("query_applied"):
        return
    st.session_state["query_applied"] = True
    params = st.query_params
    problems = []
    sample_id = params.get("sample")
    if sample_id:
        if sample_id in SAMPLE_BY_ID:
            load_sample_by_id(sample_id)
        else:
            problems.append(f"The link names an unknown sample {sample_id!r}; the default sample is shown.")
    elif params.get("data") == "own":
        problems.append(
            "This link was made with the sender's own data, which a link cannot carry: load the same file on the "
            "Load data page to reproduce the view."
        )
    ensure_table()
    table = full_table()
    wanted = params.get_all("classifier")
    if wanted:
        known = [c for c in wanted if c in table.classifiers]
        unknown = [c for c in wanted if c not in table.classifiers]
        if unknown:
            problems.append(f"The link names classifiers that are not in the table: {', '.join(unknown)}.")
        if len(known) >= 2:
            st.session_state["keep_classifiers"] = known
    if "alpha" in params:
        try:
            value = float(params["alpha"])
            if not 0 < value < 1:
                raise ValueError
            st.session_state["alpha"] = value
        except ValueError:
            problems.append(f"The link's alpha {params['alpha']!r} is not a number between 0 and 1; using 0.05.")
    for key in ("family", "test", "procedure", "control"):
        if key in params:
            st.session_state[f"ph_{key}"] = params[key]
    st.session_state["query_problems"] = problems


def share_view(**choices: str | None) -> None:
    """Write the current view into the URL so that the link reproduces it."""
    table = full_table()
    origin = st.session_state.get("origin", "")
    params: dict[str, Any] = {}
    label = origin.removeprefix("sample: ")
    if origin.startswith("sample: ") and label in SAMPLES:
        params["sample"] = SAMPLES[label].id
    else:
        params["data"] = "own"
    keep = st.session_state.get("keep_classifiers", table.classifiers)
    if list(keep) != table.classifiers:
        params["classifier"] = list(keep)
    params["alpha"] = f"{alpha():g}"
    params.update({k: v for k, v in choices.items() if v is not None})
    target = {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}
    current = {k: st.query_params.get_all(k) for k in st.query_params}
    if current != target:
        st.query_params.from_dict(params)


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
    """(Friedman, Iman-Davenport, RM-ANOVA, exact Friedman or None): the exact permutation p-value
    wherever the library can compute it within its budget (method="auto")."""
    table = cl.ScoreTable(scores, higher)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.ApproximationWarning)  # carried in FriedmanResult.notes
        fr = cl.friedman(table, tie_correction=tie_correction)
        ff = cl.iman_davenport(table, tie_correction=tie_correction)
        auto = cl.friedman(table, tie_correction=tie_correction, method="auto")
    an = cl.rm_anova(table)
    return fr, ff, an, (auto if auto.method == "exact" else None)


@st.cache_data(show_spinner="Running the post-hoc tests…", max_entries=256)
def posthoc(scores: pd.DataFrame, higher: bool, test: str, correction: str, control: str | None, alpha_: float):
    return cl.posthoc(cl.ScoreTable(scores, higher), test, correction, control, alpha_)


#: Bergmann-Hommel takes ~5 s at k = 15 and minutes beyond; the pages offer it up to here.
DASHBOARD_MAX_BH_K = 15


@st.cache_data(show_spinner="Adjusting the p-values of every procedure…", max_entries=64)
def apv_table(scores: pd.DataFrame, higher: bool, test: str, control: str | None):
    return cl.apv_table(cl.ScoreTable(scores, higher), test, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@st.cache_data(show_spinner="Comparing the procedures…", max_entries=64)
def verdicts(scores: pd.DataFrame, higher: bool, alpha_: float, control: str | None):
    return cl.verdicts(cl.ScoreTable(scores, higher), alpha_, control, bergmann_hommel_max_k=DASHBOARD_MAX_BH_K)


@st.cache_data(show_spinner=False, max_entries=64)
def pool_verdicts(scores: pd.DataFrame, higher: bool, members: tuple, alpha_: float, procedure: str):
    return cl.pool_verdicts(cl.ScoreTable(scores, higher), list(members), alpha_, procedure=procedure)


@st.cache_data(show_spinner="Listing the pools…", max_entries=32)
def pool_sensitivity(scores: pd.DataFrame, higher: bool, a: str, b: str, alpha_: float, procedure: str,
                     require_friedman: bool):
    return cl.pool_sensitivity(cl.ScoreTable(scores, higher), a, b, alpha_, procedure=procedure,
                               require_friedman=require_friedman)


@st.cache_data(show_spinner=False, max_entries=64)
def pool_counts(scores: pd.DataFrame, higher: bool, a: str, b: str, alpha_: float, procedure: str):
    return cl.pool_counts(cl.ScoreTable(scores, higher), a, b, alpha_, procedure=procedure)


@st.cache_data(show_spinner="Counting the pools of every pair…", max_entries=16)
def pool_matrix(scores: pd.DataFrame, higher: bool, alpha_: float, procedure: str):
    return cl.pool_sensitivity_matrix(cl.ScoreTable(scores, higher), alpha_, procedure=procedure)


@st.cache_data(show_spinner=False, max_entries=16)
def pool_dependence(scores: pd.DataFrame, higher: bool, alpha_: float, procedure: str):
    return cl.pool_dependence(cl.ScoreTable(scores, higher), alpha_, procedure=procedure)


@st.cache_data(show_spinner=False, max_entries=4)
def fold_sample(path: str) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cl.DataWarning)
        return cl.load_scores(path, layout="long").folds


@st.cache_data(show_spinner="Running the tests on every data set and seed…", max_entries=32)
def fold_tests(folds: pd.DataFrame, a: str, b: str, alpha_: float, ratio: float | None):
    return cl.fold_level_tests(folds, a, b, alpha=alpha_, test_train_ratio=ratio)


@st.cache_data(show_spinner=False, max_entries=16)
def run_experiment(classifiers: tuple, datasets: tuple, schemes: tuple, n_seeds: int, n_jobs: int, _progress=None):
    """Cached by configuration; ``_progress`` (not hashed) reports the fraction done on a cache miss."""
    return cl.run_experiment(list(classifiers), list(datasets), schemes=list(schemes), seeds=range(n_seeds),
                             n_jobs=n_jobs, progress=_progress)


@st.cache_resource(show_spinner=False)
def image_export_available() -> str | None:
    """Start kaleido's browser once per server; return None if it works, else the reason it does not."""
    try:
        import kaleido

        kaleido.start_sync_server()
        import plotly.graph_objects as go

        cl.plots.figure_image(go.Figure(layout=dict(width=10, height=10)), "svg")
    except Exception as err:  # kaleido raises several types when Chrome/Chromium is missing
        return f"{type(err).__name__}: {err}"
    return None


@st.cache_data(show_spinner=False, max_entries=64)
def figure_image(fig_json: str, fmt: str) -> bytes:
    import plotly.io as pio

    return cl.plots.figure_image(pio.from_json(fig_json), fmt)


def figure_downloads(fig, stem: str, *, key: str) -> None:
    """SVG and PNG (kaleido, generated on click) and a self-contained HTML of a figure."""
    row = st.container(horizontal=True)
    problem = image_export_available()
    if problem is None:
        fig_json = fig.to_json()
        row.download_button("⬇ SVG", lambda: figure_image(fig_json, "svg"), file_name=f"{stem}.svg",
                            mime="image/svg+xml", key=f"{key}_svg", on_click="ignore")
        row.download_button("⬇ PNG", lambda: figure_image(fig_json, "png"), file_name=f"{stem}.png",
                            mime="image/png", key=f"{key}_png", on_click="ignore")
    row.download_button("⬇ HTML (interactive)", cl.plots.figure_html(fig), file_name=f"{stem}.html",
                        mime="text/html", key=f"{key}_html", on_click="ignore")
    if problem is not None:
        st.caption(
            "SVG/PNG export needs Chrome or Chromium on the server (e.g. `apt-get install chromium`); "
            "the HTML file keeps the figure interactive and can be printed to PDF."
        )


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
