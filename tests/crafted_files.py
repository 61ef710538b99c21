"""Crafted workbooks for the hostile-input tests and ``bench/attacks.py`` (issue 27): a minimal .xlsx around any
sheet XML, and the zip writer the OpenDocument attacks use too. Nothing hostile is committed: it is generated."""

from __future__ import annotations

import io
import zipfile

_XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+'
    'xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
    'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
    '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet '
    'name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}
_TABLE = ('<row r="1"><c r="A1" t="inlineStr"><is><t>dataset</t></is></c><c r="B1" t="inlineStr"><is><t>A</t></is>'
          '</c><c r="C1" t="inlineStr"><is><t>B</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>d1</t>'
          '</is></c><c r="B2"><v>1</v></c><c r="C2"><v>2</v></c></row><row r="3"><c r="A3" t="inlineStr"><is><t>d2'
          '</t></is></c><c r="B3"><v>3</v></c><c r="C3"><v>1</v></c></row>')


def _zip(parts: dict[str, str], first: tuple[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if first is not None:
            z.writestr(zipfile.ZipInfo(first[0]), first[1])  # stored, as OpenDocument wants its mimetype
        for name, text in parts.items():
            z.writestr(name, text)
    return buf.getvalue()


def xlsx(rows_xml: str, shared: list[str] | None = None) -> bytes:
    parts = dict(_XLSX_PARTS)
    parts["xl/worksheets/sheet1.xml"] = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                         f"<sheetData>{rows_xml}</sheetData></worksheet>")
    if shared is not None:
        parts["xl/sharedStrings.xml"] = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                         + "".join(f"<si><t>{s}</t></si>" for s in shared) + "</sst>")
        parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
            "</Relationships>", '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    return _zip(parts)
