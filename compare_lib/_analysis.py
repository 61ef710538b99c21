"""One call for the whole analysis of a score table, carrying its provenance (autorank's idea: everything
downstream — the report, LaTeX, JSON, the reproducing script — takes only the result).

    a = cl.analyze(table, test="wilcoxon", correction="holm")
    a.to_html(), a.to_markdown(), a.to_latex(), a.to_json(), a.to_python()

The steps are the dashboard's: the omnibus tests (Friedman, Iman-Davenport with the exact permutation
p-value where it is computable, the repeated-measures ANOVA; Skillings-Mack for a table with missing
cells), the post-hoc comparisons of the chosen test and family-wise procedure with effect sizes, the CD
diagram's layout and, with a ROPE, the Bayesian signed-rank comparisons (Benavoli et al. 2017).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import platform
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from ._adjust import DEFAULT_CORRECTION
from ._pairwise_tests import RECOMMENDED_TEST
from ._result import Result
from .errors import ApproximationWarning, InputError

#: Keyword arguments of :func:`compare_lib.read_results` a source may record (for the reproducing script).
READ_OPTIONS = ("format", "sheet", "sep", "decimal", "layout", "dataset_col", "classifier_col", "metric_col",
                "value_col", "fold_cols")
#: Keyword arguments of :meth:`compare_lib.Results.table` a source may record.
TABLE_OPTIONS = ("metric", "higher_is_better", "missing", "aggregate")


@dataclasses.dataclass(frozen=True)
class Source:
    """How the table was read, so that a script can read it again: the file (its name, looked up next to
    the script), the reader's options, the table's options (metric, direction, missing-data policy,
    aggregation of folds) and a selection of classifiers and data sets made afterwards."""

    path: str
    read: dict = dataclasses.field(default_factory=dict)
    table: dict = dataclasses.field(default_factory=dict)
    classifiers: tuple[str, ...] | None = None
    datasets: tuple[str, ...] | None = None

    def __post_init__(self):
        unknown = (set(self.read) - set(READ_OPTIONS)) | (set(self.table) - set(TABLE_OPTIONS))
        if unknown:
            raise InputError(f"Source: unknown option(s) {', '.join(sorted(map(str, unknown)))}; read options are "
                             f"{', '.join(READ_OPTIONS)}; table options are {', '.join(TABLE_OPTIONS)}.")


def _versions() -> dict:
    import scipy
    import statsmodels

    from . import __version__

    return {"compare_lib": __version__, "python": platform.python_version(), "numpy": np.__version__,
            "pandas": pd.__version__, "scipy": scipy.__version__, "statsmodels": statsmodels.__version__}


@dataclasses.dataclass(frozen=True, eq=False)
class Analysis(Result):
    """The whole analysis of one table (see :func:`analyze`): the results and every choice that made them.

    ``posthoc`` is the post-hoc DataFrame of the chosen test and procedure with effect sizes (provenance in
    its ``attrs``); ``omnibus`` maps test names to their results; ``bayesian`` is the
    :func:`compare_lib.bayesian_posthoc` frame when a ROPE was given. Render with :meth:`to_html`,
    :meth:`to_markdown`, :meth:`to_latex`, :meth:`to_json` and :meth:`to_python`; a notebook shows
    :meth:`_repr_html_`.
    """

    table: Any = dataclasses.field(repr=False)
    alpha: float = 0.05
    test: str = RECOMMENDED_TEST
    correction: str = DEFAULT_CORRECTION
    control: str | None = None
    rope: float | None = None
    seed: int = 0
    effect_measure: str = "hodges_lehmann"
    omnibus: dict = dataclasses.field(default_factory=dict, repr=False)
    posthoc: pd.DataFrame | None = dataclasses.field(default=None, repr=False)
    bayesian: pd.DataFrame | None = dataclasses.field(default=None, repr=False)
    source: Source | None = None
    versions: dict = dataclasses.field(default_factory=dict, repr=False)
    notes: tuple[str, ...] = ()

    # -- what the renderers share -----------------------------------------------------------------------
    @property
    def metric(self) -> str:
        return self.table.metric or "score"

    @property
    def mean_ranks(self) -> pd.Series:
        return self.table.mean_ranks

    @property
    def posthoc_result(self):
        from ._posthoc import as_posthoc_result

        return as_posthoc_result(self.posthoc)

    @functools.cached_property
    def rank_sets(self) -> pd.DataFrame | None:
        """The simultaneous rank sets projected from this analysis's own post-hoc decisions (None versus a
        control: they need every pair)."""
        if self.control is not None:
            return None
        from ._rank_sets import rank_sets_from_posthoc

        return rank_sets_from_posthoc(self.posthoc)

    @functools.cached_property
    def letters(self) -> dict:
        """The compact letter display of the post-hoc decisions (empty versus a control)."""
        if self.control is not None:
            return {}
        from ._letters import letters

        return letters(self.posthoc)

    def choices(self) -> dict:
        """Every choice the numbers depend on (the arguments of :func:`analyze` and the table's own)."""
        return {"alpha": self.alpha, "test": self.test, "correction": self.correction, "control": self.control,
                "rope": self.rope, "seed": self.seed, "effect_measure": self.effect_measure,
                "metric": self.table.metric, "higher_is_better": self.table.higher_is_better,
                "missing": self.table.missing}

    def paragraph(self) -> str:
        """The results paragraph for a paper (:func:`compare_lib.report.results_paragraph`)."""
        from .report import bayesian_paragraph, results_paragraph

        text = results_paragraph(self.table, self.posthoc, self.omnibus.get("friedman"),
                                 self.omnibus.get("iman_davenport"), exact=self.omnibus.get("exact"),
                                 skillings_mack=self.omnibus.get("skillings_mack"))
        if self.bayesian is not None:
            text += "\n\n" + bayesian_paragraph(self.bayesian, metric=self.metric)
        return text

    def summary(self) -> str:
        """The main numbers as plain text (what the reproducing script prints)."""
        from ._document import summary_text

        return summary_text(self)

    def __str__(self) -> str:
        return self.summary()

    # -- renderers -------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        from ._document import analysis_dict

        return analysis_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The analysis as JSON: every number at full double precision (NaN and infinities as null)."""
        return json.dumps(_jsonable(self.to_dict()), indent=indent, ensure_ascii=False, allow_nan=False)

    def to_markdown(self, *, figures: bool = True) -> str:
        from ._document import markdown_report

        return markdown_report(self, figures=figures)

    def to_html(self, *, figures: bool = True, fragment: bool = False) -> str:
        """One self-contained HTML file (the CD diagram inline as SVG: no script, no network)."""
        from ._document import html_report

        return html_report(self, figures=figures, fragment=fragment)

    def to_latex(self) -> str:
        """A LaTeX fragment for ``\\input``: the tables (booktabs) and the CD diagram (TikZ)."""
        from ._document import latex_report

        return latex_report(self)

    def to_python(self) -> str:
        """A script that reproduces the analysis with the library alone, from the data file (looked up next
        to the script) or, without one, from the scores written into the script."""
        from ._document import python_script

        return python_script(self)

    def bibtex(self) -> str:
        from ._references import bibtex

        from ._document import RANK_SET_NOTE

        return bibtex(self.paragraph() + " Friedman 1937; Iman & Davenport 1980" + (" " + RANK_SET_NOTE if self.control is None else ""))

    def _repr_html_(self) -> str:
        return self.to_html(fragment=True)


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, pd.Series):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    return value


def analyze(table, *, alpha: float = 0.05, test: str = RECOMMENDED_TEST, correction: str = DEFAULT_CORRECTION,
            control: str | None = None, rope: float | str | None = None, seed: int = 0,
            effect_measure: str = "hodges_lehmann", higher_is_better: bool | None = None,
            source: Source | dict | None = None, bayesian_samples: int = 50_000,
            progress: Callable[[float], None] | None = None) -> Analysis:
    """The whole analysis the dashboard shows for one table, as one result with its provenance.

    Parameters
    ----------
    table : ScoreTable, DataFrame (with ``higher_is_better``) or a path
        A path is read with :func:`compare_lib.load_scores` (higher is better unless said) and recorded as
        the source.
    alpha : float
        Family-wise significance level.
    test, correction, control :
        The post-hoc comparison, as for :func:`compare_lib.posthoc` (default: Wilcoxon signed-ranks with
        Holm's procedure over all pairs, Benavoli et al. 2016's recommendation).
    rope : float or "auto", optional
        With a region of practical equivalence, the Bayesian signed-rank test compares every pair too
        ("auto": :func:`compare_lib.suggest_rope`); ``seed`` and ``bayesian_samples`` make it reproducible.
    effect_measure : str
        The effect size reported with each pair (:func:`compare_lib.with_effect_sizes`).
    source : Source or dict, optional
        How the table was read (file name and options), for :meth:`Analysis.to_python`.
    progress : callable, optional
        Called with the fraction done (0 to 1) during the long steps.
    """
    from ._table import as_table
    from ._validation import check_alpha, check_seed

    seed = check_seed(seed)

    if isinstance(table, (str, Path)):
        from .io import load_scores

        # A Path stays a path even when its name holds a line break; a str with one is the table's text.
        path = table if isinstance(table, Path) or "\n" not in table else None
        table = load_scores(Path(path) if path is not None else table,
                            higher_is_better=True if higher_is_better is None else higher_is_better)
        if path is not None:
            source = source or Source(Path(path).name, table={"higher_is_better": table.higher_is_better})
    t = as_table(table, higher_is_better)
    check_alpha(alpha)
    if isinstance(source, dict):
        source = Source(**source)
    if control is not None and control not in t.classifiers:
        raise InputError(f"control={control!r} is not among the classifiers ({', '.join(t.classifiers)}); pick one of "
                         "them, or leave control out to compare all pairs.")
    report = progress or (lambda fraction: None)
    from ._effect_sizes import with_effect_sizes
    from ._posthoc import posthoc

    omnibus = _omnibus(t)
    report(0.2)
    frame = posthoc(t, test=test, correction=correction, control=control, alpha=alpha)
    frame = with_effect_sizes(frame, t, effect_measure)
    report(0.4)
    bayes = None
    if rope is not None:
        from ._bayesian import bayesian_posthoc, suggest_rope

        if isinstance(rope, str):
            if rope != "auto":
                raise InputError(f"rope={rope!r}: give a number in the units of the scores, or 'auto'.")
            rope = suggest_rope(t)[0]
        bayes = bayesian_posthoc(t, rope=float(rope), seed=seed, samples=bayesian_samples,
                                 progress=lambda f: report(0.4 + 0.6 * f))
    report(1.0)
    notes = tuple(dict.fromkeys(n for r in omnibus.values() for n in getattr(r, "notes", ())))
    return Analysis(table=t, alpha=float(alpha), test=frame.attrs["test"], correction=frame.attrs["correction"],
                    control=control, rope=None if rope is None else float(rope), seed=seed,
                    effect_measure=effect_measure, omnibus=omnibus, posthoc=frame, bayesian=bayes, source=source,
                    versions=_versions(), notes=notes + tuple(frame.attrs.get("notes", ())))


def _omnibus(t) -> dict:
    """The omnibus tests the dashboard shows: Skillings-Mack for a table with holes, else Friedman,
    Iman-Davenport, the exact permutation p where computable, and the repeated-measures ANOVA."""
    if t.has_missing:
        from ._skillings_mack import skillings_mack

        return {"skillings_mack": skillings_mack(t)}
    from ._omnibus import friedman, iman_davenport, rm_anova

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ApproximationWarning)  # kept in the results' notes
        out = {"friedman": friedman(t), "iman_davenport": iman_davenport(t)}
        auto = friedman(t, method="auto")
    if auto.method == "exact":
        out["exact"] = auto
    out["anova"] = rm_anova(t)
    return out
