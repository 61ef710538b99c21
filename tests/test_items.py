"""Item-level results (issue 30): reading, paired tests per task, planning."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import compare_lib as cl

ITEMS = Path(__file__).resolve().parent / "data" / "items"


def _items(rng, n_items=300, tasks=("t1", "t2", "t3"), models=("a", "b"), binary=True, clusters=None) -> cl.Items:
    rows = []
    for t in tasks:
        base = rng.random(n_items)
        for k, m in enumerate(models):
            if binary:
                score = (rng.random(n_items) < 0.45 + 0.1 * k + 0.2 * (base - 0.5)).astype(float)
            else:
                score = np.clip(base + rng.normal(0.03 * k, 0.2, n_items), 0, 1)
            frame = pd.DataFrame({"model": m, "task": t, "item": [str(i) for i in range(n_items)], "score": score})
            if clusters:
                frame["cluster"] = [f"c{i // clusters}" for i in range(n_items)]
            rows.append(frame)
    return cl.Items(pd.concat(rows, ignore_index=True), metric="acc")


def _sorted(items: cl.Items) -> pd.DataFrame:
    return items.frame[["model", "task", "item", "score"]].sort_values(["model", "task", "item"]).reset_index(drop=True)


# -- reading -------------------------------------------------------------------------------------------
def test_each_format_reads_to_the_same_items_and_table():
    lm = cl.read_items(ITEMS / "lm_eval", score_col="acc")
    eee = cl.read_items(ITEMS / "every_eval_ever.jsonl")
    csv = cl.read_items(ITEMS / "long.csv")
    files = cl.read_items(sorted((ITEMS / "lm_eval").rglob("samples_*.jsonl")), score_col="acc")
    for other in (eee, csv, files):
        pd.testing.assert_frame_equal(_sorted(lm), _sorted(other))
    assert lm.models == ["model-a", "model-b"] and lm.tasks == ["arc_easy", "boolq"]
    tables = [lm.task_table(), eee.task_table(higher_is_better=True), csv.task_table()]
    for t in tables[1:]:
        pd.testing.assert_frame_equal(tables[0].scores, t.scores)
    assert tables[0].higher_is_better and not tables[0].direction_stated and "accuracy" in tables[0].direction_reason
    assert any("mean of a model's acc over the task's items (12 to 14 items" in n for n in tables[0].notes)
    assert "item = question_id, score = correct, cluster = passage_id" in csv.notes[0]
    assert "item = doc_id, score = 'acc' (of acc, acc_norm)" in lm.notes[0]
    assert "model = model_id, task = evaluation_name, item = sample_id" in eee.notes[0]


def test_unknown_direction_is_refused_and_several_metrics_are_listed():
    with pytest.raises(cl.InputError, match="2 metrics: acc, acc_norm. Choose one with score_col='acc'"):
        cl.read_items(ITEMS / "lm_eval")
    with pytest.raises(cl.InputError, match="direction of the item scores 'score' is not known"):
        cl.read_items(ITEMS / "every_eval_ever.jsonl").task_table()
    norm = cl.read_items(ITEMS / "lm_eval", score_col="acc_norm")
    assert norm.metric == "acc_norm"


def test_lm_eval_model_from_argument_and_filters(tmp_path):
    src = next((ITEMS / "lm_eval" / "model-a").glob("samples_boolq_*.jsonl"))
    items = cl.read_items(src, score_col="acc", model="mine")
    assert items.models == ["mine"] and items.tasks == ["boolq"] and len(items.frame) == 12
    lines = [json.loads(x) for x in src.read_text().splitlines()]
    out = tmp_path / "m" / "samples_gsm8k_2024-01-01T00-00-00.000000.jsonl"
    out.parent.mkdir()
    with out.open("w") as f:
        for flt in ("strict-match", "flexible-extract"):
            for x in lines:
                y = {k: v for k, v in x.items() if k not in ("acc", "acc_norm", "metrics")}
                f.write(json.dumps({**y, "filter": flt, "exact_match": float(flt == "strict-match")}) + "\n")
    with pytest.raises(cl.InputError, match="exact_match,flexible-extract, exact_match,strict-match"):
        cl.read_items(out)
    strict = cl.read_items(out, score_col="exact_match,strict-match")
    assert strict.frame["score"].eq(1).all() and len(strict.frame) == 12 and strict.metric == "exact_match"


def test_parquet_and_tsv_read_the_same(tmp_path):
    csv = cl.read_items(ITEMS / "long.csv")
    frame = pd.read_csv(ITEMS / "long.csv")
    frame.to_csv(tmp_path / "long.tsv", sep="\t", index=False)
    pytest.importorskip("pyarrow")
    frame.to_parquet(tmp_path / "long.parquet")
    for name in ("long.tsv", "long.parquet"):
        pd.testing.assert_frame_equal(csv.frame, cl.read_items(tmp_path / name).frame)


def test_column_overrides(tmp_path):
    (tmp_path / "x.csv").write_text("who,bench,q,ok,grp\nm1,t,1,1,g\nm2,t,1,0,g\nm1,t,2,0,g\nm2,t,2,0,g\n")
    with pytest.raises(cl.InputError, match="no model column found .* Name it with model_col="):
        cl.read_items(tmp_path / "x.csv")
    items = cl.read_items(tmp_path / "x.csv", model_col="who", task_col="bench", item_col="q", score_col="ok",
                          cluster_col="grp")
    assert items.models == ["m1", "m2"] and "cluster" in items.frame
    with pytest.raises(cl.InputError, match="has no column 'nope'"):
        cl.read_items(tmp_path / "x.csv", model_col="nope")


# -- bad input -----------------------------------------------------------------------------------------
def test_non_numeric_score_names_file_line_and_value(tmp_path):
    (tmp_path / "bad.csv").write_text("model,task,item,correct\nm,t,1,1\nm,t,2,yes please\n")
    with pytest.raises(cl.InputError, match=r"File 'bad.csv', line 3, column 'correct': the score 'yes please' is not"):
        cl.read_items(tmp_path / "bad.csv")
    folder = tmp_path / "run" / "m"
    shutil.copytree(ITEMS / "lm_eval" / "model-a", folder)
    src = next(folder.glob("samples_boolq_*.jsonl"))
    lines = src.read_text().splitlines()
    lines[4] = lines[4].replace('"acc": 1.0', '"acc": "n/a"').replace('"acc": 0.0', '"acc": "n/a"')
    src.write_text("\n".join(lines) + "\n")
    with pytest.raises(cl.InputError, match=r"samples_boolq_.*\.jsonl', line 5, column 'acc': the score 'n/a'"):
        cl.read_items(tmp_path / "run", score_col="acc")


def test_truncated_json_line_names_file_and_line(tmp_path):
    folder = tmp_path / "m"
    shutil.copytree(ITEMS / "lm_eval" / "model-a", folder)
    src = next(folder.glob("samples_arc_easy_*.jsonl"))
    text = src.read_text()
    src.write_text(text[: len(text) - 40])  # the last line cut off
    with pytest.raises(cl.InputError, match=r"samples_arc_easy_.*\.jsonl', line 14: not a complete JSON object"):
        cl.read_items(folder, score_col="acc")
    (tmp_path / "e.jsonl").write_text((ITEMS / "every_eval_ever.jsonl").read_text()[:500])
    with pytest.raises(cl.InputError, match=r"File 'e.jsonl', line 2: not a complete JSON object"):
        cl.read_items(tmp_path / "e.jsonl")


def test_duplicated_items_are_named(tmp_path):
    (tmp_path / "d.csv").write_text("model,task,item,score\nm,t,1,1\nm,t,2,0\nm,t,2,1\n")
    with pytest.raises(cl.InputError, match="1 items appear more than once .* model 'm', task 't', item '2'"):
        cl.read_items(tmp_path / "d.csv")
    with pytest.raises(cl.InputError, match="appear more than once"):  # the same run given twice
        files = sorted((ITEMS / "lm_eval" / "model-a").glob("*.jsonl"))
        cl.read_items([*files, files[0]], score_col="acc")


def test_missing_items_are_left_out_and_counted():
    items = _items(np.random.default_rng(1), n_items=50)
    frame = items.frame
    drop = (frame["model"] == "b") & (frame["task"] == "t2") & frame["item"].isin(["1", "2", "3"])
    drop |= (frame["model"] == "a") & (frame["task"] == "t3") & frame["item"].isin(["7"])
    fewer = cl.Items(frame[~drop].reset_index(drop=True), metric="acc")
    assert fewer.missing().to_dict("list") == {"model": ["a", "b"], "task": ["t3", "t2"], "missing": [1, 3],
                                               "items": [50, 50]}
    assert "a lacks 1 of the 50 items of t3; b lacks 3 of the 50 items of t2" in fewer.notes[-1]
    out = cl.item_comparison(fewer, "a", "b", test="t").set_index("task")
    assert out.loc["t2", "n"] == 47 and out.loc["t2", "left_out_a"] == 3 and out.loc["t2", "left_out_b"] == 0
    assert out.loc["t3", "n"] == 49 and out.loc["t3", "left_out_b"] == 1
    assert out.loc["t1", "n"] == 50 and out.attrs["left_out"] == 4


def test_task_with_one_item_is_refused_for_tests_needing_two():
    frame = pd.DataFrame({"model": ["a", "b", "a", "b", "a", "b"], "task": ["x", "x", "y", "y", "y", "y"],
                          "item": ["1", "1", "1", "1", "2", "2"], "score": [1, 0, 0.5, 0.2, 0.1, 0.3]})
    items = cl.Items(frame, metric="acc")
    with pytest.raises(cl.InputError, match="needs at least 2 items both models have on each task; x has fewer"):
        cl.item_comparison(items, "a", "b", test="t")
    with pytest.raises(cl.InputError, match="McNemar's test needs scores of 0 or 1"):
        cl.item_comparison(items, "a", "b", test="mcnemar")
    with pytest.raises(cl.InputError, match="seed"):
        cl.item_comparison(items, "a", "b", test="bootstrap", seed=-1)
    with pytest.raises(cl.InputError, match="not a model"):
        cl.item_comparison(items, "a", "zzz")


# -- the tests against independent computations --------------------------------------------------------
def test_mcnemar_matches_statsmodels_exact():
    from statsmodels.stats.contingency_tables import mcnemar

    items = _items(np.random.default_rng(2), n_items=120)
    out = cl.item_comparison(items, "a", "b", test="auto", correction="holm")
    assert out.attrs["test"] == "mcnemar"
    wide = items.frame.pivot_table(index=["task", "item"], columns="model", values="score")
    for _, row in out.iterrows():
        w = wide.loc[row["task"]]
        table = pd.crosstab(w["a"], w["b"]).reindex(index=[0.0, 1.0], columns=[0.0, 1.0], fill_value=0).to_numpy()
        assert row["p"] == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-10)
        b, c = table[1, 0], table[0, 1]
        assert row["p"] == pytest.approx(stats.binomtest(b, b + c).pvalue, rel=1e-10)
        assert row["diff"] == pytest.approx(w["a"].mean() - w["b"].mean())
        d = (w["a"] - w["b"]).to_numpy()  # the Wald interval of the paired difference of proportions
        assert row["se"] == pytest.approx(d.std(ddof=0) / np.sqrt(d.size), rel=1e-12)
        assert row["ci_high"] - row["diff"] == pytest.approx(stats.norm.ppf(0.975) * row["se"], rel=1e-12)
    assert np.allclose(out["p_adj"], cl.adjust(out["p"], "holm"))
    assert (out["reject"] == (out["p_adj"] <= 0.05)).all()


def test_paired_t_matches_scipy():
    items = _items(np.random.default_rng(3), n_items=80, binary=False)
    out = cl.item_comparison(items, "a", "b", test="auto", alpha=0.1)
    assert out.attrs["test"] == "t"
    wide = items.frame.pivot_table(index=["task", "item"], columns="model", values="score")
    for _, row in out.iterrows():
        w = wide.loc[row["task"]]
        ref = stats.ttest_rel(w["a"], w["b"])
        ci = ref.confidence_interval(0.9)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-9)
        assert row["diff"] / row["se"] == pytest.approx(ref.statistic, rel=1e-9)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_clustered_se_matches_statsmodels_ols_cluster():
    import statsmodels.api as sm

    items = _items(np.random.default_rng(4), n_items=90, binary=False, clusters=6)
    out = cl.item_comparison(items, "a", "b", test="t", cluster="cluster")
    wide = items.frame.pivot_table(index=["task", "item"], columns="model", values="score")
    groups = items.frame[items.frame.model == "a"].set_index(["task", "item"])["cluster"]
    for _, row in out.iterrows():
        w = wide.loc[row["task"]]
        g = groups.loc[row["task"]].reindex(w.index)
        d = (w["a"] - w["b"]).to_numpy()
        fit = sm.OLS(d, np.ones_like(d)).fit(cov_type="cluster", cov_kwds={"groups": pd.factorize(g)[0]})
        C = row["clusters"]
        assert C == 15
        # statsmodels multiplies the variance by C/(C-1) (its small-sample correction; K = 1 parameter)
        assert row["se"] * np.sqrt(C / (C - 1)) == pytest.approx(fit.bse[0], rel=1e-9)
        assert row["diff"] == pytest.approx(fit.params[0])
        assert row["p"] == pytest.approx(2 * stats.t.sf(abs(row["diff"] / row["se"]), C - 1), rel=1e-9)
        # Miller (2024): the clustered se is at least ... here the formula itself
        cent = d - d.mean()
        miller = np.sqrt(sum(cent[g.to_numpy() == c].sum() ** 2 for c in set(g))) / len(d)
        assert row["se"] == pytest.approx(miller, rel=1e-12)


def test_permutation_matches_scipy_within_monte_carlo_error():
    items = _items(np.random.default_rng(5), n_items=60, binary=False)
    reps = 20_000
    out = cl.item_comparison(items, "a", "b", test="permutation", reps=reps, seed=7)
    wide = items.frame.pivot_table(index=["task", "item"], columns="model", values="score")
    for _, row in out.iterrows():
        w = wide.loc[row["task"]]
        ref = stats.permutation_test((w["a"].to_numpy(), w["b"].to_numpy()), lambda x, y: np.mean(x - y),
                                     permutation_type="samples", n_resamples=reps, random_state=1)
        err = 5 * np.sqrt(max(ref.pvalue * (1 - ref.pvalue), 1e-3) / reps)
        assert abs(row["p"] - ref.pvalue) < 2 * err
        ci = stats.ttest_rel(w["a"], w["b"]).confidence_interval()  # the interval is the paired t interval
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_constant_differences_give_p_one_or_zero():
    frame = pd.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "task": ["x"] * 3 + ["y"] * 3 + ["x"] * 3 + ["y"] * 3,
                          "item": ["1", "2", "3"] * 4, "score": [0.5, 0.6, 0.7, 0.5, 0.6, 0.7,
                                                                0.5, 0.6, 0.7, 0.4, 0.5, 0.6]})
    out = cl.item_comparison(cl.Items(frame, metric="acc"), "a", "b", test="t").set_index("task")
    assert out.loc["x", "p"] == 1.0 and out.loc["y", "p"] == 0.0
    assert out.loc["y", "ci_low"] == out.loc["y", "ci_high"] == pytest.approx(0.1)


def test_permutation_is_exact_for_few_items():
    frame = pd.DataFrame({"model": ["a"] * 8 + ["b"] * 8, "task": "t", "item": [str(i) for i in range(8)] * 2,
                          "score": [0.9, 0.8, 0.7, 0.75, 0.6, 0.95, 0.85, 0.5, 0.5, 0.6, 0.72, 0.7, 0.61, 0.8, 0.6, 0.55]})
    items = cl.Items(frame, metric="acc")
    out = cl.item_comparison(items, "a", "b", test="permutation", reps=1000)
    x, y = frame.score[:8].to_numpy(), frame.score[8:].to_numpy()
    ref = stats.permutation_test((x, y), lambda x, y: np.mean(x - y), permutation_type="samples", n_resamples=1000)
    assert out["p"].iloc[0] == pytest.approx(ref.pvalue, rel=1e-9)


def test_bootstrap_interval_matches_scipy_within_monte_carlo_error():
    items = _items(np.random.default_rng(6), n_items=200, binary=False)
    out = cl.item_comparison(items, "a", "b", test="bootstrap", reps=10_000, seed=3)
    wide = items.frame.pivot_table(index=["task", "item"], columns="model", values="score")
    for _, row in out.iterrows():
        w = wide.loc[row["task"]]
        d = (w["a"] - w["b"]).to_numpy()
        ref = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=10_000, random_state=2)
        tol = 0.08 * d.std() / np.sqrt(d.size) * 3
        assert row["ci_low"] == pytest.approx(ref.confidence_interval.low, abs=tol)
        assert row["ci_high"] == pytest.approx(ref.confidence_interval.high, abs=tol)
        assert row["se"] == pytest.approx(ref.standard_error, rel=0.05)


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_same_seed_same_result(test):
    items = _items(np.random.default_rng(8), n_items=100, binary=False)
    one = cl.item_comparison(items, "a", "b", test=test, seed=11, reps=2000)
    two = cl.item_comparison(items, "a", "b", test=test, seed=11, reps=2000)
    other = cl.item_comparison(items, "a", "b", test=test, seed=12, reps=2000)
    pd.testing.assert_frame_equal(one, two)
    assert not one.equals(other)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["mcnemar", "t", "bootstrap", "permutation"]))
def test_swapping_models_negates_diff_and_keeps_p(seed, test):
    items = _items(np.random.default_rng(seed), n_items=30, tasks=("x", "y"), binary=test == "mcnemar")
    ab = cl.item_comparison(items, "a", "b", test=test, seed=1, reps=500)
    ba = cl.item_comparison(items, "b", "a", test=test, seed=1, reps=500)
    assert np.allclose(ab["diff"], -ba["diff"])
    assert np.allclose(ab["p"], ba["p"]) and np.allclose(ab["se"], ba["se"])
    assert np.allclose(ab["ci_low"], -ba["ci_high"])


def test_all_pairs_is_one_family():
    items = _items(np.random.default_rng(9), n_items=100, models=("a", "b", "c", "d"))
    out = cl.item_comparison_all(items, correction="holm")
    assert len(out) == 6 * 3 and set(zip(out.a, out.b)) == {("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"),
                                                            ("b", "d"), ("c", "d")}
    assert np.allclose(out["p_adj"], cl.adjust(out["p"], "holm"))
    one = cl.item_comparison(items, "b", "d").set_index("task")
    part = out[(out.a == "b") & (out.b == "d")].set_index("task")
    assert np.allclose(one["p"], part["p"])


def test_task_table_runs_through_analyze():
    items = _items(np.random.default_rng(10), n_items=40, tasks=[f"t{i}" for i in range(8)],
                   models=("a", "b", "c", "d"))
    table = items.task_table()
    assert table.scores.shape == (8, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cl.analyze(table, bayesian_samples=2000)
    assert result is not None
    assert cl.friedman(table).pvalue >= 0


# -- planning ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("d, sd", [(0.05, 0.5), (0.02, 0.3), (0.3, 0.4)])
def test_items_needed_matches_statsmodels_ttest_power(d, sd):
    from statsmodels.stats.power import TTestPower

    n = cl.items_needed(d, sd=sd, power=0.8, alpha=0.05)
    assert n == int(np.ceil(TTestPower().solve_power(effect_size=d / sd, alpha=0.05, power=0.8)))
    assert cl.items_detectable(n, sd=sd) == pytest.approx(
        TTestPower().solve_power(nobs=n, alpha=0.05, power=0.8) * sd, rel=1e-4)  # statsmodels solves loosely


def test_items_needed_mcnemar_connor():
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.9)
    psi, d = 0.3, 0.05
    n = cl.items_needed(d, discordance=psi, power=0.9)
    assert n == int(np.ceil((za * np.sqrt(psi) + zb * np.sqrt(psi - d * d)) ** 2 / d ** 2))
    assert cl.items_detectable(n, discordance=psi, power=0.9) <= d + 1e-12
    with pytest.raises(cl.InputError, match="either sd .* or discordance "):
        cl.items_needed(0.05)


def test_every_eval_ever_json_list_and_row_limit(tmp_path, monkeypatch):
    rows = [json.loads(x) for x in (ITEMS / "every_eval_ever.jsonl").read_text().splitlines()]
    (tmp_path / "eee.json").write_text(json.dumps(rows, indent=1))
    pd.testing.assert_frame_equal(_sorted(cl.read_items(tmp_path / "eee.json")),
                                  _sorted(cl.read_items(ITEMS / "long.csv")))
    import compare_lib.io._items as reader

    with pytest.raises(cl.InputError, match=r"holds 52 item rows; at most 20 are read \(max_rows\)"):
        cl.read_items(ITEMS / "long.csv", max_rows=20)
    monkeypatch.setattr(reader, "MAX_ITEM_ROWS", 10)
    with pytest.raises(cl.InputError, match=r"holds 52 item rows; at most 10 are read \(compare_lib.limits.MAX_ITEM_ROWS\)"):
        cl.read_items(ITEMS / "long.csv")
    with pytest.raises(cl.InputError, match="holds 52 item rows; at most 10 are read"):
        cl.read_items(ITEMS / "lm_eval", score_col="acc")


def test_bootstrap_p_and_interval_are_the_documented_functions_of_the_draws():
    items = _items(np.random.default_rng(12), n_items=50, tasks=("only",), binary=False)
    out = cl.item_comparison(items, "a", "b", test="bootstrap", reps=3000, seed=5).iloc[0]
    w = items.frame.pivot_table(index="item", columns="model", values="score")
    w = w.loc[sorted(w.index)]  # the items in their sorted order, as the comparison pairs them
    d = (w["a"] - w["b"]).to_numpy()
    boot = d[np.random.default_rng(5).integers(0, d.size, size=(3000, d.size))].mean(axis=1)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx(tuple(np.quantile(boot, [0.025, 0.975])), rel=1e-12)
    below, above = np.count_nonzero(boot <= 0), np.count_nonzero(boot >= 0)
    assert out["p"] == pytest.approx(min(1.0, 2 * (min(below, above) + 1) / 3001), rel=1e-12)
    assert out["se"] == pytest.approx(boot.std(ddof=1), rel=1e-12)


def test_cluster_needs_a_cluster_column_and_the_t_test():
    items = _items(np.random.default_rng(13), n_items=20)
    with pytest.raises(cl.InputError, match="cluster='cluster': the items have no such column"):
        cl.item_comparison(items, "a", "b", test="t", cluster="cluster")
    clustered = cl.read_items(ITEMS / "long.csv")
    with pytest.raises(cl.InputError, match="Clustered standard errors are computed for the paired t test only"):
        cl.item_comparison(clustered, "model-a", "model-b", test="mcnemar", cluster=True)
    assert cl.item_comparison(clustered, "model-a", "model-b", cluster=True).attrs["test"] == "t"


def test_resampling_work_is_limited(monkeypatch):
    import compare_lib.analyses._items as analysis

    items = _items(np.random.default_rng(14), n_items=100, models=("a", "b", "c"))
    monkeypatch.setattr(analysis, "MAX_ITEM_RESAMPLE_WORK", 1_000_000)
    with pytest.raises(cl.InputError, match="3 pair\\(s\\) over 300 items with 10,000 replicates draws 9,000,000"):
        cl.item_comparison_all(items, test="bootstrap")
    cl.item_comparison_all(items, test="bootstrap", reps=1000, seed=0)  # 900,000: within
    cl.item_comparison_all(items, test="t")  # no draws


def test_a_task_one_model_lacks_entirely_is_left_out_and_named():
    items = _items(np.random.default_rng(15), n_items=30)
    frame = items.frame[~((items.frame.model == "b") & (items.frame.task == "t2"))].reset_index(drop=True)
    out = cl.item_comparison(cl.Items(frame, metric="acc"), "a", "b", test="t")
    assert out["task"].tolist() == ["t1", "t3"] and out.attrs["tasks_left_out"] == ["t2"]
    assert len(cl.item_comparison_all(cl.Items(frame, metric="acc"))) == 2


def test_missing_names_and_is_correct_only(tmp_path):
    (tmp_path / "m.csv").write_text("model,task,item,score\nm,t,1,1\nm,,2,0\n")
    with pytest.raises(cl.InputError, match=r"File 'm.csv', line 3: the task \(column 'task'\) is missing"):
        cl.read_items(tmp_path / "m.csv")
    rows = [json.loads(x) for x in (ITEMS / "every_eval_ever.jsonl").read_text().splitlines()]
    for r in rows:
        del r["evaluation"]["score"]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    items = cl.read_items(tmp_path / "c.jsonl")
    assert items.metric == "is_correct" and "score = evaluation.is_correct" in items.notes[0]
    pd.testing.assert_frame_equal(_sorted(items), _sorted(cl.read_items(ITEMS / "long.csv")))
    assert items.task_table().direction_reason == "higher is better: 'is_correct' is 1 for a correct item"


def _zip_of(members: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_item_upload_zip_is_refused_beyond_the_callers_unzip_limit():
    """Issue 31: the caller's unpack limit (the dashboard's, smaller than the library's) is checked in the zip's
    directory, and the message states it; the same zip within the limit, or without one, is read."""
    from compare_lib.io._items import read_item_upload

    lm_eval = Path(__file__).parent / "data" / "items" / "lm_eval"
    members = {f"run/{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(lm_eval.rglob("samples_*.jsonl"))}
    unpacked = sum(len(v) for v in members.values())
    data = _zip_of(members)
    limit = unpacked - 1
    with pytest.raises(cl.InputError) as err:
        read_item_upload(data, "run.zip", max_unzip_bytes=limit)
    message = str(err.value)
    assert f"would unpack to {unpacked:,} bytes" in message and f"at most {limit:,} bytes" in message
    assert "run.zip" in message
    within = read_item_upload(data, "run.zip", max_unzip_bytes=unpacked, score_col="acc")
    default = read_item_upload(data, "run.zip", score_col="acc")
    direct = cl.read_items(lm_eval, score_col="acc")
    for items in (within, default):
        assert items.models == direct.models and items.tasks == direct.tasks
        pd.testing.assert_frame_equal(items.task_table().scores, direct.task_table().scores)
    # A limit above the library's own is the library's.
    from compare_lib.limits import MAX_INPUT_BYTES
    from compare_lib.io._items import _unzip_samples

    forged = bytearray(_zip_of({"m/samples_t_1.jsonl": b"{}\n"}))
    # The zip directory's uncompressed size (central directory entry, offset 24) says more than the library reads.
    cd = forged.rfind(b"PK\x01\x02")
    forged[cd + 24:cd + 28] = (MAX_INPUT_BYTES + 1).to_bytes(4, "little")
    with pytest.raises(cl.InputError, match=f"at most {MAX_INPUT_BYTES:,} bytes"):
        _unzip_samples(bytes(forged), "forged.zip", Path("/nonexistent"), max_bytes=MAX_INPUT_BYTES * 4)
