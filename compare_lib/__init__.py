"""compare_lib: statistical comparison of classifiers over multiple data sets.

Implements Demšar (2006), García & Herrera (2008), García, Fernández, Luengo & Herrera (2010),
Eisinga et al. (2017) and Benavoli, Corani & Mangili (2016).
Conventions: rank 1 = best, ties get average ranks, the direction of the scores is always given
(``higher_is_better``), tests are two-sided.

    import compare_lib as cl
    t = cl.load_scores("scores.csv", higher_is_better=True)
    cl.friedman(t), cl.iman_davenport(t)
    cl.posthoc(t, test="wilcoxon", correction="holm")

The public names below are imported when first used, so ``import compare_lib`` stays light (scipy's
statistics are loaded only by the functions that need them: a dashboard page that only reads a table
starts faster). ``cl.posthoc``, ``cl.adjust`` and ``cl.replicability`` are always the functions, never
the modules of the same name.
"""

from __future__ import annotations

import importlib
import types

from .errors import ApproximationWarning, DataWarning, InputError

#: public name -> (module, attribute)
_LAZY: dict[str, tuple[str, str]] = {
    "PROCEDURES": ("adjust", "PROCEDURES"),
    "adjust": ("adjust", "adjust"),
    "possible_true_counts": ("adjust", "possible_true_counts"),
    "procedures_for": ("adjust", "procedures_for"),
    "shaffer_t": ("adjust", "shaffer_t"),
    "bonferroni_dunn_q": ("critical", "bonferroni_dunn_q"),
    "critical_difference": ("critical", "critical_difference"),
    "dunnett_sf": ("critical", "dunnett_sf"),
    "nemenyi_q": ("critical", "nemenyi_q"),
    "rank_standard_error": ("critical", "rank_standard_error"),
    "studentized_range_sf": ("critical", "studentized_range_sf"),
    "studentized_range_sf_many": ("critical", "studentized_range_sf_many"),
    "MISSING_POLICIES": ("data", "MISSING_POLICIES"),
    "ScoreTable": ("data", "ScoreTable"),
    "as_table": ("data", "as_table"),
    "load_scores": ("data", "load_scores"),
    "ApproximationWarning": ("errors", "ApproximationWarning"),
    "DataWarning": ("errors", "DataWarning"),
    "InputError": ("errors", "InputError"),
    "bell_number": ("exhaustive", "bell_number"),
    "exhaustive_sets": ("exhaustive", "exhaustive_sets"),
    "n_exhaustive_sets": ("exhaustive", "n_exhaustive_sets"),
    "set_partitions": ("exhaustive", "set_partitions"),
    "dunnett": ("omnibus", "dunnett"),
    "friedman": ("omnibus", "friedman"),
    "iman_davenport": ("omnibus", "iman_davenport"),
    "rm_anova": ("omnibus", "rm_anova"),
    "tukey_hsd": ("omnibus", "tukey_hsd"),
    "critical_rank_difference": ("pool", "critical_rank_difference"),
    "pool_counts": ("pool", "pool_counts"),
    "pool_dependence": ("pool", "pool_dependence"),
    "pool_power_simulation": ("pool", "pool_power_simulation"),
    "pool_sensitivity": ("pool", "pool_sensitivity"),
    "pool_sensitivity_matrix": ("pool", "pool_sensitivity_matrix"),
    "pool_verdicts": ("pool", "pool_verdicts"),
    "smallest_flip": ("pool", "smallest_flip"),
    "SELECTION_TESTS": ("replicability", "SELECTION_TESTS"),
    "replicability": ("replicability", "replicability"),
    "replicability_counts": ("replicability", "replicability_counts"),
    "replicability_e": ("replicability", "replicability_e"),
    "replicability_p": ("replicability", "replicability_p"),
    "selection_experiment": ("replicability", "selection_experiment"),
    "corrected_repeated_cv_ttest": ("resampling", "corrected_repeated_cv_ttest"),
    "corrected_resampled_ttest": ("resampling", "corrected_resampled_ttest"),
    "cv_ttest": ("resampling", "cv_ttest"),
    "dietterich_5x2cv_ttest": ("resampling", "dietterich_5x2cv_ttest"),
    "fold_level_tests": ("resampling", "fold_level_tests"),
    "fold_groups": ("resampling", "fold_groups"),
    "fold_replicability": ("resampling", "fold_replicability"),
    "run_experiment": ("experiments", "run_experiment"),
    "posthoc_labels": ("posthoc", "TEST_LABELS"),
    "TESTS": ("posthoc", "TESTS"),
    "apv_table": ("posthoc", "apv_table"),
    "groups": ("posthoc", "groups"),
    "not_different_groups": ("posthoc", "not_different_groups"),
    "posthoc": ("posthoc", "posthoc"),
    "verdicts": ("posthoc", "verdicts"),
    "paired_ttest": ("two_classifiers", "paired_ttest"),
    "sign_test": ("two_classifiers", "sign_test"),
    "sign_test_critical_wins": ("two_classifiers", "sign_test_critical_wins"),
    "wilcoxon": ("two_classifiers", "wilcoxon"),
    "bayesian_sign_test": ("bayesian", "bayesian_sign_test"),
    "bayesian_signed_rank": ("bayesian", "bayesian_signed_rank"),
    "bayesian_correlated_ttest": ("bayesian", "bayesian_correlated_ttest"),
    "bayesian_posthoc": ("bayesian", "bayesian_posthoc"),
    "bayesian_fold_tests": ("bayesian", "bayesian_fold_tests"),
    "suggest_rope": ("bayesian", "suggest_rope"),
    "signed_rank_max_samples": ("bayesian", "signed_rank_max_samples"),
    "relevance_demo": ("bayesian", "relevance_demo"),
    "effect_sizes": ("effect_sizes", "effect_sizes"),
    "effect_size_table": ("effect_sizes", "effect_size_table"),
    "with_effect_sizes": ("effect_sizes", "with_effect_sizes"),
    "effect_size_measures": ("effect_sizes", "effect_size_measures"),
    "friedman_aligned_ranks": ("rank_tests", "friedman_aligned_ranks"),
    "quade": ("rank_tests", "quade"),
    "aligned_ranks": ("rank_tests", "aligned_ranks"),
    "quade_weights": ("rank_tests", "quade_weights"),
    "quade_mean_ranks": ("rank_tests", "quade_mean_ranks"),
    "rank_sum_difference_distribution": ("rank_tests", "rank_sum_difference_distribution"),
    "PAIRWISE_TESTS": ("posthoc", "PAIRWISE_TESTS"),
    "POOL_DEPENDENT_TESTS": ("posthoc", "POOL_DEPENDENT_TESTS"),
    "rom_critical_values": ("adjust", "rom_critical_values"),
    "plots": ("plots", ""),
    "report": ("report", ""),
    "rank_tests": ("rank_tests", ""),
    "adjust_limits": ("adjust", ""),
    "experiments": ("experiments", ""),
    "exact": ("exact", ""),
    "pool": ("pool", ""),
}

__all__ = [
    "friedman_aligned_ranks",
    "quade",
    "aligned_ranks",
    "quade_weights",
    "quade_mean_ranks",
    "rank_sum_difference_distribution",
    "PAIRWISE_TESTS",
    "POOL_DEPENDENT_TESTS",
    "rom_critical_values",
    "bayesian_sign_test",
    "bayesian_signed_rank",
    "bayesian_correlated_ttest",
    "bayesian_posthoc",
    "bayesian_fold_tests",
    "suggest_rope",
    "signed_rank_max_samples",
    "relevance_demo",
    "effect_sizes",
    "effect_size_table",
    "with_effect_sizes",
    "effect_size_measures",
    "plots",
    "report",
    "SELECTION_TESTS",
    "corrected_repeated_cv_ttest",
    "corrected_resampled_ttest",
    "cv_ttest",
    "dietterich_5x2cv_ttest",
    "fold_level_tests",
    "fold_groups",
    "fold_replicability",
    "replicability",
    "replicability_counts",
    "replicability_e",
    "replicability_p",
    "run_experiment",
    "selection_experiment",
    "PROCEDURES",
    "TESTS",
    "MISSING_POLICIES",
    "ApproximationWarning",
    "DataWarning",
    "InputError",
    "ScoreTable",
    "adjust",
    "apv_table",
    "as_table",
    "bell_number",
    "bonferroni_dunn_q",
    "critical_difference",
    "critical_rank_difference",
    "dunnett",
    "dunnett_sf",
    "exhaustive_sets",
    "friedman",
    "groups",
    "iman_davenport",
    "load_scores",
    "n_exhaustive_sets",
    "not_different_groups",
    "nemenyi_q",
    "paired_ttest",
    "pool_counts",
    "pool_dependence",
    "pool_power_simulation",
    "pool_sensitivity",
    "pool_sensitivity_matrix",
    "pool_verdicts",
    "possible_true_counts",
    "posthoc",
    "posthoc_labels",
    "verdicts",
    "procedures_for",
    "rank_standard_error",
    "rm_anova",
    "set_partitions",
    "shaffer_t",
    "sign_test",
    "sign_test_critical_wins",
    "smallest_flip",
    "studentized_range_sf",
    "studentized_range_sf_many",
    "tukey_hsd",
    "wilcoxon",
]

__version__ = "0.1.0"


def _resolve(attr: str):
    module_name, name = _LAZY[attr]
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, name) if name else module


class _Package(types.ModuleType):
    """The package module: a public name always resolves to its object, even where importing a submodule
    of the same name (``posthoc``, ``adjust``, ``replicability``) has set the module as an attribute."""

    def __getattribute__(self, attr: str):
        if attr in _LAZY:
            return _resolve(attr)
        return super().__getattribute__(attr)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(_LAZY))


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _Package
