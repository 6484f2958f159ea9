"""The one reader of whole numbers typed into forms and URLs.

``str.isdigit`` accepts superscripts such as ``²`` that ``int`` refuses, and ``int``
accepts ``٣``, ``+5`` and ``1_000``: neither is what a score sheet means. Only the
ASCII digits 0-9 are read, and never more than a few of them.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,9}")


def whole_number(text: str | None) -> int | None:
    """The number written in plain digits (spaces around are fine), else None."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None


def number_in(text: str | None, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high``, else None."""
    number = whole_number(text)
    return number if number is not None and low <= number <= high else None
