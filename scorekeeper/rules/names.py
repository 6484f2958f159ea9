"""Names: one rule for every name that enters the app, and look-alikes pointed out.

A name is what the family reads on the scoreboard, the table page and the
printed sheet, so every name that enters (a player, a table, a roster rename,
an imported roster or alias) goes through ``valid_name``: composed (NFC),
trimmed, spaces single, at most so many characters, and refused when it holds
characters that draw nothing or reorder the text around them (zero-width
spaces, bidi overrides, NUL, Hangul fillers, a blank Braille pattern). Two
names that only differ by look-alike letters (Latin ``Ann`` and Cyrillic
``Аnn``) are pointed out, since nobody at the table could tell them apart.

Games stored before a character was refused still open: ``kept_name_problem``
is the older, smaller rule a stored game is held to.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import combinations

from ..i18n import _

MAX_NAME = 40  # a player's name: one column of the scoreboard and the printed sheet
MAX_TABLE_NAME = 60  # a table's name: it heads the table's page and names its backup
MAX_TYPED = 1000  # characters read at all: a longer text is refused before any other work

# Control, format (zero-width, bidi), surrogate, private-use and unassigned characters,
# and line or paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
ZWJ = "\u200d"
# Letters and signs that draw nothing at all, though Unicode counts them as letters,
# marks or symbols: Hangul fillers, the blank Braille pattern, the combining grapheme
# joiner, Khmer's inherent vowels, Mongolian variation selectors, the musical null
# notehead, and the object replacement character (a stand-in for something not there).
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\U0001d159\ufffc"
)
# A variation selector picks how the character before it is drawn (the emoji form of a
# heart); alone, or after a space, it draws nothing.
_VARIATION = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# Spaces and the whitespace a paste brings (tab, new line): one plain space between words.
# (Not re's \s, which takes the line separator U+2028 for a space: that one is refused.)
_SPACES = re.compile("[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")


class NameRefused(ValueError):
    """A name that cannot be used; the message says why, in the reader's language."""


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
    return " ".join(_SPACES.split(unicodedata.normalize("NFC", text))).strip()


def valid_name(text: object, most: int = MAX_NAME) -> str:
    """The name as it is kept, or NameRefused saying why it cannot be used.

    The one rule for every name that enters: players, tables, roster renames,
    imported rosters and aliases. ``most``: its longest length in characters.
    """
    if not isinstance(text, str):
        raise NameRefused(_("a name must be text"))
    if len(text) > MAX_TYPED:
        raise NameRefused(_("a name has at most %(most)s characters", most=most))
    name = clean_name(text)
    if problem := name_problem(name, most):
        raise NameRefused(problem)
    return name


def name_problem(name: str, most: int = MAX_NAME) -> str | None:
    """Why this name, already cleaned (``clean_name``), cannot be used; None when it can."""
    if problem := _invisible(name):
        return problem
    blank = [c for i, c in enumerate(name) if c in BLANKS or _stray_selector(name, i)]
    if blank:
        return _(
            "a name cannot hold characters that draw nothing, such as Hangul fillers or a "
            "blank Braille pattern (found %(codes)s)",
            codes=_codes(blank),
        )
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        return _("a name needs at least one letter, number or sign")
    if len(name) > most:
        return _("a name has at most %(most)s characters", most=most)
    return None


def kept_name_problem(name: str, most: int = MAX_NAME) -> str | None:
    """Why a stored game's name cannot be right: the rule names were always held to."""
    if problem := _invisible(name):
        return problem
    if len(name) > most:
        return _("a name has at most %(most)s characters", most=most)
    return None


def shown(text: str, most: int = MAX_NAME) -> str:
    """A refused name made safe to quote in a message: each invisible or blank
    character as its code (U+202E), and cut short."""
    safe = "".join(
        f"<U+{ord(c):04X}>" if unicodedata.category(c) in REFUSED_CATEGORIES or c in BLANKS else c
        for c in text[: most + 1]
    )
    return safe if len(text) <= most else safe[:most] + "…"


def _invisible(name: str) -> str | None:
    refused = [
        c
        for i, c in enumerate(name)
        if unicodedata.category(c) in REFUSED_CATEGORIES and not _joins_emoji(name, i)
    ]
    if refused:
        return _(
            "a name cannot hold invisible or control characters such as zero-width spaces "
            "or text-direction marks (found %(codes)s)",
            codes=_codes(refused),
        )
    return None


def _codes(chars: list[str]) -> str:
    return ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(chars))


def _stray_selector(name: str, i: int) -> bool:
    """A variation selector with no character of its own to choose a form for."""
    if not _VARIATION.fullmatch(name[i]):
        return False
    return i == 0 or name[i - 1] == " " or bool(_VARIATION.fullmatch(name[i - 1]))


def _joins_emoji(name: str, i: int) -> bool:
    """A zero-width joiner inside an emoji sequence (as in a family emoji) draws the emoji."""
    if name[i] != ZWJ or not 0 < i < len(name) - 1:
        return False
    before = name[i - 1] if name[i - 1] != "\ufe0f" or i < 2 else name[i - 2]
    return unicodedata.category(before) == "So" and unicodedata.category(name[i + 1]) == "So"


def skeleton(name: str) -> str:
    """What the name looks like: compatibility forms folded, look-alikes made Latin,
    characters that draw nothing (and variation selectors, which at most change how the
    character before them is drawn) left out."""
    latin = unicodedata.normalize("NFKC", name).translate(_CAPITALS)
    drawn = "".join(
        c
        for c in latin
        if c not in BLANKS and unicodedata.category(c) != "Cf" and not _VARIATION.fullmatch(c)
    )
    return " ".join(drawn.casefold().translate(_SKELETON).split())


def lookalikes(names: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """Pairs of different names that look the same on screen (in time linear in the names)."""
    alike: dict[str, list[str]] = {}
    for name in names:
        alike.setdefault(skeleton(name), []).append(name)
    return [
        (a, b)
        for group in alike.values()
        for a, b in combinations(group, 2)
        if a.casefold() != b.casefold()
    ]


def lookalikes_of(name: str, others: list[str] | tuple[str, ...]) -> list[str]:
    """A warning for each of ``others`` that looks like ``name`` on screen."""
    seen = skeleton(name)
    return [
        lookalike_warning(name, other)
        for other in others
        if other.casefold() != name.casefold() and skeleton(other) == seen
    ]


def lookalike_warning(a: str, b: str) -> str:
    return _(
        "%(first)s and %(second)s look alike on screen: if they are different people, "
        "add an initial",
        first=a,
        second=b,
    )
