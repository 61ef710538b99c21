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

from compare_lib.multiple._adjust import DEFAULT_CORRECTION
from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST
from compare_lib.core._result import Result
from compare_lib.errors import ApproximationWarning, InputError, arg

# How the table was made (the reproducing script replays it): see compare_lib.core._provenance.
from compare_lib.core._provenance import READ_OPTIONS, TABLE_OPTIONS, Source  # noqa: E402,F401  (public here: cl.Source)


def _versions() -> dict:
    import scipy
    import statsmodels

    from compare_lib import __version__

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
    seed: int | None = 0
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
        from compare_lib.analyses._posthoc import as_posthoc_result

        return as_posthoc_result(self.posthoc)

    @functools.cached_property
    def rank_sets(self) -> pd.DataFrame | None:
        """The simultaneous rank sets projected from this analysis's own post-hoc decisions (None versus a
        control: they need every pair)."""
        if self.control is not None:
            return None
        from compare_lib.analyses._rank_sets import rank_sets_from_posthoc

        return rank_sets_from_posthoc(self.posthoc)

    @functools.cached_property
    def letters(self) -> dict:
        """The compact letter display of the post-hoc decisions (empty versus a control)."""
        if self.control is not None:
            return {}
        from compare_lib.analyses._letters import letters

        return letters(self.posthoc)

    def choices(self) -> dict:
        """Every choice the numbers depend on (the arguments of :func:`analyze` and the table's own)."""
        return {"alpha": self.alpha, "test": self.test, "correction": self.correction, "control": self.control,
                "rope": self.rope, "seed": self.seed, "effect_measure": self.effect_measure,
                "metric": self.table.metric, "higher_is_better": self.table.higher_is_better,
                "missing": self.table.missing}

    def paragraph(self) -> str:
        """The results paragraph for a paper (:func:`compare_lib.report.results_paragraph`)."""
        from compare_lib.render._report import bayesian_paragraph, results_paragraph

        text = results_paragraph(self.table, self.posthoc, self.omnibus.get("friedman"),
                                 self.omnibus.get("iman_davenport"), exact=self.omnibus.get("exact"),
                                 skillings_mack=self.omnibus.get("skillings_mack"))
        if self.bayesian is not None:
            text += "\n\n" + bayesian_paragraph(self.bayesian, metric=self.metric)
        return text

    def summary(self) -> str:
        """The main numbers as plain text (what the reproducing script prints)."""
        from compare_lib.render._document import summary_text

        return summary_text(self)

    def numbers(self) -> dict[str, float]:
        """The numbers the analysis shows, at full precision, by name: each omnibus test's statistic and
        p-value, the mean ranks, each pair's statistic, p-value and adjusted p-value (and the Bayesian
        probabilities with a ROPE). The reproducing script prints them for comparison."""
        from compare_lib.render._document import analysis_numbers

        return analysis_numbers(self)

    def __str__(self) -> str:
        return self.summary()

    # -- renderers -------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        from compare_lib.render._document import analysis_dict

        return analysis_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """The analysis as JSON: every number at full double precision (NaN and infinities as null)."""
        return json.dumps(_jsonable(self.to_dict()), indent=indent, ensure_ascii=False, allow_nan=False)

    def to_markdown(self, *, figures: bool = True) -> str:
        from compare_lib.render._document import markdown_report

        return markdown_report(self, figures=figures)

    def to_html(self, *, figures: bool = True, fragment: bool = False) -> str:
        """One self-contained HTML file (the CD diagram inline as SVG: no script, no network)."""
        from compare_lib.render._document import html_report

        return html_report(self, figures=figures, fragment=fragment)

    def to_latex(self, *, wide: str | None = None, width: float | None = None) -> str:
        """A LaTeX fragment for ``\\input``: the paragraph with natbib citations, the tables (booktabs), the CD
        diagram (TikZ) and the bibliography. Every table fits ``width`` pt (default: the article class's text
        width, 345 pt; a column of a two-column article is 229.5); ``wide="table*"`` puts the post-hoc and scores
        tables across both columns of a two-column document (469 pt), ``wide="landscape"`` on a page turned
        sideways (pdflscape, 550 pt). The first comment lines name the packages the preamble needs."""
        from compare_lib.render._document import latex_report

        return latex_report(self, wide=wide, width=width)

    def to_python(self) -> str:
        """A script that reproduces the analysis with the library alone, from any working folder: it reads the
        data file again where it was read (its absolute path; it stops with a message when the file is gone and
        warns when its SHA-256 changed) with the same options, metric, direction, missing-data policy,
        aggregation and selection; a table with no file on disk (pasted, uploaded, built in memory) travels in
        the script as analysed. It prints :meth:`numbers` for comparison."""
        from compare_lib.render._document import python_script

        return python_script(self)

    def references(self) -> list[dict]:
        """The works the analysis cites (its report's methods, paragraph and captions), each as plain data:
        ``key``, ``authors``, ``year``, ``title``, ``venue`` (and volume, number, pages, ``text``: the reference
        written out, ``bibtex``). The one list every format shows: the JSON report's ``references``, the reference
        list of the HTML and Markdown reports, the LaTeX report's bibliography and :meth:`to_bibtex`."""
        from compare_lib.render._document import report_references

        return report_references(self)

    def to_bibtex(self) -> str:
        """The BibTeX entries of exactly the works the analysis cites (:meth:`references`), for your .bib file;
        the LaTeX report cites them by these keys (``\\citep{demsar2006}``)."""
        return "\n\n".join(r["bibtex"] for r in self.references()) + "\n"

    def bibtex(self) -> str:
        """The same as :meth:`to_bibtex`."""
        return self.to_bibtex()

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
            control: str | None = None, rope: float | str | None = None, seed: int | None = 0,
            effect_measure: str = "hodges_lehmann", higher_is_better: bool | None = None,
            source: Source | dict | None = None, bayesian_samples: int = 50_000,
            progress: Callable[[float], None] | None = None) -> Analysis:
    """The whole analysis the dashboard shows for one table, as one result with its provenance.

    Parameters
    ----------
    table : ScoreTable, DataFrame (with ``higher_is_better``) or a path
        A path is read with :func:`compare_lib.load_scores` (the direction is ``higher_is_better`` when given,
        else looked up by the metric's name, and refused when unknown) and recorded as the source.
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
        How the table was made (file and options), for :meth:`Analysis.to_python`; by default the table's own
        record (:attr:`ScoreTable.provenance`: a table read with :func:`compare_lib.read_results` or
        :func:`compare_lib.load_scores` knows its file), else none (the script then carries the scores).
    progress : callable, optional
        Called with the fraction done (0 to 1) during the long steps.
    """
    from compare_lib.core._table import as_table
    from compare_lib.core._validation import check_alpha, check_seed

    seed = check_seed(seed)

    if isinstance(table, (str, Path)):
        from compare_lib.io import load_scores

        # A Path stays a path even when its name holds a line break; a str with one is the table's text.
        path = table if isinstance(table, Path) or "\n" not in table else None
        table = load_scores(Path(path) if path is not None else table,
                            higher_is_better=higher_is_better)
    t = as_table(table, higher_is_better)
    check_alpha(alpha)
    if isinstance(source, dict):
        source = Source(**source)
    if source is None:  # how the table was made, recorded by read_results, Results.table and subset
        source = getattr(t, "provenance", None)
    if control is not None and control not in t.classifiers:
        raise InputError(f"{arg('control', control)} is not among the classifiers ({', '.join(t.classifiers)}); pick "
                         f"one of them, or leave out {arg('control', bare=True)} to compare all pairs.")
    report = progress or (lambda fraction: None)
    from compare_lib.stats._effect_sizes import with_effect_sizes
    from compare_lib.analyses._posthoc import posthoc

    omnibus = _omnibus(t)
    report(0.2)
    frame = posthoc(t, test=test, correction=correction, control=control, alpha=alpha)
    frame = with_effect_sizes(frame, t, effect_measure)
    report(0.4)
    bayes = None
    if rope is not None:
        from compare_lib.stats._bayesian import bayesian_posthoc, suggest_rope

        if isinstance(rope, str):
            if rope != "auto":
                raise InputError(f"{arg('rope', rope)}: give a number in the units of the scores, or 'auto'.")
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
        from compare_lib.stats._skillings_mack import skillings_mack

        return {"skillings_mack": skillings_mack(t)}
    from compare_lib.stats._omnibus import friedman, iman_davenport, rm_anova

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ApproximationWarning)  # kept in the results' notes
        out = {"friedman": friedman(t), "iman_davenport": iman_davenport(t)}
        auto = friedman(t, method="auto")
    if auto.method == "exact":
        out["exact"] = auto
    out["anova"] = rm_anova(t)
    return out
