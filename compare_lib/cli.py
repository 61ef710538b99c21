"""The command line: ``compare-classifiers report|posthoc|ranks RESULTS``.

The same options as the dashboard and the same numbers as the library (every command calls it). Bad
input ends with a message naming the file, row, column and value, and a non-zero exit status; notes on
what was done to the data go to standard error. RESULTS must be a regular file (a FIFO, a device such as
/dev/zero or a directory is refused at once); ``-o`` never replaces an existing file unless ``--force``
is given (issue 27).

    compare-classifiers report results.csv --metric roc_auc -o report.html
    compare-classifiers posthoc results.csv --test wilcoxon --correction holm --format json
"""

from __future__ import annotations

import json
import os
import stat
import sys
import warnings
from pathlib import Path

import click

from compare_lib.errors import ApproximationWarning, DataWarning, InputError, in_words

#: Report formats by file suffix.
REPORT_FORMATS = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown", ".tex": "latex",
                  ".json": "json", ".py": "python", ".bib": "bibtex"}


def _registries() -> str:
    """The tests and procedures the library knows, from its registries (a test added with
    ``register_pairwise_test`` appears here with no other change)."""
    from compare_lib.multiple._adjust import PROCEDURES
    from compare_lib.stats._pairwise_tests import PAIRWISE_TESTS, RECOMMENDED_TEST

    tests = "\n".join(f"  {name:<22} {spec.label}" + (" (recommended)" if name == RECOMMENDED_TEST else "")
                      + (" [depends on the pool]" if spec.pool_dependent else "")
                      for name, spec in PAIRWISE_TESTS.items())
    procs = "\n".join(f"  {name:<22} {proc.label} ({', '.join(proc.families)})" for name, proc in PROCEDURES.items())
    return f"\b\nTests (--test):\n{tests}\n\n\b\nProcedures (--correction):\n{procs}"


class _Group(click.Group):
    def format_epilog(self, ctx, formatter):
        formatter.write_paragraph()
        for line in _registries().split("\n"):
            formatter.write(line.replace("\b", "") + "\n")


def _data_options(f):
    options = [
        click.argument("results", type=click.Path(exists=True, dir_okay=False, path_type=Path)),
        click.option("--metric", help="The metric to compare (a file with several metrics needs it; the message lists them)."),
        click.option("--higher-is-better/--lower-is-better", "higher_is_better", default=None,
                     help="The direction of the scores (default: looked up by the metric's name in the direction "
                          "catalogue and stated on stderr; a metric it does not know must be given one)."),
        click.option("--missing", type=click.Choice(["error", "drop-datasets", "drop-classifiers", "pairwise"]),
                     default="error", show_default=True, help="What to do with missing cells."),
        click.option("--aggregate", type=click.Choice(["mean", "median"]), default="mean", show_default=True,
                     help="How the folds/runs of one data set and classifier make one score."),
        click.option("--input-format", "input_format", default="auto", show_default=True,
                     type=click.Choice(["auto", "csv", "latex", "markdown", "text", "xlsx", "xls", "ods"]),
                     help="The format of RESULTS."),
        click.option("--sheet", help="The sheet of a workbook."),
        click.option("--layout", type=click.Choice(["auto", "wide", "long", "tidy", "sklearn"]), default="auto",
                     show_default=True, help="How RESULTS is laid out."),
        click.option("--classifiers", help="Compare only these classifiers (comma-separated)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _test_options(f):
    from compare_lib.multiple._adjust import DEFAULT_CORRECTION
    from compare_lib.stats._pairwise_tests import RECOMMENDED_TEST

    options = [
        click.option("--test", default=RECOMMENDED_TEST, show_default=True, help="The pairwise test (listed in --help)."),
        click.option("--correction", default=DEFAULT_CORRECTION, show_default=True, help="The family-wise procedure (listed in --help)."),
        click.option("--control", help="Compare every classifier with this one instead of all pairs."),
        click.option("--alpha", type=float, default=0.05, show_default=True, help="Family-wise significance level."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _output_options(f):
    options = [
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                     help="Write here instead of stdout (an existing file is kept unless --force)."),
        click.option("--force", is_flag=True, default=False, help="Replace the --output file if it exists."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _check_input(results: Path) -> None:
    """RESULTS must be a regular file: a FIFO would block the command, /dev/zero or /dev/urandom would be
    read without end. Checked with stat(), which neither opens nor blocks."""
    try:
        mode = os.stat(results).st_mode
    except OSError as err:
        raise click.ClickException(f"{err.strerror}: {results}") from None
    if not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "not a regular file")
        raise click.ClickException(f"{results} is {kind}: give a results file (CSV, Excel/ODS, LaTeX, Markdown or "
                                   "text) saved on disk.")


def _check_output(output: Path | None, force: bool, results: Path | None = None) -> None:
    """Before any work: an existing --output is replaced only with --force, and only if it is a regular file
    other than RESULTS (a FIFO would block, and the data would be lost)."""
    if output is None or not os.path.lexists(output):
        return
    try:
        mode = os.stat(output).st_mode
    except OSError:  # a dangling link: writing would create its target somewhere else
        raise click.ClickException(f"{output} is a broken symbolic link: give another --output.") from None
    if not stat.S_ISREG(mode):
        raise click.ClickException(f"{output} exists and is not a regular file: give another --output, or leave "
                                   "--output out to write on standard output.")
    if results is not None and os.path.samefile(output, results):
        raise click.ClickException(f"{output} is the results file being read: give another --output.")
    if not force:
        raise click.ClickException(f"{output} already exists: give --force to replace it, or another --output.")


def _load(results: Path, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers):
    """The table and its Source, with the notes on stderr."""
    from compare_lib._analysis import Source
    from compare_lib.io import read_results

    _check_input(results)
    read = {"format": input_format, "sheet": sheet, "layout": layout}
    read = {k: v for k, v in read.items() if v is not None and v != "auto"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DataWarning)
        warnings.simplefilter("ignore", ApproximationWarning)
        data = read_results(results, **read)  # a Path: a name holding a line break is still a file name
        table = data.table(metric, higher_is_better=higher_is_better, missing=missing, aggregate=aggregate)
        keep = None
        if classifiers:
            keep = tuple(c.strip() for c in classifiers.split(",") if c.strip())
            table = table.subset(classifiers=keep)
    for note in dict.fromkeys(in_words(n, "cli") for n in [*table.notes, *(w.message for w in caught)]):
        click.echo(f"note: {note}", err=True)
    from compare_lib.core._table import direction_sentence

    click.echo(f"direction: {direction_sentence(table, 'cli')}", err=True)  # stated, or guessed and why
    # read_results recorded the file (its absolute path and SHA-256) and the table the choices: the script replays them
    source = table.provenance or Source(str(results.resolve()), read=read, classifiers=keep, table={
        "metric": metric, "higher_is_better": table.higher_is_better, "missing": missing, "aggregate": aggregate})
    return table, source


def _write(text: str, output: Path | None, force: bool = False) -> None:
    """On stdout, or into ``output``: created, never replacing a file that appeared meanwhile unless
    ``force`` (then only a regular file, checked again)."""
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    # O_EXCL: a file that appeared since the check is not replaced; O_NONBLOCK: a FIFO put there meanwhile makes
    # open() fail at once instead of waiting for a reader (it changes nothing for a regular file).
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(output, flags, 0o666)
    except FileExistsError:
        raise click.ClickException(f"{output} already exists: give --force to replace it, or another --output.") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise click.ClickException(f"{output} is not a regular file: give another --output.")
        f.write(text)
    click.echo(f"wrote {output}", err=True)


def _latex_options(f):
    """Where a LaTeX table must fit (issue 28): the text width in pt, or a table across two columns / on a
    landscape page."""
    options = [
        click.option("--wide", type=click.Choice(["table*", "landscape"]), default=None,
                     help="LaTeX: a wide table across both columns of a two-column document (table*), or on a page "
                          "turned sideways (landscape, needs pdflscape)."),
        click.option("--text-width", "text_width", type=click.FloatRange(50, 2000), default=None,
                     help="LaTeX: the width (pt) the tables must fit [default: 345, the article class; 229.5 for a "
                          "column of a two-column article; 469 with --wide table*; 550 with --wide landscape]."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _fail_cleanly(f):
    """Bad input: the library's message and exit status 1, never a traceback."""
    import functools

    @functools.wraps(f)
    def run(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except InputError as err:  # options named as this command's flags (--sheet Results, not sheet='Results')
            raise click.ClickException(in_words(err, "cli")) from None
        except OSError as err:
            raise click.ClickException(f"{err.strerror}: {err.filename}") from None
    return run


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="compare-lib", prog_name="compare-classifiers")
def main():
    """Compare k classifiers over N data sets (Demšar 2006; García & Herrera 2008; Benavoli et al. 2016).

    RESULTS is a results file: CSV, Excel/ODS, a LaTeX or Markdown table, a table copied from a PDF, a
    scikit-learn cross_validate export, or a long/tidy file with fold rows. Ranks: 1 = best, ties averaged.
    """


@main.command()
@_data_options
@_test_options
@click.option("--rope", help="Add the Bayesian signed-rank test with this region of practical equivalence "
                             "(in the units of the scores), or 'auto'.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the Bayesian sampling.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here; the suffix chooses the format (.html .md .tex .json .py .bib). An existing file is "
                   "kept unless --force.")
@click.option("--force", is_flag=True, default=False, help="Replace the --output file if it exists.")
@click.option("--to", "to", type=click.Choice(["html", "markdown", "latex", "json", "python", "bibtex"]),
              help="The format (default: from --output's suffix, else Markdown on stdout); bibtex: the references "
                   "the report cites.")
@_latex_options
@_fail_cleanly
def report(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers,
           test, correction, control, alpha, rope, seed, output, force, to, wide, text_width):
    """The whole analysis as one report: data, methods, results, a paragraph, BibTeX and the code."""
    from compare_lib._analysis import analyze

    _check_output(output, force, results)

    if to is None:
        if output is not None and output.suffix.lower() not in REPORT_FORMATS:
            raise click.BadParameter(f"'{output.name}': give a name ending in {', '.join(REPORT_FORMATS)}, or --to.",
                                     param_hint="--output")
        to = REPORT_FORMATS[output.suffix.lower()] if output is not None else "markdown"
    table, source = _load(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers)
    rope_value = None
    if rope is not None:
        try:
            rope_value = rope if rope == "auto" else float(rope)
        except ValueError:
            raise click.BadParameter(f"{rope!r} is not a number or 'auto'.", param_hint="--rope") from None
    if rope_value is not None:
        with click.progressbar(length=100, label="Bayesian comparisons", file=sys.stderr) as bar:
            done = [0]

            def progress(fraction):
                step = int(fraction * 100) - done[0]
                if step > 0:
                    bar.update(step)
                    done[0] += step

            analysis = analyze(table, alpha=alpha, test=test, correction=correction, control=control, rope=rope_value,
                               seed=seed, source=source, progress=progress)
    else:
        analysis = analyze(table, alpha=alpha, test=test, correction=correction, control=control, seed=seed,
                           source=source)
    text = {"html": analysis.to_html, "markdown": analysis.to_markdown,
            "latex": lambda: analysis.to_latex(wide=wide, width=text_width), "json": analysis.to_json,
            "python": analysis.to_python, "bibtex": analysis.to_bibtex}[to]()
    _write(text, output, force)


@main.command()
@_data_options
@_test_options
@click.option("--format", "fmt", type=click.Choice(["csv", "latex", "json", "markdown"]), default="csv",
              show_default=True, help="Output format.")
@click.option("--effect", "effect", default=None, help="Add this effect size (hodges_lehmann, cohens_dz, ...).")
@_output_options
@_latex_options
@_fail_cleanly
def posthoc(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers,
            test, correction, control, alpha, fmt, effect, output, force, wide, text_width):
    """The post-hoc table of one test and procedure (all pairs, or versus --control)."""
    from compare_lib._analysis import _jsonable
    from compare_lib.analyses._posthoc import posthoc as run_posthoc
    from compare_lib.core._format import to_csv
    from compare_lib.core._format import frame_to_markdown

    _check_output(output, force, results)

    table, _ = _load(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers)
    result = run_posthoc(table, test=test, correction=correction, control=control, alpha=alpha, as_result=True)
    frame = result.to_frame()
    if effect:
        from compare_lib.stats._effect_sizes import with_effect_sizes

        frame = with_effect_sizes(frame, table, effect)
    if fmt == "json":
        payload = {**result.provenance(), "notes": list(result.notes), "rows": frame.to_dict(orient="records")}
        text = json.dumps(_jsonable(payload), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    elif fmt == "latex":
        from compare_lib.multiple._adjust import PROCEDURES
        from compare_lib.render._document import latex_text
        from compare_lib.stats._pairwise_tests import lookup_test
        from compare_lib.render._paper_tables import posthoc_latex

        caption = (f"{lookup_test(result.test).label} with {PROCEDURES[result.correction].label}'s procedure, "
                   f"α = {alpha:g} ({table.metric or 'score'}, {'higher' if table.higher_is_better else 'lower'} is better).")
        # Compact columns that fit the text width; "better" is empty where the pair is not significant (issue 28).
        text = posthoc_latex(frame, caption=latex_text(caption), caption_is_latex=True, label="tab:posthoc",
                             wide=wide, width=text_width)
    elif fmt == "markdown":
        text = frame_to_markdown(frame, p_columns=("p", "p_adj"))
    else:
        text = to_csv(frame)
    _write(text, output, force)


@main.command()
@_data_options
@click.option("--format", "fmt", type=click.Choice(["latex", "markdown", "csv"]), default="latex", show_default=True)
@click.option("--digits", type=click.IntRange(0, 10), default=None, help="Decimals of the scores (default: as written).")
@_output_options
@_latex_options
@_fail_cleanly
def ranks(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers, fmt,
          digits, output, force, wide, text_width):
    """The scores with each data set's ranks in brackets, the best in bold, and the average ranks (Demšar 2006,
    Table 6)."""
    from compare_lib.render._paper_tables import scores_table

    _check_output(output, force, results)

    table, _ = _load(results, metric, higher_is_better, missing, aggregate, input_format, sheet, layout, classifiers)
    caption = f"{table.metric or 'Scores'} with ranks in brackets (1 = best); the best of each data set in bold."
    _write(scores_table(table, format=fmt, digits=digits, caption=caption, label="tab:ranks", wide=wide,
                        width=text_width), output, force)


if __name__ == "__main__":  # pragma: no cover
    main()
