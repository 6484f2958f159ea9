"""Chinese, Japanese and Korean names in Noto Sans CJK, with a real bold, made embeddable
for each document from the letters it prints.

Debian's ``fonts-noto-cjk`` draws every CJK character in a regular and a bold
weight, but its outlines are PostScript (CFF), which reportlab cannot embed.
So each face (language and weight) is a ``MadeFace``: while a document is laid
out it answers from the collection itself, through HarfBuzz (which letters it
has, how wide each is), and makes nothing; when the document is saved, the
letters it printed in that face, and only those, are cut out of the collection
by HarfBuzz, which draws each one for ``_Outline`` to redraw as TrueType
quadratics (fontTools' cu2qu, within one unit of the em's thousand): a small font
for each of the document's subsets (256 letters at most), embedded, then dropped,
so a document holds one such font at a time however many letters it prints. A
letter costs about 0.1 ms, so a game's sheet of six 40-letter names costs a few
tens of milliseconds and the longest night's cards about 0.6 s; a process keeps
six faces at most (a font of one space each), whatever names it prints. A made
font keeps the collection's own dates, so the same document comes out byte for
byte the same. The face follows the name's letters: kana make it the Japanese
face, hangul the Korean, anything else the Simplified Chinese.
"""

from __future__ import annotations

import io
import re
import struct
import sys
from array import array
from collections.abc import Collection, Iterable
from functools import cache
from math import floor
from pathlib import Path

import uharfbuzz as hb
from fontTools.cu2qu import curve_to_quadratic
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._g_l_y_f import Glyph
from reportlab.pdfbase.ttfonts import TTFontFace, TTFontFile

from ..live.turns import let_others_run

FOLDER = Path("/usr/share/fonts/opentype/noto")
FILES = {False: FOLDER / "NotoSansCJK-Regular.ttc", True: FOLDER / "NotoSansCJK-Bold.ttc"}
PACKAGE = "fonts-noto-cjk"
FAMILY = "NotoSansCJK"  # what ``fonts`` calls the family before a run's face is chosen
FACES = {"JP": "Noto Sans CJK JP", "KR": "Noto Sans CJK KR", "SC": "Noto Sans CJK SC"}
BETWEEN_TURNS = 64  # glyphs drawn before the other requests of the process get a turn
MAX_ERROR = 1.0  # how far a quadratic may stray from the curve it redraws, in font units
WIDTHS_KEPT = 8192  # characters a face keeps the width of, at most: a night's room list
# Not kept in a made font: substitutions and positions (the collection shapes a run itself,
# through ``MadeFace.harfbuzz``), vertical metrics, glyph ids only PostScript needs, and the
# PostScript outlines themselves (each glyph is drawn from the collection instead).
_DROPPED = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "VORG", "vhea", "vmtx", "DSIG", "CFF ")


def installed() -> bool:
    return all(path.is_file() for path in FILES.values())


@cache
def _face(bold: bool, face: str) -> hb.Face:
    blob = hb.Blob.from_file_path(str(FILES[bold]))
    for index in range(16):  # the collection's faces: JP, KR, SC, TC, HK, then mono
        found = hb.Face(blob, index)
        if found.get_name(hb.OTNameIdPredefined.FONT_FAMILY) == FACES[face]:
            return found
    raise LookupError(f"{FILES[bold]} has no {FACES[face]}")


@cache
def _font(bold: bool, face: str) -> hb.Font:
    return hb.Font(_face(bold, face))  # in font units: a thousand to the em


def has(char: str) -> bool:
    """True when Noto Sans CJK (installed) draws ``char`` (asked of the collection's own
    map of characters, which every face shares: nothing is copied out of it)."""
    found = _characters()
    return found is not None and found.get_nominal_glyph(ord(char)) is not None


@cache
def _characters() -> hb.Font | None:
    return _font(False, "SC") if installed() else None


def face_for(text: str) -> str:
    """The face for ``text``: Japanese with kana, Korean with hangul, else Chinese."""
    if _KANA.search(text):
        return "JP"
    if _HANGUL.search(text):
        return "KR"
    return "SC"


_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff]")
_HANGUL = re.compile("[\uac00-\ud7af\u1100-\u11ff]")


def name(face: str) -> str:
    """What ``face`` (JP, KR or SC) is registered as; its bold adds "-Bold"."""
    return f"{FAMILY}{face}"


def truetype(
    face: str, bold: bool, codes: Iterable[int], glyphs: Iterable[int] = ()
) -> tuple[bytes, dict[int, int]]:
    """A TrueType font of ``face`` with the characters ``codes`` and the glyphs ``glyphs``
    (ids in the collection), and where each of those glyphs went (old id -> new id)."""
    cut = hb.SubsetInput()
    for code in codes:
        cut.unicode_set.add(code)
    for glyph in glyphs:
        cut.glyph_set.add(glyph)
    for tag in _DROPPED:
        cut.drop_table_tag_set.add(_tag(tag))
    cut.flags = hb.SubsetFlags.NO_LAYOUT_CLOSURE | hb.SubsetFlags.NO_HINTING
    plan = hb.SubsetPlan(_face(bold, face), cut)
    # the collection's own dates (not the moment of saving): the same letters, the same bytes;
    # the bounds and counts the glyphs set are counted in ``_quadratic``
    font = TTFont(io.BytesIO(plan.execute().blob.data), recalcBBoxes=False, recalcTimestamp=False)
    _quadratic(font, _font(bold, face), dict(plan.new_to_old_glyph_mapping))
    # the face and weight in the PostScript name, which a PDF's list of fonts shows
    names = font["name"]
    names.removeNames(nameID=6)
    names.setName(f"NotoSansCJK{face.lower()}-{'Bold' if bold else 'Regular'}", 6, 3, 1, 0x409)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), dict(plan.old_to_new_glyph_mapping)


def _tag(tag: str) -> int:
    return int.from_bytes(tag.encode("ascii"), "big")


def _quadratic(font: TTFont, source: hb.Font, old: dict[int, int]) -> None:
    """Replace ``font``'s PostScript outlines by TrueType ones, in place: HarfBuzz draws each
    glyph from the collection (``old``: new id -> id there) into an ``_Outline``."""
    count = font["maxp"].numGlyphs
    order = [".notdef", *(f"g{number}" for number in range(1, count))]
    font.setGlyphOrder(order)
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    most_points = most_contours = 0
    box: list[int] | None = None  # what the glyphs cover, together
    for number, glyph_name in enumerate(order):
        if number % BETWEEN_TURNS == BETWEEN_TURNS - 1:
            let_others_run()
        outline = _Outline()
        source.draw_glyph_with_pen(old[number], outline)
        data, covers = outline.compiled()
        glyf.glyphs[glyph_name] = Glyph(data)
        most_points = max(most_points, len(outline.on))
        most_contours = max(most_contours, len(outline.ends))
        if covers is not None:
            box = covers if box is None else _joined(box, covers)
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = font["maxp"]  # version 1.0: what a TrueType rasteriser needs
    maxp.tableVersion = 0x00010000
    for field in (
        "maxCompositePoints maxCompositeContours maxTwilightPoints maxStorage maxFunctionDefs "
        "maxInstructionDefs maxStackElements maxSizeOfInstructions maxComponentElements "
        "maxComponentDepth"
    ).split():
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    maxp.maxPoints, maxp.maxContours = most_points, most_contours
    head = font["head"]
    head.xMin, head.yMin, head.xMax, head.yMax = box or (0, 0, 0, 0)
    head.glyphDataFormat = 0
    font["post"].formatType = 3.0  # no glyph names
    font.sfntVersion = "\x00\x01\x00\x00"


def _joined(box: list[int], other: list[int]) -> list[int]:
    return [
        min(box[0], other[0]),
        min(box[1], other[1]),
        max(box[2], other[2]),
        max(box[3], other[3]),
    ]


class _Outline:
    """One glyph as TrueType draws it, from HarfBuzz's pen calls: each cubic curve made
    quadratic by cu2qu (within ``MAX_ERROR`` units), each contour turned clockwise, as
    TrueType's run (PostScript's run counter-clockwise). The same points as fontTools'
    ``Cu2QuPen`` into a ``TTGlyphPen`` (a test compares them), in a third of the time."""

    def __init__(self) -> None:
        self.x: list[float] = []
        self.y: list[float] = []
        self.on: list[int] = []  # 1: a point on the curve, 0: a quadratic's control point
        self.ends: list[int] = []  # the last point of each contour
        self._start = 0

    def moveTo(self, point: tuple[float, float]) -> None:
        self.x.append(point[0])
        self.y.append(point[1])
        self.on.append(1)

    lineTo = moveTo

    def curveTo(self, *points: tuple[float, float]) -> None:
        first, second, last = points
        spline = curve_to_quadratic(((self.x[-1], self.y[-1]), first, second, last), MAX_ERROR)
        for x, y in spline[1:-1]:
            self.x.append(x)
            self.y.append(y)
            self.on.append(0)
        self.moveTo(last)

    def qCurveTo(self, *points: tuple[float, float]) -> None:
        for x, y in points[:-1]:
            self.x.append(x)
            self.y.append(y)
            self.on.append(0)
        self.moveTo(points[-1])

    def closePath(self) -> None:
        start, end = self._start, len(self.on) - 1
        columns: tuple[list, ...] = (self.x, self.y, self.on)
        if end <= start:  # a lone point draws nothing
            for column in columns:
                del column[start:]
            return
        if self.x[start] == self.x[end] and self.y[start] == self.y[end]:
            for column in columns:  # the line back to the start is implied
                column.pop()
            end -= 1
        for column in columns:  # the same start, the other way round
            column[start + 1 : end + 1] = column[end:start:-1]
        self.ends.append(end)
        self._start = end + 1

    endPath = closePath

    def compiled(self) -> tuple[bytes, list[int] | None]:
        """Its ``glyf`` entry, and the box it covers (None: it draws nothing). A simple glyph
        whose every flag says only on or off the curve, every coordinate a 16-bit step from
        the last: plain rather than packed, as the PDF is compressed anyway."""
        if not self.ends:
            return b"", None
        xs = [floor(x + 0.5) for x in self.x]  # rounded as fontTools rounds (otRound)
        ys = [floor(y + 0.5) for y in self.y]
        box = [min(xs), min(ys), max(xs), max(ys)]
        steps_x = array("h", [now - before for before, now in zip([0, *xs], xs, strict=False)])
        steps_y = array("h", [now - before for before, now in zip([0, *ys], ys, strict=False)])
        ends = array("H", self.ends)
        if sys.byteorder == "little":
            for column in (steps_x, steps_y, ends):
                column.byteswap()
        parts = (
            struct.pack(">5h", len(self.ends), *box),
            ends.tobytes(),
            b"\0\0",  # no instructions
            bytes(self.on),
            steps_x.tobytes(),
            steps_y.tobytes(),
        )
        return b"".join(parts), box


class _Glyphs:
    """A face's glyph for each character, looked up in the collection as it is asked for,
    and the codes shaping gave to glyphs of no character of their own (``fonts``)."""

    def __init__(self, font: hb.Font) -> None:
        self._font = font
        self.added: dict[int, int] = {}

    def get(self, code: int, default: int | None = None) -> int | None:
        found = self.added.get(code)
        if found is None:
            found = self._font.get_nominal_glyph(code)
        return default if found is None else found

    def __contains__(self, code: object) -> bool:
        return isinstance(code, int) and self.get(code) is not None

    def __getitem__(self, code: int) -> int:
        found = self.get(code)
        if found is None:
            raise KeyError(code)
        return found

    def __setitem__(self, code: int, glyph: int) -> None:
        self.added[code] = glyph

    def __bool__(self) -> bool:
        return True


class MadeFace(TTFontFace):
    """One face and weight of Noto Sans CJK as reportlab sees it: its names and metrics from
    a font of one space, its characters and widths from the collection; when a document is
    saved, each of its subsets (256 characters at most) is cut from a font made of those
    characters alone (``makeSubset``), so a document of 7,200 of them never holds more
    than one such font at a time."""

    def __init__(self, face: str, bold: bool) -> None:
        self.skeleton = truetype(face, bold, [ord(" ")])[0]
        super().__init__(io.BytesIO(self.skeleton))
        self.face, self.bold = face, bold
        self.harfbuzz = _font(bold, face)  # what ``shaping`` shapes a run of this face with
        self.charToGlyph = _Glyphs(self.harfbuzz)  # type: ignore[assignment]
        self.charWidths: dict[int, float] = {}  # what reportlab measures with: ``measure``
        head = _face(bold, face).reference_table("head").data
        self.bbox = list(struct.unpack(">4h", head[36:44]))  # the whole collection's

    def measure(self, text: str) -> None:
        """Have the width of each character of ``text`` where reportlab's measuring (in C)
        reads it; past ``WIDTHS_KEPT`` widths, only those of ``text`` are kept."""
        missing = set(map(ord, text)).difference(self.charWidths)
        if missing:
            if len(self.charWidths) + len(missing) > WIDTHS_KEPT:
                self.charWidths = {}
            for code in missing:
                self.charWidths[code] = self.width(code)

    def width(self, code: int) -> float:
        """A character's advance in thousandths of an em, from the collection."""
        glyph = self.charToGlyph.get(code)
        if glyph is None:
            return self.defaultWidth
        return self.harfbuzz.get_glyph_h_advance(glyph) * 1000 / self.unitsPerEm

    def getCharWidth(self, code: int) -> float:
        found = self.charWidths.get(code)
        return self.width(code) if found is None else found

    def make(self, codes: Collection[int]) -> TTFontFile:
        """A font of the glyphs of ``codes`` alone (characters, and the codes shaping gave),
        as reportlab reads it."""
        added = self.charToGlyph.added  # type: ignore[attr-defined]
        glyphs = {code: added[code] for code in codes if code in added}
        letters = [code for code in codes if code not in glyphs]
        data, moved = truetype(self.face, self.bold, letters, glyphs.values())
        made = TTFontFile(io.BytesIO(data))
        for code, glyph in glyphs.items():
            made.charToGlyph[code] = moved[glyph]
        return made

    def makeSubset(self, subset: list[int]) -> bytes:
        """One subset of a document, as reportlab embeds it, from a font made of it alone."""
        return self.make(subset).makeSubset(subset)
