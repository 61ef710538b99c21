"""compare_lib: statistical comparison of classifiers over multiple data sets.

Implements Demšar (2006), García & Herrera (2008), García, Fernández, Luengo & Herrera (2010),
Eisinga et al. (2017) and Benavoli, Corani & Mangili (2016).
Conventions: rank 1 = best, ties get average ranks, the direction of the scores is stated
(``higher_is_better``) or looked up by the metric's name in the direction catalogue
(:func:`guess_direction`), never assumed; tests are two-sided.

    import compare_lib as cl
    t = cl.load_scores("scores.csv", higher_is_better=True)
    cl.friedman(t), cl.iman_davenport(t)
    cl.posthoc(t, test="wilcoxon", correction="holm")

The implementation lives in private modules (``compare_lib.analyses._posthoc``, ...) behind this package's face,
as in SciPy; the public modules are :mod:`compare_lib.plots`, :mod:`compare_lib.report`,
:mod:`compare_lib.limits`, :mod:`compare_lib.io` and :mod:`compare_lib.errors`. The public names below are
imported when first used, so ``import compare_lib`` stays light (scipy's statistics are loaded only by
the functions that need them: a dashboard page that only reads a table starts faster).
"""

from __future__ import annotations

import importlib

from compare_lib.errors import ApproximationWarning, DataWarning, InputError  # noqa: F401  (light, and wanted at once)

__version__ = "0.1.0"

#: Every public name, listed once: module -> the names it provides (imported on first use).
_PUBLIC: dict[str, tuple[str, ...]] = {
    "errors": ("ApproximationWarning", "DataWarning", "InputError"),
    "core._table": ("MISSING_POLICIES", "ScoreTable", "as_table"),
    "io": ("AGGREGATES", "FORMATS", "LAYOUTS", "Results", "direction_catalogue", "guess_direction", "load_scores",
           "read_results"),
    "core._result": ("Result", "TestResult", "RankTestResult", "FTestResult", "FrameResult", "PairwiseStatistics"),
    "multiple._adjust": ("DEFAULT_CORRECTION", "UNCORRECTED", "PROCEDURES", "Procedure", "Hypotheses", "adjust", "possible_true_counts", "procedures_for",
                "register_procedure", "unregister_procedure", "rom_critical_values", "shaffer_t"),
    "stats._pairwise_tests": ("DEFAULT_TEST", "RECOMMENDED_TEST", "PAIRWISE_TESTS", "PairwiseTest", "register_pairwise_test", "unregister_pairwise_test"),
    "analyses._posthoc": ("TESTS", "POOL_DEPENDENT_TESTS", "ApvResult", "PosthocResult", "VerdictsResult", "apv_table", "groups",
                 "as_posthoc_result", "not_different_groups", "posthoc", "verdict_methods", "verdicts"),
    "stats._critical": ("bonferroni_dunn_q", "critical_difference", "dunnett_sf", "nemenyi_q", "rank_standard_error",
                  "studentized_range_sf", "studentized_range_sf_many"),
    "multiple._exhaustive": ("bell_number", "exhaustive_sets", "n_exhaustive_sets", "set_partitions"),
    "stats._omnibus": ("dunnett", "friedman", "iman_davenport", "rm_anova", "tukey_hsd"),
    "stats._rank_tests": ("aligned_ranks", "friedman_aligned_ranks", "quade", "quade_mean_ranks", "quade_weights",
                    "rank_sum_difference_distribution"),
    "analyses._pool": ("PoolVerdictsResult", "critical_rank_difference", "pool_counts", "pool_dependence",
              "pool_power_simulation", "pool_sensitivity", "pool_sensitivity_matrix", "pool_verdicts", "smallest_flip"),
    "stats._replicability_measures": ("replicability", "replicability_counts", "replicability_e", "replicability_p"),
    "analyses._replicability": ("SELECTION_TESTS", "selection_experiment", "selection_trend", "selection_trend_sentence"),
    "stats._resampling": ("corrected_repeated_cv_ttest", "corrected_resampled_ttest", "cv_ttest", "dietterich_5x2cv_ttest",
                    "fold_groups", "fold_level_tests", "fold_replicability"),
    "analyses._experiments": ("BUILTIN_CLASSIFIERS", "BUILTIN_DATASETS", "make_classifier", "run_experiment"),
    "stats._two_classifiers": ("paired_ttest", "sign_test", "sign_test_critical_wins", "wilcoxon"),
    "stats._bayesian": ("bayesian_correlated_ttest", "bayesian_fold_tests", "bayesian_posthoc", "bayesian_sign_test",
                  "bayesian_signed_rank", "relevance_demo", "rope_scale_warning", "signed_rank_max_samples", "suggest_rope"),
    "analyses._metrics": ("compare_metrics",),
    "stats._skillings_mack": ("SkillingsMackResult", "skillings_mack"),
    "_analysis": ("Analysis", "Source", "analyze"),
    "analyses._familywise": ("familywise_error",),
    "analyses._rank_sets": ("best_set", "rank_set_labels", "rank_sets", "rank_sets_from_posthoc", "winners_sentence", "worst_set"),
    "analyses._letters": ("letters",),
    "core._rename": ("parse_renames",),  # issue 28: "old = new" lines for ScoreTable.rename
    "render._cd_layout": ("unjoined_pairs",),  # issue 28: pairs not rejected that no CD bar joins
    "analyses._plan": ("PlanResult", "datasets_for_power", "detectable_difference", "plan", "plan_sentence"),
    "stats._effect_sizes": ("effect_size_measures", "effect_size_table", "effect_sizes", "with_effect_sizes"),
    # issue 30: item-level results (per-question outcomes), paired tests per task, planning
    "io._item_table": ("Items",),
    "analyses._items": ("ITEM_CORRECTIONS", "ITEM_TESTS", "item_comparison", "item_comparison_all", "item_plan",
               "items_detectable", "items_needed"),
    "io._items": ("ITEM_FORMATS", "read_items"),
    "render._item_figures": ("item_forest_figure", "item_heatmap_figure"),  # issue 30: the per-task comparison's figures
    # issue 29: Bayesian Plackett-Luce ranking (Calvo et al. 2018; Caron & Doucet 2012's Gibbs sampler)
    "stats._bayes_ranking": ("BayesianRankingResult", "bayesian_ranking"),
    "render._ranking_figures": ("p_best_figure", "p_before_figure", "rank_probability_figure"),  # issue 29: "Who is best?"
    "stats._hierarchical": ("HierarchicalResult", "bayesian_hierarchical", "hierarchical_sensitivity",
                      "HIERARCHICAL_PRIORS", "hierarchical_available"),
    "render._scripts": ("hierarchical_script", "item_comparison_script", "ranking_script"),  # scripts of dashboard views
    "render._hierarchical_figures": ("hierarchical_forest_figure",),
}
#: Public names that are other names of the same object.
_ALIASES = {"posthoc_labels": ("analyses._posthoc", "TEST_LABELS")}
#: Public modules.
_MODULES = ("plots", "report", "limits", "io", "errors")

_WHERE = {name: (module, name) for module, names in _PUBLIC.items() for name in names} | _ALIASES
__all__ = sorted([*_WHERE, *_MODULES])


def __getattr__(name: str):
    if name in _WHERE:
        module, attr = _WHERE[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    if name in _MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return __all__
