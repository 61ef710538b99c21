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
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import streamlit as st

import compare_lib as cl
import state

#: The user's own table travels inside the link up to this many characters (compressed, base64url):
#: about 200 data sets x 10 classifiers of accuracies. Whoever has such a link has the data.
MAX_LINK_DATA_CHARS = cl.limits.APP_MAX_LINK_DATA_CHARS
#: A link's table may decompress to at most this many bytes (a zip bomb in a link is refused).
MAX_LINK_DATA_BYTES = cl.limits.APP_MAX_LINK_DATA_BYTES
#: At most this many of the table's notes travel with a table in a link.
MAX_LINK_NOTES = 20
#: Left-out data sets are listed by name up to this many characters, else compressed by position.
MAX_DROP_CHARS = cl.limits.APP_MAX_DROP_CHARS

@dataclass(frozen=True)
class Choice:
    """One persisted choice of a page, declared once: the link's parameter, the session-state key where the page
    keeps the value (and reads its default from), the kind of value, the page, and the widget that sets it (its
    key, without the table-version suffix some widgets carry). :func:`share_view` writes every choice of a page
    from the session; a link restores them; a test checks that every keyed widget is declared here or in
    :data:`NOT_IN_LINKS`."""

    param: str
    key: str
    kind: str  # "str", "bool", "float", "int" or "list"
    page: str
    widget: str
    #: The value a link leaves out (the page's default), so that links stay short.
    default: Any = None
    #: Where the value comes from when it is not simply ``session_state[key]`` (None: leave it out of the link).
    read: Callable[[Any], Any] | None = field(default=None, compare=False)

    def value(self, ss) -> Any:
        value = self.read(ss) if self.read is not None else ss.get(self.key)
        return None if value is None or value == self.default else value


CHOICES: tuple[Choice, ...] = (
    Choice("lview", "load_preview", "str", "load_data", "w_preview_view", "Scores (rank)"),
    Choice("tie", "om_tie", "bool", "omnibus", "w_tie_correction", False),
    Choice("ochart", "om_chart", "str", "omnibus", "w_om_chart", "Mean ranks"),
    Choice("family", "ph_family", "str", "posthoc", "w_ph_family"),
    Choice("test", "ph_test", "str", "posthoc", "w_ph_test"),
    Choice("correction", "ph_correction", "str", "posthoc", "w_ph_correction"),
    Choice("control", "ph_control", "str", "posthoc", "w_ph_control",
           read=lambda ss: ss.get("ph_control") if ss.get("ph_family") == "control" else None),
    Choice("view", "ph_view", "str", "posthoc", "w_ph_view"),
    Choice("effect", "ph_effect", "str", "posthoc", "w_ph_effect"),
    Choice("pboot", "ph_boot", "bool", "posthoc", "w_ph_boot", False),
    Choice("pproc", "pool_correction", "str", "pool", "w_pool_proc"),
    Choice("pfriedman", "pool_friedman", "bool", "pool", "w_pool_friedman"),
    Choice("pstat", "pool_statistic", "str", "pool", "w_pool_statistic", "none"),
    Choice("member", "pool_members", "list", "pool", "w_pool_members",
           read=lambda ss: list(ss["pool_members"]) if ss.get("pool_members") and list(ss["pool_members"])
           != state.kept_classifiers() else None),
    Choice("pa", "pool_a", "str", "pool", "w_pool_a"),
    Choice("pb", "pool_b", "str", "pool", "w_pool_b"),
    Choice("ptab", "pool_tab", "str", "pool", "w_pool_tab", "Subset explorer"),
    Choice("ra", "rep_a", "str", "replicability", "w_rep_a"),
    Choice("rb", "rep_b", "str", "replicability", "w_rep_b"),
    Choice("rnsets", "rep_nsets", "int", "replicability", "w_rep_nsets"),
    Choice("rsamples", "rep_samples", "int", "replicability", "w_rep_samples", 1000),
    Choice("rkmax", "rep_kmax", "int", "replicability", "w_rep_kmax", 20),
    Choice("rkstep", "rep_kstep", "int", "replicability", "w_rep_kstep", 2),
    Choice("rtest", "rep_tests", "list", "replicability", "w_rep_tests"),
    Choice("rseed", "rep_seed", "int", "replicability", "w_rep_seed", 0),
    Choice("rtab", "rep_tab", "str", "replicability", "w_rep_tab", "How replicable is my verdict?"),
    Choice("qa", "plan_a", "str", "replicability", "w_plan_a"),
    Choice("qb", "plan_b", "str", "replicability", "w_plan_b"),
    Choice("qdiff", "plan_diff", "float", "replicability", "w_plan_diff"),
    Choice("qtest", "plan_test", "str", "replicability", "w_plan_test"),
    Choice("qnmax", "plan_nmax", "int", "replicability", "w_plan_nmax"),
    Choice("qreps", "plan_reps", "int", "replicability", "w_plan_reps", 500),
    Choice("qseed", "plan_seed", "int", "replicability", "w_plan_seed", 0),
    Choice("fsrc", "fold_source", "str", "replicability", "w_fold_source"),
    Choice("fa", "fold_a", "str", "replicability", "w_fold_a"),
    Choice("fb", "fold_b", "str", "replicability", "w_fold_b"),
    Choice("fscheme", "fold_scheme", "str", "replicability", "w_fold_scheme"),
    Choice("ftest", "fold_test", "str", "replicability", "w_fold_test"),
    Choice("fratio", "fold_ratio", "float", "replicability", "w_fold_ratio"),
    Choice("btest", "bay_test", "str", "bayesian", "w_bay_test"),
    Choice("rope", "bay_rope", "float", "bayesian", "w_bay_rope"),
    Choice("bprior", "bay_prior_link", "float", "bayesian", "w_bay_prior",
           read=lambda ss: ss.get(f"bay_prior_{ss.get('bay_test', 'signed-rank')}")),
    Choice("bdec", "bay_decision", "float", "bayesian", "w_bay_decision", 0.95),
    Choice("bsamples", "bay_samples", "int", "bayesian", "w_bay_samples", 50_000),
    Choice("bseed", "bay_seed", "int", "bayesian", "w_bay_seed", 0),
    Choice("bview", "bay_view", "str", "bayesian", "w_bay_view"),
    Choice("ba", "bay_a", "str", "bayesian", "w_bay_a"),
    Choice("bb", "bay_b", "str", "bayesian", "w_bay_b"),
    Choice("bmeasure", "bay_measure", "str", "bayesian", "w_bay_measure"),
    Choice("bfocus", "bay_forest_focus", "str", "bayesian", "w_bay_forest_focus"),
    Choice("bfsrc", "bfold_source", "str", "bayesian", "w_bfold_source"),
    Choice("bfa", "bfold_a", "str", "bayesian", "w_bfold_a"),
    Choice("bfb", "bfold_b", "str", "bayesian", "w_bfold_b"),
    Choice("bfratio", "bfold_ratio", "float", "bayesian", "w_bfold_ratio"),
    Choice("bfhigher", "bfold_higher", "bool", "bayesian", "w_bfold_higher", True),
    Choice("bfrope", "bfold_rope", "float", "bayesian", "w_bfold_rope"),
    Choice("bfscheme", "bfold_scheme", "str", "bayesian", "w_bfold_scheme"),
    Choice("bfds", "bfold_ds", "str", "bayesian", "w_bfold_ds"),
    Choice("bfseed", "bfold_seed", "str", "bayesian", "w_bfold_seed"),
)

#: Keyed widgets that are deliberately not in links, with the reason (the completeness test reads this).
NOT_IN_LINKS: dict[str, str] = {
    "w_sample": "the sample travels as ?sample=",
    "w_source": "how a table is being loaded, not a view of it",
    "w_upload": "a file never travels by link (its table does, as ?data= or ?fp=)",
    "w_paste": "as w_upload", "w_paste_load": "a button",
    "w_layout": "how a file is read: the table itself travels", "w_missing": "as w_layout",
    "w_format": "as w_layout", "w_sheet": "as w_layout", "w_loaded_missing": "as w_layout (?data= keeps the policy)",
    "w_metric": "travels as ?metric=", "w_aggregate": "travels as ?agg=",
    "w_direction": "travels as ?dir=", "w_direction_ok": "a confirmation", "w_new_direction": "travels as ?dir=",
    "w_pending_metric": "a file being read", "w_pending_aggregate": "a file being read", "w_pending_use": "a button",
    "w_keep_c": "travels as ?classifier=", "w_leave_out": "travels as ?drop=", "w_leave_out_text": "as w_leave_out",
    "w_use_experiment": "a button", "w_rep_run": "a button", "w_plan_run": "a button",
    "w_pool_matrix_go": "a button",
}

#: URL parameter -> (session-state key, kind) of each page's choices (derived from :data:`CHOICES`).
PAGE_PARAMS: dict[str, tuple[str, str]] = {c.param: (c.key, c.kind) for c in CHOICES}


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


def _link_text(value: Any, kind: str) -> Any:
    if kind == "list":
        return [str(v) for v in value]
    if kind == "bool":
        return bool(value)
    if kind == "float":
        return f"{float(value):.10g}"
    if kind == "int":
        return str(int(value))
    return str(value)


def table_payload(table: cl.ScoreTable) -> str | None:
    """The table compressed for a link, or None when it is too large to travel in one (memoized per table)."""
    def compute() -> str:
        if table.scores.size > MAX_LINK_CELLS:
            return ""
        where = state.origin()
        packed = _pack({"csv": table.scores.to_csv(float_format="%.17g"), "higher": table.higher_is_better,
                        "metric": table.metric, "missing": table.missing,
                        # what the receiver must know: the file's name and what was done to the data
                        "name": where.label if where.kind in ("file", "link") else where.describe(),
                        "notes": list(table.notes)[:MAX_LINK_NOTES]})
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
            metric = metric[:200] if isinstance(metric, str) and metric else None
            name = payload.get("name")
            name = name[:200] if isinstance(name, str) and name else "table from the link"
            notes = [str(n)[:1000] for n in payload.get("notes", []) if isinstance(n, str)][:MAX_LINK_NOTES]
            # The sender's notes (what was averaged, dropped or kept) travel with the scores, said to come from them.
            table = cl.ScoreTable(table.scores, table.higher_is_better, missing=missing, source=name,
                                  notes=tuple(notes), metric=metric)
            state.set_table(table, state.Origin("link", name, missing=missing, metric=table.metric))
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
        elif kind in ("float", "int"):
            try:
                number = float(values[0])
            except ValueError:
                number = float("nan")
            if number == number and abs(number) != float("inf") and (kind == "float" or number == int(number)):
                ss[key] = number if kind == "float" else int(number)
            else:
                problems.append(f"The link's {param} {values[0]!r} is not {'a whole number' if kind == 'int' else 'a number'}; "
                                "the default is used.")
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


#: The pages' titles (as app.py names them) -> the page names of :data:`CHOICES`.
PAGES = {"Load data": "load_data", "Omnibus tests": "omnibus", "Post-hoc tests": "posthoc",
         "Pool sensitivity": "pool", "Replicability": "replicability", "Bayesian analysis": "bayesian"}


def share_view(page: str | None = None) -> dict[str, Any]:
    """Write the current view into the URL: the table, selection, α and direction, and every declared choice of
    ``page`` (:data:`CHOICES`, read from the session). app.py calls it after each page run, so a page never lists
    its choices itself. Returns :func:`link_info`."""
    params, info = _view_params(page)
    target = {k: [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in params.items()}
    current = {k: st.query_params.get_all(k) for k in st.query_params}
    if current != target:
        st.query_params.from_dict(params)
    return info


def link_info() -> dict[str, Any]:
    """Whether the link of the current view carries the table itself (``carries_data``) or only its fingerprint
    (``fingerprint_only``)."""
    return _view_params(None)[1]


def _view_params(page: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    ss = st.session_state
    choices = {}
    for choice in CHOICES:
        if choice.page == page:
            value = choice.value(ss)
            if value is not None:
                choices[choice.param] = _link_text(value, choice.kind)
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
        params[key] = ("1" if value else "0") if isinstance(value, bool) else value
    return params, info
