"""A print shop's preflight, on every standard printable and a game's record (issue 30, 12):
every font embedded (``pdffonts``) with a subset tag of its own, black and greys in black
ink alone, trim and bleed boxes on the cut sheets, a tagged PDF in the sheet's language."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from games import tied
from pypdf import PdfReader
from tools import require

from scorekeeper.printing import STANDARD_SET, game_sheet
from scorekeeper.printing import cards as card_layout

pytestmark = pytest.mark.printing  # checks the PDFs with poppler's tools

PRINTABLES = {name: build for name, build in STANDARD_SET}
SAMPLES = ["score-sheet-a4.pdf", "phase-cards-mixed-up-letter.pdf", "two-deck-guide-a4.pdf"]
GREY_IN_RGB = re.compile(rb"(?<![\d.])([\d.]+) \1 \1 (?:rg|RG)\b")


def built(name: str) -> bytes:
    return game_sheet(tied(50)) if name == "record" else PRINTABLES[name]()


def content(data: bytes) -> bytes:
    """Every page's drawing operators, and those of the forms the pages draw."""
    reader = PdfReader(io.BytesIO(data))
    out = b""
    for page in reader.pages:
        out += page.get_contents().get_data()
        for form in (page["/Resources"].get("/XObject") or {}).values():
            out += form.get_object().get_data()
    return out


@pytest.mark.parametrize("name", [*SAMPLES, "record"])
def test_every_font_is_embedded_with_a_tag_of_its_own(name, tmp_path):
    require("pdffonts")
    source = tmp_path / "printed.pdf"
    source.write_bytes(built(name))
    rows = [
        line.split()
        for line in subprocess.run(
            ["pdffonts", str(source)], check=True, capture_output=True, text=True
        ).stdout.splitlines()[2:]
    ]
    assert rows and all(row[-5] == "yes" for row in rows), rows  # emb
    assert not any("ZapfDingbats" in row[0] for row in rows)
    tags = [row[0].split("+")[0] for row in rows]
    assert len(set(tags)) == len(tags) and "AAAAAA" not in tags, tags


@pytest.mark.parametrize("name", [*PRINTABLES, "record"])
def test_black_and_greys_are_black_ink_alone(name):
    drawn = content(built(name))
    assert GREY_IN_RGB.findall(drawn) == []  # no black or grey mixed from red, green and blue
    assert b"0 0 0 1 k" in drawn  # text in K only


@pytest.mark.parametrize("name", [name for name in PRINTABLES if name.startswith("phase-cards")])
def test_the_cut_sheets_have_trim_and_bleed_boxes_around_the_cards(name):
    for page in PdfReader(io.BytesIO(PRINTABLES[name]())).pages:
        trim, bleed, media = (
            [float(v) for v in page[key]] for key in ("/TrimBox", "/BleedBox", "/MediaBox")
        )
        assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2]
        assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3]
        width, height = trim[2] - trim[0], trim[3] - trim[1]
        assert round(width / card_layout.PAIR_WIDTH, 6) in (1, 2)  # whole fold pairs
        assert round(height / card_layout.CARD_HEIGHT, 6) in (1, 2)


@pytest.mark.parametrize("name", [*SAMPLES, "record"])
def test_a_printable_is_a_tagged_pdf_in_its_language(name, tmp_path):
    data = built(name)
    catalogue = PdfReader(io.BytesIO(data)).trailer["/Root"]
    assert catalogue["/Lang"] == "en"
    assert catalogue["/MarkInfo"]["/Marked"].value is True
    tree = catalogue["/StructTreeRoot"]
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(tree["/K"]["/K"]) == len(pages)  # a section per page, in page order
    require("pdfinfo")
    source = tmp_path / "printed.pdf"
    source.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(source)], check=True, capture_output=True, text=True)
    assert re.search(r"Tagged:\s+yes", info.stdout)


def test_the_preflight_finds_grey_mixed_from_colours():
    assert GREY_IN_RGB.findall(b"q 0 0 0 rg BT (x) Tj ET .5 .5 .5 RG 0 0 0 1 k") == [b"0", b".5"]
    assert GREY_IN_RGB.findall(b".82 .12 .12 rg") == []  # a colour is a colour


def test_the_committed_printables_pass_as_they_are_built():
    committed = Path(__file__).resolve().parents[1] / "printables" / "score-sheet-a4.pdf"
    assert committed.read_bytes() == PRINTABLES["score-sheet-a4.pdf"]()
