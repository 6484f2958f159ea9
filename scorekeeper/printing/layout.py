"""Shared page geometry, fonts, text safety and fitting for every printable.

Everything is measured in mm (``reportlab.lib.units.mm``) so the constants
read like a ruler. Text is set in embedded fonts (see ``fonts``) that cover
Latin, Greek, Cyrillic, Hebrew, Arabic and CJK names; a character none of them
has is replaced by a close Latin letter or ``?`` rather than printed as a box.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape as _xml_escape

from reportlab.lib.colors import Color, black
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from ..i18n import _
from . import fonts
from .fonts import FONT, FONT_BOLD, FONT_MONO

PAGE_SIZES: dict[str, tuple[float, float]] = {"letter": LETTER, "a4": A4}

__all__ = ["FONT", "FONT_BOLD", "FONT_MONO"]  # re-exported for the renderers
fonts.register()
FONT_SYMBOLS = "ZapfDingbats"  # has the four suits; a standard font, nothing to install

INK = black
GREY = Color(0.45, 0.45, 0.45)
LIGHT = Color(0.75, 0.75, 0.75)
SHADE = Color(0.93, 0.93, 0.93)

# The smallest type we print: below this a family at the table cannot read it.
MIN_FONT_SIZE = 6.5
LEADING = 1.2  # line height as a multiple of the font size

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


def plain(text: str) -> str:
    """Text our fonts can show, in reading (logical) order, white space squeezed.

    A letter no embedded font has loses its accent or becomes ``?``, so nothing
    prints as a box.
    """
    text = " ".join(str(text).split())
    if text.isascii() and text.isprintable():
        return text
    text = unicodedata.normalize("NFC", text)
    out = []
    for char in text:
        if fonts.printable(char):
            out.append(char)
            continue
        char = char.translate(_STAND_INS)
        if all(fonts.printable(c) for c in char):
            out.append(char)
            continue
        base = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        out.append(base if base and all(fonts.printable(c) for c in base) else "?")
    return "".join(out)


def _xml(text: str) -> str:
    return _xml_escape(text, {'"': "&quot;", "'": "&#39;"})


def escape(text: str) -> str:
    """User text made safe for ``Paragraph`` (which reads ``<b>`` and ``&amp;`` as markup).

    Right-to-left words are put in drawing order, and letters the main font
    lacks are wrapped in their script's font.
    """
    return "".join(
        _xml(part) if font is None else f'<font name="{font}">{_xml(part)}</font>'
        for font, part in fonts.runs(fonts.visual(plain(text)))
    )


def text_width(text: str, font: str, size: float) -> float:
    """How wide ``draw_text`` draws ``text`` (user text in any script)."""
    return sum(
        stringWidth(part, fallback or font, size)
        for fallback, part in fonts.runs(fonts.visual(plain(text)))
    )


def draw_text(
    canvas: Canvas, x: float, y: float, text: str, font: str, size: float, *, align: str = "left"
) -> None:
    """One line of user text at baseline ``y``; ``align`` is left, centre or right of ``x``."""
    width = text_width(text, font, size)
    x -= {"left": 0, "centre": width / 2, "right": width}[align]
    for fallback, part in fonts.runs(fonts.visual(plain(text))):
        canvas.setFont(fallback or font, size)
        canvas.drawString(x, y, part)
        x += stringWidth(part, fallback or font, size)


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


def fit_user_text(
    words: str,
    width: float,
    height: float,
    *,
    size: float,
    min_size: float = MIN_FONT_SIZE,
    prefix: str = "",
    **options: Any,  # fit()'s keywords: bold, centred, max_lines, split_words
) -> Fitted:
    """Text someone typed (a title, a name, a link), escaped and fitted to its box.

    When it is too long even at ``min_size`` it is cut short with an ellipsis,
    visibly, rather than running out of the box. ``prefix`` is trusted markup.
    """
    words = plain(words)
    try:
        return fit(prefix + escape(words), width, height, size=size, min_size=min_size, **options)
    except LayoutError:
        pass
    best, low, high = None, 0, len(words) - 1
    while low <= high:  # the longest beginning that fits, by halving
        middle = (low + high) // 2
        shortened = prefix + escape(words[:middle].rstrip() + "\u2026")
        try:
            best = fit(shortened, width, height, size=min_size, min_size=min_size, **options)
            low = middle + 1
        except LayoutError:
            high = middle - 1
    if best is None:
        raise LayoutError(_("no room for %(words)r in its box", words=words[:20]))
    return best


def _no_word_split(paragraph: Paragraph, width: float) -> bool:
    """True when no single word had to be broken to fit the width."""
    return paragraph.minWidth() <= width + 0.01


@lru_cache(maxsize=4096)
def shorten(text: str, width: float, font: str, size: float) -> str:
    """Cut ``text`` with an ellipsis so one line fits ``width`` (never clipped)."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


class TextRun:
    """Many short strings in one PDF text object: far cheaper than a ``drawString`` each.

    ``put`` takes trusted text in one font (numbers, labels); ``put_user`` takes
    a name in any script, split into the fonts that have its letters. A sheet
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
        self.parts: dict[tuple[str, str, float], tuple[float, list[tuple[str, str, float]]]] = {}

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

    def put_user(
        self, x: float, y: float, words: str, font: str, size: float, align: str = "left"
    ) -> None:
        """User text like ``draw_text``: right-to-left in drawing order, fallback fonts."""
        width, parts = self._user_parts(words, font, size)
        x -= {"left": 0, "centre": width / 2, "right": width}[align]
        for part_font, part, offset in parts:
            self.put(x + offset, y, part, part_font, size)

    def user_width(self, words: str, font: str, size: float) -> float:
        """How wide ``put_user`` draws ``words`` (``text_width``, measured once)."""
        return self._user_parts(words, font, size)[0]

    def _user_parts(
        self, words: str, font: str, size: float
    ) -> tuple[float, list[tuple[str, str, float]]]:
        """(width, [(font, part, offset)]) of user text split into the fonts that have it."""
        key = (words, font, size)
        if key not in self.parts:
            parts, width = [], 0.0
            for fallback, part in fonts.runs(fonts.visual(plain(words))):
                parts.append((fallback or font, part, width))
                width += self.width(part, fallback or font, size)
            self.parts[key] = (width, parts)
        return self.parts[key]

    def close(self) -> None:
        self.canvas.setFillColor(INK)
        self.canvas.addLiteral(" ".join([*self.ops, "ET"]))


# --- documents --------------------------------------------------------------------


def new_canvas(buffer: BytesIO, pagesize: tuple[float, float], title: str, subject: str) -> Canvas:
    """A canvas with ``invariant=1``, so the same input always gives the same bytes."""
    fonts.register()
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    canvas.setTitle(plain(title))
    canvas.setSubject(plain(subject))
    canvas.setAuthor(AUTHOR)
    canvas.setCreator(AUTHOR)
    return canvas
