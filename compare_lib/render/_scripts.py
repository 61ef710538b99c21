"""Scripts that reproduce a view of the dashboard with compare_lib alone (the hierarchical test, the per-task
comparison of item-level results). Every value from the user is written as a checked Python literal
(:func:`compare_lib.render._document._literal`), only ever used as data.

The script of the whole analysis is :mod:`compare_lib.render._document`'s.
"""

from __future__ import annotations

import pandas as pd

from compare_lib.multiple._adjust import DEFAULT_CORRECTION
from compare_lib.render._document import _literal
from compare_lib.core._validation import check_seed
from compare_lib.errors import InputError


def item_comparison_script(source, *, a: str | None = None, b: str | None = None, test: str = "auto", cluster=None,
                           alpha: float = 0.05, correction: str = DEFAULT_CORRECTION, reps: int = 10_000,
                           seed: int | None = None, models=None, tasks=None, renames: dict | None = None) -> str:
    """A Python script that reproduces a per-task comparison of item-level results: it reads the item file again
    (``source``: a :class:`compare_lib.Source` with loader "read_items", e.g. :attr:`Items.provenance`; a relative
    path is looked up next to the script), keeps ``models`` and ``tasks`` (None: all) after ``renames``
    (``{"classifiers": {as read: new}, "datasets": {...}}``), and runs :func:`item_comparison` of ``a`` and ``b``
    (or :func:`item_comparison_all` when they are None) with the same settings, printing the table at full
    precision. Every name is written as a Python literal (``repr``), only ever used as data."""
    from pathlib import PurePath

    from compare_lib.core._provenance import Source

    seed = check_seed(seed)  # the script's seed is a literal: the same range as the call it writes
    if not isinstance(source, Source) or source.loader != "read_items":
        raise InputError("item_comparison_script needs the record of a read_items call (Items.provenance).")
    lines = ['"""Reproduces a per-task comparison of item-level results made with compare_lib (issue 30).',
             "", "Run it with the library alone: python this_script.py", '"""', "from pathlib import Path", "",
             "import pandas as pd", "", "import compare_lib as cl", ""]
    if PurePath(source.path).is_absolute():
        lines.append(f"ITEM_FILE = Path({_literal(str(source.path))})  # where the items were read")
    else:
        lines.append(f"ITEM_FILE = Path(__file__).resolve().parent / {_literal(str(source.path))}  # put the item file next to "
                     "this script")
    lines += ["if not ITEM_FILE.exists():",
              '    raise SystemExit(f"the item file {ITEM_FILE} is not there: put it back or edit ITEM_FILE")']
    if source.sha256 is not None:
        lines += ["import hashlib, sys", f"if ITEM_FILE.is_file() and hashlib.sha256(ITEM_FILE.read_bytes()).hexdigest() != {_literal(source.sha256)}:",
                  '    print("warning: the item file has changed since the comparison was made", file=sys.stderr)']
    read = ", ".join(f"{k}={_literal(v)}" for k, v in source.read.items())
    lines.append(f"items = cl.read_items(ITEM_FILE{', ' + read if read else ''})")
    renames = renames or {}
    models_map, tasks_map = dict(renames.get("classifiers") or {}), dict(renames.get("datasets") or {})
    if models_map or tasks_map or models is not None or tasks is not None:
        lines += ["# The renames and the selection made in the dashboard.",
                  f"RENAME_MODELS = {_literal(models_map)}", f"RENAME_TASKS = {_literal(tasks_map)}",
                  f"MODELS = {_literal(None if models is None else [str(m) for m in models])}  # None: all",
                  f"TASKS = {_literal(None if tasks is None else [str(t) for t in tasks])}  # None: all",
                  "frame = items.frame.assign(model=items.frame['model'].map(RENAME_MODELS).fillna(items.frame['model']),",
                  "                           task=items.frame['task'].map(RENAME_TASKS).fillna(items.frame['task']))",
                  "keep = pd.Series(True, index=frame.index)",
                  "if MODELS is not None:", "    keep &= frame['model'].isin(MODELS)",
                  "if TASKS is not None:", "    keep &= frame['task'].isin(TASKS)",
                  "items = cl.Items(frame[keep].reset_index(drop=True), metric=items.metric, notes=items.notes)"]
    options = (f"test={_literal(test)}, cluster={_literal(cluster)}, alpha={float(alpha)!r}, "
               f"correction={_literal(correction)}, reps={int(reps)!r}, seed={_literal(seed)}")
    if a is not None and b is not None:
        lines.append(f"result = cl.item_comparison(items, {_literal(str(a))}, {_literal(str(b))}, {options})")
    else:
        lines.append(f"result = cl.item_comparison_all(items, {options})")
    lines += ["print(items.describe())", "with pd.option_context('display.max_rows', None, 'display.max_columns', None,",
              "                       'display.width', 200, 'display.float_format', '{:.17g}'.format):",
              "    print(result.to_string(index=False))"]
    return "\n".join(lines) + "\n"


#: The reproducing script carries the two classifiers' fold rows; above this many characters it is refused.
MAX_SCRIPT_CHARS = 2_000_000


def hierarchical_script(folds: pd.DataFrame, a: str, b: str, *, rope: float = 0.0, prior: str = "paper",
                        samples: int = 1000, chains: int = 4, warmup: int = 1000, seed: int | None = None,
                        higher_is_better: bool = True, sensitivity: bool = False, target_accept: float = 0.8) -> str:
    """A Python script that reproduces :func:`bayesian_hierarchical` on the fold rows ``folds`` of ``a`` and ``b``
    (the rows travel inside the script as CSV text, every value a checked literal), printing the same numbers."""
    seed = check_seed(seed)
    keep = [c for c in folds.columns if c in ("dataset", "classifier", "scheme", "seed", "run", "fold", "repetition",
                                               "score", "n_train", "n_test")]
    rows = folds.loc[folds["classifier"].isin([a, b]), keep]
    text = rows.to_csv(index=False)
    if len(text) > MAX_SCRIPT_CHARS:
        raise InputError(f"The fold rows of {a!r} and {b!r} take {len(text):,} characters, more than a reproducing "
                         f"script carries ({MAX_SCRIPT_CHARS:,}); call compare_lib.bayesian_hierarchical on your file.")
    options = {"rope": float(rope), "prior": prior, "samples": int(samples), "chains": int(chains),
               "warmup": int(warmup), "seed": seed, "higher_is_better": bool(higher_is_better),
               "target_accept": float(target_accept)}
    call = ", ".join(f"{k}={_literal(v)}" for k, v in options.items())
    lines = [
        "# Reproduces the hierarchical Bayesian test (Corani et al. 2017) of the compare_lib dashboard.",
        '# Needs: pip install "compare-lib[bayes]"',
        "import io",
        "",
        "import pandas as pd",
        "",
        "import compare_lib as cl",
        "",
        f"FOLDS = {_literal(text)}",
        'folds = pd.read_csv(io.StringIO(FOLDS), dtype={"dataset": str, "classifier": str})',
        f"pair = ({_literal(str(a))}, {_literal(str(b))})",
        f"res = cl.bayesian_hierarchical(folds, pair, {call})",
        'print(f"P({pair[0]} better) = {res.p_x:.4f}, P(equivalent) = {res.p_rope:.4f}, P({pair[1]} better) = {res.p_y:.4f}")',
        'print(f"Mean masses: {res.mean_masses}; P(delta0 > 0) = {res.p_delta0_positive:.4f}")',
        "print(res.diagnosis())",
        "print(res.datasets.to_string(index=False))",
    ]
    if sensitivity:
        lines.append(f"print(cl.hierarchical_sensitivity(folds, pair, {call.replace(f'prior={_literal(prior)}, ', '')})"
                     ".to_string(index=False))")
    return "\n".join(lines) + "\n"


def ranking_script(table, *, model: str = "plackett-luce", samples: int = 4000, seed: int | None = None,
                   prior: float | None = None, chains: int = 4, warmup: int = 1000, strength_sd: float | None = None,
                   tie_sd: float | None = None) -> str:
    """A Python script that reproduces :func:`bayesian_ranking` ("Who is best?") on ``table``, printing its numbers
    at full precision. The table is made again as the analysis script makes it: a file on disk is read again (by
    its recorded path and options, checked by its SHA-256: :attr:`ScoreTable.provenance`), anything else (an
    upload, pasted text, a table built in memory) travels inside the script as literals."""
    from compare_lib.core._table import as_table
    from compare_lib.render._document import _SCRIPT_HEADER, _call, table_lines

    seed = check_seed(seed)
    t = as_table(table)
    src = t.provenance
    body, replays = table_lines(t, src)
    options = {"model": model, "samples": int(samples), "seed": seed, "chains": int(chains), "warmup": int(warmup)}
    options.update({k: float(v) for k, v in (("prior", prior), ("strength_sd", strength_sd), ("tie_sd", tie_sd))
                    if v is not None})
    lines = [_SCRIPT_HEADER.rstrip("\n"),
             "# This script: the Bayesian ranking of the dashboard's \"Who is best?\" view (issue 29)."]
    if replays:
        lines += (["import hashlib", "import sys"] if src.sha256 is not None else []) + ["from pathlib import Path"]
    lines += ["", "import pandas as pd", "", "import compare_lib as cl", ""] + body
    lines += ["", f"res = cl.bayesian_ranking(table{_call(options)})", "print(res.paragraph())",
              "with pd.option_context('display.max_rows', None, 'display.max_columns', None, 'display.width', 200,",
              "                       'display.float_format', '{:.17g}'.format):",
              "    print(res.to_frame().to_string())",
              '    print("\\nP(row ranked before column):")', "    print(res.p_before.to_string())",
              '    print("\\nP(rank):")', "    print(res.rank_probabilities.to_string())"]
    return "\n".join(lines) + "\n"
