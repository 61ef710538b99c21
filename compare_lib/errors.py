"""Error and warning types raised by :mod:`compare_lib`, and one message source for every interface.

Everything the user can get wrong (a malformed file, an unknown option, a table too small for a
test) raises :class:`InputError`, a ``ValueError`` subclass whose message names what was seen and
says what to do. Anything else escaping the library is a bug.

A message names an option with :func:`arg` (``f"pass {arg('metric', 'log_loss')}"``); the option is
written in the words of the interface that shows the message (:func:`in_words`): the keyword argument
in Python (``metric='log_loss'``), the flag on the command line (``--metric log_loss``), the widget on
the dashboard (``the "Metric" box set to "log_loss"``). ``str(err)`` is the Python wording.

Only :class:`InputError` messages carry options. Warnings and the notes of a table or a result are
plain text in words every interface can show (they go into reports, JSON and links as they are), so they
name no keyword argument, flag or widget.
"""

from __future__ import annotations

import re
import secrets
import shlex
from ast import literal_eval
from typing import Any, Callable, NamedTuple

INTERFACES = ("python", "cli", "app")
_UNSET = object()
# An option inside a message: RS, a key drawn at random by this process, the name, then US and the value's repr
# (or "!" for the bare name, or nothing for "name="), and RS. Text from a file, a link or a user cannot hold the
# key, so it cannot forge an option (repr() escapes RS and US inside values); an error pickled to another process
# travels as parts (text and options) and is marked again there with that process's key.
_KEY = secrets.token_hex(8)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_ARG = re.compile("\x1e" + _KEY + f"({_NAME})(!|\x1f[^\x1e]*)?\x1e")


class Option(NamedTuple):
    flag: str | None                 # the command line's flag; None: the command line has no such option
    widget: str | None               # the dashboard's control as named in a sentence ('"Metric" box'); None: none
    labels: Any = None               # value -> what the control shows for it (a dict, or a function giving one)


#: Labels of the options whose values live in a registry (the pairwise statistics, the procedures): the registry
#: module gives them when it is imported (this module sits below the registries and may not import them). An
#: option's value is checked against its registry before any message names it, so the labels are there by then.
_REGISTRY_LABELS: dict[str, Callable[[], dict]] = {}


def register_option_labels(option: str, labels: Callable[[], dict]) -> None:
    """Where the dashboard's labels of a registry-backed option come from (called by the registry modules)."""
    _REGISTRY_LABELS[option] = labels


def _test_labels() -> dict:
    source = _REGISTRY_LABELS.get("test")
    return source() if source is not None else {}


def _procedure_labels() -> dict:
    source = _REGISTRY_LABELS.get("correction")
    return source() if source is not None else {}


_FORMATS = {"auto": "Detect", "csv": "CSV / TSV (delimited)", "latex": "LaTeX table", "markdown": "Markdown table",
            "text": "Text copied from a PDF", "xlsx": "Excel (.xlsx)", "xls": "Excel 97-2003 (.xls)",
            "ods": "OpenDocument (.ods)"}
#: How each interface names an option: the flag of ``compare-classifiers`` and the control of the dashboard
#: (with the labels it shows for the values; tests/test_messages.py checks them against cli.py and the pages).
#: A name missing here is written as the Python keyword everywhere (an option only the library has).
OPTIONS = {
    "metric": Option("--metric", '"Metric" box'),
    "score_col": Option("--metric", '"Metric" box'),
    "sheet": Option("--sheet", '"Sheet" box'),
    "layout": Option("--layout", '"Layout" box', {
        "auto": "Detect", "wide": "Wide (data sets × classifiers)", "long": "Long (data set, classifier, metrics)",
        "tidy": "Tidy (metric and value columns)", "sklearn": "scikit-learn cross_validate export"}),
    "format": Option("--input-format", '"Format" box', _FORMATS),
    "input_format": Option("--input-format", '"Format" box', _FORMATS),
    "missing": Option("--missing", '"Missing cells" box', {
        "error": "Refuse missing cells (list them)", "drop-datasets": "Drop data sets with a missing cell",
        "drop-classifiers": "Drop classifiers with a missing cell",
        "pairwise": "Keep the holes (each pair on the data sets both have)"}),
    "aggregate": Option("--aggregate", '"Runs/folds per cell" choice', {"mean": "Mean", "median": "Median"}),
    "classifiers": Option("--classifiers", '"Classifiers" box'),
    "datasets": Option(None, '"Data sets to leave out" box'),
    "test": Option("--test", '"Pairwise statistic" choice', _test_labels),
    "correction": Option("--correction", '"Procedure" box', _procedure_labels),
    "control": Option("--control", '"Control classifier" box'),
    "alpha": Option("--alpha", '"Significance level α" box (sidebar)'),
    "seed": Option("--seed", '"Seed" box'),
    "rope": Option("--rope", '"ROPE (in the units of the scores)" box'),
    # the same keyword elsewhere: the Bayesian analysis of all pairs, the format of a table written out
    "bayesian.test": Option(None, '"Test" choice'),
    "tables.format": Option("--format", None),
}
_DIRECTION_WORDS = {True: ("--higher-is-better", '"Higher is better"'),
                    False: ("--lower-is-better", '"Lower is better"'),
                    None: ("--higher-is-better or --lower-is-better", '"Higher is better" or "Lower is better"')}
_NO_FLAG = " (a Python argument: the command line has no option for it)"
_NO_WIDGET = " (a Python argument: the dashboard has no control for it)"


def _safe_repr(value) -> str:
    try:
        text = repr(value)
    except Exception:  # a hostile object's repr
        text = f"<a {type(value).__name__}>"
    return text.replace("\x1e", "\\x1e").replace("\x1f", "\\x1f")  # a custom repr could hold them


def arg(name: str, value=_UNSET, *, bare: bool = False) -> str:
    """An option inside a message, written later in an interface's words (:func:`in_words`).

    ``arg("sheet")``: the option to set (``sheet=``, ``--sheet``, ``the "Sheet" box``);
    ``arg("sheet", "Results")``: set to a value (``sheet='Results'``, ``--sheet Results``,
    ``the "Sheet" box set to "Results"``); ``arg("alpha", bare=True)``: the option named as the subject of a
    sentence (``alpha``, ``--alpha``, ``the "Significance level α" box (sidebar)``).

    A name may say where the option belongs, ``"bayesian.test"``: Python names it by its last part
    (``test=``), the other interfaces by that entry of :data:`OPTIONS` (a name not there is written as
    Python's everywhere), so that two functions' ``test`` are not taken for the same flag or control."""
    if not re.fullmatch(_NAME, name):
        raise ValueError(f"an option's name is an identifier, not {name!r}")
    if value is not _UNSET:
        if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:  # np.float64(0.5) reads as 0.5
            value = value.item()
        if bare:
            raise ValueError("a bare option has no value")
        return f"\x1e{_KEY}{name}\x1f{_safe_repr(value)}\x1e"
    return f"\x1e{_KEY}{name}{'!' if bare else ''}\x1e"


def _value(text: str):
    try:
        return literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):  # not a literal (a numpy scalar...)
        return _Shown(text)


class _Shown(str):
    """A value whose repr is not a literal: shown as its repr reads."""


def _cli_word(value) -> str:
    """A value as typed after a flag: shell-quoted; one with control characters in bash's $'...' (escaped)."""
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    text = str(value)
    if text.isprintable():
        return shlex.quote(text)
    out = []
    for ch in text:
        if ch in "\\'":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "$'" + "".join(out) + "'"


_APP_ESCAPES = {'"': '\\"', "\\": "\\\\"}


def _escape(ch: str) -> str:
    """A character that is not printable, as Python writes it in a string (\\n, \\x1e, \\u200b)."""
    return repr(ch)[1:-1]


def _app_word(value, labels: dict | None) -> str:
    """A value as the dashboard shows it: the control's label for it, text in double quotes (control
    characters escaped), numbers as written."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_app_word(v, labels) for v in value)
    if labels is not None:
        try:
            if value in labels:
                value = labels[value]
        except TypeError:  # an unhashable value
            pass
    if isinstance(value, _Shown) or not isinstance(value, str):
        return str(value)
    return '"' + "".join(_APP_ESCAPES.get(ch, ch) if ch.isprintable() else _escape(ch) for ch in value) + '"'


def _labels(option: Option) -> dict | None:
    labels = option.labels
    if callable(labels):
        try:
            labels = labels()
        except Exception:  # a registry that cannot be read: the values as they are
            return None
    return labels


def _render(name: str, kind: str | None, interface: str) -> str:
    raw = kind[1:] if kind and kind.startswith("\x1f") else None
    bare = kind == "!"
    keyword = name.rpartition(".")[2]
    python = keyword if bare else f"{keyword}=" if raw is None else f"{keyword}={raw}"
    if interface == "python":
        return python
    value = None if raw is None else _value(raw)
    if name == "higher_is_better":
        flag, widget = _DIRECTION_WORDS[value if isinstance(value, bool) else None]
        return flag if interface == "cli" else f"the choice {widget}"
    option = OPTIONS.get(name)
    if option is None:
        return python
    if interface == "cli":
        if option.flag is None:
            return python + _NO_FLAG
        return option.flag if raw is None else f"{option.flag} {_cli_word(value)}"
    if option.widget is None:
        return python + _NO_WIDGET
    if raw is None:
        return f"the {option.widget}"
    return f"the {option.widget} set to {_app_word(value, _labels(option))}"


def _text(message: object) -> str:
    """The marked text of a message: an exception's, a :class:`Words`', or the text itself."""
    if isinstance(message, Words):
        return message.marked
    if isinstance(message, BaseException):
        args = message.args
        if len(args) == 1 and isinstance(args[0], str):
            return args[0]
        return ", ".join(map(str, args))
    return message if isinstance(message, str) else str(message)


def in_words(message: object, interface: str = "python") -> str:
    """The message (an exception, a :class:`Words` or text) with each option written for ``interface``
    ('python', 'cli' or 'app')."""
    if interface not in INTERFACES:
        raise ValueError(f"interface must be one of {INTERFACES}, not {interface!r}")
    return _ARG.sub(lambda m: _render(m.group(1), m.group(2), interface), _text(message))


def marked(message: object) -> str:
    """The text of ``message`` with its options still marked: to put an error's message inside another
    (``InputError(f"{marked(err)} ...")``) without fixing its wording to Python's."""
    return _text(message)


def _parts(text: str) -> tuple:
    """The marked text as plain strings and (name, kind) pairs: what travels to another process."""
    out: list = []
    end = 0
    for m in _ARG.finditer(text):
        out += [text[end:m.start()], (m.group(1), m.group(2) or "")]
        end = m.end()
    out.append(text[end:])
    return tuple(out)


def _joined(parts: tuple) -> str:
    """Parts marked again with this process's key (an option that is not well formed stays out)."""
    def one(p) -> str:
        if isinstance(p, str):
            return p
        name, kind = p
        if re.fullmatch(_NAME, name) and (kind in ("", "!") or (kind[:1] == "\x1f" and "\x1e" not in kind)):
            return f"\x1e{_KEY}{name}{kind}\x1e"
        return ""
    return "".join(map(one, parts))


class Words(str):
    """Text in Python's words (it is the ``str``) that remembers its options, for a table cell or a note that
    another interface shows in its own words (``in_words(cell, "app")``). Made by :func:`worded`."""

    marked: str

    def __reduce__(self):
        return (_words_from_parts, (_parts(self.marked),))


def _words_from_parts(parts: tuple) -> Words:
    return worded(_joined(parts))


def worded(message: object) -> Words:
    """An error's message (or marked text) as :class:`Words`."""
    text = _text(message)
    words = Words(in_words(text, "python"))
    words.marked = text
    return words


def _error_from_parts(cls, parts: tuple):
    err = cls.__new__(cls)
    err.args = (_joined(parts),)
    return err


class InputError(ValueError):
    """Bad input: the message names the file, row, column or argument, the value, and the fix.

    ``str(err)`` words options as Python keyword arguments; :func:`in_words` as flags or widgets."""

    def __str__(self) -> str:
        return in_words(self, "python")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self):  # pickled (to a worker or from one) with its options, marked again on arrival
        return (_error_from_parts, (type(self), _parts(_text(self))), self.__dict__ or None)


class ApproximationWarning(UserWarning):
    """A large-sample approximation is used where the sample may be too small for it."""


class DataWarning(UserWarning):
    """The loaded data was changed visibly (e.g. a duplicate data-set name was made unique)."""
