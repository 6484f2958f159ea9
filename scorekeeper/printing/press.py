"""What a print shop reads in our PDFs: the colours' printing condition, and where cards are cut.

Every PDF carries an output intent: our colours are DeviceCMYK (``tagging.TaggedCanvas``
enforces it, black in K alone), meant for coated offset paper as FOGRA39 describes it, the
ICC registry's name a print shop's preflight knows; the profile that describes it is embedded
(``profiles/``, docs/decisions.md says where it comes from). A page of cards to cut out says
where the cut is (TrimBox: the cards' outer edges) and how far past it the shop may trim into
(BleedBox, 3 mm more on every side); the crop marks start outside the bleed, so a cut a hair
off never leaves a piece of a mark on a card.
"""

from __future__ import annotations

import zlib
from functools import cache
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

BLEED = 3 * mm  # past the cut, on every side: what a print shop expects
MARK_GAP = BLEED + 0.5 * mm  # crop marks start this far from the cut, clear of the bleed...
MARK_LENGTH = 3 * mm  # ...and are this long

PROFILE = Path(__file__).with_name("profiles") / "CoatedFOGRA39-argyll.icc"
CONDITION = "FOGRA39"  # the ICC registry's name for the printing condition
CONDITION_WORDS = "Coated FOGRA39 (ISO 12647-2:2004, coated paper, offset)"
REGISTRY = "http://www.color.org"

Box = tuple[float, float, float, float]


def cut_boxes(canvas: Canvas, trim: Box | None) -> None:
    """The current and following pages cut at ``trim`` (x0, y0, x1, y1), with 3 mm of bleed
    around it (within the page); ``None``: a plain page, not cut."""
    if trim is None:
        canvas.setTrimBox(None)
        canvas.setBleedBox(None)
        return
    width, height = canvas._pagesize
    left, bottom, right, top = trim
    canvas.setTrimBox(list(trim))
    canvas.setBleedBox(
        [
            max(0.0, left - BLEED),
            max(0.0, bottom - BLEED),
            min(width, right + BLEED),
            min(height, top + BLEED),
        ]
    )


def output_intent(document: pdfdoc.PDFDocument) -> None:
    """Give ``document`` its output intent: FOGRA39, with the profile embedded."""
    stream = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary({"N": 4, "Filter": pdfdoc.PDFName("FlateDecode")}),
        _profile(),
        filters=[],
    )
    intent = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString(CONDITION),
            "RegistryName": pdfdoc.PDFString(REGISTRY),
            "Info": pdfdoc.PDFString(CONDITION_WORDS),
            "DestOutputProfile": document.Reference(stream),
        }
    )
    catalog = document.Catalog
    catalog.__NoDefault__ = [*pdfdoc.PDFCatalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = pdfdoc.PDFArray([intent])


@cache
def _profile() -> bytes:
    """The profile, compressed once (the same bytes in every PDF)."""
    return zlib.compress(PROFILE.read_bytes(), 9)
