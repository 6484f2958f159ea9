"""Where every word lands, read back from the PDFs: nothing overlaps, nothing is cut that could
have been smaller, nothing is near the edge, in every language, for every size of game.

Positions come from the PDF itself (pdfplumber): each text run as drawn (letters on one
baseline, in one size, touching), every ruled line and box, every tick.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from itertools import combinations

import pdfplumber
import pytest
from reportlab.lib.units import mm

from scorekeeper import i18n
from scorekeeper.printing import STANDARD_SET, deck_guide, game_sheet
from scorekeeper.printing.layout import MIN_FONT_SIZE
from scorekeeper.rules.game import Game
from scorekeeper.rules.gamefile import load_game

LANGUAGES = tuple(i18n.LANGUAGES)  # every language the app speaks
NAMES = ["José", "Zoë", "Дмитрий", "李雷", "王芳", "שרה", "محمد", "Ελένη"]
VIEW_URL = "http://192.168.1.20:5010/v/g0plOYlSOpy2OZGv_wCYYQ"
CODE = "ABCD0EFGH1JKMNPQ"
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
    """Each run of letters as drawn: one baseline, one size, each letter touching the last."""
    runs: list[list[dict]] = []
    for char in page.chars:
        if not char["text"].strip():
            runs.append([])
            continue
        last = runs[-1][-1] if runs and runs[-1] else None
        if (
            last is None
            or abs(last["matrix"][5] - char["matrix"][5]) > 0.1
            or abs(last["size"] - char["size"]) > 0.01
            or not -0.5 < char["x0"] - last["x1"] < 0.3 * char["size"]
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


def problems(data: bytes) -> list[str]:
    """Everything wrong with a PDF's layout, in words, page by page."""
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
                if "\u2026" in run.what:  # nothing here is too long for the smallest size
                    smaller = "" if run.size <= MIN_FONT_SIZE + 0.01 else ", not made smaller"
                    found.append(f"page {number}: {run.what!r} cut at {run.size:.2f} pt{smaller}")
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


# --- the PDFs -------------------------------------------------------------------------


def played(players: list[str], hands: int, rules: str = "official", **options: str) -> Game:
    """A game of ``hands`` hands, each player going out in turn, with a floater every third."""
    record = []
    for number in range(hands):
        out = players[number % len(players)]
        points = {name: 50 + 5 * ((number + seat) % 4) for seat, name in enumerate(players)}
        del points[out]
        hand = {"went_out": out, "made": [out], "points": points}
        if number % 3 == 1:
            floater = players[(number + 1) % len(players)]
            del points[floater]
            hand.update(floaters=[floater], made=[out, floater])
        record.append(hand)
    long_list = {"custom_phases": "; ".join(["2 sets of 3"] * 30)} if rules == "official" else {}
    options = {"going_out": "discard", **long_list, **options}
    return load_game({"rules": rules, "options": options, "players": players, "hands": record})


def won_by_mohammed() -> Game:
    """שרה and محمد tie, محمد deals the tiebreak and wins it; José is out of it."""
    players = ["שרה", "محمد", "José"]
    both = [
        {"went_out": "שרה", "made": ["שרה", "محمد"], "points": {"محمد": 5, "José": 60}},
        {"went_out": "محمد", "made": ["שרה", "محمد"], "points": {"שרה": 5, "José": 60}},
    ] * 5
    tiebreak = {"went_out": "محمد", "made": ["محمد"], "points": {"שרה": 55}, "tiebreak": True}
    return load_game({"players": players, "dealer": "שרה", "hands": [*both, tiebreak]})


GAMES: dict[str, Callable[[], bytes]] = {
    "2 players, 3 hands": lambda: game_sheet(played(NAMES[:2], 3), view_url=VIEW_URL, code=CODE),
    "4 players, 12 hands, A4": lambda: game_sheet(
        played(NAMES[4:8], 12), view_url=VIEW_URL, code=CODE, pagesize="a4"
    ),
    "6 players, 12 hands, A4": lambda: game_sheet(
        played(NAMES[:6], 12), view_url=VIEW_URL, code=CODE, pagesize="a4"
    ),
    "6 players, 60 hands": lambda: game_sheet(played(NAMES[2:8], 60), view_url=VIEW_URL),
    "4 players, 60 hands, A4": lambda: game_sheet(played(NAMES[4:8], 60), pagesize="a4"),
    "4 players, 12 hands, large": lambda: game_sheet(played(NAMES[:4], 12), large=True),
    "ten hands, finished": lambda: game_sheet(
        played(NAMES[3:7], 10, "ten-hands"), view_url=VIEW_URL, code=CODE
    ),
    "a tiebreak won": lambda: game_sheet(won_by_mohammed(), view_url=VIEW_URL, code=CODE),
    "the app's guide": lambda: deck_guide(
        played(NAMES[:2], 1).rules, app_url="http://192.168.1.20:5010/"
    ),
    "the game's guide": lambda: deck_guide(
        played(NAMES[:4], 3).rules, pagesize="a4", view_url=VIEW_URL, code=CODE
    ),
}
CASES = [
    pytest.param(language, build, id=f"{language}-{name}")
    for language in LANGUAGES
    for name, build in [*STANDARD_SET, *GAMES.items()]
]


@pytest.mark.parametrize(("language", "build"), CASES)
def test_nothing_overlaps_nothing_is_cut_that_could_be_smaller_and_all_is_6_mm_in(language, build):
    with i18n.using(language):
        data = build()
    assert problems(data) == []


def test_the_check_finds_overlaps_cuts_and_edges():
    """The geometry check itself, on a page made to fail it."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(200 * mm, 100 * mm))
    canvas.setFont("Helvetica", 10)
    canvas.drawString(50, 50, "cerró")
    canvas.drawString(70, 52, "0")  # over "cerró"
    canvas.drawString(100, 150, "Punt\u2026")  # cut at 10 pt
    canvas.drawString(5, 200, "edge")  # under 2 mm from the left
    canvas.line(120, 20, 120, 80)
    canvas.drawString(110, 50, "grid")  # across the line
    canvas.save()
    found = " ".join(problems(buffer.getvalue()))
    for said in ("'cerró' overlaps '0'", "cut at 10.00 pt", "'edge' 1.8 mm", "'grid' crosses"):
        assert said in found
