"""Shared page geometry, fonts, text safety and fitting for every printable.

Everything is measured in mm (``reportlab.lib.units.mm``) so the constants
read like a ruler. Text is set in embedded fonts (see ``fonts``) chosen per run
of text for any script; a character no installed font has is printed as its
code point ("[U+0E2A]") rather than as a box or ``?``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from xml.sax.saxutils import escape as _xml_escape

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from .. import i18n
from ..i18n import _
from . import bidi, fonts, metadata, name_language
from .fonts import FONT, FONT_BOLD, FONT_MONO
from .shaping import Shaped
from .tagging import TaggedCanvas

PAGE_SIZES: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}

__all__ = ["FONT", "FONT_BOLD", "FONT_MONO"]  # re-exported for the renderers
fonts.register()

# Black and greys in black ink alone (CMYK with only K): a print shop prints small black type
# with one plate, never as four-colour black that blurs when the plates are a hair apart.
INK = CMYKColor(0, 0, 0, 1)
GREY = CMYKColor(0, 0, 0, 0.55)
LIGHT = CMYKColor(0, 0, 0, 0.25)
SHADE = CMYKColor(0, 0, 0, 0.07)
WHITE = CMYKColor(0, 0, 0, 0)

# The smallest type we print: below this a family at the table cannot read it.
MIN_FONT_SIZE = 9  # issue 30: nothing a player reads is smaller
LEADING = 1.2  # line height as a multiple of the font size
BOLD_STROKE = 0.035  # of the size: the outline that makes a regular font bold

AUTHOR = "Phase 10 Scorekeeper"


class LayoutError(ValueError):
    """Text that cannot fit its box even at the smallest legible size."""


def page_size(name: str, *, turned: bool = False) -> tuple[float, float]:
    """The page in points for 'letter' or 'a4' (``turned`` for landscape)."""
    try:
        size = PAGE_SIZES[name.strip().lower()]
    except KeyError:
        raise ValueError(_("unknown page size %(size)r: choose letter or a4", size=name)) from None
    return landscape(size) if turned else size


# --- text safety ---------------------------------------------------------------

# Letters no embedded font has, with an obvious plain stand-in.
_STAND_INS = str.maketrans(
    {
        "\u0141": "L",
        "\u0142": "l",
        "\u0110": "D",
        "\u0111": "d",
        "\u0131": "i",
        "\u0126": "H",
        "\u0127": "h",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
    }
)


# names' isolates, no-break spaces, and the joiners a shaper reads (an emoji family, Persian)
KEPT = frozenset((bidi.FSI, bidi.PDI, "\u00a0", "\u200c", "\u200d"))
_SPACES = re.compile(r"[ \t\n\r\f\v\u2028\u2029\u3000]+")


def plain(text: str) -> str:
    """Text our fonts can show, in reading (logical) order, white space squeezed.

    A letter no installed font has becomes a plain stand-in where there is an
    obvious one (a curly quote), else its code point ("[U+0E2A]"): a name is
    never printed as boxes or as question marks, and two such names still differ.
    """
    text = _SPACES.sub(" ", str(text)).strip(" ")  # a no-break space stays one
    if text.isascii() and text.isprintable():
        return text
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    unknown: list[str] = []
    for char in text:
        if fonts.printable(char) or char in KEPT:
            if unknown:
                out.append(_code_points(unknown))
                unknown = []
            out.append(char)
            continue
        stand_in = char.translate(_STAND_INS)
        if unicodedata.category(char) == "Zs":  # a thin or narrow space: "1 000" in French
            out.append("\u00a0" if "<noBreak>" in unicodedata.decomposition(char) else " ")
        elif stand_in != char and all(fonts.printable(c) for c in stand_in):
            out.append(stand_in)
        elif char.isprintable():
            unknown.append(char)
    if unknown:
        out.append(_code_points(unknown))
    return "".join(out)


def _code_points(chars: list[str]) -> str:
    """Letters no font has, as their code points: "[U+0E2A U+0E21]"."""
    return "[" + " ".join(f"U+{ord(char):04X}" for char in chars) + "]"


def _xml(text: str) -> str:
    return _xml_escape(text, {'"': "&quot;", "'": "&#39;"})


def escape(text: str) -> str:
    """Our text made safe for ``Paragraph`` (which reads ``<b>`` and ``&amp;`` as markup).

    Letters the main font lacks are wrapped in their script's font. A paragraph
    is wrapped after this, so text with right-to-left words or names goes
    through ``labels`` instead, which puts each line in drawing order.
    """
    return "".join(
        _xml(part) if font is None else f'<font name="{font}">{_xml(part)}</font>'
        for font, part in fonts.runs(bidi.visual(plain(text)))
    )


# --- styles and fitting ----------------------------------------------------------


def style(
    size: float,
    *,
    bold: bool = False,
    centred: bool = False,
    colour: Color = INK,
    indent: float = 0,
) -> ParagraphStyle:
    """A paragraph style; ``indent`` hangs every line after the first."""
    return ParagraphStyle(
        name=f"s{size}{'b' if bold else ''}{'c' if centred else ''}{indent}",
        fontName=FONT_BOLD if bold else FONT,
        fontSize=size,
        leading=size * LEADING,
        alignment=TA_CENTER if centred else TA_LEFT,
        textColor=colour,
        leftIndent=indent,
        firstLineIndent=-indent,
        splitLongWords=True,
    )


@dataclass(frozen=True)
class Fitted:
    """A paragraph (or table) laid out in a box: its size in points and its font size."""

    paragraph: Flowable
    width: float
    height: float
    size: float

    def draw(self, canvas: Canvas, x: float, top: float) -> float:
        """Draw with the top-left corner at (x, top); returns the y below it."""
        self.paragraph.drawOn(canvas, x, top - self.height)
        return top - self.height


def measure(markup: str, paragraph_style: ParagraphStyle, width: float) -> Fitted:
    paragraph = Paragraph(markup, paragraph_style)
    used_width, height = paragraph.wrap(width, 10_000)
    return Fitted(paragraph, used_width, height, paragraph_style.fontSize)


def fit(
    markup: str,
    width: float,
    height: float,
    *,
    size: float,
    min_size: float = MIN_FONT_SIZE,
    bold: bool = False,
    centred: bool = False,
    max_lines: int | None = None,
    split_words: bool = False,
) -> Fitted:
    """The largest font size, from ``size`` down, at which the text fits the box.

    Long words are not cut (unless ``split_words``, for links): a word wider
    than the box counts as not fitting. Raises LayoutError when even
    ``min_size`` is too big.
    """
    current = size
    while current >= min_size - 1e-9:
        fitted = measure(markup, style(current, bold=bold, centred=centred), width)
        lines = len(fitted.paragraph.blPara.lines)
        if (
            fitted.height <= height + 0.01
            and (max_lines is None or lines <= max_lines)
            and (split_words or _no_word_split(fitted.paragraph, width))
        ):
            return fitted
        current = round(current - 0.25, 2)
    raise LayoutError(
        _(
            "text does not fit a %(width)s x %(height)s mm box",
            width=f"{width / mm:.0f}",
            height=f"{height / mm:.0f}",
        )
    )


def _no_word_split(paragraph: Paragraph, width: float) -> bool:
    """True when no single word had to be broken to fit the width."""
    return paragraph.minWidth() <= width + 0.01


class TextRun:
    """Many short strings in one PDF text object: far cheaper than a ``drawString`` each.

    ``put`` takes text in one font (numbers, and the parts ``labels`` splits any
    text into, in drawing order); ``put_bold`` the same, made bold. A sheet
    repeats the same few hundred strings, so each is measured and encoded for
    its font subset once; the operators written are the ones reportlab's own
    text object writes (``printables/`` comes out the same byte for byte), put
    on the page with ``addLiteral`` by ``close()``. Fonts are the embedded
    TrueType fonts of ``fonts``.
    """

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.ops = ["BT", "1 0 0 1 0 0 Tm"]  # as ``canvas.beginText()`` starts
        self.font: tuple[str, float] | None = None
        self.subset = -1  # the font subset selected last, -1 after a change of font
        self.widths: dict[tuple[str, str, float], float] = {}
        self.encoded: dict[tuple[str, str], tuple[tuple[int, str], ...]] = {}
        self.selects: dict[tuple[str, float, int], str] = {}
        self.stroked = False

    def width(self, words: str, font: str, size: float) -> float:
        key = (words, font, size)
        if key not in self.widths:
            self.widths[key] = stringWidth(words, font, size)
        return self.widths[key]

    def put(
        self, x: float, y: float, words: str, font: str, size: float, align: str = "left"
    ) -> None:
        if (font, size) != self.font:
            self.font, self.subset = (font, size), -1
        if align != "left":
            width = self.width(words, font, size)
            x -= width / 2 if align == "centre" else width
        self.ops.append(f"1 0 0 1 {fp_str(x, y)} Tm")
        parts = self._languages(words)
        if parts is None:  # most strings: all in the document's language
            self._show(words, font, size)
            return
        for part, language in parts:  # each one's text goes on from the last's
            if language is None:
                self._show(part, font, size)
                continue
            self.ops.append(f"/Span <</Lang ({language})>> BDC")
            self._show(part, font, size)
            self.ops.append("EMC")

    def _show(self, words: str, font: str, size: float) -> None:
        """The operators showing ``words`` from where the text is."""
        runs = self._encode(words, font)
        if len(runs) == 1 and runs[0][0] == self.subset:  # most strings: no change of subset
            self.ops.append(runs[0][1])
            return
        pieces = []
        for subset, shown in runs:
            if subset != self.subset:
                pieces.append(self._select(font, size, subset))
                self.subset = subset
            pieces.append(shown)
        self.ops.append(" ".join(pieces))

    def _languages(self, words: str) -> tuple[tuple[str, str | None], ...] | None:
        """``words`` in parts, each with its likely language when it is not the document's
        (its /Lang); None when every part is in the document's."""
        document = getattr(self.canvas, "language", None)
        if document is None or words.isascii():
            return None
        parts = tuple(
            (part, None if language == document.split("-")[0] else language)
            for part, language in name_language.spans(words)
        )
        return parts if any(language for _part, language in parts) else None

    def _language(self, words: str) -> str | None:
        """The likely language of ``words`` when it is not the document's (its /Lang)."""
        language = name_language.language_of(words)
        document = getattr(self.canvas, "language", None)
        if language is None or document is None or language == document.split("-")[0]:
            return None
        return language

    def _encode(self, words: str, font: str) -> tuple[tuple[int, str], ...]:
        """(subset, its ``Tj`` operator) for each run of ``words`` in one subset of ``font``."""
        key = (words, font)
        if key not in self.encoded:
            split = pdfmetrics.getFont(font).splitString(words, self.canvas._doc)
            self.encoded[key] = tuple((n, f"({escapePDF(data)}) Tj") for n, data in split)
        return self.encoded[key]

    def _select(self, font: str, size: float, subset: int) -> str:
        """The operators choosing one subset of ``font`` at ``size``."""
        key = (font, size, subset)
        if key not in self.selects:
            name = pdfmetrics.getFont(font).getSubsetInternalName(subset, self.canvas._doc)
            self.selects[key] = f"{name} {fp_str(size)} Tf {fp_str(size * LEADING)} TL"
        return self.selects[key]

    def put_bold(self, x: float, y: float, words: str, font: str, size: float) -> None:
        """``put``, with the letters also stroked: bold for a font that has no bold."""
        self.ops.append(f"2 Tr {fp_str(size * BOLD_STROKE)} w")
        self.put(x, y, words, font, size)
        self.ops.append("0 Tr")
        self.stroked = True

    def put_shaped(
        self, x: float, y: float, shaped: Shaped, font: str, size: float, *, bold: bool = False
    ) -> None:
        """A shaped run, glyph by glyph where the shaper put each, marked with its letters
        (what a reader copies or a screen reader says)."""
        if (font, size) != self.font:
            self.font, self.subset = (font, size), -1
        language = self._language(shaped.text)
        said = f"/Lang ({language}) " if language is not None else ""
        actual = shaped.seen.encode("utf-16-be").hex()
        self.ops.append(f"/Span <<{said}/ActualText <FEFF{actual}>>> BDC")
        if bold:
            self.ops.append(f"2 Tr {fp_str(size * BOLD_STROKE)} w")
            self.stroked = True
        for glyph in shaped.glyphs:
            at = (x + glyph.x * size / 1000, y + glyph.y * size / 1000)
            self.ops.append(f"1 0 0 1 {fp_str(*at)} Tm")
            for subset, shown in self._encode(glyph.char, font):
                if subset != self.subset:
                    self.ops.append(self._select(font, size, subset))
                    self.subset = subset
                self.ops.append(shown)
        if bold:
            self.ops.append("0 Tr")
        self.ops.append("EMC")

    def close(self) -> None:
        self.canvas.setFillColor(INK)
        ops = " ".join([*self.ops, "ET"])
        # the stroke of made-up bold changes the line width: kept inside q ... Q
        self.canvas.addLiteral(f"q 0 G {ops} Q" if self.stroked else ops)


# --- documents --------------------------------------------------------------------


def new_canvas(
    buffer: BytesIO,
    pagesize: tuple[float, float],
    title: str,
    subject: str,
    *,
    created: datetime | None = None,
) -> Canvas:
    """A canvas with ``invariant=1``, so the same input always gives the same bytes.

    ``created``: the PDF's creation date (a game's start); without it, reportlab's fixed
    date, so the standard set stays the same byte for byte. The title and subject keep
    names as written, without the marks that isolate them (``metadata.plain``).
    """
    fonts.register()
    canvas = TaggedCanvas(
        buffer,
        pagesize=pagesize,
        invariant=1,
        pageCompression=1,
        initialFontName=FONT,  # not Helvetica, which no page uses and no PDF embeds
        lang=i18n.language(),
    )
    canvas.setTitle(metadata.plain(title))
    canvas.setSubject(metadata.plain(subject))
    canvas.setAuthor(AUTHOR)
    canvas.setCreator(AUTHOR)
    if created is not None:
        stamp = pdf_date(created)
        canvas.setDateFormatter(lambda *_parts: stamp)
    return canvas


def pdf_date(when: datetime) -> str:
    """A PDF date with its offset from UTC: D:20261127190500+01'00'."""
    offset = when.strftime("%z") or "+0000"
    return when.strftime("D:%Y%m%d%H%M%S") + f"{offset[:3]}'{offset[3:]}'"
