"""Where every word lands, read back from the PDFs: nothing overlaps, nothing is cut, nothing
is under 9 pt (14 in large print), nothing is near the edge, in every language, for every
size of game (positions from the PDF itself: ``geometry``)."""

from __future__ import annotations

from collections.abc import Callable
from io import BytesIO

import pytest
from geometry import problems
from reportlab.lib.units import mm

from scorekeeper import i18n
from scorekeeper.printing import STANDARD_SET, deck_guide, game_sheet
from scorekeeper.printing.layout import MIN_FONT_SIZE
from scorekeeper.printing.sheet_page import LARGE_FLOOR
from scorekeeper.rules.game import Game
from scorekeeper.rules.gamefile import load_game

pytestmark = pytest.mark.printing  # measures every printable's boxes, in every language

LANGUAGES = tuple(i18n.LANGUAGES)  # every language the app speaks
NAMES = ["José", "Zoë", "Дмитрий", "李雷", "王芳", "שרה", "محمد", "Ελένη"]
VIEW_URL = "http://192.168.1.20:5010/v/g0plOYlSOpy2OZGv_wCYYQ"
CODE = "ABCD0EFGH1JKMNPQ"


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
def test_nothing_overlaps_nothing_is_cut_that_could_be_smaller_and_all_is_6_mm_in(
    language, build, request
):
    with i18n.using(language):
        data = build()
    floor = LARGE_FLOOR if "large" in request.node.callspec.id else MIN_FONT_SIZE
    assert problems(data, floor) == []


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
    canvas.setFont("Helvetica", 8)
    canvas.drawString(100, 250, "tiny")  # under 9 pt
    canvas.save()
    found = " ".join(problems(buffer.getvalue()))
    for said in (
        "'cerró' overlaps '0'",
        "cut at 10.00 pt",
        "'edge' 1.8 mm",
        "'grid' crosses",
        "'tiny' at 8.00 pt, under 9",
    ):
        assert said in found
