"""Regenerate the spreadsheet fixtures of tests/test_io_formats.py.

Run from the repository root with the test tools installed (openpyxl for .xlsx, odfpy for .ods):

    .venv/bin/python tests/data/formats/make_spreadsheets.py

The old Excel 97-2003 file results.xls (issue 27: the .xls reader's tests) is written with xlwt, which is
not a dependency of the project: install it into a throw-away folder for the one run and delete it after:

    .venv/bin/python -m pip install --target /tmp/xlwt_target xlwt==1.3.0
    PYTHONPATH=/tmp/xlwt_target .venv/bin/python tests/data/formats/make_spreadsheets.py xls

The files are committed; this script documents how they were made. The table is a copy of a paper's
results table as a researcher would type it: a title row, an empty row, the header starting in column
B, numbers as numbers (one float that has no short decimal form, to check full precision), a text
cell "n/a", and a data-set name with trailing spaces.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

TITLE = "Table 2. AUC of three classifiers"
HEADER = ["Data set", "C4.5", "Naive Bayes", "SVM"]
ROWS = [
    ["adult", 0.881, 0.892, 0.903],
    ["breast cancer ", 0.61, 0.702, 0.655],
    ["hepatitis", 0.668, 0.86, "n/a"],
    ["ionosphere", 0.7 + 0.1 + 0.1, 0.937, 0.981],  # 0.8999999999999999: full precision must survive
]


def make_xlsx() -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "AUC"
    ws["A1"] = TITLE
    # Row 2 empty; the table starts at B3.
    for j, h in enumerate(HEADER):
        ws.cell(row=3, column=2 + j, value=h)
    for i, row in enumerate(ROWS):
        for j, v in enumerate(row):
            ws.cell(row=4 + i, column=2 + j, value=v)
    wb.save(HERE / "results.xlsx")

    wb = Workbook()
    ws = wb.active
    ws.title = "Accuracy"
    ws.append(["Data set", "SVM", "RF"])
    ws.append(["iris", 0.96, 0.953])
    ws.append(["wine", 0.983, 0.978])
    ws2 = wb.create_sheet("F1")
    ws2.append(["Data set", "SVM", "RF"])
    ws2.append(["iris", 0.959, 0.951])
    ws2.append(["wine", 0.982, 0.976])
    wb.save(HERE / "two_sheets.xlsx")


def make_ods() -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="AUC")

    def row(values: list) -> TableRow:
        tr = TableRow()
        for v in values:
            if v is None:
                tr.addElement(TableCell())
            elif isinstance(v, float):
                cell = TableCell(valuetype="float", value=repr(v))
                cell.addElement(P(text=repr(v)))
                tr.addElement(cell)
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=v))
                tr.addElement(cell)
        return tr

    table.addElement(row([TITLE]))
    table.addElement(row([]))
    table.addElement(row([None, *HEADER]))
    for r in ROWS:
        table.addElement(row([None, *r]))
    doc.spreadsheet.addElement(table)
    doc.save(str(HERE / "results.ods"))


def make_xls() -> None:
    """results.xls: the same table as results.xlsx, in the BIFF8 format of Excel 97-2003 (xlwt 1.3.0)."""
    import xlwt

    wb = xlwt.Workbook()
    ws = wb.add_sheet("AUC")
    ws.write(0, 0, TITLE)
    for j, h in enumerate(HEADER):
        ws.write(2, 1 + j, h)
    for i, row in enumerate(ROWS):
        for j, v in enumerate(row):
            ws.write(3 + i, 1 + j, v)
    wb.save(str(HERE / "results.xls"))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["xls"]:
        make_xls()
    else:
        make_xlsx()
        make_ods()
