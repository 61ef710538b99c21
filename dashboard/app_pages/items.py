"""Per-task comparison (issue 30): item-level results compared model against model on each task, item by item.

Every number comes from compare_lib (item_comparison_all, item_comparison, item_plan) and every figure from its
figure functions; this page reads the session, calls them (cached by the items' token, the selection and the
settings) and shows the results."""

from __future__ import annotations

import streamlit as st

import compare_lib as cl
import links
import state
import ui
from ui import esc

ss = st.session_state

TEST_LABELS = {
    "auto": "Automatic (McNemar for 0/1 scores, else paired t)",
    "mcnemar": "McNemar (exact binomial on the discordant items)",
    "t": "Paired t test",
    "permutation": "Paired sign-flip permutation",
    "bootstrap": "Paired bootstrap (percentile interval)",
}
CORRECTION_LABELS = {name: cl.PROCEDURES[name].label for name in cl.ITEM_CORRECTIONS}
#: Replicates x items x pairs of one random test on this page (measured: a 10,000-replicate bootstrap of 60,000
#: items, 6e8 values, took 27 s on the 2 shared cores of the test machine, so 1e8 takes a few seconds); beyond,
#: fewer replicates are drawn and the page says so (the library's own bound, MAX_ITEM_RESAMPLE_WORK, is 30 times more).
APP_ITEM_WORK = 100_000_000
PAIR_COLUMNS = ["task", "n", "mean_a", "mean_b", "diff", "se", "ci_low", "ci_high", "p", "p_adj", "reject"]


@st.cache_data(show_spinner="Testing every pair of models on every task…", max_entries=32, ttl=3600)
def _all_pairs(key: tuple, _items: cl.Items, test: str, cluster: bool, alpha: float, correction: str, reps: int,
               seed: int):
    return cl.item_comparison_all(_items, test=test, cluster=True if cluster else None, alpha=alpha,
                                  correction=correction, reps=reps, seed=seed)


@st.cache_data(show_spinner="Comparing the two models on every task…", max_entries=64, ttl=3600)
def _one_pair(key: tuple, _items: cl.Items, a: str, b: str, test: str, cluster: bool, alpha: float, correction: str,
              reps: int, seed: int):
    return cl.item_comparison(_items, a, b, test=test, cluster=True if cluster else None, alpha=alpha,
                              correction=correction, reps=reps, seed=seed)


@st.cache_data(show_spinner="Computing the planning numbers…", max_entries=64, ttl=3600)
def _plan(key: tuple, _items: cl.Items, a: str, b: str, d: float, power: float, alpha: float, test: str):
    return cl.item_plan(_items, a, b, d, power=power, alpha=alpha, test=test)


def _explain() -> None:
    """What the page is for, when no item-level results are loaded (no error: a way to load them)."""
    st.info(
        "This page compares models **task by task, item by item**, when you have item-level results: one outcome per "
        "model, task and item (question, prompt, test case). On each task, two models are compared on the items both "
        "answered with a paired test (McNemar for correct/incorrect, a paired t test with clustered standard errors "
        "when items share a passage, a sign-flip permutation test or a paired bootstrap), with a correction for "
        "testing many tasks and pairs. It also tells how many items a task needs to detect a given difference."
    )
    st.markdown(
        "The loaded table has no item-level results behind it. On **Load data**, upload (or paste) one of:\n"
        "- a long table (CSV, TSV, JSON lines, Parquet) with model, task, item and score columns (score 0/1 or in "
        "[0, 1]; an optional passage/cluster column);\n"
        "- the `samples_<task>_<date>.jsonl` files lm-evaluation-harness writes with `--log_samples` (a zip of its "
        "output folder: one folder per model);\n"
        "- every_eval_ever instance-level JSON (`model_id`, `evaluation_name`, `sample_id`, `evaluation.score`).\n\n"
        "Or load the item-level sample: the task table then feeds every other page too."
    )
    label = next(label for label, sample in state.SAMPLES.items() if sample.items)
    if st.button("Load the item-level sample", key="w_items_sample", type="primary"):
        state.use_sample(label)
        st.rerun()
    st.page_link("app_pages/load_data.py", label="Load data →")


def _reps_within_budget(requested: int, test: str, rows: int, pairs: int) -> tuple[int, str | None]:
    """The replicates this page draws within its work budget, and a message when fewer than requested."""
    if test not in ("permutation", "bootstrap"):
        return requested, None
    most = APP_ITEM_WORK // max(rows * pairs, 1)
    if requested <= most:
        return requested, None
    if most < 100:
        return 0, (f"The {test} test of {pairs:,} pair(s) over {rows:,} items draws more than this page's budget of "
                   f"{APP_ITEM_WORK:,} values even with 100 replicates. Use the paired t test or McNemar, keep fewer "
                   "models or tasks on Load data, or call compare_lib.item_comparison in a notebook.")
    used = most // 100 * 100
    return used, (f"{used:,} replicates instead of {requested:,}: {pairs:,} pair(s) × {rows:,} items × {requested:,} "
                  f"replicates would exceed this page's budget of {APP_ITEM_WORK:,} values. The Monte Carlo error "
                  "of the p-values grows accordingly.")


def _settings(items: cl.Items) -> dict:
    remembered = state.remembered
    c1, c2, c3 = st.columns([1.6, 1, 1])
    tests = list(cl.ITEM_TESTS)
    test = c1.selectbox("Test", tests, index=tests.index(remembered("items_test", "auto", lambda v: v in tests)),
                        format_func=TEST_LABELS.get, key="w_items_test",
                        help="Two-sided, on the per-item differences d = a − b over the items both models have.")
    corrections = list(cl.ITEM_CORRECTIONS)
    correction = c2.selectbox("Correction", corrections,
                              index=corrections.index(remembered("items_correction", corrections[0], lambda v: v in corrections)),
                              format_func=CORRECTION_LABELS.get, key="w_items_correction",
                              help="Adjusts the p-values of the family: the tasks of one pair, or every pair on every "
                                   "task (Pairs × tasks).")
    has_cluster = "cluster" in items.frame.columns
    cluster = False
    if has_cluster:
        cluster = c3.checkbox("Clustered standard errors", value=remembered("items_cluster", False,
                                                                            lambda v: isinstance(v, bool)),
                              key="w_items_cluster",
                              help="Items that share a passage or context are not independent: the paired t test "
                                   "with Miller's (2024) cluster-robust standard error (the file's cluster column).")
    else:
        c3.caption("No cluster column in the file: items are taken as independent.")
    d1, d2 = st.columns(2)
    reps = d1.number_input(f"Replicates (permutation, bootstrap; 100 to {links.ITEM_MAX_REPS:,})", min_value=100,
                           max_value=links.ITEM_MAX_REPS, step=1000, key="w_items_reps",
                           value=remembered("items_reps", 10_000, lambda v: state.whole(v, 100, links.ITEM_MAX_REPS)))
    seed = d2.number_input(f"Seed (0 to {cl.limits.MAX_SEED:,})", min_value=0, max_value=cl.limits.MAX_SEED, step=1,
                           key="w_items_seed",
                           value=remembered("items_seed", 0, lambda v: state.whole(v, 0, cl.limits.MAX_SEED)))
    ss.update(items_test=test, items_correction=correction, items_cluster=bool(cluster), items_reps=int(reps),
              items_seed=int(seed))
    if cluster and test not in ("auto", "t"):
        st.warning("Clustered standard errors are computed for the paired t test only: the test used is the paired t "
                   "test. Choose 'Paired t test' or 'Automatic' to silence this.")
        test = "t"
    return {"test": test, "correction": correction, "cluster": bool(cluster), "reps": int(reps), "seed": int(seed)}


def _pair_table(result):
    shown = result[[c for c in PAIR_COLUMNS if c in result.columns]
                   + [c for c in result.columns if c not in PAIR_COLUMNS]]
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_config=ui.plain_columns(shown, **ui.p_columns(shown, ["p", "p_adj"])))
    return shown


def _script_source(items: cl.Items):
    """How the reproducing script reads the items again: the upload's or the sample's file beside the script, the
    folder a zip of lm-eval samples files is unpacked into; None for pasted text (no file to read)."""
    where = state.origin()
    if where.kind == "sample" and where.label in state.SAMPLES:
        return cl.Source(state.SAMPLES[where.label].file, loader="read_items")  # in the repository's sample_data
    record = state.loaded_items()[0].provenance
    if record is not None:
        return record
    if where.kind == "file" and where.label.lower().endswith(".zip"):
        return cl.Source(".", read={"score_col": items.metric}, loader="read_items")  # unzip beside the script
    return None


def _script_button(items: cl.Items, settings: dict, alpha: float, reps: int, a=None, b=None) -> None:
    source = _script_source(items)
    if source is None:
        st.caption("Pasted text has no file to read again: save it as a file and upload it for a reproducing script.")
        return
    full, active = state.full_table(), state.active_table()
    models = None if list(active.classifiers) == list(full.classifiers) else list(active.classifiers)
    tasks = None if list(active.datasets) == list(full.datasets) else list(active.datasets)
    script = cl.item_comparison_script(source, a=a, b=b, test=settings["test"],
                                       cluster=True if settings["cluster"] else None, alpha=alpha,
                                       correction=settings["correction"], reps=reps, seed=settings["seed"],
                                       models=models, tasks=tasks, renames=state.renames())
    st.download_button("⬇ Python script", script.encode("utf-8"), file_name="per_task_comparison.py",
                       mime="text/x-python", key="items_script", on_click="ignore")
    where = ("the folder where you unzip the lm-evaluation-harness output" if source.path == "." else
             f"the item file {source.path}" + (" (in the sample_data folder of the repository)"
                                                if state.origin().kind == "sample" else ""))
    st.caption(esc(f"The script reads {where} placed next to it with compare_lib.read_items and prints this table."))


def main() -> None:
    st.title("Per-task comparison")
    if state.loaded_items() is None:
        _explain()
        return
    items = state.analysed_items()
    table = state.active_table()
    alpha = state.alpha()
    ui.caption(table)
    key = (state.loaded_items()[1], state.active_token())
    st.markdown(esc(state.session_memo("_items_describe_memo", key, items.describe)))  # grouped once per selection
    settings = _settings(items)
    rows = len(items.frame) // max(len(items.models), 1)  # items per model: the rows one pair's test resamples
    views = list(links.ITEM_VIEWS)
    current = ss.get("items_view") if ss.get("items_view") in views else views[0]
    view = st.segmented_control("Show", views, default=current, key="w_items_view") or views[0]
    ss["items_view"] = view
    names = table.classifiers

    if view == "Pairs × tasks":
        pairs = len(names) * (len(names) - 1) // 2
        reps, message = _reps_within_budget(settings["reps"], settings["test"], rows, pairs)
        if message:
            (st.error if reps == 0 else st.warning)(esc(message))
        if reps == 0:
            return
        result = ui.call(_all_pairs, key, items, settings["test"], settings["cluster"], alpha,
                         settings["correction"], reps, settings["seed"])
        if result is None:
            return
        st.caption(esc(f"Each cell: the mean difference a − b of {items.metric or 'the score'} over the items both "
                       f"models have on the task ({result.attrs.get('test')} test); * marks an adjusted p ≤ α = {alpha:g} "
                       f"({CORRECTION_LABELS[settings['correction']]} over all {len(result):,} pairs × tasks). Blue: a "
                       "scores higher; red: b scores higher."))
        fig = ui.call(ui.cached_figure, ("items_heatmap", key, tuple(sorted(settings.items())), alpha, reps),
                      lambda: cl.item_heatmap_figure(result, metric=items.metric))
        if fig is not None:
            ui.wide_chart(fig, "items_heatmap", config=ui.CHART_CONFIG)
        with st.expander("The table of every pair on every task"):
            _pair_table(result)
        ui.download_buttons(result, "item_comparison_all", caption="Paired comparisons of every pair on every task",
                            key="items_all")
        _script_button(items, settings, alpha, reps)
        return

    a, b = ui.classifier_pair(names, *st.columns(2), "w_items", remember="items", labels=("Model a", "Model b"))
    if view == "One pair, task by task":
        reps, message = _reps_within_budget(settings["reps"], settings["test"], rows, 1)
        if message:
            (st.error if reps == 0 else st.warning)(esc(message))
        if reps == 0:
            return
        result = ui.call(_one_pair, key, items, a, b, settings["test"], settings["cluster"], alpha,
                         settings["correction"], reps, settings["seed"])
        if result is None:
            return
        shown = int(result["reject"].sum())
        st.markdown(esc(f"{a} against {b}: {result.attrs.get('test')} test on {len(result):,} task(s); the difference is "
                        f"significant on {shown:,} of them (adjusted p ≤ α = {alpha:g}, "
                        f"{CORRECTION_LABELS[settings['correction']]} over the tasks)."))
        if result.attrs.get("left_out"):
            st.caption(esc(f"{result.attrs['left_out']:,} item(s) only one of the two models has are left out "
                           "(columns left_out_a, left_out_b)."))
        if result.attrs.get("tasks_left_out"):
            st.caption(esc("Tasks the two models share no item of (left out): "
                           + ", ".join(map(str, result.attrs["tasks_left_out"][:20]))))
        fig = ui.call(ui.cached_figure, ("items_forest", key, a, b, tuple(sorted(settings.items())), alpha, reps),
                      lambda: cl.item_forest_figure(result, metric=items.metric))
        if fig is not None:
            ui.wide_chart(fig, "items_forest", config=ui.CHART_CONFIG)
        _pair_table(result)
        ui.download_buttons(result, "item_comparison_pair", caption=f"{a} against {b}, task by task",
                            key="items_pair")
        _script_button(items, settings, alpha, reps, a, b)
        return

    # Planning
    remembered = state.remembered
    p1, p2 = st.columns(2)
    d = p1.number_input(f"Difference to detect d ({links.ITEM_MIN_D:g} to {links.ITEM_MAX_D:g}, in score units)",
                        min_value=links.ITEM_MIN_D, max_value=links.ITEM_MAX_D, step=0.01, format="%.4f",
                        key="w_items_d",
                        value=remembered("items_d", 0.05, lambda v: state.number(v, links.ITEM_MIN_D, links.ITEM_MAX_D)))
    power = p2.number_input("Power (0.5 to 0.99)", min_value=0.5, max_value=0.99, step=0.05, key="w_items_power",
                            value=remembered("items_power", 0.8, lambda v: state.number(v, 0.5, 0.99)))
    ss.update(items_d=float(d), items_power=float(power))
    plan_test = settings["test"] if settings["test"] in ("mcnemar", "t") else ("t" if settings["cluster"] else "auto")
    result = ui.call(_plan, key, items, a, b, float(d), float(power), alpha, plan_test)
    if result is None:
        return
    spread = ("the observed discordance (the share of items exactly one of the two models gets right), with "
              "Connor's (1987) approximation for McNemar's test" if result.attrs["test"] == "mcnemar" else
              "the standard deviation of the per-item differences, with the paired t test's noncentral t")
    st.markdown(esc(f"Per task, from {spread}: the items needed to detect a difference of {float(d):g} between {a} and "
                    f"{b} with power {float(power):g} at α = {alpha:g} (two-sided, one task alone), and the smallest "
                    "difference the task's current number of items detects."))
    result = result.assign(note=result["note"].map(ui.words))  # options named by their controls
    st.dataframe(result, hide_index=True, width="stretch",
                 column_config=ui.plain_columns(result, note=st.column_config.TextColumn("note", width="large")))
    ui.download_buttons(result, "item_planning", caption=f"Planning: {a} against {b}", key="items_plan")


main()
