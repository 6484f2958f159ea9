"""Ready for a print shop (issue 42, 7): a page of cards to cut out says where the cut is
(TrimBox) and gives 3 mm of bleed past it (BleedBox); its crop marks start outside the bleed,
one in line with every cut; nothing is drawn on a cut, so a cut a hair off leaves no sliver
of a line on a card; and every PDF says what its CMYK means (a FOGRA39 output intent, its
profile embedded).
"""

from __future__ import annotations

import hashlib
import re
from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm
from test_printing_pdfua import BUILT

from scorekeeper.printing import STANDARD_SET, cards, night_seating, press
from scorekeeper.rules.nights import Mode, seat_round

BLEED = 3 * mm
NEAR = 0.05  # pt: on a line
PRINTABLES = dict(STANDARD_SET)
PHASE_CARDS = [name for name in PRINTABLES if name.startswith("phase-cards")]


def seating(pagesize: str) -> bytes:
    players = [f"Player {number}" for number in range(1, 23)]  # six tables: 4, then 2 cards
    tables = seat_round(players, Mode.RANDOM, seed="round 1").tables
    return night_seating.seating_cards("Club", 1, tables, pagesize=pagesize, room_list=False)


# each cut sheet, and the size of the pieces cut out of it (a fold pair, a seating card)
CUT = {
    **{name: (PRINTABLES[name], (cards.PAIR_WIDTH, cards.CARD_HEIGHT)) for name in PHASE_CARDS},
    **{
        f"seating-cards-{size}": (
            lambda size=size: seating(size),
            (night_seating.CARD_WIDTH, night_seating.CARD_HEIGHT),
        )
        for size in ("a4", "letter")
    },
}


def boxes(page) -> tuple[list[float], list[float], list[float]]:
    return tuple([float(v) for v in page[key]] for key in ("/TrimBox", "/BleedBox", "/MediaBox"))


@pytest.mark.parametrize("name", list(CUT))
def test_the_bleed_is_3_mm_past_the_trim_on_every_side_within_the_page(name):
    build, (width, height) = CUT[name]
    for page in PdfReader(BytesIO(build())).pages:
        trim, bleed, media = boxes(page)
        grown = [trim[0] - BLEED, trim[1] - BLEED, trim[2] + BLEED, trim[3] + BLEED]
        assert bleed == pytest.approx(grown, abs=0.01)
        assert media[0] <= bleed[0] and media[1] <= bleed[1]
        assert bleed[2] <= media[2] and bleed[3] <= media[3]
        columns, rows = (trim[2] - trim[0]) / width, (trim[3] - trim[1]) / height
        assert round(columns, 6) in (1, 2) and round(rows, 6) in (1, 2)  # whole pieces


def segments(page) -> list[tuple[float, float, float, float]]:
    """Every stroked line and every edge of a stroked box, in PDF points from the bottom."""
    height = float(page.height)
    found = [
        (line["x0"], height - line["bottom"], line["x1"], height - line["top"])
        for line in page.lines
    ]
    for rect in page.rects:
        if rect.get("stroke"):
            x0, y0, x1, y1 = rect["x0"], height - rect["bottom"], rect["x1"], height - rect["top"]
            found += [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]
    return found


def outside(segment, box, by: float) -> bool:
    """True when ``segment`` keeps at least ``by`` away from ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = segment
    return (
        max(x0, x1) <= box[0] - by + NEAR
        or min(x0, x1) >= box[2] + by - NEAR
        or max(y0, y1) <= box[1] - by + NEAR
        or min(y0, y1) >= box[3] + by - NEAR
    )


def cuts(trim, width: float, height: float) -> tuple[list[float], list[float]]:
    """The x of every vertical cut and the y of every horizontal one."""
    columns = round((trim[2] - trim[0]) / width)
    rows = round((trim[3] - trim[1]) / height)
    return (
        [trim[0] + column * width for column in range(columns + 1)],
        [trim[1] + row * height for row in range(rows + 1)],
    )


def cut_pages(name: str):
    """Each page of the printable ``name``: the lines drawn on it, its trim and bleed boxes,
    and where its cards are cut (x of each vertical cut, y of each horizontal one)."""
    build, (width, height) = CUT[name]
    data = build()
    with pdfplumber.open(BytesIO(data)) as pdf:
        for page, read in zip(pdf.pages, PdfReader(BytesIO(data)).pages, strict=True):
            trim, bleed, _media = boxes(read)
            yield segments(page), trim, bleed, cuts(trim, width, height)


@pytest.mark.parametrize("name", list(CUT))
def test_crop_marks_start_outside_the_bleed_in_line_with_every_cut(name):
    for drawn, trim, _bleed, (xs, ys) in cut_pages(name):
        marks = [segment for segment in drawn if outside(segment, trim, 0)]
        assert marks
        assert [mark for mark in marks if not outside(mark, trim, BLEED)] == []
        for x in xs:  # a vertical cut: a mark above the cards in line with it
            assert any(
                abs(m[0] - x) < NEAR and abs(m[2] - x) < NEAR and min(m[1], m[3]) > trim[3]
                for m in marks
            ), (name, x)
        for y in ys:  # a horizontal cut: a mark on either side
            for left in (True, False):
                assert any(
                    abs(m[1] - y) < NEAR
                    and abs(m[3] - y) < NEAR
                    and ((max(m[0], m[2]) < trim[0]) if left else (min(m[0], m[2]) > trim[2]))
                    for m in marks
                ), (name, y, left)


@pytest.mark.parametrize("name", list(CUT))
def test_nothing_is_drawn_on_a_cut(name):
    for drawn, _trim, bleed, (xs, ys) in cut_pages(name):
        inside = [s for s in drawn if not outside(s, bleed, 0)]
        on_cut = [
            s
            for s in inside
            if (any(abs(s[0] - x) < 0.5 and abs(s[2] - x) < 0.5 for x in xs) and s[1] != s[3])
            or (any(abs(s[1] - y) < 0.5 and abs(s[3] - y) < 0.5 for y in ys) and s[0] != s[2])
        ]
        assert on_cut == [], name


PROFILE_HASH = re.compile(r"\| CoatedFOGRA39-argyll\.icc \| ([0-9a-f]{64}) \|")


def test_the_profile_is_the_one_its_readme_describes():
    profile = press.PROFILE.read_bytes()
    readme = (Path(press.PROFILE).parent / "README.md").read_text()
    assert hashlib.sha256(profile).hexdigest() == PROFILE_HASH.search(readme).group(1)
    assert int.from_bytes(profile[0:4], "big") == len(profile)  # an ICC profile's own size
    assert profile[12:24] == b"prtrCMYKLab "  # an output profile, CMYK to Lab
    assert profile[36:40] == b"acsp"  # the ICC signature


@pytest.mark.parametrize("name", list(BUILT))
def test_every_pdf_says_its_cmyk_is_for_fogra39_with_the_profile_embedded(name):
    catalogue = PdfReader(BytesIO(BUILT[name]())).trailer["/Root"]
    (intent,) = catalogue["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/Type"] == "/OutputIntent" and intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/RegistryName"] == "http://www.color.org"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    assert profile.get_data() == press.PROFILE.read_bytes()
