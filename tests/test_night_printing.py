"""A club night's printables (issue 31), read back from the PDFs: each table's seating card
(its number, the seats in order, who deals first in words, the watch code and a QR code of
the watch link), who sits where, and the night's standings (order, numbers, shared places,
the winner in words), for 14 players and for a room of 180, in any script and in German.

The seatings and standings are the engine's own (``seat_round``, ``night_standings`` over
games the engine replayed): the sheets must print what the app decided, not a copy.
"""

from __future__ import annotations

import subprocess
import unicodedata
from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from geometry import problems, touching_ink
from printed import pages, qr_codes, word_boxes, words
from pypdf import PdfReader
from reportlab.lib.units import mm
from tools import require

from scorekeeper import codes, i18n
from scorekeeper.printing import night_seating as layout
from scorekeeper.printing.layout import page_size
from scorekeeper.printing.night_seating import alphabetical, seating_cards, seating_list
from scorekeeper.printing.night_standings import standings_sheet
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import (
    Mode,
    NightRow,
    Scheme,
    Seating,
    night_standings,
    results,
    seat_round,
)
from scorekeeper.rules.replay import replay

pytestmark = pytest.mark.printing  # prints a night's cards and standings

FOURTEEN = [
    "Ann", "Bob", "Cy", "Dee", "Émile", "Flo", "Gus",
    "Hana", "Ivo", "Jo", "Kai", "Lea", "Mo", "Nils",
]  # fmt: skip
SCRIPTS = ["प्रिया", "สมชาย", "مُحَمَّد", "王小明", "Ana María de la Santísima Trinidad Rojas"]
MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u2066\u2067\u2068\u2069\u202a\u202b\u202c"))


def code(table: int) -> str:
    """A table's watch code: 16 letters of the codes' alphabet."""
    return f"ABCD{table:02}EFGHJKMNPQ"


def link(table: int) -> str:
    return f"http://192.168.1.20:5010/v/game{table:03}xyz"


def seated(players=FOURTEEN, seed: int | str = "round 1", tables: int | None = None) -> Seating:
    return seat_round(players, Mode.RANDOM, seed=seed, tables=tables)


def played(seating: Seating) -> list:
    """Each table's game of the round, replayed by the engine: a game of the first phase,
    over in one hand. Seat 1 goes out; the others keep 50 points and 5 a seat, except that the last
    two seats keep the same points (they share a place)."""
    games = []
    for table in seating.tables:
        seats = table.seats
        points = {name: 50 + 5 * seat for seat, name in enumerate(seats[1:], start=1)}
        if len(seats) > 2:
            points[seats[-1]] = points[seats[-2]]
        hand = {"went_out": seats[0], "made": [seats[0]], "points": points}
        game = load_game({"options": {"first": "1"}, "players": list(seats), "hands": [hand]})
        games.append(results(replay(game), game.rules))
    return games


def night(players=FOURTEEN, scheme=Scheme.PLACEMENT, rounds=2, tables=None) -> list[NightRow]:
    """Two rounds: the first at random, the second with new opponents."""
    first = seated(players, tables=tables)
    second = seat_round(
        players,
        Mode.NEW_OPPONENTS,
        seed="round 2",
        tables=tables,
        earlier=[table.seats for table in first.tables],
    )
    games = played(first) + (played(second) if rounds == 2 else [])
    return night_standings(games, scheme)


def card_texts(data: bytes, pagesize: str = "letter") -> list[str]:
    """The text of each card, page by page, in table order, lines joined by newlines."""
    width, height = page_size(pagesize)
    left = (width - layout.CARD_COLUMNS * layout.CARD_WIDTH) / 2
    top = (height - layout.CARD_ROWS * layout.CARD_HEIGHT) / 2  # from the page's top
    texts = []
    with pdfplumber.open(BytesIO(data)) as pdf:
        for page in pdf.pages:
            if not page.rects and not page.lines:
                continue
            for row in range(layout.CARD_ROWS):
                for column in range(layout.CARD_COLUMNS):
                    x = left + column * layout.CARD_WIDTH
                    y = top + row * layout.CARD_HEIGHT
                    box = (x, y, x + layout.CARD_WIDTH, y + layout.CARD_HEIGHT)
                    text = page.crop(box).extract_text()
                    if text.splitlines()[1:2] in (["Table"], ["Tisch"]):  # not the room list
                        texts.append(text)
    return texts


def page_lines(data: bytes) -> list[list[str]]:
    """Each page's lines of text, as pdfplumber reads them."""
    with pdfplumber.open(BytesIO(data)) as pdf:
        return [(page.extract_text() or "").splitlines() for page in pdf.pages]


def halves(data: bytes) -> list[str]:
    """The lines of each page's left half, then of its right half: the room list's two
    columns, one after the other."""
    lines = []
    with pdfplumber.open(BytesIO(data)) as pdf:
        for page in pdf.pages:
            middle = page.width / 2
            for box in ((0, 0, middle, page.height), (middle, 0, page.width, page.height)):
                lines += (page.crop(box).extract_text() or "").splitlines()
    return lines


def in_order(text: str, *parts: str) -> bool:
    """Every part is in ``text``, each after the one before."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def read_back(data: bytes, tmp_path: Path) -> str:
    """The text poppler reads (names in any script, as their letters), white space squeezed,
    direction marks dropped."""
    require("pdftotext")
    source = tmp_path / "night.pdf"
    source.write_bytes(data)
    text = subprocess.run(
        ["pdftotext", str(source), "-"], check=True, capture_output=True, text=True
    ).stdout
    return unicodedata.normalize("NFC", " ".join(text.translate(MARKS).split()))


# --- seating cards -------------------------------------------------------------------------


def test_fourteen_players_sit_at_four_tables_of_4_4_3_3():
    assert [len(table.seats) for table in seated().tables] == [4, 4, 3, 3]


def test_each_table_has_a_card_with_its_number_the_round_and_the_seats_in_order():
    seating = seated()
    data = seating_cards("Thursday club", 2, seating.tables, room_list=False)
    assert pages(data) == 1  # four cards to a page
    cards = card_texts(data)
    assert len(cards) == 4
    for table, text in zip(seating.tables, cards, strict=True):
        lines = text.splitlines()
        assert lines[:3] == ["Thursday club", "Table", str(table.number)], text
        assert "Round 2" in lines
        numbered = [f"{seat} {name}" for seat, name in enumerate(table.seats, start=1)]
        assert in_order(text, "Seats, clockwise from seat 1", *numbered), text


def test_the_dealer_is_named_in_words_under_seat_1_and_nowhere_else():
    seating = seated()
    for table, text in zip(
        seating.tables, card_texts(seating_cards("Club", 1, seating.tables)), strict=True
    ):
        assert text.count("deals first") == 1
        assert in_order(text, f"1 {table.dealer}", "deals first", f"2 {table.seats[1]}"), text


def test_a_card_prints_its_tables_watch_link_to_type_and_as_a_qr_code(tmp_path):
    seating = seated()
    links = {table.number: link(table.number) for table in seating.tables}
    watch = {table.number: code(table.number) for table in seating.tables}
    data = seating_cards("Club", 1, seating.tables, codes=watch, links=links, room_list=False)
    for table, text in zip(seating.tables, card_texts(data), strict=True):
        typed = "".join(text.split("Live scores: scan the code, or type this link:")[1].split())
        assert typed == f"http://192.168.1.20:5010/{codes.grouped(code(table.number))}"
    assert sorted(qr_codes(data, tmp_path)) == sorted(links.values())


def test_a_cards_printed_link_never_breaks_inside_its_code(tmp_path):
    """Issue 40, 8: the link under the QR code wrapped at a dash of the code, which then
    read as two codes; the code is a line of its own, whole."""
    seating = seated()
    links = {table.number: link(table.number) for table in seating.tables}
    watch = {table.number: code(table.number) for table in seating.tables}
    data = seating_cards("Club", 1, seating.tables, codes=watch, links=links, room_list=False)
    printed = {word for page in word_boxes(data, tmp_path) for *_box, word in page}
    for table in seating.tables:
        assert codes.grouped(code(table.number)) in printed


def test_without_a_link_a_card_gives_the_code_to_read_aloud_and_no_qr_code(tmp_path):
    seating = seated()
    watch = {table.number: code(table.number) for table in seating.tables}
    data = seating_cards("Club", 1, seating.tables, codes=watch, room_list=False)
    for table, text in zip(seating.tables, card_texts(data), strict=True):
        assert in_order(
            text, "Live scores: the code to read aloud", codes.grouped(code(table.number))
        )
    assert qr_codes(data, tmp_path) == []


def test_the_card_pages_have_trim_and_bleed_boxes_around_their_cards_and_the_list_none():
    """A print shop cuts the cards out: the pages of cards say where, with 3 mm of bleed
    (as the phase cards do)."""
    seating = seated(players=[f"P{n}" for n in range(22)])  # 6 tables: a full page, then 2
    reader = PdfReader(BytesIO(seating_cards("Club", 1, seating.tables)))
    *cards, room = reader.pages
    assert len(cards) == 2
    for page, (columns, rows) in zip(cards, [(2, 2), (2, 1)], strict=True):
        trim = [float(v) for v in page["/TrimBox"]]
        bleed = [trim[0] - 3 * mm, trim[1] - 3 * mm, trim[2] + 3 * mm, trim[3] + 3 * mm]
        assert [float(v) for v in page["/BleedBox"]] == pytest.approx(bleed, abs=0.01)
        width, height = trim[2] - trim[0], trim[3] - trim[1]
        assert round(width / layout.CARD_WIDTH, 6) == columns
        assert round(height / layout.CARD_HEIGHT, 6) == rows
    assert "/TrimBox" not in room and "/BleedBox" not in room


def test_thirty_tables_take_eight_pages_of_cards_then_the_room_list():
    players = [f"Player {number:03}" for number in range(1, 181)]
    seating = seated(players, tables=30)
    data = seating_cards("Big night", 3, seating.tables)
    cards = card_texts(data)
    assert [text.splitlines()[2] for text in cards] == [str(n) for n in range(1, 31)]
    assert all(text.count("deals first") == 1 for text in cards)
    listed = " ".join(line for page in page_lines(data)[8:] for line in page)
    for table in seating.tables:
        for seat, name in enumerate(table.seats, start=1):
            assert f"{name} {table.number} {seat}" in listed


def test_six_long_names_at_one_table_print_whole_and_nothing_overlaps_or_is_under_9_pt():
    players = [f"{first} Maria de los Ángeles Fernández Ruiz"[:40] for first in "ABCDEF"]
    seating = seated(players, tables=1)
    data = seating_cards(
        "A night with long names", 1, seating.tables, links={1: link(1)}, codes={1: code(1)}
    )
    assert problems(data) == []
    text = " ".join(card_texts(data)[0].split())
    for seat, name in enumerate(seating.tables[0].seats, start=1):
        assert f"{seat} {name}" in text


def test_a_forty_letter_word_wraps_on_its_card_rather_than_shrinking_among_its_table():
    """Issue 42: one 40-letter word printed at 10.8 pt beside 20 pt names; it now takes two
    lines at three quarters of their size or more, and reads back whole."""
    long = "Wolfeschlegelsteinhausenbergerdorffvonab"
    seating = seated(["Ann", "Bob", long, "Dora"], tables=1)
    data = seating_cards("Club", 1, seating.tables, room_list=False)
    with pdfplumber.open(BytesIO(data)) as pdf:
        printed = pdf.pages[0].extract_words(extra_attrs=["size"])
    sizes = {word["text"]: word["size"] for word in printed}
    assert sizes["Ann"] == sizes["Bob"] == sizes["Dora"] == 20
    for word in printed:  # the hyphen added to break the word reads as U+200B
        word["text"] = word["text"].replace("\u200b", "")
    parts = [word for word in printed if len(word["text"]) > 3 and word["text"] in long]
    assert "".join(word["text"] for word in parts) == long
    assert len(parts) == 2 and min(word["size"] for word in parts) >= 0.75 * 20


@pytest.mark.parametrize("pagesize", ["letter", "a4"])
def test_the_cards_and_the_room_list_keep_inside_the_page_and_to_9_pt(pagesize):
    seating = seated()
    links = {table.number: link(table.number) for table in seating.tables}
    watch = {table.number: code(table.number) for table in seating.tables}
    data = seating_cards("Club", 2, seating.tables, codes=watch, links=links, pagesize=pagesize)
    assert problems(data) == []


# --- who sits where --------------------------------------------------------------------


def test_the_room_list_gives_everyone_their_table_and_seat_in_alphabetical_order():
    seating = seated()
    data = seating_list("Thursday club", 2, seating.tables)
    assert pages(data) == 1
    lines = halves(data)
    assert lines[:2] == ["Thursday club", "Round 2: who sits where"]
    rows = [line for line in lines if line.split(" ")[0] in FOURTEEN]
    assert [row.split(" ")[0] for row in rows] == sorted(FOURTEEN, key=alphabetical)
    assert [row.split(" ")[0] for row in rows][4] == "Émile"  # between Dee and Flo
    for row in rows:
        name, table, seat = row.split(" ")
        sits_at = seating.table_of(name)
        assert sits_at is not None
        assert (int(table), int(seat)) == (sits_at.number, sits_at.seats.index(name) + 1)


def test_the_cards_end_with_the_same_room_list():
    seating = seated()
    with_cards = page_lines(seating_cards("Club", 1, seating.tables))
    alone = page_lines(seating_list("Club", 1, seating.tables))
    assert with_cards[1:] == alone


# --- the night's standings -----------------------------------------------------------------


def test_the_standings_print_every_row_in_the_engines_order_with_its_numbers():
    rows = night()
    data = standings_sheet(
        "Thursday club", "Friday, November 27, 2026", rows, Scheme.PLACEMENT,
        rounds=2, tables_per_round=[4, 4],
    )  # fmt: skip
    text = words(data)
    assert in_order(
        text,
        "Thursday club",
        "Final standings after 2 rounds",
        "Friday, November 27, 2026 · 4 tables in each round · 14 players",
        "Points for places",
        Scheme.PLACEMENT.explained,
        "Place Player Points Games Total score Phases made",
    )
    (lines,) = page_lines(data)
    printed = [line for line in lines if line.split(" ")[1:2] and line.split(" ")[1] in FOURTEEN]
    assert [line.split(" ")[1] for line in printed] == [row.name for row in rows]
    for line, row in zip(printed, rows, strict=True):
        numbers = line.split(" ")[-4:]
        assert numbers == [str(row.points), str(row.games), str(row.score), str(row.phases)]


def test_a_shared_place_reads_2_equals_on_each_row_that_shares_it():
    rows = night()
    shared = [row for row in rows if sum(other.place == row.place for other in rows) > 1]
    assert shared, "the night has a shared place to print"
    (lines,) = page_lines(standings_sheet("Club", "today", rows, Scheme.PLACEMENT, rounds=2))
    by_name = {line.split(" ")[1]: line for line in lines if line[:1].isdigit()}
    for row in rows:
        place = f"{row.place}=" if row in shared else str(row.place)
        assert by_name[row.name].split(" ")[0] == place
    assert "A place with “=” is shared" in " ".join(lines)


def test_the_winner_is_named_in_words_above_the_table_and_on_their_row():
    rows = [
        NightRow(1, "Ann", 360, 3, 40, 9, 40),
        NightRow(2, "Bob", 300, 3, 55, 8, 55),
        NightRow(2, "Cy", 300, 3, 55, 7, 55),
    ]
    text = words(standings_sheet("Club", "today", rows, Scheme.PLACEMENT, rounds=3))
    assert "Winner of the night: Ann" in text
    assert in_order(text, "1 Ann (winner) 360 3 40 9", "2= Bob 300", "2= Cy 300")
    shared = [NightRow(1, "Ann", 360, 3, 40, 9, 40), NightRow(1, "Bob", 360, 3, 40, 9, 40)]
    text = words(standings_sheet("Club", "today", shared, Scheme.PLACEMENT, rounds=3))
    assert "The win is shared: Ann and Bob" in text
    assert in_order(text, "1= Ann (shares the win)", "1= Bob (shares the win)")
    text = words(standings_sheet("Club", "today", rows, Scheme.PLACEMENT, rounds=1, final=False))
    assert "Standings after 1 round" in text and "In the lead: Ann" in text
    assert "Ann (leads)" in text and "(winner)" not in text


def test_the_total_score_scheme_prints_the_total_once():
    rows = night(scheme=Scheme.CUMULATIVE)
    text = words(standings_sheet("Club", "today", rows, Scheme.CUMULATIVE, rounds=2))
    assert in_order(text, "Total score", Scheme.CUMULATIVE.explained)
    assert "Place Player Games Total score Phases made" in text
    assert "Points" not in text
    first = rows[0]
    assert f"{first.name} (winner) {first.games} {first.score} {first.phases}" in text


def test_a_room_of_180_players_spans_pages_each_with_the_headings():
    players = [f"Player {number:03}" for number in range(1, 181)]
    rows = night(players, tables=30)
    data = standings_sheet(
        "Big night", "today", rows, Scheme.PLACEMENT, rounds=2, tables_per_round=[30, 30]
    )
    lines = page_lines(data)
    assert len(lines) >= 4
    for number, page in enumerate(lines, start=1):
        text = " ".join(page)
        # the headings, "Phases made" on two lines beside the others
        assert {"Place Player Points Games Total score", "Phases", "made"} <= set(page)
        assert "Big night" in text
        assert f"Page {number} of {len(lines)}." in text
    names = [
        line.split(" ")[1] + " " + line.split(" ")[2]
        for page in lines
        for line in page
        if " Player " in line and line[:1].isdigit()
    ]
    assert names == [row.name for row in rows]  # every row once, in order, over the pages
    assert problems(data) == []


# --- names in any script, user text, German --------------------------------------------


def test_names_in_any_script_print_whole_on_the_cards_the_list_and_the_standings(tmp_path):
    require("pdftotext")
    players = [*SCRIPTS, "Dana <b>&amp;</b> Co", "Ed", "Flo"]
    seating = seated(players)
    cards = read_back(seating_cards("Nacht der Schriften", 1, seating.tables), tmp_path)
    standings = read_back(
        standings_sheet("Nacht der Schriften", "today", night(players), Scheme.PLACEMENT, rounds=2),
        tmp_path,
    )
    for text in (cards, standings):
        for name in players:
            assert name in text, name
        assert "?" not in text and "\u2026" not in text and "[U+" not in text
    assert cards.count("प्रिया") == 2  # on the card and in the room list


def test_the_printables_of_a_night_speak_german():
    seating = seated()
    rows = night()
    with i18n.using("de"):
        cards = words(seating_cards("Donnerstagsrunde", 2, seating.tables, codes={1: code(1)}))
        standings = words(
            standings_sheet(
                "Donnerstagsrunde",
                "Freitag, 27. November 2026",
                rows,
                Scheme.PLACEMENT,
                rounds=2,
                tables_per_round=[4, 4],
            )  # fmt: skip
        )
    for said in (
        "Tisch",
        "Durchgang 2",
        "Plätze, im Uhrzeigersinn ab Platz 1",
        "gibt zuerst",
        "Punkte live: der Code zum Vorlesen",
        "Durchgang 2: Wer sitzt wo",
        "Such deinen Namen",
    ):
        assert said in cards, said
    for said in (
        "Endstand nach 2 Durchgängen",
        "Freitag, 27. November 2026 · 4 Tische in jedem Durchgang · 14 Spieler",
        "Punkte für Plätze",
        # two lines; the hyphen added to break "Gesamtpunkte" reads as no letter (issue 42)
        "Platz Spieler Punkte Partien Gesamt punkte Phasen geschafft",
        "(gewinnt)",
    ):
        assert said in standings, said
    for english in ("Table", "Round", "deals first", "Seat", "Player", "Games", "winner"):
        assert english not in cards + standings, english


def test_the_same_night_prints_the_same_bytes():
    seating = seated()
    assert seating_cards("Club", 1, seating.tables) == seating_cards("Club", 1, seating.tables)
    rows = night()
    once = standings_sheet("Club", "today", rows, Scheme.PLACEMENT, rounds=2)
    assert once == standings_sheet("Club", "today", rows, Scheme.PLACEMENT, rounds=2)


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_in_every_language_the_night_prints_within_its_boxes_and_to_9_pt(language):
    seating = seated()
    links = {table.number: link(table.number) for table in seating.tables}
    watch = {table.number: code(table.number) for table in seating.tables}
    with i18n.using(language):
        cards = seating_cards("Club", 2, seating.tables, codes=watch, links=links, pagesize="a4")
        standings = standings_sheet(
            "Club", "27.11.2026", night(), Scheme.PLACEMENT, rounds=2, tables_per_round=[4, 4]
        )
    assert problems(cards) == []
    assert problems(standings) == []


def test_a_nights_arabic_heading_of_two_lines_keeps_its_dots_off_the_next_line():
    """The dots under ي in the first line of an Arabic heading touched the letters of the
    second (issue 42, 8): the lines are spaced by what the Arabic font draws. Each glyph's
    box, from its font, placed where the PDF puts it, clears the next line's."""
    rows = night(["أحمد", "عَلِيّ", "Zoë", "Ann"])
    name = "ليلة عَلِيّ في النادي الكبير مع الأصدقاء يوم الجمعة"
    data = standings_sheet(f"{name} {name}", "today", rows, Scheme.PLACEMENT, rounds=2)
    assert touching_ink(data) == []
