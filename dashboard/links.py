"""Shareable links: every page writes its whole view into the URL, and a link restores it.

A link records the table (a sample by name; the user's own table compressed into the link when it is
small enough, else only its fingerprint), the classifiers kept and the data sets left out, α, the
direction and each page's choices. Everything read from a link is validated; a value that does not fit
is reported on the page (escaped: link text is never rendered as Markdown) and replaced by the default,
never raised. A link that carries only a fingerprint is applied after the recipient loads a table with
the same fingerprint; a different table is named as such and the view is not applied.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import replace
from typing import Any

import streamlit as st

import compare_lib as cl
import state

#: The user's own table travels inside the link up to this many characters (compressed, base64url):
#: about 200 data sets x 10 classifiers of accuracies. Whoever has such a link has the data.
MAX_LINK_DATA_CHARS = cl.limits.APP_MAX_LINK_DATA_CHARS
#: A link's table may decompress to at most this many bytes (a zip bomb in a link is refused).
MAX_LINK_DATA_BYTES = cl.limits.APP_MAX_LINK_DATA_BYTES
#: Left-out data sets are listed by name up to this many characters, else compressed by position.
MAX_DROP_CHARS = cl.limits.APP_MAX_DROP_CHARS

#: URL parameter -> (session-state key, kind) of each page's choices.
PAGE_PARAMS: dict[str, tuple[str, str]] = {
    "family": ("ph_family", "str"),
    "test": ("ph_test", "str"),
    "correction": ("ph_correction", "str"),
    "control": ("ph_control", "str"),
    "view": ("ph_view", "str"),
    "effect": ("ph_effect", "str"),
    "tie": ("om_tie", "bool"),
    "pproc": ("pool_correction", "str"),
    "pfriedman": ("pool_friedman", "bool"),
    "pstat": ("pool_statistic", "str"),
    "member": ("pool_members", "list"),
    "pa": ("pool_a", "str"),
    "pb": ("pool_b", "str"),
    "ra": ("rep_a", "str"),
    "rb": ("rep_b", "str"),
    "btest": ("bay_test", "str"),
    "rope": ("bay_rope", "float"),
    "bview": ("bay_view", "str"),
    "ba": ("bay_a", "str"),
    "bb": ("bay_b", "str"),
}
#: Former parameter names that old links still carry -> the current name.
RENAMED_PARAMS = {"procedure": "correction"}
GLOBAL_PARAMS = ("sample", "data", "fp", "classifier", "drop", "dropz", "alpha", "dir", "metric", "agg")


def _pack(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def _unpack(text: str) -> Any:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(data, MAX_LINK_DATA_BYTES)
        if inflater.unconsumed_tail:
            raise ValueError("too large")
        return json.loads(raw.decode("utf-8"))
    except Exception as err:  # any malformed payload is reported, never raised
        raise ValueError(str(err)) from None


#: Tables with more scores than this never fit in a link: not even tried (serializing costs seconds).
MAX_LINK_CELLS = cl.limits.APP_MAX_LINK_CELLS


def table_payload(table: cl.ScoreTable) -> str | None:
    """The table compressed for a link, or None when it is too large to travel in one (memoized per table)."""
    def compute() -> str:
        if table.scores.size > MAX_LINK_CELLS:
            return ""
        packed = _pack({"csv": table.scores.to_csv(float_format="%.17g"), "higher": table.higher_is_better,
                        "metric": table.metric, "missing": table.missing})
        return packed if len(packed) <= MAX_LINK_DATA_CHARS else ""

    return state.session_memo("_payload_memo", table, compute) or None


# ---------------------------------------------------------------------------------------------
# reading a link (once per session)


def apply_query_params() -> None:
    """Restore a shared view from the URL at the start of a session. Problems are collected in
    ``st.session_state["query_problems"]`` (plain text, escaped when shown), never raised."""
    ss = st.session_state
    if ss.get("query_applied"):
        return
    ss["query_applied"] = True
    params = st.query_params
    problems: list[str] = []
    raw = {key: params.get_all(key) for key in params}
    pending = None
    if raw.get("sample"):
        sample_id = raw["sample"][0]
        if sample_id in state.SAMPLE_BY_ID:
            state.use_sample(state.SAMPLE_BY_ID[sample_id])
        else:
            problems.append(f"The link names an unknown sample {sample_id!r}; the default sample is shown.")
    elif raw.get("data"):
        try:
            payload = _unpack(raw["data"][0])
            with_direction = bool(payload["higher"])
            missing = payload.get("missing", "error")
            missing = missing if missing in cl.MISSING_POLICIES else "error"
            table = state.load_bytes(str(payload["csv"]).encode("utf-8"), "table from the link", with_direction,
                                     "wide", missing)
            metric = payload.get("metric")
            if isinstance(metric, str) and metric:
                table = cl.ScoreTable(table.scores, table.higher_is_better, missing=missing, source=table.source,
                                      notes=table.notes, metric=metric[:200])
            state.set_table(table, state.Origin("link", "table from the link", missing=missing,
                                                metric=table.metric))
        except (ValueError, KeyError, TypeError, cl.InputError) as err:
            problems.append(f"The table carried by the link could not be read ({err}); the default sample is shown.")
    elif raw.get("fp"):
        pending = {key: value for key, value in raw.items()}
        problems.append(
            "This link was made with a table that is too large to travel in a link. Load the same file on the Load "
            "data page: the view of the link (classifiers, data sets, α and the pages' choices) is applied as soon as "
            "the loaded table matches the link's fingerprint."
        )
    state.ensure_table()
    if pending is not None:
        ss["pending_view"] = pending
    else:
        problems += _apply_view(raw)
    ss["query_problems"] = problems


def _apply_view(raw: dict[str, list[str]], *, mid_run: bool = False) -> list[str]:
    """Apply the selection, α, direction and page choices of a link to the loaded table. ``mid_run``:
    the sidebar's α widget already exists in this run, so α is set at the start of the next one."""
    problems: list[str] = []
    table = state.full_table()
    ss = st.session_state
    if raw.get("dir"):
        direction = raw["dir"][0]
        if direction in ("higher", "lower"):
            if (direction == "higher") != table.higher_is_better:
                state.set_direction(direction == "higher")
                table = state.full_table()
        else:
            problems.append(f"The link's direction {direction!r} is neither 'higher' nor 'lower'; it was ignored.")
    if raw.get("metric") or raw.get("agg"):
        problems += _apply_metric(raw.get("metric", [None])[0], raw.get("agg", [None])[0])
        table = state.full_table()
    wanted = raw.get("classifier") or []
    if wanted:
        present = set(table.classifiers)
        known = list(dict.fromkeys(c for c in wanted if c in present))  # repeated names count once
        unknown = [c for c in dict.fromkeys(wanted) if c not in present]
        if unknown:
            problems.append(f"The link names classifiers that are not in the table: {', '.join(map(repr, unknown[:10]))}.")
        if len(known) >= 2:
            state.set_selection(keep_classifiers=[c for c in table.classifiers if c in set(known)])
        elif wanted:
            problems.append("The link keeps fewer than 2 classifiers of this table; every classifier is kept.")
    dropped: list[str] = list(raw.get("drop") or [])
    if raw.get("dropz"):
        try:
            positions = _unpack(raw["dropz"][0])
            dropped += [table.datasets[int(i)] for i in positions if 0 <= int(i) < table.n_datasets]
        except (ValueError, TypeError):
            problems.append("The link's list of left-out data sets could not be read; every data set is kept.")
    if dropped:
        present = set(table.datasets)
        unknown = [d for d in dict.fromkeys(dropped) if d not in present]
        if unknown:
            problems.append(f"The link leaves out data sets that are not in the table: {', '.join(map(repr, unknown[:10]))}.")
        keep = [d for d in dropped if d in present]
        if table.n_datasets - len(set(keep)) >= 2:
            state.set_selection(drop_datasets=list(dict.fromkeys(keep)))
        else:
            problems.append("The link would leave fewer than 2 data sets; every data set is kept.")
    if raw.get("alpha"):
        text = raw["alpha"][0]
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if state.ALPHA_MIN <= value <= state.ALPHA_MAX:
            ss["_alpha_next" if mid_run else "alpha"] = value
        else:
            problems.append(
                f"The link's α {text!r} is not a number between {state.ALPHA_MIN:g} and {state.ALPHA_MAX:g} (the range "
                f"offered everywhere in this app); α = {state.ALPHA_DEFAULT:g} is used instead."
            )
    for old, new in RENAMED_PARAMS.items():
        if raw.get(old) and not raw.get(new):
            raw = {**raw, new: raw[old]}
    for param, (key, kind) in PAGE_PARAMS.items():
        values = raw.get(param)
        if not values:
            continue
        if kind == "list":
            ss[key] = list(dict.fromkeys(values))
        elif kind == "bool":
            ss[key] = values[0] in ("1", "true", "yes")
        elif kind == "float":
            try:
                number = float(values[0])
            except ValueError:
                number = float("nan")
            if number == number and abs(number) != float("inf"):
                ss[key] = number
            else:
                problems.append(f"The link's {param} {values[0]!r} is not a number; the default is used.")
        else:
            ss[key] = values[0]
    return problems


def _apply_metric(metric: str | None, aggregate: str | None) -> list[str]:
    """The link's metric and aggregation, applied to the loaded file when it has them."""
    table = state.full_table()
    loaded = state.loaded_results()
    origin = state.origin()
    metric = metric or table.metric
    aggregate = aggregate if aggregate in cl.AGGREGATES else origin.aggregate
    if metric == table.metric and aggregate == origin.aggregate:
        return []
    if loaded is None or metric not in loaded[0].metrics:
        return [f"The link was made on the metric {metric!r}; the loaded table is {table.metric or 'unnamed'!r}, "
                "so its numbers may differ."]
    results, token = loaded
    try:
        new = state.results_table(token, results, metric, None, origin.missing, aggregate)
    except cl.InputError as err:
        return [f"The link's metric {metric!r} could not be used: {err}"]
    state.set_table(new, replace(origin, metric=metric, aggregate=aggregate), keep_selection=True)
    state.set_results(results, token)
    return []


def check_pending_view(origin_kind: str) -> str | None:
    """After the user loads a table: apply a waiting link view if the table matches its fingerprint.
    Returns a message (plain text) saying what happened, or None when no view was waiting."""
    ss = st.session_state
    pending = ss.get("pending_view")
    if not pending or origin_kind not in ("file", "paste"):
        return None
    wanted = pending.get("fp", [""])[0]
    got = state.fingerprint(state.full_table())
    if wanted != got:
        return (
            f"The loaded table is not the one the link was made with (its fingerprint is {got}, the link's is "
            f"{wanted!r}): the link's view was not applied. Load the same file to see the shared view."
        )
    ss.pop("pending_view")
    problems = _apply_view(pending, mid_run=True)
    return "The loaded table matches the link: its view was applied." + (" " + " ".join(problems) if problems else "")


# ---------------------------------------------------------------------------------------------
# writing the current view into the URL


def share_view(**choices: Any) -> dict[str, Any]:
    """Write the current view (table, selection, α, direction and this page's choices) into the URL.
    Returns what was written, with ``carries_data`` saying whether the link holds the table itself."""
    table = state.full_table()
    origin = state.origin()
    params: dict[str, Any] = {}
    info: dict[str, Any] = {"carries_data": False, "fingerprint_only": False}
    if origin.kind == "sample" and origin.label in state.SAMPLES:
        params["sample"] = state.SAMPLES[origin.label].id
        if table.higher_is_better != state.SAMPLES[origin.label].higher_is_better:
            params["dir"] = "higher" if table.higher_is_better else "lower"
    else:
        payload = table_payload(table)
        if payload is not None:
            params["data"] = payload
            info["carries_data"] = True
        else:
            params["fp"] = state.fingerprint(table)
            params["dir"] = "higher" if table.higher_is_better else "lower"
            info["fingerprint_only"] = True
    keep = state.kept_classifiers()
    if keep != table.classifiers:
        params["classifier"] = keep
    dropped = state.dropped_datasets()
    if dropped:
        if sum(len(d) + 6 for d in dropped) <= MAX_DROP_CHARS:
            params["drop"] = dropped
        else:
            position = {d: i for i, d in enumerate(table.datasets)}
            params["dropz"] = _pack([position[d] for d in dropped])
    if table.metric:
        params["metric"] = table.metric  # every link names the metric (and the direction, below or by the sample)
    if origin.aggregate != "mean":
        params["agg"] = origin.aggregate
    params["alpha"] = f"{state.alpha():g}"
    for key, value in choices.items():
        if value is None:
            continue
        params[key] = ("1" if value else "0") if isinstance(value, bool) else value
    target = {k: [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in params.items()}
    current = {k: st.query_params.get_all(k) for k in st.query_params}
    if current != target:
        st.query_params.from_dict(params)
    return info
