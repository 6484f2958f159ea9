"""Where every word lands on a PDF's pages, read back with pdfplumber: each text run as
drawn (letters on one baseline, in one size, touching), every ruled line and box, every
tick, and everything wrong with a layout in words (``problems``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from itertools import combinations

import pdfplumber
import uharfbuzz as hb
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics

from scorekeeper.printing.layout import MIN_FONT_SIZE

EDGE = 6 * mm  # the least room between anything printed and the page's edge
# A letter's ink, as a share of its size, above and below its baseline (caps and
# descenders: the font's own box is taller, with room for accents no cell needs).
INK_ABOVE, INK_BELOW = 0.70, 0.18
TOUCH = 0.2  # pt: closer than this is touching


@dataclass(frozen=True)
class Box:
    """Something on the page, in points from the page's top left."""

    x0: float
    top: float
    x1: float
    bottom: float
    what: str
    size: float = 0.0

    def overlaps(self, other: Box) -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > TOUCH
            and min(self.bottom, other.bottom) - max(self.top, other.top) > TOUCH
        )


def text_runs(page: pdfplumber.page.Page) -> list[Box]:
    """Each run of letters as drawn: one baseline, one size, each letter touching the last
    with no rule between them (two cells' numbers either side of a rule are two runs)."""
    walls = [s for s in strokes(page) if s.x1 - s.x0 < 2 and s.bottom - s.top > 2]

    def ruled(last: dict, char: dict) -> bool:
        baseline = page.height - char["matrix"][5]
        return any(
            last["x1"] <= (wall.x0 + wall.x1) / 2 <= char["x0"]
            and wall.top < baseline < wall.bottom
            for wall in walls
        )

    runs: list[list[dict]] = []
    for char in page.chars:
        if not char["text"].strip():
            runs.append([])
            continue
        if runs and runs[-1] and _mark(char):
            runs[-1].append(char)  # a mark, placed on its letter by the shaper
            continue
        last = next((c for c in reversed(runs[-1]) if not _mark(c)), None) if runs else None
        if (
            last is None
            or abs(last["matrix"][5] - char["matrix"][5]) > 0.1
            or abs(last["size"] - char["size"]) > 0.01
            # touching: a shaped run's kerning may pull a letter a little under the last
            or not -max(0.5, 0.05 * char["size"]) < char["x0"] - last["x1"] < 0.3 * char["size"]
            or ruled(last, char)
        ):
            runs.append([])
        runs[-1].append(char)
    boxes = []
    for run in filter(None, runs):
        size = run[0]["size"]
        baseline = page.height - run[0]["matrix"][5]
        boxes.append(
            Box(
                min(c["x0"] for c in run),
                baseline - INK_ABOVE * size,
                max(c["x1"] for c in run),
                baseline + INK_BELOW * size,
                "".join(c["text"] for c in run),
                size,
            )
        )
    return boxes


def _mark(char: dict) -> bool:
    return all(unicodedata.category(c)[0] == "M" for c in char["text"])


def strokes(page: pdfplumber.page.Page) -> list[Box]:
    """Ruled lines, the edges of stroked boxes, and ticks (each with its line's width)."""
    found = []
    for line in page.lines:
        half = max(line.get("linewidth", 0.5) / 2, TOUCH)
        found.append(
            Box(
                line["x0"] - half,
                line["top"] - half,
                line["x1"] + half,
                line["bottom"] + half,
                "line",
            )
        )
    for rect in page.rects:
        if not rect.get("stroke"):
            continue
        half = max(rect.get("linewidth", 0.5) / 2, TOUCH)
        x0, top, x1, bottom = rect["x0"], rect["top"], rect["x1"], rect["bottom"]
        found += [
            Box(x0 - half, top - half, x1 + half, top + half, "box"),
            Box(x0 - half, bottom - half, x1 + half, bottom + half, "box"),
            Box(x0 - half, top - half, x0 + half, bottom + half, "box"),
            Box(x1 - half, top - half, x1 + half, bottom + half, "box"),
        ]
    for curve in page.curves:
        found.append(Box(curve["x0"], curve["top"], curve["x1"], curve["bottom"], "tick"))
    return found


def problems(data: bytes, floor: float = MIN_FONT_SIZE) -> list[str]:
    """Everything wrong with a PDF's layout, in words, page by page: overlaps, words across
    lines, anything cut short with "…", type under ``floor`` (9 pt; 14 in large print),
    anything within 6 mm of the edge."""
    found = []
    with pdfplumber.open(BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            runs, lines = text_runs(page), strokes(page)
            for a, b in combinations(runs, 2):
                if a.overlaps(b):
                    found.append(f"page {number}: {a.what!r} overlaps {b.what!r}")
            for run in runs:
                found += [
                    f"page {number}: {run.what!r} crosses a {line.what}"
                    for line in lines
                    if run.overlaps(line)
                ]
                if "\u2026" in run.what:  # issue 30: nothing is cut short on paper
                    found.append(f"page {number}: {run.what!r} cut at {run.size:.2f} pt")
                if run.size < floor - 0.01:
                    found.append(f"page {number}: {run.what!r} at {run.size:.2f} pt, under {floor}")
            ticks = [line for line in lines if line.what == "tick"]
            for tick in ticks:
                found += [
                    f"page {number}: a tick crosses a line"
                    for line in lines
                    if line.what != "tick" and tick.overlaps(line)
                ]
            things = [*runs, *lines, *_drawn(page)]
            for thing in things:
                gaps = (thing.x0, thing.top, page.width - thing.x1, page.height - thing.bottom)
                if min(gaps) < EDGE:
                    found.append(
                        f"page {number}: {thing.what!r} {min(gaps) / mm:.1f} mm from the edge"
                    )
    return found


def _drawn(page: pdfplumber.page.Page) -> list[Box]:
    """Filled shapes (shading, QR modules), which must keep off the edge too."""
    return [Box(r["x0"], r["top"], r["x1"], r["bottom"], "shape") for r in page.rects]


def glyph_boxes(page: pdfplumber.page.Page) -> list[tuple[float, Box]]:
    """Each letter's ink as its font draws it, where the PDF puts it: the box of the
    letter's own glyph in the embedded font (HarfBuzz's extents; a joined Arabic letter is
    measured by its plain form), each with the baseline of the line it belongs to (a mark
    placed above or below its letter goes with the nearest line's)."""
    chars = [c for c in page.chars if c["text"].strip() and c["text"] != "\u200b"]
    baselines = sorted({round(page.height - c["matrix"][5], 1) for c in chars if not _mark(c)})
    found = []
    for char in chars:
        font = _hb_font(char["fontname"].split("+", 1)[-1])
        if font is None:
            continue
        scale = char["size"] / font.face.upem
        x, y = char["matrix"][4], page.height - char["matrix"][5]
        for letter in char["text"]:
            glyph = font.get_nominal_glyph(ord(letter))
            extents = font.get_glyph_extents(glyph) if glyph else None
            if not extents or not extents.width or not extents.height:
                continue
            top = y - extents.y_bearing * scale
            box = Box(
                x + extents.x_bearing * scale,
                top,
                x + (extents.x_bearing + extents.width) * scale,
                top - extents.height * scale,
                letter,
                char["size"],
            )
            found.append((min(baselines, key=lambda line: abs(line - y), default=y), box))
    return found


@cache
def _hb_font(name: str) -> hb.Font | None:
    """The font the app registered as ``name`` (this process printed the PDF)."""
    try:
        face = pdfmetrics.getFont(name).face
    except KeyError:
        return None
    return getattr(face, "harfbuzz", None) or hb.Font(hb.Face(hb.Blob(face._ttf_data)))


def touching_ink(data: bytes) -> list[str]:
    """Letters whose ink touches a letter of another line, or crosses a rule: measured from
    each glyph's own box in its font (``glyph_boxes``), not from a share of the size."""
    found = []
    with pdfplumber.open(BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            boxes, lines = glyph_boxes(page), [s for s in strokes(page) if s.what != "tick"]
            by_line: dict[float, list[Box]] = {}
            for line, box in boxes:
                by_line.setdefault(line, []).append(box)
            baselines = sorted(by_line)
            for upper, lower in zip(baselines, baselines[1:], strict=False):
                found += [
                    f"page {number}: {a.what!r} touches {b.what!r} of the next line"
                    for a in by_line[upper]
                    for b in by_line[lower]
                    if a.overlaps(b)
                ]
            for _, box in boxes:
                found += [
                    f"page {number}: {box.what!r} touches a {line.what}"
                    for line in lines
                    if box.overlaps(line)
                ]
    return found
