"""A name typed on a phone, matched to the names a table knows (self check-in).

A player checking in types their name as they write it on a phone: "zoe" for Zoë,
"lukasz" for Łukasz, "ANN" for Ann, an extra space. ``folded`` is what two spellings share
when they are one person's: case folded, accents, strokes and other marks left out,
compatibility forms (full-width letters) made plain, spaces single. ``match`` finds the
one known name a typed one folds to; several known names folding alike (Zoe and Zoë both
on the roster) match only by their exact case-folded spelling.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .names import clean_name

# Letters with a stroke or joined, which Unicode does not split into a letter and a mark:
# typed without it on a phone's plain keyboard (Łukasz as "lukasz", Søren as "soren").
_PLAIN = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ı": "i", "æ": "ae", "œ": "oe"}
)


def folded(name: str) -> str:
    """What a name's spellings share: no case, no accents, plain forms, single spaces."""
    parts = unicodedata.normalize("NFKD", clean_name(name).casefold())
    bare = "".join(c for c in parts if not unicodedata.combining(c)).translate(_PLAIN)
    return " ".join(unicodedata.normalize("NFC", bare).casefold().split())


def match(typed: str, known: Iterable[str]) -> str | None:
    """The known name ``typed`` is, forgivingly; None when it is none of them, or when it
    folds like several and is spelled like none."""
    typed = clean_name(typed)
    names = list(dict.fromkeys(known))
    same_case = [name for name in names if name.casefold() == typed.casefold()]
    if len(same_case) == 1:
        return same_case[0]
    if typed in names:
        return typed
    alike = [name for name in names if folded(name) == folded(typed)]
    return alike[0] if len(alike) == 1 else None
