"""Is a higher score better? Looked up in the direction catalogue by the metric's name (issue 28).

:func:`guess_direction` answers from the catalogue (:mod:`compare_lib.io._catalogue`, the data file
``metric_directions.csv``) and nothing else: a name the catalogue does not know is unknown (None), never
guessed from a stray word. The file's name never decides the direction of a named metric; it may only
name the one metric of a wide table (:func:`metric_from_file_name`), and that name goes through the
catalogue like any other.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from compare_lib.io._catalogue import catalogue, guess, span

#: Words that mark a column of a long file as holding a metric (layout detection only: the direction
#: comes from the catalogue).
LAYOUT_METRIC_WORDS = frozenset({"accuracy", "acc", "auc", "roc_auc", "f1", "precision", "recall", "r2", "score",
                                 "kappa", "mcc", "balanced", "error", "err", "loss", "time", "rmse", "mae", "mse",
                                 "regret", "runtime", "seconds", "memory"})

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")


def words(name: str) -> list[str]:
    """The lower-cased words of a name: 'test_neg_log_loss' -> ['test', 'neg', 'log', 'loss']."""
    return [w for w in _SPLIT.split(_CAMEL.sub("_", str(name)).lower()) if w]


def guess_direction(name) -> tuple[bool | None, str]:
    """Whether a higher value of the metric ``name`` is better, from the direction catalogue: ``(True, reason)``,
    ``(False, reason)`` or ``(None, why not)``.

    The reason names the catalogue's entry, its field and its source ("lower is better: 'wer' is word error
    rate (ASR, Hugging Face evaluate)"). Prefixes such as ``test_``, ``val_``, ``mean_`` and cut-offs such as
    ``@10`` say nothing; ``neg_`` (scikit-learn's negated losses), ``_drop``, ``_reduction`` turn the direction
    around; ``_gain``, ``_increase``, ``delta`` keep it; ``_improvement``, ``d2_`` make it higher and
    ``rank`` lower whatever the metric; ``std`` and other spreads have none. ``score`` alone does not decide.
    Never raises: any object gives a pair (its text is looked up; None and names longer than
    :data:`compare_lib.limits.MAX_NAME_LENGTH` are unknown).
    """
    return guess(name)


def direction_catalogue():
    """The direction catalogue as a DataFrame: ``pattern``, ``role`` (metric, modifier, qualifier),
    ``higher_is_better`` (higher/lower/none for a metric; flip/keep/higher/lower/spread for a modifier),
    ``meaning``, ``field``, ``source``."""
    import pandas as pd

    return pd.DataFrame([e.__dict__ for e in catalogue().entries]).rename(columns={"value": "higher_is_better"})


def file_stem(display: str | None) -> str:
    if not display:
        return ""
    return PurePath(str(display)).stem


def infer_direction(metric: str | None, display: str | None, *, metric_from_file: bool = False) -> tuple[bool | None, str]:
    """(direction, reason) of a metric from its name alone (:func:`guess_direction`); ``display`` (the file's
    name) only says, in the reason, where the name came from when it was taken from the file's name
    (``metric_from_file``: a wide table's one metric). The file's name itself never decides."""
    if metric is None:
        return None, "unknown: the table's metric has no name (nothing says whether a higher score is better)"
    better, reason = guess_direction(metric)
    if metric_from_file:
        reason += f"; the metric's name, {metric}, is taken from the file's name ({display})"
    return better, reason


def metric_from_file_name(display: str | None) -> str | None:
    """The name of a wide table's one metric when its file's name says it: 'error_rates.csv' ->
    'error_rates', 'demsar2006_table6_auc.csv' -> 'auc'; None when the name has no metric word."""
    return metric_from_text(file_stem(display))


def metric_from_text(text: str | None) -> str | None:
    """The first metric of the direction catalogue named in a name or a caption, with the modifiers beside
    it ('Table 3: Accuracy (%) of five classifiers' -> 'accuracy', a sheet named 'AUC' -> 'auc',
    'error_rates' -> 'error_rates', 'accuracy_drop' -> 'accuracy_drop'); None when there is none."""
    return span(text)
