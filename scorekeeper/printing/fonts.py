"""Fonts that print any player's name, embedded (and subset) in every PDF.

The page text is Fira Sans (Latin, Greek, Cyrillic), with IBM Plex Mono for
links, both from pinned PyPI packages so ``printables/`` comes out byte for
byte the same on any machine. A name in another script borrows a font for
just those letters, chosen per run of text:

- the script's own Noto face, regular and bold (Debian's ``fonts-noto-core``:
  Devanagari, Thai, Armenian, Georgian, Hebrew, Arabic, Tamil, Ethiopic, ...),
  found by the first words of each letter's Unicode name: Noto Sans first, then
  Noto Serif (Tibetan has only a serif), then the UI faces (``fonts-noto-ui-core``);
- Hebrew and Arabic also from pinned PyPI packages (Heebo, Noto Sans Arabic),
  for a machine without Debian's fonts;
- Noto Sans CJK for Chinese, Japanese and Korean, regular and bold
  (``fonts-noto-cjk``, redrawn as TrueType by ``cjk`` for each document, from the
  letters it prints: ``MadeFont``);
- Noto Emoji, monochrome, regular and bold, shipped in ``typefaces/`` (from
  Google Fonts, by npm): a joined sequence (a family, a flag, a skin tone, a
  keycap) is shaped into its one glyph;
- for anything else, Noto Sans, Noto Sans Symbols, Symbola (``fonts-symbola``)
  and DejaVu Sans (``fonts-dejavu-core``), whose card suits the two-deck guide
  prints.

All allow embedding (SIL Open Font Licence, Symbola's free licence).
A letter no installed font has is printed as its code point, never as ``?``
(``layout.plain``), and ``missing_packages`` names the Debian package that
would draw it, if that package is not installed already. Fonts load only when a
name needs them.

``EmbeddedFont`` is reportlab's TrueType font with three repairs a print shop
and a screen reader need: every subset gets its own tag (reportlab gives all
``AAAAAA+``), the ToUnicode map reaches past U+FFFF (an emoji), and glyphs
that no character maps to (a Devanagari conjunct, an Arabic joined form, made
by ``shaping``) are embedded under a private code that reads back as the text
they draw.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import fontpkg_fira_sans
import fontpkg_heebo
import fontpkg_ibm_plex_mono
import fontpkg_noto_sans_arabic
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from . import cjk, shaping

FONT = "FiraSans"
FONT_BOLD = "FiraSans-Bold"
FONT_MONO = "PlexMono"
SUITS = "DejaVuSans"  # the four card suits, embedded like every other font

_MAIN = {
    FONT: fontpkg_fira_sans.ROOT / "files" / "FiraSans-Regular.ttf",
    FONT_BOLD: fontpkg_fira_sans.ROOT / "files" / "FiraSans-Bold.ttf",
    FONT_MONO: fontpkg_ibm_plex_mono.ROOT / "files" / "IBMPlexMono-Regular.ttf",
}
DEBIAN_FONTS = Path("/usr/share/fonts/truetype")
NOTO = DEBIAN_FONTS / "noto"
SUITS_FILE = DEBIAN_FONTS / "dejavu" / "DejaVuSans.ttf"
TYPEFACES = Path(__file__).with_name("typefaces")  # fonts shipped in the package
PRIVATE = 0xF0000  # plane 15: a glyph with no character of its own is embedded as PRIVATE + id
# Characters whose font each process keeps (what ``runs`` asks of every letter): a night of
# 7,200 different letters fits, and no run of names makes a worker keep every character there is.
CHARACTERS_KEPT = 16384

# Debian packages, by what they draw (named in messages and in docs/decisions.md).
NOTO_PACKAGE = "fonts-noto-core"
CJK_PACKAGE = cjk.PACKAGE
SYMBOLS_PACKAGE = "fonts-symbola"
SUITS_PACKAGE = "fonts-dejavu-core"

# The first word of a CJK character's Unicode name.
_CJK_WORDS = frozenset(
    "CJK HIRAGANA KATAKANA HANGUL BOPOMOFO IDEOGRAPHIC KANGXI HALFWIDTH FULLWIDTH".split()
)


@dataclass(frozen=True)
class Face:
    """A fallback font: its name in reportlab, its file, and its real bold, if it has one."""

    name: str
    path: Path
    bold: Path | None = None
    package: str = NOTO_PACKAGE


EMOJI = Face("NotoEmoji", TYPEFACES / "NotoEmoji-Regular.ttf", TYPEFACES / "NotoEmoji-Bold.ttf", "")
# Tried, in order, for any letter that its script's own font does not have.
GENERAL = (
    Face("NotoSans", NOTO / "NotoSans-Regular.ttf", NOTO / "NotoSans-Bold.ttf"),
    Face("NotoSansSymbols2", NOTO / "NotoSansSymbols2-Regular.ttf"),
    Face(
        "NotoSansSymbols", NOTO / "NotoSansSymbols-Regular.ttf", NOTO / "NotoSansSymbols-Bold.ttf"
    ),
    Face("NotoSansMath", NOTO / "NotoSansMath-Regular.ttf"),
    EMOJI,
    Face(
        "Symbola",
        DEBIAN_FONTS / "ancient-scripts" / "Symbola_hint.ttf",
        package=SYMBOLS_PACKAGE,
    ),
    SUITS_FACE := Face(
        SUITS, SUITS_FILE, DEBIAN_FONTS / "dejavu" / "DejaVuSans-Bold.ttf", SUITS_PACKAGE
    ),
)
# Pinned PyPI fonts for two scripts, used when Debian's are not installed (no bold of their own).
_PYPI = {
    "HEBREW": Face("Heebo", fontpkg_heebo.ROOT / "files" / "Heebo[wght].ttf", package=""),
    "ARABIC": Face(
        "NotoSansArabicVF",
        fontpkg_noto_sans_arabic.ROOT / "files" / "NotoSansArabic[wdth,wght].ttf",
        package="",
    ),
}


class EmbeddedFont(TTFont):
    """A TrueType font embedded as subsets with distinct tags and a full ToUnicode map."""

    def __init__(self, name: str, source: Path | bytes):
        super().__init__(
            name, io.BytesIO(source) if isinstance(source, bytes) else str(source), shapable=False
        )
        self.glyph_text: dict[int, str] = {}  # private code -> the text its glyph draws
        self.private: dict[tuple[int, str], int] = {}  # (glyph, text) -> its private code

    def code_for(self, glyph: int, text: str) -> str:
        """The character that selects ``glyph`` in this font and reads back as ``text``: the
        letter itself when the font draws it so, else a private code of its own (one glyph
        may read differently in two places: a joined form, a part of a conjunct)."""
        face = self.face
        if len(text) == 1 and face.charToGlyph.get(ord(text)) == glyph:
            return text
        code = self.private.get((glyph, text))
        if code is None:
            code = self.private[glyph, text] = PRIVATE + len(self.private)
            face.charToGlyph[code] = glyph
            face.glyphToChar.setdefault(glyph, []).append(code)
            face.charWidths[code] = _advance(self.fontName, glyph)
            self.glyph_text[code] = text
        return chr(code)

    def addObjects(self, doc: pdfdoc.PDFDocument) -> None:
        subsets = [list(subset) for subset in self.state[doc].subsets]
        names = [self.getSubsetInternalName(n, doc)[1:] for n in range(len(subsets))]
        super().addObjects(doc)
        fonts = doc.idToObject["BasicFonts"].dict
        for name, subset in zip(names, subsets, strict=True):
            pdf_font = fonts[name]
            old = pdf_font.BaseFont
            new = f"{_tag(old, subset)}+{old.split('+', 1)[1]}"
            pdf_font.BaseFont = new
            descriptor = doc.idToObject[f"fontDescriptor:{old}"]
            descriptor.dict["FontName"] = pdfdoc.PDFName(new)
            doc.idToObject[f"toUnicodeCMap:{old}"].content = self._to_unicode(new, subset)

    def _to_unicode(self, name: str, subset: list[int]) -> str:
        """A ToUnicode CMap for one subset, in UTF-16 (surrogate pairs past U+FFFF)."""
        pairs = [
            f"<{code:02X}> <{_utf16(self.glyph_text.get(char, chr(char)))}>"
            for code, char in enumerate(subset)
        ]
        return "\n".join(
            [
                "/CIDInit /ProcSet findresource begin",
                "12 dict begin",
                "begincmap",
                f"/CIDSystemInfo << /Registry ({name}) /Ordering ({name}) /Supplement 0 >> def",
                f"/CMapName /{name} def",
                "/CMapType 2 def",
                "1 begincodespacerange",
                f"<00> <{len(subset) - 1:02X}>",
                "endcodespacerange",
                f"{len(pairs)} beginbfchar",
                *pairs,
                "endbfchar",
                "endcmap",
                "CMapName currentdict /CMap defineresource pop",
                "end",
                "end",
            ]
        )


def _utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _tag(base: str, subset: Iterable[int]) -> str:
    """Six capitals that differ between subsets (of one font, and of different fonts)."""
    digest = hashlib.sha256(f"{base} {list(subset)}".encode()).digest()
    return "".join(chr(ord("A") + byte % 26) for byte in digest[:6])


class MadeFont(EmbeddedFont):
    """A face of Noto Sans CJK (``cjk.MadeFace``): measured from the collection while a
    document is laid out; embedded, when it is saved, a subset at a time, each from a font
    made of its letters alone."""

    def __init__(self, name: str, face: cjk.MadeFace):
        super().__init__(name, face.skeleton)
        self.face: cjk.MadeFace = face
        self._asciiReadable = False  # no room kept for Latin letters: Fira Sans prints them

    def stringWidth(self, text: str, size: float, encoding: str = "utf8") -> float:
        self.face.measure(text)  # reportlab's own measuring finds each width at hand
        return super().stringWidth(text, size, encoding)


@cache
def _advance(font: str, glyph: int) -> float:
    """A glyph's advance in thousandths of an em (HarfBuzz reads the font's own metrics)."""
    return shaping.advance(font, glyph)


def register() -> None:
    """Make the main fonts known to reportlab (once; cheap to call again)."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, path in _MAIN.items():
        pdfmetrics.registerFont(EmbeddedFont(name, path))
    for bold in (0, 1):
        addMapping(FONT, bold, 0, FONT_BOLD if bold else FONT)
        addMapping(FONT, bold, 1, FONT_BOLD if bold else FONT)
        addMapping(FONT_BOLD, bold, 0, FONT_BOLD)
        addMapping(FONT_BOLD, bold, 1, FONT_BOLD)


@cache
def load(face: Face) -> bool:
    """Register a fallback font (and its bold) the first time a name needs it; False when
    its file is not installed."""
    if not face.path.is_file():
        return False
    bold = None
    if face.bold is not None and face.bold.is_file():
        bold = EmbeddedFont(f"{face.name}-Bold", face.bold)
    _register(EmbeddedFont(face.name, face.path), bold)
    return True


def _register(regular: EmbeddedFont, bold: EmbeddedFont | None) -> None:
    """A fallback font known to reportlab, with its bold (named as itself with "-Bold"; or,
    without one, itself for bold too)."""
    pdfmetrics.registerFont(regular)
    if bold is not None:
        pdfmetrics.registerFont(bold)
    for italic in (0, 1):
        addMapping(regular.fontName, 0, italic, regular.fontName)
        addMapping(regular.fontName, 1, italic, (bold or regular).fontName)


@cache
def _cjk(face: str) -> str:
    """The registered font (with its bold) for one face of Noto Sans CJK: JP, KR or SC."""
    name = cjk.name(face)
    _register(
        MadeFont(name, cjk.MadeFace(face, bold=False)),
        MadeFont(f"{name}-Bold", cjk.MadeFace(face, bold=True)),
    )
    return name


def suits_font() -> str:
    """The font the card suits print in: DejaVu Sans, embedded; without it ZapfDingbats, a
    standard font that is not embedded (a print shop may refuse the file)."""
    return SUITS if load(SUITS_FACE) else "ZapfDingbats"


def has_bold(name: str) -> bool:
    """True when fallback font ``name`` has a bold face of its own (registered)."""
    return f"{name}-Bold" in pdfmetrics.getRegisteredFontNames()


def _has(font: str, char: str) -> bool:
    if font == cjk.FAMILY:
        return cjk.has(char)
    return ord(char) in pdfmetrics.getFont(font).face.charToGlyph and ord(char) < PRIVATE


def _main_has(char: str) -> bool:
    return _has(FONT, char)


def _first_word(char: str) -> str:
    return unicodedata.name(char, "").split(" ", 1)[0]


# A script's faces, best first: "{}" is the script as Noto names it ("OlChiki", "Tibetan").
STYLES = ("NotoSans{}", "NotoSerif{}", "NotoSans{}UI", "NotoSerif{}UI")
# Scripts that Noto names otherwise than Unicode's names of their letters do.
_NOTO_NAMES = {"CANADIAN SYLLABICS": "CanadianAboriginal"}


@cache
def _noto_files() -> dict[str, Path]:
    """Every installed Noto face's regular file, by its name in lower case ("notosansnko"):
    Noto spells some scripts its own way (N'Ko is "NKo")."""
    if not NOTO.is_dir():
        return {}
    return {
        path.name.removesuffix("-Regular.ttf").lower(): path
        for path in NOTO.glob("Noto*-Regular.ttf")
    }


def _script_faces(char: str) -> tuple[Face, ...]:
    """The fonts made for ``char``'s script, best first (none for Latin and symbols)."""
    words = unicodedata.name(char, "").replace("-", " ").split()
    if not words:
        return ()
    if words[0] in _CJK_WORDS:
        return ()
    installed = _noto_files()
    faces = []
    for count in (3, 2, 1):  # "OL CHIKI LETTER ..." -> NotoSansOlChiki
        script = " ".join(words[:count])
        stem = _NOTO_NAMES.get(script) or "".join(word.capitalize() for word in words[:count])
        for style in STYLES:
            path = installed.get(style.format(stem).lower())
            if path is not None:
                name = path.name.removesuffix("-Regular.ttf")
                faces.append(Face(name, path, path.with_name(f"{name}-Bold.ttf")))
        if faces:
            break
    if words[0] in _PYPI:
        faces.append(_PYPI[words[0]])
    return tuple(faces)


@lru_cache(maxsize=CHARACTERS_KEPT)
def fallback(char: str) -> str | None:
    """The registered fallback font that has ``char``, or None (``cjk.FAMILY`` for CJK, whose
    fonts ``runs`` makes)."""
    if _first_word(char) in _CJK_WORDS and cjk.has(char):
        return cjk.FAMILY
    # a pictograph takes the emoji font first, so that a sequence stays in one font
    first = (EMOJI,) if char >= "\U0001f000" else ()
    for face in (*first, *_script_faces(char), *GENERAL):
        if load(face) and _has(face.name, char):
            return face.name
    return None


def _emoji(char: str, following: str) -> bool:
    """True when ``char`` starts an emoji: it asks for emoji style (U+FE0F) or is one."""
    return following == "\ufe0f" and load(EMOJI) and _has(EMOJI.name, char)


@lru_cache(maxsize=CHARACTERS_KEPT)
def printable(char: str) -> bool:
    """True when some font we embed can draw ``char``."""
    register()
    if unicodedata.category(char) == "Co":  # private use: no meaning to print
        return False
    return char.isprintable() and (_main_has(char) or fallback(char) is not None)


def attaches(char: str) -> bool:
    """True for a character drawn with the one before it: a combining mark, a joiner, a
    variation selector or an emoji modifier."""
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char in "\u200c\u200d"
        or "\ufe00" <= char <= "\ufe0f"
        or "\U0001f3fb" <= char <= "\U0001f3ff"
    )


@lru_cache(maxsize=CHARACTERS_KEPT)
def _letter(char: str) -> tuple[bool, str | None]:
    """(``char`` attaches to the letter before it, the font it takes on its own: None for
    the main font), asked once per character: ``runs`` reads every letter of a name each
    time a line of it is measured."""
    return attaches(char), None if _main_has(char) or char.isspace() else fallback(char)


def runs(text: str) -> list[tuple[str | None, str]]:
    """``text`` cut where the font changes: (fallback font or None for the main font, part).

    A mark stays in the font of the letter it sits on when that font has it.
    """
    register()
    if text.isascii():
        return [(None, text)] if text else []
    fonts: list[str | None] = []  # each run's font
    starts: list[int] = []  # where each run starts in ``text``
    last = len(text) - 1
    for index, char in enumerate(text):
        joins, font = _letter(char)
        if joins and starts and (_has(fonts[-1] or FONT, char) or not printable(char)):
            continue  # on the letter before, in its font
        if index < last and text[index + 1] == "\ufe0f" and _emoji(char, "\ufe0f"):
            font = EMOJI.name
        if not fonts or fonts[-1] != font:
            fonts.append(font)
            starts.append(index)
    parts = [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)], strict=True)]
    return [
        (_cjk(cjk.face_for(part)) if font == cjk.FAMILY else font, part)
        for font, part in zip(fonts, parts, strict=True)
    ]


def package_for(char: str) -> str:
    """The Debian package with a font for ``char``."""
    if _first_word(char) in _CJK_WORDS:
        return CJK_PACKAGE
    if unicodedata.category(char) == "So":
        return SYMBOLS_PACKAGE
    return NOTO_PACKAGE


def installed(package: str) -> bool:
    """True when Debian's font ``package`` is installed (one of its files is there)."""
    marks = {
        NOTO_PACKAGE: NOTO / "NotoSansDevanagari-Regular.ttf",
        CJK_PACKAGE: cjk.FILES[False],
        SYMBOLS_PACKAGE: GENERAL[-2].path,
        SUITS_PACKAGE: SUITS_FILE,
    }
    return marks[package].is_file()


def missing_packages(texts: Iterable[str]) -> dict[str | None, str]:
    """{Debian package: the letters it would print} for letters no installed font has; the
    letters that no package we know of would print (its package is installed) under None."""
    missing: dict[str | None, str] = {}
    for text in texts:
        for char in unicodedata.normalize("NFC", text):
            if char.isprintable() and not char.isspace() and not printable(char):
                if attaches(char):
                    continue
                package: str | None = package_for(char)
                if package is not None and installed(package):
                    package = None
                if char not in missing.get(package, ""):
                    missing[package] = missing.get(package, "") + char
    return missing
