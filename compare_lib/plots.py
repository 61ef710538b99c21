"""Figures (public module ``compare_lib.plots``): every figure of the library, one import away.

The figures are built in :mod:`compare_lib.render`, one module per family: the common style and export
(``_style``), the critical-difference diagram (``_cd_figures``, its layout ``_cd_layout`` shared with the static
SVG/TikZ drawing ``_cd_static``), the score table (``_table_figures``), the frequentist analyses
(``_analysis_figures``) and the Bayesian tests (``_bayes_figures``). Every figure takes a result (or a table) and
returns a plotly figure; user text in it is escaped.
"""

from __future__ import annotations

from compare_lib.core._result import as_frame
from compare_lib.core._table import ScoreTable
from compare_lib.errors import InputError
from compare_lib.limits import MAX_CD_K, MAX_FOREST_PAIRS, MAX_MATRIX_K, MAX_NAME_CHARS
from compare_lib.render._analysis_figures import (
    apv_heatmap, effect_size_forest, familywise_figure, fold_pvalues_figure, plan_figure, pool_counts_figure,
    pool_z_figure, power_figure, rank_sets_figure, selection_figure, sensitivity_heatmap
)
from compare_lib.render._bayes_figures import (
    bayesian_fold_figure, bayesian_matrix, correlated_t_posterior, posterior_simplex, relevance_figure
)
from compare_lib.render._cd_figures import (
    CD_CAPTION_PAIRS, CD_HOVER_EFFECTS, cd_caption, cd_diagram, cd_png, cd_svg, cd_tikz
)
from compare_lib.render._cd_layout import CDBar, CDLayout, CDLine, CDLink, UNJOINED_NOTE, cd_layout, unjoined_pairs
from compare_lib.render._style import (
    AXIS_LINE, CONTROL_COLOR, DIFFERENT_COLOR, FONT_PX, GRID, GROUP_COLOR, INK, LINE_COLOR, MIN_LABEL_PX,
    MODEBAR_PX, PAPER, PHONE_PX, TITLE_PX, figure_html, figure_image
)
from compare_lib.render._table_figures import mean_ranks_figure, rank_heatmap, win_tie_loss_figure


#: The documented API (functions and classes); the constants imported above stay importable from here.
__all__ = [
    "CDBar", "CDLayout", "CDLine", "CDLink", "apv_heatmap", "bayesian_fold_figure", "bayesian_matrix", "cd_caption",
    "cd_diagram", "cd_layout", "cd_png", "cd_svg", "cd_tikz", "correlated_t_posterior", "effect_size_forest",
    "familywise_figure", "figure_html", "figure_image", "fold_pvalues_figure", "mean_ranks_figure", "plan_figure",
    "pool_counts_figure", "pool_z_figure", "posterior_simplex", "power_figure", "rank_heatmap", "rank_sets_figure",
    "relevance_figure", "selection_figure", "sensitivity_heatmap", "unjoined_pairs", "win_tie_loss_figure",
]
