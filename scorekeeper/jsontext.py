"""Reading JSON from strangers: bounded in depth, numbers of sane length, strings in NFC.

Python's parser recurses once per nested array or object, so a 64 KB body of
``[[[[...`` exhausts the stack; and ``int`` refuses numbers of more than 4,300
digits with an error of its own. Both become a clear ``JsonError`` instead.
Used by the web app (web/jsonbody.py) and the command line.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from .i18n import _

MAX_DEPTH = 20  # a game file nests 4 deep; the check APIs 2
MAX_NUMBER_DIGITS = 30


class JsonError(ValueError):
    """Text that is not JSON this app reads; the message says why, for the sender."""


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest, not counting brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


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
    if nesting_depth(text) > MAX_DEPTH:
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
