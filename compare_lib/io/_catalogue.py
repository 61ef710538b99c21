"""The direction catalogue: which way is better for a metric, looked up by its name (issue 28).

The catalogue is a data file of the library, ``metric_directions.csv`` (columns ``pattern``, ``role``,
``higher_is_better``, ``meaning``, ``field``, ``source``). A pattern is a name or a phrase written as
normalised words. A name is normalised the same way (accents and case dropped, camelCase and
letters/digits split, every other character a separator, ``@10``/``@k`` read as ``@k``), then cut into
the longest catalogue phrases, left to right; a phrase also matches its words written together
(``log loss`` matches ``logloss``, ``mean iou`` matches ``MeanIoU``).

Roles: a *metric* says higher or lower (or ``none``: known to have no better direction, e.g.
``coverage``); a *modifier* changes the direction of the metric it goes with (``flip``: ``neg``,
``drop``, ``reduction``; ``keep``: ``gain``, ``increase``, ``delta``; ``higher``/``lower`` whatever the
metric: ``improvement``, ``d2``, ``skill`` / ``rank``; ``spread``: ``std`` and the like, which have no
better direction); a *qualifier* says nothing (``test``, ``val``, ``mean``, ``macro``, ``score``, ``@k``,
numbers). The answer is unknown (None) when no metric of the catalogue is named, when two disagree, when
a spread or an ambiguous metric is named, when a word the catalogue does not hold follows the metric (it
may change its meaning), or when ``1`` comes right before it (``1 - accuracy``). Words before the metric
that the catalogue does not hold (a data set, a model: ``cifar10_accuracy``) are left aside.

Lookups are linear in the name: the catalogue is compiled once into a dict of joined words, and a name
longer than :data:`compare_lib.limits.MAX_NAME_LENGTH` is not looked up.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata
from dataclasses import dataclass, replace
from importlib import resources

from compare_lib.limits import MAX_NAME_LENGTH

CATALOGUE_FILE = "metric_directions.csv"
COLUMNS = ("pattern", "role", "higher_is_better", "meaning", "field", "source")
#: Allowed values of the ``higher_is_better`` column, by role.
VALUES = {"metric": ("higher", "lower", "none"), "modifier": ("flip", "keep", "higher", "lower", "spread"),
          "qualifier": ("",)}
#: A phrase may match a few more words than it has (``mean iou`` matches ``mean``, ``io``, ``u`` of ``MeanIoU``).
_SLACK = 2

# Split camelCase ("meanAbsolute", "valAcc", "BLEUScore") but not one letter before capitals ("mAP", "nDCG",
# "sMAPE", "mIoU"). Fixed-width look-arounds: linear.
_CAMEL = re.compile(r"(?<=[A-Za-z0-9][a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# Words: "@", a run of letters, a run of digits; everything else separates.
_TOKEN = re.compile(r"@|[^\W\d_]+|\d+")
# "@10", "@k", "@FPR=1%", "@5y": a cut-off or an operating point, up to the next separator.
_CUTOFF = re.compile(r"@[^\s_/()\[\]{},;|]*")
#: Words after which the rest of a name names a reference ("win rate vs GPT-4"), not the metric.
_REFERENCE = ("vs", "versus", "against")
_DISPLAY_DIGITS = re.compile(r"(?<=[a-z]) (?=\d)|(?<=\d) (?=k\b)")


@dataclass(frozen=True)
class Entry:
    """One row of the catalogue."""

    pattern: str
    role: str
    value: str  # metric: higher/lower/none; modifier: flip/keep/higher/lower/spread; qualifier: ""
    meaning: str
    field: str
    source: str

    @property
    def shown(self) -> str:
        """The pattern as written in a reason ("f1", "hd95", not "f 1", "hd 95")."""
        return _DISPLAY_DIGITS.sub("", self.pattern)

    @property
    def where(self) -> str:
        """"ASR, Hugging Face evaluate": the field and the source."""
        return ", ".join(x for x in (self.field, self.source) if x)

    def clause(self) -> str:
        """"'wer' is word error rate (ASR, Hugging Face evaluate)"."""
        where = f" ({self.where})" if self.where else ""
        return f"'{self.shown}' is {self.meaning}{where}"


def words(text: str) -> list[str]:
    """The normalised words of a name: 'test_NDCG@10' -> ['test', 'ndcg', '@k'], 'valAcc' -> ['val', 'acc'],
    'F1Score' -> ['f', '1', 'score']. Linear in the length of the text."""
    text = "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))
    raw = _TOKEN.findall(_CAMEL.sub(" ", _CUTOFF.sub(" @ ", text)).casefold())
    out: list[str] = []
    i = 0
    while i < len(raw):
        w = raw[i]
        if w == "@":
            out.append("@k")
            if i + 1 < len(raw) and (raw[i + 1].isdigit() or raw[i + 1] == "k"):
                i += 1  # "@10", "@k": the cut-off, whatever it is
        else:
            out.append(w)
        i += 1
    return out


@dataclass(frozen=True)
class Catalogue:
    entries: tuple[Entry, ...]
    by_key: dict  # joined words -> Entry
    vocabulary: frozenset  # every word of every pattern
    max_words: int

    def singular(self, word: str) -> str:
        if word in self.vocabulary or len(word) < 4 or not word.endswith("s"):
            return word
        for candidate in ((word[:-3] + "y") if word.endswith("ies") else None, word[:-1]):
            if candidate and candidate in self.vocabulary:
                return candidate
        return word


def parse_catalogue(text: str) -> Catalogue:
    """Compile the catalogue's text; a malformed row raises ValueError naming it (a bug in the data file)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows or tuple(rows[0]) != COLUMNS:
        found = rows[0] if rows else "nothing"
        raise ValueError(f"{CATALOGUE_FILE}: the header must be {','.join(COLUMNS)}, not {found}")
    entries: list[Entry] = []
    by_key: dict[str, Entry] = {}
    vocabulary: set[str] = set()
    max_words = 1
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(COLUMNS):
            raise ValueError(f"{CATALOGUE_FILE}: row {number} has {len(row)} fields, not {len(COLUMNS)}: {row}")
        entry = Entry(*(x.strip() for x in row))
        if entry.role not in VALUES or entry.value not in VALUES[entry.role]:
            raise ValueError(f"{CATALOGUE_FILE}: row {number}: role {entry.role!r} with {entry.value!r}")
        tokens = words(entry.pattern)
        if " ".join(tokens) != entry.pattern:
            raise ValueError(f"{CATALOGUE_FILE}: row {number}: the pattern {entry.pattern!r} is not normalised "
                             f"(it reads as {' '.join(tokens)!r})")
        key = "".join(tokens)
        known = by_key.get(key)
        if known is not None:
            if (known.role, known.value) != (entry.role, entry.value):
                raise ValueError(f"{CATALOGUE_FILE}: row {number}: {entry.pattern!r} contradicts {known.pattern!r}")
            continue
        by_key[key] = entry
        entries.append(entry)
        vocabulary.update(tokens)
        max_words = max(max_words, len(tokens))
    return Catalogue(tuple(entries), by_key, frozenset(vocabulary), max_words)


@functools.lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The library's catalogue, compiled once."""
    text = resources.files(__package__).joinpath(CATALOGUE_FILE).read_text(encoding="utf-8")
    return parse_catalogue(text)


@dataclass(frozen=True)
class _Item:
    kind: str  # "metric", "modifier", "qualifier", "number", "unknown"
    start: int
    end: int
    entry: Entry | None = None
    word: str = ""
    note: bool = False  # inside brackets, or after "vs": an annotation (its unknown words change nothing)

    @property
    def matched(self) -> Entry:
        """The catalogue entry of a metric, modifier or qualifier (numbers and unknown words have none)."""
        if self.entry is None:
            raise TypeError(f"a {self.kind} item has no catalogue entry")
        return self.entry


def segment(tokens: list[str], cat: Catalogue | None = None) -> list[_Item]:
    """The words cut into the longest catalogue phrases, left to right; numbers and unknown words alone."""
    cat = cat or catalogue()
    tokens = [cat.singular(w) for w in tokens]
    items, i, n = [], 0, len(tokens)
    width = cat.max_words + _SLACK
    seen_metric = False
    while i < n:
        if tokens[i].isdigit():
            items.append(_Item("number", i, i + 1, word=tokens[i]))
            i += 1
            continue
        found = None
        for j in range(min(n, i + width), i, -1):
            entry = cat.by_key.get("".join(tokens[i:j]))
            if entry is None and j == i + 2 and tokens[i + 1].isdigit() and not seen_metric:
                entry = cat.by_key.get(tokens[i] + "@k")  # "P_10": a cut-off (but "latency_p99" is a percentile)
            if entry is not None:
                found = (j, entry)
                break
        if found is None:
            items.append(_Item("unknown", i, i + 1, word=tokens[i]))
            i += 1
        else:
            items.append(_Item(found[1].role, i, found[0], entry=found[1]))
            seen_metric = seen_metric or found[1].role == "metric"
            i = found[0]
    return items


def _brackets(text: str) -> tuple[str, str]:
    """(the text outside brackets, the text inside them): "MRR (filtered)" -> ("MRR  ", " filtered "). Linear."""
    outside, inside, depth = [], [], 0
    for ch in text:
        if ch in "([{":
            depth += 1
            outside.append(" ")
        elif ch in ")]}":
            depth = max(0, depth - 1)
            inside.append(" ")
        else:
            (inside if depth else outside).append(ch)
    return "".join(outside), "".join(inside)


def _items(text: str) -> list[_Item]:
    """The segmented name, its bracketed part (and whatever follows "vs") marked as an annotation."""
    outside, inside = _brackets(text)
    main = segment(words(outside))
    at = next((k for k, it in enumerate(main) if it.kind == "metric"), None)
    if at is not None:
        ref = next((k for k in range(at + 1, len(main)) if main[k].kind == "qualifier"
                    and main[k].matched.pattern in _REFERENCE), None)
        if ref is not None:
            main = main[:ref] + [replace(it, note=True) for it in main[ref:]]
    shift = (main[-1].end if main else 0) + 1
    note = [replace(it, start=it.start + shift, end=it.end + shift, note=True) for it in segment(words(inside))]
    return main + note


def _word(value: bool | None) -> str:
    return "higher" if value else "lower"


def _apply(value: bool | None, modifier: Entry) -> bool | None:
    if modifier.value == "higher":
        return True
    if modifier.value == "lower":
        return False
    if value is None:
        return None
    return (not value) if modifier.value == "flip" else value


def _effect(modifier: Entry) -> str:
    return {"flip": "turns it around", "keep": "keeps it", "higher": "is better higher, whatever it measures",
            "lower": "is better lower, whatever it measures"}[modifier.value]


def guess(name) -> tuple[bool | None, str]:
    """(True | False | None, reason) for a metric's name, from the catalogue alone. Never raises."""
    if name is None:
        return None, "unknown: the metric has no name"
    try:
        text = name if isinstance(name, str) else str(name)
    except Exception:  # noqa: BLE001 - a name that cannot even be written out is simply unknown
        return None, "unknown: the metric's name cannot be read as text"
    if len(text) > MAX_NAME_LENGTH:
        return None, f"unknown: the name is longer than {MAX_NAME_LENGTH:,} characters and was not looked up"
    items = _items(text)
    metrics = [it for it in items if it.kind == "metric"]
    modifiers = [it for it in items if it.kind == "modifier"]
    spread = next((m for m in modifiers if m.matched.value == "spread"), None)
    if spread is not None:
        return None, (f"unknown: '{spread.matched.shown}' is {spread.matched.meaning}: neither a higher nor a lower one "
                      "is better")
    vague = next((m for m in metrics if m.matched.value == "none"), None)
    if vague is not None:
        return None, f"unknown: {vague.matched.clause()}, which has no better direction by its name alone"
    if not metrics:
        fixed = [m for m in modifiers if m.matched.value in ("higher", "lower")]
        if fixed and len({m.matched.value for m in fixed}) == 1:
            value = None
            for m in modifiers:
                value = _apply(value, m.matched)
            if value is not None:
                last = fixed[-1].matched
                where = f" ({last.where})" if last.where else ""
                return value, f"{_word(value)} is better: '{last.shown}' is {last.meaning}{where}, whatever it measures"
        if any(it.kind == "qualifier" and it.matched.pattern in ("score", "scores") for it in items):
            return None, "unknown: 'score' alone does not say whether a higher or a lower one is better"
        if modifiers:
            return None, f"unknown: '{modifiers[0].matched.shown}' names no metric of the catalogue"
        return None, "unknown: no word of the name is in the direction catalogue"
    directions = {m.matched.value for m in metrics}
    if len(directions) > 1:
        up = next(m for m in metrics if m.matched.value == "higher").matched
        down = next(m for m in metrics if m.matched.value == "lower").matched
        return None, f"unknown: '{up.shown}' (higher is better) and '{down.shown}' (lower is better) disagree"
    first = metrics[0]
    after = next((it for it in items if it.start > first.start and it.kind == "unknown" and not it.note), None)
    if after is not None:
        return None, (f"unknown: '{after.word}' after '{first.matched.shown}' is not in the direction catalogue and may "
                      "change its meaning")
    before = [it for it in items if it.end <= first.start]
    if before and before[-1].kind == "number" and before[-1].word == "1" and not (
            len(before) > 1 and before[-2].kind == "qualifier" and before[-2].matched.pattern == "top"):
        return None, f"unknown: '1' before '{first.matched.shown}' may mean 1 - {first.matched.shown}"
    base = directions.pop() == "higher"
    value = base
    applied = []
    for m in reversed([m for m in modifiers if m.end <= first.start]):
        value = _apply(value, m.matched)
        applied.append(m.matched)
    for m in [m for m in modifiers if m.start >= first.end]:
        value = _apply(value, m.matched)
        applied.append(m.matched)
    named = " and ".join(dict.fromkeys(m.matched.clause() for m in metrics))
    if not applied:
        return value, f"{_word(value)} is better: {named}"
    steps = "; ".join(f"'{m.shown}' ({m.meaning}) {_effect(m)}" for m in applied)
    return value, f"{_word(value)} is better: {named}, where {_word(base)} is better; {steps}"


def span(text) -> str | None:
    """The words of a text that name a metric of the catalogue, with the modifiers right beside them, joined
    by '_' ('Table 3: Accuracy (%) of five classifiers' -> 'accuracy', 'error_rates' -> 'error_rates',
    'accuracy_drop.csv' -> 'accuracy_drop'); None when the text names no metric of the catalogue (a name of two
    letters, such as 'ms' or 'hd', does not count here). Only the first
    :data:`compare_lib.limits.MAX_NAME_LENGTH` characters are read."""
    if not text:
        return None
    tokens = words(str(text)[:MAX_NAME_LENGTH])
    items = segment(tokens)
    # In a file's name or a caption, two letters are too often something else ("ms_thesis", "hd_scans").
    at = next((k for k, it in enumerate(items) if it.kind == "metric" and (
        len(it.matched.shown) > 2 or any(c.isdigit() for c in it.matched.shown))), None)
    if at is None:
        return None
    lo = at
    while lo > 0 and items[lo - 1].kind == "modifier":
        lo -= 1
    hi = at
    while hi + 1 < len(items) and items[hi + 1].kind in ("metric", "modifier"):
        hi += 1
    out = ""
    for word in tokens[items[lo].start:items[hi].end]:
        out += word if out and word.isdigit() and not out[-1].isdigit() else ("_" + word if out else word)
    return out
