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
    found = [(m.start(), m.group(1).split()[0].rstrip(",&"), m.group(2)) for m in _WORK.finditer(text)]
    found += [(m.start(), m.group(1), m.group(2)) for m in _NARRATIVE.finditer(text)]
    for _, author, year in sorted(found):
        seen.setdefault((author, year), None)
    return list(seen)


def bibtex(text: str, *, always: tuple[str, ...] = ("Demšar 2006",)) -> str:
    """The BibTeX entries of the works ``text`` cites that the library knows (plus ``always``), in order of
    first mention; works it does not know are listed in a comment so that nothing is silently left out."""
    known, unknown = [], []
    for key in dict.fromkeys([*works(" ".join(always)), *works(text)]):
        (known if key in _ENTRIES else unknown).append(key)
    out = [_ENTRIES[key] for key in known]
    if unknown:
        out.append("% Not in the library's list (add them by hand): " + "; ".join(f"{a} {y}" for a, y in unknown))
    return "\n\n".join(out) + "\n"
