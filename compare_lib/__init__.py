"""compare_lib: statistical comparison of classifiers over multiple data sets.

Implements Demšar (2006), García & Herrera (2008) and Benavoli, Corani & Mangili (2016).
Conventions: rank 1 = best, ties get average ranks, the direction of the scores is always given
(``higher_is_better``), tests are two-sided.

    import compare_lib as cl
    t = cl.load_scores("scores.csv", higher_is_better=True)
    cl.friedman(t), cl.iman_davenport(t)
    cl.posthoc(t, test="wilcoxon", correction="holm")
"""

from . import plots, report
from .adjust import PROCEDURES, adjust, possible_true_counts, procedures_for, shaffer_t
from .critical import (
    bonferroni_dunn_q,
    critical_difference,
    dunnett_sf,
    nemenyi_q,
    rank_standard_error,
    studentized_range_sf,
    studentized_range_sf_many,
)
from .data import MISSING_POLICIES, ScoreTable, as_table, load_scores
from .errors import ApproximationWarning, DataWarning, InputError
from .exhaustive import bell_number, exhaustive_sets, n_exhaustive_sets, set_partitions
from .omnibus import dunnett, friedman, iman_davenport, rm_anova, tukey_hsd
from .pool import (
    critical_rank_difference,
    pool_counts,
    pool_dependence,
    pool_power_simulation,
    pool_sensitivity,
    pool_sensitivity_matrix,
    pool_verdicts,
    smallest_flip,
)
from .replicability import (
    SELECTION_TESTS,
    replicability,
    replicability_counts,
    replicability_e,
    replicability_p,
    selection_experiment,
)
from .resampling import (
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    cv_ttest,
    dietterich_5x2cv_ttest,
    fold_level_tests,
    fold_replicability,
)
from .experiments import run_experiment
from .posthoc import TEST_LABELS as posthoc_labels
from .posthoc import TESTS, apv_table, groups, not_different_groups, posthoc, verdicts
from .two_classifiers import paired_ttest, sign_test, sign_test_critical_wins, wilcoxon

__all__ = [
    "plots",
    "report",
    "SELECTION_TESTS",
    "corrected_repeated_cv_ttest",
    "corrected_resampled_ttest",
    "cv_ttest",
    "dietterich_5x2cv_ttest",
    "fold_level_tests",
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
