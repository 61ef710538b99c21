"""Shareable links: every page writes its whole view into the URL, and a link restores it.

A link records the table (a sample by name; the user's own table compressed into the link when it is
small enough, else only its fingerprint), the classifiers kept and the data sets left out, α, the
direction and each page's choices. Everything read from a link is validated; a value that does not fit
is reported on the page (escaped: link text is never rendered as Markdown) and replaced by the default,
never raised. A link that carries only a fingerprint is applied after the recipient loads a table with
the same fingerprint; a different table is named as such and the view is not applied.

Links carry what a view shows (issue 28): a page's link also carries the choices of other pages that the view
displays or uses (:data:`CROSS_PAGE`: the post-hoc procedure beside the Bayesian matrix and in the family-wise
demo, the experiment behind a fold-level view); the settings of every run and demo are choices like the others
(the experiment form, the selection experiment, the power curve, the family-wise, Example 2 and relevance demos),
with a flag saying the view showed the run's results, so that the receiver is told to press Run (never shown the
sample instead). A fingerprint link (``fp=``, with the file's short name ``fpname=`` and shape ``fpshape=``) keeps
its parameters in the address until the matching table is loaded, so a reload keeps it, and every page says which
table the view awaits and what is shown meanwhile.
"""

from __future__ import annotations

import base64
import json
import logging
import math
import os
import re
import unicodedata
import zlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import streamlit as st

import compare_lib as cl
import state

#: The user's own table travels inside the link up to this many characters (compressed, base64url):
#: about 200 data sets x 10 classifiers of accuracies. Whoever has such a link has the data.
MAX_LINK_DATA_CHARS = cl.limits.APP_MAX_LINK_DATA_CHARS
#: A link's table may decompress to at most this many bytes (a zip bomb in a link is refused).
MAX_LINK_DATA_BYTES = cl.limits.APP_MAX_LINK_DATA_BYTES
#: At most this many of the table's notes travel with a table in a link.
MAX_LINK_NOTES = 20
#: Left-out data sets are listed by name up to this many characters, else compressed by position.
MAX_DROP_CHARS = cl.limits.APP_MAX_DROP_CHARS

Bound = Any  # a number, or a function of the analysed table giving one (the widget's range depends on it)


@dataclass(frozen=True)
class Choice:
    """One persisted choice of a page, declared once: the link's parameter, the session-state key where the page
    keeps the value (and reads its default from), the kind of value, the page, and the widget that sets it (its
    key, without the table-version suffix some widgets carry). :func:`share_view` writes every choice of a page
    from the session; a link restores them; a test checks that every keyed widget is declared here or in
    :data:`NOT_IN_LINKS`.

    What a link may set (issue 27), checked before the value reaches the session: ``lo``/``hi`` (numbers, or
    functions of the analysed table) are the range the page's widget offers, open at ``lo``/``hi`` when
    ``lo_open``/``hi_open``; ``options`` (a tuple, or a function of the analysed table) the values it offers,
    for text, whole numbers and each item of a list. A text without ``options`` is checked by its page against
    data the link cannot see (fold-level results), or says itself which value it cannot offer (the post-hoc
    family, test and effect, the pool's procedure, the tabs), and is only bounded in length here."""

    param: str
    key: str
    kind: str  # "str", "bool", "float", "int" or "list"
    page: str
    widget: str
    #: The value a link leaves out (the page's default), so that links stay short.
    default: Any = None
    #: Where the value comes from when it is not simply ``session_state[key]`` (None: leave it out of the link).
    read: Callable[[Any], Any] | None = field(default=None, compare=False)
    lo: Bound = field(default=None, compare=False)
    hi: Bound = field(default=None, compare=False)
    lo_open: bool = False
    hi_open: bool = False
    options: tuple | Callable[[cl.ScoreTable], Any] | None = field(default=None, compare=False)
    #: For a text the page's form takes as typed (issue 28: a classifier's class path, a list of means): whether
    #: the link's text is one the form accepts, and what such a text is (for the message).
    valid: Callable[[str], bool] | None = field(default=None, compare=False)
    what: str = ""

    def value(self, ss) -> Any:
        value = self.read(ss) if self.read is not None else ss.get(self.key)
        if value is None or value == self.default:
            return None
        if self.kind == "list" and isinstance(self.default, tuple) and list(value) == list(self.default):
            return None
        return value


def _kept(table: cl.ScoreTable) -> tuple[str, ...]:
    """The classifiers a page offers: those of the analysed table (after the link's selection)."""
    return tuple(table.classifiers)


def _tests(table: cl.ScoreTable) -> tuple[str, ...]:
    return tuple(cl.PAIRWISE_TESTS)


def _pool_statistics(table: cl.ScoreTable) -> tuple[str, ...]:
    return ("none",) + tuple(x for x, spec in cl.PAIRWISE_TESTS.items() if spec.pool_dependent and not spec.mean_ranks)


def _forest_measures(table: cl.ScoreTable) -> tuple[str, ...]:
    return tuple(code for code, (low, _, _) in cl.effect_size_measures().items() if low)


def _rope_max(table: cl.ScoreTable) -> float:
    """The Bayesian page's ROPE widget offers 0 to ten times the suggested ROPE."""
    return max(cl.suggest_rope(table)[0] * 10, 1e-9)


# What the pages offer (the pages are scripts and cannot be imported; the round-trip tests of
# tests/test_links_complete.py fail if a page offers a value that is not listed here).
LOAD_VIEWS = ("Scores (rank)", "Ranks", "Wins / ties / losses", "Fold-level rows", "Across metrics")
OMNIBUS_CHARTS = ("Mean ranks", "Ranks per data set")
POSTHOC_VIEWS = ("CD diagram", "How sure is the ranking?", "Adjusted p-values", "Where procedures disagree",
                 "Wins / ties / losses", "Report")
BAYES_VIEWS = ("One pair", "All pairs", "Effect sizes", "Fold-level results", "Hierarchical (fold level)", "Who is best?",
               "Significance is not relevance")
FOLD_SOURCES = ("The fold-level rows of the loaded table", "Sample (3 classifiers, 6 data sets, 10 seeds)",
                "Upload a fold-level file", "The experiment run on the Replicability page")
#: The seeds of the Replicability page; the Bayesian page's seed widget offers 0 to 2**31 - 1.
MAX_SEED = cl.limits.MAX_SEED
BAYES_MAX_SEED = 2**31 - 1
#: The Replicability page's bounds (its widgets state them).
PLAN_MAX_N, PLAN_MAX_REPS = 200, 5000

# The forms of runs and demos (issue 28): their inputs travel like every other choice, with their bounds here.
#: The Replicability page's experiment form.
EXPERIMENT_CLASSIFIERS = ("naive Bayes", "decision tree", "k-NN")
EXPERIMENT_DATASETS = ("iris", "wine")
EXPERIMENT_SCHEMES = ("5x2cv", "10-fold cv", "10x10-fold cv", "subsampling 30 x 10%")
EXPERIMENT_MAX_SEEDS = 100
#: The longest class path (with its JSON arguments) the experiment form takes.
MAX_CLASSIFIER_SPEC = 300
#: The pool page's demos: the family-wise demo's largest k and tables per k, Example 2's data sets and repetitions.
FWER_MAX_K, FWER_MAX_N, FWER_MAX_REPS = 15, 200, 5000
DEMO2_MAX_N, DEMO2_MAX_REPS, DEMO2_MAX_MEANS = 500, 20000, 20

_CLASS_PATH = re.compile(r"sklearn(?:\.[A-Za-z_][A-Za-z0-9_]*){2,}\s*(\{.*\})?", re.S)


def classifier_spec_ok(text: str) -> bool:
    """Whether ``text`` has the shape of a scikit-learn classifier the experiment form takes ('sklearn.module.Class',
    optionally followed by a JSON object of arguments). Which modules and classes are allowed is checked by
    compare_lib when the experiment runs (the receiver presses Run: nothing is imported from a link)."""
    match = _CLASS_PATH.fullmatch(text.strip()) if len(text) <= MAX_CLASSIFIER_SPEC else None
    if match is None:
        return False
    if match.group(1):
        try:
            return isinstance(json.loads(match.group(1)), dict)
        except (ValueError, RecursionError):
            return False
    return True


def means_ok(text: str) -> bool:
    """Whether ``text`` is what Example 2's form takes: at most 20 numbers from -100 to 100, separated by commas."""
    parts = [x for x in text.replace(";", ",").split(",") if x.strip()]
    if len(text) > MAX_CLASSIFIER_SPEC or len(parts) > DEMO2_MAX_MEANS:
        return False
    values = [parse_float(x) for x in parts]
    return all(v is not None and abs(v) <= 100 for v in values)


def _two_sample_tests(table: cl.ScoreTable) -> tuple[str, ...]:
    """The family-wise demo's tests: those that look at the two classifiers only."""
    return tuple(x for x, spec in cl.PAIRWISE_TESTS.items() if not spec.pool_dependent)

CHOICES: tuple[Choice, ...] = (
    Choice("lview", "load_preview", "str", "load_data", "w_preview_view", "Scores (rank)", options=LOAD_VIEWS),
    Choice("tie", "om_tie", "bool", "omnibus", "w_tie_correction", False),
    Choice("ochart", "om_chart", "str", "omnibus", "w_om_chart", "Mean ranks", options=OMNIBUS_CHARTS),
    # family, test, effect, pproc, ptab and rtab: the page itself says which value of the link it cannot offer.
    Choice("family", "ph_family", "str", "posthoc", "w_ph_family"),
    Choice("test", "ph_test", "str", "posthoc", "w_ph_test"),
    Choice("correction", "ph_correction", "str", "posthoc", "w_ph_correction", options=lambda t: tuple(cl.PROCEDURES)),
    Choice("control", "ph_control", "str", "posthoc", "w_ph_control",
           read=lambda ss: ss.get("ph_control") if ss.get("ph_family") == "control" else None, options=_kept),
    Choice("view", "ph_view", "str", "posthoc", "w_ph_view", options=POSTHOC_VIEWS),
    Choice("effect", "ph_effect", "str", "posthoc", "w_ph_effect"),
    Choice("pboot", "ph_boot", "bool", "posthoc", "w_ph_boot", False),
    Choice("pproc", "pool_correction", "str", "pool", "w_pool_proc"),
    Choice("pfriedman", "pool_friedman", "bool", "pool", "w_pool_friedman"),
    Choice("pstat", "pool_statistic", "str", "pool", "w_pool_statistic", "none", options=_pool_statistics),
    Choice("member", "pool_members", "list", "pool", "w_pool_members",
           read=lambda ss: list(ss["pool_members"]) if ss.get("pool_members") and list(ss["pool_members"])
           != state.kept_classifiers() else None, options=_kept),
    Choice("pa", "pool_a", "str", "pool", "w_pool_a", options=_kept),
    Choice("pb", "pool_b", "str", "pool", "w_pool_b", options=_kept),
    Choice("ptab", "pool_tab", "str", "pool", "w_pool_tab", "Subset explorer"),
    Choice("ra", "rep_a", "str", "replicability", "w_rep_a", options=_kept),
    Choice("rb", "rep_b", "str", "replicability", "w_rep_b", options=_kept),
    Choice("rnsets", "rep_nsets", "int", "replicability", "w_rep_nsets", lo=2, hi=lambda t: t.n_datasets - 1),
    Choice("rsamples", "rep_samples", "int", "replicability", "w_rep_samples", 1000, lo=50, hi=20000),
    Choice("rkmax", "rep_kmax", "int", "replicability", "w_rep_kmax", 20, lo=0, hi=50),
    Choice("rkstep", "rep_kstep", "int", "replicability", "w_rep_kstep", 2, lo=1, hi=10),
    Choice("rtest", "rep_tests", "list", "replicability", "w_rep_tests", options=lambda t: tuple(cl.SELECTION_TESTS)),
    Choice("rseed", "rep_seed", "int", "replicability", "w_rep_seed", 0, lo=0, hi=MAX_SEED),
    Choice("rtab", "rep_tab", "str", "replicability", "w_rep_tab", "How replicable is my verdict?"),
    Choice("qa", "plan_a", "str", "replicability", "w_plan_a", options=_kept),
    Choice("qb", "plan_b", "str", "replicability", "w_plan_b", options=_kept),
    Choice("qdiff", "plan_diff", "float", "replicability", "w_plan_diff", lo=-1e12, hi=1e12, lo_open=True,
           hi_open=True),
    Choice("qtest", "plan_test", "str", "replicability", "w_plan_test", options=_tests),
    Choice("qnmax", "plan_nmax", "int", "replicability", "w_plan_nmax", lo=5, hi=PLAN_MAX_N),
    Choice("qreps", "plan_reps", "int", "replicability", "w_plan_reps", 500, lo=100, hi=PLAN_MAX_REPS),
    Choice("qseed", "plan_seed", "int", "replicability", "w_plan_seed", 0, lo=0, hi=MAX_SEED),
    Choice("fsrc", "fold_source", "str", "replicability", "w_fold_source", options=FOLD_SOURCES),
    Choice("fa", "fold_a", "str", "replicability", "w_fold_a"),
    Choice("fb", "fold_b", "str", "replicability", "w_fold_b"),
    Choice("fscheme", "fold_scheme", "str", "replicability", "w_fold_scheme"),
    Choice("ftest", "fold_test", "str", "replicability", "w_fold_test"),
    Choice("fratio", "fold_ratio", "float", "replicability", "w_fold_ratio", lo=0, hi=100, lo_open=True),
    Choice("btest", "bay_test", "str", "bayesian", "w_bay_test", options=("signed-rank", "sign")),
    Choice("rope", "bay_rope", "float", "bayesian", "w_bay_rope", lo=0, hi=_rope_max),
    Choice("bprior", "bay_prior_link", "float", "bayesian", "w_bay_prior",
           read=lambda ss: ss.get(f"bay_prior_{ss.get('bay_test', 'signed-rank')}"), lo=0.1, hi=10.0),
    Choice("bdec", "bay_decision", "float", "bayesian", "w_bay_decision", 0.95, lo=0.8, hi=0.99),
    Choice("bsamples", "bay_samples", "int", "bayesian", "w_bay_samples", 50_000,
           options=(10_000, 20_000, 50_000, 100_000)),
    Choice("bseed", "bay_seed", "int", "bayesian", "w_bay_seed", 0, lo=0, hi=BAYES_MAX_SEED),
    Choice("bview", "bay_view", "str", "bayesian", "w_bay_view", options=BAYES_VIEWS),
    Choice("ba", "bay_a", "str", "bayesian", "w_bay_a", options=_kept),
    Choice("bb", "bay_b", "str", "bayesian", "w_bay_b", options=_kept),
    Choice("bmeasure", "bay_measure", "str", "bayesian", "w_bay_measure", options=_forest_measures),
    Choice("bfocus", "bay_forest_focus", "str", "bayesian", "w_bay_forest_focus", options=_kept),
    Choice("bfsrc", "bfold_source", "str", "bayesian", "w_bfold_source", options=FOLD_SOURCES),
    Choice("bfa", "bfold_a", "str", "bayesian", "w_bfold_a"),
    Choice("bfb", "bfold_b", "str", "bayesian", "w_bfold_b"),
    Choice("bfratio", "bfold_ratio", "float", "bayesian", "w_bfold_ratio", lo=0, hi=100, lo_open=True),
    Choice("bfhigher", "bfold_higher", "bool", "bayesian", "w_bfold_higher", True),
    Choice("bfrope", "bfold_rope", "float", "bayesian", "w_bfold_rope", lo=0, hi=1e12, hi_open=True),
    Choice("bfscheme", "bfold_scheme", "str", "bayesian", "w_bfold_scheme"),
    Choice("bfds", "bfold_ds", "str", "bayesian", "w_bfold_ds"),
    Choice("bfseed", "bfold_seed", "str", "bayesian", "w_bfold_seed"),
    # The "Hierarchical (fold level)" view (issue 29, dashboard/view_hierarchical.py; its seed is the page's, bseed).
    Choice("bhsrc", "bhier_source", "str", "bayesian", "w_bhier_source", options=FOLD_SOURCES),
    Choice("bha", "bhier_a", "str", "bayesian", "w_bhier_a"),
    Choice("bhb", "bhier_b", "str", "bayesian", "w_bhier_b"),
    Choice("bhhigher", "bhier_higher", "bool", "bayesian", "w_bhier_higher", True),
    Choice("bhscheme", "bhier_scheme", "str", "bayesian", "w_bhier_scheme"),
    Choice("bhrope", "bhier_rope", "float", "bayesian", "w_bhier_rope", lo=0, hi=1e12),
    Choice("bhprior", "bhier_prior", "str", "bayesian", "w_bhier_prior", "paper", options=("paper", "baycomp")),
    Choice("bhsamples", "bhier_samples", "int", "bayesian", "w_bhier_samples", 1000, options=(500, 1000, 2000, 4000)),
    Choice("bhsens", "bhier_sens", "bool", "bayesian", "w_bhier_sens", True),
    Choice("bhaccept", "bhier_accept", "float", "bayesian", "w_bhier_accept", 0.8, options=(0.8, 0.9, 0.95, 0.99)),
    Choice("bhran", "bhier_ran", "bool", "bayesian", "FormSubmitter:hierarchical-Run the hierarchical test", False),
    # The "Who is best?" view (issue 29, dashboard/view_ranking.py; its seed is the page's, bseed).
    Choice("bkmodel", "rank_model", "str", "bayesian", "w_rank_model", "plackett-luce",
           options=("plackett-luce", "bradley-terry-davidson")),
    Choice("bksamples", "rank_samples", "int", "bayesian", "w_rank_samples", 4000, options=(1000, 2000, 4000, 8000)),
    Choice("bkprior", "rank_prior", "float", "bayesian", "w_rank_prior", 1.0, lo=0.1, hi=100.0),
    Choice("bkssd", "rank_ssd", "float", "bayesian", "w_rank_ssd", 2.0, lo=0.1, hi=100.0),
    Choice("bktsd", "rank_tsd", "float", "bayesian", "w_rank_tsd", 2.0, lo=0.1, hi=100.0),
    # Runs and demos (issue 28). Each has a flag (``...ran``) saying that the view showed the run's results: the
    # receiver is told to press Run, with the form filled in from the link (nothing is run without the user).
    Choice("rran", "rep_ran", "bool", "replicability", "w_rep_run", False),
    Choice("qran", "plan_ran", "bool", "replicability", "w_plan_run", False),
    Choice("eclf", "exp_classifiers", "list", "replicability", "w_exp_classifiers", EXPERIMENT_CLASSIFIERS,
           options=lambda t: tuple(cl.BUILTIN_CLASSIFIERS)),
    Choice("eextra", "exp_extra", "str", "replicability", "w_exp_extra", "", valid=classifier_spec_ok,
           what="a scikit-learn classifier's class path such as 'sklearn.svm.SVC' (optionally with JSON arguments)"),
    Choice("eds", "exp_datasets", "list", "replicability", "w_exp_datasets", EXPERIMENT_DATASETS,
           options=lambda t: tuple(cl.BUILTIN_DATASETS)),
    Choice("escheme", "exp_schemes", "list", "replicability", "w_exp_schemes", ("5x2cv",), options=EXPERIMENT_SCHEMES),
    Choice("eseeds", "exp_seeds", "int", "replicability", "w_exp_seeds", 10, lo=2, hi=EXPERIMENT_MAX_SEEDS),
    Choice("eran", "exp_ran", "bool", "replicability", "FormSubmitter:experiment-Run", False),
    Choice("fwk", "fw_kmax", "int", "pool", "w_fw_kmax", 10, lo=3, hi=FWER_MAX_K),
    Choice("fwn", "fw_n", "int", "pool", "w_fw_n", 20, lo=5, hi=FWER_MAX_N),
    Choice("fwreps", "fw_reps", "int", "pool", "w_fw_reps", 500, lo=100, hi=FWER_MAX_REPS),
    Choice("fwtest", "fw_test", "str", "pool", "w_fw_test", "wilcoxon", options=_two_sample_tests),
    Choice("fwbetter", "fw_better", "int", "pool", "w_fw_better", 2, lo=1, hi=5),
    Choice("fwshift", "fw_shift", "float", "pool", "w_fw_shift", 1.0, lo=0.1, hi=5.0),
    Choice("fwran", "fw_ran", "bool", "pool", "FormSubmitter:fwer_demo-Run the simulation", False),
    Choice("d2b", "d2_mean_b", "float", "pool", "w_d2_mean_b", 1.5, lo=-100, hi=100),
    Choice("d2n", "d2_n", "int", "pool", "w_d2_n", 20, lo=5, hi=DEMO2_MAX_N),
    Choice("d2reps", "d2_reps", "int", "pool", "w_d2_reps", 2000, lo=100, hi=DEMO2_MAX_REPS),
    Choice("d2others", "d2_others", "str", "pool", "w_d2_others", "5, 6, 7", valid=means_ok,
           what=f"at most {DEMO2_MAX_MEANS} numbers from -100 to 100 separated by commas"),
    Choice("d2seed", "d2_seed", "int", "pool", "w_d2_seed", 0, lo=0, hi=BAYES_MAX_SEED),
    Choice("d2ran", "d2_ran", "bool", "pool", "FormSubmitter:demo2-Run the simulation", False),
    Choice("bddelta", "bdemo_delta", "float", "bayesian", "w_bdemo_delta", 0.003, lo=-1.0, hi=1.0),
    Choice("bdnoise", "bdemo_noise", "float", "bayesian", "w_bdemo_noise", 0.01, lo=0.0001, hi=1.0),
    Choice("bdrope", "bdemo_rope", "float", "bayesian", "w_bdemo_rope", 0.01, lo=0.0, hi=1.0),
    Choice("bdran", "bdemo_ran", "bool", "bayesian", "FormSubmitter:relevance-Run the demo", False),
    # The Per-task comparison page (issue 30): item-level results.
    Choice("iview", "items_view", "str", "items", "w_items_view", "Pairs × tasks", options=lambda t: ITEM_VIEWS),
    Choice("ia", "items_a", "str", "items", "w_items_a", options=_kept),
    Choice("ib", "items_b", "str", "items", "w_items_b", options=_kept),
    Choice("itest", "items_test", "str", "items", "w_items_test", "auto", options=lambda t: tuple(cl.ITEM_TESTS)),
    Choice("icluster", "items_cluster", "bool", "items", "w_items_cluster", False),
    Choice("icorr", "items_correction", "str", "items", "w_items_correction", cl.DEFAULT_CORRECTION,
           options=lambda t: tuple(cl.ITEM_CORRECTIONS)),
    Choice("ireps", "items_reps", "int", "items", "w_items_reps", 10_000, lo=100, hi=lambda t: ITEM_MAX_REPS),
    Choice("iseed", "items_seed", "int", "items", "w_items_seed", 0, lo=0, hi=MAX_SEED),
    Choice("idiff", "items_d", "float", "items", "w_items_d", 0.05, lo=lambda t: ITEM_MIN_D, hi=lambda t: ITEM_MAX_D),
    Choice("ipower", "items_power", "float", "items", "w_items_power", 0.8, lo=0.5, hi=0.99),
)

#: The views and bounds of the Per-task comparison page (issue 30): replicates of a random test (the page also
#: keeps replicates x items x pairs within its work budget, saying so), the difference planned for.
ITEM_VIEWS = ("Pairs × tasks", "One pair, task by task", "Planning")
ITEM_MAX_REPS = 100_000
ITEM_MIN_D, ITEM_MAX_D = 1e-4, 1e6

#: The experiment form's parameters (a fold-level view built on the experiment carries them, whatever its page).
EXPERIMENT_PARAMS = ("eclf", "eextra", "eds", "escheme", "eseeds", "eran")


def _bayes_folds_on_experiment(ss) -> bool:
    return ((ss.get("bay_view") == "Fold-level results" and ss.get("bfold_source") == FOLD_SOURCES[3])
            or (ss.get("bay_view") == "Hierarchical (fold level)" and ss.get("bhier_source") == FOLD_SOURCES[3]))


#: Choices made on another page that a page's view displays or uses (issue 28), with when it does: its link
#: carries them too. The Bayesian "All pairs" view puts the post-hoc procedure's adjusted p-values beside its
#: matrix; the family-wise demo of the pool page runs the post-hoc procedure too; a Bayesian fold-level view of
#: the experiment shows the results of the Replicability page's experiment form. (α, the direction, the metric,
#: the aggregation and the selection are in every link: :func:`_view_params`.)
CROSS_PAGE: dict[str, tuple[tuple[str, Callable[[Any], bool]], ...]] = {
    "bayesian": (("correction", lambda ss: ss.get("bay_view") == "All pairs"),
                 *((param, _bayes_folds_on_experiment) for param in EXPERIMENT_PARAMS)),
    "pool": (("correction", lambda ss: ss.get("pool_tab") == "Teaching demos"),),
}

#: Keyed widgets that are deliberately not in links, with the reason (the completeness test reads this).
NOT_IN_LINKS: dict[str, str] = {
    "w_sample": "the sample travels as ?sample=",
    "w_source": "how a table is being loaded, not a view of it",
    "w_upload": "a file never travels by link (its table does, as ?data= or ?fp=)",
    "w_paste": "as w_upload", "w_paste_load": "a button",
    "w_layout": "how a file is read: the table itself travels", "w_missing": "as w_layout",
    "w_format": "as w_layout", "w_sheet": "as w_layout", "w_loaded_missing": "as w_layout (?data= keeps the policy)",
    "w_metric": "travels as ?metric=", "w_aggregate": "travels as ?agg=",
    "w_direction": "travels as ?dir=", "w_direction_ok": "a confirmation", "w_new_direction": "travels as ?dir=",
    "w_pending_metric": "a file being read", "w_pending_aggregate": "a file being read", "w_pending_use": "a button",
    "w_pending_direction": "a file being read (its answer travels as ?dir= once the table is loaded)",
    "w_keep_c": "travels as ?classifier=", "w_leave_out": "travels as ?drop=", "w_leave_out_text": "as w_leave_out",
    "w_use_experiment": "a button", "w_pool_matrix_go": "a button", "w_pending_forget": "a button",
    "w_exp_jobs": "how many cores the server uses: the results are the same",
    "w_rename_c": "the renames travel as ?rename= (or inside the table, ?data=)", "w_rename_d": "as w_rename_c",
    "w_rename_go": "a button", "w_rename_undo": "a button",
    "w_pending_items_direction": "item-level results being read (the answer travels as ?dir= once loaded)",
    "w_pending_items_use": "a button", "w_items_sample": "a button (the sample travels as ?sample=)",
}

#: URL parameter -> (session-state key, kind) of each page's choices (derived from :data:`CHOICES`).
PAGE_PARAMS: dict[str, tuple[str, str]] = {c.param: (c.key, c.kind) for c in CHOICES}


#: Former parameter names that old links still carry -> the current name.
RENAMED_PARAMS = {"procedure": "correction"}
GLOBAL_PARAMS = ("sample", "data", "fp", "fpname", "fpshape", "classifier", "drop", "dropz", "alpha", "dir", "metric",
                 "agg", "rename")


def _pack(obj: Any) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def _unpack(text: str) -> Any:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(data, MAX_LINK_DATA_BYTES)
        if inflater.unconsumed_tail:
            raise ValueError("too large")
        return json.loads(raw.decode("utf-8"))
    except Exception as err:  # any malformed payload is reported, never raised
        raise ValueError(str(err)) from None


#: Tables with more scores than this never fit in a link: not even tried (serializing costs seconds).
MAX_LINK_CELLS = cl.limits.APP_MAX_LINK_CELLS


def _link_text(value: Any, kind: str) -> Any:
    """The text of a choice in a link, or None for a value that has none: a page writes its choices into the
    session only from the tab that is open (issue 31), so a value that came with a link (or an older session) and
    that no widget has checked yet may still be there, e.g. inf for a whole number; such a value is left out of
    the link rather than raising."""
    try:
        if kind == "list":
            return [str(v) for v in value] if isinstance(value, (list, tuple)) else None
        if kind == "bool":
            return bool(value)
        if kind in ("float", "int"):
            number = float(value)
            if not math.isfinite(number):
                return None
            return f"{number:.10g}" if kind == "float" else str(int(value))
    except (TypeError, ValueError, OverflowError):
        return None
    return str(value)


def table_payload(table: cl.ScoreTable) -> str | None:
    """The table compressed for a link, or None when it is too large to travel in one (memoized per table)."""
    def compute() -> str:
        if table.scores.size > MAX_LINK_CELLS:
            return ""
        where = state.origin()
        payload = {"csv": table.scores.to_csv(float_format="%.17g"), "higher": table.higher_is_better,
                   "metric": table.metric, "missing": table.missing,
                   # what the receiver must know: the file's name and what was done to the data
                   "name": where.label if where.kind in ("file", "link") else where.describe(),
                   "notes": list(table.notes)[:MAX_LINK_NOTES]}
        if table.folds is not None and table.folds.size <= MAX_LINK_CELLS:
            # The fold-level rows travel too when they fit (issue 28: the fold-level views show them); else the
            # link says they were left behind, and those views tell the receiver so instead of showing the sample.
            packed = _pack({**payload, "folds": table.folds.to_csv(index=False, float_format="%.17g")})
            if len(packed) <= MAX_LINK_DATA_CHARS:
                return packed
        packed = _pack({**payload, "folds_left": table.folds is not None})
        return packed if len(packed) <= MAX_LINK_DATA_CHARS else ""

    return state.session_memo("_payload_memo", table, compute) or None


# ---------------------------------------------------------------------------------------------
# reading a link (once per session)
#
# Every value of every parameter is checked before it is used (issue 27): of the right type (whole numbers are
# read from their digits, never through a float), finite, in the range or among the values the page's widget
# offers, text and lists bounded in length. A value that does not fit is reported by a sentence that names the
# parameter, shows the value (shortened) and says what is used instead; nothing a link holds is ever raised.

#: Text values (names, choices) longer than this are refused: no table has such a name.
MAX_LINK_TEXT = cl.limits.MAX_NAME_LENGTH
#: A number is written with at most this many characters (a double needs 24).
MAX_NUMBER_TEXT = 40
#: At most this many values of a list parameter (classifiers, data sets, tests) are read.
MAX_LINK_ITEMS = max(cl.limits.APP_MAX_CLASSIFIERS, cl.limits.APP_MAX_LISTED_DATASETS)
#: Values are shown in messages up to this many characters.
MAX_SHOWN = 60

_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def shown(value: Any) -> str:
    """A value of a link for a message: its repr, shortened to about :data:`MAX_SHOWN` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'a negative' if value < 0 else 'an'} integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    if isinstance(value, str):
        text = value if len(value) <= MAX_SHOWN else value[:MAX_SHOWN] + "…"
        return repr(text) + (f" ({len(value):,} characters)" if len(value) > MAX_SHOWN else "")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def _number(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def parse_int(text: str) -> int | None:
    """A whole number written with digits (an optional sign, no exponent, no point, no separator), read
    exactly; None otherwise. ``"9007199254740993"`` is 9007199254740993, ``"1e3"`` and ``"5.0"`` are None."""
    text = text.strip()
    if len(text) > MAX_NUMBER_TEXT or not _INT_TEXT.fullmatch(text):
        return None
    return int(text)


def parse_float(text: str) -> float | None:
    """A finite decimal number (``"0.05"``, ``"-1.5e-3"``); None for anything else (``"inf"``, ``"NaN"``,
    ``"1e400"``, ``"1_0"``, non-ASCII digits, text)."""
    text = text.strip()
    if len(text) > MAX_NUMBER_TEXT or not _FLOAT_TEXT.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def _bound(bound: Bound, table: cl.ScoreTable):
    return bound(table) if callable(bound) else bound


def _range_text(choice: Choice, lo, hi, whole: bool) -> str:
    kind = "a whole number" if whole else "a number"
    if lo is not None and hi is not None:
        if lo > hi:
            return f"{kind} (this table offers no value)"
        low = f"above {_number(lo)}" if choice.lo_open else f"from {_number(lo)}"
        high = f"below {_number(hi)}" if choice.hi_open else f"to {_number(hi)}"
        return f"{kind} {low} {high}"
    if lo is not None:
        return f"{kind} {'above' if choice.lo_open else 'of at least'} {_number(lo)}"
    if hi is not None:
        return f"{kind} {'below' if choice.hi_open else 'of at most'} {_number(hi)}"
    return kind


def _in_range(choice: Choice, value, lo, hi) -> bool:
    if lo is not None and (value < lo or (choice.lo_open and value == lo)):
        return False
    return hi is None or not (value > hi or (choice.hi_open and value == hi))


def _instead(choice: Choice) -> str:
    if choice.default is None:
        return "the page's default is used"
    if choice.kind == "bool":
        return f"the default ({'on' if choice.default else 'off'}) is used"
    if choice.kind == "list":
        return f"the default ({', '.join(map(str, choice.default))}) is used"
    return f"the default ({choice.default!r}) is used" if choice.kind == "str" else f"the default ({choice.default}) is used"


def check_value(choice: Choice, values: list[str], table: cl.ScoreTable) -> tuple[bool, Any, str | None]:
    """A page choice read from a link: ``(True, value, None)`` when the link's text is a value the page's widget
    offers for ``table`` (the analysed table), else ``(False, None, sentence)``, the sentence naming the
    parameter, the value and what is used instead. Never raises."""
    param, kind = choice.param, choice.kind
    options = choice.options(table) if callable(choice.options) else choice.options
    if kind == "list":
        if len(values) > MAX_LINK_ITEMS:
            return False, None, (f"The link's {param} lists {len(values):,} values (at most {MAX_LINK_ITEMS:,} are read); "
                                 f"{_instead(choice)}.")
        wanted = list(dict.fromkeys(values))
        long = [v for v in wanted if len(v) > MAX_LINK_TEXT]
        if long:
            return False, None, (f"The link's {param} value {shown(long[0])} is longer than {MAX_LINK_TEXT:,} characters; "
                                 f"{_instead(choice)}.")
        if options is not None:
            offered = set(options)
            unknown = [v for v in wanted if v not in offered]
            if unknown:
                return False, None, (f"The link's {param} names {', '.join(shown(v) for v in unknown[:5])}"
                                     f"{f' and {len(unknown) - 5:,} more' if len(unknown) > 5 else ''}, not offered on "
                                     f"this page; {_instead(choice)}.")
        return True, wanted, None
    text = values[0]
    if kind == "bool":
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return True, word in _TRUE, None
        return False, None, f"The link's {param} {shown(text)} is not 1 or 0 (on or off); {_instead(choice)}."
    if kind in ("int", "float"):
        whole = kind == "int"
        value = parse_int(text) if whole else parse_float(text)
        lo, hi = _bound(choice.lo, table), _bound(choice.hi, table)
        if options is not None:
            if value is None or value not in options:
                listed = ", ".join(_number(o) for o in options)
                return False, None, f"The link's {param} {shown(text)} is not one of {listed}; {_instead(choice)}."
            return True, value, None
        if value is None or not _in_range(choice, value, lo, hi):
            what = _range_text(choice, lo, hi, whole) if (lo is not None or hi is not None) else (
                "a whole number" if whole else "a finite number")
            return False, None, f"The link's {param} {shown(text)} is not {what}; {_instead(choice)}."
        return True, value, None
    if len(text) > MAX_LINK_TEXT:
        return False, None, (f"The link's {param} {shown(text)} is longer than {MAX_LINK_TEXT:,} characters; "
                             f"{_instead(choice)}.")
    if options is not None and text not in set(options):
        return False, None, f"The link's {param} {shown(text)} is not offered on this page; {_instead(choice)}."
    if choice.valid is not None and not choice.valid(text):
        return False, None, f"The link's {param} {shown(text)} is not {choice.what}; {_instead(choice)}."
    return True, text, None


def apply_query_params() -> None:
    """Restore a shared view from the URL at the start of a session. Problems are collected in
    ``st.session_state["query_problems"]`` (plain text, escaped when shown), never raised."""
    ss = st.session_state
    if ss.get("query_applied"):
        return
    ss["query_applied"] = True
    problems: list[str] = []
    try:
        params = st.query_params
        raw = {key: params.get_all(key) for key in params}
        pending = None
        if raw.get("sample"):
            sample_id = raw["sample"][0]
            if sample_id in state.SAMPLE_BY_ID:
                state.use_sample(state.SAMPLE_BY_ID[sample_id])
            else:
                problems.append(f"The link's sample {shown(sample_id)} is not a sample of this app; the default sample "
                                "is shown.")
        elif raw.get("data"):
            problems += _load_link_table(raw["data"][0])
        elif raw.get("fp"):
            fingerprint = raw["fp"][0]
            if _FINGERPRINT.fullmatch(fingerprint):
                # Kept as it came (the address keeps it until it is applied, see share_view), without the name and
                # shape when they are not ones this app writes; every page says what it awaits (pending_notice).
                label, label_problems = _fingerprint_label(raw)
                problems += label_problems
                pending = {key: value for key, value in raw.items()
                           if key not in ("fpname", "fpshape") or key in label}
                ss["pending_table"] = label
            else:
                problems.append(f"The link's fingerprint (fp) {shown(fingerprint)} is not one this app writes (16 "
                                "hexadecimal digits); the default sample is shown and the link's view is not applied.")
                raw = {}
        state.ensure_table()
        if pending is not None:
            ss["pending_view"] = pending
        else:
            problems += _apply_view(raw)
    except Exception as err:  # noqa: BLE001 - a link must never take the page down: say so, keep what was applied
        if type(err).__module__.startswith("streamlit") or os.environ.get("COMPARE_DASHBOARD_RAISE") == "1":
            raise  # Streamlit's control flow; and the tests want bugs to surface as exceptions (as ui.guarded)
        logging.getLogger("dashboard").exception("a link could not be applied")
        problems.append(f"The link could not be applied entirely ({type(err).__name__}); the rest of the view is the "
                        "default.")
    ss["query_problems"] = problems


def _load_link_table(text: str) -> list[str]:
    """The table carried by the link (?data=), made the loaded table; the problems (none when it was read)."""
    try:
        payload = _unpack(text)
        if not isinstance(payload, dict):
            raise ValueError("not a table")
        with_direction = bool(payload["higher"])
        missing = payload.get("missing", "error")
        missing = missing if isinstance(missing, str) and missing in cl.MISSING_POLICIES else "error"
        table = state.load_bytes(str(payload["csv"]).encode("utf-8"), "table from the link", with_direction,
                                 "wide", missing, format="csv")  # the link's table is the CSV _view_params wrote
        metric = payload.get("metric")
        metric = metric[:200] if isinstance(metric, str) and metric else None
        name = payload.get("name")
        name = name[:200] if isinstance(name, str) and name else "table from the link"
        notes = payload.get("notes", [])
        notes = [n[:1000] for n in (notes if isinstance(notes, list) else []) if isinstance(n, str)][:MAX_LINK_NOTES]
        # The sender's notes (what was averaged, dropped or kept) travel with the scores, said to come from them.
        folds = _link_folds(payload.get("folds"), with_direction, missing)
        table = cl.ScoreTable(table.scores, table.higher_is_better, missing=missing, source=name,
                              notes=tuple(notes), metric=metric, folds=folds)
        # folds_left: the sender's table had fold-level rows too large to travel (the fold-level views say so)
        label = name if folds is not None or not payload.get("folds_left") else f"{name}, without its fold-level rows"
        state.set_table(table, state.Origin("link", label, missing=missing, metric=table.metric))
    except (ValueError, KeyError, TypeError, AttributeError, cl.InputError) as err:
        reason = cl.errors.in_words(err if isinstance(err, cl.InputError) else str(err), "app")
        reason = reason if len(reason) <= 300 else reason[:300] + "…"
        return [f"The table carried by the link (data) could not be read ({reason}); the default sample is shown."]
    return []


def _link_folds(text: Any, higher_is_better: bool, missing: str) -> Any:
    """The fold-level rows a link's table carries (read by compare_lib as a long table, in a child process like
    every table of a link), or None when there are none or they cannot be read."""
    if not isinstance(text, str) or not text:
        return None
    try:
        long = state.load_bytes(text.encode("utf-8"), "fold-level rows from the link", higher_is_better, "long",
                                missing, format="csv")
    except (ValueError, KeyError, TypeError, cl.InputError):
        return None
    return long.folds


def _apply_view(raw: dict[str, list[str]], *, mid_run: bool = False) -> list[str]:
    """Apply the selection, α, direction and page choices of a link to the loaded table. ``mid_run``:
    the sidebar's α widget already exists in this run, so α is set at the start of the next one."""
    problems: list[str] = []
    table = state.full_table()
    ss = st.session_state
    if raw.get("dir"):
        direction = raw["dir"][0]
        if direction in ("higher", "lower"):
            if (direction == "higher") != table.higher_is_better:
                state.set_direction(direction == "higher")
                table = state.full_table()
        else:
            problems.append(f"The link's direction (dir) {shown(direction)} is neither 'higher' nor 'lower'; the "
                            f"table's direction ({'higher' if table.higher_is_better else 'lower'} is better) is kept.")
    if raw.get("metric") or raw.get("agg"):
        problems += _apply_metric(raw.get("metric", [None])[0], raw.get("agg", [None])[0])
        table = state.full_table()
    if raw.get("rename"):
        problems += _apply_renames(raw["rename"][0])
        table = state.full_table()
    problems += _apply_selection(raw, table)
    if raw.get("alpha"):
        text = raw["alpha"][0]
        value = parse_float(text)
        if value is not None and state.ALPHA_MIN <= value <= state.ALPHA_MAX:
            ss["_alpha_next" if mid_run else "alpha"] = value
        else:
            problems.append(
                f"The link's α (alpha) {shown(text)} is not a number between {state.ALPHA_MIN:g} and "
                f"{state.ALPHA_MAX:g} (the range offered everywhere in this app); α = {state.ALPHA_DEFAULT:g} is used "
                "instead."
            )
    for old, new in RENAMED_PARAMS.items():
        if raw.get(old) and not raw.get(new):
            raw = {**raw, new: raw[old]}
    analysed = state.active_table()  # what the pages offer their choices from (after the link's selection)
    for choice in CHOICES:
        values = raw.get(choice.param)
        if not values:
            continue
        ok, value, problem = check_value(choice, values, analysed)
        if ok:
            ss[choice.key] = value
            ss.setdefault("link_keys", set()).add(choice.key)  # what a page may say came from a link
        else:
            problems.append(problem)
    return problems


def _apply_renames(text: str) -> list[str]:
    """The renames a link carries (?rename=, from the names as read) applied to the loaded table; the problems."""
    try:
        value = _unpack(text) if len(text) <= MAX_LINK_DATA_CHARS else None
    except (ValueError, TypeError):
        value = None
    ok = isinstance(value, dict) and set(value) <= {"c", "d"} and all(
        isinstance(m, dict) and len(m) <= MAX_LINK_ITEMS
        and all(isinstance(k, str) and isinstance(v, str) and len(k) <= MAX_LINK_TEXT and len(v) <= MAX_LINK_TEXT
                for k, v in m.items()) for m in value.values())
    if not ok:
        return ["The link's renames (rename) are not ones this app writes; the names are shown as read."]
    try:
        state.apply_renames(value.get("c") or None, value.get("d") or None)
    except cl.InputError as err:
        reason = cl.errors.in_words(err, "app")
        return [f"The link's renames (rename) do not fit this table ({reason[:300]}); the names are shown as read."]
    return []


def _apply_selection(raw: dict[str, list[str]], table: cl.ScoreTable) -> list[str]:
    """The classifiers kept (?classifier=) and the data sets left out (?drop= by name, ?dropz= by position)."""
    problems: list[str] = []
    wanted = raw.get("classifier") or []
    if len(wanted) > MAX_LINK_ITEMS:
        problems.append(f"The link keeps {len(wanted):,} classifiers (classifier), more than this app reads "
                        f"({MAX_LINK_ITEMS:,}); every classifier is kept.")
        wanted = []
    if wanted:
        present = set(table.classifiers)
        known = list(dict.fromkeys(c for c in wanted if c in present))  # repeated names count once
        unknown = [c for c in dict.fromkeys(wanted) if c not in present]
        if unknown:
            problems.append("The link names classifiers (classifier) that are not in the table: "
                            f"{', '.join(map(shown, unknown[:10]))}{' …' if len(unknown) > 10 else ''}.")
        if len(known) >= 2:
            state.set_selection(keep_classifiers=[c for c in table.classifiers if c in set(known)])
        else:
            problems.append("The link keeps fewer than 2 classifiers of this table (classifier); every classifier is "
                            "kept.")
    dropped: list[str] = list(raw.get("drop") or [])
    if len(dropped) > MAX_LINK_ITEMS:
        problems.append(f"The link leaves out {len(dropped):,} data sets by name (drop), more than this app reads "
                        f"({MAX_LINK_ITEMS:,}); every data set is kept.")
        dropped = []
    if raw.get("dropz"):
        positions, problem = _positions(raw["dropz"][0], table.n_datasets)
        if problem:
            problems.append(problem)
        else:
            dropped += [table.datasets[i] for i in positions]
    if dropped:
        present = set(table.datasets)
        unknown = [d for d in dict.fromkeys(dropped) if d not in present]
        if unknown:
            problems.append("The link leaves out data sets (drop) that are not in the table: "
                            f"{', '.join(map(shown, unknown[:10]))}{' …' if len(unknown) > 10 else ''}.")
        keep = [d for d in dropped if d in present]
        if table.n_datasets - len(set(keep)) >= 2:
            state.set_selection(drop_datasets=list(dict.fromkeys(keep)))
        else:
            problems.append("The link would leave fewer than 2 data sets; every data set is kept.")
    return problems


def _positions(text: str, n_datasets: int) -> tuple[list[int], str | None]:
    """The positions of the data sets a link leaves out (?dropz=, a packed list of whole numbers from 0 to
    n - 1), or a sentence saying why they cannot be read (then every data set is kept)."""
    instead = "every data set is kept"
    try:
        positions = _unpack(text)
    except ValueError:
        return [], f"The link's list of left-out data sets (dropz) could not be read; {instead}."
    if not isinstance(positions, list):
        return [], f"The link's dropz holds {shown(positions)}, not a list of positions; {instead}."
    if len(positions) > n_datasets:
        return [], (f"The link's dropz lists {len(positions):,} positions for a table of {n_datasets:,} data sets; "
                    f"{instead}.")
    for i in positions:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n_datasets:
            return [], (f"The link's dropz holds {shown(i)}, not the position of a data set (a whole number from 0 "
                        f"to {n_datasets - 1:,}); {instead}.")
    return positions, None


def _apply_metric(metric: str | None, aggregate: str | None) -> list[str]:
    """The link's metric and aggregation, applied to the loaded file when it has them."""
    table = state.full_table()
    loaded = state.loaded_results()
    origin = state.origin()
    problems: list[str] = []
    if aggregate is not None and aggregate not in cl.AGGREGATES:
        problems.append(f"The link's aggregation (agg) {shown(aggregate)} is not one of {', '.join(cl.AGGREGATES)}; "
                        f"{origin.aggregate!r} is used.")
    if metric is not None and len(metric) > MAX_LINK_TEXT:
        problems.append(f"The link's metric {shown(metric)} is longer than {MAX_LINK_TEXT:,} characters; the loaded "
                        "table's metric is used.")
        metric = None
    metric = metric or table.metric
    aggregate = aggregate if aggregate in cl.AGGREGATES else origin.aggregate
    if metric == table.metric and aggregate == origin.aggregate:
        return problems
    if origin.kind == "link" and metric == table.metric:
        # A link's table is the sender's, already aggregated: the link names how (the pages say it).
        state.set_table(table, replace(origin, aggregate=aggregate), keep_selection=True)
        return problems
    if loaded is None or metric not in loaded[0].metrics:
        return problems + [f"The link's metric {shown(metric)} is not the loaded table's ({shown(table.metric or 'unnamed')}), "
                           "which is used: the numbers may differ from the link's."]
    results, token = loaded
    try:
        new = state.results_table(token, results, metric, None, origin.missing, aggregate)
    except cl.InputError as err:
        return problems + [f"The link's metric {shown(metric)} could not be used: {cl.errors.in_words(err, 'app')}"]
    state.set_table(new, replace(origin, metric=metric, aggregate=aggregate), keep_selection=True)
    state.set_results(results, token)
    return problems


def check_pending_view(origin_kind: str) -> str | None:
    """After the user loads a table: apply a waiting link view if the table matches its fingerprint, read as the
    link says (its direction, and its metric and aggregation when the loaded file has them). Returns a message
    (plain text) saying what happened, or None when no view was waiting."""
    ss = st.session_state
    pending = ss.get("pending_view")
    if not pending or origin_kind not in ("file", "paste"):
        return None
    wanted = pending.get("fp", [""])[0]
    if not _match_pending_table(pending, wanted):
        table = state.full_table()
        return (
            f"The loaded table ({state.origin().describe()}, {table.n_datasets:,} data sets × {table.n_classifiers:,} "
            f"classifiers) is not the one the link was made with ({awaited_table()}): its fingerprint is "
            f"{state.fingerprint(table)}, the link's is {wanted}. The link's view was not applied; it still awaits its "
            "table."
        )
    ss.pop("pending_view")
    ss.pop("pending_table", None)
    problems = _apply_view(pending, mid_run=True)
    return "The loaded table matches the link: its view was applied." + (" " + " ".join(problems) if problems else "")


def _match_pending_table(pending: dict[str, list[str]], wanted: str) -> bool:
    """Whether the loaded table is the link's (same fingerprint), possibly once read with the link's direction,
    metric and aggregation (which the link states); if so it is made the loaded table, read that way."""
    table, origin = state.full_table(), state.origin()
    if state.fingerprint(table) == wanted:
        return True
    direction = (pending.get("dir") or [""])[0]
    higher = table.higher_is_better if direction not in ("higher", "lower") else direction == "higher"
    if higher != table.higher_is_better and state.fingerprint(table.with_direction(higher)) == wanted:
        state.set_direction(higher)
        return True
    loaded = state.loaded_results()
    metric = (pending.get("metric") or [table.metric])[0]
    aggregate = (pending.get("agg") or [origin.aggregate])[0]
    if loaded is None or metric not in loaded[0].metrics or aggregate not in cl.AGGREGATES:
        return False
    if (metric, aggregate) == (table.metric, origin.aggregate):
        return False
    results, token = loaded
    try:
        other = state.results_table(token, results, metric, higher, origin.missing, aggregate)
    except cl.InputError:
        return False
    if state.fingerprint(other) != wanted:
        return False
    state.set_table(other, replace(origin, metric=metric, aggregate=aggregate), keep_selection=True)
    state.set_results(results, token)
    return True


#: A fingerprint link names its file by a short name (at most this many characters) and gives the table's shape.
MAX_FP_NAME = 80
_SHAPE = re.compile(r"([0-9]{1,9})x([0-9]{1,9})")


def short_name(name: str) -> str:
    """A file's name for a fingerprint link: without folders or control characters, at most 60 characters (the
    middle elided)."""
    name = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C")
    name = re.split(r"[/\\]", name)[-1].strip() or "table"
    return name if len(name) <= 60 else name[:40] + "…" + name[-19:]


def _fingerprint_label(raw: dict[str, list[str]]) -> tuple[dict[str, Any], list[str]]:
    """The file name (``fpname``) and shape (``fpshape``, data sets x classifiers) a fingerprint link gives, each
    only when it is one this app writes; and the problems (a value that is not is named and left out)."""
    label: dict[str, Any] = {}
    problems: list[str] = []
    if raw.get("fpname"):
        name = raw["fpname"][0]
        if 0 < len(name) <= MAX_FP_NAME and name.strip() and not any(unicodedata.category(ch)[0] == "C" for ch in name):
            label["fpname"] = name
        else:
            problems.append(f"The link's file name (fpname) {shown(name)} is not a short file name (at most "
                            f"{MAX_FP_NAME} characters, none of them a control character); the file is not named.")
    if raw.get("fpshape"):
        text = raw["fpshape"][0]
        match = _SHAPE.fullmatch(text)
        rows, cols = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        if match and rows >= 2 and 2 <= cols <= state.MAX_CLASSIFIERS and rows * cols <= state.MAX_CELLS:
            label["fpshape"] = (rows, cols)
        else:
            problems.append(f"The link's table size (fpshape) {shown(text)} is not the size of a table this app reads "
                            "(data sets x classifiers, e.g. 2500x10); the size is not shown.")
    return label, problems


def awaited_table() -> str:
    """The table a waiting fingerprint link awaits, in words (plain text: escape it): its file, size and metric."""
    ss = st.session_state
    label = ss.get("pending_table") or {}
    pending = ss.get("pending_view") or {}
    name = label.get("fpname")
    parts = [f"{label['fpshape'][0]:,} data sets × {label['fpshape'][1]:,} classifiers"] if label.get("fpshape") else []
    metric = (pending.get("metric") or [""])[0]
    if metric and len(metric) <= MAX_SHOWN:
        parts.append(f"metric {metric}")
    what = f"the file {name}" if name else "a file the link does not name"
    return what + (f" ({', '.join(parts)})" if parts else "")


def pending_notice() -> str | None:
    """While a fingerprint link awaits its table, what every page says (plain text: escape it): which table the
    view awaits, how to load it, and what the page shows meanwhile; None when no link is waiting."""
    if not st.session_state.get("pending_view"):
        return None
    return (f"This link's view awaits its table: {awaited_table()}, too large to travel in a link. Load that file "
            "on the Load data page: the link's view (the classifiers and data sets kept, α and the pages' choices) is "
            "applied as soon as the loaded table matches the link's fingerprint. Meanwhile this page shows "
            f"{state.origin().describe()}, not the link's table, with this app's default choices.")


def forget_pending_view() -> None:
    """The user no longer waits for the link's table: the address shows the current view again."""
    st.session_state.pop("pending_view", None)
    st.session_state.pop("pending_table", None)


# ---------------------------------------------------------------------------------------------
# writing the current view into the URL


#: The pages' titles (as app.py names them) -> the page names of :data:`CHOICES`.
PAGES = {"Load data": "load_data", "Omnibus tests": "omnibus", "Post-hoc tests": "posthoc",
         "Pool sensitivity": "pool", "Replicability": "replicability", "Bayesian analysis": "bayesian",
         "Per-task comparison": "items"}


def share_view(page: str | None = None) -> dict[str, Any]:
    """Write the current view into the URL: the table, selection, α and direction, and every declared choice of
    ``page`` (:data:`CHOICES`, read from the session). app.py calls it after each page run, so a page never lists
    its choices itself. Returns :func:`link_info`."""
    pending = st.session_state.get("pending_view")
    if pending:
        # A fingerprint link keeps its parameters in the address until its table is loaded (a reload keeps it).
        params, info = {k: list(v) for k, v in pending.items()}, link_info()
    else:
        params, info = _view_params(page)
    target = {k: [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in params.items()}
    current = {k: st.query_params.get_all(k) for k in st.query_params}
    if current != target:
        st.query_params.from_dict(params)
    return info


def link_info() -> dict[str, Any]:
    """Whether the link of the current view carries the table itself (``carries_data``) or only its fingerprint
    (``fingerprint_only``), and whether the address still holds a fingerprint link awaiting its table (``pending``)."""
    if st.session_state.get("pending_view"):
        return {"carries_data": False, "fingerprint_only": True, "pending": True}
    return _view_params(None)[1]


def _view_params(page: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    ss = st.session_state
    choices = {}
    # The page's choices, and those of other pages that its view shows (CROSS_PAGE, issue 28).
    shown_here = {param for param, shows in CROSS_PAGE.get(page or "", ()) if shows(ss)}
    for choice in CHOICES:
        if choice.page == page or choice.param in shown_here:
            value = choice.value(ss)
            text = None if value is None else _link_text(value, choice.kind)
            if text is not None:
                choices[choice.param] = text
    table = state.full_table()
    origin = state.origin()
    params: dict[str, Any] = {}
    info: dict[str, Any] = {"carries_data": False, "fingerprint_only": False}
    if origin.kind == "sample" and origin.label in state.SAMPLES:
        params["sample"] = state.SAMPLES[origin.label].id
        if table.higher_is_better != state.SAMPLES[origin.label].higher_is_better:
            params["dir"] = "higher" if table.higher_is_better else "lower"
    else:
        payload = table_payload(table)
        if payload is not None:
            params["data"] = payload
            info["carries_data"] = True
        else:
            params["fp"] = state.fingerprint(state.table_as_read())  # the file's names: the receiver loads the file
            # The file's short name and the table's shape, so that the receiver knows what to load (issue 28).
            params["fpname"] = short_name(origin.label if origin.kind == "file" else origin.describe())
            params["fpshape"] = f"{table.n_datasets}x{table.n_classifiers}"
            params["dir"] = "higher" if table.higher_is_better else "lower"
            info["fingerprint_only"] = True
    renamed = state.renames()
    if (renamed["classifiers"] or renamed["datasets"]) and "data" not in params:
        # A sample or a file travels by name: its renames travel beside it (a carried table has its new names).
        params["rename"] = _pack({"c": renamed["classifiers"], "d": renamed["datasets"]})
    keep = state.kept_classifiers()
    if keep != table.classifiers:
        params["classifier"] = keep
    dropped = state.dropped_datasets()
    if dropped:
        if sum(len(d) + 6 for d in dropped) <= MAX_DROP_CHARS:
            params["drop"] = dropped
        else:
            position = {d: i for i, d in enumerate(table.datasets)}
            params["dropz"] = _pack([position[d] for d in dropped])
    if table.metric:
        params["metric"] = table.metric  # every link names the metric (and the direction, below or by the sample)
    if origin.aggregate != "mean":
        params["agg"] = origin.aggregate
    params["alpha"] = f"{state.alpha():g}"
    for key, value in choices.items():
        params[key] = ("1" if value else "0") if isinstance(value, bool) else value
    return params, info
