"""Chinese, Japanese and Korean names print from fonts made for each document, one per
subset of 256 letters at most (issue 38, issue 42): a process keeps six CJK faces at most
whatever names it prints, keeps no font made for a document, and the same sheet comes out
byte for byte the same in any process at any moment.

The names are the costliest there are (``printed.scattered_names``): every letter from a
64-code-point block no other letter uses, Chinese, Japanese and Korean by turns.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import uharfbuzz as hb
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import Glyph
from printed import scattered_names, words
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from tools import missing

from scorekeeper.printing import cjk, fonts, game_sheet
from scorekeeper.rules.gamefile import load_game

pytestmark = pytest.mark.printing  # prints Chinese, Japanese and Korean names and reads them back


@pytest.fixture(autouse=True)
def cjk_font() -> None:
    if not cjk.installed():
        missing("fonts-noto-cjk is not installed (./scripts/test installs it)")


def game_file(players: list[str]) -> dict:
    out = players[0]
    hand = {"went_out": out, "made": [out], "points": {name: 50 for name in players[1:]}}
    return {"players": players, "hands": [hand]}


def sheet(players: list[str]) -> bytes:
    return game_sheet(load_game(game_file(players)), pagesize="a4")


def read_back(data: bytes) -> str:
    """The PDF's words run together: a Korean name broken over lines takes a "-" at each
    break, and a mark reads back beside a zero-width space (``shaping``)."""
    return words(data).translate({ord(" "): None, ord("-"): None, 0x200B: None})


def kept_cjk_fonts() -> dict[str, int]:
    """The CJK fonts reportlab keeps in this process, and the bytes of font each holds."""
    return {
        name: len(pdfmetrics.getFont(name).face._ttf_data)
        for name in pdfmetrics.getRegisteredFontNames()
        if name.startswith(cjk.FAMILY)
    }


def cjk_programs(data: bytes) -> dict[str, bytes]:
    """Each CJK font program embedded in a PDF (a TrueType file), by its tagged name."""
    found = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for xobject in page["/Resources"].get("/XObject", {}).values():
            for font in xobject["/Resources"]["/Font"].values():
                if str(font["/BaseFont"]).split("+", 1)[1].startswith(cjk.FAMILY):
                    program = font["/FontDescriptor"]["/FontFile2"].get_data()
                    found[str(font["/BaseFont"])] = program
    return found


def embedded_cjk_fonts(data: bytes) -> dict[str, TTFont]:
    return {name: TTFont(io.BytesIO(program)) for name, program in cjk_programs(data).items()}


def test_a_process_keeps_six_cjk_faces_at_most_whatever_names_it_prints():
    """Two sheets of six 40-letter names in 477 blocks of 64 code points: the second adds no
    font and no byte of font to what the process keeps (there were two fonts a block)."""
    first = sheet(scattered_names(6))
    kept = kept_cjk_fonts()
    assert 1 <= len(kept) <= 6, sorted(kept)
    second = sheet(scattered_names(6, skip=6))
    assert kept_cjk_fonts() == kept
    for data, players in ((first, scattered_names(6)), (second, scattered_names(6, skip=6))):
        assert all(name in read_back(data) for name in players)


def test_a_sheet_draws_the_letters_it_prints_and_no_others(monkeypatch):
    """The work a sheet costs is its own letters: each drawn once a weight, with the
    missing-letter and space glyphs each made font starts with (not a block of 64 each)."""
    drawn = []

    class Counted(cjk._Outline):
        def __init__(self) -> None:
            super().__init__()
            drawn.append(self)

    monkeypatch.setattr(cjk, "_Outline", Counted)
    players = scattered_names(3, skip=9)
    data = sheet(players)
    letters = set("".join(players))
    assert len(letters) <= len(drawn) <= 2 * (len(letters) + 2 * len(cjk.FACES))
    assert all(name in read_back(data) for name in players)


def test_the_same_cjk_sheet_is_the_same_bytes_in_one_process_whatever_was_printed_between():
    players = scattered_names(3)
    first = sheet(players)
    sheet(scattered_names(3, skip=3))
    assert sheet(players) == first


def test_a_made_font_keeps_the_collections_own_dates():
    """Not the moment it was made (fontTools would write that into ``head.modified``)."""
    embedded = embedded_cjk_fonts(sheet(scattered_names(3)))
    assert embedded
    for name, font in embedded.items():
        face, weight = name.split("+", 1)[1].removeprefix(cjk.FAMILY).split("-")
        bold = weight == "Bold"
        index = cjk._face(bold, face.upper()).index
        with TTFont(cjk.FILES[bold], fontNumber=index, lazy=True) as source:
            assert font["head"].modified == source["head"].modified, name
            assert font["head"].created == source["head"].created, name


def print_in_a_process(game: Path, out: Path, **env: str) -> bytes:
    """``scorekeeper print``: the game's sheet, from a process of its own."""
    subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "print", str(game), "--out", str(out)],
        check=True,
        capture_output=True,
        env={**os.environ, **env},
    )
    return out.read_bytes()


def test_the_same_cjk_sheet_is_the_same_bytes_from_two_processes_at_two_moments(tmp_path):
    """Printed twice, each time by a process of its own; then as if years later, which
    reportlab says in the file's own dates (SOURCE_DATE_EPOCH, for reproducible builds) but
    fontTools would also have stamped on every font it saved."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(game_file(scattered_names(3))), encoding="utf-8")
    first = print_in_a_process(game, tmp_path / "first.pdf")
    assert print_in_a_process(game, tmp_path / "again.pdf") == first
    later = print_in_a_process(game, tmp_path / "later.pdf", SOURCE_DATE_EPOCH="2000000000")
    assert cjk_programs(first) and cjk_programs(later) == cjk_programs(first)


def test_a_cjk_letter_with_a_mark_is_shaped_and_reads_back_as_written():
    """A mark on an ideograph is placed by HarfBuzz from the collection, and its glyph is in
    the document's font under a code of its own."""
    name = "王\u0301小明"
    data = sheet([name, "Ann"])
    assert name in read_back(data)
    assert embedded_cjk_fonts(data)


@pytest.mark.parametrize(("face", "bold"), [("SC", False), ("JP", True), ("KR", False)])
def test_an_outline_is_what_fonttools_own_pens_draw(face, bold):
    """``cjk._Outline`` (a third of the time) against cu2qu's pen into a TrueType pen, over
    every 97th glyph of the collection."""
    font = hb.Font(cjk._face(bold, face))
    for glyph in range(0, font.face.glyph_count, 97):
        ours = cjk._Outline()
        font.draw_glyph_with_pen(glyph, ours)
        data, box = ours.compiled()
        pen = TTGlyphPen(None)
        font.draw_glyph_with_pen(
            glyph, Cu2QuPen(pen, max_err=cjk.MAX_ERROR, reverse_direction=True)
        )
        theirs = pen.glyph()
        if not data:
            assert theirs.numberOfContours == 0, glyph
            continue
        read = Glyph(data)
        read.expand(None)
        assert list(read.coordinates) == list(theirs.coordinates), glyph
        assert list(read.endPtsOfContours) == list(theirs.endPtsOfContours), glyph
        assert [flag & 1 for flag in read.flags] == [flag & 1 for flag in theirs.flags], glyph
        theirs.recalcBounds(None)
        assert box == [theirs.xMin, theirs.yMin, theirs.xMax, theirs.yMax], glyph


def test_a_long_document_lets_the_other_requests_of_its_worker_run(monkeypatch):
    """Between every ``BETWEEN_TURNS`` glyphs drawn, a turn for the rest of the process (under
    gevent, ``time.sleep(0)`` is where a Save waiting on the same worker goes ahead)."""
    turns = []
    monkeypatch.setattr(cjk, "let_others_run", lambda: turns.append(1))
    letters = [0x4E00 + 3 * number for number in range(200)]
    _data, moved = cjk.truetype("SC", False, letters)
    assert len(turns) >= len(moved) // cjk.BETWEEN_TURNS >= 3


def test_a_face_measures_from_the_collection_and_keeps_few_widths():
    """Each width is looked up once for reportlab's measuring, and a face keeps no more than
    ``WIDTHS_KEPT`` of them, however many names it measures."""
    [(name, _part)] = fonts.runs("王小明")
    face = pdfmetrics.getFont(name).face
    for start in range(0x4E00, 0x4E00 + 3 * cjk.WIDTHS_KEPT, 400):
        face.measure("".join(chr(code) for code in range(start, start + 400)))
        assert len(face.charWidths) <= cjk.WIDTHS_KEPT
    assert pdfmetrics.stringWidth("王小明", name, 10) == 30  # a full em each


def test_a_night_of_7200_letters_is_embedded_from_fonts_of_one_subset_each(monkeypatch):
    """The costliest printable (180 names sharing no letter, on a night's seating cards and
    room list) drew its 7,200 letters into one font, held whole with reportlab's reading of
    it while every subset was cut: +27 MB (issue 38). Each font made now holds one subset
    (256 letters at most), and all of them together every letter, each drawn once."""
    from scorekeeper.printing.night_seating import seating_cards
    from scorekeeper.rules.nights import TableSeating

    made: list[int] = []
    drawn: list[int] = []
    real = cjk.truetype

    def counted(face, bold, codes, glyphs=()):
        codes, glyphs = list(codes), list(glyphs)
        made.append(len(codes) + len(glyphs))
        drawn.extend(codes)
        return real(face, bold, codes, glyphs)

    monkeypatch.setattr(cjk, "truetype", counted)
    letters = iter(range(0x4E00, 0xA000))
    names = ["".join(chr(next(letters)) for _ in range(40)) for _ in range(180)]
    tables = [TableSeating(n + 1, tuple(names[4 * n : 4 * n + 4])) for n in range(45)]
    fonts.runs("王")  # the face these letters take, with its bold, registered beforehand
    made.clear()
    drawn.clear()
    data = seating_cards("Club night", 1, tables)
    assert made and max(made) <= 256
    letters = [code for code in drawn if code not in (0, 32)]  # each subset's own two
    assert sorted(letters) == sorted(map(ord, "".join(names)))  # each drawn once
    programs = {
        str(font["/BaseFont"]): font["/FontDescriptor"]["/FontFile2"].get_data()
        for page in PdfReader(io.BytesIO(data)).pages
        for font in page["/Resources"]["/Font"].values()
        if str(font["/BaseFont"]).split("+", 1)[1].startswith(cjk.FAMILY)
    }
    assert len(programs) == len(made)
    assert all(TTFont(io.BytesIO(p))["maxp"].numGlyphs <= 257 for p in programs.values())
    text = read_back(data)
    assert all(name in text for name in names[::17])


def test_the_collection_is_asked_which_letters_it_has():
    """``has`` asks the collection's own map, copying none of its 65,000 characters."""
    covered = frozenset(cjk._face(False, "SC").unicodes)
    for code in [*range(0x3000, 0x3100), *range(0x4E00, 0x9FFF, 7), *range(0xAC00, 0xD7A4, 11)]:
        assert cjk.has(chr(code)) == (code in covered), hex(code)
    assert not cjk.has("A") or ord("A") in covered


def test_a_process_keeps_the_fonts_of_a_bounded_number_of_characters():
    """``runs`` asks each letter's font once and keeps the answer, but never for every
    character there is: names in 20,000 different ones leave at most CHARACTERS_KEPT."""
    text = "".join(chr(code) for code in range(0x4E00, 0x4E00 + 20_000))
    for start in range(0, len(text), 400):
        assert fonts.runs(text[start : start + 400])[0][1]
    for kept in (fonts.fallback, fonts.printable, fonts._letter):
        assert kept.cache_info().currsize <= fonts.CHARACTERS_KEPT
    assert fonts._letter.cache_info().currsize == fonts.CHARACTERS_KEPT  # it did fill up
