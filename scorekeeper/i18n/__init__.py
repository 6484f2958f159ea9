"""The app's words in the players' language: English, German, Spanish, French, Italian and
Polish.

Every text a player reads is written in English in the code and marked with
``_`` (or ``ngettext`` when it counts something, ``pgettext`` when one English
word has two meanings). The marked texts are collected into the message
catalogues under ``scorekeeper/translations`` (see ``i18n/catalogues.py``
and ``scripts/i18n``). Values go in as named placeholders, so a translation can
put them where its grammar wants them::

    _("Phase %(number)s is %(phase)s", number=2, phase=...)

The language is chosen per request by the web layer (web/language.py, with
Flask-Babel), by ``--lang`` or the environment for the command line, and by
the caller when printing; everything below it, the rules engine included,
just calls ``_``. Texts kept at import time (rule titles, phase names) are
marked with ``N_`` and translated where they are shown.

Layer: the bottom: imports nothing of the package, so every layer, the rules engine
included, may use it; ``catalogues`` (for ``scripts/i18n`` and the tests) reads the code.
"""

from __future__ import annotations

import copy
import gettext
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_percent
from babel.support import Translations

LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
    "pl": "Polski",
}
DEFAULT = "en"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"

_active: ContextVar[tuple[str, gettext.NullTranslations]] = ContextVar(
    "language", default=(DEFAULT, gettext.NullTranslations())
)


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of a shipped language (English needs none: it is the source)."""
    if language not in LANGUAGES or language == DEFAULT:
        return gettext.NullTranslations()
    return Translations.load(str(TRANSLATIONS), [language])


def supported(language: str | None) -> str | None:
    """'de', 'de-AT' or 'de_CH' -> 'de', when we speak it; else None."""
    if not language:
        return None
    code = re.split(r"[-_.@]", language.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the shell asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), read as gettext
    reads them."""
    environ = dict(os.environ) if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for wanted in environ.get(name, "").split(":"):
            if code := supported(wanted):
                return code
        if environ.get(name):
            break  # the first variable set decides, as in gettext
    return DEFAULT


def activate(
    language: str, translations: gettext.NullTranslations | None = None
) -> Token[tuple[str, gettext.NullTranslations]]:
    """Speak `language` in this context (a request, a command) until `deactivate`."""
    code = supported(language) or DEFAULT
    return _active.set((code, translations if translations is not None else catalogue(code)))


def deactivate(token: Token[tuple[str, gettext.NullTranslations]]) -> None:
    _active.reset(token)


@contextmanager
def using(language: str) -> Iterator[str]:
    """Speak `language` within the block (a printed sheet in the language chosen to print)."""
    code = supported(language) or DEFAULT
    token = _active.set((code, catalogue(code)))
    try:
        yield code
    finally:
        _active.reset(token)


def language() -> str:
    """The language being spoken: 'en', 'de', 'es', 'fr', 'it' or 'pl'."""
    return _active.get()[0]


def active() -> gettext.NullTranslations:
    return _active.get()[1]


def _(message: str, **values: object) -> str:
    """`message` in the current language, with its %(name)s placeholders filled."""
    text = _active.get()[1].gettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    """The singular or plural form for `n`, as the language counts; %(num)s is `n`."""
    text = _active.get()[1].ngettext(singular, plural, n)
    return text % {"num": n, **values}


def pgettext(context: str, message: str, **values: object) -> str:
    """Like `_`, for an English word with two meanings ('set' the group, 'set' the verb)."""
    text = _active.get()[1].pgettext(context, message)
    return text % values if values else text


def N_(message: str) -> str:
    """Mark a text kept at import time; it is translated with `_` where it is shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Like `N_`, for a text translated with `pgettext(context, ...)` where it is shown."""
    return message


FSI, PDI = "\u2068", "\u2069"  # Unicode's first-strong isolate and its end
# Every mark that steers the bidirectional algorithm: a name typed with one must not
# reach outside itself (a stray PDI would end the isolate early, an RLO mirror the line).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_NO_CONTROLS = str.maketrans(dict.fromkeys(map(ord, BIDI_CONTROLS)))


def has_right_to_left(text: str) -> bool:
    """Whether ``text`` holds a letter written right to left (Hebrew, Arabic, ...). None lies
    between U+3000 and U+FB1C (Chinese, Japanese, Korean, ...): those are not looked up."""
    return any(
        unicodedata.bidirectional(c) in ("R", "AL") for c in text if not "\u3000" <= c < "\ufb1d"
    )


def isolate(name: str) -> str:
    """A name made a unit of the text around it, for plain text (a PDF line, an SVG label, a
    page's title, a CSV cell): however it is written, the bidirectional algorithm orders its
    letters inside it and never moves the words around it. Pages use ``<bdi>``.

    Only a name with right-to-left letters gets the (invisible) isolate marks: every language
    we speak is written left to right, where any other name cannot move a thing, and the marks
    would otherwise travel with the text into titles, BG Stats and copied chart labels."""
    name = str(name).translate(_NO_CONTROLS)
    return FSI + name + PDI if has_right_to_left(name) else name


def percent(share: float) -> str:
    """A share as a percentage in the current language: '44%', '44 %'; one decimal below 10%,
    where a whole number would round a 0.6% chance down to nothing."""
    rounded = round(share, 3 if share < 0.1 else 2)
    return format_percent(rounded, locale=language(), decimal_quantization=False)


def exact_percent(share: Fraction) -> str:
    """A share that is counted, not estimated, to two decimal places, as the current
    language writes a percentage: '18.27%', '0.33%', '18,27 %'."""
    value = Decimal(share.numerator) / Decimal(share.denominator)
    locale = Locale.parse(language())
    pattern = copy.copy(locale.percent_formats[None])
    pattern.frac_prec = (2, 2)
    return pattern.apply(value.quantize(Decimal("0.0001"), rounding=ROUND_HALF_EVEN), locale)


def join(items: Iterable[str]) -> str:
    """'a, b and c', in the current language."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


class Pseudo(gettext.NullTranslations):
    """English dressed up as ⟦Éñgłîšħ⟧, to find any text on a page that is not in a catalogue.

    Placeholders (%(name)s) and HTML tags are kept as they are.
    """

    LOOKS = str.maketrans("aceinosuyACEINOSUY", "àçéîñöšûýÀÇÉÎÑÖŠÛÝ")
    KEEP = re.compile(r"(%\(\w+\)[sd]|%%|<[^>]*>|&\w+;)")

    def gettext(self, message: str) -> str:
        return self.dress(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.dress(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.dress(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.dress(msgid1 if n == 1 else msgid2)

    def dress(self, message: str) -> str:
        pieces = self.KEEP.split(message)
        dressed = "".join(
            piece if i % 2 else piece.translate(self.LOOKS) for i, piece in enumerate(pieces)
        )
        return f"⟦{dressed}⟧"
