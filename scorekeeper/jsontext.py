"""Reading JSON from strangers: bounded in depth, numbers of sane length, strings in NFC.

Python's parser recurses once per nested array or object, so a 64 KB body of
``[[[[...`` exhausts the stack; and ``int`` refuses numbers of more than 4,300
digits with an error of its own. Both become a clear ``JsonError`` instead.
Used by the web app (web/jsonbody.py) and the command line.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from .i18n import _

MAX_DEPTH = 20  # a game file nests 4 deep; the check APIs 2
MAX_NUMBER_DIGITS = 30


class JsonError(ValueError):
    """Text that is not JSON this app reads; the message says why, for the sender."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"[\[{][\]}]")


def deeper_than(text: str, most: int) -> bool:
    """Whether arrays and objects nest more than ``most`` deep (brackets in strings aside).

    Each round drops the innermost pairs, at the speed of ``re`` rather than a Python
    loop over every character: a hostile megabyte is checked in milliseconds.
    Unbalanced brackets are left for the parser to report.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for dropped in range(most + 1):
        # n openers in a row, once ``dropped`` levels are gone, nest n + dropped deep
        if re.search(rf"[\[{{]{{{most - dropped + 1}}}", brackets):
            return True
        shorter = _INNERMOST.sub("", brackets)
        if shorter == brackets:  # nothing nested left, or unbalanced
            return False
        brackets = shorter
    return False


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise JsonError(_("a number has at most %(count)s digits", count=MAX_NUMBER_DIGITS))
    return int(text)


def _composed(value: Any) -> Any:
    """Every string in Unicode's composed form (NFC), so one name is always one string."""
    if isinstance(value, str):
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
        return _composed(json.loads(text, parse_int=_number))
    except json.JSONDecodeError as error:
        where = {"line": error.lineno, "column": error.colno, "reason": error.msg}
        raise JsonError(
            _("this is not JSON (line %(line)s, column %(column)s: %(reason)s)", **where)
        ) from None
    except RecursionError:  # belt and braces: the depth check should have caught it
        raise JsonError(
            _("the JSON nests more than %(count)s levels deep", count=MAX_DEPTH)
        ) from None
