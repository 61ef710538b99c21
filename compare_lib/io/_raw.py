"""The one shape every reader produces: a table of cells read from a file, before any layout is chosen."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from compare_lib.errors import InputError

#: Tables copied from papers and pages (LaTeX, Markdown, PDF text) are read up to this many lines.
MAX_TEXT_TABLE_LINES = 200_000


def table_lines(text: str, display: str, what: str) -> list[str]:
    """The lines of a pasted table, refused beyond :data:`MAX_TEXT_TABLE_LINES` with the limit stated
    (``what`` names the format in the message: "LaTeX tables")."""
    lines = text.splitlines()
    if len(lines) > MAX_TEXT_TABLE_LINES:
        raise InputError(
            f"File '{display}' has {len(lines):,} lines; {what} are read up to {MAX_TEXT_TABLE_LINES:,} lines. "
            "Save the results as a CSV file instead."
        )
    return lines


@dataclass(frozen=True, eq=False)
class RawTable:
    """A table as read from one source, with nothing decided about what its columns mean.

    ``header`` holds the m header cells (text, stripped); ``grid`` the body, one row per body row and
    m positional columns (0..m-1) holding text (``""`` for an empty cell) or numbers where the reader
    already parsed them; ``line_numbers`` the 1-based place of each body row in the source (the line of a
    text file, the row of a spreadsheet), named ``row_word`` in messages ("line 12", "row 12").
    ``notes`` say what the reader did ("read the LaTeX tabular on lines 3-20", "skipped the caption
    line 1"). ``format`` is one of "csv", "latex", "markdown", "text", "xlsx", "xls", "ods".
    """

    header: list[str]
    grid: pd.DataFrame
    line_numbers: np.ndarray
    display: str
    format: str
    row_word: str = "line"
    sheet: str | None = None
    notes: tuple[str, ...] = ()
    #: The delimiter of a delimited text file (csv); None for other formats.
    delimiter: str | None = None
    #: Text around the table that may name what it measures: a LaTeX caption, a title line above a Markdown
    #: or PDF table, a title row of a sheet (the sheet's name is ``sheet``).
    title: str | None = None

    def where(self, i: int) -> str:
        """How messages name body row ``i``: "line 12" or "sheet 'Results', row 12"."""
        place = f"{self.row_word} {int(self.line_numbers[i])}"
        return f"sheet '{self.sheet}', {place}" if self.sheet else place
