"""The hostile inputs of issue 27, generated (nothing hostile is committed), for ``bench/hostile.py``.

Each attack is ``(name, what it is, how it arrives, payload)``: ``arrives`` is "file" (bytes uploaded or
read by the library under a file name), "paste" (text) or "link" (a query string of a shared link).
"""

from __future__ import annotations

import base64
import json
import zlib

from tests.crafted_files import _TABLE, _zip, xlsx  # noqa: F401 (the attacks build on them)

def ods(rows_xml: str) -> bytes:
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
               'opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
               f'<office:spreadsheet><table:table table:name="S">{rows_xml}</table:table></office:spreadsheet>'
               "</office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path='
                '"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return _zip({"content.xml": content, "META-INF/manifest.xml": manifest},
                first=("mimetype", "application/vnd.oasis.opendocument.spreadsheet"))


def _ods_cell(text: str | None = None, value: float | None = None, extra: str = "") -> str:
    if value is not None:
        return f'<table:table-cell office:value-type="float" office:value="{value}"{extra}><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"{extra}><text:p>{text}</text:p></table:table-cell>'


def _ods_table(extra_rows: str = "", cell_extra: str = "") -> str:
    header = "<table:table-row>" + "".join(_ods_cell(t) for t in ("dataset", "A", "B")) + "</table:table-row>"
    body = "".join("<table:table-row>" + _ods_cell(f"d{i}") + _ods_cell(value=0.5 + i / 10, extra=cell_extra)
                   + _ods_cell(value=0.6) + "</table:table-row>" for i in range(3))
    return header + body + extra_rows


def link(table_text: str) -> str:
    """The query string of a shared link whose table is ``table_text`` (as the app packs it)."""
    packed = base64.urlsafe_b64encode(zlib.compress(json.dumps({"csv": table_text, "higher": True}).encode(), 9))
    return "data=" + packed.decode().rstrip("=")


def attacks() -> list[tuple[str, str, str, bytes | str]]:
    """Every hostile input of issue 27 (and the ones found since), smallest form first."""
    out: list[tuple[str, str, str, bytes | str]] = []
    add = out.append
    add(("xlsx_far_cell.xlsx", "one cell at XFD1048576 (calamine allocates 512 GiB and aborts)", "file",
         xlsx(_TABLE + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')))
    add(("xlsx_16384_columns.xlsx", "a row reaching column XFD (16,384 columns)", "file",
         xlsx(_TABLE + '<row r="4"><c r="A4" t="inlineStr"><is><t>d3</t></is></c><c r="XFD4"><v>1</v></c></row>')))
    add(("xlsx_negative_shared_string.xlsx", "a shared-string index of -1 (read as string 0)", "file",
         xlsx(_TABLE.replace('<c r="A3" t="inlineStr"><is><t>d2</t></is></c>', '<c r="A3" t="s"><v>-1</v></c>'),
              shared=["dataset"])))
    add(("ods_text_c.ods", '<text:s text:c="1000000000"/> (one billion spaces)', "file",
         ods(_ods_table().replace("<text:p>d0</text:p>", '<text:p>d<text:s text:c="1000000000"/>0</text:p>'))))
    for n in (10**6, 10**9):
        add((f"ods_rows_repeated_{n:.0e}.ods", f"a row with content repeated {n:,} times", "file",
             ods(_ods_table(f'<table:table-row table:number-rows-repeated="{n}">' + _ods_cell("x") + _ods_cell(value=1)
                            + _ods_cell(value=2) + "</table:table-row>"))))
        add((f"ods_columns_repeated_{n:.0e}.ods", f"a cell with content repeated {n:,} times across", "file",
             ods(_ods_table(cell_extra=f' table:number-columns-repeated="{n}"'))))
    for n in ("20000000", "100000000", "2000000000", "1" + "0" * 40):
        table = "\\begin{tabular}{ll}\\multicolumn{" + n + "}{c}{x}\\\\ a & b\\\\\\end{tabular}"
        add((f"latex_multicolumn_{n[:12]}", f"\\multicolumn{{{n}}}{{c}}{{x}} in a link's table", "link", link(table)))
        add((f"latex_multicolumn_{n[:12]}_paste", f"\\multicolumn{{{n}}}{{c}}{{x}} pasted", "paste", table + "\n"))
    add(("latex_nested_braces", "100,000 nested braces in a LaTeX cell", "paste",
         "\\begin{tabular}{ll}\nname & A\\\\\n" + "{" * 100_000 + "x" + "}" * 100_000 + " & 1\\\\\n\\end{tabular}\n"))
    for spaces in (2_000, 40_000, 1_000_000):
        add((f"sniff_latex_row_{spaces}", f"'a &\\\\' and {spaces:,} spaces (cubic backtracking in the detection)", "link",
             link("a &\\\\" + " " * spaces)))
        add((f"sniff_latex_row_{spaces}_paste", f"'a &\\\\' and {spaces:,} spaces, pasted", "paste",
             "a &\\\\" + " " * spaces + "\nb & 1\\\\\n"))
    for shape, unit in (("plus", "1+"), ("paren", "(1"), ("pm", "1 ±"), ("bracket", "1 ["), ("bold", "**1")):
        for size in (40_000, 1_000_000):
            cell = unit + " " * size
            add((f"csv_cell_{shape}_{size}", f"a cell '{unit}' followed by {size:,} spaces", "paste",
                 f"dataset,A,B\nd1,{cell},0.5\nd2,0.4,0.6\n"))
    for shape, text in (("align", "|" + ":-" * 20_000 + "x"), ("image", "![" * 20_000), ("link", "[" * 20_000 + "](")):
        add((f"markdown_{shape}", f"a Markdown table with {shape} openers", "paste",
             f"| dataset | A |\n|---|---|\n| d1 {text} | 0.5 |\n| d2 | 0.6 |\n"))
    add(("pdf_text_rows", "a PDF-text table whose rows are 40 KB of single-spaced tokens", "paste",
         "dataset A B\n" + "d1 " + "1 " * 20_000 + "\nd2 0.4 0.6\n"))
    add(("csv_bom_line", "a header with a trailing comma, then a line holding only a byte-order mark", "file",
         "dataset,A,B,\n\ufeff\nd1,0.5,0.6,\n".encode("utf-8")))
    add(("csv_lone_surrogate", "a lone surrogate in a name", "paste", "dataset,A,B\nd\ud8001,0.5,0.6\nd2,0.4,0.7\n"))
    add(("csv_one_invalid_byte", "a UTF-8 file with one invalid byte", "file",
         "dataset,A,B\nRéunion,0.5,0.6\nd2,0.4,0.7\n".encode("utf-8") + b"d3\xff,0.1,0.2\n"))
    return out
