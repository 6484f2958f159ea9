"""The likely language of a name's letters, so that a screen reader reads a name in Arabic
letters with an Arabic voice on an English sheet (/Lang on its span, PDF/UA-1's 7.2).

A name says nothing of its language but its script; the script's most used language is the
best guess (Cyrillic: Russian; Han alone: Chinese, with kana: Japanese, with hangul: Korean).
A script with no guess here is "und" (undetermined), which still tells a reader that the
letters are not the sheet's language. Latin letters give no guess: they are the sheet's own
script, in each of our languages.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

LATIN = "Latn"
# A script, by the first words of its letters' Unicode names, and its most used language
# (BCP 47, as /Lang takes it).
LANGUAGES = {
    "ARABIC": "ar",
    "ARMENIAN": "hy",
    "BALINESE": "ban",
    "BENGALI": "bn",
    "BOPOMOFO": "zh",
    "CANADIAN SYLLABICS": "iu",
    "CHEROKEE": "chr",
    "CYRILLIC": "ru",
    "DEVANAGARI": "hi",
    "ETHIOPIC": "am",
    "GEORGIAN": "ka",
    "GREEK": "el",
    "GUJARATI": "gu",
    "GURMUKHI": "pa",
    "HANGUL": "ko",
    "HEBREW": "he",
    "HIRAGANA": "ja",
    "JAVANESE": "jv",
    "KANNADA": "kn",
    "KATAKANA": "ja",
    "KHMER": "km",
    "LAO": "lo",
    "MALAYALAM": "ml",
    "MONGOLIAN": "mn",
    "MYANMAR": "my",
    "NKO": "nqo",
    "OL CHIKI": "sat",
    "ORIYA": "or",
    "SINHALA": "si",
    "SYRIAC": "syr",
    "TAMIL": "ta",
    "TELUGU": "te",
    "THAANA": "dv",
    "THAI": "th",
    "TIBETAN": "bo",
    "TIFINAGH": "zgh",
    "VAI": "vai",
    "YI": "ii",
}
HAN = "CJK"  # "CJK UNIFIED IDEOGRAPH-738B", "CJK COMPATIBILITY IDEOGRAPH-..."
UNDETERMINED = "und"


@lru_cache(maxsize=4096)
def language_of(text: str) -> str | None:
    """The likely language of ``text``'s letters when they are in a script other than Latin
    (None: Latin letters, or no letters: digits, punctuation, emoji)."""
    found: set[str] = set()
    for char in text:
        if unicodedata.category(char)[0] != "L":
            continue  # marks go with their letter; digits and symbols say nothing
        script = _script(char)
        if script != LATIN:
            found.add(script)
    if not found:
        return None
    if "ko" in found:  # hangul, perhaps with hanja
        return "ko"
    if "ja" in found:  # kana, perhaps with kanji
        return "ja"
    if found == {HAN}:
        return "zh"
    languages = sorted(found - {HAN})
    return languages[0] if len(languages) == 1 else UNDETERMINED


@lru_cache(maxsize=4096)
def spans(text: str) -> tuple[tuple[str, str | None], ...]:
    """``text`` cut where its letters change script, each part with its likely language
    (``language_of``; None for Latin letters and for what is between two scripts: ", ").
    A mark goes with its letter, and a space or a sign between two letters of one script
    stays with them ("דנה כהן" is one part); Chinese, Japanese and Korean letters are one
    script, so that a Japanese name's kanji and kana stay together."""
    classes: list[str | None] = []
    for char in text:
        kind = unicodedata.category(char)[0]
        if kind == "L":
            script = _script(char)
            classes.append(None if script == LATIN else HAN if script in _CJK else script)
        elif kind == "M" and classes:
            classes.append(classes[-1])
        else:
            classes.append(_NEUTRAL)
    _between_letters(classes)
    parts: list[tuple[str, str | None]] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or classes[index] != classes[start]:
            part = text[start:index]
            lettered = classes[start] not in (None, _NEUTRAL)
            parts.append((part, language_of(part) if lettered else None))
            start = index
    merged: list[tuple[str, str | None]] = []
    for part, language in parts:  # neighbours without a language are one part
        if merged and language is None and merged[-1][1] is None:
            merged[-1] = (merged[-1][0] + part, None)
        else:
            merged.append((part, language))
    return tuple(merged)


_NEUTRAL = "neutral"
_CJK = frozenset((HAN, "zh", "ja", "ko"))


def _between_letters(classes: list[str | None]) -> None:
    """Give what is between two letters of one script that script."""
    last: int | None = None  # the index of the last letter
    for index, kind in enumerate(classes):
        if kind == _NEUTRAL:
            continue
        if last is not None and index - last > 1 and classes[last] == kind and kind is not None:
            for between in range(last + 1, index):
                classes[between] = kind
        last = index


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    """The language of ``char``'s script as ``LANGUAGES`` has it, ``HAN``, ``LATIN``, or
    ``UNDETERMINED``."""
    words = unicodedata.name(char, "").replace("-", " ").split()
    if not words:
        return UNDETERMINED
    if words[0] in ("LATIN", "FULLWIDTH", "MODIFIER") or char.isascii():
        return LATIN
    if words[0] in (HAN, "IDEOGRAPHIC"):  # and the iteration mark of 佐々木
        return HAN
    for count in (2, 1):
        language = LANGUAGES.get(" ".join(words[:count]))
        if language is not None:
            return language
    return UNDETERMINED
