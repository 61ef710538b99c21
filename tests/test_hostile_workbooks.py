"""Issue 27: a crafted workbook (.xlsx, .ods, .xls) cannot take the process down.

calamine, the native reader, expands what a workbook declares: one .xlsx cell at XFD1048576 made it ask
for 512 GiB and abort the process, ``<text:s text:c="1000000000"/>`` became a billion spaces, repeat
counts were expanded cell by cell, a negative shared-string index read silently as string 0, and a
mutated .xls aborted it or raised ``pyo3_runtime.PanicException`` (a ``BaseException``). These tests build
each hostile workbook here (nothing large is committed) and assert a clear ``InputError`` (its words) or
the correct values; the mutation fuzzing runs in a subprocess, so that a native abort fails the test
instead of killing pytest. The pre-check is ``compare_lib.io._workbook_check``; the .xls reader runs in a
child process (``compare_lib.io._isolate``).
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pytest

import compare_lib as cl
from compare_lib.errors import InputError
from compare_lib.io import _excel, _workbook_check
from compare_lib.io._excel import read_spreadsheet, sheet_names

FORMATS = Path(__file__).resolve().parent / "data" / "formats"
ROOT = Path(__file__).resolve().parents[1]

# -- building workbooks ----------------------------------------------------------------------------------

_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
       'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
       '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.spreadsheetml.worksheet+xml"/>{sst}</Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WB = ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
       '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
       '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>')
_WB_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
            '2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>{sst}</Relationships>')
_SHEET = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
          'spreadsheetml/2006/main">{dim}<sheetData>{rows}</sheetData>{merge}</worksheet>')
#: A small results table, as Excel writes it (every row and cell with its reference).
TABLE = ('<row r="1"><c r="A1" t="inlineStr"><is><t>Data set</t></is></c><c r="B1" t="inlineStr"><is><t>SVM</t>'
         '</is></c><c r="C1" t="inlineStr"><is><t>RF</t></is></c></row>'
         '<row r="2"><c r="A2" t="inlineStr"><is><t>iris</t></is></c><c r="B2"><v>0.9</v></c><c r="C2"><v>0.8</v>'
         '</c></row><row r="3"><c r="A3" t="inlineStr"><is><t>wine</t></is></c><c r="B3"><v>0.7</v></c>'
         '<c r="C3"><v>0.6</v></c></row>')
FAR = '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'


def xlsx(rows: str, *, strings: list[str] | None = None, sst_attrs: str | None = None, dim: str = "",
         merge: str = "") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        sst_ct = sst_rel = ""
        if strings is not None:
            sst_ct = ('<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                      'officedocument.spreadsheetml.sharedStrings+xml"/>')
            sst_rel = ('<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                       'relationships/sharedStrings" Target="sharedStrings.xml"/>')
            attrs = sst_attrs if sst_attrs is not None else f'count="{len(strings)}" uniqueCount="{len(strings)}"'
            z.writestr("xl/sharedStrings.xml", '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.'
                       f'openxmlformats.org/spreadsheetml/2006/main" {attrs}>'
                       + "".join(f"<si><t>{s}</t></si>" for s in strings) + "</sst>")
        z.writestr("[Content_Types].xml", _CT.format(sst=sst_ct))
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB)
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS.format(sst=sst_rel))
        z.writestr("xl/worksheets/sheet1.xml", _SHEET.format(dim=dim, rows=rows, merge=merge))
    return buf.getvalue()


_ODS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
             'opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
             'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.2"><office:body>'
             '<office:spreadsheet><table:table table:name="S">')
_ODS_TAIL = '</table:table></office:spreadsheet></office:body></office:document-content>'
_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
             'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
             'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
             'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')


def s(text: str, attrs: str = "") -> str:
    return f'<table:table-cell office:value-type="string"{attrs}><text:p>{text}</text:p></table:table-cell>'


def f(x: float, attrs: str = "") -> str:
    return f'<table:table-cell office:value-type="float" office:value="{x}"{attrs}><text:p>{x}</text:p></table:table-cell>'


def row(*cells: str, rep: int | None = None) -> str:
    attrs = f' table:number-rows-repeated="{rep}"' if rep else ""
    return f"<table:table-row{attrs}>" + "".join(cells) + "</table:table-row>"


ODS_TABLE = row(s("Data set"), s("SVM"), s("RF")) + row(s("iris"), f(0.9), f(0.8)) + row(s("wine"), f(0.7), f(0.6))


def ods(rows: str, *, tail: str = _ODS_TAIL) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", _MANIFEST)
        z.writestr("content.xml", _ODS_HEAD + rows + tail)
    return buf.getvalue()


def refused(data: bytes, kind: str, name: str, **kw) -> str:
    with pytest.raises(InputError) as e:
        read_spreadsheet(data, name, kind=kind, **kw)
    return str(e.value)


def assert_table(raw, *, rows: list[list]) -> None:
    assert raw.header == ["Data set", "SVM", "RF"]
    assert raw.grid.values.tolist() == rows


IRIS_WINE = [["iris", 0.9, 0.8], ["wine", 0.7, 0.6]]


# -- .xlsx ----------------------------------------------------------------------------------------------


def test_far_cell_is_refused_before_calamine_allocates_it():
    data = xlsx(TABLE + FAR)
    assert len(data) < 2500  # 2 KB that used to abort the process (512 GiB asked for)
    message = refused(data, "xlsx", "far.xlsx")
    assert message.startswith("File 'far.xlsx' was refused before it was read: sheet 'S' would be read as "
                              "1,048,576 rows x 16,384 columns = 17,179,869,184 cells")
    assert "the last value is the cell XFD1048576" in message
    assert "the limit is 20,000,000 cells" in message
    assert "Delete the far or repeated cells" in message
    # Through the public reader, and with the dashboard's smaller limit stated.
    with pytest.raises(InputError, match="the limit is 5,000,000 cells"):
        read_spreadsheet(data, "far.xlsx", kind="xlsx", max_sheet_cells=cl.limits.APP_MAX_SHEET_CELLS)
    with pytest.raises(InputError, match="17,179,869,184 cells"):
        cl.read_results(data, format="xlsx", name="far.xlsx")


def test_far_reference_without_a_value_and_huge_declarations_read_normally():
    # calamine skips an empty cell, and a huge <dimension> or <mergeCell> alone allocates nothing.
    for data in (xlsx(TABLE + '<row r="1048576"><c r="XFD1048576"/></row>'),
                 xlsx(TABLE, dim='<dimension ref="A1:XFD1048576"/>'),
                 xlsx(TABLE, merge='<mergeCells count="1"><mergeCell ref="A5:XFD1048576"/></mergeCells>')):
        raw = read_spreadsheet(data, "ok.xlsx", kind="xlsx")
        assert_table(raw, rows=IRIS_WINE)
        assert raw.line_numbers.tolist() == [2, 3]


def test_cells_without_references_are_placed_as_calamine_places_them():
    # No r on a cell: the column after the previous cell; no r on a row: the row after the previous one.
    rows = (TABLE + '<row r="1048576"><c/><c/><c><v>1</v></c></row>')
    message = refused(xlsx(rows), "xlsx", "implicit.xlsx", max_sheet_cells=1000)
    assert "1,048,576 rows x 3 columns = 3,145,728 cells" in message
    assert "the cell at C1048576 (placed after the ones before it)" in message
    implicit = ('<row><c t="inlineStr"><is><t>Data set</t></is></c><c t="inlineStr"><is><t>SVM</t></is></c>'
                '<c t="inlineStr"><is><t>RF</t></is></c></row><row><c t="inlineStr"><is><t>iris</t></is></c>'
                '<c><v>0.9</v></c><c><v>0.8</v></c></row>')
    raw = read_spreadsheet(xlsx(implicit), "implicit.xlsx", kind="xlsx")
    assert_table(raw, rows=[["iris", 0.9, 0.8]])


@pytest.mark.parametrize(("cell", "why"), [
    ('<c r="B2" r="XFD1048576"><v>1</v></c>', "gives its reference r twice"),  # calamine takes the last r
    ('<c r="ZZZZZZZ2"><v>1</v></c>', 'r="ZZZZZZZ2", which is no cell of a sheet (A1 to XFD1048576)'),
    ('<c r="XFE2"><v>1</v></c>', 'r="XFE2", which is no cell of a sheet'),
    ('<c r="B99999999999"><v>1</v></c>', 'r="B99999999999'),  # 11 digits: calamine's u32 row wraps
])
def test_references_calamine_would_misread_are_refused(cell, why):
    message = refused(xlsx(TABLE.replace('<c r="B2"><v>0.9</v></c>', cell)), "xlsx", "refs.xlsx")
    assert message.startswith("File 'refs.xlsx' was refused before it was read: sheet 'S': ")
    assert why in message


@pytest.mark.parametrize("cell", [
    '<c s="0"r="XFD1048576"><v>1</v></c>',  # calamine reads an attribute right after a quote
    '<c foo=">" r="XFD1048576"><v>1</v></c>',  # a ">" inside a quoted value does not end the tag
    "<c r='XFD1048576'><v>1</v></c>",
    '<x:c r="XFD1048576"><x:v>1</x:v></x:c>',  # any namespace prefix
])
def test_far_cell_written_unusually_is_still_found(cell):
    message = refused(xlsx(TABLE.replace('<c r="B2"><v>0.9</v></c>', cell)), "xlsx", "odd.xlsx")
    assert "17,179,869,184 cells" in message and "XFD1048576" in message


def test_sheet_of_16384_columns_reads_with_whole_array_operations():
    def col(j: int) -> str:
        return _excel._column_letter(j)

    header = "".join(f'<c r="{col(j)}1" t="inlineStr"><is><t>m{j}</t></is></c>' for j in range(1, 16384))
    body = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>d{r}</t></is></c>'
                   + "".join(f'<c r="{col(j)}{r}"><v>{r + j / 100000}</v></c>' for j in range(1, 16384)) + "</row>"
                   for r in (2, 3))
    data = xlsx('<row r="1"><c r="A1" t="inlineStr"><is><t>Data set</t></is></c>' + header + "</row>" + body)
    raw = read_spreadsheet(data, "wide.xlsx", kind="xlsx")
    assert len(raw.header) == 16384 and raw.header[16383] == "m16383"
    assert raw.grid.shape == (2, 16384)
    assert raw.grid[0].tolist() == ["d2", "d3"]
    assert raw.grid[16383].dtype == np.float64 and raw.grid[16383].tolist() == [2 + 16383 / 100000, 3.16383]
    assert raw.notes[0] == "read sheet 'S' of the .xlsx workbook (rows 1-3, columns A-XFD); the header is row 1"


def test_shared_string_indices_are_checked():
    rows = TABLE.replace('<c r="A3" t="inlineStr"><is><t>wine</t></is></c>', '<c r="A3" t="s"><v>{}</v></c>')
    good = read_spreadsheet(xlsx(rows.format(1), strings=["zero", "wine"]), "ok.xlsx", kind="xlsx")
    assert good.grid[0].tolist() == ["iris", "wine"]
    negative = refused(xlsx(rows.format(-1), strings=["zero", "wine"]), "xlsx", "neg.xlsx")
    # Before: read silently as "zero" (calamine parses -1 as no number, then takes string 0).
    assert negative.startswith("File 'neg.xlsx' was refused before it was read: sheet 'S', cell A3 refers to "
                               "shared string <v>-1</v>, which does not exist (the workbook has 2 shared strings, "
                               "numbered 0 to 1)")
    beyond = refused(xlsx(rows.format(2), strings=["zero", "wine"]), "xlsx", "beyond.xlsx")
    assert "cell A3 refers to shared string <v>2</v>, which does not exist" in beyond
    spaced = refused(xlsx(rows.format(" 1"), strings=["zero", "wine"]), "xlsx", "spaced.xlsx")
    assert "shared string <v> 1</v>" in spaced
    none = refused(xlsx(rows.format(0)), "xlsx", "none.xlsx")
    assert "the workbook has no shared-string table" in none


def test_shared_string_table_may_not_declare_billions():
    data = xlsx(TABLE, strings=["a"], sst_attrs='count="1" uniqueCount="18446744073709551615"')
    message = refused(data, "xlsx", "sst.xlsx")
    assert ("its shared-string table 'xl/sharedStrings.xml' declares uniqueCount=\"18446744073709551615\" strings "
            "but holds 1") in message
    with pytest.raises(InputError, match="declares uniqueCount"):
        sheet_names(data, "xlsx", "sst.xlsx")  # the sheet picker reads the shared strings too


def test_shared_strings_referenced_again_and_again_are_bounded():
    long = "x" * 100_000
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>0</v></c></row>' for r in range(1, 1200))
    message = refused(xlsx(rows, strings=[long]), "xlsx", "reuse.xlsx")
    assert "refer to the same shared strings again and again" in message
    assert "the limit is 100,000,000" in message


# -- .ods -----------------------------------------------------------------------------------------------


def test_billion_spaces_are_refused():
    data = ods(ODS_TABLE + row(s('x<text:s text:c="1000000000"/>'), f(1), f(2)))
    assert len(data) < 1000  # 885 bytes took 4 GB
    message = refused(data, "ods", "spaces.ods")
    assert message.startswith("File 'spaces.ods' was refused before it was read: sheet 'S' asks for 1,000,000,000 "
                              "repeated spaces in all")
    assert "the limit is 1,000,000" in message
    small = read_spreadsheet(ods(ODS_TABLE + row(s('x<text:s text:c="3"/>y'), f(1), f(2))), "ok.ods", kind="ods")
    assert small.grid[0].tolist() == ["iris", "wine", "x   y"]


@pytest.mark.parametrize(("rows", "expected"), [
    (row(s("y"), f(1), f(2), rep=1_000_000_000), "1,000,000,003 rows x 3 columns"),
    (row(s("y"), f(1, ' table:number-columns-repeated="1000000000"')), "holds values in 1,000,000,001 columns"),
    (row(s("y"), f(1, ' table:number-columns-repeated="16000"'), rep=1_000_000), "1,000,003 rows x 16,001 columns"),
])
def test_repeats_of_cells_that_hold_values_are_refused(rows, expected):
    message = refused(ods(ODS_TABLE + rows), "ods", "repeat.ods")
    assert message.startswith("File 'repeat.ods' was refused before it was read: sheet 'S' ")
    assert expected in message
    assert "table:number-" in message  # the element that asked for it


def test_repeats_within_the_limits_read_and_the_dashboard_limit_applies():
    data = ods(ODS_TABLE + row(s("y"), f(1), f(2), rep=4))
    raw = read_spreadsheet(data, "few.ods", kind="ods")
    assert raw.grid[0].tolist() == ["iris", "wine", "y", "y", "y", "y"]
    assert raw.line_numbers.tolist() == [2, 3, 4, 5, 6, 7]
    message = refused(data, "ods", "few.ods", max_sheet_cells=20)
    assert "7 rows x 3 columns = 21 cells" in message and "the limit is 20 cells" in message


def test_repeated_text_is_bounded():
    cell = s("z" * 10_000, ' table:number-columns-repeated="16000"')
    message = refused(ods(ODS_TABLE + row(s("y"), cell)), "ods", "text.ods")
    assert "repeats cells that hold text: read, they would add" in message


def test_libreoffice_trailing_repeats_cost_nothing_and_read_correctly():
    # What LibreOffice writes: every row padded with an empty cell repeated to column AMJ (1024), and the
    # empty rows repeated to row 1,048,576; a column style repeated, an empty row in the middle, and empty
    # rows repeated before the table.
    pad = '<table:table-cell table:number-columns-repeated="1021"/>'
    content = (
        '<table:table-column table:style-name="co1" table:number-columns-repeated="1024"/>'
        '<table:table-row table:style-name="ro1" table:number-rows-repeated="2"><table:table-cell '
        'table:number-columns-repeated="1024"/></table:table-row>'
        + row(s("Data set"), s("SVM"), s("RF"), pad) + row(s("iris"), f(0.9), f(0.8), pad)
        + '<table:table-row table:style-name="ro1"><table:table-cell table:number-columns-repeated="1024"/>'
          '</table:table-row>'
        + row(s("wine"), f(0.7), f(0.6), pad)
        + '<table:table-row table:style-name="ro1" table:number-rows-repeated="1048570"><table:table-cell '
          'table:number-columns-repeated="1024"/></table:table-row>'
    )
    data = ods(content)
    _workbook_check.check_workbook(data, "lo.ods", "ods", max_cells=20)  # the used range is 4 x 3
    raw = read_spreadsheet(data, "lo.ods", kind="ods")
    assert_table(raw, rows=IRIS_WINE)
    assert raw.line_numbers.tolist() == [4, 6]
    assert raw.notes == ("read sheet 'S' of the .ods workbook (rows 3-6, columns A-C); the header is row 3",
                         "skipped 1 empty row inside the table")
    real = read_spreadsheet((FORMATS / "results.ods").read_bytes(), "results.ods", kind="ods")
    assert real.header == ["Data set", "C4.5", "Naive Bayes", "SVM"]


_NO_TABLE_END = _ODS_TAIL.replace("</table:table>", "")


@pytest.mark.parametrize(("content", "tail", "why"), [
    # Found by the mutation fuzzing: calamine waits for </table:table> and for </office:annotation>
    # without looking for the end of the file (a 1.7 KB file kept a processor core busy for good).
    (ODS_TABLE, _NO_TABLE_END, "sheet 'S' is not closed: no </table:table> follows its last row"),
    (ODS_TABLE + row(s("x"), '<table:table-cell office:value-type="string"><office:annotation><text:p>note</text:p>'
                     "</table:table-cell>"), _ODS_TAIL, "a comment (<office:annotation>) in sheet 'S' is not closed"),
    (row(s("Data set"), '<table:table-cell><table:table table:name="inner"><table:table-row>'
         f'{f(1)}</table:table-row></table:table></table:table-cell>'), _ODS_TAIL, "has a table inside a cell"),
])
def test_ods_that_would_keep_the_reader_waiting_is_refused(content, tail, why):
    message = refused(ods(content, tail=tail), "ods", "wait.ods")
    assert message.startswith("File 'wait.ods' was refused before it was read: ")
    assert why in message


def test_empty_rows_before_a_far_column_are_not_expanded():
    # calamine keeps leading empty rows as an offset; the old reader asked pandas for the range from A1
    # (1,000,000 x 16,003 cells: the process aborted).
    rows = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell/></table:table-row>'
            + ODS_TABLE + row('<table:table-cell table:number-columns-repeated="16000"/>', f(3)))
    raw = read_spreadsheet(ods(rows), "lead.ods", kind="ods")
    assert raw.header[:3] == ["Data set", "SVM", "RF"]
    assert raw.line_numbers.tolist()[:2] == [1_000_002, 1_000_003]


# -- .xls -----------------------------------------------------------------------------------------------

XLS = (FORMATS / "results.xls").read_bytes()


def test_real_xls_reads_in_a_child_process():
    raw = read_spreadsheet(XLS, "results.xls", kind="xls")
    assert raw.header == ["Data set", "C4.5", "Naive Bayes", "SVM"]
    assert raw.grid[1].tolist() == [0.881, 0.61, 0.668, 0.8999999999999999]
    assert raw.grid[3].tolist() == ["0.903", "0.655", "n/a", "0.981"]
    assert raw.line_numbers.tolist() == [4, 5, 6, 7]
    assert raw.notes[0] == "read sheet 'AUC' of the .xls workbook (rows 3-7, columns B-E); the header is row 3"
    assert sheet_names(XLS, "xls", "results.xls") == ["AUC"]
    assert cl.read_results(XLS, name="results.xls").classifiers == ["C4.5", "Naive Bayes", "SVM"]


def _patched(data: bytes, offset: int, value: int) -> bytes:
    out = bytearray(data)
    out[offset:offset + 4] = value.to_bytes(4, "little")
    return bytes(out)


def _directory_offset(data: bytes, name: str) -> int:
    return data.index(name.encode("utf-16-le"))


@pytest.mark.parametrize(("offset", "value", "why"), [
    (44, 0xFFFFFFFF, "the header counts 4,294,967,295 FAT sectors, but the file of 5,632 bytes holds 11 sectors"),
    (64, 0xFFFF, "the header counts 65,535 mini-FAT sectors"),
    (4608 + 4 * 9, 9, "the chain of the directory comes back to sector 9 (a loop)"),  # FAT entry of the directory
    (4608 + 4 * 2, 0, "the chain of the stream 'Workbook' comes back to sector 0 (a loop)"),
    (None, 0xFFFFFFF0, "its stream 'Workbook' declares 4,294,967,280 bytes in a file of 5,632 bytes"),
])
def test_ole2_structure_is_checked_before_calamine(offset, value, why):
    if offset is None:
        offset = _directory_offset(XLS, "Workbook") + 120  # the stream's size in its directory entry
    message = refused(_patched(XLS, offset, value), "xls", "bad.xls")
    assert message.startswith("File 'bad.xls' was refused before it was read: its OLE2 structure (the container "
                              "of an .xls file) is inconsistent: ")
    assert why in message


def test_damaged_xls_records_end_in_an_input_error_from_the_child():
    # The BIFF records are not checked here: the child reads them, and its failure is reported.
    body = bytearray(XLS)
    start = _directory_offset(XLS, "Workbook")
    assert start  # the directory is at the end; the records are at the start of the file
    for i in range(512 + 40, 512 + 600, 7):
        body[i] ^= 0x5A
    with pytest.raises(InputError, match="File 'mangled.xls'"):
        cl.read_results(bytes(body), format="xls", name="mangled.xls")


# -- the reader's edge: panics ---------------------------------------------------------------------------


def test_a_native_panic_becomes_an_input_error():
    from python_calamine import load_workbook

    data = xlsx(TABLE, strings=["a"], sst_attrs='count="1" uniqueCount="18446744073709551615"')
    with pytest.raises(BaseException) as raw:  # what calamine itself raises: not an Exception
        load_workbook(io.BytesIO(data))
    assert type(raw.value).__name__ == "PanicException" and not isinstance(raw.value, Exception)
    with pytest.raises(InputError) as e:
        with _excel._native("panic.xlsx", "xlsx"):
            load_workbook(io.BytesIO(data))
    assert str(e.value).startswith("File 'panic.xlsx' cannot be read as an .xlsx workbook: the reader stopped on an "
                                   "internal error (capacity overflow)")
    with pytest.raises(KeyboardInterrupt):  # never swallowed
        with _excel._native("x.xlsx", "xlsx"):
            raise KeyboardInterrupt


# -- mutation fuzzing, in a subprocess (a native abort must fail the test, not kill pytest) -----------------

_FUZZ = textwrap.dedent('''
    import io, resource, sys, zipfile
    from hypothesis import HealthCheck, given, settings, strategies as st
    import compare_lib as cl
    from compare_lib.errors import InputError

    kind, examples = sys.argv[1], int(sys.argv[2])
    seed = open(sys.argv[3], "rb").read()
    if kind != "xls":  # xlsx/ods are read in this process: an abort or 3 GB would end it
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    else:
        from compare_lib.io import _isolate
        _isolate.warm_up()
    part = {"xlsx": "xl/worksheets/sheet1.xml", "ods": "content.xml"}.get(kind)

    def rezip(xml):
        src = zipfile.ZipFile(io.BytesIO(seed))
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for info in src.infolist():
                z.writestr(info.filename, xml if info.filename == part else src.read(info.filename))
        return buf.getvalue()

    target = zipfile.ZipFile(io.BytesIO(seed)).read(part) if part else seed
    outcomes = {"result": 0, "InputError": 0}
    ALPHABET = b'<>/="\\' rtcvsAXFD0123456789:-+'

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "copy", "digits"]),
                              st.integers(0, len(target) - 1), st.integers(0, 255), st.integers(1, 40)),
                    min_size=1, max_size=8))
    def fuzz(edits):
        data = bytearray(target)
        for op, at, byte, size in edits:
            at %= max(len(data), 1)
            if op == "flip":
                data[at] = byte
            elif op == "insert":
                data[at:at] = bytes([ALPHABET[byte % len(ALPHABET)]]) * (size % 4 + 1)
            elif op == "delete":
                del data[at:at + size]
            elif op == "copy":
                data[at:at] = data[(at * 7 + byte) % max(len(data), 1):][:size]
            else:
                data[at:at] = b"9" * size  # long numbers: repeat counts, references, sizes
        blob = rezip(bytes(data)) if part else bytes(data)
        try:
            cl.read_results(blob, format=kind, name="fuzz." + kind)
            outcomes["result"] += 1
        except InputError:
            outcomes["InputError"] += 1

    fuzz()
    print(kind, outcomes)
''')


@pytest.mark.parametrize(("kind", "seed", "examples"), [
    ("xlsx", xlsx(TABLE.replace('<c r="A3" t="inlineStr"><is><t>wine</t></is></c>', '<c r="A3" t="s"><v>0</v></c>'),
                  strings=["wine"]), 250),
    ("ods", ods(ODS_TABLE + row(s('a<text:s text:c="2"/>b'), f(0.5, ' table:number-columns-repeated="2"'), rep=2)),
     250),
    ("xls", XLS, 15),  # each read starts a child process
])
def test_mutated_workbooks_end_in_a_result_or_an_input_error(kind, seed, examples, tmp_path):
    path = tmp_path / f"seed.{kind}"
    path.write_bytes(seed)
    done = subprocess.run([sys.executable, "-c", _FUZZ, kind, str(examples), str(path)], capture_output=True,
                          text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    counts = eval(done.stdout.strip().split(" ", 1)[1])  # {"result": n, "InputError": m}
    assert sum(counts.values()) == examples
    assert counts["InputError"] > 0  # the mutations do break files (the test reads what it means to)


# -- the pre-check's two tokenizers agree ------------------------------------------------------------------


@pytest.mark.parametrize(("data", "kind"), [
    (xlsx(TABLE + FAR), "xlsx"),
    (xlsx(TABLE + '<row r="7"><c/><c><v>1</v></c></row><row><c r="D9" t="s"><v>0</v></c></row>', strings=["a"]), "xlsx"),
    (xlsx(TABLE.replace('<c r="A3" t="inlineStr"><is><t>wine</t></is></c>', '<c r="A3" t="s"><v>-1</v></c>'),
          strings=["a"]), "xlsx"),
    (ods(ODS_TABLE + row(s("y"), f(1, ' table:number-columns-repeated="30000"'), rep=3)), "ods"),
    (ods(ODS_TABLE + row(s('x<text:s text:c="2000000"/>'))), "ods"),
    (ods(ODS_TABLE), "ods"),
])
def test_numpy_tokenizer_and_regular_expressions_give_the_same_verdict(data, kind, monkeypatch):
    def verdict() -> str:
        try:
            _workbook_check.check_workbook(data, "same." + kind, kind, max_cells=50_000)
        except InputError as err:
            return str(err)
        return "accepted"

    fast = verdict()
    monkeypatch.setattr(_workbook_check, "_FAST", False)  # every block through the regular expressions
    assert verdict() == fast
