"""compare_metrics: every metric of a results file analysed the same way (issue 19)."""

from __future__ import annotations

from pathlib import Path

import compare_lib as cl

RESULTS = Path(__file__).resolve().parent / "data" / "results"


def test_each_metric_gets_its_own_table_direction_and_verdict():
    results = cl.read_results(RESULTS / "cross_validate_export.csv")
    summary = cl.compare_metrics(results, alpha=0.05).set_index("metric")
    for metric in results.metrics:
        t = results.table(metric)
        ranks = t.mean_ranks
        row = summary.loc[metric]
        assert row["higher_is_better"] == t.higher_is_better
        assert row["best"] == ", ".join(c for c in ranks.index if ranks[c] == ranks.min())
        for c in t.classifiers:
            assert row[f"rank: {c}"] == ranks[c]
        fr = cl.friedman(t, method="auto")
        expected_p = fr.pvalue if fr.method == "exact" else cl.iman_davenport(t).pvalue
        assert row["omnibus_p"] == expected_p
        res = cl.posthoc(t, "wilcoxon", "holm")
        assert row["rejected_pairs"] == int(res["reject"].sum())
    assert list(summary["higher_is_better"]) == [False, False, True, True, True]  # times are lower-is-better


def test_tied_for_best_lists_those_not_different_from_the_best():
    results = cl.read_results(RESULTS / "long_two_metrics.csv")
    summary = cl.compare_metrics(results).set_index("metric")
    for metric in results.metrics:
        t = results.table(metric)
        res = cl.posthoc(t, "wilcoxon", "holm")
        best = [c for c in t.classifiers if t.mean_ranks[c] == t.mean_ranks.min()]
        rejected = {frozenset((a, b)) for a, b, r in zip(res["a"], res["b"], res["reject"]) if r}
        expected = [c for c in t.mean_ranks.sort_values(kind="stable").index
                    if c in best or any(frozenset((b, c)) not in rejected for b in best)]
        assert summary.loc[metric, "tied_for_best"] == ", ".join(expected)


def test_a_subset_and_an_unknown_metric():
    results = cl.read_results(RESULTS / "cross_validate_export.csv")
    two = cl.compare_metrics(results, metrics=["test_accuracy"], classifiers=["SVC", "LogisticRegression"])
    assert len(two) == 1 and set(c[6:] for c in two.columns if c.startswith("rank: ")) == {"SVC", "LogisticRegression"}
    import pytest

    with pytest.raises(cl.InputError, match="No metric named 'auc'"):
        cl.compare_metrics(results, metrics=["auc"])


def test_a_metric_with_holes_uses_skillings_mack(tmp_path):
    rows = ["dataset,classifier,auc,accuracy"]
    rows += [f"d{i},{c},{0.6 + 0.03 * i + 0.01 * j},{0.5 + 0.02 * j + 0.01 * i}"
             for i in range(8) for j, c in enumerate(["A", "B", "C"]) if (i, c) != (2, "B")]
    path = tmp_path / "holes.csv"
    path.write_text("\n".join(rows) + "\n")
    results = cl.read_results(path)
    summary = cl.compare_metrics(results, missing="pairwise").set_index("metric")
    for metric in ("auc", "accuracy"):
        t = results.table(metric, missing="pairwise")
        assert summary.loc[metric, "problem"] == ""
        assert summary.loc[metric, "omnibus_p"] == cl.skillings_mack(t).pvalue
