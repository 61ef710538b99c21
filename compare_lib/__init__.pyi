"""Static face of compare_lib for type checkers and editors (PEP 561).

At run time ``compare_lib/__init__.py`` imports each public name on first use (``__getattr__`` over its
``_PUBLIC`` registry), which type checkers cannot follow; this stub re-exports the same names from the same
modules, so mypy, pyright and editors see every signature. tests/test_public_face.py fails when the registry
and this file differ: a new public name needs its line here (the test prints the expected lines)."""

from . import plots as plots, report as report, limits as limits, io as io, errors as errors
from .errors import ApproximationWarning as ApproximationWarning, DataWarning as DataWarning, InputError as InputError
from .core._table import MISSING_POLICIES as MISSING_POLICIES, ScoreTable as ScoreTable, as_table as as_table
from .io import (
    AGGREGATES as AGGREGATES, FORMATS as FORMATS, LAYOUTS as LAYOUTS, Results as Results,
    direction_catalogue as direction_catalogue, guess_direction as guess_direction, load_scores as load_scores,
    read_results as read_results,
)
from .core._result import (
    Result as Result, TestResult as TestResult, RankTestResult as RankTestResult, FTestResult as FTestResult,
    FrameResult as FrameResult, PairwiseStatistics as PairwiseStatistics,
)
from .multiple._adjust import (
    DEFAULT_CORRECTION as DEFAULT_CORRECTION, UNCORRECTED as UNCORRECTED, PROCEDURES as PROCEDURES,
    Procedure as Procedure, Hypotheses as Hypotheses, adjust as adjust, possible_true_counts as possible_true_counts,
    procedures_for as procedures_for, register_procedure as register_procedure,
    unregister_procedure as unregister_procedure, rom_critical_values as rom_critical_values, shaffer_t as shaffer_t,
)
from .stats._pairwise_tests import (
    DEFAULT_TEST as DEFAULT_TEST, RECOMMENDED_TEST as RECOMMENDED_TEST, PAIRWISE_TESTS as PAIRWISE_TESTS,
    PairwiseTest as PairwiseTest, register_pairwise_test as register_pairwise_test,
    unregister_pairwise_test as unregister_pairwise_test,
)
from .analyses._posthoc import (
    TESTS as TESTS, POOL_DEPENDENT_TESTS as POOL_DEPENDENT_TESTS, ApvResult as ApvResult,
    PosthocResult as PosthocResult, VerdictsResult as VerdictsResult, apv_table as apv_table, groups as groups,
    as_posthoc_result as as_posthoc_result, not_different_groups as not_different_groups, posthoc as posthoc,
    verdict_methods as verdict_methods, verdicts as verdicts,
)
from .stats._critical import (
    bonferroni_dunn_q as bonferroni_dunn_q, critical_difference as critical_difference, dunnett_sf as dunnett_sf,
    nemenyi_q as nemenyi_q, rank_standard_error as rank_standard_error, studentized_range_sf as studentized_range_sf,
    studentized_range_sf_many as studentized_range_sf_many,
)
from .multiple._exhaustive import (
    bell_number as bell_number, exhaustive_sets as exhaustive_sets, n_exhaustive_sets as n_exhaustive_sets,
    set_partitions as set_partitions,
)
from .stats._omnibus import (
    dunnett as dunnett, friedman as friedman, iman_davenport as iman_davenport, rm_anova as rm_anova,
    tukey_hsd as tukey_hsd,
)
from .stats._rank_tests import (
    aligned_ranks as aligned_ranks, friedman_aligned_ranks as friedman_aligned_ranks, quade as quade,
    quade_mean_ranks as quade_mean_ranks, quade_weights as quade_weights,
    rank_sum_difference_distribution as rank_sum_difference_distribution,
)
from .analyses._pool import (
    PoolVerdictsResult as PoolVerdictsResult, critical_rank_difference as critical_rank_difference,
    pool_counts as pool_counts, pool_dependence as pool_dependence, pool_power_simulation as pool_power_simulation,
    pool_sensitivity as pool_sensitivity, pool_sensitivity_matrix as pool_sensitivity_matrix,
    pool_verdicts as pool_verdicts, smallest_flip as smallest_flip,
)
from .analyses._replicability import (
    SELECTION_TESTS as SELECTION_TESTS, selection_experiment as selection_experiment, selection_trend as selection_trend,
    selection_trend_sentence as selection_trend_sentence,
)
from .stats._replicability_measures import (
    replicability as replicability, replicability_counts as replicability_counts, replicability_e as replicability_e,
    replicability_p as replicability_p,
)
from .stats._resampling import (
    corrected_repeated_cv_ttest as corrected_repeated_cv_ttest,
    corrected_resampled_ttest as corrected_resampled_ttest, cv_ttest as cv_ttest,
    dietterich_5x2cv_ttest as dietterich_5x2cv_ttest, fold_groups as fold_groups,
    fold_level_tests as fold_level_tests, fold_replicability as fold_replicability,
)
from .analyses._experiments import (
    BUILTIN_CLASSIFIERS as BUILTIN_CLASSIFIERS, BUILTIN_DATASETS as BUILTIN_DATASETS,
    make_classifier as make_classifier, run_experiment as run_experiment,
)
from .stats._two_classifiers import (
    paired_ttest as paired_ttest, sign_test as sign_test, sign_test_critical_wins as sign_test_critical_wins,
    wilcoxon as wilcoxon,
)
from .stats._bayesian import (
    bayesian_correlated_ttest as bayesian_correlated_ttest, bayesian_fold_tests as bayesian_fold_tests,
    bayesian_posthoc as bayesian_posthoc, bayesian_sign_test as bayesian_sign_test,
    bayesian_signed_rank as bayesian_signed_rank, relevance_demo as relevance_demo,
    rope_scale_warning as rope_scale_warning, signed_rank_max_samples as signed_rank_max_samples,
    suggest_rope as suggest_rope,
)
from .analyses._metrics import compare_metrics as compare_metrics
from .stats._skillings_mack import SkillingsMackResult as SkillingsMackResult, skillings_mack as skillings_mack
from ._analysis import Analysis as Analysis, Source as Source, analyze as analyze
from .analyses._familywise import familywise_error as familywise_error
from .analyses._rank_sets import (
    best_set as best_set, rank_set_labels as rank_set_labels, rank_sets as rank_sets,
    rank_sets_from_posthoc as rank_sets_from_posthoc, winners_sentence as winners_sentence, worst_set as worst_set,
)
from .analyses._letters import letters as letters
from .core._rename import parse_renames as parse_renames
from .render._cd_layout import unjoined_pairs as unjoined_pairs
from .analyses._plan import (
    PlanResult as PlanResult, datasets_for_power as datasets_for_power,
    detectable_difference as detectable_difference, plan as plan, plan_sentence as plan_sentence,
)
from .stats._effect_sizes import (
    effect_size_measures as effect_size_measures, effect_size_table as effect_size_table,
    effect_sizes as effect_sizes, with_effect_sizes as with_effect_sizes,
)
from .analyses._items import (
    ITEM_CORRECTIONS as ITEM_CORRECTIONS, ITEM_TESTS as ITEM_TESTS,
    item_comparison as item_comparison, item_comparison_all as item_comparison_all, item_plan as item_plan,
    items_detectable as items_detectable, items_needed as items_needed,
)
from .io._item_table import Items as Items
from .io._items import ITEM_FORMATS as ITEM_FORMATS, read_items as read_items
from .render._item_figures import item_forest_figure as item_forest_figure, item_heatmap_figure as item_heatmap_figure
from .stats._bayes_ranking import BayesianRankingResult as BayesianRankingResult, bayesian_ranking as bayesian_ranking
from .render._ranking_figures import (
    p_best_figure as p_best_figure, p_before_figure as p_before_figure,
    rank_probability_figure as rank_probability_figure,
)
from .stats._hierarchical import (
    HierarchicalResult as HierarchicalResult, bayesian_hierarchical as bayesian_hierarchical,
    hierarchical_sensitivity as hierarchical_sensitivity, HIERARCHICAL_PRIORS as HIERARCHICAL_PRIORS,
    hierarchical_available as hierarchical_available,
)
from .render._scripts import (
    hierarchical_script as hierarchical_script, item_comparison_script as item_comparison_script,
    ranking_script as ranking_script,
)
from .render._hierarchical_figures import hierarchical_forest_figure as hierarchical_forest_figure
from .analyses._posthoc import TEST_LABELS as posthoc_labels

__version__: str
__all__: list[str]
_PUBLIC: dict[str, tuple[str, ...]]
