"""A printed record a screen reader can read (issue 30): the structure tree, walked as a
reader walks it, and the content streams checked by reading them (there is no verapdf here).

A record's title is an H1, its grid a Table with a heading cell per player (their name, in
any script) and a row per printed row; every MCID on a page is in the parent tree once;
marked content is balanced and never nested the wrong way; everything drawn outside an
element is an artifact; a QR code is a Figure whose /Alt says what it opens and its link
(issue 42). The phase cards, the two-deck guide and a club night's printables are tagged too.
"""

from __future__ import annotations

import re

import pytest
from games import tied
from tagged import Node, Tagged, read, readable

from scorekeeper.printing import (
    STANDARD_SET,
    deck_guide,
    game_sheet,
    reference_cards,
    score_sheet,
    text,
)
from scorekeeper.printing.night_seating import seating_cards
from scorekeeper.printing.night_standings import standings_sheet
from scorekeeper.printing.record import game_record
from scorekeeper.rules.gamefile import load_game
from scorekeeper.rules.nights import Mode, NightRow, Scheme, seat_round
from scorekeeper.rules.ruleset import make_rules

pytestmark = pytest.mark.printing  # reads the tagged structure of the PDFs

PRINTABLES = dict(STANDARD_SET)
LINK = "http://192.168.1.20:5010/v/AbCdEfGhIjKlMnOpQrStUv"
PLAYERS = ["Ann", "مُحَمَّد", "王小明", "דנה כהן"]  # Arabic with its vowel marks, Chinese, Hebrew
GROUPS = {"Document", "Sect", "Div", "Table", "THead", "TBody", "TR", "L", "LI"}
RIGHT_TO_LEFT = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+(?: +[\u0590-\u08ff]+)*")


def record(players: list[str] = PLAYERS, hands: int = 6, phases: int = 10, **options) -> bytes:
    """A game in progress on a list of ``phases`` phases: each player goes out in turn and
    makes their phase."""
    played = [
        {
            "went_out": players[number % len(players)],
            "made": [players[number % len(players)]],
            "points": {name: 60 for name in players if name != players[number % len(players)]},
        }
        for number in range(hands)
    ]
    rules = {"custom_phases": "; ".join(["2 sets of 3"] * phases)} if phases != 10 else {}
    game = load_game({"options": rules, "players": players, "hands": played})
    return game_sheet(game, **options)


def logical(text: str) -> str:
    """Text read back in reading order: a right-to-left run is drawn (and its /ActualText
    given) in the order it is seen, which a reader turns round."""
    return readable(RIGHT_TO_LEFT.sub(lambda run: run.group()[::-1], text))


def one(nodes: list[Node]) -> Node:
    assert len(nodes) == 1, [node.kind for node in nodes]
    return nodes[0]


def body_rows(tagged: Tagged, table: Node) -> list[list[str]]:
    """The text of each cell of each row of a table's body."""
    body = one([kid for kid in table.kids if kid.kind == "TBody"])
    return body_rows_of(tagged, body)


def body_rows_of(tagged: Tagged, body: Node) -> list[list[str]]:
    return [[readable(tagged.text(cell)) for cell in row.kids] for row in body.kids]


def test_a_record_reads_its_title_as_a_heading_and_each_name_as_a_column_heading():
    tagged = read(record())
    page = tagged.root.kids[0]
    heading = one(page.find("H1"))
    title = "Phase 10: " + ", ".join(PLAYERS)
    assert logical(tagged.text(heading)) == readable(title)
    table = next(table for table in page.find("Table") if table.find("THead"))
    (row,) = one(table.find("THead")).kids
    cells = [cell for cell in row.kids if cell.kind == "TH"]
    assert [tagged.text(cell) for cell in cells[:2]] == ["Hand", "Dealer"]
    for cell, name in zip(cells[2:], PLAYERS, strict=True):  # the name, then its columns
        assert logical(tagged.text(cell)) == readable(name) + "PhasePointsTotal"
        assert cell.entries["/A"]["/Scope"] == "/Column"


def test_a_record_has_a_row_for_each_printed_row_its_hand_read_first():
    game = tied(50)  # ten hands, a tiebreak, the result
    tagged = read(game_sheet(game))
    (page,) = tagged.root.kids
    table = next(table for table in page.find("Table") if table.find("THead"))
    rows = body_rows(tagged, table)
    labels = [row.label for row in game_record(game).rows]
    assert labels[:10] == [str(number) for number in range(1, 11)] and len(labels) == 12
    assert [row[0] for row in rows] == labels  # the hand (a row heading) first
    assert all(len(row) == 2 + len(game.players) for row in rows)  # hand, dealer, players
    assert rows[0][1:] == ["Ann", "1✓out00", "1✓55", "16060"]  # dealer; Ann went out, Bob, Cy
    blank = read(score_sheet(make_rules()))
    (blank_table,) = [t for t in blank.root.find("Table") if t.find("THead")]
    blank_rows = body_rows(blank, blank_table)
    assert blank_rows[0][0] == "Carried" and blank_rows[1][0] == "1"
    assert [row[0] for row in blank_rows[1:]] == [str(n) for n in range(1, len(blank_rows))]


def test_a_long_record_tags_each_page_and_leaves_what_pages_repeat_to_the_first():
    long = record(["Ann", "Bob", "Cy"], hands=60, phases=30, pagesize="a4", view_url=LINK)
    tagged = read(long)
    pages = tagged.root.kids
    assert len(pages) == len(tagged.pages) > 1
    assert len(pages[0].find("H1")) == 1 and len(pages[0].find("Figure")) == 1
    for page in pages[1:]:
        assert page.find("H1") == [] and page.find("Figure") == []  # pagination artifacts
        table = one([table for table in page.find("Table") if table.find("THead")])
        assert body_rows(tagged, table)[0][0] == "Carried"
    labels = [row[0] for body in tagged.root.find("TBody") for row in body_rows_of(tagged, body)]
    assert [label for label in labels if label.isdigit()][:60] == [str(n) for n in range(1, 61)]


def test_a_qr_code_is_a_figure_whose_alternative_text_says_what_it_opens_and_its_link():
    tagged = read(record(view_url=LINK))
    figure = one(tagged.root.find("Figure"))
    assert figure.entries["/Alt"] == f"QR code to this game's live scores: {LINK}"
    box = [float(value) for value in figure.entries["/A"]["/BBox"]]
    assert box[2] - box[0] == pytest.approx(box[3] - box[1])  # the code's square
    assert box[2] > box[0]


def test_a_made_phase_reads_with_its_tick():
    tagged = read(record())
    table = next(table for table in tagged.root.find("Table") if table.find("THead"))
    first = body_rows(tagged, table)[0]
    assert first[2].startswith("1\u2713")  # Ann made phase 1: the tick is drawn as lines
    assert "\u2713" not in first[3]


SAMPLES = [
    "score-sheet-letter.pdf",
    "score-sheet-large-a4.pdf",
    "score-sheet-ten-hands-a4.pdf",
    "phase-cards-mixed-up-letter.pdf",
    "two-deck-guide-a4.pdf",
]


def built(name: str) -> bytes:
    if name == "record":
        return record(view_url=LINK)
    if name == "long record":
        return record(["Ann", "Bob", "Cy"], hands=60, phases=30, pagesize="a4")
    return PRINTABLES[name]()


@pytest.mark.parametrize("name", [*SAMPLES, "record", "long record"])
def test_every_mcid_of_a_page_is_in_the_parent_tree_once(name):
    tagged = read(built(name))
    assert tagged.struct_parents == list(range(len(tagged.pages)))  # every page has its key
    owners: dict[tuple[int, int], list[str]] = {}
    for node in tagged.root.walk():
        for page, mcid in node.mcids:
            owners.setdefault((page, mcid), []).append(node.kind)
    for index, page in enumerate(tagged.pages):
        assert sorted(page.mcids) == list(range(len(page.mcids)))  # each marked once
        parents = tagged.parents[index]
        assert len(parents) == len(page.mcids)
        for mcid, element in enumerate(parents):
            assert element is not None and (index, mcid) in element.mcids
            assert len(owners[index, mcid]) == 1
    assert sum(len(page.mcids) for page in tagged.pages) > 3 * len(tagged.pages)


@pytest.mark.parametrize("name", [*SAMPLES, "record", "long record"])
def test_marked_content_is_balanced_and_what_no_element_holds_is_an_artifact(name):
    tagged = read(built(name))
    for page in tagged.pages:
        assert page.problems == []
        assert page.untagged == []  # nothing painted outside an element or an artifact
        assert page.artifacts > 0  # rules, shading, cut marks


@pytest.mark.parametrize("name", ["record", "long record", "score-sheet-a4.pdf"])
def test_a_sheet_draws_nothing_outside_its_headings_paragraphs_and_cells(name):
    """A sheet is tagged in detail: no content falls back to its page's section."""
    tagged = read(built(name))
    for parents in tagged.parents.values():
        assert {element.kind for element in parents} & GROUPS == set()


def test_a_card_reads_its_title_its_phases_as_a_list_and_its_points_as_a_table():
    rules = make_rules()
    tagged = read(reference_cards(rules))
    card = tagged.root.kids[0].kids[0]
    assert card.kind == "Div"
    assert tagged.text(one(card.find("H1"))) == text.phase_list_title(rules)
    items = one(card.find("L")).kids
    assert [[readable(tagged.text(part)) for part in item.kids] for item in items] == [
        [text.numbered(number), readable(words)] for number, words in text.phase_rows(rules)
    ]
    headings = [tagged.text(heading) for heading in tagged.root.find("H2")]
    assert "GROUPS" in headings and "POINTS LEFT IN HAND" in headings
    table = tagged.root.find("Table")[0]
    rows = [[(cell.kind, readable(tagged.text(cell))) for cell in row.kids] for row in table.kids]
    assert rows[0][:2] == [("TH", "1to9"), ("TD", "5")]  # the cards heading their row


def test_the_guide_reads_as_headings_paragraphs_tables_and_its_code_after_the_opening():
    url = "http://192.168.1.20:5010/"
    tagged = read(deck_guide(make_rules(), app_url=url))
    (page,) = tagged.root.kids
    kinds = [kid.kind for kid in page.kids]
    assert kinds[:5] == ["H1", "P", "P", "Figure", "P"]  # the title first, the code after
    assert tagged.text(page.kids[0]) == "Phase 10 with two regular decks"
    assert (
        page.kids[3].entries["/Alt"]
        == f"QR code to keep score with the Phase 10 Scorekeeper: {url}"
    )
    assert "What each card becomes" in [tagged.text(h) for h in page.find("H2")]
    cards = page.find("Table")[0]
    assert [tagged.text(cell) for cell in cards.kids[0].kids] == [
        "Playing card",
        "Phase 10 card",
        "Points left in hand",
    ]
    assert all(cell.kind == "TH" for cell in cards.kids[0].kids)
    assert [readable(tagged.text(cell)) for cell in cards.kids[1].kids] == ["Ace", "1", "5"]
    assert len(one(page.find("L")).kids) == 10  # the phases


def test_a_nights_cards_room_list_and_standings_are_tagged():
    names = ["Ann", "Bob", "Cy", "Dee", "Émile", "Flo", "Gus", "王小明", "مُحَمَّد"]
    seating = seat_round(names, Mode.RANDOM, seed="round 1")
    links = {table.number: f"{LINK[:-3]}{table.number:03}" for table in seating.tables}
    tagged = read(seating_cards("Club", 1, seating.tables, links=links))
    cards, room = tagged.root.kids
    for card, table in zip(cards.kids, seating.tables, strict=True):
        assert readable(tagged.text(one(card.find("H1")))) == f"Table{table.number}"
        seats = [logical(tagged.text(item.kids[1])) for item in one(card.find("L")).kids]
        assert [seat.removesuffix("dealsfirst") for seat in seats] == [
            readable(name) for name in table.seats
        ]
        alt = one(card.find("Figure")).entries["/Alt"]
        assert alt == f"QR code to this table's live scores: {links[table.number]}"
    for column in room.find("Table"):  # the list in two columns, each a table
        heading = column.kids[0]
        assert [tagged.text(cell) for cell in heading.kids] == ["Player", "Table", "Seat"]
    rows = [NightRow(i + 1, name, 10 - i, 2, 100 + i, 5, 100 + i) for i, name in enumerate(names)]
    standings = read(standings_sheet("Club", "Friday", rows, Scheme.PLACEMENT, rounds=2))
    board = one(standings.root.find("Table"))
    assert [cell.kind for cell in board.kids[1].kids][:2] == ["TD", "TH"]  # place, player
    for built_pdf in (tagged, standings):
        for page in built_pdf.pages:
            assert page.problems == [] and page.untagged == []
