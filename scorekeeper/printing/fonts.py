"""Fonts that print any player's name, embedded (and subset) in every PDF.

The page text is Fira Sans (Latin, Greek, Cyrillic), with IBM Plex Mono for
links, both from pinned PyPI packages so ``printables/`` comes out byte for
byte the same on any machine. A name in another script borrows a font for just
those letters: Heebo for Hebrew, Noto Sans Arabic for Arabic (both pinned PyPI
packages) and Droid Sans Fallback for Chinese, Japanese and Korean (the Debian
package ``fonts-droid-fallback``). All are under the SIL Open Font Licence or
the Apache licence, which allow embedding. Fallback fonts load only when a name
needs them, so a sheet in Latin letters stays fast and small.

Right-to-left words are put in drawing order before they get here (``bidi``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import fontpkg_fira_sans
import fontpkg_heebo
import fontpkg_ibm_plex_mono
import fontpkg_noto_sans_arabic
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "FiraSans"
FONT_BOLD = "FiraSans-Bold"
FONT_MONO = "PlexMono"

_MAIN = {
    FONT: fontpkg_fira_sans.ROOT / "files" / "FiraSans-Regular.ttf",
    FONT_BOLD: fontpkg_fira_sans.ROOT / "files" / "FiraSans-Bold.ttf",
    FONT_MONO: fontpkg_ibm_plex_mono.ROOT / "files" / "IBMPlexMono-Regular.ttf",
}
CJK_FONT_FILE = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


@dataclass(frozen=True)
class Fallback:
    """A font for the letters of one script the main font lacks."""

    name: str
    path: Path
    ranges: tuple[tuple[int, int], ...]

    def covers(self, char: str) -> bool:
        point = ord(char)
        return any(low <= point <= high for low, high in self.ranges)


FALLBACKS = (
    Fallback(
        "Hebrew",
        fontpkg_heebo.ROOT / "files" / "Heebo[wght].ttf",
        ((0x0590, 0x05FF), (0xFB1D, 0xFB4F)),
    ),
    Fallback(
        "Arabic",
        fontpkg_noto_sans_arabic.ROOT / "files" / "NotoSansArabic[wdth,wght].ttf",
        ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
    ),
    Fallback(
        "CJK",
        CJK_FONT_FILE,
        (
            (0x1100, 0x11FF),  # Hangul jamo
            (0x2E80, 0x9FFF),  # CJK radicals, kana, ideographs
            (0xA960, 0xA97F),
            (0xAC00, 0xD7FF),  # Hangul syllables
            (0xF900, 0xFAFF),
            (0xFF00, 0xFFEF),  # full-width forms
        ),
    ),
)


def register() -> None:
    """Make the main fonts known to reportlab (once; cheap to call again)."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, path in _MAIN.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    for bold in (0, 1):
        addMapping(FONT, bold, 0, FONT_BOLD if bold else FONT)
        addMapping(FONT, bold, 1, FONT_BOLD if bold else FONT)
        addMapping(FONT_BOLD, bold, 0, FONT_BOLD)
        addMapping(FONT_BOLD, bold, 1, FONT_BOLD)


@cache
def _fallback(char: str) -> str | None:
    """The registered fallback font that has ``char``, or None."""
    for fallback in FALLBACKS:
        if fallback.covers(char) and _load(fallback) and _has(fallback.name, char):
            return fallback.name
    return None


@cache
def _load(fallback: Fallback) -> bool:
    """Register a fallback font the first time a name needs it; False when not installed."""
    if not fallback.path.is_file():
        return False
    pdfmetrics.registerFont(TTFont(fallback.name, str(fallback.path)))
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(fallback.name, bold, italic, fallback.name)
    return True


def _has(font: str, char: str) -> bool:
    return ord(char) in pdfmetrics.getFont(font).face.charToGlyph


def _main_has(char: str) -> bool:
    return _has(FONT, char)


@cache
def printable(char: str) -> bool:
    """True when some font we embed can draw ``char``."""
    register()
    return char.isprintable() and (_main_has(char) or _fallback(char) is not None)


def runs(text: str) -> list[tuple[str | None, str]]:
    """``text`` cut where the font changes: (fallback font or None for the main font, part)."""
    register()
    if text.isascii():
        return [(None, text)] if text else []
    out: list[tuple[str | None, str]] = []
    for char in text:
        font = None if _main_has(char) or char.isspace() else _fallback(char)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + char)
        else:
            out.append((font, char))
    return out
