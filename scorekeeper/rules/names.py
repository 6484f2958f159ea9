"""Player names: written one way, free of invisible characters, not easily mistaken.

A name is what the family reads on the scoreboard, so characters that draw
nothing or reorder the text around them (zero-width spaces, bidi overrides,
NUL) are refused; and two names that only differ by look-alike letters (Latin
``Ann`` and Cyrillic ``Аnn``) are pointed out, since nobody at the table could
tell them apart.
"""

from __future__ import annotations

import unicodedata
from itertools import combinations

from ..i18n import _

# Control, format (zero-width, bidi), surrogate, private-use and unassigned characters,
# and line or paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
ZWJ = "\u200d"

# Letters drawn like a Latin letter in everyday fonts: Cyrillic, Greek, and a few others.
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "һ": "h",
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    "ı": "i", "ȷ": "j", "ℓ": "l", "0": "o", "1": "l", "|": "l",
}  # fmt: skip
_CAPITALS = str.maketrans(
    "АВЕКМНОРСТХЅІЈΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEKMHOPCTXSIJABEZHIKMNOPTYX"
)  # capitals first: Greek Ν is an N, though its small form ν looks like a v
_SKELETON = str.maketrans(_LOOKALIKES)


def clean_name(text: str) -> str:
    """The name in Unicode's composed form (NFC), spaces trimmed and single."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def name_problem(name: str) -> str | None:
    """Why this name cannot be used, or None."""
    refused = [
        c
        for i, c in enumerate(name)
        if unicodedata.category(c) in REFUSED_CATEGORIES and not _joins_emoji(name, i)
    ]
    if refused:
        codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(refused))
        return _(
            "a name cannot hold invisible or control characters such as zero-width spaces "
            "or text-direction marks (found %(codes)s)",
            codes=codes,
        )
    return None


def _joins_emoji(name: str, i: int) -> bool:
    """A zero-width joiner inside an emoji sequence (as in a family emoji) draws the emoji."""
    if name[i] != ZWJ or not 0 < i < len(name) - 1:
        return False
    before = name[i - 1] if name[i - 1] != "\ufe0f" or i < 2 else name[i - 2]
    return unicodedata.category(before) == "So" and unicodedata.category(name[i + 1]) == "So"


def skeleton(name: str) -> str:
    """What the name looks like: compatibility forms folded, look-alikes made Latin."""
    latin = unicodedata.normalize("NFKC", name).translate(_CAPITALS)
    return latin.casefold().translate(_SKELETON)


def lookalikes(names: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """Pairs of different names that look the same on screen."""
    return [
        (a, b)
        for a, b in combinations(names, 2)
        if a.casefold() != b.casefold() and skeleton(a) == skeleton(b)
    ]


def lookalike_warning(a: str, b: str) -> str:
    return _(
        "%(first)s and %(second)s look alike on screen: if they are different people, "
        "add an initial",
        first=a,
        second=b,
    )
