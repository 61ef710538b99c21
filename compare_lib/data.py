"""Compatibility module: the names ``compare_lib.data`` has always offered.

The score table lives in :mod:`compare_lib.core._table` (with its validation in
:mod:`compare_lib.core._table_validation`), and reading files in :mod:`compare_lib.io`
(:func:`~compare_lib.io.read_results`, :class:`~compare_lib.io.Results`,
:func:`~compare_lib.io.load_scores`). Import from here or from ``compare_lib``; both keep working.
"""

from __future__ import annotations

# Re-exported names (private ones included: scripts and tests reached for them).
# ruff: noqa: F401
from compare_lib.core._table import MISSING_POLICIES, ScoreTable, as_table
from compare_lib.core._table_validation import (  # noqa: F401
    _MISSING_TOKENS,
    MAX_NAME_LENGTH,
    RowLabels,
    _cells,
    _column_values,
    _count_listing,
    _is_plain_numeric,
    _unique_index,
    _validate_scores,
    _where,
)
from compare_lib.core._validation import listing as _listing  # noqa: F401
from compare_lib.io import FORMATS, LAYOUTS, Results, load_scores, read_results
from compare_lib.io._csv import _NA_VALUES, _delim_name, _detect_delimiter, _parse_body, _scan_records, _split_text  # noqa: F401
from compare_lib.io._csv import check_sep as _check_sep  # noqa: F401
from compare_lib.io._layout import _CLASSIFIER_NAMES, _DATASET_NAMES, _FOLD_NAMES, _SCORE_NAMES, _SIZE_NAMES, _maybe_integers  # noqa: F401
from compare_lib.io._numbers import _COMMA_DECIMAL, _DOT_DECIMAL  # noqa: F401
from compare_lib.io._source import check_size as _check_size  # noqa: F401

__all__ = [
    "FORMATS",
    "LAYOUTS",
    "MAX_NAME_LENGTH",
    "MISSING_POLICIES",
    "Results",
    "RowLabels",
    "ScoreTable",
    "as_table",
    "load_scores",
    "read_results",
]
