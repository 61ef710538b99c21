"""Report text (public module ``compare_lib.report``): sentences, paragraphs, p-values as text, paper tables in
LaTeX/CSV and references, built in :mod:`compare_lib.render` (``_report``, ``_paper_tables``, ``_references``).
"""

from __future__ import annotations

from compare_lib.core._format import to_csv
from compare_lib.core._result import as_frame
from compare_lib.render._paper_tables import (
    ARTICLE_WIDTH_PT, BOOKTABS_COMMENT, classifier_codes, journal_p, p_clause, pair_probabilities_latex,
    posthoc_latex, scores_table, text_width_pt, to_latex
)
from compare_lib.render._references import bibtex, cite, reference, references, works
from compare_lib.render._report import (
    EFFECT_SHORT, bayes_vs_frequentist, bayesian_paragraph, data_sentence, format_p, grouped_findings,
    label_effects, omnibus_frame, omnibus_sentence, omnibus_verdict, p_text, rank_omnibus_sentence,
    results_paragraph, scores_with_ranks, selection_sentence, skillings_mack_sentence, skillings_mack_verdict,
    with_p_text
)


#: The documented API (functions and classes); the constants imported above stay importable from here.
__all__ = [
    "bayes_vs_frequentist", "bayesian_paragraph", "bibtex", "cite", "classifier_codes", "data_sentence", "format_p",
    "grouped_findings", "journal_p", "label_effects", "omnibus_frame", "omnibus_sentence", "omnibus_verdict",
    "p_clause", "p_text", "pair_probabilities_latex", "posthoc_latex", "rank_omnibus_sentence", "reference",
    "references", "results_paragraph", "scores_table", "scores_with_ranks", "selection_sentence",
    "skillings_mack_sentence", "skillings_mack_verdict", "text_width_pt", "to_csv", "to_latex", "with_p_text",
    "works",
]
