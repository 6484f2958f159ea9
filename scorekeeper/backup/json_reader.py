"""Reading JSON from strangers: bounded in depth, numbers of sane length, strings in NFC.

Python's parser recurses once per nested array or object, so a 64 KB body of
``[[[[...`` exhausts the stack; ``int`` refuses numbers of more than 4,300
digits with an error of its own; ``NaN`` and ``Infinity`` are not JSON at all;
and a ``\\ud800`` escape makes half a character that no page can print. Each
becomes a clear ``JsonError`` instead. Every check is one pass over the text
(a stranger's body costs what it weighs, whatever it holds). Used by the web
app (web/forms.py), table backups and the command line.
"""

from __future__ import annotations

import json
import re
import unicodedata
from itertools import accumulate
from typing import Any

from ..i18n import _

MAX_DEPTH = 20  # a game file nests 4 deep; the check APIs 2
MAX_NUMBER_DIGITS = 30


class JsonError(ValueError):
    """Text that is not JSON this app reads; the message says why, for the sender."""


# Strings are found in passes that never look back. Escaped backslashes are dropped, then
# escaped quotes (a run of backslashes pairs off from its left, as the parser reads it), so
# every quote left opens or closes a string; each string then runs to the next quote, or to
# the end of the text when unclosed. A text of unclosed quotes costs what it weighs, not
# once per quote as a pattern retried from every quote would.
_STRING = re.compile(r'"[^"]*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile("[\ud800-\udfff]")
_NOT_DIGIT = re.compile("[^0-9]+")


def depth(text: str) -> int:
    """How deep arrays and objects nest (brackets in strings aside), in linear time.

    Strings are dropped, then the brackets left are counted up and down: the
    deepest count is the depth. Unbalanced brackets are left for the parser to report.
    """
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", unescaped))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def deeper_than(text: str, most: int) -> bool:
    """Whether arrays and objects nest more than ``most`` deep (brackets in strings aside)."""
    return depth(text) > most


def _too_long(text: str) -> JsonError | None:
    if len(_NOT_DIGIT.sub("", text)) > MAX_NUMBER_DIGITS:
        return JsonError(_("a number has at most %(count)s digits", count=MAX_NUMBER_DIGITS))
    return None


def _integer(text: str) -> int:
    if error := _too_long(text):
        raise error
    return int(text)


def _float(text: str) -> float | int:
    """A number written with a point or an exponent; a whole one (``5.0``, ``5e2``) is the
    integer it is, as JSON Schema reads it."""
    if error := _too_long(text):
        raise error
    number = float(text)
    return int(number) if number.is_integer() else number


def _constant(word: str) -> Any:
    raise JsonError(_("%(word)s is not a number JSON can hold", word=word))


def _composed(value: Any) -> Any:
    """Every string in Unicode's composed form (NFC), so one name is always one string;
    a lone surrogate (half of a character) refused, named by its code."""
    if isinstance(value, str):
        if half := _SURROGATE.search(value):
            code = f"U+{ord(half.group()):04X}"
            raise JsonError(_("%(code)s is half of a character and cannot stand alone", code=code))
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [_composed(item) for item in value]
    if isinstance(value, dict):
        return {_composed(key): _composed(item) for key, item in value.items()}
    return value


def parse_json(text: str) -> Any:
    """The document in ``text``, its strings in Unicode's composed form (NFC)."""
    if deeper_than(text, MAX_DEPTH):
        raise JsonError(_("the JSON nests more than %(count)s levels deep", count=MAX_DEPTH))
    try:
        data = json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        where = {"line": error.lineno, "column": error.colno, "reason": error.msg}
        raise JsonError(
            _("this is not JSON (line %(line)s, column %(column)s: %(reason)s)", **where)
        ) from None
    except RecursionError:  # belt and braces: the depth check should have caught it
        raise JsonError(
            _("the JSON nests more than %(count)s levels deep", count=MAX_DEPTH)
        ) from None
    return _composed(data)
