"""Shaping: the glyphs a run of text needs, and where each one sits (HarfBuzz).

Most text is one glyph per letter, drawn as it comes. A script that joins its
letters (Arabic), builds conjuncts and moves vowel signs (Devanagari, Thai and
the other Brahmic scripts), or stacks marks on a letter ("Mẽ̀o", Arabic harakat,
Hebrew points) needs a shaper to pick the glyphs and place the marks: the run
is shaped by HarfBuzz (uharfbuzz) with the font it is printed in, and drawn
glyph by glyph (``layout.TextRun.put_shaped``), its text kept beside it as the
words a reader copies out of the PDF.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

import uharfbuzz as hb
from reportlab.pdfbase import pdfmetrics

# Scripts whose letters change shape or order with their neighbours (first word of the name).
_COMPLEX = frozenset(
    "ARABIC SYRIAC NKO MONGOLIAN THAANA DEVANAGARI BENGALI GURMUKHI GUJARATI ORIYA TAMIL "
    "TELUGU KANNADA MALAYALAM SINHALA THAI LAO TIBETAN MYANMAR KHMER BALINESE JAVANESE".split()
)


@dataclass(frozen=True)
class Glyph:
    """One glyph of a shaped run: the character that selects it in the font, and its place
    (x from the run's start, y above the baseline) in thousandths of an em."""

    char: str
    x: float
    y: float


@dataclass(frozen=True)
class Shaped:
    """A run of text as glyphs: in drawing order, left to right, and its advance."""

    text: str  # in reading order, as written
    glyphs: tuple[Glyph, ...]
    advance: float  # thousandths of an em
    right_to_left: bool = False

    @property
    def seen(self) -> str:
        """The run's letters as its ActualText: in reading order, or, for a right-to-left
        run, in the order they are seen, led by a right-to-left mark. Poppler (pdftotext,
        Evince, Okular) lays an ActualText's letters out from left to right and turns a
        right-to-left stretch back into reading order itself; the mark starts that stretch
        even when the run is seen starting with a mark ("عَلِيّ" ends with its shadda) or
        with a letter poppler's tables are older than (N'Ko)."""
        return RLM + self.text[::-1] if self.right_to_left else self.text

    def width(self, size: float) -> float:
        return self.advance * size / 1000


RLM = "\u200f"  # RIGHT-TO-LEFT MARK
NO_LETTER = "\u200b"  # what a glyph that draws no letter of its own reads as (a split vowel)


def readings(letters: str, glyphs: int) -> list[str]:
    """What each of a cluster's ``glyphs`` reads back as, so that together, in the order
    they are drawn, they read as ``letters``: a letter each, the last glyph the rest (a
    ligature), a glyph past the letters ``NO_LETTER`` (a vowel drawn in two parts)."""
    if glyphs >= len(letters):
        return [*letters, *[NO_LETTER] * (glyphs - len(letters))]
    return [*letters[: glyphs - 1], letters[glyphs - 1 :]]


def needs_shaping(text: str) -> bool:
    """True when ``text`` has a mark to place, letters that join or reorder, or a pictograph
    (an emoji sequence, a flag or a skin tone is drawn as one glyph)."""
    return any(
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char in "\u200c\u200d"
        or char >= "\U0001f000"
        or unicodedata.name(char, "").split(" ", 1)[0] in _COMPLEX
        for char in text
        if not char.isascii() and not _plain_cjk(char)
    )


def _plain_cjk(char: str) -> bool:
    """A Chinese character or a Korean syllable: a letter of its own, never shaped (a name
    of 7,200 of them is not asked of Unicode's tables letter by letter)."""
    return (
        "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf" or "\uac00" <= char <= "\ud7a3"
    )


@cache
def _font(name: str) -> hb.Font:
    face = pdfmetrics.getFont(name).face
    collection = getattr(face, "harfbuzz", None)  # a CJK face shapes from the collection (cjk)
    if collection is not None:
        return collection
    return hb.Font(hb.Face(hb.Blob(face._ttf_data)))


def _upem(name: str) -> int:
    return int(pdfmetrics.getFont(name).face.unitsPerEm)


def advance(name: str, glyph: int) -> float:
    """A glyph's advance in thousandths of an em."""
    return _font(name).get_glyph_h_advance(glyph) * 1000 / _upem(name)


@lru_cache(maxsize=4096)
def shape(name: str, text: str, right_to_left: bool = False) -> Shaped:
    """``text`` (in reading order) shaped in font ``name``: glyphs left to right."""
    font = _font(name)
    scale = 1000 / _upem(name)
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl" if right_to_left else "ltr"
    hb.shape(font, buffer, {"kern": True, "liga": True})
    embedded = pdfmetrics.getFont(name)
    infos, positions = buffer.glyph_infos, buffer.glyph_positions
    # A reader that reads the glyphs (pypdf, pdf.js) reads them in the order they are drawn
    # and turns a right-to-left stretch around: a cluster's glyphs share its letters in that
    # order, never a presentation form ("ﻋ") or a letter twice.
    ends = dict(itertools.pairwise(sorted({info.cluster for info in infos}) + [len(text)]))
    said: list[str] = []
    for start, cluster in itertools.groupby(infos, key=lambda info: info.cluster):
        letters = text[start : ends[start]]
        said += readings(letters[::-1] if right_to_left else letters, len(list(cluster)))
    glyphs = []
    pen = 0.0
    for info, position, words in zip(infos, positions, said, strict=True):
        char = embedded.code_for(info.codepoint, words)
        glyphs.append(Glyph(char, pen + position.x_offset * scale, position.y_offset * scale))
        pen += position.x_advance * scale
    return Shaped(text, tuple(glyphs), pen, right_to_left)


@lru_cache(maxsize=4096)
def reach(name: str, text: str, right_to_left: bool = False) -> tuple[float, float]:
    """How far ``text`` in font ``name`` reaches above and below its baseline, in ems: the
    ink of its glyphs as the font draws them, each where the shaper puts it (a mark over
    a mark, dots under a letter, a vowel sign under a consonant)."""
    font = _font(name)
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl" if right_to_left else "ltr"
    hb.shape(font, buffer, {"kern": True, "liga": True})
    top = bottom = 0
    for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        extents = font.get_glyph_extents(info.codepoint)
        if extents is None:
            continue
        ink_top = position.y_offset + extents.y_bearing
        top, bottom = max(top, ink_top), min(bottom, ink_top + extents.height)
    return top / _upem(name), -bottom / _upem(name)
