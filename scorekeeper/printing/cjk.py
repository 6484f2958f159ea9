"""Chinese, Japanese and Korean names in Noto Sans CJK, with a real bold, made embeddable.

Debian's ``fonts-noto-cjk`` draws every CJK character in a regular and a bold
weight, but its outlines are PostScript (CFF), which reportlab cannot embed.
So for each block of 64 code points a name has letters in, HarfBuzz cuts the
block's characters out of the collection (in milliseconds), and fontTools
redraws their curves as TrueType quadratics (within one unit of the em's
thousand): a small font that reportlab embeds like any other. Blocks, not
names, so what a long-running server keeps is bounded by the script, however
many names it prints. The face follows the name's letters: kana make it the
Japanese face, hangul the Korean, anything else the Simplified Chinese.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import uharfbuzz as hb
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

FOLDER = Path("/usr/share/fonts/opentype/noto")
FILES = {False: FOLDER / "NotoSansCJK-Regular.ttc", True: FOLDER / "NotoSansCJK-Bold.ttc"}
PACKAGE = "fonts-noto-cjk"
FAMILY = "NotoSansCJK"  # what ``fonts`` calls the family before a run's own font is made
BLOCK = 64  # code points a made font holds
_FACES = {"JP": "Noto Sans CJK JP", "KR": "Noto Sans CJK KR", "SC": "Noto Sans CJK SC"}


def installed() -> bool:
    return all(path.is_file() for path in FILES.values())


@cache
def _face(bold: bool, face: str) -> hb.Face:
    blob = hb.Blob.from_file_path(str(FILES[bold]))
    for index in range(16):  # the collection's faces: JP, KR, SC, TC, HK, then mono
        found = hb.Face(blob, index)
        if found.get_name(hb.OTNameIdPredefined.FONT_FAMILY) == _FACES[face]:
            return found
    raise LookupError(f"{FILES[bold]} has no {_FACES[face]}")


@cache
def _covered() -> frozenset[int]:
    return frozenset(_face(False, "SC").unicodes) if installed() else frozenset()


def has(char: str) -> bool:
    """True when Noto Sans CJK (installed) draws ``char``."""
    return ord(char) in _covered()


def face_for(text: str) -> str:
    """The face for ``text``: Japanese with kana, Korean with hangul, else Chinese."""
    if any("\u3040" <= char <= "\u30ff" or "\u31f0" <= char <= "\u31ff" for char in text):
        return "JP"
    if any("\uac00" <= char <= "\ud7af" or "\u1100" <= char <= "\u11ff" for char in text):
        return "KR"
    return "SC"


def block(char: str) -> int:
    return ord(char) // BLOCK


def name(face: str, number: int) -> str:
    """What the font for one block of one face is registered as (its bold adds "-Bold")."""
    return f"{FAMILY}{face}-{number:05X}"


def truetype(face: str, number: int, bold: bool) -> bytes:
    """A TrueType font with block ``number``'s characters, in ``face`` (JP, KR or SC)."""
    cut = hb.SubsetInput()
    for code in range(number * BLOCK, (number + 1) * BLOCK):
        cut.unicode_set.add(code)
    font = TTFont(io.BytesIO(hb.subset(_face(bold, face), cut).blob.data))
    _quadratic(font)
    # a PostScript name of its own: reportlab keeps one embedded file per name
    weight = "Bold" if bold else "Regular"
    names = font["name"]
    names.removeNames(nameID=6)
    names.setName(f"NotoSansCJK{face.lower()}-{weight}-{number:05X}", 6, 3, 1, 0x409)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _quadratic(font: TTFont) -> None:
    """Replace ``font``'s PostScript outlines by TrueType ones, in place."""
    order = font.getGlyphOrder()
    outlines = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        # PostScript contours run counter-clockwise, TrueType's clockwise
        outlines[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = font["maxp"]  # version 1.0: what a TrueType rasteriser needs, counted on save
    maxp.tableVersion = 0x00010000
    for field in (
        "maxTwilightPoints maxStorage maxFunctionDefs maxInstructionDefs "
        "maxStackElements maxSizeOfInstructions maxComponentElements"
    ).split():
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["head"].glyphDataFormat = 0
    font["post"].formatType = 3.0  # no glyph names
    font.sfntVersion = "\x00\x01\x00\x00"
