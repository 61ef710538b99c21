"""Item-level results as read (issue 30): :class:`Items`, one score per model, task and item, and the per-task
table built from them. Read by :mod:`compare_lib.io._items`; compared by :mod:`compare_lib.analyses._items`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from compare_lib.core._validation import check_choice
from compare_lib.errors import InputError, arg

if TYPE_CHECKING:
    from compare_lib.core._provenance import Source

#: Score names whose direction the catalogue does not know but which are correctness (1 = correct).
_CORRECTNESS = {"correct", "is_correct", "iscorrect"}


@dataclass(frozen=True)
class Items:
    """Item-level results: one score per model, task and item.

    ``frame`` has the columns ``model``, ``task``, ``item`` (text), ``score`` (float) and optionally
    ``cluster`` (items sharing a passage or context). ``metric`` names the score (``"acc"``); ``notes`` say
    what was recognised while reading. Made by :func:`compare_lib.read_items`.
    """

    frame: pd.DataFrame = field(repr=False)
    metric: str | None = None
    notes: tuple[str, ...] = ()
    source: str | None = None
    #: How the items were read (a :class:`compare_lib.Source` with loader "read_items"; None for bytes or a list
    #: of files): :meth:`task_table` passes it on, so that a reproducing script reads the item file again.
    provenance: Source | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        need = {"model", "task", "item", "score"}
        if not isinstance(self.frame, pd.DataFrame) or not need <= set(self.frame.columns):
            raise InputError("Items needs a DataFrame with the columns model, task, item and score.")
        if self.frame.empty:
            raise InputError("No item-level results were read (the table is empty).")
        gaps = self.missing()
        if len(gaps) and not any(n.startswith("Some models lack items") for n in self.notes):
            shown = "; ".join(f"{r.model} lacks {r.missing:,} of the {r.items:,} items of {r.task}"
                              for r in gaps.head(5).itertuples())
            more = f" (and {len(gaps) - 5:,} more model-task pairs)" if len(gaps) > 5 else ""
            object.__setattr__(self, "notes", (*self.notes, f"Some models lack items that others have: {shown}{more}. "
                                               "Paired comparisons use the items both models have."))

    def missing(self) -> pd.DataFrame:
        """The (model, task) pairs lacking items that another model has on the task: ``model, task, missing,
        items`` (items: how many distinct items the task has in all)."""
        per_task = self.frame.groupby("task")["item"].nunique()
        counts = self.frame.groupby(["model", "task"]).size()
        full = pd.MultiIndex.from_product([counts.index.levels[0], counts.index.levels[1]], names=["model", "task"])
        counts = counts.reindex(full, fill_value=0)
        out = counts.rename("have").reset_index()
        out["items"] = out["task"].map(per_task).to_numpy()
        out["missing"] = out["items"] - out["have"]
        return out.loc[out["missing"] > 0, ["model", "task", "missing", "items"]].reset_index(drop=True)

    @property
    def models(self) -> list[str]:
        return sorted(self.frame["model"].unique())

    @property
    def tasks(self) -> list[str]:
        return sorted(self.frame["task"].unique())

    @property
    def metrics(self) -> list[str]:
        return [self.metric] if self.metric else []

    @property
    def binary(self) -> bool:
        """Whether every score is 0 or 1 (correct or not)."""
        s = self.frame["score"].to_numpy()
        return bool(np.all((s == 0) | (s == 1)))

    def describe(self, statistic: str = "mean") -> str:
        """One sentence on what the items hold and what their task table is (plain text), e.g. "Item-level results:
        4 models × 6 tasks × 360 items (60 per task); the table analysed is the per-task mean of correct (each
        cell a mean over its items)."."""
        statistic = check_choice(statistic, ("mean", "median"), "statistic")
        per_task = self.frame.groupby("task")["item"].nunique()
        lo, hi = int(per_task.min()), int(per_task.max())
        each = f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
        return (f"Item-level results: {len(self.models):,} models × {len(self.tasks):,} tasks × {int(per_task.sum()):,} "
                f"items ({each} per task); the table analysed is the per-task {statistic} of {self.metric or 'the score'} "
                f"(each cell a {statistic} over its items).")

    def counts(self) -> pd.DataFrame:
        """Items per task (rows) and model (columns)."""
        return self.frame.groupby(["task", "model"]).size().unstack("model", fill_value=0)

    def task_table(self, statistic: str = "mean", higher_is_better: bool | None = None, missing: str = "error"):
        """The score table of the tasks (data sets, rows) by the models (classifiers, columns).

        Each cell is the mean (``statistic="mean"``) or median of the model's scores on the task's items.
        The direction is ``higher_is_better`` when given, else looked up by the metric's name in the
        direction catalogue (:func:`compare_lib.guess_direction`; ``correct``/``is_correct`` are correctness,
        higher is better) and refused when unknown."""
        from compare_lib.core._table import ScoreTable
        from compare_lib.io._direction import guess_direction

        statistic = check_choice(statistic, ("mean", "median"), "statistic")
        grouped = self.frame.groupby(["task", "model"])["score"]
        scores = grouped.agg(statistic).unstack("model")
        sizes = grouped.size().unstack("model")
        stated, reason = True, None
        better: bool | None
        if higher_is_better is None:
            name = (self.metric or "").lower()
            if name in _CORRECTNESS:
                better, why = True, f"higher is better: {self.metric!r} is 1 for a correct item"
            else:
                better, why = guess_direction(self.metric)
            if better is None:
                raise InputError(f"The direction of the item scores {self.metric!r} is not known ({why}). State it: "
                                 f"{arg('higher_is_better', True)} if higher is better, "
                                 f"{arg('higher_is_better', False)} if lower is better.")
            higher_is_better, stated, reason = better, False, why
        lo, hi = int(np.nanmin(sizes.to_numpy())), int(np.nanmax(sizes.to_numpy()))
        counts = f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
        note = (f"Each cell is the {statistic} of a model's {self.metric or 'scores'} over the task's items "
                f"({counts} items per cell; {len(self.frame):,} item outcomes in all).")
        out = ScoreTable(scores.rename_axis(index=None, columns=None), bool(higher_is_better), missing=missing,
                         source=self.source, notes=(*self.notes, note), metric=self.metric,
                         direction_stated=stated, direction_reason=reason)
        if self.provenance is not None:
            from compare_lib.core._provenance import with_table

            # the table is new and not yet shared: recording how it was made changes nothing else
            object.__setattr__(out, "provenance", with_table(self.provenance, self.metric, out.higher_is_better,
                                                             out.missing, statistic))
        return out
