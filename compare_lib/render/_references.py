"""The works the library's methods come from: one citation style, and their BibTeX.

Registry entries name their sources as "Holm 1979; García & Herrera 2008, §3". :func:`cite` turns that into
the author-year style the reports use everywhere, "Holm, 1979; García & Herrera, 2008, §3", and
:func:`bibtex` gives the entries of the works a text cites (the key is the first author and the year).
"""

from __future__ import annotations

import re

# "Holm 1979", "García & Herrera 2008", "Eisinga, Heskes, Pelzer & Te Grotenhuis 2017", "García et al. 2010"
_WORK = re.compile(r"([A-ZÀ-Ž][\w'’À-ž-]*(?:(?:,| &| and)? (?:[A-ZÀ-Ž][\w'’À-ž-]*|et al\.))*),? (\d{4})\b")

# "Demšar (2006)", "García & Herrera (2008)": a narrative citation
_NARRATIVE = re.compile(r"([A-ZÀ-Ž][\w'’À-ž-]*)(?: (?:&|and) [A-ZÀ-Ž][\w'’À-ž-]*| et al\.)? \((\d{4})\)")

#: BibTeX of the works cited by the library's registries and reports, keyed by (first author, year).
_ENTRIES: dict[tuple[str, str], str] = {
    ("Demšar", "2006"): """@article{demsar2006,
  author = {Dem{\\v{s}}ar, Janez},
  title = {Statistical Comparisons of Classifiers over Multiple Data Sets},
  journal = {Journal of Machine Learning Research}, volume = {7}, pages = {1--30}, year = {2006}}""",
    ("García", "2008"): """@article{garcia2008,
  author = {Garc{\\'i}a, Salvador and Herrera, Francisco},
  title = {An Extension on ``Statistical Comparisons of Classifiers over Multiple Data Sets'' for all Pairwise Comparisons},
  journal = {Journal of Machine Learning Research}, volume = {9}, pages = {2677--2694}, year = {2008}}""",
    ("García", "2010"): """@article{garcia2010,
  author = {Garc{\\'i}a, Salvador and Fern{\\'a}ndez, Alberto and Luengo, Juli{\\'a}n and Herrera, Francisco},
  title = {Advanced Nonparametric Tests for Multiple Comparisons in the Design of Experiments in Computational
           Intelligence and Data Mining: Experimental Analysis of Power},
  journal = {Information Sciences}, volume = {180}, number = {10}, pages = {2044--2064}, year = {2010}}""",
    ("Benavoli", "2016"): """@article{benavoli2016,
  author = {Benavoli, Alessio and Corani, Giorgio and Mangili, Francesca},
  title = {Should We Really Use Post-Hoc Tests Based on Mean-Ranks?},
  journal = {Journal of Machine Learning Research}, volume = {17}, number = {5}, pages = {1--10}, year = {2016}}""",
    ("Benavoli", "2017"): """@article{benavoli2017,
  author = {Benavoli, Alessio and Corani, Giorgio and Dem{\\v{s}}ar, Janez and Zaffalon, Marco},
  title = {Time for a Change: a Tutorial for Comparing Multiple Classifiers Through {B}ayesian Analysis},
  journal = {Journal of Machine Learning Research}, volume = {18}, number = {77}, pages = {1--36}, year = {2017}}""",
    ("Friedman", "1937"): """@article{friedman1937,
  author = {Friedman, Milton},
  title = {The Use of Ranks to Avoid the Assumption of Normality Implicit in the Analysis of Variance},
  journal = {Journal of the American Statistical Association}, volume = {32}, number = {200}, pages = {675--701},
  year = {1937}}""",
    ("Iman", "1980"): """@article{iman1980,
  author = {Iman, Ronald L. and Davenport, James M.},
  title = {Approximations of the Critical Region of the {F}riedman Statistic},
  journal = {Communications in Statistics -- Theory and Methods}, volume = {9}, number = {6}, pages = {571--595},
  year = {1980}}""",
    ("Skillings", "1981"): """@article{skillings1981,
  author = {Skillings, John H. and Mack, Gregory A.},
  title = {On the Use of a {F}riedman-Type Statistic in Balanced and Unbalanced Block Designs},
  journal = {Technometrics}, volume = {23}, number = {2}, pages = {171--177}, year = {1981}}""",
    ("Holm", "1979"): """@article{holm1979,
  author = {Holm, Sture},
  title = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics}, volume = {6}, number = {2}, pages = {65--70}, year = {1979}}""",
    ("Hochberg", "1988"): """@article{hochberg1988,
  author = {Hochberg, Yosef},
  title = {A Sharper {B}onferroni Procedure for Multiple Tests of Significance},
  journal = {Biometrika}, volume = {75}, number = {4}, pages = {800--802}, year = {1988}}""",
    ("Hommel", "1988"): """@article{hommel1988,
  author = {Hommel, Gerhard},
  title = {A Stagewise Rejective Multiple Test Procedure Based on a Modified {B}onferroni Test},
  journal = {Biometrika}, volume = {75}, number = {2}, pages = {383--386}, year = {1988}}""",
    ("Bergmann", "1988"): """@incollection{bergmann1988,
  author = {Bergmann, Beate and Hommel, Gerhard},
  title = {Improvements of General Multiple Test Procedures for Redundant Systems of Hypotheses},
  booktitle = {Multiple Hypothesenpr{\\"u}fung -- Multiple Hypotheses Testing}, editor = {Bauer, P. and Hommel, G. and Sonnemann, E.},
  publisher = {Springer}, pages = {100--115}, year = {1988}}""",
    ("Shaffer", "1986"): """@article{shaffer1986,
  author = {Shaffer, Juliet Popper},
  title = {Modified Sequentially Rejective Multiple Test Procedures},
  journal = {Journal of the American Statistical Association}, volume = {81}, number = {395}, pages = {826--831},
  year = {1986}}""",
    ("Nemenyi", "1963"): """@phdthesis{nemenyi1963,
  author = {Nemenyi, Peter B.}, title = {Distribution-Free Multiple Comparisons},
  school = {Princeton University}, year = {1963}}""",
    ("Dunn", "1961"): """@article{dunn1961,
  author = {Dunn, Olive Jean},
  title = {Multiple Comparisons Among Means},
  journal = {Journal of the American Statistical Association}, volume = {56}, number = {293}, pages = {52--64},
  year = {1961}}""",
    ("Holland", "1987"): """@article{holland1987,
  author = {Holland, Burt S. and Copenhaver, Margaret DiPonzio},
  title = {An Improved Sequentially Rejective {B}onferroni Test Procedure},
  journal = {Biometrics}, volume = {43}, number = {2}, pages = {417--423}, year = {1987}}""",
    ("Finner", "1993"): """@article{finner1993,
  author = {Finner, Helmut},
  title = {On a Monotonicity Problem in Step-Down Multiple Test Procedures},
  journal = {Journal of the American Statistical Association}, volume = {88}, number = {423}, pages = {920--923},
  year = {1993}}""",
    ("Rom", "1990"): """@article{rom1990,
  author = {Rom, Dror M.},
  title = {A Sequentially Rejective Test Procedure Based on a Modified {B}onferroni Inequality},
  journal = {Biometrika}, volume = {77}, number = {3}, pages = {663--665}, year = {1990}}""",
    ("Li", "2008"): """@article{li2008,
  author = {Li, Jianjun David},
  title = {A Two-Step Rejection Procedure for Testing Multiple Hypotheses},
  journal = {Journal of Statistical Planning and Inference}, volume = {138}, number = {6}, pages = {1521--1527},
  year = {2008}}""",
    ("Wilcoxon", "1945"): """@article{wilcoxon1945,
  author = {Wilcoxon, Frank},
  title = {Individual Comparisons by Ranking Methods},
  journal = {Biometrics Bulletin}, volume = {1}, number = {6}, pages = {80--83}, year = {1945}}""",
    ("Hodges", "1962"): """@article{hodges1962,
  author = {Hodges, J. L. and Lehmann, E. L.},
  title = {Rank Methods for Combination of Independent Experiments in Analysis of Variance},
  journal = {The Annals of Mathematical Statistics}, volume = {33}, number = {2}, pages = {482--497}, year = {1962}}""",
    ("Hodges", "1963"): """@article{hodges1963,
  author = {Hodges, J. L. and Lehmann, E. L.},
  title = {Estimates of Location Based on Rank Tests},
  journal = {The Annals of Mathematical Statistics}, volume = {34}, number = {2}, pages = {598--611}, year = {1963}}""",
    ("Quade", "1979"): """@article{quade1979,
  author = {Quade, Dana},
  title = {Using Weighted Rankings in the Analysis of Complete Blocks with Additive Block Effects},
  journal = {Journal of the American Statistical Association}, volume = {74}, number = {367}, pages = {680--683},
  year = {1979}}""",
    ("Conover", "1999"): """@book{conover1999,
  author = {Conover, W. J.}, title = {Practical Nonparametric Statistics}, edition = {3rd},
  publisher = {Wiley}, year = {1999}}""",
    ("Eisinga", "2017"): """@article{eisinga2017,
  author = {Eisinga, Rob and Heskes, Tom and Pelzer, Ben and Te Grotenhuis, Manfred},
  title = {Exact p-Values for Pairwise Comparison of {F}riedman Rank Sums, with Application to Comparing Classifiers},
  journal = {BMC Bioinformatics}, volume = {18}, number = {68}, year = {2017}}""",
    ("Kerby", "2014"): """@article{kerby2014,
  author = {Kerby, Dave S.},
  title = {The Simple Difference Formula: An Approach to Teaching Nonparametric Correlation},
  journal = {Comprehensive Psychology}, volume = {3}, year = {2014}}""",
    ("Mogstad", "2024"): """@article{mogstad2024,
  author = {Mogstad, Magne and Romano, Joseph P. and Shaikh, Azeem M. and Wilhelm, Daniel},
  title = {Inference for Ranks with Applications to Mobility across Neighbourhoods and Academic Achievement
           across Countries},
  journal = {Review of Economic Studies}, volume = {91}, number = {1}, pages = {476--518}, year = {2024}}""",
    ("Piepho", "2004"): """@article{piepho2004,
  author = {Piepho, Hans-Peter},
  title = {An Algorithm for a Letter-Based Representation of All-Pairwise Comparisons},
  journal = {Journal of Computational and Graphical Statistics}, volume = {13}, number = {2}, pages = {456--466},
  year = {2004}}""",
    ("Friedman", "1940"): """@article{friedman1940,
  author = {Friedman, Milton},
  title = {A Comparison of Alternative Tests of Significance for the Problem of $m$ Rankings},
  journal = {The Annals of Mathematical Statistics}, volume = {11}, number = {1}, pages = {86--92}, year = {1940}}""",
    ("Benavoli", "2014"): """@inproceedings{benavoli2014,
  author = {Benavoli, Alessio and Mangili, Francesca and Corani, Giorgio and Zaffalon, Marco and Ruggeri, Fabrizio},
  title = {A {B}ayesian {W}ilcoxon Signed-Rank Test Based on the {D}irichlet Process},
  booktitle = {Proceedings of the 31st International Conference on Machine Learning (ICML 2014)},
  series = {Proceedings of Machine Learning Research}, volume = {32}, number = {2}, pages = {1026--1034}, year = {2014}}""",
    ("Bouckaert", "2004"): """@inproceedings{bouckaert2004,
  author = {Bouckaert, Remco R. and Frank, Eibe},
  title = {Evaluating the Replicability of Significance Tests for Comparing Learning Algorithms},
  booktitle = {Advances in Knowledge Discovery and Data Mining (PAKDD 2004)}, editor = {Dai, Honghua and Srikant, Ramakrishnan and Zhang, Chengqi},
  series = {Lecture Notes in Computer Science}, volume = {3056}, publisher = {Springer}, pages = {3--12}, year = {2004}}""",
    ("Fisher", "1959"): """@book{fisher1959,
  author = {Fisher, Ronald A.}, title = {Statistical Methods and Scientific Inference}, edition = {2nd},
  publisher = {Hafner}, year = {1959}}""",
}


def cite(reference: str) -> str:
    """A registry's reference in the reports' one style: "Holm 1979; García & Herrera 2008, §3" ->
    "Holm, 1979; García & Herrera, 2008, §3" (already-styled text is left as it is)."""
    return _WORK.sub(lambda m: f"{m.group(1)}, {m.group(2)}", reference)


def works(text: str) -> list[tuple[str, str]]:
    """The (first author, year) of every work a text cites, in order of first mention."""
    seen: dict[tuple[str, str], None] = {}
    found = []
    for m in _WORK.finditer(text):
        author = m.group(1).split()[0].rstrip(",&")
        found.append((m.start(), author, m.group(2)))
        pos = m.end()
        while (more := _MORE_YEARS.match(text, pos)) is not None:  # "Benavoli et al., 2014, 2017": two works
            found.append((more.start(), author, more.group(1)))
            pos = more.end()
    found += [(m.start(), m.group(1), m.group(2)) for m in _NARRATIVE.finditer(text)]
    for _, author, year in sorted(found):
        seen.setdefault((author, year), None)
    return list(seen)


def bibtex(text: str, *, always: tuple[str, ...] = ("Demšar 2006",)) -> str:
    """The BibTeX entries of the works ``text`` cites that the library knows (plus ``always``), in order of
    first mention; works it does not know are listed in a comment so that nothing is silently left out."""
    known: list[tuple[str, str]] = []
    unknown: list[tuple[str, str]] = []
    for key in dict.fromkeys([*works(" ".join(always)), *works(text)]):
        (known if key in _ENTRIES else unknown).append(key)
    out = [_ENTRIES[key] for key in known]
    if unknown:
        out.append("% Not in the library's list (add them by hand): " + "; ".join(f"{a} {y}" for a, y in unknown))
    return "\n\n".join(out) + "\n"


# -- one list of references, in every format (issue 28) ------------------------------------------------------------
# The BibTeX entries above are the one source: the structured references of the JSON report, the reference lists
# of the HTML and Markdown reports and the natbib bibliography of the LaTeX report are all read from them.

_MORE_YEARS = re.compile(r", (\d{4})\b")
_BIB_HEAD = re.compile(r"@(\w+)\{([^,]+),")
_BIB_FIELD = re.compile(r"(\w+)\s*=\s*\{")
_ACCENT = re.compile(r"\{?\\([v'\"`^~=.uHc])\{?\s*([A-Za-z]|\\i)\}?\}?")
_COMBINING = {"v": "\u030c", "'": "\u0301", '"': "\u0308", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
              ".": "\u0307", "u": "\u0306", "H": "\u030b", "c": "\u0327"}


def _head(entry: str) -> re.Match[str]:
    """The ``@type{key,`` of one of the library's BibTeX entries."""
    head = _BIB_HEAD.search(entry)
    if head is None:
        raise ValueError(f"Not a BibTeX entry: {entry[:40]!r}")
    return head


def _parse_entry(entry: str) -> dict:
    """The type, key and fields of one of the library's BibTeX entries (values as written, LaTeX)."""
    head = _head(entry)
    fields = {"type": head.group(1), "key": head.group(2).strip()}
    for m in _BIB_FIELD.finditer(entry, head.end()):
        depth, i = 1, m.end()
        while depth and i < len(entry):
            depth += {"{": 1, "}": -1}.get(entry[i], 0)
            i += 1
        fields.setdefault(m.group(1).lower(), " ".join(entry[m.end():i - 1].split()))
    return fields


def latex_to_unicode(text: str) -> str:
    """A BibTeX value as plain text: accents as characters (``Dem{\\v{s}}ar`` -> Demšar), quotes, dashes and
    protecting braces resolved."""
    import unicodedata

    out = _ACCENT.sub(lambda m: ("i" if m.group(2) == "\\i" else m.group(2)) + _COMBINING[m.group(1)], text)
    out = out.replace("``", "“").replace("''", "”").replace("---", "—").replace("--", "–").replace("\\&", "&")
    out = out.replace("$", "").replace("{", "").replace("}", "").replace("~", " ")
    return unicodedata.normalize("NFC", out)


def _authors(value: str) -> list[str]:
    return [latex_to_unicode(a.strip()) for a in value.split(" and ")] if value else []


def _last(name: str) -> str:
    return name.split(",")[0].strip()


def _first_last(name: str) -> str:
    last, _, first = name.partition(",")
    return f"{first.strip()} {last.strip()}".strip()


def _name_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ") + names[-1]


def reference(work: tuple[str, str]) -> dict:
    """One work as plain data: ``key``, ``type``, ``authors`` ("Last, First"), ``year``, ``title``, ``venue``
    (journal, book, school or publisher), ``volume``, ``number``, ``pages``, ``publisher``, ``editors`` (empty
    when not known), ``text`` (the reference written out) and ``bibtex``."""
    entry = _ENTRIES[work]
    f = _parse_entry(entry)
    plain = {k: latex_to_unicode(v) for k, v in f.items() if k not in ("author", "editor")}
    venue = plain.get("journal") or plain.get("booktitle") or plain.get("school") or plain.get("publisher", "")
    out = {"key": f["key"], "type": f["type"], "authors": _authors(f.get("author", "")), "year": plain.get("year", ""),
           "title": plain.get("title", ""), "venue": venue, "volume": plain.get("volume", ""),
           "number": plain.get("number", ""), "pages": plain.get("pages", ""), "publisher": plain.get("publisher", ""),
           "editors": _authors(f.get("editor", ""))}
    out["text"] = _reference_text(out, plain)
    out["bibtex"] = entry
    return out


def _reference_text(r: dict, plain: dict) -> str:
    """"Demšar, J. (2006). Statistical Comparisons of Classifiers over Multiple Data Sets. Journal of Machine Learning
    Research, 7, 1–30." (author-year, as the reports cite)."""
    def initials(name: str) -> str:
        last, _, first = name.partition(",")
        letters = " ".join(part[0] + "." for part in first.replace("-", " ").split() if part and part[0].isalpha())
        return f"{last.strip()}, {letters}" if letters else last.strip()

    names = [initials(a) for a in r["authors"]]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
    text = f"{who} ({r['year']}). {r['title']}" + ("" if r["title"].endswith(("?", "!", ".")) else ".")
    if r["type"] == "article":
        text += f" {r['venue']}"
        if r["volume"]:
            text += f", {r['volume']}" + (f"({r['number']})" if r["number"] else "")
        text += f", {r['pages']}." if r["pages"] else "."
    elif r["type"] in ("inproceedings", "incollection"):
        text += f" In {r['venue']}" + (f" ({plain['series']} {r['volume']})" if plain.get("series") and r["volume"]
                                         else "") + (f", pp. {r['pages']}" if r["pages"] else "") + "."
        if r["publisher"]:
            text += f" {r['publisher']}."
    elif r["type"] == "phdthesis":
        text += f" PhD thesis, {r['venue']}."
    else:
        text += (f" {plain['edition']} ed." if plain.get("edition") else "") + f" {r['venue']}."
    return text


def work_keys(text: str, *, always: tuple[str, ...] = ()) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The works ``text`` cites (plus ``always``), in order of first mention: those the library knows and the
    others."""
    known: list[tuple[str, str]] = []
    unknown: list[tuple[str, str]] = []
    for key in dict.fromkeys([*works(" ".join(always)), *works(text)]):
        (known if key in _ENTRIES else unknown).append(key)
    return known, unknown


def references(text: str, *, always: tuple[str, ...] = ()) -> list[dict]:
    """:func:`reference` of every work ``text`` cites that the library knows, in order of first mention."""
    return [reference(key) for key in work_keys(text, always=always)[0]]


def _bibitem_label(f: dict) -> str:
    """natbib's label: ``Dem{\\v{s}}ar(2006)``, ``Garc{\\'i}a and Herrera(2008)``, ``Benavoli et~al.(2016)Benavoli,
    Corani, and Mangili``."""
    lasts = [_last(a) for a in f.get("author", "").split(" and ") if a.strip()]
    year = f.get("year", "")
    if len(lasts) == 1:
        return f"{lasts[0]}({year})"
    if len(lasts) == 2:
        return f"{lasts[0]} and {lasts[1]}({year})"
    return f"{lasts[0]} et~al.({year}){_name_list(lasts)}"


def bibitem(work: tuple[str, str]) -> str:
    """The ``\\bibitem`` of a work for a natbib ``thebibliography`` (author-year), in LaTeX."""
    f = _parse_entry(_ENTRIES[work])
    authors = _name_list([_first_last(a) for a in f.get("author", "").split(" and ") if a.strip()])
    text = f"{authors}. {f.get('title', '')}."
    kind = f["type"]
    if kind == "article":
        vol = f.get("volume", "") + (f"({f['number']})" if f.get("number") else "")
        text += rf" \emph{{{f.get('journal', '')}}}" + (f", {vol}" if vol else "") + (
            rf":\penalty0 {f['pages']}" if f.get("pages") else "") + f", {f.get('year', '')}."
    elif kind in ("inproceedings", "incollection"):
        editors = _name_list([_first_last(a) for a in f.get("editor", "").split(" and ") if a.strip()]) if f.get("editor") else ""
        text += " In " + (f"{editors}, editors, " if editors else "") + rf"\emph{{{f.get('booktitle', '')}}}"
        if f.get("series"):
            text += f", volume {f.get('volume', '')} of \\emph{{{f['series']}}}" if f.get("volume") else f", {f['series']}"
        text += (f", pages {f['pages']}" if f.get("pages") else "") + "." + (
            f" {f['publisher']}," if f.get("publisher") else "") + f" {f.get('year', '')}."
    elif kind == "phdthesis":
        text += f" PhD thesis, {f.get('school', '')}, {f.get('year', '')}."
    else:
        text += (f" {f['edition']} edition." if f.get("edition") else "") + f" {f.get('publisher', '')}, {f.get('year', '')}."
    text = text.replace(",,", ",").replace("..", ".").replace("?.", "?")
    return rf"\bibitem[{_bibitem_label(f)}]{{{f['key']}}}" + "\n" + text


def thebibliography(works_cited: list[tuple[str, str]]) -> str:
    """A natbib ``thebibliography`` environment for these works (pdflatex alone resolves it, no BibTeX run)."""
    items = "\n\n".join(bibitem(w) for w in works_cited)
    return "\\begin{thebibliography}{%d}\n\\providecommand{\\natexlab}[1]{#1}\n%s\n\\end{thebibliography}\n" % (
        len(works_cited), items)


def bibtex_key(work: tuple[str, str]) -> str | None:
    """The BibTeX key of a known work (``("Demšar", "2006")`` -> ``demsar2006``), None for another."""
    entry = _ENTRIES.get(work)
    return None if entry is None else _head(entry).group(2).strip()


_CITE_ITEM = re.compile(r", (\d{4})\b")
_AUTHORS = re.compile(r"[A-ZÀ-Ž][\w'’À-ž-]*(?:(?:,| &| and)? (?:[A-ZÀ-Ž][\w'’À-ž-]*|et al\.))*")
_NARRATIVE_CITE = re.compile(
    r"([A-ZÀ-Ž][\w'’À-ž-]*(?: (?:&|and) [A-ZÀ-Ž][\w'’À-ž-]*| et al\.)?) \((\d{4})(?:, ([^()]*))?\)")
_PARENS = re.compile(r"\(([^()]*)\)")


def _cite_item(item: str) -> tuple[list[str], str] | None:
    """("Holm, 1979" -> (["holm1979"], "")); "García & Herrera, 2008, §3" -> (["garcia2008"], "§3"); None when the
    item is not a citation of works the library knows."""
    m = _CITE_ITEM.search(item)
    if m is None or not item[:1].isupper():
        return None
    authors = item[:m.start()]
    first = authors.split()[0].rstrip(",&") if authors.split() else ""
    years, pos = [m.group(1)], m.end()
    while (more := _MORE_YEARS.match(item, pos)) is not None:
        years.append(more.group(1))
        pos = more.end()
    note = item[pos:].removeprefix(", ").strip()
    if item[pos:] and not item[pos:].startswith(", "):
        return None
    keys = [bibtex_key((first, y)) for y in years]
    known = [k for k in keys if k is not None]
    if not first or len(known) < len(keys) or not _AUTHORS.fullmatch(authors):
        return None
    return known, note


def latex_cites(text: str, escape) -> str:
    """Plain text with its citations of known works as natbib commands: "Demšar (2006)" -> ``\\citet{demsar2006}``,
    "(Holm, 1979; García & Herrera, 2008, §3)" -> ``\\citep[\\S{}3]{holm1979,garcia2008}``; everything else
    (and a citation of a work the library does not know) goes through ``escape`` (LaTeX text)."""
    out, pos = [], 0
    for m in re.finditer(f"{_NARRATIVE_CITE.pattern}|{_PARENS.pattern}", text):
        replacement = None
        if m.group(2) is not None:  # narrative: Author (Year[, note])
            key = bibtex_key((m.group(1).split()[0], m.group(2)))
            if key is not None:
                note = m.group(3)
                replacement = rf"\citet[{escape(note)}]{{{key}}}" if note else rf"\citet{{{key}}}"
        else:
            items = m.group(4).split("; ")
            parsed = [_cite_item(item) for item in items]
            cited = [p for p in parsed if p is not None]
            if len(cited) == len(parsed):
                keys = [k for p in cited for k in p[0]]
                notes = [p[1] for p in cited]
                if not any(notes[:-1]):
                    note = notes[-1]
                    replacement = (rf"\citep[{escape(note)}]{{{','.join(keys)}}}" if note
                                   else rf"\citep{{{','.join(keys)}}}")
                else:
                    replacement = "(" + "; ".join(
                        (rf"\citealp[{escape(n)}]{{{','.join(k)}}}" if n else rf"\citealp{{{','.join(k)}}}")
                        for k, n in cited) + ")"
            elif any(parsed):
                replacement = "(" + "; ".join(
                    escape(item) if p is None else (rf"\citealp[{escape(p[1])}]{{{','.join(p[0])}}}" if p[1]
                                                    else rf"\citealp{{{','.join(p[0])}}}")
                    for item, p in zip(items, parsed)) + ")"
        if replacement is None:
            continue
        out += [escape(text[pos:m.start()]), replacement]
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)
