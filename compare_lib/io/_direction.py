"""Is a higher score better? Inferred from the metric's name, then from the file's name.

Words of the name (split at ``_``, ``-``, spaces, dots and camel case) are looked up in two lists; a
lower-is-better word wins over a higher-is-better one (``score_time`` is a time, ``error_score`` an
error), and scikit-learn's negated losses (``neg_log_loss``, ``test_neg_mean_squared_error``) are
higher-is-better. Unknown names give None: the caller decides (and says so).
"""

from __future__ import annotations

import re
from pathlib import PurePath

HIGHER_WORDS = ("accuracy", "acc", "auc", "roc_auc", "f1", "precision", "recall", "r2", "score", "kappa", "mcc",
                "balanced")
LOWER_WORDS = ("error", "err", "loss", "time", "rmse", "mae", "mse", "regret", "runtime", "seconds", "memory")

_HIGHER = set(HIGHER_WORDS)
_LOWER = set(LOWER_WORDS)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")
#: Prefixes scikit-learn's cross_validate puts before a scorer's name.
_SKLEARN_PREFIXES = ("test", "train")


def words(name: str) -> list[str]:
    """The lower-cased words of a name: 'test_neg_log_loss' -> ['test', 'neg', 'log', 'loss']."""
    return [w for w in _SPLIT.split(_CAMEL.sub("_", str(name)).lower()) if w]


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and word[:-1] in _HIGHER | _LOWER else word


def _judge(name: str) -> tuple[bool, str] | None:
    """(higher_is_better, why) from the words of a name, or None."""
    ws = [_singular(w) for w in words(name)]
    if not ws:
        return None
    rest = ws[1:] if ws[0] in _SKLEARN_PREFIXES and len(ws) > 1 else ws
    lower = [w for w in ws if w in _LOWER]
    if rest[0] == "neg" and len(rest) > 1 and lower:
        return True, "scikit-learn negates losses and errors (neg_...) so that higher is better"
    if lower:
        higher = [w for w in ws if w in _HIGHER]
        also = f"; that wins over '{higher[0]}'" if higher else ""
        return False, f"'{lower[0]}' is a lower-is-better word{also}"
    higher = [w for w in ws if w in _HIGHER]
    if higher:
        return True, f"'{higher[0]}' is a higher-is-better word"
    return None


def file_stem(display: str | None) -> str:
    if not display:
        return ""
    return PurePath(str(display)).stem


def infer_direction(metric: str | None, display: str | None, *, metric_from_file: bool = False) -> tuple[bool | None, str]:
    """(direction, reason): from the metric's name, then from the file's name; (None, why not) if neither
    says. ``metric_from_file``: the metric's name was taken from the file's name (a wide table)."""
    if metric is not None and not metric_from_file:
        judged = _judge(metric)
        if judged is not None:
            better, why = judged
            return better, f"{'higher' if better else 'lower'} is better: the metric is named {metric} ({why})"
    judged = _judge(file_stem(display)) if display else None
    if judged is not None:
        better, why = judged
        return better, f"{'higher' if better else 'lower'} is better: the file is named {display} ({why})"
    if metric is not None and not metric_from_file:
        return None, (f"unknown: neither the metric's name ({metric}) nor the file's name ({display or 'none'}) says "
                      "whether a higher score is better")
    return None, (f"unknown: the metric has no name and the file's name ({display or 'none'}) does not say whether a "
                  "higher score is better")


def metric_from_file_name(display: str | None) -> str | None:
    """The name of a wide table's one metric when its file's name says it: 'error_rates.csv' ->
    'error_rates', 'demsar2006_table6_auc.csv' -> 'auc'; None when the name has no metric word."""
    return metric_from_text(file_stem(display))


def metric_from_text(text: str | None) -> str | None:
    """The first metric word of a name or a caption ('Table 3: Accuracy (%) of five classifiers' ->
    'accuracy', a sheet named 'AUC' -> 'auc'); None when there is none."""
    stem_words = words(text or "")
    for i, w in enumerate(stem_words):
        if _singular(w) in _HIGHER | _LOWER:
            if i + 1 < len(stem_words) and stem_words[i + 1] in ("rate", "rates"):
                return f"{w}_{stem_words[i + 1]}"
            if w == "auc" and i > 0 and stem_words[i - 1] == "roc":
                return "roc_auc"
            return w
    return None
